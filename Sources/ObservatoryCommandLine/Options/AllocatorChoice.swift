import ArgumentParser
import ObservationReports

/// `--allocator system|jemalloc|all`: the allocators a sweep measures with.
enum AllocatorChoice: String, CaseIterable, ExpressibleByArgument {
  case system
  case jemalloc
  case all

  /// The allocators this choice measures with, in sweep order.
  var allocators: [Allocator] {
    switch self {
    case .system: return [.system]
    case .jemalloc: return [.jemalloc]
    case .all: return [.system, .jemalloc]
    }
  }
}

/// `history --allocator jemalloc` and `table --allocator system`: one allocator's rows.
extension Allocator: ExpressibleByArgument {}
