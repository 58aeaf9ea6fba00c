"""Self-tests of doc-membership-v1 beyond the spec cases (pytest, with bloomproof_py installed).

* the contract order when several rules are broken at once (every adjacent pair);
* `read` (ADAPTER.md, "Reading a snapshot"): an intact snapshot reads, each kind of
  damage is rejected with the right field, in the documented order;
* `mutate` (ADAPTER.md, "Mutation attempts"): after every attempt the observation equals
  a fresh snapshot's; deliberately mutable variants make it differ, so the op observes
  the snapshot instead of trusting it.
"""
import copy
import gc
import json
import os
import pickle
import sys
import unittest
from dataclasses import FrozenInstanceError
from unittest import mock


from bloomproof_py import adapter  # noqa: E402
from bloomproof_py import doc_membership_v1 as doc  # noqa: E402

RECORDS = tuple(b"doc-%02d" % i for i in range(4))   # the seed's fixture: m=16, k=3, seed b"lab"
FIXTURE = {"m": 16, "k": 3, "seed": b"lab", "records": RECORDS}
OTHER = {"m": 9, "k": 2, "seed": b"S", "records": (b"\x00A",)}
MAXIMUM = {"m": 512, "k": 8, "seed": b"s" * 16, "records": tuple(bytes([i]) * 64 for i in range(64))}
EMPTY = {"m": 8, "k": 1, "seed": b"", "records": ()}
REAL = doc.DocumentPrefilter  # the class itself, whatever a test patches into the module


def ask(op, **args):
    """One request through adapter.respond, as JSON text both ways."""
    line = json.dumps({"id": 1, "protocol": "doc-membership-v1", "op": op, **args})
    response = json.loads(adapter._dumps(adapter.respond(line)))
    return response.get("result"), response.get("error")


def params(m=16, k=3, seed_hex="6c6162"):
    """The nested `params` of a request (spec/ADAPTER.md)."""
    return {"m": m, "k": k, "seed_hex": seed_hex}


def hexes(values):
    return [v.hex() for v in values]


def contract_error(call):
    """(kind, field) of the contract error `call` raises, or None."""
    try:
        call()
    except TypeError as e:
        return "type", getattr(e, "field", None)
    except ValueError as e:
        return "value", getattr(e, "field", None)
    return None


def construct(records=(), m=16, k=3, seed=b"", item=None):
    def call():
        snapshot = doc.DocumentPrefilter(records, m, k, seed)
        if item is not None:
            snapshot.lookup(item)
    return contract_error(call)


# ------------------------------------------------------------------ contract order

class ContractOrder(unittest.TestCase):
    """m type, k type, m bound, k bound, seed type, seed length, records type, records
    count, each record in index order (type, then length), then the item (type, length):
    for every adjacent pair, a case that breaks both must report the first."""

    PAIRS = [
        ("m type before k type", dict(m=16.0, k=True), ("type", "m")),
        ("k type before m bound (types before bounds)", dict(m=7, k=True), ("type", "k")),
        ("m bound before k bound", dict(m=7, k=0), ("value", "m")),
        ("k bound before seed type", dict(k=9, seed="lab"), ("value", "k")),
        ("seed type before seed length (str)", dict(seed="x" * 17), ("type", "seed")),
        ("seed type before seed length (bytearray)", dict(seed=bytearray(17)), ("type", "seed")),
        ("seed length before records type", dict(seed=b"x" * 17, records=[b"a"]), ("value", "seed")),
        ("records type before records count", dict(records=[b"a"] * 65), ("type", "records")),
        ("records count before records[0] type", dict(records=("a",) * 65), ("value", "records")),
        ("records[0] type before records[0] length", dict(records=("a" * 65,)), ("type", "records[0]")),
        ("records[0] length before records[1] type", dict(records=(b"a" * 65, "b")), ("value", "records[0]")),
        ("records[1] type before records[1] length", dict(records=(b"ok", bytearray(65))), ("type", "records[1]")),
        ("last record length before item type", dict(records=(b"a", b"b" * 65), item="x"), ("value", "records[1]")),
        ("item type before item length", dict(records=(b"a",), item="x" * 65), ("type", "item")),
        ("item type before item length (memoryview)", dict(item=memoryview(b"x" * 65)), ("type", "item")),
        ("item length alone", dict(item=b"x" * 65), ("value", "item")),
        ("everything broken: m type first", dict(m=True, k=9.0, seed="s" * 17, records=["r" * 65] * 65,
                                                 item="i" * 65), ("type", "m")),
    ]

    def test_every_adjacent_pair_direct(self):
        for text, args, expected in self.PAIRS:
            with self.subTest(text):
                self.assertEqual(construct(**args), expected)

    def test_every_adjacent_pair_through_typed(self):
        def typed_value(value):
            if type(value) is bool:
                return {"bool": value}
            if type(value) is int:
                return {"int": value}
            if type(value) is float:
                return {"float": value}
            if type(value) is str:
                return {"str": value}
            if type(value) is bytes:
                return {"bytes": value.hex()}
            if type(value) is bytearray:
                return {"bytearray": value.hex()}
            if type(value) is memoryview:
                return {"memoryview": bytes(value).hex()}
            if type(value) is tuple:
                return {"tuple": [typed_value(v) for v in value]}
            if type(value) is list:
                return {"list": [typed_value(v) for v in value]}
            raise AssertionError(value)

        for text, args, expected in self.PAIRS:
            full = dict(records=(), m=16, k=3, seed=b"")
            full.update(args)
            request = {key: typed_value(value) for key, value in full.items() if value is not None}
            with self.subTest(text):
                result, error = ask("typed", **request)
                self.assertIsNone(result)
                self.assertEqual((error["kind"], error.get("field")), expected, error)

    def test_valid_arguments_pass(self):
        self.assertIsNone(construct(records=RECORDS, m=16, k=3, seed=b"lab", item=b"doc-04"))


