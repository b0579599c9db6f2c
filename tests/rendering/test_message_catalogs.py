"""The gettext catalogs match the code: nothing missing, untranslated, fuzzy, broken or stale."""

from __future__ import annotations

from io import BytesIO
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from bot.models import Lang
from bot.rendering.i18n import DOMAIN, locales_dir

ROOT = Path(__file__).resolve().parents[2]
LOCALES = ROOT / "locales"


def code_msgids() -> set[str | tuple[str, str]]:
    """What `pybabel extract -F babel.cfg` finds in the code right now."""
    with (ROOT / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    found: set[str | tuple[str, str]] = set()
    for _file, _line, message, _comments, _context in extract_from_dir(
        ROOT, method_map, options_map
    ):
        found.add(message if isinstance(message, str) else tuple(message))
    return found


def po_catalog(lang: Lang):
    with (LOCALES / lang.value / "LC_MESSAGES" / f"{DOMAIN}.po").open("rb") as f:
        return read_po(f, locale=lang.value)


def as_table(catalog) -> dict:
    return {
        message.id if isinstance(message.id, str) else tuple(message.id): message.string
        if isinstance(message.string, str)
        else tuple(message.string)
        for message in catalog
        if message.id
    }


def test_the_code_has_messages():
    assert len(code_msgids()) > 50


@pytest.mark.parametrize("lang", list(Lang))
def test_every_code_message_is_in_the_catalog(lang):
    missing = code_msgids() - set(as_table(po_catalog(lang)))
    assert not missing, f"run pybabel extract/update for {lang}: {sorted(map(str, missing))}"


@pytest.mark.parametrize("lang", list(Lang))
def test_catalog_has_no_leftover_messages(lang):
    leftover = set(as_table(po_catalog(lang))) - code_msgids()
    assert not leftover, f"obsolete entries in {lang}: {sorted(map(str, leftover))}"


@pytest.mark.parametrize("lang", list(Lang))
def test_every_entry_is_translated_and_not_fuzzy(lang):
    catalog = po_catalog(lang)
    for message in catalog:
        if not message.id:
            continue
        forms = [message.string] if isinstance(message.string, str) else list(message.string)
        assert all(forms), f"untranslated in {lang}: {message.id!r}"
        assert not message.fuzzy, f"fuzzy in {lang}: {message.id!r}"
        if message.pluralizable:
            assert len(forms) == catalog.num_plurals


@pytest.mark.parametrize("lang", list(Lang))
def test_placeholders_agree_with_the_msgid(lang):
    problems = [(m.id, [str(e) for e in errors]) for m, errors in po_catalog(lang).check()]
    assert not problems


def test_arabic_uses_cldr_six_plural_forms():
    catalog = po_catalog(Lang.AR)
    assert catalog.num_plurals == 6
    assert "n % 100 >= 3 && n % 100 <= 10" in catalog.plural_expr


@pytest.mark.parametrize("lang", list(Lang))
def test_compiled_catalog_is_not_stale(lang):
    """The shipped .mo says exactly what compiling its .po now says."""
    fresh = BytesIO()
    write_mo(fresh, po_catalog(lang))
    fresh.seek(0)
    with (LOCALES / lang.value / "LC_MESSAGES" / f"{DOMAIN}.mo").open("rb") as f:
        shipped = read_mo(f)
    assert as_table(shipped) == as_table(read_mo(fresh))


def test_runtime_reads_the_repository_catalogs_in_a_checkout():
    assert locales_dir().resolve() in (LOCALES.resolve(), (ROOT / "bot" / "locales").resolve())
