#!/usr/bin/env python3
"""The Python implementation's own time for a recorded conformance run (BENCHMARKS.md,
`python_harness_share`).

    python3 crates/bench/python/adapter_replay.py REQUESTS ANSWERS

REQUESTS holds every request line the runner sent to the Python adapter during one run
(`tee` in front of it), ANSWERS every line the adapter answered (`tee` behind it). This
feeds each request line, in order, to the adapter's own per-line handler
(`bloomproof_py.adapter.answer`, what its main loop calls for each line of stdin) in this
process, without a pipe or a runner, checks that each answer is the recorded one, and
prints `key=value` lines: `replay_requests`, `replay_answers`, `replay_ms` (wall time of
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


def main(argv):
    if len(argv) != 2:
        print("usage: adapter_replay.py REQUESTS ANSWERS", file=sys.stderr)
        return 2
    with open(argv[0], "rb") as f:
        requests = f.read().split(b"\n")
    if requests and requests[-1] == b"":
        requests.pop()  # the text after the last newline: none
    with open(argv[1], "rb") as f:
        recorded = f.read().decode("utf-8").split("\n")
    if recorded and recorded[-1] == "":
        recorded.pop()
    answer = adapter.answer
    answers = []
    cpu_started = time.process_time()
    started = time.perf_counter()
    for raw in requests:
        text = answer(raw)
        if text is not None:
            answers.append(text)
    elapsed = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    if len(answers) != len(recorded):
        print(f"error: {len(answers)} answers in process, {len(recorded)} recorded", file=sys.stderr)
        return 1
    for i, (mine, theirs) in enumerate(zip(answers, recorded)):
        if mine != theirs:
            print(f"error: answer {i} differs:\n  in process {mine[:200]}\n  recorded   {theirs[:200]}",
                  file=sys.stderr)
            return 1
    print(f"replay_requests={len(requests)}")
    print(f"replay_answers={len(answers)}")
    print(f"replay_ms={elapsed * 1e3:.3f}")
    print(f"replay_cpu_ms={cpu * 1e3:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
