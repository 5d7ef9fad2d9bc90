/// The handler of one `Observations` observer, until cancelled.
final class ObservedValueRegistration<Value>: @unchecked Sendable {
  var handler: ((Value) -> Void)?
  init(handler: @escaping (Value) -> Void) { self.handler = handler }
}
