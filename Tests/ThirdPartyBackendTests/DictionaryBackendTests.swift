import ObservationConformance
import ObservationConformanceTesting
import ObservationCore
import Testing

/// A third party's observable value: observers in a dictionary keyed by registration number.
final class DictionaryObservers<Value>: ObservableValue {
  final class Token: ObservationToken {
    weak var owner: DictionaryObservers?
    let id: Int
    init(owner: DictionaryObservers, id: Int) { (self.owner, self.id) = (owner, id) }
    deinit { cancel() }
    // `removeValue` hands the closure back, so it is released after the dictionary access:
    // releasing it can run another token's deinit, which must not find the dictionary busy.
    func cancel() { _ = owner?.handlers.removeValue(forKey: id) }
  }

  fileprivate var handlers: [Int: (Value) -> Void] = [:]
  private var nextID = 0
  private var queue: [Value] = []
  private var isDelivering = false

  init(_ value: Value) { self.value = value }

  var value: Value {
    didSet {
      queue.append(value)  // a write from inside a callback waits for the current one
      guard !isDelivering else { return }
      isDelivering = true
      while !queue.isEmpty {
        let next = queue.removeFirst()
        for id in handlers.keys.sorted() { handlers[id]?(next) }  // skips the cancelled
      }
      isDelivering = false
    }
  }

  func observe(_ handler: @escaping (Value) -> Void) -> Token {
    nextID += 1
    handlers[nextID] = handler
    return Token(owner: self, id: nextID)
  }
}

struct DictionaryBackend: ObservationBackend {
  var name: String { "dictionary" }
  var capabilities: BackendCapabilities {
    BackendCapabilities(
      timing: .didSet,
      [
        .deliversEveryValue, .synchronousDelivery, .preservesObserverOrder,
        .preservesValueOrderUnderReentrancy, .immediateCancellation, .cancelsOnTokenDeinit,
      ],
      maxReentrancyDepth: .unbounded)
  }
  func makeSubject(initialValue: Int) -> DictionaryObservers<Int> {
    DictionaryObservers(initialValue)
  }
}

@Test(arguments: ConformanceSuite.rules)
func dictionaryBackendConforms(_ rule: ConformanceRule) {
  checkConformance(of: DictionaryBackend(), to: rule)
}
