#!/usr/bin/env python3
"""Verify every generated vector file (vectors/<protocol>/*.json) with the independent
Python implementation in bloomproof_py.  Standard library only, Python 3.11+.

    bloomproof-py-check-vectors            # every vector file of ./vectors
    bloomproof-py-check-vectors FILE...    # only these files

(or `python3 -m bloomproof_py.check_vectors`), from the repository root.

Prints every failure with its file and case id and ends with exactly one line
`N passed, M failed` (N, M count cases).  The exit code is non-zero on any failure and
on any malformed file (unknown or missing keys, wrong case_count, a repeated id, an
undeclared or unused flag, a protocol, kind or schema that does not match the file):
a malformed file's cases all count as failed, an unreadable file as one failed case.
"""
import json
import os
import re
import sys

if not __package__:
    # Run as a file (`python3 .../bloomproof_py/check_vectors.py`): the package is its folder.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bloomproof_py import doc_membership_v1 as doc  # noqa: E402
from bloomproof_py import fnv1a_utf16_v1 as fnv  # noqa: E402
from bloomproof_py import typed  # noqa: E402

# The vectors folder of the checkout it runs in (run from the repository root).
VECTORS = os.path.abspath("vectors")
PROTOCOLS = ("doc-membership-v1", "fnv1a-utf16-v1")
NOT_PROTOCOL_DIRS = ("schemas",)
# Version 3 wrote a snapshot lookup's three booleans beside item_hex (not under
# expect); version 2 also a rejection's typed arguments at case level (not under
# input); version 1 also m, k, seed_hex flat and packed_bits_hex.
FORMAT_VERSION = 4
TOP_KEYS = ("$schema", "protocol", "kind", "format_version", "generator", "case_count", "flags", "cases")
LOWER_HEX = re.compile(r"(?:[0-9a-f]{2})*\Z")


class Malformed(Exception):
    """The file (or one case of it) does not have the documented shape."""


# ------------------------------------------------------------------ shape checking

def is_int(v):
    return type(v) is int


def is_uint(v):
    return type(v) is int and v >= 0


def is_bool(v):
    return type(v) is bool


def is_hex(v):
    return type(v) is str and LOWER_HEX.match(v) is not None


def is_hex_list(v):
    return type(v) is list and all(is_hex(x) for x in v)


def is_uint_list(v):
    return type(v) is list and all(is_uint(x) for x in v)


def is_units(v):
    return type(v) is list and all(type(x) is int and 0 <= x <= 0xFFFF for x in v)


def is_flags(v):
    return type(v) is list and all(type(x) is str for x in v)


def is_str(v):
    return type(v) is str


def is_text_or_null(v):
    return v is None or type(v) is str


def is_typed(v):
    try:
        typed.build(v)
        return True
    except typed.MalformedTyped:
        return False


def is_typed_or_null(v):
    return v is None or is_typed(v)


TYPED_CALL_WHAT = "an object of typed values: records, m, k, seed and optionally item"


def is_typed_call(v):
    """A rejection's input: the constructor's typed arguments, and an optional item."""
    return (type(v) is dict and {"records", "m", "k", "seed"} <= set(v) <= {"records", "m", "k", "seed", "item"}
            and all(is_typed(v[key]) for key in ("records", "m", "k", "seed"))
            and is_typed_or_null(v.get("item")))


def is_expect(v):
    return (type(v) is dict and set(v) == {"error", "field"}
            and v["error"] in ("type", "value") and type(v["field"]) is str)


def shape(obj, spec, where):
    """spec: {key: (required, predicate, what)}; unknown keys are errors."""
    if type(obj) is not dict:
        raise Malformed(f"{where}: expected an object")
    unknown = sorted(set(obj) - set(spec))
    if unknown:
        raise Malformed(f"{where}: unknown key(s) {', '.join(unknown)}")
    for key, (required, predicate, what) in spec.items():
        if key not in obj:
            if required:
                raise Malformed(f"{where}: missing key {key!r}")
            continue
        if not predicate(obj[key]):
            raise Malformed(f"{where}: {key!r} must be {what}, got {json.dumps(obj[key])[:80]}")


