import ObservationCore

/// A class whose `@Tracked` properties can be observed through Swift key paths, nested ones
/// included: KVO for plain Swift classes, with no NSObject and no Objective-C runtime.
///
/// Opt in with the protocol, one stored registrar, and `@Tracked` on each observable property:
///
/// ```swift
/// final class Player: KeyPathObservable {
///   let keyPathRegistrar = KeyPathRegistrar()
///   @Tracked var videoTitle = "Intro"
/// }
/// final class PlaybackController: KeyPathObservable {
///   let keyPathRegistrar = KeyPathRegistrar()
///   @Tracked var player: Player? = Player()
/// }
/// final class ViewController: KeyPathObservable {
///   let keyPathRegistrar = KeyPathRegistrar()
///   @Tracked var playbackController: PlaybackController? = PlaybackController()
/// }
///
/// let token = viewController.observe(\.playbackController?.player?.videoTitle, options: [.initial]) {
///   viewController, change in print(change.newValue as Any)
/// }
/// ```
public protocol KeyPathObservable: AnyObject {
  /// The object's registry of observers, one per object.
  var keyPathRegistrar: KeyPathRegistrar { get }
}

extension KeyPathObservable {
  /// Observes the value at `keyPath`, which may run through optional intermediates
  /// (`\.a?.b?.c`), with Foundation KVO's semantics.
  ///
  /// The observation records which `@Tracked` properties evaluating `keyPath` reads, observes
  /// exactly those, and on any change evaluates again and rebinds: replacing an intermediate
  /// moves the observation to the new object at once, an intermediate becoming `nil` delivers
  /// `nil` once, and objects no longer on the path are not observed any more.
  ///
  /// - Parameters:
  ///   - keyPath: the path to observe, from `self`.
  ///   - options: `.initial` calls the handler at once; `.new` and `.old` fill the change's
  ///     values; `.prior` adds a call before each change.
  ///   - changeHandler: called with `self` and the change.
  /// - Returns: the token; the observation ends when it is cancelled or released. It does not
  ///   keep `self` alive.
  /// - Complexity: each change costs one evaluation of `keyPath` plus O(*d*) to rebind, for a
  ///   path of depth *d*.
  public func observe<Value>(
    _ keyPath: KeyPath<Self, Value>, options: KeyPathObservingOptions = [],
    changeHandler: @escaping (Self, KeyPathChange<Value>) -> Void
  ) -> KeyPathObservation {
    let observation = KeyPathObservation()
    observation.start(root: self, keyPath: keyPath, options: options, handler: changeHandler)
    return observation
  }
}
