"""Checks that a documentation page's example is a compiled source file, verbatim.

The page marks the example with `<!-- example: PATH -->` on the line before its ```swift fence.
"""
import sys

page_path, source_path = sys.argv[1], sys.argv[2]
lines = open(page_path, encoding="utf-8").read().split("\n")
marker = f"<!-- example: {source_path} -->"
try:
    start = lines.index(marker)
except ValueError:
    sys.exit(f"{page_path}: no line '{marker}' marking the example")
if lines[start + 1] != "```swift":
    sys.exit(f"{page_path}:{start + 2}: expected ```swift after the example marker")
end = lines.index("```", start + 2)
example = "\n".join(lines[start + 2 : end]) + "\n"
source = open(source_path, encoding="utf-8").read()
if example != source:
    import difflib

    sys.stdout.writelines(
        difflib.unified_diff(
            source.splitlines(True), example.splitlines(True), source_path, page_path
        )
    )
    sys.exit(f"{page_path}:{start + 3}: the example differs from {source_path}")
print(f"{page_path}: example matches {source_path} ({end - start - 2} lines)")
