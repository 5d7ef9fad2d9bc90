import ArgumentParser
import Testing

@testable import ObservatoryCommandLine

/// Every command's `--help` reads as ArgumentParser wraps it: a paragraph is one logical line
/// in the source, so that a line of it breaks only where the next word would not fit. A hard
/// line break inside a help string survives the wrapping and leaves a half-empty line
/// mid-sentence ("measured in a fresh process with a" / "warm-up and repetitions").
@Suite("help text")
struct HelpTextTests {
  /// Every command and subcommand, hidden ones included, by its path: `observatory run`.
  static let commands: [(path: String, command: any ParsableCommand.Type)] = {
    var found: [(String, any ParsableCommand.Type)] = []
    func visit(_ command: any ParsableCommand.Type, path: String) {
      found.append((path, command))
      for subcommand in command.configuration.subcommands {
        visit(subcommand, path: path + " " + subcommand._commandName)
      }
    }
    visit(Observatory.self, path: "observatory")
    return found
  }()

  /// The help of the command at `path`, rendered at `columns`, hidden options included.
  static func help(_ path: String, columns: Int) -> String {
    let command = commands.first { $0.path == path }!.command
    return command == Observatory.self
      ? Observatory.helpMessage(includeHidden: true, columns: columns)
      : Observatory.helpMessage(for: command, includeHidden: true, columns: columns)
  }

  /// The places in `help`, rendered at `columns`, where a paragraph's line ends although it
  /// could have taken the next line's first word: a line break written into the help string.
  ///
  /// Two lines are one paragraph when the second starts at the column where the first's text
  /// does: prose at column 0 (the overview and discussion), an option's or a subcommand's help
  /// at its help column, an option's discussion at its indentation. A line that starts a
  /// section's entry (column 2) or a list item (`- `) starts something new. ArgumentParser
  /// moves a word to the next line only when the line, a space and the word would reach the
  /// last column; a shorter line before a continuation was broken by hand.
  ///
  /// - Complexity: O(*c*) for *c* characters of help.
  static func brokenLines(_ help: String, columns: Int) -> [String] {
    let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
    var broken: [String] = []
    for (first, second) in zip(lines, lines.dropFirst()) where continues(second, first) {
      let word = second.drop { $0 == " " }.prefix { $0 != " " }
      if first.count + 1 + word.count < columns {
        broken.append("\"\(String(first))\" / \"\(String(second))\"")
      }
    }
    return broken
  }

  /// Whether `line` continues the paragraph whose line `previous` is.
  private static func continues(_ line: [Character], _ previous: [Character]) -> Bool {
    let indent = line.prefix { $0 == " " }.count
    let text = line.dropFirst(indent)
    guard !text.isEmpty, previous.contains(where: { $0 != " " }) else { return false }
    if ["- ", "* ", "• "].contains(where: { text.starts(with: $0) }) { return false }
    let previousIndent = previous.prefix { $0 == " " }.count
    if indent == previousIndent { return indent != 2 }
    return indent > previousIndent && indent < previous.count && previous[indent - 1] == " "
      && previous[indent] != " "
  }

  @Test("No paragraph of any command's help is broken mid-line", arguments: commands.map(\.path))
  func paragraphs(_ path: String) {
    for columns in [80, 200] {
      let broken = Self.brokenLines(Self.help(path, columns: columns), columns: columns)
      #expect(
        broken.isEmpty,
        "\(path) --help at \(columns) columns breaks a paragraph by hand:\n\(broken.joined(separator: "\n"))"
      )
    }
  }

  @Test("The check finds a discussion and an option help broken by hand, and nothing else")
  func checkFindsHardBreaks() {
    let broken = Self.brokenLines(BrokenHelp.helpMessage(columns: 80), columns: 80)
    #expect(broken.count == 2, "\(broken)")
    #expect(broken.first?.contains("measured in a fresh process with a") == true)
    #expect(broken.last?.contains("An option whose help is") == true)
    for columns in [40, 80, 200] {
      let whole = Self.brokenLines(WholeHelp.helpMessage(columns: columns), columns: columns)
      #expect(whole.isEmpty, "\(whole)")
    }
  }
}

/// A command whose help has a hard line break in its discussion and in an option's help.
private struct BrokenHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "broken", abstract: "A command.",
    discussion: """
      Every cell is measured in a fresh process with a
      warm-up and repetitions.
      """)

  @Option(help: "An option whose help is\nbroken in two.") var option = 0
}

/// A command whose help is written as paragraphs of one logical line each, with options, a
/// label too long for its column, a list and a subcommand.
private struct WholeHelp: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "whole", abstract: "A command whose abstract is long enough to wrap at forty.",
    discussion: """
      Every cell is measured in a fresh process with a warm-up and repetitions, and its \
      report is written atomically.

      A second paragraph, which lists:
      - one item;
      - another item.
      """,
    subcommands: [WholeSubcommand.self])

  @Option(help: "Short.") var short = 0
  @Option(help: "A help long enough to wrap at eighty columns, so that it takes two lines.")
  var longer = 0
  @Option(name: .customLong("a-label-longer-than-its-column"), help: "Help on its own line.")
  var label = 0
  @Flag(help: "Short too.") var flag = false
}

/// A subcommand of ``WholeHelp``.
private struct WholeSubcommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "sub", abstract: "A subcommand whose abstract wraps at eighty columns as well.")
}
