import ObservationCore

/// Scenarios several rules share.
enum Scenarios {
  /// What one round of ``nestedWriteRotation(_:)`` saw.
  struct NestedWriteRound {
    /// The observer that set 2 while 1 was being delivered.
    let setter: Int
    /// Each observer's values, by observer.
    let values: [[Int]]
    /// The subject's value afterwards.
    let final: Int
  }

  /// How many observers ``nestedWriteRotation(_:)`` uses: eight, each taking its turn as the
  /// writer, so a backend that recurses cannot pass by luck of its observer order (which a
  /// hashed registry varies per subject).
  static let rotationObservers = 8

  /// On a fresh subject per round, observer `setter` sets 2 while 1 is delivered; one round per
  /// observer.
  static func nestedWriteRotation(_ context: RuleContext) -> [NestedWriteRound] {
    let observers = rotationObservers
    return (0..<observers).map { setter in
      let subject = context.subject(0)
      let recorder = Recorder<Int>()
      var fired = false
      let tokens = (0..<observers).map { id in
        subject.observe(
          recorder.handler(id) { value in
            if id == setter && value == 1 && !fired {
              fired = true
              subject.value = 2
            }
          })
      }
      recorder.reset()
      subject.value = 1
      context.settle { (0..<observers).allSatisfy { recorder.values(of: $0).last == 2 } }
      withExtendedLifetime(tokens) {}
      return NestedWriteRound(
        setter: setter, values: (0..<observers).map { recorder.values(of: $0) },
        final: subject.value)
    }
  }

  /// Two observers that read the subject inside their callbacks, then sets 1...10.
  static func readsInsideCallbacks(_ context: RuleContext) -> [Event<Int>] {
    let subject = context.subject(0)
    let recorder = Recorder<Int>()
    let tokens = (1...2).map { subject.observe(recorder.handler($0, reading: subject)) }
    recorder.reset()
    for value in 1...10 { subject.value = value }
    context.settle { (1...2).allSatisfy { recorder.values(of: $0).last == 10 } }
    withExtendedLifetime(tokens) {}
    return recorder.events
  }
}
