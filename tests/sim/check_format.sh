#!/usr/bin/env bash
# Every C++ file the repository tracks is as clang-format (the repository's .clang-format:
# Google style, 100 columns) writes it; generated files (rtl/pkg/aries_regs.h, written by
# rtl/regs/gen_regs.py and checked by regs.generated_files_are_current) are left out.
# Usage: check_format.sh SOURCE_DIR [CLANG_FORMAT]
set -euo pipefail
. "$(dirname "$0")/lib_fail.sh"
src="$1"
fmt="${2:-clang-format}"
command -v "$fmt" > /dev/null || { echo "$fmt not found: bash cmake/setup-debian.sh installs it"; exit 1; }
cd "$src"
bad=0
while IFS= read -r f; do
  if ! "$fmt" --dry-run --Werror "$f" > /dev/null 2>&1; then
    echo "not formatted: $f (run: $fmt -i $f)"
    bad=$((bad + 1))
  fi
done < <(git ls-files '*.cc' '*.h' | grep -v '^rtl/pkg/aries_regs\.h$')
[ "$bad" -eq 0 ] || { echo "$bad files differ from clang-format"; exit 1; }
echo "every C++ file formatted"
