"""Where a model's point lands: each protocol's answer, in its own coordinate space, through
screen_scaling and the desktop's monitor mapping, on the intended element at device scale 1,
1.5 and 2 and on a second monitor; and a zoom's or a closer look's point back within a pixel."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scripted_model import pattern_screen

from clickwright.agent.protocols.anthropic_computer import AnthropicComputer
from clickwright.agent.protocols.base import Outcome, choose
from clickwright.agent.protocols.openai_computer import OpenAIComputer
from clickwright.agent.protocols.qwen_vl import QwenVL
from clickwright.agent.protocols.ui_tars import UITars
from clickwright.agent.screen_scaling import (
    ImageLimits,
    ScaledImage,
    from_grid,
    region_around,
    to_frame_point,
)
from clickwright.devices.geometry import Mapping, Monitor
from clickwright.types import Box

# (monitor in the desktop's input coordinates, frame pixels per input unit)
MONITORS = [
    pytest.param(Monitor(0, 0, 1920, 1080), 1.0, id="1080p"),
    pytest.param(Monitor(0, 0, 1280, 720), 1.5, id="150%"),
    pytest.param(Monitor(0, 0, 1440, 900), 2.0, id="retina"),
    pytest.param(Monitor(1920, 0, 1280, 800), 2.0, id="second-monitor-right-200%"),
    pytest.param(Monitor(-1280, -200, 1280, 1024), 1.0, id="second-monitor-left"),
    pytest.param(Monitor(0, 0, 1920, 1080), 2.0, id="4k-at-200%"),
]


def anthropic(mx: float, my: float, image: ScaledImage) -> dict:
    given = {"action": "left_click", "coordinate": [round(mx), round(my)]}
    use = {"type": "tool_use", "id": "toolu_1", "name": "computer", "input": given}
    return {"content": [use], "stop_reason": "tool_use"}


def openai(mx: float, my: float, image: ScaledImage) -> dict:
    action = {"type": "click", "button": "left", "x": round(mx), "y": round(my)}
    call = {"type": "computer_call", "call_id": "call_1", "action": action}
    return {"id": "resp_1", "output": [{**call, "pending_safety_checks": []}]}


def ui_tars_pixels(mx: float, my: float, image: ScaledImage) -> str:
    return f"Thought: the box.\nAction: click(point='<point>{round(mx)} {round(my)}</point>')"


def thousandths(mx: float, my: float, image: ScaledImage) -> tuple[int, int]:
    return round(mx / image.size[0] * 1000), round(my / image.size[1] * 1000)


def ui_tars_thousandths(mx: float, my: float, image: ScaledImage) -> str:
    return f"Action: click(start_box='{thousandths(mx, my, image)}')"


def qwen_call(x: int, y: int) -> str:
    arguments = f'{{"action": "left_click", "coordinate": [{x}, {y}]}}'
    return f'<tool_call>\n{{"name": "computer_use", "arguments": {arguments}}}\n</tool_call>'


def qwen_pixels(mx: float, my: float, image: ScaledImage) -> str:
    return qwen_call(round(mx), round(my))


def qwen_grid(mx: float, my: float, image: ScaledImage) -> str:
    return qwen_call(*thousandths(mx, my, image))


PROTOCOLS = [
    pytest.param(AnthropicComputer, "anthropic", "claude-opus-4-5", anthropic, id="anthropic"),
    pytest.param(OpenAIComputer, "openai", "computer-use-preview", openai, id="openai"),
    pytest.param(UITars, "openai", "ui-tars-1.5-7b", ui_tars_pixels, id="ui-tars-1.5"),
    pytest.param(UITars, "openai", "ui-tars-7b-sft", ui_tars_thousandths, id="ui-tars-1.0"),
    pytest.param(QwenVL, "openai", "qwen2.5vl:7b", qwen_pixels, id="qwen2.5-vl"),
    pytest.param(QwenVL, "openai", "Qwen/Qwen3-VL-8B-Instruct", qwen_grid, id="qwen3-vl"),
]


@pytest.mark.parametrize(("cls", "backend", "model", "answer"), PROTOCOLS)
@pytest.mark.parametrize(("monitor", "scale"), MONITORS)
@pytest.mark.parametrize("where", [(0.03, 0.04), (0.61, 0.27), (0.97, 0.95)])
def test_a_point_answered_on_a_checkbox_clicks_the_checkbox(
    cls, backend, model, answer, monitor, scale, where
):
    """A 14x14 checkbox (input units) somewhere on the monitor: the model answers its centre as
    its own image shows it, in its own convention; the click lands inside the checkbox."""
    frame_w, frame_h = round(monitor.width * scale), round(monitor.height * scale)
    checkbox = Box(
        monitor.left + round(where[0] * (monitor.width - 14)),
        monitor.top + round(where[1] * (monitor.height - 14)),
        14,
        14,
    )  # in the desktop's input coordinates
    mapping = Mapping(monitor, frame_w, frame_h)
    centre = mapping.to_frame(checkbox.x + 7, checkbox.y + 7)  # where the frame shows it
    shown = pattern_screen(frame_w, frame_h)
    protocol = cls(choose(backend, model), "tick the box", "desktop", 2)
    image = protocol.image(shown)
    mx, my = image.to_model(*centre)
    protocol.observe(Outcome(shown))
    protocol.request()
    (click,) = protocol.read(answer(mx, my, image)).actions
    landed = mapping.to_input(*click.target.point)
    assert checkbox.contains_point(*landed), (landed, checkbox, image.size)


# ---- zooms and closer looks -------------------------------------------------------------------

LIMITS = {
    "anthropic": ImageLimits(max_side=1568, factor=None, max_pixels=1_150_000),
    "qwen2.5": ImageLimits(factor=28, max_pixels=1280 * 28 * 28),
    "qwen3": ImageLimits(factor=32, min_pixels=65_536, max_pixels=1280 * 32 * 32),
}


@settings(max_examples=60, deadline=None)
@given(
    width=st.integers(600, 3840),
    height=st.integers(400, 2160),
    data=st.data(),
    limits=st.sampled_from(sorted(LIMITS)),
)
def test_a_point_in_a_crop_maps_back_within_a_pixel(width, height, data, limits):
    """A region small enough to be seen at full resolution (a zoom, a closer look): the point a
    model answers in the crop, whole pixels of the crop, is back on the frame within a pixel."""
    rule = LIMITS[limits]
    w = data.draw(st.integers(20, min(width, 900)))
    h = data.draw(st.integers(20, min(height, 600)))
    region = Box(data.draw(st.integers(0, width - w)), data.draw(st.integers(0, height - h)), w, h)
    crop = rule.crop(np.zeros((height, width, 3), np.uint8), region)
    assert crop.region == region and crop.scale >= 0.9
    fx = data.draw(st.floats(region.x, region.right - 1))
    fy = data.draw(st.floats(region.y, region.bottom - 1))
    mx, my = crop.to_model(fx, fy)
    answered = (min(round(mx), crop.size[0] - 1), min(round(my), crop.size[1] - 1))
    back = to_frame_point(answered, crop, "pixels")
    assert abs(back[0] - fx) <= 1 and abs(back[1] - fy) <= 1


def test_a_small_crop_for_a_factor_model_is_snapped_up_never_shrunk():
    """Found by the property above: a 42x94 region, rounded to Qwen's 28 px, was 56x84 (0.89)."""
    crop = LIMITS["qwen2.5"].crop(np.zeros((400, 600, 3), np.uint8), Box(0, 0, 42, 94))
    assert crop.size == (56, 112) and crop.scale >= 1


