import Foundation
import ObservationConformance
import ObservationCore

/// `conformance-fixtures [request arguments]`: the child side of an isolated
/// conformance run over a backend that traps, deadlocks or spins in one rule (`runaway-trap`,
/// `runaway-deadlock`, `runaway-spin`; see ``RunawayGuardedObservers``) or is only slow there
/// (`runaway-slow`), or that declares a trap on misuse
/// (`misuse-trap`, and `misuse-claimed-trap` which does not trap; see
/// ``MisuseTrappingObservers``), or that does not declare `threadSafe` and traps when used from
/// another thread (`thread-confined`) or is safe anyway (`locked-undeclared`; see
/// `ThreadProbeFixtures.swift`), or that is correct, thread-safe and slow at 10,000 observers
/// (`gated-slow`) or deadlocks at 1,000 (`gated-deadlock`; see ``GatedObservers``), or that
/// makes one of the choices the contract leaves open (`open-choice-…`, see
/// ``OpenChoiceObservers``; `turn-queue-…`, see ``TurnQueueObservers``; `flushing…`, see
/// ``FlushingObservers``; `trampoline-…`, see ``TrampolineObservers``), for the tool's tests,
/// the one the request names (`--backend`). It is what a third party's own
/// harness executable does with its backends.
@main
enum ConformanceFixtures {
  static func main() {
    let arguments = CommandLine.arguments.dropFirst()
    var backends: [any ObservationBackend] = RunawayReaction.allCases.map(
      RunawayGuardedBackend.init)
    backends += [MisuseTrappingBackend(traps: true), MisuseTrappingBackend(traps: false)]
    backends += [ThreadConfinedBackend(), UndeclaredLockedBackend()]
    backends += [GatedBackend(deadlocks: false), GatedBackend(deadlocks: true)]
    for twins in OpenChoiceBackend.twins { backends += [twins.first, twins.second] }
    for removal in TurnQueueObservers.Removal.allCases {
      backends.append(TurnQueueBackend(removal: removal))
    }
    backends.append(TurnQueueBackend.twins.first)
    for completion in TurnQueueCompletableObservers.Completion.allCases {
      backends.append(TurnQueueCompletableBackend(completion: completion))
    }
    backends += [
      FlushingBackend(cancelsThroughTheSubject: false),
      FlushingBackend(cancelsThroughTheSubject: true),
    ]
    backends += TrampolineObservers.Sharing.allCases.map(TrampolineBackend.init)
    do {
      let request = try ConformanceChildRequest(arguments: arguments)
      guard let backend = backends.first(where: { $0.name == request.backend }) else {
        FileHandle.standardError.write(
          Data(
            ("conformance-fixtures: no backend '\(request.backend)'; it runs "
              + backends.map(\.name).joined(separator: ", ") + "\n").utf8))
        exit(2)
      }
      func run<Backend: ObservationBackend>(_ backend: Backend) throws {
        try ConformanceChild.run(backend, request: request)
      }
      try run(backend)
    } catch {
      FileHandle.standardError.write(Data("conformance-fixtures: \(error)\n".utf8))
      exit(1)
    }
  }
}
