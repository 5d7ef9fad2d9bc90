#!/usr/bin/env python3
"""Checks what `observatory export` wrote from one report, against the services' own formats
and against the report itself:

- BENCHER.json (`--format bencher`) is valid against the Bencher Metric Format's published
  JSON schema (.ci/schemas/bmf.json, https://bencher.dev/bmf.json); every benchmark name is at
  most 1024 characters and every measure slug at most 64, as Bencher accepts;
- GHAB.json (`--format github-action-benchmark`) is valid against
  .ci/schemas/github-action-benchmark-custom.json, written from the action's `BenchmarkResult`;
- both round-trip: every measured cell of REPORT.csv (status `ok` or `ok-no-memory`, parsed
  here with the csv module, not the tool's reader) appears exactly once, under the name the
  tool documents, with its cost as the value (`ns_median` for time, `instructions_per_op` for
  instructions), and nothing else appears; where bounds are given they bracket the value.

Exit status 0 when every check passes; 1 with one line per failure otherwise.

    python3 .ci/check-export.py REPORT.csv BENCHER.json GHAB.json

Needs the `jsonschema` package (Debian: apt-get install -y python3-jsonschema).
"""

import csv
import json
import math
import os
import sys

import jsonschema

SCHEMAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "schemas")


def benchmark_name(row):
    """The name `Cell.benchmarkName` gives a row's cell."""
    parts = [row["backend"], row["workload"], row["pattern"], "n=" + row["n"]]
    if row["depth"] != "0":
        parts.append("depth=" + row["depth"])
    if row.get("threads", "1") != "1":
        parts.append("threads=" + row["threads"])
    parts.append("allocator=" + row["allocator"])
    return "/".join(parts)


def measured_costs(path):
    """{name: (metric, cost)} for every measured row of the report at `path`."""
    with open(path, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    costs = {}
    for row in rows:
        if row["status"] not in ("ok", "ok-no-memory"):
            continue
        metric = row.get("metric") or "time"
        cost = float(row["instructions_per_op"] if metric == "instructions" else row["ns_median"])
        costs[benchmark_name(row)] = (metric, cost)
    return costs, len(rows)


def load(path):
    with open(path, encoding="utf-8") as file:
        return json.load(file)


def schema_errors(document, schema_file):
    with open(os.path.join(SCHEMAS, schema_file), encoding="utf-8") as file:
        schema = json.load(file)
    validator = jsonschema.Draft7Validator(schema)
    return [
        f"{schema_file}: {'/'.join(map(str, error.absolute_path)) or '(top)'}: {error.message}"
        for error in sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    ]


def check_bencher(document, costs):
    failures = schema_errors(document, "bmf.json")
    if failures:
        return failures
    measures = {"time": "latency", "instructions": "instructions"}
    for name, metrics in document.items():
        if len(name) > 1024:
            failures.append(f"bencher: benchmark name longer than 1024 characters: {name[:60]}...")
        for slug in metrics:
            if len(slug) > 64:
                failures.append(f"bencher: {name}: measure slug longer than 64 characters: {slug}")
        if name not in costs:
            failures.append(f"bencher: {name}: no measured cell of the report has this name")
            continue
        metric, cost = costs[name]
        measure = metrics.get(measures[metric])
        if measure is None:
            failures.append(f"bencher: {name}: no '{measures[metric]}' measure")
            continue
        if measure["value"] != cost:
            failures.append(f"bencher: {name}: value {measure['value']}, the report's cost {cost}")
        lower = measure.get("lower_value", measure["value"])
        upper = measure.get("upper_value", measure["value"])
        if not lower <= measure["value"] <= upper:
            failures.append(f"bencher: {name}: bounds {lower}..{upper} miss the value")
        for slug, values in metrics.items():
            if not all(math.isfinite(v) for v in values.values()):
                failures.append(f"bencher: {name}: {slug}: a number that is not finite")
    for name in costs.keys() - document.keys():
        failures.append(f"bencher: {name}: a measured cell of the report is missing")
    return failures


def check_github(entries, costs):
    failures = schema_errors(entries, "github-action-benchmark-custom.json")
    if failures:
        return failures
    units = {"time": "ns", "instructions": "instructions"}
    seen = set()
    for entry in entries:
        name = entry["name"]
        if name in seen:
            failures.append(f"github-action-benchmark: {name}: appears more than once")
        seen.add(name)
        if name not in costs:
            failures.append(f"github-action-benchmark: {name}: no measured cell has this name")
            continue
        metric, cost = costs[name]
        if entry["value"] != cost:
            failures.append(
                f"github-action-benchmark: {name}: value {entry['value']}, the report's {cost}")
        if entry["unit"] != units[metric]:
            failures.append(
                f"github-action-benchmark: {name}: unit {entry['unit']}, expected {units[metric]}")
        if not math.isfinite(entry["value"]):
            failures.append(f"github-action-benchmark: {name}: a value that is not finite")
    for name in costs.keys() - seen:
        failures.append(f"github-action-benchmark: {name}: a measured cell of the report is missing")
    return failures


def main(arguments):
    if len(arguments) != 3:
        print(__doc__.strip().split("\n\n")[-2].strip(), file=sys.stderr)
        return 1
    report, bencher, github = arguments
    costs, rows = measured_costs(report)
    failures = check_bencher(load(bencher), costs) + check_github(load(github), costs)
    for failure in failures:
        print(failure)
    if failures:
        return 1
    print(f"export: {len(costs)} measured cells of {rows} in both formats, valid and complete")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
