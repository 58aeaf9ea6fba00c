#!/usr/bin/env python3
"""Writes the committed seed corpus, fuzz/corpus/<target>/, from the repository's
real files: spec/ (its session fixture too), vectors/ and spec/ADAPTER.md.

Run from anywhere: `python3 fuzz/seed_corpus.py`. With `--check` it writes nothing and
exits 1 naming every file of fuzz/corpus/ that differs from what it would write.
Without it, it replaces every file under
fuzz/corpus/ (files that libFuzzer added are kept only if you move them elsewhere
first). Naming: `valid-*` must be accepted and `invalid-*` refused by the target's
function (crates/fuzzing/tests/corpus.rs checks this); `cut-*` (truncations) and
`edge-*` may go either way, they must only not panic.
"""

import json
import pathlib
import shutil
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"


def load(path):
    return json.loads((ROOT / path).read_text(encoding="utf-8"))


def dump(value):
    return json.dumps(value, indent=1, ensure_ascii=False) + "\n"


def compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


TARGETS = []


class Target:
    """One target's corpus, collected in memory and written (or checked) at the end."""

    def __init__(self, name):
        self.name = name
        self.files = {}
        TARGETS.append(self)

    def write(self, name, data):
        if isinstance(data, str):
            data = data.encode("utf-8")
        self.files[name] = data

    def cuts(self, name, data, fractions=(0.05, 0.5, 0.93)):
        if isinstance(data, str):
            data = data.encode("utf-8")
        for fraction in fractions:
            at = int(len(data) * fraction)
            self.write(f"cut-{name}-{at}", data[:at])


EDGES = {
    "empty": b"",
    "null": b"null",
    "object": b"{}",
    "array": b"[]",
    "number": b"1e99999",
    "deep-arrays": b"[" * 4096,
    "deep-objects": b'{"a":' * 2048,
    "not-utf8": b'{"\xff\xfe": "\xc3\x28"}',
    "nul": b"\x00",
    "bom": b"\xef\xbb\xbf{}",
    "trailing": b"{} {}",
}


def edges(target, extra=b""):
    for name, data in EDGES.items():
        target.write(f"edge-{name}", extra + data)


# ---------------------------------------------------------------------------------
# spec_cases: "<protocol>/<file>\n" then the file.


def smallest_case_per_check(cases):
    best = {}
    for case in cases:
        size = len(json.dumps(case))
        if case["check"] not in best or size < best[case["check"]][0]:
            best[case["check"]] = (size, case)
    return [case for _, case in best.values()]


# The short names of the first protocols' corpus files; a protocol added later goes by
# its own name.
SHORT = {"doc-membership-v1": "doc", "fnv1a-utf16-v1": "fnv"}


def spec_protocols():
    """Every protocol folder of spec/ (one with a checks.json), in name order."""
    return sorted(p.parent.name for p in (ROOT / "spec").glob("*/checks.json"))


