"""Entry point of ``mpbot experiment``: check for torch, run, print, post.

torch is imported here, inside the function, so the bot and ``mpbot --help``
never load it; without torch the user is told how to install it.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
import warnings

from bot.experiment.options import Options
from bot.experiment.report import Report, render_text

# One line for both commands that need torch. The CPU build comes first for machines
# without an NVIDIA GPU: the plain extra pulls about 5.5 GB of CUDA libraries.
CPU_TORCH = "pip install torch --index-url https://download.pytorch.org/whl/cpu"
INSTALL_HINT = (
    "needs PyTorch, an optional extra: "
    'pip install "mpestimate[experiment]"  (or pip install torch; without an NVIDIA GPU, '
    f"first {CPU_TORCH})"
)


def run_experiment(args: argparse.Namespace) -> int:
    """0 when measured, 1 on a problem the user can fix (or a failed --post), 3 without torch."""
    if args.schema:
        print(json.dumps(Report.model_json_schema(), indent=2))
        return 0
    if importlib.util.find_spec("torch") is None:
        print(f"mpbot experiment: {INSTALL_HINT}", file=sys.stderr)
        return 3
    # torch warns at import when NumPy is absent; the experiment does not use NumPy.
    warnings.filterwarnings("ignore", message="Failed to initialize NumPy")
    from bot.experiment.models import ExperimentError
    from bot.experiment.progress import Progress
    from bot.experiment.runner import run

    opts = Options.from_namespace(args)
    try:
        report = run(opts, Progress(0))
    except ExperimentError as exc:
        print(f"\nmpbot experiment: error: {exc}", file=sys.stderr)
        return 1
    print(report.model_dump_json(indent=2) if opts.json else render_text(report))
    if not opts.post:
        return 0
    from bot.experiment.post import post

    saved, message = post(report, opts.team, opts.user)
    print(f"--post: {message}", file=sys.stderr)
    return 0 if saved else 1
