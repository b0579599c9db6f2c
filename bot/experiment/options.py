"""Command-line options of ``mpbot experiment`` (standard library only).

Kept free of torch so ``mpbot`` can list the subcommand and its options even
where the optional ``experiment`` extra is not installed.
"""

from __future__ import annotations

import argparse
import re
from dataclasses import dataclass

from bot.models import HOURS_PER_UNIT, Duration, TimeUnit

MODEL_CHOICES = ("resnet50", "bert", "gpt2", "mlp")
SIZE_CHOICES = ("tiny", "small", "full")
PRECISION_CHOICES = ("fp16", "bf16")
BASELINE_CHOICES = ("fp32", "tf32")
DEVICE_CHOICES = ("auto", "cuda", "cpu")

_UNITS: dict[str, TimeUnit] = {
    "m": TimeUnit.MINUTES,
    "min": TimeUnit.MINUTES,
    "mins": TimeUnit.MINUTES,
    "minute": TimeUnit.MINUTES,
    "minutes": TimeUnit.MINUTES,
    "h": TimeUnit.HOURS,
    "hr": TimeUnit.HOURS,
    "hrs": TimeUnit.HOURS,
    "hour": TimeUnit.HOURS,
    "hours": TimeUnit.HOURS,
    "d": TimeUnit.DAYS,
    "day": TimeUnit.DAYS,
    "days": TimeUnit.DAYS,
    "w": TimeUnit.WEEKS,
    "week": TimeUnit.WEEKS,
    "weeks": TimeUnit.WEEKS,
}
_PART = re.compile(r"(\d+(?:\.\d+)?)\s*([a-z]*)")


def parse_duration(text: str) -> Duration:
    """Read an FP32 time such as ``100h``, ``90min``, ``3d`` or ``1h30m``.

    A deliberately small reader for a command-line flag (the bot's
    understanding layer handles free text in two languages); a bare number is
    hours, as in the bot. Raises ``argparse.ArgumentTypeError`` so argparse
    prints a clear usage error instead of a traceback.
    """
    cleaned = text.strip().lower().replace(" ", "")
    parts = _PART.findall(cleaned)
    if not parts or "".join(n + u for n, u in parts) != cleaned:
        raise argparse.ArgumentTypeError(
            f"cannot read {text!r} as a duration; write it like 100h, 90min, 3d or 1h30m"
        )
    hours = 0.0
    units: list[TimeUnit] = []
    for number, unit_text in parts:
        unit = _UNITS.get(unit_text or "h")
        if unit is None:
            raise argparse.ArgumentTypeError(
                f"unknown time unit {unit_text!r} in {text!r}; use min, h, d or w"
            )
        units.append(unit)
        hours += float(number) * HOURS_PER_UNIT[unit]
    if hours <= 0:
        raise argparse.ArgumentTypeError("the FP32 time must be positive")
    value = hours / HOURS_PER_UNIT[units[0]] if len(units) == 1 else hours
    return Duration(value=value, unit=units[0] if len(units) == 1 else TimeUnit.HOURS, hours=hours)


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r} must be at least 1")
    return value


FACTORY_CONTRACT = "FUNCTION(batch_size, device) -> (model, batch_fn, loss_fn)"


def add_model_arguments(parser: argparse.ArgumentParser, factory_help: str) -> None:
    """``--model`` or ``--factory``: the one model contract experiment and predict share."""
    what = parser.add_mutually_exclusive_group()
    what.add_argument(
        "--model",
        choices=MODEL_CHOICES,
        default=None,
        help="built-in model shape (default: resnet50)",
    )
    what.add_argument("--factory", metavar="MODULE:FUNCTION", help=factory_help)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the experiment's flags on ``parser`` (the ``experiment`` subparser)."""
    add_model_arguments(parser, f"your own builder: {FACTORY_CONTRACT}")
    parser.add_argument(
        "--size",
        choices=SIZE_CHOICES,
        default=None,
        help="built-in model size (default: full on a GPU, tiny on CPU)",
    )
    parser.add_argument(
        "--batch",
        type=positive_int,
        default=None,
        help="batch size (default: the model's usual one)",
    )
    parser.add_argument(
        "--steps", type=positive_int, default=20, help="timed steps per repeat (default: 20)"
    )
    parser.add_argument("--warmup", type=int, default=5, help="untimed steps first (default: 5)")
    parser.add_argument(
        "--repeats", type=positive_int, default=3, help="timed repeats per precision (default: 3)"
    )
    parser.add_argument(
        "--precision",
        choices=PRECISION_CHOICES,
        default=None,
        help="mixed precision to measure (default: bf16 where supported, else fp16)",
    )
    parser.add_argument(
        "--baseline",
        choices=BASELINE_CHOICES,
        default="fp32",
        help="what 'FP32' means: true fp32 or TF32 Tensor Cores (default: fp32)",
    )
    parser.add_argument("--device", choices=DEVICE_CHOICES, default="auto")
    parser.add_argument(
        "--find-max-batch",
        action="store_true",
        help="also find the largest batch each precision fits and compare there",
    )
    parser.add_argument(
        "--fp32-time",
        type=parse_duration,
        default=None,
        metavar="DURATION",
        help="your FP32 training time (100h, 3d) to project the mixed-precision time",
    )
    parser.add_argument(
        "--gpus",
        type=positive_int,
        default=1,
        help="GPU count of the job you will record the ratio for (default: 1)",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--schema", action="store_true", help="print the JSON schema of the --json report and exit"
    )
    parser.add_argument(
        "--post",
        action="store_true",
        help="save the result in the bot's record store (needs DATABASE_URL "
        "and --team; GPU runs only)",
    )
    parser.add_argument(
        "--team",
        default=None,
        metavar="TEAM_ID",
        help="Slack workspace id the record belongs to (for --post)",
    )
    parser.add_argument(
        "--user",
        default="mpbot-experiment",
        metavar="USER_ID",
        help="Slack user id to record it as, so they can delete it "
        "(default: mpbot-experiment; admins can always delete)",
    )
    parser.add_argument("--seed", type=int, default=0, help="random seed (default: 0)")


@dataclass(frozen=True)
class Options:
    """The parsed flags, with defaults that depend on nothing measured."""

    model: str | None
    factory: str | None
    size: str | None
    batch: int | None
    steps: int
    warmup: int
    repeats: int
    precision: str | None
    baseline: str
    device: str
    find_max_batch: bool
    fp32_time: Duration | None
    gpus: int
    json: bool
    post: bool
    team: str | None
    user: str
    seed: int

    @classmethod
    def from_namespace(cls, args: argparse.Namespace) -> Options:
        return cls(
            model=args.model if args.model or args.factory else "resnet50",
            factory=args.factory,
            size=args.size,
            batch=args.batch,
            steps=args.steps,
            warmup=max(0, args.warmup),
            repeats=args.repeats,
            precision=args.precision,
            baseline=args.baseline,
            device=args.device,
            find_max_batch=args.find_max_batch,
            fp32_time=args.fp32_time,
            gpus=args.gpus,
            json=args.json,
            post=args.post,
            team=args.team,
            user=args.user,
            seed=args.seed,
        )
