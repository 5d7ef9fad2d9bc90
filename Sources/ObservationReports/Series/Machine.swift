/// The machine a report was measured on, as its rows name it: host, processor and cores.
///
/// Two reports of one machine make one trend; two machines never do. ``ReportSeries`` groups
/// reports by it, and ``Comparison`` refuses timed reports of two of them unless told
/// otherwise.
///
/// ```swift
/// let report = try Report.read("Results/2026-11-28_be36b731ab40_vm.csv")
/// print(Machine(report.results[0].environment))  // vm (Intel(R) Xeon(R) Processor, 2 cores)
/// ```
public struct Machine: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The host name, as the report writes it.
  public var host: String
  /// The processor's model name.
  public var cpu: String
  /// The processors the measuring process could use.
  public var cores: Int

  /// The machine `environment` names.
  ///
  /// - Complexity: O(1).
  public init(_ environment: RunEnvironment) {
    (host, cpu, cores) = (environment.host, environment.cpu, environment.cores)
  }

  /// `vm (Intel(R) Xeon(R) Processor, 2 cores)`.
  public var description: String { "\(host) (\(cpu), \(RunEnvironment.coresText(cores)))" }

  /// The shortest name that tells this machine from the others: its host, then with its
  /// cores (`vm, 16 cores`), then in full.
  ///
  /// - Complexity: O(*m*) for *m* machines.
  public func name(among machines: [Machine]) -> String {
    if machines.filter({ $0.host == host }).count == 1 { return host }
    if machines.filter({ $0.host == host && $0.cores == cores }).count == 1 {
      return "\(host), \(RunEnvironment.coresText(cores))"
    }
    return description
  }

  /// How `other`, the candidate, differs from this machine, the base: host, processor and
  /// core count, one sentence each; empty for the same machine.
  ///
  /// - Complexity: O(1).
  public func differences(toCandidate other: Machine) -> [String] {
    var differences: [String] = []
    if host != other.host {
      differences.append("host '\(host)' in the base, '\(other.host)' in the candidate")
    }
    if cpu != other.cpu {
      differences.append("CPU '\(cpu)' in the base, '\(other.cpu)' in the candidate")
    }
    if cores != other.cores {
      differences.append(
        "\(RunEnvironment.coresText(cores)) in the base, \(RunEnvironment.coresText(other.cores))"
          + " in the candidate")
    }
    return differences
  }

  /// Orders machines by host, then processor, then cores.
  public static func < (a: Machine, b: Machine) -> Bool {
    (a.host, a.cpu, a.cores) < (b.host, b.cpu, b.cores)
  }
}