# ------------------------------------------------------------------ read

class ReadSnapshot(unittest.TestCase):
    def read(self, packed_hex, records=RECORDS, m=16, k=3, seed=b"lab"):
        return doc.read_snapshot(m, k, seed, bytes.fromhex(packed_hex), records)

    def error(self, packed, records=RECORDS, m=16, k=3, seed=b"lab"):
        packed = bytes.fromhex(packed) if type(packed) is str else packed
        try:
            doc.read_snapshot(m, k, seed, packed, records)
        except (TypeError, ValueError) as e:
            return ("type" if isinstance(e, TypeError) else "value"), e.field, str(e)
        self.fail("read_snapshot accepted a damaged snapshot")

    def test_intact_snapshot_reads_as_the_built_one(self):
        snapshot = self.read("d291")
        self.assertIs(type(snapshot), doc.DocumentPrefilter)
        self.assertEqual(snapshot, doc.DocumentPrefilter(RECORDS, 16, 3, b"lab"))
        self.assertEqual(snapshot.lookup(b"doc-04"),
                         {"maybe_present": True, "exact_checked": True, "duplicate": False})
        with self.assertRaises(FrozenInstanceError):
            snapshot.bits = 0

    def test_order_and_repeats_allowed(self):
        records = (b"doc-03", b"doc-00", b"doc-00") + RECORDS
        self.assertEqual(self.read("d291", records), doc.DocumentPrefilter(RECORDS, 16, 3, b"lab"))

    def test_empty_and_m_not_multiple_of_8(self):
        self.assertEqual(self.read("0000", ()).bits, 0)
        small = doc.DocumentPrefilter((b"\x00A",), 9, 2, b"S")
        self.assertEqual(small.packed_bits().hex(), "8001")  # positions 7 and 8
        self.assertEqual(self.read("8001", (b"\x00A",), 9, 2, b"S"), small)

    def test_seed_shared_bit_fault_names_the_first_damaged_record(self):
        # The seed's fault: drop doc-00 and clear bit 4 (shared with doc-01): d291 -> c291.
        kind, field, message = self.error("c291", RECORDS[1:])
        self.assertEqual((kind, field), ("value", "records[0]"))  # doc-01 is records[0] there
        self.assertIn("position 4", message)
        # in the order given: doc-01 third
        self.assertEqual(self.error("c291", (b"doc-02", b"doc-03", b"doc-01"))[:2], ("value", "records[2]"))

    def test_bit_no_record_sets(self):
        kind, field, message = self.error("d291", RECORDS[1:])  # bit 12 is doc-00's alone
        self.assertEqual((kind, field), ("value", "packed_bits"))
        self.assertIn("bit 12", message)
        kind, field, message = self.error("d2d1", RECORDS)  # bits 12 (member) and 14 (nobody)
        self.assertEqual((kind, field), ("value", "packed_bits"))
        self.assertIn("bit 14", message)
        self.assertIn("bit 0 ", self.error("d391", RECORDS)[2] + " ")  # lowest extra bit named

    def test_packed_bits_length_and_type(self):
        for packed in ("d2", "d29100", ""):
            with self.subTest(packed=packed):
                self.assertEqual(self.error(packed)[:2], ("value", "packed_bits"))
        self.assertEqual(self.error(bytearray(b"\xd2\x91"))[:2], ("type", "packed_bits"))

    def test_bit_at_or_above_m(self):
        kind, field, message = self.error("8003", (b"\x00A",), 9, 2, b"S")
        self.assertEqual((kind, field), ("value", "packed_bits"))
        self.assertIn("bit 9", message)

    def test_order_of_the_checks(self):
        # 1. params and records before anything about packed_bits, in the contract order
        self.assertEqual(self.error("", m=7, k=True)[:2], ("type", "k"))
        self.assertEqual(self.error("", m=7)[:2], ("value", "m"))
        self.assertEqual(self.error("", seed="lab")[:2], ("type", "seed"))
        self.assertEqual(self.error("", records=list(RECORDS))[:2], ("type", "records"))
        self.assertEqual(self.error("", records=(b"a" * 65,))[:2], ("value", "records[0]"))
        # 2. length before high bits and records; 3. high bits before records
        self.assertEqual(self.error("ff")[:2], ("value", "packed_bits"))
        self.assertIn("bit 9", self.error("0002", (b"\x00A",), 9, 2, b"S")[2])
        # 4. a record missing a bit before a bit no record sets (c291 without doc-00 has both)
        self.assertEqual(self.error("c291", RECORDS[1:])[:2], ("value", "records[0]"))
        self.assertEqual(self.error("0000", RECORDS)[:2], ("value", "records[0]"))

    def test_adapter_read(self):
        records = hexes(RECORDS)
        result, error = ask("read", params=params(), packed_hex="D291", records=records,
                            items=hexes(RECORDS + (b"doc-04", b"doc-05", b"")))
        self.assertIsNone(error)
        snapshot = doc.DocumentPrefilter(RECORDS, 16, 3, b"lab")
        self.assertEqual(result, {"results": [snapshot.lookup(x) for x in RECORDS + (b"doc-04", b"doc-05", b"")]})
        _, error = ask("read", params=params(), packed_hex="c291", records=records[1:], items=[])
        self.assertEqual((error["kind"], error["field"]), ("value", "records[0]"))
        _, error = ask("read", params=params(), packed_hex="d291", records=records[1:], items=[])
        self.assertEqual((error["kind"], error["field"]), ("value", "packed_bits"))
        # 6. an item after every check of the snapshot
        _, error = ask("read", params=params(), packed_hex="d291", records=records, items=["00" * 65])
        self.assertEqual((error["kind"], error["field"]), ("value", "item"))
        _, error = ask("read", params=params(), packed_hex="c291", records=records, items=["00" * 65])
        self.assertEqual((error["kind"], error["field"]), ("value", "records[0]"))
        _, error = ask("read", params=params(m=7), packed_hex="c291", records=records, items=[])
        self.assertEqual((error["kind"], error["field"]), ("value", "m"))
        # requests that are not of the documented JSON types
        for bad in (dict(packed_hex="d29"), dict(packed_hex=None), dict(items="00"), dict(params=params(m="16")),
                    dict(params={"m": 16, "k": 3})):
            args = dict(params=params(), packed_hex="d291", records=records, items=[])
            args.update(bad)
            with self.subTest(bad=bad):
                self.assertEqual(ask("read", **args)[1]["kind"], "bad_request")
        args = dict(params=params(), packed_hex="d291", records=records)
        self.assertEqual(ask("read", **args)[1]["kind"], "bad_request")  # items missing

    def test_lookup_many_names_the_item_field(self):
        _, error = ask("lookup_many", params=params(), records=[], items=["", "00" * 65])
        self.assertEqual((error["kind"], error["field"]), ("value", "item"))
        self.assertIn("items[1]", error["message"])


