#!/usr/bin/env python3
"""An adapter of adapter protocol 2: a proxy in front of a real adapter.

    python3 protocol_2.py -- CMD [ARGS...]

Starts CMD (no shell) and forwards each request line to it, one response line back for
each (spec/ADAPTER.md framing). The handshake's answer says `"adapter_protocol": 2`, and
a `session` request holding a `save_local` step with a `fill` (what version 3 added) is
answered `bad_request` with its id, as an adapter of version 2 that refuses a key an op
does not take answers it. Everything else passes unchanged. Standard library only.
"""

import sys

from proxy import relay


def has_fill(request):
    script = request.get("script")
    return isinstance(script, list) and any(
        isinstance(step, dict) and step.get("op") == "save_local" and "fill" in step
        for step in script)


def main():
    if len(sys.argv) < 3 or sys.argv[1] != "--":
        sys.exit("usage: protocol_2.py -- CMD [ARGS...]")

    def rewrite(request, answer):
        if request is None:
            return None
        if request.get("op") == "start" and isinstance(answer.get("result"), dict):
            answer["result"]["adapter_protocol"] = 2
            return answer
        if has_fill(request):
            return {"id": request.get("id"),
                    "error": {"kind": "bad_request",
                              "message": "step save_local: unknown key `fill`"}}
        return None

    relay(sys.argv[2:], rewrite)


if __name__ == "__main__":
    main()
