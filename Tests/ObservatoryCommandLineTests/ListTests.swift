import ArgumentParser
import Foundation
import ObservationBackends
import ObservationCore
import ObservationReports
import ObservationWorkloads
import ObservatoryBuiltInRows
import Testing

@testable import ObservationHarness
@testable import ObservatoryCommandLine

/// `observatory list`: what it prints is what the catalog holds and what `run` accepts.
@Suite("list")
struct ListTests {
  /// What `list --format json` prints in Observatory's own tool, parsed (`ListOutputTests`
  /// holds the built executable to the same text).
  private func printed() throws -> [String: Any] {
    let json = try Tool.builtIn.catalog.json()
    guard let object = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
    else { throw ValidationError("not a JSON object: \(json.prefix(200))") }
    return object
  }

  private func backends() throws -> [[String: Any]] {
    try #require(try printed()["backends"] as? [[String: Any]])
  }

  @Test(
    "The JSON has every built-in row, in order, with its provenance and capabilities: the catalog's backends and dense-handles"
  )
  func everyCatalogBackend() throws {
    let listed = try backends()
    let rows = MeasuredBackend.builtIns
    #expect(listed.compactMap { $0["name"] as? String } == rows.map(\.name))
    #expect(rows.filter { $0.backend != nil }.map(\.name) == BackendCatalog.names)
    for (row, object) in zip(rows, listed) {
      let capabilities = row.capabilities
      #expect(object["timing"] as? String == capabilities.timing.rawValue)
      #expect(
        object["capabilities"] as? [String] == capabilities.flags.map(\.rawValue).sorted(),
        "\(row.name)")
      switch row.description.provenance {
      case .original:
        #expect(object["provenance"] as? String == "original")
        #expect(object["library"] is NSNull)
      case .library(let library):
        #expect(object["provenance"] as? String == "library")
        #expect(object["library"] as? String == library)
      }
      switch capabilities.maxReentrancyDepth {
      case .bounded(let depth): #expect(object["max_reentrancy_depth"] as? Int == depth)
      case .unbounded: #expect(object["max_reentrancy_depth"] as? String == "unbounded")
      }
      #expect(
        (object["nested_variant_of"] as? String) == row.description.nestedVariantOf
          && object.keys.contains("nested_variant_of"))
      #expect(object["in_conformance_suite"] as? Bool == (row.backend != nil), "\(row.name)")
    }
  }

  @Test(
    "dense-handles: dense without cancellation on release, measured on subscribe and cancel only")
  func denseHandlesRow() throws {
    let object = try #require(try backends().first { $0["name"] as? String == "dense-handles" })
    let dense = try #require(try backends().first { $0["name"] as? String == "dense" })
    let denseFlags = try #require(dense["capabilities"] as? [String])
    #expect(
      object["capabilities"] as? [String] == denseFlags.filter { $0 != "cancelsOnTokenDeinit" })
    #expect(object["default_workloads"] as? [String] == ["subscribe", "cancel"])
    #expect(object["in_conformance_suite"] as? Bool == false)
    let plan = SweepPlan(
      rows: MeasuredRows(
        backends: [try #require(MeasuredBackend.builtIns.row(named: "dense-handles"))]),
      everyWorkload: true, workloads: Workload.allCases, sizes: [16], depths: [1],
      allocators: [.system], repetitions: 1)
    #expect(
      Set(plan.cells.filter { $0.backend == "dense-handles" }.map(\.workload))
        == [.subscribe, .cancel])
  }

  @Test("Every key is present in every entry, whatever its value")
  func stableKeys() throws {
    let object = try printed()
    #expect(
      Set(object.keys) == ["package", "backends", "references", "workloads", "default_sweep"])
    let backendKeys: Set<String> = [
      "name", "provenance", "library", "timing", "capabilities", "max_reentrancy_depth",
      "nested_variant_of", "default_workloads", "written_in", "in_conformance_suite",
    ]
    for backend in try backends() { #expect(Set(backend.keys) == backendKeys) }
    let workloads = try #require(object["workloads"] as? [[String: Any]])
    for workload in workloads {
      #expect(Set(workload.keys) == ["name", "unit", "summary", "has_depth", "patterns"])
      for pattern in try #require(workload["patterns"] as? [[String: Any]]) {
        #expect(Set(pattern.keys) == ["name", "summary", "minimum_depth"])
      }
    }
  }

  @Test("Every listed backend and workload is accepted by run, every pattern by cell")
  func namesAreAccepted() throws {
    let names = try backends().compactMap { $0["name"] as? String }
    for name in names {
      let command = try Observatory.parseAsRoot(["run", "--allow-debug", "--backend", name])
      let run = try #require(command as? RunCommand)
      #expect(run.selection.backend?.elements == [name])
    }
    let all = try #require(
      try Observatory.parseAsRoot([
        "run", "--allow-debug", "--backend", names.joined(separator: ","),
      ]) as? RunCommand)
    #expect(all.selection.backend?.elements == names)

    let workloads = try #require(try printed()["workloads"] as? [[String: Any]])
    let workloadNames = workloads.compactMap { $0["name"] as? String }
    #expect(workloadNames == Workload.allCases.map(\.rawValue))
    let run = try #require(
      try Observatory.parseAsRoot([
        "run", "--allow-debug", "--workload", workloadNames.joined(separator: ","),
      ]) as? RunCommand)
    #expect(run.selection.workload?.elements == Workload.allCases)
    for workload in workloads {
      for pattern in try #require(workload["patterns"] as? [[String: Any]]) {
        let request = try CellRequest(arguments: [
          "--protocol", String(CellRequest.protocolVersion), "--backend", names[0], "--workload",
          try #require(workload["name"] as? String), "--pattern",
          try #require(pattern["name"] as? String), "--n", "1", "--depth", "2",
          "--repetitions", "1", "--budget", "1",
        ])
        #expect(request.backend == names[0])
      }
    }
  }

  @Test("The default sweep's sizes and depths are the ones run plans with")
  func defaultSweep() throws {
    let sweep = try #require(try printed()["default_sweep"] as? [String: Any])
    let run = try #require(try Observatory.parseAsRoot(["run", "--allow-debug"]) as? RunCommand)
    #expect(sweep["sizes"] as? [Int] == run.selection.plannedSizes)
    #expect(sweep["depths"] as? [Int] == run.selection.plannedDepths)
    let quick = try #require(
      try Observatory.parseAsRoot(["run", "--allow-debug", "--quick"]) as? RunCommand)
    #expect(sweep["quick_sizes"] as? [Int] == quick.selection.plannedSizes)
    let sizes = try #require(sweep["sizes"] as? [Int])
    _ = try Observatory.parseAsRoot([
      "run", "--allow-debug", "--sizes", sizes.map(String.init).joined(separator: ","),
    ])
  }

  @Test("The reference rows are listed apart, each with the workloads it has a loop for")
  func references() throws {
    let references = try #require(try printed()["references"] as? [[String: Any]])
    #expect(
      references.compactMap { $0["name"] as? String } == MeasuredBackend.references.map(\.name))
    #expect(
      references.map { Set($0["workloads"] as? [String] ?? []) } == [
        ["notify", "subscribe", "cancel"], ["notify"], ["notify", "subscribe"],
        ["notify", "subscribe", "cancel"],
      ])
    let names = Set(try backends().compactMap { $0["name"] as? String })
    #expect(names.isDisjoint(with: MeasuredBackend.references.map(\.name)))
  }

  @Test("A third party's backend is listed after the built-in ones, as written in its package")
  func thirdParty() throws {
    let extra = MeasuredBackend(
      name: "my-backend", kind: .backend, capabilities: MeasuredBackend.builtIns[0].capabilities,
      description: BackendDescription(provenance: .original), backend: nil
    ) { _, _ in { _ in Sample(nanoseconds: 0, operations: 0) } }
    let catalog = SweepCatalog(
      rows: MeasuredRows(backends: MeasuredBackend.builtIns + [extra]),
      packageName: "this package (bench)")
    #expect(catalog.backends.last?.name == "my-backend")
    #expect(catalog.text.contains("my-backend") && catalog.text.contains("this package (bench)"))
  }

  @Test("The text names every backend, workload and pattern, in lines of at most 80 columns")
  func text() {
    let text = Tool.builtIn.catalog.text
    for name in BackendCatalog.names + Workload.allCases.map(\.rawValue) {
      #expect(text.contains("  \(name) "), "\(name)")
    }
    for pattern in Workload.allCases.flatMap(\.patterns) where pattern != .single {
      #expect(text.contains(" \(pattern.rawValue) "), "\(pattern.rawValue)")
    }
    for size in SweepDefaults.sizes { #expect(text.contains(String(size))) }
    let long = text.split(separator: "\n").filter { $0.count > 80 }
    #expect(long.isEmpty, "\(long)")
  }
}
