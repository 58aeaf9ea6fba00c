"""What the test adapters of this folder share: a proxy in front of a real adapter.

`relay(argv, rewrite)` starts `argv` (no shell), forwards each request line read from
standard input to it and writes one response line back for each (spec/ADAPTER.md
framing; a blank line gets no answer). `rewrite(request, answer)` sees the request (its
JSON object, or None for a line that is not one) and the real adapter's answer (its
JSON object) and returns the answer to give, or None to pass the line unchanged.
Standard library only.
"""

import json
import subprocess
import sys


def relay(argv, rewrite):
    child = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        if not line.strip():
            continue  # a blank line gets no answer
        try:
            request = json.loads(line)
        except (ValueError, RecursionError):
            request = None
        child.stdin.write(line if line.endswith(b"\n") else line + b"\n")
        child.stdin.flush()
        response = child.stdout.readline()
        if not response:
            return
        try:
            answer = rewrite(request if isinstance(request, dict) else None,
                             json.loads(response))
        except (ValueError, RecursionError):
            answer = None  # not a JSON answer: passed on as it came
        if answer is not None:
            response = json.dumps(answer).encode() + b"\n"
        out.write(response)
        out.flush()