# ------------------------------------------------------------------ mutate

def probes_for(fixture, other):
    records = fixture["records"]
    return (list(records) + [bytes(b ^ 0xFF for b in r) for r in records] + list(other["records"])
            + [b"", b"doc-04", b"\x00", b"z" * 64])


def fresh_observation(fixture, probes):
    snapshot = REAL(tuple(fixture["records"]), fixture["m"], fixture["k"], fixture["seed"])
    return {"params": params(snapshot.m, snapshot.k, snapshot.seed.hex()),
            "packed_hex": snapshot.packed_bits().hex(), "documents": len(snapshot.documents),
            "lookups": [snapshot.lookup(p) for p in probes]}


def mutate(attempt, fixture=FIXTURE, other=OTHER, probes=None):
    probes = probes_for(fixture, other) if probes is None else probes
    fresh = fresh_observation(fixture, probes)
    result, error = ask("mutate", params=params(fixture["m"], fixture["k"], fixture["seed"].hex()),
                        records=hexes(fixture["records"]), attempt=attempt, probes=hexes(probes),
                        other={"params": params(other["m"], other["k"], other["seed"].hex()),
                               "records": hexes(other["records"])})
    if error is not None:
        raise AssertionError(f"{attempt}: {error}")
    observed = {key: result[key] for key in ("params", "packed_hex", "documents", "lookups")}
    return result["outcome"], result["detail"], observed, fresh


