#!/usr/bin/env bash
# Records the allocation thresholds CI checks, from a run of every suite on this machine.
# Only the malloc count is kept: it is deterministic, while times and ARC counts vary by machine
# and load. Run it deliberately, after a change that is meant to allocate differently, and
# commit the result with the change.
set -euo pipefail
cd "$(dirname "$0")"
swift package --allow-writing-to-package-directory benchmark thresholds update \
  --path Thresholds --no-progress
python3 - <<'PY'
import glob, json
for path in glob.glob("Thresholds/*.json"):
    with open(path) as handle:
        recorded = json.load(handle)
    with open(path, "w") as handle:
        json.dump({"mallocCountTotal": recorded["mallocCountTotal"]}, handle, indent=2, sort_keys=True)
        handle.write("\n")
PY
