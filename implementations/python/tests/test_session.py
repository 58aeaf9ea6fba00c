"""Self-tests of the session model beyond the spec cases (pytest, with bloomproof_py installed)."""
import json
import os
import random
import sys
import unittest


from bloomproof_py.session import Session, SessionError, parse_session, run_step, display  # noqa: E402
from bloomproof_py.fnv1a_utf16_v1 import to_units  # noqa: E402

FIXTURE = {"format": "bloomproof-session", "version": 1, "protocol": "fnv1a-utf16-v1",
           "params": {"m": 8, "k": 1}, "drafts": {"m": "8", "k": "1", "insert": "", "query": "i"},
           "entries": list("abcdefgh"), "counters": {"negative_queries": 2, "false_positives": 2},
           "last_operation": {"kind": "query", "value": [55296], "display": "\"\\ud800\"", "h1": 75617567,
                              "h2": 2046364221,
                              "positions": [{"index": 0, "position": 7, "before": True, "after": True}],
                              "outcome": "false_positive"},
           "history": [{"kind": "query", "value": [55296], "outcome": "false_positive"},
                       {"kind": "query", "value": "a", "outcome": "truly_present"},
                       {"kind": "query", "value": "i", "outcome": "false_positive"}]
           + [{"kind": "insert", "value": c, "outcome": "new"} for c in "hgfedcba"],
           "panels": {"positions": True, "model": False}}


def kind_of(text):
    try:
        parse_session(text)
        return None
    except SessionError as e:
        return e.kind


def mutated(**changes):
    doc = json.loads(json.dumps(FIXTURE))
    doc.update(changes)
    return json.dumps(doc)


def run(session, *steps):
    for step in steps:
        run_step(session, step)
    return session


class ImportTests(unittest.TestCase):
    def test_fixture_reads(self):
        self.assertIsNone(kind_of(json.dumps(FIXTURE)))

    def test_syntax(self):
        text = json.dumps(FIXTURE)
        self.assertEqual(kind_of(text[:-1]), "syntax")
        self.assertEqual(kind_of("\ufeff" + text), "syntax")
        self.assertEqual(kind_of(text + " x"), "syntax")
        self.assertEqual(kind_of(text + " \n\t\r"), None)
        self.assertEqual(kind_of(text.replace('"i"', '"\\ud800"', 1)), "syntax")
        self.assertEqual(kind_of(text.replace('"i"', '"\\udc00"', 1)), "syntax")
        self.assertEqual(kind_of(text.replace('"query": "i"', '"query": "\\ud83d\\ude00"', 1)), None)
        self.assertEqual(kind_of(text.replace('2,', 'NaN,', 1)), "syntax")
        self.assertEqual(kind_of('{"a": [1,]}'), "syntax")
        self.assertEqual(kind_of("[" * 129 + "]" * 129), "syntax")
        self.assertEqual(kind_of("[" * 3000 + "]" * 3000), "syntax")

    def test_format_and_version(self):
        self.assertEqual(kind_of("[1, 2, 3]"), "invalid")
        self.assertEqual(kind_of(mutated(format="x")), "invalid")
        self.assertEqual(kind_of(mutated(format=1)), "invalid")
        for bad in ("1.0", "1e0", "-1", "-0", '"1"', "true", "18446744073709551616", "null"):
            self.assertEqual(kind_of(mutated().replace('"version": 1', '"version": ' + bad)), "invalid", bad)
        for other in ("0", "2", "99", "18446744073709551615"):
            self.assertEqual(kind_of(mutated().replace('"version": 1', '"version": ' + other)),
                             "unsupported_version", other)

    def test_shape(self):
        self.assertEqual(kind_of(mutated(bits="11111111")), "invalid")
        self.assertEqual(kind_of(json.dumps(FIXTURE).replace('"model": false', '"model": false, "model": false')),
                         "invalid")
        self.assertEqual(kind_of(mutated(params={"m": 8.0, "k": 1})), "invalid")
        self.assertEqual(kind_of(mutated(params={"m": True, "k": 1})), "invalid")
        self.assertEqual(kind_of(mutated(entries=list("abcdefg") + [[True]])), "invalid")
        self.assertEqual(kind_of(mutated(protocol="doc-membership-v1")), "invalid")
        doc = dict(FIXTURE)
        del doc["last_operation"]
        self.assertEqual(kind_of(json.dumps(doc)), "invalid")  # history not empty, last missing

    def test_rules(self):
        self.assertEqual(kind_of(mutated(params={"m": 2000, "k": 1}, drafts={"m": "2000", "k": "1", "insert": "",
                                                                           "query": ""})), "out_of_range")
        self.assertEqual(kind_of(mutated(drafts={"m": "008", "k": "1", "insert": "", "query": ""})), None)
        self.assertEqual(kind_of(mutated(drafts={"m": "8 ", "k": "1", "insert": "", "query": ""})), "invalid")
        self.assertEqual(kind_of(mutated(drafts={"m": "8", "k": "1", "insert": "x" * 1025, "query": ""})),
                         "too_long")
        self.assertEqual(kind_of(mutated(counters={"negative_queries": 3, "false_positives": 2})), "invalid")
        last = dict(FIXTURE["last_operation"], display='"x"')
        self.assertEqual(kind_of(mutated(last_operation=last)), "invalid")
        history = [dict(FIXTURE["history"][0], outcome="new")] + FIXTURE["history"][1:]
        self.assertEqual(kind_of(mutated(history=history)), "invalid")
        history = [dict(FIXTURE["history"][0], outcome="definitely_absent")] + FIXTURE["history"][1:]
        self.assertEqual(kind_of(mutated(history=history)), "invalid")
        self.assertEqual(kind_of(mutated(entries=list("abcdefghi"))), "invalid")  # unaccounted entry
        # no filter
        none = {"params": None, "entries": [], "counters": {"negative_queries": 0, "false_positives": 0},
                "last_operation": None, "history": [],
                "drafts": {"m": "abc", "k": "", "insert": "", "query": ""}}
        self.assertEqual(kind_of(mutated(**none)), None)
        self.assertEqual(kind_of(mutated(**dict(none, entries=["a"]))), "invalid")

    def test_size(self):
        s = run(Session(), {"op": "create"})
        s.import_padded(2097152)
        with self.assertRaises(SessionError) as e:
            s.import_padded(2097153)
        self.assertEqual(e.exception.kind, "too_large")
        self.assertEqual(kind_of("x" * 2097153), "too_large")
        self.assertEqual(kind_of("é" * 1048577), "too_large")


