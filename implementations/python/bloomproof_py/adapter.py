#!/usr/bin/env python3
"""bloomproof adapter for the Python implementation (spec/ADAPTER.md).

One JSON request per line on stdin, one JSON response per line on stdout, flushed
after each; exits when stdin closes.  Standard library only, Python 3.11+.

    cargo xtask conformance --impl bloomproof-py-adapter        # installed (pip)
    cargo xtask conformance --impl 'python3 implementations/python/bloomproof_py/adapter.py'
"""
import copy
import gc
import json
import os
import pickle
import re
import sys

if not __package__:
    # Run as a file (`python3 .../bloomproof_py/adapter.py`): the package is its folder.
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bloomproof_py import doc_membership_v1 as doc  # noqa: E402
from bloomproof_py import fnv1a_utf16_v1 as fnv  # noqa: E402
from bloomproof_py.session import estimates_object as session_estimates  # noqa: E402
import bloomproof_py  # noqa: E402
from bloomproof_py import typed  # noqa: E402


U32_MAX = 2**32 - 1


class BadRequest(Exception):
    pass


# spec/ADAPTER.md, "Input no request may hold".
SCRIPT_MAX = 1024   # steps of one `session` script
RESPONSE_MAX = 1048576  # bytes of one response line, without its newline (1 MiB)
QUOTE_MAX = 64      # characters of a bad value an error message quotes
NESTING_MAX = 127   # levels of arrays and objects a request may nest, itself the first


class DuplicateKey(ValueError):
    """A key that appears twice in one object of a request (ambiguous: refused)."""


def _quote(text):
    """A short quote of an untrusted string: at most QUOTE_MAX characters and its length."""
    if len(text) <= QUOTE_MAX:
        return json.dumps(text)
    return f"{json.dumps(text[:QUOTE_MAX] + '…', ensure_ascii=False)} ({len(text.encode('utf-8', 'surrogatepass'))} bytes)"


def _no_duplicate_keys(pairs):
    """object_pairs_hook: the object, unless a key repeats (json.loads keeps the last)."""
    seen = set()
    for key, _ in pairs:
        if key in seen:
            raise DuplicateKey(f"duplicate key {_quote(key)} in the request")
        seen.add(key)
    return dict(pairs)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _holds_lone_surrogate(value):
    """Whether a string (or key) of the parsed request holds a lone surrogate: json.loads
    reads `"\\ud800"` into one, which ADAPTER.md says no request may hold."""
    todo = [value]
    while todo:
        v = todo.pop()
        if type(v) is str:
            if _SURROGATE.search(v):
                return True
        elif type(v) is dict:
            todo.extend(v.keys())
            todo.extend(v.values())
        elif type(v) is list:
            todo.extend(v)
    return False


