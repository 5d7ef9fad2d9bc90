import ObservationCore

/// A subject under test, with its optional capabilities discovered once.
///
/// Rules are not hot paths, so they drive subjects through closures; the measured workloads use
/// generic code instead.
///
/// Every call into the backend made through it is a step of the rule (``RuleProgress``), and so
/// is every callback the backend makes to a handler registered through it and every cancel or
/// release of a token it handed out: an isolated run measures progress by the backend's own
/// operations and callbacks, whatever a rule does with them.
final class TestSubject<Value> {
  let get: () -> Value
  let set: (Value) -> Void
  /// Mutates the value in place through the subject's own `value` accessors: a concrete
  /// type's `_modify`, where it has one (EQ-03), not a get followed by a set.
  let modify: ((inout Value) -> Void) -> Void
  private let observeClosure: (@escaping (Value) -> Void) -> AnyObservationToken
  private let rawObserveWithCompletion:
    ((@escaping (Value) -> Void, @escaping () -> Void) -> AnyObservationToken)?
  let complete: (() -> Void)?
  let valueAfterCompletion: ValueAfterCompletionPolicy?
  let mutations: [NamedMutation<Value>]
  private let rawObserveWillChange: ((@escaping () -> Void) -> AnyObservationToken)?
  /// Every token this subject handed out, so the engine can cancel leftovers after a rule.
  let ledger: TokenLedger
  let observerCount: (() -> Int)?
  /// The object whose lifetime memory rules watch: the subject, or for an erased subject the
  /// subject behind the handles.
  let lifetime: AnyObject
  /// A send-only handle from the subject type's own `eraseToInput()` (or the erased subject's
  /// own input).
  let makeInput: () -> ObservationInput<Value>
  /// The subject's misuse diagnostics, where it reports them (ERR-03).
  let misuseReporting: (any MisuseReporting)?
  /// A read-only handle from the subject type's own `eraseToAnyObservable()`.
  let makeReadOnly: () -> AnyObservable<Value>
  /// Whether the subject replays on a later turn: each registration then owes the ledger its
  /// replay (``LaterReplays``).
  let replaysLater: Bool

  init<S: ObservableValue>(_ subject: S, ledger: TokenLedger = TokenLedger())
  where S.Value == Value {
    self.ledger = ledger
    if let erased = subject as? ErasedSubject<Value> {
      get = { RuleProgress.stepping(erased.readOnly.value) }
      set = {
        RuleProgress.step()
        erased.input.send($0)
        RuleProgress.step()
      }
      modify = { body in
        RuleProgress.step()
        var value = erased.readOnly.value
        body(&value)
        erased.input.send(value)
        RuleProgress.step()
      }
      observeClosure = { erased.readOnly.observe($0) }
      if erased.readOnly.supportsCompletion && erased.input.supportsCompletion {
        rawObserveWithCompletion = { erased.readOnly.observe($0, onCompletion: $1)! }
        complete = Self.stepping { erased.input.finish() }
      } else {
        rawObserveWithCompletion = nil
        complete = nil
      }
      valueAfterCompletion = erased.valueAfterCompletion
      mutations = Self.stepping([NamedMutation("send") { erased.input.send($0) }])
      rawObserveWillChange = erased.objectWillChange.map { signal in
        { handler in signal.observe { _ in handler() } }
      }
      observerCount = nil
      lifetime = erased.lifetimeAnchor
      makeInput = { erased.input }
      makeReadOnly = { erased.readOnly }
      misuseReporting = erased.misuseReporting
      replaysLater = erased.readOnly.replaysLater
      return
    }
    get = { RuleProgress.stepping(subject.value) }
    set = {
      RuleProgress.step()
      subject.value = $0
      RuleProgress.step()
    }
    modify = { body in
      RuleProgress.step()
      body(&subject.value)
      RuleProgress.step()
    }
    observeClosure = { AnyObservationToken(subject.observe($0)) }
    if let completable = subject as? any CompletableObservableValue<Value> {
      let parts = Self.completionParts(completable)
      rawObserveWithCompletion = parts.observe
      complete = Self.stepping(parts.complete)
      valueAfterCompletion = parts.policy
      mutations = Self.stepping(parts.mutations)
    } else {
      rawObserveWithCompletion = nil
      complete = nil
      valueAfterCompletion = nil
      mutations = Self.stepping([NamedMutation("value") { subject.value = $0 }])
    }
    if let aggregating = subject as? any AggregatingObservableValue<Value> {
      rawObserveWillChange = Self.willChange(aggregating)
    } else {
      rawObserveWillChange = nil
    }
    if let counting = subject as? any ObserverCounting {
      observerCount = { counting.observerCount }
    } else {
      observerCount = nil
    }
    lifetime = (subject as? any ObservableValueAdapter)?.adaptedObject ?? subject
    makeInput = { subject.eraseToInput() }
    makeReadOnly = { subject.eraseToAnyObservable() }
    misuseReporting = subject as? any MisuseReporting
    replaysLater = subject.replaysLater
  }

