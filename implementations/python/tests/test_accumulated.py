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

    def test_a_changed_digest_differs(self):
        with open(PUBLISHED, encoding="utf-8") as f:
            published = json.load(f)
        published["protocols"][1]["checkpoint"]["digest"] = "00" * 32
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "accumulated.json")
            with open(path, "w", encoding="utf-8") as f:
                json.dump(published, f)
            run = self.run_script(path)
        self.assertEqual(run.returncode, 1, run.stdout + run.stderr)
        self.assertIn("DIFFERS", run.stdout)
        self.assertIn("1 passed, 1 failed", run.stdout)


if __name__ == "__main__":
    unittest.main()
