"""Block Kit building and the Slack app's own catalog, without a server."""

from __future__ import annotations

import io

from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po
from hypothesis import example, given, settings
from hypothesis import strategies as st
from slack_sdk.models.blocks import Block

from bot.conversation import Turn
from bot.models import Advice, Channel, Intent, Kind, Lang, Query, Reply
from bot.rendering.i18n import locales_dir
from bot.rendering.reply import escape
from bot.slack import labels
from bot.slack.asks import MAX_VALUE_CHARS, Ask
from bot.slack.blocks import details_message, reply_message, text_message, with_language_notice

MSGIDS = [
    v for k, v in vars(labels).items() if k.isupper() and isinstance(v, str) and k != "DOMAIN"
]


def _catalog(lang: str, kind: str):
    path = locales_dir("slack") / lang / "LC_MESSAGES" / f"slack.{kind}"
    with path.open("rb") as handle:
        return read_po(handle) if kind == "po" else read_mo(io.BytesIO(handle.read()))


def test_every_label_has_an_arabic_translation_and_the_mo_is_current():
    po, mo = _catalog("ar", "po"), _catalog("ar", "mo")
    for msgid in MSGIDS:
        assert po[msgid] is not None and po[msgid].string, msgid
        assert mo[msgid].string == po[msgid].string, f"stale slack.mo for {msgid!r}"
        assert labels.label(Lang.AR, msgid) != msgid


def _turn(summary: str, notes: list[str], details: list[str], kind: Kind) -> Turn:
    reply = Reply(
        lang=Lang.EN, kind=kind, summary=summary, notes=notes, details=details, text=summary
    )
    advice = Advice(kind=kind, fp32_hours=100.0 if kind is Kind.ESTIMATE else None)
    return Turn(query=Query(intent=Intent.ESTIMATE, lang=Lang.EN), advice=advice, reply=reply)


@settings(max_examples=60, deadline=None)
@given(
    summary=st.text(min_size=1, max_size=5000),
    notes=st.lists(st.text(min_size=1, max_size=3500), max_size=14),
    details=st.lists(st.text(min_size=1, max_size=400), max_size=12),
    kind=st.sampled_from(list(Kind)),
    asked=st.text(max_size=2500),
)
# At every limit at once (random text seldom reaches them).
@example(
    summary="s" * 5000,
    notes=["n" * 3500] * 14,
    details=["d" * 400] * 12,
    kind=Kind.ESTIMATE,
    asked="a" * 2500,
)
def test_any_reply_fits_slacks_limits(summary, notes, details, kind, asked):
    turn = _turn(summary, notes, details, kind)
    message = reply_message(turn, Ask(asked, Channel.COMMAND), shareable=True)
    assert message["text"] == escape(summary)  # the fallback: plain text, escaped
    _assert_fits(message)
    for lang in Lang:
        _assert_fits(with_language_notice(message, lang))
    _assert_fits(details_message(turn.reply))
    _assert_fits(text_message(summary))


def _assert_fits(message: dict) -> None:
    for block in message["blocks"]:
        # slack_sdk's own models re-read each block and run their validators
        # (text lengths, element counts, button styles) on serializing it.
        assert Block.parse(block).to_dict() == block
        if block["type"] == "section":
            assert len(block["text"]["text"]) <= 3000
        if block["type"] == "context":
            assert len(block["elements"]) <= 10
        if block["type"] == "actions":
            assert len(block["elements"]) <= 25
            assert all(len(b["value"]) <= MAX_VALUE_CHARS for b in block["elements"])


def test_button_value_round_trips_and_rejects_foreign_values():
    ask = Ask("٤٨ ساعة ٢", Channel.MENTION, Lang.AR, thread_hours=12.5, force_lang=True)
    assert Ask.decode(ask.encode()) == ask
    for foreign in (
        None,
        "",
        "ar",
        "{}",
        '{"t": 1}',
        '{"t":"x","c":"nope","l":null,"h":null,"f":0}',
    ):
        assert Ask.decode(foreign) is None
