extension ChartSVG {
  /// The size of a chart's drawing and the margins around its plot, in the drawing's units: the
  /// margins hold the ticks' labels and the axes' titles.
  struct Layout {
    /// The width of the drawing.
    var width: Double
    /// The height of the drawing.
    var height: Double
    /// The margin left of the plot: the value ticks' labels and the vertical axis's title.
    var left: Double
    /// The margin right of the plot, so that the last size's label fits.
    var right: Double
    /// The margin above the plot.
    var top: Double
    /// The margin below the plot: the size ticks' labels and the horizontal axis's title.
    var bottom: Double
    /// The height of the band below the logarithmic axis where a chart that has zeros draws
    /// them.
    var zeroBand = 22.0

    /// A chart in the page: narrow, so that it reads on a phone and beside its table.
    static let page = Layout(width: 420, height: 280, left: 60, right: 18, top: 12, bottom: 46)

    /// A chart in a file of its own, shown alone in a README: wider, the plot taller.
    static let standalone = Layout(
      width: 720, height: 400, left: 64, right: 24, top: 12, bottom: 46)
  }
}
