/// An error the tool reports in one line, without a usage summary: the options were well formed
/// but something they name (a file, a report, a matrix) is not as the command needs.
package struct ToolError: Error, CustomStringConvertible, Equatable {
  /// The error, in one line.
  package let description: String

  /// An error whose message is `description`.
  package init(_ description: String) { self.description = description }
}
