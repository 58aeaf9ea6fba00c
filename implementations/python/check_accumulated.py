#!/usr/bin/env python3
"""Check the accumulated digests of spec/accumulated.json with the Python implementation.

    python3 implementations/python/check_accumulated.py [--quick] [SPEC_ACCUMULATED_JSON]

The generator (spec/README.md, "Accumulated checks") draws inputs from a SHA-256
counter stream; it is imported from spec/derive/accumulated.py, the spec's own
derivation, so the two cannot drift apart. bloomproof_py computes every input's outputs (doc-membership-v1: the k
positions; fnv1a-utf16-v1: h1, h2 and the positions), which are fed into one running
SHA-256. For each protocol it prints the checkpoint digest, the digest after the full
count, the published one, the time and `ok` or `DIFFERS`; the exit code is non-zero
when one differs. `--quick` stops at the published checkpoint. Standard library only;
run from a checkout (it reads spec/).
"""
import hashlib
import json
import os
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
# The generator is the spec's own (spec/derive/accumulated.py), imported rather than
# copied: only the outputs are this implementation's. bloomproof_py is the installed
# package, or this checkout's when it is not installed.
sys.path.insert(0, os.path.join(ROOT, "spec", "derive"))
sys.path.append(HERE)

import accumulated  # noqa: E402
from bloomproof_py import doc_membership_v1 as doc  # noqa: E402
from bloomproof_py import fnv1a_utf16_v1 as fnv  # noqa: E402

DEFAULT_FILE = os.path.join(ROOT, "spec", "accumulated.json")
GENERATOR = accumulated.GENERATOR
Stream = accumulated.Stream


INPUTS = {name: script.accumulated_input for name, script in accumulated.protocols()}


def doc_one(stream):
    m, k, seed, item = INPUTS["doc-membership-v1"](stream)
    return b"".join(p.to_bytes(2, "big") for p in doc.positions(m, k, seed, item))


def fnv_one(stream):
    m, k, units = INPUTS["fnv1a-utf16-v1"](stream)
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
    failed = skipped = 0
    for entry in published["protocols"]:
        if entry["protocol"] not in ONE:
            # As the adapter's handshake says; the runner reports it as not run.
            print(f"accumulated.{entry['protocol']}: a protocol this package does not implement: skipped")
            skipped += 1
            continue
        if entry["generator"] != GENERATOR:
            print(f"{entry['protocol']}: unknown generator {entry['generator']!r}: DIFFERS")
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
    also = f", {skipped} skipped" if skipped else ""
    print(f"{len(published['protocols']) - failed - skipped} passed, {failed} failed{also}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
