/// A rule's identifier in the catalogue: its group and a number, such as `TIM-01`.
///
/// A string literal makes one, so declarations and tests read as the catalogue does; the rules
/// the engine and other rules name have static members (``tim01``, ``meta02``, …), so that the
/// compiler checks every cross-reference. The same shape as swift-argument-parser's `ExitCode`.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The identifier as the catalogue writes it.
  public let rawValue: String

  /// The identifier `rawValue`.
  public init(rawValue: String) { self.rawValue = rawValue }

  /// The identifier written as a literal: `"TIM-01"`.
  public init(stringLiteral value: String) { self.init(rawValue: value) }

  /// The identifier as the catalogue writes it.
  public var description: String { rawValue }

  /// The group the identifier names before its dash; `nil` when that is no group.
  ///
  /// - Complexity: O(*n*) in the identifier's length.
  public var group: RuleGroup? { RuleGroup(rawValue: String(rawValue.prefix { $0 != "-" })) }

  /// Orders identifiers as text.
  public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }
}

extension RuleID {
  /// DEL-05: values are delivered asynchronously, in order (the `asynchronousOrdered` timing).
  public static let del05: RuleID = "DEL-05"
  /// TIM-01: a callback sees the new value (the `didSet` timing).
  public static let tim01: RuleID = "TIM-01"
  /// TIM-02: a callback runs before the value is stored (the `willSet` timing).
  public static let tim02: RuleID = "TIM-02"
  /// TIM-04: writes in one transaction are delivered once (the `transactional` timing).
  public static let tim04: RuleID = "TIM-04"
  /// THR-09: what several threads observed is a history the declaration allows.
  public static let thr09: RuleID = "THR-09"
  /// ERASE-01: the erased handles pass what the backend passes.
  public static let erase01: RuleID = "ERASE-01"
  /// META-02: the declaration is validated before any rule runs.
  public static let meta02: RuleID = "META-02"
}

/// The groups of the catalogue: what the rules of each are about.
public enum RuleGroup: String, CaseIterable, Sendable {
  /// INIT: what a new observer is given.
  case initialValue = "INIT"
  /// DEL: every value reaches every observer.
  case delivery = "DEL"
  /// ORD: observers and values in order.
  case order = "ORD"
  /// TIM: when a callback runs, relative to the store.
  case timing = "TIM"
  /// CAN: cancellation.
  case cancellation = "CAN"
  /// SUB: subscribing during a delivery.
  case subscription = "SUB"
  /// REE: writes made from inside a callback.
  case reentrancy = "REE"
  /// MEM: what is kept alive, and what is released.
  case memory = "MEM"
  /// TERM: completion.
  case termination = "TERM"
  /// EQ: equal values.
  case equality = "EQ"
  /// AGG: objects of several properties.
  case aggregation = "AGG"
  /// KP: nested key paths.
  case keyPaths = "KP"
  /// THR: threads.
  case threads = "THR"
  /// ERR: misuse.
  case errors = "ERR"
  /// SCALE: many observers.
  case scale = "SCALE"
  /// DIFF: random scripts against a reference model.
  case differential = "DIFF"
  /// ERASE: the erased handles apps expose.
  case erasure = "ERASE"
  /// META: the suite checks itself and the declaration.
  case meta = "META"
}
