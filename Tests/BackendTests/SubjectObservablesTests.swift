import ObservationCore
import OpenCombine
import SubjectBackend
import Testing

@Suite("OpenCombine adapters")
struct SubjectObservablesTests {
  @Test("PassthroughObservable stores the latest write and sends it without replay")
  func passthrough() {
    let subject = PassthroughObservable(1)
    var received: [Int] = []
    let token = subject.observe { received.append($0) }
    #expect(received.isEmpty)
    subject.value = 2
    #expect(subject.value == 2 && received == [2])
    withExtendedLifetime(token) {}
  }

  @Test("CurrentValueObservable lists both of Combine's write APIs")
  func currentValueEntryPoints() {
    let subject = CurrentValueObservable(0)
    #expect(subject.mutationEntryPoints.map(\.name) == ["value", "send"])
    subject.mutationEntryPoints[1].apply(4)
    #expect(subject.subject.value == 4)
  }

  @Test(
    "CurrentValueSubject after completion: `value =` stores, `send` does not (the TERM-05 finding)")
  func currentValueAfterCompletion() {
    let viaSetter = CurrentValueSubject<Int, Never>(1)
    viaSetter.send(completion: .finished)
    viaSetter.value = 9
    let viaSend = CurrentValueSubject<Int, Never>(1)
    viaSend.send(completion: .finished)
    viaSend.send(9)
    #expect(viaSetter.value == 9)
    #expect(viaSend.value == 1)
  }

  @Test("@Published: objectWillChange fires first, then $value, both before the store")
  func publishedOrder() {
    let object = PublishedObservable(0)
    var events: [String] = []
    let tokens = [
      object.observeObjectWillChange { events.append("will:\(object.value)") },
      object.observe { events.append("value:\($0)/stored:\(object.value)") },
    ]
    events.removeAll()
    object.value = 1
    #expect(events == ["will:0", "value:1/stored:0"])
    withExtendedLifetime(tokens) {}
  }
}
