#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Exact allocation counters, read from jemalloc when it is the process's allocator.
///
/// jemalloc is found at run time (`dlsym` of `mallctl`), so the tool runs unchanged on the
/// system allocator, where ``isAvailable`` is `false` and every reading is `nil`. Readings
/// flush the thread cache and refresh jemalloc's statistics epoch first; they are taken outside
/// timed regions.
public struct MemoryProbe {
  /// One reading.
  public struct Counters: Sendable {
    /// Allocation requests so far (small and large), process-wide.
    public var allocations: UInt64
    /// Bytes this thread has allocated so far.
    public var allocatedBytes: UInt64
    /// Bytes currently allocated by the application, process-wide.
    public var liveBytes: UInt64
  }

  private typealias MallctlFunction =
    @convention(c) (
      UnsafePointer<CChar>?, UnsafeMutableRawPointer?, UnsafeMutablePointer<Int>?,
      UnsafeMutableRawPointer?, Int
    ) -> Int32

  private let mallctl: MallctlFunction?
  private let threadAllocated: UnsafeMutablePointer<UInt64>?

  /// Called as every timed region starts, after the probe's own reading: lets an outside meter
  /// (a benchmark framework's counters) measure exactly the region the drivers time.
  public var regionWillStart: (() -> Void)?
  /// Called as every timed region ends, before the probe's own reading.
  public var regionDidEnd: (() -> Void)?

  /// Looks for jemalloc in the running process.
  public init() {
    guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl") else {
      mallctl = nil
      threadAllocated = nil
      return
    }
    let function = unsafeBitCast(symbol, to: MallctlFunction.self)
    var pointer: UnsafeMutablePointer<UInt64>? = nil
    var size = MemoryLayout<UnsafeMutablePointer<UInt64>?>.size
    let status = function("thread.allocatedp", &pointer, &size, nil, 0)
    mallctl = status == 0 ? function : nil
    threadAllocated = status == 0 ? pointer : nil
  }

  /// Whether jemalloc is the allocator, so readings are available.
  public var isAvailable: Bool { mallctl != nil }

  /// The jemalloc version, if available.
  public var version: String? {
    guard let mallctl else { return nil }
    var text: UnsafePointer<CChar>? = nil
    var size = MemoryLayout<UnsafePointer<CChar>?>.size
    guard mallctl("version", &text, &size, nil, 0) == 0, let text else { return nil }
    return String(cString: text)
  }

  /// The bytes the calling thread has allocated so far, read from jemalloc's own counter for
  /// it; `nil` without jemalloc. For a thread other than the one that made a probe: jemalloc
  /// keeps the count per thread.
  ///
  /// - Complexity: O(1): one `mallctl` call.
  public static func threadAllocatedBytes() -> UInt64? {
    guard let symbol = UnsafeMutableRawPointer(bitPattern: mallctlAddress) else { return nil }
    let mallctl = unsafeBitCast(symbol, to: MallctlFunction.self)
    var value: UInt64 = 0
    var size = MemoryLayout<UInt64>.size
    return mallctl("thread.allocated", &value, &size, nil, 0) == 0 ? value : nil
  }

  /// The address of jemalloc's `mallctl`, or 0 when it is not the process's allocator.
  private static let mallctlAddress = Int(
    bitPattern: dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallctl"))

  /// Reads the counters, or `nil` without jemalloc.
  public func read() -> Counters? {
    guard let mallctl, let threadAllocated else { return nil }
    _ = mallctl("thread.tcache.flush", nil, nil, nil, 0)
    var epochOut: UInt64 = 0
    var epochIn: UInt64 = 1
    var epochSize = MemoryLayout<UInt64>.size
    _ = mallctl("epoch", &epochOut, &epochSize, &epochIn, epochSize)
    func readUInt64(_ name: String) -> UInt64 {
      var value: UInt64 = 0
      var size = MemoryLayout<UInt64>.size
      return mallctl(name, &value, &size, nil, 0) == 0 ? value : 0
    }
    func readSize(_ name: String) -> UInt64 {
      var value: Int = 0
      var size = MemoryLayout<Int>.size
      return mallctl(name, &value, &size, nil, 0) == 0 ? UInt64(value) : 0
    }
    // 4096 is MALLCTL_ARENAS_ALL: every arena merged.
    let allocations =
      readUInt64("stats.arenas.4096.small.nrequests")
      + readUInt64("stats.arenas.4096.large.nrequests")
    return Counters(
      allocations: allocations, allocatedBytes: threadAllocated.pointee,
      liveBytes: readSize("stats.allocated"))
  }
}