R, O = True, False
PARAMS_WHAT = '{"m": integer, "k": integer, "seed_hex": lowercase hex}'


def is_doc_params(v):
    """The nested parameters of a doc-membership-v1 case: exactly m, k and seed_hex."""
    return (type(v) is dict and set(v) == {"m", "k", "seed_hex"}
            and is_uint(v["m"]) and is_uint(v["k"]) and is_hex(v["seed_hex"]))


CASE_SHAPES = {
    ("doc-membership-v1", "positions"): {
        "id": (R, is_str, "a string"), "flags": (R, is_flags, "an array of flag names"),
        "params": (R, is_doc_params, PARAMS_WHAT), "item_hex": (R, is_hex, "lowercase hex"),
        "hashes": (R, lambda v: type(v) is list, "an array"),
        "positions": (R, is_uint_list, "an array of integers"),
    },
    ("doc-membership-v1", "snapshots"): {
        "id": (R, is_str, "a string"), "flags": (R, is_flags, "an array of flag names"),
        "params": (R, is_doc_params, PARAMS_WHAT),
        "records_hex": (R, is_hex_list, "an array of lowercase hex"),
        "packed_hex": (R, is_hex, "lowercase hex"), "bits_set": (R, is_uint, "an integer"),
        "documents": (R, is_uint, "an integer"), "lookups": (R, lambda v: type(v) is list, "an array"),
    },
    ("doc-membership-v1", "rejections"): {
        "id": (R, is_str, "a string"), "flags": (R, is_flags, "an array of flag names"),
        "input": (R, is_typed_call, TYPED_CALL_WHAT),
        "expect": (R, is_expect, '{"error": "type"|"value", "field": text}'),
    },
    ("fnv1a-utf16-v1", "positions"): {
        "id": (R, is_str, "a string"), "flags": (R, is_flags, "an array of flag names"),
        "m": (R, is_uint, "an integer"), "k": (R, is_uint, "an integer"),
        "units": (R, is_units, "an array of code units 0..=65535"),
        "text": (O, is_text_or_null, "a string or null"),
        "h1": (R, is_uint, "an integer"), "h2": (R, is_uint, "an integer"),
        "positions": (R, is_uint_list, "an array of integers"),
    },
    ("fnv1a-utf16-v1", "rejections"): {
        "id": (R, is_str, "a string"), "flags": (R, is_flags, "an array of flag names"),
        "m": (R, is_uint, "an integer"), "k": (R, is_uint, "an integer"),
        "units": (R, is_units, "an array of code units 0..=65535"),
        "expect": (R, is_expect, '{"error": "type"|"value", "field": text}'),
    },
}
DOC_HASH_SHAPE = {
    "index": (R, is_uint, "an integer"), "message_hex": (R, is_hex, "lowercase hex"),
    "digest_hex": (R, is_hex, "lowercase hex"), "position": (R, is_uint, "an integer"),
}
TRIPLE = ("maybe_present", "exact_checked", "duplicate")
TRIPLE_SHAPE = {key: (R, is_bool, "a boolean") for key in TRIPLE}
DOC_LOOKUP_SHAPE = {
    "item_hex": (R, is_hex, "lowercase hex"), "flags": (R, is_flags, "an array of flag names"),
    "expect": (R, lambda v: type(v) is dict, '{"maybe_present", "exact_checked", "duplicate"}'),
}


def case_flags(case):
    """Every flag a case uses, its own and its lookups'."""
    used = list(case.get("flags", []))
    for lookup in case.get("lookups", []) if type(case.get("lookups")) is list else []:
        if type(lookup) is dict and is_flags(lookup.get("flags")):
            used.extend(lookup["flags"])
    return used


# ------------------------------------------------------------------ verification
# Each verifier returns a list of problems (empty: the case passes).

def _cmp(problems, what, expected, actual):
    if expected != actual:
        problems.append(f"{what}: expected {expected!r}, got {actual!r}")


def _raises(call):
    """('type'|'value'|None, field, message) of what `call` raises."""
    try:
        call()
    except TypeError as e:
        return "type", getattr(e, "field", None), str(e)
    except ValueError as e:
        return "value", getattr(e, "field", None), str(e)
    return None, None, "no error"


