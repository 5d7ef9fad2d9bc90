import ObservationCore
import OpenCombine

/// Combine's cancellation token is an observation token as it is: `cancel()` ends the
/// subscription and releasing the last reference cancels.
extension AnyCancellable: ObservationToken {}
