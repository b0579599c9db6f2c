"""Sizes and shapes of well-known models (``data/model_sizes.csv``, each row sourced).

A memory question that names "BERT-large" or "GPT-2 XL" without a parameter
count is sized from here, and an inference question gets its KV cache from the
model's real depth and KV width (grouped-query attention included) instead of a
typical decoder's. Every spelling squashes to one key: lower case, without
spaces, hyphens, underscores or dots ("Llama-2 7B" -> "llama27b").
"""

from __future__ import annotations

import re
from functools import cache

from pydantic import BaseModel, ConfigDict

from bot.advice.gpus import data_rows, integer


class ModelSize(BaseModel):
    model_config = ConfigDict(frozen=True)

    name: str
    params: float
    layers: int | None
    kv_width: int | None  # K (or V) values per token and layer
    context: int | None  # longest sequence the model was trained for
    decoder: bool  # keeps a KV cache when generating
    source: str


def squash(text: str) -> str:
    return re.sub(r"[\s_.\-/]", "", text.lower())


@cache
def _catalog() -> dict[str, ModelSize]:
    out: dict[str, ModelSize] = {}
    for row in data_rows("model_sizes.csv"):
        size = ModelSize(
            name=row["name"],
            params=float(row["params"]),
            layers=integer(row.get("layers")),
            kv_width=integer(row.get("kv_width")),
            context=integer(row.get("context")),
            decoder=(row.get("decoder") or "").strip().lower() == "yes",
            source=row.get("source") or "",
        )
        for key in [squash(row["name"]), *row["aliases"].split()]:
            out.setdefault(squash(key), size)
    return out


def model_size(name: str | None) -> ModelSize | None:
    """The catalog row for a model as anyone wrote it ("bert-large", "Llama 2 70B")."""
    return _catalog().get(squash(name)) if name else None


def known_keys() -> frozenset[str]:
    """Every squashed spelling the catalog knows (for the reader)."""
    return frozenset(_catalog())


def model_size_source(name: str) -> str:
    """Where a catalog model's size comes from (its link, without the quoted figures)."""
    found = model_size(name)
    return found.source.split(" ")[0] if found else ""
