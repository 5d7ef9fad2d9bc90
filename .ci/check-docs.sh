#!/usr/bin/env bash
# Builds the DocC documentation of every Swift library target with warnings as errors, and
# fails if any target has a warning (a broken symbol link, most often), naming each one.
#
# The targets come from the manifest: every `regular` target of a library product that has
# Swift sources (C targets have no symbols to document; executables and tests are not
# products' library targets). Adding a library product to Package.swift adds it here.
# Usage: .ci/check-docs.sh [TARGET...]   (default: every such target)
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "$#" -gt 0 ]; then
  targets=("$@")
else
  mapfile -t targets < <(swift package dump-package | python3 -c '
import json, pathlib, sys

package = json.load(sys.stdin)
kinds = {target["name"]: target for target in package["targets"]}
seen = []
for product in package["products"]:
    if "library" not in product["type"]:
        continue
    for name in product["targets"]:
        target = kinds[name]
        path = pathlib.Path(target.get("path") or f"Sources/{name}")
        if target["type"] == "regular" and any(path.rglob("*.swift")) and name not in seen:
            seen.append(name)
print("\n".join(seen))
')
fi

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# All targets in one invocation first: one build of the symbol graphs and one start of the
# plugin (16 targets: 26 s here, against 79 s one by one). With warnings as errors, docc fails
# on the first warning; only then are the targets built one by one, each with a diagnostics
# file, to name every warning with its path and line.
target_options=()
for target in "${targets[@]}"; do target_options+=(--target "$target"); done
if swift package generate-documentation "${target_options[@]}" --warnings-as-errors \
  > "$work/all.log" 2>&1; then
  echo "${#targets[@]} targets, 0 warnings: ${targets[*]}"
  exit 0
fi
echo "the documentation of ${#targets[@]} targets built together failed; each target alone:"

failed=0
for target in "${targets[@]}"; do
  # The plugin passes the options it does not know to `docc convert`. With a diagnostics file,
  # docc prints each diagnostic on one line, path:line:column first.
  if swift package generate-documentation --target "$target" --warnings-as-errors \
    --diagnostics-file "$work/$target.json" > "$work/$target.log" 2>&1; then
    status=0
  else
    status=$?
  fi
  if ! [ -f "$work/$target.json" ]; then
    # docc never ran: the build or the plugin failed.
    cat "$work/$target.log"
    echo "$target: no documentation (exit status $status)"
    failed=1
    continue
  fi
  count=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["diagnostics"]))' \
    "$work/$target.json")
  echo "$target: $count warnings"
  if [ "$count" -ne 0 ] || [ "$status" -ne 0 ]; then
    grep -E ': (warning|error): ' "$work/$target.log" | sed 's/^/  /' || cat "$work/$target.log"
    failed=1
  fi
done
if [ "$failed" -eq 0 ]; then
  cat "$work/all.log"
  echo "each target's documentation builds alone, but not all of them together (above)"
  exit 1
fi
exit "$failed"
