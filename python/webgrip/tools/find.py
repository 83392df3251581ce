"""``fetch_page(find=...)``: the passages of a page around a phrase, each with its offset.

An agent looking for one fact in a long page should not page through all of it. With ``find``
it gets the places where the phrase occurs (case-insensitive), a little context around each,
and the character offset of each, so ``start_index`` reads on from exactly there. When the
phrase does not occur as written, the paragraphs sharing most of its words are returned
instead, saying so.

Every pass here is linear in the page: the case folding (a few ``str`` methods), ``str.find``
(the phrase is at most :data:`MAX_FIND_CHARS` long), one split into paragraphs and words; no
regular expression touches the page. The case folding maps each character to one character,
whatever it is (``İ``, a final sigma), so offsets into the folded page are offsets into the
page, and a phrase copied from the page always finds itself.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["MAX_FIND_CHARS", "Passage", "Passages", "find_passages"]

#: Longer phrases are refused: a phrase is a few words, and the search's cost grows with it.
MAX_FIND_CHARS = 200
#: The most passages one answer shows; the rest are reached with ``start_index``.
MAX_PASSAGES = 8
#: Context around a match: at least this many characters in all, however many matches share
#: the answer's ``max_length``.
MIN_PASSAGE_CHARS = 240
#: ... and at most this many: a match is a place to start reading, not the page.
MAX_PASSAGE_CHARS = 1200
#: Words this short (and these) say little about where a topic is discussed.
_STOP_WORDS = frozenset(
    (
        "the",
        "and",
        "for",
        "are",
        "was",
        "were",
        "with",
        "that",
        "this",
        "from",
        "you",
        "your",
        "has",
        "have",
        "had",
        "not",
        "but",
        "its",
        "can",
        "all",
        "any",
        "how",
        "what",
        "when",
        "where",
        "which",
        "who",
        "why",
        "will",
        "into",
        "than",
        "then",
        "them",
        "they",
        "their",
        "there",
        "about",
        "also",
        "been",
        "being",
        "more",
        "most",
        "other",
        "some",
        "such",
        "only",
        "over",
    )
)


@dataclass(frozen=True)
class Passage:
    """``text`` is ``content[start:end]``; ``at`` is where the match (or paragraph) begins."""

    at: int
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Passages:
    """What a search found: ``exact`` (the phrase occurs) or the best paragraphs by shared
    words; ``total`` matches (or scored paragraphs) from the search's start, ``shown`` of them
    here, and ``next_start`` to pass as ``start_index`` for those after (``None``: no more)."""

    passages: list[Passage]
    exact: bool
    total: int
    next_start: int | None


#: The characters whose ``str.lower`` is longer than one character, each with its simple
#: (one-character) lower case from the Unicode database. Python's full mapping lengthens only
#: ``İ`` (to ``i`` and a combining dot); the test suite checks this table against every code
#: point, so a Python whose Unicode adds another one fails there rather than here.
_LENGTHENING = {"\u0130": "i"}
#: Lower-case forms that depend on where the character stands: capital sigma lowers to ``ς``
#: at the end of a word and to ``σ`` elsewhere, so a phrase cut from the page could lower
#: differently alone. Both fold to ``σ``.
_CONTEXTUAL = {"\u03c2": "\u03c3"}
#: Characters lowered at a time (see :func:`_fold_case`).
_FOLD_SLICE = 1 << 18


def _fold_case(text: str) -> str:
    """``text`` lower-cased one character for one: the same length, ``_fold_case(t)[i]``
    depending on ``t[i]`` alone, so offsets carry over and a phrase cut from a page folds to
    what the page folds to at that place. Each pass is one ``str`` method over the text (a
    few in all), never a loop in Python, whatever the characters."""
    for wide, simple in _LENGTHENING.items():
        if wide in text:
            text = text.replace(wide, simple)
    # CPython lowers a non-ASCII string through a scratch buffer of 12 bytes per character:
    # lowered in slices, a long page costs a slice's scratch, not twelve times its own size.
    # Cutting anywhere is safe: the only mapping that looks at neighbours is folded below.
    if len(text) > _FOLD_SLICE and not text.isascii():
        text = "".join(
            text[at : at + _FOLD_SLICE].lower() for at in range(0, len(text), _FOLD_SLICE)
        )
    else:
        text = text.lower()
    for contextual, plain in _CONTEXTUAL.items():
        if contextual in text:
            text = text.replace(contextual, plain)
    return text


def _widen(content: str, start: int, end: int, width: int) -> tuple[int, int]:
    """``[start, end)`` grown to about ``width`` characters, on word boundaries."""
    extra = max(0, width - (end - start))
    lo = max(0, start - extra // 3)  # more after the match than before: text reads on
    hi = min(len(content), end + extra - (start - lo))
    if lo > 0:  # from the start of the match's line when it is in reach, else of a word
        line = content.rfind("\n", lo, start)
        space = content.find(" ", lo, start)
        lo = line + 1 if line != -1 else space + 1 if space != -1 else lo
    if hi < len(content):  # to the end of a line in the second half of the reach, or a word
        line = content.rfind("\n", end + (hi - end) // 2, hi)
        space = content.rfind(" ", end, hi)
        hi = line if line != -1 else space if space != -1 else hi
    return lo, hi


def _passage(content: str, at: int, lo: int, hi: int) -> Passage:
    return Passage(at=at, start=lo, end=hi, text=content[lo:hi].strip())


def find_passages(content: str, phrase: str, budget: int, start: int = 0) -> Passages:
    """The passages of ``content`` (from ``start`` on) around ``phrase``, within about
    ``budget`` characters in all. Raises ``ValueError`` for an empty or over-long phrase."""
    phrase = " ".join(phrase.split())
    if not phrase:
        raise ValueError("find must hold a word or phrase to look for")
    if len(phrase) > MAX_FIND_CHARS:
        raise ValueError(f"find must be at most {MAX_FIND_CHARS} characters (a few words)")
    lowered = _fold_case(content)
    needle = _fold_case(phrase)
    hits = []
    at = lowered.find(needle, start)
    while at != -1:
        hits.append(at)
        at = lowered.find(needle, at + max(1, len(needle)))
    if hits:
        return _around(content, hits, len(needle), budget, exact=True)
    return _by_shared_words(content, lowered, needle, budget, start)


def _around(content: str, hits: list[int], length: int, budget: int, *, exact: bool) -> Passages:
    shown = hits[:MAX_PASSAGES]
    width = min(MAX_PASSAGE_CHARS, max(MIN_PASSAGE_CHARS, budget // len(shown)))
    passages: list[Passage] = []
    used = 0
    for at in shown:
        if passages and at < passages[-1].end:  # inside the previous passage: shown already
            continue
        lo, hi = _widen(content, at, at + length, width)
        if passages and lo < passages[-1].end:
            lo = passages[-1].end
        if used and used + (hi - lo) > budget:
            break
        passages.append(_passage(content, at, lo, hi))
        used += hi - lo
    last = passages[-1].end
    rest = [h for h in hits if h >= last]
    return Passages(passages, exact=exact, total=len(hits), next_start=rest[0] if rest else None)


def _words(text: str) -> set[str]:
    """The words of ``text`` (lower-cased) that can say what it is about."""
    words = set()
    for raw in text.split():
        word = raw.strip(".,;:!?\"'()[]{}<>*_`#|-–—/\\")
        if (len(word) >= 3 or word.isdigit()) and word not in _STOP_WORDS:
            words.add(word)
    return words


def _by_shared_words(content: str, lowered: str, needle: str, budget: int, start: int) -> Passages:
    """No exact hit: the paragraphs holding most of the phrase's words (each counted once),
    best first, shown in page order."""
    terms = _words(needle)
    if not terms:
        return Passages([], exact=False, total=0, next_start=None)
    scored: list[tuple[int, int, int]] = []  # (-score, start, end)
    at = start
    length = len(content)
    while at < length:
        end = lowered.find("\n\n", at)
        end = length if end == -1 else end
        shared = len(terms & _words(lowered[at:end]))
        # A paragraph sharing one word of a long phrase is noise: ask for half of them.
        if shared and shared * 2 >= len(terms):
            scored.append((-shared, at, end))
        at = end + 2
    if not scored:
        return Passages([], exact=False, total=0, next_start=None)
    scored.sort()
    best = sorted(scored[:MAX_PASSAGES], key=lambda s: s[1])
    width = min(MAX_PASSAGE_CHARS, max(MIN_PASSAGE_CHARS, budget // len(best)))
    passages = []
    used = 0
    for _, lo, hi in best:
        if hi - lo > width:  # a long paragraph: its start, cut at a word
            cut = content.rfind(" ", lo, lo + width)
            hi = cut if cut > lo else lo + width
        if used and used + (hi - lo) > budget:
            break
        passages.append(_passage(content, lo, lo, hi))
        used += hi - lo
    return Passages(passages, exact=False, total=len(scored), next_start=None)
