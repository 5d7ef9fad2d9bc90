import ObservationCore
import Testing

@testable import ObservationConformance

/// THR-09's checker on histories written out by hand: each property it checks, held and
/// broken, so that none of them can pass by never looking.
@Suite("Concurrent histories")
struct ConcurrentHistoryTests {
  /// Thread `thread`'s `step`-th value.
  static func v(_ thread: Int, _ step: Int) -> Int {
    ConcurrentHistory.value(thread: thread, step: step)
  }

  static func model(_ flags: Set<Capability>) -> ConcurrentHistory.Model {
    ConcurrentHistory.Model(
      BackendCapabilities(timing: .didSet, flags, maxReentrancyDepth: .unbounded))
  }

  static let synchronous = model([.threadSafe, .synchronousDelivery, .deliversEveryValue])

  /// A set of `value` delivered to observer 0 inside it.
  static func set(_ value: Int, deliveredTo observers: [Int] = [0]) -> [HistoryEvent] {
    [.setStarted(value)] + observers.map { .delivered(value, to: $0) } + [.setReturned(value)]
  }

  static let subscribed: [HistoryEvent] = [
    .observeStarted(observer: 0), .observeReturned(observer: 0),
  ]

  static func expected(
    _ events: [HistoryEvent], _ model: ConcurrentHistory.Model = synchronous
  ) -> [String] {
    ConcurrentHistory(events, initialValue: 0).violations(of: model).map(\.expected)
  }

  @Test("Two threads' overlapping sets, delivered in either order, are a history it allows")
  func overlappingSets() {
    let events =
      Self.subscribed + [
        .setStarted(Self.v(0, 1)), .setStarted(Self.v(1, 1)), .delivered(Self.v(1, 1), to: 0),
        .delivered(Self.v(0, 1), to: 0), .setReturned(Self.v(0, 1)), .setReturned(Self.v(1, 1)),
      ] + Self.set(Self.v(0, 2))
    #expect(Self.expected(events) == [])
  }

  @Test("A value delivered after one its thread set later is out of order")
  func programOrder() {
    let events =
      Self.subscribed + [
        .setStarted(Self.v(0, 1)), .setReturned(Self.v(0, 1)), .setStarted(Self.v(0, 2)),
        .delivered(Self.v(0, 2), to: 0), .delivered(Self.v(0, 1), to: 0),
        .setReturned(Self.v(0, 2)),
      ]
    let found = ConcurrentHistory(events, initialValue: 0).violations(
      of: Self.model([.threadSafe, .synchronousDelivery, .handsOffContendedWrites]))
    #expect(found.map(\.observed).first?.contains("though its thread set it first") == true)
  }

  @Test("A value delivered after one set once its own set had returned is out of order")
  func realTimeOrder() {
    let events =
      Self.subscribed + [
        .setStarted(Self.v(0, 1)), .setReturned(Self.v(0, 1)), .setStarted(Self.v(1, 1)),
        .delivered(Self.v(1, 1), to: 0), .setReturned(Self.v(1, 1)),
        .delivered(Self.v(0, 1), to: 0),
      ]
    let found = ConcurrentHistory(events, initialValue: 0).violations(
      of: Self.model([.threadSafe, .synchronousDelivery, .handsOffContendedWrites]))
    #expect(found.map(\.observed).first?.contains("returned before that one's started") == true)
  }

  @Test("A value twice, or one never set, is not allowed")
  func duplicatesAndStrangers() {
    let twice = Self.subscribed + Self.set(Self.v(0, 1), deliveredTo: [0, 0])
    #expect(Self.expected(twice) == ["#0 gets each value at most once"])
    let stranger =
      Self.subscribed + [.setStarted(Self.v(0, 1)), .delivered(7, to: 0)]
      + Self.set(Self.v(0, 1)).dropFirst()
    #expect(Self.expected(stranger) == ["#0 gets only values that were set"])
  }

  @Test("Every value set while subscribed arrives, with deliversEveryValue and synchronously")
  func everyValue() {
    let events =
      Self.subscribed + Self.set(Self.v(0, 1)) + Self.set(Self.v(0, 2), deliveredTo: [])
      + [.cancelStarted(observer: 0), .cancelReturned(observer: 0)]
    #expect(
      Self.expected(events) == [
        "#0 gets every value set while it was subscribed (deliversEveryValue)"
      ])
    let coalescing = Self.model([.threadSafe, .synchronousDelivery])
    #expect(Self.expected(events, coalescing) == [])
  }

  @Test("After cancel returns: only the value each writer had in flight, and only once")
  func afterCancel() {
    let inFlight =
      Self.subscribed + [
        .setStarted(Self.v(0, 1)), .cancelStarted(observer: 0), .cancelReturned(observer: 0),
        .delivered(Self.v(0, 1), to: 0), .setReturned(Self.v(0, 1)),
      ]
    #expect(Self.expected(inFlight) == [])
    let immediate = Self.model([
      .threadSafe, .synchronousDelivery, .deliversEveryValue, .immediateCancellation,
    ])
    #expect(Self.expected(inFlight, immediate) == ["nothing for #0 after its cancel returned"])
    let later = inFlight + Self.set(Self.v(0, 2))
    #expect(
      Self.expected(later) == [
        "nothing for #0 after its cancel returned but the value each writer had in flight then"
      ])
  }

  @Test("A synchronous backend delivers no value whose set returned before observe started")
  func beforeSubscribing() {
    let events: [HistoryEvent] =
      [.setStarted(Self.v(0, 1)), .setReturned(Self.v(0, 1))] + Self.subscribed
      + [.delivered(Self.v(0, 1), to: 0)]
    #expect(
      Self.expected(events) == ["#0 gets no value whose set returned before it subscribed"])
    let replaying = Self.model([
      .threadSafe, .synchronousDelivery, .deliversEveryValue, .replaysCurrentValue,
    ])
    let replayed: [HistoryEvent] = [
      .setStarted(Self.v(0, 1)), .setReturned(Self.v(0, 1)), .observeStarted(observer: 0),
      .delivered(Self.v(0, 1), to: 0), .observeReturned(observer: 0),
    ]
    #expect(Self.expected(replayed, replaying) == [])
  }

  @Test("A replay is a value current during observe, not one superseded before it started")
  func replay() {
    let replaying = Self.model([
      .threadSafe, .synchronousDelivery, .deliversEveryValue, .replaysCurrentValue,
    ])
    let initial: [HistoryEvent] = [
      .observeStarted(observer: 0), .delivered(0, to: 0), .observeReturned(observer: 0),
    ]
    #expect(Self.expected(initial, replaying) == [])
    let stale =
      Self.set(Self.v(0, 1), deliveredTo: []) + [
        .observeStarted(observer: 0), .delivered(0, to: 0), .observeReturned(observer: 0),
      ]
    #expect(Self.expected(stale, replaying) == ["#0 gets only values that were set"])
  }

  @Test("get returns a write no other set started after")
  func finalValue() {
    let events = Self.set(Self.v(0, 1), deliveredTo: []) + Self.set(Self.v(1, 1), deliveredTo: [])
    let history = ConcurrentHistory(events, initialValue: 0)
    #expect(history.finalValueViolation(Self.v(1, 1)) == nil)
    #expect(history.finalValueViolation(Self.v(0, 1))?.observed.contains("was set after") == true)
    #expect(history.finalValueViolation(5)?.observed.contains("was not set") == true)
  }
}
