#!/usr/bin/env python3
"""A lying adapter: a proxy that runs a real adapter and rewrites what it says.

    python3 vectors/check/gallery/liar.py MODE -- CMD [ARGS...]
    python3 vectors/check/gallery/liar.py --modes      (the modes, one a line)

Starts CMD (no shell), forwards each request line from standard input to it, reads its
response line and writes that response, rewritten according to MODE, to standard
output (spec/ADAPTER.md framing: one JSON object a line, flushed). Some modes answer a
request themselves without forwarding it. Exits when standard input closes or when the
wrapped adapter dies. Standard library only.

The planted-bug gallery (`cargo xtask gallery`, vectors/check/gallery/bugs.json) runs
the conformance suite through each mode: every lie must fail at least one named check.

Modes:
  passthrough                 change nothing (the gallery's control: the proxy itself is honest)
  drop_field                  remove `field` from every error response
  self_reported_immutability  answer every `immutability_probe` with one attempt "nothing tried",
                              unchanged; answer every `mutate` with outcome "impossible" and an
                              invented observation (params echoed, no bit set, no lookup positive);
                              neither is forwarded
  invented_figures            h1 + 1 in every fnv1a-utf16-v1 `positions` result
  always_duplicate            `duplicate: true` in every doc-membership-v1 lookup triple
  replay_first                answer each request with the first result its (protocol, op) ever got:
                              a cache keyed on the operation's name alone
  errors_as_value             every error of kind `type` reported as kind `value`
  hide_session_errors         drop `error` from every fnv1a-utf16-v1 session step (rejected steps
                              reported as if they went through)
  keep_duplicates             read each request as most JSON readers do (a repeated key: the last
                              one wins) and forward it without the duplicate, so a request the
                              adapter protocol refuses is answered
"""
import json
import subprocess
import sys

MODES = ("passthrough", "drop_field", "self_reported_immutability", "invented_figures",
         "always_duplicate", "replay_first", "errors_as_value", "hide_session_errors",
         "keep_duplicates")
TRIPLE = ("maybe_present", "exact_checked", "duplicate")


def _dumps(obj):
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def _triples(value):
    """Every lookup triple inside a result, at any depth."""
    if isinstance(value, dict):
        if all(key in value for key in TRIPLE):
            yield value
        for item in value.values():
            yield from _triples(item)
    elif isinstance(value, list):
        for item in value:
            yield from _triples(item)


def _invented_mutation(request):
    """An observation that was never made: the parameters echoed, no bit set."""
    params = request.get("params") if isinstance(request.get("params"), dict) else {}
    m = params.get("m") if type(params.get("m")) is int else 8
    probes = request.get("probes") if type(request.get("probes")) is list else []
    records = request.get("records") if type(request.get("records")) is list else []
    return {
        "outcome": "impossible",
        "detail": "the snapshot is immutable by construction: nothing to try",
        "params": {"m": m, "k": params.get("k"), "seed_hex": params.get("seed_hex")},
        "packed_hex": "00" * ((max(m, 0) + 7) // 8),
        "documents": len(records),
        "lookups": [{"maybe_present": False, "exact_checked": False, "duplicate": False}
                    for _ in probes],
    }


class Liar:
    def __init__(self, mode):
        self.mode = mode
        self.first = {}  # replay_first: (protocol, op) -> the first result

    def answer_without_forwarding(self, request):
        """A response made up without asking the real adapter, or None to forward."""
        if self.mode != "self_reported_immutability" or request.get("protocol") != "doc-membership-v1":
            return None
        if request.get("op") == "immutability_probe":
            return {"id": request.get("id"),
                    "result": {"attempts": [{"attempt": "nothing tried", "unchanged": True}]}}
        if request.get("op") == "mutate":
            return {"id": request.get("id"), "result": _invented_mutation(request)}
        return None

    def forwarded(self, raw, request):
        """The request line the real adapter gets."""
        if self.mode == "keep_duplicates" and request:
            return (_dumps(request) + "\n").encode()
        return raw if raw.endswith(b"\n") else raw + b"\n"

    def rewrite(self, request, response):
        """The response as this liar tells it."""
        if not isinstance(response, dict):
            return response
        protocol, op = request.get("protocol"), request.get("op")
        error, result = response.get("error"), response.get("result")
        if self.mode == "drop_field" and isinstance(error, dict):
            error.pop("field", None)
        elif self.mode == "errors_as_value" and isinstance(error, dict) and error.get("kind") == "type":
            error["kind"] = "value"
        elif self.mode == "invented_figures" and isinstance(result, dict):
            if protocol == "fnv1a-utf16-v1" and op == "positions" and type(result.get("h1")) is int:
                result["h1"] += 1
        elif self.mode == "always_duplicate" and protocol == "doc-membership-v1":
            for triple in _triples(result):
                triple["duplicate"] = True
        elif self.mode == "hide_session_errors" and isinstance(result, dict):
            if protocol == "fnv1a-utf16-v1" and op == "session" and isinstance(result.get("steps"), list):
                for step in result["steps"]:
                    if isinstance(step, dict):
                        step.pop("error", None)
        elif self.mode == "replay_first" and "result" in response:
            key = (str(protocol), str(op))
            if key in self.first:
                response["result"] = json.loads(self.first[key])
            else:
                self.first[key] = _dumps(result)
        return response


def main(argv):
    if argv == ["--modes"]:
        print("\n".join(MODES))
        return 0
    if len(argv) < 3 or argv[0] not in MODES or argv[1] != "--":
        print(f"usage: liar.py MODE -- CMD [ARGS...]\nmodes: {', '.join(MODES)}", file=sys.stderr)
        return 2
    liar = Liar(argv[0])
    try:
        child = subprocess.Popen(argv[2:], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    except OSError as e:
        print(f"liar: cannot start {argv[2]!r}: {e}", file=sys.stderr)
        return 2
    out = sys.stdout
    for raw in sys.stdin.buffer:
        if not raw.strip():
            continue
        try:
            request = json.loads(raw)
        except ValueError:
            request = None
        if not isinstance(request, dict):
            request = {}
        made_up = liar.answer_without_forwarding(request)
        if made_up is not None:
            out.write(_dumps(made_up) + "\n")
            out.flush()
            continue
        try:
            child.stdin.write(liar.forwarded(raw, request))
            child.stdin.flush()
        except BrokenPipeError:
            break
        line = child.stdout.readline()
        if not line:
            break
        try:
            response = json.loads(line)
        except ValueError:
            out.write(line.decode("utf-8", "replace"))  # not JSON: pass it on as it is
            out.flush()
            continue
        out.write(_dumps(liar.rewrite(request, response)) + "\n")
        out.flush()
    try:
        child.stdin.close()
    except BrokenPipeError:
        pass
    code = child.wait()
    if code:
        print(f"liar: the wrapped adapter exited with status {code}", file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
