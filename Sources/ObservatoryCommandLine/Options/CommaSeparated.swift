import ArgumentParser
import Foundation

/// The entries of a comma-separated option such as `--sizes 1,16,256`, each parsed once, by
/// ArgumentParser, while it parses the command line.
///
/// An option of this type names its parser as its transform:
///
/// ```swift
/// @Option(transform: CommaSeparated<Workload>.parser(entry: "workload"))
/// var workload: CommaSeparated<Workload>?
/// ```
///
/// A list is refused when it is empty, when an entry is empty or does not parse, and when two
/// entries are the same value (which would measure one cell twice and write it twice). The
/// refusal is one line: ArgumentParser names the option and the value
/// (`The value '1,,2' is invalid for '--sizes <sizes>': `), the refusal the entry and what is
/// accepted (`entry 2 is empty; accepted: comma-separated integers from 1 to 16777216`). The
/// type parses through a transform rather than `ExpressibleByArgument`, whose failable
/// initializer cannot say which entry was wrong.
struct CommaSeparated<Element: Equatable> {
  /// The entries in the order given, each once.
  var elements: [Element]

  /// Parses `text`, an entry a comma, spaces around an entry ignored.
  ///
  /// - Parameters:
  ///   - entry: What one entry is called in a refusal: `size`, `workload`.
  ///   - accepted: The accepted entries, for a refusal: `subscribe, notify, ...`.
  ///   - refusal: How a refusal describes an entry that does not parse: `unknown`, `bad`.
  ///   - element: The value an entry names, or `nil`.
  /// - Throws: a `ValidationError` naming the first bad entry and what is accepted.
  init(
    parsing text: String, entry: String, accepted: String, refusal: String = "unknown",
    element: (String) -> Element?
  ) throws {
    let accepting = "; accepted: \(accepted)"
    guard !text.trimmingCharacters(in: .whitespaces).isEmpty else {
      throw ValidationError("no \(entry) given" + accepting)
    }
    var elements: [Element] = []
    let parts = text.split(separator: ",", omittingEmptySubsequences: false)
    for (index, part) in parts.enumerated() {
      let name = part.trimmingCharacters(in: .whitespaces)
      guard !name.isEmpty else { throw ValidationError("entry \(index + 1) is empty" + accepting) }
      guard let value = element(name) else {
        throw ValidationError("\(refusal) \(entry) '\(name)'" + accepting)
      }
      guard !elements.contains(value) else {
        throw ValidationError("\(entry) '\(name)' is given twice")
      }
      elements.append(value)
    }
    self.elements = elements
  }
}

extension CommaSeparated where Element: ExpressibleByArgument {
  /// The parser of a list of `Element`s, which accepts the values `Element` lists
  /// (`allValueStrings`): `--workload notify,cancel`.
  static func parser(entry: String) -> @Sendable (String) throws -> Self {
    { text in
      try Self(
        parsing: text, entry: entry, accepted: Element.allValueStrings.joined(separator: ", "),
        element: Element.init(argument:))
    }
  }
}

extension CommaSeparated where Element == Int {
  /// The parser of a list of integers within `range`: `--sizes 1,16,256`.
  static func parser(entry: String, in range: ClosedRange<Int>) -> @Sendable (String) throws -> Self
  {
    { text in
      try Self(
        parsing: text, entry: entry,
        accepted: "comma-separated integers from \(range.lowerBound) to \(range.upperBound)",
        refusal: "bad", element: { Int($0).flatMap { range.contains($0) ? $0 : nil } })
    }
  }
}
