"""Liveness and readiness are separate questions, answered on separate paths."""

from __future__ import annotations

import urllib.error
import urllib.request


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def test_live_ready_and_the_healthz_alias(bot):
    assert _get(bot.url + "/livez") == (200, "live\n")
    assert _get(bot.url + "/readyz") == (200, "ready\n")
    assert _get(bot.url + "/healthz") == (200, "ready\n")


def test_health_paths_answer_only_get_and_head(bot):
    request = urllib.request.Request(bot.url + "/livez", data=b"x", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            status = response.status
    except urllib.error.HTTPError as error:
        status = error.code
    assert status == 404
