"""Checks that the example package's report measured its own backend next to the built-ins.

Every workload the outside backend `slot-array` can run must have measured rows (status `ok`),
as must `linked-list` and the reference rows, in one report of the usual schema.
"""
import csv
import sys

path = sys.argv[1]
rows = list(csv.DictReader(open(path, encoding="utf-8")))
ok = {}
for row in rows:
    if row["status"] == "ok":
        ok.setdefault(row["backend"], set()).add(row["workload"])
problems = []
for backend, workloads in {
    "slot-array": {"subscribe", "notify", "cancel", "churn", "fan-in", "erased-notify"},
    "linked-list": {"subscribe", "notify", "cancel"},
    "reference-c": {"notify", "subscribe", "cancel"},
    "reference-c-swift-handler": {"notify"},
    "reference-swift-closures": {"notify", "subscribe"},
}.items():
    missing = workloads - ok.get(backend, set())
    if missing:
        problems.append(f"{backend}: no measured row for {', '.join(sorted(missing))}")
if problems:
    sys.exit(f"{path}: " + "; ".join(problems))
print(f"{path}: {len(rows)} rows; slot-array measured on {len(ok['slot-array'])} workloads")
