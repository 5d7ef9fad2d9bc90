import Foundation
import ObservationHarness
import TestTraits
import Testing

/// The built `observatory`, run as a user runs it, on hostile inputs, odd output paths, full
/// and closed streams, and signals. Each case checks the exit status, that the message says
/// what was wrong, and that nothing the user had was touched.
@Suite(
  "The tool, run on hostile inputs", .serialized,
  .notUnderAddressSanitizer(
    "each case is a process of the tool, whose code the harness tests run in process"))
struct HostileInputTests {
  /// A narrow, fast sweep a debug build may run.
  static let smallSweep = [
    "run", "--allow-debug", "--backend", "array", "--workload", "notify", "--sizes", "1",
    "--repetitions", "1", "--quiet",
  ]

  /// Names in `directory` that start with a dot: temporary files left behind.
  static func leftovers(_ directory: URL) -> [String] {
    ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
      .filter { $0.hasPrefix(".") }
  }

  struct RefusedCase: CustomTestStringConvertible, Sendable {
    let name: String
    let arguments: [String]
    let environment: [String: String]
    /// Text the one-line message must contain.
    let message: String
    var testDescription: String { name }

    init(
      _ name: String, _ arguments: [String], _ message: String, environment: [String: String] = [:]
    ) {
      self.name = name
      self.arguments = arguments
      self.message = message
      self.environment = environment
    }
  }

  static let refused: [RefusedCase] = [
    .init(
      "empty backend list", ["run", "--backend", ""],
      "The value '' is invalid for '--backend <backend>': no backend given; accepted: backend names"
    ),
    .init(
      "unknown backend", ["run", "--allow-debug", "--backend", "array,nope"],
      "--backend: unknown backend 'nope'; accepted: linked-list,"),
    .init(
      "conformance over an unknown backend", ["conformance", "--backend", "nope"],
      "--backend: unknown backend 'nope'; accepted: linked-list,"),
    .init(
      "conformance child of another protocol", ["conformance-child", "--backend", "array"],
      "the conformance child request is of protocol none (it must start with --protocol"),
    .init(
      "conformance child of an unknown backend",
      ["conformance-child", "--protocol", "2", "--backend", "nope"],
      "unknown backend 'nope' for a conformance child; accepted: linked-list,"),
    .init("empty workload list", ["run", "--workload", ""], "--workload"),
    .init("duplicate sizes", ["run", "--sizes", "1,1"], "twice"),
    .init(
      "repetitions that overflow",
      ["run", "--allow-debug", "--repetitions", "9223372036854775807"], "--repetitions"),
    .init(
      "infinite cell budget", ["run", "--allow-debug", "--cell-budget", "inf"], "--cell-budget"),
    .init(
      "negative n in a cell",
      [
        "cell", "--protocol", "2", "--backend", "array", "--workload", "notify", "--n", "-1",
        "--repetitions", "1", "--budget", "1",
      ], "--n"),
    .init(
      "churn with n 0",
      [
        "cell", "--protocol", "2", "--backend", "array", "--workload", "churn", "--n", "0",
        "--repetitions", "1", "--budget", "1",
      ], "--n"),
    .init(
      "a depth that would overflow the stack",
      [
        "cell", "--protocol", "2", "--backend", "key-path", "--workload",
        "nested", "--n", "1", "--depth", "100000", "--repetitions", "1", "--budget", "1",
      ], "--depth"),
    .init(
      "an unknown workload in a cell",
      [
        "cell", "--protocol", "2", "--backend", "array", "--workload", "spin", "--n", "1",
        "--repetitions", "1", "--budget", "1",
      ],
      "--workload 'spin' is not one of: subscribe, notify, cancel"),
    .init(
      "an unknown option in a cell",
      [
        "cell", "--protocol", "2", "--backend", "array", "--workload", "notify", "--n", "1",
        "--repetitions", "1", "--budget", "1", "--colour", "red",
      ],
      "unknown argument '--colour'; accepted: --protocol, --backend"),

    .init(
      "too few ab rounds for the interval",
      [
        "ab", "--base", "/bin/true", "--candidate",
        "/bin/true", "--rounds", "3",
      ], "--rounds 3 is too few"),
    .init(
      "conformance over no backend", ["conformance", "--backend", ""],
      "The value '' is invalid for '--backend <backend>': no backend given; accepted: backend names"
    ),
    .init(
      "conformance over a row measured through handles",
      ["conformance", "--backend", "dense,dense-handles"],
      "--backend dense-handles: measured through a subscription of its own, not the contract's"
        + " tokens, so the suite cannot run on it"),
    .init(
      "a text file as jemalloc", ["run", "--allow-debug", "--sizes", "1"],
      "is not a shared library", environment: ["OBSERVATORY_JEMALLOC": "/etc/passwd"]),
    .init(
      "an empty jemalloc variable", ["run", "--allow-debug", "--sizes", "1"], "set but empty",
      environment: ["OBSERVATORY_JEMALLOC": ""]),
    .init(
      "an executable that is not jemalloc", ["run", "--allow-debug", "--sizes", "1"],
      "jemalloc at '/bin/true' cannot be used", environment: ["OBSERVATORY_JEMALLOC": "/bin/true"]),
    .init("a device as output", Self.smallSweep + ["--output", "/dev/null"], "a character device"),
    .init(
      "a full device as output", Self.smallSweep + ["--output", "/dev/full"],
      "'/dev/full': is a character device"),
    .init(
      "standard output's link as output", Self.smallSweep + ["--output", "/dev/stdout"],
      "'/dev/stdout': is a symbolic link"),
    .init(
      "a path over 4095 bytes",
      Self.smallSweep + [
        "--output",
        Array(repeating: String(repeating: "p", count: 200), count: 21).joined(separator: "/")
          + "/r.csv",
      ], "the path is 4226 bytes; at most 4095 fit"),
    .init("a directory as output", Self.smallSweep + ["--output", "/tmp"], "a directory"),
    // Foundation's path methods trap on `.`: the check must not use them.
    .init(
      "the working directory as output, with --force",
      Self.smallSweep + ["--output", ".", "--force"], "--output '.': is a directory"),
    .init(
      "the parent directory as output, with --force",
      Self.smallSweep + ["--output", "..", "--force"], "--output '..': is a directory"),
    .init(
      "a directory's own entry as output", Self.smallSweep + ["--output", "/tmp/."],
      "--output '/tmp/.': is a directory"),
    .init(
      "a name too long for the file system",
      Self.smallSweep + [
        "--output",
        "sub/dir/" + String(repeating: "n", count: 256) + ".csv",
      ], "at most 255"),
  ]

