"""The ``records`` gettext domain: complete, consistent with the code, compiled."""

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_file
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

import bot.rendering.records as source
from bot.models import Lang

LOCALES = Path(__file__).parents[2] / "locales"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def catalog(lang: Lang):
    with (LOCALES / lang.value / "LC_MESSAGES" / "records.po").open("rb") as f:
        return read_po(f, locale=lang.value)


def code_ids() -> set:
    found = extract_from_file("python", source.__file__, keywords={"tr": None, "ntr": (1, 2)})
    return {message if isinstance(message, str) else message[0] for _, message, _, _ in found}


@pytest.mark.parametrize("lang", list(Lang))
def test_every_message_in_the_code_is_translated(lang):
    entries = {m.id if isinstance(m.id, str) else m.id[0]: m for m in catalog(lang) if m.id}
    assert code_ids() == set(entries)
    for entry in entries.values():
        strings = entry.string if isinstance(entry.string, tuple) else (entry.string,)
        assert all(strings) and not entry.fuzzy, entry.id
        wanted = set(PLACEHOLDER.findall(entry.id if isinstance(entry.id, str) else entry.id[1]))
        for string in strings:
            # Arabic singular/dual forms may spell the number out ("بطاقة واحدة").
            assert set(PLACEHOLDER.findall(string)) <= wanted, (entry.id, string)


def test_arabic_has_all_six_plural_forms():
    ar = catalog(Lang.AR)
    assert ar.num_plurals == 6
    plurals = [m for m in ar if m.id and not isinstance(m.id, str)]
    assert plurals and all(len(m.string) == 6 for m in plurals)


@pytest.mark.parametrize("lang", list(Lang))
def test_compiled_catalog_matches_its_source(lang):
    with (LOCALES / lang.value / "LC_MESSAGES" / "records.mo").open("rb") as f:
        compiled = {_key(m.id): _key(m.string) for m in read_mo(f) if m.id}
    assert compiled == {_key(m.id): _key(m.string) for m in catalog(lang) if m.id}


def _key(value):
    return value if isinstance(value, str) else tuple(value)
