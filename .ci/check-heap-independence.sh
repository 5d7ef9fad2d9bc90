#!/usr/bin/env bash
# Counts the two gate cells that a cell process's own heap moved most (array and linked-list
# subscribe at n = 16) twice: as the gate counts them, and with the cell process's main thread
# leaving a churned heap behind before the cell starts (OBSERVATORY_HEAP_CHURN blocks allocated,
# every other one freed). Fails unless every count is the same within 0.1% either way.
#
# A counted cell runs on a thread of its own, on an arena nothing else has used, so that what
# its process did before it (parsing arguments, above all) does not move its count. Before
# that, this churn moved array subscribe by 2.8% and linked-list subscribe by 0.5%, and an
# option added to the `cell` command moved array subscribe by 0.8%.
# Usage: .ci/check-heap-independence.sh OBSERVATORY   (a release build, valgrind on PATH)
set -euo pipefail
tool=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

cells=(--metric instructions --backend array,linked-list --workload subscribe --sizes 16 --quiet)
# Each run's one-line summary is shown only if it fails: CI shows the last lines of this
# background step, which should be the gate's verdict and this check's.
"$tool" run "${cells[@]}" --output "$work/plain.csv" 2> "$work/plain.log" \
  || { cat "$work/plain.log"; exit 1; }
OBSERVATORY_HEAP_CHURN=20000 "$tool" run "${cells[@]}" --output "$work/churned.csv" \
  2> "$work/churned.log" || { cat "$work/churned.log"; exit 1; }
# compare gates on growth only: both ways round catch a count that moved either way.
for pair in "plain.csv churned.csv" "churned.csv plain.csv"; do
  read -r base candidate <<< "$pair"
  if ! "$tool" compare "$work/$base" "$work/$candidate" --threshold 0.1 > "$work/compare.txt"; then
    cat "$work/compare.txt"
    echo "a churned heap before the cell moved its instruction count: the measured region" \
      "depends on what its process did before it"
    exit 1
  fi
done
echo "heap independence: the same counts with and without a churned heap before the cell"
