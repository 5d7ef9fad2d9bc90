#!/usr/bin/env bash
# History kept across CI runs, end to end, as Examples/GitHubActions/observatory.yml keeps it:
# a bare repository stands in for the repository's `observatory-history` branch. Three runs of
# one runner, counting instructions (the same counts every time, so the step is deterministic):
# the second compares with the first and must find no regression (status 0); the third is a
# later commit that slowed `slot-array` (`slowed-third-party-observatory`) and must be called a
# regression (status 2). Then `history` and the trend page read every report kept.
#
#   .ci/check-history.sh TOOL BIN_DIRECTORY WORK_DIRECTORY
set -euo pipefail
cd "$(dirname "$0")/.."
tool=$1 bin=$2 work=$3
history=Examples/GitHubActions/history.sh
remote=$work/history.git
git init --quiet --bare "$remote"
runner=ci-runner
for run in 1 2 3; do
  measure=$bin/third-party-observatory
  [ "$run" -eq 3 ] && measure=$bin/slowed-third-party-observatory
  "$measure" run --quiet --backend slot-array --workload notify --sizes 16 \
    --metric instructions --output "$work/run-$run.csv"
  # What a pull request's job does: compare with the latest report of its base on this runner.
  rm -rf "$work/kept"
  "$history" fetch "$remote" observatory-history "$work/kept"
  latest=$("$history" latest "$work/kept" "$runner")
  if [ "$run" -eq 1 ]; then
    [ -z "$latest" ] || { echo "run 1: the new history already holds $latest"; exit 1; }
  else
    status=0
    "$tool" compare "$latest" "$work/run-$run.csv" > "$work/compare-$run.txt" || status=$?
    expected=$([ "$run" -eq 3 ] && echo 2 || echo 0)
    if [ "$status" -ne "$expected" ]; then
      cat "$work/compare-$run.txt"
      echo "run $run: compare with the latest kept report exited $status, expected $expected"
      exit 1
    fi
    echo "run $run against $(basename "$latest"): $(tail -n 1 "$work/compare-$run.txt")"
  fi
  # What a push to main does: keep the report.
  "$history" record "$remote" observatory-history "$runner" "$work/run-$run.csv" > /dev/null
done
rm -rf "$work/kept"
"$history" fetch "$remote" observatory-history "$work/kept"
kept=("$work/kept/$runner"/*.csv)
[ "${#kept[@]}" -eq 3 ] || { echo "the branch keeps ${#kept[@]} reports, expected 3"; exit 1; }
"$tool" history "${kept[@]}" --backend slot-array --workload notify --n 16 \
  --metric instructions > "$work/history.txt"
cat "$work/history.txt"
# One trend of three rows: no change, then the step the slowed commit made.
python3 - "$work/history.txt" <<'PY'
import re, sys
rows = [line.split() for line in open(sys.argv[1]) if re.match(r"\d{4}-\d\d-\d\d", line)]
changes = [row[-1] for row in rows]
if len(rows) != 3 or changes[0] != "-" or changes[1] != "+0.0%" or not re.fullmatch(
    r"\+\d+(\.\d+)?%", changes[2]) or float(changes[2][1:-1]) < 5:
    sys.exit(f"history: expected changes '-', '+0.0%', then a step of 5% or more; got {changes}")
PY
"$tool" report "${kept[@]}" --n 16 --output "$work/history.html"
