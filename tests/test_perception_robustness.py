"""No frame can crash the parser: the GTK form that did, each stage failing on its own, and
generated frames of every shape (fuzzed with hypothesis) plus every real screenshot we keep.

The 10,000-frame run is `benchmarks/parser_fuzz.py`; here a bounded number of examples runs.
"""

from __future__ import annotations

import logging
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from clickwright.a11y import A11yNode
from clickwright.parsers import screen_parser
from clickwright.parsers.fusion import TextBox
from clickwright.parsers.ocr import OcrEngine, ocr_engine
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.parsers.widgets import Widget, _join_combo_buttons, detect_widgets
from clickwright.types import Box, Frame

REAL = Path(__file__).parent / "fixtures" / "real"
REAL_SHOTS = sorted(REAL.glob("*.png"))
FUZZ_EXAMPLES = 200


def rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


@pytest.fixture(scope="module")
def engine() -> OcrEngine:
    return ocr_engine()


# ---- the GTK form that crashed `clickwright parse` -----------------------------------------


def test_the_gtk_form_with_combos_and_a_spin_box_parses(engine: OcrEngine) -> None:
    """yad --form with three combo boxes (one editable) and a spin box: `_join_combo_buttons`
    removed a spin button it had already joined (ValueError: list.remove(x))."""
    parser = ScreenParser(ocr=engine)
    screen = parser.parse(Frame(rgb(REAL / "gtk_yad_form.png")))
    combos = {e.name: e.text for e in screen.elements if e.kind == "combo"}
    assert combos == {"Country": "Canada", "Plan": "Free", "Editable": "one"}
    age = next(e for e in screen.elements if e.kind == "input" and e.name == "Age")
    assert age.text == "3"
    # The spin box's minus and plus stay two buttons of their own, right of the field.
    spins = [
        e
        for e in screen.elements
        if e.kind == "button" and e.box.x >= age.box.right - 2 and abs(e.box.y - age.box.y) <= 2
    ]
    assert len(spins) == 2
    subscribe = next(e for e in screen.elements if e.text == "Subscribe")
    assert subscribe.kind == "checkbox" and "checked" in subscribe.state
    assert parser.last.failed == ()


def test_the_gtk_form_through_the_parse_command() -> None:
    from conftest import run_cli

    result = run_cli("parse", "--image", str(REAL / "gtk_yad_form.png"), "--sources", "widgets")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert result.stdout.count("combo") == 3


def test_combo_arrows_join_once_and_spin_buttons_never() -> None:
    field = Widget(Box(60, 224, 133, 34), "input", 0.7)
    minus = Widget(Box(192, 224, 36, 34), "button", 0.3)
    plus = Widget(Box(227, 224, 36, 34), "button", 0.3)
    assert _join_combo_buttons([field, minus, plus]) == [field, minus, plus]
    editable = Widget(Box(60, 158, 168, 34), "input", 0.7)
    arrow = Widget(Box(227, 158, 36, 34), "button", 0.3)
    other = Widget(Box(300, 158, 34, 34), "checkbox", 0.8)  # not flush: stays
    joined = _join_combo_buttons([editable, arrow, other])
    assert joined == [Widget(Box(60, 158, 203, 34), "combo", 0.7), other]
    # Equal widgets twice in the list (two detections of one control) no longer break it.
    assert len(_join_combo_buttons([editable, arrow, arrow])) == 1


# ---- a failing stage degrades the parse, says why, and never raises -------------------------


class Fixed(OcrEngine):
    def __init__(self, texts: list[TextBox]) -> None:
        self.texts = texts

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        return list(self.texts)


class Broken(OcrEngine):
    def read(self, pixels: np.ndarray) -> list[TextBox]:
        raise RuntimeError("onnxruntime: bad allocation")


def form() -> np.ndarray:
    pixels = np.full((120, 300, 3), 240, np.uint8)
    cv2.rectangle(pixels, (100, 40), (220, 70), (60, 60, 60), 1)
    cv2.rectangle(pixels, (101, 41), (219, 69), (255, 255, 255), -1)
    return pixels


TEXTS = [TextBox(Box(20, 46, 50, 18), "Name", 0.99)]


def test_a_failing_ocr_keeps_the_widgets(caplog: pytest.LogCaptureFixture) -> None:
    parser = ScreenParser(ocr=Broken())
    with caplog.at_level(logging.WARNING, logger="clickwright.parsers.screen_parser"):
        screen = parser.parse(Frame(form()))
    assert [e.kind for e in screen.elements] == ["input"]
    assert parser.last.failed == ("ocr: RuntimeError: onnxruntime: bad allocation",)
    assert "parse stage ocr failed" in caplog.text and "bad allocation" in caplog.text
    again = parser.parse(Frame(form()))  # not cached: the next frame tries again
    assert not parser.last.cached and again.elements == screen.elements


