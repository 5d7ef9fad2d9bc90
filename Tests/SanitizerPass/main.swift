// The sanitizers' passes over the conformance rules, as an executable that needs only the
// backends and the suite: `.ci/run` builds it alone with `--sanitize=thread` or
// `--sanitize=address` (the backends, OpenCombine and the suite, without the test targets) and
// runs `sanitizer-pass thread` or `sanitizer-pass address`. It exits 1 if a rule's outcome
// disagrees with what the pass expects, and the sanitizer's runtime makes it fail on a data
// race, a bad access or a leak it reports.
import Foundation

let usage = "usage: sanitizer-pass thread|address"
let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let pass = arguments.first, ["thread", "address"].contains(pass) else {
  print(usage)
  exit(2)
}
let matrix: PinnedMatrix
do {
  matrix = try PinnedMatrix()
} catch {
  print("cannot read \(PinnedMatrix.url.path): \(error)")
  exit(1)
}
let result = pass == "thread" ? ThreadPass.run(against: matrix) : AddressPass.run(against: matrix)
if !result.disagreements.isEmpty {
  print(result.disagreements.joined(separator: "\n"))
  exit(1)
}
print(result.summary)
