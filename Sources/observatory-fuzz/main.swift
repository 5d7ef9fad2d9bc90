import Foundation
import ObservatoryFuzzDriver
import ObservatoryFuzzing

// `observatory-fuzz`: the fuzz target OBSERVATORY_FUZZ_TARGET names (``FuzzTarget``), under
// libFuzzer in a build with `-Xswiftc -sanitize=fuzzer,address`, or replaying the files and
// folders given in any other build:
//
//   OBSERVATORY_FUZZ_TARGET=report-reader observatory-fuzz Fuzzing/Corpus/report-reader

guard let target = FuzzTarget.fromEnvironment else {
  let given = ProcessInfo.processInfo.environment[FuzzTarget.environmentName]
  let accepted = FuzzTarget.allCases.map(\.rawValue).joined(separator: ", ")
  FileHandle.standardError.write(
    Data(
      ("observatory-fuzz: \(FuzzTarget.environmentName) "
        + (given.map { "names no fuzz target ('\($0.prefix(60))')" } ?? "is not set")
        + "; accepted: \(accepted)\n").utf8))
  exit(1)
}
FuzzDriver.main { try target.check($0) }
