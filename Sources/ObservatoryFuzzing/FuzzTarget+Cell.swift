import Foundation
import ObservationHarness

extension FuzzTarget {
  /// The cell request target: parsed; if it parses, its arguments parse to the same request.
  static func checkCellRequest(_ input: [UInt8]) throws(FuzzFinding) {
    let arguments = input.split(separator: 0, maxSplits: 63, omittingEmptySubsequences: false)
      .map { String(decoding: $0, as: UTF8.self) }
    guard let request = try? CellRequest(arguments: arguments) else { return }
    let written = request.arguments
    let again: CellRequest
    do { again = try CellRequest(arguments: written) } catch {
      throw FuzzFinding("a request's own arguments are refused: \(error)")
    }
    guard again.arguments == written else {
      throw FuzzFinding("a request's arguments parse to another request: \(written)")
    }
  }

  /// The cell reply target: decoded; if it decodes, encoded and decoded to the same reply.
  static func checkCellReply(_ input: [UInt8]) throws(FuzzFinding) {
    guard let outcome = try? CellChild.outcome(ofReply: Data(input)) else { return }
    let written: String
    do { written = try CellChild.reply(outcome) } catch {
      throw FuzzFinding("a reply that decodes cannot be encoded again: \(error)")
    }
    let again: String
    do {
      again = try CellChild.reply(try CellChild.outcome(ofReply: Data(written.utf8)))
    } catch {
      throw FuzzFinding("a reply encoded again does not decode: \(error)")
    }
    guard again == written else {
      throw FuzzFinding("a reply encoded, decoded and encoded again changes")
    }
  }
}
