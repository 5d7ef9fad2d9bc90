/// Where the entries of a legend drawn in SVG go: in rows, as many columns as fit the width,
/// each column as wide as its widest entry, so that no two labels overlap.
///
/// Entries are read across the rows, in the order given. A label wider than the whole width is
/// shortened with an ellipsis (the entry keeps the full name in its tooltip).
struct LegendLayout {
  /// One entry's place: the top left corner of its row, relative to the legend's.
  struct Placement {
    /// The horizontal position of the entry's swatch.
    var x: Double
    /// The vertical position of the top of the entry's row.
    var y: Double
    /// The label as drawn: the label given, or shortened to fit.
    var label: String
  }

  /// The width of an entry's swatch, and the space between it and its label.
  static let swatchWidth = 28.0
  static let swatchGap = 6.0
  /// The space between two columns.
  static let columnGap = 18.0
  /// The height of a row.
  static let rowHeight = 19.0

  /// Where each entry goes, in the order given.
  var placements: [Placement]
  /// How many columns the entries take.
  var columns: Int
  /// The height the entries take: their rows.
  var height: Double

  /// The layout of entries labelled `labels`, in text of `fontSize`, within `width`.
  ///
  /// - Complexity: O(*e*²) for *e* entries: every column count from the most is tried.
  init(labels: [String], width: Double, fontSize: Double) {
    let labelRoom = width - Self.swatchWidth - Self.swatchGap
    let shown = labels.map { TextWidth.truncated($0, width: labelRoom, fontSize: fontSize) }
    let widths = shown.map {
      Self.swatchWidth + Self.swatchGap + TextWidth.of($0, fontSize: fontSize)
    }
    var columns = max(shown.count, 1)
    var columnWidths: [Double] = []
    while true {
      columnWidths = (0..<columns).map { column in
        stride(from: column, to: widths.count, by: columns).map { widths[$0] }.max() ?? 0
      }
      let total =
        columnWidths.reduce(0, +) + Self.columnGap * Double(columnWidths.count - 1)
      if total <= width || columns == 1 { break }
      columns -= 1
    }
    var starts: [Double] = []
    var x = 0.0
    for columnWidth in columnWidths {
      starts.append(x)
      x += columnWidth + Self.columnGap
    }
    placements = shown.enumerated().map { index, label in
      Placement(
        x: starts[index % columns], y: Double(index / columns) * Self.rowHeight, label: label)
    }
    self.columns = columns
    height = Double((shown.count + columns - 1) / columns) * Self.rowHeight
  }
}
