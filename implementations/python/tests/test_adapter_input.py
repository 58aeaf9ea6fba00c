"""Input no request may hold (spec/ADAPTER.md): a line that is not UTF-8, a duplicate key,
a script past the cap; each answered `bad_request`, and the next request still served.

    pytest implementations/python/tests    # with bloomproof_py installed
"""
import json
import os
import subprocess
import sys
import unittest

from bloomproof_py import adapter

# The installed adapter, as a process.
ADAPTER = [sys.executable, "-m", "bloomproof_py.adapter"]
SHA = {"id": 7, "protocol": "doc-membership-v1", "op": "sha256", "data": "6162"}
DIGEST = "fb8e20fc2e4c3f248c60c39bd652f3c1347298bb977b8b4d5903b85055620603"


def respond(line):
    return json.loads(adapter._dumps(adapter.respond(line)))


def session(steps, rid=9):
    return json.dumps({"id": rid, "protocol": "fnv1a-utf16-v1", "op": "session", "script": steps})


class DuplicateKeys(unittest.TestCase):
    def test_a_repeated_key_is_refused_naming_it(self):
        r = respond('{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"61","data":"62"}')
        self.assertIsNone(r["id"])
        self.assertEqual(r["error"]["kind"], "bad_request")
        self.assertEqual(r["error"]["message"], 'duplicate key "data" in the request')
        r = respond('{"id":1,"id":2,"protocol":"doc-membership-v1","op":"sha256","data":"61"}')
        self.assertIsNone(r["id"])
        self.assertIn('duplicate key "id"', r["error"]["message"])

    def test_at_any_depth(self):
        line = ('{"id":4,"protocol":"fnv1a-utf16-v1","op":"session","script":'
                '[{"op":"import","document":{"version":1,"version":99}}]}')
        r = respond(line)
        self.assertIsNone(r["id"])
        self.assertEqual(r["error"]["kind"], "bad_request")
        self.assertIn('duplicate key "version"', r["error"]["message"])

    def test_the_same_key_in_two_objects_is_fine(self):
        line = json.dumps({"id": 5, "protocol": "doc-membership-v1", "op": "mutate",
                           "params": {"m": 16, "k": 3, "seed_hex": ""}, "records": [],
                           "other": {"params": {"m": 16, "k": 3, "seed_hex": ""}, "records": []},
                           "attempt": "reconstruct", "probes": []})
        self.assertIn("result", respond(line))

    def test_a_long_key_is_quoted_short(self):
        key = "k" * 100_000
        r = respond('{"%s":1,"%s":2}' % (key, key))
        self.assertLess(len(r["error"]["message"]), 200)
        self.assertIn("(100000 bytes)", r["error"]["message"])


class ScriptCap(unittest.TestCase):
    STEP = {"op": "set_panel", "panel": "model", "open": True}

    def test_a_script_past_the_cap_is_refused_with_its_id(self):
        r = respond(session([self.STEP] * (adapter.SCRIPT_MAX + 1)))
        self.assertEqual(r["id"], 9)
        self.assertEqual(r["error"]["kind"], "bad_request")
        self.assertEqual(r["error"]["message"], "`script` has 1025 steps: a script has at most 1024 (split it)")

    def test_a_script_at_the_cap_runs(self):
        self.assertEqual(adapter.SCRIPT_MAX, 1024)
        r = respond(session([self.STEP] * adapter.SCRIPT_MAX))
        self.assertEqual(len(r["result"]["steps"]), adapter.SCRIPT_MAX)


def nested(depth, rid=1):
    """A session request nested `depth` levels deep (the request itself the first)."""
    inner = "[" * (depth - 4) + "]" * (depth - 4)
    return ('{"id":%d,"protocol":"fnv1a-utf16-v1","op":"session","script":'
            '[{"op":"import","document":{"x":%s}}]}' % (rid, inner))


class Nesting(unittest.TestCase):
    def test_127_levels_are_read_128_refused_with_id_null(self):
        self.assertIn("result", respond(nested(127)))
        for depth in (128, 129, 5000):
            r = respond(nested(depth))
            self.assertIsNone(r["id"], depth)
            self.assertEqual(r["error"]["kind"], "bad_request", depth)


