"""``fetch_page(find=...)``: the passages around a phrase, with offsets ``start_index`` takes."""

from __future__ import annotations

import sys

import pytest
from helpers.loopback import loopback_config
from helpers.siteserver import SiteServer, page
from hypothesis import given, settings
from hypothesis import strategies as st
from webgrip import Tools
from webgrip.tools.find import MAX_FIND_CHARS, find_passages
from webgrip.tools.schemas import tool_schemas

DOC = "\n\n".join(
    [f"Section {n}. The quick brown fox number {n} jumps over the lazy dog." for n in range(60)]
    + ["Rate limits: the API allows 100 requests per minute per key."]
    + [f"Trailer {n}." for n in range(20)]
)


def test_every_match_is_found_case_insensitively_at_its_offset():
    found = find_passages(DOC, "RATE LIMITS", 2000)
    assert found.exact and found.total == 1 and found.next_start is None
    (p,) = found.passages
    assert DOC[p.at : p.at + len("rate limits")].lower() == "rate limits"
    assert "100 requests per minute" in p.text
    assert p.text == DOC[p.start : p.end].strip()


def test_many_matches_share_the_budget_and_say_where_the_rest_begin():
    found = find_passages(DOC, "lazy dog", 1000)
    assert found.exact and found.total == 60
    assert 1 < len(found.passages) <= 8
    assert sum(len(p.text) for p in found.passages) <= 1000 + 10
    # Each shown match is where the page says; the next search starts after the last shown.
    for p in found.passages:
        assert DOC[p.at : p.at + 8] == "lazy dog"
    assert found.next_start is not None and found.next_start >= found.passages[-1].end
    after = find_passages(DOC, "lazy dog", 1000, start=found.next_start)
    assert after.passages[0].at == found.next_start
    assert after.total == 60 - sum(
        1 for h in range(len(DOC)) if DOC.startswith("lazy dog", h) and h < found.next_start
    )


def test_without_an_exact_hit_the_paragraphs_sharing_its_words():
    found = find_passages(DOC, "requests per key limit", 2000)
    assert not found.exact and found.passages
    assert "requests per minute per key" in found.passages[0].text
    assert find_passages(DOC, "zebra crossing", 2000).passages == []


def test_offsets_hold_when_lowering_changes_a_characters_length():
    text = "İstanbul " * 3 + "the Target phrase here"
    (p,) = find_passages(text, "target phrase", 500).passages
    assert text[p.at : p.at + 13] == "Target phrase"


def _fold_spec(text: str) -> str:
    """What ``find`` treats as the same letter, one character at a time: the first character
    of its lower case (``İ`` is ``i``), and a final sigma as any sigma."""
    return "".join(c.lower()[0] for c in text).replace("ς", "σ")


#: Every character whose lower case is longer or depends on its neighbours.
_AWKWARD = [chr(c) for c in range(sys.maxunicode + 1) if len(chr(c).lower()) != 1] + ["Σ"]


@pytest.mark.parametrize("char", [*_AWKWARD, "ẞ", "ß", "ﬁ", "ς"])
def test_a_phrase_with_any_case_mapping_finds_itself_at_its_offset(char):
    # İ used to make every phrase holding it miss, even copied from the page.
    phrase = f"Ab{char}Cd"
    text = f"{char * 5} lead {phrase}X and {phrase.upper()} tail {char}"
    found = find_passages(text, phrase, 2000)
    assert found.exact, char
    first = found.passages[0].at
    assert text[first : first + len(phrase)] == phrase
    assert found.total == 1 + (_fold_spec(phrase.upper()) == _fold_spec(phrase))


def test_a_sigma_folds_the_same_wherever_it_stands():
    # Lowered alone, the phrase ends in a final sigma; on the page the letter after makes it σ.
    text = "ΟΔΟΣΚΑΙ and more"
    (p,) = find_passages(text, "ΟΔΟΣ", 500).passages
    assert p.at == 0


_LETTERS = st.sampled_from([*"aAzZ iIıİßẞﬁσςΣéÉ", "Ǆ", "ǅ", "ǆ", "ﬃ", "\u0307"])


