"""The reader's words are data per language, and each rule is documented.

Every table in words/en.toml and words/ar.toml is read by some rule (no dead
data); every setup-number rule is named in docs/reading.md; the unit table is
the models' one.
"""

import re
import tomllib
from pathlib import Path

import pytest

from bot.models import HOURS_PER_UNIT, TimeUnit
from bot.understanding.rules.setup.setup_numbers import RULES
from bot.understanding.values.lexicon import AR_UNITS, EN_UNITS, UNIT_CODES, UNIT_HOURS
from bot.understanding.words import mapping, table

ROOT = Path(__file__).resolve().parents[2]
WORDS = ROOT / "bot/understanding/words"
SOURCE = "\n".join(p.read_text() for p in (ROOT / "bot/understanding").rglob("*.py"))
TABLES = sorted(
    {key for lang in ("en", "ar") for key in tomllib.loads((WORDS / f"{lang}.toml").read_text())}
)


@pytest.mark.parametrize("name", TABLES)
def test_every_words_table_is_read_by_a_rule(name):
    assert re.search(rf"\b{name}\b", SOURCE), f"{name} is in the words files but no rule reads it"


@pytest.mark.parametrize("name", [name for name, _ in RULES])
def test_every_setup_rule_is_documented(name):
    assert f"`{name}`" in (ROOT / "docs/reading.md").read_text()


def test_one_unit_table():
    for code, unit in UNIT_CODES.items():
        assert UNIT_HOURS[code] == HOURS_PER_UNIT[unit]
    assert UNIT_HOURS["mo"] * 12 == HOURS_PER_UNIT[TimeUnit.YEARS]
    assert EN_UNITS["days"] == "d" and EN_UNITS["dyas"] == "d"  # a slip of a unit word
    assert AR_UNITS["يومين"] == ("d", 2) and AR_UNITS["ساعه"] == ("h", 1)


def test_tables_are_normalised_on_load():
    assert "بطاقه" in table("GPU_NOUNS")  # written with ta marbuta or not, read as normalised
    assert mapping("UNIT_WORDS_ONE")["h"] == ["ساعه"]
