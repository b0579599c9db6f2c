"""The ``mpbot`` command: one entry point for every way the bot runs.

Subcommands register themselves here so ``mpbot --help`` lists them all;
their work lives in sibling modules (console, ask) and in the Slack and
experiment packages, imported only when chosen so the console starts fast
and never needs Slack or torch.
"""

from __future__ import annotations

import argparse
import difflib
import os
import shlex
import sys
from collections.abc import Sequence

from bot.models import Channel, Lang
from bot.startup import BAD_SETTINGS_STATUS, SettingsError

# The subcommands: the one-line summary ``mpbot --help`` lists, then what ``mpbot
# <command> --help`` adds (what it needs, and a first thing to type).
COMMANDS = {
    "console": (
        "chat with the bot in this terminal",
        (
            "No Slack needed. Type a question (100 2, 36h A100 BERT, help) and press Enter;\n"
            "Ctrl-D ends. Team records (record/history/delete) go to DATABASE_URL."
        ),
    ),
    "ask": (
        "answer one message (or one per stdin line)",
        (
            'For scripts and checks. Examples:\n  mpbot ask "100 2"\n  mpbot ask --json "36h A100 BERT"\n'
            "  printf '100 2\\n48h 1.5\\n' | mpbot ask"
        ),
    ),
    "experiment": (
        "measure the FP32 vs mixed-precision ratio (needs PyTorch)",
        (
            "Times the same training steps in FP32 and in mixed precision and prints your ratio\n"
            "and the line that records it. Try: mpbot experiment --model mlp --device cpu"
        ),
    ),
    "predict": (
        "predict the mixed-precision ratio on a named GPU, on this CPU",
        "No GPU needed (PyTorch is). Try: mpbot predict --model bert --gpu A100",
    ),
    "serve": (
        "run the Slack app in HTTP mode (POST /slack/events)",
        (
            "Needs SLACK_SIGNING_SECRET and SLACK_BOT_TOKEN (or SLACK_CLIENT_ID and\n"
            "SLACK_CLIENT_SECRET). Settings come from the environment or .env (docs/operations.md)."
        ),
    ),
    "socket": (
        "run the Slack app in Socket Mode (needs SLACK_APP_TOKEN)",
        "Needs SLACK_BOT_TOKEN (xoxb-...) and SLACK_APP_TOKEN (xapp-...); no public URL.",
    ),
    "rotate-token-key": (
        "re-encrypt the stored Slack tokens with the first of TOKEN_ENCRYPTION_KEYS",
        (
            "Run once after setting TOKEN_ENCRYPTION_KEYS=NEW,OLD on every replica, with the\n"
            "same DATABASE_URL; then drop OLD (docs/operations.md, key rotation)."
        ),
    ),
}
OVERVIEW = (
    "With no command: Socket Mode or HTTP when Slack tokens are set, else the console.\n"
    'First try: mpbot ask "100 2"   (or: mpbot ask "help")'
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mpbot",
        description="Estimate mixed-precision training time, in Arabic or English.",
        epilog=OVERVIEW,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command")
    command = {name: _add_command(sub, name) for name in COMMANDS}
    languages = [lang.value for lang in Lang]
    channels = [c.value for c in Channel]
    for name in ("console", "ask"):
        command[name].add_argument(
            "--lang",
            choices=languages,
            default=None,
            help="answer in this language (default: as written)",
        )
        command[name].add_argument(
            "--channel",
            choices=channels,
            default=Channel.DM.value,
            help="answer as Slack would there (default: dm)",
        )

    ask = command["ask"]
    ask.add_argument("--json", action="store_true", help="print one JSON object per answer")
    ask.add_argument(
        "--explain",
        action="store_true",
        help="print what was read as what, with the reader's rules (for each stdin line too)",
    )
    ask.add_argument(
        "text",
        nargs="*",
        help="the message; omit to answer each stdin line (plain text or JSON Lines)",
    )

    from bot.experiment.options import add_arguments as add_experiment_arguments  # no torch

    add_experiment_arguments(command["experiment"])

    from bot.predict.options import add_arguments as add_predict_arguments  # no torch

    add_predict_arguments(command["predict"])

    serve = command["serve"]
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    serve.add_argument("--port", type=int, default=3000, help="port to listen on (default 3000)")
    return parser


def _add_command(sub, name: str) -> argparse.ArgumentParser:
    summary, details = COMMANDS[name]
    return sub.add_parser(
        name,
        help=summary,
        description=f"{summary[0].upper()}{summary[1:]}.\n\n{details}",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )


def unknown_command(argv: Sequence[str]) -> str | None:
    """What to say when the first word is no command: the nearest one, or how to ask.

    argparse's own "invalid choice" comes after a three-line usage; a first-hour
    user typing ``mpbot sevre`` or ``mpbot "100 2"`` needs the one next step.
    """
    if not argv or argv[0].startswith("-") or argv[0] in COMMANDS:
        return None
    typed = argv[0]
    near = difflib.get_close_matches(typed, COMMANDS, n=1, cutoff=0.6)
    hint = (
        f"did you mean mpbot {near[0]}?"
        if near
        else f"to ask the bot: mpbot ask {shlex.quote(typed)}"
    )
    return f"unknown command {typed!r}; {hint} (mpbot --help lists the commands)"


# Exit status of a command whose reader went away (128 + SIGPIPE), as shells report it.
BROKEN_PIPE_STATUS = 141
# Exit status of a command used wrongly, as argparse gives it.
USAGE_STATUS = 2
# Exit status of a command stopped with Ctrl-C (128 + SIGINT), as shells report it.
INTERRUPTED_STATUS = 130


def main(argv: Sequence[str] | None = None) -> int:
    """Run one subcommand; a reader that stops early (``mpbot ask ... | head -1``) is no
    error, Ctrl-C (``mpbot ask`` waiting on stdin) stops it without a traceback, and
    so does a setting found wrong on the way (one ``mpbot: ...`` line, status 2)."""
    try:
        return _run(argv)
    except SettingsError as error:
        print(f"mpbot: {error}", file=sys.stderr)
        return BAD_SETTINGS_STATUS
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return INTERRUPTED_STATUS
    except BrokenPipeError:
        # Python would complain again when flushing stdout at exit; point it at nothing.
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return BROKEN_PIPE_STATUS


def _run(argv: Sequence[str] | None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if (problem := unknown_command(argv)) is not None:
        print(f"mpbot: {problem}", file=sys.stderr)
        return USAGE_STATUS
    args = build_parser().parse_args(argv)
    if args.command is None:
        return _auto()
    if args.command == "console":
        from bot.cli.console import run_console

        return run_console(Channel(args.channel), Lang(args.lang) if args.lang else None)
    if args.command == "ask":
        from bot.cli.ask import run_ask

        lang = Lang(args.lang) if args.lang else None
        text = " ".join(args.text) if args.text else None
        return run_ask(text, Channel(args.channel), lang, as_json=args.json, explain=args.explain)
    if args.command == "experiment":
        from bot.experiment.cli import run_experiment

        return run_experiment(args)
    if args.command == "predict":
        from bot.predict.cli import run_predict

        return run_predict(args)
    if args.command == "serve":
        from bot.slack.cli import run_serve

        return run_serve(args.host, args.port)
    if args.command == "socket":
        from bot.slack.cli import run_socket

        return run_socket()
    if args.command == "rotate-token-key":
        from bot.store.rotate import run_rotate

        return run_rotate()
    return 2


def _auto() -> int:
    """No subcommand: Socket Mode, HTTP or the console, by the Slack settings present."""
    from bot.cli.console import run_console
    from bot.slack.cli import run_auto

    return run_auto(lambda: run_console(Channel.DM, None))
