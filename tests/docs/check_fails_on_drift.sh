#!/usr/bin/env bash
# The docs check fails on a drifted figure: a copy of a page whose first checked block has one
# figure changed must be refused, naming the page's line and both versions of the line.
# Usage: check_fails_on_drift.sh PYTHON CHECK_DOCS ARIES PAGE.md
set -euo pipefail
py="$1" check="$2" aries="$3" page="$4"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The first line of the first checked block that holds a number of two or more digits: that
# number's last digit d -> (d+1)%10.
"$py" - "$page" "$tmp/page.md" <<'PY'
import re, sys
lines = open(sys.argv[1]).read().split("\n")
inside = seen = False
for i, l in enumerate(lines):
    if "<!-- check:" in l:
        seen = True
    elif seen and l.startswith("```"):
        if inside:
            break
        inside = True
    elif inside and re.search(r"\d\d+", l):
        m = re.search(r"\d\d+", l)  # a figure (a cycle count, ...): its last digit + 1
        e = m.end() - 1
        lines[i] = l[:e] + str((int(l[e]) + 1) % 10) + l[e + 1:]
        print(f"edited line {i + 1}: {l!r} -> {lines[i]!r}")
        break
else:
    sys.exit("no checked block with a digit in " + sys.argv[1])
open(sys.argv[2], "w").write("\n".join(lines))
PY
set +e
out=$("$py" "$check" "$aries" "$tmp/page.md" 2>&1)
rc=$?
set -e
echo "$out"
[ "$rc" -eq 1 ] || { echo "FAIL: the check of the edited page exited $rc, expected 1"; exit 1; }
grep -q "the page says:" <<<"$out" || { echo "FAIL: no 'the page says:' line"; exit 1; }
grep -q "the run says:" <<<"$out" || { echo "FAIL: no 'the run says:' line"; exit 1; }
echo "PASS: the edited figure is refused"
