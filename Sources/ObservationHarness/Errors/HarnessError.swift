/// Why the harness cannot measure: something a measurement needs (a library, a temporary file,
/// callgrind, the machine) is not as it should be. It says so in one line, for the command line
/// to report as it is.
package struct HarnessError: Error, CustomStringConvertible, Equatable {
  /// The problem, in one line.
  package let description: String

  /// An error whose message is `description`.
  package init(_ description: String) { self.description = description }
}
