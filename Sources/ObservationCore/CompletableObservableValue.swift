/// An observable value whose stream of values can be finished, like a Combine subject.
///
/// Backends that declare ``Capability/supportsCompletion`` conform to this refinement so that the
/// completion rules (TERM) can drive them.
public protocol CompletableObservableValue<Value>: ObservableValue {
  /// Registers an observer of values and of completion.
  func observe(
    _ handler: @escaping (Value) -> Void, onCompletion: @escaping () -> Void
  ) -> Token

  /// Finishes the stream: nothing is delivered once it is called, each live observer's
  /// completion handler runs once (inside the call, or, called from a callback, when the
  /// outermost delivery returns), and an observer that subscribes afterwards gets the completion before
  /// `observe` returns. Later writes are not delivered.
  func complete()

  /// What reading ``ObservableValue/value`` reports after completion, for every mutation entry
  /// point listed in ``mutationEntryPoints``.
  var valueAfterCompletion: ValueAfterCompletionPolicy { get }

  /// Every public way this backend offers to write the value, by name.
  ///
  /// The default lists only the ``ObservableValue/value`` setter.
  var mutationEntryPoints: [NamedMutation<Value>] { get }
}

extension CompletableObservableValue {
  /// The default entry points: just the ``ObservableValue/value`` setter.
  public var mutationEntryPoints: [NamedMutation<Value>] {
    [NamedMutation("value") { [unowned self] in self.value = $0 }]
  }
}

/// What a completed subject reports as its value when it is written after completion.
public enum ValueAfterCompletionPolicy: String, Sendable, Hashable, CaseIterable {
  /// Writes after completion are ignored: the value stays what it was at completion.
  case frozen
  /// Writes after completion are stored (but not delivered).
  case stored
}

/// One named way of writing a value, such as `value =` or `send(_:)`.
public struct NamedMutation<Value> {
  /// The API's name as a person would write it (`"value"`, `"send"`).
  public let name: String
  /// Performs the write.
  public let apply: (Value) -> Void

  /// Creates a named mutation.
  public init(_ name: String, apply: @escaping (Value) -> Void) {
    self.name = name
    self.apply = apply
  }
}
