import Foundation

/// Writes files so that readers see either the old content or the new, never a partial file.
enum AtomicFile {
  /// Writes `text` to a temporary file beside `url`, then renames it over `url`.
  static func write(_ text: String, to url: URL) throws {
    let directory = url.deletingLastPathComponent()
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
    do {
      try Data(text.utf8).write(to: temporary)
      if rename(temporary.path, url.path) != 0 {
        throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
      }
    } catch {
      try? FileManager.default.removeItem(at: temporary)
      throw error
    }
  }
}
