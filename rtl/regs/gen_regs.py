#!/usr/bin/env python3
"""Writes everything that describes the configuration registers from rtl/regs/aries_regs.json:

  rtl/include/aries_regs.svh   SystemVerilog localparams (included inside package aries_pkg)
  rtl/pkg/aries_regs.h         the C++ view (included by aries_pkg.h) and the register table
  tests/rtl/aries_regs_probe.sv every constant on one port, so tests/pkg compares the package as
                               Verilator elaborates it with the C++ view, constant by constant
  README register tables        between <!-- regs:BLOCK --> and <!-- /regs:BLOCK --> markers

  python3 rtl/regs/gen_regs.py             rewrite them
  python3 rtl/regs/gen_regs.py --check     exit 1 naming every file that is not what the JSON says
                                           (a test runs this)
  python3 rtl/regs/gen_regs.py --self-test exit 1 unless the layout checks refuse broken layouts

A register's field layout is written once, as its "bitfields": from them the script derives the
field constants (the names a bitfield gives as "lsb", "width", "bit"; the register's
"common_width" and "mask"), the "fields" text of the register table and README, and it refuses
a layout with overlapping fields, a bit outside the 32-bit data, a derived constant that is also
written by hand, or a bit range in the register's "doc" or "allowed" text that is no field's.
"""
import argparse
import copy
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
SOURCE = ROOT / "rtl/regs/aries_regs.json"
SVH = ROOT / "rtl/include/aries_regs.svh"
HDR = ROOT / "rtl/pkg/aries_regs.h"
PROBE = ROOT / "tests/rtl/aries_regs_probe.sv"

ACCESS = {"RO": "kReadOnly", "RW": "kReadWrite", "W1C": "kWriteOneToClear"}
ACCESS_TEXT = {"RO": "RO", "RW": "RW", "W1C": "RO, write 1 to clear"}
# Per window: the C++ RegWindow, and the README's address and name (a: first address, n: name,
# o: offset in an id's block).
WINDOWS = {
    None: ("kSingle", "{a}", "{n}"),
    "port": ("kPerPort", "{a} + p", "{n}[p]"),
    "portsel": ("kPerMeshPort", "{a} + p, p = 1..4", "{n}[p]"),
    "step": ("kPerStep", "{a} + i", "{n}[i]"),
    "id": ("kPerId", "{a} + 8 id + {o}", "{n}[id]"),
    "route": ("kRoute", "{a} + 32*flow + p", "{n}[flow][p]"),
}


def is_hex(v):
    return isinstance(v, str) and v.lower().startswith("0x")


def value_int(v):
    return int(v, 16) if is_hex(v) else int(v)


def sv_value(v):
    return f"32'h{value_int(v):0{max(len(v) - 2, 1)}X}" if is_hex(v) else str(value_int(v))


def cpp_const(name, v):
    if is_hex(v):
        digits = max(len(v) - 2, 1)
        return f"inline constexpr uint32_t k{name} = 0x{value_int(v):0{digits}X}u;"
    return f"inline constexpr unsigned k{name} = {value_int(v)};"


def register_value(r):
    # Per-id registers are offsets inside an id's block; every other register is an address.
    return str(r["offset"]) if r.get("window") == "id" else r["addr"]


def comment_lines(text, prefix, width=98):
    words, lines, line = text.split(), [], prefix
    for w in words:
        if len(line) + 1 + len(w) > width and line != prefix:
            lines.append(line)
            line = prefix
        line += " " + w
    lines.append(line)
    return lines


# ---- Field layouts: a register's "bitfields", the one source of its field constants and text ----
DATA_W = 32
FIELD_KEYS = {"name", "bits", "doc", "named", "values", "index", "lsb", "width", "bit", "comment"}
# A bit range written in a register's doc or refusal text: [hi:lo], [n] or "bit n".
RANGE_IN_TEXT = re.compile(r"\[(\d+)(?::(\d+))?\]|\bbit (\d+)\b")


