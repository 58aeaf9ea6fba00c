#!/usr/bin/env python3
"""Check the accumulated digests of spec/accumulated.json with the Python implementation.

    python3 vectors/check/python/check_accumulated.py [--quick] [SPEC_ACCUMULATED_JSON]

The generator (spec/README.md, "Accumulated checks") draws inputs from a SHA-256
counter stream; bloomproof_py computes every input's outputs (doc-membership-v1: the k
positions; fnv1a-utf16-v1: h1, h2 and the positions), which are fed into one running
SHA-256. For each protocol it prints the checkpoint digest, the digest after the full
count, the published one, the time and `ok` or `DIFFERS`; the exit code is non-zero
when one differs. `--quick` stops at the published checkpoint. Standard library only.
"""
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from bloomproof_py import doc_membership_v1 as doc  # noqa: E402
from bloomproof_py import fnv1a_utf16_v1 as fnv  # noqa: E402

DEFAULT_FILE = os.path.normpath(os.path.join(HERE, "..", "..", "..", "spec", "accumulated.json"))
GENERATOR = "bloomproof accumulated v1"


class Stream:
    """Block i is SHA-256(generator || protocol || u64_be(i)); blocks are read in order."""

    def __init__(self, protocol):
        self.prefix = GENERATOR.encode("ascii") + protocol.encode("ascii")
        self.counter = 0
        self.buf = b""
        self.pos = 0

    def take(self, n):
        if self.pos + n > len(self.buf):
            rest = [self.buf[self.pos:]]
            end = self.counter + 1024
            rest.extend(hashlib.sha256(self.prefix + i.to_bytes(8, "big")).digest()
                        for i in range(self.counter, end))
            self.counter = end
            self.buf = b"".join(rest)
            self.pos = 0
        out = self.buf[self.pos:self.pos + n]
        self.pos += n
        return out

    def byte(self):
        self.pos += 1
        if self.pos > len(self.buf):
            self.pos -= 1
            return self.take(1)[0]
        return self.buf[self.pos - 1]

    def u16(self):
        return int.from_bytes(self.take(2), "big")


def doc_one(stream):
    m = 8 + stream.u16() % 505
    k = 1 + stream.byte() % 8
    seed = stream.take(stream.byte() % 17)
    item = stream.take(stream.byte() % 65)
    return b"".join(p.to_bytes(2, "big") for p in doc.positions(m, k, seed, item))


UNIT_CLASSES = (
    lambda v: v % 0x80, lambda v: v % 0x80, lambda v: v % 0x80,
    lambda v: 0x80 + v % 0x780,
    lambda v: v,
    lambda v: 0xD800 + v % 0x400,
    lambda v: 0xDC00 + v % 0x400,
    lambda v: 0xFFFF - v % 16,
)


def fnv_one(stream):
    m = 8 + stream.u16() % 1017
    k = 1 + stream.byte() % 12
    t = stream.byte()
    u = stream.byte()
    length = 1 + u % 16 if t < 192 else 1 + u % 64 if t < 240 else 1 + u
    raw = stream.take(3 * length)
    units = [UNIT_CLASSES[raw[j] % 8]((raw[j + 1] << 8) | raw[j + 2]) for j in range(0, 3 * length, 3)]
    h1, h2, positions = fnv.positions(m, k, units)
    return h1.to_bytes(4, "big") + h2.to_bytes(4, "big") + b"".join(p.to_bytes(2, "big") for p in positions)


ONE = {"doc-membership-v1": doc_one, "fnv1a-utf16-v1": fnv_one}


def run(entry, quick):
    one = ONE[entry["protocol"]]
    stream = Stream(entry["protocol"])
    running = hashlib.sha256()
    checkpoint = entry["checkpoint"]["count"]
    count = checkpoint if quick else entry["count"]
    at_checkpoint = None
    for n in range(count):
        running.update(one(stream))
        if n + 1 == checkpoint:
            at_checkpoint = running.hexdigest()
    return at_checkpoint, running.hexdigest(), count


def main():
    args = [a for a in sys.argv[1:] if a != "--quick"]
    quick = "--quick" in sys.argv[1:]
    path = args[0] if args else DEFAULT_FILE
    with open(path, encoding="utf-8") as f:
        published = json.load(f)
    failed = 0
    for entry in published["protocols"]:
        if entry["generator"] != GENERATOR or entry["protocol"] not in ONE:
            print(f"{entry['protocol']}: unknown generator or protocol: DIFFERS")
            failed += 1
            continue
        start = time.monotonic()
        at_checkpoint, digest, count = run(entry, quick)
        elapsed = time.monotonic() - start
        want = entry["checkpoint"]["digest"] if quick else entry["digest"]
        checkpoint_ok = at_checkpoint == entry["checkpoint"]["digest"]
        ok = digest == want and checkpoint_ok
        failed += not ok
        print(f"accumulated.{entry['protocol']}: {digest} (published {want}, {count} inputs, "
              f"{elapsed:.1f} s) {'ok' if ok else 'DIFFERS'}")
        if not checkpoint_ok:
            print(f"  checkpoint after {entry['checkpoint']['count']}: {at_checkpoint} "
                  f"(published {entry['checkpoint']['digest']}) DIFFERS")
    print(f"{len(published['protocols']) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
