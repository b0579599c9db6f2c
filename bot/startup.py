"""Why a command cannot start, in one line the user can act on.

Raised wherever the problem is found (reading the settings, opening the
database file) and printed by ``mpbot``'s entry point as ``mpbot: ...`` with
exit status 2: the first hour of a new operator is mostly typos and missing
pieces, and a traceback hides the one line that says which. Its own module so
the entry point can catch it without loading the settings (``mpbot ask "100 2"``
starts light).
"""

from __future__ import annotations

# Exit status of a command stopped by its settings (said on stderr, names only).
BAD_SETTINGS_STATUS = 2


class SettingsError(Exception):
    """Startup cannot go on; the message is safe to print (names and paths, never secrets)."""
