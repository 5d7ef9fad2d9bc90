import ObservationCore
import ObservationFixtures

/// The measured scenarios, generic over the backend so that every call in a timed loop is a
/// direct, specialized call.
///
/// ``run(_:on:probe:scale:)`` takes a workload to its driver. Each driver does a workload's
/// full amount of work unless a ``WorkScale`` shrinks it (the harness does, for slow cells).
///
/// A new workload is a case of ``Workload`` and a driver here, with its line in
/// ``run(_:on:probe:scale:)``: the switches over ``Workload`` that need one more case are
/// exhaustive, so the compiler names them.
public enum Drivers {
  /// How many independent subjects a repetition uses so that it does at least a few thousand
  /// operations even for small *n*.
  @inlinable
  public static func batch(for n: Int, scale: WorkScale = .full) -> Int {
    scale.scaled(max(1, 4096 / max(n, 1)))
  }

  /// How many writes `notify` makes: enough for about 262,144 deliveries, at most 1,000.
  @inlinable
  public static func writes(for n: Int, scale: WorkScale = .full) -> Int {
    scale.scaled(max(1, min(1000, 262_144 / max(n, 1))))
  }

  /// How many steps `churn` takes: about 262,144 observer-steps, between 16 and 4,096.
  @inlinable
  public static func churnSteps(for n: Int, scale: WorkScale = .full) -> Int {
    scale.scaled(max(fewestChurnSteps, min(4096, 262_144 / max(n, 1))))
  }

  /// The floor of ``churnSteps(for:scale:)`` at full scale, however many observers there are.
  public static let fewestChurnSteps = 16

  /// Runs one repetition of `workloadCase` on `backend`: the one place where a workload meets
  /// its driver, for the harness's cells and the benchmark suites alike.
  ///
  /// Called with a concrete backend type, it is specialized for it, and so is every driver it
  /// reaches: no timed region calls the backend through an existential (the nested driver
  /// drives its path fixture as one, and says why). A workload the backend cannot run (nested
  /// observation without a fixture) comes back as a sample with a ``Sample/problem``.
  ///
  /// - Complexity: one repetition of the workload's driver; each driver states its hypothesis.
  @inlinable
  public static func run<B: ObservationBackend>(
    _ workloadCase: WorkloadCase, on backend: B, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let n = workloadCase.n
    switch workloadCase.workload {
    case .subscribe: return subscribe(backend, n: n, probe: probe, scale: scale)
    case .erasedSubscribe: return erasedSubscribe(backend, n: n, probe: probe, scale: scale)
    case .notify: return notify(backend, n: n, probe: probe, scale: scale)
    case .erasedNotify: return erasedNotify(backend, n: n, probe: probe, scale: scale)
    case .cancel:
      return cancel(
        backend, n: n, pattern: workloadCase.pattern, seed: workloadCase.seed, probe: probe,
        scale: scale)
    case .churn: return churn(backend, n: n, probe: probe, scale: scale)
    case .fanIn: return fanIn(backend, n: n, probe: probe, scale: scale)
    case .nested:
      return nested(
        backend, n: n, depth: workloadCase.depth, pattern: workloadCase.pattern, probe: probe,
        scale: scale)
        ?? Sample(nanoseconds: 0, operations: 0, problem: "the backend has no nested observation")
    case .contendedNotify:
      return contendedNotify(
        backend, n: n, threads: workloadCase.threads, probe: probe, scale: scale)
    case .contendedChurn:
      return contendedChurn(
        backend, n: n, threads: workloadCase.threads, probe: probe, scale: scale)
    }
  }

  /// Registers `n` observers on each of ``batch(for:scale:)`` subjects; cost per subscription.
  ///
  /// - Complexity: the hypothesis is O(1) per subscription for every backend.
  @inlinable
  public static func subscribe<B: ObservationBackend>(
    _ backend: B, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    subscribe(
      backend, through: TokenSubscriptions<B.Subject>(), n: n, probe: probe, scale: scale)
  }

