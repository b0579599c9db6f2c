"""Fill the English catalog: each msgstr mirrors its msgid (the code is written in English).

Run after ``pybabel update`` so the English catalog stays complete and the
catalog test (no untranslated entries) passes:

    python locales/mirror_english.py && pybabel compile -d locales -D messages
"""

from pathlib import Path

from babel.messages.pofile import read_po, write_po

PO = Path(__file__).parent / "en" / "LC_MESSAGES" / "messages.po"


def main() -> None:
    with PO.open("rb") as f:
        catalog = read_po(f, locale="en")
    for message in catalog:
        if message.id:
            message.string = tuple(message.id) if message.pluralizable else message.id
            message.flags.discard("fuzzy")
    with PO.open("wb") as f:
        write_po(f, catalog)  # same line width as pybabel, so diffs stay small


if __name__ == "__main__":
    main()