  @Test("Bad options and inputs: exit 1, one specific line, nothing written", arguments: refused)
  func refusedCase(_ hostile: RefusedCase) throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try BuiltTool.run(
      hostile.arguments, in: directory, environment: hostile.environment)
    #expect(result.status == 1 && !result.signalled, "\(result.errors)")
    #expect(result.errors.hasPrefix("observatory: error: "), "\(result.errors)")
    #expect(result.errors.contains(hostile.message), "\(result.errors)")
    #expect(result.errors.filter { $0 == "\n" }.count == 1, "\(result.errors)")
    #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    #expect(FileManager.default.fileExists(atPath: "/dev/null"))
    var status = stat()
    #expect(stat("/dev/null", &status) == 0 && status.st_mode & S_IFMT == S_IFCHR)
  }

  @Test(
    "A cell request of another build (no protocol, or another version) is refused as such",
    arguments: [[String](), ["--protocol", "1"], ["--protocol", "99"]])
  func incompatibleCellRequest(_ version: [String]) throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let result = try BuiltTool.run(
      ["cell"] + version + [
        "--backend", "array", "--workload", "notify", "--n", "1", "--repetitions", "1",
        "--budget", "1",
      ], in: directory)
    #expect(result.status == CellChild.incompatibleExitStatus && !result.signalled)
    #expect(
      result.errors.contains(
        "observatory: error: this build reads cell requests of protocol"
          + " \(CellRequest.protocolVersion), the request is of "
          + (version.isEmpty ? "no protocol" : "protocol '\(version[1])'")),
      "\(result.errors)")
    #expect(result.output.isEmpty)
  }

  @Test("ab names a build that reads other cell requests before it measures anything")
  func abWithAnotherBuild() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    // A build of a later protocol: it refuses this build's requests as `cell` does.
    let other = directory.appendingPathComponent("other-build")
    let refusal =
      "observatory: error: this build reads cell requests of protocol 99, the request is of"
      + " protocol '\(CellRequest.protocolVersion)'"
    try Data(
      "#!/bin/sh\necho \"\(refusal)\" >&2\nexit \(CellChild.incompatibleExitStatus)\n".utf8
    ).write(to: other)
    #expect(chmod(other.path, 0o755) == 0)
    let result = try BuiltTool.run(
      [
        "ab", "--base", other.path, "--candidate", other.path, "--backend", "array",
        "--workload", "notify", "--sizes", "16", "--quiet",
      ], in: directory)
    #expect(result.status == 1, "\(result.errors)")
    #expect(
      result.errors.contains(
        "the base build (\(other.path)) cannot measure this build's cells: the cell process"
          + " refused the request: \(refusal)"), "\(result.errors)")
    #expect(result.output.isEmpty)
  }

  @Test("An existing report is never replaced without --force, and --force replaces only it")
  func existingReport() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let report = directory.appendingPathComponent("report.csv")
    try Data("mine\n".utf8).write(to: report)
    let refused = try BuiltTool.run(Self.smallSweep + ["--output", "report.csv"], in: directory)
    #expect(refused.status == 1)
    #expect(refused.errors.contains("exists; pass --force"), "\(refused.errors)")
    #expect(try String(contentsOf: report, encoding: .utf8) == "mine\n")

    let forced = try BuiltTool.run(
      Self.smallSweep + ["--output", "report.csv", "--force"], in: directory)
    #expect(forced.status == 0, "\(forced.errors)")
    #expect(try String(contentsOf: report, encoding: .utf8).hasPrefix("schema,"))
    #expect(Self.leftovers(directory).isEmpty)
  }

  @Test("Symbolic links, named pipes and planted temporary names are neither followed nor deleted")
  func plantedPaths() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let target = directory.appendingPathComponent("target.txt")
    try Data("target\n".utf8).write(to: target)
    let link = directory.appendingPathComponent("link.csv")
    try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
    let byLink = try BuiltTool.run(
      Self.smallSweep + ["--output", "link.csv", "--force"], in: directory)
    #expect(byLink.status == 1 && byLink.errors.contains("a symbolic link"), "\(byLink.errors)")
    #expect(try String(contentsOf: target, encoding: .utf8) == "target\n")

    let fifo = directory.appendingPathComponent("fifo.csv").path
    #expect(mkfifo(fifo, 0o600) == 0)
    let byFifo = try BuiltTool.run(
      Self.smallSweep + ["--output", "fifo.csv", "--force"], in: directory)
    #expect(byFifo.status == 1 && byFifo.errors.contains("a named pipe"), "\(byFifo.errors)")
    var status = stat()
    #expect(lstat(fifo, &status) == 0 && status.st_mode & S_IFMT == S_IFIFO)

    // The old temporary name, planted as a link and as a directory, is not used any more.
    let planted = directory.appendingPathComponent(".new.csv.\(getpid()).tmp")
    try FileManager.default.createSymbolicLink(at: planted, withDestinationURL: target)
    let plantedDirectory = directory.appendingPathComponent(".new.csv.tmp")
    try FileManager.default.createDirectory(
      at: plantedDirectory, withIntermediateDirectories: false)
    try Data().write(to: plantedDirectory.appendingPathComponent("keep"))
    let written = try BuiltTool.run(Self.smallSweep + ["--output", "new.csv"], in: directory)
    #expect(written.status == 0, "\(written.errors)")
    #expect(try String(contentsOf: target, encoding: .utf8) == "target\n")
    #expect(
      FileManager.default.fileExists(atPath: plantedDirectory.appendingPathComponent("keep").path))
    #expect(
      Set(Self.leftovers(directory)) == [
        planted.lastPathComponent, plantedDirectory.lastPathComponent,
      ])
  }

  @Test(
    "A 250-byte file name is written; a narrow default sweep does not take the full sweep's name")
  func names() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let long = String(repeating: "r", count: 246) + ".csv"
    let written = try BuiltTool.run(Self.smallSweep + ["--output", long], in: directory)
    #expect(written.status == 0, "\(written.errors)")
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent(long).path))

    let first = try BuiltTool.run(Self.smallSweep, in: directory)
    let second = try BuiltTool.run(Self.smallSweep, in: directory)
    #expect(first.status == 0 && second.status == 0, "\(first.errors) \(second.errors)")
    let reports = try FileManager.default.contentsOfDirectory(
      atPath: directory.appendingPathComponent("Results").path
    ).sorted()
    #expect(reports.count == 2)
    #expect(reports.allSatisfy { $0.contains("_partial") }, "\(reports)")
  }

  @Test("The conformance pair is replaced together or not at all")
  func conformancePair() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let markdown = directory.appendingPathComponent("conformance.md")
    try Data("old matrix\n".utf8).write(to: markdown)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("conformance.csv"), withIntermediateDirectories: false)
    let result = try BuiltTool.run(
      ["conformance", "--backend", "array", "--output-directory", ".", "--force"], in: directory)
    #expect(result.status == 1 && result.errors.contains("a directory"), "\(result.errors)")
    #expect(try String(contentsOf: markdown, encoding: .utf8) == "old matrix\n")

    let fresh = try BuiltTool.run(
      ["conformance", "--backend", "array", "--output-directory", "out"], in: directory)
    #expect(fresh.status == 0, "\(fresh.errors)")
    let again = try BuiltTool.run(
      ["conformance", "--backend", "array", "--output-directory", "out"], in: directory)
    #expect(again.status == 1 && again.errors.contains("exists; pass --force"), "\(again.errors)")
  }

  @Test("A full or closed stream is an error with exit 1, never a crash")
  func streams() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    let toFull = try BuiltTool.run(
      Self.smallSweep + ["--output", "-"], in: directory, output: full)
    #expect(toFull.status == 1 && !toFull.signalled, "\(toFull.errors)")
    #expect(toFull.errors.contains("could not write to standard output"), "\(toFull.errors)")

    // A usage error with standard error full still exits 1.
    let usage = try BuiltTool.run(["run", "--sizes", "x"], in: directory, errors: full)
    #expect(usage.status == 1 && !usage.signalled)

    // A sweep whose standard error is full still writes its report.
    let sweep = try BuiltTool.run(
      Self.smallSweep.filter { $0 != "--quiet" } + ["--output", "r.csv"], in: directory,
      errors: full)
    #expect(sweep.status == 0 && !sweep.signalled)
    #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.csv").path))
  }

  @Test("compare, history and table with standard output full: exit 1, one line, no trap")
  func readersToFullOutput() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sweep = try BuiltTool.run(Self.smallSweep + ["--output", "a.csv"], in: directory)
    #expect(sweep.status == 0, "\(sweep.errors)")
    let full = try #require(FileHandle(forWritingAtPath: "/dev/full"))
    for arguments in [
      ["compare", "a.csv", "a.csv"],
      ["history", "a.csv", "--backend", "array", "--workload", "notify", "--n", "1"],
      ["table", "a.csv", "--sizes", "1"],
    ] {
      let result = try BuiltTool.run(arguments, in: directory, output: full)
      #expect(result.status == 1 && !result.signalled, "\(arguments): \(result.errors)")
      #expect(
        result.errors
          == "observatory: error: could not write to standard output: No space left on device\n",
        "\(arguments)")
    }
  }

  @Test("A usage error is one line with exit 1; --help still prints the help")
  func oneLineUsageErrors() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let refused = try BuiltTool.run(["run", "--allow-debug", "--repetitions", "0"], in: directory)
    #expect(refused.status == 1)
    #expect(
      refused.errors == "observatory: error: --repetitions must be an integer from 1 to 10000,"
        + " got 0\n")
    let unknown = try BuiltTool.run(["table", "a.csv", "--size", "1"], in: directory)
    #expect(unknown.status == 1)
    #expect(unknown.errors.hasPrefix("observatory: error: Unknown option '--size'"))
    #expect(unknown.errors.filter { $0 == "\n" }.count == 1, "\(unknown.errors)")
    let help = try BuiltTool.run(["table", "--help"], in: directory)
    #expect(help.status == 0 && help.errors.isEmpty, "\(help.errors)")
    #expect(help.output.hasPrefix("OVERVIEW: Print a Markdown table"), "\(help.output)")
  }

  @Test("history over Results/*.csv skips the conformance matrix; a NaN report is refused")
  func readers() throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let sweep = try BuiltTool.run(Self.smallSweep + ["--output", "a.csv"], in: directory)
    #expect(sweep.status == 0, "\(sweep.errors)")
    try Data("suite_version,rule,group,level,title,backend,outcome,details\n".utf8).write(
      to: directory.appendingPathComponent("conformance.csv"))
    let history = try BuiltTool.run(
      [
        "history", "a.csv", "conformance.csv", "--backend", "array", "--workload", "notify",
        "--n", "1",
      ], in: directory)
    #expect(history.status == 0, "\(history.errors)")
    #expect(history.errors.contains("skipped conformance.csv"))
    // The matrix alone is named as what it is, not searched for a row.
    let matrixOnly = try BuiltTool.run(
      ["history", "conformance.csv", "--backend", "array", "--workload", "notify", "--n", "1"],
      in: directory)
    #expect(matrixOnly.status == 1, "\(matrixOnly.output)")
    #expect(
      matrixOnly.errors.contains(
        "conformance.csv: a conformance matrix (header"
          + " 'suite_version,rule,group,level,title,traits,backend,outcome,details'), not a"
          + " report of costs"), "\(matrixOnly.errors)")
    // One run is one point, whether its file is named twice or copied under another name.
    try FileManager.default.copyItem(
      at: directory.appendingPathComponent("a.csv"),
      to: directory.appendingPathComponent("copy.csv"))
    let repeated = try BuiltTool.run(
      [
        "history", "a.csv", "a.csv", "copy.csv", "--backend", "array", "--workload", "notify",
        "--n", "1",
      ], in: directory)
    #expect(repeated.status == 0, "\(repeated.errors)")
    #expect(repeated.output.split(separator: "\n").count == 2, "\(repeated.output)")
    #expect(repeated.errors.contains("skipped a.csv: the same run as a.csv, read once"))
    #expect(repeated.errors.contains("skipped copy.csv: the same run as a.csv, read once"))

    let report = try String(contentsOf: directory.appendingPathComponent("a.csv"), encoding: .utf8)
    var lines = report.split(separator: "\n").map(String.init)
    let header = lines[0].split(separator: ",", omittingEmptySubsequences: false)
    let column = try #require(header.firstIndex(of: "ns_median"))
    var fields = lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)
    fields[column] = "nan"
    lines[1] = fields.joined(separator: ",")
    try Data((lines.joined(separator: "\n") + "\n").utf8).write(
      to: directory.appendingPathComponent("b.csv"))
    let compare = try BuiltTool.run(["compare", "a.csv", "b.csv"], in: directory)
    #expect(compare.status == 1, "\(compare.output)")
    #expect(compare.errors.contains("b.csv:2"), "\(compare.errors)")
  }

  /// The ids of the processes whose parent is `parent`.
  static func children(of parent: Int32) -> [Int32] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
    return entries.compactMap(Int32.init).filter { pid in
      guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let close = stat.lastIndex(of: ")")
      else { return false }
      let fields = stat[stat.index(after: close)...].split(separator: " ")
      return fields.count > 2 && Int32(fields[1]) == parent
    }
  }

  /// Whether `pid` is still running (a zombie waiting to be reaped is not).
  static func isRunning(_ pid: Int32) -> Bool {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
      let close = stat.lastIndex(of: ")")
    else { return false }
    let state = stat[stat.index(after: close)...].split(separator: " ").first
    return state != "Z" && state != "X"
  }

  @Test(
    "A stopped or killed sweep leaves no cell running and no file behind",
    arguments: [SIGINT, SIGTERM, SIGHUP, SIGKILL])
  func signals(_ signal: Int32) throws {
    let directory = try BuiltTool.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let tool = try #require(BuiltTool.tool)
    let process = Process()
    process.executableURL = tool
    // A cell that runs for seconds in a debug build.
    process.arguments = [
      "run", "--allow-debug", "--backend", "array", "--workload", "cancel", "--sizes", "1048576",
      "--output", "r.csv", "--quiet",
    ]
    process.currentDirectoryURL = directory
    process.environment = BuiltTool.environment(adding: [:])
    process.standardError = FileHandle.nullDevice
    try process.run()
    var cells: [Int32] = []
    for _ in 0..<100 where cells.isEmpty {
      usleep(100_000)
      cells = Self.children(of: process.processIdentifier)
    }
    #expect(!cells.isEmpty, "no cell process started within 10 s")
    kill(process.processIdentifier, signal)
    process.waitUntilExit()
    if signal == SIGKILL {
      #expect(process.terminationReason == .uncaughtSignal)
    } else {
      #expect(process.terminationStatus == 128 + signal)
    }
    var running = cells
    for _ in 0..<50 where !running.isEmpty {
      usleep(100_000)
      running = running.filter(Self.isRunning)
    }
    #expect(running.isEmpty, "cell processes still running: \(running)")
    #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("r.csv").path))
    #expect(Self.leftovers(directory).isEmpty)
  }
}
