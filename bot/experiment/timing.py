"""Time training steps in one precision: the heart of the experiment.

A step is forward, backward and optimizer step, exactly as in training; the
device is synchronised around each timed repeat so queued GPU work is
counted. Both precisions start from the same seed (same initial weights and
batches), which is what makes their losses comparable.
"""

from __future__ import annotations

import contextlib
import gc
import resource
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import torch

from bot.experiment.models import ExperimentError, Workload
from bot.experiment.report import Environment, Run, StepCounts, time_stats

_AUTOCAST_DTYPES = {"fp16": torch.float16, "bf16": torch.bfloat16}
_PROBE_STEPS = 3  # per-step-synchronised steps used only to see where a step's time goes


@dataclass(frozen=True)
class Plan:
    """How each run is stepped; the same for both precisions."""

    warmup: int
    steps: int
    repeats: int
    seed: int


def resolve_device(choice: str) -> torch.device:
    if choice == "auto":
        return torch.device("cuda" if torch.cuda.is_available() else "cpu")
    if choice == "cuda" and not torch.cuda.is_available():
        raise ExperimentError(
            "--device cuda: no CUDA GPU is visible to PyTorch "
            "(is this the CPU build of torch?); use --device cpu to try it here"
        )
    return torch.device(choice)


def precision_problem(
    device: str, precision: str, capability: tuple[int, int] | None, bf16_supported: bool
) -> str | None:
    """Why ``precision`` cannot be measured on this device, or None when it can."""
    if precision == "bf16" and device == "cuda" and not bf16_supported:
        this = f"{capability[0]}.{capability[1]}" if capability else "older"
        return (
            "bf16 needs an NVIDIA Ampere or newer GPU (compute capability 8.0+); "
            f"this one is {this}: use --precision fp16"
        )
    return None


def autocast_problem(device: torch.device, precision: str) -> str | None:
    """Try a tiny autocast matmul: some builds or CPUs cannot run FP16 autocast."""
    dtype = _AUTOCAST_DTYPES[precision]
    try:
        with torch.autocast(device.type, dtype=dtype):
            probe = torch.ones(8, 8, device=device) @ torch.ones(8, 8, device=device)
        if probe.dtype != dtype:
            return f"{precision} autocast is not applied to matmuls on {device.type} in this build"
    except (RuntimeError, ValueError) as exc:
        return f"{precision} autocast is not supported on {device.type} here ({exc})"
    return None


def default_precision(device: torch.device) -> str:
    if device.type == "cuda" and not torch.cuda.is_bf16_supported():
        return "fp16"
    return "bf16"


def environment(device: torch.device, baseline: str) -> Environment:
    """Describe the device and set the TF32 switches the baseline means.

    On Ampere and newer, PyTorch's defaults mix TF32 (cuDNN convolutions) and
    true FP32 (matmuls), so "FP32" is ambiguous; both switches are set here
    for both runs and reported.
    """
    memory = "cuda_max_memory_allocated" if device.type == "cuda" else "peak_rss"
    if device.type != "cuda":
        if baseline == "tf32":
            raise ExperimentError(
                "--baseline tf32 needs an NVIDIA Ampere or newer GPU; "
                "on CPU the baseline is plain fp32"
            )
        return Environment(
            device="cpu",
            device_name=_cpu_name(),
            torch_version=torch.__version__,
            memory_measure=memory,
        )
    major, minor = torch.cuda.get_device_capability(device)
    tf32 = baseline == "tf32" and major >= 8
    torch.backends.cuda.matmul.allow_tf32 = tf32
    torch.backends.cudnn.allow_tf32 = tf32
    return Environment(
        device="cuda",
        device_name=torch.cuda.get_device_name(device),
        capability=f"{major}.{minor}",
        torch_version=torch.__version__,
        tf32_matmul=tf32,
        tf32_cudnn=tf32,
        memory_measure=memory,
    )


def _cpu_name() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return "CPU"


def is_out_of_memory(exc: BaseException) -> bool:
    return isinstance(exc, torch.cuda.OutOfMemoryError) or (
        isinstance(exc, RuntimeError) and "out of memory" in str(exc).lower()
    )


def free_memory(device: torch.device) -> None:
    gc.collect()
    if device.type == "cuda":
        torch.cuda.empty_cache()