def spec_cases():
    target = Target("spec_cases")
    for protocol in spec_protocols():
        short = SHORT.get(protocol, protocol)
        checks_name = f"{protocol}/checks.json"
        cases_name = f"{protocol}/cases.json"
        checks_text = (ROOT / "spec" / checks_name).read_text(encoding="utf-8")
        target.write(f"valid-{short}-checks", f"{checks_name}\n{checks_text}")
        target.cuts(f"{short}-checks", f"{checks_name}\n{checks_text}", (0.3, 0.8))

        full = load(f"spec/{cases_name}")
        minimal = dict(full)
        minimal["cases"] = smallest_case_per_check(full["cases"])
        minimal["case_count"] = len(minimal["cases"])
        text = f"{cases_name}\n{compact(minimal)}"
        target.write(f"valid-{short}-cases-one-per-check", text)
        target.cuts(f"{short}-cases", text)
        # The refusals start from the small cases only (so they also lack cases).
        small = dict(minimal, cases=[c for c in minimal["cases"] if len(compact(c)) < 1200])
        small["case_count"] = len(small["cases"])

        def variant(name, change):
            spec = json.loads(json.dumps(small))
            change(spec)
            target.write(f"invalid-{short}-cases-{name}", f"{cases_name}\n{compact(spec)}")

        variant("count", lambda s: s.update(case_count=s["case_count"] + 1))
        variant("version", lambda s: s.update(format_version=2))
        variant("protocol", lambda s: s.update(protocol="other-v1"))
        variant("unknown-field", lambda s: s.update(extra=True))
        variant("duplicate-id", lambda s: s["cases"].append(s["cases"][0]) or s.update(case_count=s["case_count"] + 1))
        variant("unknown-check", lambda s: s["cases"][0].update(check="no_such_check"))
        variant("undeclared-flag", lambda s: s["cases"][0].update(flags=["no-such-flag"]))
        variant("no-id", lambda s: s["cases"][0].pop("id"))
        variant("case-field", lambda s: s["cases"][0].update(surprise=1))
        variant("missing-check", lambda s: s["cases"].pop() and s.update(case_count=s["case_count"] - 1))

        checks = load(f"spec/{checks_name}")
        def checks_variant(name, change):
            spec = json.loads(json.dumps(checks))
            change(spec)
            target.write(f"invalid-{short}-checks-{name}", f"{checks_name}\n{compact(spec)}")

        checks_variant("count", lambda s: s.update(check_count=s["check_count"] + 1))
        checks_variant("twice", lambda s: s["checks"].append(s["checks"][0]) or s.update(check_count=s["check_count"] + 1))
        checks_variant("renamed-check", lambda s: s["checks"][0].update(name="no_such_check"))

    # A bad hex digit in doc-membership-v1's first case.
    doc = load("spec/doc-membership-v1/cases.json")
    doc["cases"] = smallest_case_per_check(doc["cases"])
    doc["case_count"] = len(doc["cases"])
    bad = json.loads(json.dumps(doc))
    bad["cases"][0]["input"]["params"]["seed_hex"] = "6c61zz"
    target.write("invalid-doc-cases-bad-hex", "doc-membership-v1/cases.json\n" + compact(bad))
    # fnv cases in the doc folder, and doc cases with no header (taken as doc cases).
    fnv = dict(load("spec/fnv1a-utf16-v1/cases.json"), cases=[], case_count=0)
    target.write("invalid-fnv-cases-in-doc-folder", "doc-membership-v1/cases.json\n" + dump(fnv))
    text = compact(doc)
    target.write("valid-doc-cases-no-header", text)
    target.write("edge-header-only", "fnv1a-utf16-v1/cases.json\n")
    target.write("edge-unknown-header", "spec/other/cases.json\n{}")
    edges(target)
    edges(target, b"fnv1a-utf16-v1/checks.json\n")


# ---------------------------------------------------------------------------------
# vectors


def vectors():
    target = Target("vectors")
    # Every vector file of every protocol.
    files = [
        f"vectors/{protocol}/{file.name}"
        for protocol in spec_protocols()
        for file in sorted((ROOT / "vectors" / protocol).glob("*.json"))
    ]
    for path in files:
        full = load(path)
        short = path.removeprefix("vectors/").removesuffix(".json").replace("/", "-")
        # A few cases with as many different flags as possible, smallest first.
        chosen, flags = [], set()
        for case in sorted(full["cases"], key=lambda c: len(json.dumps(c))):
            case_flags = set(case.get("flags", []))
            for lookup in case.get("lookups", []):
                case_flags |= set(lookup.get("flags", []))
            if not case_flags <= flags or not chosen:
                chosen.append(case)
                flags |= case_flags
            if len(chosen) == 6:
                break
        trimmed = dict(full)
        trimmed["cases"] = chosen
        trimmed["case_count"] = len(chosen)
        trimmed["flags"] = {k: v for k, v in full["flags"].items() if k in flags}
        text = dump(trimmed)
        target.write(f"valid-{short}", text)
        target.cuts(short, text, (0.4, 0.9))

        def variant(name, change):
            spec = json.loads(json.dumps(trimmed))
            change(spec)
            target.write(f"invalid-{short}-{name}", compact(spec))

        variant("count", lambda s: s.update(case_count=s["case_count"] + 1))
        variant("unused-flag", lambda s: s["flags"].update({"unused": "declared, never used"}))
        variant("duplicate-id", lambda s: s["cases"].append(s["cases"][0]) or s.update(case_count=s["case_count"] + 1))
        variant("schema", lambda s: s.update({"$schema": "elsewhere.json"}))
    # A case that contradicts itself: a position at m.
    positions = load("vectors/fnv1a-utf16-v1/positions.json")
    case = dict(positions["cases"][0])
    case["positions"] = [case["m"]] * len(case["positions"])
    flags = {k: v for k, v in positions["flags"].items() if k in case["flags"]}
    target.write("invalid-fnv-position-at-m", dump(dict(positions, cases=[case], case_count=1, flags=flags)))
    target.write("invalid-upper-hex", dump(dict(load("vectors/doc-membership-v1/positions.json"), cases=[], case_count=0, flags={})).replace('"doc-membership-v1"', '"DOC-membership-v1"'))
    edges(target)


