import Foundation

/// A logarithmic axis: where a value lands between two pixel positions, and where its ticks
/// go.
///
/// The domain is widened to whole powers of ten around the values, so that every decade line
/// is a tick; a span of fewer than two decades also gets ticks at 2 and 5 times each power.
struct LogAxis {
  /// The smallest and largest value the axis shows, as base-10 logarithms.
  let lowerExponent: Double
  /// The largest value the axis shows, as a base-10 logarithm.
  let upperExponent: Double
  /// The pixel position of the smallest value.
  let start: Double
  /// The pixel position of the largest value.
  let end: Double

  /// An axis over `values` (those above zero count) from pixel `start` to `end`; `padded`
  /// widens the domain to whole decades, otherwise to a quarter of a decade either side.
  ///
  /// - Complexity: O(*v*) for *v* values.
  init(values: [Double], start: Double, end: Double, padded: Bool) {
    let logs = values.filter { $0 > 0 && $0.isFinite }.map(log10)
    var lower = logs.min() ?? 0
    var upper = logs.max() ?? 1
    if padded {
      lower = floor(lower)
      upper = ceil(upper)
      if upper - lower < 1 { upper = lower + 1 }
    } else {
      lower -= 0.25
      upper += 0.25
    }
    lowerExponent = lower
    upperExponent = upper
    self.start = start
    self.end = end
  }

  /// The pixel position of `value`, which must be above zero.
  func position(_ value: Double) -> Double {
    let fraction = (log10(value) - lowerExponent) / (upperExponent - lowerExponent)
    return start + (end - start) * fraction
  }

  /// The values to put tick marks and grid lines at: every power of ten in the domain, with 2
  /// and 5 times each when the domain spans fewer than two decades, every other power when it
  /// spans more than twelve.
  ///
  /// - Complexity: O(*d*) for a domain of *d* decades.
  var ticks: [Double] {
    let first = Int(ceil(lowerExponent - 1e-9))
    let last = Int(floor(upperExponent + 1e-9))
    guard first <= last else { return [] }
    let span = upperExponent - lowerExponent
    let step = span > 12 ? 2 : 1
    var ticks: [Double] = []
    for exponent in stride(from: first, through: last, by: step) {
      let power = pow(10, Double(exponent))
      ticks.append(power)
      if span < 2 {
        for multiple in [2.0, 5.0] where log10(power * multiple) <= upperExponent + 1e-9 {
          ticks.append(power * multiple)
        }
      }
    }
    return ticks
  }
}
