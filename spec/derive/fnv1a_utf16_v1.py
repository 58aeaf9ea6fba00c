#!/usr/bin/env python3
"""Derives spec/fnv1a-utf16-v1/cases.json from the seed document; the checks the cases
belong to are documented by hand in spec/fnv1a-utf16-v1/checks.json.

Expected values come from:
  * the seed's published figures (the base hashes of "a", where a..i land with m=8,
    k=1, the observed rate of the smaller example), read from `published_figures` in
    spec/fnv1a-utf16-v1/checks.json (never written here) and flagged `seed-figure`;
    this script asserts that its own hashing reproduces each one it reads;
  * the seed's rules, applied by hand to small scripts (`rule`);
  * this file's own FNV-1a over UTF-16 code units, written from the protocol text
    (`derived`), and, for the estimates, exact rational arithmetic with Python's
    fractions (`exact-rational`): the classic and finite-m formulas evaluated with
    high-precision Fractions, and the exact rate by the Bose et al. formula
    sum_i P(the query's k throws hit i distinct bits) * P(i given bits all set),
    with inclusion-exclusion for the second factor.

Usage: derive/fnv1a_utf16_v1.py [--check]
"""
import json
import math
from fractions import Fraction
from pathlib import Path

from spec_files import case, derive, published_figures

PROTOCOL = "fnv1a-utf16-v1"
OUT = Path(__file__).resolve().parent.parent / PROTOCOL
FIXTURE = Path(__file__).resolve().parent.parent / "fnv1a-utf16-v1/session-v1.json"

# The seed's published figures (seed 002, as spec/fnv1a-utf16-v1/PROTOCOL.md states
# them), as checks.json states them.
FIGURES = published_figures(OUT)
A_H1, A_H2 = FIGURES["a.h1"], FIGURES["a.h2"]
M8_K1 = {c: FIGURES["m8_k1.position(%s)" % c] for c in "abcdefghi"}
SMALL_EXAMPLE_RATE = tuple(int(x) for x in FIGURES["insert_a_query_i_a_b.observed_rate"].split("/"))


def utf16(text):
    data = text.encode("utf-16-le", "surrogatepass")
    return [int.from_bytes(data[i:i + 2], "little") for i in range(0, len(data), 2)]


def fnv(units, basis):
    h = basis
    for u in units:
        h = ((h ^ u) * 16777619) % 2 ** 32
    return h


def hashes(units):
    return fnv(units, 2166136261), fnv(units, 0xDEADBEEF) | 1


def positions(m, k, units):
    h1, h2 = hashes(units)
    return [(h1 + i * h2) % m for i in range(k)]


# The accumulated stream (spec/README.md, "Accumulated checks"): one input drawn from
# the generator's byte stream, and the bytes of its outputs that feed the running
# digest. derive/accumulated.py reads these two from every protocol's script.

def accumulated_length(stream):
    t = stream.byte()
    u = stream.byte()
    if t < 192:
        return 1 + u % 16
    if t < 240:
        return 1 + u % 64
    return 1 + u


def accumulated_unit(stream):
    c = stream.byte() % 8
    v = stream.u16()
    if c <= 2:
        return v % 0x80
    if c == 3:
        return 0x80 + v % 0x780
    if c == 4:
        return v
    if c == 5:
        return 0xD800 + v % 0x400
    if c == 6:
        return 0xDC00 + v % 0x400
    return 0xFFFF - v % 16


def accumulated_input(stream):
    m = 8 + stream.u16() % 1017
    k = 1 + stream.byte() % 12
    units = [accumulated_unit(stream) for _ in range(accumulated_length(stream))]
    return m, k, units


def accumulated_outputs(m, k, units):
    h1, h2 = hashes(units)
    return (h1.to_bytes(4, "big") + h2.to_bytes(4, "big")
            + b"".join(((h1 + i * h2) % m).to_bytes(2, "big") for i in range(k)))


def bits_after(m, k, strings):
    bits = ["0"] * m
    for s in strings:
        for p in positions(m, k, utf16(s) if isinstance(s, str) else s):
            bits[p] = "1"
    return "".join(bits)


# ---- estimates, exact rationals ---------------------------------------------------

def stirling2(n, k):
    # S(n, k) by the explicit formula (n <= 12 here).
    return sum((-1) ** j * math.comb(k, j) * (k - j) ** n for j in range(k + 1)) // math.factorial(k)


def exact_rate(m, k, n):
    t = k * n
    total = Fraction(0)
    for i in range(1, k + 1):
        # P(k uniform throws hit exactly i distinct bits).
        hit = Fraction(math.comb(m, i) * math.factorial(i) * stirling2(k, i), m ** k)
        if hit == 0:
            continue
        # P(i given bits are all set after t throws), inclusion-exclusion.
        all_set = sum(Fraction((-1) ** l * math.comb(i, l)) * Fraction(m - l, m) ** t for l in range(i + 1))
        total += hit * all_set
    return total


def exp_fraction(x, terms=400):
    # e^x for a Fraction x in [-12*1024/8, 0], by squaring a Taylor series of x / 2^s.
    s = 0
    y = x
    while abs(y) > Fraction(1, 8):
        y /= 2
        s += 1
    acc, term = Fraction(1), Fraction(1)
    for j in range(1, 40):
        term = term * y / j
        acc += term
    for _ in range(s):
        acc = acc * acc
        acc = Fraction(round(acc * 10 ** 60), 10 ** 60) if acc.denominator > 10 ** 80 else acc
    return acc


def estimates(m, k, n):
    classic = (1 - exp_fraction(Fraction(-k * n, m))) ** k
    finite = (1 - Fraction(m - 1, m) ** (k * n)) ** k
    exact = exact_rate(m, k, n)
    classic_at = lambda kk: (1 - math.exp(-kk * n / m)) ** kk
    optimal = min(range(1, 13), key=lambda kk: (classic_at(kk), kk))
    return {"classic": float(classic), "finite_m": float(finite), "exact": float(exact), "optimal_k": optimal}


# ---- the spec ----------------------------------------------------------------------

FLAGS = {
    "seed-figure": "An expectation is a figure the seed states (seed 002, stated in spec/fnv1a-utf16-v1/PROTOCOL.md).",
    "rule": "Expectations follow from the seed's rules applied by hand to a short script.",
    "derived": "Hashes, positions and bit strings were computed by spec/derive/fnv1a_utf16_v1.py, an FNV-1a over UTF-16 written from the protocol text, and are re-checked against the independent oracle on every run.",
    "exact-rational": "An estimate computed with exact rational arithmetic (Python fractions) by spec/derive/fnv1a_utf16_v1.py, independently of the Rust code.",
    "surrogate-pair": "The string holds a character outside the BMP: two UTF-16 code units.",
    "lone-surrogate": "The string holds an unpaired surrogate code unit (a JavaScript string can).",
    "wrap-would-differ": "h1 + i*h2 >= 2^32 and a 32-bit wrap of the sum would give another position.",
    "repeated-position": "The k positions repeat (allowed, kept in order).",
    "bound": "A value at or just past a documented bound.",
    "error": "A step is rejected; the session must stay exactly as it was.",
    "legacy": "A saved state of an earlier format version, which must stay readable.",
    "combined-violation": "One step breaks two rules that are adjacent in a documented check order (SESSION.md: the table of section 5, 5.2, the steps of section 10); the expected kind is the earlier rule's, derived by hand from that order (see the case's comment).",
}

# The hash cases of each check, as (id, m, k, text, units, flags): a string is given as
# `text`, or as UTF-16 `units` (with text None) when it is not valid UTF-16 or not
# worth printing. Every case is derived; a case of positions_without_32_bit_wrap must
# exercise a wrap and one of repeated_positions_kept_in_order repeat a position (the
# runner checks both).
HASHES = {
    "base_hashes_pinned": [
        ("seed/a", 8, 1, "a", None, ["seed-figure"]),
        ("ascii/hello", 1024, 12, "hello", None, []),
        ("bmp/e-acute", 1024, 12, "\u00e9", None, []),
        ("bmp/e-combining-acute", 1024, 12, "e\u0301", None, []),
        ("pair/grinning-face", 1024, 12, "\U0001F600", None, ["surrogate-pair"]),
        ("lone/high-d800", 1024, 12, None, [0xD800], ["lone-surrogate"]),
        ("lone/low-dfff-then-a", 1024, 12, None, [0xDFFF, 0x61], ["lone-surrogate"]),
        ("units/nul-and-ffff", 1024, 12, None, [0x0000, 0xFFFF], []),
        ("max/256-units", 1024, 12, None, [(i * 7919) % 65536 for i in range(256)], ["bound"]),
    ],
    "positions_without_32_bit_wrap": [
        ("wrap/97-m1000", 1000, 12, "a", None, ["wrap-would-differ"]),
        ("wrap/98-m1000", 1000, 12, "b", None, ["wrap-would-differ"]),
        ("wrap/104-m1000", 1000, 12, "hello", None, ["wrap-would-differ"]),
        ("wrap/55357-m1000", 1000, 12, "\U0001F600", None, ["wrap-would-differ"]),
    ],
    "repeated_positions_kept_in_order": [
        ("m8-k12/a", 8, 12, "a", None, ["repeated-position", "bound"]),
        ("m24-k12/bloom", 24, 12, "bloom", None, ["repeated-position"]),
    ],
    "a_to_h_fill_every_bit": [("seed/" + ch, 8, 1, ch, None, ["seed-figure"]) for ch in "abcdefghi"],
}


def pos_case(id, check, m, k, text=None, units=None, flags=()):
    u = units if units is not None else utf16(text)
    h1, h2 = hashes(u)
    inp = {"m": m, "k": k, "units": u}
    if text is not None:
        inp["text"] = text
    return case(id, check, "hashes", inp, {"h1": h1, "h2": h2, "positions": positions(m, k, u)}, ["derived", *flags])


