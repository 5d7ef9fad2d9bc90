/// An error the tool reports in one line, without a usage summary: the options were well formed
/// but something they name (a file, a library, the machine) is not as the command needs.
struct ToolError: Error, CustomStringConvertible, Equatable {
  let description: String

  init(_ description: String) { self.description = description }
}
