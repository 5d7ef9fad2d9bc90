import LinkedListBackend
import ObservationCore
import Testing

@Suite("Erased handles")
struct ErasedHandlesTests {
  final class Model {
    private let titleSubject = LinkedListObservers("intro")
    var title: AnyObservable<String> { titleSubject.eraseToAnyObservable() }
    var titleInput: ObservationInput<String> { titleSubject.eraseToInput() }
  }

  @Test("AnyObservable reads and observes; ObservationInput writes")
  func roundTrip() {
    let model = Model()
    var received: [String] = []
    let token = model.title.observe { received.append($0) }
    model.titleInput.send("chapter 1")
    #expect(model.title.value == "chapter 1")
    #expect(received == ["intro", "chapter 1"])
    #expect(!model.title.supportsCompletion && !model.titleInput.supportsCompletion)
    token.cancel()
    model.titleInput.send("chapter 2")
    #expect(received == ["intro", "chapter 1"])
  }

  @Test("AnyObservationToken keeps the wrapped token's release semantics")
  func erasedTokenRelease() {
    let subject = LinkedListObservers(0)
    var received: [Int] = []
    var token: AnyObservationToken? = subject.eraseToAnyObservable().observe { received.append($0) }
    subject.value = 1
    token = nil
    subject.value = 2
    #expect(received == [0, 1])
    #expect(subject.observerCount == 0)
    _ = token
  }
}

@Suite("Capability declarations")
struct CapabilityDeclarationTests {
  @Test("A coherent declaration validates")
  func coherent() throws {
    try BackendCapabilities(
      timing: .willSet, [.threadSafe, .serializedDelivery], maxReentrancyDepth: .bounded(1)
    ).validate()
  }

  @Test("Every contradiction is named")
  func contradictions() {
    let declaration = BackendCapabilities(
      timing: .transactional,
      [
        .deliversEveryValue, .synchronousDelivery, .serializedDelivery, .oneShot,
        .replaysCurrentValue,
      ],
      maxReentrancyDepth: .bounded(-1))
    #expect(throws: CapabilityDeclarationError.self) { try declaration.validate() }
    do {
      try declaration.validate()
    } catch {
      #expect(error.problems.count == 5)
    }
  }
}
