"""What ``mpbot experiment`` does before (or without) PyTorch."""

from __future__ import annotations

import importlib.util
import json

from bot.cli.main import main
from bot.experiment.cli import CPU_TORCH, INSTALL_HINT


def test_without_torch_it_says_how_to_install_and_fails(capsys, monkeypatch):
    real_find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util,
        "find_spec",
        lambda name, *args: None if name == "torch" else real_find_spec(name, *args),
    )
    assert main(["experiment", "--model", "mlp"]) == 3
    err = capsys.readouterr().err
    assert INSTALL_HINT in err and 'pip install "mpestimate[experiment]"' in err
    assert CPU_TORCH in err and len(err.strip().splitlines()) == 1


def test_schema_documents_the_json_report(capsys):
    assert main(["experiment", "--schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert {"ratio", "baseline", "mixed", "loss", "record_line"} <= set(schema["required"])
    assert "warnings" in schema["properties"]
    assert "fp32, tf32, fp16 or bf16" in json.dumps(schema)


def test_the_bot_never_imports_torch():
    import subprocess
    import sys

    code = (
        "import sys, bot.cli.main, bot.conversation; bot.cli.main.build_parser(); "
        "print('torch' in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "False"
