"""What ``mpbot predict`` does before (or without) PyTorch: schema, GPU names, exit 3."""

from __future__ import annotations

import importlib.util
import json

import pytest

from bot.cli.main import main
from bot.experiment.cli import CPU_TORCH, INSTALL_HINT
from bot.predict.gpus import UnknownGpu, find_gpu


def test_without_torch_it_says_how_to_install_and_fails(capsys, monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name == "torch" else real_find_spec(name, *args),
    )
    assert main(["predict", "--model", "mlp", "--gpu", "T4"]) == 3
    err = capsys.readouterr().err
    assert INSTALL_HINT in err and 'pip install "mpestimate[experiment]"' in err
    assert CPU_TORCH in err and len(err.strip().splitlines()) == 1


def test_schema_documents_the_json_report(capsys):
    assert main(["predict", "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert {"ratio", "ratio_low", "ratio_high", "gpu", "per_class", "slack_line"} <= set(
        schema["required"]
    )
    assert "never" not in schema["properties"]["kind"].get("description", "never")


def test_gpu_is_required(capsys):
    assert main(["predict", "--model", "mlp"]) == 2
    assert "--gpu is required" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("typed", "row"),
    [
        ("a100 80gb pcie", "A100 80GB PCIe"),
        ("H100 80GB SXM5", "H100 SXM5 80GB"),
        ("RTX 3090", "GeForce RTX 3090"),
        ("3090", "GeForce RTX 3090"),
        ("A10", "A10"),
        ("L40", "L40"),
        ("L40S", "L40S"),
        ("V100 32GB", "Tesla V100 SXM2 32GB"),
    ],
)
def test_gpu_names_are_matched_by_words(typed, row):
    assert find_gpu(typed).name == row


def test_tpus_are_not_gpus():
    with pytest.raises(UnknownGpu, match="Close names"):
        find_gpu("TPU v4")


def test_the_chat_prices_shipped_profiles_without_importing_torch():
    """The chat's roofline term reads the shipped kernel profiles: no torch at runtime."""
    import subprocess
    import sys

    code = (
        "import sys\n"
        "from bot.advice.prediction import Setup, predict\n"
        "p = predict(Setup(gpu='T4', model='BERT', framework='PyTorch'))\n"
        "assert p.ratio > 1, p\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
