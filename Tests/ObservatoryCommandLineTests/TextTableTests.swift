import Testing

@testable import ObservatoryCommandLine

@Suite("Text tables")
struct TextTableTests {
  @Test("Columns are padded to their widest cell, the last one is not")
  func alignment() {
    let text = TextTable.render([["cell", "verdict"], ["a-long-name", "unchanged: a reason"]])
    #expect(text == "cell         verdict\na-long-name  unchanged: a reason\n")
    #expect(TextTable.render([]) == "")
  }
}