def verify_doc_positions(case):
    problems = []
    params = case["params"]
    m, k = params["m"], params["k"]
    seed, item = bytes.fromhex(params["seed_hex"]), bytes.fromhex(case["item_hex"])
    try:
        stages = doc.stages(m, k, seed, item)
    except (TypeError, ValueError) as e:
        return [f"the inputs are rejected: {e}"]
    hashes = case["hashes"]
    if len(hashes) != k:
        problems.append(f"hashes: expected k={k} entries, the file has {len(hashes)}")
    for i, (entry, (msg, digest, position)) in enumerate(zip(hashes, stages)):
        shape(entry, DOC_HASH_SHAPE, f"hashes[{i}]")
        _cmp(problems, f"hashes[{i}].index", entry["index"], i)
        _cmp(problems, f"hashes[{i}].message_hex", entry["message_hex"], msg.hex())
        _cmp(problems, f"hashes[{i}].digest_hex", entry["digest_hex"], digest.hex())
        _cmp(problems, f"hashes[{i}].position", entry["position"], position)
    _cmp(problems, "positions", case["positions"], [p for _, _, p in stages])
    flags = set(case["flags"])
    positions = [p for _, _, p in stages]
    claims = {
        "empty-item": len(item) == 0, "max-item": len(item) == doc.ITEM_MAX,
        "empty-seed": len(seed) == 0, "max-seed": len(seed) == doc.SEED_MAX,
        "min-m": m == doc.M_MIN, "max-m": m == doc.M_MAX, "m-not-multiple-of-8": m % 8 != 0,
        "min-k": k == doc.K_MIN, "max-k": k == doc.K_MAX,
        "repeated-position": len(set(positions)) < len(positions),
    }
    problems += _flag_claims(flags, claims)
    return problems


def verify_doc_snapshots(case):
    problems = []
    params = case["params"]
    m, k, seed = params["m"], params["k"], bytes.fromhex(params["seed_hex"])
    records = tuple(bytes.fromhex(r) for r in case["records_hex"])
    try:
        snap = doc.DocumentPrefilter(records, m, k, seed)
    except (TypeError, ValueError) as e:
        return [f"the snapshot is rejected: {e}"]
    packed = snap.packed_bits()
    _cmp(problems, "packed_hex", case["packed_hex"], packed.hex())
    _cmp(problems, "bits_set", case["bits_set"], bin(snap.bits).count("1"))
    _cmp(problems, "documents", case["documents"], len(snap.documents))
    if snap.bits >> m:
        problems.append(f"implementation: a bit at or above m={m} is set")
    distinct = list(dict.fromkeys(records))
    queried = [bytes.fromhex(l["item_hex"]) if type(l) is dict and is_hex(l.get("item_hex")) else None
               for l in case["lookups"]]
    if queried[:len(distinct)] != distinct or any(q in snap.documents for q in queried[len(distinct):]):
        problems.append("lookups: must be every distinct record in order of first occurrence, then non-members")
    any_false_positive = False
    for i, lookup in enumerate(case["lookups"]):
        shape(lookup, DOC_LOOKUP_SHAPE, f"lookups[{i}]")
        shape(lookup["expect"], TRIPLE_SHAPE, f"lookups[{i}].expect")
        item = bytes.fromhex(lookup["item_hex"])
        try:
            got = snap.lookup(item)
        except (TypeError, ValueError) as e:
            problems.append(f"lookups[{i}] ({lookup['item_hex']}): rejected: {e}")
            continue
        for key in TRIPLE:
            _cmp(problems, f"lookups[{i}] ({lookup['item_hex'] or 'empty'}).expect.{key}",
                 lookup["expect"][key], got[key])
        member = item in snap.documents
        false_positive = got["maybe_present"] and not member
        any_false_positive |= false_positive
        lflags = set(lookup["flags"])
        problems += _flag_claims(lflags, {
            "member": member, "non-member": not member, "false-positive": false_positive,
            "repeated-record": records.count(item) > 1,
            "empty-item": len(item) == 0, "max-item": len(item) == doc.ITEM_MAX,
        }, f"lookups[{i}] ")
    flags = set(case["flags"])
    claims = {
        "empty-seed": len(seed) == 0, "max-seed": len(seed) == doc.SEED_MAX,
        "min-m": m == doc.M_MIN, "max-m": m == doc.M_MAX, "m-not-multiple-of-8": m % 8 != 0,
        "min-k": k == doc.K_MIN, "max-k": k == doc.K_MAX,
        "empty-snapshot": len(records) == 0, "max-records": len(records) == doc.RECORDS_MAX,
        "repeated-record": len(set(records)) < len(records),
        "false-positive": any_false_positive,
        "empty-item": any(len(x) == 0 for x in records + tuple(bytes.fromhex(l["item_hex"]) for l in case["lookups"])),
        "max-item": any(len(x) == doc.ITEM_MAX for x in records + tuple(bytes.fromhex(l["item_hex"]) for l in case["lookups"])),
    }
    problems += _flag_claims(flags, claims)
    return problems


