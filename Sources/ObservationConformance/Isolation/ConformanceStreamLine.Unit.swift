extension ConformanceStreamLine {
  /// What a `starting` or `outcome` line is about: a rule, or a rule ERASE-01 re-runs through
  /// the erased handles.
  ///
  /// Its text, the one place the stream spells it: the rule's identifier (`INIT-01`), or
  /// `erased:` and the identifier (`erased:INIT-01`).
  enum Unit: Hashable, CustomStringConvertible {
    /// The rule, run on the backend itself.
    case rule(RuleID)
    /// The rule, run again through the erased handles for ERASE-01.
    case erased(RuleID)

    /// What the text of an ``erased(_:)`` unit starts with.
    private static let erasedPrefix = "erased:"

    /// Reads a unit's text (as ``description`` writes it).
    ///
    /// - Complexity: O(*n*) in the length of `text`.
    init(_ text: Substring) {
      if text.hasPrefix(Self.erasedPrefix) {
        self = .erased(RuleID(rawValue: String(text.dropFirst(Self.erasedPrefix.count))))
      } else {
        self = .rule(RuleID(rawValue: String(text)))
      }
    }

    /// The unit's text on the stream: `INIT-01`, `erased:INIT-01`.
    var description: String {
      switch self {
      case .rule(let id): return id.rawValue
      case .erased(let id): return Self.erasedPrefix + id.rawValue
      }
    }

    /// The rule the unit runs, directly or through the erased handles.
    var ruleID: RuleID {
      switch self {
      case .rule(let id), .erased(let id): return id
      }
    }
  }
}
