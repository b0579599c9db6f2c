"""Recurrent (LSTM/GRU) layers: read from the message, fitted from the rows that have them."""

from __future__ import annotations

import math

import pytest

from bot.advice import calibration
from bot.advice.prediction import Factor, Setup, predict
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


def test_recurrent_layers_move_the_ratio_by_the_fitted_term_and_say_so_when_lower():
    """The old fixed 0.7 prior is gone: GNMT (LSTM) measures 1.8-2.1x on A100 and H100 in
    Lambda's runs, so the fitted term decides, and the memory-bound note is said only
    where it puts recurrent layers lower."""
    plain = predict(Setup(gpu="A100", family="language_model"))
    recurrent = predict(Setup(gpu="A100", family="language_model", architecture="recurrent"))
    shift = math.exp(calibration.fitted().model.term("rnn"))
    assert recurrent.tuned == pytest.approx(plain.tuned * shift, rel=0.02)
    said = Factor.MEMORY_BOUND in [f.code for f in recurrent.factors]
    assert said == (shift < 1 / 1.1)
    assert Factor.MEMORY_BOUND not in [f.code for f in plain.factors]


def test_measured_model_keeps_its_rows():
    """Tacotron 2 has LSTMs and published rows: the rows speak (0.84x on A100)."""
    p = predict(Setup(gpu="A100", model="Tacotron2", architecture="recurrent"))
    assert p.basis in ("measured", "measured_realistic") and p.tuned < 1
    assert Factor.MEMORY_BOUND not in [f.code for f in p.factors]


def test_known_recurrent_model_off_its_published_gpus_is_modelled():
    tacotron = predict(Setup(gpu="H100", model="Tacotron2"))
    assert tacotron.basis == "modelled" and tacotron.sources == []


def test_memory_bound_groups_do_not_follow_the_tensor_core_peak():
    """Recommender/graph/time-series rows (only Ampere NCF in the tables) cannot place their
    own peak slope; it is pulled towards cancelling the common one, so a V100 or a strict
    FP32 baseline (peak ratio 8-16x) is not extrapolated into a math-bound gain."""
    from bot.advice.ratio_model import MEMORY_BOUND_GROUPS, RIDGE_PRIOR

    model = calibration.fitted().model
    for group in MEMORY_BOUND_GROUPS:
        assert RIDGE_PRIOR["gp:" + group] == -RIDGE_PRIOR["peak"]
        total = model.term("peak") + model.term("gp:" + group)
        assert abs(total) < model.term("peak") / 2, (group, total)
