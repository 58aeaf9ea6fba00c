#!/usr/bin/env python3
"""Derives spec/doc-membership-v1/cases.json from the seed document; the checks the
cases belong to are documented by hand in spec/doc-membership-v1/checks.json.

Expected values come from two places only:
  * the seed's published figures (the fixture's packed bits, its five false positives,
    the shared-bit fault, ...), read from `published_figures` in
    spec/doc-membership-v1/checks.json (never written here) and flagged `seed-figure`;
    this script asserts that its own computation reproduces each one it reads;
  * Python's hashlib, framing the message straight from the protocol text
    (flagged `derived`). This is a third implementation, independent of the Rust
    production crates and of the Rust oracle; the conformance runner re-checks every
    pinned value against the oracle on every run.

Usage: derive/doc_membership_v1.py          write the files
       derive/doc_membership_v1.py --check  fail if the files differ from the output
"""
import hashlib
import json
from pathlib import Path

from spec_files import case, derive, published_figures

PROTOCOL = "doc-membership-v1"
OUT = Path(__file__).resolve().parent.parent / PROTOCOL
DOMAIN = b"doc-membership-v1\x00"


def message(m, k, seed, i, item, domain=DOMAIN):
    """The framed message of hash index i; `domain` is the version's (v1's by default:
    the family's versions differ in their domain and bounds only)."""
    return (domain + m.to_bytes(2, "big") + bytes([k, len(seed)]) + seed
            + bytes([i]) + len(item).to_bytes(2, "big") + item)


def digest(m, k, seed, i, item, domain=DOMAIN):
    return hashlib.sha256(message(m, k, seed, i, item, domain)).digest()


def positions(m, k, seed, item, domain=DOMAIN):
    return [int.from_bytes(digest(m, k, seed, i, item, domain), "big") % m for i in range(k)]


def bits(records, m, k, seed):
    value = 0
    for r in set(records):
        for p in positions(m, k, seed, r):
            value |= 1 << p
    return value


def packed(records, m, k, seed):
    return bits(records, m, k, seed).to_bytes((m + 7) // 8, "little").hex()


def triple(records, m, k, seed, item):
    b = bits(records, m, k, seed)
    maybe = all(b >> p & 1 for p in positions(m, k, seed, item))
    return {"maybe_present": maybe, "exact_checked": maybe, "duplicate": maybe and item in records}


def params(m, k, seed):
    return {"m": m, "k": k, "seed_hex": seed.hex()}


NUMBERS = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]


def hx(items):
    return [x.hex() for x in items]


# The accumulated stream (spec/README.md, "Accumulated checks"): one input drawn from
# the generator's byte stream, and the bytes of its outputs that feed the running
# digest. derive/accumulated.py reads these two from every protocol's script.

def accumulated_stream(domain, m_bounds, k_bounds, seed_max, item_max):
    """The stream of a version of the family: its inputs drawn within its bounds (each
    value low + drawn % (high - low + 1), in v1's order: m from two bytes, k, the
    seed's length, the seed, the item's length, the item) and its positions under its
    domain. Returns (accumulated_input, accumulated_outputs)."""

    def within(low, high, drawn):
        return low + drawn % (high - low + 1)

    def make_input(stream):
        m = within(*m_bounds, stream.u16())
        k = within(*k_bounds, stream.byte())
        seed = stream.take(within(0, seed_max, stream.byte()))
        item = stream.take(within(0, item_max, stream.byte()))
        return m, k, seed, item

    def outputs(m, k, seed, item):
        return b"".join(p.to_bytes(2, "big") for p in positions(m, k, seed, item, domain))

    return make_input, outputs


# v1's: m = 8 + u16 % 505, k = 1 + byte % 8, a seed of byte % 17 bytes, an item of
# byte % 65 bytes.
accumulated_input, accumulated_outputs = accumulated_stream(DOMAIN, (8, 512), (1, 8), 16, 64)


UNIVERSE = [("doc-%02d" % i).encode("ascii") for i in range(64)]
MEMBERS = UNIVERSE[:4]
LAB = params(16, 3, b"lab")

# The seed's published figures (seed 000, section 4 and its JSON report), as
# checks.json states them.
FIGURES = published_figures(OUT)
FIXTURE_PACKED = FIGURES["fixture.packed_little_endian_hex"]
FIXTURE_BITS = FIGURES["fixture.occupied_bits"]
FIXTURE_NON_MEMBERS = FIGURES["fixture.tested_nonmembers"]
FIXTURE_FALSE_POSITIVES = [x.encode("ascii") for x in FIGURES["fixture.false_positive_items"]]
FIXTURE_FALSE_DUPLICATES = FIGURES["fixture.false_duplicate_decisions"]
FAULT_REMOVED = FIGURES["shared_bit_fault.removed_item"].encode("ascii")
FAULT_DAMAGED = FIGURES["shared_bit_fault.damaged_member"].encode("ascii")
FAULT_BIT = FIGURES["shared_bit_fault.cleared_bit"]
EXHAUSTIVE_SNAPSHOTS = FIGURES["independent_oracle_snapshot_count"]
EXHAUSTIVE_QUERIES = FIGURES["independent_oracle_queries"]