EXPECTED_OUTCOMES = {
    "assign_fields": "raised",             # ordinary assignment and deletion: FrozenInstanceError
    "bypass_guards": "done",               # only the __class__ swap goes through (and is undone)
    "mutate_returned_bits": "raised",
    "mutate_returned_documents": "raised",
    "mutate_returned_lookup": "done",      # the returned dict is fresh: changing it goes through
    "mutate_records_after_build": "impossible",
    "mutate_seed_after_build": "impossible",
    "reconstruct": "raised",
    "mutate_copy": "done",                 # copies are made; nothing reaches the state
}


class Mutate(unittest.TestCase):
    def test_attempt_names_are_the_spec_table(self):
        self.assertEqual(set(adapter.ATTEMPTS), set(EXPECTED_OUTCOMES))

    def test_every_attempt_leaves_the_observation_of_a_fresh_snapshot(self):
        for fixture, other in ((FIXTURE, OTHER), (OTHER, FIXTURE), (EMPTY, FIXTURE), (MAXIMUM, OTHER),
                               (FIXTURE, EMPTY)):
            for attempt in adapter.ATTEMPTS:
                with self.subTest(attempt=attempt, m=fixture["m"], other=other["m"]):
                    outcome, detail, observed, fresh = mutate(attempt, fixture, other)
                    self.assertEqual(observed, fresh, detail)
                    self.assertEqual(outcome, EXPECTED_OUTCOMES[attempt], detail)
                    self.assertNotIn("observing afterwards raised", detail)

    def test_seed_fixture_observation_is_the_published_one(self):
        outcome, detail, observed, _ = mutate("bypass_guards", probes=[b"doc-00", b"doc-04", b"doc-05"])
        self.assertEqual((observed["packed_hex"], observed["documents"]), ("d291", 4))
        self.assertEqual([tuple(t.values()) for t in observed["lookups"]],
                         [(True, True, True), (True, True, False), (False, False, False)])
        self.assertIn("went through: object.__setattr__(snapshot, '__class__'", detail)

    def test_impossible_attempts_say_why(self):
        for attempt in ("mutate_records_after_build", "mutate_seed_after_build"):
            with self.subTest(attempt=attempt):
                outcome, detail, _, _ = mutate(attempt)
                self.assertEqual(outcome, "impossible")
                self.assertIn("immutable", detail)
                self.assertIn("the contract rejected", detail)
                self.assertIn("bytearray", detail)

    def test_requests(self):
        base = dict(params=params(), records=hexes(RECORDS), attempt="assign_fields", probes=[],
                    other={"params": params(9, 2, "53"), "records": ["0041"]})
        for bad in (dict(attempt="assign"), dict(attempt=3), dict(other=None), dict(other={"params": {"m": 9}}),
                    dict(other={"params": params(7, 2, ""), "records": []}), dict(probes="00"),
                    dict(params=None)):
            args = dict(base, **bad)
            with self.subTest(bad=bad):
                self.assertEqual(ask("mutate", **args)[1]["kind"], "bad_request")
        args = dict(base)
        del args["other"]
        self.assertEqual(ask("mutate", **args)[1]["kind"], "bad_request")
        _, error = ask("mutate", **dict(base, probes=["", "00" * 65]))
        self.assertEqual((error["kind"], error["field"]), ("value", "item"))
        for attempt in ("assign_fields", "mutate_records_after_build", "mutate_seed_after_build"):
            _, error = ask("mutate", **dict(base, attempt=attempt, params=params(m=7)))
            self.assertEqual((error["kind"], error["field"]), ("value", "m"))
            _, error = ask("mutate", **dict(base, attempt=attempt, records=["00" * 65]))
            self.assertEqual((error["kind"], error["field"]), ("value", "records[0]"))
            _, error = ask("mutate", **dict(base, attempt=attempt, params=params(seed_hex="00" * 17)))
            self.assertEqual((error["kind"], error["field"]), ("value", "seed"))

    def test_old_immutability_probe_is_gone(self):
        _, error = ask("immutability_probe", params=params(), records=hexes(RECORDS),
                       probes=hexes(RECORDS))
        self.assertEqual(error["kind"], "bad_request")


