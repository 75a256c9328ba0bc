#!/usr/bin/env python3
"""The figures the docs quote are what the commands print today.

A page marks a quoted output with an HTML comment naming the command, followed by a fenced
block of lines copied from its standard output:

    <!-- check: aries coll -k 4 --algo ring --size 1K -->
    ```
    | ring | 4x4 | ... |
    ```

Each command runs once (in a scratch folder, `aries` replaced by the built binary); every
non-empty line of its block must appear, in order, as a whole line of the output (trailing
spaces ignored; a line of the block that is only `...` stands for any lines). The check fails
naming the page, the line of the page, the command and the first quoted line that was not
found, with the nearest line the command printed.

Usage: check_docs.py ARIES FILE.md... [--list]
"""
import difflib
import os
import pathlib
import re
import shlex
import subprocess
import sys
import tempfile

MARK = re.compile(r"<!--\s*check:\s*(.+?)\s*-->")


def blocks(path):
    """(line number, command, quoted lines) of every checked block of `path`."""
    lines = path.read_text().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = MARK.search(lines[i])
        if not m:
            i += 1
            continue
        start = i + 1
        j = start
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or not lines[j].startswith("```"):
            out.append((i + 1, m.group(1), None))
            i += 1
            continue
        k = j + 1
        quoted = []
        while k < len(lines) and not lines[k].startswith("```"):
            quoted.append(lines[k].rstrip())
            k += 1
        out.append((i + 1, m.group(1), quoted))
        i = k + 1
    return out


def run(aries, command, cwd):
    words = shlex.split(command)
    if not words or words[0] != "aries":
        return None, f"a checked command starts with `aries`, not `{command}`"
    proc = subprocess.run([aries] + words[1:], cwd=cwd, capture_output=True, text=True,
                          timeout=600)
    if proc.returncode != 0:
        return None, f"exit status {proc.returncode}: {proc.stderr.strip()[-400:]}"
    return [l.rstrip() for l in proc.stdout.split("\n")], None


def check(printed, quoted):
    """The first quoted line not found in order, or None."""
    pos = 0
    for q in quoted:
        if not q.strip():
            continue
        if q.strip() == "...":
            continue
        while pos < len(printed) and printed[pos] != q:
            pos += 1
        if pos == len(printed):
            return q
        pos += 1
    return None


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    if len(args) < 2:
        sys.exit(__doc__)
    aries = os.path.abspath(args[0])
    pages = [pathlib.Path(p) for p in args[1:]]
    failures, count = [], 0
    with tempfile.TemporaryDirectory() as scratch:
        for page in pages:
            for line, command, quoted in blocks(page):
                count += 1
                where = f"{page}:{line}"
                if "--list" in sys.argv:
                    print(f"{where}: {command}")
                    continue
                if not quoted:
                    failures.append(f"{where}: `{command}`: no fenced block of output follows")
                    continue
                printed, err = run(aries, command, scratch)
                if err:
                    failures.append(f"{where}: `{command}`: {err}")
                    continue
                missing = check(printed, quoted)
                if missing is not None:
                    near = difflib.get_close_matches(missing, printed, n=1, cutoff=0.0)
                    failures.append(f"{where}: `{command}`\n  the page says: {missing}\n"
                                    f"  the run says:  {near[0] if near else '(nothing)'}")
                else:
                    print(f"ok {where}: {command}")
    if failures:
        print("\n".join(failures))
        print(f"{len(failures)} of {count} quoted outputs differ from today's runs: re-run the "
              "command and update the page (or the code)")
        sys.exit(1)
    print(f"{count} quoted outputs match today's runs")


if __name__ == "__main__":
    main()
