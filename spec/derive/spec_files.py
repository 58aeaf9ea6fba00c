"""What the derivation scripts share: one case of `cases.json`, the layout of that file,
the checks it may name (read from the hand-written `checks.json`), and writing the
files or, with `--check`, failing when one is stale."""

import json
import sys
from pathlib import Path


def case(id, check, shape, input, expect, flags=(), comment=None, rules=()):
    """One case of `cases.json`, its keys in the files' order (rules, flags and comment
    only when given). `shape` picks the runner's evaluator and the form of input and
    expect; `rules` are rule ids (spec/rules.json) the case pins beyond its check's
    (`protocol_files` writes each case with its check's rules, then these)."""
    c = {"id": id, "check": check, "shape": shape}
    if rules:
        c["rules"] = list(rules)
    if flags:
        c["flags"] = list(flags)
    if comment:
        c["comment"] = comment
    c["input"] = input
    c["expect"] = expect
    return c


def published_figures(out):
    """The figures the sources published, by name: the `published_figures` of
    `out`'s hand-written `checks.json`, the one place a protocol's published figures are
    written. The runner compares an implementation's figures with them; a derivation
    reads the ones its cases expect from here, never as literals, and asserts that its
    own computation (from the protocol text) reproduces each one it reads."""
    checks_file = json.loads((out / "checks.json").read_text())
    return {figure["name"]: figure["value"] for figure in checks_file["published_figures"]}


def protocol_files(out, protocol, cases, flags, indent):
    """The two files of `spec/<protocol>/` as {path: text}.

    `checks.json` is written by hand: it is read, and written back with `check_count`
    counted and the layout of every generated file. Each case names a check that it
    documents, and every check it documents has a case. Cases are listed by check, in
    the order of `checks.json` (and in the order given within a check); a case's id
    gets the check's number as a prefix (`07-...`), so ids are unique in the file. Anything else stops the derivation.
    """
    checks_file = json.loads((out / "checks.json").read_text())
    checks_file["check_count"] = len(checks_file["checks"])
    names = [entry["name"] for entry in checks_file["checks"]]
    unknown = sorted({case["check"] for case in cases} - set(names))
    if unknown:
        raise SystemExit(f"{protocol}: cases name checks that checks.json does not document: {unknown}")
    without = [name for name in names if all(case["check"] != name for case in cases)]
    if without:
        raise SystemExit(f"{protocol}: documented checks without a case: {without}")
    cases = sorted(cases, key=lambda case: names.index(case["check"]))
    check_rules = {entry["name"]: entry.get("rules", []) for entry in checks_file["checks"]}
    named = []
    for case in cases:
        case["id"] = "%02d-%s" % (names.index(case["check"]) + 1, case["id"])
        # Every case names every rule it pins, its check's first (as a test262 case
        # names its spec section): the loader fails a case that leaves one of its
        # check's rules out.
        own = case.pop("rules", [])
        rules = list(dict.fromkeys(check_rules[case["check"]] + own))
        named.append({key: value for key, value in
                      [("id", case["id"]), ("check", case["check"]), ("shape", case["shape"]), ("rules", rules)]
                      + [(key, value) for key, value in case.items() if key not in ("id", "check", "shape")]})
    cases = named
    ids = [case["id"] for case in cases]
    repeated = sorted({i for i in ids if ids.count(i) > 1})
    if repeated:
        raise SystemExit(f"{protocol}: case ids used more than once: {repeated}")
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


def derive(out, protocol, cases, flags, indent, script):
    """The main of a protocol's derivation script: `cases()` into `out`'s two files, or
    with `--check` a check that they are fresh."""
    write_or_check(protocol_files(out, protocol, cases(), flags, indent), script)