def _reset_peak(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.reset_peak_memory_stats(device)
    else:  # Linux: writing 5 resets the process's peak RSS (VmHWM)
        with contextlib.suppress(OSError):
            Path("/proc/self/clear_refs").write_text("5")


def _peak(device: torch.device) -> int:
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device)
    with contextlib.suppress(OSError):
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def _sync(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.synchronize(device)


def _call(model: torch.nn.Module, inputs: object) -> object:
    if isinstance(inputs, dict):
        return model(**inputs)
    if isinstance(inputs, (tuple, list)):
        return model(*inputs)
    return model(inputs)


def measure(
    build: Callable[[int], Workload],
    batch: int,
    precision: str,
    device: torch.device,
    plan: Plan,
    tick: Callable[[], None] = lambda: None,
) -> Run:
    """Train ``plan.warmup + plan.repeats * plan.steps`` steps and time the repeats.

    ``precision`` is fp32/tf32 for the baseline (the TF32 switches are already
    set) or fp16/bf16 for autocast; FP16 gets a GradScaler, BF16 does not need
    one (it has FP32's exponent range). ``tick`` advances the progress bar.
    """
    free_memory(device)
    torch.manual_seed(plan.seed)
    work = build(batch)
    model = work.model.to(device).train()
    optimizer = torch.optim.AdamW(model.parameters(), lr=1e-4)
    dtype = _AUTOCAST_DTYPES.get(precision)
    scaler = torch.amp.GradScaler(device.type) if precision == "fp16" else None
    losses: list[torch.Tensor] = []
    _reset_peak(device)

    def step(inputs: object, targets: object) -> None:
        optimizer.zero_grad(set_to_none=True)
        with torch.autocast(device.type, dtype=dtype, enabled=dtype is not None):
            loss = work.loss_fn(_call(model, inputs), targets)
        if scaler is None:
            loss.backward()
            optimizer.step()
        else:
            scaler.scale(loss).backward()
            scaler.step(optimizer)
            scaler.update()
        losses.append(loss.detach())  # read at the end: no per-step sync

    for _ in range(plan.warmup):
        step(*work.batch_fn())
        tick()
    per_repeat: list[float] = []
    for _ in range(plan.repeats):
        _sync(device)
        start = time.perf_counter()
        for _ in range(plan.steps):
            step(*work.batch_fn())
            tick()
        _sync(device)
        per_repeat.append((time.perf_counter() - start) / plan.steps)
    peak = _peak(device)
    data_fraction, launch_fraction = _probe(step, work, device)
    stats = time_stats(per_repeat)
    calls = plan.warmup + plan.repeats * plan.steps + _PROBE_STEPS
    result = Run(
        precision=precision,
        batch=batch,
        steps=StepCounts(warmup=plan.warmup, timed=plan.steps, repeats=plan.repeats),
        time=stats,
        samples_per_s=batch / stats.median_s,
        peak_memory_bytes=peak,
        losses=[float(v) for v in torch.stack(losses[: calls - _PROBE_STEPS]).float().cpu()],
        scaler_skipped_steps=None if scaler is None else calls - _optimizer_steps(optimizer),
        scaler_final_scale=None if scaler is None else float(scaler.get_scale()),
        data_fraction=data_fraction,
        launch_fraction=launch_fraction if scaler is None else None,
    )
    return result


def _probe(
    step: Callable[[object, object], None], work: Workload, device: torch.device
) -> tuple[float, float | None]:
    """A few synchronised steps to see where time goes: making the batch, and
    (on CUDA) launching the step from Python. A launch time close to the step
    time means the GPU waits for the CPU, so a faster precision cannot help."""
    data = launch = total = 0.0
    for _ in range(_PROBE_STEPS):
        _sync(device)
        t0 = time.perf_counter()
        batch = work.batch_fn()
        t1 = time.perf_counter()
        step(*batch)
        t2 = time.perf_counter()
        _sync(device)
        t3 = time.perf_counter()
        data, launch, total = data + t1 - t0, launch + t2 - t1, total + t3 - t0
    return data / total, (launch / (total - data) if device.type == "cuda" else None)


def _optimizer_steps(optimizer: torch.optim.Optimizer) -> int:
    """AdamW counts the steps it really took; GradScaler's skipped ones are missing."""
    for state in optimizer.state.values():
        if "step" in state:
            return int(state["step"])
    return 0