def _nesting(value):
    """How deep `value` nests arrays and objects (a scalar 0, `{}` 1)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        v, depth = todo.pop()
        if type(v) is dict or type(v) is list:
            deepest = max(deepest, depth)
            todo.extend((child, depth + 1) for child in (v.values() if type(v) is dict else v))
    return deepest


def _parse_int(text):
    """A JSON integer; `-0` is read as the float -0.0, since ADAPTER.md says it is no
    integer (json.loads reads `16.0` and `1e1` as floats already)."""
    return float(text) if text == "-0" else int(text)


# ------------------------------------------------------------------ arguments

def _arg(req, name):
    if name not in req:
        raise BadRequest(f"missing argument {name!r}")
    return req[name]


def _int(req, name):
    value = _arg(req, name)
    if type(value) is not int:
        raise BadRequest(f"{name}: expected a JSON integer, got {json.dumps(value)[:40]}")
    return value


def _hex(req, name):
    try:
        return typed.hex_bytes(_arg(req, name), name)
    except typed.MalformedTyped as e:
        raise BadRequest(str(e)) from None


def _hex_list(req, name):
    value = _arg(req, name)
    if type(value) is not list:
        raise BadRequest(f"{name}: expected an array of hex strings")
    try:
        return [typed.hex_bytes(v, f"{name}[{i}]") for i, v in enumerate(value)]
    except typed.MalformedTyped as e:
        raise BadRequest(str(e)) from None


def _params(req, where="params"):
    """m, k, seed of the nested `params` object {"m", "k", "seed_hex"}."""
    value = _arg(req, "params")
    if type(value) is not dict:
        raise BadRequest(f"{where}: expected an object {{m, k, seed_hex}}")
    try:
        return _int(value, "m"), _int(value, "k"), _hex(value, "seed_hex")
    except BadRequest as e:
        raise BadRequest(f"{where}: {e}") from None


def _units(value, name="units"):
    if type(value) is not list or not all(type(u) is int and 0 <= u <= 0xFFFF for u in value):
        raise BadRequest(f"{name}: expected an array of UTF-16 code units 0..=65535")
    return value


def _triple(result):
    return {"maybe_present": result["maybe_present"],
            "exact_checked": result["exact_checked"],
            "duplicate": result["duplicate"]}


# ------------------------------------------------------------------ doc-membership-v1

def _snapshot(req):
    m, k, seed = _params(req)
    return doc.DocumentPrefilter(tuple(_hex_list(req, "records")), m, k, seed)


def doc_sha256(req):
    return {"digest": doc.sha256(_hex(req, "data")).hex()}


def doc_frame(req):
    m, k, seed = _params(req)
    index, item = _int(req, "index"), _hex(req, "item")
    stages = doc.stages(m, k, seed, item)
    if not 0 <= index < k:
        raise doc.ContractValueError("index", f"hash index must be in 0..{k}, got {index}")
    msg, digest, _ = stages[index]
    return {"message": msg.hex(), "digest": digest.hex()}


def doc_positions(req):
    m, k, seed = _params(req)
    return {"positions": list(doc.positions(m, k, seed, _hex(req, "item")))}


def doc_build(req):
    snap = _snapshot(req)
    return {"packed_hex": snap.packed_bits().hex(), "documents": len(snap.documents)}


def doc_lookup(req):
    snap = _snapshot(req)
    return _triple(snap.lookup(_hex(req, "item")))


def _lookup_all(snap, items):
    """One triple per item, in order.  A bound broken by an item is a value error naming
    the field `item` (ADAPTER.md); the message says which one."""
    results = []
    for i, item in enumerate(items):
        try:
            results.append(_triple(snap.lookup(item)))
        except doc.ContractValueError as e:
            raise doc.ContractValueError("item", f"items[{i}]: {str(e).split(': ', 1)[-1]}") from None
    return {"results": results}


def doc_lookup_many(req):
    snap = _snapshot(req)
    return _lookup_all(snap, _hex_list(req, "items"))


def doc_read(req):
    """ADAPTER.md, "Reading a snapshot": verify the parts in the documented order, then
    look each item up in the snapshot they describe."""
    m, k, seed = _params(req)
    packed = _hex(req, "packed_hex")
    records = tuple(_hex_list(req, "records"))
    items = _hex_list(req, "items")
    snap = doc.read_snapshot(m, k, seed, packed, records)
    return _lookup_all(snap, items)


def doc_typed(req):
    try:
        records = typed.build(_arg(req, "records"), "records")
        m = typed.build(_arg(req, "m"), "m")
        k = typed.build(_arg(req, "k"), "k")
        seed = typed.build(_arg(req, "seed"), "seed")
        has_item = "item" in req and req["item"] is not None
        item = typed.build(req["item"], "item") if has_item else None
    except typed.MalformedTyped as e:
        raise BadRequest(str(e)) from None
    # Called exactly as a user would; TypeError / ValueError propagate to respond().
    snapshot = doc.DocumentPrefilter(records, m, k, seed)
    return {"lookup": _triple(snapshot.lookup(item)) if has_item else None}


# ------------------------------------------------------------------ mutate (ADAPTER.md, "Mutation attempts")
# Each attempt is made for real, step by step, with the means Python offers; then the
# SAME snapshot is observed through its ordinary operations.  The runner compares the
# observation with its own values; the outcome is only this adapter's account.

ATTEMPTS = ("assign_fields", "mutate_returned_bits", "mutate_returned_documents",
            "mutate_returned_lookup", "mutate_records_after_build", "mutate_seed_after_build",
            "reconstruct", "mutate_copy", "bypass_guards")


class _Steps:
    """The steps of one attempt: each one either raises or goes through."""

    def __init__(self):
        self.raised = []   # (text, name of the exception type)
        self.through = []  # text
        self.notes = []

    def step(self, text, action):
        try:
            action()
        except Exception as e:  # noqa: BLE001 - any refusal counts as a refusal
            self.raised.append((text, type(e).__name__))
            return False
        self.through.append(text)
        return True

    def outcome(self):
        return "done" if self.through else "raised"

    def detail(self):
        kinds = sorted({kind for _, kind in self.raised})
        text = f"{len(self.raised) + len(self.through)} steps, {len(self.raised)} raised"
        if kinds:
            text += f" ({', '.join(kinds)})"
        if self.through:
            shown = "; ".join(self.through[:4]) + ("; ..." if len(self.through) > 4 else "")
            text += f"; {len(self.through)} went through: {shown}"
        for note in dict.fromkeys(self.notes):  # each note once, in order
            text += f"; {note}"
        return text


def _public_names(obj):
    """Every public field, property or method name of the snapshot."""
    return sorted(name for name in dir(obj) if not name.startswith("_"))


def _descriptor_set(obj, name, value):
    """Write `name` through the data descriptor the class holds for it, bypassing __setattr__."""
    for klass in type(obj).__mro__:
        descriptor = klass.__dict__.get(name)
        if descriptor is not None and hasattr(type(descriptor), "__set__"):
            type(descriptor).__set__(descriptor, obj, value)
            return
    raise AttributeError(f"no data descriptor for {name!r} in type(obj).__mro__")


def _fill_ones(value):
    """Every byte of `value` to ff in place, through a memoryview (TypeError for an int,
    which has no buffer, and for read-only bytes)."""
    view = memoryview(value).cast("B")
    view[:] = b"\xff" * view.nbytes


def _scribble(value):
    """Change `value` in place by what it supports: clear() a container, else every byte
    to ff (TypeError for int, frozenset, read-only bytes)."""
    if callable(getattr(value, "clear", None)) and not isinstance(value, type):
        value.clear()
        return
    _fill_ones(value)


def _slot_names(klass):
    slots = klass.__dict__.get("__slots__", ())
    return (slots,) if isinstance(slots, str) else tuple(slots)


def _class_swaps(steps, snap, other, names, where):
    """Swap in a layout-compatible class (object.__setattr__ on __class__), write the
    fields through it, swap back.  With slot storage this would reach the state."""
    cls = type(snap)
    candidates = []
    for label, bases, namespace in (
            ("Swapped", (cls.__base__,), {"__slots__": _slot_names(cls)}),
            ("Unfrozen", (cls,), {"__slots__": (), "__setattr__": object.__setattr__,
                                  "__delattr__": object.__delattr__})):
        try:
            candidates.append(type(label, bases, namespace))
        except Exception as e:  # noqa: BLE001
            steps.notes.append(f"no class {label} ({type(e).__name__})")
    for swapped in candidates:
        if not steps.step(f"object.__setattr__({where}, '__class__', {swapped.__name__})",
                          lambda s=swapped: object.__setattr__(snap, "__class__", s)):
            continue
        try:
            for name in names:
                value = getattr(other, name, None)
                steps.step(f"as {swapped.__name__}: {where}.{name} = ...",
                           lambda n=name, v=value: setattr(snap, n, v))
            for slot in _slot_names(swapped):
                value = getattr(other, slot.lstrip("_"), None)
                steps.step(f"as {swapped.__name__}: slot {slot}.__set__",
                           lambda s=slot, v=value: swapped.__dict__[s].__set__(snap, v))
        finally:
            object.__setattr__(snap, "__class__", cls)
        steps.notes.append(f"__class__ set back to {cls.__name__} after each swap")


def _assign_fields(steps, snap, other, where="snapshot"):
    """Normal use: the language's ordinary assignment and deletion of every public name."""
    names = _public_names(snap)
    for name in names:
        value = getattr(other, name, None)
        steps.step(f"{where}.{name} = other.{name}", lambda n=name, v=value: setattr(snap, n, v))
    for name in names:
        steps.step(f"del {where}.{name}", lambda n=name: delattr(snap, n))
    steps.step(f"{where}.new_field = 1", lambda: setattr(snap, "new_field", 1))


