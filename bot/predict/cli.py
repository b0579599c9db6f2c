"""Entry point of ``mpbot predict``: find the GPU, trace the step, time it, print.

torch is imported inside the function, as for ``mpbot experiment``, so
``mpbot --help`` and the bot never load it; without torch the user is told
how to install it (exit 3).
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import math
import sys
import warnings

from bot.advice.catalog import canonical_gpu, gpu_spec
from bot.experiment.cli import INSTALL_HINT
from bot.predict import calibration, profiles
from bot.predict.gpus import Gpu, UnknownGpu, find_gpu
from bot.predict.ops import OpClass
from bot.predict.options import Options
from bot.predict.report import Prediction, limit, per_class, render_text, slack_line
from bot.predict.roofline import NoSuchMath, OpTime, check_precision, step_times

FACTORY_BATCH = 32  # as mpbot experiment


def run_predict(args: argparse.Namespace) -> int:
    """0 when predicted, 1 on a problem the user can fix, 2 on a missing --gpu, 3 without torch."""
    if args.schema:
        print(json.dumps(Prediction.model_json_schema(), indent=2))
        return 0
    opts = Options.from_namespace(args)
    if not opts.gpu:
        print("mpbot predict: error: --gpu is required, e.g. --gpu T4", file=sys.stderr)
        return 2
    try:
        gpu = find_gpu(opts.gpu)
        check_precision(gpu, opts.baseline, opts.precision)
    except (UnknownGpu, NoSuchMath) as exc:
        print(f"mpbot predict: error: {exc}", file=sys.stderr)
        return 1
    if importlib.util.find_spec("torch") is None:
        print(f"mpbot predict: {INSTALL_HINT}", file=sys.stderr)
        return 3
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
    from bot.experiment.models import ExperimentError

    try:
        prediction = predict(opts, gpu)
    except ExperimentError as exc:
        print(f"mpbot predict: error: {exc}", file=sys.stderr)
        return 1
    print(prediction.model_dump_json(indent=2) if opts.json else render_text(prediction))
    return 0


def predict(opts: Options, gpu: Gpu) -> Prediction:
    """Trace both steps on fake tensors and time them on ``gpu``."""
    from bot.experiment.models import CANONICAL, default_batch
    from bot.predict.trace import trace_step, workload_maker

    batch = opts.batch or (FACTORY_BATCH if opts.factory else default_batch(opts.model, opts.size))
    batch_amp = opts.batch_amp or batch
    factors = calibration.shipped()
    base_ops = trace_step(workload_maker(opts.model, opts.factory, opts.size, batch), None)
    mixed_ops = trace_step(
        workload_maker(opts.model, opts.factory, opts.size, batch_amp), opts.precision
    )
    base = step_times(base_ops, gpu, factors, opts.baseline, None)
    mixed = step_times(mixed_ops, gpu, factors, opts.baseline, opts.precision)
    base_s, mixed_s = _total(base), _total(mixed)
    roof = (base_s / batch) / (mixed_s / batch_amp)
    name = opts.factory.rpartition(":")[2] if opts.factory else CANONICAL[opts.model]
    mode = _peak_mode(opts.baseline, base)
    catalog = None if opts.factory else name
    head = headline(opts, gpu, catalog, math.log(roof), mode, batch=batch, batch_amp=batch_amp)
    if head is None:  # a GPU the chat does not know: the roofline alone
        ratio, low, high, basis = (
            roof,
            roof * math.exp(factors.log_error_low),
            roof * math.exp(factors.log_error_high),
            "roofline",
        )
    else:
        ratio, low, high, basis = head
    baseline_peak = gpu.peak(mode) or gpu.fp32
    mixed_peak = gpu.peak(opts.precision)
    unaligned = sum(t.op.count for t in mixed if t.tensor_cores and not t.op.aligned)
    return Prediction(
        model=name,
        gpu=gpu.name,
        # Before Ampere stock PyTorch's baseline is plain FP32: no TF32 to speak of.
        baseline="fp32" if opts.baseline == "pytorch" and gpu.tf32 is None else opts.baseline,
        precision=opts.precision,
        batch=batch,
        batch_amp=batch_amp,
        ratio=round(ratio, 3),
        ratio_low=round(min(low, ratio), 3),
        ratio_high=round(max(high, ratio), 3),
        basis=basis,
        roofline_ratio=round(roof, 3),
        baseline_step_ms=base_s * 1e3,
        mixed_step_ms=mixed_s * 1e3,
        kernels_baseline=_kernels(base),
        kernels_mixed=_kernels(mixed),
        per_class=per_class(base, mixed),
        limit=limit(
            mixed,
            _kernels(mixed) * factors.launch_us * 1e-6,
            tensor_cores=mixed_peak is not None,
            peak_ratio=mixed_peak / baseline_peak if mixed_peak else None,
        ),
        unaligned_tensor_ops=unaligned,
        notes=_notes(opts, gpu, unaligned, basis, roof),
        slack_line=slack_line(
            ratio,
            name,
            canonical_gpu(gpu.name) or gpu.name,
            _hours(opts.fp32_time.hours) if opts.fp32_time else None,
        ),
    )


def headline(
    opts: Options,
    gpu: Gpu,
    catalog: str | None,
    roof: float,
    mode: str,
    *,
    batch: int,
    batch_amp: int,
) -> tuple[float, float, float, str] | None:
    """The chat's ratio and busy-GPU range for the same setup (one ratio model serves
    both), and its basis; None where the chat does not know the GPU.

    A catalog model with a shipped profile is asked by name (a table's rows where one
    measured it, else the fit over its profile's roofline), then moved by the fit's
    roofline slope from the shipped step to the one traced here (another batch or
    size); at the shipped step nothing moves, so chat and predict give one number.
    Any other step (``--factory``, the MLP) is asked with its own roofline as the
    model's term; on a GPU without Tensor Cores, where the chat's figure is its kind's
    runs whatever the step, such a step is left to the roofline (None). ``catalog`` is the built-in model's catalog name (None for a
    factory); ``roof`` the log of the traced step's roofline ratio; ``mode`` is the baseline the chat names (stock PyTorch: TF32 for a
    conv net, strict FP32 otherwise)."""
    from bot.advice import calibration as chat_calibration
    from bot.advice.prediction import Setup
    from bot.advice.prediction import predict as chat_predict

    name = canonical_gpu(gpu.name)
    spec = gpu_spec(name)
    shipped = profiles.profile_of(catalog)
    if spec is None or not (spec.tensor_cores or shipped):
        # Without Tensor Cores the chat answers from runs on GPUs of the kind alone,
        # whatever the step: the traced step's own roofline says more about it.
        return None
    same_step = opts.size == "full" and batch == batch_amp == (shipped.batch if shipped else 0)
    # Another step carries its batches in its roofline: the chat is asked for the same
    # batch in both precisions, so the fit's batch term does not count them twice.
    fixed = None if same_step else batch
    chat = chat_predict(
        Setup(
            gpu=name,
            model=catalog if shipped else None,
            framework="PyTorch",
            precision=opts.precision,
            baseline=mode,
            batch_fp32=fixed,
            batch_amp=fixed,
            roof=None if shipped else roof,
        )
    )
    shift = 0.0
    if shipped and spec.tensor_cores and not same_step:
        reference = profiles.log_ratio(shipped.name, gpu, opts.baseline, opts.precision)
        if reference is not None:
            shift = chat_calibration.fitted().model.term("roof") * (roof - reference)
    move = math.exp(shift)
    return chat.ratio * move, chat.low * move, chat.high * move, str(chat.basis)


def _peak_mode(baseline: str, times: list[OpTime]) -> str:
    """The baseline's math mode for the step's own FLOPs: stock PyTorch's is TF32 for a
    step whose Tensor Core FLOPs are mostly convolutions, strict FP32 otherwise."""
    if baseline != "pytorch":
        return baseline
    conv = sum(t.op.flops * t.op.count for t in times if t.op.kind == OpClass.CONV)
    matmul = sum(t.op.flops * t.op.count for t in times if t.op.kind == OpClass.MATMUL)
    return "tf32" if conv > matmul else "fp32"


def _total(times: list[OpTime]) -> float:
    return sum(t.seconds for t in times)


def _kernels(times: list[OpTime]) -> int:
    return sum(t.op.kernels * t.op.count for t in times)


def _hours(hours: float) -> str:
    return f"{hours:g}h"


def _notes(opts: Options, gpu: Gpu, unaligned: int, basis: str, roof: float) -> list[str]:
    notes = []
    if basis == "roofline":
        notes.append(
            "the ratio is the roofline's alone (the chat's model has no term for this "
            f"step on {gpu.name}: not in its GPU table, or no Tensor Cores and no catalog model)"
        )
    else:
        why = (
            "published rows of this model on this GPU"
            if "measured" in basis
            else "its fit over the roofline of the model's kernels"
        )
        notes.append(
            f"the ratio is the chat's for the same setup ({why}); "
            f"the roofline alone gives {roof:.2f}x"
        )
    if opts.baseline == "tf32" and gpu.tf32 is None:
        notes.append(f"{gpu.name} has no TF32 Tensor Cores: the baseline runs as FP32")
    elif opts.baseline == "pytorch" and gpu.tf32 is not None:
        notes.append(
            "baseline: stock PyTorch, matmuls in strict FP32 and convolutions in TF32 "
            "(--baseline tf32 for NGC containers, TensorFlow or JAX)"
        )
    if opts.precision == "fp8":
        notes.append(
            "FP8 is assumed for Linear-layer GEMMs only (Transformer Engine style); "
            "convolutions and attention stay 16-bit"
        )
    if unaligned:
        notes.append(
            f"{unaligned} Tensor Core kernels have dimensions that are not multiples of 8 "
            "(batch, features, channels or vocabulary): padding them would help"
        )
    if opts.factory:
        notes.append(
            "the range comes from the built-in models on GPUs left out of calibration; "
            "an unusual model can be further off: mpbot experiment on the GPU measures it"
        )
    return notes
