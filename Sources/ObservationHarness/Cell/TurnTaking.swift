import Foundation

/// Two cell processes that measure in turn, one repetition each, passing a token through two
/// named pipes: the way `ab` pairs a base repetition with a candidate repetition made a few
/// milliseconds later, on a machine in the same state.
///
/// On a shared virtual machine the cost of one delivery moves by half within tens of
/// milliseconds (another guest, the host's own work). Fresh processes run one after the other
/// see different moments; two processes that alternate repetitions see nearly the same ones,
/// and the ratio of neighbouring repetitions cancels what the moment did to both.
///
/// Each process waits for the token before its warm-up and before every measured repetition,
/// and passes it on after. A process that ends (done, out of budget, or failing) sends
/// `finished` instead, and its partner goes on alone; a partner that died without a word is
/// waited for at most `patience` seconds per turn.
package final class TurnTaking {
  private let input: Int32
  private let output: Int32
  private var partnerFinished = false

  /// The byte that passes the turn.
  static let token: UInt8 = 0x2E
  /// The byte a process sends when it will take no more turns.
  static let finished: UInt8 = 0x21
  /// Seconds to wait for a turn before going on alone.
  static let patience = 5.0

  /// Opens the two pipes. Both are opened for reading and writing, which on Linux never blocks
  /// and keeps a pipe open whichever process comes first.
  package init(takingFrom inputPath: String, passingTo outputPath: String) throws {
    input = open(inputPath, O_RDWR | O_CLOEXEC)
    output = open(outputPath, O_RDWR | O_CLOEXEC)
    guard input >= 0, output >= 0 else {
      let reason = String(cString: strerror(errno))
      if input >= 0 { close(input) }
      throw HarnessError("--turns: cannot open '\(input < 0 ? inputPath : outputPath)': \(reason)")
    }
  }

  deinit {
    close(input)
    close(output)
  }

  /// Waits until the partner passes the turn, has finished, or has been silent for
  /// `patience` seconds.
  func take() {
    guard !partnerFinished else { return }
    var descriptor = pollfd(fd: input, events: Int16(POLLIN), revents: 0)
    while true {
      let ready = poll(&descriptor, 1, Int32(Self.patience * 1000))
      if ready < 0 && errno == EINTR { continue }
      guard ready > 0 else {
        partnerFinished = true
        return
      }
      var byte: UInt8 = 0
      let count = read(input, &byte, 1)
      if count < 0 && errno == EINTR { continue }
      if count != 1 || byte == Self.finished { partnerFinished = true }
      return
    }
  }

  /// Passes the turn to the partner.
  func pass() { send(Self.token) }

  /// Tells the partner this process takes no more turns.
  func finish() { send(Self.finished) }

  private func send(_ byte: UInt8) {
    var byte = byte
    while write(output, &byte, 1) < 0 && errno == EINTR {}
  }
}
