#!/usr/bin/env python3
"""Writes the seed corpora of the fuzz targets (Fuzzing/Corpus/<target>/seed-*) from the
committed results: small slices of every report schema in Results/ and Results/baselines/, of
the conformance matrix (both headers), cell requests and replies as a sweep makes them, and
numbers at the edges of the Double range. Run from the package's root:

    python3 Fuzzing/make-seeds.py

Seeds are small on purpose: libFuzzer's inputs grow from them, and an input of 400 KB would
make every execution slow. The files the fuzzer found (crash-*, finding-*) are kept beside the
seeds and never rewritten here.
"""
import csv
import glob
import io
import os
import random
import struct

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "Fuzzing", "Corpus")


def write(target, name, data):
    directory = os.path.join(CORPUS, target)
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "seed-" + name), "wb") as file:
        file.write(data if isinstance(data, bytes) else data.encode())


def slice_report(path, rows=10):
    """The header, a few measured rows and every reference row at one size."""
    with open(path, newline="") as file:
        records = list(csv.reader(file))
    header, body = records[0], records[1:]
    backend = header.index("backend")
    n = header.index("n")
    kept = body[:rows]
    kept += [r for r in body if r[backend].startswith("reference") and r[n] == "1024"
             and r not in kept][:4]
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([header] + kept)
    return out.getvalue(), header, kept


def main():
    reports = sorted(glob.glob(os.path.join(ROOT, "Results", "*.csv")))
    reports = [p for p in reports if not p.endswith("conformance.csv")]
    reports += [os.path.join(ROOT, "Results", "baselines", "instructions.csv")]
    schemas = {}
    for path in reports:
        text, header, kept = slice_report(path)
        schema = kept[0][0] if kept else "?"
        # One seed per schema and kind of sweep is enough for the reader.
        key = (schema, os.path.basename(os.path.dirname(path)))
        if key in schemas:
            continue
        schemas[key] = (text, header, kept)
        write("report-reader", f"schema-{schema}-{os.path.basename(path)}", text)
    # Extreme but valid times in one measured row: the crash of issue 59.
    text, header, kept = schemas[max(schemas)]
    for label, value in [("largest", "1.7976931348623157e308"), ("subnormal", "5e-324")]:
        row = list(kept[0])
        for index, name in enumerate(header):
            if name.startswith("ns_") and row[index] != "":
                row[index] = value
        out = io.StringIO()
        csv.writer(out, lineterminator="\n").writerows([header, row] + kept[1:4])
        write("report-reader", f"extreme-{label}", out.getvalue())
    # A series: two reports of one machine and one of another, form-feed separated.
    series = [schemas[key][0] for key in sorted(schemas)][-3:]
    for mode in (b"\x02", b"\x82"):
        write("report-series", f"three-reports-mode-{mode[0]:02x}", mode + b"\x0c\n".join(s.encode() for s in series))
    # The conformance matrix: a slice with traits, and one without (the older header).
    with open(os.path.join(ROOT, "Results", "conformance.csv"), newline="") as file:
        matrix = list(csv.reader(file))
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows(matrix[:40])
    write("conformance-matrix", "with-traits", out.getvalue())
    traits = matrix[0].index("traits")
    out = io.StringIO()
    csv.writer(out, lineterminator="\n").writerows([r[:traits] + r[traits + 1:] for r in matrix[:20]])
    write("conformance-matrix", "without-traits", out.getvalue())
    # Cell requests as a sweep writes them, NUL-separated.
    for name, arguments in {
        "notify": ["--protocol", "2", "--backend", "array", "--workload", "notify", "--n", "1024",
                   "--repetitions", "9", "--budget", "1"],
        "contended": ["--protocol", "2", "--backend", "dense", "--workload", "contended-notify",
                      "--n", "16", "--threads", "4", "--repetitions", "3", "--budget", "1",
                      "--seed", "24301", "--metric", "instructions"],
        "nested": ["--protocol", "2", "--backend", "key-path", "--workload", "nested", "--n", "1",
                   "--depth", "3", "--repetitions", "1", "--budget", "0.5", "--scale", "2.5"],
    }.items():
        write("cell-request", name, "\0".join(arguments))
    # Cell replies: what a cell process prints.
    write("cell-reply", "timed", '{"nanosecondsPerOperation":[4.37,4.41,4.39],"measuredOperations":3000,'
          '"instructionsPerOperation":[],"d1MissesPerOperation":[],"llMissesPerOperation":[]}')
    write("cell-reply", "empty", "{}")
    # Numbers at the edges: zero, the extremes, a subnormal, rounding edges, infinities, NaN.
    edges = [0.0, -0.0, 1.7976931348623157e308, 5e-324, 2.2250738585072014e-308, 999.6, 999.5,
             9.995, 1e15, 1e6, 0.0004, float("inf"), float("-inf"), float("nan"), -4.37, 1.0]
    write("readable-numbers", "edges", b"".join(struct.pack(">d", v) for v in edges))
    # The model targets: a rule byte (odd: DIFF-02 on the key-path backend), a length byte,
    # then the script's choices, random from a fixed seed.
    generator = random.Random(59)
    for target in ["model-linked-list", "model-dense", "model-key-path"]:
        for index, length in enumerate([7, 40, 119, 255]):
            rule = index % 2 if target == "model-key-path" else 0
            choices = bytes(generator.getrandbits(8) for _ in range(64))
            write(target, f"random-{index}", bytes([rule, length]) + choices)


if __name__ == "__main__":
    main()
