"""The ``mpbot`` command: one entry point for every way the bot runs.

Subcommands register themselves here so ``mpbot --help`` lists them all;
their work lives in sibling modules (console, ask) and in the Slack and
experiment packages, imported only when chosen so the console starts fast
and never needs Slack or torch.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from bot.models import Channel, Lang
from bot.startup import BAD_SETTINGS_STATUS, SettingsError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mpbot",
        description="Estimate mixed-precision training time, in Arabic or English.",
    )
    sub = parser.add_subparsers(dest="command")

    console = sub.add_parser("console", help="chat with the bot in this terminal")
    console.add_argument("--lang", choices=[lang.value for lang in Lang], default=None)
    console.add_argument("--channel", choices=[c.value for c in Channel], default=Channel.DM.value)

    ask = sub.add_parser("ask", help="answer one message (or one per stdin line)")
    ask.add_argument("--json", action="store_true", help="print one JSON object per answer")
    ask.add_argument("--channel", choices=[c.value for c in Channel], default=Channel.DM.value)
    ask.add_argument("--lang", choices=[lang.value for lang in Lang], default=None)
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

    experiment = sub.add_parser(
        "experiment", help="measure the FP32 vs mixed-precision ratio (needs PyTorch)"
    )
    add_experiment_arguments(experiment)

    from bot.predict.options import add_arguments as add_predict_arguments  # no torch

    predict = sub.add_parser(
        "predict", help="predict the mixed-precision ratio on a named GPU, on this CPU"
    )
    add_predict_arguments(predict)

    serve = sub.add_parser("serve", help="run the Slack app in HTTP mode (POST /slack/events)")
    serve.add_argument("--host", default="0.0.0.0", help="address to listen on (default 0.0.0.0)")
    serve.add_argument("--port", type=int, default=3000, help="port to listen on (default 3000)")
    sub.add_parser("socket", help="run the Slack app in Socket Mode (needs SLACK_APP_TOKEN)")
    sub.add_parser(
        "rotate-token-key",
        help="re-encrypt the stored Slack tokens with the first of TOKEN_ENCRYPTION_KEYS",
    )

    return parser


# Exit status of a command whose reader went away (128 + SIGPIPE), as shells report it.
BROKEN_PIPE_STATUS = 141
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