class ErrorTableRows(unittest.TestCase):
    DOC = '"protocol":"doc-membership-v1","params":{"m":16,"k":3,"seed_hex":""}'

    def test_a_frame_index_not_below_k_is_a_value_error_naming_index(self):
        for index in (3, -1, 256):
            r = respond('{"id":2,%s,"op":"frame","index":%d,"item":""}' % (self.DOC, index))
            self.assertEqual((r["id"], r["error"]["kind"], r["error"]["field"]), (2, "value", "index"), index)

    def test_a_negative_estimates_input_is_a_value_error_naming_the_first(self):
        r = respond('{"id":3,"protocol":"fnv1a-utf16-v1","op":"estimates","m":8,"k":-1,"n":-3}')
        self.assertEqual((r["error"]["kind"], r["error"]["field"]), ("value", "k"))
        r = respond('{"id":3,"protocol":"fnv1a-utf16-v1","op":"estimates","m":5000,"k":50,"n":5000}')
        self.assertIn("result", r)


class Lines(unittest.TestCase):
    def exchange(self, data):
        run = subprocess.run(ADAPTER, input=data, capture_output=True, timeout=60, check=False)
        self.assertEqual(run.returncode, 0, run.stderr.decode(errors="replace"))
        return [json.loads(line) for line in run.stdout.decode().splitlines()]

    def test_a_line_that_is_not_utf8_is_answered_and_the_next_served(self):
        sha = json.dumps(SHA).encode()
        data = b'{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"\xff"}\n\xc3\x28\r\n\n' + sha + b"\n"
        responses = self.exchange(data)
        self.assertEqual(len(responses), 3, responses)
        for r in responses[:2]:
            self.assertIsNone(r["id"])
            self.assertEqual(r["error"]["kind"], "bad_request")
            self.assertIn("not UTF-8", r["error"]["message"])
        self.assertEqual(responses[0]["error"]["message"], "the request line is not UTF-8 (invalid byte at offset 61)")
        self.assertEqual(responses[2], {"id": 7, "result": {"digest": DIGEST}})

    def test_a_duplicate_key_then_a_request(self):
        data = b'{"id":1,"protocol":"doc-membership-v1","op":"sha256","data":"61","data":"62"}\n' + json.dumps(SHA).encode()
        responses = self.exchange(data)
        self.assertEqual([r["id"] for r in responses], [None, 7])


if __name__ == "__main__":
    unittest.main()


class Handshake(unittest.TestCase):
    """The first exchange of every run (spec/ADAPTER.md, "Handshake")."""

    def test_start_is_answered_with_the_version_who_and_the_protocols(self):
        r = respond('{"id":0,"op":"start","adapter_protocol":3}')
        self.assertEqual(r["id"], 0)
        self.assertEqual(r["result"]["adapter_protocol"], 3)
        self.assertEqual(r["result"]["protocols"], ["doc-membership-v1", "fnv1a-utf16-v1"])
        info = r["result"]["implementation"]
        self.assertEqual(sorted(info), ["language", "name", "version"])
        self.assertEqual((info["name"], info["language"]), ("bloomproof-py", "Python"))

    def test_the_version_answered_is_its_own_whatever_the_runner_speaks(self):
        r = respond('{"id":"s","op":"start","adapter_protocol":2}')
        self.assertEqual((r["id"], r["result"]["adapter_protocol"]), ("s", 3))


class LargeIds(unittest.TestCase):
    def test_an_integer_id_is_answered_with_its_very_digits(self):
        # Python reads JSON integers exactly: 2^53 + 1 and 2^64 come back as sent
        # (spec/ADAPTER.md, ADAPTER-ID; a reader of floats would answer another number).
        for rid in ("9007199254740993", "18446744073709551616"):
            line = '{"id":%s,"protocol":"doc-membership-v1","op":"sha256","data":""}' % rid
            text = adapter._dumps(adapter.respond(line))
            self.assertTrue(text.startswith('{"id":%s,"result":' % rid), text)
