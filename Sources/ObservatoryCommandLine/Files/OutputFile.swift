import Foundation

/// A file a command writes for the user to keep (a report, a matrix, a baseline): checked
/// before any work is done, written whole or not at all, never over anything but a regular
/// file, and over an existing one only when asked.
///
/// The text goes to a new temporary file beside the target, created exclusively with an
/// unpredictable name (nothing already there is followed, replaced or deleted), flushed to
/// disk, and only then linked into place (a new file) or renamed over the old one (when
/// replacing). Directories missing on the way are made, and removed again if the write fails.
/// Until the last step the target is as it was; an interrupted run leaves no temporary file
/// (see ``Interruption``).
package struct OutputFile {
  let path: String
  /// Whether an existing regular file may be replaced: with `--force`, or for a file the
  /// command exists to replace (`baseline record`'s baseline). The conformance matrix, like a
  /// report, is replaced only with `--force`.
  let replacing: Bool
  /// The option that named the file, for messages.
  let option: String
  /// For a report named by default rather than by `--output`: its numbered names, and the
  /// number of `path`. If the name is taken while the command runs, the report takes the next
  /// free number instead of being lost.
  let numbering: (name: DefaultReportName, number: Int)?
  /// The files the command reads, which the output must never be (see ``readingFrom(_:)``).
  var inputs: [String] = []

  /// The longest file name Linux accepts (`NAME_MAX`) and the longest path (`PATH_MAX` - 1).
  static let longestName = 255
  static let longestPath = 4095
  /// The longest name of a file written beside the target while writing: the temporary file
  /// (`.observatory-XXXXXX.tmp`) or the kept old file (`.observatory-` and up to 13 base-36
  /// digits, then `.old`).
  static let longestScratchName = ".observatory-".utf8.count + 13 + ".old".utf8.count

  /// An output at `path`, which replaces an existing regular file only when `replacing`;
  ///  `option` names the option the path came from in error messages.
  package init(_ path: String, replacing: Bool, option: String = "--output") {
    self.path = path
    self.replacing = replacing
    self.option = option
    self.numbering = nil
  }

  /// The default report name with `number`, never replacing anything.
  package init(_ name: DefaultReportName, number: Int) {
    self.path = name.path(number)
    self.replacing = false
    self.option = "the default report name"
    self.numbering = (name, number)
  }

  /// This output, refused if it is one of `inputs`, the files the command reads: the same file
  /// by device and inode, however it is named (`./a.csv`, `../dir/a.csv`, a hard link, a
  /// symbolic link to it). `--force` replaces an output, never an input.
  ///
  /// - Complexity: O(1); checking costs O(*i*) for *i* inputs.
  package func readingFrom(_ inputs: [String]) -> OutputFile {
    var file = self
    file.inputs = inputs
    return file
  }

  private func failure(_ problem: String) -> ToolError {
    // A path of thousands of bytes would drown the message: its ends say which it is.
    let shown =
      path.count > 120 ? "\(path.prefix(50))…\(path.suffix(50))" : path
    return ToolError("\(option) '\(shown)': \(problem)")
  }

  /// Checks that the file can be written, so that a long run does not measure for nothing:
  /// the name and path fit (the temporary file's beside it too), what exists there is a
  /// regular file (and may be replaced), and the nearest directory that exists (symbolic links
  /// on the way followed) is one this process can write to.
  ///
  /// - Throws: ``ToolError``, saying what is wrong and what is accepted.
  package func check() throws {
    try check(whileWriting: false)
  }

  /// ``check()``; `whileWriting` when the work is done and the file is about to be written,
  /// which changes what an existing file means: it appeared meanwhile.
  private func check(whileWriting: Bool) throws {
    guard !path.isEmpty else { throw failure("empty; give a file name") }
    // A command that can write to standard output handles `-` before it makes an OutputFile.
    guard path != "-" else {
      throw failure(
        "stands for standard output, which this option cannot write to; give a file's path"
          + " (./- for a file named -)")
    }
    guard path.utf8.count <= Self.longestPath else {
      throw failure("the path is \(path.utf8.count) bytes; at most \(Self.longestPath) fit")
    }
    let scratchLength =
      PathText.directory(of: path).utf8.count + 1
      + Self.longestScratchName
    guard scratchLength <= Self.longestPath else {
      throw failure(
        "the path is \(path.utf8.count) bytes, and the temporary file written beside it would"
          + " be up to \(scratchLength); at most \(Self.longestPath) fit, so the directory may be"
          + " at most \(Self.longestPath - Self.longestScratchName - 1) bytes")
    }
    if let long = path.split(separator: "/").first(where: { $0.utf8.count > Self.longestName }) {
      throw failure(
        "the name '\(long.prefix(40))...' is \(long.utf8.count) bytes; at most"
          + " \(Self.longestName) fit")
    }
    guard !path.hasSuffix("/") else { throw failure("names a directory; give a file name") }
    var status = stat()
    if lstat(path, &status) == 0 {
      let kind = status.st_mode & S_IFMT
      guard kind == S_IFREG else {
        throw failure(
          "is \(Self.describe(kind)), not a regular file; give the path of a new file, or of a"
            + " report to replace with --force")
      }
      if let input = inputs.first(where: { Self.isSameFile(status, as: $0) }) {
        throw failure(
          "is also an input of this command ('\(input)'); writing it would destroy what is being"
            + " read, with --force or without; give another path")
      }
      // A default name taken meanwhile is no failure: the report takes the next number.
      guard replacing || numbering != nil else {
        throw failure(
          whileWriting
            ? "appeared while this command ran; nothing was replaced"
            : "exists; pass --force to replace it, or give another path (nothing was measured)")
      }
    } else if errno != ENOENT {
      throw failure(String(cString: strerror(errno)))
    }
    // Directories on the way may be symbolic links to directories (`Results` linked to another
    // disk); only the file itself must not be one.
    var directory = PathText.directory(of: path)
    if directory.isEmpty { directory = "." }
    while stat(directory, &status) != 0 {
      guard errno == ENOENT else {
        throw failure("'\(directory)': \(String(cString: strerror(errno)))")
      }
      if lstat(directory, &status) == 0 {
        throw failure(
          "'\(directory)' is a symbolic link to nothing; a directory cannot be made there")
      }
      let parent = PathText.directory(of: directory)
      directory = parent.isEmpty ? "." : parent
    }
    guard status.st_mode & S_IFMT == S_IFDIR else {
      throw failure("'\(directory)' is \(Self.describe(status.st_mode & S_IFMT)), not a directory")
    }
    guard access(directory, W_OK | X_OK) == 0 else {
      throw failure("cannot write in '\(directory)': \(String(cString: strerror(errno)))")
    }
  }

  /// Whether the file `status` describes is the one at `path` (links followed): the same
  /// device and inode.
  static func isSameFile(_ status: stat, as path: String) -> Bool {
    var other = stat()
    return stat(path, &other) == 0 && other.st_dev == status.st_dev
      && other.st_ino == status.st_ino
  }

  static func describe(_ kind: mode_t) -> String {
    switch kind {
    case S_IFDIR: return "a directory"
    case S_IFLNK: return "a symbolic link"
    case S_IFIFO: return "a named pipe"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    case S_IFSOCK: return "a socket"
    default: return "not a regular file"
    }
  }

  /// Writes `text` to the file (see the type's description); returns the path written, which
  /// for a default report name is the next free number's if the name was taken meanwhile.
  ///
  /// - Throws: ``ToolError``; the target is then as it was.
  @discardableResult
  package func write(_ text: String) throws -> String {
    try Self.writeAll([(self, text)])[0]
  }

  /// Writes several files so that either every one is replaced or none is: all are written to
  /// temporary files first; then each target is renamed into place, and if one rename fails
  /// the ones before it are put back. Returns the paths written, in order.
  ///
  /// - Throws: ``ToolError``; every target is then as it was.
  @discardableResult
  package static func writeAll(_ files: [(file: OutputFile, text: String)]) throws -> [String] {
    for (file, _) in files { try file.check(whileWriting: true) }
    var madeDirectories: [String] = []
    var staged: [(file: OutputFile, temporary: String)] = []
    var committed = false
    defer {
      for (_, temporary) in staged {
        unlink(temporary)
        Interruption.forget(temporary)
      }
      if !committed {
        for directory in madeDirectories.reversed() { rmdir(directory) }
      }
    }
    for (file, text) in files {
      madeDirectories += try file.makeDirectories()
      staged.append((file, try file.stage(text)))
    }
    // A signal waits while the files are put in place: together or not at all.
    let paths = try Interruption.deferringSignals {
      try commit(staged, keepingBackups: files.count > 1)
    }
    committed = true
    return paths
  }

  /// Puts every staged file in place; if one fails, puts the earlier ones back as they were.
  private static func commit(
    _ staged: [(file: OutputFile, temporary: String)], keepingBackups: Bool
  ) throws -> [String] {
    var installed: [(path: String, backup: String?)] = []
    var succeeded = false
    defer {
      for (path, backup) in installed.reversed() {
        if succeeded {
          if let backup { unlink(backup) }
        } else if let backup {
          rename(backup, path)
        } else {
          unlink(path)
        }
        if let backup { Interruption.forget(backup) }
      }
    }
    for (file, temporary) in staged {
      var backup: String?
      if file.replacing {
        var status = stat()
        if lstat(file.path, &status) == 0 {
          guard status.st_mode & S_IFMT == S_IFREG else {
            throw file.failure("became \(describe(status.st_mode & S_IFMT)) while writing")
          }
          if keepingBackups { backup = try file.keepBackup() }
        }
        guard rename(temporary, file.path) == 0 else {
          let reason = String(cString: strerror(errno))
          if let backup {
            unlink(backup)
            Interruption.forget(backup)
          }
          throw file.failure("cannot rename into place: \(reason)")
        }
        installed.append((file.path, backup))
      } else {
        installed.append((try file.linkIntoPlace(temporary), nil))
      }
    }
    succeeded = true
    return installed.map(\.path)
  }

  /// Links the temporary file at the target; returns the path linked. link() fails if anything
  /// appeared there meanwhile, and never replaces it: a default report name then takes the
  /// next free number, anything else is an error.
  private func linkIntoPlace(_ temporary: String) throws -> String {
    var target = path
    var number = numbering?.number ?? 1
    while Glibc.link(temporary, target) != 0 {
      guard errno == EEXIST else {
        throw failure("cannot create '\(target)': \(String(cString: strerror(errno)))")
      }
      guard let numbering, number < DefaultReportName.largestNumber else {
        throw failure(
          numbering == nil
            ? "appeared while this command ran; nothing was replaced"
            : "it and every numbered name up to _\(DefaultReportName.largestNumber) were taken"
              + " while this command ran; pass --output")
      }
      number += 1
      target = numbering.name.path(number)
    }
    return target
  }

  /// Makes the directories missing above the file; returns them, outermost first.
  private func makeDirectories() throws -> [String] {
    var missing: [String] = []
    var directory = PathText.directory(of: path)
    var status = stat()
    while !directory.isEmpty && lstat(directory, &status) != 0 {
      missing.insert(directory, at: 0)
      directory = PathText.directory(of: directory)
    }
    var made: [String] = []
    for directory in missing {
      guard mkdir(directory, 0o777) == 0 else {
        let reason = String(cString: strerror(errno))
        for done in made.reversed() { rmdir(done) }
        throw failure("cannot create the directory '\(directory)': \(reason)")
      }
      made.append(directory)
    }
    return made
  }

  /// Writes `text` to a new temporary file beside the target and flushes it; returns its path.
  private func stage(_ text: String) throws -> String {
    let directory = PathText.directory(of: path)
    var template = Array(
      ((directory.isEmpty ? "" : directory + "/") + ".observatory-XXXXXX.tmp").utf8CString)
    let descriptor = mkstemps(&template, 4)
    guard descriptor >= 0 else {
      throw failure("cannot create a temporary file: \(String(cString: strerror(errno)))")
    }
    let temporary = String(
      decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    Interruption.remember(temporary)
    defer { close(descriptor) }
    // mkstemps creates the file for its owner only; a report is as readable as any new file.
    let mask = umask(0o022)
    umask(mask)
    fchmod(descriptor, 0o666 & ~mask)
    var bytes = Array(text.utf8)
    var offset = 0
    while offset < bytes.count {
      let written = bytes.withUnsafeMutableBytes {
        Glibc.write(descriptor, $0.baseAddress! + offset, $0.count - offset)
      }
      if written < 0 && errno == EINTR { continue }
      guard written > 0 else {
        let reason = String(cString: strerror(errno))
        unlink(temporary)
        Interruption.forget(temporary)
        throw failure("cannot write: \(reason); nothing was replaced")
      }
      offset += written
    }
    bytes = []
    guard fsync(descriptor) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      Interruption.forget(temporary)
      throw failure("cannot flush to disk: \(reason); nothing was replaced")
    }
    return temporary
  }

  /// Links the current file under a new unpredictable name beside it, so that it can be put
  /// back; returns that name.
  private func keepBackup() throws -> String {
    let directory = PathText.directory(of: path)
    for _ in 0..<100 {
      let name =
        (directory.isEmpty ? "" : directory + "/") + ".observatory-"
        + String(UInt64.random(in: 0...UInt64.max), radix: 36) + ".old"
      if link(path, name) == 0 {
        Interruption.remember(name)
        return name
      }
      guard errno == EEXIST else {
        throw failure("cannot keep the old file while writing: \(String(cString: strerror(errno)))")
      }
    }
    throw failure("cannot find a free name for the old file while writing")
  }
}
