import Foundation

/// What a child process printed; each field is written by one reader and read after both finish.
package final class Collected: @unchecked Sendable {
  var output = Data()
  var errors = Data()
}
