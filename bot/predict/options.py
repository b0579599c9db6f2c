"""Command-line options of ``mpbot predict`` (standard library only, like experiment's)."""

from __future__ import annotations

import argparse
from dataclasses import dataclass

from bot.experiment.options import (
    FACTORY_CONTRACT,
    SIZE_CHOICES,
    add_model_arguments,
    parse_duration,
    positive_int,
)
from bot.models import Duration

PRECISION_CHOICES = ("fp16", "bf16", "fp8")
# What "FP32" runs as: stock PyTorch (since 1.12: matmuls in strict FP32, cuDNN
# convolutions in TF32 on Ampere and newer), strict FP32 everywhere, or TF32 everywhere
# (NGC containers, TensorFlow, JAX; the published tables).
BASELINE_CHOICES = ("pytorch", "fp32", "tf32")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the prediction's flags on ``parser`` (the ``predict`` subparser)."""
    add_model_arguments(parser, f"your own builder, as for mpbot experiment: {FACTORY_CONTRACT}")
    parser.add_argument(
        "--gpu", metavar="NAME", help="GPU to predict for, e.g. T4, 'A100 80GB', L40S (required)"
    )
    parser.add_argument(
        "--size", choices=SIZE_CHOICES, default="full", help="built-in model size (default: full)"
    )
    parser.add_argument(
        "--batch",
        type=positive_int,
        default=None,
        help="batch size (default: the model's usual one)",
    )
    parser.add_argument(
        "--batch-amp",
        type=positive_int,
        default=None,
        metavar="M",
        help="mixed-precision batch when it differs (the ratio is then per sample)",
    )
    parser.add_argument(
        "--precision",
        choices=PRECISION_CHOICES,
        default="fp16",
        help="mixed precision (default: fp16)",
    )
    parser.add_argument(
        "--baseline",
        choices=BASELINE_CHOICES,
        default="pytorch",
        help=(
            "what 'FP32' runs as: stock PyTorch (matmuls strict FP32, convolutions TF32 on "
            "Ampere+; the default), strict fp32, or tf32 (NGC containers, TensorFlow, JAX)"
        ),
    )
    parser.add_argument(
        "--fp32-time",
        type=parse_duration,
        default=None,
        metavar="DURATION",
        help="your FP32 training time (100h, 3d), written into the Slack line",
    )
    parser.add_argument("--json", action="store_true", help="print the prediction as JSON")
    parser.add_argument(
        "--schema", action="store_true", help="print the JSON schema of --json and exit"
    )


@dataclass(frozen=True)
class Options:
    model: str | None
    factory: str | None
    gpu: str | None
    size: str
    batch: int | None
    batch_amp: int | None
    precision: str
    baseline: str
    fp32_time: Duration | None
    json: bool

    @classmethod
    def from_namespace(cls, args: argparse.Namespace) -> Options:
        return cls(
            model=args.model if args.model or args.factory else "resnet50",
            factory=args.factory,
            gpu=args.gpu,
            size=args.size,
            batch=args.batch,
            batch_amp=args.batch_amp,
            precision=args.precision,
            baseline=args.baseline,
            fp32_time=args.fp32_time,
            json=args.json,
        )
