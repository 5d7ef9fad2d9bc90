/// A path split at its last slash, as text.
///
/// Foundation's `deletingLastPathComponent` traps on a path of `.` (an illegal instruction in
/// `String._startOfLastPathComponent`), so a user's `--output .` would crash the tool; these
/// never do, whatever the path.
enum PathText {
  /// The directory part of `path`: what comes before its last `/` (repeated slashes there
  /// taken as one), `/` for a name at the root, or empty for a bare name.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func directory(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    var head = path[..<slash]
    while head.last == "/" { head.removeLast() }
    return head.isEmpty ? "/" : String(head)
  }

  /// The last component of `path`: what comes after its last `/`, or the whole path.
  ///
  /// - Complexity: O(*c*) for *c* characters.
  static func name(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
  }
}
