/// What DIFF-01's aggregate scripts hold the object-level will-change signal to, read off the
/// backend's record of a script over two properties of one object.
///
/// The reference model compares the properties' observers; the signal has no value to compare.
/// The contract leaves it no choice: it fires inside the `set` of the write it announces, once,
/// before the store (TIM-03) and before the property observers (AGG-01), and a write made from a
/// callback is stored before its `set` returns (REE-05), so a backend that queues nested writes
/// still announces each in its `set`, not when its delivery's turn comes. So:
/// - right after a write's `set` begins, while observers of the signal are live, the signal
///   reaches each of them once (the write's *group*), before anything else happens: no
///   property callback, no other write, no return;
/// - inside the signal, the written property does not read the write's value yet;
/// - no signal comes anywhere else, and none after the observer's cancel returned (CAN-01).
///
/// An observer of the signal may end itself from its own signal; the group goes on.
enum ObjectSignalHistory {
  /// The first event that breaks one of the points above.
  struct Violation {
    /// The index of the event in the record.
    let index: Int
    let expected: String
    let observed: String
    /// The sentence of the contract the event breaks.
    let sentence: String
  }

  static let onceBeforeProperties =
    "the object-level signal fires once per mutation, before the property observers (AGG-01)"
  static let beforeTheStore =
    "the object-level will-change signal fires before the store, once per mutation (TIM-03)"

  /// The first violation in `events`, where `objectObservers` are the ids of the signal's
  /// observers, or `nil`. A and B start at 0.
  ///
  /// - Complexity: O(*e* · *k*) for *e* events and *k* observers of the signal.
  static func violation(
    in events: [DifferentialScript.Event], objectObservers: Set<Int>
  ) -> Violation? {
    var checker = Checker(objectObservers: objectObservers)
    for (index, event) in events.enumerated() {
      checker.record(event, at: index)
      if let violation = checker.violation { return violation }
    }
    return nil
  }

  private struct Checker {
    /// A write whose signal is owed or under way: the property and its value.
    struct Write {
      let onB: Bool
      let value: Int
      var name: String { "set \(onB ? "B" : "A") = \(value)" }
    }

    let objectObservers: Set<Int>
    var violation: Violation?
    /// Observers of the signal registered and not cancelled (their cancel not begun).
    var live: Set<Int> = []
    /// Observers of the signal whose cancel returned.
    var ended: Set<Int> = []
    /// The write just made, whose group must come before anything else.
    var owed: Write?
    /// The group under way: its write, the observers it reached, and those live when it began.
    var group: (write: Write, reached: Set<Int>, live: Set<Int>)?

    init(objectObservers: Set<Int>) {
      self.objectObservers = objectObservers
    }

    mutating func record(_ event: DifferentialScript.Event, at index: Int) {
      switch event {
      case .willChange(let id, let readA, let readB):
        signal(to: id, reading: (readA, readB), at: index)
        return
      // An observer of the signal ending itself from its own signal stays inside the group.
      case .cancelStarted(let id, _) where group?.reached.contains(id) == true:
        live.remove(id)
        return
      case .cancelReturned(let id) where group?.reached.contains(id) == true:
        ended.insert(id)
        return
      default:
        break
      }
      closeGroup(at: index)
      guard violation == nil else { return }
      if let owed {
        violation = Violation(
          index: index,
          expected: "\(owed.name) announced to \(Self.list(live)) as its set begins",
          observed: "\(event) first", sentence: ObjectSignalHistory.onceBeforeProperties)
        return
      }
      switch event {
      case .observeReturned(let id) where objectObservers.contains(id):
        live.insert(id)
      case .cancelStarted(let id, _) where objectObservers.contains(id):
        live.remove(id)
      case .cancelReturned(let id) where objectObservers.contains(id):
        ended.insert(id)
      case .write(let value), .writeOther(let value):
        let onB: Bool
        if case .writeOther = event { onB = true } else { onB = false }
        if !live.isEmpty { owed = Write(onB: onB, value: value) }
      default:
        break
      }
    }

    private mutating func signal(to id: Int, reading: (a: Int, b: Int), at index: Int) {
      if ended.contains(id) {
        violation = Violation(
          index: index, expected: "nothing for #\(id) after its cancel returned",
          observed: "#\(id):will change", sentence: ContractSentence.nothingAfterCancel)
        return
      }
      if let owed {
        group = (owed, [], live)
        self.owed = nil
      }
      guard let write = group?.write else {
        violation = Violation(
          index: index, expected: "a signal only as a write's set begins",
          observed: "#\(id):will change, no write just made (announced on a later turn, or"
            + " twice)",
          sentence: ObjectSignalHistory.onceBeforeProperties)
        return
      }
      if group?.reached.contains(id) == true {
        violation = Violation(
          index: index, expected: "\(write.name) announced to #\(id) once",
          observed: "#\(id):will change again",
          sentence: ObjectSignalHistory.onceBeforeProperties)
        return
      }
      group?.reached.insert(id)
      // Not yet its own value (each is written once). Which older value it reads is open with
      // willSet timing: a write made from a callback comes before the outer write's store.
      let read = write.onB ? reading.b : reading.a
      guard read == write.value else { return }
      violation = Violation(
        index: index,
        expected: "\(write.onB ? "B" : "A") does not read \(write.value) yet inside the signal"
          + " for \(write.name)",
        observed: "#\(id) read \(read)", sentence: ObjectSignalHistory.beforeTheStore)
    }

    /// Ends the group under way: every observer live when it began and still live was reached.
    private mutating func closeGroup(at index: Int) {
      guard let (write, reached, liveThen) = group else { return }
      group = nil
      guard let missed = liveThen.subtracting(reached).intersection(live).min() else { return }
      violation = Violation(
        index: index,
        expected: "\(write.name) announced to every observer of the signal, \(Self.list(liveThen))",
        observed: "to \(Self.list(reached)) without #\(missed)",
        sentence: ObjectSignalHistory.onceBeforeProperties)
    }

    static func list(_ ids: Set<Int>) -> String {
      ids.isEmpty ? "none" : ids.sorted().map { "#\($0)" }.joined(separator: ", ")
    }
  }
}