def save_state(units, fill):
    """SESSION.md 6.6.1: `fill` repeated as many whole times as fit in `units` UTF-16 code
    units, then "x" until it is exactly `units` code units."""
    width = len(utf16(fill))
    return fill * (units // width) + "x" * (units % width)


# (case, fill, [units, ...]): each state at the limit or one past it in some measure.
# "\U0001F600" is 2 code units, 4 UTF-8 bytes, 1 code point; "\u00e9" 1 unit, 2 bytes;
# "\u65e5" 1 unit, 3 bytes; "e\u0301" 2 units, 3 bytes, 2 code points, 1 character;
# "a\U0001F600" 3 units, 5 bytes, 2 code points (33334 copies are 100002 units).
FILL_CASES = [
    ("fill-astral", "\U0001F600", [50000, 50001, 100000, 100001, 200000, 200001]),
    ("fill-bmp", "\u00e9", [50000, 50001, 100000, 100001]),
    ("fill-cjk", "\u65e5", [33333, 33334, 100000, 100001]),
    ("fill-three-units", "a\U0001F600", [99999, 100000, 100001, 100002]),
    ("fill-combining", "e\u0301", [50000, 50001, 100000, 100001]),
]


def fill_cases():
    out = []
    for id, fill, points in FILL_CASES:
        steps, said = [], []
        for units in points:
            state = save_state(units, fill)
            assert len(utf16(state)) == units
            measures = (len(state.encode("utf-8")), len(state))
            if units <= 100000:
                steps.append((op("save_local", units=units, fill=fill), {"save": "saved", "stored_units": units}))
            else:
                steps.append((op("save_local", units=units, fill=fill), {"save": "kept"}))
            said.append("%d units (%d UTF-8 bytes, %d code points): %s" % (units, *measures, "saved" if units <= 100000 else "kept"))
        out.append(script(id, "local_save_counts_code_units", steps, ["rule", "bound", "derived"],
                          "A local save counts UTF-16 code units, not bytes or code points (SESSION.md 11.4); "
                          "the state is %s repeated to exactly `units` code units, an \"x\" filling what no whole "
                          "copy fits (6.6.1); what a kept save stores is case 17-layout's. "
                          % json.dumps(fill) + "; ".join(said) + "."))
    return out


def op(name, **kw):
    return {"op": name, **kw}


def create(m, k):
    return [op("set_draft", field="m", value=str(m)), op("set_draft", field="k", value=str(k)), op("create")]


def script(id, check, steps, flags=("rule",), comment=None):
    """steps: list of (op, expectation) pairs."""
    return case(id, check, "script", {"script": [s for s, _ in steps]}, {"steps": [e for _, e in steps]}, flags, comment)


def ok(**view):
    return {"view": view} if view else {}


def err(kind):
    return {"error": kind}


UNDEF = {"state": "undefined"}


def rate(fp, neg):
    return {"state": "defined", "false_positives": fp, "negative_queries": neg, "value": fp / neg}


def counters(neg, fp):
    return {"negative_queries": neg, "false_positives": fp}


def history_ends(newest, oldest, length=256):
    """A partial `history` of exactly `length` items: the newest and the oldest given in full
    ({kind, display, outcome}), the items between them `{}` (present, nothing compared)."""
    def item(kind, text, outcome):
        return {"kind": kind, "display": json.dumps(text), "outcome": outcome}
    return [item(*newest)] + [{}] * (length - 2) + [item(*oldest)]


VALID = json.loads(FIXTURE.read_text())


def mutate(f):
    """A deep copy of the v1 fixture (section 9 of SESSION.md), changed by f."""
    d = json.loads(json.dumps(VALID))
    f(d)
    return d


COMBINED = ("rule", "error", "combined-violation")


def combined(id, check, setup, steps, comment, flags=COMBINED):
    """A combined-violation case: `setup` steps (each accepted), then the (step, expectation) pairs."""
    return script("combined/" + id, check, [(s, {}) for s in setup] + steps, flags, comment)


def imports(document_steps):
    """import steps of the given documents, each expecting the given kind."""
    return [(op("import", document=d), err(kind)) for d, kind in document_steps]


# The session every invalid import must leave unchanged (as in 19-each-kind).
KEPT = create(16, 2) + [op("insert", value="kept")]
# 1025 entries: the fixture's a..h and 1017 more.
MANY = ["e%d" % i for i in range(1017)]
# 257 history items: the fixture's 11 and 246 older absent queries (m = 8, k = 1).
OLDER = [{"kind": "query", "value": "zz", "outcome": "definitely_absent"}] * 246


def combined_create_cases():
    """Section 5 (create) and 5.2: m syntax, m bounds, k syntax, k bounds, in that order."""
    def attempt(m, k, kind):
        return [(op("set_draft", field="m", value=m), {}), (op("set_draft", field="k", value=k), {}), (op("create"), err(kind))]
    out = []
    out.append(combined("m-syntax-and-m-bounds", "parameter_bounds", [],
                        [s for m in [" 7", "+2000", "7.0", "1e4", "-8"] for s in attempt(m, "3", "invalid_draft")],
                        "Pair (m syntax, m bounds). Section 5.2 parses the m draft completely, syntax then bounds. Each m draft "
                        "breaks the syntax rule (a space, a sign, a decimal point, an exponent, a sign) and denotes a value outside "
                        "8..=1024 as a lax number parser (int(), Number()) reads it: 7, 2000, 7, 10000, -8. Syntax comes first: "
                        "invalid_draft every time, never out_of_range. k is valid."))
    out.append(combined("m-bounds-and-k-syntax", "parameter_bounds", [],
                        attempt("7", "x", "out_of_range") + attempt("2000", " 3", "out_of_range") + attempt("0", "", "out_of_range"),
                        "Pair (m bounds, k syntax). Section 5.2: m is checked completely (syntax, then bounds) before k. "
                        "m \"7\" with k \"x\" is the section's own example: m's bounds fail first, out_of_range (for m), "
                        "not k's invalid_draft. Likewise m \"2000\" with k \" 3\" and m \"0\" with an empty k."))
    out.append(combined("k-syntax-and-k-bounds", "parameter_bounds", [],
                        [s for k in [" 13", "+0", "13.0", "-1"] for s in attempt("8", k, "invalid_draft")],
                        "Pair (k syntax, k bounds). m \"8\" is valid; each k draft breaks k's syntax rule and denotes a value "
                        "outside 1..=12 to a lax number parser (13, 0, 13, -1). Syntax before bounds: invalid_draft."))
    out.append(combined("m-syntax-and-k-bounds", "parameter_bounds", [],
                        attempt("x", "0", "invalid_draft") + attempt("", "13", "invalid_draft"),
                        "Not an adjacent pair, but the second example of section 5.2: m \"x\" with k \"0\" fails on m's "
                        "syntax first: invalid_draft (for m), not out_of_range (for k)."))
    return out


def combined_no_filter_cases():
    """Section 5, insert and query: no active filter, then empty value, then over 256 units."""
    out = []
    out.append(combined("no-filter-and-empty-string", "parameter_bounds", [],
                        [(op("insert", value=""), err("no_active_filter")), (op("query", value=""), err("no_active_filter"))] +
                        [(s, {}) for s in create(8, 1)] +
                        [(op("set_draft", field="m", value="16"), ok(active=False)),
                         (op("insert", value=""), err("no_active_filter")), (op("query", value=""), err("no_active_filter"))],
                        "Pair (no active filter, empty value) of insert and of query (table of section 5). With no filter, in a "
                        "new session and after an m draft change discarded the filter (5.1), an empty value breaks both rules; "
                        "the filter is checked first: no_active_filter, not empty_string."))
    out.append(combined("no-filter-and-too-long", "parameter_bounds", [],
                        [(op("insert", value="x" * 257), err("no_active_filter")), (op("query", value="y" * 257), err("no_active_filter"))],
                        "The pair (empty value, over 256 units) that follows in the insert and query orders cannot be broken at "
                        "once, so this pairs the rules on either side of it: no filter and a 257-unit value. The filter is "
                        "checked first: no_active_filter, not too_long.", COMBINED + ("bound",)))
    return out


def combined_entry_limit_cases():
    """Section 5, insert: ... empty value, over 256 units, then a new value beyond 1024 entries."""
    return [combined("too-long-and-too-many-entries", "distinct_entry_limit", create(1024, 1),
                     [(op("insert_many", prefix="entry-", count=1024), ok(distinct_entries=1024)),
                      (op("insert", value="x" * 257), err("too_long")),
                      (op("insert", value=""), err("empty_string")),
                      (op("insert", value="one-too-many"), err("too_many_entries")),
                      (op("insert", value="entry-0"), ok(distinct_entries=1024, last_operation={"outcome": "duplicate"}))],
                     "Pair (over 256 units, too many entries) of insert (table of section 5). With 1024 entries, a 257-unit "
                     "value is not an entry (no entry is over 256 units), so it breaks both: the length comes first, too_long. "
                     "An empty value is not an entry either: empty_string (this pairs the rules on either side of the pair "
                     "(empty, too long), which cannot be broken at once). Then the single violation, a new valid value: "
                     "too_many_entries; a duplicate is still accepted.", COMBINED + ("bound",))]


def combined_import_size_cases():
    """Section 10, steps 1 and 2."""
    return [combined("too-large-and-syntax", "import_size_limit", create(8, 1) + [op("insert", value="a")],
                     [(op("import_text", text="x" * (2 * 1024 * 1024 + 1)), err("too_large"))],
                     "Pair (step 1, step 2) of section 10. The text is 2097153 bytes (one over the limit) and is not JSON: "
                     "both broken. The size is checked before any parsing: too_large, not syntax.", COMBINED + ("bound",))]


def combined_import_cases():
    """Section 10, steps 2 to 15 (pairs whose two rules give different kinds)."""
    C = "invalid_import_keeps_state"
    out = []
    out.append(combined("syntax-and-not-an-object", C, KEPT,
                        [(op("import_text", text=t), err("syntax")) for t in ["[NaN]", '["\\ud800"]', "[1, 2, 3,]", "[1, 2, 3] [4]"]],
                        "Pair (step 2, step 3). Each text is not strict JSON (NaN; a \\u escape of a lone surrogate; a trailing "
                        "comma; a second value after the first) and is an array, not an object, to a lax parser (Python's "
                        "json.loads reads the first two, lenient or streaming parsers the last two): both broken. Strict JSON "
                        "is step 2: syntax, not invalid."))
    out.append(combined("format-and-version", C, KEPT, imports([
        (mutate(lambda d: d.update(format="something-else", version=99)), "invalid"),
        (mutate(lambda d: (d.pop("format"), d.update(version=2))), "invalid"),
        (mutate(lambda d: d.update(format=7, version=0)), "invalid"),
    ]), "Pair (step 4, step 5). A wrong format with version 99, no format with version 2, a format that is not a "
        "string with version 0: step 4's format rule (invalid) comes before step 5's unsupported_version. invalid."))
    out.append(combined("version-and-shape", C, KEPT, imports([
        (mutate(lambda d: d.update(version=99, bits="11111111")), "unsupported_version"),
        (mutate(lambda d: (d.update(version=2), d.pop("entries"))), "unsupported_version"),
        (mutate(lambda d: d.update(version=0, history=5)), "unsupported_version"),
    ]), "Pair (step 5, step 6): stage B before stage C. Version 99 with an unknown field, version 2 without entries, "
        "version 0 with a history that is not an array: the version is known to be unsupported before the shape of "
        "version 1 is checked (another version may have another shape). unsupported_version, not invalid."))
    out.append(combined("shape-and-rules", C, KEPT, imports([
        (mutate(lambda d: (d.update(bits="11111111"), d["drafts"].update(query="q" * 1025))), "invalid"),
        (mutate(lambda d: (d["drafts"].update(query="q" * 1025), d["entries"].append([70000]))), "invalid"),
        (mutate(lambda d: (d["entries"].append(""), d["history"][0].update(kind="lookup"))), "invalid"),
        (mutate(lambda d: (d["params"].update(m=2000), d["drafts"].update(m="2000"), d["panels"].update(model="no"))), "invalid"),
    ]), "Not an adjacent pair (steps 6 and 7 are both invalid), but the rule that all of stage C comes before any "
        "check of stage D: a shape error (an unknown field, a code unit 70000, a history kind \"lookup\", a panel that "
        "is not a boolean) with a draft over 1024 units (step 8), an empty entry (step 12) or params m 2000 (step 10), "
        "even where the shape error comes later in the document: invalid every time."))
    out.append(combined("protocol-and-draft-length", C, KEPT, imports([
        (mutate(lambda d: (d.update(protocol="other-protocol"), d["drafts"].update(query="q" * 1025))), "invalid"),
        (mutate(lambda d: (d.update(protocol="fnv1a-utf16-v2"), d["drafts"].update(insert="i" * 1025))), "invalid"),
    ]), "Pair (step 7, step 8). Another protocol with a draft of 1025 units: the protocol (invalid) comes first, "
        "not too_long.", COMBINED + ("bound",)))
    out.append(combined("draft-length-and-no-filter", C, KEPT, imports([
        (mutate(lambda d: (d.update(params=None), d["drafts"].update(insert="i" * 1025))), "too_long"),
        (mutate(lambda d: (d.pop("params"), d["drafts"].update(m="m" * 1025))), "too_long"),
    ]), "Pair (step 8, step 9). params null (then omitted, which means null) with the fixture's 8 entries, counters, "
        "last operation and history (step 9: they must be empty: invalid) and a draft of 1025 units (step 8: "
        "too_long). The drafts come first: too_long.", COMBINED + ("bound",)))
    out.append(combined("draft-length-and-params-bounds", C, KEPT, imports([
        (mutate(lambda d: (d["params"].update(m=2000), d["drafts"].update(m="2000", insert="i" * 1025))), "too_long"),
        (mutate(lambda d: (d["params"].update(k=13), d["drafts"].update(k="13", query="q" * 1025))), "too_long"),
    ]), "Pair (step 8, step 10): step 9 applies only when params is null, so with params step 10 follows step 8. "
        "params m 2000 (or k 13), drafts denoting them, and a draft of 1025 units: too_long, not out_of_range.",
        COMBINED + ("bound",)))
    out.append(combined("params-bounds-and-draft-denotes", C, KEPT, imports([
        (mutate(lambda d: d["params"].update(m=2000)), "out_of_range"),
        (mutate(lambda d: d["params"].update(k=0)), "out_of_range"),
    ]), "Pair (step 10, step 11). params m 2000 with the fixture's m draft \"8\" (which does not denote 2000), then "
        "params k 0 with the k draft \"1\": the bounds come first, out_of_range, not invalid.", COMBINED + ("bound",)))
    out.append(combined("draft-denotes-and-entry-count", C, KEPT, imports([
        (mutate(lambda d: (d["drafts"].update(m="9"), d["entries"].extend(MANY))), "invalid"),
        (mutate(lambda d: (d["drafts"].update(k="2"), d["entries"].extend(MANY))), "invalid"),
    ]), "Pair (step 11, step 12). The m draft \"9\" does not denote params.m 8 (then the k draft \"2\", params.k 1) "
        "and there are 1025 entries: step 11 comes first, invalid, not too_many_entries.", COMBINED + ("bound",)))
    out.append(combined("entry-count-and-entry-rules", C, KEPT, imports([
        (mutate(lambda d: (d["entries"].extend(MANY), d["entries"].__setitem__(0, ""))), "too_many_entries"),
        (mutate(lambda d: (d["entries"].extend(MANY), d["entries"].__setitem__(0, "x" * 257))), "too_many_entries"),
        (mutate(lambda d: (d["entries"].extend(MANY), d["entries"].__setitem__(1, "a"))), "too_many_entries"),
    ]), "Step 12: more than 1024 entries is checked before the entries themselves. 1025 entries of which entries[0] is "
        "empty (the adjacent rule, empty_string), then 257 units (too_long), then entries[1] a duplicate of entries[0] "
        "(invalid): too_many_entries each time.", COMBINED + ("bound",)))
    out.append(combined("entry-duplicate-then-next-entry", C, KEPT, imports([
        (mutate(lambda d: d["entries"].extend(["a", ""])), "invalid"),
        (mutate(lambda d: d["entries"].extend(["b", "x" * 257])), "invalid"),
    ]), "Step 12 checks the entries in order, all the rules of one entry before the next: entries[8] repeats "
        "entries[0] (its last rule: invalid) and entries[9] is empty (the next entry's first rule: empty_string), "
        "then entries[9] is 257 units (too_long). entries[8] comes first: invalid.", COMBINED + ("bound",)))
    out.append(combined("entry-too-long-and-duplicate", C, KEPT, imports([
        (mutate(lambda d: d["entries"].extend(["x" * 257, "x" * 257])), "too_long"),
    ]), "Step 12, one entry's over-256-units rule (too_long) then its duplicate rule (invalid): entries[9] breaks "
        "both. A too-long duplicate needs an earlier equal, equally long entry (entries[8]), which fails first with "
        "the same kind: too_long. (Checking the duplicates of all entries before their lengths would answer invalid.)",
        COMBINED + ("bound",)))
    out.append(combined("entries-and-counters", C, KEPT, imports([
        (mutate(lambda d: (d["entries"].append(""), d["counters"].update(false_positives=5))), "empty_string"),
        (mutate(lambda d: (d["entries"].append("x" * 257), d["counters"].update(false_positives=5))), "too_long"),
        (mutate(lambda d: (d["entries"].extend(MANY), d["counters"].update(false_positives=5))), "too_many_entries"),
    ]), "Pair (step 12, step 13). Counters 2/5 (false_positives > negative_queries: invalid) with an empty ninth "
        "entry, a 257-unit ninth entry, 1025 entries: step 12 comes first: empty_string, too_long, too_many_entries. "
        "(Step 12's last rule, a duplicate, is invalid like step 13: not a pair a kind can tell.)", COMBINED + ("bound",)))
    out.append(combined("counters-and-history-rules", C, KEPT, imports([
        (mutate(lambda d: (d["counters"].update(false_positives=5), d["history"].extend(OLDER))), "invalid"),
        (mutate(lambda d: (d["counters"].update(false_positives=5), d["history"][0].update(value=""))), "invalid"),
    ]), "Pair (step 13, step 14). Counters 2/5 (invalid) with 257 history items (too_long), then with an empty "
        "history[0] value (empty_string): step 13 comes first: invalid.", COMBINED + ("bound",)))
    out.append(combined("history-count-and-item-rules", C, KEPT, imports([
        (mutate(lambda d: (d["history"].extend(OLDER), d["history"][0].update(value=""))), "too_long"),
    ]), "Step 14: more than 256 items (too_long) is checked before the items themselves. 257 items of which "
        "history[0]'s value is empty (empty_string): too_long.", COMBINED + ("bound",)))
    out.append(combined("history-item-too-long-and-outcome", C, KEPT, imports([
        (mutate(lambda d: d["history"][0].update(value="x" * 257, outcome="new")), "too_long"),
        (mutate(lambda d: d["history"][3].update(value="x" * 257, outcome="truly_present")), "too_long"),
    ]), "Step 14, each item: empty value, value over 256 units, then an outcome that does not belong to its kind. "
        "A query item of 257 units with outcome new, an insert item of 257 units with outcome truly_present: the "
        "length comes first, too_long, not invalid.", COMBINED + ("bound",)))
    out.append(combined("history-item-empty-and-outcome", C, KEPT, imports([
        (mutate(lambda d: d["history"][0].update(value="", outcome="duplicate")), "empty_string"),
    ]), "Step 14, one item: the empty and too-long rules cannot both be broken, so this pairs the rules on either "
        "side of that pair: a query item with an empty value and the insert outcome duplicate. empty_string, not "
        "invalid."))
    out.append(combined("history-item-outcome-then-next-item", C, KEPT, imports([
        (mutate(lambda d: (d["history"][0].update(outcome="new"), d["history"][1].update(value=""))), "invalid"),
        (mutate(lambda d: (d["history"][0].update(outcome="new"), d["history"][1].update(value="x" * 257))), "invalid"),
    ]), "Step 14 checks the items in order (history[0] first), all the rules of one item before the next: "
        "history[0], a query, has the insert outcome new (its last rule: invalid) and history[1]'s value is empty "
        "(the next item's first rule: empty_string), then 257 units (too_long). history[0] comes first: invalid.",
        COMBINED + ("bound",)))
    out.append(combined("history-items-and-accounting", C, KEPT, imports([
        (mutate(lambda d: d["history"].insert(0, {"kind": "insert", "value": "", "outcome": "new"})), "empty_string"),
        (mutate(lambda d: d["history"].insert(0, {"kind": "insert", "value": "x" * 257, "outcome": "new"})), "too_long"),
    ]), "Pair (step 14, step 15). A newest history item inserting an empty (then a 257-unit) value with outcome "
        "new: step 14 rejects the value, and the new insertions (a..h and this value) are not the entries (a..h), "
        "so step 15 (invalid) is broken too. Step 14 comes first: empty_string, then too_long.", COMBINED + ("bound",)))
    return out


# The fixture's text, byte for byte, for import_text steps that change single tokens of it.
FIXTURE_TEXT = FIXTURE.read_text()


def fixture_text(old, new):
    """The fixture's text with the single occurrence of `old` replaced by `new`."""
    assert FIXTURE_TEXT.count(old) == 1, old
    return FIXTURE_TEXT.replace(old, new)


def in_fixture(old, template, values, expect):
    """The fixture's text with `old` replaced by `template`, its `@` by each of `values`; each expects `expect`."""
    return [(fixture_text(old, template.replace("@", v)), expect) for v in values]


def in_minimal(version, values, expect):
    """`minimal(version)` with a field x of each of `values` (JSON text); each expects `expect`."""
    return [(minimal(version, ', "x": ' + v), expect) for v in values]


def two_mib_steps(one_past, far_past):
    """An ASCII session of m = 8, k = 1 padded to 2 MiB (imports), then to one byte past and 3 MiB
    (each expects what the caller says: the error kind, or the refused view)."""
    return [(s, {}) for s in create(8, 1)] + [
        (op("insert", value="a"), {}),
        (op("import_padded", bytes=2 * 1024 * 1024), ok(distinct_entries=1)),
        (op("insert", value="b"), ok(distinct_entries=2)),
        (op("import_padded", bytes=2 * 1024 * 1024 + 1), one_past),
        (op("import_padded", bytes=3 * 1024 * 1024), far_past),
    ]


def minimal(version, rest=""):
    """A document that stage B passes for any version but 1 (then unsupported_version); `rest` adds fields."""
    return '{"format": "bloomproof-session", "version": %s%s}' % (version, rest)


def texts(pairs):
    """import_text steps, each with its expectation (an error kind, or a view expectation dict)."""
    return [(op("import_text", text=t), err(e) if isinstance(e, str) else e) for t, e in pairs]


# After the rejected imports of a strict-import case: the session is still KEPT's, and the
# unchanged fixture imports (so each rejection was caused by the one change made to it).
STILL_KEPT = [(op("query", value="kept"), ok(distinct_entries=1, params={"m": 16, "k": 2},
                                             last_operation={"outcome": "truly_present"}))]
FIXTURE_IMPORTS = texts([(FIXTURE_TEXT, ok(active=True, params={"m": 8, "k": 1}, distinct_entries=8))])


def strict_import_cases():
    """Section 10, steps 2, 3 and 5: inputs the three implementations once answered differently."""
    C = "invalid_import_keeps_state"
    setup = [(s, {}) for s in KEPT]
    out = []
    out.append(script("duplicate-keys", C, setup + texts([
        (fixture_text('"version": 1,', '"version": 1, "version": 99,'), "invalid"),
    ] + in_fixture('"version": 1,', '@, "version": 1,', ['"version": 99', '"version": 1', '"versio\\u006e": 99'],
                   "invalid") + [
        (fixture_text('"format": "bloomproof-session",', '"format": "bloomproof-session", "format": "bloomproof-session",'), "invalid"),
        (fixture_text('"query":"i"}', '"query":"i","query":"i"}'), "invalid"),
        (fixture_text('{"kind":"query","value":"a","outcome":"truly_present"}',
                      '{"kind":"query","value":"a","outcome":"truly_present","outcome":"truly_present"}'), "invalid"),
        (fixture_text('"before":true,"after":true}', '"before":true,"before":true,"after":true}'), "invalid"),
        (minimal(2, ', "x": [{"y": 1, "y": 1}]'), "invalid"),
        (minimal(99, ', "": 1, "": 1'), "invalid"),
    ]) + STILL_KEPT + FIXTURE_IMPORTS, ["rule", "error"],
        "SESSION.md section 10, step 3: a key that appears twice in any object, at any depth, makes the import "
        "invalid, before stage B reads format and version, even when both values are equal. The fixture's text with "
        "version 1 then 99 (a reader that keeps the last, like JSON.parse, would answer unsupported_version), 99 then 1 "
        "(one that keeps the first would), 1 twice, 99 spelled \"versio\\u006e\" before version 1 (keys are compared "
        "after unescaping), format twice; a key twice in drafts, in a history item, in a position item of "
        "last_operation (four objects deep); then documents of versions 2 and 99 whose only other fault is a "
        "repeated key in an unknown field (stage B alone would give unsupported_version), the last one the empty key. "
        "Afterwards the session is unchanged and the unchanged fixture imports."))
    out.append(combined("syntax-and-duplicate-key", C, KEPT, texts([
        (fixture_text('"version": 1,', '"version": 1, "version": 99,') + "x", "syntax"),
        (minimal(1, ', "version": 1,'), "syntax"),
        (minimal(2, ', "x": 1, "x": 1, "y": ' + "[" * 127 + "]" * 127), "syntax"),
        (minimal(2, ', "x": 1, "x": 1, "y": "\\udc00"'), "syntax"),
    ]), "Pair (step 2, step 3). A repeated key (version 1 then 99; version twice; x twice) and, after it, a syntax "
        "error: trailing characters, a trailing comma, arrays nested 128 deep, a lone surrogate escape. The whole "
        "text must parse before step 3 looks for repeated keys (a reader that stops at the first repeated key must "
        "not answer before the end): syntax, not invalid."))
    out.append(script("byte-order-mark", C, setup + texts([
        ("\ufeff" + FIXTURE_TEXT, "syntax"),
        (FIXTURE_TEXT + "\ufeff", "syntax"),
        ("\ufeff" + minimal(99), "syntax"),
    ]) + STILL_KEPT + FIXTURE_IMPORTS + texts([
        (fixture_text('"query":"i"}', '"query":"\ufeffi"}'), ok(active=True, drafts={"query": "\ufeffi"})),
    ]), ["rule", "error"],
        "SESSION.md section 10, step 2: U+FEFF (a byte-order mark) is not JSON whitespace. The fixture's text "
        "preceded by one, then followed by one, and a version-99 document preceded by one: syntax (not "
        "unsupported_version: the text is not JSON). The session is unchanged; the fixture without the mark imports, "
        "and a U+FEFF inside a string is an ordinary character (the query draft holds it)."))
    out.append(script("raw-control-character", C, setup + texts([
    ] + in_fixture('"insert":""', '"insert":"@"', ["\x01", "\x00", "\x1f", "a\tb", "a\nb"], "syntax")
        + in_minimal(99, ['"\x01"'], "syntax")) + STILL_KEPT + texts([
        (fixture_text('"insert":""', '"insert":"\\u0001\\t\\n\x7f\u2028"'),
         ok(active=True, distinct_entries=8, drafts={"insert": "\x01\t\n\x7f\u2028"})),
    ]), ["rule", "error"],
        "SESSION.md section 10, step 2: no raw control character (U+0000..U+001F) in a string. The fixture's insert "
        "draft holding a raw U+0001, U+0000, U+001F, tab, line feed, then a version-99 document with a raw U+0001: "
        "syntax. Escaped (\\u0001, \\t, \\n) they are fine, and so are a raw U+007F and U+2028, which are not "
        "control characters to JSON: the last import succeeds with that draft."))
    out.append(script("nesting-depth", C, setup + texts([
        (minimal(2, ', "x": ' + "[" * 126 + "]" * 126), "unsupported_version"),
        (minimal(2, ', "x": ' + "[" * 127 + "]" * 127), "syntax"),
        (minimal(2, ', "x": ' + '{"y": ' * 126 + "1" + "}" * 126), "unsupported_version"),
        (minimal(2, ', "x": ' + '{"y": ' * 127 + "1" + "}" * 127), "syntax"),
        ("[" * 127 + "]" * 127, "invalid"),
        ("[" * 128 + "]" * 128, "syntax"),
        ("[" * 3000 + "]" * 3000, "syntax"),
        (fixture_text('"insert":""', '"insert":"","x":' + "[" * 125 + "]" * 125), "invalid"),
        (fixture_text('"insert":""', '"insert":"","x":' + "[" * 126 + "]" * 126), "syntax"),
    ]) + STILL_KEPT + FIXTURE_IMPORTS, ["rule", "bound", "error"],
        "SESSION.md section 10, step 2: arrays and objects nest at most 127 deep (the outermost counts as 1). A "
        "version-2 document whose field x nests 126 arrays (127 levels in all) passes step 2 and stops at step 5 "
        "(unsupported_version); 127 arrays (128 levels) is syntax; the same with objects. 127 bare arrays are JSON "
        "but not an object (invalid); 128 and 3000 are syntax (3000 also exceeds Python's own recursion limit). "
        "Last, the fixture with an unknown field in drafts (itself at level 2) holding 125 nested arrays, 127 levels in "
        "all: JSON, then invalid (stage C); with 126 arrays, 128 levels: syntax."))
    out.append(script("number-range", C, setup + texts([
    ] + in_minimal(2, ["1e400", "-1e400", "1E+999", "9" * 400, "-" + "9" * 400 + ".5"], "syntax")
        + in_minimal(2, ["1e-400", "1e308", "9" * 300, "1.797693134862315807e308"], "unsupported_version")
        + in_minimal(2, ["-1.797693134862315808e308"], "syntax")
        + in_minimal(2, ["%d" % (2 ** 1024 - 2 ** 970 - 1)], "unsupported_version")
        + in_minimal(2, ["%d" % (2 ** 1024 - 2 ** 970)], "syntax")
        + in_fixture('"negative_queries":2', '"negative_queries":@', ["1e400"], "syntax")
        + in_fixture('"version": 1,', '"version": @,', ["1e400"], "syntax")
        + in_fixture('"negative_queries":2', '"negative_queries":@', ["18446744073709551616"], "invalid")) + STILL_KEPT + FIXTURE_IMPORTS, ["rule", "bound", "error"],
        "SESSION.md section 10, step 2: a number too large for a double (it rounds to infinity) is a syntax error, "
        "as in the reference's parser (RFC 8259, section 9, lets a parser limit the range of numbers). In an "
        "unknown field of a version-2 document (else unsupported_version): 1e400, -1e400, 1E+999, 400 nines, "
        "minus 400 nines and a half: syntax; 1e-400 (reads as 0), 1e308 and 300 nines: unsupported_version. At the "
        "boundary, numbers are rounded to the nearest double, ties to even (as JavaScript's Number and Python's "
        "float do): 1.797693134862315807e308 rounds to the largest double (fine), -1.797693134862315808e308 to "
        "minus infinity (syntax); the integer 2^1024 - 2^970 - 1 rounds down (fine), 2^1024 - 2^970, halfway "
        "between the largest double and 2^1024, rounds to even, to infinity (syntax). In the "
        "fixture: counters.negative_queries 1e400 and version 1e400 are syntax, not invalid; 2^64 is a number a "
        "double holds, so it is JSON and then not an integer 0..=2^64-1: invalid."))
    out.append(script("version-forms", C, setup + texts([
    ] + in_fixture('"version": 1,', '"version": @,',
                   ["1.0", "1e0", "10E-1", "-0", '"1"', "true", "null", "18446744073709551617", "-1"], "invalid") + [
        (minimal(0), "unsupported_version"),
        (minimal(2), "unsupported_version"),
        (minimal(18446744073709551615), "unsupported_version"),
        (minimal(2.0), "invalid"),
    ]) + STILL_KEPT + texts([
        (fixture_text('"version": 1,', '"version" :1 ,'), ok(active=True, distinct_entries=8)),
    ]), ["rule", "bound", "error"],
        "SESSION.md section 10, step 5: a version is a JSON number written without sign, fraction or exponent "
        "that fits in 64 bits. In the fixture, 1.0, 1e0, 10E-1, -0 (a lax reader takes each for 1, or -0 for 0), "
        "\"1\", true, null, 2^64+1 and -1 are invalid; 0, 2 and 2^64-1 are integers other than 1: "
        "unsupported_version; 2.0 is not an integer: invalid. Whitespace around the 1 is fine."))
    out.append(script("nested-objects-need-every-key", C, setup + texts([
        (fixture_text('"params": {"m":8,"k":1}', '"params": {"m":8}'), "invalid"),
        (fixture_text('"insert":"","query":"i"}', '"insert":""}'), "invalid"),
        (fixture_text('"counters": {"negative_queries":2,"false_positives":2}', '"counters": {"negative_queries":2}'),
         "invalid"),
        (fixture_text('"position":7,"before":true,"after":true}', '"position":7,"before":true}'), "invalid"),
        (fixture_text('{"kind":"query","value":"a","outcome":"truly_present"}', '{"kind":"query","value":"a"}'),
         "invalid"),
    ]) + STILL_KEPT + FIXTURE_IMPORTS, ["rule", "error"],
        "SESSION.md section 10, step 6: no field of a nested object is optional. In the fixture, params without k, "
        "drafts without query, counters without false_positives, a position item of last_operation without after "
        "and a history item without outcome are each invalid (a reader that fills a missing field with its "
        "default would accept them)."))
    out.append(script("params-integer-forms", C, setup + texts([
    ] + in_fixture('"params": {"m":8,"k":1}', '"params": {@}', ['"m":-0,"k":1', '"m":8.0,"k":1', '"m":8,"k":1e0',
                                                              '"m":-8,"k":1'], "invalid")) + STILL_KEPT + FIXTURE_IMPORTS, ["rule", "error"],
        "SESSION.md section 10, step 6: params.m and params.k are integers written as in step 5, so -0 (which a "
        "lax reader takes for 0, then out_of_range), 8.0, 1e0 and -8 are invalid at stage C, before the bounds of "
        "step 10 (out_of_range) are looked at."))
    out.append(script("lone-surrogate-escapes", C, setup + texts([
    ] + in_fixture('"query":"i"}', '"query":"@"}', ["\\udc00x", "\\ud800x", "\\ud800\\u0041", "\\ud800\\ud800",
                                                     "\\ude00\\ud83d", "\\ud83d\\ude00\\ude00"], "syntax") + [
        (minimal(99, ', "\\udfff": 1'), "syntax"),
    ]) + STILL_KEPT + texts([
        (fixture_text('"query":"i"}', '"query":"\\ud83d\\ude00\\uD83D\\uDE00"}'),
         ok(active=True, drafts={"query": "\U0001F600\U0001F600"})),
    ]), ["rule", "error", "lone-surrogate", "surrogate-pair"],
        "SESSION.md section 10, step 2: a \\u escape of an unpaired surrogate is a syntax error. \"\\udc00x\" is a "
        "low (trailing) surrogate with no high (leading) one before it; \"\\ud800x\", \"\\ud800\\u0041\" and "
        "\"\\ud800\\ud800\" a high (leading) one not followed by a low one; \"\\ude00\\ud83d\" is a reversed pair (two lone "
        "surrogates); \"\\ud83d\\ude00\\ude00\" a pair and a lone low one; last a lone low surrogate in a key of a "
        "version-99 document (syntax, not unsupported_version). An escaped pair, in lower or upper case, is one "
        "character: the last import succeeds with two emoji in the query draft."))
    return out


# ---- the session rules of SESSION.md, one worked example or rule at a time -------------

def export_text(params, drafts, entries, counters_, last, history, panels):
    """An export text in the layout of SESSION.md section 9, written out from that text:
    one top-level field a line, values compact, entries and history one item a line.
    Every value is passed in already written as JSON (the case says how it was derived)."""
    def listing(items):
        return "[]" if not items else "[\n" + ",\n".join("    " + x for x in items) + "\n  ]"
    fields = [("format", '"bloomproof-session"'), ("version", "1"), ("protocol", '"fnv1a-utf16-v1"'),
              ("params", params), ("drafts", drafts), ("entries", listing(entries)),
              ("counters", counters_), ("last_operation", last), ("history", listing(history)), ("panels", panels)]
    return "{\n" + ",\n".join('  "%s": %s' % (name, value) for name, value in fields) + "\n}\n"


NEW_EXPORT = export_text("null", '{"m":"64","k":"3","insert":"","query":""}', [], '{"negative_queries":0,"false_positives":0}',
                         "null", [], '{"positions":false,"model":false}')


def session_rule_cases():
    """SESSION.md's rules and worked examples that no other case reaches (issue 22, item 5)."""
    out = []
    # 5.1: the m and k drafts that denote the active parameter keep the filter, the ones
    # that almost do discard it; setting the value back does not bring it back.
    steps = [(s, {}) for s in create(8, 1)]
    for field, keeps in (("m", ["08", "0008", "8"]), ("k", ["01", "001", "1"])):
        for value in keeps:
            steps.append((op("set_draft", field=field, value=value), ok(active=True, params={"m": 8, "k": 1}, drafts={field: value})))
    steps.append((op("create"), ok(active=True, params={"m": 8, "k": 1})))
    for field, good, almost in (("m", "8", ["8 ", " 8", "+8", "8.0", "", "9", "\uff18", "\u0668", "8e0", "0x8"]),
                                ("k", "1", ["1 ", " 1", "+1", "1.0", "", "2", "\uff11", "-1", "1e0"])):
        for value in almost:
            steps += [(op("insert", value="a"), ok(active=True)),
                      (op("set_draft", field=field, value=value), ok(active=False, params=None, bits=None, distinct_entries=0, drafts={field: value})),
                      (op("set_draft", field=field, value=good), ok(active=False, drafts={field: good})),
                      (op("create"), ok(active=True, params={"m": 8, "k": 1}, distinct_entries=0))]
    steps += [(op("set_draft", field="insert", value="8 "), ok(active=True)),
              (op("set_draft", field="query", value="+1"), ok(active=True)),
              (op("reset"), ok(active=True)),
              (op("set_draft", field="m", value="7"), ok(active=False)),
              (op("set_draft", field="m", value="x"), ok(active=False, drafts={"m": "x"})),
              # 5.2: a digit string too long for a 64-bit integer is out of range, not invalid;
              # leading zeros do not count.
              (op("set_draft", field="m", value="99999999999999999999"), ok(active=False)),
              (op("create"), err("out_of_range")),
              (op("set_draft", field="m", value="00000000000000000008"), ok(active=False)),
              (op("set_draft", field="k", value="000000000000000000012"), ok(active=False)),
              (op("create"), ok(active=True, params={"m": 8, "k": 12})),
              (op("set_draft", field="k", value="18446744073709551617"), ok(active=False)),
              (op("create"), err("out_of_range"))]
    out.append(script("drafts/almost-denote", "parameter_change_discards_filter", steps, ["rule"],
                      "SESSION.md 5.1: a draft denotes a parameter when it is one or more ASCII digits whose value equals it. "
                      "\"08\", \"0008\", \"01\" keep an m = 8, k = 1 filter; a space on either side, a sign, a decimal point, an "
                      "exponent, a hex prefix, the empty text, another value and non-ASCII digits (U+FF18, U+0668, U+FF11) "
                      "discard it, and setting the value back does not bring it back. The insert and query drafts never "
                      "discard; with no filter a draft is only stored. SESSION.md 5.2: twenty 9s and 2^64 + 1 are out_of_range at "
                      "create (not invalid_draft); twenty digits of leading zeros and 8 (or 12) are 8 (or 12)."))
    # 3 and 5.7: panels survive every operation but set_panel and import.
    both = {"positions": True, "model": True}
    out.append(script("panels/after-operations", "reset_keeps_drafts",
                      [(op("set_panel", panel="positions", open=True), ok(active=False, panels={"positions": True, "model": False})),
                       (op("set_panel", panel="model", open=True), ok(panels=both))] +
                      [(s, ok(panels=both)) for s in create(8, 1)] + [
                          (op("insert", value="a"), ok(panels=both)),
                          (op("query", value="i"), ok(panels=both)),
                          (op("insert_example"), ok(panels=both)),
                          (op("reset"), ok(panels=both)),
                          (op("insert", value="b"), ok(panels=both)),
                          (op("create"), ok(panels=both, distinct_entries=0)),
                          (op("set_draft", field="m", value="16"), ok(active=False, panels=both)),
                          (op("insert", value="c"), err("no_active_filter")),
                          (op("create"), ok(active=True, panels=both)),
                          (op("set_panel", panel="positions", open=False), ok(panels={"positions": False, "model": True})),
                          (op("set_panel", panel="positions", open=False), ok(panels={"positions": False, "model": True})),
                          (op("roundtrip"), ok(panels={"positions": False, "model": True})),
                          (op("import", document=VALID), ok(panels={"positions": True, "model": False})),
                      ], ["rule", "error"],
                      "SESSION.md 3 and 5.7: nothing but set_panel changes a panel (an import replaces the whole session): "
                      "panels opened before any filter stay open through create, insert, query, insert_example, reset, a "
                      "discard, a rejected step and a roundtrip; the fixture's import brings its own panels."))
    # 5.1, step 1: a rejected draft is not stored and does not discard the filter.
    out.append(script("drafts/too-long-keeps-filter", "parameter_change_discards_filter",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), ok(distinct_entries=1)),
                          (op("set_draft", field="m", value="9" * 1025), err("too_long")),
                          (op("set_draft", field="k", value="2" * 1025), err("too_long")),
                          (op("set_draft", field="m", value="0" * 1024), ok(active=False, drafts={"m": "0" * 1024})),
                      ], ["rule", "error", "bound"],
                      "SESSION.md 5.1: a draft over 1024 code units is rejected (too_long) before anything is stored, so the "
                      "filter stays (the runner checks the view is unchanged); a 1024-unit draft that does not denote 8 is "
                      "stored and discards it."))
    # 7: the rate's value is fp / neg as a floating-point number.
    out.append(script("rate-value", "query_counters",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), {}),
                          (op("query", value="i"), ok(rate=rate(1, 1))),
                          (op("query", value="b"), ok(rate=rate(1, 2))),
                          (op("query", value="c"), ok(counters=counters(3, 1), rate={"state": "defined", "false_positives": 1, "negative_queries": 3, "value": 1 / 3})),
                          (op("query", value="i"), ok(rate=rate(2, 4))),
                          (op("query", value="d"), ok(rate={"state": "defined", "false_positives": 2, "negative_queries": 5, "value": 0.4})),
                          (op("query", value="e"), ok(rate={"state": "defined", "false_positives": 2, "negative_queries": 6, "value": 2 / 6})),
                      ], ["rule", "seed-figure"],
                      "SESSION.md 7: rate.value is false_positives / negative_queries as a float (1/3, 2/5, 1/3 again), not "
                      "rounded. m = 8, k = 1: \"a\" and \"i\" on bit %d (the seed's figures), b, c, d, e on %s, clear."
                      % (M8_K1["a"], ", ".join(str(M8_K1[c]) for c in "bcde"))))
    # 6: insert_many of 0 does nothing and succeeds, with or without a filter.
    out.append(script("insert-many-zero", "distinct_entry_limit",
                      [(op("insert_many", prefix="e", count=0), ok(active=False)),
                       (op("insert_many", prefix="e", count=1), err("no_active_filter"))] +
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert_many", prefix="e", count=0), ok(active=True, distinct_entries=0, history=[])),
                          (op("insert_many", prefix="e", count=2), ok(distinct_entries=2, history=[{"units": utf16("e1")}, {"units": utf16("e0")}])),
                      ], ["rule", "error"],
                      "SESSION.md 6 and 5.10: insert_many inserts prefix + 0, 1, ... (no padding); count 0 does nothing and "
                      "succeeds, also with no filter; count > 0 with no filter is no_active_filter."))
    # 10, step 17: with a full history and no new insertion in it, the file's counters
    # may exceed the replay's, by a valid pair only.
    full = ["w%d" % i for i in range(300)]
    bits = bits_after(1024, 1, full)
    zz = utf16("zz")
    (p,) = positions(1024, 1, zz)
    assert bits[p] == "0"  # derived: "zz" is definitely absent, so the replay counts 1/0
    zz_last = ('{"kind":"query","value":"zz","display":"\\"zz\\"","h1":%d,"h2":%d,"positions":[{"index":0,"position":%d,"before":false,"after":false}],"outcome":"definitely_absent"}'
               % (hashes(zz) + (p,)))
    def full_history(neg, fp):
        return export_text('{"m":1024,"k":1}', '{"m":"1024","k":"1","insert":"","query":""}', ['"%s"' % w for w in full],
                           '{"negative_queries":%d,"false_positives":%d}' % (neg, fp), zz_last,
                           ['{"kind":"query","value":"zz","outcome":"definitely_absent"}'] * 256,
                           '{"positions":false,"model":false}')
    out.append(script("full-history-extra-counts", "invalid_import_keeps_state",
                      [(s, {}) for s in KEPT] + [
                          (op("import_text", text=full_history(300, 45)), err("invalid")),
                          (op("import_text", text=full_history(255, 0)), err("invalid")),
                          (op("import_text", text=full_history(300, 44)), ok(distinct_entries=300, counters=counters(300, 44), rate=rate(44, 300))),
                          (op("import_text", text=full_history(256, 0)), ok(distinct_entries=300, counters=counters(256, 0))),
                      ], ["rule", "error", "derived", "bound"],
                      "SESSION.md 10, step 17, written out by hand in the layout of section 9: m = 1024, k = 1, 300 entries "
                      "and a full history of 256 queries of \"zz\" (definitely absent, derived) with no new insertion, so "
                      "the counts before its oldest item are unknown: the replay gives 256/0 and the file's counters may "
                      "exceed it by a valid pair. 300/44 (44 extra false positives among 44 extra negative queries) and "
                      "256/0 are accepted and kept; 300/45 (45 extra false positives among 44: invalid although 45 <= 300) "
                      "and 255/0 (fewer than the replay) are invalid."))
    # 10, step 18: every field of the last operation is compared with the replay.
    last = VALID["last_operation"]
    def with_last(**change):
        return mutate(lambda d: d["last_operation"].update(change))
    wrong = [("kind", with_last(kind="insert")), ("value", with_last(value="a")), ("outcome", with_last(outcome="definitely_absent")),
             ("display", with_last(display="\"x\"")), ("display-unescaped", with_last(display='"[55296]"')),
             ("h1", with_last(h1=last["h1"] + 1)), ("h2", with_last(h2=last["h2"] ^ 2)),
             ("no-positions", with_last(positions=[])), ("two-positions", with_last(positions=last["positions"] * 2)),
             ("index", with_last(positions=[dict(last["positions"][0], index=1)])),
             ("position", with_last(positions=[dict(last["positions"][0], position=6)])),
             ("before", with_last(positions=[dict(last["positions"][0], before=False)])),
             ("after", with_last(positions=[dict(last["positions"][0], after=False)])),
             ("missing", mutate(lambda d: d.update(last_operation=None)))]
    out.append(script("last-operation-fields", "invalid_import_keeps_state",
                      [(s, {}) for s in KEPT] + [(op("import", document=d), err("invalid")) for _, d in wrong] +
                      [(op("import", document=VALID), ok(distinct_entries=8))],
                      ["rule", "error", "lone-surrogate"],
                      "SESSION.md 10, step 18: the fixture with one field of its last operation changed (" +
                      ", ".join(name for name, _ in wrong) + "): each invalid; the fixture itself imports."))
    # 5.6 and the table of 5: reset needs a filter (an error, not a no-op), as do
    # insert_example, insert and query; set_panel never fails.
    none = [(op(name, **kw), err("no_active_filter")) for name, kw in
            (("reset", {}), ("insert_example", {}), ("insert", {"value": "a"}), ("query", {"value": "a"}))]
    out.append(script("reset/no-filter", "reset_keeps_drafts",
                      none + [(op("set_panel", panel="model", open=True), ok(active=False, panels={"positions": False, "model": True}))] +
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), ok(distinct_entries=1)),
                          (op("reset"), ok(active=True, distinct_entries=0)),
                          (op("reset"), ok(active=True, distinct_entries=0)),
                          (op("set_draft", field="k", value="2"), ok(active=False)),
                      ] + none, ["rule", "error"],
                      "SESSION.md 5.6 (note: reset with no filter is an error, not a no-op) and the table of section 5: on a "
                      "new session and after a discard, reset, insert_example, insert and query are no_active_filter and change "
                      "nothing; reset of an empty filter is accepted."))
    # 5.5: insert_example on a filter that already holds entries: the letters already there
    # are recorded as duplicates, in order; each new one resets the counters.
    hist = [{"kind": "insert", "units": [ord(c)], "display": '"%s"' % c, "outcome": "new"} for c in "hgfedcb"]
    hist += [{"kind": "insert", "units": [97], "display": '"a"', "outcome": "duplicate"},
             {"kind": "query", "units": [105], "display": '"i"', "outcome": "false_positive"},
             {"kind": "insert", "units": [97], "display": '"a"', "outcome": "new"}]
    out.append(script("example/over-entries", "a_to_h_fill_every_bit",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), ok(bits="00001000")),
                          (op("query", value="i"), ok(counters=counters(1, 1))),
                          (op("insert_example"), ok(bits="11111111", distinct_entries=8, counters=counters(0, 0), rate=UNDEF,
                                                    last_operation={"kind": "insert", "units": [104], "outcome": "new"}, history=hist)),
                          (op("insert_example"), ok(distinct_entries=8, counters=counters(0, 0),
                                                    last_operation={"kind": "insert", "units": [104], "outcome": "duplicate",
                                                                    "positions": [{"index": 0, "position": 7, "before": True, "after": True}]},
                                                    history=[{"outcome": "duplicate"}] * 8 + [{"outcome": "new"}] * 7 + [{"outcome": "duplicate"}, {"outcome": "false_positive"}, {"outcome": "new"}])),
                      ], ["rule", "seed-figure"],
                      "SESSION.md 5.5: insert_example is eight insert commits of a..h. With \"a\" already an entry (bit 4, the seed's "
                      "figure; \"i\" on bit 4 is a false positive, counters 1/1) it records \"a\" as a duplicate (counters "
                      "unchanged), then b..h as new (the first resets the counters): ten history items, newest first. A second "
                      "insert_example records eight duplicates and changes nothing else."))
    # 5.5: the limit counts only the letters that are not yet entries.
    out.append(script("example/near-the-cap", "distinct_entry_limit",
                      [(s, {}) for s in create(1024, 1)] + [
                          (op("insert", value=c), {}) for c in "abcd"] + [
                          (op("insert_many", prefix="e", count=1016), ok(distinct_entries=1020)),
                          (op("insert_example"), ok(distinct_entries=1024, last_operation={"kind": "insert", "units": [104], "outcome": "new"},
                                                    history=[{"units": [c], "outcome": o} for c, o in
                                                             [(104, "new"), (103, "new"), (102, "new"), (101, "new"),
                                                              (100, "duplicate"), (99, "duplicate"), (98, "duplicate"), (97, "duplicate")]] + [{}] * 248)),
                          (op("insert_example"), ok(distinct_entries=1024)),
                          (op("insert", value="z"), err("too_many_entries")),
                      ] + [(s, {}) for s in create(1024, 1)] + [
                          (op("insert_many", prefix="e", count=1016), ok(distinct_entries=1016)),
                          (op("insert_example"), ok(distinct_entries=1024)),
                      ] + [(s, {}) for s in create(1024, 1)] + [
                          (op("insert_many", prefix="e", count=1017), ok(distinct_entries=1017)),
                          (op("insert_example"), err("too_many_entries")),
                          (op("insert", value="a"), ok(distinct_entries=1018)),
                          (op("insert_example"), err("too_many_entries")),
                          (op("insert_many", prefix="x", count=7), err("too_many_entries")),
                          (op("insert_many", prefix="x", count=6), ok(distinct_entries=1024)),
                          (op("reset"), ok(distinct_entries=0)),
                          (op("insert_many", prefix="e", count=1017), ok(distinct_entries=1017)),
                          (op("insert", value="a"), ok(distinct_entries=1018)),
                          (op("insert_many", prefix="x", count=3), ok(distinct_entries=1021)),
                          (op("insert_example"), err("too_many_entries")),
                      ], ["rule", "bound", "error"],
                      "SESSION.md 5.5, its worked example: 1020 entries of which a..d, insert_example succeeds (4 new, 1024 "
                      "entries; a..d recorded as duplicates) and a second one is all duplicates, at the limit; 1016 entries and "
                      "none of a..h: exactly 1024; 1017 and none: rejected as a whole. With 1018 entries of which \"a\", 7 are "
                      "missing (1025): rejected; insert_many of 7 more (1025) is rejected whole (SESSION.md 6: all or nothing), "
                      "of 6 accepted (1024); again from 1018 of which a, 3 more (1021) and 7 missing: 1028, rejected."))
    # 4: the display form, escape by escape.
    shown = [("\u2028\u2029", '"\u2028\u2029"'), ("\u007f", '"\u007f"'), ("a/b", '"a/b"'),
             ("\b\f\r", '"\\b\\f\\r"'), ("\u0000\u0001\u001f", '"\\u0000\\u0001\\u001f"'),
             ("\\", '"\\\\"'), ("\u00a0\u2603", '"\u00a0\u2603"'),
             ("a \"b\"\n\u0001\\", '"a \\"b\\"\\n\\u0001\\\\"'),
             ([0xDE00, 0xD83D], '"\\ude00\\ud83d"'), ([0xDC00, 0x78], '"\\udc00x"'), ([0xD83D, 0xDE00], '"\U0001F600"'),
             ([0xDBFF], '"\\udbff"'), ([0x78, 0xDFFF], '"x\\udfff"')]
    steps = [(s, {}) for s in create(64, 2)]
    for value, display in shown:
        units = value if isinstance(value, list) else utf16(value)
        steps.append((op("query", value=value), ok(last_operation={"units": units, "display": display}, history=[{"units": units, "display": display}] + [{}] * (len(steps) - 3))))
    out.append(script("display/escapes", "last_operation_and_history", steps, ["rule", "lone-surrogate", "surrogate-pair"],
                      "SESSION.md 4, the display form, written by hand from its algorithm: U+2028, U+2029, U+007F, /, U+00A0 "
                      "and U+2603 verbatim; \\b \\f \\r; other controls as \\u00xx in lowercase (U+0000, U+0001, U+001F); "
                      "the backslash doubled; the table's last example; a reversed pair and lone surrogates as lowercase "
                      "\\uxxxx; a pair verbatim."))
    # 10, step 1: the import limit counts UTF-8 bytes, also of non-ASCII text.
    out.append(script("two-mib-non-ascii", "import_size_limit",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="\u20ac" * 256), {}),
                          (op("insert", value="\U0001F600" * 128), {}),
                          (op("insert", value="\u00e9" * 256), {}),
                          (op("import_padded", bytes=2 * 1024 * 1024), ok(distinct_entries=3)),
                          (op("import_padded", bytes=2 * 1024 * 1024 + 1), err("too_large")),
                          (op("import_padded", bytes=2 * 1024 * 1024 + 512), err("too_large")),
                      ], ["rule", "bound", "error", "surrogate-pair"],
                      "SESSION.md 10, step 1: the limit is in UTF-8 bytes. The entries (256 x U+20AC, 3 bytes each; 128 x "
                      "U+1F600, 4 bytes and 2 code units each; 256 x U+00E9, 2 bytes each) and the last operation and history "
                      "that repeat them make the export hundreds of bytes longer than its code units, so a limit counted in "
                      "code units would accept 2097153 and 2097664 bytes."))
    # 9 and 11: the export's layout, byte for byte, and the length a kept save reports.
    exported = export_text('{"m":8,"k":1}', '{"m":"8","k":"1","insert":"","query":"say \\"hi\\"\\n"}',
                           ['"\U0001F600\u00e9"'], '{"negative_queries":1,"false_positives":%d}' % (1 if positions(8, 1, [0xD800])[0] == positions(8, 1, utf16("\U0001F600\u00e9"))[0] else 0),
                           '{"kind":"query","value":[55296],"display":"\\"\\\\ud800\\"","h1":%d,"h2":%d,"positions":[{"index":0,"position":%d,"before":false,"after":false}],"outcome":"definitely_absent"}'
                           % (hashes([0xD800]) + (positions(8, 1, [0xD800])[0],)),
                           ['{"kind":"query","value":[55296],"outcome":"definitely_absent"}', '{"kind":"insert","value":"\U0001F600\u00e9","outcome":"new"}'],
                           '{"positions":false,"model":true}')
    assert positions(8, 1, [0xD800]) == [7] and positions(8, 1, utf16("\U0001F600\u00e9")) == [3]
    units = len(utf16(exported))
    assert units < len(exported.encode("utf-8")) and units > len(exported)  # bytes, units and code points all differ
    out.append(script("layout", "export_import_round_trip",
                      [(op("export"), {"export": NEW_EXPORT}),
                       (op("save_local", units=100001), {"save": "kept", "stored_units": len(utf16(NEW_EXPORT))})] +
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="\U0001F600\u00e9"), {}),
                          (op("query", value=[0xD800]), ok(last_operation={"outcome": "definitely_absent"})),
                          (op("set_panel", panel="model", open=True), {}),
                          (op("set_draft", field="query", value="say \"hi\"\n"), {}),
                          (op("export"), {"export": exported}),
                          (op("save_local", units=100001), {"save": "kept", "stored_units": units}),
                          (op("save_local", units=100000), {"save": "saved", "stored_units": 100000}),
                          (op("roundtrip"), {}),
                          (op("export"), {"export": exported}),
                      ], ["rule", "derived", "lone-surrogate", "surrogate-pair"],
                      "SESSION.md 9, Layout, written out by hand: one top-level field a line with two spaces, `\"name\": `, "
                      "the value compact; entries and history `[]` when empty, else one item a line indented by four spaces; "
                      "a final newline; a well-formed text as a JSON string (U+1F600 and U+00E9 verbatim), a lone surrogate "
                      "as an array; the display form as a JSON string (its backslash doubled); the draft's quotes and line "
                      "feed escaped. h1, h2 and the position of [0xd800] are SESSION.md 1's figures (position 7; \"\U0001F600\u00e9\" "
                      "is on bit 3, derived, so the query is definitely absent). SESSION.md 11 and 6: a kept save stores the "
                      "previous copy, the current export, and reports its length in UTF-16 code units (%d; %d UTF-8 bytes, %d "
                      "code points)." % (units, len(exported.encode("utf-8")), len(exported))))
    # 7 and 8: the view's estimates follow the distinct entries.
    def view_estimates(m, k, n):
        return dict(m=m, k=k, n=n, **estimates(m, k, n))
    zero = {"m": 8, "k": 1, "n": 0, "classic": 0.0, "finite_m": 0.0, "exact": 0.0, "optimal_k": 1}
    out.append(script("view-estimates", "duplicate_insertion_changes_nothing",
                      [(op("set_draft", field="m", value="8"), ok(estimates=None)),
                       (op("set_draft", field="k", value="1"), ok(estimates=None)),
                       (op("create"), ok(estimates=zero)),
                       (op("insert", value="a"), ok(estimates={"m": 8, "k": 1, "n": 1, "classic": 0.1175030974154046, "finite_m": 0.125, "exact": 0.125, "optimal_k": 6})),
                       (op("insert", value="a"), ok(estimates={"n": 1, "exact": 0.125, "optimal_k": 6})),
                       (op("query", value="b"), ok(estimates={"n": 1, "exact": 0.125})),
                       (op("insert", value="i"), ok(bits_set=1, distinct_entries=2, estimates=view_estimates(8, 1, 2))),
                       (op("insert", value="j"), ok(estimates=view_estimates(8, 1, 3))),
                       (op("reset"), ok(estimates=zero)),
                       (op("set_draft", field="k", value="12"), ok(estimates=None)),
                       (op("create"), ok(estimates=dict(zero, k=12))),
                       (op("insert", value="a"), ok(estimates=dict(view_estimates(8, 12, 1), exact=0.18023423533325167))),
                       (op("roundtrip"), ok(estimates={"n": 1, "exact": 0.18023423533325167})),
                       ], ["rule", "exact-rational", "seed-figure"],
                      "SESSION.md 7 and 8: the view's estimates are estimates(m, k, n) with n the distinct entries: null with no "
                      "filter, all 0 and optimal_k 1 at n = 0 (bits_set 1 with the entries a and i, both on bit 4), SESSION.md 8's figures for (8, 1, 1) and (8, 12, 1) (exact "
                      "0.18023423533325167), unchanged by a duplicate and by a query, back to n = 0 after reset; the rest "
                      "exact-rational."))
    return out


