#!/usr/bin/env bash
# No function of the project's C++ (collectives, sysc, tb, sim) is longer than 80 lines:
# clang-tidy's readability-function-size over every source the build compiles, from the
# build's compile_commands.json. A data table (a function whose body is one table) says so
# with `// NOLINT(readability-function-size): a data table` on its first line.
# Usage: check_function_size.sh SOURCE_DIR BUILD_DIR [CLANG_TIDY]
set -euo pipefail
src="$(cd "$1" && pwd)" build="$(cd "$2" && pwd)" tidy="${3:-clang-tidy}"
command -v "$tidy" > /dev/null || { echo "FAIL: $tidy not found (bash cmake/setup-debian.sh installs clang-tidy)"; exit 1; }
[ -f "$build/compile_commands.json" ] || { echo "FAIL: no $build/compile_commands.json"; exit 1; }
files=$(python3 - "$src" "$build/compile_commands.json" <<'PY'
import json, os, sys
src, db = sys.argv[1], json.load(open(sys.argv[2]))
dirs = tuple(os.path.join(src, d) + os.sep for d in ("collectives", "sysc", "tb", "sim"))
print("\n".join(sorted({e["file"] for e in db if e["file"].startswith(dirs)})))
PY
)
[ -n "$files" ] || { echo "FAIL: no project sources in the compile database"; exit 1; }
config='{Checks: "-*,readability-function-size", CheckOptions: [{key: readability-function-size.LineThreshold, value: 80}]}'
out=$(printf '%s\n' $files | xargs -P 2 -n 4 "$tidy" -p "$build" --quiet --config="$config" \
        --header-filter="^$src/(collectives|sysc|tb|sim)/" 2>/dev/null || true)
bad=$(grep -E "warning: function '.*' exceeds recommended size" <<<"$out" | sort -u || true)
if [ -n "$bad" ]; then
  echo "$bad" | sed "s|^$src/||"
  echo "FAIL: $(wc -l <<<"$bad") functions over 80 lines: split them into named stages"
  exit 1
fi
echo "PASS: $(wc -w <<<"$files") sources, no function over 80 lines"
