#!/usr/bin/env python3
"""The Python implementation's own time for a recorded conformance run (BENCHMARKS.md,
`python_harness_share`).

    python3 crates/bench/python/adapter_replay.py REQUESTS ANSWERS [REQUESTS ANSWERS ...]

Each pair of files is one adapter process of one run (the runner uses two when its
checks fork): REQUESTS holds every request line the runner sent to it (`tee` in front of
it), ANSWERS every line it answered (`tee` behind it). For each pair this feeds each
request line, in order, to the adapter's own per-line handler
(`bloomproof_py.adapter.answer`, what its main loop calls for each line of stdin) in this
process, without a pipe or a runner, checks that each answer is the one that process
recorded, and prints, over all pairs, `key=value` lines: `replay_requests`, `replay_answers`, `replay_ms` (wall time of
the handler calls alone: the files are read and the modules imported before the clock
starts) and `replay_cpu_ms` (this process's CPU time over the same span). Exit 1 when an
answer differs or the counts do not match.
"""
import os
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
sys.path.insert(0, os.path.join(ROOT, "implementations", "python"))

from bloomproof_py import adapter  # noqa: E402


def lines(path, binary):
    with open(path, "rb") as f:
        data = f.read()
    parts = data.split(b"\n") if binary else data.decode("utf-8").split("\n")
    if parts and not parts[-1]:
        parts.pop()  # the text after the last newline: none
    return parts


def main(argv):
    if not argv or len(argv) % 2:
        print("usage: adapter_replay.py REQUESTS ANSWERS [REQUESTS ANSWERS ...]", file=sys.stderr)
        return 2
    pairs = [(lines(argv[i], True), lines(argv[i + 1], False)) for i in range(0, len(argv), 2)]
    answer = adapter.answer
    replayed = []
    cpu_started = time.process_time()
    started = time.perf_counter()
    for requests, _ in pairs:
        answers = []
        for raw in requests:
            text = answer(raw)
            if text is not None:
                answers.append(text)
        replayed.append(answers)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    for p, ((_, recorded), answers) in enumerate(zip(pairs, replayed)):
        name = argv[2 * p + 1]
        if len(answers) != len(recorded):
            print(f"error: {name}: {len(answers)} answers in process, {len(recorded)} recorded",
                  file=sys.stderr)
            return 1
        for i, (mine, theirs) in enumerate(zip(answers, recorded)):
            if mine != theirs:
                print(f"error: {name}: answer {i} differs:\n  in process {mine[:200]}\n"
                      f"  recorded   {theirs[:200]}", file=sys.stderr)
                return 1
    print(f"replay_requests={sum(len(requests) for requests, _ in pairs)}")
    print(f"replay_answers={sum(len(answers) for answers in replayed)}")
    print(f"replay_ms={elapsed * 1e3:.3f}")
    print(f"replay_cpu_ms={cpu * 1e3:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
