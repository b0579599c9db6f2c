"""What a ratio is predicted from: what the GPU is, and what the job is.

The GPU side comes from ``gpu_specs.csv``: the Tensor Core peak over the
baseline's peak (the math-bound ceiling: V100 FP16/FP32 = 8x, A100 FP16/TF32 =
2x but FP16/FP32 = 16x), the FLOPs per byte of memory bandwidth at that peak
(a GPU with much compute per byte leaves more of the step memory-bound, where
16-bit gains at most ~2x), and its absolute 16-bit speed (a fast GPU waits on
its input pipeline sooner). The job side is what a user says: model or task
family, framework, GPU count, precision, baseline and the batch change, and
whether the figure is a tuned benchmark's or a real project's (the level).

Every term is a named number, so the fit (:mod:`bot.advice.ratio_model`) can
shrink the sparse ones (one model, one framework) towards zero.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache

from bot.advice.catalog import FAMILY_GROUP, GpuSpec, Measurement, is_recurrent
from bot.predict import profiles
from bot.predict.gpus import Gpu, UnknownGpu, find_gpu

# Centres, so the intercept is a V100/A100-like GPU and the slopes stay separate.
PEAK_CENTRE = math.log(4.0)
INTENSITY_CENTRE = math.log(150.0)  # FLOP/byte at 16-bit peak: V100 139, A100 153
SPEED_CENTRE = math.log(200.0)  # 16-bit Tensor TFLOPS
# Batch changes beyond 4x are held at 4x: the evidence stops there, and a bigger
# batch stops helping once the GPU is busy.
MAX_LOG2_BATCH = 2.0
ROOF_CENTRE = math.log(2.0)  # the roofline's log ratio, centred like the peak ratio


def amp_peak(spec: GpuSpec, precision: str) -> float | None:
    """Dense Tensor Core peak for the mixed-precision format (None: no units for it)."""
    if precision == "fp8":
        return spec.fp8_tensor_tflops
    if precision == "bf16":
        return spec.bf16_rate
    return spec.fp16_tensor_tflops


def baseline_peak(spec: GpuSpec, baseline: str) -> float | None:
    return spec.tf32_rate if baseline == "tf32" else spec.fp32_tflops


def peak_ratio(spec: GpuSpec, precision: str, baseline: str) -> float | None:
    """Tensor Core peak over the baseline's peak: the math-bound ceiling on the ratio."""
    amp, base = amp_peak(spec, precision), baseline_peak(spec, baseline)
    return amp / base if amp and base else None


def default_baseline(spec: GpuSpec | None) -> str:
    """Benchmarks on Ampere+ use TF32 baselines (the NGC containers' and TensorFlow's
    default; PyTorch convolutions too), before Ampere there is only FP32."""
    return "tf32" if spec is not None and spec.has_tf32 else "fp32"


# Task families whose FP32 time is mostly cuDNN convolutions, which stock PyTorch runs in
# TF32 on Ampere and newer (torch.backends.cudnn.allow_tf32 defaults to True).
CONV_FAMILIES = frozenset({"image_classification", "detection", "segmentation"})
# Frameworks whose FP32 runs in TF32 on Ampere+ unless told otherwise.
TF32_FRAMEWORKS = frozenset({"tensorflow", "jax", "mxnet", "paddle"})


def implied_baseline(
    spec: GpuSpec | None, framework: str | None, family: str | None
) -> tuple[str, str]:
    """The FP32 baseline the user's setup really runs, and why (the reply says which).

    Before Ampere there is no TF32 ("no_tf32"). TensorFlow and JAX run FP32 matmuls and
    convolutions in TF32 ("framework"); so do NGC containers, which the reader reads as
    a TF32 baseline said. Stock PyTorch since 1.12
    runs matmuls in strict FP32 (torch.backends.cuda.matmul.allow_tf32 = False) but cuDNN
    convolutions in TF32: a conv net's baseline is TF32 ("pytorch_convs"), any other
    model's strict FP32 ("pytorch_matmuls"). With no framework, or PyTorch and no task,
    it is unclear: TF32 is assumed, as the benchmark tables ran ("assumed"), and the
    reply gives the strict-FP32 figure beside it."""
    if spec is None or not spec.has_tf32:
        return "fp32", "no_tf32"
    if framework in TF32_FRAMEWORKS:
        return "tf32", "framework"
    if framework == "pytorch" and family:
        return ("tf32", "pytorch_convs") if family in CONV_FAMILIES else ("fp32", "pytorch_matmuls")
    return "tf32", "assumed"


def model_key(published_model: str, model: str | None) -> str:
    """What leave-one-model-out holds out together: the canonical model, else the name
    without its variant suffix (GPUNet-0, -1, -2 and -D1 are one architecture search)."""
    if model:
        return model
    base = re.sub(r"\(.*?\)", "", published_model).strip().lower()
    return re.sub(r"[-\s]?(v?\d+(\.\d+)?[a-z]?|[a-z]\d+|base|large|small|tiny)$", "", base)


def batch_change(batch_fp32: int | None, batch_amp: int | None) -> float | None:
    """log2 of the mixed-precision batch over the FP32 batch, None when not said."""
    if not (batch_fp32 and batch_amp):
        return None
    change = math.log2(batch_amp / batch_fp32)
    return max(-MAX_LOG2_BATCH, min(MAX_LOG2_BATCH, change))


