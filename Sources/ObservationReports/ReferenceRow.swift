/// The rows of a report that measure the machine, not a backend: loops in C and Swift that
/// bound what any backend can cost. The harness measures them under these names, and every
/// reader of a report (the comparison, the charts, the trends) tells them from backends here.
package enum ReferenceRow: String, CaseIterable, Sendable {
  /// Function pointers called from an array in C (`notify`), and a C slot map that places a
  /// handler and frees it again (`subscribe`, `cancel`): the physical limit.
  case c = "reference-c"
  /// The handler every backend gets, called from a C loop: the floor for a Swift closure call.
  case cSwiftHandler = "reference-c-swift-handler"
  /// Swift closures called from an array, and appended to one: the floor in Swift.
  case swiftClosures = "reference-swift-closures"

  /// The rows' names, in report order.
  package static let names: [String] = allCases.map(\.rawValue)

  /// Whether `backend` names a reference row.
  ///
  /// - Complexity: O(1).
  package static func isReference(_ backend: String) -> Bool {
    ReferenceRow(rawValue: backend) != nil
  }
}
