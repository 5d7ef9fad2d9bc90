import AsyncBroadcast
import Synchronization
import Testing

@Suite("AsyncBroadcast: one buffer, a cursor per consumer")
struct AsyncBroadcastTests {
  /// Reads `count` values from `iterator`, which must have them.
  static func read(_ count: Int, from iterator: inout AsyncBroadcast<Int>.Iterator) async -> [Int?]
  {
    var values: [Int?] = []
    for _ in 0..<count { values.append(await iterator.next()) }
    return values
  }

  @Test("Every consumer reads every value sent after it was made, in order, then nil once finished")
  func everyConsumerEveryValue() async {
    let broadcast = AsyncBroadcast<Int>()
    broadcast.send(-1)
    let readers = (0..<3).map { _ in
      let iterator = broadcast.makeAsyncIterator()
      return Task {
        var iterator = iterator
        var values: [Int] = []
        while let value = await iterator.next() { values.append(value) }
        return values
      }
    }
    for value in 0..<100 { broadcast.send(value) }
    broadcast.finish()
    broadcast.send(100)
    for reader in readers {
      #expect(await reader.value == Array(0..<100))
    }
  }

  @Test("A value is stored once however many consumers read it, and only until the slowest has")
  func storedOnceUntilTheSlowestReads() async {
    let broadcast = AsyncBroadcast<Int>()
    #expect(broadcast.bufferedCount == 0)
    broadcast.send(0)
    #expect(broadcast.bufferedCount == 0, "no consumer: nothing is kept")
    var slow = broadcast.makeAsyncIterator()
    var fast = (0..<100).map { _ in broadcast.makeAsyncIterator() }
    for value in 1...10 { broadcast.send(value) }
    #expect(broadcast.bufferedCount == 10)
    #expect(broadcast.consumerCount == 101)
    for index in fast.indices {
      #expect(await Self.read(10, from: &fast[index]) == (1...10).map { $0 })
    }
    #expect(broadcast.bufferedCount == 10, "the slow consumer has read none")
    #expect(await Self.read(4, from: &slow) == [1, 2, 3, 4])
    #expect(broadcast.bufferedCount == 6)
    _ = slow
    slow = broadcast.makeAsyncIterator()
    #expect(broadcast.bufferedCount == 0, "the consumer that held them is gone")
    #expect(broadcast.consumerCount == 101)
    fast.removeAll()
    #expect(broadcast.consumerCount == 1)
  }

  @Test("With bufferingNewest a consumer that falls behind skips to the oldest value kept")
  func bufferingNewestSkips() async {
    let broadcast = AsyncBroadcast<Int>(bufferingPolicy: .bufferingNewest(3))
    var slow = broadcast.makeAsyncIterator()
    var keeping = broadcast.makeAsyncIterator()
    broadcast.send(1)
    #expect(await keeping.next() == 1)
    for value in 2...9 { broadcast.send(value) }
    #expect(broadcast.bufferedCount == 3)
    #expect(await Self.read(3, from: &slow) == [7, 8, 9])
    #expect(await Self.read(3, from: &keeping) == [7, 8, 9])
    #expect(broadcast.bufferedCount == 0)
  }

  @Test("A cancelled consumer gets nil, at once if it waits, and holds no value any more")
  func cancellationEndsTheConsumer() async {
    let broadcast = AsyncBroadcast<Int>()
    let iterator = broadcast.makeAsyncIterator()
    let started = Mutex(false)
    let waiting = Task {
      var iterator = iterator
      started.withLock { $0 = true }
      return await iterator.next()
    }
    while !started.withLock({ $0 }) { await Task.yield() }
    waiting.cancel()
    #expect(await waiting.value == nil)
    var other = broadcast.makeAsyncIterator()
    broadcast.send(1)
    #expect(broadcast.bufferedCount == 1, "only the live consumer holds the value")
    #expect(await other.next() == 1)
    #expect(broadcast.bufferedCount == 0)
  }

  @Test("A waiting consumer is resumed with the next value; finishing resumes it with nil")
  func waitingConsumers() async {
    let broadcast = AsyncBroadcast<Int>()
    let readers = (0..<8).map { _ in
      let iterator = broadcast.makeAsyncIterator()
      return Task {
        var iterator = iterator
        return (await iterator.next(), await iterator.next())
      }
    }
    // Each reader may or may not wait yet: a value sent before it waits is buffered for it.
    broadcast.send(5)
    broadcast.finish()
    for reader in readers {
      let (first, second) = await reader.value
      #expect(first == 5)
      #expect(second == nil)
    }
    #expect(broadcast.bufferedCount == 0)
  }

  @Test("Releasing the broadcast finishes it")
  func releasingFinishes() async {
    var broadcast: AsyncBroadcast<Int>? = AsyncBroadcast<Int>()
    var iterator = broadcast!.makeAsyncIterator()
    broadcast!.send(1)
    broadcast = nil
    #expect(await iterator.next() == 1)
    #expect(await iterator.next() == nil)
  }

  @Test("Values sent from several threads reach every consumer, each sender's in its order")
  func concurrentSenders() async {
    let broadcast = AsyncBroadcast<Int>()
    let senders = 4
    let perSender = 2_000
    let readers = (0..<3).map { _ in
      let iterator = broadcast.makeAsyncIterator()
      return Task.detached {
        var iterator = iterator
        var values: [Int] = []
        while let value = await iterator.next() { values.append(value) }
        return values
      }
    }
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<senders {
        group.addTask {
          for index in 0..<perSender { broadcast.send(sender * perSender + index) }
        }
      }
    }
    broadcast.finish()
    for reader in readers {
      let values = await reader.value
      #expect(values.count == senders * perSender)
      for sender in 0..<senders {
        let own = values.filter { $0 / perSender == sender }
        #expect(own == Array(sender * perSender..<(sender + 1) * perSender))
      }
    }
  }
}
