#!/usr/bin/env python3
"""An honest adapter of one protocol: a proxy in front of a real adapter.

    python3 one_protocol.py PROTOCOL -- CMD [ARGS...]

Starts CMD (no shell) and forwards each request line to it, one response line back for
each (spec/ADAPTER.md framing). The handshake's answer lists PROTOCOL alone, and a
request of the other protocol the real adapter read is answered `bad_request` "unknown
protocol" with its id, as an adapter that implements only PROTOCOL answers it (a line
the real adapter could not read as a request keeps its answer). Everything else passes
unchanged. Standard library only.
"""

import sys

from proxy import relay

KNOWN = ("doc-membership-v1", "fnv1a-utf16-v1")


def main():
    if len(sys.argv) < 4 or sys.argv[2] != "--" or sys.argv[1] not in KNOWN:
        sys.exit("usage: one_protocol.py PROTOCOL -- CMD [ARGS...]")
    only = sys.argv[1]

    def rewrite(request, answer):
        if request is None:
            return None
        if request.get("protocol") in KNOWN and request.get("protocol") != only:
            # What the real adapter could not read as a request at all (an error with id
            # null: a line no request may hold) stays its answer; a request it read is of
            # a protocol this adapter does not implement.
            if answer.get("id") is not None or "result" in answer:
                return {"id": answer.get("id"),
                        "error": {"kind": "bad_request",
                                  "message": f"unknown protocol {request['protocol']}"}}
            return None
        if request.get("op") == "start" and isinstance(answer.get("result"), dict):
            answer["result"]["protocols"] = [only]
            return answer
        return None

    relay(sys.argv[3:], rewrite)


if __name__ == "__main__":
    main()
