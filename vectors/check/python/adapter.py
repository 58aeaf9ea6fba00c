#!/usr/bin/env python3
"""bloomproof adapter for the Python implementation (spec/ADAPTER.md).

One JSON request per line on stdin, one JSON response per line on stdout, flushed
after each; exits when stdin closes.  Standard library only, Python 3.11+.

    cargo xtask conformance --impl 'python3 vectors/check/python/adapter.py'
"""
import copy
import json
import os
import pickle
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from bloomproof_py import doc_membership_v1 as doc  # noqa: E402
from bloomproof_py import fnv1a_utf16_v1 as fnv  # noqa: E402
from bloomproof_py.session import estimates_object as session_estimates  # noqa: E402
import typed  # noqa: E402


class BadRequest(Exception):
    pass


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
    return doc.DocumentPrefilter(tuple(_hex_list(req, "records")), _int(req, "m"),
                                 _int(req, "k"), _hex(req, "seed"))


def doc_sha256(req):
    return {"digest": doc.sha256(_hex(req, "data")).hex()}


def doc_frame(req):
    m, k, seed, index, item = (_int(req, "m"), _int(req, "k"), _hex(req, "seed"),
                               _int(req, "index"), _hex(req, "item"))
    stages = doc.stages(m, k, seed, item)
    if not 0 <= index < k:
        raise doc.ContractValueError("index", f"hash index must be in 0..{k}, got {index}")
    msg, digest, _ = stages[index]
    return {"message": msg.hex(), "digest": digest.hex()}


def doc_positions(req):
    return {"positions": list(doc.positions(_int(req, "m"), _int(req, "k"),
                                            _hex(req, "seed"), _hex(req, "item")))}


def doc_build(req):
    snap = _snapshot(req)
    return {"packed_bits": snap.packed_bits().hex(), "documents": len(snap.documents)}


def doc_lookup(req):
    snap = _snapshot(req)
    return _triple(snap.lookup(_hex(req, "item")))


def doc_lookup_many(req):
    snap = _snapshot(req)
    items = _hex_list(req, "items")
    results = []
    for i, item in enumerate(items):
        try:
            results.append(_triple(snap.lookup(item)))
        except doc.ContractValueError as e:
            raise doc.ContractValueError(f"items[{i}]", str(e).split(": ", 1)[-1]) from None
    return {"results": results}


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


def _observe(snap, probes):
    """Everything observable about a snapshot."""
    return (snap.m, snap.k, snap.seed, snap.bits, snap.documents, snap.packed_bits(),
            tuple(tuple(sorted(snap.lookup(p).items())) for p in probes))


