"""``render="auto"``'s cheap first test: is a page's extracted text longer than a shell's?

``client._stripped_longer`` answers ``len(text.strip()) > limit`` without copying a long
text (it runs on every fetch); it must agree with the plain expression on any text.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from webgrip.client import _stripped_longer

_SPACES = " \t\n\r\x0b\x0c\x1c\x85\xa0\u2003\u3000"
_texts = st.builds(
    lambda lead, body, trail: lead + body + trail,
    st.text(_SPACES, max_size=300),
    st.text(_SPACES + "ab", max_size=400),
    st.text(_SPACES, max_size=300),
)


@settings(max_examples=500)
@given(_texts, st.integers(min_value=0, max_value=600))
def test_agrees_with_strip(text: str, limit: int) -> None:
    assert _stripped_longer(text, limit) == (len(text.strip()) > limit)


def test_long_text_with_whitespace_edges() -> None:
    text = " " * 100 + "x" * 150 + "\n" * 100
    assert not _stripped_longer(text, 200)
    assert _stripped_longer(text, 149)
    assert _stripped_longer("y" * 5000, 200)
