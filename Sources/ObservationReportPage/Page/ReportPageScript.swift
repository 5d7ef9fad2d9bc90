/// The page's one script: a tap or click on a point or a cross shows its tooltip under the
/// chart (phones have no hover), the matrix's open-all and close-all buttons, and the folded
/// comparison rows opened for print. The page reads in full without it.
enum ReportPageScript {
  /// The script's text, exactly as the page holds it: its SHA-256 is what the page's Content
  /// Security Policy lets run. It writes only `textContent` and never reads the report's text
  /// as markup.
  static let source = """
    "use strict";
    (function () {
      document.querySelectorAll("figure.chart").forEach(function (figure) {
        var readout = figure.querySelector(".readout");
        figure.querySelectorAll("circle, g.stop").forEach(function (mark) {
          mark.addEventListener("click", function () {
            var title = mark.querySelector("title");
            if (!title || !readout) { return; }
            readout.textContent = title.textContent;
            readout.hidden = false;
          });
        });
      });
      document.querySelectorAll(".matrix-tools").forEach(function (tools) {
        tools.hidden = false;
        tools.querySelectorAll("button").forEach(function (button) {
          button.addEventListener("click", function () {
            var open = button.getAttribute("data-details") === "open";
            document.querySelectorAll("table.matrix details").forEach(function (cell) {
              cell.open = open;
            });
          });
        });
      });
      window.addEventListener("beforeprint", function () {
        document.querySelectorAll("details.folded").forEach(function (folded) {
          folded.open = true;
        });
      });
    })();
    """
}
