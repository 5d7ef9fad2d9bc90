/// A value or handler carried into the subject's isolation by a task.
///
/// The subject's values and handlers need not be `Sendable`: every write and registration
/// crosses into the actor, and every handler runs there, on the run loop of the thread that
/// made the subject. A handler registered on another thread therefore runs on that one, as it
/// would with any observer library that calls back on the thread that delivers.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}