def test_a_full_resolution_crop_shows_exactly_the_frame_pixels_its_points_name():
    shown = pattern_screen(2560, 1440)
    region = Box(1733, 911, 310, 170)
    crop = LIMITS["anthropic"].crop(shown.frame.pixels, region)
    assert crop.size == (310, 170) and crop.scale == 1
    for cx, cy in [(0, 0), (17, 42), (309, 169), (150, 3)]:
        fx, fy = to_frame_point((cx, cy), crop, "pixels")
        assert np.array_equal(crop.pixels[cy, cx], shown.frame.pixels[fy, fx])


def test_a_crop_too_big_for_the_budget_is_shrunk_and_still_maps_exactly():
    crop = LIMITS["anthropic"].crop(np.zeros((2160, 3840, 3), np.uint8), Box(0, 0, 3840, 2160))
    assert crop.scale < 0.5
    assert crop.to_frame(*crop.to_model(1234.5, 987.25)) == pytest.approx((1234.5, 987.25))


def test_a_zoom_region_names_the_frame_box_it_covers():
    image = LIMITS["anthropic"].fit(np.zeros((1080, 1920, 3), np.uint8))
    box = image.box_to_frame(100, 200, 400, 350)
    corners = (image.to_frame(100, 200), image.to_frame(400, 350))
    assert box.x <= corners[0][0] < box.x + 1 and box.y <= corners[0][1] < box.y + 1
    assert (
        box.right - 1 < corners[1][0] <= box.right and box.bottom - 1 < corners[1][1] <= box.bottom
    )
    assert image.box_to_frame(1400, 700, 1500, 900).right == 1920  # clamped onto the frame


@pytest.mark.parametrize(
    ("point", "size", "frame", "expected"),
    [
        ((1000, 500), (400, 300), (1920, 1080), Box(800, 350, 400, 300)),
        ((10, 10), (400, 300), (1920, 1080), Box(0, 0, 400, 300)),
        ((1915, 1075), (400, 300), (1920, 1080), Box(1520, 780, 400, 300)),
        ((50, 50), (4000, 3000), (1920, 1080), Box(0, 0, 1920, 1080)),
    ],
)
def test_a_closer_look_is_centred_on_the_point_and_stays_on_the_frame(point, size, frame, expected):
    assert region_around(point, size, frame) == expected


def test_a_grid_point_is_a_fraction_of_the_image_it_names():
    image = LIMITS["qwen3"].fit(np.zeros((1080, 1920, 3), np.uint8))
    assert from_grid((500, 500), (1000, 1000), image) == (960, 540)
    assert from_grid((999, 999), (999, 999), image) == (1919, 1079)  # clamped onto the frame
    assert from_grid((0, 0), (1000, 1000), image) == (0, 0)
