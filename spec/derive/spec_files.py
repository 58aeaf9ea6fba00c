"""What the derivation scripts share: the layout of a protocol's `checks.json`, of its
`cases.json` and of one case, and writing generated files or, with `--check`, failing
when one is stale."""

import json
import sys
from pathlib import Path


def case(id, check, input, expect, flags=(), comment=None):
    """One case of `cases.json`, its keys in the files' order (flags and comment only
    when given)."""
    c = {"id": id, "check": check}
    if flags:
        c["flags"] = list(flags)
    if comment:
        c["comment"] = comment
    c["input"] = input
    c["expect"] = expect
    return c


def protocol_files(out, protocol, checks, published_figures, cases, flags, indent):
    """The two files of `spec/<protocol>/` as {path: text}.

    `checks` are the check entries in the source document's order; each case names its
    check, and its id gets the check's number as a prefix (`07-...`), so ids are unique
    in the file and sort by check. A repeated id stops the derivation.
    """
    names = [entry["name"] for entry in checks]
    for case in cases:
        case["id"] = "%02d-%s" % (names.index(case["check"]) + 1, case["id"])
    ids = [case["id"] for case in cases]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise SystemExit(f"{protocol}: case ids used more than once: {repeated}")
    checks_file = {"$schema": "../schemas/checks.schema.json", "protocol": protocol, "format_version": 1,
                   "check_count": len(checks), "checks": checks, "published_figures": published_figures}
    cases_file = {"$schema": "../schemas/" + protocol + ".cases.schema.json", "protocol": protocol,
                  "format_version": 1, "case_count": len(cases), "flags": dict(sorted(flags.items())),
                  "cases": cases}

    def dump(value):
        return json.dumps(value, indent=indent, ensure_ascii=True) + "\n"

    return {out / "checks.json": dump(checks_file), out / "cases.json": dump(cases_file)}


def write_or_check(files, script):
    """Writes `files` ({path: text}); with `--check` on the command line, writes nothing
    and exits 1 naming every file whose text differs, so CI says what to run."""
    if "--check" in sys.argv[1:]:
        stale = [path for path, text in files.items() if not path.exists() or path.read_text() != text]
        for path in stale:
            print(f"{path} is stale: run `python3 spec/derive/{Path(script).name}` and commit", file=sys.stderr)
        sys.exit(1 if stale else 0)
    for path, text in files.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        print("wrote", path)