# ---------------------------------------------------------------------------------
# session_import


def session_import():
    target = Target("session_import")
    fixture = (ROOT / "spec/fnv1a-utf16-v1/session-v1.json").read_text(encoding="utf-8")
    target.write("valid-fixture-v1", fixture)
    target.cuts("fixture-v1", fixture, (0.1, 0.5, 0.97))
    document = json.loads(fixture)
    target.write("valid-fixture-compact", json.dumps(document, separators=(",", ":")))

    def variant(name, change, prefix="invalid"):
        doc = json.loads(fixture)
        change(doc)
        target.write(f"{prefix}-{name}", dump(doc))

    variant("empty-session", lambda d: d.update(params=None, entries=[], history=[], last_operation=None, counters={"negative_queries": 0, "false_positives": 0}, drafts={"m": "64", "k": "3", "insert": "", "query": ""}), prefix="valid")
    variant("version-2", lambda d: d.update(version=2))
    variant("version-0", lambda d: d.update(version=0))
    variant("format", lambda d: d.update(format="other"))
    variant("protocol", lambda d: d.update(protocol="doc-membership-v1"))
    variant("m-out-of-range", lambda d: d.update(params={"m": 2048, "k": 1}))
    variant("draft-disagrees", lambda d: d["drafts"].update(m="9"))
    variant("duplicate-entry", lambda d: d["entries"].append("a"))
    variant("empty-entry", lambda d: d["entries"].append(""))
    variant("counters", lambda d: d.update(counters={"negative_queries": 1, "false_positives": 2}))
    variant("history-outcome", lambda d: d["history"][0].update(outcome="truly_present"))
    variant("last-operation-hash", lambda d: d["last_operation"].update(h1=1))
    variant("unknown-field", lambda d: d.update(extra=1))
    variant("missing-field", lambda d: d.pop("panels"))
    variant("units-out-of-range", lambda d: d["entries"].append([65536]))
    # SESSION.md section 10, steps 2 and 3: texts the three implementations once read differently.
    target.write("invalid-version-twice", fixture.replace('"version": 1,', '"version": 1, "version": 99,', 1))
    target.write("invalid-drafts-key-twice", fixture.replace('"query":"i"}', '"query":"i","query":"i"}', 1))
    target.write("invalid-byte-order-mark", "\ufeff" + fixture)
    target.write("invalid-lone-trailing-surrogate", fixture.replace('"query":"i"}', '"query":"\\udc00x"}', 1))
    target.write("invalid-nesting-128", '{"format": "bloomproof-session", "version": 2, "x": ' + "[" * 127 + "]" * 127 + "}")
    target.write("invalid-number-1e400", fixture.replace('"negative_queries":2', '"negative_queries":1e400', 1))
    # Exports embedded in the spec's scripts (import documents and raw texts).
    spec = load("spec/fnv1a-utf16-v1/cases.json")
    count = 0
    for case in spec["cases"]:
        for step in case.get("input", {}).get("script", []):
            if step.get("op") == "import_text" and len(step["text"]) < 4096:
                target.write(f"edge-spec-text-{count:02}", step["text"])
                count += 1
            elif step.get("op") == "import":
                target.write(f"edge-spec-document-{count:02}", json.dumps(step["document"]))
                count += 1
            if count >= 24:
                break
    edges(target)


