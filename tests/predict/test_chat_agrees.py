"""Chat and ``mpbot predict`` give one number for one setup (issue 19, item 6).

Both are answered by the same ratio model: the chat prices a catalog model's shipped
kernel profile with the roofline ``predict`` times traced steps with, and ``predict``
for a catalog model asks the chat's model for the same setup. Asked as a user would
("... with PyTorch": stock PyTorch's baseline, as ``predict --baseline pytorch``), the
chat's lead and predict's ratio must agree; the shipped profiles must be what a fresh
trace gives.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("torch")

from bot.cli.main import main
from bot.conversation import answer, to_json
from bot.models import Channel
from bot.predict import profiles

SETUPS = [
    ("bert", "BERT", "A100"),
    ("resnet50", "ResNet-50", "RTX 3090"),
    ("resnet50", "ResNet-50", "A100"),
    ("bert", "BERT", "V100"),
    ("bert", "BERT", "T4"),  # no table row: both from the fit over the roofline
    ("gpt2", "GPT-2", "H100"),
    ("resnet50", "ResNet-50", "L4"),
]


def _predict(capsys, *args: str) -> dict:
    assert main(["predict", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(("builtin", "catalog", "gpu"), SETUPS)
def test_the_chat_lead_is_predicts_ratio(capsys, builtin, catalog, gpu):
    chat = to_json(answer(f"how much faster is {catalog} on {gpu} with PyTorch?", Channel.DM))
    got = _predict(capsys, "--model", builtin, "--gpu", gpu)
    assert got["basis"] in ("measured", "modelled")
    assert got["ratio"] == pytest.approx(chat["ratio"], abs=0.006)
    assert got["ratio_low"] == pytest.approx(chat["ratio_low"], abs=0.006)
    assert got["ratio_high"] == pytest.approx(chat["ratio_high"], abs=0.006)


def test_bert_on_a100_against_strict_fp32_is_one_number(capsys):
    chat = to_json(answer("BERT on A100, PyTorch, 100 hours in fp32", Channel.DM))
    got = _predict(capsys, "--model", "bert", "--gpu", "A100")
    assert chat["baseline"] == "fp32"  # stock PyTorch: BERT's matmuls in strict FP32
    assert got["ratio"] == pytest.approx(chat["ratio"], abs=0.006)


def test_another_batch_moves_predict_by_the_roofline_from_the_shipped_step(capsys):
    shipped = _predict(capsys, "--model", "resnet50", "--gpu", "T4")
    small = _predict(capsys, "--model", "resnet50", "--gpu", "T4", "--batch", "8")
    assert small["roofline_ratio"] != shipped["roofline_ratio"]
    assert (small["ratio"] > shipped["ratio"]) == (
        small["roofline_ratio"] > shipped["roofline_ratio"]
    )


def test_a_step_no_profile_describes_is_asked_with_its_own_roofline(capsys):
    got = _predict(capsys, "--model", "mlp", "--gpu", "A100 80GB PCIe")
    assert got["basis"] == "modelled"  # the chat's fit, its roofline term the traced step's
    assert got["roofline_ratio"] > 1


def test_a_gpu_the_chat_does_not_know_is_the_roofline_alone(capsys):
    got = _predict(capsys, "--model", "mlp", "--gpu", "RTX 6000 Ada")
    assert got["basis"] == "roofline"
    assert got["ratio"] == got["roofline_ratio"]
    assert any("roofline's alone" in note for note in got["notes"])


def test_without_tensor_cores_a_catalog_model_is_the_chats_and_any_other_step_its_own(capsys):
    chat = to_json(answer("how much faster is ResNet-50 on P100 with PyTorch?", Channel.DM))
    assert _predict(capsys, "--model", "resnet50", "--gpu", "P100")["ratio"] == pytest.approx(
        chat["ratio"], abs=0.006
    )
    assert _predict(capsys, "--model", "mlp", "--gpu", "P100")["basis"] == "roofline"


def test_the_shipped_profiles_are_a_fresh_trace():
    from bot.predict import make_profiles

    fresh = json.loads(make_profiles.text())
    shipped = json.loads(make_profiles.PATH.read_text(encoding="utf-8"))
    assert fresh["profiles"] == shipped["profiles"]
    assert set(profiles.shipped()) == {"ResNet-50", "BERT", "GPT-2"}
