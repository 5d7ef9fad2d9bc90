import Foundation

/// JSON as the tool prints it: keys sorted, indented, slashes unescaped, a final newline.
package enum JSONText {
  /// `value` as JSON text.
  ///
  /// - Throws: `EncodingError` for a value JSON cannot hold (a non-finite number).
  package static func encode(_ value: some Encodable) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    return String(decoding: try encoder.encode(value), as: UTF8.self) + "\n"
  }
}
