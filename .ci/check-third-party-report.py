"""Checks that the example package's report measured its own backend next to the built-ins.

Every workload the outside backend `slot-array` can run must have measured rows (status `ok`),
as must `linked-list` and the reference rows, in one report of the usual schema; the report
says which rows are the reference rows (`row_kind`), and they are the harness's three, and
which sweep wrote it (`sweep`): a quick one narrowed to two backends, as CI runs it. Each
measured jemalloc row names the jemalloc its cell ran on (`allocator_version`), each system
row none. Every row says its tool carried the Swift runtime (`build`), as the README builds it.
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
    "reference-async-tasks": {"notify", "subscribe", "cancel"},
}.items():
    missing = workloads - ok.get(backend, set())
    if missing:
        problems.append(f"{backend}: no measured row for {', '.join(sorted(missing))}")
kinds = {}
for row in rows:
    kinds.setdefault(row.get("row_kind"), set()).add(row["backend"])
references = {
    "reference-c", "reference-c-swift-handler", "reference-swift-closures", "reference-async-tasks",
}
if kinds.get("reference") != references:
    problems.append(f"row_kind reference marks {sorted(kinds.get('reference', set()))}, not {sorted(references)}")
if not {"slot-array", "linked-list"} <= kinds.get("backend", set()):
    problems.append("row_kind backend does not mark slot-array and linked-list")
sweeps = {row.get("sweep") for row in rows}
if sweeps != {"quick-partial"}:
    problems.append(f"sweep says {sorted(map(str, sweeps))}, not ['quick-partial']")
builds = {row.get("build") for row in rows}
if builds != {"release-static-stdlib"}:
    problems.append(f"build says {sorted(map(str, builds))}, not ['release-static-stdlib']")
# A cell that never ran (n/a) or whose process failed has nothing to say; a measured one does.
versions = {row["allocator"]: set() for row in rows}
for row in rows:
    if row["status"] in ("ok", "ok-no-memory"):
        versions[row["allocator"]].add(row.get("allocator_version") or "")
if "" in versions.get("jemalloc", set()):
    problems.append("a measured jemalloc row has no allocator_version")
if versions.get("system", {""}) != {""}:
    problems.append(f"system rows name an allocator version: {sorted(versions['system'])}")
if problems:
    sys.exit(f"{path}: " + "; ".join(problems))
print(f"{path}: {len(rows)} rows; slot-array measured on {len(ok['slot-array'])} workloads;"
      f" jemalloc {', '.join(sorted(versions.get('jemalloc', {'-'})))}")