def cases():
    out = []

def cases():
    out = []
    for check, table in HASHES.items():
        for cid, m, k, text, units, flags in table:
            out.append(pos_case(cid, check, m, k, text, units, flags))
    assert hashes(utf16("a")) == (A_H1, A_H2)
    assert A_H1 + 2 * A_H2 >= 2 ** 32
    out.append(script("session/wrap-in-last-operation", "positions_without_32_bit_wrap",
                      [(s, {}) for s in create(1000, 3)] +
                      [(op("insert", value="a"), ok(last_operation={"h1": A_H1, "h2": A_H2,
                                                                    "positions": [{"index": i, "position": p} for i, p in enumerate(positions(1000, 3, utf16("a")))]}))],
                      ["derived", "wrap-would-differ"], "Index 2: %d + 2*%d = %d >= 2^32; exact mod 1000 = %d, a wrap would give %d."
                      % (A_H1, A_H2, A_H1 + 2 * A_H2, (A_H1 + 2 * A_H2) % 1000, (A_H1 + 2 * A_H2) % 2 ** 32 % 1000)))
    assert positions(1000, 3, utf16("a"))[2] == 146
    # repeated positions
    assert positions(24, 12, utf16("bloom")) == [4, 19, 10, 1, 16, 7, 22, 13, 4, 19, 10, 1]  # gcd(h2, 24) = 3: a cycle of 8
    p = positions(8, 12, utf16("a"))
    seen = set()
    steps = []
    for i, q in enumerate(p):
        steps.append({"index": i, "position": q, "before": False, "after": True})
    out.append(script("session/insert-a-m8-k12", "repeated_positions_kept_in_order",
                      [(s, {}) for s in create(8, 12)] +
                      [(op("insert", value="a"), ok(bits=bits_after(8, 12, ["a"]), last_operation={"kind": "insert", "positions": steps}))],
                      ["derived", "repeated-position"], "before/after describe the bit before and after the whole operation."))
    # The page's decision for repeated positions (SESSION.md, section 5.8): each row, in
    # order, is the bit before and after the whole operation, so a repeat shows the same
    # pair as its first row, even when that first row set the bit.
    before_bits = bits_after(24, 12, ["c"])
    bloom = positions(24, 12, utf16("bloom"))
    rows = [{"index": i, "position": q, "before": before_bits[q] == "1", "after": True} for i, q in enumerate(bloom)]
    assert any(r["before"] for r in rows[:8]) and not all(r["before"] for r in rows[:8])
    assert all(rows[i + 8]["position"] == rows[i]["position"] and rows[i + 8]["before"] == rows[i]["before"] for i in range(4))
    assert any(not rows[i]["before"] for i in range(4))  # a repeat of a bit this insertion sets
    out.append(script("session/repeated-positions-same-pair", "repeated_positions_kept_in_order",
                      [(s, {}) for s in create(24, 12)] + [
                          (op("insert", value="c"), ok(bits=before_bits)),
                          (op("insert", value="bloom"), ok(bits=bits_after(24, 12, ["c", "bloom"]),
                                                           last_operation={"kind": "insert", "outcome": "new", "positions": rows})),
                          (op("query", value="bloom"), ok(last_operation={"kind": "query", "outcome": "truly_present",
                                                                          "positions": [dict(r, before=True) for r in rows]})),
                      ],
                      ["derived", "repeated-position"],
                      "SESSION.md 5.8, the decision: rows 8..11 repeat rows 0..3 with the same before/after pair (the whole operation), "
                      "though rows 0..3 set those bits; the order the seed gives the before/after values in is the order of the rows."))
    # a..h
    assert {c: positions(8, 1, utf16(c))[0] for c in "abcdefghi"} == M8_K1
    out.append(script("session/example-then-new-strings", "a_to_h_fill_every_bit",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert_example"), ok(bits="11111111", bits_set=8, distinct_entries=8, counters=counters(0, 0))),
                          (op("query", value="i"), ok(counters=counters(1, 1), last_operation={"outcome": "false_positive"})),
                          (op("query", value="zebra"), ok(counters=counters(2, 2))),
                          (op("query", value="\U0001F600"), ok(counters=counters(3, 3), rate=rate(3, 3))),
                      ], ["seed-figure", "rule"]))
    out.append(script("session/insert-one-by-one", "a_to_h_fill_every_bit",
                      [(s, {}) for s in create(8, 1)] +
                      [(op("insert", value=c), ok(bits=bits_after(8, 1, "abcdefgh"[:i + 1]))) for i, c in enumerate("abcdefgh")],
                      ["seed-figure", "derived"]))
    # rate 1/2
    out.append(script("seed/insert-a-query-i-a-b", "observed_rate_one_half",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), ok(rate=UNDEF, distinct_entries=1)),
                          (op("query", value="i"), ok(counters=counters(1, 1), last_operation={"outcome": "false_positive"})),
                          (op("query", value="a"), ok(counters=counters(1, 1), last_operation={"outcome": "truly_present"})),
                          (op("query", value="b"), ok(counters=counters(SMALL_EXAMPLE_RATE[1], SMALL_EXAMPLE_RATE[0]),
                                                      rate=rate(*SMALL_EXAMPLE_RATE), last_operation={"outcome": "definitely_absent"})),
                      ], ["seed-figure", "rule"]))
    # undefined rate
    out.append(script("fresh-and-present-only", "observed_rate_undefined_without_negative_query",
                      [(op("set_draft", field="m", value="64"), {}), (op("set_draft", field="k", value="3"), {}),
                       (op("create"), ok(rate=UNDEF, counters=counters(0, 0))),
                       (op("insert", value="a"), ok(rate=UNDEF)),
                       (op("query", value="a"), ok(rate=UNDEF, counters=counters(0, 0))),
                       (op("query", value="a"), ok(rate=UNDEF))]))
    out.append(script("after-reset", "observed_rate_undefined_without_negative_query",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), {}), (op("query", value="b"), ok(rate=rate(0, 1))),
                          (op("reset"), ok(rate=UNDEF, counters=counters(0, 0)))]))
    # counters
    out.append(script("repeated-and-present", "query_counters",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), {}),
                          (op("query", value="a"), ok(counters=counters(0, 0))),
                          (op("query", value="b"), ok(counters=counters(1, 0))),
                          (op("query", value="b"), ok(counters=counters(2, 0))),
                          (op("query", value="i"), ok(counters=counters(3, 1))),
                          (op("query", value="i"), ok(counters=counters(4, 2), rate=rate(2, 4))),
                          (op("query", value="a"), ok(counters=counters(4, 2)))]))
    # duplicate insertion
    out.append(script("insert-twice", "duplicate_insertion_changes_nothing",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), {}), (op("query", value="b"), ok(counters=counters(1, 0))),
                          (op("insert", value="a"), ok(bits=bits_after(8, 1, ["a"]), distinct_entries=1, counters=counters(1, 0),
                                                       last_operation={"kind": "insert", "outcome": "duplicate"}))],
                      ["rule", "derived"]))
    # new distinct resets
    out.append(script("insert-new", "new_distinct_insertion_resets_counters",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), {}), (op("query", value="b"), {}), (op("query", value="i"), ok(counters=counters(2, 1))),
                          (op("insert", value="c"), ok(counters=counters(0, 0), rate=UNDEF, distinct_entries=2))]))
    out.append(script("new-string-on-set-bits", "new_distinct_insertion_resets_counters",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), {}), (op("query", value="b"), ok(counters=counters(1, 0))),
                          (op("insert", value="i"), ok(counters=counters(0, 0), bits=bits_after(8, 1, ["a"]),
                                                       last_operation={"outcome": "new"}))],
                      ["rule", "derived"], "\"i\" lands on a bit already set by \"a\": the bits do not change, the reference set does."))
    # length
    smile = "\U0001F600"
    out.append(script("units", "string_length_in_code_units",
                      [(s, {}) for s in create(64, 3)] + [
                          (op("insert", value="x" * 256), ok(distinct_entries=1)),
                          (op("insert", value="x" * 257), err("too_long")),
                          (op("insert", value=""), err("empty_string")),
                          (op("query", value=""), err("empty_string")),
                          (op("query", value="y" * 257), err("too_long")),
                          (op("insert", value=smile * 128), ok(distinct_entries=2)),
                          (op("insert", value=smile * 128 + "a"), err("too_long")),
                          (op("insert", value="a" + smile * 128), err("too_long")),
                          (op("insert", value=[0xD800] * 256), ok(distinct_entries=3)),
                          (op("query", value="z" * 256), ok()),
                      ], ["rule", "surrogate-pair", "lone-surrogate", "bound", "error"]))
    # drafts: at most 1024 code units (SESSION.md 2, 5.1), kept through export and import
    m_1024 = "0" * 1023 + "8"
    k_1024 = "0" * 1023 + "1"
    out.append(script("drafts/1024-units", "string_length_in_code_units",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("set_draft", field="insert", value="i" * 1024), ok(drafts={"insert": "i" * 1024})),
                          (op("set_draft", field="insert", value="j" * 1025), err("too_long")),
                          (op("set_draft", field="query", value=smile * 512), ok(drafts={"query": smile * 512})),
                          (op("set_draft", field="query", value=smile * 512 + "q"), err("too_long")),
                          (op("set_draft", field="m", value=m_1024), ok(active=True, params={"m": 8, "k": 1}, drafts={"m": m_1024})),
                          (op("set_draft", field="k", value="0" + k_1024), err("too_long")),
                          (op("set_draft", field="k", value=k_1024), ok(active=True, params={"m": 8, "k": 1}, drafts={"k": k_1024})),
                          (op("insert", value="a"), ok(distinct_entries=1)),
                          (op("roundtrip"), ok(active=True, params={"m": 8, "k": 1}, distinct_entries=1,
                                               drafts={"m": m_1024, "k": k_1024, "insert": "i" * 1024, "query": smile * 512})),
                          (op("create"), ok(active=True, params={"m": 8, "k": 1}, bits="0" * 8, distinct_entries=0,
                                            drafts={"m": m_1024, "k": k_1024, "insert": "i" * 1024, "query": smile * 512})),
                      ], ["rule", "surrogate-pair", "bound", "error"],
                      "Drafts hold at most 1024 UTF-16 code units (SESSION.md 2 and 5.1): 1024 accepted and stored verbatim, "
                      "1025 rejected (too_long, nothing stored, the filter kept). 512 emoji are 1024 units (accepted); one more "
                      "unit makes 1025 (rejected, though only 513 code points). The m draft of 1023 zeros and an 8 denotes 8, so "
                      "the m = 8 filter stays (5.1), likewise k; the roundtrip must keep the four 1024-unit drafts (the export "
                      "writes them, import step 8 accepts 1024 and step 11 finds that they denote params), and create parses "
                      "them as m = 8, k = 1 (leading zeros allowed, 5.2)."))
    # exact comparison
    out.append(script("forms", "exact_comparison_no_normalisation",
                      [(s, {}) for s in create(1024, 4)] + [
                          (op("insert", value="\u00e9"), ok(distinct_entries=1)),
                          (op("insert", value="e\u0301"), ok(distinct_entries=2, last_operation={"outcome": "new"})),
                          (op("insert", value="a"), ok(distinct_entries=3)),
                          (op("insert", value="A"), ok(distinct_entries=4, last_operation={"outcome": "new"})),
                          (op("insert", value=" a"), ok(distinct_entries=5, last_operation={"outcome": "new"})),
                          (op("insert", value="a "), ok(distinct_entries=6, last_operation={"outcome": "new"})),
                          (op("query", value="\u00e9"), ok(last_operation={"outcome": "truly_present"})),
                          (op("query", value="E\u0301"), ok(last_operation={"kind": "query"})),
                          (op("insert", value=" a"), ok(distinct_entries=6, last_operation={"outcome": "duplicate"})),
                      ]))
    # 1024 entries
    out.append(script("limit", "distinct_entry_limit",
                      [(s, {}) for s in create(1024, 1)] + [
                          (op("insert_many", prefix="entry-", count=1023), ok(distinct_entries=1023)),
                          (op("insert", value="entry-1023"), ok(distinct_entries=1024)),
                          (op("insert", value="one-too-many"), err("too_many_entries")),
                          (op("insert", value="entry-0"), ok(distinct_entries=1024, last_operation={"outcome": "duplicate"})),
                          (op("query", value="one-too-many"), ok(distinct_entries=1024)),
                      ], ["rule", "bound", "error"], "insert_many inserts prefix+0 .. prefix+(count-1), in order."))
    out += combined_entry_limit_cases()
    # parameter bounds
    steps = []
    for m, k, result in [(7, 3, "m"), (1025, 3, "m"), (8, 0, "k"), (8, 13, "k"), (0, 1, "m")]:
        steps += [(op("set_draft", field="m", value=str(m)), {}), (op("set_draft", field="k", value=str(k)), {}),
                  (op("create"), err("out_of_range"))]
    for m, k in [("8.0", "1"), (" 8", "1"), ("", "1"), ("-8", "1"), ("8", "1e1"), ("\uff18", "1")]:
        steps += [(op("set_draft", field="m", value=m), {}), (op("set_draft", field="k", value=k), {}),
                  (op("create"), err("invalid_draft"))]
    for m, k in [(8, 1), (1024, 12), (8, 12), (1024, 1)]:
        steps += [(op("set_draft", field="m", value=str(m)), {}), (op("set_draft", field="k", value=str(k)), {}),
                  (op("create"), ok(active=True, params={"m": m, "k": k}, bits="0" * m))]
    out.append(script("create", "parameter_bounds", steps, ["rule", "bound", "error"]))
    out.append(script("no-filter-yet", "parameter_bounds",
                      [(op("insert", value="a"), err("no_active_filter")), (op("query", value="a"), err("no_active_filter"))],
                      ["rule", "error"]))
    out += combined_create_cases()
    out += combined_no_filter_cases()
    # reset
    out.append(script("drafts", "reset_keeps_drafts",
                      [(s, {}) for s in create(16, 2)] + [
                          (op("insert", value="a"), {}),
                          (op("set_draft", field="insert", value="draft insert"), {}),
                          (op("set_draft", field="query", value="draft query"), {}),
                          (op("query", value="q"), {}),
                          (op("reset"), ok(active=True, params={"m": 16, "k": 2}, bits="0" * 16, distinct_entries=0,
                                           counters=counters(0, 0), rate=UNDEF, last_operation=None, history=[],
                                           drafts={"m": "16", "k": "2", "insert": "draft insert", "query": "draft query"}))]))
    # parameter change
    out.append(script("m-and-k", "parameter_change_discards_filter",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a"), ok(active=True)),
                          (op("set_draft", field="m", value="16"), ok(active=False, params=None, bits=None, distinct_entries=0)),
                          (op("insert", value="b"), err("no_active_filter")),
                          (op("create"), ok(active=True, params={"m": 16, "k": 1}, bits="0" * 16, distinct_entries=0)),
                          (op("insert", value="a"), ok(active=True)),
                          (op("set_draft", field="k", value="2"), ok(active=False)),
                          (op("query", value="a"), err("no_active_filter")),
                          (op("create"), ok(active=True, params={"m": 16, "k": 2}))],
                      ["rule", "error"]))
    # last op and history
    out.append(script("display-and-order", "last_operation_and_history",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert", value="a b\n"), ok(last_operation={"kind": "insert", "display": "\"a b\\n\"", "outcome": "new",
                                                                         "positions": [{"index": 0, "position": positions(8, 1, utf16("a b\n"))[0], "before": False, "after": True}]})),
                          (op("query", value="\"q\"\t"), ok(last_operation={"kind": "query", "display": "\"\\\"q\\\"\\t\""},
                                                            history=[{"kind": "query", "display": "\"\\\"q\\\"\\t\""},
                                                                     {"kind": "insert", "display": "\"a b\\n\""}])),
                          (op("query", value=[0xD800]), ok(last_operation={"display": "\"\\ud800\""})),
                          (op("query", value="\u00e9\U0001F600"), ok(last_operation={"display": "\"\u00e9\U0001F600\""})),
                      ], ["rule", "derived", "lone-surrogate", "surrogate-pair"]))
    # history cap (SESSION.md 5.8: newest first, at most 256, the oldest dropped)
    out.append(script("history/cap-256", "last_operation_and_history",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert_many", prefix="w", count=256),
                           ok(distinct_entries=256, history=history_ends(("insert", "w255", "new"), ("insert", "w0", "new")))),
                          (op("insert", value="w256"),
                           ok(distinct_entries=257, last_operation={"kind": "insert", "display": "\"w256\"", "outcome": "new"},
                              history=history_ends(("insert", "w256", "new"), ("insert", "w1", "new")))),
                          (op("query", value="w0"),
                           ok(distinct_entries=257, counters=counters(0, 0),
                              last_operation={"kind": "query", "display": "\"w0\"", "outcome": "truly_present"},
                              history=history_ends(("query", "w0", "truly_present"), ("insert", "w2", "new")))),
                          (op("insert", value="w1"),
                           ok(distinct_entries=257, last_operation={"kind": "insert", "display": "\"w1\"", "outcome": "duplicate"},
                              history=history_ends(("insert", "w1", "duplicate"), ("insert", "w3", "new")))),
                      ], ["rule", "bound"],
                      "History keeps the 256 most recent insertions and queries, newest first (SESSION.md 5.8). insert_many "
                      "records w0 .. w255 (256 items, none dropped); each further operation drops the oldest item. w0 and w1 "
                      "stay entries after their items are dropped: a query of w0 is truly_present, w1 again a duplicate. "
                      "A `history` expectation is an array of exactly that length; the items between the newest and the "
                      "oldest are `{}` (present, nothing compared)."))
    # round trip
    out.append(script("populated", "export_import_round_trip",
                      [(s, {}) for s in create(64, 4)] + [
                          (op("insert_many", prefix="w", count=40), {}),
                          (op("insert", value=[0xD800, 0x61]), {}),
                          (op("insert", value="\U0001F600 \u00e9"), {}),
                          (op("query", value="nope"), {}), (op("query", value="w3"), {}),
                          (op("set_panel", panel="positions", open=True), ok(panels={"positions": True, "model": False})),
                          (op("set_draft", field="query", value="half typed"), {}),
                          (op("roundtrip"), ok(distinct_entries=42, panels={"positions": True, "model": False})),
                          (op("insert", value="after"), ok(distinct_entries=43))],
                      ["rule", "lone-surrogate", "surrogate-pair"], "`roundtrip` exports, imports into a fresh session and continues with it; the runner checks its view equals the one before."))
    out.append(script("no-filter", "export_import_round_trip",
                      [(op("set_draft", field="m", value="77"), {}), (op("roundtrip"), ok(active=False, drafts={"m": "77"}))]))
    # a full history through export and import (SESSION.md 10, steps 14 to 17)
    words = ["w%d" % i for i in range(300)]
    zz = utf16("zz")
    zz_outcome = "false_positive" if all(bits_after(8, 1, words)[p] == "1" for p in positions(8, 1, zz)) else "definitely_absent"
    zz_fp = 1 if zz_outcome == "false_positive" else 0
    out.append(script("full-history", "export_import_round_trip",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("insert_many", prefix="w", count=300), ok(distinct_entries=300, bits=bits_after(8, 1, words))),
                          (op("query", value="zz"),
                           ok(counters=counters(1, zz_fp), last_operation={"outcome": zz_outcome},
                              history=history_ends(("query", "zz", zz_outcome), ("insert", "w45", "new")))),
                          (op("roundtrip"),
                           ok(distinct_entries=300, bits=bits_after(8, 1, words), counters=counters(1, zz_fp),
                              last_operation={"kind": "query", "display": "\"zz\"", "outcome": zz_outcome},
                              history=history_ends(("query", "zz", zz_outcome), ("insert", "w45", "new")))),
                          (op("insert", value="w0"),
                           ok(distinct_entries=300, counters=counters(1, zz_fp),
                              history=history_ends(("insert", "w0", "duplicate"), ("insert", "w46", "new")))),
                          (op("query", value="zz"), ok(counters=counters(2, 2 * zz_fp))),
                      ], ["rule", "derived", "bound"],
                      "300 insertions and a query: the history is full (256 items: the query, then w299 .. w45) and the "
                      "entries w0 .. w44 came before its oldest item. The export holds all 300 entries and the 256 items; "
                      "import (SESSION.md 10) sees a full history, takes w0 .. w44 as the prefix, replays the rest and "
                      "keeps the counters; the roundtrip must give back the same view. Afterwards w0 (an entry with no "
                      "history item) is a duplicate and the history drops w45. With m = 8, k = 1 the 300 entries give the "
                      "bits " + bits_after(8, 1, words) + " (derived), so \"zz\" is a " + zz_outcome + "."))
    # counters at their maximum saturate (SESSION.md 5.4) and the export stays readable
    # (SESSION.md 10, step 17)
    top = 2 ** 64 - 1
    a_query = {"kind": "query", "value": "a", "outcome": "truly_present"}
    at_max = {"format": "bloomproof-session", "version": 1, "protocol": "fnv1a-utf16-v1",
              "params": {"m": 8, "k": 1}, "drafts": {"m": "8", "k": "1", "insert": "", "query": ""},
              "entries": ["a"], "counters": counters(top, top),
              "last_operation": {"kind": "query", "value": "a", "display": "\"a\"",
                                 "h1": hashes(utf16("a"))[0], "h2": hashes(utf16("a"))[1],
                                 "positions": [{"index": 0, "position": positions(8, 1, utf16("a"))[0],
                                                "before": True, "after": True}],
                                 "outcome": "truly_present"},
              "history": [a_query] * 256, "panels": {"positions": False, "model": False}}
    assert positions(8, 1, utf16("b")) != positions(8, 1, utf16("a")) == positions(8, 1, utf16("i"))
    out.append(script("counters/saturate-at-max", "export_import_round_trip",
                      [(op("import", document=at_max), ok(active=True, counters=counters(top, top))),
                       (op("query", value="b"),
                        ok(counters=counters(top, top), last_operation={"outcome": "definitely_absent"},
                           rate={"state": "defined", "false_positives": top, "negative_queries": top, "value": 1.0})),
                       (op("roundtrip"), ok(counters=counters(top, top), last_operation={"outcome": "definitely_absent"})),
                       (op("query", value="i"), ok(counters=counters(top, top), last_operation={"outcome": "false_positive"})),
                       (op("roundtrip"), ok(counters=counters(top, top)))],
                      ["rule", "bound"],
                      "Counters at 2^64-1 saturate (SESSION.md 5.4): a definitely_absent query of \"b\" and a "
                      "false_positive query of \"i\" (bit 4 of \"a\", m = 8, k = 1) leave both at 2^64-1, never "
                      "2^64, which no export may hold. The full history (256 items, no new insertion) makes import "
                      "step 17 compare the file's counters with the replayed ones; at 2^64-1 it skips the comparison "
                      "of the two differences, so each roundtrip reads the export back with the same view."))
    # import size
    out.append(script("two-mib", "import_size_limit", two_mib_steps(err("too_large"), err("too_large")),
                      ["rule", "bound", "error"], "import_padded exports the current session, pads it with trailing spaces to exactly `bytes` bytes and imports that."))
    out += combined_import_size_cases()
    # invalid imports
    valid = VALID
    bad = [
        ("syntax", {"text": "{\"format\": \"bloomproof-session\", "}, "syntax"),
        ("not-an-object", {"text": "[1, 2, 3]"}, None),
        ("wrong-format", {"document": mutate(lambda d: d.update(format="something-else"))}, None),
        ("future-version", {"document": mutate(lambda d: d.update(version=99))}, "unsupported_version"),
        ("unknown-field", {"document": mutate(lambda d: d.update(bits="11111111"))}, None),
        ("m-out-of-range", {"document": mutate(lambda d: (d["params"].update(m=2000), d["drafts"].update(m="2000")))}, None),
        ("k-out-of-range", {"document": mutate(lambda d: (d["params"].update(k=0), d["drafts"].update(k="0")))}, None),
        ("entry-257-units", {"document": mutate(lambda d: d["entries"].append("x" * 257))}, None),
        ("empty-entry", {"document": mutate(lambda d: d["entries"].append(""))}, None),
        ("duplicate-entries", {"document": mutate(lambda d: d["entries"].append("a"))}, None),
        ("too-many-entries", {"document": mutate(lambda d: d["entries"].extend("e%d" % i for i in range(1017)))}, None),
        ("false-positives-exceed-negatives", {"document": mutate(lambda d: d["counters"].update(false_positives=5))}, None),
        ("counters-inconsistent-with-history", {"document": mutate(lambda d: d["counters"].update(negative_queries=7))}, None),
        ("unit-out-of-range", {"document": mutate(lambda d: d["entries"].append([70000]))}, None),
    ]
    steps = [(s, {}) for s in create(16, 2)] + [(op("insert", value="kept"), ok(distinct_entries=1))]
    for name, payload, kind in bad:
        steps.append((op("import_text" if "text" in payload else "import", **payload), err(kind) if kind else {"error": "*"}))
    steps.append((op("query", value="kept"), ok(distinct_entries=1, params={"m": 16, "k": 2}, last_operation={"outcome": "truly_present"})))
    out.append(script("each-kind", "invalid_import_keeps_state", steps, ["rule", "error"],
                      "An expected error of \"*\" accepts any error kind; every error step must leave the view exactly as before."))
    out += combined_import_cases()
    out += strict_import_cases()
    # legacy
    out.append(script("v1-fixture", "legacy_saved_state_readable",
                      [(op("import", document=valid),
                        ok(active=True, params={"m": 8, "k": 1}, bits="11111111", distinct_entries=8,
                           counters=counters(2, 2), rate=rate(2, 2), panels={"positions": True, "model": False},
                           last_operation={"kind": "query", "display": "\"\\ud800\"", "outcome": "false_positive"}))],
                      ["legacy", "lone-surrogate", "seed-figure"], "The fixture spec/fnv1a-utf16-v1/session-v1.json, embedded."))
    # local save
    out.append(script("hundred-thousand", "local_save_limit",
                      [(s, {}) for s in create(8, 1)] + [
                          (op("save_local", units=100000), {"save": "saved"}),
                          (op("save_local", units=100001), {"save": "kept"}),
                          (op("save_local", units=1), {"save": "saved"}),
                      ], ["rule", "bound"], "save_local builds a serialised state of exactly `units` UTF-16 code units and applies the rule with a previous copy."))
    # local save with text whose measures differ (SESSION.md 6.6.1 and 11.4; adapter
    # protocol 3): a state of `units` UTF-16 code units made of `fill` (whole copies, then
    # "x"s), saved when it is at most 100000 code units, whatever its UTF-8 bytes, code
    # points or user-perceived characters (the length a kept save reports, the previous
    # copy's, is 17-layout's: a faithful export layout changes it).
    out += fill_cases()
    out += session_rule_cases()
    # estimates; the second row: optimal k away from the first row's points (SESSION.md 8,
    # step 5), among them points where rounding m/n * ln 2 misses the minimum of classic
    # ((18, 5): 2.50 -> 2, but k = 3 is lower; (15, 7) and (1024, 490): 1, but 2 is lower)
    # Out of range, the inputs are clamped first (SESSION.md 8, step 1): the same figures
    # as the clamped points.
    for (m, k, n), clamped in [((2000, 20, 5000), (1024, 12, 1024)), ((4, 0, 3), (8, 1, 3))]:
        out.append(case("clamped-m%d-k%d-n%d" % (m, k, n), "estimates_pinned", "estimates", {"m": m, "k": k, "n": n}, estimates(*clamped), ["exact-rational", "bound"]))
    for m, k, n in [(8, 1, 8), (8, 1, 1), (64, 3, 10), (1024, 12, 1024), (1024, 1, 1), (100, 7, 14), (512, 4, 0), (8, 12, 1024), (1000, 5, 200),
                    (8, 12, 1), (8, 1, 2), (64, 1, 1), (100, 3, 7), (18, 3, 5), (15, 2, 7), (1024, 2, 490), (200, 12, 30)]:
        e = estimates(m, k, n)
        out.append(case("m%d-k%d-n%d" % (m, k, n), "estimates_pinned", "estimates", {"m": m, "k": k, "n": n}, e, ["exact-rational"]))
    # Generated: the domains fresh inputs are drawn from on every run (spec/README.md,
    # "Generated checks"); the runner compares every answer with the oracle or the
    # reference session model.
    whole = {"m": [8, 1024], "k": [1, 12]}
    out.append(case("generated/hashes", "generated_hashes_agree_with_oracle", "generated",
                    {"generator": "fnv_hashes", "count": 256, **whole, "units": [1, 256]},
                    {"equal_to": "oracle", "compared": ["positions"]}))
    out.append(case("generated/estimates", "generated_estimates_agree_with_oracle", "generated",
                    {"generator": "fnv_estimates", "count": 32, **whole, "n": [0, 1024]},
                    {"equal_to": "oracle", "compared": ["estimates"]}))
    # Out of range (SESSION.md 8, step 1): between them and the case above, each input is
    # drawn from the wire's whole width (a 32-bit unsigned integer, ADAPTER.md), below its
    # bounds and above them, where an input read into a narrower or signed type, or clamped
    # to a wrong bound, goes wrong. Each keeps the filter far from full (a full one estimates
    # 1 whatever its inputs) and the exact estimate cheap (its cost grows with m * k * n).
    wire = 4294967295
    for name, count, domain in [("small", 16, {"m": [0, 16], "k": [0, 2], "n": [0, 4]}),
                                ("large", 16, {"m": [1000, wire], "k": [10, wire], "n": [0, 2]}),
                                ("entries", 8, {"m": [512, 1024], "k": [0, 1], "n": [1000, wire]})]:
        out.append(case("generated/estimates-clamped-" + name, "generated_estimates_agree_with_oracle", "generated",
                        {"generator": "fnv_estimates", "count": count, **domain},
                        {"equal_to": "oracle", "compared": ["estimates"]}))
    out.append(case("generated/sessions", "generated_sessions_agree_with_model", "generated",
                    {"generator": "fnv_sessions", "count": 36, **whole, "steps": [1, 16]},
                    {"equal_to": "session_model", "compared": ["view", "error", "save", "export"]}))
    out += core_split_cases()
    out.append(case("generated/sessions-page", "generated_sessions_follow_the_page", "generated",
                    {"generator": "fnv_sessions", "count": 36, **whole, "steps": [1, 16]},
                    {"equal_to": "session_model", "compared": ["page"]}))
    # Local saves of a drawn text whose measures differ, at the limit and one past it in
    # each measure (adapter protocol 3: an adapter of 2 runs these checks without them).
    out.append(case("generated/save-fills", "generated_sessions_agree_with_model", "generated",
                    {"generator": "fnv_save_fills", "count": 4, **whole},
                    {"equal_to": "session_model", "compared": ["view", "error", "save", "export"]}))
    out.append(case("generated/save-fills-page", "generated_sessions_follow_the_page", "generated",
                    {"generator": "fnv_save_fills", "count": 4, **whole},
                    {"equal_to": "session_model", "compared": ["page"]}))
    ids = {c["id"] for c in out}
    for name, table in [("IMPORT_STEPS", IMPORT_STEPS), ("SESSION_RULES", SESSION_RULES)]:
        unknown = sorted(set(table) - ids)
        if unknown:
            raise SystemExit(f"{name} names cases that do not exist: {unknown}")
    without = sorted(c["id"] for c in out if c["id"] not in SESSION_RULES)
    if without:
        raise SystemExit(f"SESSION_RULES has no entry for the cases {without}")
    for c in out:
        steps = IMPORT_STEPS.get(c["id"], ())
        own = ["SESSION-" + rule for rule in list(SESSION_RULES[c["id"]]) + session_runner_rules(c)]
        c["rules"] = list(dict.fromkeys(list(c.get("rules", ())) + ["SESSION-10.%d" % n for n in steps] + own))
    # Conformance classes (spec/README.md, "Classes"): a case that pins what SESSION.md
    # decided where the page is silent (the finite-m and exact estimates in a view, the
    # history cap, the drafts' limit and what "denotes" means, the error kinds and their
    # order) is judged by an interop check, not by the core check of the rule it shows.
    for c in out:
        c["check"] = DECISIONS.get(c["id"], c["check"])
    # The page gives the classic approximation alone: a core check compares it, and only
    # it, at every estimates case within the page's bounds (the clamping is SESSION.md's).
    for c in list(out):
        if c["check"] == "estimates_pinned" and not c["id"].startswith("clamped-"):
            out.append(case(c["id"], "classic_estimate_pinned", "estimates", dict(c["input"]),
                            {"classic": c["expect"]["classic"]}, c.get("flags", ())))
    return out


