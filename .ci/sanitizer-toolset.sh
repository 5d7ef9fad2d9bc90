#!/usr/bin/env bash
# Writes the toolset of the one build that both the fuzz targets (.ci/fuzz.sh) and CI's address
# sanitizer step use, into the scratch folder SCRATCH, and prints its path:
#
#   swift build --toolset "$(.ci/sanitizer-toolset.sh .build-fuzz)" --scratch-path .build-fuzz ...
#
# - `-sanitize=fuzzer,address` compiles every module with the address sanitizer and libFuzzer's
#   coverage, and links the sanitizer's runtime and libFuzzer into every executable. The C
#   targets get the same instrumentation (`fuzzer-no-link`: libFuzzer is linked once, by swiftc).
# - An executable keeps its own `main` (SwiftPM links `main` to the module's entry point), but
#   libFuzzer's archive also has a `main`, which needs `LLVMFuzzerTestOneInput`. The fuzz
#   executable defines it (CFuzzerDriver); `sanitizer-pass` and the tool do not fuzz, so the
#   linker defines it as 0 for every executable: libFuzzer's `main` never runs in any of them
#   (FuzzDriver starts the driver with its callback through `LLVMFuzzerRunDriver`).
# - lld: gold stops with an internal error formatting the sanitizer runtime's warnings.
# The same file each time, so that a second build with it compiles nothing again.
set -euo pipefail
scratch=${1:?usage: .ci/sanitizer-toolset.sh SCRATCH}
mkdir -p "$scratch"
toolset=$(cd "$scratch" && pwd)/sanitizer-toolset.json
cat > "$toolset.new" <<JSON
{
  "schemaVersion": "1.0",
  "swiftCompiler": {
    "extraCLIOptions": ["-sanitize=fuzzer,address", "-Xlinker", "--defsym=LLVMFuzzerTestOneInput=0"]
  },
  "cCompiler": { "extraCLIOptions": ["-fsanitize=fuzzer-no-link,address"] },
  "linker": { "path": "$(dirname "$(readlink -f "$(command -v swift)")")/ld.lld" }
}
JSON
if cmp -s "$toolset.new" "$toolset"; then rm "$toolset.new"; else mv "$toolset.new" "$toolset"; fi
echo "$toolset"
