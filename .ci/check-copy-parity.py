"""Checks that a verbatim copy of a built-in backend counts the instructions the original does.

The example package's `array-copy` is `Sources/ArrayBackend` under another name, in another
package. The harness binds it through the same public initializer as the built-in `array`, so
in one instructions report every cell of the copy must be within 1% of the original's: more
would mean that the harness charges a third party's backend for something an app would not pay.
"""
import csv
import sys

TOLERANCE = 0.01
path, original, copy = sys.argv[1], "array", "array-copy"
counts = {}
for row in csv.DictReader(open(path, encoding="utf-8")):
    if row["metric"] == "instructions" and row["status"].startswith("ok"):
        key = (row["workload"], row["pattern"], row["n"])
        counts[(row["backend"], key)] = float(row["instructions_per_op"])
keys = sorted({key for backend, key in counts if backend == original})
problems, compared = [], 0
for key in keys:
    if (copy, key) not in counts:
        problems.append(f"{copy} has no measured row for {' '.join(key)}")
        continue
    ratio = counts[(copy, key)] / counts[(original, key)]
    compared += 1
    print(f"{' '.join(k for k in key if k != '-')}: {copy}/{original} = {ratio:.4f}")
    if abs(ratio - 1) > TOLERANCE:
        problems.append(f"{' '.join(key)}: {copy} counts {ratio:.4f} times {original}'s instructions")
if not compared:
    problems.append(f"no {original} row with instruction counts")
if problems:
    sys.exit(f"{path}: " + "; ".join(problems))
print(f"{path}: {copy} within {TOLERANCE:.0%} of {original} in {compared} cells")