def _bypass_guards(steps, snap, other, where="snapshot"):
    """Deliberate tampering: past the frozen guard (object.__setattr__, the slot
    descriptor, vars(), a swapped class) and into the referents of the object."""
    names = _public_names(snap)
    for name in names:
        value = getattr(other, name, None)
        steps.step(f"object.__setattr__({where}, {name!r}, ...)",
                   lambda n=name, v=value: object.__setattr__(snap, n, v))
        steps.step(f"object.__setattr__({where}, '_{name}', ...)",
                   lambda n=name, v=value: object.__setattr__(snap, "_" + n, v))
        steps.step(f"type({where}).{name}.__set__({where}, ...)",
                   lambda n=name, v=value: _descriptor_set(snap, n, v))
        steps.step(f"vars({where})[{name!r}] = ...", lambda n=name, v=value: vars(snap).__setitem__(n, v))
    for name in names:
        steps.step(f"object.__delattr__({where}, {name!r})", lambda n=name: object.__delattr__(snap, n))
        steps.step(f"object.__delattr__({where}, '_{name}')", lambda n=name: object.__delattr__(snap, "_" + n))
    steps.step(f"object.__setattr__({where}, 'new_field', 1)", lambda: object.__setattr__(snap, "new_field", 1))
    _class_swaps(steps, snap, other, names, where)
    for referent in gc.get_referents(snap):
        if isinstance(referent, type):
            continue  # the class itself: replacing code is not changing this snapshot
        steps.step(f"change gc.get_referents({where}) item {type(referent).__name__} in place",
                   lambda r=referent: _scribble(r))


