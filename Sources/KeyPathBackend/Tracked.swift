/// Marks a stored property of a ``KeyPathObservable`` class as observable.
///
/// Reading the property inside a key-path evaluation records the read, so observations know
/// which properties to watch; writing it notifies the object's ``KeyPathRegistrar`` before and
/// after the store.
///
/// ```swift
/// final class Player: KeyPathObservable {
///   let keyPathRegistrar = KeyPathRegistrar()
///   @Tracked var videoTitle = "Intro"
/// }
/// ```
@propertyWrapper
public struct Tracked<Value> {
  @usableFromInline internal var stored: Value

  /// Wraps the property's initial value.
  public init(wrappedValue: Value) {
    stored = wrappedValue
  }

  /// Unavailable: `@Tracked` works only on properties of `KeyPathObservable` classes.
  @available(*, unavailable, message: "@Tracked is only available on KeyPathObservable classes")
  public var wrappedValue: Value {
    get { fatalError("unavailable") }
    // swift-format-ignore: UseSingleLinePropertyGetter
    set { fatalError("unavailable") }
  }

  /// Reads and writes the property through its enclosing object, recording reads for
  /// observations and notifying the object's registrar around writes.
  ///
  /// - Complexity: a write is O(*n*) for the *n* observations of this property.
  public static subscript<Object: KeyPathObservable>(
    _enclosingInstance object: Object,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Object, Value>,
    storage storageKeyPath: ReferenceWritableKeyPath<Object, Tracked<Value>>
  ) -> Value {
    get {
      AccessRecording.recordRead(
        of: storageKeyPath, property: wrappedKeyPath, on: object.keyPathRegistrar)
      return object[keyPath: storageKeyPath].stored
    }
    set {
      let registrar = object.keyPathRegistrar
      registrar.willChange(storageKeyPath)
      let old = object[keyPath: storageKeyPath].stored
      object[keyPath: storageKeyPath].stored = newValue
      // The old value (an old intermediate, say) is released after the storage access ends.
      withExtendedLifetime(old) {}
      registrar.didChange(storageKeyPath, to: newValue)
    }
  }
}
