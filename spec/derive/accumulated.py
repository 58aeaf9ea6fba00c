#!/usr/bin/env python3
"""Derives spec/accumulated.json: the accumulated digests of every protocol; and the
accumulated checkpoint of each version of the doc-membership family listed in VERSIONS
(a version outside spec/, as the toy doc-membership-v2 of crates/conformance/tests/).

A deterministic generator (spec/README.md, "Accumulated checks", defines it byte by
byte) draws inputs from a SHA-256 counter stream; every input's outputs are fed into
one running SHA-256. This file holds the generator; what one input of a protocol is,
and which of its outputs are fed, is that protocol's derivation script's
(`accumulated_input`, `accumulated_outputs` in derive/<protocol>.py), with the same
hashing its cases are derived with. Both are written from the protocol text and the
README alone, with Python's hashlib: they share nothing with the Rust crates or with
the Python and JavaScript implementations under implementations/.

A version of the family is its values: its name, its domain, its bounds
(doc_membership_v1.accumulated_stream draws its inputs within them and hashes under its
domain). Its file holds the checkpoint count only (count = checkpoint = 4096): the full
count is a minute of Python per version.

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
ROOT = SPEC.parent

# Versions of the doc-membership family outside spec/: (name, domain, m bounds, k
# bounds, longest seed, longest item, the accumulated.json written for it).
VERSIONS = [
    ("doc-membership-v2", b"doc-membership-v2\x00", (8, 512), (1, 8), 16, 64,
     ROOT / "crates/conformance/tests/toy_v2/spec/accumulated.json"),
]


class Stream:
    """The bytes SHA-256(GENERATOR || protocol || u64_be(i)) for i = 0, 1, 2, ... in order."""

    def __init__(self, protocol):
        self.prefix = GENERATOR.encode("ascii") + protocol.encode("ascii")
        self.counter = 0
        self.buf = b""
        self.pos = 0

    def refill(self, n):
        """Makes at least n bytes ready (the unread rest, then whole blocks)."""
        if self.pos + n > len(self.buf):
            blocks = [self.buf[self.pos:]]
            for i in range(self.counter, self.counter + BLOCKS_PER_REFILL):
                blocks.append(hashlib.sha256(self.prefix + i.to_bytes(8, "big")).digest())
            self.counter += BLOCKS_PER_REFILL
            self.buf = b"".join(blocks)
            self.pos = 0

    def take(self, n):
        self.refill(n)
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    # byte() and u16() are take(1)[0] and int.from_bytes(take(2), "big"), read in place:
    # they are most of the draws, and a slice each was most of this file's time.
    def byte(self):
        pos = self.pos
        if pos >= len(self.buf):
            self.refill(1)
            pos = self.pos
        self.pos = pos + 1
        return self.buf[pos]

    def u16(self):
        pos = self.pos
        if pos + 2 > len(self.buf):
            self.refill(2)
            pos = self.pos
        self.pos = pos + 2
        buf = self.buf
        return (buf[pos] << 8) | buf[pos + 1]


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
    files = {OUT: json.dumps(doc, indent=1, ensure_ascii=True) + "\n"}
    family = importlib.import_module("doc_membership_v1")
    for name, domain, m, k, seed_max, item_max, out in VERSIONS:
        make_input, outputs = family.accumulated_stream(domain, m, k, seed_max, item_max)
        checkpoint_digest, digest = accumulate(name, make_input, outputs, CHECKPOINT, CHECKPOINT)
        assert checkpoint_digest == digest
        doc = {"format_version": 1,
               "comment": f"The accumulated checkpoint of {name} (a version of the doc-membership family "
                          f"with the domain {domain!r}): written by spec/derive/accumulated.py.",
               "protocols": [{"protocol": name, "generator": GENERATOR, "count": CHECKPOINT, "digest": digest,
                              "checkpoint": {"count": CHECKPOINT, "digest": checkpoint_digest}}]}
        files[out] = json.dumps(doc, indent=1, ensure_ascii=True) + "\n"
    return files


def main():
    write_or_check(render(), __file__)


if __name__ == "__main__":
    main()
