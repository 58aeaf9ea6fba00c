"""Typed values (spec/README.md, "Typed values") -> real Python values."""
import re

_HEX = re.compile(r"(?:[0-9a-fA-F]{2})*\Z")


class MalformedTyped(Exception):
    """The typed JSON itself is unreadable (not a contract error of the implementation)."""


def hex_bytes(text, what="hex"):
    if type(text) is not str or not _HEX.match(text):
        raise MalformedTyped(f"{what}: expected hex text (pairs of hex digits), got {text!r:.80}")
    return bytes.fromhex(text)


def build(value, where="value"):
    """{"bytes": hex} -> bytes, {"str": s} -> str, {"bytearray": hex} -> bytearray,
    {"memoryview": hex} -> memoryview, {"int": n} -> int, {"bool": b} -> bool,
    {"float": x} -> float, {"tuple": [...]} -> tuple, {"list": [...]} -> list."""
    if type(value) is not dict or len(value) != 1:
        raise MalformedTyped(f"{where}: a typed value is an object with exactly one key")
    (tag, raw), = value.items()
    if tag == "bytes":
        return hex_bytes(raw, where)
    if tag == "bytearray":
        return bytearray(hex_bytes(raw, where))
    if tag == "memoryview":
        return memoryview(hex_bytes(raw, where))
    if tag == "str":
        if type(raw) is not str:
            raise MalformedTyped(f"{where}: str wants a JSON string")
        return raw
    if tag == "int":
        if type(raw) is not int:
            raise MalformedTyped(f"{where}: int wants a JSON integer")
        return raw
    if tag == "bool":
        if type(raw) is not bool:
            raise MalformedTyped(f"{where}: bool wants true or false")
        return raw
    if tag == "float":
        if type(raw) not in (int, float):
            raise MalformedTyped(f"{where}: float wants a JSON number")
        return float(raw)
    if tag in ("tuple", "list"):
        if type(raw) is not list:
            raise MalformedTyped(f"{where}: {tag} wants a JSON array")
        items = [build(v, f"{where}[{i}]") for i, v in enumerate(raw)]
        return tuple(items) if tag == "tuple" else items
    raise MalformedTyped(f"{where}: unknown typed-value tag {tag!r}")
