"""bloomproof_py: an independent Python implementation of the two bloomproof protocols.

Written from PROTOCOLS.md, the seed documents, spec/README.md, spec/ADAPTER.md and
spec/fnv1a-utf16-v1/SESSION.md; standard library only (Python 3.11+).

* doc_membership_v1  - framing, SHA-256 positions, the immutable DocumentPrefilter snapshot
* fnv1a_utf16_v1     - FNV-1a over UTF-16 code units, h1/h2, exact positions, estimates
* session            - the fnv1a-utf16-v1 teaching-filter session model
"""

__version__ = "0.1.0"
