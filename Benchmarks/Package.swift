// swift-tools-version:6.1
import PackageDescription

/// The ordo-one/benchmark suites, in their own package so that users of the library never pull
/// the benchmark framework in.
let package = Package(
  name: "ObservatoryBenchmarks",
  dependencies: [
    .package(name: "Observatory", path: ".."),
    .package(
      url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
  ],
  targets: [
    .executableTarget(
      name: "ObservationBenchmarks",
      dependencies: [
        .product(name: "Benchmark", package: "benchmark"),
        .product(name: "ObservationCore", package: "Observatory"),
        .product(name: "ObservationBackends", package: "Observatory"),
        .product(name: "ObservationWorkloads", package: "Observatory"),
      ],
      path: "ObservationBenchmarks",
      swiftSettings: [.swiftLanguageMode(.v5)],
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")])
  ]
)
