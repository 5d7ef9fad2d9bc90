// swift-tools-version:6.1
import PackageDescription

/// Every target sees a module's members only where a file imports that module, so each file's
/// imports say what it uses (SE-0444) and an import nothing needs can be seen and removed.
let memberImportVisibility: SwiftSetting = .enableUpcomingFeature("MemberImportVisibility")

/// The Swift 6 language mode, with its complete concurrency checking, wherever it compiles.
let swift6: [SwiftSetting] = [.swiftLanguageMode(.v6), memberImportVisibility]

/// The Swift 5 language mode, for the targets that share what Swift 6 would refuse to share:
/// the conformance engine's fixtures and tests hand non-Sendable subjects to other threads on
/// purpose, to test them (the engine itself compiles in Swift 6); the NotificationCenter and Observation backends pass a backend's
/// handler to those frameworks' `@Sendable` callbacks; the AsyncStream backend yields values of
/// any type into a stream, whose `yield` takes a value it can send, as apps wrote it before Swift
/// 6; the command line's tests keep the contract's non-Sendable handlers behind a `Mutex` in
/// their thread-safe test backends.
let languageMode: [SwiftSetting] = [.swiftLanguageMode(.v5), memberImportVisibility]

let package = Package(
  name: "Observatory",
  products: [
    .library(name: "ObservationCore", targets: ["ObservationCore"]),
    .library(name: "ObservationFixtures", targets: ["ObservationFixtures"]),
    .library(name: "LinkedListBackend", targets: ["LinkedListBackend"]),
    .library(name: "ArrayBackend", targets: ["ArrayBackend"]),
    .library(name: "DenseBackend", targets: ["DenseBackend"]),
    .library(name: "SubjectBackend", targets: ["SubjectBackend"]),
    .library(name: "KeyPathBackend", targets: ["KeyPathBackend"]),
    .library(name: "SwiftObservationBackend", targets: ["SwiftObservationBackend"]),
    .library(name: "AsyncStreamBackend", targets: ["AsyncStreamBackend"]),
    .library(name: "AsyncShareBackend", targets: ["AsyncShareBackend"]),
    .library(name: "ActorObservableBackend", targets: ["ActorObservableBackend"]),
    .library(name: "AsyncBroadcast", targets: ["AsyncBroadcast"]),
    .library(name: "BroadcastBackend", targets: ["BroadcastBackend"]),
    .library(name: "NotificationCenterBackend", targets: ["NotificationCenterBackend"]),
    .library(name: "ObservationBackends", targets: ["ObservationBackends"]),
    .library(name: "ObservationWorkloads", targets: ["ObservationWorkloads"]),
    .library(name: "ObservationConformance", targets: ["ObservationConformance"]),
    .library(name: "ObservationConformanceTesting", targets: ["ObservationConformanceTesting"]),
    .library(name: "ObservationReports", targets: ["ObservationReports"]),
    .library(name: "ObservationHarness", targets: ["ObservationHarness"]),
    .library(name: "ObservatoryCommandLine", targets: ["ObservatoryCommandLine"]),
    // The main of a fuzz executable (libFuzzer under -sanitize=fuzzer, a replay otherwise), for
    // fuzzing a backend against the reference model with ObservationConformance's
    // DifferentialFuzzer.
    .library(name: "ObservatoryFuzzDriver", targets: ["ObservatoryFuzzDriver"]),
    .executable(name: "observatory", targets: ["observatory"]),
  ],
  dependencies: [
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // `share()`, which the async-share backend observes through.
    .package(url: "https://github.com/apple/swift-async-algorithms", from: "1.1.4"),
    // Documentation only: `swift package generate-documentation`; no target depends on it.
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
  ],
  targets: [
    // The contract.
    .target(name: "ObservationCore", swiftSettings: swift6),
    // The objects the nested-path and aggregation rules and the nested workload observe: the
    // protocols a backend with objects of its own conforms to, and versions built from any
    // backend's subjects.
    .target(
      name: "ObservationFixtures", dependencies: ["ObservationCore"],
      swiftSettings: swift6),

    // Backends.
    .target(
      name: "LinkedListBackend",
      dependencies: [
        "ObservationCore", .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: swift6),
    .target(
      name: "ArrayBackend",
      dependencies: [
        "ObservationCore", .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: swift6),
    // Observatory's own strategy: dense closures and a slot map.
    .target(
      name: "DenseBackend",
      dependencies: [
        "ObservationCore", "CClosureCalls",
        .product(name: "DequeModule", package: "swift-collections"),
      ],
      swiftSettings: swift6),
    .target(
      name: "SubjectBackend",
      dependencies: ["ObservationCore", "ObservationFixtures", "OpenCombine"],
      swiftSettings: swift6),
    .target(
      name: "KeyPathBackend",
      dependencies: ["ObservationCore", "ObservationFixtures"],
      swiftSettings: swift6),
    // The run loop the asynchronous backends deliver on, as an app's main actor would.
    .target(
      name: "RunLoopExecution",
      dependencies: [.product(name: "DequeModule", package: "swift-collections")],
      swiftSettings: swift6),
    .target(
      name: "SwiftObservationBackend",
      dependencies: ["ObservationCore", "ObservationFixtures", "RunLoopExecution"],
      swiftSettings: languageMode),
    .target(
      name: "AsyncStreamBackend",
      dependencies: ["ObservationCore", "RunLoopExecution"],
      swiftSettings: languageMode),
    .target(
      name: "AsyncShareBackend",
      dependencies: [
        "ObservationCore", "RunLoopExecution",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: swift6),
    .target(
      name: "ActorObservableBackend",
      dependencies: ["ObservationCore", "RunLoopExecution"],
      swiftSettings: swift6),
    // Observatory's own broadcast sequence: no dependency on the rest of the package.
    .target(
      name: "AsyncBroadcast",
      dependencies: [.product(name: "DequeModule", package: "swift-collections")],
      swiftSettings: swift6),
    .target(
      name: "BroadcastBackend",
      dependencies: ["ObservationCore", "RunLoopExecution", "AsyncBroadcast"],
      swiftSettings: swift6),
    .target(
      name: "NotificationCenterBackend",
      dependencies: ["ObservationCore"],
      swiftSettings: languageMode),
    .target(
      name: "ObservationBackends",
      dependencies: [
        "ObservationCore", "LinkedListBackend", "ArrayBackend", "DenseBackend", "SubjectBackend",
        "KeyPathBackend", "SwiftObservationBackend", "AsyncStreamBackend",
        "AsyncShareBackend", "ActorObservableBackend", "BroadcastBackend",
        "NotificationCenterBackend",
      ],
      swiftSettings: swift6),

    // Measurement.
    .target(name: "CReference"),
    // Calls Swift closures from C without retaining their contexts: DenseBackend's delivery
    // loop and the reference row that calls the workload's own handler from C.
    .target(name: "CClosureCalls"),
    // Callgrind's client requests, to count instructions in exactly the timed region.
    .target(name: "CInstructionCounting"),
    // CPU affinity and the parent-death signal, whose macros and variadic calls Swift cannot
    // call.
    .target(name: "CProcessControl"),
    .target(
      name: "ObservationWorkloads",
      dependencies: [
        "ObservationCore", "ObservationFixtures", "CReference", "CClosureCalls",
        "RunLoopExecution",
      ],
      swiftSettings: swift6),

    // Verification.
    // CProcessControl: an isolated run's child process dies with its parent.
    .target(
      name: "ObservationConformance",
      dependencies: ["ObservationCore", "ObservationFixtures", "CProcessControl"],
      swiftSettings: swift6),
    .target(
      name: "ObservationConformanceTesting",
      dependencies: ["ObservationCore", "ObservationConformance"],
      swiftSettings: swift6),

    // What a sweep's report says, read, written, checked and judged (the comparison of two
    // reports), without how it was measured: a dashboard or a CI script that reads reports and
    // gates on their verdict depends on this alone.
    .target(
      name: "ObservationReports", dependencies: ["ObservationWorkloads"], swiftSettings: swift6),

    // The harness measures: cells in fresh processes, calibration, budgets, sweeps that build
    // reports, paired runs of two builds. It knows no backend of its own: the tool hands it the
    // rows to measure. CInstructionCounting brackets the measured region for callgrind;
    // CProcessControl pins a cell to a processor and ends it with its parent.
    .target(
      name: "ObservationHarness",
      dependencies: [
        "ObservationCore", "ObservationWorkloads", "ObservationReports",
        "CInstructionCounting", "CProcessControl",
      ],
      swiftSettings: swift6),

    // The report page and its charts, drawn from values (reports, a comparison, matrix rows)
    // that the command line reads: no files, no processes, and no conformance engine (the
    // matrix's rows are a result, in ObservationReports).
    .target(
      name: "ObservationReportPage",
      dependencies: ["ObservationWorkloads", "ObservationReports"],
      swiftSettings: swift6),

    // The command-line tool: argument parsing and printing over the harness and the suite, as
    // a library so that a third party's executable can run it over its own backends.
    // The built-in rows the tool measures, alone in a module: the drivers are specialized for
    // each built-in backend here, and the compiler's function merging depends on the rest of
    // the module, so an edit to the command line does not change the code the instruction gate
    // counts (built there, the dense rows' cancel cells moved by 4 instructions per operation).
    .target(
      name: "ObservatoryBuiltInRows",
      dependencies: [
        "ObservationCore", "ObservationBackends", "ObservationWorkloads", "ObservationHarness",
        // dense-handles: the dense backend's subjects through their handles, a harness row.
        "DenseBackend",
      ],
      swiftSettings: swift6),
    .target(
      name: "ObservatoryCommandLine",
      dependencies: [
        "ObservationCore", "ObservationBackends", "ObservationConformance", "ObservationWorkloads",
        "ObservationReports", "ObservationHarness", "ObservationReportPage",
        "ObservatoryBuiltInRows",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swift6),
    .executableTarget(
      name: "observatory", dependencies: ["ObservatoryCommandLine"], swiftSettings: swift6),

    // Fuzzing: every reader and formatter that input from outside meets, as a target
    // (ObservatoryFuzzing), and the executable that runs one under libFuzzer (a build with
    // `-sanitize=fuzzer`, whose driver CFuzzerDriver finds) or replays inputs (any build).
    .target(
      name: "ObservatoryFuzzing",
      dependencies: [
        "ObservationReports", "ObservationHarness", "ObservationReportPage",
        "ObservationConformance", "LinkedListBackend", "DenseBackend", "KeyPathBackend",
      ],
      swiftSettings: swift6),
    .target(name: "CFuzzerDriver"),
    .target(
      name: "ObservatoryFuzzDriver", dependencies: ["CFuzzerDriver"], swiftSettings: swift6),
    .executableTarget(
      name: "observatory-fuzz", dependencies: ["ObservatoryFuzzing", "ObservatoryFuzzDriver"],
      swiftSettings: swift6),

    // Tests.
    .testTarget(
      name: "ObservationCoreTests",
      dependencies: ["ObservationCore", "LinkedListBackend"],
      swiftSettings: swift6),
    .testTarget(
      name: "AsyncBroadcastTests",
      dependencies: ["AsyncBroadcast"],
      swiftSettings: swift6),
    .testTarget(
      name: "BackendTests",
      dependencies: [
        "ObservationCore", "LinkedListBackend", "ArrayBackend", "SubjectBackend", "KeyPathBackend",
        "ObservationBackends", "DenseBackend", "RunLoopExecution", "AsyncStreamBackend",
        "ActorObservableBackend", "AsyncShareBackend",
        .product(name: "AsyncAlgorithms", package: "swift-async-algorithms"),
      ],
      swiftSettings: swift6),
    // Backends that trap or deadlock in one rule, run as isolated-conformance children by
    // ObservationConformanceTests (a test can only reach a crashing backend from another
    // process).
    .executableTarget(
      name: "conformance-fixtures",
      dependencies: [
        "ObservationCore", "ObservationConformance", "ObservationFixtures", "LinkedListBackend",
      ],
      path: "Tests/Fixtures/ConformanceFixtures",
      swiftSettings: languageMode),
    // What several test targets share: the tags and traits that say which tests a sanitizer's
    // pass leaves out; reports built from results, to read (ReportFixtures, without the
    // harness); and reports built as a sweep builds them, to compare and draw (SweepFixtures).
    .target(name: "TestTraits", path: "Tests/TestTraits", swiftSettings: swift6),
    .target(
      name: "ReportFixtures",
      dependencies: ["ObservationReports", "ObservationWorkloads"],
      path: "Tests/ReportFixtures", swiftSettings: swift6),
    .target(
      name: "SweepFixtures",
      dependencies: [
        "ReportFixtures", "ObservationHarness", "ObservationReports", "ObservationReportPage",
        "ObservationWorkloads",
      ],
      path: "Tests/SweepFixtures", swiftSettings: swift6),
    .testTarget(
      name: "ObservationConformanceTests",
      dependencies: [
        "ObservationCore", "ObservationFixtures", "ObservationConformance",
        "ObservationConformanceTesting", "ObservationBackends", "LinkedListBackend", "ArrayBackend",
        "SubjectBackend", "SwiftObservationBackend", "DenseBackend", "conformance-fixtures",
        "TestTraits", "ObservationReports",
      ],
      swiftSettings: languageMode),
    .testTarget(
      name: "ObservatoryFuzzingTests",
      dependencies: ["ObservatoryFuzzing", "ObservationReports"],
      swiftSettings: swift6),
    .testTarget(
      name: "ObservationReportsTests",
      dependencies: [
        "ObservationReports", "ObservationWorkloads", "ReportFixtures",
      ],
      swiftSettings: swift6),
    .testTarget(
      name: "ObservationHarnessTests",
      dependencies: [
        "ObservationHarness", "ObservationCore", "ObservationBackends", "ObservationReports",
        "ObservationWorkloads", "ArrayBackend", "DenseBackend", "CReference", "ReportFixtures",
        "SweepFixtures", "TestTraits", "AsyncStreamBackend", "ObservatoryBuiltInRows",
      ],
      swiftSettings: swift6),
    .testTarget(
      name: "ObservationReportPageTests",
      dependencies: [
        "ObservationReportPage", "ObservationReports", "ObservationWorkloads", "ObservationHarness",
        "ObservatoryBuiltInRows", "ReportFixtures", "SweepFixtures", "TestTraits",
      ],
      swiftSettings: swift6),
    .testTarget(
      name: "ObservatoryCommandLineTests",
      dependencies: [
        "ObservatoryCommandLine", "ObservationHarness", "ObservationReports",
        "ObservationReportPage", "ObservationConformance", "ObservationBackends",
        "ObservationCore", "ObservationWorkloads", "ArrayBackend", "ObservatoryBuiltInRows",
        "ReportFixtures", "SweepFixtures", "TestTraits",
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ],
      swiftSettings: swift6),
    // The built tool, run as a user runs it: every test starts the `observatory` executable
    // (a dependency, so that `swift test` builds it) on arguments, files and signals, and
    // checks its exit status, its output and what it left on disk.
    .testTarget(
      name: "ObservatoryEndToEndTests",
      dependencies: [
        "observatory", "ObservatoryCommandLine", "ObservatoryBuiltInRows", "ObservationHarness",
        "ObservationReports", "ObservationConformance", "ObservationConformanceTesting",
        "ObservationBackends", "ObservationCore",
        "ReportFixtures", "SweepFixtures", "TestTraits",
      ],
      swiftSettings: swift6),
    // The sanitizers' passes over the rules, as one executable (`sanitizer-pass thread`,
    // `sanitizer-pass address`): .ci/run builds it alone with --sanitize=thread or
    // --sanitize=address, without the test targets it does not need. DenseBackend: the dense
    // backends with replay, which the catalog does not list.
    .executableTarget(
      name: "sanitizer-pass",
      dependencies: [
        "ObservationCore", "ObservationConformance", "ObservationBackends", "DenseBackend",
        "ObservationReports",
      ],
      path: "Tests/SanitizerPass",
      swiftSettings: swift6),
    // A third party's view: only the public contract and the public suite, nothing internal.
    .testTarget(
      name: "ThirdPartyBackendTests",
      dependencies: ["ObservationCore", "ObservationConformance", "ObservationConformanceTesting"],
      swiftSettings: swift6),
  ]
)
