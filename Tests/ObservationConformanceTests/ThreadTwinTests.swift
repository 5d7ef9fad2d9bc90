import Dispatch
import Foundation
import ObservationCore
import Synchronization
import Testing

@testable import conformance_fixtures

/// The thread rows' twins make their different choices: each test holds a write on one thread
/// inside its first callback while the test's thread writes or cancels, then compares what
/// each observer got. That both twins pass every rule they declare is `OpenChoiceTwinTests`'.
@Suite("The thread rows' twins resolve the races of several threads differently")
struct ThreadTwinTests {
  /// What the observers of one run saw.
  struct Seen {
    /// Each observer's values, in the order its callbacks started.
    var values: [[Int]]
    /// The most callbacks to observer 0 in progress at once.
    var mostAtOnce: Int
  }

  /// Registers two observers on a subject of `backend`, writes 1 on a thread of its own, and
  /// while observer 0's callback for 1 is in progress there, runs `meanwhile` on the test's
  /// thread; the callback returns once `meanwhile` has (or after 5 s).
  ///
  /// - Complexity: two writes' deliveries, and one thread.
  static func run<Backend: ObservationBackend>(
    _ backend: Backend,
    meanwhile: (_ subject: Backend.Subject, _ tokens: [Backend.Subject.Token]) -> Void
  ) throws -> Seen {
    let subject = backend.makeSubject(initialValue: 0)
    let state = Mutex(Seen(values: [[], []], mostAtOnce: 0))
    let inside = Atomic<Int>(0)
    let firstEntered = DispatchSemaphore(value: 0)
    let meanwhileReturned = DispatchSemaphore(value: 0)
    let tokens = (0..<2).map { observer in
      subject.observe { value in
        let now = inside.add(observer == 0 ? 1 : 0, ordering: .sequentiallyConsistent).newValue
        state.withLock {
          $0.values[observer].append(value)
          $0.mostAtOnce = max($0.mostAtOnce, now)
        }
        if observer == 0 && value == 1 {
          firstEntered.signal()
          _ = meanwhileReturned.wait(timeout: .now() + 5)
        }
        inside.subtract(observer == 0 ? 1 : 0, ordering: .sequentiallyConsistent)
      }
    }
    let writerReturned = DispatchSemaphore(value: 0)
    nonisolated(unsafe) let shared = subject
    Thread {
      shared.value = 1
      writerReturned.signal()
    }.start()
    try #require(firstEntered.wait(timeout: .now() + 5) == .success, "\(backend.name)")
    meanwhile(subject, tokens)
    meanwhileReturned.signal()
    try #require(writerReturned.wait(timeout: .now() + 5) == .success, "\(backend.name)")
    withExtendedLifetime(tokens) {}
    return state.withLock { $0 }
  }

  @Test(
    "Writes on two threads at once: the snapshot list calls observer 0 on both at the same time, and its observers get the two writes in different orders; the serializing list, one callback at a time, one order"
  )
  func overlappingWrites() throws {
    let snapshot = try Self.run(ThreadTwins.first) { subject, _ in subject.value = 2 }
    #expect(snapshot.mostAtOnce == 2)
    #expect(snapshot.values == [[1, 2], [2, 1]])
    let serializing = try Self.run(ThreadTwins.second) { subject, _ in subject.value = 2 }
    #expect(serializing.mostAtOnce == 1)
    #expect(serializing.values == [[1, 2], [1, 2]])
  }

  @Test(
    "A write that overlapped a cancel on another thread: the snapshot list delivers it to the cancelled observer after its cancel returned; the serializing list, looking each observer up at its turn, does not"
  )
  func writeOverlappingCancel() throws {
    let snapshot = try Self.run(ThreadTwins.first) { _, tokens in tokens[1].cancel() }
    #expect(snapshot.values == [[1], [1]])
    let serializing = try Self.run(ThreadTwins.second) { _, tokens in tokens[1].cancel() }
    #expect(serializing.values == [[1], []])
  }

  @Test(
    "Writes on another thread while a replay is under way: the list replaying the latest gives the new observer the replayed value and the last of them; the list replaying every write, all of them in order",
    arguments: SnapshotObservers.Replay.allCases)
  func writesRacingAReplay(_ replay: SnapshotObservers.Replay) throws {
    let subject = SnapshotBackend(replay: replay).makeSubject(initialValue: 0)
    let values = Mutex<[Int]>([])
    let replayEntered = DispatchSemaphore(value: 0)
    let writesReturned = DispatchSemaphore(value: 0)
    let observed = DispatchSemaphore(value: 0)
    let shared = subject
    nonisolated(unsafe) var token: SnapshotObservers.Token?
    Thread {
      token = shared.observe { value in
        values.withLock { $0.append(value) }
        if value == 0 {
          replayEntered.signal()
          _ = writesReturned.wait(timeout: .now() + 5)
        }
      }
      observed.signal()
    }.start()
    try #require(replayEntered.wait(timeout: .now() + 5) == .success)
    for value in 1...3 { subject.value = value }
    writesReturned.signal()
    try #require(observed.wait(timeout: .now() + 5) == .success)
    subject.value = 4
    withExtendedLifetime(token) {}
    switch replay {
    case .latest: #expect(values.withLock { $0 } == [0, 3, 4])
    case .everyWrite: #expect(values.withLock { $0 } == [0, 1, 2, 3, 4])
    }
  }
}
