"""engine.sha256: the same digests as hashlib's SHA-256, without loading OpenSSL."""

import hashlib

from hypothesis import given, strategies as st

from uptown_cli.engine.sha256 import sha256


@given(st.binary(max_size=300), st.binary(max_size=300))
def test_sha256_gives_hashlibs_digests(first, second):
    ours, theirs = sha256(first), hashlib.sha256(first)
    copy = ours.copy()
    ours.update(second)
    theirs.update(second)
    assert ours.digest() == theirs.digest()
    assert copy.hexdigest() == hashlib.sha256(first).hexdigest()
