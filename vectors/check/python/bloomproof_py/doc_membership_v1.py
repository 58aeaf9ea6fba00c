"""doc-membership-v1: a byte-exact Bloom prefilter in front of an exact set.

Written from PROTOCOLS.md ("Protocol 1") and seed 000 (its contract and self_check).

Hash message for hash index i (integers big-endian):

    b"doc-membership-v1\\x00"   18 bytes
    m                          2 bytes
    k                          1 byte
    len(seed)                  1 byte
    seed                       0..16 bytes
    i                          1 byte
    len(item)                  2 bytes
    item                       0..64 bytes

position_i = int(SHA-256(message_i), big-endian) mod m.  Logical bit p is 1 << p;
packed_bits() is that m-bit integer as ceil(m/8) little-endian bytes.
"""
from dataclasses import FrozenInstanceError
import hashlib

PROTOCOL = "doc-membership-v1"
DOMAIN = b"doc-membership-v1\x00"
M_MIN, M_MAX = 8, 512
K_MIN, K_MAX = 1, 8
SEED_MAX = 16
ITEM_MAX = 64
RECORDS_MAX = 64


class ContractTypeError(TypeError):
    """A value of the wrong kind.  `field` names the argument (m, k, seed, records, records[i], item)."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


class ContractValueError(ValueError):
    """A value of the right kind outside its bounds.  `field` names the argument."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


def _kind(value):
    return type(value).__name__


# ---------------------------------------------------------------- validation
# Exact types only: type(x) is int / bytes / tuple, so bool, int subclasses, bytearray,
# memoryview and str are all the wrong kind (no implicit conversion anywhere).

def check_params(m, k, seed):
    """Source order: m and k types, m and k bounds, seed type, seed length."""
    if type(m) is not int:
        raise ContractTypeError("m", f"must be exact int, got {_kind(m)} (no implicit conversion)")
    if type(k) is not int:
        raise ContractTypeError("k", f"must be exact int, got {_kind(k)} (no implicit conversion)")
    if not M_MIN <= m <= M_MAX:
        raise ContractValueError("m", f"must be in {M_MIN}..={M_MAX}, got {m}")
    if not K_MIN <= k <= K_MAX:
        raise ContractValueError("k", f"must be in {K_MIN}..={K_MAX}, got {k}")
    if type(seed) is not bytes:
        raise ContractTypeError("seed", f"must be exact bytes, got {_kind(seed)}")
    if len(seed) > SEED_MAX:
        raise ContractValueError("seed", f"at most {SEED_MAX} bytes, got {len(seed)}")


def check_item(item, field="item"):
    if type(item) is not bytes:
        raise ContractTypeError(field, f"must be exact bytes, got {_kind(item)} (no implicit encoding)")
    if len(item) > ITEM_MAX:
        raise ContractValueError(field, f"at most {ITEM_MAX} bytes, got {len(item)}")
    return item


def check_records(records):
    """Records type, then count (before de-duplication), then each record in order."""
    if type(records) is not tuple:
        raise ContractTypeError("records", f"must be an exact tuple, got {_kind(records)}")
    if len(records) > RECORDS_MAX:
        raise ContractValueError("records", f"at most {RECORDS_MAX} records before de-duplication, got {len(records)}")
    for index, record in enumerate(records):
        check_item(record, f"records[{index}]")


# ---------------------------------------------------------------- hashing

def sha256(data):
    return hashlib.sha256(data).digest()


def message(m, k, seed, index, item):
    """The framed message of hash index `index` (no validation: callers validate)."""
    return b"".join((
        DOMAIN,
        m.to_bytes(2, "big"),
        k.to_bytes(1, "big"),
        len(seed).to_bytes(1, "big"),
        seed,
        index.to_bytes(1, "big"),
        len(item).to_bytes(2, "big"),
        item,
    ))


def position_of_digest(digest, m):
    return int.from_bytes(digest, "big") % m


def stages(m, k, seed, item):
    """[(message, digest, position)] for i in 0..k, validating the inputs."""
    check_params(m, k, seed)
    check_item(item)
    out = []
    for index in range(k):
        msg = message(m, k, seed, index, item)
        digest = sha256(msg)
        out.append((msg, digest, position_of_digest(digest, m)))
    return out


