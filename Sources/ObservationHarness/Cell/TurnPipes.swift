import Foundation

/// The two named pipes of a round of ``TurnTaking``, in a private temporary directory, held
/// open by the parent until `remove()` so that a turn given before a process opens its pipe
/// is not lost.
package final class TurnPipes {
  let directory: String
  let toBase: String
  let toCandidate: String
  private var descriptors: [Int32] = []

  init() throws {
    var template = Array((NSTemporaryDirectory() + "/paired-turns-XXXXXX").utf8CString)
    guard let made = mkdtemp(&template) else {
      throw HarnessError("cannot create a temporary directory: \(String(cString: strerror(errno)))")
    }
    directory = String(cString: made)
    ScratchDirectories.remember(directory)
    toBase = directory + "/to-base"
    toCandidate = directory + "/to-candidate"
    for path in [toBase, toCandidate] {
      guard mkfifo(path, 0o600) == 0 else {
        let reason = String(cString: strerror(errno))
        remove()
        throw HarnessError("cannot create '\(path)': \(reason)")
      }
      let descriptor = open(path, O_RDWR | O_CLOEXEC)
      guard descriptor >= 0 else {
        let reason = String(cString: strerror(errno))
        remove()
        throw HarnessError("cannot open '\(path)': \(reason)")
      }
      descriptors.append(descriptor)
    }
  }

  /// Gives the first turn to the base's process, or to the candidate's.
  ///
  /// - Throws: ``HarnessError`` if the byte could not be written; the processes then
  ///   go on alone after `TurnTaking/patience`.
  func giveFirstTurn(toBase: Bool) throws {
    var byte = TurnTaking.token
    let descriptor = descriptors[toBase ? 0 : 1]
    var written = write(descriptor, &byte, 1)
    while written < 0 && errno == EINTR { written = write(descriptor, &byte, 1) }
    guard written == 1 else {
      throw HarnessError("cannot give the first turn: \(String(cString: strerror(errno)))")
    }
  }

  /// Closes the parent's ends and deletes the pipes and their directory.
  func remove() {
    for descriptor in descriptors { close(descriptor) }
    descriptors = []
    for path in [toBase, toCandidate] { unlink(path) }
    rmdir(directory)
    ScratchDirectories.forget(directory)
  }
}