def doc_immutability_probe(req):
    snap = _snapshot(req)
    probes = _hex_list(req, "probes")
    before = _observe(snap, probes)
    other = doc.DocumentPrefilter((b"intruder",), 8, 1, b"x")
    attempts = []

    def attempt(text, action):
        try:
            action()
            outcome = "no error"
        except Exception as e:  # noqa: BLE001 - we report whatever happens
            outcome = f"{type(e).__name__}: {e}"
        attempts.append({"attempt": f"{text} -> {outcome}",
                         "unchanged": _observe(snap, probes) == before})

    fields = {"m": 9, "k": 2, "seed": b"evil", "bits": 0, "documents": frozenset()}
    for name, value in fields.items():
        attempt(f"snapshot.{name} = {value!r}", lambda n=name, v=value: setattr(snap, n, v))
        attempt(f"del snapshot.{name}", lambda n=name: delattr(snap, n))
        attempt(f"object.__setattr__(snapshot, {name!r}, {value!r})",
                lambda n=name, v=value: object.__setattr__(snap, n, v))
        attempt(f"object.__setattr__(snapshot, '_{name}', {value!r})",
                lambda n=name, v=value: object.__setattr__(snap, "_" + n, v))
        attempt(f"object.__delattr__(snapshot, '_{name}')",
                lambda n=name: object.__delattr__(snap, "_" + n))
    attempt("snapshot.new_attribute = 1", lambda: setattr(snap, "new_attribute", 1))
    attempt("snapshot.__class__ = type(other snapshot)", lambda: setattr(snap, "__class__", type(other)))
    attempt("vars(snapshot)['bits'] = 0", lambda: vars(snap).__setitem__("bits", 0))
    attempt("snapshot.__init__((b'intruder',), 8, 1, b'x')", lambda: snap.__init__((b"intruder",), 8, 1, b"x"))
    attempt("DocumentPrefilter.__init__(snapshot, (), 16, 3, b'')",
            lambda: doc.DocumentPrefilter.__init__(snap, (), 16, 3, b""))
    attempt("snapshot.documents.add(b'intruder')", lambda: snap.documents.add(b"intruder"))
    attempt("snapshot.documents.clear()", lambda: snap.documents.clear())

    def ior_documents():
        documents = snap.documents
        documents |= {b"intruder"}
    attempt("documents = snapshot.documents; documents |= {b'intruder'}", ior_documents)

    def write_packed():
        memoryview(snap.packed_bits())[0] = 0xFF
    attempt("memoryview(snapshot.packed_bits())[0] = 0xff", write_packed)

    def write_packed_copy():
        packed = bytearray(snap.packed_bits())
        packed[:] = b"\xff" * len(packed)
    attempt("bytearray(snapshot.packed_bits())[:] = ff...", write_packed_copy)

    def write_seed():
        memoryview(snap.seed)[:1] = b"\xff"
    attempt("memoryview(snapshot.seed)[:1] = b'\\xff'", write_seed)

    def mutate_lookup():
        for p in probes:
            result = snap.lookup(p)
            result["maybe_present"] = not result["maybe_present"]
            result["duplicate"] = True
            result.clear()
    attempt("result = snapshot.lookup(probe); result[...] = ...; result.clear()", mutate_lookup)

    def mutate_copies():
        for clone in (copy.copy(snap), copy.deepcopy(snap), pickle.loads(pickle.dumps(snap))):
            try:
                setattr(clone, "bits", 0)
            except AttributeError:
                pass
    attempt("copy.copy / copy.deepcopy / pickle round trip, then assign bits on the copy", mutate_copies)
    return {"attempts": attempts}


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
    0..=1024), not rejected; the result has the four keys of ADAPTER.md."""
    obj = session_estimates(_int(req, "m"), _int(req, "k"), _int(req, "n"))
    return {key: obj[key] for key in ("classic", "finite_m", "exact", "optimal_k")}


def fnv_session(req):
    from bloomproof_py import session  # noqa: PLC0415
    script = _arg(req, "script")
    if type(script) is not list:
        raise BadRequest("script: expected an array of steps")
    try:
        return session.run_script(script)
    except session.MalformedStep as e:
        raise BadRequest(str(e)) from None


OPS = {
    "doc-membership-v1": {
        "sha256": doc_sha256, "frame": doc_frame, "positions": doc_positions,
        "build": doc_build, "lookup": doc_lookup, "lookup_many": doc_lookup_many,
        "typed": doc_typed, "immutability_probe": doc_immutability_probe,
    },
    "fnv1a-utf16-v1": {
        "positions": fnv_positions, "estimates": fnv_estimates, "session": fnv_session,
    },
}


# ------------------------------------------------------------------ the loop

def _error(kind, message, field=None):
    err = {"kind": kind, "message": message}
    if field is not None:
        err["field"] = field
    return err


def respond(line):
    try:
        req = json.loads(line)
    except (ValueError, RecursionError) as e:
        return {"id": None, "error": _error("bad_request", f"not JSON: {e}")}
    if type(req) is not dict:
        return {"id": None, "error": _error("bad_request", "a request is a JSON object")}
    rid = req.get("id")
    if not ((type(rid) is int and rid >= 0) or type(rid) is str):
        return {"id": None, "error": _error("bad_request", "id must be a non-negative integer or a string")}
    protocol, op = req.get("protocol"), req.get("op")
    handler = OPS.get(protocol, {}).get(op) if type(protocol) is str and type(op) is str else None
    if handler is None:
        return {"id": rid, "error": _error("bad_request", f"unknown protocol/op {protocol!r}/{op!r}")}
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


def main():
    out = sys.stdout
    for raw in sys.stdin.buffer:
        try:
            line = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            response = {"id": None, "error": _error("bad_request", f"not UTF-8: {e}")}
        else:
            if not line.strip():
                continue
            response = respond(line)
        out.write(_dumps(response) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