def bits_text(f):
    hi, lo = f["bits"]
    return f"[{hi}]" if hi == lo else f"[{hi}:{lo}]"


def field_width(f):
    return f["bits"][0] - f["bits"][1] + 1


def field_mask(f):
    return ((1 << field_width(f)) - 1) << f["bits"][1]


def field_text(f):
    """One field in the register table: "[1:0] topology (0 mesh, 1 torus)", "[4] DYN_VC (...)",
    or for a field of one bit per index ("index": "t") "bit 16+t: cut y-track t"."""
    text = f.get("doc", "")
    if "values" in f:
        vals = sorted(f["values"].items(), key=lambda kv: int(kv[0]))
        text += " (" + ", ".join(f"{k} {v}" for k, v in vals) + ")"
    if f.get("named"):
        text = f["name"] + (f" ({text})" if text else "")
    if "index" in f:
        lo = f["bits"][1]
        return f"bit {f['index'] if lo == 0 else f'{lo}+' + f['index']}: {text}"
    return f"{bits_text(f)} {text}"


def register_text(r):
    """A register's "fields" text: "before", its fields from the lowest bit up, "; after"."""
    fields = sorted(r["bitfields"], key=lambda f: f["bits"][1])
    text = r.get("join", ", ").join(field_text(f) for f in fields)
    if "before" in r:
        text = f"{r['before']} {text}"
    if "after" in r:
        text += f"; {r['after']}"
    return text


def derived_constants(r):
    """(name, value, doc) of the constants a register's bitfields define, in the order they are
    written: each field's lsb, width and bit (in the bitfields' order), the register's common
    width, its mask (the OR of its fields, 8 hex digits)."""
    out = []
    for f in r.get("bitfields", []):
        doc = f.get("comment", "").replace("{bits}", bits_text(f))
        for key, value in (("lsb", f["bits"][1]), ("width", field_width(f)), ("bit", f["bits"][1])):
            if key in f:
                out.append((f[key], value, doc))
                doc = ""
    if "common_width" in r:
        out.append((r["common_width"], field_width(r["bitfields"][0]), ""))
    if "mask" in r:
        mask = 0
        for f in r["bitfields"]:
            mask |= field_mask(f)
        out.append((r["mask"], f"0x{mask:08X}", ""))
    return out


def field_problems(where, f):
    """What is wrong with one bitfield on its own (its bits, keys, values, constants)."""
    bits = f.get("bits")
    if not (isinstance(bits, list) and len(bits) == 2 and all(isinstance(b, int) for b in bits)
            and bits[0] >= bits[1] >= 0):
        return [f"{where}: bits must be [hi, lo] with hi >= lo >= 0, not {bits}"]
    out = [f"{where}: unknown key '{k}'" for k in sorted(set(f) - FIELD_KEYS)]
    if bits[0] >= DATA_W:
        out.append(f"{where}: {bits_text(f)} is outside the {DATA_W}-bit data [{DATA_W - 1}:0]")
    if not f.get("doc") and not f.get("named"):
        out.append(f"{where}: no doc (or \"named\": true) for the register table")
    if "bit" in f and field_width(f) != 1:
        out.append(f"{where}: bit constant {f['bit']} on a {field_width(f)}-bit field "
                   f"{bits_text(f)}")
    for k in f.get("values", {}):
        if not k.isdigit() or int(k) >= 1 << field_width(f):
            out.append(f"{where}: value {k} does not fit {bits_text(f)}")
    return out