def refused(**view):
    """A step refused with any kind (the kinds are SESSION.md's), the view as given."""
    return {"error": "*", **({"view": view} if view else {})}


def last_record(kind, text_or_units, outcome, m, k, bits_before):
    """The last operation the page shows first: kind, code units, outcome, the base hashes
    and each position in order with its bit before (at its first occurrence) and after."""
    units = utf16(text_or_units) if isinstance(text_or_units, str) else text_or_units
    h1, h2 = hashes(units)
    rows, seen = [], set()
    for i, p in enumerate(positions(m, k, units)):
        row = {"index": i, "position": p, "after": True if kind == "insert" else bits_before[p] == "1"}
        if p not in seen:
            row["before"] = bits_before[p] == "1"
        seen.add(p)
        rows.append(row)
    return {"kind": kind, "units": units, "h1": h1, "h2": h2, "positions": rows, "outcome": outcome}


def query_outcome(m, k, entries, text_or_units):
    units = utf16(text_or_units) if isinstance(text_or_units, str) else text_or_units
    if any((utf16(e) if isinstance(e, str) else e) == units for e in entries):
        return "truly_present"
    bits = bits_after(m, k, entries)
    return "false_positive" if all(bits[p] == "1" for p in positions(m, k, units)) else "definitely_absent"


