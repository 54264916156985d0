"""Images for models and their coordinates mapped back: the conventions models answer in."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clickwright.agent.screen_scaling import (
    fit_for_model,
    read_point,
    smart_resize,
    to_frame_point,
)
from clickwright.errors import ActionError


def frame(width: int, height: int) -> np.ndarray:
    return np.zeros((height, width, 3), np.uint8)


@pytest.mark.parametrize(
    ("answer", "point"),
    [
        ("click(start_box='(235,512)')", (235, 512)),
        ("click(start_box='<|box_start|>(235,512)<|box_end|>')", (235, 512)),
        ("<|box_start|>(100,200),(300,400)<|box_end|>", (200, 300)),
        ('{"action": "click", "coordinate": [640, 360]}', (640, 360)),
        ("[0.25, 0.75]", (0.25, 0.75)),
        ('{"bbox_2d": [10, 20, 30, 60], "label": "Save"}', (20, 40)),
        ("I will click at x=12.5, y=40", (12.5, 40)),
        ("Thought: the button is at (1, 2). Action: click(start_box='(50,60)')", (50, 60)),
    ],
)
def test_points_are_read_from_the_forms_models_write(answer, point):
    assert read_point(answer) == point


def test_an_answer_without_coordinates_is_a_clear_error():
    with pytest.raises(ActionError, match="no coordinates"):
        read_point("I think I should click the Save button")


def test_conventions_map_to_frame_pixels():
    image = fit_for_model(frame(2560, 1600), max_side=1280)
    assert image.size == (1280, 800)
    assert to_frame_point((640, 400), image, "pixels") == (1280, 800)
    assert to_frame_point((500, 500), image, "norm1000") == (1280, 800)
    assert to_frame_point((0.5, 0.5), image, "norm1") == (1280, 800)
    assert to_frame_point((0.5, 0.5), image) == (1280, 800)
    assert to_frame_point((640, 400), image) == (1280, 800)
    assert to_frame_point((99999, -5), image, "pixels") == (2559, 0)


def test_qwen_style_sizes_are_multiples_of_28_within_budget():
    h, w = smart_resize(800, 1280)
    assert h % 28 == 0 and w % 28 == 0 and h * w <= 28 * 28 * 1280
    assert abs(w / h - 1280 / 800) < 0.05
    image = fit_for_model(frame(1920, 1080), factor=28, max_pixels=1024 * 28 * 28)
    assert image.size[0] % 28 == 0 and image.size[1] % 28 == 0


def test_small_frames_are_never_upscaled():
    image = fit_for_model(frame(800, 600), max_side=1280)
    assert image.size == (800, 600)
    assert image.to_frame(10, 20) == (10, 20)


@given(
    width=st.integers(200, 4000),
    height=st.integers(200, 3000),
    max_side=st.sampled_from([512, 768, 1024, 1280, 1568]),
    fx=st.floats(0, 1, exclude_max=True),
    fy=st.floats(0, 1, exclude_max=True),
)
def test_round_trip_through_the_model_image_is_exact(width, height, max_side, fx, fy):
    image = fit_for_model(frame(width, height), max_side=max_side)
    x, y = fx * width, fy * height
    mx, my = image.to_model(x, y)
    back = image.to_frame(mx, my)
    assert back == pytest.approx((x, y), abs=1e-6)
    px, py = to_frame_point((round(mx), round(my)), image, "pixels")
    scale = width / image.size[0]
    assert abs(px - x) <= scale / 2 + 1 and abs(py - y) <= scale / 2 + 1
