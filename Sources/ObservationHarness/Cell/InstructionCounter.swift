import CInstructionCounting
import Foundation

/// Runs cell processes under callgrind and reads what it counted.
///
/// valgrind 3.19 cannot read the debug information of this toolchain's release builds (it
/// gives up on DWARF 5 forms), so the counter measures a copy of the executable with its debug
/// sections stripped: the same code, byte for byte.
package struct InstructionCounter {
  /// valgrind's launcher.
  let valgrind: URL
  /// The stripped copy of the executable that cells run as.
  let executable: URL
  /// Where callgrind writes its counts; removed by ``removeScratch()``.
  let scratch: URL
  /// Whether callgrind simulates the caches (D1 and LL misses), at several times the cost.
  let simulatesCaches: Bool

  /// What callgrind counted in one process's measured regions.
  struct Counts: Equatable {
    var instructions: Double
    /// Level-1 data cache misses, reads and writes; `nil` without cache simulation.
    var d1Misses: Double?
    /// Last-level misses, instruction and data, reads and writes; `nil` without it.
    var llMisses: Double?
  }

  enum SetUpError: Error, CustomStringConvertible {
    case noValgrind
    case noClientRequests
    case strip(String)

    var description: String {
      switch self {
      case .noValgrind:
        return "counting instructions needs valgrind on PATH (Debian: apt-get install valgrind)"
      case .noClientRequests:
        return "counting instructions needs a build with valgrind's callgrind.h (Debian: apt-get"
          + " install valgrind, then rebuild); this one cannot mark its timed regions"
      case .strip(let reason):
        return "counting instructions could not make a copy without debug sections: \(reason)"
      }
    }
  }

  /// Finds valgrind and makes the stripped copy of `executable` in a new scratch directory.
  static func prepare(executable: URL, simulatesCaches: Bool) throws -> InstructionCounter {
    guard let valgrind = findOnPath("valgrind") else { throw SetUpError.noValgrind }
    guard instruction_counting_available() != 0 else { throw SetUpError.noClientRequests }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "callgrind-scratch-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
    ScratchDirectories.remember(scratch.path)
    let copy = scratch.appendingPathComponent(executable.lastPathComponent)
    guard let objcopy = findOnPath("objcopy") else {
      try? FileManager.default.removeItem(at: scratch)
      throw SetUpError.strip("objcopy was not found on PATH (Debian: binutils)")
    }
    let process = Process()
    process.executableURL = objcopy
    process.arguments = ["--strip-debug", executable.path, copy.path]
    let errors = Pipe()
    process.standardError = errors
    do { try process.run() } catch {
      try? FileManager.default.removeItem(at: scratch)
      throw SetUpError.strip(error.localizedDescription)
    }
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      try? FileManager.default.removeItem(at: scratch)
      throw SetUpError.strip(String(decoding: message, as: UTF8.self))
    }
    return InstructionCounter(
      valgrind: valgrind, executable: copy, scratch: scratch, simulatesCaches: simulatesCaches)
  }

  /// The process to launch for a cell with `arguments`, and where its counts will be.
  ///
  /// Callgrind writes one file per thread (`--separate-threads=yes`), so that `read(_:)` can
  /// leave the main thread out. A counted cell runs on a `MeasuringThread` and the main thread
  /// only waits for it, but valgrind runs one thread at a time and may let the main thread
  /// finish starting the other (binding `pthread_join`, about 1,500 instructions) while the
  /// region is being counted. Whether it does depends on code outside the cell: adding a
  /// subcommand moved the C reference loop's notify at n = 16 by 0.75% that way.
  func launch(_ arguments: [String]) -> (URL, [String], URL) {
    let output = scratch.appendingPathComponent("cell-\(UUID().uuidString).callgrind")
    var valgrindArguments = [
      "--tool=callgrind", "--instr-atstart=no", "--callgrind-out-file=\(output.path)", "--quiet",
      "--dump-line=no", "--dump-instr=no", "--separate-threads=yes",
    ]
    if simulatesCaches { valgrindArguments.append("--cache-sim=yes") }
    return (valgrind, valgrindArguments + [executable.path] + arguments, output)
  }

  /// Reads the totals callgrind wrote for `file`, one file per thread (`file-01`, `file-02`,
  /// ...), and removes them: the sum over every thread but the main one (thread 1).
  static func read(_ file: URL) throws -> Counts {
    let directory = file.deletingLastPathComponent()
    let prefix = file.lastPathComponent + "-"
    let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
      .filter { $0.hasPrefix(prefix) }.sorted()
    defer {
      try? FileManager.default.removeItem(at: file)
      for name in names {
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
      }
    }
    var texts: [(thread: Int, text: String)] = []
    for name in names {
      guard let thread = Int(name.dropFirst(prefix.count)) else { continue }
      let text = try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8)
      texts.append((thread, text))
    }
    return try total(of: texts)
  }

  /// The sum of the counts of every thread's output but the main thread's (thread 1).
  static func total(of threads: [(thread: Int, text: String)]) throws -> Counts {
    let counted = threads.filter { $0.thread != 1 }
    guard !counted.isEmpty else { throw ParseError.missing("thread other than the main one") }
    func add(_ a: Double?, _ b: Double?) -> Double? { a.flatMap { a in b.map { a + $0 } } }
    var sum = try parse(counted[0].text)
    for (_, text) in counted.dropFirst() {
      let counts = try parse(text)
      sum.instructions += counts.instructions
      sum.d1Misses = add(sum.d1Misses, counts.d1Misses)
      sum.llMisses = add(sum.llMisses, counts.llMisses)
    }
    return sum
  }

  enum ParseError: Error, CustomStringConvertible {
    case missing(String)
    var description: String { "callgrind's output has no \(missing)" }
    private var missing: String {
      switch self {
      case .missing(let what): return what
      }
    }
  }

  /// The totals of a callgrind output file's text.
  static func parse(_ text: String) throws -> Counts {
    var events: [Substring] = []
    var totals: [Double] = []
    for line in text.split(separator: "\n") {
      if line.hasPrefix("events:") {
        events = line.dropFirst("events:".count).split(separator: " ")
      } else if line.hasPrefix("totals:") || (totals.isEmpty && line.hasPrefix("summary:")) {
        totals = line.drop(while: { $0 != ":" }).dropFirst().split(separator: " ").compactMap {
          Double($0)
        }
      }
    }
    guard !events.isEmpty else { throw ParseError.missing("'events:' line") }
    guard totals.count == events.count else { throw ParseError.missing("'totals:' line") }
    let count = Dictionary(zip(events.map(String.init), totals), uniquingKeysWith: { a, _ in a })
    guard let instructions = count["Ir"] else { throw ParseError.missing("Ir event") }
    var counts = Counts(instructions: instructions)
    if let d1Read = count["D1mr"], let d1Write = count["D1mw"] {
      counts.d1Misses = d1Read + d1Write
    }
    if let instructionMisses = count["ILmr"], let readMisses = count["DLmr"],
      let writeMisses = count["DLmw"]
    {
      counts.llMisses = instructionMisses + readMisses + writeMisses
    }
    return counts
  }

  /// Removes the stripped copy and any output left.
  package func removeScratch() {
    try? FileManager.default.removeItem(at: scratch)
    ScratchDirectories.forget(scratch.path)
  }

  static func findOnPath(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
    for directory in path.split(separator: ":") where !directory.isEmpty {
      let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
    }
    return nil
  }
}
