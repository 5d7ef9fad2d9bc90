/// What a report's cells measure.
public enum Metric: String, CaseIterable, Codable, Sendable {
  /// Wall-clock nanoseconds per operation: the absolute cost, as noisy as the machine.
  case time
  /// Instructions per operation, counted by callgrind in the timed region of a fixed amount of
  /// work: repeatable to the instruction for a synchronous backend, whatever else the machine
  /// does, so that two commits can be compared.
  case instructions
}
