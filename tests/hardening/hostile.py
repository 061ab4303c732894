"""Hostile text for fuzzing every inbound path: unicode, zalgo, homoglyphs, zero-width, markup.

``MOJI_FUZZ=long`` (``make fuzz``) runs every property many more times.
"""

from __future__ import annotations

import os
import unicodedata

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

LONG = os.environ.get("MOJI_FUZZ") == "long"


def fuzz(normal: int, long: int) -> settings:
    """Hypothesis settings: ``normal`` examples in ``make test``, ``long`` under ``MOJI_FUZZ=long``."""
    return settings(
        max_examples=long if LONG else normal,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


#: Characters that make a word something else: letters of other scripts that look Latin
#: (Cyrillic, Greek), zero-width and bidi controls, soft hyphen, a combining mark pile.
HOMOGLYPHS = "аеорсхуіјԁһѕАВЕКМНОРСТХΑΒΕΗΙΚΜΝΟΡΤΧΥΖαοց"
INVISIBLE = "\u200b\u200c\u200d\u2060\ufeff\u00ad\u202e\u202d\u2066\u2069\u180e"
ZALGO_MARKS = "".join(chr(c) for c in range(0x0300, 0x036F))
DANGEROUS = HOMOGLYPHS + INVISIBLE

WORDS = ("cat", "pass", "zebra", "play", "word", "join", "stop", "start", "race", "h8", "swap", "yes", "no")
MARKUP = (
    "**{w}**",
    "_{w}_",
    "`{w}`",
    "```{w}```",
    "||{w}||",
    "> {w}",
    "<@100000000000000001> {w}",
    "<@&600000000000000009>",
    "<#800000000000000002>",
    "@everyone {w}",
    "@here",
    "<!channel> {w}",
    "<https://example.com|{w}>",
    "[{w}](https://example.com)",
    ":smile: {w}",
    "{w}\n{w}",
    "'; DROP TABLE games; --",
    "%s %d {w} {{0}}",
)


@st.composite
def poisoned(draw: st.DrawFn) -> str:
    """A plausible word with at least one character that must make it no answer."""
    word = draw(st.sampled_from(WORDS))
    at = draw(st.integers(0, len(word)))
    bad = draw(st.text(alphabet=DANGEROUS, min_size=1, max_size=3))
    if draw(st.booleans()) and word:
        # a homoglyph in place of a letter: "cаt" with a Cyrillic а
        i = draw(st.integers(0, len(word) - 1))
        return word[:i] + draw(st.sampled_from(HOMOGLYPHS)) + word[i + 1 :]
    return word[:at] + bad + word[at:]


@st.composite
def zalgo(draw: st.DrawFn) -> str:
    """A word with a pile of combining marks on its letters."""
    word = draw(st.sampled_from(WORDS))
    marks = st.text(alphabet=ZALGO_MARKS, min_size=3, max_size=8)
    return "".join(ch + draw(marks) for ch in word)


def markup() -> st.SearchStrategy[str]:
    """Markdown, mentions and injection-shaped text around a word."""
    return st.builds(lambda t, w: t.format(w=w), st.sampled_from(MARKUP), st.sampled_from(WORDS))


def huge() -> st.SearchStrategy[str]:
    """4,000-character messages (Discord's and Slack's practical limit)."""
    return st.one_of(
        st.sampled_from(WORDS).map(lambda w: (w * 4000)[:4000]),
        st.text(min_size=1, max_size=20).map(lambda t: (t * 4000)[:4000] if t else "x" * 4000),
        st.just("a" * 4000),
    )


def hostile() -> st.SearchStrategy[str]:
    """Everything above, plus arbitrary unicode, blanks and ordinary words."""
    return st.one_of(
        st.text(max_size=60),
        poisoned(),
        zalgo(),
        markup(),
        huge(),
        st.sampled_from(("", " ", "\n", "\t", "\u3000", "\x00", "🙂", "🇫🇷", "ｗｏｒｄ", "𝐰𝐨𝐫𝐝")),
        st.sampled_from(WORDS),
    )


def is_poisoned(text: str) -> bool:
    """True when ``text`` holds a character that must make it no answer (or a zalgo pile)."""
    if any(ch in DANGEROUS for ch in text):
        return True
    run = 0
    for ch in unicodedata.normalize("NFKD", text):
        run = run + 1 if unicodedata.combining(ch) else 0
        if run > 2:
            return True
    return False
