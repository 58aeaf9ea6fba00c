"""Self-tests of check_vectors.py (pytest, with bloomproof_py installed) on the snapshot
lookups' shape: the committed snapshots file passes; a changed triple under a lookup's
`expect` is a failure naming the lookup; a lookup in format 3's shape (the three
booleans beside `item_hex`) is malformed."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# The installed checker, as a process.
CHECKER = [sys.executable, "-m", "bloomproof_py.check_vectors"]
SNAPSHOTS = os.path.normpath(os.path.join(HERE, "..", "..", "vectors", "doc-membership-v1", "snapshots.json"))


class SnapshotLookupsTest(unittest.TestCase):
    def check(self, change):
        """Runs the checker on the committed snapshots file after `change(data)`."""
        with open(SNAPSHOTS, encoding="utf-8") as f:
            data = json.load(f)
        change(data)
        with tempfile.TemporaryDirectory() as root:
            folder = os.path.join(root, "doc-membership-v1")
            os.mkdir(folder)
            path = os.path.join(folder, "snapshots.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(data, f)
            return subprocess.run([*CHECKER, path], capture_output=True, text=True,
                                  timeout=120)

    def test_the_committed_file_passes(self):
        run = self.check(lambda data: None)
        self.assertEqual(run.returncode, 0, run.stdout)
        self.assertTrue(run.stdout.rstrip().endswith(" 0 failed"), run.stdout)

    def test_a_changed_triple_fails_naming_the_lookup(self):
        def flip(data):
            lookup = data["cases"][0]["lookups"][4]
            self.assertEqual(lookup["item_hex"], "646f632d3034")
            lookup["expect"]["duplicate"] = not lookup["expect"]["duplicate"]
        run = self.check(flip)
        self.assertEqual(run.returncode, 1)
        self.assertIn("lookups[4] (646f632d3034).expect.duplicate", run.stdout)
        self.assertTrue(run.stdout.rstrip().endswith(" 1 failed"), run.stdout)

    def test_the_format_3_lookup_shape_is_malformed(self):
        def flatten(data):
            for case in data["cases"]:
                for lookup in case["lookups"]:
                    lookup.update(lookup.pop("expect"))
        run = self.check(flatten)
        self.assertEqual(run.returncode, 1)
        self.assertIn("unknown key(s) duplicate, exact_checked, maybe_present", run.stdout)

    def test_a_missing_boolean_in_expect_is_malformed(self):
        run = self.check(lambda data: data["cases"][0]["lookups"][0]["expect"].pop("exact_checked"))
        self.assertEqual(run.returncode, 1)
        self.assertIn("lookups[0].expect: missing key 'exact_checked'", run.stdout)


if __name__ == "__main__":
    unittest.main()