def register_problems(r):
    """What is wrong with a register's layout: its fields, overlaps, its common width, and bit
    ranges in its doc or refusal text that are no field's (a range clear of every field, reserved
    bits, is fine)."""
    name = r["name"]
    if "fields" in r:
        return [f"{name}: both \"fields\" and \"bitfields\" (the fields text is derived)"]
    fields = r["bitfields"]
    if not isinstance(fields, list) or not fields:
        return [f"{name}: \"bitfields\" must be a list of at least one field"]
    out = []
    for i, f in enumerate(fields):
        out += field_problems(f"{name}.{f.get('name', i)}", f)
    if out:
        return out
    names = [f["name"] for f in fields]
    twice = sorted({n for n in names if names.count(n) > 1})
    out += [f"{name}: two fields named {n}" for n in twice]
    for i, a in enumerate(fields):
        for b in fields[i + 1:]:
            if field_mask(a) & field_mask(b):
                out.append(f"{name}: field {a['name']} {bits_text(a)} overlaps field {b['name']} "
                           f"{bits_text(b)}")
    if "common_width" in r and len({field_width(f) for f in fields}) > 1:
        out.append(f"{name}: {r['common_width']} is the width of every field, but they differ")
    masks = [field_mask(f) for f in fields]
    for key in ("doc", "allowed"):
        for m in RANGE_IN_TEXT.finditer(r.get(key, "")):
            hi = int(m.group(1) or m.group(3))
            lo = int(m.group(2)) if m.group(2) else hi
            said = ((1 << (hi - lo + 1)) - 1) << lo if hi >= lo else 0
            if said not in masks and any(mask & said for mask in masks):
                out.append(f"{name}: its {key} says {m.group(0)}, which is no field's bits")
    return out


def layout_problems(spec):
    """Every reason the JSON's layouts cannot be generated, each naming the register, field or
    constant; empty when they can."""
    out = []
    hand = {}  # constant name -> where it is written by hand
    for b in spec["blocks"]:
        for c in b["constants"]:
            hand[c["name"]] = f"block {b['name']}'s constants ({c['value']})"
        for r in b["registers"]:
            hand[r["id"]] = f"register {r['name']}'s id ({register_value(r)})"
        for f in b["fields"]:
            if "name" in f:
                hand[f["name"]] = f"block {b['name']}'s fields ({f['value']})"
    derived = {}  # constant name -> the register that derives it
    bad = set()  # registers whose layout is refused (their constants are not derived)
    for b in spec["blocks"]:
        regs = {r["name"]: r for r in b["registers"]}
        placed = [f["register"] for f in b["fields"] if "register" in f]
        for r in b["registers"]:
            if "bitfields" not in r:
                if "fields" not in r:
                    out.append(f"{r['name']}: neither \"fields\" nor \"bitfields\"")
                continue
            problems = register_problems(r)
            out += problems
            if problems:
                bad.add(r["name"])
                continue
            consts = derived_constants(r)
            for cname, value, _ in consts:
                if cname in hand:
                    out.append(f"{cname}: derived from {r['name']}'s bitfields ({value}) and "
                               f"written by hand in {hand[cname]}")
                elif cname in derived:
                    out.append(f"{cname}: derived from both {derived[cname]} and {r['name']}")
                derived.setdefault(cname, r["name"])
            if consts and placed.count(r["name"]) != 1:
                out.append(f"{r['name']}: its constants need one {{\"register\": \"{r['name']}\"}} "
                           f"entry in block {b['name']}'s fields (found {placed.count(r['name'])})")
        for p in placed:
            if p not in bad and (p not in regs or not derived_constants(regs[p])):
                out.append(f"block {b['name']}'s fields place {p}, which is no register of the "
                           f"block with derived constants")
    return out


def expanded(spec):
    """The spec as the generators read it: each register's "fields" text and each block's
    field constants (with the derived ones where the block places them)."""
    spec = copy.deepcopy(spec)
    for b in spec["blocks"]:
        regs = {r["name"]: r for r in b["registers"]}
        fields = []
        for f in b["fields"]:
            if "register" not in f:
                fields.append(f)
                continue
            if "group" in f:
                fields.append({"group": f["group"]})
            fields += [{"name": n, "value": v, "doc": d}
                       for n, v, d in derived_constants(regs[f["register"]])]
        b["fields"] = fields
        for r in b["registers"]:
            if "bitfields" in r:
                r["fields"] = register_text(r)
    return spec


