import DenseBackend
import ObservationCore

/// ``DenseObservers``' handles (``DenseObservers/addObserver(_:)``) in the contract's shape,
/// so that the suite can run on them: a token that holds a handle, removes it when cancelled
/// and does nothing when released, as a dropped handle does. It declares what the
/// `dense-handles` row of the harness declares (``DenseStrategy/handleCapabilities``).
///
/// The token is an object only because the contract's is; the harness measures the handles
/// without it.
struct DenseHandleView: ObservationBackend {
  var name: String { "dense-handles" }

  var capabilities: BackendCapabilities { DenseStrategy().handleCapabilities }

  func makeSubject(initialValue: Int) -> Subject<Int> { Subject(initialValue) }

  func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  ) -> (any ObservableValue<Value>)? {
    Subject(initialValue)
  }

  /// A ``DenseObservers`` observed through its handles.
  final class Subject<Value>: ObservableValue, ObserverCounting, ObservableValueAdapter {
    let observers: DenseObservers<Value>

    init(_ initialValue: Value) { observers = DenseObservers(initialValue) }

    var value: Value {
      get { observers.value }
      set { observers.value = newValue }
    }

    func observe(_ handler: @escaping (Value) -> Void) -> Token {
      Token(observers.addObserver(handler), of: observers)
    }

    var observerCount: Int { observers.observerCount }

    var adaptedObject: AnyObject { observers }

    /// A handle and the subject it names, removed by `cancel` only.
    final class Token: ObservationToken {
      let handle: DenseObservers<Value>.Handle
      weak var observers: DenseObservers<Value>?

      init(_ handle: DenseObservers<Value>.Handle, of observers: DenseObservers<Value>) {
        self.handle = handle
        self.observers = observers
      }

      func cancel() { observers?.removeObserver(handle) }
    }
  }
}
