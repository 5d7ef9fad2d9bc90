/// An error the tool reports in one line, without a usage summary: the options were well formed
/// but something they name (a file, a library, the machine) is not as the command needs.
public struct ToolError: Error, CustomStringConvertible, Equatable {
  /// The error, in one line.
  public let description: String

  /// An error whose message is `description`.
  public init(_ description: String) { self.description = description }
}
