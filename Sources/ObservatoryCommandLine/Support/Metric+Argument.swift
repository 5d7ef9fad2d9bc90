import ArgumentParser
import ObservationHarness

/// `--metric time` or `--metric instructions`.
extension Metric: ExpressibleByArgument {}
