import Foundation
import ObservationReports

/// Where the harness is measuring: the machine, the toolchain and the commit that a sweep
/// writes into every row of its report.
extension RunEnvironment {
  /// The machine, toolchain and commit this process runs on.
  package static func current() -> RunEnvironment {
    let now = Date()
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime]
    formatter.timeZone = TimeZone(identifier: "UTC")
    return RunEnvironment(
      runID: String(UInt64(now.timeIntervalSince1970 * 1000), radix: 36) + "-"
        + String(getpid(), radix: 36),
      commit: gitCommit(), date: formatter.string(from: now), host: hostName(), cpu: cpuModel(),
      cores: ProcessInfo.processInfo.activeProcessorCount, os: operatingSystem(),
      swift: swiftVersion, build: buildName)
  }

  /// `release` or `debug`, with `-static-stdlib` when the Swift runtime is linked into the
  /// executable (`--static-swift-stdlib`): a runtime call then costs no trip through the
  /// dynamic linker's tables, and a process starts in about half the time, so every Swift
  /// backend's cost moves and reports of the two builds do not compare.
  package static var buildName: String {
    (isDebugBuild ? "debug" : "release") + (linksSwiftRuntimeStatically ? "-static-stdlib" : "")
  }

  /// Whether this executable carries the Swift runtime itself rather than loading
  /// `libswiftCore.so` (asked of the dynamic linker, which loads nothing to answer).
  ///
  /// - Complexity: O(*l*) for *l* libraries loaded.
  package static var linksSwiftRuntimeStatically: Bool {
    #if os(Linux)
    guard let handle = dlopen("libswiftCore.so", RTLD_LAZY | RTLD_NOLOAD) else { return true }
    dlclose(handle)
    return false
    #else
    return false
    #endif
  }

  /// Whether this is a debug build, whose timings are not worth a report.
  package static var isDebugBuild: Bool {
    #if DEBUG
    return true
    #else
    return false
    #endif
  }

  static var swiftVersion: String {
    #if compiler(>=6.4)
    return "6.4+"
    #elseif compiler(>=6.3)
    return "6.3"
    #elseif compiler(>=6.2)
    return "6.2"
    #else
    return "older than 6.2"
    #endif
  }

  /// The short commit, with `-dirty` when tracked files have uncommitted changes; `unknown`
  /// outside a git checkout.
  static func gitCommit() -> String {
    guard let commit = shell("git", ["rev-parse", "--short=12", "HEAD"]), !commit.isEmpty else {
      return "unknown"
    }
    let status = shell("git", ["status", "--porcelain", "--untracked-files=no"]) ?? ""
    return status.isEmpty ? commit : commit + "-dirty"
  }

  static func hostName() -> String {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count) == 0 else { return "unknown" }
    let name = String(
      decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    let safe = name.unicodeScalars.map {
      CharacterSet.alphanumerics.contains($0) || $0 == "-" ? Character($0) : "-"
    }
    return String(safe).isEmpty ? "unknown" : String(safe)
  }

  static func cpuModel() -> String {
    guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8) else {
      return "unknown"
    }
    for line in text.split(separator: "\n") where line.hasPrefix("model name") {
      if let colon = line.firstIndex(of: ":") {
        return line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      }
    }
    return "unknown"
  }

  static func operatingSystem() -> String {
    if let text = try? String(contentsOfFile: "/etc/os-release", encoding: .utf8) {
      for line in text.split(separator: "\n") where line.hasPrefix("PRETTY_NAME=") {
        return line.dropFirst("PRETTY_NAME=".count).trimmingCharacters(
          in: CharacterSet(charactersIn: "\""))
      }
    }
    return ProcessInfo.processInfo.operatingSystemVersionString
  }

  /// Runs a command found on `PATH`; its trimmed output, or `nil` if it failed.
  static func shell(_ command: String, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [command] + arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
  }
}
