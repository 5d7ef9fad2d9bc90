import Foundation

/// The name `run` gives its report when `--output` does not name one:
/// `Results/<date>_<commit>_<host>[_quick][_partial][_instructions][_N].csv`.
///
/// The suffixes say what kind of sweep wrote the report (`--quick`, a selection narrowed by
/// `--backend`, `--workload`, `--sizes`, `--depths` or `--allocator`, `--metric
/// instructions`); `_2`, `_3`, ... follow when the name is taken, so that a run never replaces
/// a report. `history` reads the suffixes to follow the main job's reports only.
public struct DefaultReportName {
  /// The path without the number and the extension.
  let stem: String

  /// The highest number a name takes.
  public static let largestNumber = 1000

  init(stem: String) { self.stem = stem }

  /// The default name of a report of `metric` measured in `environment`.
  public init(_ environment: RunEnvironment, quick: Bool, narrowed: Bool, metric: Metric) {
    stem =
      "Results/\(String(environment.date.prefix(10)))_\(environment.commit)_\(environment.host)"
      + (quick ? "_quick" : "") + (narrowed ? "_partial" : "")
      + (metric == .instructions ? "_instructions" : "")
  }

  /// The path with `number`: the stem alone for 1, `_2`, `_3`, ... after it.
  public func path(_ number: Int) -> String { stem + (number == 1 ? "" : "_\(number)") + ".csv" }

  /// The first number from `start` on whose path nothing exists, if one up to
  /// ``largestNumber`` is free.
  ///
  /// - Complexity: O(*k*) file-system look-ups, *k* the names taken.
  public func firstFree(from start: Int = 1) -> Int? {
    guard start <= Self.largestNumber else { return nil }
    for number in start...Self.largestNumber {
      var status = stat()
      if lstat(path(number), &status) != 0 && errno == ENOENT { return number }
    }
    return nil
  }

  /// Whether the file name in `path` is one `run` gives the report of a quick or narrowed
  /// sweep (`..._quick.csv`, `..._partial_2.csv`, `..._quick_partial_instructions.csv`): such
  /// a report measured fewer repetitions or only some cells, so it is not the main job's.
  public static func isNarrowSweep(_ path: String) -> Bool {
    var name = Substring((path as NSString).lastPathComponent)
    guard name.hasSuffix(".csv") else { return false }
    name = name.dropLast(4)
    if let underscore = name.lastIndex(of: "_"),
      !name[name.index(after: underscore)...].isEmpty,
      name[name.index(after: underscore)...].allSatisfy(\.isASCII),
      name[name.index(after: underscore)...].allSatisfy(\.isNumber)
    {
      name = name[..<underscore]
    }
    if name.hasSuffix("_instructions") { name = name.dropLast("_instructions".count) }
    return name.hasSuffix("_quick") || name.hasSuffix("_partial")
  }
}