# ---------------------------------------------------------------------------------
# adapter_request


def adapter_request():
    target = Target("adapter_request")
    number = 0

    def request(name, body, prefix="valid"):
        nonlocal number
        number += 1
        line = body if isinstance(body, str) else json.dumps(dict({"id": number}, **body), separators=(",", ":"))
        target.write(f"{prefix}-{name}", line)

    for line in (ROOT / "spec/ADAPTER.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("> {"):
            parsed = json.loads(line[2:])
            request(f"adapter-md-{parsed['id']}-{parsed['op']}", line[2:])
    params = {"m": 16, "k": 3, "seed_hex": "6c6162"}
    doc = {"protocol": "doc-membership-v1", "params": params}
    records = ["646f632d3030", "646f632d3031", "646f632d3032"]
    request("doc-sha256", {"protocol": "doc-membership-v1", "op": "sha256", "data": "616263"})
    request("doc-frame", dict(doc, op="frame", index=2, item="00"))
    request("doc-lookup-many", dict(doc, op="lookup_many", records=records, items=["00", "646f632d3030", ""]))
    request("doc-read-damaged", dict(doc, op="read", packed_hex="c291", records=records[1:], items=["646f632d3031"]))
    request("doc-mutate-assign-fields", dict(doc, op="mutate", records=records, attempt="assign_fields",
                                             other=dict(params=dict(m=9, k=8, seed_hex=""), records=["00"]), probes=["646f632d3030", "ff"]))
    request("doc-typed-lookup", {"protocol": "doc-membership-v1", "op": "typed", "records": {"list": [{"bytes": "61"}]}, "m": {"int": 16}, "k": {"int": 2}, "seed": {"bytes": ""}, "item": {"str": "a"}})
    request("doc-positions-m-too-big", dict(doc, op="positions", params=dict(params, m=513), item="00"))
    request("doc-frame-index-past-k", dict(doc, op="frame", index=200, item="00"))
    request("doc-build-max-records", dict(doc, op="build", records=["%02x" % i for i in range(65)]))
    request("fnv-positions-lone-surrogate", {"protocol": "fnv1a-utf16-v1", "op": "positions", "m": 1024, "k": 12, "units": [55296, 0, 65535]})
    request("fnv-estimates-zero", {"protocol": "fnv1a-utf16-v1", "op": "estimates", "m": 0, "k": 0, "n": 0})
    spec = load("spec/fnv1a-utf16-v1/cases.json")
    for case in spec["cases"]:
        script = case.get("input", {}).get("script")
        if script and len(json.dumps(script)) < 2048:
            # Scripts that adapter_request skips as costly (see `is_cheap` in crates/adapter/src/protocols/fnv1a_utf16_v1/serve.rs).
            costly = len(script) > 16 or any(
                step.get("count", 0) > 64 or step.get("bytes", 0) > 2**20 or step.get("units", 0) > 2**20
                for step in script
            )
            request(f"fnv-session-{case['id'].replace('/', '-')}", {"protocol": "fnv1a-utf16-v1", "op": "session", "script": script}, prefix="edge" if costly else "valid")
    def estimate_work(m, k, n):
        # As FnvOp::is_cheap (the adapter crate) counts it: k * n * m after the clamping.
        return min(max(k, 1), 12) * min(n, 1024) * min(max(m, 8), 1024)

    for case in spec["cases"]:
        given = case["input"]
        if case["check"] == "estimates_pinned" and estimate_work(given["m"], given["k"], given["n"]) <= 2**22:
            request(f"fnv-estimates-{case['id']}", dict(given, protocol="fnv1a-utf16-v1", op="estimates"))
            break
    huge = 2**64 - 1
    request("fnv-session-save-local-huge", {"protocol": "fnv1a-utf16-v1", "op": "session", "script": [{"op": "save_local", "units": huge}]})
    request("fnv-session-import-padded-huge", {"protocol": "fnv1a-utf16-v1", "op": "session", "script": [{"op": "import_padded", "bytes": huge}]})
    request("fnv-session-insert-many-huge", {"protocol": "fnv1a-utf16-v1", "op": "session", "script": [{"op": "insert_many", "prefix": "x", "count": 2**32 - 1}]}, prefix="edge")
    bad = {
        "not-object": "[1,2]",
        "no-id": '{"protocol":"fnv1a-utf16-v1","op":"estimates","m":8,"k":1,"n":1}',
        "negative-id": '{"id":-1,"protocol":"fnv1a-utf16-v1","op":"estimates","m":8,"k":1,"n":1}',
        "float-id": '{"id":1.5,"protocol":"fnv1a-utf16-v1","op":"estimates","m":8,"k":1,"n":1}',
        "no-protocol": '{"id":1,"op":"sha256","data":""}',
        "unknown-protocol": '{"id":1,"protocol":"fnv1a-utf16-v2","op":"estimates","m":8,"k":1,"n":1}',
        "unknown-op": '{"id":"x","protocol":"doc-membership-v1","op":"delete"}',
        "extra-field": '{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"","extra":1}',
        "bad-hex": '{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"6"}',
        "index-over-u8": '{"id":1,"protocol":"doc-membership-v1","op":"frame","params":{"m":16,"k":3,"seed_hex":""},"index":256,"item":""}',
        "unit-over-u16": '{"id":1,"protocol":"fnv1a-utf16-v1","op":"positions","m":8,"k":1,"units":[65536]}',
        "flat-params": '{"id":1,"protocol":"doc-membership-v1","op":"positions","m":16,"k":3,"seed":"","item":""}',
        "m-over-u64": '{"id":1,"protocol":"doc-membership-v1","op":"positions","params":{"m":18446744073709551616,"k":3,"seed_hex":""},"item":""}',
        "script-op": '{"id":1,"protocol":"fnv1a-utf16-v1","op":"session","script":[{"op":"explode"}]}',
    }
    for name, line in bad.items():
        request(name, line, prefix="invalid")
    # serde_json keeps the last of duplicate keys; either answer is fine, no panic.
    request("duplicate-key", '{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"","data":"00"}', prefix="edge")
    edges(target)


def stale_files():
    """Every difference between the collected corpus and fuzz/corpus/ on disk."""
    found = []
    for target in TARGETS:
        folder = CORPUS / target.name
        on_disk = {}
        if folder.is_dir():
            on_disk = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
        for name in sorted(set(on_disk) | set(target.files)):
            path = f"fuzz/corpus/{target.name}/{name}"
            if name not in on_disk:
                found.append(f"{path}: missing")
            elif name not in target.files:
                found.append(f"{path}: not written by this script")
            elif on_disk[name] != target.files[name]:
                found.append(f"{path}: differs from what this script writes")
    return found


def main(args):
    if args not in ([], ["--check"]):
        print("usage: python3 fuzz/seed_corpus.py [--check]", file=sys.stderr)
        return 2
    spec_cases()
    vectors()
    session_import()
    adapter_request()
    if args == ["--check"]:
        stale = stale_files()
        if stale:
            print(
                "fuzz/corpus/ is stale (run python3 fuzz/seed_corpus.py):\n  "
                + "\n  ".join(stale),
                file=sys.stderr,
            )
            return 1
        count = sum(len(target.files) for target in TARGETS)
        print(f"fuzz/corpus/ is fresh: {count} files")
        return 0
    for target in TARGETS:
        folder = CORPUS / target.name
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for name, data in target.files.items():
            (folder / name).write_bytes(data)
        size = sum(len(data) for data in target.files.values())
        print(f"{target.name}: {len(target.files)} files, {size} bytes")
    print(f"total: {sum(len(d) for t in TARGETS for d in t.files.values())} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
