import Foundation

/// The ratio of two samples' typical values with a distribution-free confidence interval.
///
/// Works on logarithms, where a ratio is a shift: the estimate is the Hodges–Lehmann shift
/// (the median of every difference `log(candidate_i) - log(base_j)`), and the interval is the
/// range of those differences between the order statistics that the Mann–Whitney test's exact
/// null distribution picks for the confidence asked. It assumes only that the two samples
/// differ by a shift, so one wild process (a slow moment of the machine, an unlucky memory
/// layout) moves it by one rank, not by its size; with 8 samples a side it is exact where a
/// bootstrap of so few values is too narrow.
package struct RatioEstimate: Equatable {
  /// The estimated ratio candidate / base.
  package var ratio: Double
  package var lower: Double
  package var upper: Double

  /// `nil` when a side has no values, a value is not positive, or the samples are too small
  /// for an interval of `confidence` (4 a side give at most 97%).
  ///
  /// - Complexity: O(*mn* log *mn* + *m*²*n*²) for *m* and *n* values; the second term is the
  ///   exact null distribution, replaced by its normal approximation beyond 2,500 pairs.
  package init?(base: [Double], candidate: [Double], confidence: Double = 0.95) {
    guard !base.isEmpty, !candidate.isEmpty,
      base.allSatisfy({ $0 > 0 && $0.isFinite }), candidate.allSatisfy({ $0 > 0 && $0.isFinite })
    else { return nil }
    let logBase = base.map(Foundation.log)
    let logCandidate = candidate.map(Foundation.log)
    var differences: [Double] = []
    differences.reserveCapacity(base.count * candidate.count)
    for c in logCandidate { for b in logBase { differences.append(c - b) } }
    differences.sort()
    let count = differences.count
    let middle =
      count.isMultiple(of: 2)
      ? (differences[count / 2 - 1] + differences[count / 2]) / 2 : differences[count / 2]
    // The largest k with P(U < k) <= (1 - confidence) / 2 under the null; the interval runs
    // from the k-th smallest difference to the k-th largest (1-based).
    guard
      let k = Self.criticalCount(
        m: candidate.count, n: base.count, tail: (1 - confidence) / 2), k >= 1
    else { return nil }
    ratio = exp(middle)
    lower = exp(differences[k - 1])
    upper = exp(differences[count - k])
  }

  /// The typical ratio of paired measurements, each pair made at nearly the same moment, with
  /// a distribution-free confidence interval.
  ///
  /// On logarithms again: the estimate is the one-sample Hodges–Lehmann value (the median of
  /// the Walsh averages, `(log r_i + log r_j) / 2` for every i <= j), and the interval is the
  /// range between the order statistics the Wilcoxon signed-rank test's exact null
  /// distribution picks. It assumes the logarithms are symmetric about their centre, not that
  /// they are normal: one pair spoilt by a burst of load moves it by one rank.
  ///
  /// - Parameter ratios: one candidate / base ratio per independent pair (for `ab`, per round
  ///   of two processes).
  /// - Returns: `nil` when a ratio is not positive and finite, or there are too few for an
  ///   interval of `confidence` (6 give at most 96.9%).
  /// - Complexity: O(*n*² log *n*) for *n* ratios.
  package init?(pairedRatios ratios: [Double], confidence: Double = 0.95) {
    guard !ratios.isEmpty, ratios.allSatisfy({ $0 > 0 && $0.isFinite }) else { return nil }
    let logs = ratios.map(Foundation.log)
    var averages: [Double] = []
    averages.reserveCapacity(logs.count * (logs.count + 1) / 2)
    for i in logs.indices { for j in i..<logs.count { averages.append((logs[i] + logs[j]) / 2) } }
    averages.sort()
    guard
      let k = Self.signedRankCriticalCount(n: logs.count, tail: (1 - confidence) / 2), k >= 1
    else { return nil }
    let count = averages.count
    let middle =
      count.isMultiple(of: 2)
      ? (averages[count / 2 - 1] + averages[count / 2]) / 2 : averages[count / 2]
    ratio = exp(middle)
    lower = exp(averages[k - 1])
    upper = exp(averages[count - k])
  }

  /// The number of Walsh averages to cut from each end: the largest k such that the Wilcoxon
  /// signed-rank statistic of `n` pairs is below k with probability at most `tail` when the
  /// pairs are centred on zero.
  ///
  /// - Complexity: O(*n*³), exact for any *n* this tool uses.
  package static func signedRankCriticalCount(n: Int, tail: Double) -> Int? {
    guard n >= 1 else { return nil }
    // counts[w]: the subsets of {1, ..., n} whose sum is w, i.e. the sign patterns giving the
    // statistic w.
    let maximum = n * (n + 1) / 2
    var counts = [Double](repeating: 0, count: maximum + 1)
    counts[0] = 1
    for rank in 1...n {
      for w in stride(from: maximum, through: rank, by: -1) { counts[w] += counts[w - rank] }
    }
    return cutCount(counts, tail: tail)
  }

  /// The number of pairs to cut from each end: the largest k such that the Mann–Whitney
  /// statistic U of samples of `m` and `n` is below k with probability at most `tail` when
  /// both come from one distribution.
  static func criticalCount(m: Int, n: Int, tail: Double) -> Int? {
    let pairs = m * n
    if pairs > 2500 {
      // Normal approximation.
      let mean = Double(pairs) / 2
      let deviation = (Double(pairs) * Double(m + n + 1) / 12).squareRoot()
      let z = normalQuantile(1 - tail)
      let k = Int((mean - z * deviation).rounded(.down))
      return k >= 1 ? k : nil
    }
    // Exact: the number of arrangements with each value of U, by recursion on (m, n).
    var table = [[[Double]]](
      repeating: [[Double]](repeating: [], count: n + 1), count: m + 1)
    for i in 0...m {
      for j in 0...n {
        if i == 0 || j == 0 {
          table[i][j] = [1]
          continue
        }
        // Either the largest value is from the first sample (it beats all j of the second)
        // or from the second.
        var counts = [Double](repeating: 0, count: i * j + 1)
        for (u, ways) in table[i - 1][j].enumerated() { counts[u + j] += ways }
        for (u, ways) in table[i][j - 1].enumerated() { counts[u] += ways }
        table[i][j] = counts
      }
    }
    return cutCount(table[m][n], tail: tail)
  }

  /// Given how many arrangements give each value 0, 1, ... of a rank statistic, one more than
  /// the largest value whose lower tail probability is at most `tail`; `nil` if even the
  /// smallest value is more likely than that.
  private static func cutCount(_ counts: [Double], tail: Double) -> Int? {
    let total = counts.reduce(0, +)
    var cumulative = 0.0
    var k = 0
    for (value, ways) in counts.enumerated() {
      cumulative += ways
      if cumulative / total > tail { break }
      k = value + 1
    }
    return k >= 1 ? k : nil
  }

  /// The standard normal quantile (Acklam's rational approximation, relative error < 1.2e-9).
  static func normalQuantile(_ p: Double) -> Double {
    let a = [
      -3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
      1.383577518672690e+02, -3.066479806614716e+01, 2.506628277459239e+00,
    ]
    let b = [
      -5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
      6.680131188771972e+01, -1.328068155288572e+01,
    ]
    let c = [
      -7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
      -2.549732539343734e+00, 4.374664141464968e+00, 2.938163982698783e+00,
    ]
    let d = [
      7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
      3.754408661907416e+00,
    ]
    let low = 0.02425
    if p < low {
      let q = (-2 * Foundation.log(p)).squareRoot()
      return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5])
        / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1)
    }
    if p > 1 - low { return -normalQuantile(1 - p) }
    let q = p - 0.5
    let r = q * q
    return (((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q
      / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1)
  }
}
