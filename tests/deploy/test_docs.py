"""The README stays short and true, and every documentation page is linked.

The examples in the README (and the slash-command examples in docs/usage.md)
are what the bot says today: each is run through the bot and its first lines
compared, so a wording change that forgets the docs fails here.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.conversation import answer
from bot.models import Channel

REPO = Path(__file__).resolve().parents[2]
README = (REPO / "README.md").read_text(encoding="utf-8")
DOC_PAGES = ("usage", "reading", "advice", "predict", "deploy", "operations", "development")
BIDI = re.compile("[\u2066-\u2069\u200e\u200f\u061c]")


def test_readme_is_at_most_200_lines():
    assert len(README.splitlines()) <= 200


def test_readme_links_every_doc_page():
    linked = set(re.findall(r"\]\(docs/([a-z_-]+)\.md", README))
    assert set(DOC_PAGES) <= linked, set(DOC_PAGES) - linked
    # A page may also hang off a linked page (operations.md's durable-work part).
    for page in list(linked):
        path = REPO / "docs" / f"{page}.md"
        if path.is_file():
            linked |= set(re.findall(r"\]\(([a-z_-]+)\.md", path.read_text(encoding="utf-8")))
    existing = {p.stem for p in (REPO / "docs").glob("*.md")}
    assert existing <= linked, existing - linked


@pytest.mark.parametrize("page", ["README.md", *[f"docs/{p}.md" for p in DOC_PAGES]])
def test_no_leftover_markers_and_links_resolve(page):
    path = REPO / page
    if not path.is_file():
        pytest.skip(f"{page} is written on another branch")
    text = path.read_text(encoding="utf-8")
    assert "<!--" not in text
    for target in re.findall(r"\]\(([^)#:]+\.md)(?:#[^)]*)?\)", text):
        if Path(target).stem in DOC_PAGES and not (path.parent / target).is_file():
            continue  # a page another branch writes
        assert (path.parent / target).is_file(), (page, target)


def example_blocks(text: str, *, every: bool) -> list[list[str]]:
    """Indented blocks: a message, then the first lines of its answer."""
    blocks, current = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("    ") and not line.startswith("     "):
            current.append(line[4:])
        elif current:
            blocks.append(current)
            current = []
    chat = [b for b in blocks if len(b) > 1 and not b[0].startswith(("pip ", "mpbot", "python"))]
    return [b for b in chat if every or b[0].startswith(("/mpestimate ", "@mpestimate "))]


def asked(message: str) -> list[str]:
    if message.startswith("/mpestimate "):
        text, channel = message.removeprefix("/mpestimate "), Channel.COMMAND
    elif message.startswith("@mpestimate "):
        text, channel = message.removeprefix("@mpestimate "), Channel.MENTION
    else:
        text, channel = message, Channel.DM
    return BIDI.sub("", answer(text, channel).reply.text).splitlines()


def examples():
    readme_examples = README.split("## Examples", 1)[1].split("\n## ", 1)[0]
    found = [("README.md", b) for b in example_blocks(readme_examples, every=True)]
    usage = REPO / "docs" / "usage.md"
    found += [("docs/usage.md", b) for b in example_blocks(usage.read_text("utf-8"), every=False)]
    return found


@pytest.mark.parametrize(("page", "block"), examples(), ids=lambda x: str(x)[:40])
def test_examples_are_what_the_bot_says(page, block):
    message, *expected = block
    assert asked(message)[: len(expected)] == expected, (page, message)


def test_the_readme_shows_three_examples_in_each_language():
    blocks = example_blocks(README.split("## Examples", 1)[1].split("\n## ", 1)[0], every=True)
    arabic = [b for b in blocks if re.search("[\u0600-\u06ff]", b[0])]
    assert len(arabic) >= 3 and len(blocks) - len(arabic) >= 3
