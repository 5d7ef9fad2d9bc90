"""Checks that the committed conformance matrix has the outcome a fresh run has, cell by cell.

Only (rule, backend, outcome) is compared: details such as an observed call order vary between
runs, outcomes must not. One exception: a THR rule that only probes a backend (the backend does
not declare the capability, usually threadSafe) reports what one run of concurrent use showed,
and an unsafe backend may show it in one run and not in the next; such a cell must be a probe
on both sides, observed or not.
"""
import csv
import sys

committed_path, fresh_path = sys.argv[1], sys.argv[2]


def cells(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return {(row["rule"], row["backend"]): row["outcome"] for row in csv.DictReader(handle)}


def same(rule, committed_outcome, fresh_outcome):
    if committed_outcome == fresh_outcome:
        return True
    probes = {"probe-observed", "probe-not-observed", "probe-not-seen-violated"}
    return rule.startswith("THR-") and committed_outcome in probes and fresh_outcome in probes


committed, fresh = cells(committed_path), cells(fresh_path)
problems = []
for key in sorted(set(committed) | set(fresh)):
    if not same(key[0], committed.get(key), fresh.get(key)):
        problems.append(f"  {key[0]} on {key[1]}: committed {committed.get(key)}, fresh run {fresh.get(key)}")
if problems:
    print(f"{committed_path} is out of date; regenerate it with")
    print("  swift run -c release observatory conformance --output-directory Results")
    print("\n".join(problems))
    sys.exit(1)
print(f"{committed_path}: all {len(fresh)} cells match a fresh run")
