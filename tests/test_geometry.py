"""Frame pixels -> input coordinates on HiDPI and multi-monitor desktops."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clickwright.devices.geometry import Mapping, Monitor, choose_monitor
from clickwright.errors import DeviceError


def test_plain_monitor_maps_one_to_one():
    mapping = Mapping(Monitor(0, 0, 1280, 800), 1280, 800)
    assert mapping.scale == 1.0
    assert mapping.to_input(100, 200) == (100, 200)


def test_second_monitor_adds_its_origin():
    mapping = Mapping(Monitor(1920, 0, 1280, 1024), 1280, 1024)
    assert mapping.to_input(10, 20) == (1930, 20)


def test_monitor_left_of_primary_has_negative_input_x():
    mapping = Mapping(Monitor(-1280, 100, 1280, 800), 1280, 800)
    assert mapping.to_input(0, 0) == (-1280, 100)
    assert mapping.to_input(1279, 799) == (-1, 899)


def test_hidpi_capture_halves_coordinates():
    # a Retina-style capture: 2560x1600 pixels of a 1280x800-point monitor
    mapping = Mapping(Monitor(0, 0, 1280, 800), 2560, 1600)
    assert mapping.scale == 2.0
    assert mapping.to_input(2000, 1000) == (1000, 500)
    assert mapping.to_frame(1000, 500) == (2000, 1000)


def test_hidpi_on_offset_monitor():
    mapping = Mapping(Monitor(1440, -200, 1440, 900), 2880, 1800)
    assert mapping.to_input(100, 100) == (1490, -150)


def test_points_outside_the_frame_are_clamped_onto_the_monitor():
    mapping = Mapping(Monitor(1920, 0, 1280, 800), 1280, 800)
    assert mapping.to_input(-50, 5000) == (1920, 799)


@given(
    left=st.integers(-4000, 4000),
    top=st.integers(-2000, 2000),
    width=st.integers(320, 4000),
    height=st.integers(240, 3000),
    scale=st.sampled_from([1.0, 1.25, 1.5, 2.0, 3.0]),
    fx=st.floats(0, 1, exclude_max=True),
    fy=st.floats(0, 1, exclude_max=True),
)
def test_round_trip_stays_within_one_pixel_and_on_the_monitor(
    left, top, width, height, scale, fx, fy
):
    monitor = Monitor(left, top, width, height)
    mapping = Mapping(monitor, round(width * scale), round(height * scale))
    x, y = fx * mapping.frame_width, fy * mapping.frame_height
    ix, iy = mapping.to_input(x, y)
    assert (
        monitor.contains(ix, iy) or (ix, iy) == (left + width, iy) or (ix, iy) == (ix, top + height)
    )
    back = mapping.to_frame(ix, iy)
    assert abs(back[0] - x) <= scale + 1 and abs(back[1] - y) <= scale + 1


def test_choose_monitor_lists_what_exists():
    monitors = [Monitor(0, 0, 1920, 1080), Monitor(1920, 0, 1280, 1024)]
    assert choose_monitor(monitors, 1).left == 1920
    with pytest.raises(DeviceError, match="there is no screen 2.*1: 1280x1024 at \\(1920, 0\\)"):
        choose_monitor(monitors, 2)