# The core parts of checks that are interop as a whole (issue 37, item 3): each case
# expects only what seed 002 states; a refusal's kind and field, the drafts a create reads
# beyond plain decimal digits, the display form, the export layout and the import's own
# rules stay with the interop check of the same subject.
def core_split_cases():
    out = []
    # create: the page's bounds, and nothing about the refusal's kind or field
    # (parameter_bounds judges those).
    steps = []
    for m, k in [(7, 3), (1025, 3), (8, 0), (8, 13), (0, 1), ("99999999999999999999", 1), (8, "99999999999999999999")]:
        steps += [(op("set_draft", field="m", value=str(m)), {}), (op("set_draft", field="k", value=str(k)), {}),
                  (op("create"), refused(active=False))]
    for m, k in [(8, 1), (1024, 12), (8, 12), (1024, 1)]:
        steps += [(op("set_draft", field="m", value=str(m)), {}), (op("set_draft", field="k", value=str(k)), {}),
                  (op("create"), ok(active=True, params={"m": m, "k": k}, bits="0" * m, distinct_entries=0,
                                    counters=counters(0, 0), rate=UNDEF))]
    steps += [(op("insert", value="a"), ok(active=True, distinct_entries=1)),
              (op("set_draft", field="m", value="2000"), ok(active=False)),
              (op("create"), refused(active=False)),
              (op("set_draft", field="m", value="16"), ok(active=False)),
              (op("create"), ok(active=True, params={"m": 16, "k": 1}, bits="0" * 16, distinct_entries=0))]
    out.append(script("bounds", "create_refuses_out_of_bounds", steps, ["rule", "bound"],
                      "Plain decimal drafts only (how other text reads is SESSION.md's); any refusal's kind "
                      "(\"*\"), the filter kept."))
    # the last operation first, in the view's last operation and history, without the
    # display form (SESSION.md's, beyond JSON quotes and escapes)
    m, k = 8, 1
    entries, bits, recs, steps = [], "0" * m, [], [(s, {}) for s in create(m, k)]
    for kind, value in [("insert", "a b\n"), ("query", "\"q\"\t"), ("query", [0xD800]),
                        ("query", "\u00e9\U0001F600"), ("insert", "i"), ("query", "a b\n")]:
        units = utf16(value) if isinstance(value, str) else value
        if kind == "insert":
            outcome = "duplicate" if units in [utf16(e) if isinstance(e, str) else e for e in entries] else "new"
        else:
            outcome = query_outcome(m, k, entries, value)
        last = last_record(kind, value, outcome, m, k, bits)
        if kind == "insert":
            entries.append(value)
            bits = bits_after(m, k, entries)
        recs.insert(0, {"kind": kind, "units": units, "outcome": outcome})
        steps.append((op(kind, value=value), ok(last_operation=last, history=list(recs))))
    out.append(script("newest-first", "history_newest_first", steps, ["rule", "derived", "lone-surrogate", "surrogate-pair"],
                      "Each step's last operation and history (newest first) as the page shows them: kind, code "
                      "units, outcome, the base hashes and the positions in order with each bit before and after "
                      "(derived). The display form is not compared here."))
    # an import of the session's own export gives the whole session back
    m, k = 64, 4
    words = ["w%d" % i for i in range(40)] + [[0xD800, 0x61], "\U0001F600 \u00e9"]
    nope = query_outcome(m, k, words, "nope")
    fp = 1 if nope == "false_positive" else 0
    whole_view = ok(active=True, params={"m": m, "k": k}, bits=bits_after(m, k, words), distinct_entries=42,
                    counters=counters(1, fp), panels={"positions": True, "model": False},
                    drafts={"m": "64", "k": "4", "insert": "", "query": "half typed"},
                    last_operation={"kind": "query", "units": utf16("w3"), "outcome": "truly_present"})
    out.append(script("own-export", "own_export_imports_back",
                      [(s, {}) for s in create(m, k)] + [
                          (op("insert_many", prefix="w", count=40), {}),
                          (op("insert", value=[0xD800, 0x61]), {}),
                          (op("insert", value="\U0001F600 \u00e9"), {}),
                          (op("query", value="nope"), {}), (op("query", value="w3"), {}),
                          (op("set_panel", panel="positions", open=True), {}),
                          (op("set_draft", field="query", value="half typed"), whole_view),
                          (op("import_padded", bytes=2 * 1024 * 1024), whole_view),
                          (op("query", value=[0xD800, 0x61]), ok(counters=counters(1, fp),
                                                                 last_operation={"outcome": "truly_present"})),
                          (op("query", value="nope"), ok(counters=counters(2, 2 * fp))),
                          (op("insert", value="after"), ok(distinct_entries=43, counters=counters(0, 0)))],
                      ["rule", "derived", "lone-surrogate", "surrogate-pair", "bound"],
                      "The session's own export, padded to 2 MiB, imported: its parameters, bits, entries (a "
                      "lone-surrogate entry is still truly present), counters, drafts, open panels and last "
                      "operation come back (the page: export the whole session before reloading)."))
    # the 2 MiB limit, on a session whose text is ASCII (bytes, characters and code units agree)
    out.append(script("ascii-two-mib", "import_up_to_2_mib",
                      two_mib_steps(refused(active=True, params={"m": 8, "k": 1}, distinct_entries=2,
                                            bits=bits_after(8, 1, ["a", "b"])), refused(distinct_entries=2)),
                      ["rule", "bound"],
                      "An ASCII session (drafts, entries and records): 2 MiB of text is the same count in bytes, "
                      "characters or code units. The refusal's kind is import_size_limit's."))
    # imports no reading of the page can take
    never = [
        ("syntax", {"text": "{\"format\": \"bloomproof-session\", "}),
        ("not-an-object", {"text": "[1, 2, 3]"}),
        ("m-out-of-range", {"document": mutate(lambda d: (d["params"].update(m=2000), d["drafts"].update(m="2000")))}),
        ("k-out-of-range", {"document": mutate(lambda d: (d["params"].update(k=0), d["drafts"].update(k="0")))}),
        ("entry-257-units", {"document": mutate(lambda d: d["entries"].append("x" * 257))}),
        ("empty-entry", {"document": mutate(lambda d: d["entries"].append(""))}),
        ("too-many-entries", {"document": mutate(lambda d: d["entries"].extend("e%d" % i for i in range(1017)))}),
    ]
    kept = ok(active=True, params={"m": 16, "k": 2}, distinct_entries=1, bits=bits_after(16, 2, ["kept"]))
    steps = [(s, {}) for s in create(16, 2)] + [(op("insert", value="kept"), kept)]
    for name, payload in never:
        steps.append((op("import_text" if "text" in payload else "import", **payload), refused(**kept["view"])))
    steps.append((op("query", value="kept"), ok(distinct_entries=1, params={"m": 16, "k": 2},
                                                last_operation={"outcome": "truly_present"})))
    out.append(script("never-valid", "invalid_import_keeps_filter", steps, ["rule", "bound"],
                      "Imports that break a rule of the page itself (not JSON, not a session object, m or k out of "
                      "bounds, an entry of 0 or 257 code units, 1025 entries): refused with any kind, the filter "
                      "kept. Which other texts are invalid is SESSION.md's (invalid_import_keeps_state)."))
    return out


