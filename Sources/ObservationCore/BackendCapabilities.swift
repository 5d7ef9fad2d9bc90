/// Everything a backend declares about its behaviour: timing, capability flags and the bound on
/// reentrant nesting.
///
/// The conformance suite validates the declaration before running any rule (META-02) and then
/// holds the backend to it: a declared capability's rules must pass, an undeclared one's rules
/// run as probes.
///
/// ```swift
/// let capabilities = BackendCapabilities(
///   timing: .didSet,
///   [.deliversEveryValue, .synchronousDelivery, .cancelsOnTokenDeinit],
///   maxReentrancyDepth: .bounded(64))
/// ```
public struct BackendCapabilities: Sendable, Hashable, CustomStringConvertible {
  /// When observers run relative to the store.
  public var timing: DeliveryTiming
  /// The declared capability flags.
  public var flags: Set<Capability>
  /// How deeply reentrant writes may nest.
  public var maxReentrancyDepth: ReentrancyBound

  /// Creates a declaration.
  public init(
    timing: DeliveryTiming, _ flags: Set<Capability>, maxReentrancyDepth: ReentrancyBound
  ) {
    self.timing = timing
    self.flags = flags
    self.maxReentrancyDepth = maxReentrancyDepth
  }

  /// Whether `capability` is declared.
  public func has(_ capability: Capability) -> Bool { flags.contains(capability) }

  /// The declaration in one line, flags sorted by name.
  public var description: String {
    let names = flags.sorted().map(\.rawValue).joined(separator: ", ")
    return "timing=\(timing.rawValue) maxReentrancyDepth=\(maxReentrancyDepth) [\(names)]"
  }

  /// Checks that the declaration is coherent (rule META-02).
  ///
  /// - Throws: ``CapabilityDeclarationError`` naming every contradiction found.
  public func validate() throws(CapabilityDeclarationError) {
    var problems: [String] = []
    if case .bounded(let depth) = maxReentrancyDepth, depth < 0 {
      problems.append(
        "maxReentrancyDepth is \(depth); it must be at least 0 (nested writes not supported),"
          + " or .unbounded")
    }
    if timing == .asynchronousOrdered && has(.synchronousDelivery) {
      problems.append(
        "timing asynchronousOrdered delivers each write on a later turn, which contradicts"
          + " synchronousDelivery")
    }
    if has(.trapsOnMisuse) && has(.reportsMisuse) {
      problems.append(
        "trapsOnMisuse and reportsMisuse both describe what misuse does; a trap leaves nothing"
          + " to report, so declare one")
    }
    if case .unbounded = maxReentrancyDepth, has(.trapsOnMisuse) || has(.reportsMisuse) {
      problems.append(
        "trapsOnMisuse or reportsMisuse with an unbounded maxReentrancyDepth: the misuse they"
          + " describe is a write nested deeper than the bound, and there is none")
    }
    if has(.replaysOnLaterTurn) && !has(.replaysCurrentValue) {
      problems.append(
        "replaysOnLaterTurn is declared without replaysCurrentValue; it says when the replay"
          + " arrives, which needs a replay")
    }
    if has(.replaysOnLaterTurn) && has(.synchronousDelivery) {
      problems.append(
        "replaysOnLaterTurn with synchronousDelivery: a synchronous backend has no later turn"
          + " for the replay to arrive on")
    }
    if has(.cancelsOnLaterTurn) && has(.immediateCancellation) {
      problems.append(
        "cancelsOnLaterTurn with immediateCancellation: values set before a cancel may still"
          + " arrive after it returns, or none may; declare one")
    }
    if has(.cancelsOnLaterTurn) && has(.synchronousDelivery) {
      problems.append(
        "cancelsOnLaterTurn with synchronousDelivery: a synchronous backend has no later turn"
          + " for a cancel to take effect on")
    }
    if has(.serializedDelivery) && !has(.threadSafe) {
      problems.append(
        "serializedDelivery is declared without threadSafe; serialized delivery is a promise"
          + " about concurrent writers, which a backend that is not thread-safe cannot have")
    }
    if has(.handsOffContendedWrites) && !(has(.synchronousDelivery) && has(.threadSafe)) {
      problems.append(
        "handsOffContendedWrites is declared without "
          + [Capability.synchronousDelivery, .threadSafe].filter { !has($0) }.map(\.rawValue)
          .joined(separator: " and ")
          + "; it says how a synchronous backend delivers a write that meets another thread's"
          + " delivery, which needs both")
    }
    if timing == .transactional && has(.deliversEveryValue) {
      problems.append(
        "timing transactional coalesces the writes of one block, which contradicts"
          + " deliversEveryValue")
    }
    if timing == .transactional && has(.synchronousDelivery) {
      problems.append(
        "timing transactional delivers after the writing block ends, which contradicts"
          + " synchronousDelivery")
    }
    if has(.oneShot) && has(.replaysCurrentValue) {
      problems.append(
        "oneShot with replaysCurrentValue would spend every registration on its replay")
    }
    if !problems.isEmpty { throw CapabilityDeclarationError(problems: problems) }
  }
}

/// A backend's capability declaration contradicts itself.
public struct CapabilityDeclarationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// One sentence per contradiction.
  public var problems: [String]

  /// All problems, one per line.
  public var description: String {
    "invalid capability declaration:\n" + problems.map { "  - " + $0 }.joined(separator: "\n")
  }
}