# ------------------------------------------------------------------ mutable variants: the op observes

class Leaky:
    """Deliberately mutable: keeps the caller's buffers, hands out its own state, caches
    lookups, re-runs __init__, copies to itself.  Every attempt changes what it shows."""

    def __init__(self, records, m=64, k=3, seed=b""):
        self.m, self.k, self.seed, self.records = m, k, seed, records
        self.documents = {bytes(r) for r in records}
        self._packed = None
        self._lookups = {}

    @property
    def bits(self):
        bits = 0
        for record in self.records:
            for position in doc._positions_unchecked(self.m, self.k, bytes(self.seed), bytes(record)):
                bits |= 1 << position
        return bits

    def packed_bits(self):
        if self._packed is None:
            self._packed = bytearray(doc.pack_bits(self.bits, self.m))
        return self._packed

    def lookup(self, item):
        if item not in self._lookups:
            bits = self.bits
            maybe = all(bits >> p & 1 for p in doc._positions_unchecked(self.m, self.k, bytes(self.seed), item))
            self._lookups[item] = {"maybe_present": maybe, "exact_checked": maybe,
                                   "duplicate": maybe and item in self.documents}
        return self._lookups[item]

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


class SlotPrefilter:
    """The earlier design of DocumentPrefilter: private slots whose descriptors are removed
    from the class.  setattr, object.__setattr__ and vars() cannot reach them, but a
    layout-compatible class swapped in through __class__ can."""

    __slots__ = ("_m", "_k", "_seed", "_bits", "_documents")

    def __init__(self, records, m=64, k=3, seed=b""):
        real = REAL(records, m, k, seed)
        for name in self.__slots__:
            _SLOT_DESCRIPTORS[name].__set__(self, getattr(real, name[1:]))

    def __setattr__(self, name, value):
        raise FrozenInstanceError(name)

    def __delattr__(self, name):
        raise FrozenInstanceError(name)

    m = property(lambda self: _SLOT_DESCRIPTORS["_m"].__get__(self))
    k = property(lambda self: _SLOT_DESCRIPTORS["_k"].__get__(self))
    seed = property(lambda self: _SLOT_DESCRIPTORS["_seed"].__get__(self))
    bits = property(lambda self: _SLOT_DESCRIPTORS["_bits"].__get__(self))
    documents = property(lambda self: _SLOT_DESCRIPTORS["_documents"].__get__(self))
    maybe_present = doc.DocumentPrefilter.maybe_present
    lookup = doc.DocumentPrefilter.lookup
    packed_bits = doc.DocumentPrefilter.packed_bits

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return (SlotPrefilter, (tuple(sorted(self.documents)), self.m, self.k, self.seed))


_SLOT_DESCRIPTORS = {name: SlotPrefilter.__dict__[name] for name in SlotPrefilter.__slots__}
for _name in SlotPrefilter.__slots__:
    delattr(SlotPrefilter, _name)
del _name


