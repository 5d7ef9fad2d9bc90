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
  private var queue: [(value: Value, registered: Int)] = []
  private var isDelivering = false

  init(_ value: Value) { self.value = value }

  var value: Value {
    didSet {
      // A write from inside a callback waits for the current one, and then goes to the
      // observers registered when it was made (`nextID` was the last of them).
      queue.append((value, nextID))
      guard !isDelivering else { return }
      isDelivering = true
      while !queue.isEmpty {
        let (next, registered) = queue.removeFirst()
        for id in handlers.keys.sorted() where id <= registered { handlers[id]?(next) }
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

/// The whole suite, run once and shared by every rule's test case.
enum DictionaryBackendReport {
  static let report = ConformanceSuite.run(DictionaryBackend())
}

@Test(arguments: ConformanceSuite.rules)
func dictionaryBackendConforms(_ rule: ConformanceRule) {
  checkConformance(of: rule, in: DictionaryBackendReport.report)
}
