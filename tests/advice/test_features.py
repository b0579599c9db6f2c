"""What the ratio is predicted from: the GPU's numbers from gpu_specs.csv and the job's."""

from __future__ import annotations

import math

import pytest

from bot.advice.catalog import gpu_spec, spec_for
from bot.advice.features import (
    MAX_LOG2_BATCH,
    ROOF_CENTRE,
    Job,
    batch_change,
    default_baseline,
    framework_key,
    gpu_terms,
    model_key,
    peak_ratio,
    terms,
)
from bot.predict import profiles
from bot.predict.gpus import find_gpu


def test_peak_ratio_is_for_the_users_baseline():
    v100, a100 = gpu_spec("V100"), gpu_spec("A100")
    assert peak_ratio(v100, "fp16", "fp32") == pytest.approx(125 / 15.7)
    assert peak_ratio(a100, "fp16", "tf32") == pytest.approx(2.0)
    assert peak_ratio(a100, "fp16", "fp32") == pytest.approx(16.0)
    assert peak_ratio(v100, "bf16", "fp32") is None  # Volta has no BF16 units
    assert peak_ratio(gpu_spec("H100"), "fp8", "tf32") == pytest.approx(4.0, rel=0.01)


def test_the_gpu_side_has_bandwidth_and_speed_terms():
    a100 = gpu_terms(gpu_spec("A100"), "fp16", "tf32")
    rtx3090 = gpu_terms(gpu_spec("RTX 3090"), "fp16", "tf32")
    assert set(a100) == {"peak", "speed", "intensity"}
    # A100 has more 16-bit TFLOPS than a 3090, and more of them per byte of bandwidth.
    assert a100["speed"] > rtx3090["speed"] and a100["intensity"] > rtx3090["intensity"]
    assert gpu_terms(spec_for("Tesla K80"), "fp16", "fp32") is None  # no Tensor Cores


def test_default_baseline_is_tf32_from_ampere_on():
    assert default_baseline(gpu_spec("A100")) == "tf32"
    assert default_baseline(gpu_spec("V100")) == "fp32"
    assert default_baseline(None) == "fp32"


def test_batch_change_is_log2_and_held_at_the_evidence_edge():
    assert batch_change(128, 256) == 1.0
    assert batch_change(None, 256) is None
    assert batch_change(1, 1000) == MAX_LOG2_BATCH and batch_change(1000, 1) == -MAX_LOG2_BATCH


@pytest.mark.parametrize(
    ("written", "key"),
    [
        ("PyTorch", "pytorch"),
        ("pytorch-amp", "pytorch"),
        ("apex", "pytorch"),  # NVIDIA's PyTorch extension
        ("deepspeed-fp16", "pytorch"),
        ("darknet-cudnn-half", None),  # a framework of its own, no term for it
        ("TF2", "tensorflow"),
        ("tensorflow/keras", "tensorflow"),
        ("jax", "jax"),
        ("paddle-amp", "paddle"),
        ("", None),
    ],
)
def test_framework_spellings(written, key):
    assert framework_key(written) == key


def test_model_key_holds_variants_together():
    assert model_key("BERT-large", "BERT") == "BERT"
    assert model_key("GPUNet-0", None) == model_key("GPUNet-D1", None) == "gpunet"


def test_job_terms_name_the_job_and_an_unsaid_batch_takes_the_default():
    job = Job(
        spec=gpu_spec("V100"),
        family="language_model",
        model="BERT",
        framework="pytorch",
        num_gpus=8,
        precision="bf16",
        baseline="fp32",
        recurrent=True,
    )
    t = terms(job.hiding(), batch_default=0.5)
    assert t is None  # BF16 on a V100: no units for it
    t = terms(
        Job(spec=gpu_spec("V100"), family="language_model", model="BERT", num_gpus=8),
        batch_default=0.5,
    )
    assert t["gpus"] == 3 and t["batch"] == 0.5 and t["m:BERT"] == 1 and t["g:text"] == 1
    # BERT has a shipped kernel profile: its roofline on the GPU stands for the GPU's
    # generic numbers (the same timing mpbot predict does).
    assert "peak" not in t
    v100 = find_gpu("V100")
    assert t["roof"] == pytest.approx(
        profiles.log_ratio("BERT", v100, "fp32", "fp16") - ROOF_CENTRE
    )
    t = terms(Job(spec=gpu_spec("V100"), family="language_model", num_gpus=8), batch_default=0.5)
    assert t["peak"] == pytest.approx(math.log(125 / 15.7 / 4)) and "roof" not in t


def test_a_traced_step_stands_for_the_shipped_profile():
    job = Job(spec=gpu_spec("A100"), model="BERT", baseline="fp32", roof=math.log(3.0))
    assert terms(job, 0.0)["roof"] == pytest.approx(math.log(3.0) - ROOF_CENTRE)
    assert job.hiding(model=True).roof is None


def test_hiding_takes_away_what_a_user_did_not_say():
    job = Job(spec=gpu_spec("A100"), family="tts", model="Tacotron2", recurrent=True)
    assert job.hiding(gpu=True).spec is None
    named_family = job.hiding(model=True)
    assert named_family.model is None and named_family.family == "tts" and named_family.recurrent
    nothing = job.hiding(model=True, family=True)
    assert nothing.family is None and not nothing.recurrent