def gen_svh(spec):
    out = ["// Generated by rtl/regs/gen_regs.py from rtl/regs/aries_regs.json: edit that file, then",
           "// run the script. Included inside package aries_pkg (rtl/pkg/aries_pkg.sv).", ""]
    for b in spec["blocks"]:
        out.append("  // " + "-" * 93)
        out += comment_lines(b["title"], "  //")
        out.append("  // " + "-" * 93)
        for c in b["constants"]:
            doc = f"  ///< {c['doc']}" if c.get("doc") else ""
            out.append(f"  localparam int unsigned {c['name']} = {sv_value(str(c['value']))};{doc}")
        out.append("")
        for r in b["registers"]:
            out.append(f"  localparam int unsigned {r['id']} = {sv_value(register_value(r))};"
                       f"  ///< {ACCESS_TEXT[r['access']]}: {r['doc']}")
        for f in b["fields"]:
            if "group" in f:
                out.append("")
                out += comment_lines(f["group"], "  //")
                continue
            doc = f"  ///< {f['doc']}" if f.get("doc") else ""
            out.append(f"  localparam int unsigned {f['name']} = {sv_value(str(f['value']))};{doc}")
        out.append("")
    return "\n".join(out)


def all_constants(spec):
    """(name, value) of every generated constant, in one order for the probe and the C++ table."""
    out = []
    for b in spec["blocks"]:
        out += [(c["name"], str(c["value"])) for c in b["constants"]]
        out += [(r["id"], register_value(r)) for r in b["registers"]]
        out += [(f["name"], str(f["value"])) for f in b["fields"] if "group" not in f]
    return out


def gen_probe(spec):
    consts = all_constants(spec)
    out = ["// Generated by rtl/regs/gen_regs.py from rtl/regs/aries_regs.json (test-only RTL, not in",
           "// rtl/sources.f): every register-map constant of aries_pkg as elaborated, 32 bits each in",
           "// the order of aries::hw::kRegConstants.",
           "module aries_regs_probe (",
           f"  output logic [{32 * len(consts)}-1:0] values_o",
           ");"]
    for i, (name, _) in enumerate(consts):
        out.append(f"  assign values_o[{32 * i} +: 32] = 32'(aries_pkg::{name});")
    out += ["endmodule", ""]
    return "\n".join(out)


def gen_header(spec):
    out = ["// Generated by rtl/regs/gen_regs.py from rtl/regs/aries_regs.json: edit that file, then",
           "// run the script. Included by aries_pkg.h (namespace aries::hw).",
           "#ifndef ARIES_RTL_PKG_ARIES_REGS_H_",
           "#define ARIES_RTL_PKG_ARIES_REGS_H_",
           "",
           "#include <cstdint>",
           "",
           "namespace aries::hw {",
           ""]
    for b in spec["blocks"]:
        out += comment_lines(b["title"], "//")
        for c in b["constants"]:
            out.append(cpp_const(c["name"], str(c["value"])))
        for r in b["registers"]:
            v = register_value(r)
            out.append(cpp_const(r["id"], v) if r.get("window") == "id" else
                       f"inline constexpr uint32_t k{r['id']} = 0x{value_int(v):04X};")
        for f in b["fields"]:
            if "group" in f:
                out.append(f"// {f['group']}")
                continue
            out.append(cpp_const(f["name"], str(f["value"])))
        out.append("")
    out += ["// The register table: every register (a window of registers once), in address order",
            "// within each block, for names, access checks and messages.",
            "enum class RegAccess { kReadOnly, kReadWrite, kWriteOneToClear };",
            "// kPerPort: + router port; kPerMeshPort: + port 1..4; kPerStep: + program step;",
            "// kPerId: base + stride * collective id + offset; kRoute: + (flow << 5) + input port.",
            "enum class RegWindow { kSingle, kPerPort, kPerMeshPort, kPerStep, kPerId, kRoute };",
            "struct RegDesc {",
            "  const char* block;",
            "  const char* name;",
            "  uint32_t addr;    // the register, or the window's first address",
            "  unsigned offset;  // kPerId: the register's offset in an id's block",
            "  RegAccess access;",
            "  RegWindow window;",
            "  const char* fields;",
            "  const char* allowed;  // refusal text of a write, {placeholders}: Package::ExplainRefusal",
            "};",
            "inline constexpr RegDesc kRegisters[] = {"]
    for b in spec["blocks"]:
        for r in b["registers"]:
            fields = r["fields"].replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'    {{"{b["name"]}", "{r["name"]}", 0x{value_int(r["addr"]):04X}, '
                       f'{r.get("offset", 0)}, RegAccess::{ACCESS[r["access"]]}, '
                       f'RegWindow::{WINDOWS[r.get("window")][0]},')
            allowed = r.get("allowed", "").replace("\\", "\\\\").replace('"', '\\"')
            out.append(f'     "{fields}",')
            out.append(f'     "{allowed}"}},')
    out += ["};", "",
            "// Every constant above by name, in the order of tests/rtl/aries_regs_probe.sv.",
            "struct RegConstant {",
            "  const char* name;",
            "  uint32_t value;",
            "};",
            "inline constexpr RegConstant kRegConstants[] = {"]
    out += [f'    {{"{n}", k{n}}},' for n, _ in all_constants(spec)]
    out += ["};", "", "}  // namespace aries::hw", "", "#endif  // ARIES_RTL_PKG_ARIES_REGS_H_", ""]
    return "\n".join(out)