def _handed_out(snap, keyword):
    """(expression, value) for every public field or no-argument method whose name has `keyword`."""
    out = []
    for name in _public_names(snap):
        if keyword not in name:
            continue
        value = getattr(snap, name)
        if callable(value):
            try:
                out.append((f"snapshot.{name}()", value()))
            except TypeError:
                continue  # needs arguments: not a value handed out
        else:
            out.append((f"snapshot.{name}", value))
    return out


def _attempt_returned_bits(steps, snap, other, probes):
    for expr, value in _handed_out(snap, "bit"):
        steps.step(f"every byte of {expr} ({type(value).__name__}) to ff in place",
                   lambda v=value: _fill_ones(v))
        steps.step(f"{expr}[0] = 0xff", lambda v=value: v.__setitem__(0, 0xFF))
    steps.notes.append("int and bytes have no in-place operation (|= only rebinds a name)")


def _attempt_returned_documents(steps, snap, other, probes):
    for expr, documents in _handed_out(snap, "document"):
        for document in sorted(documents):
            steps.step(f"{expr}.discard(document)", lambda d=documents, x=document: d.discard(x))
        steps.step(f"{expr}.clear()", lambda d=documents: d.clear())
        steps.step(f"set.clear({expr})", lambda d=documents: set.clear(d))
        for record in other.documents:
            steps.step(f"{expr}.add(other record)", lambda d=documents, x=record: d.add(x))
            steps.step(f"set.add({expr}, other record)", lambda d=documents, x=record: set.add(d, x))