@settings(max_examples=300, deadline=None)
@given(
    st.lists(_LETTERS, min_size=1, max_size=120).map("".join),
    st.integers(0, 119),
    st.integers(1, 40),
)
def test_a_phrase_cut_from_a_page_is_found_where_it_folds_equal(text, at, size):
    phrase = text[at : at + size]
    if not phrase.strip() or "  " in phrase.strip():
        return  # find collapses spaces: such a phrase is not on the page as asked
    phrase = phrase.strip()
    found = find_passages(text, phrase, 10_000)
    assert found.exact
    for p in found.passages:
        assert _fold_spec(text[p.at : p.at + len(phrase)]) == _fold_spec(phrase)


@pytest.mark.parametrize("bad", ["", "   ", "x" * (MAX_FIND_CHARS + 1)])
def test_an_empty_or_over_long_phrase_is_refused(bad):
    with pytest.raises(ValueError):
        find_passages(DOC, bad, 1000)


def test_hostile_repetition_stays_a_few_passes():
    # A phrase that nearly matches everywhere: str.find's work stays linear in the page.
    text = "a" * 1_000_000
    found = find_passages(text, "a" * 199 + "b", 1000)
    assert found.passages == [] and found.total == 0


@pytest.fixture
def site():
    with SiteServer() as s:
        paragraphs = "".join(f"<p>{line}</p>" for line in DOC.split("\n\n"))
        s.route(
            "/doc",
            page(
                f"<title>API guide</title><main><article><h1>API guide</h1>"
                f"{paragraphs}</article></main>"
            ),
        )
        yield s


def test_fetch_page_find_through_the_tool(site, tmp_path):
    tools = Tools(loopback_config(tmp_path))
    answer = tools.fetch_page(site.url("/doc"), find="rate limits")
    assert 'Found 1 match for "rate limits"' in answer
    assert "100 requests per minute" in answer and "Section 3." not in answer
    at = int(answer.split("[at character ")[1].split("]")[0])
    # The offset is one start_index reads on from.
    read_on = tools.fetch_page(site.url("/doc"), start_index=at, max_length=200)
    assert "Rate limits: the API allows" in read_on.split("\n\n", 1)[1][:80]


def test_fetch_page_find_pages_through_matches(site, tmp_path):
    tools = Tools(loopback_config(tmp_path))
    first = tools.fetch_page(site.url("/doc"), find="lazy dog", max_length=500)
    assert "Found 60 matches" in first
    nxt = int(first.split('find="lazy dog" and start_index=')[1].split("]")[0])
    second = tools.fetch_page(site.url("/doc"), find="lazy dog", max_length=500, start_index=nxt)
    assert f"from character {nxt}" in second
    assert first.split("[at character ")[1] != second.split("[at character ")[1]


def test_fetch_page_find_errors_are_answers(site, tmp_path):
    tools = Tools(loopback_config(tmp_path))
    assert tools.fetch_page(site.url("/doc"), find="x" * 500).startswith("Error: find must")
    assert tools.fetch_page(site.url("/doc"), find=5).startswith("Error:")
    assert "No match for" in tools.fetch_page(site.url("/doc"), find="zebra crossing")


def test_fetch_page_find_on_a_page_with_a_dotted_capital_i(tmp_path):
    # An İ on the page: the phrase holding it is found, at the offset start_index reads.
    filler = [f"<p>Filler paragraph {n} about nothing in particular.</p>" for n in range(100)]
    body = "".join(filler[:50]) + "<p>İSTANBUL is the largest city.</p>" + "".join(filler[50:])
    with SiteServer() as s:
        s.route("/tr", page(f"<title>Cities</title><main><article>{body}</article></main>"))
        tools = Tools(loopback_config(tmp_path))
        answer = tools.fetch_page(s.url("/tr"), find="İstanbul is", max_length=500)
        assert 'Found 1 match for "İstanbul is"' in answer
        at = int(answer.split("[at character ")[1].split("]")[0])
        read_on = tools.fetch_page(s.url("/tr"), start_index=at, max_length=200)
        assert read_on.split("\n\n", 1)[1].startswith("İSTANBUL is the largest city.")


@pytest.mark.parametrize("fmt", ["openai", "openai-responses", "anthropic", "mcp"])
def test_find_is_in_every_schema(fmt):
    schema = next(s for s in tool_schemas(Tools(), fmt) if "fetch_page" in str(s)[:200])
    text = str(schema)
    assert "'find'" in text and "passages" in text
