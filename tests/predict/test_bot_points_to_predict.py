"""The bot's Details for a modelled (unpublished) setup point at ``mpbot predict``."""

from __future__ import annotations

import pytest

from bot.conversation import answer
from bot.models import Channel

POINTER = {
    "en": "run `mpbot predict --factory ...` (no GPU needed), or `mpbot experiment` on the GPU",
    "ar": "شغّل \u2068`mpbot predict --factory ...`\u2069 (لا يحتاج إلى \u2068GPU\u2069)",
}


@pytest.mark.parametrize(
    ("text", "lang"),
    [("100h EfficientNet-B7 on T4", "en"), ("100 ساعة ViT على T4", "ar")],
)
def test_modelled_prediction_details_point_at_mpbot_predict(text, lang):
    reply = answer(text, Channel.DM).reply
    assert POINTER[lang] in "\n".join(reply.details)
    assert POINTER[lang] in reply.text


def test_published_setup_does_not():
    reply = answer("100h ResNet-50 on V100", Channel.DM).reply
    assert "mpbot predict" not in reply.text
