import Foundation
import ObservationBackends
import ObservationCore
import ObservationWorkloads

extension SweepCatalog {
  /// The catalog as `observatory list` prints it: the backends (a block each: who wrote it,
  /// what it declares, what the default sweep measures it on), the reference rows, the
  /// workloads, the patterns of the workloads that have them, and the default sweep's sizes
  /// and depths; lines within ``width`` columns but for a word longer than that.
  ///
  /// - Complexity: O(*c*) for *c* characters of output.
  package var text: String {
    var lines = ["backends (run --backend NAME,...; default: every one, on its default workloads)"]
    let nameWidth = backends.map(\.name.count).max() ?? 0
    for backend in backends {
      let head = "  " + backend.name.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
      lines += Self.wrapped(
        origin(of: backend), indent: head + "  ",
        hangingIndent: String(repeating: " ", count: head.count + 2))
      let indent = "    "
      let declared = backend.capabilities
      lines.append(
        indent + "timing \(declared.timing.rawValue), reentrant writes "
          + reentrancy(declared.maxReentrancyDepth))
      lines += Self.wrapped(
        "capabilities: "
          + (declared.flags.isEmpty
            ? "none" : declared.flags.sorted().map(\.rawValue).joined(separator: ", ")),
        indent: indent, hangingIndent: indent + "  ")
      let contended = workloads.filter(\.isContended)
      let measured: String
      if backend.defaultWorkloads == workloads {
        measured = "every workload"
      } else if backend.defaultWorkloads == workloads.filter({ !$0.isContended }) {
        measured =
          "every workload but " + Self.list(contended.map(\.rawValue))
          + " (n/a: threadSafe is not declared)"
      } else {
        measured = Self.list(backend.defaultWorkloads.map(\.rawValue))
      }
      lines += Self.wrapped(
        "default sweep: " + measured, indent: indent, hangingIndent: indent + "  ")
    }
    lines.append("")
    lines.append("reference rows (the floor a backend is read against; not a --backend)")
    lines += Self.table(
      references.map { ["  " + $0.name, "measured on " + Self.list($0.workloads.map(\.rawValue))] })
    lines.append("")
    lines.append("workloads (run --workload NAME,...; default: every one)")
    lines += Self.table(workloads.map { ["  " + $0.rawValue, $0.summary] })
    lines.append("")
    lines.append("patterns (every sweep of a workload measures each of its patterns)")
    let patterned = workloads.filter { $0.patterns != [.single] }
    lines += Self.table(
      patterned.flatMap { workload in
        workload.patterns.map { pattern in
          [
            "  " + workload.rawValue, pattern.rawValue,
            pattern.summary
              + (workload.hasDepth && pattern.minimumDepth > 1
                ? " (depth \(pattern.minimumDepth) or more)" : ""),
          ]
        }
      })
    lines.append("")
    lines.append("default sweep")
    let depthWorkloads = Self.list(workloads.filter(\.hasDepth).map(\.rawValue))
    lines += Self.table([
      ["  sizes (--sizes)", Self.numbers(sizes)],
      ["  quick sizes (--quick)", Self.numbers(quickSizes)],
      [
        "  path depths (--depths)",
        Self.numbers(depths) + " (\(depthWorkloads); 1 to \(maximumDepth) accepted)",
      ],
      [
        "  threads (--threads)",
        Self.numbers(threads) + " (" + Self.list(workloads.filter(\.isContended).map(\.rawValue))
          + ", at n = " + Self.numbers(contendedSizes) + ")",
      ],
    ])
    return lines.joined(separator: "\n") + "\n"
  }

  private func origin(of backend: Backend) -> String {
    var text: String
    switch backend.provenance {
    case .original: text = "written in \(writer(ofOriginal: backend.name))"
    case .library(let library): text = "\(library)'s behaviour"
    }
    if let base = backend.nestedVariantOf { text += "; a nested variant of \(base)" }
    if !backend.inConformanceSuite {
      text +=
        "; subscribes through its own handles, not tokens: measured only (not a row of"
        + " conformance)"
    }
    return text
  }

  private func reentrancy(_ bound: ReentrancyBound) -> String {
    switch bound {
    case .bounded(0): return "not supported"
    case .bounded(let depth): return "nest up to \(depth) deep"
    case .unbounded: return "queued (unbounded)"
    }
  }

  private static func list(_ names: [String]) -> String { names.joined(separator: ", ") }

  private static func numbers(_ values: [Int]) -> String {
    values.map(String.init).joined(separator: ", ")
  }

  /// The widest line `list` prints, a terminal's default width.
  static let width = 80

  /// `rows` as ``TextTable`` renders them, the last column broken at spaces so that lines fit
  /// in ``width`` columns, its continuation lines starting where it starts.
  private static func table(_ rows: [[String]]) -> [String] {
    let widths = (0..<((rows.map(\.count).max() ?? 1) - 1)).map { column in
      rows.map { $0[column].count }.max() ?? 0
    }
    let hanging = String(repeating: " ", count: widths.reduce(0, +) + 2 * widths.count)
    return rows.flatMap { row in
      let head = zip(row, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }
        .joined(separator: "  ")
      return wrapped(row.last ?? "", indent: head + "  ", hangingIndent: hanging)
    }
  }

  /// `text` broken at spaces into lines of at most ``width`` columns, the first after `indent`,
  /// the others after `hangingIndent`.
  private static func wrapped(_ text: String, indent: String, hangingIndent: String) -> [String] {
    var lines: [String] = []
    var line = indent
    for word in text.split(separator: " ") {
      let prefix = lines.isEmpty ? indent : hangingIndent
      if line.count > prefix.count && line.count + 1 + word.count > width {
        lines.append(line)
        line = hangingIndent
      }
      line += (line.count > (lines.isEmpty ? indent : hangingIndent).count ? " " : "") + word
    }
    lines.append(line)
    return lines
  }
}
