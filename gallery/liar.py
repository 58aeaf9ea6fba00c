#!/usr/bin/env python3
"""A lying adapter: a proxy that runs a real adapter and rewrites what it says.

    python3 gallery/liar.py MODE -- CMD [ARGS...]
    python3 gallery/liar.py --modes      (the modes, one a line)

Starts CMD (no shell), forwards each request line from standard input to it, reads its
response line and writes that response, rewritten according to MODE, to standard
output (spec/ADAPTER.md framing: one JSON object a line, flushed). Some modes answer a
request themselves without forwarding it. Exits when standard input closes or when the
wrapped adapter dies. Standard library only.

The planted-bug gallery (`cargo xtask gallery`, gallery/python/bugs.json) runs
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
  spec_table                  answer every fnv1a-utf16-v1 `positions` and `estimates` request from a
                              table of the expected values of spec/fnv1a-utf16-v1/cases.json, not
                              forwarded; an input the table lacks gets the entry of the same string
                              (or the same m and k) reduced to this m: what a memorised spec says
  off_spec                    forward everything, and corrupt the fnv1a-utf16-v1 `positions` and
                              `estimates` answers (h1 + 1, optimal_k + 1) and the doc-membership-v1
                              `positions` answers (first position + 1 mod m) of every input that no
                              case of spec/*/cases.json holds
  keep_duplicates             read each request as most JSON readers do (a repeated key: the last
                              one wins) and forward it without the duplicate, so a request the
                              adapter protocol refuses is answered
"""
import json
import subprocess
import sys
from pathlib import Path

MODES = ("passthrough", "drop_field", "self_reported_immutability", "invented_figures",
         "always_duplicate", "replay_first", "errors_as_value", "hide_session_errors",
         "spec_table", "off_spec", "keep_duplicates")
SPEC = Path(__file__).resolve().parent.parent / "spec"
TRIPLE = ("maybe_present", "exact_checked", "duplicate")


def _dumps(obj):
    return json.dumps(obj, ensure_ascii=True, separators=(",", ":"), allow_nan=False)


def _triples(value):
    """Every lookup triple inside a result, at any depth."""
    return (d for d in _held(value) if all(key in d for key in TRIPLE))


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


def _cases(protocol):
    return json.loads((SPEC / protocol / "cases.json").read_text(encoding="utf-8"))["cases"]


def _held(value):
    """Every dict inside a case's input, at any depth (where its params and items live)."""
    if isinstance(value, dict):
        yield value
        for item in value.values():
            yield from _held(item)
    elif isinstance(value, list):
        for item in value:
            yield from _held(item)


def _tables():
    """The spec's fnv1a-utf16-v1 hash and estimate cases: (m, k, units) -> expect and
    (m, k, n) -> expect; and the doc-membership-v1 (m, k, seed hex, item hex) inputs that
    some case holds."""
    hashes, estimates, doc = {}, {}, set()
    for case in _cases("fnv1a-utf16-v1"):
        given = case["input"]
        if case["shape"] == "hashes":
            hashes[(given["m"], given["k"], tuple(given["units"]))] = case["expect"]
        elif case["shape"] == "estimates":
            estimates[(given["m"], given["k"], given["n"])] = case["expect"]
    for case in _cases("doc-membership-v1"):
        items = set()
        params = []
        for part in _held(case["input"]):
            if isinstance(part.get("m"), int) and isinstance(part.get("k"), int):
                params.append((part["m"], part["k"], part.get("seed_hex", "")))
            for key, value in part.items():
                if key.endswith("_hex") and isinstance(value, str):
                    items.add(value)
                elif key.endswith("_hex") and isinstance(value, list):
                    items.update(v for v in value if isinstance(v, str))
        doc.update((m, k, seed, item) for (m, k, seed) in params for item in items)
    return hashes, estimates, doc


class Liar:
    def __init__(self, mode):
        self.mode = mode
        self.first = {}  # replay_first: (protocol, op) -> the first result
        if mode in ("spec_table", "off_spec"):
            self.hashes, self.estimates, self.doc = _tables()

    def _from_table(self, request):
        """spec_table: the answer to a positions or estimates request, from the table."""
        op = request.get("op")
        if op == "positions":
            m, k, units = request.get("m"), request.get("k"), request.get("units")
            if not (type(m) is int and type(k) is int and m > 0 and isinstance(units, list)):
                return None
            key = (m, k, tuple(units))
            if key in self.hashes:
                return dict(self.hashes[key])
            near = next((e for (_, _, u), e in self.hashes.items() if u == key[2]), None)
            near = near or next((e for (mm, kk, _), e in self.hashes.items() if (mm, kk) == (m, k)), None)
            near = near or next(iter(self.hashes.values()))
            rows = (near["positions"] * k)[:k]
            return {"h1": near["h1"], "h2": near["h2"], "positions": [p % m for p in rows]}
        if op == "estimates":
            key = (request.get("m"), request.get("k"), request.get("n"))
            near = self.estimates.get(key) or next(
                (e for (m, k, _), e in self.estimates.items() if (m, k) == key[:2]),
                next(iter(self.estimates.values())))
            return dict(near)
        return None

    def _off_spec(self, request, result):
        """off_spec: corrupt the result of an input that no case holds."""
        protocol, op = request.get("protocol"), request.get("op")
        if protocol == "fnv1a-utf16-v1" and op == "positions" and isinstance(result, dict):
            units = request.get("units")
            key = (request.get("m"), request.get("k"), tuple(units) if isinstance(units, list) else None)
            if key not in self.hashes and type(result.get("h1")) is int:
                result["h1"] += 1
        elif protocol == "fnv1a-utf16-v1" and op == "estimates" and isinstance(result, dict):
            key = (request.get("m"), request.get("k"), request.get("n"))
            if key not in self.estimates and type(result.get("optimal_k")) is int:
                result["optimal_k"] += 1
        elif protocol == "doc-membership-v1" and op == "positions" and isinstance(result, dict):
            params = request.get("params") if isinstance(request.get("params"), dict) else {}
            key = (params.get("m"), params.get("k"), params.get("seed_hex", ""), request.get("item"))
            got = result.get("positions")
            if key not in self.doc and isinstance(got, list) and got and type(key[0]) is int:
                got[0] = (got[0] + 1) % key[0]

    def answer_without_forwarding(self, request):
        """A response made up without asking the real adapter, or None to forward."""
        if self.mode == "spec_table" and request.get("protocol") == "fnv1a-utf16-v1":
            result = self._from_table(request)
            return None if result is None else {"id": request.get("id"), "result": result}
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
        """The response as this liar tells it (the handshake's as it came: a liar lies
        about answers, not about who it is)."""
        if not isinstance(response, dict) or request.get("op") == "start":
            return response
        protocol, op = request.get("protocol"), request.get("op")
        error, result = response.get("error"), response.get("result")
        if self.mode == "off_spec":
            self._off_spec(request, result)
        elif self.mode == "drop_field" and isinstance(error, dict):
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
        except (ValueError, RecursionError):  # not JSON, or nested past Python's own limit: forwarded as it is
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
        except (ValueError, RecursionError):
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
