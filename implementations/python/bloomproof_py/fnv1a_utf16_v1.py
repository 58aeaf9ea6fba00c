"""fnv1a-utf16-v1: the deterministic, non-cryptographic teaching filter's hashing.

Written from spec/fnv1a-utf16-v1/PROTOCOL.md and seed 002.

32-bit FNV-1a over UTF-16 code units (not bytes): h = basis; for each unit u:
h = (h XOR u) * 16777619 mod 2^32.  h1 uses basis 2166136261, h2 basis 0xdeadbeef and
is then forced odd.  Positions are (h1 + i*h2) mod m for i in 0..k, computed exactly
(Python ints never wrap), repeats kept in order.
"""

PROTOCOL = "fnv1a-utf16-v1"
FNV_PRIME = 16777619
BASIS_H1 = 2166136261
BASIS_H2 = 0xDEADBEEF
MASK32 = 0xFFFFFFFF
M_MIN, M_MAX = 8, 1024
K_MIN, K_MAX = 1, 12
UNITS_MIN, UNITS_MAX = 1, 256
MAX_ENTRIES = 1024


class ContractValueError(ValueError):
    """A parameter outside its bounds; `field` names it (m, k, units)."""

    def __init__(self, field, message):
        super().__init__(f"{field}: {message}")
        self.field = field


def to_units(text):
    """UTF-16 code units of a Python str.  Lone surrogates (str can hold them) pass
    through as themselves; every other code point is encoded as UTF-16."""
    units = []
    for ch in text:
        cp = ord(ch)
        if cp >= 0x10000:
            cp -= 0x10000
            units.append(0xD800 | (cp >> 10))
            units.append(0xDC00 | (cp & 0x3FF))
        else:
            units.append(cp)
    return units


def code_points(units):
    """The code points these code units hold, in order: a valid surrogate pair is one
    code point, a lone surrogate stays itself."""
    i, n = 0, len(units)
    while i < n:
        u = units[i]
        if 0xD800 <= u <= 0xDBFF and i + 1 < n and 0xDC00 <= units[i + 1] <= 0xDFFF:
            yield 0x10000 + ((u - 0xD800) << 10) + (units[i + 1] - 0xDC00)
            i += 2
        else:
            yield u
            i += 1


def from_units(units):
    """A Python str holding exactly these code units: valid surrogate pairs are joined
    into one code point, lone surrogates stay as themselves."""
    return "".join(map(chr, code_points(units)))


def is_well_formed(units):
    """True when the code units hold no lone surrogate (they are valid UTF-16)."""
    return not any(0xD800 <= c <= 0xDFFF for c in code_points(units))


def check_units(units):
    if type(units) not in (list, tuple) or not all(type(u) is int and 0 <= u <= 0xFFFF for u in units):
        raise TypeError("units must be a sequence of integers 0..=65535")


def fnv1a(units, basis):
    h = basis
    for u in units:
        h = ((h ^ u) * FNV_PRIME) & MASK32
    return h


def base_hashes(units):
    """(h1, h2): h2 forced odd."""
    return fnv1a(units, BASIS_H1), fnv1a(units, BASIS_H2) | 1


def check_params(m, k):
    if type(m) is not int or not M_MIN <= m <= M_MAX:
        raise ContractValueError("m", f"must be an integer in {M_MIN}..={M_MAX}, got {m!r}")
    if type(k) is not int or not K_MIN <= k <= K_MAX:
        raise ContractValueError("k", f"must be an integer in {K_MIN}..={K_MAX}, got {k!r}")


def positions_from(h1, h2, m, k):
    return [(h1 + i * h2) % m for i in range(k)]


def positions(m, k, units):
    """(h1, h2, [positions]) for validated m, k."""
    check_params(m, k)
    h1, h2 = base_hashes(units)
    return h1, h2, positions_from(h1, h2, m, k)
