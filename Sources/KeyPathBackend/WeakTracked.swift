/// Marks a weak reference of a ``KeyPathObservable`` class as observable, including the moment
/// its object deallocates.
///
/// A `weak var` zeroes without calling a setter, so no observation mechanism built on setters
/// (KVO, `@Published`, Swift's `Observation`) sees it go: a label bound through it keeps
/// showing a dead object's values. `@WeakTracked` registers with the referenced object's
/// ``KeyPathRegistrar``, which the object releases as it deallocates, and then notifies the
/// property's observers as if it had been set to `nil`:
///
/// ```swift
/// final class PlaybackController: KeyPathObservable {
///   let keyPathRegistrar = KeyPathRegistrar()
///   @WeakTracked var player: Player?
/// }
/// // Observing \.playbackController?.player?.videoTitle delivers nil once the player is gone.
/// ```
///
/// The referenced object must itself be ``KeyPathObservable``, and it should deallocate on the
/// thread that uses the observing objects (the registry is not thread-safe).
@propertyWrapper
public struct WeakTracked<Referent: KeyPathObservable> {
  @usableFromInline internal weak var referent: Referent?
  /// The handler registered with the referent's registrar, withdrawn when the property changes
  /// or its owner deallocates.
  @usableFromInline internal var subscription: DeallocationSubscription?

  /// Wraps the property's initial value.
  public init(wrappedValue: Referent?) {
    referent = wrappedValue
  }

  /// Unavailable: `@WeakTracked` works only on properties of `KeyPathObservable` classes.
  @available(*, unavailable, message: "@WeakTracked is only available on KeyPathObservable classes")
  public var wrappedValue: Referent? {
    get { fatalError("unavailable") }
    // swift-format-ignore: UseSingleLinePropertyGetter
    set { fatalError("unavailable") }
  }

  /// Reads and writes the reference through its enclosing object, recording reads for
  /// observations, notifying the object's registrar around writes, and watching the referent so
  /// that its deallocation notifies too.
  ///
  /// - Complexity: a write, or the referent's deallocation, is O(*n*) for the *n* observations
  ///   of this property.
  public static subscript<Owner: KeyPathObservable>(
    _enclosingInstance owner: Owner,
    wrapped wrappedKeyPath: ReferenceWritableKeyPath<Owner, Referent?>,
    storage storageKeyPath: ReferenceWritableKeyPath<Owner, WeakTracked<Referent>>
  ) -> Referent? {
    get {
      // A write's carried referent may be gone by its delivery: observations read it again.
      AccessRecording.recordRead(
        of: storageKeyPath, property: storageKeyPath, on: owner.keyPathRegistrar)
      let current = owner[keyPath: storageKeyPath].referent
      // An initial value is watched from its first use: `init` cannot see the owner.
      if let current, owner[keyPath: storageKeyPath].subscription == nil {
        owner[keyPath: storageKeyPath].subscription = watch(current, owner, storageKeyPath)
      }
      return current
    }
    set {
      let registrar = owner.keyPathRegistrar
      registrar.willChange(storageKeyPath)
      owner[keyPath: storageKeyPath].subscription = newValue.map {
        watch($0, owner, storageKeyPath)
      }
      owner[keyPath: storageKeyPath].referent = newValue
      registrar.didChange(storageKeyPath, to: newValue as Any)
    }
  }

  private static func watch<Owner: KeyPathObservable>(
    _ referent: Referent, _ owner: Owner,
    _ storageKeyPath: ReferenceWritableKeyPath<Owner, WeakTracked<Referent>>
  ) -> DeallocationSubscription {
    let registrar = referent.keyPathRegistrar
    let id = registrar.onDeallocation { [weak owner] in
      // The referent is gone and the weak storage already reads nil: announce it as a write.
      guard let owner else { return }
      owner[keyPath: storageKeyPath].subscription = nil
      let ownerRegistrar = owner.keyPathRegistrar
      ownerRegistrar.willChange(storageKeyPath)
      ownerRegistrar.didChange(storageKeyPath, to: Referent?.none as Any)
    }
    return DeallocationSubscription(registrar: registrar, id: id)
  }
}

/// A handler registered with a referent's registrar by ``WeakTracked``; releasing it withdraws
/// the handler, so a replaced or dead owner leaves nothing behind on a long-lived referent.
@usableFromInline
final class DeallocationSubscription {
  private weak var registrar: KeyPathRegistrar?
  private let id: UInt64

  init(registrar: KeyPathRegistrar, id: UInt64) {
    self.registrar = registrar
    self.id = id
  }

  deinit { registrar?.removeDeallocationHandler(id) }
}