def _attempt_returned_lookup(steps, snap, other, probes):
    for probe in probes or [b""]:
        result = snap.lookup(probe)
        for key in ("maybe_present", "exact_checked", "duplicate"):
            steps.step(f"lookup(probe)[{key!r}] = not ...",
                       lambda r=result, k=key: r.__setitem__(k, not r[k]))
        steps.step("lookup(probe).clear()", lambda r=result: r.clear())
    steps.notes.append("lookup() returns a fresh dict on every call")


def _mutable_buffer(value):
    try:
        return not memoryview(value).readonly
    except TypeError:
        return False


def _build_as_mutable_as_admitted(candidates, build):
    """Build with the most mutable caller-owned buffers the contract admits.  Returns
    (snapshot, buffers, label, rejected) where rejected lists the refused kinds."""
    rejected = []
    for index, (label, make) in enumerate(candidates):
        buffers = make()
        try:
            return build(buffers), buffers, label, rejected
        except TypeError as e:
            if index == len(candidates) - 1:
                raise
            rejected.append(f"{label} ({type(e).__name__} on {getattr(e, 'field', '?')})")
    raise AssertionError("unreachable")


def _attempt_records_after_build(steps, records, m, k, seed, other):
    snap, buffers, label, rejected = _build_as_mutable_as_admitted(
        [("a list of bytearray", lambda: [bytearray(r) for r in records]),
         ("a tuple of bytearray", lambda: tuple(bytearray(r) for r in records)),
         ("a list of bytes", lambda: [bytes(r) for r in records]),
         ("a tuple of bytes", lambda: tuple(bytes(r) for r in records))],
        lambda buffers: doc.DocumentPrefilter(buffers, m, k, seed))
    expressible = callable(getattr(buffers, "append", None)) or any(_mutable_buffer(r) for r in buffers)

    def xor_all(record):
        view = memoryview(record).cast("B")
        view[:] = bytes(b ^ 0xFF for b in view)

    for i, record in enumerate(buffers):
        steps.step(f"records[{i}] ^= ff in place", lambda r=record: xor_all(r))
    for record in other.documents:
        steps.step("records.append(other record)", lambda r=record: buffers.append(bytes(r)))
    steps.step("records.reverse()", lambda: buffers.reverse())
    if rejected:
        steps.notes.append("the contract rejected " + ", ".join(rejected))
    steps.notes.append(f"built from {label}")
    return snap, expressible


def _attempt_seed_after_build(steps, records, m, k, seed):
    snap, buffer, label, rejected = _build_as_mutable_as_admitted(
        [("a bytearray seed", lambda: bytearray(seed)), ("a bytes seed", lambda: bytes(seed))],
        lambda s: doc.DocumentPrefilter(tuple(records), m, k, s))
    expressible = _mutable_buffer(buffer)

    def xor_all():
        view = memoryview(buffer).cast("B")
        view[:] = bytes(b ^ 0xFF for b in view)

    steps.step("seed ^= ff in place", xor_all)
    steps.step("seed.append(0xff)", lambda: buffer.append(0xFF))
    if rejected:
        steps.notes.append("the contract rejected " + ", ".join(rejected))
    steps.notes.append(f"built from {label}")
    return snap, expressible


def _attempt_reconstruct(steps, snap, other, other_args):
    steps.step("snapshot.__init__(*other)", lambda: snap.__init__(*other_args))
    for klass in type(snap).__mro__:
        init = klass.__dict__.get("__init__")
        if init is not None:
            steps.step(f"{klass.__name__}.__init__(snapshot, *other)",
                       lambda f=init: f(snap, *other_args))