def fixture_reproduced():
    """Asserts that the protocol text, computed here, gives the seed's published
    fixture figures (and the shared-bit fault) that the cases below expect."""
    assert packed(MEMBERS, 16, 3, b"lab") == FIXTURE_PACKED, packed(MEMBERS, 16, 3, b"lab")
    assert bin(bits(MEMBERS, 16, 3, b"lab")).count("1") == FIXTURE_BITS
    assert len(UNIVERSE[4:]) == FIXTURE_NON_MEMBERS
    fps = [x for x in UNIVERSE[4:] if triple(MEMBERS, 16, 3, b"lab", x)["maybe_present"]]
    assert fps == FIXTURE_FALSE_POSITIVES, fps
    assert not any(triple(MEMBERS, 16, 3, b"lab", x)["duplicate"] for x in fps) and FIXTURE_FALSE_DUPLICATES == 0
    # The fault: the removed member and the damaged one share the cleared bit, and the
    # damaged one is the first remaining member that misses it.
    assert FAULT_REMOVED == MEMBERS[0] and FAULT_BIT in positions(16, 3, b"lab", FAULT_REMOVED)
    rest = [r for r in MEMBERS if r != FAULT_REMOVED]
    assert [r for r in rest if FAULT_BIT in positions(16, 3, b"lab", r)][:1] == [FAULT_DAMAGED]

FLAGS = {
    "seed-check": "The case restates one assertion of the seed's self_check() (seed 000, section 3).",
    "seed-figure": "An expectation is a figure the seed published from its own run (seed 000, section 4 and its JSON report).",
    "derived": "Pinned values were derived with Python's hashlib straight from the protocol text (spec/derive/doc_membership_v1.py) and are re-checked against the independent oracle on every run.",
    "type-error": "The input has a value of the wrong kind; a strict implementation raises a type error.",
    "value-error": "The input has a value of the right kind outside its bounds; a value error.",
    "empty-item": "A record or query of zero bytes (valid).",
    "max-item": "A record or query of exactly 64 bytes (the largest valid).",
    "empty-seed": "A seed of zero bytes.",
    "max-seed": "A seed of exactly 16 bytes (the largest valid).",
    "min-m": "m = 8, the smallest valid filter.",
    "max-m": "m = 512, the largest valid filter.",
    "min-k": "k = 1.",
    "max-k": "k = 8.",
    "m-not-multiple-of-8": "m is not a multiple of 8: the last packed byte has unused high bits, which must be zero.",
    "repeated-record": "The record list holds the same bytes more than once.",
    "max-records": "64 records, the most a snapshot takes.",
    "combined-violation": "The input breaks two adjacent rules of the documented contract order at once; the earlier rule decides the error.",
    "read-rejected": "A snapshot given as its parts that does not verify: the reader must refuse it, naming the field.",
    "mutation": "Every named mutation attempt is made by the implementation; the runner observes the snapshot afterwards.",
}

# What the lookup checks (2, 3) expect of every record, and the snapshots they look up in.
EVERY_RECORD = {
    "inserted_items_have_no_false_negatives": {"maybe_present": True},
    "positive_members_exactly_confirmed": {"maybe_present": True, "exact_checked": True, "duplicate": True},
}
LOOKUP_SNAPSHOTS = [
    ("fixture/doc-00..03", LAB, MEMBERS, ["seed-check"]),
    ("full-universe/m512-k8", params(512, 8, b"s" * 16), UNIVERSE, ["max-m", "max-k", "max-seed", "max-records"]),
    ("tiny/m8-k8", params(8, 8, b""), [b"", b"\x00", b"x" * 64], ["min-m", "max-k", "empty-item", "max-item"]),
]
# Equivalent record lists build the same snapshot; a superset only sets bits.
SAME = {"same_snapshot": True, "records_are_duplicates": True}
ONLY_SETS = {"only_sets_bits": True, "base_records_maybe_present": True}


def b(x):
    return {"bytes": x.hex()}


def tup(*xs):
    return {"tuple": list(xs)}


def build_expect(records, m, k, seed, lookups=(), duplicates=True):
    e = {"bits_set": bin(bits(records, m, k, seed)).count("1"), "packed_hex": packed(records, m, k, seed),
         "documents": len(set(records))}
    if duplicates and records:
        e["records_are_duplicates"] = True
    if lookups:
        e["lookups"] = [{"item_hex": x.hex(), "result": triple(records, m, k, seed, x)} for x in lookups]
    return e


