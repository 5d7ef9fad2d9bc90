"""Writes a hostile copy of a report and of a conformance matrix, for the browser check.

One backend is renamed to a name full of markup (a script element, quotes that would end an
attribute, an event handler, an ampersand) and each of its cells that is not `ok` and each matrix row gets a
note or details holding an element with an event handler. A page drawn from these copies must show
that text as text and run none of it: each payload would set `window.pwned`.

    python3 .ci/make-hostile-report.py REPORT.csv MATRIX.csv BACKEND OUT_REPORT.csv OUT_MATRIX.csv

Prints the hostile name and note, one per line, for `check-report.py --expect-text`.
"""

import csv
import sys

HOSTILE_NAME = "<script>window.pwned=1</script>\" onmouseover=\"window.pwned=4\" ' & <b>bold</b>"
HOSTILE_NOTE = "<img src=x onerror=\"window.pwned=2\"> a note with <i>markup</i>"


def rewrite(source, target, backend, text_column, takes_text):
    with open(source, newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
        fields = list(rows[0].keys()) if rows else []
    renamed = noted = 0
    for row in rows:
        if row["backend"] == backend:
            row["backend"] = HOSTILE_NAME
            renamed += 1
            if takes_text(row):
                row[text_column] = HOSTILE_NOTE
                noted += 1
    if renamed == 0 or noted == 0:
        sys.exit(f"{source}: no row of backend '{backend}' that takes a {text_column}")
    with open(target, "w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=fields, lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)


report, matrix, backend, out_report, out_matrix = sys.argv[1:6]
# A report's note belongs to a cell that is not `ok` (capped, invalid, failed); a matrix row's
# details to any outcome.
rewrite(report, out_report, backend, "note", lambda row: row["status"] != "ok")
rewrite(matrix, out_matrix, backend, "details", lambda row: True)
print(HOSTILE_NAME)
print(HOSTILE_NOTE)
