"""Cold start of a one-off question: ``mpbot ask "100 2"`` beside ``python -c pass``.

Each command runs as a new process, as a user or a script runs it, the median
of several runs taken for each, in the same run so machine load affects both.
Target (issue 12): the question answered in at most 0.5 s. Runs without
``DATABASE_URL`` and with a throwaway data directory, as a new user would.

    python bench/cli_startup.py [--runs 5] [--question "100 2"]
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_S = 0.5


def median_seconds(
    argv: list[str], runs: int, env: dict[str, str], cwd: str
) -> tuple[float, float]:
    """(wall, CPU) medians: CPU time (user + system) says less about a busy machine."""
    walls, cpus = [], []
    for _ in range(runs):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--question", default="100 2")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as home:
        env = {k: v for k, v in os.environ.items() if not k.startswith(("SLACK_", "DATABASE_URL"))}
        env["XDG_DATA_HOME"] = home
        baseline = median_seconds([sys.executable, "-c", "pass"], args.runs, env, home)
        ask = median_seconds(
            [sys.executable, "-m", "bot", "ask", args.question], args.runs, env, home
        )
    (base_wall, base_cpu), (ask_wall, ask_cpu) = baseline, ask
    print(f"python -c pass        median of {args.runs}: {base_wall:.3f} s ({base_cpu:.3f} s CPU)")
    print(
        f'mpbot ask "{args.question}"  median of {args.runs}: {ask_wall:.3f} s '
        f"({ask_cpu:.3f} s CPU)"
    )
    verdict = "met" if ask_wall <= TARGET_S else "NOT met"
    print(f"ratio: {ask_wall / base_wall:.1f}x python -c pass; target <= {TARGET_S} s: {verdict}")


if __name__ == "__main__":
    main()
