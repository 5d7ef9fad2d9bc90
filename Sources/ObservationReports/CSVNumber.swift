/// Formats a number for the CSV: up to three decimals, no exponent.
import Foundation

package func csvNumber(_ value: Double?) -> String {
  guard let value, value.isFinite else { return "" }
  if value == value.rounded() && abs(value) < 1e15 { return String(Int64(value)) }
  var text = String(format: "%.3f", value)
  while text.hasSuffix("0") { text.removeLast() }
  if text.hasSuffix(".") { text.removeLast() }
  return text
}