# The cases moved from a core check into the interop check session_decisions_pinned, each
# with the decision it pins beyond the page.
DECISIONS = {
    "view-estimates": "session_decisions_pinned",  # the finite-m and exact estimates, the tie-break
    "drafts/1024-units": "session_decisions_pinned",  # the drafts' limit of 1024 code units
    "example/near-the-cap": "session_decisions_pinned",  # the history cap of 256
    "reset/no-filter": "session_decisions_pinned",  # reset without a filter is refused
    "drafts/almost-denote": "session_decisions_pinned",  # "08" keeps the filter, "8 " discards it
    "drafts/too-long-keeps-filter": "session_decisions_pinned",  # the drafts' limit
}


# The rules of SESSION.md sections 6 and 12 a script case pins by what it holds: every
# script is run on a new session and judged step by step (12.1, 12.2, 12.5); a step
# expecting an error pins the error object (5.10) and that a rejected step changes
# nothing (12.3); each helper op the script uses pins that op's rule (section 6), and
# the runner's rule for its answer (12.4 roundtrip, 12.6 save, 12.7 an expected export).
# An estimates case is compared as 12.8 says.
HELPER_OPS = {"insert_many": ("6.1",), "roundtrip": ("6.2", "12.4"), "import": ("6.3",),
              "import_text": ("6.4",), "import_padded": ("6.5",), "save_local": ("6.6", "12.6"),
              "export": ("6.7",)}


