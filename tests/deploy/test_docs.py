"""The README stays short and true, and every documentation page is linked.

Every chat example in the README and the docs pages (an indented block: the
message, then the first lines of the answer) is what the bot says today: each
is run through the bot, in order on a fresh local workspace (so a ``record``
example is found by a later estimate), and its lines compared; each ``mpbot
ask`` line of a command listing is run as typed. A wording or figure changed
without the docs fails here.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from bot.models import Channel, Lang

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


# A block whose first line is a shell command (not a message to the bot, and not
# ``mpbot ask "..."``, which is one): a listing of commands, or their output.
SHELL = re.compile(
    r"^(\$ |pip |python |mpbot (?!ask )|export |cp |docker |[A-Z_]+=|pybabel |IN\[|printf )"
)
# A line of a listing that asks the bot, as a user would type it in a shell.
ASKS = re.compile(r"(^|\| )mpbot ask ")


def indented_blocks(text: str) -> list[list[str]]:
    """Markdown's indented code blocks, their lines without the indent."""
    blocks, current = [], []
    for line in [*text.splitlines(), ""]:
        if line.startswith("    ") and not line.startswith("     "):
            current.append(line[4:])
        elif current:
            blocks.append(current)
            current = []
    return blocks


def is_listing(block: list[str]) -> bool:
    """Commands to type (``pip ...``, ``mpbot console``, a row of ``mpbot ask`` lines)."""
    return bool(SHELL.match(block[0])) or all(ASKS.search(line) for line in block)


def example_blocks(text: str, *, every: bool = True) -> list[list[str]]:
    """Chat examples: a message to the bot, then lines of its answer (the first first)."""
    chat = [b for b in indented_blocks(text) if len(b) > 1 and not is_listing(b)]
    return [b for b in chat if every or b[0].startswith(("/mpestimate ", "@mpestimate "))]


def listed_asks(text: str) -> list[str]:
    """``mpbot ask`` lines in command listings (each is run as typed)."""
    listings = [b for b in indented_blocks(text) if is_listing(b)]
    return [line.split("  #")[0].strip() for b in listings for line in b if ASKS.search(line)]


def where(message: str) -> tuple[str, Channel, Lang | None]:
    """(text, channel, lang) of an example's message, as Slack or ``mpbot ask`` gets it."""
    if message.startswith("/mpestimate "):
        return message.removeprefix("/mpestimate "), Channel.COMMAND, None
    if message.startswith("@mpestimate "):
        return message.removeprefix("@mpestimate "), Channel.MENTION, None
    if message.startswith("mpbot ask "):
        from bot.cli.main import build_parser

        args = build_parser().parse_args(shlex.split(message)[1:])
        return " ".join(args.text), Channel(args.channel), Lang(args.lang) if args.lang else None
    return message, Channel.DM, None


def shown(team, message: str) -> list[str]:
    """The answer's lines as a reader sees them (without the invisible bidi controls)."""
    text, channel, lang = where(message)
    return BIDI.sub("", team.reply_text(text, channel, lang)).splitlines()


def same(expected: str, got: str) -> bool:
    """A line ending in "…" is the start of the bot's line; any other is all of it."""
    return got.startswith(expected[:-1]) if expected.endswith("…") else got == expected


def matches(expected: list[str], got: list[str]) -> bool:
    """The answer's first line, then the other lines shown in the order the bot says them
    (a page may skip lines between them, such as the Details it is not about)."""
    if not got or not same(expected[0], got[0]):
        return False
    rest = iter(got[1:])
    return all(any(same(line, g) for g in rest) for line in expected[1:])


def pages() -> list[str]:
    return ["README.md", *sorted(f"docs/{p.name}" for p in (REPO / "docs").glob("*.md"))]


@pytest.fixture
def team(tmp_path, monkeypatch):
    """The local workspace on a fresh database: a page's examples run in order, so a
    ``record`` example is what a later estimate example finds."""
    from bot.cli.local import LocalTeam

    monkeypatch.setenv("DATABASE_URL", f"sqlite:///{tmp_path / 'docs.db'}")
    return LocalTeam.open()


@pytest.mark.parametrize("page", pages())
def test_examples_are_what_the_bot_says(page, team):
    """Every chat example of every page, run through the bot as it is today; another
    branch changing a figure or a wording without the docs fails here."""
    wrong = []
    for message, *expected in example_blocks((REPO / page).read_text("utf-8")):
        got = shown(team, message)
        if not matches(expected, got):
            wrong.append((message, expected, got))
    assert not wrong, "\n\n".join(f"{m}\n  docs: {e}\n  bot:  {g}" for m, e, g in wrong)


def test_the_usage_page_has_examples_in_both_languages():
    blocks = example_blocks((REPO / "docs" / "usage.md").read_text("utf-8"))
    arabic = [b for b in blocks if re.search("[\u0600-\u06ff]", b[0])]
    assert len(arabic) >= 5 and len(blocks) - len(arabic) >= 5
    assert any(b[0].startswith("mpbot ask ") for b in blocks)


@pytest.mark.parametrize(
    ("page", "line"),
    [(page, line) for page in pages() for line in listed_asks((REPO / page).read_text("utf-8"))],
)
def test_listed_ask_commands_run(page, line, tmp_path):
    """``mpbot ask ...`` (and ``printf ... | mpbot ask``) exactly as the docs list them."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("SLACK_")}
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'cli.db'}"
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    done = subprocess.run(
        ["bash", "-c", line],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
        cwd=tmp_path,
        check=False,
    )
    assert done.returncode == 0 and done.stdout.strip(), (line, done.stderr)
    assert "Traceback" not in done.stderr


def test_the_readme_shows_three_examples_in_each_language():
    blocks = example_blocks(README.split("## Examples", 1)[1].split("\n## ", 1)[0], every=True)
    arabic = [b for b in blocks if re.search("[\u0600-\u06ff]", b[0])]
    assert len(arabic) >= 3 and len(blocks) - len(arabic) >= 3