def verify_doc_rejections(case):
    problems = []
    call = case["input"]
    records, m, k, seed = (typed.build(call[key], key) for key in ("records", "m", "k", "seed"))
    expect = case["expect"]
    if call.get("item") is not None:
        item = typed.build(call["item"], "item")
        try:
            snap = doc.DocumentPrefilter(records, m, k, seed)
        except (TypeError, ValueError) as e:
            return [f"the construction must succeed (the lookup is what is rejected), but: {e}"]
        kind, field, message = _raises(lambda: snap.lookup(item))
    else:
        kind, field, message = _raises(lambda: doc.DocumentPrefilter(records, m, k, seed))
    if (kind, field) != (expect["error"], expect["field"]):
        problems.append(f"expected a {expect['error']} error naming {expect['field']!r}, "
                        f"got {kind or 'no'} error naming {field!r} ({message})")
    flags = set(case["flags"])
    problems += _flag_claims(flags, {
        "type-error": expect["error"] == "type", "value-error": expect["error"] == "value",
        "empty-snapshot": type(records) is tuple and len(records) == 0,
        "max-records": type(records) in (tuple, list) and len(records) == doc.RECORDS_MAX,
    })
    return problems


def _has_pair(units):
    return any(0xD800 <= a <= 0xDBFF and 0xDC00 <= b <= 0xDFFF for a, b in zip(units, units[1:]))


def verify_fnv_positions(case):
    problems = []
    m, k, units = case["m"], case["k"], case["units"]
    try:
        h1, h2, positions = fnv.positions(m, k, units)
    except ValueError as e:
        return [f"the parameters are rejected: {e}"]
    if not fnv.UNITS_MIN <= len(units) <= fnv.UNITS_MAX:
        problems.append(f"units: a string has {fnv.UNITS_MIN}..={fnv.UNITS_MAX} code units, the case has {len(units)}")
    _cmp(problems, "h1", case["h1"], h1)
    _cmp(problems, "h2", case["h2"], h2)
    _cmp(problems, "positions", case["positions"], positions)
    valid = fnv.is_well_formed(units)
    if "text" in case and case["text"] is not None:
        _cmp(problems, "text: its UTF-16 code units", units, fnv.to_units(case["text"]))
    if valid and case.get("text") is None:
        problems.append("text: absent, but the units are valid UTF-16 (text is present exactly when they are)")
    if not valid and case.get("text") is not None:
        problems.append("text: present, but the units hold a lone surrogate")
    wraps = any(h1 + i * h2 >= 1 << 32 and ((h1 + i * h2) & fnv.MASK32) % m != (h1 + i * h2) % m
                for i in range(k))
    problems += _flag_claims(set(case["flags"]), {
        "min-m": m == fnv.M_MIN, "max-m": m == fnv.M_MAX, "m-not-multiple-of-8": m % 8 != 0,
        "min-k": k == fnv.K_MIN, "max-k": k == fnv.K_MAX,
        "min-length": len(units) == fnv.UNITS_MIN, "max-length": len(units) == fnv.UNITS_MAX,
        "max-unit": 0xFFFF in units, "zero-unit": 0 in units,
        "lone-surrogate": not valid, "surrogate-pair": _has_pair(units),
        "repeated-position": len(set(positions)) < len(positions),
        "wrap-would-differ": wraps,
    })
    return problems


