import Foundation
import ObservationReports

/// The name `run` gives its report when `--output` does not name one:
/// `Results/<date>_<commit>_<host>[_quick][_partial][_instructions][_N].csv`.
///
/// The suffixes say what kind of sweep wrote the report (`--quick`, a selection narrowed by
/// `--backend`, `--workload`, `--sizes`, `--depths` or `--allocator`, `--metric
/// instructions`); `_2`, `_3`, ... follow when the name is taken, so that a run never replaces
/// a report. The report's `sweep` column says the same to readers; `history` reads the
/// suffixes only for a report older than that column.
package struct DefaultReportName {
  /// The path without the number and the extension.
  let stem: String

  /// The highest number a name takes.
  package static let largestNumber = 1000

  init(stem: String) { self.stem = stem }

  /// The default name of a report of `metric` measured in `environment` by a sweep of `sweep`.
  package init(_ environment: RunEnvironment, sweep: SweepKind, metric: Metric) {
    stem =
      "Results/\(String(environment.date.prefix(10)))_\(environment.commit)_\(environment.host)"
      + (sweep.isQuick ? "_quick" : "") + (sweep.isNarrowed ? "_partial" : "")
      + (metric == .instructions ? "_instructions" : "")
  }

  /// The path with `number`: the stem alone for 1, `_2`, `_3`, ... after it.
  package func path(_ number: Int) -> String { stem + (number == 1 ? "" : "_\(number)") + ".csv" }

  /// The first number from `start` on whose path nothing exists, if one up to
  /// ``largestNumber`` is free.
  ///
  /// - Complexity: O(*k*) file-system look-ups, *k* the names taken.
  package func firstFree(from start: Int = 1) -> Int? {
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
  package static func isNarrowSweep(_ path: String) -> Bool {
    var name = Substring(PathText.name(of: path))
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

  /// The newest other report beside the one at `path` that a sweep of the same kind wrote
  /// under its default name (dated, and quick, narrowed or counting instructions as it is),
  /// newest by name: the report to compare it with. With `results` (the rows of the report at
  /// `path`), only a report that `compare` would accept as the base of those rows is taken:
  /// one that shares cells with them, in the same metric and schema, from the same machine
  /// when timed, with reference rows that did not move by a factor of 2. `nil` when there is
  /// none.
  ///
  /// - Complexity: O(*f*) for *f* files in the directory, and with `results` the reading and
  ///   comparing of the reports passed over.
  package static func latestComparable(
    to path: String, results: [CellResult]? = nil
  ) -> String? {
    let directory = PathText.directory(of: path)
    let name = PathText.name(of: path)
    guard
      let files = try? FileManager.default.contentsOfDirectory(
        atPath: directory.isEmpty ? "." : directory)
    else { return nil }
    let candidates = files.filter { file in
      file != name && file.hasSuffix(".csv") && isDated(file) && kind(file) == kind(name)
    }.sorted(by: >).map { directory.isEmpty ? $0 : directory + "/" + $0 }
    guard let results, let metric = results.first?.metric else { return candidates.first }
    return candidates.first { candidate in
      guard let base = try? Report.read(candidate).results else { return false }
      // The question `compare` asks, with its default threshold: a report it would refuse
      // is no suggestion.
      return
        (try? Comparison(
          base: base, candidate: results,
          threshold: Comparison.defaultThreshold(for: metric))) != nil
    }
  }

  /// Whether the file name starts as a default name does: `2026-11-24_`.
  private static func isDated(_ name: String) -> Bool {
    let head = Array(name.utf8.prefix(11))
    guard head.count == 11 else { return false }
    return head.enumerated().allSatisfy { index, byte in
      switch index {
      case 4, 7: return byte == UInt8(ascii: "-")
      case 10: return byte == UInt8(ascii: "_")
      default: return (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      }
    }
  }

  /// The suffixes of a default name, without its number: `_quick`, `_partial`,
  /// `_instructions`, in that order, each there or not.
  private static func kind(_ name: String) -> [Bool] {
    var stem = Substring(name.hasSuffix(".csv") ? String(name.dropLast(4)) : name)
    if let underscore = stem.lastIndex(of: "_"),
      !stem[stem.index(after: underscore)...].isEmpty,
      stem[stem.index(after: underscore)...].allSatisfy({ $0.isASCII && $0.isNumber })
    {
      stem = stem[..<underscore]
    }
    return ["_quick", "_partial", "_instructions"].reversed().map { suffix in
      guard stem.hasSuffix(suffix) else { return false }
      stem = stem.dropLast(suffix.count)
      return true
    }
  }
}