@dataclass(frozen=True)
class Job:
    """One setup as the model sees it; any part may be unknown (None)."""

    spec: GpuSpec | None
    family: str | None = None
    model: str | None = None  # a model key (see :func:`model_key`)
    framework: str | None = None
    num_gpus: int = 1
    precision: str = "fp16"
    baseline: str | None = None  # None: the GPU's usual one (:func:`default_baseline`)
    batch: float | None = None  # see :func:`batch_change`
    recurrent: bool = False
    level: str = "tuned"
    # log of the roofline ratio of the user's own traced step on this GPU (mpbot predict);
    # None: the catalog model's shipped profile is timed instead, if it has one (terms).
    roof: float | None = None

    @property
    def gpu(self) -> str | None:
        return self.spec.key if self.spec is not None else None

    def at_level(self, level: str) -> Job:
        return Job(**{**self.__dict__, "level": level})

    def hiding(self, *, gpu: bool = False, model: bool = False, family: bool = False) -> Job:
        """The same job with parts unsaid, as a user who did not name them."""
        fields = dict(self.__dict__)
        if gpu:
            fields["spec"] = None
        if model or family:
            fields["model"] = None
            fields["recurrent"] = self.recurrent and not family
        if family:
            fields["family"] = None
        if model or family or gpu:
            fields["roof"] = None  # a traced step is of the named model on the named GPU
        return Job(**fields)


def roofline(
    model: str | None, spec: GpuSpec | None, precision: str, baseline: str
) -> float | None:
    """log of the roofline ratio of a catalog model's shipped kernels on the GPU (the
    same timing ``mpbot predict`` does, torch-free); None without a profile."""
    if spec is None or profiles.profile_of(model) is None:
        return None
    gpu = _roofline_gpu(spec.name)
    if gpu is None:
        return None
    return profiles.log_ratio(model, gpu, baseline if spec.has_tf32 else "fp32", precision)


@cache
def _roofline_gpu(name: str) -> Gpu | None:
    """The per-variant row the roofline times a catalog GPU on (every fit asks again)."""
    try:
        return find_gpu(name)
    except UnknownGpu:
        return None


def job_of(m: Measurement, spec: GpuSpec | None) -> Job:
    """A measured row as a job (its GPU's spec row passed in, None when unknown)."""
    precision = m.precision if m.precision in ("fp16", "bf16", "fp8") else "fp16"
    baseline = m.baseline if m.baseline_stated else None
    return Job(
        spec=spec,
        family=m.family,
        model=model_key(m.published_model, m.model),
        framework=framework_key(m.framework),
        num_gpus=m.num_gpus or 1,
        precision=precision,
        baseline=baseline,
        batch=batch_change(m.batch_fp32, m.batch_amp),
        recurrent=is_recurrent(m.model, m.architecture),
        level=m.level,
    )


def framework_key(framework: str | None) -> str | None:
    """ "PyTorch (NGC 21.05)", "TF2", "tensorflow" -> pytorch, tensorflow, ..."""
    text = (framework or "").lower()
    for key, pattern in (
        (
            "pytorch",
            (
                r"pytorch|torch|lightning|hugging|fairseq|timm|apex|deepspeed|detectron|mmdet"
                r"|mmcv|mmseg|fastai|diffusers|nemo|espnet"
            ),
        ),
        ("tensorflow", r"tensorflow|\btf\d?\b|keras|openseq2seq"),
        ("jax", r"\bjax\b|flax|haiku|t5x|trax"),
        ("mxnet", r"mxnet|gluon"),
        ("paddle", r"paddle"),
    ):
        if re.search(pattern, text):
            return key
    return None


def gpu_terms(spec: GpuSpec, precision: str, baseline: str) -> dict[str, float] | None:
    """The GPU's three numbers, centred; None when it has no units for the format."""
    peak = peak_ratio(spec, precision, baseline)
    amp = amp_peak(spec, precision)
    if peak is None or amp is None:
        return None
    terms = {"peak": math.log(peak) - PEAK_CENTRE, "speed": math.log(amp) - SPEED_CENTRE}
    if spec.bandwidth_gbs:
        terms["intensity"] = math.log(amp * 1000 / spec.bandwidth_gbs) - INTENSITY_CENTRE
    return terms


def terms(job: Job, batch_default: float) -> dict[str, float] | None:
    """Named regressors of a job with a known GPU (None when the GPU cannot run it).

    ``batch_default`` stands in for an unsaid batch change: tuned benchmarks ran each
    precision at its own largest batch, projects mostly keep theirs.
    """
    assert job.spec is not None
    baseline = job.baseline if job.spec.has_tf32 else "fp32"
    gpu = gpu_terms(job.spec, job.precision, baseline or default_baseline(job.spec))
    if gpu is None:
        return None
    roof = job.roof
    if roof is None:
        roof = roofline(job.model, job.spec, job.precision, baseline or default_baseline(job.spec))
    if roof is not None:
        # The roofline of the model's own kernels stands for the GPU's generic numbers.
        gpu = {"roof": roof - ROOF_CENTRE}
    out = {
        "1": 1.0,
        **gpu,
        "gpus": math.log2(max(1, job.num_gpus)),
        "batch": job.batch if job.batch is not None else batch_default,
        "d:" + job.spec.key: 1.0,
    }
    if job.precision == "bf16":
        out["bf16"] = 1.0
    if job.recurrent:
        out["rnn"] = 1.0
    group = FAMILY_GROUP.get(job.family or "")
    if group:
        # GEMM-heavy text models gain more from Tensor Cores over FP32 than conv nets do.
        out["g:" + group] = 1.0
        if "peak" in gpu:
            out["gp:" + group] = gpu["peak"]
    if job.family:
        out["f:" + job.family] = 1.0
    if job.model:
        out["m:" + job.model] = 1.0
    if job.framework:
        out["fw:" + job.framework] = 1.0
    return out
