import ObservationCore

/// Scenarios several rules share.
enum Scenarios {
  /// What one round of ``nestedWriteRotation(_:)`` saw.
  struct NestedWriteRound {
    /// What the round did, for findings.
    let action: String
    /// Each observer's values, by observer.
    let values: [[Int]]
    /// The values set, in the order the `set` calls were made: 1, then the nested writes.
    let writes: [Int]
    /// The subject's value afterwards.
    let final: Int

    /// Whether `values` is ``writes`` with some values left out and none reordered or
    /// repeated, ending with the last write: what a coalescing backend may deliver.
    ///
    /// - Complexity: O(`values.count` + `writes.count`).
    func isInOrderPartOfWrites(_ values: [Int]) -> Bool {
      guard values.last == writes.last else { return false }
      var remaining = writes[...]
      for value in values {
        guard let index = remaining.firstIndex(of: value) else { return false }
        remaining = remaining[(index + 1)...]
      }
      return true
    }
  }

  /// How many observers ``nestedWriteRotation(_:)`` uses: eight, each taking its turn as the
  /// writer, so a backend that recurses cannot pass by luck of its observer order (which a
  /// hashed registry varies per subject).
  static let rotationObservers = 8

  /// Rounds on fresh subjects where callbacks write while 1 is delivered, with every observer
  /// taking its turn as the writer, in three forms: one nested write (2); two nested writes in
  /// one callback (2, then 3); one nested write from each of two neighbouring observers (2 and
  /// 3). Each writer writes once, on receiving 1.
  ///
  /// - Complexity: 24 rounds of 8 observers and at most 3 writes.
  static func nestedWriteRotation(_ context: RuleContext) -> [NestedWriteRound] {
    let observers = rotationObservers
    let forms: [(describe: (Int) -> String, writers: (Int) -> [Int: [Int]])] = [
      ({ "#\($0) sets 2 while 1 is delivered" }, { [$0: [2]] }),
      ({ "#\($0) sets 2 and then 3 while 1 is delivered" }, { [$0: [2, 3]] }),
      (
        { "#\($0) sets 2 and #\(($0 + 1) % observers) sets 3 while 1 is delivered" },
        { [$0: [2], ($0 + 1) % observers: [3]] }
      ),
    ]
    return forms.flatMap { form in
      (0..<observers).map { setter in
        nestedWrites(
          context, observers: observers, writers: form.writers(setter),
          action: "\(observers) observers; " + form.describe(setter))
      }
    }
  }

  /// On a fresh subject with `observers` observers, sets 1; observer `id` in `writers` makes
  /// the writes `writers[id]` from its callback when it receives 1 (once).
  ///
  /// - Complexity: O(`observers` × writes).
  static func nestedWrites(
    _ context: RuleContext, observers: Int, writers: [Int: [Int]], action: String
  ) -> NestedWriteRound {
    let subject = context.subject(0)
    let recorder = Recorder<Int>()
    let writes = Locked<[Int]>([1])
    let fired = Locked<Set<Int>>([])
    let tokens = (0..<observers).map { id in
      subject.observe(
        recorder.handler(id) { value in
          guard value == 1, let nested = writers[id], fired.withLock({ $0.insert(id).inserted })
          else { return }
          for next in nested {
            writes.withLock { $0.append(next) }
            subject.value = next
          }
        })
    }
    context.forget(recorder)
    subject.value = 1
    let total = 1 + writers.values.map(\.count).reduce(0, +)
    context.settle {
      let made = writes.withLock { $0 }
      return made.count == total
        && (0..<observers).allSatisfy {
          recorder.count(of: $0) >= total || recorder.values(of: $0).last == made.last
        }
    }
    context.drain()
    withExtendedLifetime(tokens) {}
    return NestedWriteRound(
      action: action, values: (0..<observers).map { recorder.values(of: $0) },
      writes: writes.withLock { $0 }, final: subject.value)
  }

  /// Two observers that read the subject inside their callbacks, then sets 1...10.
  static func readsInsideCallbacks(_ context: RuleContext) -> [Event<Int>] {
    let subject = context.subject(0)
    let recorder = Recorder<Int>()
    let tokens = (1...2).map { subject.observe(recorder.handler($0, reading: subject)) }
    context.forget(recorder)
    for value in 1...10 { subject.value = value }
    context.settle { (1...2).allSatisfy { recorder.values(of: $0).last == 10 } }
    withExtendedLifetime(tokens) {}
    return recorder.events
  }

  /// Sets 1 on `subject`, whose observer answers value v with v + 1 while v ≤ `levels`: a
  /// chain of writes nested `levels` deep. Waits until `done` holds or delivery settles.
  ///
  /// - Returns: the nested writes made.
  @discardableResult
  static func nestWrites(
    on subject: TestSubject<Int>, levels: Int, context: RuleContext,
    until done: @escaping () -> Bool = { false }
  ) -> Int {
    let made = Locked(0)
    let token = subject.observe { value in
      guard value >= 1 && value <= levels else { return }
      made.withLock { $0 += 1 }
      subject.value = value + 1
    }
    subject.value = 1
    context.settle { done() || made.withLock { $0 } >= levels }
    context.drain()
    withExtendedLifetime(token) {}
    return made.withLock { $0 }
  }
}