def cases():
    out = []
    # 1
    out.append(case("empty/lab-16-3", "empty_snapshot_definitely_absent", "build", {"params": LAB, "records_hex": []},
                    {"bits_set": 0, "packed_hex": "0000", "documents": 0,
                     "lookups": [{"item_hex": "", "result": {"maybe_present": False, "exact_checked": False, "duplicate": False}}]},
                    ["seed-check", "empty-item"]))
    out.append(case("empty/m8-k1-no-seed", "empty_snapshot_definitely_absent", "build", {"params": params(8, 1, b""), "records_hex": []},
                    {"bits_set": 0, "packed_hex": "00", "documents": 0,
                     "lookups": [{"item_hex": x.hex(), "result": {"maybe_present": False, "exact_checked": False, "duplicate": False}}
                                 for x in (b"", b"a", b"\xff" * 64)]},
                    ["empty-seed", "min-m", "min-k", "empty-item", "max-item"]))
    # 2, 3: every record looked up in the snapshot of the records
    for check, every_record in EVERY_RECORD.items():
        for cid, p, recs, flags in LOOKUP_SNAPSHOTS:
            out.append(case(cid, check, "lookup", {"params": p, "records_hex": hx(recs)}, {"every_record": every_record},
                            flags))
    # 4
    fixture_reproduced()
    out.append(case("fixture/doc-00..63", "finite_universe_false_positives_never_become_duplicates", "universe",
                    {"params": LAB, "records_hex": hx(MEMBERS), "non_members_hex": hx(UNIVERSE[4:])},
                    {"bits_set": FIXTURE_BITS, "packed_hex": FIXTURE_PACKED,
                     "false_positives_hex": hx(FIXTURE_FALSE_POSITIVES),
                     "false_duplicate_decisions": FIXTURE_FALSE_DUPLICATES},
                    ["seed-check", "seed-figure"],
                    "The seed's published fixture: %d bits, %s, %s false positives among %d non-members."
                    % (FIXTURE_BITS, FIXTURE_PACKED, NUMBERS[len(FIXTURE_FALSE_POSITIVES)], FIXTURE_NON_MEMBERS)))
    # 5
    out.append(case("fixture/reversed-plus-records", "order_and_duplicate_insertion_idempotent", "equivalent",
                    {"params": LAB, "records_hex": hx(MEMBERS), "equivalent_hex": hx(list(reversed(MEMBERS)) + MEMBERS)}, SAME,
                    ["seed-check", "repeated-record"]))
    out.append(case("raw/sixty-four-repeats", "order_and_duplicate_insertion_idempotent", "equivalent",
                    {"params": params(31, 4, b"\x00"), "records_hex": hx([b"", b"a"]), "equivalent_hex": hx([b"a"] * 32 + [b""] * 32)}, SAME,
                    ["repeated-record", "m-not-multiple-of-8", "max-records", "empty-item"]))
    # 6
    out.append(case("fixture/doc-00..07", "compatible_extension_only_sets_bits", "extension",
                    {"params": LAB, "records_hex": hx(MEMBERS), "extended_hex": hx(UNIVERSE[:8])}, ONLY_SETS, ["seed-check"]))
    out.append(case("empty-to-universe/m100-k5", "compatible_extension_only_sets_bits", "extension",
                    {"params": params(100, 5, b"ext"), "records_hex": [], "extended_hex": hx(UNIVERSE)}, ONLY_SETS,
                    ["m-not-multiple-of-8", "max-records"]))
    # 7
    raw = [b"", b"\x00", "\u00e9".encode()]
    out.append(case("raw/empty-nul-e-acute", "raw_bytes_empty_nul_and_unicode_forms_distinct", "build",
                    {"params": params(32, 3, b"raw"), "records_hex": hx(raw)},
                    {"documents": 3, "records_are_duplicates": True,
                     "lookups": [{"item_hex": "e\u0301".encode().hex(), "result": {"duplicate": False}},
                                 {"item_hex": "0000", "result": {"duplicate": False}}]},
                    ["seed-check", "empty-item"]))
    out.append(case("raw/derived-triples", "raw_bytes_empty_nul_and_unicode_forms_distinct", "build",
                    {"params": params(32, 3, b"raw"), "records_hex": hx(raw)},
                    build_expect(raw, 32, 3, b"raw", ["e\u0301".encode(), b"\x00\x00", b"E\xcc\x81", b" ", b"\xc3\xa9 "]),
                    ["derived", "empty-item"]))
    # 8
    ch = ("hash_domain_framing_and_little_endian_bit_protocol", "framing")
    out.append(case("sha256/abc", *ch, {"sha256": {"data_hex": b"abc".hex()}},
                    {"digest_hex": "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"}, ["seed-check"]))
    out.append(case("sha256/empty", *ch, {"sha256": {"data_hex": ""}},
                    {"digest_hex": "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"}, ["empty-item"],
                    "FIPS 180-4 example."))
    wire = DOMAIN + bytes.fromhex("00090201530100020041")
    out.append(case("wire/m9-k2-S-i1-0041", *ch,
                    {"message": {"params": params(9, 2, b"S"), "index": 1, "item_hex": "0041"}},
                    {"message_hex": wire.hex(), "digest_hex": hashlib.sha256(wire).hexdigest(),
                     "position": positions(9, 2, b"S", b"\x00A")[1]},
                    ["seed-check", "seed-figure", "derived", "m-not-multiple-of-8"],
                    "The seed's exact wire bytes: domain + 00 09 02 01 53 01 00 02 00 41."))
    out.append(case("framing/a-bc-vs-ab-c", *ch,
                    {"distinct": {"m": 16, "k": 3, "index": 0, "seed_a_hex": b"a".hex(), "item_a_hex": b"bc".hex(),
                                  "seed_b_hex": b"ab".hex(), "item_b_hex": b"c".hex()}}, {"messages_differ": True}, ["seed-check"]))
    out.append(case("framing/empty-seed-vs-empty-item", *ch,
                    {"distinct": {"m": 16, "k": 3, "index": 0, "seed_a_hex": "", "item_a_hex": b"ab".hex(),
                                  "seed_b_hex": b"ab".hex(), "item_b_hex": ""}}, {"messages_differ": True}, ["empty-seed", "empty-item"]))
    out.append(case("packing/m9-k2-S-0041", *ch,
                    {"packing": {"params": params(9, 2, b"S"), "records_hex": ["0041"]}},
                    {"packed_hex": packed([b"\x00A"], 9, 2, b"S")},
                    ["seed-check", "derived", "m-not-multiple-of-8"]))
    out.append(case("packing/m17-k8-high-bit", *ch,
                    {"packing": {"params": params(17, 8, b"hi"), "records_hex": hx(UNIVERSE[:16])}},
                    {"packed_hex": packed(UNIVERSE[:16], 17, 8, b"hi")},
                    ["derived", "m-not-multiple-of-8", "max-k"]))
    # 9
    # 9: normal use (required, seed 000 section 3) and deliberate tampering (recommended:
    # the seed says immutability in normal use is no guarantee against it).
    normal_use = ["assign_fields", "mutate_returned_bits", "mutate_returned_documents", "mutate_returned_lookup",
                  "mutate_records_after_build", "mutate_seed_after_build", "mutate_copy"]
    tampering = ["bypass_guards", "reconstruct"]
    for check, attempts in [("snapshot_fields_are_immutable", normal_use), ("snapshot_resists_tampering", tampering)]:
        for cid, (snap_p, snap_r), (other_p, other_r), flags in [
            ("fixture/doc-00..03", (LAB, MEMBERS), (params(9, 8, b"evil"), UNIVERSE[10:20]), ["seed-check", "mutation"]),
            ("empty/m8-k1-no-seed", (params(8, 1, b""), []), (params(512, 8, b"s" * 16), UNIVERSE), ["mutation", "min-m", "min-k", "empty-seed"]),
        ]:
            m_, k_, s_ = snap_p["m"], snap_p["k"], bytes.fromhex(snap_p["seed_hex"])
            flags = [f for f in flags if f != "seed-check"] if check == "snapshot_resists_tampering" else flags
            out.append(case(cid, check, "mutation",
                            {"snapshot": {"params": snap_p, "records_hex": hx(snap_r)},
                             "other": {"params": other_p, "records_hex": hx(other_r)},
                             "probes_hex": hx([b"", b"intruder", b"doc-04"]), "attempts": attempts},
                            {"packed_hex": packed(snap_r, m_, k_, s_), "documents": len(set(snap_r))}, flags))
    # 10
    out.append(case("fixture/doc-00..03", "clearing_shared_bit_breaks_no_false_negative_contract", "fault", {"params": LAB, "records_hex": hx(MEMBERS)},
                    {"removed_hex": FAULT_REMOVED.hex(), "damaged_hex": FAULT_DAMAGED.hex(), "cleared_bit": FAULT_BIT},
                    ["seed-check", "seed-figure"]))
    # 10, in the seed's own form: no reader (a core check)
    out.append(case("fixture/doc-00..03-without-reader", "shared_bit_fault_is_a_false_negative", "fault",
                    {"params": LAB, "records_hex": hx(MEMBERS)},
                    {"removed_hex": FAULT_REMOVED.hex(), "damaged_hex": FAULT_DAMAGED.hex(), "cleared_bit": FAULT_BIT,
                     "without_reader": True},
                    ["seed-check", "seed-figure"],
                    "The seed's check 10 as the seed runs it: the bit cleared in a local copy of the packed bits, "
                    "the damaged member's maybe_present computed from its positions there (the implementation's "
                    "positions and bits; no read)."))
    # 11
    ch = ("parameter_types_and_limits_rejected", "typed_rejection")
    empty = tup()
    i = lambda n: {"int": n}
    for cid, m, k, s, kind, field in [
        ("type/m-bool", {"bool": True}, i(3), b(b""), "type", "m"),
        ("type/k-bool", i(16), {"bool": False}, b(b""), "type", "k"),
        ("type/m-float", {"float": 16.0}, i(3), b(b""), "type", "m"),
        ("type/seed-str", i(16), i(3), {"str": "lab"}, "type", "seed"),
        ("type/seed-bytearray", i(16), i(3), {"bytearray": b"lab".hex()}, "type", "seed"),
        ("value/m-7", i(7), i(3), b(b""), "value", "m"),
        ("value/m-513", i(513), i(3), b(b""), "value", "m"),
        ("value/k-0", i(16), i(0), b(b""), "value", "k"),
        ("value/k-9", i(16), i(9), b(b""), "value", "k"),
        ("value/seed-17-bytes", i(16), i(3), b(b"x" * 17), "value", "seed"),
    ]:
        out.append(case(cid, *ch, {"records": empty, "m": m, "k": k, "seed": s}, {"error": kind, "field": field},
                        ["seed-check", kind + "-error"]))
    for cid, m, k, s, kind, field in [
        ("type/k-float", i(16), {"float": 3.0}, b(b""), "type", "k"),
        ("type/m-str", {"str": "16"}, i(3), b(b""), "type", "m"),
        ("type/seed-memoryview", i(16), i(3), {"memoryview": b"lab".hex()}, "type", "seed"),
        ("type/seed-int", i(16), i(3), i(0), "type", "seed"),
        ("value/m-negative", i(-1), i(3), b(b""), "value", "m"),
        ("value/m-huge", i(2 ** 40), i(3), b(b""), "value", "m"),
        ("value/k-negative", i(16), i(-3), b(b""), "value", "k"),
        ("order/m-value-before-seed-type", i(7), i(3), {"str": "lab"}, "value", "m"),
    ]:
        out.append(case(cid, *ch, {"records": empty, "m": m, "k": k, "seed": s}, {"error": kind, "field": field},
                        [kind + "-error"]))
    # Combined violations, one per adjacent pair of the documented order:
    # m type, k type, m bound, k bound, seed type, seed length, records type, records count,
    # each record (type, then length) in index order, then the item (type, then length).
    for cid, m, k, s, kind, field, why in [
        ("combined/m-type-and-k-type", {"bool": True}, {"float": 3.0}, b(b""), "type", "m", "m's type comes before k's type"),
        ("combined/k-type-and-m-bound", i(7), {"bool": True}, b(b""), "type", "k", "both types come before either bound"),
        ("combined/m-bound-and-k-bound", i(513), i(0), b(b""), "value", "m", "m's bound comes before k's bound"),
        ("combined/k-bound-and-seed-type", i(16), i(9), {"str": "lab"}, "value", "k", "k's bound comes before the seed's type"),
        ("combined/seed-type-and-seed-length", i(16), i(3), {"str": "x" * 17}, "type", "seed", "the seed's type comes before its length"),
    ]:
        out.append(case(cid, *ch, {"records": empty, "m": m, "k": k, "seed": s}, {"error": kind, "field": field},
                        [kind + "-error", "combined-violation"], why + "."))
    # 12
    ch = ("record_and_query_contract_rejected", "typed_rejection")
    d = {"m": i(64), "k": i(3), "seed": b(b"")}
    out.append(case("type/records-list", *ch, {"records": {"list": [b(b"a")]}, **d}, {"error": "type", "field": "records"},
                    ["seed-check", "type-error"]))
    for name, v in [("str", {"str": "a"}), ("bytearray", {"bytearray": b"a".hex()}), ("memoryview", {"memoryview": b"a".hex()}),
                    ("int", i(1)), ("bool", {"bool": True})]:
        out.append(case("type/record-" + name, *ch, {"records": tup(v), **d}, {"error": "type", "field": "records[0]"},
                        ["seed-check", "type-error"]))
    out.append(case("value/65-records", *ch, {"records": tup(*[b(b"a")] * 65), **d}, {"error": "value", "field": "records"},
                    ["seed-check", "value-error"]))
    out.append(case("value/65-byte-record", *ch, {"records": tup(b(b"a" * 65)), **d}, {"error": "value", "field": "records[0]"},
                    ["seed-check", "value-error"]))
    fx = {"records": tup(*[b(x) for x in MEMBERS]), "m": i(16), "k": i(3), "seed": b(b"lab")}
    out.append(case("type/lookup-str", *ch, {**fx, "item": {"str": "a"}}, {"error": "type", "field": "item"},
                    ["seed-check", "type-error"]))
    out.append(case("value/lookup-65-bytes", *ch, {**fx, "item": b(b"a" * 65)}, {"error": "value", "field": "item"},
                    ["seed-check", "value-error"]))
    out.append(case("type/records-bytes", *ch, {"records": b(b"abc"), **d}, {"error": "type", "field": "records"}, ["type-error"]))
    out.append(case("type/record-at-index-2", *ch, {"records": tup(b(b"a"), b(b""), {"str": "c"}), **d},
                    {"error": "type", "field": "records[2]"}, ["type-error", "empty-item"]))
    out.append(case("type/record-nested-tuple", *ch, {"records": tup(tup(b(b"a"))), **d}, {"error": "type", "field": "records[0]"},
                    ["type-error"]))
    out.append(case("type/lookup-bytearray", *ch, {**fx, "item": {"bytearray": "61"}}, {"error": "type", "field": "item"},
                    ["type-error"]))
    out.append(case("type/lookup-int", *ch, {**fx, "item": i(97)}, {"error": "type", "field": "item"}, ["type-error"]))
    out.append(case("value/65-records-of-empty", *ch, {"records": tup(*[b(b"")] * 65), **d}, {"error": "value", "field": "records"},
                    ["value-error", "empty-item"], "The bound applies before de-duplication."))
    # Combined violations across the parameters and the records, then along the records.
    for cid, inp, kind, field, why in [
        ("combined/seed-length-and-records-type", {"records": {"list": [b(b"a")]}, "m": i(64), "k": i(3), "seed": b(b"x" * 17)},
         "value", "seed", "the seed's length comes before the records' type"),
        ("combined/records-type-and-records-count", {"records": {"list": [b(b"a")] * 65}, **d},
         "type", "records", "the records' type comes before their count"),
        ("combined/records-count-and-record-type", {"records": tup(*([{"str": "a"}] + [b(b"a")] * 64)), **d},
         "value", "records", "the records' count comes before any record"),
        ("combined/record-type-and-record-length", {"records": tup({"str": "a" * 65}), **d},
         "type", "records[0]", "a record's type comes before its length"),
        ("combined/record-0-length-and-record-1-type", {"records": tup(b(b"a" * 65), {"str": "b"}), **d},
         "value", "records[0]", "records are checked in index order"),
        ("combined/record-1-type-and-record-2-length", {"records": tup(b(b"a"), {"int": 1}, b(b"c" * 65)), **d},
         "type", "records[1]", "records are checked in index order"),
        ("combined/last-record-and-item-type", {"records": tup(b(b"a"), b(b"b" * 65)), **d, "item": {"str": "a"}},
         "value", "records[1]", "every record comes before the item"),
        ("combined/item-type-and-item-length", {**fx, "item": {"str": "a" * 65}},
         "type", "item", "the item's type comes before its length"),
        ("combined/m-bound-and-bad-records", {"records": {"list": [{"int": 1}] * 65}, "m": i(7), "k": i(3), "seed": b(b"")},
         "value", "m", "the parameters come before the records"),
    ]:
        out.append(case(cid, *ch, inp, {"error": kind, "field": field}, [kind + "-error", "combined-violation"], why + "."))
    # 13
    base = [b"", b"\x00", b"a", b"a\x00", b"\xff", b"A", b"00", b"\xc3\xa9"]
    queries = base + [b"b", b"c", b"\x00a", b"aa"]
    profiles = [params(8, 1, b""), params(9, 2, b"S"), params(16, 3, b"lab"), params(31, 4, b"\x00")]
    assert 2 ** len(base) * len(profiles) == EXHAUSTIVE_SNAPSHOTS
    assert EXHAUSTIVE_SNAPSHOTS * len(queries) == EXHAUSTIVE_QUERIES
    out.append(case("seed/8-records-4-profiles", "all_small_subsets_independent_position_set_oracle", "exhaustive",
                    {"base_hex": hx(base), "queries_hex": hx(queries), "profiles": profiles},
                    {"snapshots": EXHAUSTIVE_SNAPSHOTS, "queries": EXHAUSTIVE_QUERIES}, ["seed-check", "seed-figure", "empty-item", "empty-seed"]))
    # 14
    cap = [bytes([j]) * 64 for j in range(64)]
    e = build_expect(cap, 512, 8, b"s" * 16)
    e["packed_len"] = 64
    out.append(case("seed/64x64-m512-k8", "maximum_declared_snapshot_bounds", "build",
                    {"params": params(512, 8, b"s" * 16), "records_hex": hx(cap)},
                    {"documents": 64, "packed_len": 64, "records_are_duplicates": True},
                    ["seed-check", "max-records", "max-item", "max-seed", "max-m", "max-k"]))
    out.append(case("derived/64x64-m512-k8", "maximum_declared_snapshot_bounds", "build",
                    {"params": params(512, 8, b"s" * 16), "records_hex": hx(cap)}, e,
                    ["derived", "max-records", "max-item", "max-seed", "max-m", "max-k"]))
    # 15
    for cid, (m, k, seed, item), flags in [
        ("fixture/doc-04", (16, 3, b"lab", b"doc-04"), []),
        ("wire/m9-k2-S-0041", (9, 2, b"S", b"\x00A"), ["m-not-multiple-of-8"]),
        ("min/m8-k1-empty", (8, 1, b"", b""), ["min-m", "min-k", "empty-seed", "empty-item"]),
        ("max/m512-k8-seed16-item64", (512, 8, bytes(range(16)), bytes(range(0xc0, 0x100))),
         ["max-m", "max-k", "max-seed", "max-item"]),
        ("odd/m31-k4-nul-e-acute", (31, 4, b"\x00", "\u00e9".encode()), ["m-not-multiple-of-8"]),
        ("odd/m100-k5-ff", (100, 5, b"\xff" * 16, b"\xff" * 64), ["m-not-multiple-of-8", "max-seed", "max-item"]),
    ]:
        stages = [{"message_hex": message(m, k, seed, j, item).hex(), "digest_hex": digest(m, k, seed, j, item).hex(),
                   "position": positions(m, k, seed, item)[j]} for j in range(k)]
        out.append(case(cid, "every_stage_pinned", "stages", {"params": params(m, k, seed), "item_hex": item.hex()},
                        {"stages": stages, "packed_hex": packed([item], m, k, seed)}, ["derived"] + flags))
    # 16
    probes = [b"", b"a", b"doc-00", b"\x00" * 64, b"zz"]
    for cid, (m, k, seed), recs, flags in [
        ("m8-k1-no-seed", (8, 1, b""), [b"a", b"b"], ["min-m", "min-k", "empty-seed"]),
        ("m9-k2", (9, 2, b"S"), UNIVERSE[:3], ["m-not-multiple-of-8"]),
        ("m31-k4", (31, 4, b"\x00"), UNIVERSE[:10], ["m-not-multiple-of-8"]),
        ("m100-k8", (100, 8, b"b"), UNIVERSE[:20], ["m-not-multiple-of-8", "max-k"]),
        ("m512-k1-seed16", (512, 1, b"0123456789abcdef"), UNIVERSE, ["max-m", "min-k", "max-seed", "max-records"]),
        ("items-0-and-64", (64, 3, b""), [b"", b"\x7f" * 64], ["empty-item", "max-item", "empty-seed"]),
    ]:
        out.append(case("boundary/" + cid, "parameter_boundaries_pinned", "build", {"params": params(m, k, seed), "records_hex": hx(recs)},
                        build_expect(recs, m, k, seed, probes), ["derived"] + flags))
    # 17
    ch = ("read_snapshot_verifies_its_bits", "read")
    fixture = bits(MEMBERS, 16, 3, b"lab")
    lab_items = MEMBERS + [b"doc-04", b"doc-05", b""]

    def le(value, m):
        return value.to_bytes((m + 7) // 8, "little").hex()

    assert le(fixture, 16) == FIXTURE_PACKED

    def read_case(cid, p, recs, packed_hex, items, rejected=None, flags=(), comment=None):
        expect = ({"rejected": {"error": "value", "field": rejected}} if rejected else
                  {"results": [triple(recs, p["m"], p["k"], bytes.fromhex(p["seed_hex"]), x) for x in items]})
        out.append(case(cid, *ch, {"params": p, "records_hex": hx(recs), "packed_hex": packed_hex, "items_hex": hx(items)},
                        expect, (["read-rejected"] if rejected else ["derived"]) + list(flags), comment))

    read_case("intact/fixture", LAB, MEMBERS, FIXTURE_PACKED, lab_items, flags=["seed-check"])
    read_case("intact/reordered-repeated", LAB, list(reversed(MEMBERS)) + MEMBERS, FIXTURE_PACKED, lab_items, flags=["repeated-record"])
    read_case("intact/empty-m8", params(8, 1, b""), [], "00", [b"", b"a"], flags=["min-m", "empty-seed"])
    read_case("intact/m9-k2-high-byte", params(9, 2, b"S"), [b"\x00A"], packed([b"\x00A"], 9, 2, b"S"), [b"\x00A", b"A"],
              flags=["m-not-multiple-of-8"])
    widest = [bytes([i]) * 64 for i in range(64)]
    read_case("intact/max-bounds", params(512, 1, b"s" * 16), widest, packed(widest, 512, 1, b"s" * 16),
              widest[:2] + [b"\x00" * 63, b"t" * 64], flags=["max-m", "max-seed", "max-records", "max-item"],
              comment="m, the seed, the record count and each record at their largest valid values, read back: "
                      "nothing is refused (k = 1 keeps the oracle's share of the case small).")
    fault = fixture & ~(1 << FAULT_BIT)
    rest = [r for r in MEMBERS if r != FAULT_REMOVED]
    removed, damaged = FAULT_REMOVED.decode(), FAULT_DAMAGED.decode()
    read_case("fault/%s-removed-bit-%d-cleared" % (removed, FAULT_BIT), LAB, rest, le(fault, 16), rest,
              rejected="records[%d]" % rest.index(FAULT_DAMAGED), flags=["seed-figure"],
              comment="The seed's shared-bit fault: without %s and with bit %d cleared, %s (records[%d] here) misses bit %d."
                      % (removed, FAULT_BIT, damaged, rest.index(FAULT_DAMAGED), FAULT_BIT))
    read_case("fault/bit-%d-cleared-all-records" % FAULT_BIT, LAB, MEMBERS, le(fault, 16), MEMBERS,
              rejected="records[%d]" % MEMBERS.index(FAULT_REMOVED),
              comment="%s and %s both miss bit %d: the first in the order given is named." % (removed, damaged, FAULT_BIT))
    only_last = [p for p in positions(16, 3, b"lab", MEMBERS[3]) if
                 all(p not in positions(16, 3, b"lab", r) for r in MEMBERS[:3])]
    assert only_last, "doc-03 has a position of its own"
    read_case("fault/last-record-misses-its-own-bit", LAB, MEMBERS, le(fixture & ~(1 << only_last[0]), 16), MEMBERS,
              rejected="records[3]")
    read_case("bits/one-byte-short", LAB, MEMBERS, FIXTURE_PACKED[:2], MEMBERS, rejected="packed_bits")
    read_case("bits/one-byte-long", LAB, MEMBERS, FIXTURE_PACKED + "00", MEMBERS, rejected="packed_bits")
    read_case("bits/empty-records-one-bit", params(8, 1, b""), [], "01", [b"a"], rejected="packed_bits",
              comment="No record sets bit 0.")
    extra = next(p for p in range(16) if not fixture >> p & 1)
    read_case("bits/one-extra-bit", LAB, MEMBERS, le(fixture | 1 << extra, 16), MEMBERS, rejected="packed_bits",
              comment="Bit %d is set, but no record sets it." % extra)
    high = bits([b"\x00A"], 9, 2, b"S") | 1 << 9
    read_case("bits/bit-at-m", params(9, 2, b"S"), [b"\x00A"], le(high, 9), [b"A"], rejected="packed_bits",
              flags=["m-not-multiple-of-8"], comment="Bit 9 lies at m = 9: unused high bits must be zero.")
    top = bits([b"\x00A"], 9, 2, b"S") | 1 << 15
    read_case("bits/top-bit-of-last-byte", params(9, 2, b"S"), [b"\x00A"], le(top, 9), [b"A"], rejected="packed_bits",
              flags=["m-not-multiple-of-8"], comment="Bit 15, the last byte's top bit, lies above m = 9: every unused bit is checked.")
    read_case("combined/length-before-records", LAB, MEMBERS, FIXTURE_PACKED[:2], MEMBERS, rejected="packed_bits",
              flags=["combined-violation"], comment="A wrong length is found before any record is checked.")
    read_case("combined/bit-at-m-before-records", params(9, 2, b"S"), [b"\x00A"], le(1 << 9, 9), [b"A"],
              rejected="packed_bits", flags=["combined-violation", "m-not-multiple-of-8"],
              comment="Bits above m are found before the record that misses its positions.")
    read_case("combined/top-bit-before-records", params(9, 2, b"S"), [b"\x00A"], le(1 << 15, 9), [b"A"],
              rejected="packed_bits", flags=["combined-violation", "m-not-multiple-of-8"],
              comment="The last byte's top bit, above m, is found before the record that misses its positions: every byte's unused bits are checked first.")
    read_case("combined/missing-before-extra", LAB, MEMBERS, le((fault | 1 << extra), 16), MEMBERS, rejected="records[0]",
              flags=["combined-violation"], comment="A record that misses a bit is named before an extra bit.")
    read_case("combined/record-length-before-bits", LAB, [b"a" * 65], FIXTURE_PACKED[:2], [], rejected="records[0]",
              flags=["combined-violation", "value-error"], comment="The record contract comes before the bits.")
    read_case("combined/m-bound-before-bits", params(7, 3, b"lab"), MEMBERS, FIXTURE_PACKED, [], rejected="m",
              flags=["combined-violation", "value-error"], comment="The parameters come first.")
    # Generated: the domains fresh inputs are drawn from on every run (spec/README.md,
    # "Generated checks"); the runner compares every answer with the oracle.
    whole = {"m": [8, 512], "k": [1, 8], "seed_bytes": [0, 16], "item_bytes": [0, 64]}
    out.append(case("generated/hashing", "generated_hashing_agrees_with_oracle", "generated",
                    {"generator": "doc_hashing", "count": 256, **whole},
                    {"equal_to": "oracle", "compared": ["positions", "frame"]}))
    # Conformance classes (spec/README.md, "Classes"): what the seed states is core, what
    # bloomproof decided is interop. The seed builds and looks up; reading a snapshot
    # from its parts is bloomproof's own operation, so the reads are judged apart.
    out.append(case("generated/snapshots", "generated_snapshots_agree_with_oracle", "generated",
                    {"generator": "doc_snapshots", "count": 48, **whole, "records": [0, 64]},
                    {"equal_to": "oracle", "compared": ["build", "lookup_many"]}))
    out.append(case("generated/reads", "generated_reads_agree_with_oracle", "generated",
                    {"generator": "doc_snapshots", "count": 48, **whole, "records": [0, 64]},
                    {"equal_to": "oracle", "compared": ["read", "read_damaged"]}))
    # The typed contract over its whole domain: the edges come from spec/bounds.json and
    # every typed kind (the same on every run), the draws from the run's seed. The kind
    # of the first error is the seed's (core); the field it names is bloomproof's.
    typed = {"generator": "doc_typed", "count": 64, "m": [8, 512], "k": [1, 8]}
    out.append(case("generated/typed-contract", "generated_typed_contract_agrees_with_oracle", "generated",
                    typed, {"equal_to": "oracle", "compared": ["typed"]}))
    out.append(case("generated/typed-fields", "generated_typed_contract_fields", "generated",
                    typed, {"equal_to": "oracle", "compared": ["typed_field"]}))
    # The seed raises TypeError or ValueError in a fixed order and names no field (one
    # error for m and k together): the kind is core, the field each error names is
    # bloomproof's (ADAPTER.md), judged by an interop check on copies of the same cases.
    named = []
    for c in out:
        if c["check"] in NAMED_FIELDS:
            copy = json.loads(json.dumps(c))
            copy["id"] = NAMED_FIELDS[c["check"]] + "/" + c["id"]
            copy["check"] = "contract_errors_name_their_field"
            named.append(copy)
            del c["expect"]["field"]
    return out + named


# The checks whose cases are copied, with the field the error names, into
# contract_errors_name_their_field (the prefix of the copy's id).
NAMED_FIELDS = {"parameter_types_and_limits_rejected": "parameters",
                "record_and_query_contract_rejected": "records"}


if __name__ == "__main__":
    derive(OUT, PROTOCOL, cases, FLAGS, 2, __file__)
