"""Run the whole experiment: baseline and mixed precision, then the report.

The only module that knows the order of things; measuring is in
:mod:`timing`, the batch search in :mod:`maxbatch`, the arithmetic and
wording in :mod:`report`.
"""

from __future__ import annotations

from collections.abc import Callable

import torch

from bot.experiment import maxbatch
from bot.experiment.models import (
    CANONICAL,
    ExperimentError,
    Workload,
    build_builtin,
    default_batch,
    load_factory,
    odd_dimensions,
)
from bot.experiment.options import Options
from bot.experiment.progress import Progress
from bot.experiment.report import (
    Environment,
    MaxBatch,
    Note,
    Report,
    Run,
    WarningCode,
    loss_agreement,
    project,
    ratio_stats,
    ratio_warnings,
    record_line,
    record_problem,
)
from bot.experiment.timing import (
    Plan,
    autocast_problem,
    default_precision,
    environment,
    is_out_of_memory,
    measure,
    precision_problem,
    resolve_device,
)

INPUT_BOUND = 0.2  # share of a step spent making the batch
CPU_BOUND = 0.9  # host launch time / step time
_LISTED_DIMS = 4


def run(opts: Options, progress: Progress | None = None) -> Report:
    device = resolve_device(opts.device)
    env = environment(device, opts.baseline)
    precision = opts.precision or default_precision(device)
    capability = torch.cuda.get_device_capability(device) if device.type == "cuda" else None
    bf16_ok = device.type == "cuda" and torch.cuda.is_bf16_supported()
    problem = precision_problem(device.type, precision, capability, bf16_ok) or autocast_problem(
        device, precision
    )
    if problem:
        raise ExperimentError(problem)

    build, batch, name, size = _workload(opts, device)
    probe = build(batch)
    parameters = sum(p.numel() for p in probe.model.parameters())
    odd = odd_dimensions(probe.model, batch)
    del probe

    baseline = "tf32" if env.tf32_matmul else "fp32"
    plan = Plan(warmup=opts.warmup, steps=opts.steps, repeats=opts.repeats, seed=opts.seed)
    progress = progress or Progress(0)
    progress.total = 2 * (plan.warmup + plan.repeats * plan.steps)
    progress.phase(f"{baseline} at batch {batch}")
    base_run = _measure(build, batch, baseline, device, plan, progress.tick)
    progress.phase(f"{precision} at batch {batch}")
    mixed_run = _measure(build, batch, precision, device, plan, progress.tick)
    ratio = ratio_stats(base_run.time, mixed_run.time)
    loss = loss_agreement(base_run.losses, mixed_run.losses)
    max_batch = (
        _max_batch(build, batch, baseline, precision, device, plan, progress)
        if opts.find_max_batch
        else None
    )
    progress.close()

    notes = _setup_warnings(env, opts, odd, base_run) + ratio_warnings(
        ratio, loss, mixed_run, base_run
    )
    line = record_line(
        name if size in (None, "full") else f"{name}-{size}", env, mixed_run, base_run, opts.gpus
    )
    refused = record_problem(line, env.device, ratio.ratio)
    return Report(
        model=name,
        size=size,
        parameters=parameters,
        environment=env,
        baseline=base_run,
        mixed=mixed_run,
        ratio=ratio,
        loss=loss,
        projection=project(opts.fp32_time.hours, ratio) if opts.fp32_time else None,
        max_batch=max_batch,
        warnings=notes,
        record_line=None if refused else line,
        record_refused=refused,
    )


def _workload(
    opts: Options, device: torch.device
) -> tuple[Callable[[int], Workload], int, str, str | None]:
    """The builder at a batch size, the batch, the model's name and size."""
    if opts.factory:
        factory = load_factory(opts.factory)
        return (lambda b: factory(b, device)), opts.batch or 32, opts.factory, None
    size = opts.size or ("full" if device.type == "cuda" else "tiny")
    name = opts.model or "resnet50"
    if name not in CANONICAL:
        raise ExperimentError(f"unknown model {name!r}; choose one of {', '.join(CANONICAL)}")
    batch = opts.batch or default_batch(name, size)
    return (lambda b: build_builtin(name, size, b, device)), batch, CANONICAL[name], size


