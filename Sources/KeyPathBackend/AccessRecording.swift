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

    var id: AccessID { AccessID(registrar: ObjectIdentifier(registrar), key: key) }
  }

  /// Identifies an access without keeping its object alive.
  struct AccessID: Hashable {
    let registrar: ObjectIdentifier
    let key: AnyKeyPath
  }

  static func recordRead(of key: AnyKeyPath, on registrar: KeyPathRegistrar) {
    let state = RegistryThreadState.current
    guard !state.recordings.isEmpty else { return }
    state.recordings[state.recordings.count - 1].append(Access(registrar: registrar, key: key))
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

/// Delivers notifications one at a time: a write made while one is being delivered waits until
/// it is done (trampolining), across every registrar of the thread, so observers see writes in
/// the order they were made and nested writes never grow the stack.
enum DeliveryQueue {
  /// Numbers every write, so an observation registered during a delivery skips the writes made
  /// before it.
  static func nextWrite() -> UInt64 {
    let state = RegistryThreadState.current
    state.writeSequence &+= 1
    return state.writeSequence
  }

  static var currentWrite: UInt64 { RegistryThreadState.current.writeSequence }

  /// Runs `work` now, or after the delivery in progress if there is one.
  static func perform(_ work: @escaping () -> Void) {
    let state = RegistryThreadState.current
    if state.isDelivering {
      state.pending.append(work)
      return
    }
    deliverNow(work)
  }

  /// Runs `work` now, even inside another delivery (an `.initial` callback must arrive before
  /// `observe` returns); writes it makes still wait for the outermost delivery.
  static func deliverNow(_ work: () -> Void) {
    let state = RegistryThreadState.current
    if state.isDelivering {
      work()
      return
    }
    state.isDelivering = true
    work()
    while state.pendingStart < state.pending.count {
      let next = state.pending[state.pendingStart]
      state.pendingStart += 1
      next()
    }
    state.pending.removeAll(keepingCapacity: true)
    state.pendingStart = 0
    state.isDelivering = false
  }
}
