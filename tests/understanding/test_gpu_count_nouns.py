"""Dialect nouns for GPUs count them and keep the count away from the time."""

import pytest

from bot.models import Channel
from bot.understanding import understand


@pytest.mark.parametrize(
    ("text", "gpus"),
    [
        ("زين وإذا ٨ كارتات؟ التدريب ١٠٠ ساعة", 8),  # Iraqi plural
        ("١٠٠ ساعة ٨ كروت", 8),
        ("١٠٠ ساعة على كارت واحد", None),
        ("١٠٠ ساعة على ٤ جيبيوهات", 4),
        ("١٠٠ ساعة على ٤ كارت", 4),
    ],
)
def test_gpu_nouns(text: str, gpus: int | None) -> None:
    q = understand(text, Channel.MENTION)
    assert q.fp32.hours == 100 and q.reason is None
    if gpus is not None:
        assert q.num_gpus == gpus


def test_count_alone_is_not_a_time() -> None:
    q = understand("زين وإذا ٨ كارتات؟", Channel.MENTION)
    assert q.fp32 is None and q.num_gpus == 8
