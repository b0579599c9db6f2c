"""Regenerate ``bot/predict/data/profiles.json``: trace the catalog's built-in models.

    python -m bot.predict.make_profiles            # rewrite the shipped file
    python -m bot.predict.make_profiles --check    # exit 1 if it is out of date

Needs torch (``pip install "mpestimate[experiment]"``). Each catalog model with a
built-in shape is traced at its full size and default batch, one FP32 step and one
FP16 and one BF16 step (:func:`bot.predict.trace.trace_step`); the loader is
:mod:`bot.predict.profiles` (torch-free).
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

from bot.predict.profiles import FIELDS, encode

PATH = Path(__file__).resolve().parent / "data" / "profiles.json"
MODELS = ("resnet50", "bert", "gpt2")  # built-in shapes the catalog names (not the MLP)


def build() -> dict:
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
    import torch

    from bot.experiment.models import CANONICAL, default_batch
    from bot.predict.trace import trace_step, workload_maker

    profiles = {}
    for model in MODELS:
        batch = default_batch(model, "full")
        make = workload_maker(model, None, "full", batch)
        steps = {
            key: encode(trace_step(make, p))
            for key, p in (("fp32", None), ("fp16", "fp16"), ("bf16", "bf16"))
        }
        profiles[CANONICAL[model]] = {"model": model, "batch": batch, "steps": steps}
    return {
        "_about": (
            "Kernels of one training step (forward, backward, AdamW) of each catalog model's "
            "built-in shape at full size and default batch, traced on fake tensors by "
            f"bot.predict.trace; fields: {', '.join(FIELDS)}. "
            "Regenerate: python -m bot.predict.make_profiles"
        ),
        "torch": torch.__version__.split("+")[0],
        "profiles": profiles,
    }


def text() -> str:
    return json.dumps(build(), separators=(",", ":")) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    args = parser.parse_args(argv)
    fresh = text()
    if args.check:
        stale = PATH.read_text(encoding="utf-8") != fresh
        print(f"{PATH}: {'out of date' if stale else 'up to date'}")
        return int(stale)
    PATH.write_text(fresh, encoding="utf-8")
    print(f"wrote {PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