def _positions_unchecked(m, k, seed, item):
    return tuple(position_of_digest(sha256(message(m, k, seed, i, item)), m) for i in range(k))


def positions(m, k, seed, item):
    """The k positions in hash-index order, repeats kept."""
    check_params(m, k, seed)
    check_item(item)
    return _positions_unchecked(m, k, seed, item)


def pack_bits(bits, m):
    return bits.to_bytes((m + 7) // 8, "little")


# ---------------------------------------------------------------- the snapshot

class DocumentPrefilter:
    """An immutable snapshot: m, k, seed, the bits and the exact set, fixed at construction.

    DocumentPrefilter(records, m=64, k=3, seed=b"") with records an exact tuple of exact
    bytes.  Nothing is added, removed or imported afterwards; build a new snapshot instead.

    The state lives in private slots whose descriptors are removed from the class right
    after it is defined (see below), so neither `snapshot.x = ...`, `del snapshot.x`,
    `object.__setattr__(snapshot, ...)` nor `vars(snapshot)` reaches it; the public
    fields are read-only properties that hand out immutable values (int, bytes,
    frozenset).  Assignment raises dataclasses.FrozenInstanceError, as in the seed.
    """

    __slots__ = ("_m", "_k", "_seed", "_bits", "_documents")

    def __init__(self, records, m=64, k=3, seed=b""):
        check_params(m, k, seed)
        check_records(records)
        documents = frozenset(records)
        bits = 0
        for document in documents:
            for position in _positions_unchecked(m, k, seed, document):
                bits |= 1 << position
        for name, value in (("_m", m), ("_k", k), ("_seed", seed),
                            ("_bits", bits), ("_documents", documents)):
            if _slot_get_default(self, name) is not _UNSET:
                raise FrozenInstanceError("snapshot already constructed")
            _SLOTS[name].__set__(self, value)

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}: the snapshot is immutable")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}: the snapshot is immutable")

    # read-only fields
    m = property(lambda self: _SLOTS["_m"].__get__(self), doc="number of bits, 8..=512")
    k = property(lambda self: _SLOTS["_k"].__get__(self), doc="number of hash indices, 1..=8")
    seed = property(lambda self: _SLOTS["_seed"].__get__(self), doc="the seed (bytes, 0..=16)")
    bits = property(lambda self: _SLOTS["_bits"].__get__(self), doc="the filter as an int; bit p is 1 << p")
    documents = property(lambda self: _SLOTS["_documents"].__get__(self), doc="the exact set (frozenset of bytes)")

    def maybe_present(self, item):
        """All k bits of `item` are set."""
        check_item(item)
        bits = self.bits
        return all(bits >> p & 1 for p in _positions_unchecked(self.m, self.k, self.seed, item))

    def lookup(self, item):
        """{'maybe_present', 'exact_checked', 'duplicate'}: the exact set is consulted only after a positive."""
        maybe = self.maybe_present(item)
        return {"maybe_present": maybe,
                "exact_checked": maybe,
                "duplicate": (item in self.documents) if maybe else False}

    def packed_bits(self):
        """ceil(m/8) little-endian bytes; logical bit 0 is the least significant bit of byte 0."""
        return pack_bits(self.bits, self.m)

    def __eq__(self, other):
        if type(other) is not DocumentPrefilter:
            return NotImplemented
        return (self.m, self.k, self.seed, self.bits, self.documents) == \
               (other.m, other.k, other.seed, other.bits, other.documents)

    def __hash__(self):
        return hash((self.m, self.k, self.seed, self.bits, self.documents))

    def __repr__(self):
        return (f"DocumentPrefilter(m={self.m}, k={self.k}, seed={self.seed!r}, "
                f"packed={self.packed_bits().hex()}, documents={len(self.documents)})")

    def __reduce__(self):
        return (DocumentPrefilter, (tuple(sorted(self.documents)), self.m, self.k, self.seed))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self


_UNSET = object()


def _slot_get_default(obj, name):
    try:
        return _SLOTS[name].__get__(obj)
    except AttributeError:
        return _UNSET


# Keep the slot descriptors privately and remove them from the class: from now on only
# this module can write the state (and only once, in __init__).
_SLOTS = {name: DocumentPrefilter.__dict__[name] for name in DocumentPrefilter.__slots__}
for _name in DocumentPrefilter.__slots__:
    delattr(DocumentPrefilter, _name)
del _name
