"""Run seed 000's own self_check() against bloomproof_py's DocumentPrefilter.

The seed's module text is read from the source document seed 000, which this project
does not carry: the file BLOOMPROOF_SEED_000 names (skipped without it). Its
DocumentPrefilter is replaced by ours, and its self_check() must pass with the published
figures (d291, doc-04/41/43/44/51, bit 4).
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))

from bloomproof_py import doc_membership_v1 as doc  # noqa: E402

SEED = os.environ.get("BLOOMPROOF_SEED_000", "")


@unittest.skipUnless(SEED and os.path.exists(SEED), "BLOOMPROOF_SEED_000 does not name the seed 000 document")
class SeedSelfCheck(unittest.TestCase):
    def test_self_check_passes_with_our_snapshot(self):
        with open(SEED, encoding="utf-8") as f:
            text = f.read()
        start = text.index('"""Offline immutable byte-membership prefilter')
        end = text.index("if __name__ == '__main__':")
        namespace = {"__name__": "seed000"}
        exec(compile(text[start:end], "seed000", "exec"), namespace)  # noqa: S102 - a trusted local document
        namespace["DocumentPrefilter"] = doc.DocumentPrefilter
        namespace["_message"] = doc.message
        namespace["_positions"] = doc._positions_unchecked
        report = namespace["self_check"]()
        self.assertTrue(report["all_passed"])
        self.assertEqual(report["fixture"]["packed_little_endian_hex"], "d291")
        self.assertEqual(report["fixture"]["false_positive_items"], ["doc-04", "doc-41", "doc-43", "doc-44", "doc-51"])
        self.assertEqual(report["shared_bit_fault"], {"removed_item": "doc-00", "damaged_member": "doc-01",
                                                      "cleared_bit": 4})


if __name__ == "__main__":
    unittest.main()
