/// Why a page or chart would draw nothing of what was asked: a size no report measured, or a
/// chart without a measured cost. The command line reports it in one line.
package struct ReportPageError: Error, CustomStringConvertible, Equatable {
  /// The error, in one line.
  package let description: String

  /// An error whose message is `description`.
  package init(_ description: String) { self.description = description }
}
