#!/usr/bin/env python3
"""The README's library table is what the build links.

Reads every project library and executable (add_library / add_executable of an `aries*` target
outside tests/) and the project libraries each links (target_link_libraries, any keyword), and
compares them with the table between `<!-- layers -->` and `<!-- /layers -->` in README.md:
one row per target (its folder column is for the reader and not checked) with the project
libraries it links. Also checks that the links point one way (no cycle). Exit 1 naming every
difference.
"""
import pathlib
import re
import sys

root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".")

built = {}  # target -> set of project libraries linked
for cm in sorted(root.rglob("CMakeLists.txt")):
    rel = cm.relative_to(root).parts
    if rel[0] in ("tests", "build") or "build" in rel[0]:
        continue
    text = re.sub(r"#[^\n]*", "", cm.read_text())
    for m in re.finditer(r"add_(?:library|executable)\(\s*(aries\w*)\b", text):
        built.setdefault(m.group(1), set())
    for m in re.finditer(r"target_link_libraries\(\s*(aries\w*)\s+([^)]*)\)", text, re.S):
        words = [w for w in m.group(2).split() if w not in ("PUBLIC", "PRIVATE", "INTERFACE")]
        built.setdefault(m.group(1), set()).update(w for w in words if w.startswith("aries_"))

readme = (root / "README.md").read_text()
m = re.search(r"<!-- layers -->(.*?)<!-- /layers -->", readme, re.S)
if not m:
    sys.exit("README.md: no <!-- layers --> table")
table = {}
for line in m.group(1).splitlines():
    cells = [c.strip() for c in line.strip().strip("|").split("|")]
    if len(cells) < 3 or not cells[0].startswith("`aries"):
        continue
    name = cells[0].strip("`").split()[0]
    links = set(re.findall(r"`(aries_\w+)`", cells[2]))
    table[name] = links

bad = []
for t in sorted(set(built) | set(table)):
    if t not in table:
        bad.append(f"{t}: built but not in the README's table")
    elif t not in built:
        bad.append(f"{t}: in the README's table but not built")
    elif built[t] != table[t]:
        bad.append(f"{t}: links {sorted(built[t])}, the README says {sorted(table[t])}")

# One way: a depth-first search for a cycle.
state = {}
def visit(t, path):
    if state.get(t) == 1:
        bad.append("cycle: " + " -> ".join(path + [t]))
        return
    if state.get(t) == 2:
        return
    state[t] = 1
    for d in sorted(built.get(t, ())):
        visit(d, path + [t])
    state[t] = 2
for t in sorted(built):
    visit(t, [])

if bad:
    print("\n".join(bad))
    sys.exit(1)
print(f"{len(built)} targets: the README's table is what the build links, one way")
