import Synchronization

/// An asynchronous sequence that hands every value sent to it to every consumer iterating it,
/// from one buffer read through a cursor per consumer.
///
/// Each iterator is a consumer of its own and reads every value sent after the iterator was
/// made, in order. However many consumers there are, a value sent is stored once, and only
/// while some consumer has yet to read it: the slowest consumer bounds the buffer, and
/// ``BufferingPolicy/bufferingNewest(_:)`` bounds it further by letting a consumer that falls
/// that far behind skip to the oldest value kept. A send resumes each consumer waiting for a
/// value once, with that value, and allocates nothing once the buffer and the list of waiting
/// consumers have grown to their working size. Making an iterator and ending one (its task
/// cancelled, or the iterator released) are O(1): no other consumer is looked at.
///
/// ```swift
/// let titles = AsyncBroadcast<String>()
/// let readers = (0..<2).map { reader in
///   let consumer = titles.makeAsyncIterator()   // a consumer from this moment on
///   return Task {
///     var iterator = consumer
///     while let title = await iterator.next() { print(reader, title) }
///   }
/// }
/// titles.send("Intro")   // each reader prints it, on its own task
/// titles.finish()        // each loop ends once it has read what was sent before
/// ```
///
/// A consumer made inside a task (`for await title in titles`) reads what is sent after the
/// task first runs.
///
/// The broadcast finishes when ``finish()`` is called or when the last reference to it goes.
/// It is `Sendable`: values may be sent from any thread or task, and iterators used from any
/// task (one task at a time per iterator, as for every asynchronous iterator).
public final class AsyncBroadcast<Element: Sendable>: AsyncSequence, Sendable {
  /// A broadcast never fails: it finishes.
  public typealias Failure = Never

  /// What happens when a consumer falls behind.
  public enum BufferingPolicy: Sendable, Hashable {
    /// Every value waits for the slowest consumer, however many that is.
    case unbounded
    /// At most `limit` values are kept (at least 1); a consumer further behind skips the
    /// oldest, reading from the oldest value kept.
    case bufferingNewest(Int)
  }

  @usableFromInline let storage: Storage

  /// A broadcast with no consumers, whose buffer follows `bufferingPolicy`.
  ///
  /// - Complexity: O(1).
  public init(bufferingPolicy: BufferingPolicy = .unbounded) {
    let limit: Int? =
      switch bufferingPolicy {
      case .unbounded: nil
      case .bufferingNewest(let limit): Swift.max(1, limit)
      }
    storage = Storage(limit: limit)
  }

  deinit { storage.finish() }

  /// Sends `element` to every consumer: each waiting one is resumed with it, the others read it
  /// when they next ask. Does nothing once the broadcast has finished.
  ///
  /// - Complexity: O(*w*) for *w* consumers waiting for a value (one resumption each); O(1)
  ///   amortized otherwise.
  @inlinable
  public func send(_ element: Element) {
    _ = storage.state.withLock { $0.send(element) }
  }

  /// Finishes the broadcast: a consumer gets `nil` once it has read every value sent before.
  /// A second call does nothing.
  ///
  /// - Complexity: O(*w*) for *w* consumers waiting for a value.
  public func finish() { storage.finish() }

  /// The number of values kept for consumers that have yet to read them.
  ///
  /// - Complexity: O(1).
  public var bufferedCount: Int { storage.state.withLock { $0.count } }

  /// The number of consumers: iterators made that have not ended.
  ///
  /// - Complexity: O(1).
  public var consumerCount: Int { storage.state.withLock { $0.consumerCount } }

  /// A new consumer, which reads every value sent from now on.
  ///
  /// - Complexity: O(1) amortized.
  @inlinable
  public func makeAsyncIterator() -> Iterator {
    Iterator(consumer: Consumer(storage: storage))
  }

  /// A consumer of the broadcast.
  ///
  /// Its task being cancelled ends it: a `next()` waiting then, or called later, returns
  /// `nil`, and the values it had not read no longer wait for it. Copies of an iterator share
  /// one consumer, which ends when the last copy goes.
  public struct Iterator: AsyncIteratorProtocol {
    /// Reading never fails: a consumer's sequence ends with `nil`.
    public typealias Failure = Never

    @usableFromInline let consumer: Consumer

    @inlinable
    init(consumer: Consumer) { self.consumer = consumer }

    /// The next value sent, once there is one, or `nil` once the broadcast has finished and
    /// this consumer has read everything sent before, or its task was cancelled.
    ///
    /// - Complexity: O(1) amortized, then the wait for a value.
    @inlinable
    public mutating func next() async -> Element? {
      await consumer.next(isolation: nil)
    }

    /// The next value, read without leaving `actor`'s isolation.
    ///
    /// - Complexity: O(1) amortized, then the wait for a value.
    @inlinable
    public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
      await consumer.next(isolation: actor)
    }
  }
}

extension AsyncBroadcast {
  /// The buffer and its lock, shared by the broadcast and its consumers.
  @usableFromInline
  final class Storage: Sendable {
    @usableFromInline let state: Mutex<BroadcastBuffer<Element>>

    @usableFromInline
    init(limit: Int?) { state = Mutex(BroadcastBuffer(limit: limit)) }

    @usableFromInline
    func finish() { state.withLock { $0.finish() } }
  }

  /// One iterator's registration: made with the iterator, removed when the last copy of the
  /// iterator goes.
  @usableFromInline
  final class Consumer: Sendable {
    @usableFromInline let storage: Storage
    @usableFromInline let slot: Int

    @inlinable
    init(storage: Storage) {
      self.storage = storage
      slot = storage.state.withLock { $0.addConsumer() }
    }

    deinit {
      let slot = slot
      storage.state.withLock { $0.remove(slot) }
    }

    @inlinable
    func next(isolation actor: isolated (any Actor)?) async -> Element? {
      let slot = slot
      if Task.isCancelled {
        storage.state.withLock { $0.close(slot) }?.resume(returning: nil)
        return nil
      }
      switch storage.state.withLock({ $0.take(slot) }) {
      case .element(let element): return element
      case .finished: return nil
      case .empty: break
      }
      return await withTaskCancellationHandler {
        await withUnsafeContinuation(isolation: actor) { continuation in
          switch storage.state.withLock({ $0.wait(slot, on: continuation) }) {
          case .element(let element): continuation.resume(returning: element)
          case .finished: continuation.resume(returning: nil)
          case .empty: break
          }
        }
      } onCancel: {
        storage.state.withLock { $0.close(slot) }?.resume(returning: nil)
      }
    }
  }
}
