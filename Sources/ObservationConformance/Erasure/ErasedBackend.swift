import ObservationCore

/// Wraps a backend so that every rule observes it through the handles apps expose: the
/// read-only `AnyObservable` and the send-only `ObservationInput` (rule ERASE-01).
///
/// Its subjects read and observe through `AnyObservable`, write through `ObservationInput`,
/// and, where the base has an aggregated signal, observe it through an erased handle too.
/// Memory rules watch the base subject's lifetime, since that is what an app's handle keeps.
///
/// It is a privileged view. The engine recognises an ``ErasedSubject`` and reads from it
/// directly what no erased handle carries: the base's completion policy
/// (``ErasedSubject/valueAfterCompletion``), the base subject for the memory rules
/// (``ErasedSubject/lifetimeAnchor``) and the base's misuse diagnostics
/// (``ErasedSubject/misuseReporting``). A run on this backend therefore checks what apps see
/// through the handles against the base's own declaration; it does not show what a backend
/// offering only the handles would pass. Any other backend, a third party's erased one
/// included, is seen only through the public refinements (`CompletableObservableValue`,
/// `AggregatingObservableValue`, `MisuseReporting`), which a subject type conforms to or not
/// once for all its values, while an erased subject has these facts only when its base does.
public struct ErasedBackend<Base: ObservationBackend>: ObservationBackend {
  /// The wrapped backend.
  public let base: Base

  /// Wraps `base`.
  public init(_ base: Base) { self.base = base }

  /// The base's name followed by `+erased`.
  public var name: String { base.name + "+erased" }

  /// The base's declaration: erasure must not change behaviour.
  ///
  /// One flag belongs to the base's own nested observation rather than to its property
  /// handles: through erased handles, nested paths are followed with
  /// `AnyObservable.flatMapLatest(_:)`, which cannot see a weak reference zero, so
  /// `reportsDeallocatedIntermediates` is not carried over.
  public var capabilities: BackendCapabilities {
    var declared = base.capabilities
    declared.flags.remove(.reportsDeallocatedIntermediates)
    return declared
  }

  /// A base subject seen through its erased handles.
  public func makeSubject(initialValue: Int) -> ErasedSubject<Int> {
    ErasedSubject(base.makeSubject(initialValue: initialValue))
  }

  /// A base subject of any value type seen through its erased handles.
  public func makeSubject<Value>(
    of valueType: Value.Type, initialValue: Value
  )
    -> (any ObservableValue<Value>)?
  {
    guard let subject = base.makeSubject(of: valueType, initialValue: initialValue) else {
      return nil
    }
    return ErasedSubject(subject)
  }

  /// The base's own wait: erasure does not change how values are delivered.
  @discardableResult
  public func awaitDelivery(until condition: () -> Bool, timeout: Duration) -> Bool {
    base.awaitDelivery(until: condition, timeout: timeout)
  }

  /// The base's own wait for what it has scheduled.
  @discardableResult
  public func awaitScheduledDeliveries(timeout: Duration) -> Bool {
    base.awaitScheduledDeliveries(timeout: timeout)
  }
}

/// A subject observed only through `AnyObservable` and written only through
/// `ObservationInput`.
public final class ErasedSubject<Value>: ObservableValue {
  /// The read-only handle.
  public let readOnly: AnyObservable<Value>
  /// The send-only handle.
  public let input: ObservationInput<Value>
  /// The object-level signal, erased, where the base has one.
  public let objectWillChange: AnyObservable<Void>?
  /// The completion policy of the base, where it can complete.
  public let valueAfterCompletion: ValueAfterCompletionPolicy?
  /// The base subject, watched weakly by memory rules.
  public let lifetimeAnchor: AnyObject
  /// The base subject's misuse diagnostics, where it reports them: diagnostics are not part of
  /// the handles, but ERR-03 reads them through erasure too.
  public let misuseReporting: (any MisuseReporting)?

  /// Erases `subject`.
  public init<S: ObservableValue>(_ subject: S) where S.Value == Value {
    readOnly = subject.eraseToAnyObservable()
    input = subject.eraseToInput()
    if let aggregating = subject as? any AggregatingObservableValue<Value> {
      objectWillChange = Self.eraseSignal(aggregating)
    } else {
      objectWillChange = nil
    }
    valueAfterCompletion = (subject as? any CompletableObservableValue<Value>)?.valueAfterCompletion
    lifetimeAnchor = (subject as? any ObservableValueAdapter)?.adaptedObject ?? subject
    misuseReporting = subject as? any MisuseReporting
  }

  private static func eraseSignal<A: AggregatingObservableValue>(
    _ subject: A
  ) -> AnyObservable<Void>
  where A.Value == Value {
    AnyObservable(WillChangeSignal(subject))
  }

  /// Reads through ``readOnly`` and writes through ``input``.
  public var value: Value {
    get { readOnly.value }
    set { input.send(newValue) }
  }

  /// As the base subject replays.
  public var replaysLater: Bool { readOnly.replaysLater }

  /// Observes through ``readOnly``.
  public func observe(_ handler: @escaping (Value) -> Void) -> AnyObservationToken {
    readOnly.observe(handler)
  }
}

/// An object-level will-change signal as an observable of `Void`, the way an app exposes
/// `objectWillChange` beside its erased properties.
final class WillChangeSignal<Subject: AggregatingObservableValue>: ObservableValue {
  let subject: Subject
  init(_ subject: Subject) { self.subject = subject }
  var value: Void {
    get { () }
    set {}
  }
  func observe(_ handler: @escaping (()) -> Void) -> Subject.Token {
    subject.observeObjectWillChange { handler(()) }
  }
}

/// Marks ``ErasedBackend``, whatever its base, so that ERASE-01 does not erase twice.
protocol ErasedView {}
extension ErasedBackend: ErasedView {}
