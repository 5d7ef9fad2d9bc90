"""Checks that the committed conformance matrix has the outcome a fresh run has, cell by cell.

Usage: check-matrix.py COMMITTED.csv FRESH.csv [--backends-of-fresh-run]

With --backends-of-fresh-run, the fresh run covered some backends only (`conformance --backend`)
and only their rows are compared; a backend of the fresh run missing from the committed matrix
is still a difference.

Only (rule, backend, outcome) is compared: details such as an observed call order vary between
runs, outcomes must not. One exception: a rule of concurrent use (its `traits` column says
`concurrent`) that only probes a backend (the backend does not declare the capability, usually
threadSafe) reports what one run of concurrent use showed, and an unsafe backend may show it in
one run and not in the next, or, in a run whose concurrent use never reached what the rule
checks, make it n/a; such a cell must be a probe on at least one side (which shows that the
backend does not declare the capability) and a probe or n/a on the other.

Both matrices must have the `traits` column: the rule's traits are asked of the files, never
read from its identifier.
"""
import csv
import sys

arguments = sys.argv[1:]
subset = "--backends-of-fresh-run" in arguments
paths = [argument for argument in arguments if argument != "--backends-of-fresh-run"]
if len(paths) != 2 or any(argument.startswith("--") for argument in paths):
    sys.exit("usage: check-matrix.py COMMITTED.csv FRESH.csv [--backends-of-fresh-run]")
committed_path, fresh_path = paths


concurrent_rules = set()


def cells(path):
    with open(path, newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        if "traits" not in (reader.fieldnames or []):
            sys.exit(f"{path}: no traits column; regenerate it with this build's conformance command")
        found = {}
        for row in reader:
            found[(row["rule"], row["backend"])] = row["outcome"]
            if "concurrent" in row["traits"].split():
                concurrent_rules.add(row["rule"])
        return found


def same(rule, committed_outcome, fresh_outcome):
    if committed_outcome == fresh_outcome:
        return True
    probes = {"probe-observed", "probe-not-observed", "probe-not-seen-violated"}
    outcomes = {committed_outcome, fresh_outcome}
    return rule in concurrent_rules and bool(outcomes & probes) and outcomes <= probes | {"n/a"}


committed, fresh = cells(committed_path), cells(fresh_path)
if subset:
    backends = {backend for (_, backend) in fresh}
    committed = {key: outcome for key, outcome in committed.items() if key[1] in backends}
problems = []
for key in sorted(set(committed) | set(fresh)):
    if not same(key[0], committed.get(key), fresh.get(key)):
        problems.append(f"  {key[0]} on {key[1]}: committed {committed.get(key)}, fresh run {fresh.get(key)}")
if problems:
    print(f"{committed_path} is out of date; regenerate it with")
    print("  .build/release/observatory conformance --output-directory Results")
    print("\n".join(problems))
    sys.exit(1)
scope = f" of {len({backend for (_, backend) in fresh})} backends" if subset else ""
print(f"{committed_path}: all {len(fresh)} cells{scope} match a fresh run")
