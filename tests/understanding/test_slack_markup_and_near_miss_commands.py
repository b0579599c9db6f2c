"""Slack markup that changes what a message says, and commands written almost right.

Struck-through text ("~100h~", "~~100h~~") was withdrawn by its writer; keycap
emoji (1️⃣ 2️⃣) number a list; the bot's own command written in a mention or a DM
(often in a code span) is that command. "1.2k tokens/s" is 1,200 tokens/s in a
record. "lang fr", "lang" and "delete abc" get a targeted reason, not the help.
"""

import pytest

from bot.models import Channel, Intent, Lang, Reason
from bot.understanding import understand
from bot.understanding.rules.record.record_command import RecordCommand, read_command


@pytest.mark.parametrize(
    ("text", "channel", "hours", "ratio"),
    [
        ("_FP32_ is ~~100h~~ 80h, ratio 2", "mention", 80, 2),
        ("_FP32_ is ~100h~ 80h, ratio 2", "mention", 80, 2),
        ("fp32 ~36h, ratio ~2", "mention", 36, 2),  # "~" as "about" stays
        ("التدريب بالـ fp32 ياخذ ~١٠٠ ساعة~ ٨٠ ساعة، والنسبة ٢", "mention", 80, 2),
        ("1\ufe0f\u20e3 36h fp32\n2\ufe0f\u20e3 ratio 2", "mention", 36, 2),
        ("1\ufe0f\u20e3 التدريب ٣٦ ساعة بالـ fp32\n2\ufe0f\u20e3 النسبة ٢", "dm", 36, 2),
        ("`/mpestimate 100 2`", "mention", 100, 2),
        ("<@U123ABC> `/mpestimate 100 2`", "mention", 100, 2),
        ("/mpestimate 36h 2", "dm", 36, 2),
        ("<@U123ABC> `/mpestimate ١٠٠ ٢`", "mention", 100, 2),
    ],
)
def test_markup(text, channel, hours, ratio) -> None:
    q = understand(text, Channel(channel))
    assert q.reason is None, q
    assert q.fp32 is not None and q.fp32.hours == pytest.approx(hours), q
    assert q.ratio == pytest.approx(ratio), q


@pytest.mark.parametrize(
    ("text", "fp32", "mixed", "unit"),
    [
        ("record A100 GPT-2 fp32 1.2k tokens/s, amp 2.5k tokens/s", 1200, 2500, "tokens/s"),
        ("record V100 resnet50 fp32 1.1k img/s amp 2.5K img/s", 1100, 2500, "img/s"),
        ("record T4 bert fp32 800 samples/sec amp 1.9k samples/sec", 800, 1900, "samples/s"),
        ("سجل A100 BERT fp32 ١٫٢k tokens/s amp ٢٫٥k tokens/s", 1200, 2500, "tokens/s"),
    ],
)
def test_thousands_suffix_in_records(text, fp32, mixed, unit) -> None:
    command = read_command(text)
    assert isinstance(command, RecordCommand) and command.draft is not None, command
    assert command.draft.fp32_throughput.value == pytest.approx(fp32)
    assert command.draft.mixed_throughput.value == pytest.approx(mixed)
    assert command.draft.fp32_throughput.unit == unit


@pytest.mark.parametrize(
    ("text", "candidates", "lang"),
    [
        ("lang fr", ["fr"], Lang.EN),
        ("lang", [], Lang.EN),
        ("language klingon", ["klingon"], Lang.EN),
        ("اللغة فرنسي", ["فرنسي"], Lang.AR),
    ],
)
def test_unknown_language(text, candidates, lang) -> None:
    q = understand(text, Channel.COMMAND)
    assert q.intent == Intent.SET_LANG and q.reason == Reason.UNKNOWN_LANGUAGE, q
    assert q.lang_choice is None and q.candidates == candidates and q.lang == lang, q


def test_known_language_and_language_topics_are_unchanged() -> None:
    assert understand("lang ar", Channel.COMMAND).lang_choice == Lang.AR
    assert understand("language model?", Channel.MENTION).reason is None


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("delete abc", Lang.EN),
        ("delete", Lang.EN),
        ("remove record x", Lang.EN),
        ("احذف القياس", Lang.AR),
    ],
)
def test_delete_without_a_number(text, lang) -> None:
    q = understand(text, Channel.COMMAND)
    assert q.intent == Intent.DELETE_RECORD and q.reason == Reason.NO_RECORD_ID, q
    assert q.lang == lang, q


def test_delete_with_a_number_is_the_command() -> None:
    q = understand("delete 12", Channel.COMMAND)
    assert q.intent == Intent.DELETE_RECORD and q.reason is None, q
