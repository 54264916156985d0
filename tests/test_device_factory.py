"""The device factory: one spec from the options every command shares, one place that knows
which driver serves it."""

from __future__ import annotations

import pytest

from clickwright.devices.factory import DeviceSpec, open_device, parse_size, start_program
from clickwright.errors import ClickwrightError, DeviceError


@pytest.mark.parametrize(
    ("given", "options", "expected"),
    [
        ("desktop", {}, DeviceSpec()),
        ("desktop", {"display": ":3", "screen": 1}, DeviceSpec("desktop", ":3", 1)),
        ("desktop", {"virtual": True}, DeviceSpec("virtual")),
        ("virtual", {}, DeviceSpec("virtual")),
        ("virtual", {"size": "800x600"}, DeviceSpec("virtual", size=(800, 600))),
        ("android", {"wait": 5}, DeviceSpec("android", wait=5)),
        ("Android:emulator-5554", {}, DeviceSpec("android", serial="emulator-5554")),
    ],
)
def test_a_spec_is_read_from_the_shared_options(given, options, expected):
    assert DeviceSpec.parse(given, **options) == expected


@pytest.mark.parametrize(
    ("given", "options", "said"),
    [
        ("desktop", {"virtual": True, "display": ":1"}, "cannot be used together"),
        ("android", {"display": ":1"}, "cannot be combined"),
        ("ios", {}, "unknown device 'ios'"),
        ("virtual", {"size": "huge"}, "bad size 'huge'"),
        ("virtual", {"size": "1x1"}, "16 to 16384"),
    ],
)
def test_contradictions_are_one_line_errors(given, options, said):
    with pytest.raises(ClickwrightError, match=said):
        DeviceSpec.parse(given, **options)


def test_sizes():
    assert parse_size("1920X1080") == (1920, 1080)


@pytest.mark.slow
def test_a_virtual_device_starts_a_program_and_stops_it_with_the_display():
    with open_device("virtual") as device:
        assert device.kind == "desktop" and device.size == (1280, 800)
        process = start_program(device, "xmessage -center 'hello from the factory'")
        assert process is not None and process.poll() is None
    assert process.poll() is not None  # stopped with its display


def test_a_program_that_exits_at_once_is_a_clear_error():
    class Blank:
        kind = "desktop"

        def capture(self):
            import numpy as np

            from clickwright.types import Frame

            return Frame(np.zeros((10, 10, 3), np.uint8))

        def launch(self, command):
            import subprocess

            return subprocess.Popen(["false"])

    with pytest.raises(ClickwrightError, match="exited with status 1"):
        start_program(Blank(), "false")  # type: ignore[arg-type]


def test_a_device_without_programs_says_so():
    class Phoneless:
        kind = "stub"

    with pytest.raises(DeviceError, match="cannot launch programs"):
        start_program(Phoneless(), "xterm")  # type: ignore[arg-type]
