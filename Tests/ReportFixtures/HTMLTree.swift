/// A small HTML parser for the pages `observatory report` writes, so that tests can check
/// their structure (elements, attributes, text) rather than their bytes.
///
/// It tokenizes as a browser does for the markup the page uses: start and end tags with
/// quoted, unquoted or bare attributes, self-closing SVG elements, void elements, raw text
/// in `script` and `style`, comments, the doctype, and character references in text and
/// attributes. An end tag that does not close the innermost open element is an error: the
/// page must nest properly, or a browser would repair it into another tree.
package struct HTMLTree {
  /// One element: its name, attributes and children.
  package final class Element {
    package let name: String
    package let attributes: [String: String]
    package var children: [Node] = []
    package weak var parent: Element?

    package init(name: String, attributes: [String: String]) {
      self.name = name
      self.attributes = attributes
    }

    /// Its classes.
    package var classes: Set<String> {
      Set((attributes["class"] ?? "").split(separator: " ").map(String.init))
    }

    /// The text of it and its descendants, character references decoded.
    package var text: String {
      children.map { child in
        switch child {
        case .text(let text): return text
        case .element(let element): return element.text
        }
      }.joined()
    }

    /// Its descendants named `name` (any name if `nil`) having every class in `classes`, in
    /// document order.
    package func all(_ name: String? = nil, classes: Set<String> = []) -> [Element] {
      var found: [Element] = []
      for case .element(let child) in children {
        if (name == nil || child.name == name) && classes.isSubset(of: child.classes) {
          found.append(child)
        }
        found += child.all(name, classes: classes)
      }
      return found
    }

    /// Its children that are elements named `name`.
    package func childElements(_ name: String) -> [Element] {
      children.compactMap { child in
        if case .element(let element) = child, element.name == name { return element }
        return nil
      }
    }
  }

  /// A child of an element.
  package enum Node {
    case element(Element)
    case text(String)
  }

  /// Why a text is not a page this parser accepts.
  package struct ParseError: Error, CustomStringConvertible {
    package let description: String
  }

  /// The document: a root holding the `html` element.
  package let root = Element(name: "#document", attributes: [:])

  package static let voidElements: Set<String> = [
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr",
  ]
  package static let rawTextElements: Set<String> = ["script", "style"]

  package init(_ html: String) throws {
    let scalars = Array(html.unicodeScalars)
    var index = 0
    var open: [Element] = [root]
    var text = ""
    func flushText() {
      guard !text.isEmpty else { return }
      open.last!.children.append(.text(Self.decode(text)))
      text = ""
    }
    func starts(with prefix: String, at position: Int) -> Bool {
      let prefixScalars = Array(prefix.unicodeScalars)
      guard position + prefixScalars.count <= scalars.count else { return false }
      return zip(scalars[position...], prefixScalars).allSatisfy {
        String($0).lowercased() == String($1).lowercased()
      }
    }
    func isNameCharacter(_ scalar: Unicode.Scalar) -> Bool {
      scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-"
        || scalar == ":" || scalar == "_"
    }
    while index < scalars.count {
      let scalar = scalars[index]
      guard scalar == "<" else {
        text.unicodeScalars.append(scalar)
        index += 1
        continue
      }
      if starts(with: "<!--", at: index) {
        flushText()
        var end = index + 4
        while end < scalars.count && !starts(with: "-->", at: end) { end += 1 }
        index = end + 3
        continue
      }
      if starts(with: "<!", at: index) {
        flushText()
        while index < scalars.count && scalars[index] != ">" { index += 1 }
        index += 1
        continue
      }
      let closing = index + 1 < scalars.count && scalars[index + 1] == "/"
      let nameStart = index + (closing ? 2 : 1)
      guard nameStart < scalars.count, scalars[nameStart].properties.isAlphabetic else {
        // A `<` that starts no tag is text, as in a browser.
        text.unicodeScalars.append(scalar)
        index += 1
        continue
      }
      flushText()
      var position = nameStart
      var name = ""
      while position < scalars.count && isNameCharacter(scalars[position]) {
        name.unicodeScalars.append(scalars[position])
        position += 1
      }
      name = name.lowercased()
      var attributes: [String: String] = [:]
      var selfClosing = false
      while position < scalars.count && scalars[position] != ">" {
        let current = scalars[position]
        if current == "/" {
          selfClosing = true
          position += 1
          continue
        }
        if current.properties.isWhitespace {
          position += 1
          continue
        }
        var attribute = ""
        while position < scalars.count && !scalars[position].properties.isWhitespace
          && scalars[position] != "=" && scalars[position] != ">" && scalars[position] != "/"
        {
          attribute.unicodeScalars.append(scalars[position])
          position += 1
        }
        var value = ""
        if position < scalars.count && scalars[position] == "=" {
          position += 1
          if position < scalars.count && (scalars[position] == "\"" || scalars[position] == "'") {
            let quote = scalars[position]
            position += 1
            while position < scalars.count && scalars[position] != quote {
              value.unicodeScalars.append(scalars[position])
              position += 1
            }
            position += 1
          } else {
            while position < scalars.count && !scalars[position].properties.isWhitespace
              && scalars[position] != ">"
            {
              value.unicodeScalars.append(scalars[position])
              position += 1
            }
          }
        }
        attributes[attribute.lowercased()] = Self.decode(value)
        selfClosing = false
      }
      index = position + 1
      if closing {
        guard open.count > 1, open.last!.name == name else {
          throw ParseError(
            description: "</\(name)> closes <\(open.last!.name)> (nesting is broken)")
        }
        open.removeLast()
        continue
      }
      let element = Element(name: name, attributes: attributes)
      element.parent = open.last
      open.last!.children.append(.element(element))
      if Self.voidElements.contains(name) || selfClosing { continue }
      if Self.rawTextElements.contains(name) {
        var end = index
        while end < scalars.count && !starts(with: "</\(name)", at: end) { end += 1 }
        var raw = ""
        raw.unicodeScalars.append(contentsOf: scalars[index..<end])
        element.children.append(.text(raw))
        index = end
        open.append(element)
        continue
      }
      open.append(element)
    }
    flushText()
    guard open.count == 1 else {
      throw ParseError(description: "<\(open.last!.name)> is never closed")
    }
  }

  /// Every element named `name` (any if `nil`) with every class in `classes`.
  package func all(_ name: String? = nil, classes: Set<String> = []) -> [Element] {
    root.all(name, classes: classes)
  }

  /// Text with its character references decoded: the five the page writes, and numeric ones.
  package static func decode(_ text: String) -> String {
    guard text.contains("&") else { return text }
    var result = ""
    var rest = Substring(text)
    while let ampersand = rest.firstIndex(of: "&") {
      result += rest[..<ampersand]
      let after = rest[ampersand...]
      guard let semicolon = after.firstIndex(of: ";"),
        after.distance(from: after.startIndex, to: semicolon) <= 10
      else {
        result += "&"
        rest = rest[rest.index(after: ampersand)...]
        continue
      }
      let name = String(after[after.index(after: after.startIndex)..<semicolon])
      let named = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'"]
      if let character = named[name] {
        result += character
      } else if name.hasPrefix("#x"), let code = UInt32(name.dropFirst(2), radix: 16),
        let scalar = Unicode.Scalar(code)
      {
        result.unicodeScalars.append(scalar)
      } else if name.hasPrefix("#"), let code = UInt32(name.dropFirst()),
        let scalar = Unicode.Scalar(code)
      {
        result.unicodeScalars.append(scalar)
      } else {
        result += "&" + name + ";"
      }
      rest = rest[rest.index(after: semicolon)...]
    }
    return result + rest
  }
}
