import ArgumentParser
import ObservationReports

/// How `compare` and `ab` end on their conclusion: `--inconclusive-ok`.
///
/// A regression exits with status 2 and cells that could not be told from noise with 4, so that
/// a pipeline decides what "inconclusive" means to it instead of reading it as a pass; one that
/// accepts it says so with `--inconclusive-ok`.
struct ConclusionOptions: ParsableArguments {
  /// The exit statuses of `compare` and `ab`, as their help's discussion lists them.
  static let statuses = """
    \(ExitStatus.success.rawValue) no regression, \(ExitStatus.regression.rawValue) regression \
    (whatever the other cells say), \(ExitStatus.inconclusive.rawValue) no regression but some \
    cells inconclusive (\(ExitStatus.success.rawValue) with --inconclusive-ok), \
    \(ExitStatus.failure.rawValue) usage or input error.
    """

  /// The statuses that gate, as the commands' abstracts end.
  static let abstract =
    "exit \(ExitStatus.regression.rawValue) on a regression, \(ExitStatus.inconclusive.rawValue)"
    + " if inconclusive"

  @Flag(
    name: .customLong("inconclusive-ok"),
    help: """
      Exit \(ExitStatus.success.rawValue), not \(ExitStatus.inconclusive.rawValue), when no cell \
      regressed but some could not be told from noise.
      """)
  var inconclusiveOK = false

  /// Ends the command as `conclusion` says: returns when it passes, otherwise throws its exit
  /// status; for inconclusive cells (`inconclusive` of them) first says on standard error why
  /// the status is not 0 and how to measure them again, starting with `toolName`.
  ///
  /// - Complexity: O(1).
  func end(with conclusion: Comparison.Conclusion, inconclusive: Int, toolName: String) throws {
    let status = ExitStatus(conclusion, acceptingInconclusive: inconclusiveOK)
    guard status != .success else { return }
    if status == .inconclusive {
      StandardOutput.writeError(
        "\(toolName): no regression, but \(inconclusive) cell(s) could not be told"
          + " from noise: exit status \(status.rawValue), not a pass. Measure them again with"
          + " `ab` (more --rounds) or by counting instructions (`run --metric instructions`),"
          + " or pass --inconclusive-ok to accept them.\n")
    }
    throw ExitCode(status.rawValue)
  }
}
