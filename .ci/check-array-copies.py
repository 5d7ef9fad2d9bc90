"""Checks that the example package's copies of the built-in array backend are still copies.

`Examples/ThirdPartyHarness` measures what packaging alone costs a backend outside Observatory
with two copies of `Sources/ArrayBackend`: `ArrayCopyBackend` (`array-copy`), renamed and
otherwise verbatim, and `OpaqueArrayCopyBackend` (`array-copy-opaque`), renamed and without
`@inlinable` or `@usableFromInline`. Their figures only mean that while the copies follow the
original, so each copy is derived here from the original and compared with what is committed.
"""
import difflib
import re
import sys

ORIGINAL = "Sources/ArrayBackend"
FILES = [
    "ArrayObservers.swift",
    "ArrayObservers._Entry.swift",
    "ArrayObservers.Token.swift",
    "ArrayStrategy.swift",
]


def renamed(text, prefix, name):
    text = text.replace("ArrayObservers", f"{prefix}ArrayCopyObservers")
    text = text.replace("ArrayStrategy", f"{prefix}ArrayCopyStrategy")
    return text.replace('"array"', f'"{name}"').replace("`array`", f"`{name}`")


def opaque(text, file):
    text = re.sub(r"^ *@(inlinable|usableFromInline)\n", "", text, flags=re.MULTILINE)
    text = re.sub(r"@(inlinable|usableFromInline) ", "", text)
    if file.endswith("._Entry.swift"):
        # Without @inlinable the explicit memberwise initializer is the synthesized one, which
        # swift format's UseSynthesizedInitializer rule asks to remove.
        text = re.sub(r"\n\n    internal init\(id:[^\n]*\{\n(?:      [^\n]*\n)*    \}\n", "\n", text)
    return text


copies = {
    "Examples/ThirdPartyHarness/Sources/ArrayCopyBackend": lambda text, file: renamed(
        text, "", "array-copy"
    ),
    "Examples/ThirdPartyHarness/Sources/OpaqueArrayCopyBackend": lambda text, file: opaque(
        renamed(text, "Opaque", "array-copy-opaque"), file
    ),
}
problems = 0
for directory, derive in copies.items():
    prefix = "Opaque" if "Opaque" in directory else ""
    for file in FILES:
        expected = derive(open(f"{ORIGINAL}/{file}", encoding="utf-8").read(), file)
        copy_path = f"{directory}/{file.replace('Array', f'{prefix}ArrayCopy', 1)}"
        actual = open(copy_path, encoding="utf-8").read()
        if actual != expected:
            problems += 1
            sys.stdout.writelines(
                difflib.unified_diff(
                    expected.splitlines(True), actual.splitlines(True), "derived", copy_path
                )
            )
if problems:
    sys.exit(f"{problems} copied files differ from {ORIGINAL}: copy the change by this script's rules")
print(f"the array copies follow {ORIGINAL} ({len(copies) * len(FILES)} files)")