def error_of(text):
    try:
        parse_session(text)
    except SessionError as e:
        return e
    raise AssertionError("accepted: %r" % text[:80])


class AmbiguityTests(unittest.TestCase):
    """SESSION.md section 10: inputs that the three implementations once answered differently."""

    def test_a_key_twice_is_invalid_before_the_version_is_read(self):
        text = json.dumps(FIXTURE)
        for first, second in (("1", "99"), ("99", "1"), ("1", "1")):
            e = error_of(text.replace('"version": 1', '"version": %s, "version": %s' % (first, second), 1))
            self.assertEqual((e.kind, str(e)), ("invalid", "session.version: this key appears twice in one object "
                                                           "(every key is unique)"), (first, second))
        self.assertEqual(kind_of(text.replace('"version": 1', '"versio\u006e": 99, "version": 1', 1)), "invalid")
        self.assertIn("session.drafts.query:", str(error_of(text.replace('"query": "i"', '"query": "i", "query": "i"', 1))))
        history_item = '{"kind": "query", "value": "a", "outcome": "truly_present"}'
        e = error_of(text.replace(history_item, history_item[:-1] + ', "value": "a"}', 1))
        self.assertIn("session.history[1].value:", str(e))
        self.assertEqual(kind_of('{"format": "bloomproof-session", "version": 2, "x": [{"y": 1, "y": 1}]}'), "invalid")
        self.assertEqual(kind_of('{"format": "bloomproof-session", "version": 99, "": 1, "": 1}'), "invalid")
        # Step 2 comes first: a repeated key in a text that is not JSON is a syntax error.
        self.assertEqual(kind_of('{"format": "bloomproof-session", "version": 1, "version": 1,}'), "syntax")

    def test_byte_order_mark_and_control_characters(self):
        text = json.dumps(FIXTURE)
        self.assertEqual(kind_of("\ufeff" + text), "syntax")
        self.assertEqual(kind_of(text + "\ufeff"), "syntax")
        self.assertIsNone(kind_of(text.replace('"query": "i"', '"query": "\ufeffi"', 1)))
        for raw in ("\x00", "\x01", "\x1f", "\t", "\n"):
            self.assertEqual(kind_of(text.replace('"insert": ""', '"insert": "%s"' % raw, 1)), "syntax", repr(raw))
        self.assertIsNone(kind_of(text.replace('"insert": ""', '"insert": "\x7f\u2028"', 1)))

    def test_lone_surrogate_escapes_are_named_by_their_kind(self):
        text = json.dumps(FIXTURE)
        low = error_of(text.replace('"query": "i"', '"query": "\\udc00x"', 1))
        self.assertEqual(low.kind, "syntax")
        self.assertIn("\\udc00 is a low (trailing) surrogate not preceded by a high (leading) one", str(low))
        self.assertNotIn("leading surrogate", str(low))
        for escape in ("\\ud800x", "\\ud800\\u0041", "\\ud800"):
            high = error_of(text.replace('"query": "i"', '"query": "%s"' % escape, 1))
            self.assertIn("\\ud800 is a high (leading) surrogate not followed by a low (trailing) one", str(high))
        reversed_pair = error_of(text.replace('"query": "i"', '"query": "\\ude00\\ud83d"', 1))
        self.assertIn("\\ude00 is a low (trailing) surrogate", str(reversed_pair))
        self.assertIsNone(kind_of(text.replace('"query": "i"', '"query": "\\ud83d\\ude00\\uD83D\\uDE00"', 1)))

    def test_nesting_depth_and_number_range(self):
        def doc(version, x):
            return '{"format": "bloomproof-session", "version": %s, "x": %s}' % (version, x)
        self.assertEqual(kind_of(doc(2, "[" * 126 + "]" * 126)), "unsupported_version")  # 127 levels
        self.assertEqual(kind_of(doc(2, "[" * 127 + "]" * 127)), "syntax")  # 128 levels
        self.assertEqual(kind_of("[" * 127 + "]" * 127), "invalid")
        self.assertEqual(kind_of("[" * 128 + "]" * 128), "syntax")
        for big in ("1e400", "-1e400", "1E+999", "9" * 400, "-" + "9" * 400 + ".5"):
            self.assertEqual(kind_of(doc(2, big)), "syntax", big)
        for fine in ("1e-400", "1e308", "9" * 300, "-0", "18446744073709551616"):
            self.assertEqual(kind_of(doc(2, fine)), "unsupported_version", fine)
        self.assertEqual(kind_of(json.dumps(FIXTURE).replace('"version": 1', '"version": 1e400', 1)), "syntax")


