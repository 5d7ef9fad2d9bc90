/// Who wrote a backend's behaviour: the package that declares the backend, or a library it
/// wraps.
public enum BackendProvenance: Sendable, Hashable {
  /// Written in the package that declares the backend (this one, for the built-ins): it must
  /// pass every rule it declares.
  case original
  /// A thin adapter over another library's behaviour: a failed rule is a finding about that
  /// library.
  case library(String)
}

/// What a report states about a backend beyond its name and capabilities, declared with the
/// backend rather than guessed from its name.
public struct BackendDescription: Sendable, Hashable {
  /// Who wrote the behaviour the backend measures.
  public var provenance: BackendProvenance
  /// For a backend that shares its subjects with another and differs only in how it observes
  /// nested paths (the Combine chains over `@Published`), the other backend's name: a sweep
  /// measures such a variant on the nested workload only unless it is named, since its
  /// single-property numbers would repeat the other's.
  public var nestedVariantOf: String?

  /// A description of a backend whose behaviour comes from `provenance`, a nested variant of
  /// the backend called `nestedVariantOf` if that is given.
  public init(provenance: BackendProvenance, nestedVariantOf: String? = nil) {
    self.provenance = provenance
    self.nestedVariantOf = nestedVariantOf
  }
}
