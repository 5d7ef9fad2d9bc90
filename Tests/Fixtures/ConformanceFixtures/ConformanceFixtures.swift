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
/// ``FlushingObservers``; `trampoline-…`, see ``TrampolineObservers``; `aggregate-object…`, see
/// ``AggregateObject``; `coalescing-turn-queue…`,
/// see ``CoalescingTurnQueueObservers``; `rebinding-chain-…` and `later-turn-chain-…`, see
/// ``RebindingNestedPathFixture``; `snapshot-delivering…` and `serializing-handing-off`, see
/// ``ThreadTwins``), for the tool's tests,
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
    // The open points' twins: correct backends that each make one choice the contract leaves
    // open, run isolated to show that the choice passes as an adopter's run would see it.
    var twins: [any ObservationBackend] = []
    for pair in OpenChoiceBackend.twins { twins += [pair.first, pair.second] }
    for removal in TurnQueueObservers.Removal.allCases {
      twins.append(TurnQueueBackend(removal: removal))
    }
    twins.append(TurnQueueBackend.twins.first)
    twins += [TurnQueueBackend.laterReplayTwins.first, TurnQueueBackend.laterReplayTwins.second]
    for completion in TurnQueueCompletableObservers.Completion.allCases {
      twins.append(TurnQueueCompletableBackend(completion: completion))
    }
    twins += [
      FlushingBackend(cancelsThroughTheSubject: false),
      FlushingBackend(cancelsThroughTheSubject: true),
    ]
    twins += TrampolineObservers.Sharing.allCases.map(TrampolineBackend.init)
    twins += AggregateObject.Announcing.allCases.map(AggregateBackend.init)
    twins += [CoalescingTurnQueueBackend.twins.first, CoalescingTurnQueueBackend.twins.second]
    twins += [RebindingNestedPathBackend.twins.first, RebindingNestedPathBackend.twins.second]
    twins.append(RebindingNestedPathBackend.rebindingTwins.second)
    twins += RebindingNestedPathFixture.LaterTurnCancel.allCases.map(
      LaterTurnNestedPathBackend.init)
    twins += [ThreadTwins.first, ThreadTwins.second]
    twins += [ThreadTwins.replayTwins.first, ThreadTwins.replayTwins.second]
    backends += twins
    do {
      let request = try ConformanceChildRequest(arguments: arguments)
      guard let backend = backends.first(where: { $0.name == request.backend }) else {
        FileHandle.standardError.write(
          Data(
            ("conformance-fixtures: no backend '\(request.backend)'; it runs "
              + backends.map(\.name).joined(separator: ", ") + "\n").utf8))
        exit(2)
      }
      // The twins' THR rules run at full strength, as an adopter's would; their volume rules
      // (MEM-05, MEM-07, SCALE-01's largest sizes) at a tenth of the cycles and observers, as
      // in process: at full volume those were half of the twins' isolated runs, and a correct
      // twin's choice shows in the first thousand cycles as in the hundred-thousandth. The
      // other fixtures are about the runner itself (a trap, a deadlock, a slow SCALE-01 at
      // 10,000 observers) and keep the standard configuration.
      let isTwin = twins.contains { $0.name == backend.name }
      let configuration =
        isTwin ? ConformanceConfiguration(volumeDivisor: 10) : ConformanceConfiguration.standard
      func run<Backend: ObservationBackend>(_ backend: Backend) throws {
        try ConformanceChild.run(backend, request: request, configuration: configuration)
      }
      try run(backend)
    } catch {
      FileHandle.standardError.write(Data("conformance-fixtures: \(error)\n".utf8))
      exit(1)
    }
  }
}