def window_text(r, which):
    return WINDOWS[r.get("window")][which].format(a=r["addr"], n=r["name"], o=r.get("offset", 0))


def gen_table(block):
    rows = ["| address | name | access | fields |", "|---|---|---|---|"]
    for r in block["registers"]:
        rows.append(f"| {window_text(r, 1)} | {window_text(r, 2)} | {ACCESS_TEXT[r['access']]} | "
                    f"{r['fields']} |")
    return "\n".join(rows)


def readme_with_table(text, block, path):
    begin, end = f"<!-- regs:{block['name']} -->", f"<!-- /regs:{block['name']} -->"
    pat = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pat.search(text):
        raise SystemExit(f"{path}: no {begin} ... {end} markers for the generated table")
    note = "(generated from rtl/regs/aries_regs.json by rtl/regs/gen_regs.py)"
    return pat.sub(lambda _: f"{begin}\n{note}\n\n{gen_table(block)}\n{end}", text)


def outputs(spec):
    files = {SVH: gen_svh(spec), HDR: gen_header(spec), PROBE: gen_probe(spec)}
    for b in spec["blocks"]:
        p = ROOT / b["readme"]
        files[p] = readme_with_table(files.get(p, p.read_text()), b, p)
    return files


def field_of(spec, reg, field=None):
    """Register reg of the spec, or its bitfield named field."""
    r = next(r for b in spec["blocks"] for r in b["registers"] if r["name"] == reg)
    return r if field is None else next(f for f in r["bitfields"] if f["name"] == field)


def block_of(spec, name):
    return next(b for b in spec["blocks"] if b["name"] == name)


