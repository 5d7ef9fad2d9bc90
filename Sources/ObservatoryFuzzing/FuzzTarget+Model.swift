import DenseBackend
import KeyPathBackend
import LinkedListBackend
import ObservationConformance

extension FuzzTarget {
  /// The fuzzer of each backend written here that the model targets drive, made once.
  static let modelFuzzers: [FuzzTarget: DifferentialFuzzer] = {
    var fuzzers: [FuzzTarget: DifferentialFuzzer] = [:]
    // The declarations are valid (META-02 passes in the committed matrix): a failure here is
    // a broken build, which should stop the fuzzer.
    fuzzers[.linkedListModel] = try! DifferentialFuzzer(LinkedListStrategy())
    fuzzers[.denseModel] = try! DifferentialFuzzer(DenseStrategy())
    fuzzers[.keyPathModel] = try! DifferentialFuzzer(KeyPathStrategy())
    return fuzzers
  }()

  /// A model target: the script `input` draws, replayed on the backend and on the reference
  /// model (``DifferentialFuzzer``).
  static func checkModel(_ target: FuzzTarget, _ input: [UInt8]) throws(FuzzFinding) {
    if let finding = modelFuzzers[target]!.check(input) {
      throw FuzzFinding(finding.description)
    }
  }
}
