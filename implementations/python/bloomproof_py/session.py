"""fnv1a-utf16-v1: the teaching filter as a session model.

Written from spec/fnv1a-utf16-v1/SESSION.md (sections in brackets below).  Strings are
kept as tuples of UTF-16 code units throughout; Python `str` is used only at the edges
(reading script values and JSON, writing drafts and well-formed Text).

Every operation is all-or-nothing: all checks run before anything changes, and the
multi-insert steps (`insert_example`, `insert_many`) work on a copy that replaces the
session only when every insertion succeeded.
"""
import json
import math
import re

from . import estimates as est
from .fnv1a_utf16_v1 import base_hashes, code_points, from_units, is_well_formed, positions_from, to_units

# A counter stops at its maximum, 2^64 - 1 (SESSION.md 5.4): it saturates.
COUNTER_MAX = 2 ** 64 - 1

# [2] constants
M_MIN, M_MAX = 8, 1024
K_MIN, K_MAX = 1, 12
MAX_UNITS = 256
MAX_ENTRIES = 1024
HISTORY_CAP = 256
DRAFT_MAX_UNITS = 1024
EXAMPLE = tuple((ord(c),) for c in "abcdefgh")
FORMAT = "bloomproof-session"
FORMAT_VERSION = 1
PROTOCOL = "fnv1a-utf16-v1"
IMPORT_MAX_BYTES = 2097152
LOCAL_SAVE_MAX_UNITS = 100000
MAX_DEPTH = 127  # [10] step 2: arrays and objects nested deeper are a syntax error

INSERT_OUTCOMES = ("new", "duplicate")
QUERY_OUTCOMES = ("definitely_absent", "false_positive", "truly_present")
DRAFT_FIELDS = ("m", "k", "insert", "query")
PANELS = ("positions", "model")


class SessionError(Exception):
    """A rejected operation: kind is one of the ten kinds of section 5.10."""

    def __init__(self, kind, message):
        super().__init__(message)
        self.kind = kind
        self.message = message


class MalformedStep(Exception):
    """A script step this adapter cannot read (answered as bad_request)."""


# ------------------------------------------------------------------ [4] strings