class RoundtripTests(unittest.TestCase):
    def assert_roundtrip(self, session):
        before = json.dumps(session.view(), sort_keys=True)
        text = session.export()
        fresh = parse_session(text)
        self.assertEqual(json.dumps(fresh.view(), sort_keys=True), before)
        self.assertEqual(fresh.export(), text)

    def test_full_history_with_prefix(self):
        s = run(Session(), {"op": "set_draft", "field": "m", "value": "1024"}, {"op": "create"},
                {"op": "insert_many", "prefix": "w", "count": 300})
        self.assertEqual(len(s.active.history), 256)
        self.assert_roundtrip(s)
        run(s, *[{"op": "query", "value": f"q{i}"} for i in range(300)])
        self.assertTrue(s.active.negative_queries > 0)
        self.assert_roundtrip(s)  # full history without a new insertion: counters kept

    def test_random_scripts(self):
        rng = random.Random(7)
        alphabet = ["a", "b", "c", "é", "e\u0301", " ", "😀", [0xD800], [0xDC00, 0x61], "\n", '"', "\\"]
        for _ in range(60):
            s = Session()
            for _ in range(rng.randrange(1, 80)):
                r = rng.random()
                value = [u for _ in range(rng.randrange(0, 4)) for u in
                         (lambda x: x if isinstance(x, list) else to_units(x))(rng.choice(alphabet))]
                if r < 0.05:
                    step = {"op": "set_draft", "field": rng.choice("mk"), "value": rng.choice(["8", "16", "08", "3", "x"])}
                elif r < 0.12:
                    step = {"op": "create"}
                elif r < 0.5:
                    step = {"op": "insert", "value": value}
                elif r < 0.85:
                    step = {"op": "query", "value": value}
                elif r < 0.9:
                    step = {"op": "insert_example"}
                elif r < 0.93:
                    step = {"op": "reset"}
                else:
                    step = {"op": "set_panel", "panel": rng.choice(["positions", "model"]), "open": rng.random() < .5}
                before = json.dumps(s.view(), sort_keys=True)
                try:
                    run_step(s, step)
                except SessionError:
                    self.assertEqual(json.dumps(s.view(), sort_keys=True), before)
                self.assert_roundtrip(s)


class DisplayTests(unittest.TestCase):
    def test_matches_json_dumps_for_well_formed(self):
        for text in ["a", "a b\n", '"q"\t', "é😀", "\x7f\u2028/", "".join(map(chr, range(0x20)))]:
            self.assertEqual(display(tuple(to_units(text))), json.dumps(text, ensure_ascii=False))


if __name__ == "__main__":
    unittest.main()


class SaveFillTest(unittest.TestCase):
    """Adapter protocol 3 (ADAPTER.md "Changes"): save_local's fill. By hand: 50000 emoji
    are 100000 code units (saved, though 200000 UTF-8 bytes); 50000 emoji and an "x" are
    100001 units (kept, though 50001 code points); 100000 "é" are 100000 units (saved);
    "ab" to 5 units is "ababx"."""

    def test_the_state_is_the_fill_to_exactly_units_code_units(self):
        from bloomproof_py.session import save_state
        self.assertEqual(save_state(5, "ab"), "ababx")
        self.assertEqual(save_state(3, "\U0001F600"), "\U0001F600x")
        self.assertEqual(save_state(4, None), "xxxx")

    def test_the_limit_counts_utf16_code_units(self):
        session = Session()
        out = [run_step(session, {"op": "save_local", "units": u, "fill": f})["save"]
               for u, f in [(100000, "\U0001F600"), (100001, "\U0001F600"), (100000, "\u00e9")]]
        self.assertEqual([s["outcome"] for s in out], ["saved", "kept", "saved"])
        self.assertEqual(out[0]["stored_units"], 100000)
        self.assertEqual(out[2]["stored_units"], 100000)

    def test_an_empty_or_non_text_fill_is_malformed(self):
        from bloomproof_py.session import MalformedStep
        for fill in ("", 7, None):
            with self.assertRaises(MalformedStep):
                run_step(Session(), {"op": "save_local", "units": 1, "fill": fill})
