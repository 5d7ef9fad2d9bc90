// swift-tools-version:6.1
import PackageDescription

// A third party's package: one backend of its own, measured by Observatory's whole tool next to
// the built-in backends. An adopter names Observatory by URL and version instead of by path.
let package = Package(
  name: "ThirdPartyHarness",
  dependencies: [
    .package(name: "Observatory", path: "../..")
  ],
  targets: [
    .target(
      name: "SlotArrayBackend",
      dependencies: [.product(name: "ObservationCore", package: "Observatory")]),
    .executableTarget(
      name: "third-party-observatory",
      dependencies: [
        "SlotArrayBackend",
        .product(name: "ObservationHarness", package: "Observatory"),
        .product(name: "ObservatoryCommandLine", package: "Observatory"),
      ]),
  ]
)