@pytest.mark.parametrize(
    "stage, target",
    [
        ("widgets", "detect_widgets"),
        ("fusion", "fuse"),
        ("icons", "name_icons"),
        ("links", "mark_links"),
        ("accessibility", "fuse_accessibility"),
    ],
)
def test_each_failing_stage_degrades_the_parse(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture, stage: str, target: str
) -> None:
    def fail(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise ValueError(f"{target} cannot handle this frame")

    monkeypatch.setattr(screen_parser, target, fail)
    parser = ScreenParser(ocr=Fixed(TEXTS))
    nodes = [A11yNode("push button", "button", "OK", Box(240, 90, 50, 24), interactive=True)]
    with caplog.at_level(logging.WARNING, logger="clickwright.parsers.screen_parser"):
        screen = parser.parse(Frame(form()), nodes)
    assert parser.last.failed == (f"{stage}: ValueError: {target} cannot handle this frame",)
    assert f"parse stage {stage} failed" in caplog.text
    assert any(e.text == "Name" for e in screen.elements)  # the text survives every failure
    assert [e.id for e in screen.elements] == list(range(len(screen.elements)))


# ---- fuzz: generated frames and every real screenshot -----------------------------------------


@st.composite
def frames(draw: st.DrawFn) -> np.ndarray:
    """Frames of any size from 1x1 up, with extreme aspect ratios; noise, solid colours, or
    a background with rectangles, circles, lines and text drawn on it."""
    shape = draw(
        st.one_of(
            st.tuples(st.integers(1, 40), st.integers(1, 40)),
            st.tuples(st.integers(1, 4), st.integers(100, 2000)),
            st.tuples(st.integers(100, 2000), st.integers(1, 4)),
            st.tuples(st.integers(40, 480), st.integers(40, 640)),
        )
    )
    height, width = shape
    kind = draw(st.sampled_from(["noise", "solid", "drawn", "real"]))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    if kind == "noise":
        return rng.integers(0, 256, (height, width, 3), np.uint8)
    colour = tuple(int(c) for c in rng.integers(0, 256, 3))
    if kind == "solid":
        return np.full((height, width, 3), colour, np.uint8)
    if kind == "real" and REAL_SHOTS:
        shot = rgb(REAL_SHOTS[int(rng.integers(len(REAL_SHOTS)))])
        y, x = (
            int(rng.integers(max(1, s - d + 1))) for s, d in zip(shot.shape[:2], shape, strict=True)
        )
        return np.ascontiguousarray(shot[y : y + height, x : x + width])
    return drawn(rng, height, width, colour)


def drawn(rng: np.random.Generator, height: int, width: int, colour: tuple) -> np.ndarray:
    pixels = np.full((height, width, 3), colour, np.uint8)
    for _ in range(int(rng.integers(1, 30))):
        ink = tuple(int(c) for c in rng.integers(0, 256, 3))
        x0, x1 = sorted(int(v) for v in rng.integers(-5, width + 5, 2))
        y0, y1 = sorted(int(v) for v in rng.integers(-5, height + 5, 2))
        shape = int(rng.integers(5))
        if shape == 0:
            cv2.rectangle(pixels, (x0, y0), (x1, y1), ink, int(rng.choice([-1, 1, 2])))
        elif shape == 1:
            cv2.circle(pixels, (x0, y0), int(rng.integers(1, 20)), ink, int(rng.choice([-1, 1])))
        elif shape == 2:
            cv2.line(pixels, (x0, y0), (x1, y1), ink, 1)
        else:
            word = "".join(rng.choice(list("Save Cancel OK ☑ ▼ 0O@x"), int(rng.integers(1, 9))))
            scale = float(rng.uniform(0.3, 1.2))
            cv2.putText(pixels, word, (x0, y1), cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1)
    return pixels


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(first=frames(), second=frames())
def test_no_generated_frame_crashes_the_parser(
    engine: OcrEngine, first: np.ndarray, second: np.ndarray
) -> None:
    """Two frames in a row, so the incremental path (changed regions) is fuzzed too."""
    parser = ScreenParser(ocr=engine)
    for pixels in (first, second, first):
        screen = parser.parse(Frame(pixels))
        assert parser.last.failed == (), parser.last.failed
        for element in screen.elements:
            assert element.box.w >= 0 and element.box.h >= 0


@pytest.mark.parametrize("path", REAL_SHOTS, ids=[p.stem for p in REAL_SHOTS])
def test_every_real_screenshot_parses(engine: OcrEngine, path: Path) -> None:
    pixels = rgb(path)
    parser = ScreenParser(ocr=engine)
    screen = parser.parse(Frame(pixels))
    assert parser.last.failed == () and screen.elements
    assert detect_widgets(pixels[::2, ::3].copy()) is not None  # squashed, as on a HiDPI mixup


@pytest.mark.parametrize("side", [1, 3, 4, 5])
def test_tiny_frames_in_a_row_are_read_whole(engine: OcrEngine, side: int) -> None:
    """OpenCV takes a 4x4 array for a scalar: the diff of two tiny frames raised."""
    parser = ScreenParser(ocr=engine)
    parser.parse(Frame(np.zeros((side, side, 3), np.uint8)))
    parser.parse(Frame(np.full((side, side, 3), 9, np.uint8)))
    assert parser.last.failed == () and parser.last.regions == ()
