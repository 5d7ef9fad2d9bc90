#!/usr/bin/env bash
# Runs every fuzz target of observatory-fuzz under libFuzzer and the address sanitizer for
# SECONDS_PER_TARGET seconds each (default 15), starting from a copy of its corpus in
# Fuzzing/Corpus/ (the repository's corpus is not written to). A finding (a trap, a broken
# property, a leak, a memory error) fails the run; its input is printed in base64 and left in
# the artifacts folder printed at the end.
#
#   .ci/fuzz.sh [SECONDS_PER_TARGET] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-15}
shift || true
scratch=$PWD/.build-fuzz
# The build CI's address sanitizer step shares (.ci/sanitizer-toolset.sh).
toolset=$(.ci/sanitizer-toolset.sh "$scratch")
swift build --toolset "$toolset" --scratch-path "$scratch" --disable-index-store \
  --product observatory-fuzz 2>&1 \
  | grep -v "Cannot export local symbol" | tail -n 3
fuzzer=$scratch/debug/observatory-fuzz
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  readarray -t targets < <(find Fuzzing/Corpus -mindepth 1 -maxdepth 1 -type d -printf '%f\n' | sort)
fi
work=$(mktemp -d)
status=0
for target in "${targets[@]}"; do
  mkdir -p "$work/$target/corpus" "$work/$target/artifacts"
  cp Fuzzing/Corpus/"$target"/* "$work/$target/corpus/"
  # Swift's own backtracer would handle the trap before libFuzzer, and its reader of the
  # crashed process's memory trips the address sanitizer.
  if SWIFT_BACKTRACE=enable=no OBSERVATORY_FUZZ_TARGET=$target "$fuzzer" "$work/$target/corpus" \
    -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
    -artifact_prefix="$work/$target/artifacts/" > "$work/$target/log" 2>&1; then
    printf '%-22s %s\n' "$target" "$(grep -a -m1 'stat::number_of_executed_units' "$work/$target/log" \
      | awk '{print $2 " executions"}'), $(grep -a 'INITED\|DONE' "$work/$target/log" | tail -n 1 \
      | grep -o 'cov: [0-9]*' ), $(ls "$work/$target/corpus" | wc -l) inputs in the corpus"
  else
    status=1
    echo "== $target: a finding"
    grep -a -v '^ *#[0-9]* 0x' "$work/$target/log" | grep -a -B2 -A12 'ERROR\|Fatal error\|finding' | head -n 60
    for file in "$work/$target/artifacts"/*; do
      [ -f "$file" ] && echo "input ($(basename "$file")), base64: $(base64 -w0 "$file" | head -c 4000)"
    done
  fi
done
echo "artifacts: $work"
exit $status
