import ArgumentParser
import ObservationReports

/// `--metric time` or `--metric instructions`.
extension Metric: ExpressibleByArgument {}
