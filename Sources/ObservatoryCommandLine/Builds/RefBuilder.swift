import Foundation

/// Builds the running tool's executable at a git ref, for `ab --base-ref` / `--candidate-ref`:
/// the product named as this process's executable is, of the package at the same place in the
/// repository as the package in the current directory. `observatory` in this repository, and
/// a third party's own tool (the example's `third-party-observatory`) in its own.
///
/// The ref is checked out into a temporary worktree (the working tree here is not touched) and
/// built in release mode into `.build-ab-<commit>` at the top of the repository, where a second
/// run finds it already built.
///
/// Both sides are built as the main job's tool is, with the Swift runtime linked in
/// (`--static-swift-stdlib`), and with every function and every branch target aligned to 64 bytes
/// (`alignmentFlags`): a change to one module moves the code of every module linked after
/// it, and a hot loop of unrelated code that lands differently on cache lines runs several
/// percent faster or slower (measured here: 6 to 15% on the `reference-swift-closures` loop
/// between two builds that differed only in the linked list).
enum RefBuilder {
  /// LLVM options that pin code alignment, passed to every Swift compilation.
  static let alignmentFlags = [
    "-Xswiftc", "-Xllvm", "-Xswiftc", "-align-all-functions=6", "-Xswiftc", "-Xllvm", "-Xswiftc",
    "-align-all-nofallthru-blocks=6",
  ]

  /// Why a build of a commit failed, in one line.
  struct Failure: Error, CustomStringConvertible {
    /// The reason, in one line.
    let description: String
  }

  /// The name of the running executable: the product built at the ref.
  static var product: String {
    URL(fileURLWithPath: CommandLine.arguments[0]).lastPathComponent
  }

  /// The directory of the package the current directory is in (the nearest one up with a
  /// `Package.swift`), relative to the repository's top level `root`: "" for the top level.
  ///
  /// - Throws: ``Failure`` when no package holds the current directory inside `root`.
  static func packageDirectory(
    from current: URL = URL(fileURLWithPath: FileManager.default.currentDirectoryPath),
    root: URL
  ) throws -> String {
    let rootPath = root.standardizedFileURL.path
    var directory = current.standardizedFileURL
    while directory.path.hasPrefix(rootPath) {
      if FileManager.default.fileExists(
        atPath: directory.appendingPathComponent("Package.swift").path)
      {
        return String(directory.path.dropFirst(rootPath.count).drop { $0 == "/" })
      }
      guard directory.path != rootPath else { break }
      directory = directory.deletingLastPathComponent()
    }
    throw Failure(
      description: "no Package.swift in '\(current.path)' or above it in the repository at"
        + " '\(rootPath)': run ab --base-ref from the package whose tool it builds")
  }

  /// The path of the built executable.
  static func build(_ ref: String, quiet: Bool) throws -> String {
    guard
      let commit = try? run("git", ["rev-parse", "--verify", "--quiet", ref + "^{commit}"]),
      !commit.isEmpty
    else {
      throw Failure(description: "'\(ref)' is not a commit of this repository (git rev-parse)")
    }
    let root = try run("git", ["rev-parse", "--show-toplevel"])
    let package = try packageDirectory(root: URL(fileURLWithPath: root))
    let product = product
    let scratch = URL(fileURLWithPath: root).appendingPathComponent(
      ".build-ab-\(commit.prefix(12))" + (package.isEmpty ? "" : "-\(product)"))
    let executable = scratch.appendingPathComponent("release/\(product)").path
    if FileManager.default.isExecutableFile(atPath: executable) { return executable }
    let worktree = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(product)-ab-\(commit.prefix(12))-\(getpid())")
    _ = try run("git", ["worktree", "add", "--detach", worktree.path, commit])
    defer { _ = try? run("git", ["worktree", "remove", "--force", worktree.path]) }
    if !quiet {
      StandardOutput.writeError(
        "\(product): building \(ref) (\(commit.prefix(12)))"
          + (package.isEmpty ? "" : " in \(package)") + "…\n")
    }
    _ = try run(
      "swift",
      ReleaseBuild.arguments(product: product) + [
        "--package-path", worktree.appendingPathComponent(package).path,
        "--scratch-path", scratch.path,
      ] + alignmentFlags)
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw Failure(description: "building \(ref) left no executable at \(executable)")
    }
    return executable
  }

  /// Runs a command found on `PATH`; its trimmed standard output.
  ///
  /// - Throws: ``Failure`` with the end of its standard error when it fails.
  @discardableResult
  static func run(_ command: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command] + arguments
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    // A stopped `ab` stops its build too (see ``Interruption``).
    Interruption.remember(child: process.processIdentifier)
    defer { Interruption.forget(child: process.processIdentifier) }
    // Standard error is read on another thread so that neither pipe can fill and block the
    // command (swift build writes much to both).
    let collected = ErrorOutput()
    let group = DispatchGroup()
    DispatchQueue.global().async(group: group) {
      collected.data = errors.fileHandleForReading.readDataToEndOfFile()
    }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    group.wait()
    let errorData = collected.data
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let message = String(decoding: errorData, as: UTF8.self).split(separator: "\n").suffix(5)
        .joined(separator: " / ")
      throw Failure(
        description: "`\(command) \(arguments.joined(separator: " "))` failed: \(message)")
    }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }

  /// A command's standard error, written by its reader thread and read after it finishes.
  private final class ErrorOutput: @unchecked Sendable {
    var data = Data()
  }
}