class MutableVariants(unittest.TestCase):
    def assert_differs(self, attempt, fixture=FIXTURE, other=OTHER):
        outcome, detail, observed, fresh = mutate(attempt, fixture, other)
        self.assertNotEqual(observed, fresh, f"{attempt}: a mutable variant went unnoticed ({detail})")
        return outcome, detail, observed

    def test_leaky_variant_is_caught_by_every_attempt(self):
        with mock.patch.object(doc, "DocumentPrefilter", Leaky):
            for attempt in adapter.ATTEMPTS:
                with self.subTest(attempt=attempt):
                    outcome, detail, _ = self.assert_differs(attempt)
                    self.assertEqual(outcome, "done", detail)
            with self.subTest("the empty snapshot"):
                for attempt in ("assign_fields", "mutate_returned_documents", "mutate_returned_bits",
                                "mutate_seed_after_build", "reconstruct", "mutate_copy"):
                    self.assert_differs(attempt, EMPTY, FIXTURE)

    def test_monkeypatched_class_where_assignment_goes_through(self):
        side = {}  # id -> (snapshot, m): holding the snapshot keeps its id from being reused

        def get_m(self):
            held = side.get(id(self))
            return held[1] if held is not None and held[0] is self else tuple.__getitem__(self, 0)

        settable_m = property(get_m, lambda self, value: side.__setitem__(id(self), (self, value)))
        with mock.patch.object(doc.DocumentPrefilter, "__setattr__", object.__setattr__), \
                mock.patch.object(doc.DocumentPrefilter, "m", settable_m):
            outcome, detail, observed = self.assert_differs("assign_fields")
        self.assertEqual(observed["params"]["m"], OTHER["m"])
        self.assertIn("snapshot.m = other.m", detail)
        # and the class is itself again
        self.assertEqual(mutate("assign_fields")[2], mutate("assign_fields")[3])

    def test_earlier_slot_design_is_caught_by_the_class_swap(self):
        snapshot = SlotPrefilter(RECORDS, 16, 3, b"lab")
        for action in (lambda: setattr(snapshot, "bits", 0), lambda: object.__setattr__(snapshot, "_bits", 0),
                       lambda: vars(snapshot)):
            self.assertRaises((AttributeError, TypeError), action)
        with mock.patch.object(doc, "DocumentPrefilter", SlotPrefilter):
            outcome, detail, observed = self.assert_differs("bypass_guards")
            self.assertEqual((observed["params"]["m"], observed["params"]["seed_hex"]), (OTHER["m"], OTHER["seed"].hex()))


# ------------------------------------------------------------------ the snapshot class itself

class SnapshotClass(unittest.TestCase):
    def setUp(self):
        self.snapshot = doc.DocumentPrefilter(RECORDS, 16, 3, b"lab")

    def test_class_swap_reaches_no_state(self):
        class Swapped(tuple):
            __slots__ = ()
        object.__setattr__(self.snapshot, "__class__", Swapped)
        object.__setattr__(self.snapshot, "__class__", doc.DocumentPrefilter)
        self.assertEqual(self.snapshot.packed_bits().hex(), "d291")
        with self.assertRaises(TypeError):
            type("WithSlots", (tuple,), {"__slots__": ("_bits",)})

    def test_no_mutable_referent(self):
        for referent in gc.get_referents(self.snapshot):
            self.assertIn(type(referent), (int, bytes, frozenset, type))

    def test_not_a_sequence_and_not_a_tuple_value(self):
        for action in (lambda: len(self.snapshot), lambda: list(self.snapshot), lambda: self.snapshot[0],
                       lambda: b"doc-00" in self.snapshot, lambda: self.snapshot + (), lambda: self.snapshot * 2,
                       lambda: self.snapshot < self.snapshot):
            self.assertRaises(TypeError, action)
        self.assertTrue(self.snapshot)
        plain = (16, 3, b"lab", self.snapshot.bits, self.snapshot.documents)
        self.assertFalse(self.snapshot == plain)
        self.assertFalse(plain == self.snapshot)

    def test_copies_pickles_equality(self):
        self.assertIs(copy.copy(self.snapshot), self.snapshot)
        self.assertIs(copy.deepcopy(self.snapshot), self.snapshot)
        for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
            clone = pickle.loads(pickle.dumps(self.snapshot, protocol=protocol))
            self.assertEqual(clone, self.snapshot)
            self.assertEqual(hash(clone), hash(self.snapshot))
        self.assertEqual(self.snapshot, doc.DocumentPrefilter(tuple(reversed(RECORDS)) + RECORDS, 16, 3, b"lab"))
        self.assertNotEqual(self.snapshot, doc.DocumentPrefilter(RECORDS, 16, 3, b"lbl"))

    def test_init_again(self):
        with self.assertRaises(FrozenInstanceError):
            self.snapshot.__init__((b"x",), 9, 2, b"S")
        self.snapshot.__init__(RECORDS, 16, 3, b"lab")  # what Python does right after __new__
        with self.assertRaises(TypeError):
            object.__init__(self.snapshot, (b"x",), 9)
        self.assertEqual(self.snapshot.packed_bits().hex(), "d291")


if __name__ == "__main__":
    unittest.main()
