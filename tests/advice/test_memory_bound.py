"""Recurrent (LSTM/GRU) and embedding-heavy models with no rows get a lower, explained ratio."""

from __future__ import annotations

import pytest

from bot.advice.prediction import Factor, Setup, predict
from bot.conversation import answer, to_json
from bot.models import Channel
from bot.understanding import understand


@pytest.mark.parametrize(
    "text",
    ["an LSTM language model on A100", "GRU seq2seq on V100, 10h", "bilstm tagger on a100"],
)
def test_recurrent_words(text):
    assert understand(text, Channel.DM).architecture == "recurrent"


def test_transformer_is_not_recurrent():
    assert understand("transformer language model on A100", Channel.DM).architecture is None


def test_recurrent_layers_lower_the_modelled_ratio_and_say_why():
    plain = predict(Setup(gpu="A100", family="language_model"))
    recurrent = predict(Setup(gpu="A100", family="language_model", architecture="recurrent"))
    # The facts sheet's memory-bound models sit at about 0.7 of the fit (GNMT 0.96x on A100).
    assert recurrent.ratio == pytest.approx(plain.ratio * 0.7, rel=0.02)
    assert Factor.MEMORY_BOUND in [f.code for f in recurrent.factors]
    assert Factor.MEMORY_BOUND not in [f.code for f in plain.factors]


def test_measured_model_keeps_its_rows():
    """Tacotron 2 has LSTMs and published rows: the rows speak, no prior shift."""
    p = predict(Setup(gpu="A100", model="Tacotron2", architecture="recurrent"))
    assert p.basis == "measured" and Factor.MEMORY_BOUND not in [f.code for f in p.factors]


def test_memory_bound_note_in_both_languages():
    en = to_json(answer("LSTM language model on A100, speedup?", Channel.DM))
    assert "memory-bound" in en["text"] and en["ratio"] < 1.3
    ar = to_json(answer("كم التسريع لنموذج LSTM على A100", Channel.DM))
    assert "محدودة بعرض نطاق الذاكرة" in ar["text"]


def test_known_recurrent_model_off_its_published_gpus_keeps_the_shift():
    """Tacotron 2's rows are fitted without the memory-bound shift; on a GPU it was
    never measured on (H100) the shift is put back and said."""
    tacotron = predict(Setup(gpu="H100", model="Tacotron2"))
    tts = predict(Setup(gpu="H100", family="tts"))
    assert tacotron.basis == "modelled" and Factor.MEMORY_BOUND in [
        f.code for f in tacotron.factors
    ]
    assert tacotron.ratio < tts.ratio
