"""The reply language: asked for in the message, else the message's words, else the preference."""

import pytest

from bot.conversation import answer, to_json
from bot.models import Channel, Intent, Lang
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("36h fp32 ratio 2, answer in Arabic please", Lang.AR),
        ("10 hours ratio 2, reply in english", Lang.EN),
        ("100h ratio 2 in arabic", Lang.AR),
        ("التدريب ٣٦ ساعة والنسبة ٢، جاوبني بالانجليزي", Lang.EN),
        ("التدريب ٣٦ ساعة، اكتب الجواب باللغة الإنجليزية", Lang.EN),
        ("١٠٠ ساعة والنسبة ٢ بالإنجليزي لو سمحت", Lang.EN),
        ("100 hours ratio 2 بالعربي", Lang.AR),
        # The language of the data, not of the reply:
        ("train BERT in Arabic on 8 GPUs for 100h", Lang.EN),
        ("نموذج لغوي بالعربي على ٨ بطاقات ١٠٠ ساعة", Lang.AR),
    ],
)
def test_language_asked_in_the_message(text: str, lang: Lang) -> None:
    q = understand(text, Channel.MENTION, preferred_lang=Lang.EN if lang == Lang.AR else Lang.AR)
    assert q.lang == lang
    assert q.intent == Intent.ESTIMATE and q.lang_choice is None  # nothing is stored


def test_asked_language_is_the_reply_language() -> None:
    got = to_json(answer("36h fp32 ratio 2, answer in Arabic please", Channel.MENTION))
    assert got["lang"] == "ar" and got["mp_hours"] == 18


@pytest.mark.parametrize(
    ("text", "lang"),
    [
        ("100 hours ratio 2", Lang.EN),  # English words beat an Arabic preference
        ("100h ratio 2", Lang.EN),
        ("100h speedup 2", Lang.EN),
        ("100 2", Lang.AR),  # bare numbers: the preference
        ("100h 2 A100", Lang.AR),  # identifiers and unit letters are no language
        ("100 h fp16 2", Lang.AR),
    ],
)
def test_words_before_preference(text: str, lang: Lang) -> None:
    assert understand(text, Channel.COMMAND, preferred_lang=Lang.AR).lang == lang
