/// A subject that reports misuse (a write nested deeper than its declared
/// ``ReentrancyBound``) as diagnostics instead of trapping or going on silently.
///
/// A backend that declares ``Capability/reportsMisuse`` makes subjects conforming to this
/// protocol, and rule ERR-03 checks that misuse adds a diagnostic. An adapter over a library
/// that prints its warnings (RxSwift's reentrancy warning, say) collects them here through
/// the library's hook.
public protocol MisuseReporting: AnyObject {
  /// The diagnostics reported so far, oldest first.
  ///
  /// - Complexity: O(1).
  var misuseDiagnostics: [String] { get }
}