def _attempt_copy(steps, snap, other, change=_assign_fields):
    makers = [("copy.copy", lambda: copy.copy(snap)), ("copy.deepcopy", lambda: copy.deepcopy(snap))]
    makers += [(f"pickle protocol {p}", lambda p=p: pickle.loads(pickle.dumps(snap, protocol=p)))
               for p in range(pickle.HIGHEST_PROTOCOL + 1)]
    if hasattr(copy, "replace"):  # Python 3.13+
        makers.append(("copy.replace", lambda: copy.replace(snap)))
    same = []
    for label, make in makers:
        made = []
        if not steps.step(label, lambda f=make: made.append(f())):
            continue
        clone = made[0]
        if clone is snap:
            same.append(label)
        change(steps, clone, other, where=f"{label} copy")
    if same:
        steps.notes.append(f"{', '.join(same)} return the snapshot itself")


def _json_int(value):
    return value if type(value) is int else repr(value)[:40]


def _observation(snap, probes):
    """(observation, failures): params {m, k, seed_hex}, packed_hex, documents and one
    triple per probe, read from the snapshot through its ordinary operations.  A read
    that fails (a snapshot broken by the attempt) gives null and is named in the
    failures."""
    out, failures = {"params": {}}, []
    for where, key, read in ((out["params"], "m", lambda: _json_int(snap.m)),
                             (out["params"], "k", lambda: _json_int(snap.k)),
                             (out["params"], "seed_hex", lambda: snap.seed.hex()),
                             (out, "packed_hex", lambda: snap.packed_bits().hex()),
                             (out, "documents", lambda: _json_int(len(snap.documents)))):
        try:
            where[key] = read()
        except Exception as e:  # noqa: BLE001 - report what the observation saw
            where[key] = None
            failures.append(f"{key}: {type(e).__name__}")
    lookups = []
    for i, probe in enumerate(probes):
        try:
            lookups.append({key: value if type(value) is bool else repr(value)[:40]
                            for key, value in _triple(snap.lookup(probe)).items()})
        except Exception as e:  # noqa: BLE001
            lookups.append(None)
            failures.append(f"lookups[{i}]: {type(e).__name__}")
    out["lookups"] = lookups
    return out, failures


def _other(req):
    value = _arg(req, "other")
    if type(value) is not dict:
        raise BadRequest("other: expected an object {params, records}")
    try:
        m, k, seed = _params(value)
        records = _hex_list(value, "records")
    except BadRequest as e:
        raise BadRequest(f"other: {e}") from None
    try:
        return doc.DocumentPrefilter(tuple(records), m, k, seed), (tuple(records), m, k, seed)
    except (TypeError, ValueError) as e:
        raise BadRequest(f"other: not a valid snapshot: {e}") from None


def doc_mutate(req):
    """ADAPTER.md, "Mutation attempts": build, make the named attempt, observe."""
    m, k, seed = _params(req)
    records = _hex_list(req, "records")
    probes = _hex_list(req, "probes")
    attempt = _arg(req, "attempt")
    if type(attempt) is not str or attempt not in ATTEMPTS:
        raise BadRequest(f"attempt: expected one of {', '.join(ATTEMPTS)}, got {json.dumps(attempt)[:40]}")
    other, other_args = _other(req)
    # Contract errors first, in the contract order: the snapshot's, then the probes'.
    doc.check_params(m, k, seed)
    doc.check_records(tuple(records))
    for i, probe in enumerate(probes):
        try:
            doc.check_item(probe)
        except doc.ContractValueError as e:
            raise doc.ContractValueError("item", f"probes[{i}]: {str(e).split(': ', 1)[-1]}") from None
    steps = _Steps()
    expressible = True
    if attempt == "mutate_records_after_build":
        snap, expressible = _attempt_records_after_build(steps, records, m, k, seed, other)
    elif attempt == "mutate_seed_after_build":
        snap, expressible = _attempt_seed_after_build(steps, records, m, k, seed)
    else:
        snap = doc.DocumentPrefilter(tuple(records), m, k, seed)
        if attempt == "assign_fields":
            _assign_fields(steps, snap, other)
        elif attempt == "mutate_returned_bits":
            _attempt_returned_bits(steps, snap, other, probes)
        elif attempt == "mutate_returned_documents":
            _attempt_returned_documents(steps, snap, other, probes)
        elif attempt == "mutate_returned_lookup":
            _attempt_returned_lookup(steps, snap, other, probes)
        elif attempt == "reconstruct":
            _attempt_reconstruct(steps, snap, other, other_args)
        elif attempt == "bypass_guards":
            _bypass_guards(steps, snap, other)
            _attempt_copy(steps, snap, other, change=_bypass_guards)
        else:
            _attempt_copy(steps, snap, other)
    if not expressible:
        outcome = "impossible"
        detail = ("impossible: the contract admits only immutable buffers (an exact tuple of exact bytes, "
                  "exact bytes for the seed), which Python cannot change in place; tried anyway: " + steps.detail())
    else:
        outcome, detail = steps.outcome(), steps.detail()
    observation, failures = _observation(snap, probes)
    if failures:
        detail += "; observing afterwards raised: " + ", ".join(failures)
    result = {"outcome": outcome, "detail": detail}
    result.update(observation)
    return result


