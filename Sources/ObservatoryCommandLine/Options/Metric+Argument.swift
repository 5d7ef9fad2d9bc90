import ArgumentParser
import ObservationHarness
import ObservationReports

/// `--metric time` or `--metric instructions`.
extension Metric: ExpressibleByArgument {}
