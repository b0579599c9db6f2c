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
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_S = 0.5


def median_seconds(argv: list[str], runs: int, env: dict[str, str], cwd: str) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(argv, env=env, cwd=cwd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


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
    print(f"python -c pass        median of {args.runs}: {baseline:.3f} s")
    print(f'mpbot ask "{args.question}"  median of {args.runs}: {ask:.3f} s')
    print(
        f"ratio: {ask / baseline:.1f}x python -c pass; target <= {TARGET_S} s: "
        f"{'met' if ask <= TARGET_S else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
