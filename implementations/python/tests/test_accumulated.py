"""Self-tests of check_accumulated.py (pytest, with bloomproof_py installed): the published
checkpoint of each protocol is reproduced, and a changed digest is reported as a
difference with a non-zero exit."""
import json
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRIPT = os.path.join(HERE, "check_accumulated.py")
PUBLISHED = os.path.normpath(os.path.join(HERE, "..", "..", "spec", "accumulated.json"))


class CheckpointTest(unittest.TestCase):
    def run_script(self, *args):
        return subprocess.run([sys.executable, SCRIPT, "--quick", *args], capture_output=True, text=True,
                              timeout=120)

    def test_checkpoints_match(self):
        run = self.run_script()
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("2 passed, 0 failed", run.stdout)

    def run_changed(self, change):
        with open(PUBLISHED, encoding="utf-8") as f:
            published = json.load(f)
        entries = {entry["protocol"]: entry for entry in published["protocols"]}
        change(published, entries)
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "accumulated.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(published, f)
            return self.run_script(path)

    def test_a_changed_digest_differs(self):
        def change(_, entries):
            entries["fnv1a-utf16-v1"]["checkpoint"]["digest"] = "00" * 32
        run = self.run_changed(change)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("DIFFERS", run.stdout)
        self.assertIn("1 passed, 1 failed", run.stdout)

    def test_an_unknown_generator_differs(self):
        def change(_, entries):
            entries["doc-membership-v1"]["generator"] = "another-generator"
        run = self.run_changed(change)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("doc-membership-v1: unknown generator 'another-generator': DIFFERS", run.stdout)

    def test_a_protocol_the_package_does_not_implement_is_skipped(self):
        def change(published, entries):
            other = json.loads(json.dumps(entries["doc-membership-v1"]))
            other["protocol"] = "doc-membership-v9"
            published["protocols"] = [entries["doc-membership-v1"], other]
        run = self.run_changed(change)
        self.assertEqual(run.returncode, 0, run.stdout + run.stderr)
        self.assertIn("accumulated.doc-membership-v9: a protocol this package does not implement: skipped",
                      run.stdout)
        self.assertIn("1 passed, 0 failed, 1 skipped", run.stdout)


if __name__ == "__main__":
    unittest.main()
