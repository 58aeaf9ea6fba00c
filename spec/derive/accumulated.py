#!/usr/bin/env python3
"""Derives spec/accumulated.json: the accumulated digests of both protocols.

A deterministic generator (spec/README.md, "Accumulated checks", defines it byte by
byte) draws inputs from a SHA-256 counter stream; every input's outputs are fed into
one running SHA-256. This file is written from the protocol text and the README alone,
with Python's hashlib and its own FNV-1a: it shares nothing with the Rust crates or
with the Python and JavaScript implementations under implementations/.

Usage: derive/accumulated.py [--check]
"""
import hashlib
import json
from pathlib import Path

from spec_files import write_or_check

OUT = Path(__file__).resolve().parent.parent / "accumulated.json"
GENERATOR = "bloomproof accumulated v1"
COUNT = 1 << 20
CHECKPOINT = 1 << 12
BLOCKS_PER_REFILL = 4096


class Stream:
    """The bytes SHA-256(GENERATOR || protocol || u64_be(i)) for i = 0, 1, 2, ... in order."""

    def __init__(self, protocol):
        self.prefix = GENERATOR.encode("ascii") + protocol.encode("ascii")
        self.counter = 0
        self.buf = b""
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.buf):
            blocks = [self.buf[self.pos:]]
            for i in range(self.counter, self.counter + BLOCKS_PER_REFILL):
                blocks.append(hashlib.sha256(self.prefix + i.to_bytes(8, "big")).digest())
            self.counter += BLOCKS_PER_REFILL
            self.buf = b"".join(blocks)
            self.pos = 0
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self):
        return self.take(1)[0]

    def u16(self):
        return int.from_bytes(self.take(2), "big")


def doc_input(stream):
    m = 8 + stream.u16() % 505
    k = 1 + stream.byte() % 8
    seed = stream.take(stream.byte() % 17)
    item = stream.take(stream.byte() % 65)
    return m, k, seed, item


def doc_outputs(m, k, seed, item):
    out = b""
    for i in range(k):
        message = (b"doc-membership-v1\x00" + m.to_bytes(2, "big") + bytes([k, len(seed)]) + seed
                   + bytes([i]) + len(item).to_bytes(2, "big") + item)
        position = int.from_bytes(hashlib.sha256(message).digest(), "big") % m
        out += position.to_bytes(2, "big")
    return out


def fnv_length(stream):
    t = stream.byte()
    u = stream.byte()
    if t < 192:
        return 1 + u % 16
    if t < 240:
        return 1 + u % 64
    return 1 + u


def fnv_unit(stream):
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


def fnv_input(stream):
    m = 8 + stream.u16() % 1017
    k = 1 + stream.byte() % 12
    units = [fnv_unit(stream) for _ in range(fnv_length(stream))]
    return m, k, units


def fnv(units, basis):
    h = basis
    for u in units:
        h = ((h ^ u) * 16777619) & 0xFFFFFFFF
    return h


def fnv_outputs(m, k, units):
    h1 = fnv(units, 2166136261)
    h2 = fnv(units, 0xDEADBEEF) | 1
    out = h1.to_bytes(4, "big") + h2.to_bytes(4, "big")
    for i in range(k):
        out += ((h1 + i * h2) % m).to_bytes(2, "big")
    return out


PROTOCOLS = [
    ("doc-membership-v1", doc_input, doc_outputs),
    ("fnv1a-utf16-v1", fnv_input, fnv_outputs),
]


def accumulate(protocol, make_input, outputs, count=COUNT, checkpoint=CHECKPOINT):
    stream = Stream(protocol)
    running = hashlib.sha256()
    first = None
    for n in range(count):
        running.update(outputs(*make_input(stream)))
        if n + 1 == checkpoint:
            first = running.hexdigest()
    return first, running.hexdigest()


def render():
    entries = []
    for protocol, make_input, outputs in PROTOCOLS:
        checkpoint_digest, digest = accumulate(protocol, make_input, outputs)
        entries.append({"protocol": protocol, "generator": GENERATOR, "count": COUNT, "digest": digest,
                        "checkpoint": {"count": CHECKPOINT, "digest": checkpoint_digest}})
    doc = {"format_version": 1,
           "comment": "Accumulated checks: spec/README.md, \"Accumulated checks\", defines the generator. "
                      "Written by spec/derive/accumulated.py.",
           "protocols": entries}
    return {OUT: json.dumps(doc, indent=1, ensure_ascii=True) + "\n"}


def main():
    write_or_check(render(), __file__)


if __name__ == "__main__":
    main()
