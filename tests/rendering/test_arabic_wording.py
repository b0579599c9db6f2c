"""House style of the Arabic catalogs, so a later edit cannot quietly undo the review.

Why these rules: the bot is read by engineers across the Arab world, so the replies keep one
term per idea in all three domains (المعامل for the speed-up ratio, never النسبة), Arabic
punctuation and «» quotes, and counts of 11-99 in the accusative (ساعةً، يومًا) that Babel's
"many" plural form selects.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from bot.models import Lang
from bot.rendering.i18n import translations

LOCALES = Path(__file__).resolve().parents[2] / "locales"
DOMAINS = ("messages", "slack", "records")
ARABIC = r"[\u0600-\u06FF]"
# 11-99 "many" form: a construct with a magnitude word ("12 مليار معلمة") carries no tanween.
MAGNITUDES = ("ألف", "مليون", "مليار", "تريليون")


def arabic_entries(domain: str):
    with (LOCALES / "ar" / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        catalog = read_po(f, locale="ar")
    return [m for m in catalog if m.id]


def prose(text: str) -> str:
    """The translated wording only: commands in backticks are what users type, kept as is."""
    return re.sub(r"`[^`]*`", "", text)


def all_strings():
    for domain in DOMAINS:
        for m in arabic_entries(domain):
            for text in m.string if isinstance(m.string, tuple) else (m.string,):
                yield domain, m.id, prose(text)


@pytest.mark.parametrize("domain", DOMAINS)
def test_the_ratio_is_always_called_al_muamil(domain):
    wrong = [
        m.id
        for m in arabic_entries(domain)
        for text in (m.string if isinstance(m.string, tuple) else (m.string,))
        if re.search(r"(?<!ب)(?:ال)?نسبة", prose(text))  # "أطول بنسبة 20%" is a percentage
    ]
    assert not wrong


def test_arabic_punctuation_and_quotes():
    for domain, msgid, text in all_strings():
        assert not re.search(f"{ARABIC}[,;?]|[,;?] ?{ARABIC}", text), (domain, msgid, text)
        assert "“" not in text and '"' not in text, (domain, msgid, text)


@pytest.mark.parametrize("domain", ["messages", "records"])
def test_counts_from_11_to_99_are_accusative(domain):
    for m in arabic_entries(domain):
        if not isinstance(m.string, tuple) or any(w in m.string[4] for w in MAGNITUDES):
            continue
        assert "\u064b" in m.string[4], (m.id, m.string[4])  # tanween fath: ساعةً، يومًا


@pytest.mark.parametrize(
    ("n", "words"),
    [(1, "ساعة واحدة"), (2, "ساعتان"), (3, "3 ساعات"), (11, "11 ساعةً"), (100, "100 ساعة")],
)
def test_hours_read_naturally_for_each_plural_form(n, words):
    ngettext = translations(Lang.AR, "messages").ngettext
    assert ngettext("%(n)s hour", "%(n)s hours", n) % {"n": n} == words


def test_slack_labels_keep_their_brace_placeholders():
    for m in arabic_entries("slack"):
        assert set(re.findall(r"\{\w+\}", m.id)) == set(re.findall(r"\{\w+\}", m.string)), m.id
