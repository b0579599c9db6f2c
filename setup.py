"""Packaging glue that pyproject.toml cannot express: ship ``locales/`` as ``bot/locales``.

The gettext catalogs live at the repository root (``locales/``, the layout
``pybabel`` expects), but an installed bot must find them inside its package.
``package_dir`` maps them there, so both ``pip install .`` and ``pip install -e .``
work; metadata and dependencies stay in pyproject.toml.
"""

from setuptools import find_namespace_packages, setup

LOCALE_PACKAGES = [f"bot.locales.{name}" for name in find_namespace_packages(where="locales")]

setup(
    packages=[*find_namespace_packages(include=["bot", "bot.*"]), "bot.locales", *LOCALE_PACKAGES],
    package_dir={"bot.locales": "locales"},
)
