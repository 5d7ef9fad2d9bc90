import Foundation

/// Finds jemalloc's shared library, to preload it into cells measured with `--allocator jemalloc`.
package enum JemallocLocator {
  /// The library's path, from `OBSERVATORY_JEMALLOC` or the dynamic linker's cache.
  ///
  /// - Throws: a ``HarnessError`` when `OBSERVATORY_JEMALLOC` names something that is not a
  ///   readable shared library (a regular file that starts as an ELF file does): rows labelled
  ///   `jemalloc` must have been measured with it. Each cell process also checks that jemalloc
  ///   is really its allocator.
  package static func find() throws -> String? {
    if let path = ProcessInfo.processInfo.environment["OBSERVATORY_JEMALLOC"] {
      guard !path.isEmpty else {
        throw HarnessError(
          "OBSERVATORY_JEMALLOC is set but empty; unset it, or give the path of libjemalloc.so.2")
      }
      guard let problem = sharedLibraryProblem(path) else { return path }
      throw HarnessError(
        "OBSERVATORY_JEMALLOC='\(path)' \(problem); give the path of libjemalloc.so.2 (Debian:"
          + " libjemalloc-dev installs /usr/lib/<arch>/libjemalloc.so.2), or unset it")
    }
    for ldconfig in ["/sbin/ldconfig", "/usr/sbin/ldconfig"]
    where FileManager.default.isExecutableFile(atPath: ldconfig) {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: ldconfig)
      process.arguments = ["-p"]
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = FileHandle.nullDevice
      guard (try? process.run()) != nil else { continue }
      let text = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      process.waitUntilExit()
      for line in text.split(separator: "\n") where line.contains("libjemalloc.so.2") {
        if let arrow = line.range(of: "=> ") {
          let path = String(line[arrow.upperBound...]).trimmingCharacters(in: .whitespaces)
          if FileManager.default.fileExists(atPath: path) { return path }
        }
      }
    }
    return nil
  }

  /// Why `path` cannot be a shared library, or `nil` if it may be one.
  static func sharedLibraryProblem(_ path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else {
      return "cannot be read: " + String(cString: strerror(errno))
    }
    guard status.st_mode & S_IFMT == S_IFREG else { return "is not a regular file" }
    guard let handle = FileHandle(forReadingAtPath: path) else { return "cannot be read" }
    defer { try? handle.close() }
    let magic = (try? handle.read(upToCount: 4)) ?? Data()
    guard magic == Data([0x7F, 0x45, 0x4C, 0x46]) else { return "is not a shared library" }
    return nil
  }
}