_SHORT_ESCAPES = {0x22: '\\"', 0x5C: "\\\\", 0x08: "\\b", 0x0C: "\\f", 0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t"}


def display(units):
    """JSON.stringify of the string (ES2019 well-formed), quotes included."""
    out = ['"']
    for c in code_points(units):
        if 0xD800 <= c <= 0xDFFF:
            out.append(f"\\u{c:04x}")
        elif c in _SHORT_ESCAPES:
            out.append(_SHORT_ESCAPES[c])
        elif c < 0x20:
            out.append(f"\\u{c:04x}")
        else:
            out.append(chr(c))
    out.append('"')
    return "".join(out)


def read_text(value, where):
    """A script or export Text: a JSON string or an array of code units -> tuple of units.
    Returns None when the value is neither."""
    if type(value) is str:
        return tuple(to_units(value))
    if type(value) is list and all(type(u) is int and 0 <= u <= 0xFFFF for u in value):
        return tuple(value)
    return None


def write_text(units):
    """Export form: a JSON string when well-formed, else the array of code units."""
    return from_units(units) if is_well_formed(units) else list(units)


def utf16_length(text):
    # Two bytes a code unit; "surrogatepass" writes a lone surrogate as its one unit.
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


# A state longer than this is not built: only its length matters (it is never stored).
SAVE_STATE_BUILT = 8 * LOCAL_SAVE_MAX_UNITS


class _Unbuilt(str):
    """A state too long to build, by its length in UTF-16 code units alone."""

    def __new__(cls, units):
        self = super().__new__(cls, "")
        self.units = units
        return self


def save_state(units, fill=None):
    """The state of a `save_local` step (section 6): `fill` ("x" when absent) repeated
    as many whole times as fit in `units` UTF-16 code units, then "x" until it is
    exactly `units` code units."""
    fill = "x" if fill is None else fill
    width = utf16_length(fill)
    if units > SAVE_STATE_BUILT:
        return _Unbuilt(units)
    return fill * (units // width) + "x" * (units % width)


def state_units(state):
    """A serialised state's length in UTF-16 code units (section 11)."""
    if isinstance(state, _Unbuilt):
        return state.units
    return utf16_length(state)


def save_local(state, previous):
    """Section 11: a state of at most 100000 UTF-16 code units is saved; a longer one
    is kept out, the previous copy stays, with a warning."""
    units = state_units(state)
    if units <= LOCAL_SAVE_MAX_UNITS:
        return {"outcome": "saved", "stored_units": units, "warning": None}
    return {"outcome": "kept", "stored_units": utf16_length(previous),
            "warning": (f"The session is {units} UTF-16 code units when serialised, over the "
                        f"{LOCAL_SAVE_MAX_UNITS} that are saved locally: it was not saved, the previous "
                        "copy is kept. Export the whole session before reloading or leaving the page.")}


def denotes(draft_units, value):
    """The draft is one or more ASCII digits whose decimal value equals `value`."""
    return (len(draft_units) > 0 and all(0x30 <= u <= 0x39 for u in draft_units)
            and int("".join(chr(u) for u in draft_units)) == value)


# ------------------------------------------------------------------ [3] state

class Filter:
    """The active filter: everything that lives and dies together."""

    __slots__ = ("m", "k", "bits", "entries", "entry_set", "negative_queries",
                 "false_positives", "last", "history")

    def __init__(self, m, k):
        self.m, self.k = m, k
        self.bits = bytearray(m)  # 0/1 per bit, bit 0 first
        self.entries = []
        self.entry_set = set()
        self.negative_queries = 0
        self.false_positives = 0
        self.last = None  # dict: kind, units, h1, h2, positions [(index, p, before, after)], outcome
        self.history = []  # [(kind, units, outcome)], newest first

    def clone(self):
        other = Filter.__new__(Filter)
        other.m, other.k = self.m, self.k
        other.bits = bytearray(self.bits)
        other.entries = list(self.entries)
        other.entry_set = set(self.entry_set)
        other.negative_queries, other.false_positives = self.negative_queries, self.false_positives
        other.last = self.last  # never mutated in place
        other.history = list(self.history)
        return other

    def positions(self, units):
        h1, h2 = base_hashes(units)
        return h1, h2, positions_from(h1, h2, self.m, self.k)

    # [5.8]
    def record(self, kind, units, h1, h2, positions, before, outcome):
        self.last = {
            "kind": kind, "units": units, "h1": h1, "h2": h2, "outcome": outcome,
            "positions": tuple((i, p, bool(before[p]), bool(self.bits[p])) for i, p in enumerate(positions)),
        }
        self.history.insert(0, (kind, units, outcome))
        del self.history[HISTORY_CAP:]

    # [5.3]
    def commit_insert(self, units):
        h1, h2, positions = self.positions(units)
        before = bytes(self.bits)
        is_new = units not in self.entry_set
        if is_new:
            for p in positions:
                self.bits[p] = 1
            self.entries.append(units)
            self.entry_set.add(units)
            self.negative_queries = self.false_positives = 0
        outcome = "new" if is_new else "duplicate"
        self.record("insert", units, h1, h2, positions, before, outcome)
        return outcome

    # [5.4]
    def commit_query(self, units):
        h1, h2, positions = self.positions(units)
        if units in self.entry_set:
            outcome = "truly_present"
        elif all(self.bits[p] for p in positions):
            outcome = "false_positive"
            self.negative_queries = min(self.negative_queries + 1, COUNTER_MAX)
            self.false_positives = min(self.false_positives + 1, COUNTER_MAX)
        else:
            outcome = "definitely_absent"
            self.negative_queries = min(self.negative_queries + 1, COUNTER_MAX)
        self.record("query", units, h1, h2, positions, self.bits, outcome)
        return outcome

    def add_silently(self, units):
        """Import replay of a prefix entry: set its bits and append it, nothing recorded."""
        for p in self.positions(units)[2]:
            self.bits[p] = 1
        self.entries.append(units)
        self.entry_set.add(units)


class Session:
    def __init__(self):
        self.drafts = {"m": tuple(to_units("64")), "k": tuple(to_units("3")), "insert": (), "query": ()}
        self.panels = {"positions": False, "model": False}
        self.active = None

    def clone(self):
        other = Session.__new__(Session)
        other.drafts = dict(self.drafts)
        other.panels = dict(self.panels)
        other.active = self.active.clone() if self.active is not None else None
        return other

    def replace_with(self, other):
        self.drafts, self.panels, self.active = other.drafts, other.panels, other.active

    # -------------------------------------------------------------- [5] operations

    def set_draft(self, field, units):
        if len(units) > DRAFT_MAX_UNITS:
            raise SessionError("too_long", f"{field} draft: {len(units)} UTF-16 code units, at most {DRAFT_MAX_UNITS}")
        self.drafts[field] = units
        if field in ("m", "k") and self.active is not None:
            value = self.active.m if field == "m" else self.active.k
            if not denotes(units, value):
                self.active = None

    def _parse_draft(self, field, lo, hi):
        units = self.drafts[field]
        text = from_units(units)
        if not units or not all(0x30 <= u <= 0x39 for u in units):
            raise SessionError("invalid_draft", f"{field}: draft {json.dumps(text, ensure_ascii=False)} is not a decimal "
                                                "integer (ASCII digits 0-9 only: no sign, spaces, decimal point or exponent)")
        value = int(text)
        if not lo <= value <= hi:
            raise SessionError("out_of_range", f"{field} = {text.lstrip('0') or '0'} is out of range: "
                                               f"must be an integer in {lo}..={hi}")
        return value

    def create(self):
        m = self._parse_draft("m", M_MIN, M_MAX)
        k = self._parse_draft("k", K_MIN, K_MAX)
        self.active = Filter(m, k)

    def _require_filter(self, op):
        if self.active is None:
            raise SessionError("no_active_filter", f"{op}: no active filter; create the filter first")
        return self.active

    @staticmethod
    def _check_string(op, units):
        if len(units) == 0:
            raise SessionError("empty_string", f"{op}: empty string; strings have 1..={MAX_UNITS} UTF-16 code units")
        if len(units) > MAX_UNITS:
            raise SessionError("too_long", f"{op}: {len(units)} UTF-16 code units, at most {MAX_UNITS}")

    def insert(self, units, op="insert"):
        f = self._require_filter(op)
        self._check_string(op, units)
        if units not in f.entry_set and len(f.entries) >= MAX_ENTRIES:
            raise SessionError("too_many_entries",
                               f"{op}: the filter already keeps {MAX_ENTRIES} distinct strings, at most {MAX_ENTRIES}; "
                               "a new distinct string is rejected (a duplicate is still accepted)")
        return f.commit_insert(units)

    def query(self, units):
        f = self._require_filter("query")
        self._check_string("query", units)
        return f.commit_query(units)

    def insert_example(self):
        f = self._require_filter("insert_example")
        missing = sum(1 for s in EXAMPLE if s not in f.entry_set)
        if len(f.entries) + missing > MAX_ENTRIES:
            raise SessionError("too_many_entries",
                               f"insert_example: {len(f.entries)} entries + {missing} new example strings "
                               f"exceed {MAX_ENTRIES}")
        for s in EXAMPLE:
            f.commit_insert(s)

    def reset(self):
        f = self._require_filter("reset")
        self.active = Filter(f.m, f.k)

    def set_panel(self, panel, is_open):
        self.panels[panel] = is_open

    # -------------------------------------------------------------- [6] helpers

    def insert_many(self, prefix, count):
        if count == 0:
            return
        work = self.clone()
        for i in range(count):
            try:
                work.insert(prefix + tuple(to_units(str(i))))
            except SessionError as e:
                raise SessionError(e.kind, f"insert_many at {i}: {e.message}") from None
        self.replace_with(work)

    def roundtrip(self):
        fresh = Session()
        fresh.import_text(self.export())
        self.replace_with(fresh)

    def import_padded(self, size):
        text = self.export()
        length = len(text.encode("utf-8"))
        if length > size:
            raise MalformedStep(f"import_padded: the export is already {length} bytes, more than {size}")
        self.import_text(text + " " * (size - length))

    def save_local(self, units, fill=None):
        """The `save_local` step (sections 6 and 11): the local-save rule applied to a
        state of exactly `units` UTF-16 code units made of `fill` (absent: "x"), with
        the current export as the previous copy."""
        previous = self.export()
        return save_local(save_state(units, fill), previous)

    # -------------------------------------------------------------- [7] view

    def view(self):
        f = self.active
        drafts = {name: from_units(self.drafts[name]) for name in DRAFT_FIELDS}
        panels = {name: self.panels[name] for name in PANELS}
        if f is None:
            return {"active": False, "params": None, "drafts": drafts, "bits": None, "bits_set": 0,
                    "distinct_entries": 0, "counters": {"negative_queries": 0, "false_positives": 0},
                    "rate": {"state": "undefined"}, "last_operation": None, "history": [],
                    "panels": panels, "estimates": None}
        if f.negative_queries == 0:
            rate = {"state": "undefined"}
        else:
            rate = {"state": "defined", "false_positives": f.false_positives,
                    "negative_queries": f.negative_queries,
                    "value": f.false_positives / f.negative_queries}
        bits = "".join("1" if b else "0" for b in f.bits)
        return {
            "active": True,
            "params": {"m": f.m, "k": f.k},
            "drafts": drafts,
            "bits": bits,
            "bits_set": bits.count("1"),
            "distinct_entries": len(f.entries),
            "counters": {"negative_queries": f.negative_queries, "false_positives": f.false_positives},
            "rate": rate,
            "last_operation": _last_view(f.last) if f.last is not None else None,
            "history": [{"kind": kind, "units": list(units), "display": display(units), "outcome": outcome}
                        for kind, units, outcome in f.history],
            "panels": panels,
            "estimates": estimates_object(f.m, f.k, len(f.entries)),
        }

    # -------------------------------------------------------------- [9] export

    def export(self):
        f = self.active
        dumps = _compact
        if f is None:
            params, entries, counters, last, history = None, [], {"negative_queries": 0, "false_positives": 0}, None, []
        else:
            params = {"m": f.m, "k": f.k}
            entries = [write_text(e) for e in f.entries]
            counters = {"negative_queries": f.negative_queries, "false_positives": f.false_positives}
            last = None
            if f.last is not None:
                lv = _last_view(f.last)
                last = {"kind": lv["kind"], "value": write_text(f.last["units"]), "display": lv["display"],
                        "h1": lv["h1"], "h2": lv["h2"], "positions": lv["positions"], "outcome": lv["outcome"]}
            history = [{"kind": kind, "value": write_text(units), "outcome": outcome}
                       for kind, units, outcome in f.history]

        def array(items):
            if not items:
                return "[]"
            return "[\n" + ",\n".join("    " + dumps(x) for x in items) + "\n  ]"

        fields = [
            ("format", dumps(FORMAT)), ("version", dumps(FORMAT_VERSION)), ("protocol", dumps(PROTOCOL)),
            ("params", dumps(params)),
            ("drafts", dumps({name: from_units(self.drafts[name]) for name in DRAFT_FIELDS})),
            ("entries", array(entries)), ("counters", dumps(counters)),
            ("last_operation", dumps(last)), ("history", array(history)),
            ("panels", dumps({name: self.panels[name] for name in PANELS})),
        ]
        return "{\n" + ",\n".join(f"  {json.dumps(name)}: {value}" for name, value in fields) + "\n}\n"

    # -------------------------------------------------------------- [10] import

    def import_text(self, text):
        self.replace_with(parse_session(text))


def _compact(value):
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def _last_view(last):
    units = last["units"]
    return {"kind": last["kind"], "units": list(units), "display": display(units),
            "h1": last["h1"], "h2": last["h2"],
            "positions": [{"index": i, "position": p, "before": b, "after": a} for i, p, b, a in last["positions"]],
            "outcome": last["outcome"]}


_ESTIMATES = {}


def estimates_object(m, k, n):
    """[8] clamped, memoised; reference key order."""
    m, k, n = min(max(m, M_MIN), M_MAX), min(max(k, K_MIN), K_MAX), min(max(n, 0), MAX_ENTRIES)
    key = (m, k, n)
    if key not in _ESTIMATES:
        _ESTIMATES[key] = {"m": m, "k": k, "n": n, "classic": est.classic(m, k, n),
                           "finite_m": est.finite_m(m, k, n), "exact": est.exact(m, k, n),
                           "optimal_k": est.optimal_k(m, n)}
    return dict(_ESTIMATES[key])


# ------------------------------------------------------------------ [10] import, in detail

class _NegativeZero(int):
    """The JSON token -0: an integer 0 that is not a non-negative integer literal."""


class _Pairs(dict):
    """A parsed JSON object that remembers whether a key appeared twice."""
    duplicate_key = None


def _object_pairs(pairs):
    obj = _Pairs()
    for key, value in pairs:
        if key in obj and obj.duplicate_key is None:
            obj.duplicate_key = key
        obj[key] = value
    return obj


def _reject_constant(name):
    raise ValueError(f"{name} is not JSON")


class _NumberOutOfRange(ValueError):
    """[10] step 2: a number that a double cannot hold (it rounds to infinity) is a syntax error."""


def _check_range(token):
    if math.isinf(float(token)):
        raise _NumberOutOfRange(f"number out of range: {token[:20]}{'...' if len(token) > 20 else ''} "
                                "is too large for a double")


def _parse_int(token):
    _check_range(token)
    if token == "-0":
        return _NegativeZero(0)
    if len(token) > 40:  # beyond every bound of the format; avoids Python's int-digits limit
        return -(2 ** 130) if token.startswith("-") else 2 ** 130
    return int(token)


def _parse_float(token):
    _check_range(token)
    return float(token)


def lone_surrogate_message(unit):
    """[10] step 2: what a \\u escape of an unpaired surrogate is (the three implementations agree)."""
    if 0xD800 <= unit <= 0xDBFF:
        what = "a high (leading) surrogate not followed by a low (trailing) one"
    else:
        what = "a low (trailing) surrogate not preceded by a high (leading) one"
    return (f"lone surrogate in a \\u escape: \\u{unit:04x} is {what}; "
            "write a string with an unpaired surrogate as an array of code units")


def _first_lone(s):
    """The first unpaired surrogate of a decoded string (json joins escaped pairs), or None."""
    i = 0
    while i < len(s):
        c = ord(s[i])
        if 0xD800 <= c <= 0xDBFF and i + 1 < len(s) and 0xDC00 <= ord(s[i + 1]) <= 0xDFFF:
            i += 2
            continue
        if 0xD800 <= c <= 0xDFFF:
            return c
        i += 1
    return None


_LONE = re.compile("[\ud800-\udfff]")


def _walk_strings(value):
    if type(value) is str:
        yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from _walk_strings(item)
    elif type(value) is list:
        for item in value:
            yield from _walk_strings(item)


def _parse_json(text):
    """Stage A, step 2: strict RFC 8259."""
    try:
        value = json.loads(text, object_pairs_hook=_object_pairs, parse_constant=_reject_constant,
                           parse_int=_parse_int, parse_float=_parse_float)
    except json.JSONDecodeError as e:
        raise SessionError("syntax", f"JSON syntax error at line {e.lineno}, column {e.colno}: {e.msg}") from None
    except (ValueError, RecursionError) as e:
        raise SessionError("syntax", f"JSON syntax error: {e}") from None
    if _depth_over(value, MAX_DEPTH):
        raise SessionError("syntax", f"JSON syntax error: nesting deeper than {MAX_DEPTH} arrays and objects")
    for s in _walk_strings(value):
        if _LONE.search(s):
            raise SessionError("syntax", "JSON syntax error: " + lone_surrogate_message(_first_lone(s)))
    return value


def _first_duplicate(value, path="session"):
    """[10] step 3: the path of the first key that appears twice in one object, at any depth, or None."""
    stack = [(value, path)]
    while stack:
        item, where = stack.pop()
        if isinstance(item, dict):
            if getattr(item, "duplicate_key", None) is not None:
                return f"{where}.{item.duplicate_key}"
            stack.extend(reversed([(child, f"{where}.{key}") for key, child in item.items()]))
        elif type(item) is list:
            stack.extend(reversed([(child, f"{where}[{i}]") for i, child in enumerate(item)]))
    return None


def _depth_over(value, limit):
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (dict, list)):
            if depth > limit:
                return True
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return False


def _is_uint(value, limit):
    # Exactly int: not bool, and not _NegativeZero (`-0` is written with a sign: step 5).
    return type(value) is int and 0 <= value <= limit


class _Invalid(Exception):
    def __init__(self, path, what):
        super().__init__(f"{path}: {what}")


def _obj(value, path, fields, optional=()):
    """An object with exactly `fields` (those in `optional` may be missing), no duplicate key."""
    if not isinstance(value, dict):
        raise _Invalid(path, "expected an object")
    if getattr(value, "duplicate_key", None) is not None:
        raise _Invalid(path, f"the key {value.duplicate_key!r} appears twice")
    unknown = [key for key in value if key not in fields]
    if unknown:
        raise _Invalid(path, f"unknown field {unknown[0]!r}")
    for key in fields:
        if key not in value and key not in optional:
            raise _Invalid(path, f"missing field {key!r}")
    return value


def _text(value, path):
    units = read_text(value, path)
    if units is None:
        raise _Invalid(path, "expected a string or an array of code units 0..=65535")
    return units


def _check_shape(doc):
    """Stage C, step 6: the shape of version 1 (raises _Invalid)."""
    _obj(doc, "session", ("format", "version", "protocol", "params", "drafts", "entries", "counters",
                          "last_operation", "history", "panels"), optional=("params", "last_operation"))
    if type(doc["protocol"]) is not str:
        raise _Invalid("protocol", "expected a string")
    params = doc.get("params")
    if params is not None:
        _obj(params, "params", ("m", "k"))
        for key in ("m", "k"):
            if not _is_uint(params[key], 0xFFFFFFFF):
                raise _Invalid(f"params.{key}", "expected an integer 0..=4294967295")
    drafts = _obj(doc["drafts"], "drafts", DRAFT_FIELDS)
    for key in DRAFT_FIELDS:
        if type(drafts[key]) is not str:
            raise _Invalid(f"drafts.{key}", "expected a string")
    if type(doc["entries"]) is not list:
        raise _Invalid("entries", "expected an array")
    for i, entry in enumerate(doc["entries"]):
        _text(entry, f"entries[{i}]")
    counters = _obj(doc["counters"], "counters", ("negative_queries", "false_positives"))
    for key in ("negative_queries", "false_positives"):
        if not _is_uint(counters[key], 2 ** 64 - 1):
            raise _Invalid(f"counters.{key}", "expected an integer 0..=18446744073709551615")
    last = doc.get("last_operation")
    if last is not None:
        _obj(last, "last_operation", ("kind", "value", "display", "h1", "h2", "positions", "outcome"))
        if last["kind"] not in ("insert", "query"):
            raise _Invalid("last_operation.kind", 'expected "insert" or "query"')
        _text(last["value"], "last_operation.value")
        if type(last["display"]) is not str:
            raise _Invalid("last_operation.display", "expected a string")
        for key in ("h1", "h2"):
            if not _is_uint(last[key], 0xFFFFFFFF):
                raise _Invalid(f"last_operation.{key}", "expected an integer 0..=4294967295")
        if type(last["positions"]) is not list:
            raise _Invalid("last_operation.positions", "expected an array")
        for i, item in enumerate(last["positions"]):
            where = f"last_operation.positions[{i}]"
            _obj(item, where, ("index", "position", "before", "after"))
            if not _is_uint(item["index"], 255):
                raise _Invalid(f"{where}.index", "expected an integer 0..=255")
            if not _is_uint(item["position"], 65535):
                raise _Invalid(f"{where}.position", "expected an integer 0..=65535")
            for key in ("before", "after"):
                if type(item[key]) is not bool:
                    raise _Invalid(f"{where}.{key}", "expected a boolean")
        if last["outcome"] not in INSERT_OUTCOMES + QUERY_OUTCOMES:
            raise _Invalid("last_operation.outcome", "not an outcome name")
    if type(doc["history"]) is not list:
        raise _Invalid("history", "expected an array")
    for i, item in enumerate(doc["history"]):
        where = f"history[{i}]"
        _obj(item, where, ("kind", "value", "outcome"))
        if item["kind"] not in ("insert", "query"):
            raise _Invalid(f"{where}.kind", 'expected "insert" or "query"')
        _text(item["value"], f"{where}.value")
        if item["outcome"] not in INSERT_OUTCOMES + QUERY_OUTCOMES:
            raise _Invalid(f"{where}.outcome", "not an outcome name")
    panels = _obj(doc["panels"], "panels", PANELS)
    for key in PANELS:
        if type(panels[key]) is not bool:
            raise _Invalid(f"panels.{key}", "expected a boolean")


def parse_session(text):
    """[10] Import: a new Session, or SessionError.  Stages A to D in order."""
    # Stage A
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > IMPORT_MAX_BYTES:
        raise SessionError("too_large", f"file is {size} bytes, at most {IMPORT_MAX_BYTES}")
    doc = _parse_json(text)
    try:
        # Stage B
        duplicate = _first_duplicate(doc)
        if duplicate is not None:
            raise _Invalid(duplicate, "this key appears twice in one object (every key is unique)")
        if not isinstance(doc, dict):
            raise _Invalid("session", "expected a JSON object")
        if "format" not in doc or type(doc["format"]) is not str:
            raise _Invalid("format", "missing or not a string")
        if doc["format"] != FORMAT:
            raise _Invalid("format", f"expected {FORMAT!r}, got {doc['format']!r}")
        version = doc.get("version")
        if type(version) is not int or not 0 <= version < 2 ** 64:
            raise _Invalid("version", "missing or not a non-negative integer")
        if version != FORMAT_VERSION:
            raise SessionError("unsupported_version", f"version: unsupported session format version {version}; "
                                                      f"this reader knows versions 1..={FORMAT_VERSION}")
        # Stage C
        _check_shape(doc)
        # Stage D
        return _apply_rules(doc)
    except _Invalid as e:
        raise SessionError("invalid", str(e)) from None


def _apply_rules(doc):
    # 7
    if doc["protocol"] != PROTOCOL:
        raise _Invalid("protocol", f"expected {PROTOCOL!r}, got {doc['protocol']!r}")
    # 8
    drafts = {key: tuple(to_units(doc["drafts"][key])) for key in DRAFT_FIELDS}
    for key in DRAFT_FIELDS:
        if len(drafts[key]) > DRAFT_MAX_UNITS:
            raise SessionError("too_long", f"drafts.{key}: {len(drafts[key])} code units, at most {DRAFT_MAX_UNITS}")
    session = Session()
    session.drafts = drafts
    session.panels = {key: doc["panels"][key] for key in PANELS}
    entries = [_text(e, f"entries[{i}]") for i, e in enumerate(doc["entries"])]
    counters = doc["counters"]
    last = doc.get("last_operation")
    history = [(item["kind"], _text(item["value"], f"history[{i}].value"), item["outcome"])
               for i, item in enumerate(doc["history"])]
    params = doc.get("params")
    # 9
    if params is None:
        if entries:
            raise _Invalid("entries", "must be empty with no filter (params null)")
        if counters["negative_queries"] or counters["false_positives"]:
            raise _Invalid("counters", "must be 0/0 with no filter (params null)")
        if last is not None:
            raise _Invalid("last_operation", "must be null with no filter (params null)")
        if history:
            raise _Invalid("history", "must be empty with no filter (params null)")
        return session
    m, k = params["m"], params["k"]
    # 10
    if not M_MIN <= m <= M_MAX:
        raise SessionError("out_of_range", f"params.m: m = {m} is out of range: must be an integer in {M_MIN}..={M_MAX}")
    if not K_MIN <= k <= K_MAX:
        raise SessionError("out_of_range", f"params.k: k = {k} is out of range: must be an integer in {K_MIN}..={K_MAX}")
    # 11
    if not denotes(drafts["m"], m):
        raise _Invalid("drafts.m", f"the m draft does not denote params.m = {m}")
    if not denotes(drafts["k"], k):
        raise _Invalid("drafts.k", f"the k draft does not denote params.k = {k}")
    # 12
    if len(entries) > MAX_ENTRIES:
        raise SessionError("too_many_entries", f"entries: {len(entries)} entries, at most {MAX_ENTRIES}")
    seen = set()
    for i, units in enumerate(entries):
        if not units:
            raise SessionError("empty_string", f"entries[{i}]: empty string")
        if len(units) > MAX_UNITS:
            raise SessionError("too_long", f"entries[{i}]: {len(units)} code units, at most {MAX_UNITS}")
        if units in seen:
            raise _Invalid(f"entries[{i}]", "repeats an earlier entry")
        seen.add(units)
    # 13
    if counters["false_positives"] > counters["negative_queries"]:
        raise _Invalid("counters", f"false_positives = {counters['false_positives']} exceeds "
                                   f"negative_queries = {counters['negative_queries']}")
    # 14
    if len(history) > HISTORY_CAP:
        raise SessionError("too_long", f"history: {len(history)} items, at most {HISTORY_CAP}")
    for i, (kind, units, outcome) in enumerate(history):
        if not units:
            raise SessionError("empty_string", f"history[{i}].value: empty string")
        if len(units) > MAX_UNITS:
            raise SessionError("too_long", f"history[{i}].value: {len(units)} code units, at most {MAX_UNITS}")
        if outcome not in (INSERT_OUTCOMES if kind == "insert" else QUERY_OUTCOMES):
            raise _Invalid(f"history[{i}].outcome", f"{outcome!r} is not an outcome of {kind}")
    # 15
    news = [units for kind, units, outcome in reversed(history) if outcome == "new"]
    complete = len(history) < HISTORY_CAP
    split = len(entries) - len(news)
    if split < 0 or entries[split:] != news:
        raise _Invalid("history", "the new insertions of the history are not the last entries, in order")
    prefix = entries[:split]
    if complete and prefix:
        raise _Invalid("entries", f"{len(prefix)} entries are not accounted for by the (complete) history")
    # 16
    f = Filter(m, k)
    for units in prefix:
        f.add_silently(units)
    for i in range(len(history) - 1, -1, -1):
        kind, units, outcome = history[i]
        got = f.commit_insert(units) if kind == "insert" else f.commit_query(units)
        if got != outcome:
            raise _Invalid(f"history[{i}]", f"replaying it gives {got!r}, the file says {outcome!r}")
    # 17
    file_neg, file_fp = counters["negative_queries"], counters["false_positives"]
    if news or complete:
        if (file_neg, file_fp) != (f.negative_queries, f.false_positives):
            raise _Invalid("counters", f"{file_neg}/{file_fp} disagree with the history's "
                                       f"{f.negative_queries}/{f.false_positives}")
    else:
        extra_neg, extra_fp = file_neg - f.negative_queries, file_fp - f.false_positives
        # At 2^64 - 1 the counters may have saturated (5.4): the second difference is
        # then not compared with the first.
        saturated = file_neg == COUNTER_MAX
        if extra_neg < 0 or extra_fp < 0 or (extra_fp > extra_neg and not saturated):
            raise _Invalid("counters", f"{file_neg}/{file_fp} cannot extend the history's "
                                       f"{f.negative_queries}/{f.false_positives}")
    f.negative_queries, f.false_positives = file_neg, file_fp
    # 18
    if not history:
        if last is not None:
            raise _Invalid("last_operation", "must be null when the history is empty")
    else:
        if last is None:
            raise _Invalid("last_operation", "must be present when the history is not empty")
        replayed = _last_view(f.last)
        if last["kind"] != replayed["kind"]:
            raise _Invalid("last_operation.kind", "differs from history[0]")
        if _text(last["value"], "last_operation.value") != tuple(replayed["units"]):
            raise _Invalid("last_operation.value", "differs from history[0]")
        if last["outcome"] != replayed["outcome"]:
            raise _Invalid("last_operation.outcome", "differs from the replay")
        if last["display"] != replayed["display"]:
            raise _Invalid("last_operation.display", f"expected {replayed['display']!r}")
        for key in ("h1", "h2"):
            if last[key] != replayed[key]:
                raise _Invalid(f"last_operation.{key}", f"expected {replayed[key]}")
        if len(last["positions"]) != len(replayed["positions"]):
            raise _Invalid("last_operation.positions", f"expected {k} items")
        for i, (got, want) in enumerate(zip(last["positions"], replayed["positions"])):
            for key in ("index", "position", "before", "after"):
                if got[key] != want[key] or type(got[key]) is not type(want[key]):
                    raise _Invalid(f"last_operation.positions[{i}].{key}", f"expected {want[key]!r}")
    # 19
    session.active = f
    return session


# ------------------------------------------------------------------ [6], [12] scripts

def _step_keys(step, required, optional=()):
    extra = [key for key in step if key not in ("op",) + required + optional]
    missing = [key for key in required if key not in step]
    if extra or missing:
        raise MalformedStep(f"step {step.get('op')!r}: unexpected keys {extra} / missing keys {missing}")


def _well_formed(text):
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _step_text(step, key):
    units = read_text(step[key], key)
    if units is None:
        raise MalformedStep(f"step {step['op']!r}: {key} must be a string or an array of code units")
    return units


def _step_uint(step, key):
    value = step[key]
    if type(value) is not int or value < 0:
        raise MalformedStep(f"step {step['op']!r}: {key} must be a non-negative integer")
    return value


def run_step(session, step):
    """Apply one script step; returns the extra keys of its answer (`save`, `export`)
    or None; raises SessionError."""
    if type(step) is not dict or type(step.get("op")) is not str:
        raise MalformedStep("a step is an object with an \"op\"")
    op = step["op"]
    if op == "set_draft":
        _step_keys(step, ("field", "value"))
        if step["field"] not in DRAFT_FIELDS:
            raise MalformedStep(f"set_draft: unknown field {step['field']!r}")
        value = step["value"]
        if type(value) is not str or not _well_formed(value):
            raise MalformedStep("set_draft: the value is a string of well-formed text "
                                "(SESSION.md section 9: drafts never hold a lone surrogate)")
        session.set_draft(step["field"], _step_text(step, "value"))
    elif op == "create":
        _step_keys(step, ())
        session.create()
    elif op == "insert":
        _step_keys(step, ("value",))
        session.insert(_step_text(step, "value"))
    elif op == "query":
        _step_keys(step, ("value",))
        session.query(_step_text(step, "value"))
    elif op == "insert_example":
        _step_keys(step, ())
        session.insert_example()
    elif op == "reset":
        _step_keys(step, ())
        session.reset()
    elif op == "set_panel":
        _step_keys(step, ("panel", "open"))
        if step["panel"] not in PANELS or type(step["open"]) is not bool:
            raise MalformedStep("set_panel: panel is positions or model, open a boolean")
        session.set_panel(step["panel"], step["open"])
    elif op == "insert_many":
        _step_keys(step, ("prefix", "count"))
        prefix, count = _step_text(step, "prefix"), _step_uint(step, "count")
        if count > 0:
            session._require_filter("insert_many")
        session.insert_many(prefix, count)
    elif op == "roundtrip":
        _step_keys(step, ())
        session.roundtrip()
    elif op == "import":
        _step_keys(step, ("document",))
        session.import_text(json.dumps(step["document"], separators=(",", ":"), ensure_ascii=False))
    elif op == "import_text":
        _step_keys(step, ("text",))
        if type(step["text"]) is not str:
            raise MalformedStep("import_text: text must be a string")
        session.import_text(step["text"])
    elif op == "import_padded":
        _step_keys(step, ("bytes",))
        session.import_padded(_step_uint(step, "bytes"))
    elif op == "save_local":
        _step_keys(step, ("units",), ("fill",))
        fill = step.get("fill")
        if "fill" in step and (type(fill) is not str or fill == "" or not _well_formed(fill)):
            raise MalformedStep("save_local: fill must be a non-empty string")
        return {"save": session.save_local(_step_uint(step, "units"), fill)}
    elif op == "export":
        _step_keys(step, ())
        return {"export": session.export()}
    else:
        raise MalformedStep(f"unknown step op {op!r}")
    return None


def run_script(script):
    """The adapter's `session` answer (section 12)."""
    session = Session()
    answer = {"initial": session.view(), "steps": []}
    for step in script:
        entry = {}
        try:
            extra = run_step(session, step)
            if extra is not None:
                entry.update(extra)
        except SessionError as e:
            entry["error"] = {"kind": e.kind, "message": e.message}
        entry["view"] = session.view()
        answer["steps"].append(entry)
    return answer
