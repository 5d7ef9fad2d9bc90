/// A value or closure carried across the isolation boundary of `Observations`, whose elements
/// must be `Sendable`. Safe here because every read and delivery runs on one thread.
struct UncheckedSendable<Wrapped>: @unchecked Sendable {
  let value: Wrapped
  init(_ value: Wrapped) { self.value = value }
}