  private static func completionParts<C: CompletableObservableValue>(
    _ subject: C
  ) -> (
    observe: (@escaping (Value) -> Void, @escaping () -> Void) -> AnyObservationToken,
    complete: () -> Void, policy: ValueAfterCompletionPolicy, mutations: [NamedMutation<Value>]
  ) where C.Value == Value {
    (
      { AnyObservationToken(subject.observe($0, onCompletion: $1)) },
      { subject.complete() }, subject.valueAfterCompletion, subject.mutationEntryPoints
    )
  }

  private static func willChange<A: AggregatingObservableValue>(
    _ subject: A
  )
    -> (@escaping () -> Void) -> AnyObservationToken
  where A.Value == Value {
    { AnyObservationToken(subject.observeObjectWillChange($0)) }
  }

  /// `body`, a call into the backend, as a step before and after.
  private static func stepping(_ body: @escaping () -> Void) -> () -> Void {
    {
      RuleProgress.step()
      body()
      RuleProgress.step()
    }
  }

  /// `mutations`, each a step before and after.
  private static func stepping(_ mutations: [NamedMutation<Value>]) -> [NamedMutation<Value>] {
    mutations.map { mutation in
      NamedMutation(mutation.name) { value in
        RuleProgress.step()
        mutation.apply(value)
        RuleProgress.step()
      }
    }
  }

  /// `handler`, each call of which is a step: the backend's callback arrived.
  private static func stepping<T>(_ handler: @escaping (T) -> Void) -> (T) -> Void {
    { value in
      RuleProgress.step()
      handler(value)
    }
  }

  var value: Value {
    get { get() }
    set { set(newValue) }
  }

  func observe(_ handler: @escaping (Value) -> Void) -> AnyObservationToken {
    RuleProgress.step()
    defer { RuleProgress.step() }
    return Self.register(handler, ledger: ledger, replaysLater: replaysLater, with: observeClosure)
  }

  var observeWithCompletion:
    ((@escaping (Value) -> Void, @escaping () -> Void) -> AnyObservationToken)?
  {
    guard let raw = rawObserveWithCompletion else { return nil }
    return { [ledger, replaysLater] handler, completion in
      RuleProgress.step()
      defer { RuleProgress.step() }
      return Self.register(handler, ledger: ledger, replaysLater: replaysLater) {
        raw($0, Self.stepping(completion))
      }
    }
  }

  /// Registers `handler` through `observe`, each callback a step, and tracks the token; where
  /// the subject replays on a later turn, the registration owes the ledger its replay until its
  /// first callback or its end.
  private static func register(
    _ handler: @escaping (Value) -> Void, ledger: TokenLedger, replaysLater: Bool,
    with observe: (@escaping (Value) -> Void) -> AnyObservationToken
  ) -> AnyObservationToken {
    guard replaysLater else { return ledger.track(observe(stepping(handler))) }
    let replays = ledger.laterReplays
    let registration = replays.owe()
    let token = observe(
      stepping { value in
        replays.settle(registration)
        handler(value)
      })
    return ledger.track(token, onEnd: { replays.settle(registration) })
  }

  var observeWillChange: ((@escaping () -> Void) -> AnyObservationToken)? {
    guard let raw = rawObserveWillChange else { return nil }
    return { [ledger] handler in
      RuleProgress.step()
      defer { RuleProgress.step() }
      return ledger.track(raw(Self.stepping(handler)))
    }
  }
}

/// Weak references to the tokens a rule created. After the rule, the engine cancels any still
/// alive: rules routinely capture a subject in its own observers, and without this the cycle
/// (subject, observer, token) would outlive the rule and show up as a leak.
final class TokenLedger: @unchecked Sendable {
  private struct Entry { weak var token: AnyObservationToken? }
  private let entries = Locked<[Entry]>([])
  /// The replays the rule's observers are owed by a subject that replays on a later turn.
  let laterReplays = LaterReplays()

  /// Remembers `token` and returns it as the rule is to hold it: its cancel and its release are
  /// steps of the rule (``ProgressToken``), and each runs `onEnd`.
  func track(_ token: AnyObservationToken, onEnd: (() -> Void)? = nil) -> AnyObservationToken {
    let held = AnyObservationToken(ProgressToken(token, onEnd: onEnd))
    entries.withLock { $0.append(Entry(token: held)) }
    return held
  }

  /// Forgets every token without cancelling it: after a deadlock, cancelling would wait for a
  /// lock a stuck thread holds (see ``Quarantine``).
  func abandon() { entries.withLock { $0.removeAll() } }

  func cancelAll() {
    let live = entries.withLock { entries -> [AnyObservationToken] in
      defer { entries.removeAll() }
      return entries.compactMap(\.token)
    }
    for token in live { token.cancel() }
  }
}
