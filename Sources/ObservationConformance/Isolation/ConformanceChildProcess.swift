import Foundation

/// One child process of an isolated run, seen from the parent: started with the known outcomes
/// on its standard input, its standard output and standard error read line by line against a
/// deadline, and at the end killed if need be and reaped.
///
/// Standard output and standard error are one pipe, so that what the child writes arrives in
/// the order it wrote it: the Swift runtime's `Fatal error: ...` after the `starting` line of
/// the rule that trapped, never before. A thread of its own reads the pipe to its end, so that
/// the child never blocks on a full pipe and a killed child's pipe is drained before it is
/// closed.
final class ConformanceChildProcess: @unchecked Sendable {
  /// What ``next(before:)`` found.
  enum Next {
    /// A line of output, without its newline.
    case line(String)
    /// The output ended: the child has exited or is about to.
    case end
    /// Nothing came before the deadline.
    case timedOut
  }

  /// How the child ended.
  enum Termination: Hashable, CustomStringConvertible {
    /// Killed by this signal.
    case signal(Int32)
    /// Exited with this status.
    case exit(Int32)

    var description: String {
      switch self {
      case .signal(let number): return "was killed by signal \(number)\(signalName(number))"
      case .exit(let status): return "exited with status \(status)"
      }
    }
  }

  private let process = Process()
  private let output = Pipe()
  private let lines = LineQueue()
  private let exited = DispatchSemaphore(value: 0)
  private let reader = DispatchSemaphore(value: 0)

  /// The child's process id.
  var processIdentifier: Int32 { process.processIdentifier }

  /// Starts `executable` with `arguments` and `environment`, writing `input` to its standard
  /// input (which is empty when `input` is `nil`).
  ///
  /// - Throws: ``ConformanceIsolationError/childDidNotStart(_:)`` if it cannot be started.
  init(executable: URL, arguments: [String], environment: [String: String], input: Data?) throws {
    process.executableURL = executable
    process.arguments = arguments
    process.environment = environment
    process.standardOutput = output
    process.standardError = output
    // A socket rather than a pipe for the input: `send` with MSG_NOSIGNAL reports a child that
    // died before reading as an error, where a write to a pipe would raise SIGPIPE here.
    var inputEnds: [Int32] = [-1, -1]
    if input != nil {
      let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
      guard socketpair(AF_UNIX, type, 0, &inputEnds) == 0 else {
        throw ConformanceIsolationError.childDidNotStart(
          "no socket for its input: \(String(cString: strerror(errno)))")
      }
      process.standardInput = FileHandle(fileDescriptor: inputEnds[1], closeOnDealloc: false)
    } else {
      process.standardInput = FileHandle.nullDevice
    }
    process.terminationHandler = { [exited] _ in exited.signal() }
    do {
      try process.run()
    } catch {
      for end in inputEnds where end >= 0 { close(end) }
      try? output.fileHandleForReading.close()
      try? output.fileHandleForWriting.close()
      throw ConformanceIsolationError.childDidNotStart(
        "\(executable.path): \(error.localizedDescription)")
    }
    if let input {
      close(inputEnds[1])
      Self.detach { [parentEnd = inputEnds[0]] in
        Self.send(input, to: parentEnd)
        close(parentEnd)
      }
    }
    readLines()
  }

  /// The next line of output, the end of it, or `.timedOut` at `deadline`.
  func next(before deadline: DispatchTime) -> Next {
    lines.pop(before: deadline) ?? .timedOut
  }

  /// Kills the child with SIGKILL (it cannot be caught); ``finish()`` reaps it.
  func kill() {
    _ = Foundation.kill(process.processIdentifier, SIGKILL)
  }

  /// Waits for the child to end and its output to be drained, closes the pipe and says how it
  /// ended.
  func finish() -> Termination {
    exited.wait()
    // A grandchild that kept the pipe open would block the reader: give up on it after a
    // while, leaving the descriptor to the reader thread.
    if reader.wait(timeout: .now() + 5) == .success {
      try? output.fileHandleForReading.close()
    }
    return process.terminationReason == .uncaughtSignal
      ? .signal(process.terminationStatus) : .exit(process.terminationStatus)
  }

  private func readLines() {
    Self.detach { [output, lines, reader] in
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      let descriptor = output.fileHandleForReading.fileDescriptor
      while true {
        let count = read(descriptor, &buffer, buffer.count)
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        pending += buffer[..<count]
        while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
          lines.push(.line(String(decoding: pending[..<newline], as: UTF8.self)))
          pending.removeSubrange(...newline)
        }
      }
      if !pending.isEmpty { lines.push(.line(String(decoding: pending, as: UTF8.self))) }
      lines.push(.end)
      reader.signal()
    }
  }

  /// Sends all of `data` to the socket `descriptor`, stopping at the first error.
  private static func send(_ data: Data, to descriptor: Int32) {
    var bytes = Array(data)[...]
    while !bytes.isEmpty {
      let sent = bytes.withUnsafeBytes {
        Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
      }
      if sent < 0 && errno == EINTR { continue }
      if sent <= 0 { return }
      bytes = bytes.dropFirst(sent)
    }
  }

  /// Runs `body` on a thread of its own: it blocks on a descriptor for as long as the child
  /// lives, which a thread of Dispatch's shared pool should not.
  private static func detach(_ body: @escaping @Sendable () -> Void) {
    Thread(block: body).start()
  }
}

/// ` (SIGILL)` and the like for the signals a crash or a kill raises; empty for others.
private func signalName(_ number: Int32) -> String {
  let names: [Int32: String] = [
    SIGILL: "SIGILL", SIGTRAP: "SIGTRAP", SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE",
    SIGKILL: "SIGKILL", SIGSEGV: "SIGSEGV", SIGTERM: "SIGTERM", SIGINT: "SIGINT",
  ]
  return names[number].map { " (\($0))" } ?? ""
}

/// Lines handed from the reader thread to the thread waiting for them, in order.
private final class LineQueue: Sendable {
  private let items = Locked([ConformanceChildProcess.Next]())
  private let available = DispatchSemaphore(value: 0)

  func push(_ item: ConformanceChildProcess.Next) {
    items.withLock { $0.append(item) }
    available.signal()
  }

  /// The oldest item, or `nil` if none came before `deadline`.
  func pop(before deadline: DispatchTime) -> ConformanceChildProcess.Next? {
    guard available.wait(timeout: deadline) == .success else { return nil }
    return items.withLock { $0.removeFirst() }
  }
}