def session_runner_rules(c):
    if c["shape"] == "estimates":
        return ["12.8"]
    if c["shape"] != "script":
        return []
    rules = ["12.1", "12.2", "12.5"]
    steps = c["expect"]["steps"]
    if any("error" in step for step in steps):
        rules += ["5.10.1", "5.10.2", "12.3"]
    if any("export" in step for step in steps):
        rules.append("12.7")
    for step in c["input"]["script"]:
        rules += HELPER_OPS.get(step["op"], ())
        if step["op"] == "save_local" and "fill" in step:
            rules.append("6.6.1")
    return list(dict.fromkeys(rules))


# The rules of SESSION.md (ids SESSION-<n>, tagged in its text) each case pins beyond its
# check's and beyond what session_runner_rules reads off the script: the rule whose
# figure, outcome or error the case expects. Every case has an entry (an empty one when
# its check's rules are all it pins); the import steps are IMPORT_STEPS'.
_CLAMPED = ("8.1", "8.2", "8.3", "8.4", "8.5")
_ESTIMATE = ("8.2", "8.3", "8.4", "8.5")
SESSION_RULES = {
    "seed/a": ("1.1", "1.4"),
    "ascii/hello": ("1.1",),
    "bmp/e-acute": ("1.1",),
    "bmp/e-combining-acute": ("1.1",),
    "pair/grinning-face": ("1.1",),
    "lone/high-d800": ("1.1", "1.4"),
    "lone/low-dfff-then-a": ("1.1",),
    "units/nul-and-ffff": ("1.1",),
    "max/256-units": ("1.1",),
    "wrap/97-m1000": ("1.2", "1.4"),
    "wrap/98-m1000": ("1.2",),
    "wrap/104-m1000": ("1.2",),
    "wrap/55357-m1000": ("1.2",),
    "session/wrap-in-last-operation": ("1.2", "1.4", "5.8.1", "7.3"),
    "m8-k12/a": ("1.3",),
    "m24-k12/bloom": ("1.3",),
    "session/insert-a-m8-k12": ("1.3", "5.8.2", "5.8.4"),
    "session/repeated-positions-same-pair": ("1.3", "5.8.2", "5.8.3", "5.8.4"),
    **{"seed/" + letter: ("1.4",) for letter in "bcdefghi"},
    "session/example-then-new-strings": ("2.7", "3.4", "5.5.1"),
    "session/insert-one-by-one": ("3.4", "5.3.1"),
    "example/over-entries": ("5.3.3", "5.3.4", "5.5.1"),
    "seed/insert-a-query-i-a-b": ("5.4.1", "5.9", "7.2", "7.6"),
    "fresh-and-present-only": ("5.4.1", "7.2"),
    "after-reset": ("7.2",),
    "repeated-and-present": ("5.4.1", "5.4.2"),
    "rate-value": ("7.2", "7.4"),
    "insert-twice": ("5.3.3", "5.3.4", "5.8.3"),
    "view-estimates": ("8.0", "8.6", "8.7"),
    "insert-new": ("3.5", "5.3.2"),
    "new-string-on-set-bits": ("3.5", "5.3.2"),
    "units": ("2.3", "4.2", "4.3", "5.0"),
    "drafts/1024-units": ("2.6", "3.3", "5.1.1", "5.1.2", "5.1.4", "5.2.1", "5.2.4"),
    "forms": ("4.1",),
    "limit": ("2.4", "5.0", "5.3.3", "5.3.4"),
    "combined/too-long-and-too-many-entries": ("5.0", "5.0.1"),
    "insert-many-zero": (),
    "example/near-the-cap": ("5.5.2",),
    "create": ("2.1", "2.2", "5.2.1", "5.2.2", "5.2.5"),
    "no-filter-yet": ("5.0",),
    "combined/m-syntax-and-m-bounds": ("5.0.1", "5.2.1", "5.2.3"),
    "combined/m-bounds-and-k-syntax": ("5.0.1", "5.2.2", "5.2.3", "5.2.5"),
    "combined/k-syntax-and-k-bounds": ("5.0.1", "5.2.1"),
    "combined/m-syntax-and-k-bounds": ("5.0.1", "5.2.3"),
    "combined/no-filter-and-empty-string": ("5.0", "5.0.1"),
    "combined/no-filter-and-too-long": ("5.0", "5.0.1"),
    "drafts": ("3.1",),
    "panels/after-operations": ("3.2", "5.2.4", "5.7", "6.8"),
    "reset/no-filter": ("5.0",),
    "m-and-k": ("3.1", "5.1.3"),
    "drafts/almost-denote": ("5.1.3", "5.1.4"),
    "drafts/too-long-keeps-filter": ("5.1.1",),
    "display-and-order": ("4.4", "5.8.1", "5.8.5"),
    "history/cap-256": ("2.5", "5.8.1", "5.8.5", "5.8.6"),
    "display/escapes": ("4.4", "4.5"),
    "populated": ("9.1", "9.2"),
    "no-filter": ("9.7",),
    "full-history": ("5.8.1", "5.8.6"),
    "counters/saturate-at-max": ("5.4.3",),
    "layout": ("2.8", "2.9", "2.10", "4.3", "9.2", "9.4", "9.5", "9.6", "9.7", "9.8", "11.2", "11.4"),
    "two-mib": ("2.11",),
    "combined/too-large-and-syntax": (),
    "two-mib-non-ascii": (),
    "each-kind": ("3.7", "6.8"),
    "v1-fixture": ("9.1", "9.9"),
    "hundred-thousand": ("2.12", "11.1", "11.2", "11.3", "11.4"),
    "fill-astral": ("2.12", "11.3"),
    "fill-bmp": ("2.12", "11.3"),
    "fill-cjk": ("2.12", "11.3"),
    "fill-three-units": ("2.12", "11.3"),
    "fill-combining": ("2.12", "11.3"),
    "generated/save-fills": ("2.12", "6.6", "6.6.1", "11.1", "11.2", "11.3", "11.4"),
    "generated/save-fills-page": ("6.6", "6.6.1"),
    "clamped-m2000-k20-n5000": _CLAMPED,
    "clamped-m4-k0-n3": _CLAMPED,
    "m8-k1-n8": _ESTIMATE + ("8.7",),
    "m8-k1-n1": _ESTIMATE + ("8.7",),
    "m64-k3-n10": _ESTIMATE + ("8.7",),
    "m8-k12-n1": _ESTIMATE + ("8.7",),
    "m512-k4-n0": _ESTIMATE + ("8.6",),
    **{"m%d-k%d-n%d" % mkn: _ESTIMATE for mkn in [(1024, 12, 1024), (1024, 1, 1), (100, 7, 14), (8, 12, 1024),
                                                   (1000, 5, 200), (8, 1, 2), (64, 1, 1), (100, 3, 7), (18, 3, 5),
                                                   (15, 2, 7), (1024, 2, 490), (200, 12, 30)]},
    "generated/hashes": ("1.1", "1.2", "1.3"),
    "generated/estimates": _ESTIMATE,
    "generated/estimates-clamped-small": _CLAMPED,
    "generated/estimates-clamped-large": _CLAMPED,
    "generated/estimates-clamped-entries": _CLAMPED,
    "generated/sessions": ("3.6", "5.0", "5.8.1", "6.2", "6.3", "6.5", "6.6", "6.7", "7.1", "7.3", "7.4", "7.5",
                           "9.8"),
    # the core parts of interop checks (core_split_cases) and the core generated sessions
    "bounds": ("2.1", "2.2", "5.2.2"),
    "newest-first": ("5.8.3", "5.8.4", "5.8.5", "5.9"),
    "own-export": (),
    "ascii-two-mib": (),
    "never-valid": (),
    "generated/sessions-page": ("3.4", "5.1.2", "5.1.3", "5.2.2", "5.3.1", "5.3.2", "5.3.3", "5.4.1", "5.4.2",
                                "5.8.3", "5.8.4", "5.8.5", "5.9", "8.2", "11.2"),
    # the import cases of section 10 (their steps are IMPORT_STEPS')
    **{name: () for name in [
        "combined/syntax-and-not-an-object", "combined/format-and-version", "combined/version-and-shape",
        "combined/shape-and-rules", "combined/protocol-and-draft-length", "combined/draft-length-and-no-filter",
        "combined/draft-length-and-params-bounds", "combined/params-bounds-and-draft-denotes",
        "combined/draft-denotes-and-entry-count", "combined/entry-count-and-entry-rules",
        "combined/entry-duplicate-then-next-entry", "combined/entry-too-long-and-duplicate",
        "combined/entries-and-counters", "combined/counters-and-history-rules",
        "combined/history-count-and-item-rules", "combined/history-item-too-long-and-outcome",
        "combined/history-item-empty-and-outcome", "combined/history-item-outcome-then-next-item",
        "combined/history-items-and-accounting", "duplicate-keys", "combined/syntax-and-duplicate-key",
        "byte-order-mark", "raw-control-character", "nesting-depth", "number-range", "version-forms",
        "nested-objects-need-every-key", "params-integer-forms", "lone-surrogate-escapes",
        "full-history-extra-counts", "last-operation-fields"]},
}


