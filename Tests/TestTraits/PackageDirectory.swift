import Foundation

/// The package's top directory, found from this file's place in it (`Tests/<target>/`), for the
/// tests that read what the package commits: the README, the reports under `Results/`, the
/// debug build's tool.
package enum PackageDirectory {
  /// The top directory.
  package static let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()

  /// `path`, relative to the top directory.
  ///
  /// - Complexity: O(*n*) in the length of `path`.
  package static func appending(_ path: String) -> URL {
    url.appendingPathComponent(path)
  }
}
