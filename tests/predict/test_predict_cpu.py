"""``mpbot predict`` end to end on CPU: tiny built-ins, user factories, errors.

Skipped without PyTorch (the optional ``experiment`` extra), like the
experiment tests; CI installs the CPU build so these run there.
"""

from __future__ import annotations

import json

import jsonschema
import pytest

torch = pytest.importorskip(
    "torch",
    reason="PyTorch is the optional 'experiment' extra: pip install \"mpestimate[experiment]\"",
)

from bot.cli.main import main
from bot.predict.ops import OpClass
from bot.predict.report import Prediction
from bot.predict.trace import LAYOUT_OP, trace_step, workload_maker


def _predict(capsys, *args: str) -> dict:
    assert main(["predict", "--json", *args]) == 0
    out = capsys.readouterr().out
    report = json.loads(out)
    jsonschema.validate(report, Prediction.model_json_schema())
    return report


@pytest.mark.parametrize("model", ["resnet50", "bert", "gpt2", "mlp"])
def test_builtin_models_predict_a_ratio_with_a_range(capsys, model):
    report = _predict(capsys, "--model", model, "--size", "tiny", "--gpu", "A100 80GB PCIe")
    assert report["gpu"] == "A100 80GB PCIe" and report["kind"] == "predicted"
    assert 0 < report["ratio_low"] < report["ratio"] < report["ratio_high"]
    assert {c["op_class"] for c in report["per_class"]} >= {"matmul", "optimizer"}
    shares = sum(c["mixed_share"] for c in report["per_class"])
    assert shares == pytest.approx(1.0)
    line = report["slack_line"]
    if report["ratio"] >= 1:  # tiny shapes are launch-bound: often slower in mixed precision
        assert line.startswith("/mpestimate <FP32 time> ratio ")
        assert "predicted by mpbot predict, not measured" in line
    else:
        assert line is None


def test_a_user_factory_and_the_text_report(capsys):
    assert (
        main(
            [
                "predict",
                "--factory",
                "predict_factories:small_cnn",
                "--gpu",
                "T4",
                "--batch",
                "8",
                "--batch-amp",
                "16",
                "--fp32-time",
                "10h",
            ]
        )
        == 0
    )
    out = capsys.readouterr().out
    assert "small_cnn on T4, FP32 vs FP16 (batch 8 / 16)" in out
    assert "Predicted ratio:" in out and "predicted, not measured" in out
    assert "What limits the gain:" in out
    assert "/mpestimate 10h ratio " in out and "for small_cnn on T4" in out


def test_the_slack_line_is_read_by_the_bot_as_an_ordinary_question(capsys):
    report = _predict(
        capsys,
        "--factory",
        "predict_factories:wide_mlp",
        "--batch",
        "1024",
        "--gpu",
        "T4",
        "--fp32-time",
        "100h",
    )
    assert main(["ask", "--json", report["slack_line"].removeprefix("/mpestimate ")]) == 0
    answer = json.loads(capsys.readouterr().out)
    assert f"{report['ratio']:.2f}" in json.dumps(answer)


def test_no_slack_line_when_mixed_precision_is_slower(capsys):
    report = _predict(capsys, "--factory", "predict_factories:wide_mlp", "--gpu", "P100")
    assert report["ratio"] < 1 and report["slack_line"] is None
    assert main(["predict", "--factory", "predict_factories:wide_mlp", "--gpu", "P100"]) == 0
    out = capsys.readouterr().out
    assert "predicted to be slower here" in out and "/mpestimate" not in out


def test_batch_amp_makes_the_ratio_per_sample(capsys):
    same = _predict(capsys, "--model", "mlp", "--size", "tiny", "--gpu", "T4", "--batch", "16")
    double = _predict(
        capsys,
        "--model",
        "mlp",
        "--size",
        "tiny",
        "--gpu",
        "T4",
        "--batch",
        "16",
        "--batch-amp",
        "32",
    )
    assert double["batch_amp"] == 32 and double["ratio"] > same["ratio"]


def test_known_tiny_model_is_classified_op_by_op():
    ops = trace_step(workload_maker(None, "predict_factories:odd_mlp", "tiny", 8), "fp16")
    kinds = {op.name.split(".")[0]: op.kind for op in ops}
    assert kinds["addmm"] is OpClass.MATMUL and kinds["mm"] is OpClass.MATMUL
    assert kinds["relu"] is OpClass.ELEMENTWISE
    assert kinds["native_layer_norm"] is OpClass.NORMALIZATION
    assert kinds["nll_loss_forward"] is OpClass.REDUCTION
    assert any(op.kind is OpClass.OPTIMIZER and "_foreach_" in op.name for op in ops)
    forward = [op for op in ops if op.name == "addmm.default"]
    assert {op.dtype for op in forward} == {"fp16"}
    # the first layer's forward GEMM: 2 x batch x 12 x 10 FLOPs, 12 and 10 not multiples of 8
    first = next(op for op in forward if op.flops == 2 * 8 * 12 * 10)
    assert not first.aligned
    # AdamW keeps FP32 master weights and states: its kernels move 4-byte values
    assert all(op.dtype == "fp32" for op in ops if op.kind is OpClass.OPTIMIZER)


def test_channels_last_removes_the_layout_transposes():
    nchw = trace_step(workload_maker(None, "predict_factories:small_cnn", "tiny", 8), "fp16")
    nhwc = trace_step(
        workload_maker(None, "predict_factories:channels_last_cnn", "tiny", 8), "fp16"
    )
    fp32 = trace_step(workload_maker(None, "predict_factories:small_cnn", "tiny", 8), None)
    assert any(op.name == LAYOUT_OP for op in nchw)
    assert not any(op.name == LAYOUT_OP for op in nhwc + fp32)


@pytest.mark.parametrize("gpu", ["P100", "GTX 1080 Ti"])
def test_a_gpu_without_tensor_cores_gains_little_or_nothing(capsys, gpu):
    report = _predict(
        capsys, "--factory", "predict_factories:wide_mlp", "--gpu", gpu, "--batch", "1024"
    )
    assert report["ratio"] <= 1.1
    assert "no Tensor Cores" in report["limit"]


def test_tensor_cores_do_speed_up_the_same_model(capsys):
    report = _predict(
        capsys, "--factory", "predict_factories:wide_mlp", "--gpu", "V100", "--batch", "1024"
    )
    assert report["ratio"] > 2


def test_unknown_gpu_lists_close_names(capsys):
    assert main(["predict", "--model", "mlp", "--gpu", "A6001"]) == 1
    err = capsys.readouterr().err
    assert "no GPU called 'A6001'" in err and "RTX A6000" in err and "Traceback" not in err


def test_bf16_on_a_gpu_without_bf16_is_a_clear_error(capsys):
    assert main(["predict", "--model", "mlp", "--gpu", "V100", "--precision", "bf16"]) == 1
    err = capsys.readouterr().err
    assert "has no BF16 Tensor Cores" in err and "--precision fp16" in err


def test_bad_factory_is_a_clear_error(capsys):
    assert main(["predict", "--factory", "predict_factories:missing", "--gpu", "T4"]) == 1
    err = capsys.readouterr().err
    assert "has no function 'missing'" in err and "Traceback" not in err
