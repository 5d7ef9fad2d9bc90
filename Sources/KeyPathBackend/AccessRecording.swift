#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The per-thread state of the registry: the reads being recorded and the queue of
/// notifications. Kept per thread so that objects used on different threads never interfere
/// (each object is still meant for one thread at a time).
final class RegistryThreadState {
  var recordings: [[AccessRecording.Access]] = []
  var isDelivering = false
  var pending: [() -> Void] = []
  var pendingStart = 0
  var writeSequence: UInt64 = 0

  static var current: RegistryThreadState {
    if let pointer = pthread_getspecific(registryThreadStateKey) {
      return Unmanaged<RegistryThreadState>.fromOpaque(pointer).takeUnretainedValue()
    }
    let state = RegistryThreadState()
    pthread_setspecific(registryThreadStateKey, Unmanaged.passRetained(state).toOpaque())
    return state
  }
}

private let registryThreadStateKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key) { pointer in
    guard let pointer else { return }
    Unmanaged<RegistryThreadState>.fromOpaque(pointer).release()
  }
  return key
}()

/// Records which tracked properties an evaluation reads: the access-tracking idea behind
/// Swift's `Observation`.
enum AccessRecording {
  /// One property read on one object.
  struct Access {
    let registrar: KeyPathRegistrar
    let key: AnyKeyPath
    /// The key path of the property as written (`\Player.videoTitle`), beside its storage's
    /// (`key`): an observation of exactly this key path observes the value a write carries.
    let property: AnyKeyPath

    var id: AccessID { AccessID(registrar: ObjectIdentifier(registrar), key: key) }
  }

  /// Identifies an access without keeping its object alive.
  struct AccessID: Hashable {
    let registrar: ObjectIdentifier
    let key: AnyKeyPath
  }

  static func recordRead(
    of key: AnyKeyPath, property: AnyKeyPath, on registrar: KeyPathRegistrar
  ) {
    let state = RegistryThreadState.current
    guard !state.recordings.isEmpty else { return }
    state.recordings[state.recordings.count - 1].append(
      Access(registrar: registrar, key: key, property: property))
  }

  /// Evaluates `body`, returning its result and the tracked properties it read, in order.
  static func tracking<Result>(_ body: () -> Result) -> (Result, [Access]) {
    let state = RegistryThreadState.current
    state.recordings.append([])
    let result = body()
    let accesses = state.recordings.removeLast()
    return (result, accesses)
  }
}
