"""Old reader vs new: read every corpus and test-table message with both, print the differences.

Record commands are compared too: each string in a test module that starts
with a record keyword, and every corpus message written after ``record``, so
the measurement pair is tried on every phrasing the corpus holds.

The old reader is the one on a git revision (``--old main`` by default),
exported with ``git archive`` into a temporary folder and run there in a
subprocess, so it is never kept as code in this tree. Messages come from
``tests/data/messages_dev.jsonl`` and from every case table in
``tests/understanding`` (module-level lists of tuples whose first two items
are a message and a channel, the dimensions' ``examples.py`` rows these import too).

    python bench/reader_diff.py [--old main]

Each printed difference is to be classed by hand as a fix or a regression.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import json
import os
import subprocess
import sys
import tarfile
import tempfile
from io import BytesIO
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHANNELS = {"command", "mention", "dm"}
RECORD_KEYWORDS = ("record ", "سجل ", "سجّل ")
# Run inside each tree: one JSON line in (text, channel), one reading out.
READ = r"""
import json, sys
from bot.models import Channel
from bot.understanding import understand
try:  # the package exports them since the reader's folders (issue 21); older trees do not
    from bot.understanding import RecordCommand, read_command
except ImportError:
    from bot.understanding.record_command import RecordCommand, read_command


def record(text):
    command = read_command(text)
    if not isinstance(command, RecordCommand):
        return None
    if command.draft is None:
        return [r.value for r in command.reasons]
    return command.draft.model_dump(mode="json", exclude_none=True)


for line in sys.stdin:
    text, channel = json.loads(line)
    q = understand(text, Channel(channel))
    print(json.dumps({
        "record": record(text),
        "intent": q.intent.value, "reason": q.reason.value if q.reason else None,
        "hours": round(q.fp32.hours, 4) if q.fp32 else None,
        "ratio": round(q.ratio, 4) if q.ratio is not None else None,
        "gpu": q.gpu, "model": q.model, "lang": q.lang.value, "gpus": q.num_gpus,
        "params": q.params, "talk": q.small_talk,
        "price": [q.price.amount, q.price.currency] if q.price else None,
    }, ensure_ascii=False))
"""


def record_lines() -> list[tuple[str, str]]:
    """Every string constant in tests/records and tests/understanding that is a record command."""
    found = []
    for path in sorted([*ROOT.glob("tests/records/*.py"), *ROOT.glob("tests/understanding/*.py")]):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            text = node.value if isinstance(node, ast.Constant) else None
            if isinstance(text, str) and text.startswith(RECORD_KEYWORDS):
                found.append((text, "command"))
    return found


def messages() -> list[tuple[str, str]]:
    found: list[tuple[str, str]] = []
    for line in (ROOT / "tests/data/messages_dev.jsonl").read_text(encoding="utf-8").splitlines():
        if line.strip():
            item = json.loads(line)
            found.append((item["text"], item["channel"]))
    found += [("record " + text, "command") for text, _ in found] + record_lines()
    tables = ROOT / "tests/understanding"
    sys.path[:0] = [str(ROOT), str(tables)]  # the tables import their helpers by name
    for path in sorted(tables.glob("test_*.py")):
        module = importlib.import_module(path.stem)
        for value in vars(module).values():
            if isinstance(value, list):
                found += [
                    (row[0], row[1])
                    for row in value
                    if isinstance(row, tuple)
                    and len(row) >= 2
                    and isinstance(row[0], str)
                    and row[1] in CHANNELS
                ]
    return list(dict.fromkeys(found))


def read_with(tree: Path, batch: list[tuple[str, str]]) -> list[dict]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    stdin = "".join(json.dumps(m, ensure_ascii=False) + "\n" for m in batch)
    done = subprocess.run(
        [sys.executable, "-c", READ],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        cwd=tree,
        check=True,
    )
    return [json.loads(line) for line in done.stdout.splitlines()]


def export(revision: str, into: Path) -> None:
    archive = subprocess.run(
        ["git", "archive", revision, "bot", "locales"], cwd=ROOT, capture_output=True, check=True
    )
    with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
        tar.extractall(into, filter="data")


def _differ(a: object, b: object) -> bool:
    return json.dumps(a) != json.dumps(b)  # NaN equals NaN here


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="main", help="git revision of the old reader")
    args = parser.parse_args()
    batch = messages()
    with tempfile.TemporaryDirectory() as old_tree:
        export(args.old, Path(old_tree))
        old = read_with(Path(old_tree), batch)
    new = read_with(ROOT, batch)
    differences = 0
    for (text, channel), before, after in zip(batch, old, new, strict=True):
        changed = {k: (before.get(k), after[k]) for k in after if _differ(before.get(k), after[k])}
        if changed:
            differences += 1
            shown = ", ".join(f"{k}: {a!r} -> {b!r}" for k, (a, b) in changed.items())
            print(f"[{channel}] {text!r}\n    {shown}")
    print(f"{len(batch)} messages, {differences} read differently ({args.old} vs working tree)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
