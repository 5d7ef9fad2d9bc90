/// Why a page or chart would draw nothing of what was asked: a size no report measured, or a
/// chart without a measured cost. The command line reports it in one line.
package struct ReportPageError: Error, CustomStringConvertible, Equatable {
  /// What the caller could ask for instead, which the command line words as its options.
  package enum Remedy: Equatable, Sendable {
    /// Another size, one the reports have.
    case anotherSize
    /// The trend in absolute costs, not relative to each report's machine.
    case absoluteCosts
  }

  /// The error, in one line.
  package let description: String
  /// What would draw something instead, if anything.
  package let remedies: [Remedy]

  /// An error whose message is `description`, which `remedies` would avoid.
  package init(_ description: String, remedies: [Remedy] = []) {
    self.description = description
    self.remedies = remedies
  }
}