# ------------------------------------------------------------------ fnv1a-utf16-v1

def fnv_positions(req):
    m, k, units = _int(req, "m"), _int(req, "k"), _units(_arg(req, "units"))
    fnv.check_params(m, k)
    if not fnv.UNITS_MIN <= len(units) <= fnv.UNITS_MAX:
        raise fnv.ContractValueError("units", f"a string has {fnv.UNITS_MIN}..={fnv.UNITS_MAX} code units, got {len(units)}")
    h1, h2, positions = fnv.positions(m, k, units)
    return {"h1": h1, "h2": h2, "positions": positions}


def fnv_estimates(req):
    """SESSION.md section 8: the inputs are clamped (m to 8..=1024, k to 1..=12, n to
    0..=1024), not rejected; a negative one is out of bounds, a value error naming it
    (ADAPTER.md, the error table); the result has the four keys of ADAPTER.md."""
    m, k, n = _int(req, "m"), _int(req, "k"), _int(req, "n")
    for name, value in (("m", m), ("k", k), ("n", n)):
        if value < 0:
            raise fnv.ContractValueError(name, f"{name} = {value} is out of bounds: estimates take integers from 0")
        if value > U32_MAX:
            raise BadRequest(f"{name}: {value} is past the wire's width (an estimates input is below 2^32)")
    obj = session_estimates(m, k, n)
    return {key: obj[key] for key in ("classic", "finite_m", "exact", "optimal_k")}


def fnv_session(req):
    from bloomproof_py import session  # noqa: PLC0415
    script = _arg(req, "script")
    if type(script) is not list:
        raise BadRequest("script: expected an array of steps")
    if len(script) > SCRIPT_MAX:
        raise BadRequest(f"`script` has {len(script)} steps: a script has at most {SCRIPT_MAX} (split it)")
    try:
        return session.run_script(script)
    except session.MalformedStep as e:
        raise BadRequest(str(e)) from None


# Every protocol served, by name, with its operations: the handshake lists these.
OPS = {
    doc.PROTOCOL: {
        "sha256": doc_sha256, "frame": doc_frame, "positions": doc_positions,
        "build": doc_build, "lookup": doc_lookup, "lookup_many": doc_lookup_many,
        "typed": doc_typed, "read": doc_read, "mutate": doc_mutate,
    },
    fnv.PROTOCOL: {
        "positions": fnv_positions, "estimates": fnv_estimates, "session": fnv_session,
    },
}


# ------------------------------------------------------------------ the loop

def _error(kind, message, field=None):
    err = {"kind": kind, "message": message}
    if field is not None:
        err["field"] = field
    return err


ADAPTER_PROTOCOL = 3


