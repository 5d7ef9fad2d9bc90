import Foundation
import ObservationReports
import Testing

@testable import ObservatoryFuzzing

/// Every input kept in `Fuzzing/Corpus/` (the seeds, and every crash or finding the fuzzer
/// found, kept as a regression test with its input) checked again by its target, in any build:
/// a reader or formatter that traps again stops this run, one that breaks a property fails it.
@Suite("The fuzz targets' corpora, replayed")
struct CorpusReplayTests {
  /// The corpus of `target`, every file in its folder.
  static func corpus(_ target: FuzzTarget) -> [URL] {
    let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fuzzing/Corpus/\(target.rawValue)")
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.sorted().map { folder.appendingPathComponent($0) }
  }

  @Test("Every kept input holds its target's properties", arguments: FuzzTarget.allCases)
  func replay(_ target: FuzzTarget) throws {
    let inputs = Self.corpus(target)
    #expect(!inputs.isEmpty, "no corpus for \(target.rawValue)")
    for input in inputs {
      let bytes = try [UInt8](Data(contentsOf: input))
      #expect(throws: Never.self, "\(input.lastPathComponent)") { try target.check(bytes) }
    }
  }

  @Test("The seeds are read, not refused: a seed that no longer reads exercises nothing")
  func seedsRead() throws {
    for input in Self.corpus(.reportReader) where input.lastPathComponent.hasPrefix("seed-") {
      let text = try String(contentsOf: input, encoding: .utf8)
      #expect(throws: Never.self, "\(input.lastPathComponent)") {
        try Report.read(csv: text, name: input.lastPathComponent)
      }
    }
  }
}