# Broken layouts the checks must refuse: what is changed in a copy of the JSON, and the words the
# refusal must contain.
SELF_TESTS = [
    ("overlapping fields",
     lambda s: field_of(s, "CTRL", "DYN_VC").update(bits=[8, 8]),
     ["CTRL: field SIZE_X [12:8] overlaps field DYN_VC [8]"]),
    ("a bit outside the data",
     lambda s: field_of(s, "ENG_REQ_LEN", "PASSES").update(bits=[32, 16]),
     ["ENG_REQ_LEN.PASSES: [32:16] is outside the 32-bit data [31:0]"]),
    ("a derived constant also written by hand",
     lambda s: block_of(s, "router")["fields"].append({"name": "CtrlMask", "value": "0x001F1F13"}),
     ["CtrlMask: derived from CTRL's bitfields (0x001F1F13) and written by hand in block "
      "router's fields"]),
    ("a derived constant written by hand with another value",
     lambda s: block_of(s, "engine")["fields"].append({"name": "IdCfgEnBit", "value": 9}),
     ["IdCfgEnBit: derived from ID_CFG's bitfields (8) and written by hand in block engine's "
      "fields (9)"]),
    ("a constant derived twice",
     lambda s: field_of(s, "PASSTHRU", "EN").update(bit="StatusMissBit"),
     ["StatusMissBit: derived from both STATUS and PASSTHRU"]),
    ("a bit constant on a wide field",
     lambda s: field_of(s, "CTRL", "TOPO").update(bit="CtrlTopoBit"),
     ["CTRL.TOPO: bit constant CtrlTopoBit on a 2-bit field [1:0]"]),
    ("a value wider than its field",
     lambda s: field_of(s, "CTRL", "TOPO")["values"].update({"4": "ring"}),
     ["CTRL.TOPO: value 4 does not fit [1:0]"]),
    ("a doc and a refusal text naming bits that are no field's",
     lambda s: field_of(s, "ENG_REQ_LEN", "STEPS").update(bits=[9, 0]),
     ["ENG_REQ_LEN: its doc says [7:0]", "ENG_REQ_LEN: its allowed says [15:8]"]),
    ("a misspelt constant key",
     lambda s: field_of(s, "ID_CFG", "OP").update(lbs="IdCfgOpLsb"),
     ["ID_CFG.OP: unknown key 'lbs'"]),
    ("a fields text next to bitfields",
     lambda s: field_of(s, "PASSTHRU").update(fields="[0] enable"),
     ["PASSTHRU: both \"fields\" and \"bitfields\""]),
    ("a common width the fields do not share",
     lambda s: field_of(s, "PORTSEL", "IN").update(bits=[4, 0]),
     ["PORTSEL: PortSelChoiceW is the width of every field, but they differ"]),
    ("constants no block places",
     lambda s: block_of(s, "node")["fields"].pop(),
     ["NODE_STATUS: its constants need one {\"register\": \"NODE_STATUS\"} entry in block node's "
      "fields (found 0)"]),
]


def self_test(spec):
    """0 when the JSON has no layout problem and every broken layout of SELF_TESTS is refused with
    its message; else 1, naming the cases that failed."""
    failed = [f"the JSON itself: {p}" for p in layout_problems(spec)]
    for what, breaks, expected in SELF_TESTS:
        broken = copy.deepcopy(spec)
        breaks(broken)
        problems = layout_problems(broken)
        missing = [e for e in expected if not any(e in p for p in problems)]
        if missing:
            failed.append(f"{what}: expected {missing}, got {problems}")
    for f in failed:
        print("FAILED " + f)
    print(f"layout checks: {len(SELF_TESTS) - len(failed)} of {len(SELF_TESTS)} broken layouts "
          "refused as expected" if not failed else f"{len(failed)} failed")
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only compare, exit 1 on a difference")
    ap.add_argument("--self-test", action="store_true",
                    help="only test that the layout checks refuse broken layouts")
    args = ap.parse_args()
    spec = json.loads(SOURCE.read_text())
    if args.self_test:
        return self_test(spec)
    problems = layout_problems(spec)
    if problems:
        print("rtl/regs/aries_regs.json: refused, nothing written:", file=sys.stderr)
        for p in problems:
            print("  " + p, file=sys.stderr)
        return 1
    stale = []
    for path, text in outputs(expanded(spec)).items():
        if path.exists() and path.read_text() == text:
            continue
        stale.append(path)
        if not args.check:
            path.write_text(text)
    rel = [str(p.relative_to(ROOT)) for p in stale]
    if args.check:
        if stale:
            print("not generated from rtl/regs/aries_regs.json (run python3 rtl/regs/gen_regs.py): "
                  + ", ".join(rel))
            return 1
        print("register files up to date")
        return 0
    print("wrote " + (", ".join(rel) if rel else "nothing (all up to date)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