def started(req):
    """The handshake's answer: the version spoken (whatever the runner's is: the runner
    judges), who answers, the protocols implemented."""
    return {
        "adapter_protocol": ADAPTER_PROTOCOL,
        "implementation": {
            "name": "bloomproof-py",
            "language": "Python",
            "version": f"{bloomproof_py.__version__} on Python {sys.version.split()[0]}",
        },
        "protocols": list(OPS),
    }


def respond(line):
    try:
        req = json.loads(line, object_pairs_hook=_no_duplicate_keys, parse_int=_parse_int)
    except DuplicateKey as e:
        return {"id": None, "error": _error("bad_request", str(e))}
    except (ValueError, RecursionError) as e:
        return {"id": None, "error": _error("bad_request", f"not JSON: {e}")}
    if type(req) is not dict:
        return {"id": None, "error": _error("bad_request", "a request is a JSON object")}
    if _nesting(req) > NESTING_MAX:
        return {"id": None, "error": _error("bad_request", f"the request nests deeper than {NESTING_MAX} "
                                            "arrays and objects")}
    if _holds_lone_surrogate(req):
        return {"id": None, "error": _error("bad_request", "not JSON: a lone-surrogate escape "
                                            "(send UTF-16 strings as arrays of code units)")}
    rid = req.get("id")
    if not ((type(rid) is int and rid >= 0) or type(rid) is str):
        return {"id": None, "error": _error("bad_request", "id must be a non-negative integer or a string")}
    protocol, op = req.get("protocol"), req.get("op")
    if op == "start" and "protocol" not in req:
        return {"id": rid, "result": started(req)}
    handler = OPS.get(protocol, {}).get(op) if type(protocol) is str and type(op) is str else None
    if handler is None:
        what = "/".join(_quote(v) if type(v) is str else json.dumps(v)[:QUOTE_MAX] for v in (protocol, op))
        return {"id": rid, "error": _error("bad_request", f"unknown protocol/op {what}")}
    try:
        return {"id": rid, "result": handler(req)}
    except BadRequest as e:
        return {"id": rid, "error": _error("bad_request", str(e))}
    except TypeError as e:
        return {"id": rid, "error": _error("type", str(e), getattr(e, "field", None))}
    except ValueError as e:
        return {"id": rid, "error": _error("value", str(e), getattr(e, "field", None))}
    except Exception as e:  # noqa: BLE001 - never die on one request
        print(f"adapter: internal error on request {rid!r}: {type(e).__name__}: {e}", file=sys.stderr)
        return {"id": rid, "error": _error("internal", f"{type(e).__name__}: {e}")}


def _dumps(obj):
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def answer(raw):
    """The response line (without its newline) to one request line `raw` (bytes, its
    newline dropped or not), or None for a blank line, which carries no request: what
    main() writes for it."""
    try:
        line = raw.decode("utf-8")
    except UnicodeDecodeError as e:
        # One bad byte ends neither the adapter nor the exchange: answered, next line served.
        response = {"id": None, "error": _error("bad_request", f"the request line is not UTF-8 (invalid byte at offset {e.start})")}
    else:
        if not line.strip():
            return None
        response = respond(line)
    try:
        text = _dumps(response)
    except (TypeError, ValueError) as e:  # a result that is not JSON: never die on it
        text = _dumps({"id": response.get("id"), "error": _error("internal", f"unserialisable result: {e}")})
    if len(text) > RESPONSE_MAX:  # ASCII only (ensure_ascii): characters are bytes
        text = _dumps({"id": response.get("id"), "error": _error(
            "bad_request", f"the answer would be a {len(text)}-byte line: a response line has at most "
                           f"{RESPONSE_MAX} bytes (1 MiB); ask for less at a time")})
    return text


def main():
    out = sys.stdout
    for raw in sys.stdin.buffer:
        text = answer(raw)
        if text is None:
            continue
        out.write(text + "\n")
        out.flush()


if __name__ == "__main__":
    main()