  /// Like ``subscribe(_:n:probe:scale:)``, each observer subscribed through `scheme`.
  ///
  /// - Complexity: the hypothesis is O(1) per subscription for every backend.
  @inlinable
  public static func subscribe<B: ObservationBackend, Scheme: SubscriptionScheme>(
    _ backend: B, through scheme: Scheme, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample where Scheme.Subject == B.Subject {
    let batch = batch(for: n, scale: scale)
    let subjects = (0..<batch).map { _ in backend.makeSubject(initialValue: 0) }
    let sink = WorkloadSink()
    var subscriptions: [Scheme.Subscription] = []
    subscriptions.reserveCapacity(n * batch)
    let frame = Frame.start(
      backend, sink, probe: probe, observers: n * batch, subscribing: .inTheRegion(retention: true))
    for subject in subjects {
      for _ in 0..<n { subscriptions.append(scheme.subscribe(subject) { sink.receive($0) }) }
    }
    let sample = frame.stop(operations: n * batch) {
      sink.reset()
      for subject in subjects { subject.value = 1 }
      awaitDeliveries(backend, sink, n * batch)
      return check(sink, deliveries: n * batch, sum: n * batch)
    }
    withExtendedLifetime(subscriptions) {}
    return sample
  }

  /// Like ``subscribe(_:n:probe:scale:)``, through `AnyObservable`.
  @inlinable
  public static func erasedSubscribe<B: ObservationBackend>(
    _ backend: B, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let batch = batch(for: n, scale: scale)
    let subjects = (0..<batch).map { _ in backend.makeSubject(initialValue: 0) }
    let handles = subjects.map { $0.eraseToAnyObservable() }
    let sink = WorkloadSink()
    var tokens: [AnyObservationToken] = []
    tokens.reserveCapacity(n * batch)
    let frame = Frame.start(
      backend, sink, probe: probe, observers: n * batch, subscribing: .inTheRegion(retention: false)
    )
    for handle in handles {
      for _ in 0..<n { tokens.append(handle.observe { sink.receive($0) }) }
    }
    let sample = frame.stop(operations: n * batch) {
      sink.reset()
      for subject in subjects { subject.value = 1 }
      awaitDeliveries(backend, sink, n * batch)
      return check(sink, deliveries: n * batch, sum: n * batch)
    }
    withExtendedLifetime(tokens) {}
    return sample
  }

  /// Writes ``writes(for:scale:)`` values to a subject with `n` observers; cost per delivery.
  ///
  /// - Complexity: the hypothesis is O(*n*) per write, O(1) per delivery.
  @inlinable
  public static func notify<B: ObservationBackend>(
    _ backend: B, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let subject = backend.makeSubject(initialValue: 0)
    let sink = WorkloadSink()
    let tokens = (0..<n).map { _ in subject.observe { sink.receive($0) } }
    let writes = writes(for: n, scale: scale)
    // An asynchronous backend's write is timed until its last observer has run: the latency
    // each write had, besides the cost of all of them.
    var latencies = [UInt64](repeating: 0, count: writes)
    let frame = Frame.start(backend, sink, probe: probe, observers: n)
    for value in 1...writes {
      if frame.awaitsEachWrite {
        let start = Stopwatch.now()
        subject.value = value
        awaitDeliveries(backend, sink, n * value)
        latencies[value - 1] = Stopwatch.now() &- start
      } else {
        subject.value = value
      }
    }
    var sample = frame.stop(operations: n * writes) {
      check(sink, deliveries: n * writes, sum: n * (writes * (writes + 1) / 2))
    }
    if frame.awaitsEachWrite { sample.latencies = latencies }
    withExtendedLifetime(tokens) {}
    return sample
  }

  /// Like ``notify(_:n:probe:scale:)``, observing through `AnyObservable` and writing through
  /// `ObservationInput`.
  @inlinable
  public static func erasedNotify<B: ObservationBackend>(
    _ backend: B, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let subject = backend.makeSubject(initialValue: 0)
    let handle = subject.eraseToAnyObservable()
    let input = subject.eraseToInput()
    let sink = WorkloadSink()
    let tokens = (0..<n).map { _ in handle.observe { sink.receive($0) } }
    let writes = writes(for: n, scale: scale)
    let frame = Frame.start(backend, sink, probe: probe, observers: n)
    for value in 1...writes {
      input.send(value)
      if frame.awaitsEachWrite { awaitDeliveries(backend, sink, n * value) }
    }
    let sample = frame.stop(operations: n * writes) {
      check(sink, deliveries: n * writes, sum: n * (writes * (writes + 1) / 2))
    }
    withExtendedLifetime(tokens) {}
    return sample
  }

  /// Cancels `n` observers on each of ``batch(for:scale:)`` subjects in `pattern` order; cost per
  /// cancellation.
  ///
  /// - Complexity: the hypothesis is O(1) per cancellation; an array backend shows O(*n*).
  @inlinable
  public static func cancel<B: ObservationBackend>(
    _ backend: B, n: Int, pattern: WorkloadPattern, seed: UInt64, probe: MemoryProbe,
    scale: WorkScale = .full
  ) -> Sample {
    cancel(
      backend, through: TokenSubscriptions<B.Subject>(), n: n, pattern: pattern, seed: seed,
      probe: probe, scale: scale)
  }

  /// Like ``cancel(_:n:pattern:seed:probe:scale:)``, each observer subscribed and cancelled
  /// through `scheme`.
  ///
  /// - Complexity: the hypothesis is O(1) per cancellation; an array backend shows O(*n*).
  @inlinable
  public static func cancel<B: ObservationBackend, Scheme: SubscriptionScheme>(
    _ backend: B, through scheme: Scheme, n: Int, pattern: WorkloadPattern, seed: UInt64,
    probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample where Scheme.Subject == B.Subject {
    let batch = batch(for: n, scale: scale)
    let subjects = (0..<batch).map { _ in backend.makeSubject(initialValue: 0) }
    let sink = WorkloadSink()
    let subscriptions = subjects.map { subject in
      (0..<n).map { _ in scheme.subscribe(subject) { sink.receive($0) } }
    }
    let order = cancellationOrder(n: n, pattern: pattern, seed: seed)
    let frame = Frame.start(backend, sink, probe: probe, observers: n * batch)
    for position in subjects.indices {
      let subject = subjects[position]
      let subjectSubscriptions = subscriptions[position]
      for index in order { scheme.cancel(subjectSubscriptions[index], of: subject) }
    }
    let sample = frame.stop(operations: n * batch) {
      sink.reset()
      for subject in subjects { subject.value = 1 }
      drain(backend)
      return check(sink, deliveries: 0, sum: 0, after: "every observer was cancelled")
    }
    withExtendedLifetime(subscriptions) {}
    return sample
  }

  /// The order in which `cancel` cancels `n` observers in `pattern` (the indices of their
  /// subscriptions, oldest first): the order the limit row cancels in too.
  ///
  /// - Complexity: O(*n*).
  @inlinable
  public static func cancellationOrder(n: Int, pattern: WorkloadPattern, seed: UInt64) -> [Int] {
    var order = Array(0..<n)
    switch pattern {
    case .lifo: order.reverse()
    case .random:
      var generator = SplitMix64(seed: seed)
      order.shuffle(using: &generator)
    case .fifo, .single, .leaf, .rebind: break
    }
    return order
  }

  /// `n` observers in steady state; each step cancels the oldest, subscribes a new one and
  /// writes once; cost per step.
  @inlinable
  public static func churn<B: ObservationBackend>(
    _ backend: B, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let subject = backend.makeSubject(initialValue: 0)
    let sink = WorkloadSink()
    var ring = (0..<n).map { _ in subject.observe { sink.receive($0) } }
    let steps = churnSteps(for: n, scale: scale)
    var oldest = 0
    let frame = Frame.start(backend, sink, probe: probe, observers: n)
    for step in 1...steps {
      ring[oldest].cancel()
      ring[oldest] = subject.observe { sink.receive($0) }
      oldest = oldest + 1 == n ? 0 : oldest + 1
      subject.value = step
      // The step's write reaches the n live observers (the new one by its first delivery).
      if frame.awaitsEachWrite { awaitDeliveries(backend, sink, n * step) }
    }
    let sample = frame.stop(operations: steps) {
      sink.reset()
      subject.value = 1
      awaitDeliveries(backend, sink, n)
      return check(sink, deliveries: n, sum: n, after: "\(steps) churn steps")
    }
    withExtendedLifetime(ring) {}
    return sample
  }

  /// `n` subjects with one observer each, one write on each, repeated; cost per write.
  @inlinable
  public static func fanIn<B: ObservationBackend>(
    _ backend: B, n: Int, probe: MemoryProbe, scale: WorkScale = .full
  ) -> Sample {
    let subjects = (0..<n).map { _ in backend.makeSubject(initialValue: 0) }
    let sink = WorkloadSink()
    let tokens = subjects.map { subject in subject.observe { sink.receive($0) } }
    let rounds = batch(for: n, scale: scale)
    let frame = Frame.start(backend, sink, probe: probe, observers: n)
    for round in 1...rounds {
      for subject in subjects { subject.value = round }
      if frame.awaitsEachWrite { awaitDeliveries(backend, sink, n * round) }
    }
    let sample = frame.stop(operations: n * rounds) {
      check(sink, deliveries: n * rounds, sum: n * (rounds * (rounds + 1) / 2))
    }
    withExtendedLifetime(tokens) {}
    return sample
  }

  /// `n` observers of a path of `depth` properties, `root.next?…?.title`, through the
  /// backend's nested observation (its own, or its subjects chained with `flatMapLatest`);
  /// ``writes(for:scale:)`` / 4 leaf changes, or as many replacements of `root.next` (every
  /// observation re-evaluates the whole path and rebinds); cost per delivered observer.
  ///
  /// The fixture is driven through `NestedPathFixture`, an existential: nested observation is
  /// dominated by evaluation and rebinding, not by that call.
  ///
  /// - Returns: `nil` if the backend has no nested observation at all.
  /// - Precondition: `depth >= pattern.minimumDepth`.
  public static func nested<B: ObservationBackend>(
    _ backend: B, n: Int, depth: Int, pattern: WorkloadPattern, probe: MemoryProbe,
    scale: WorkScale = .full
  ) -> Sample? {
    precondition(depth >= pattern.minimumDepth, "depth \(depth) is too shallow")
    guard let fixture = backend.makeAnyNestedPathFixture() else { return nil }
    // Two chains of depth - 1 nodes below the root; the root's `next` alternates between them.
    func chain(_ title: String) -> (top: AnyObject, leaf: AnyObject) {
      let nodes = (1..<max(depth, 2)).map { _ in fixture.makeNode(title: title) }
      for (upper, lower) in zip(nodes, nodes.dropFirst()) { fixture.setNext(lower, of: upper) }
      return (nodes.first!, nodes.last!)
    }
    let root = fixture.makeNode(title: "root")
    let first = chain("a")
    let second = chain("b")
    if depth > 1 { fixture.setNext(first.top, of: root) }
    let leaf = depth > 1 ? first.leaf : root
    let sink = WorkloadSink()
    let tokens = (0..<n).map { _ in
      fixture.observeTitle(depth: depth, from: root) { _ in sink.receive(1) }
    }
    let writes = max(1, writes(for: n, scale: scale) / 4)
    let frame = Frame.start(backend, sink, probe: probe, observers: n)
    for index in 0..<writes {
      if pattern == .rebind {
        fixture.setNext(index.isMultiple(of: 2) ? second.top : first.top, of: root)
      } else {
        // Never the title it had: frameworks that skip equal writes would not deliver.
        fixture.setTitle(String(index + 1), of: leaf)
      }
      if frame.awaitsEachWrite { awaitDeliveries(backend, sink, n * (index + 1)) }
    }
    let sample = frame.stop(operations: n * writes) {
      check(sink, deliveries: n * writes, sum: n * writes)
    }
    for token in tokens { token.cancel() }
    return sample
  }
}