def verify_fnv_rejections(case):
    problems = []
    expect = case["expect"]
    m_bad = not fnv.M_MIN <= case["m"] <= fnv.M_MAX
    k_bad = not fnv.K_MIN <= case["k"] <= fnv.K_MAX
    if m_bad == k_bad:
        problems.append("exactly one of m and k must be out of range")
    if not fnv.UNITS_MIN <= len(case["units"]) <= fnv.UNITS_MAX:
        problems.append(f"units: a valid string has 1..=256 code units, the case has {len(case['units'])}")
    kind, field, message = _raises(lambda: fnv.positions(case["m"], case["k"], case["units"]))
    if (kind, field) != (expect["error"], expect["field"]):
        problems.append(f"expected a {expect['error']} error naming {expect['field']!r}, "
                        f"got {kind or 'no'} error naming {field!r} ({message})")
    bad_field = "m" if m_bad else "k"
    lo, hi = (fnv.M_MIN, fnv.M_MAX) if bad_field == "m" else (fnv.K_MIN, fnv.K_MAX)
    truncations = [case[bad_field] & mask for mask in (0xFF, 0xFFFF, 0xFFFFFFFF)]
    problems += _flag_claims(set(case["flags"]), {
        "type-error": expect["error"] == "type", "value-error": expect["error"] == "value",
        "truncation-trap": any(lo <= t <= hi for t in truncations),
    })
    return problems


def format_problems(case):
    """vectors/README.md: flags are sorted lists, and a case's flags include its lookups' flags."""
    problems = []
    lists = [("flags", case["flags"])] + [(f"lookups[{i}].flags", l["flags"]) for i, l in enumerate(case.get("lookups", []))]
    for where, flags in lists:
        if flags != sorted(set(flags)):
            problems.append(f"{where}: not a sorted list of distinct names: {flags}")
    missing = sorted({f for _, flags in lists[1:] for f in flags} - set(case["flags"]))
    if missing:
        problems.append(f"flags: the case's flags lack its lookups' flags {missing}")
    return problems


def _flag_claims(flags, claims, where=""):
    """A flag whose meaning can be computed must be true of the case."""
    return [f"{where}flag {name!r} does not hold for this case"
            for name in sorted(flags) if name in claims and not claims[name]]


VERIFIERS = {
    ("doc-membership-v1", "positions"): verify_doc_positions,
    ("doc-membership-v1", "snapshots"): verify_doc_snapshots,
    ("doc-membership-v1", "rejections"): verify_doc_rejections,
    ("fnv1a-utf16-v1", "positions"): verify_fnv_positions,
    ("fnv1a-utf16-v1", "rejections"): verify_fnv_rejections,
}


# ------------------------------------------------------------------ files

def check_file(path, report):
    """Returns (passed, failed)."""
    root = os.path.dirname(VECTORS)
    rel = os.path.relpath(path, root) if path.startswith(root + os.sep) else path
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError) as e:
        report(f"MALFORMED {rel}: cannot read it as JSON: {e}")
        return 0, 1
    cases = data.get("cases") if type(data) is dict else None
    n_cases = len(cases) if type(cases) is list else 1
    try:
        protocol, kind = validate_file(path, data)
    except Malformed as e:
        report(f"MALFORMED {rel}: {e}")
        return 0, n_cases
    verifier = VERIFIERS[(protocol, kind)]
    passed = failed = 0
    for case in cases:
        try:
            problems = verifier(case) + format_problems(case)
        except Malformed as e:
            problems = [f"malformed: {e}"]
        except Exception as e:  # noqa: BLE001 - a crash on one case is that case's failure
            problems = [f"crashed: {type(e).__name__}: {e}"]
        if problems:
            failed += 1
            report(f"FAIL {rel} {case['id']}:")
            for problem in problems:
                report(f"    {problem}")
        else:
            passed += 1
    return passed, failed


