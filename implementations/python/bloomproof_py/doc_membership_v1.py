"""doc-membership-v1: a byte-exact Bloom prefilter in front of an exact set.

Written from spec/doc-membership-v1/PROTOCOL.md and seed 000 (its contract and self_check).

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

def _build_state(records, m, k, seed):
    """Validate in the contract order and compute (m, k, seed, bits, documents)."""
    check_params(m, k, seed)
    check_records(records)
    documents = frozenset(records)
    bits = 0
    for document in documents:
        for position in _positions_unchecked(m, k, seed, document):
            bits |= 1 << position
    return m, k, seed, bits, documents


def _not_a_sequence(self, *args, **kwargs):
    raise TypeError("a DocumentPrefilter is not a sequence: use its fields m, k, seed, bits, documents")


class DocumentPrefilter(tuple):
    """An immutable snapshot: m, k, seed, the bits and the exact set, fixed at construction.

    DocumentPrefilter(records, m=64, k=3, seed=b"") with records an exact tuple of exact
    bytes.  Nothing is added, removed or imported afterwards; build a new snapshot instead.

    The state is the five items of the tuple this object is (m, k, seed, bits,
    documents), every one of them immutable itself (int, bytes, frozenset).  A tuple's
    items cannot be written by any Python-level means: there are no slots or instance
    dict to reach with object.__setattr__, vars() or a layout-compatible class swapped in
    through __class__ (a tuple subclass cannot even declare slots), and gc only hands
    the immutable items out.  The public fields are read-only properties.  Assignment,
    deletion and a second __init__ with other arguments raise
    dataclasses.FrozenInstanceError, as the seed's frozen dataclass does.  The tuple
    protocol itself (len, iteration, indexing, +, *, ordering) is switched off.
    """

    __slots__ = ()

    def __new__(cls, records, m=64, k=3, seed=b""):
        return tuple.__new__(cls, _build_state(records, m, k, seed))

    def __init__(self, records, m=64, k=3, seed=b""):
        # Python calls __init__ right after __new__ with the same arguments.  A later
        # call (snapshot.__init__(...)) with arguments that describe another snapshot
        # is a re-initialisation attempt: refused (and the tuple could not change anyway).
        check_params(m, k, seed)
        check_records(records)
        if (m, k, seed, frozenset(records)) != (self.m, self.k, self.seed, self.documents):
            raise FrozenInstanceError("snapshot already constructed: build a new one instead")

    def __setattr__(self, name, value):
        raise FrozenInstanceError(f"cannot assign to field {name!r}: the snapshot is immutable")

    def __delattr__(self, name):
        raise FrozenInstanceError(f"cannot delete field {name!r}: the snapshot is immutable")

    # read-only fields
    m = property(lambda self: tuple.__getitem__(self, 0), doc="number of bits, 8..=512")
    k = property(lambda self: tuple.__getitem__(self, 1), doc="number of hash indices, 1..=8")
    seed = property(lambda self: tuple.__getitem__(self, 2), doc="the seed (bytes, 0..=16)")
    bits = property(lambda self: tuple.__getitem__(self, 3), doc="the filter as an int; bit p is 1 << p")
    documents = property(lambda self: tuple.__getitem__(self, 4), doc="the exact set (frozenset of bytes)")

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

    # Equal to another snapshot with the same state, never to a plain tuple.
    def __eq__(self, other):
        return isinstance(other, DocumentPrefilter) and tuple.__eq__(self, other)

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return tuple.__hash__(self)

    def __bool__(self):
        return True

    def __repr__(self):
        return (f"DocumentPrefilter(m={self.m}, k={self.k}, seed={self.seed!r}, "
                f"packed={self.packed_bits().hex()}, documents={len(self.documents)})")

    def __reduce__(self):
        return (DocumentPrefilter, (tuple(sorted(self.documents)), self.m, self.k, self.seed))

    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    # not a sequence, not ordered
    __len__ = __iter__ = __getitem__ = __contains__ = _not_a_sequence
    __add__ = __mul__ = __rmul__ = count = index = _not_a_sequence
    __lt__ = __le__ = __gt__ = __ge__ = lambda self, other: NotImplemented
    __getnewargs__ = _not_a_sequence


# ---------------------------------------------------------------- reading a snapshot

def read_snapshot(m, k, seed, packed_bits, records):
    """Read a snapshot given as its parts, verifying them (ADAPTER.md, "Reading a snapshot").

    The first failing check decides the error:
      1. m, k, seed, records as for construction (same errors, same order);
      2. packed_bits is exact bytes (else type error) of exactly ceil(m/8) bytes;
      3. no bit at or above m is set;
      4. each record, in the order given, has all k of its positions set
         (field records[<i>] of the first that misses one, the message names the position);
      5. no bit is set that no record sets (the message names the lowest such bit).
    Every failure names field `packed_bits` except 1 (its own fields) and 4.  The result
    is an ordinary DocumentPrefilter, equal to DocumentPrefilter(records, m, k, seed):
    a reader never answers from bits that would give a false negative.
    """
    check_params(m, k, seed)
    check_records(records)
    if type(packed_bits) is not bytes:
        raise ContractTypeError("packed_bits", f"must be exact bytes, got {_kind(packed_bits)}")
    size = (m + 7) // 8
    if len(packed_bits) != size:
        raise ContractValueError("packed_bits", f"must be exactly ceil(m/8) = {size} bytes for m={m}, got {len(packed_bits)}")
    bits = int.from_bytes(packed_bits, "little")
    if bits >> m:
        high = bits >> m
        lowest = m + (high & -high).bit_length() - 1
        raise ContractValueError("packed_bits", f"bit {lowest} is set, at or above m={m}")
    covered = 0
    for index, record in enumerate(records):
        for hash_index, position in enumerate(_positions_unchecked(m, k, seed, record)):
            if not bits >> position & 1:
                raise ContractValueError(
                    f"records[{index}]",
                    f"position {position} (hash index {hash_index}) of this record is not set in packed_bits: "
                    "reading it would give a false negative")
            covered |= 1 << position
    extra = bits & ~covered
    if extra:
        lowest = (extra & -extra).bit_length() - 1
        raise ContractValueError("packed_bits", f"bit {lowest} is set but no record sets it")
    snapshot = DocumentPrefilter(records, m, k, seed)
    if snapshot.bits != bits:  # implied by checks 3 to 5; kept as a guard
        raise AssertionError("read_snapshot: verified bits differ from the rebuilt snapshot")
    return snapshot
