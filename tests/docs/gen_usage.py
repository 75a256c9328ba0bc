#!/usr/bin/env python3
"""Writes docs/usage.md from the built `aries`: its subcommands' help (their flags are aliases
of the key table's keys, with each key's meaning and default) and `aries keys` (the table
itself). With --check, compares instead and fails naming the first difference, so the page
cannot go stale.

Usage: gen_usage.py ARIES OUT.md [--check]
"""
import difflib
import re
import subprocess
import sys

SUBCOMMANDS_RE = re.compile(r"^Subcommands:\n((?:  .*\n)+)", re.M)


def run(aries, *args):
    proc = subprocess.run([aries, *args], capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        sys.exit(f"aries {' '.join(args)}: exit status {proc.returncode}: {proc.stderr}")
    return proc.stdout


def page(aries):
    top = run(aries, "--help")
    m = SUBCOMMANDS_RE.search(top)
    if not m:
        sys.exit("aries --help lists no subcommands")
    subs = [l.split()[0] for l in m.group(1).splitlines() if l.startswith("  ") and l[2] != " "]
    out = [
        "# Usage",
        "",
        "Every subcommand of `aries` and every configuration key. This page is generated from",
        "the built CLI by `python3 tests/docs/gen_usage.py build/sim/aries docs/usage.md`, and",
        "`ctest -R docs.usage` fails when it is stale.",
        "",
        "A subcommand reads the keys of one table. You can give them in a file (`--config FILE`,",
        "with `key = value` lines and `#` comments), with `--set key=value`, or through its",
        "flags, which are aliases of keys. The command line overrides the file. A key the",
        "subcommand does not read is refused, and so is a bad value; the error names the key,",
        "where it was set and what is allowed, with a suggestion for a misspelt word.",
        "",
        "## Subcommands",
        "",
    ]
    out += [f"* [`{s}`](#aries-{s})" for s in subs]
    out += ["", "## aries", "", "```", top.rstrip(), "```", ""]
    for s in subs:
        out += [f"## aries {s}", "", "```", run(aries, s, "--help").rstrip(), "```", ""]
    out += ["## Keys", "", "`aries keys`:", "", "```", run(aries, "keys").rstrip(), "```", ""]
    return "\n".join(out)


def main():
    args = [a for a in sys.argv[1:] if a != "--check"]
    if len(args) != 2:
        sys.exit(__doc__)
    aries, path = args
    text = page(aries)
    if "--check" in sys.argv:
        try:
            old = open(path).read()
        except OSError as e:
            sys.exit(f"FAIL: {path}: {e}")
        if old != text:
            diff = list(difflib.unified_diff(old.splitlines(), text.splitlines(), path,
                                             "generated", lineterm="", n=1))
            print("\n".join(diff[:40]))
            sys.exit(f"FAIL: {path} is stale: run python3 tests/docs/gen_usage.py "
                     f"build/sim/aries {path}")
        print(f"PASS: {path} is what the CLI prints")
        return
    open(path, "w").write(text)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
