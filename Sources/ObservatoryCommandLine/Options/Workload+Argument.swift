import ArgumentParser
import ObservationWorkloads

/// `cell --workload notify`, and each entry of `run --workload notify,cancel`.
extension Workload: ExpressibleByArgument {}

/// `cell --pattern random` (`-`: the workload has no variants).
extension WorkloadPattern: ExpressibleByArgument {}
