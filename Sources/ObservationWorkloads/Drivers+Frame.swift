import ObservationCore

/// The frame every driver shares, and what it waits with.
extension Drivers {
  /// When a driver's observers subscribe, relative to its timed region.
  @usableFromInline
  enum Subscribing {
    /// Before the region, in the driver's set-up: the frame lets an asynchronous backend start
    /// them, and forgets what they replayed, before the clock starts.
    case beforeTheRegion
    /// In the region, which then lasts until an asynchronous backend has started them; with
    /// `retention`, the sample also says how many bytes each observer keeps alive.
    case inTheRegion(retention: Bool)
  }

  /// What every driver does around its timed loop: the waiting before the clock starts, the
  /// clock, and the check once it has stopped.
  ///
  /// A driver sets up its subjects and observers, all reporting to one sink; calls
  /// ``start(_:_:probe:observers:subscribing:)``, which lets an asynchronous backend start
  /// the observers, forgets their replays and starts a ``TimedRegion``; runs its loop, waiting
  /// for each write's deliveries when ``awaitsEachWrite``; and calls ``stop(operations:check:)``.
  /// Only the loop is the driver's own, written out in the driver's body, so that a
  /// specialized driver's timed region is the code it would be without the frame.
  @usableFromInline
  struct Frame<Backend: ObservationBackend> {
    @usableFromInline let backend: Backend
    @usableFromInline let sink: WorkloadSink
    @usableFromInline let observers: Int
    @usableFromInline let subscribing: Subscribing
    @usableFromInline var timedRegion: TimedRegion
    @usableFromInline var liveBefore: UInt64?
    /// Whether each write in the loop waits until its deliveries have arrived, so that no two
    /// writes coalesce: the backend delivers asynchronously, to observers that subscribed
    /// before the region. (A region that subscribes waits once, as it ends.)
    @usableFromInline let awaitsEachWrite: Bool

    /// Readies `observers` observers of `backend` that report to `sink`, then starts the
    /// clock: an asynchronous backend starts them, and what they replayed is forgotten, unless
    /// they subscribe in the region.
    @inlinable
    @inline(__always)
    static func start(
      _ backend: Backend, _ sink: WorkloadSink, probe: MemoryProbe, observers: Int,
      subscribing: Subscribing = .beforeTheRegion
    ) -> Frame {
      var frame = Frame(
        backend: backend, sink: sink, observers: observers, subscribing: subscribing,
        probe: probe)
      frame.timedRegion.start()
      return frame
    }

    @inlinable
    @inline(__always)
    init(
      backend: Backend, sink: WorkloadSink, observers: Int, subscribing: Subscribing,
      probe: MemoryProbe
    ) {
      self.backend = backend
      self.sink = sink
      self.observers = observers
      self.subscribing = subscribing
      var retention = false
      switch subscribing {
      case .beforeTheRegion:
        Drivers.awaitSubscriptions(backend, sink, observers: observers)
        sink.reset()
        awaitsEachWrite = !backend.capabilities.has(.synchronousDelivery)
      case .inTheRegion(let measuresRetention):
        retention = measuresRetention
        awaitsEachWrite = false
        // What an earlier run left to an asynchronous backend's loop (the tasks of observers
        // cancelled as its tokens went, which free their memory only when the loop runs them)
        // runs now, not in this region, where it would count as this region's time and make
        // its retained bytes negative.
        if !backend.capabilities.has(.synchronousDelivery) {
          _ = backend.awaitScheduledDeliveries(timeout: .seconds(10))
        }
      }
      timedRegion = TimedRegion(probe: probe)
      liveBefore = retention ? timedRegion.liveBytes() : nil
    }

    /// Stops the clock once the region's subscriptions have started, if it made any; then
    /// calls `checkAfterwards`, whose finding becomes the sample's ``Sample/problem``.
    @inlinable
    @inline(__always)
    func stop(operations: Int, check checkAfterwards: () -> String?) -> Sample {
      if case .inTheRegion = subscribing {
        Drivers.awaitSubscriptions(backend, sink, observers: observers)
      }
      var sample = timedRegion.stop(operations: operations)
      if let liveBefore, let liveAfter = timedRegion.liveBytes() {
        sample.retainedBytesPerObserver =
          Double(Int64(liveAfter) - Int64(liveBefore)) / Double(observers)
      }
      sample.problem = checkAfterwards()
      return sample
    }
  }

  /// Lets an asynchronous backend deliver until `sink` has seen `deliveries` in all, for as
  /// long as deliveries keep arriving: ten seconds without a new one and the cell gives up and
  /// fails its check. A synchronous backend has delivered already.
  ///
  /// The limit is on progress, not on the total, so that a loaded machine (65,536 tasks woken
  /// per write, with builds beside them) slows a cell down without failing it.
  @inlinable
  public static func awaitDeliveries<B: ObservationBackend>(
    _ backend: B, _ sink: WorkloadSink, _ deliveries: Int
  ) {
    var seen = sink.deliveries
    while !backend.awaitDelivery(until: { sink.deliveries >= deliveries }, timeout: .seconds(10)) {
      let now = sink.deliveries
      guard now > seen else { return }
      seen = now
    }
  }

  /// After `observers` subscriptions: lets an asynchronous backend start them, until each has
  /// had its replay where the backend replays, or for 20 ms where it does not.
  @inlinable
  public static func awaitSubscriptions<B: ObservationBackend>(
    _ backend: B, _ sink: WorkloadSink, observers: Int
  ) {
    guard !backend.capabilities.has(.synchronousDelivery) else { return }
    if backend.capabilities.has(.replaysCurrentValue) {
      awaitDeliveries(backend, sink, observers)
    } else {
      drain(backend)
    }
  }

  /// Lets an asynchronous backend run what it has scheduled (for 20 ms) before a check that
  /// nothing arrives.
  @inlinable
  public static func drain<B: ObservationBackend>(_ backend: B) {
    guard !backend.capabilities.has(.synchronousDelivery) else { return }
    backend.awaitDelivery(until: { false }, timeout: .milliseconds(20))
  }

  /// Checks what the sink received.
  @inlinable
  public static func check(
    _ sink: WorkloadSink, deliveries: Int, sum: Int, after context: String = "the timed region"
  ) -> String? {
    if sink.deliveries == deliveries && sink.sum == sum { return nil }
    return "after \(context): expected \(deliveries) deliveries summing to \(sum),"
      + " observed \(sink.deliveries) summing to \(sink.sum)"
  }
}
