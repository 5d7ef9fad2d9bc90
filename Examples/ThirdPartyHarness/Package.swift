// swift-tools-version:6.1
import PackageDescription

// A third party's package: backends of its own, measured by Observatory's whole tool next to
// the built-in backends. An adopter names Observatory by URL and version instead of by path.
let package = Package(
  name: "ThirdPartyHarness",
  dependencies: [
    .package(name: "Observatory", path: "../.."),
    // The array copies' pending writes, in a Deque as in the built-in array backend.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    .target(
      name: "SlotArrayBackend",
      dependencies: [.product(name: "ObservationCore", package: "Observatory")]),
    // The built-in `array` backend copied verbatim (`array-copy`), and copied without
    // `@inlinable` (`array-copy-opaque`): what packaging alone costs a backend outside
    // Observatory.
    .target(
      name: "ArrayCopyBackend",
      dependencies: [
        .product(name: "ObservationCore", package: "Observatory"),
        .product(name: "DequeModule", package: "swift-collections"),
      ]),
    .target(
      name: "OpaqueArrayCopyBackend",
      dependencies: [
        .product(name: "ObservationCore", package: "Observatory"),
        .product(name: "DequeModule", package: "swift-collections"),
      ]),
    // `slot-array` slowed down, measured under its name: a regression for the history that
    // CI keeps across runs to find (.ci/run).
    .target(
      name: "SlowedSlotArrayBackend",
      dependencies: ["SlotArrayBackend", .product(name: "ObservationCore", package: "Observatory")]),
    .executableTarget(
      name: "slowed-third-party-observatory",
      dependencies: [
        "SlowedSlotArrayBackend",
        .product(name: "ObservationHarness", package: "Observatory"),
        .product(name: "ObservatoryCommandLine", package: "Observatory"),
      ]),
    .executableTarget(
      name: "third-party-observatory",
      dependencies: [
        "SlotArrayBackend", "ArrayCopyBackend", "OpaqueArrayCopyBackend",
        .product(name: "ObservationHarness", package: "Observatory"),
        .product(name: "ObservatoryCommandLine", package: "Observatory"),
      ]),
  ]
)
