"""bloomproof_py: an independent Python implementation of the two bloomproof protocols.

Written from the two spec/*/PROTOCOL.md, the seed documents, spec/README.md, spec/ADAPTER.md and
spec/fnv1a-utf16-v1/SESSION.md; standard library only (Python 3.11+).

* doc_membership_v1  - framing, SHA-256 positions, the immutable DocumentPrefilter snapshot
* fnv1a_utf16_v1     - FNV-1a over UTF-16 code units, h1/h2, exact positions, estimates
* session            - the fnv1a-utf16-v1 teaching-filter session model
* estimates          - the false-positive estimates of the session model
* typed              - typed values (spec/README.md) to Python values
* adapter            - the adapter (spec/ADAPTER.md); the bloomproof-py-adapter command
* check_vectors      - the vector checker; the bloomproof-py-check-vectors command

    from bloomproof_py import DocumentPrefilter, Session
"""

from .doc_membership_v1 import DocumentPrefilter
from .session import Session

__version__ = "0.1.0"
__all__ = ["DocumentPrefilter", "Session", "__version__"]
