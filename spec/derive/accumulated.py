#!/usr/bin/env python3
"""Derives spec/accumulated.json: the accumulated digests of every protocol.

A deterministic generator (spec/README.md, "Accumulated checks", defines it byte by
byte) draws inputs from a SHA-256 counter stream; every input's outputs are fed into
one running SHA-256. This file holds the generator; what one input of a protocol is,
and which of its outputs are fed, is that protocol's derivation script's
(`accumulated_input`, `accumulated_outputs` in derive/<protocol>.py), with the same
hashing its cases are derived with. Both are written from the protocol text and the
README alone, with Python's hashlib: they share nothing with the Rust crates or with
the Python and JavaScript implementations under implementations/.

Usage: derive/accumulated.py [--check]
"""
import hashlib
import importlib
import json
from pathlib import Path

from spec_files import write_or_check

SPEC = Path(__file__).resolve().parent.parent
OUT = SPEC / "accumulated.json"
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


def protocols():
    """Every protocol of the spec (a folder of spec/ holding a checks.json), in name
    order, with its derivation script (derive/<protocol>.py, `-` as `_`), which
    defines its stream: `accumulated_input(stream)` and `accumulated_outputs(*input)`."""
    names = sorted(path.parent.name for path in SPEC.glob("*/checks.json"))
    return [(name, importlib.import_module(name.replace("-", "_"))) for name in names]


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
    for protocol, script in protocols():
        checkpoint_digest, digest = accumulate(protocol, script.accumulated_input, script.accumulated_outputs)
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
