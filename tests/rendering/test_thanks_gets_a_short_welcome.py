"""Thanks and small talk get a one-line "you're welcome", never the usage list."""

from __future__ import annotations

import pytest

from bot.advice import advise
from bot.conversation import answer, to_json
from bot.models import Channel, Lang
from bot.rendering import render
from bot.understanding import understand

WELCOME = {
    Lang.EN: "You're welcome — ask me another estimate any time.",
    Lang.AR: "العفو! اسألني عن أي تقدير آخر.",
}


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("thanks!", Lang.EN),
        ("Thank you so much 🙏", Lang.EN),
        ("<@U012ABCDEF> thx a lot", Lang.EN),
        ("hahaha great, thanks for the help", Lang.EN),
        ("شكرا", Lang.AR),
        ("ماشي شكرا", Lang.AR),
        ("هواية شكراً", Lang.AR),
        ("مشكور يا غالي", Lang.AR),
        ("شكرا جزيلا", Lang.AR),
        # the ways people address someone come with thanks (THANKS_FILLER_WORDS)
        ("thanks dude", Lang.EN),
        ("thank you sir!", Lang.EN),
        ("شكرا يا معلم", Lang.AR),
        ("شكرا يا باشا", Lang.AR),
        ("تسلم يا بطل", Lang.AR),
        ("مشكور يا استاذ", Lang.AR),
    ],
)
@pytest.mark.parametrize("channel", list(Channel))
def test_thanks_gets_a_short_welcome_in_the_users_language(text, lang, channel):
    turn = answer(text, channel)
    assert turn.query.small_talk
    assert turn.reply.text == WELCOME[lang]
    assert to_json(turn)["kind"] == "help"  # the reading rules: thanks is help


@pytest.mark.parametrize(
    "text",
    [
        "thanks, what about BERT on A100?",
        "thanks! and with ratio 2.5?",
        "شكرا، وكم على A100؟",
        "help",
        "does mixed precision help?",
        "مساعدة",
    ],
)
def test_questions_and_plain_help_are_not_small_talk(text):
    query = understand(text, Channel.MENTION)
    assert not query.small_talk
    assert render(advise(query), query.lang).text not in WELCOME.values()


def test_the_welcome_is_one_line_without_notes_or_details():
    query = understand("thanks!", Channel.DM)
    reply = render(advise(query), Lang.EN)
    assert reply.notes == [] and reply.details == [] and "\n" not in reply.text


@pytest.mark.parametrize("text", ["ألف شكر", "thanks a million"])
@pytest.mark.parametrize("channel", list(Channel))
def test_a_spelled_number_in_a_thank_you_is_no_training_time(text, channel):
    """As a slash command, bare numbers are read by position: "ألف" must not become 1000 hours."""
    query = understand(text, channel)
    assert query.small_talk and query.fp32 is None


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        ("يعطيك العافية", "الله يعافيك! اسألني عن أي تقدير آخر."),
        ("lol", "Glad it helps. Ask me another estimate any time."),
        ("nice", "Glad it helps. Ask me another estimate any time."),
        ("ممتاز", "يسعدني أنه أفادك. اسألني عن أي تقدير آخر."),
    ],
)
def test_a_wish_or_a_reaction_is_answered_in_kind(text, reply):
    """ "يعطيك العافية" is answered "الله يعافيك", and "lol" is no thank-you to welcome."""
    turn = answer(text, Channel.DM)
    assert turn.reply.text == reply and to_json(turn)["kind"] == "help"
