"""How close ``mpbot predict`` comes to measured ratios on GPUs it was not fitted on.

For every single-GPU ResNet-50 and BERT row in Lambda's benchmark (the
calibration set: one software stack, every precision at its largest batch) and
in NVIDIA's DeepLearningExamples tables (DALI, channels-last: evaluated, not
fitted) whose GPU is in gpu_specs.csv, the built-in shape is traced at the
row's batches and predicted as ``mpbot predict`` answers it (the chat's ratio
model over the roofline, ``cli.headline``) with the row's GPU held out of both
fits: the roofline's factors and the chat's fit. Printed beside it: the
roofline alone, the chat fitted on every row (not held out) and the rule of
thumb (1.85, range 1.2-2.5). GPT-2 has no published rows; its predictions are
listed.

    python bench/predict_eval.py            # evaluate (a few minutes on 2 cores)
    python bench/predict_eval.py --refit    # also rewrite bot/predict/data/calibration.json
    python bench/predict_eval.py --cache /tmp/traces   # keep traces between runs
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import math
import pickle
import statistics
import sys
import time
import warnings
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from importlib.resources import files
from pathlib import Path

warnings.filterwarnings("ignore", message="Failed to initialize NumPy")

from bot.advice import calibration as chat_calibration
from bot.advice.calibration import fit_all
from bot.advice.catalog import canonical_gpu, gpu_spec
from bot.advice.prediction import Setup, predict
from bot.advice.ratio_model import evidence
from bot.predict import calibration, profiles
from bot.predict.cli import headline
from bot.predict.fit import Row, calibrate, fit, predicted
from bot.predict.gpus import Gpu, UnknownGpu, find_gpu
from bot.predict.options import Options
from bot.predict.trace import trace_step, workload_maker

RULE, RULE_LOW, RULE_HIGH = 1.85, 1.2, 2.5
CALIBRATION = Path(__file__).resolve().parents[1] / "bot" / "predict" / "data" / "calibration.json"
CHAT_MODEL = {"resnet50": "ResNet-50", "bert": "BERT"}


def _shapes() -> dict:
    return json.loads(files("bot.predict").joinpath("data", "shapes.json").read_text("utf-8"))


def shape_key(model: str, task: str) -> str | None:
    if model.startswith("ResNet-50"):
        return model
    if model not in ("BERT-base", "BERT-large"):
        return None
    if "question answering" in task:
        return f"{model}/squad"
    for seq in ("128", "512"):
        if f"seq_len={seq}" in task:
            return f"{model}/seq{seq}"
    return None


CACHE: Path | None = None  # --cache DIR: keep traces between runs


def _trace_version() -> str:
    """Traces depend on the tracer, the op table and torch: a change re-traces."""
    import torch

    from bot.predict import ops, trace

    parts = [Path(trace.__file__).read_bytes(), Path(ops.__file__).read_bytes()]
    parts.append(files("bot.predict").joinpath("data", "op_classes.json").read_bytes())
    parts.append(torch.__version__.encode())
    return hashlib.sha256(b"".join(parts)).hexdigest()[:16]


@cache
def traced(key: str, batch: int, precision: str | None) -> tuple:
    path = (
        CACHE / f"{_trace_version()}-{key.replace('/', '_')}-{batch}-{precision}.pickle"
        if CACHE
        else None
    )
    if path and path.exists():
        return pickle.loads(path.read_bytes())
    shape = _shapes()[key]
    make = workload_maker(shape["model"], None, "full", batch, shape["overrides"])
    ops = tuple(trace_step(make, precision))
    if path:
        path.write_bytes(pickle.dumps(ops))
    return ops


def _csv(path: str) -> list[dict[str, str]]:
    return list(csv.DictReader(Path(path).read_text(encoding="utf-8").splitlines()))


def load_rows(path: str, stack: str) -> list[Row]:
    rows = []
    for r in _csv(path):
        key = shape_key(r["model"], r["task"])
        if (
            key is None
            or key not in _shapes()
            or r["num_gpus"] != "1"
            or not r["row_type"].startswith("measured_table")
            or not (r["batch_size_fp32"].isdigit() and r["batch_size_amp"].isdigit())
        ):
            continue
        try:
            gpu = find_gpu(r["gpu"])
        except UnknownGpu:
            continue
        b32, b16 = int(r["batch_size_fp32"]), int(r["batch_size_amp"])
        base_tp, amp_tp = float(r["throughput_baseline"]), float(r["throughput_amp"])
        rows.append(
            Row(
                label=f"{stack}: {key} on {gpu.name} ({b32}/{b16})",
                model=key,
                gpu=gpu,
                baseline=r["baseline_precision"],
                precision=r["amp_precision"],
                base_ops=traced(key, b32, None),
                mixed_ops=traced(key, b16, r["amp_precision"]),
                batch_base=b32,
                batch_mixed=b16,
                ratio=amp_tp / base_tp,
                base_s=1 / base_tp,
                mixed_s=1 / amp_tp,
                source=r["source_url"],
            )
        )
    return rows


def chat(row: Row) -> tuple[float, float, float]:
    p = predict(
        Setup(
            gpu=canonical_gpu(row.gpu.name),
            model=CHAT_MODEL[_shapes()[row.model]["model"]],
            num_gpus=1,
            precision=row.precision,
            baseline=row.baseline,
            batch_fp32=row.batch_base,
            batch_amp=row.batch_mixed,
        )
    )
    return p.ratio, p.low, p.high


@contextmanager
def gpu_held_out(gpu: Gpu, factors: calibration.Factors) -> Iterator[None]:
    """Answer as if ``gpu`` had never been measured: the chat fitted without any row of
    its canonical GPU (every source) and the roofline priced with factors fitted
    without it (the chat's roofline term included)."""
    key = gpu_spec(canonical_gpu(gpu.name)).key
    if key not in _chat_without:
        _chat_without[key] = fit_all(evidence().without(lambda r: r.job.gpu == key))
    shipped, fitted = calibration.shipped, chat_calibration.fitted
    calibration.shipped = lambda: factors  # type: ignore[assignment]
    chat_calibration.fitted = lambda: _chat_without[key]  # type: ignore[assignment]
    profiles.log_ratio.cache_clear()
    try:
        yield
    finally:
        calibration.shipped, chat_calibration.fitted = shipped, fitted
        profiles.log_ratio.cache_clear()


_chat_without: dict[str, object] = {}


def unified(row: Row, factors: calibration.Factors) -> tuple[float, float, float]:
    """What ``mpbot predict`` says for the row now (the chat's ratio model over the
    roofline, cli.headline), with the row's GPU held out of both fits."""
    builtin = _shapes()[row.model]["model"]
    opts = Options(
        model=builtin,
        factory=None,
        gpu=row.gpu.name,
        size="full",
        batch=row.batch_base,
        batch_amp=row.batch_mixed,
        precision=row.precision,
        baseline=row.baseline,
        fp32_time=None,
        json=False,
    )
    with gpu_held_out(row.gpu, factors):
        roof = math.log(predicted(row, factors)[0])
        head = headline(
            opts,
            row.gpu,
            CHAT_MODEL[builtin],
            roof,
            row.baseline,
            batch=row.batch_base,
            batch_amp=row.batch_mixed,
        )
    assert head is not None
    return head[:3]


def _error(predicted_ratio: float, measured: float) -> float:
    return abs(predicted_ratio / measured - 1)


def report(title: str, results: list[tuple[Row, float, float, float, tuple, tuple]]) -> None:
    """results: (row, roofline, low, high, chat (ratio, low, high), predict (ratio, low,
    high)); predict's figure is the unified one (the chat's model over the roofline),
    both fits without the row's GPU; the chat's column is fitted on every row."""
    print(f"\n## {title}: {len(results)} rows")
    print(f"{'row':50} {'meas':>5} {'pred':>5} {'range':>11} {'roof':>5} {'chat':>5} {'rule':>5}")
    for row, ratio, _low, _high, ch, un in results:
        print(
            f"{row.label[:50]:50} {row.ratio:5.2f} {un[0]:5.2f} {un[1]:5.2f}-{un[2]:<5.2f} "
            f"{ratio:5.2f} {ch[0]:5.2f} {RULE:5.2f}"
        )
    for family in ("ResNet-50", "BERT", "all"):
        part = [x for x in results if family == "all" or x[0].model.startswith(family)]
        if not part:
            continue
        ours = [_error(x[5][0], x[0].ratio) for x in part]
        roofs = [_error(x[1], x[0].ratio) for x in part]
        chats = [_error(x[4][0], x[0].ratio) for x in part]
        rules = [_error(RULE, x[0].ratio) for x in part]
        cover = sum(x[5][1] <= x[0].ratio <= x[5][2] for x in part) / len(part)
        roof_cover = sum(x[2] <= x[0].ratio <= x[3] for x in part) / len(part)
        rule_cover = sum(RULE_LOW <= x[0].ratio <= RULE_HIGH for x in part) / len(part)
        print(
            f"{family:9} n={len(part):2}  median error: predict {statistics.median(ours):5.1%}"
            f"  roofline alone {statistics.median(roofs):5.1%}"
            f"  rule {statistics.median(rules):5.1%}"
            f"  (chat fitted on all: {statistics.median(chats):4.1%})"
            f"   coverage: predict {cover:4.0%}  roofline {roof_cover:4.0%}"
            f"  rule {rule_cover:4.0%}"
        )


GPT2_BATCH = 8


def print_gpt2(gpus: list, factors: calibration.Factors) -> None:
    """GPT-2 (124M, sequence 1024) has no published rows: predictions only."""
    base = traced_builtin("gpt2", GPT2_BATCH, None)
    mixed = traced_builtin("gpt2", GPT2_BATCH, "fp16")
    print(f"\n## GPT-2 at batch {GPT2_BATCH} (no published rows: predicted only)")
    for gpu in gpus:
        baseline = "tf32" if gpu.tf32 else "fp32"
        row = Row(gpu.name, "gpt2", gpu, baseline, "fp16", base, mixed, GPT2_BATCH, GPT2_BATCH, 1.0)
        print(f"{gpu.name:28} {baseline} -> fp16  {predicted(row, factors)[0]:5.2f}")


@cache
def traced_builtin(model: str, batch: int, precision: str | None) -> tuple:
    return tuple(trace_step(workload_maker(model, None, "full", batch), precision))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--refit", action="store_true", help="rewrite calibration.json")
    parser.add_argument("--cache", type=Path, help="folder to keep traces in between runs")
    args = parser.parse_args(argv)
    global CACHE
    CACHE = args.cache
    if CACHE:
        CACHE.mkdir(parents=True, exist_ok=True)
    started = time.perf_counter()
    lambda_rows = load_rows(
        str(files("bot.advice").joinpath("data", "lambda_benchmark.csv")), "Lambda"
    )
    nvidia_rows = load_rows(str(files("bot.advice").joinpath("data", "amp_speedups.csv")), "NVIDIA")
    print(f"traced {traced.cache_info().currsize} steps in {time.perf_counter() - started:.0f}s")
    start = calibration.initial()
    factors, held_out = calibrate(lambda_rows, start)
    low, high = math.exp(factors.log_error_low), math.exp(factors.log_error_high)
    lambda_fits = {
        name: fit([r for r in lambda_rows if r.gpu.name != name], start)
        for name in {r.gpu.name for r in lambda_rows}
    }
    lambda_results = [
        (row, ratio, ratio * low, ratio * high, chat(row), unified(row, lambda_fits[row.gpu.name]))
        for row, ratio in held_out
    ]
    report("Lambda, each GPU held out of the fit (leave-one-GPU-out)", lambda_results)
    without: dict[str, calibration.Factors] = {}
    nvidia_results = []
    for row in nvidia_rows:
        name = row.gpu.name
        if name not in without:
            without[name] = fit([r for r in lambda_rows if r.gpu.name != name], start)
        ratio = predicted(row, without[name])[0]
        nvidia_results.append(
            (row, ratio, ratio * low, ratio * high, chat(row), unified(row, without[name]))
        )
    report("NVIDIA DLE tables (not fitted; their GPU held out too)", nvidia_results)
    print_gpt2(sorted({r.gpu for r in lambda_rows}, key=lambda g: g.name), factors)
    print(f"\nfactors fitted on all {len(lambda_rows)} Lambda rows:")
    print(factors.to_json())
    if args.refit:
        CALIBRATION.write_text(factors.to_json(), encoding="utf-8")
        print(f"wrote {CALIBRATION}")
    print(f"done in {time.perf_counter() - started:.0f}s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