# The steps of SESSION.md section 10 (rule ids SESSION-10.N) each import case pins: the
# step whose error it expects, and for a pair of adjacent rules both steps; a case that
# imports successfully pins the replay and success steps it goes through.
IMPORT_STEPS = {
    "v1-fixture": (16, 17, 18, 19),
    "populated": (16, 19),
    "full-history": (14, 15, 16, 17),
    "counters/saturate-at-max": (17,),
    "full-history-extra-counts": (17,),
    "last-operation-fields": (18,),
    "two-mib": (1,),
    "two-mib-non-ascii": (1,),
    "combined/too-large-and-syntax": (1, 2),
    "byte-order-mark": (2,),
    "raw-control-character": (2,),
    "number-range": (2,),
    "lone-surrogate-escapes": (2,),
    "nesting-depth": (2,),
    "combined/syntax-and-not-an-object": (2, 3),
    "combined/syntax-and-duplicate-key": (2, 3),
    "duplicate-keys": (3,),
    "combined/format-and-version": (4, 5),
    "version-forms": (5,),
    "combined/version-and-shape": (5, 6),
    "nested-objects-need-every-key": (6,),
    "params-integer-forms": (6,),
    "combined/shape-and-rules": (6, 7),
    "combined/protocol-and-draft-length": (7, 8),
    "combined/draft-length-and-no-filter": (8, 9),
    "combined/draft-length-and-params-bounds": (8, 10),
    "combined/params-bounds-and-draft-denotes": (10, 11),
    "combined/draft-denotes-and-entry-count": (11, 12),
    "combined/entry-count-and-entry-rules": (12,),
    "combined/entry-duplicate-then-next-entry": (12,),
    "combined/entry-too-long-and-duplicate": (12,),
    "combined/entries-and-counters": (12, 13),
    "combined/counters-and-history-rules": (13, 14),
    "combined/history-count-and-item-rules": (14,),
    "combined/history-item-too-long-and-outcome": (14,),
    "combined/history-item-empty-and-outcome": (14,),
    "combined/history-item-outcome-then-next-item": (14,),
    "combined/history-items-and-accounting": (14, 15),
}


if __name__ == "__main__":
    derive(OUT, PROTOCOL, cases, FLAGS, 1, __file__)