def _measure(
    build: Callable[[int], Workload],
    batch: int,
    precision: str,
    device: torch.device,
    plan: Plan,
    tick: Callable[[], None],
) -> Run:
    try:
        return measure(build, batch, precision, device, plan, tick)
    except Exception as exc:
        if is_out_of_memory(exc):
            raise ExperimentError(
                f"out of memory at batch {batch} in {precision}; try a smaller --batch or --size"
            ) from None
        raise


def _max_batch(
    build: Callable[[int], Workload],
    start: int,
    baseline: str,
    precision: str,
    device: torch.device,
    plan: Plan,
    progress: Progress,
) -> MaxBatch:
    progress.phase(f"largest {baseline} batch")
    base = maxbatch.find_max_batch(build, start, baseline, device, progress.tick)
    progress.phase(f"largest {precision} batch")
    mixed = maxbatch.find_max_batch(build, start, precision, device, progress.tick)
    progress.phase(f"timing at batches {base.batch}/{mixed.batch}")
    base_run = _measure(build, base.batch, baseline, device, plan, progress.tick)
    mixed_run = _measure(build, mixed.batch, precision, device, plan, progress.tick)
    return MaxBatch(
        baseline_batch=base.batch,
        mixed_batch=mixed.batch,
        capped=base.capped or mixed.capped,
        baseline=base_run,
        mixed=mixed_run,
        ratio=ratio_stats(base_run.time, mixed_run.time, base.batch, mixed.batch),
    )


def _setup_warnings(env: Environment, opts: Options, odd: list[str], base: Run) -> list[Note]:
    """Warnings about the machine and the model, before looking at the ratio."""
    notes: list[Note] = []
    if odd:
        listed = ", ".join(odd[:_LISTED_DIMS]) + (
            f" and {len(odd) - _LISTED_DIMS} more" if len(odd) > _LISTED_DIMS else ""
        )
        notes.append(
            Note(
                code=WarningCode.DIMS_NOT_MULTIPLE_OF_8,
                message=(
                    f"sizes not multiples of 8 keep Tensor Cores from being used fully: {listed}"
                ),
            )
        )
    if env.device == "cpu":
        notes.append(
            Note(
                code=WarningCode.CPU_NOT_GPU,
                message=(
                    "measured on CPU: CPU ratios do not predict GPU ratios; run this on the GPU you "
                    "will train on before recording it"
                ),
            )
        )
        notes.append(
            Note(
                code=WarningCode.MEMORY_PROCESS_WIDE,
                message=(
                    "memory on CPU is the process's peak RSS (PyTorch included), not the model's alone"
                ),
            )
        )
    elif env.capability and float(env.capability) < 7.0:
        notes.append(
            Note(
                code=WarningCode.NO_TENSOR_CORES,
                message=(
                    f"{env.device_name} has no Tensor Cores (compute capability {env.capability}): "
                    "mixed precision mostly saves memory here, not time"
                ),
            )
        )
    if opts.baseline == "tf32" and env.device == "cuda" and not env.tf32_matmul:
        notes.append(
            Note(
                code=WarningCode.NO_TF32,
                message=(
                    f"{env.device_name} has no TF32 (needs Ampere or newer): the baseline is plain fp32"
                ),
            )
        )
    if base.data_fraction is not None and base.data_fraction > INPUT_BOUND:
        notes.append(
            Note(
                code=WarningCode.INPUT_BOUND,
                message=(
                    f"{base.data_fraction:.0%} of a step is spent making the batch: the run is "
                    "input-bound, and a faster precision cannot speed that part up"
                ),
            )
        )
    if base.launch_fraction is not None and base.launch_fraction > CPU_BOUND:
        notes.append(
            Note(
                code=WarningCode.CPU_BOUND,
                message=(
                    "the GPU waits for Python to launch work (launching takes "
                    f"{base.launch_fraction:.0%} of a step): the step is CPU-bound; try a larger batch"
                ),
            )
        )
    return notes
