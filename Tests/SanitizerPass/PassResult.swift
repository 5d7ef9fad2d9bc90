/// What a sanitizer's pass found: every disagreement with what was expected, and the line it
/// prints when there is none.
struct PassResult {
  /// One line per run whose outcome disagrees with what was expected.
  var disagreements: [String]
  /// What the pass ran, printed when every run agrees.
  var summary: String
}
