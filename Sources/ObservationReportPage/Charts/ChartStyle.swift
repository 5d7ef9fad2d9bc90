/// How a chart's drawing looks: its colours and the style rules of its SVG, shared by the page
/// (inside its style sheet) and by a standalone chart file (inside the file's own `<style>`),
/// so that a backend has the same colour in both.
///
/// The rules select within an `svg` element and read four custom properties: `--c`, the line's
/// colour, set by its class (`c0` ... `c16`, `r0` ... `r3`); `--ink` and `--muted`, the text's;
/// and `--paper`, the background the hollow points of the reference rows are filled with.
enum ChartStyle {
  /// The colours of the backends' lines (`c0` ... `c16`, one per built-in backend in the order
  /// of ``builtInBackends``; another backend takes a free one): distinct on white and in grey
  /// print.
  static let lineColors = [
    "#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#17becf",
    "#b39b00", "#0b2e6b", "#7bc043", "#a0006e", "#637939", "#5254a3", "#00897b", "#a6761d",
    "#ff1493", "#6a3d9a",
  ]

  /// The built-in backends, in the catalogue's order: each keeps the colour of its place here
  /// on every page and chart, whatever else a report holds (the tests hold this list to the
  /// catalogue).
  static let builtInBackends = [
    "linked-list", "array", "dense", "dense-handles", "dense-synchronized", "key-path",
    "combine-passthrough", "combine-current-value", "combine-published",
    "combine-published-flatmap", "combine-published-switchtolatest",
    "swift-observation-tracking", "swift-observations", "async-stream", "async-share",
    "actor-observable", "async-broadcast", "notification-center",
  ]

  /// The colours of the reference rows (`r0` ... `r3`, in the order of `ReferenceRow`), drawn
  /// dashed: one per reference row, so that no two share a colour; the asynchronous floor's
  /// (`r3`), a dark teal, sits apart from the synchronous rows' greys and brown.
  static let referenceColors = ["#222222", "#777777", "#8a5a00", "#1b6b6b"]

  /// The rules that give each colour class its colour: `.c0{--c:#1f77b4}` ...
  static var colorRules: String {
    lineColors.enumerated().map { ".c\($0.offset){--c:\($0.element)}" }.joined()
      + referenceColors.enumerated().map { ".r\($0.offset){--c:\($0.element)}" }.joined()
  }

  /// The rules of the drawing: the plot's background, the grid, the text, the lines and their
  /// points (the reference rows dashed, their points hollow), the marks where a line
  /// stops, and in a trend the marks where the build, toolchain or allocator changed.
  static let drawingRules = """
    svg .plot{fill:#fcfcfc;stroke:#bdbdbd}
    svg .axis line{stroke:#e6e6e6}
    svg .axis line.zero{stroke:#9e9e9e;stroke-dasharray:2 3}
    svg text{fill:var(--ink)}
    svg .axis-title{fill:var(--muted)}
    svg .series path{fill:none;stroke:var(--c);stroke-width:2;stroke-linejoin:round}
    svg .series circle{fill:var(--c);stroke:transparent;stroke-width:10px;cursor:pointer}
    svg .series.reference path{stroke-dasharray:6 4;stroke-width:1.6}
    svg .series.reference circle{fill:var(--paper);stroke:var(--c);stroke-width:1.4}
    svg .stop path{fill:none;stroke:var(--c)}
    svg .stop .trail{stroke-dasharray:1 3;stroke-width:1.5}
    svg .stop .cross{stroke-width:2.2}
    svg .change line{stroke:#b35900;stroke-dasharray:3 3}
    svg .change text{fill:#b35900;font-size:10px}
    """
}