def validate_file(path, data):
    """The file-level guard; returns (protocol, kind)."""
    if type(data) is not dict:
        raise Malformed("the top level must be an object")
    unknown = sorted(set(data) - set(TOP_KEYS))
    if unknown:
        raise Malformed(f"unknown top-level key(s): {', '.join(unknown)}")
    missing = [key for key in TOP_KEYS if key not in data]
    if missing:
        raise Malformed(f"missing top-level key(s): {', '.join(missing)}")
    folder = os.path.basename(os.path.dirname(path))
    name = os.path.splitext(os.path.basename(path))[0]
    protocol, kind = data["protocol"], data["kind"]
    if protocol != folder:
        raise Malformed(f"protocol {protocol!r} does not match its folder {folder!r}")
    if kind != name:
        raise Malformed(f"kind {kind!r} does not match the file name {name!r}.json")
    if (protocol, kind) not in CASE_SHAPES:
        raise Malformed(f"no case kind {kind!r} is documented for {protocol}")
    expected_schema = f"../schemas/{protocol}.{kind}.schema.json"
    if data["$schema"] != expected_schema:
        raise Malformed(f"$schema is {data['$schema']!r}, expected {expected_schema!r}")
    if type(data["format_version"]) is not int or data["format_version"] != FORMAT_VERSION:
        raise Malformed(f"format_version {data['format_version']!r} is not {FORMAT_VERSION}")
    if type(data["generator"]) is not str:
        raise Malformed("generator must be a string")
    flags = data["flags"]
    if type(flags) is not dict or not all(type(v) is str and v for v in flags.values()):
        raise Malformed("flags must map each flag name to its description")
    cases = data["cases"]
    if type(cases) is not list:
        raise Malformed("cases must be an array")
    if type(data["case_count"]) is not int or data["case_count"] != len(cases):
        raise Malformed(f"case_count is {data['case_count']!r} but the file has {len(cases)} cases")
    if not cases:
        raise Malformed("the file has no cases")
    seen, used = set(), set()
    for position, case in enumerate(cases):
        where = f"case {case.get('id', '#' + str(position)) if type(case) is dict else '#' + str(position)}"
        shape(case, CASE_SHAPES[(protocol, kind)], where)
        if case["id"] in seen:
            raise Malformed(f"{where}: the id repeats")
        seen.add(case["id"])
        for flag in case_flags(case):
            if flag not in flags:
                raise Malformed(f"{where}: flag {flag!r} is not declared in the file's flags table")
            used.add(flag)
    unused = sorted(set(flags) - used)
    if unused:
        raise Malformed(f"declared flag(s) used by no case: {', '.join(unused)}")
    return protocol, kind


def discover():
    """Every vectors/<protocol>/*.json of the protocols this package implements, and the
    problems: a protocol of PROTOCOLS without files. Another protocol's folder is skipped
    with a note: this package does not implement it, as its adapter's handshake says
    (the conformance runner reports such a protocol as not run)."""
    files, problems = [], []
    for entry in sorted(os.listdir(VECTORS)):
        folder = os.path.join(VECTORS, entry)
        if not os.path.isdir(folder) or entry in NOT_PROTOCOL_DIRS or entry.startswith("."):
            continue
        if entry not in PROTOCOLS:
            print(f"skipped vectors/{entry}/: a protocol this package does not implement")
            continue
        files += [os.path.join(folder, name) for name in sorted(os.listdir(folder)) if name.endswith(".json")]
    for protocol in PROTOCOLS:
        if not any(os.path.dirname(f).endswith(protocol) for f in files):
            problems.append(f"MALFORMED vectors/{protocol}/: no vector file")
    return files, problems


def main(argv):
    def report(line):
        print(line, flush=False)

    if argv:
        files, problems = [os.path.abspath(a) for a in argv], []
    else:
        files, problems = discover()
    passed = failed = 0
    for problem in problems:
        report(problem)
        failed += 1
    for path in files:
        p, f = check_file(path, report)
        passed += p
        failed += f
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


def console():
    """The `bloomproof-py-check-vectors` command."""
    sys.exit(main(sys.argv[1:]))


if __name__ == "__main__":
    console()
