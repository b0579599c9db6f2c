"""``python -m bot`` is the same as the ``mpbot`` command."""

from bot.cli.main import main

raise SystemExit(main())
