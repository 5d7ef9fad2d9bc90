#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Blocks allocated and partly freed on the calling thread: a heap left in a state no cell
/// process reaches by itself, to check that a counted cell does not depend on its heap's
/// history (CI counts two cells with and without it and requires the same counts).
///
/// A cell process makes one on its main thread before the cell starts when
/// `OBSERVATORY_HEAP_CHURN` names a number of blocks, and frees the rest when the cell is done.
/// The blocks take sizes from 16 to 2,048 bytes in turn and every other one is freed at once,
/// so the thread cache, the small and large bins and the top of the main arena all differ from
/// a cell process's own.
package final class HeapChurn {
  /// The environment variable that asks a cell process for a churned heap.
  package static let variable = "OBSERVATORY_HEAP_CHURN"

  /// The blocks not freed yet, in a buffer of their own: an array would add a generic type to
  /// the runtime's caches, which is another history (see ``fromEnvironment()``).
  private let kept: UnsafeMutablePointer<UnsafeMutableRawPointer?>
  private let count: Int

  /// Allocates `blocks` blocks and frees every other one.
  ///
  /// - Complexity: O(`blocks`).
  package init(blocks: Int) {
    count = max(0, blocks) / 2 + 1
    kept = .allocate(capacity: count)
    kept.initialize(repeating: nil, count: count)
    for index in 0..<max(0, blocks) {
      let block = malloc(16 + (index * 48) % 2033)
      if index % 2 == 0 { kept[index / 2] = block } else { free(block) }
    }
  }

  /// The churn the environment asks for: `nil` unless `OBSERVATORY_HEAP_CHURN` names a positive
  /// number of blocks.
  ///
  /// Read with `getenv`: the first use of `ProcessInfo` sets Foundation up, which fills the
  /// Swift runtime's caches of generic types, where key-path's measured region looks its own
  /// types up (that alone moved its subscribe count by 0.2%). This check is about the heap.
  package static func fromEnvironment() -> HeapChurn? {
    guard let text = getenv(variable) else { return nil }
    let blocks = atoi(text)
    return blocks > 0 ? HeapChurn(blocks: Int(blocks)) : nil
  }

  deinit {
    for index in 0..<count { free(kept[index]) }
    kept.deallocate()
  }
}
