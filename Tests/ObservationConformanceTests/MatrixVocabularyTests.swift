import ObservationConformance
import ObservationReports
import Testing

/// The matrix file's words are the suite's: `ObservationReports` reads the matrix without the
/// engine, so its vocabulary is a list of its own, held here to the engine's.
@Suite("Conformance matrix vocabulary")
struct MatrixVocabularyTests {
  @Test(
    "The matrix's outcomes and trait names are the suite's outcome kinds and rule traits, in order")
  func sameWords() {
    #expect(
      ConformanceOutcome.allCases.map(\.rawValue) == RuleOutcome.Kind.allCases.map(\.rawValue))
    #expect(ConformanceMatrixCSV.traitNames == RuleTrait.allCases.map(\.name))
  }
}
