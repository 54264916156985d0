"""The Android driver: text and key encoding, framebuffer decoding and touch parsing as units,
then the device itself through the real adbutils client against the adb simulator."""

from __future__ import annotations

import socket
import string
import threading
import time
from collections.abc import Iterator

import numpy as np
import pytest
from adb_simulator import AdbSimulator, Phone, Touch
from adb_simulator.shell import Shell
from hypothesis import given, settings
from hypothesis import strategies as st

from clickwright.devices.android import (
    AndroidDevice,
    decode_raw,
    wait_for_device,
)
from clickwright.devices.android_keys import (
    adb_keyboard_command,
    key_command,
    keycode,
    text_commands,
)
from clickwright.devices.android_touch import GestureReader, TouchPanel, find_touch_panel
from clickwright.devices.factory import open_device
from clickwright.errors import ActionError, DeviceError
from clickwright.types import parse_action

pytestmark = pytest.mark.usefixtures("adb_env")

SETTINGS_ICON = (67, 141)
WIFI_ROW = (270, 160)


@pytest.fixture
def phone(sim: AdbSimulator) -> Iterator[AndroidDevice]:
    with AndroidDevice(port=sim.port) as device:
        yield device


def act(device: AndroidDevice, data: dict, point=None, end=None) -> None:
    device.perform(parse_action(data), point, end)


# ---- text and keys ---------------------------------------------------------------------------


def typed(text: str) -> str:
    """What the simulated phone's focused field holds after the shell line for `text` ran."""
    phone = Phone()
    phone.start("com.android.contacts")
    phone.focus_field("search")
    result = Shell(phone).run(text_commands(text))
    assert result.code == 0, result.stderr
    return phone.search


@pytest.mark.parametrize(
    "text",
    [
        "hello world",
        "it's $HOME `id` $(reboot); a && b || c | d > e < f * ? ~ # !",
        'say "hi" \\ back\\slash',
        "100%s sure, 50% off, %%s, trailing %",
        "  spaces  at both ends  ",
    ],
)
def test_ascii_text_survives_the_device_shell_and_input(text: str) -> None:
    assert typed(text) == text


@settings(max_examples=60, deadline=None)
@given(
    st.text(alphabet=string.ascii_letters + string.digits + string.punctuation + " ", max_size=30)
)
def test_any_printable_ascii_is_typed_exactly(text: str) -> None:
    assert typed(text) == text


def test_newlines_and_tabs_become_key_events() -> None:
    line = text_commands("a b\nc\td")
    assert line == (
        "input text a%sb && input keyevent KEYCODE_ENTER && input text c && "
        "input keyevent KEYCODE_TAB && input text d"
    )


def test_text_commands_refuse_what_input_text_cannot_type() -> None:
    with pytest.raises(ActionError, match="ASCII"):
        text_commands("Zoë")
    with pytest.raises(ActionError, match="control"):
        text_commands("bell\x07")


def test_adb_keyboard_broadcast_carries_base64() -> None:
    assert adb_keyboard_command("你好") == "am broadcast -a ADB_INPUT_B64 --es msg 5L2g5aW9"


@pytest.mark.parametrize(
    ("name", "code"),
    [
        ("Enter", "KEYCODE_ENTER"),
        ("return", "KEYCODE_ENTER"),
        ("Esc", "KEYCODE_ESCAPE"),
        ("backspace", "KEYCODE_DEL"),
        ("back", "KEYCODE_BACK"),
        ("Home", "KEYCODE_HOME"),
        ("app switch", "KEYCODE_APP_SWITCH"),
        ("PageDown", "KEYCODE_PAGE_DOWN"),
        ("f5", "KEYCODE_F5"),
        ("a", "KEYCODE_A"),
        ("7", "KEYCODE_7"),
        ("volumeup", "KEYCODE_VOLUME_UP"),
    ],
)
def test_key_names_map_to_android_key_codes(name: str, code: str) -> None:
    assert keycode(name) == code


def test_single_keys_are_events_and_chords_are_combinations() -> None:
    assert key_command(["enter"]) == "input keyevent KEYCODE_ENTER"
    assert key_command(["ctrl", "a"]) == "input keycombination KEYCODE_CTRL_LEFT KEYCODE_A"
    with pytest.raises(ActionError):
        keycode("hyper")
    with pytest.raises(ActionError, match="no Android key code"):
        keycode("f20")


# ---- framebuffer -----------------------------------------------------------------------------


def _raw(width: int, height: int, fmt: int, body: bytes, header: int = 16) -> bytes:
    return np.array([width, height, fmt, 0][: header // 4], "<u4").tobytes() + body


def test_raw_rgba_with_either_header_decodes() -> None:
    rgba = np.arange(2 * 3 * 4, dtype=np.uint8).reshape(2, 3, 4)
    for header in (12, 16):
        pixels = decode_raw(_raw(3, 2, 1, rgba.tobytes(), header))
        assert pixels.shape == (2, 3, 3) and pixels.flags.c_contiguous
        assert (pixels == rgba[:, :, :3]).all()


def test_raw_bgra_and_rgb565_decode() -> None:
    bgra = np.array([[[10, 20, 30, 255]]], np.uint8)
    assert decode_raw(_raw(1, 1, 5, bgra.tobytes())).tolist() == [[[30, 20, 10]]]
    red, green, blue = 0xF800, 0x07E0, 0x001F
    body = np.array([red, green, blue], "<u2").tobytes()
    assert decode_raw(_raw(3, 1, 4, body)).tolist() == [[[255, 0, 0], [0, 255, 0], [0, 0, 255]]]


@pytest.mark.parametrize(
    "data",
    [b"", b"\x00" * 8, _raw(2, 2, 1, b"\x00" * 15), _raw(1, 1, 9, b"\x00" * 4)],
)
def test_bad_raw_output_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode_raw(data)


# ---- touch events ----------------------------------------------------------------------------

PANEL_DESCRIPTION = """\
add device 1: /dev/input/event0
  name:     "gpio-keys"
  events:
    KEY (0001): KEY_VOLUMEDOWN        KEY_VOLUMEUP
add device 2: /dev/input/event3
  name:     "fts_ts"
  events:
    KEY (0001): BTN_TOUCH
    ABS (0003): ABS_MT_SLOT           : value 0, min 0, max 9, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_X     : value 0, min 0, max 1079, fuzz 0, flat 0, resolution 0
                ABS_MT_POSITION_Y     : value 0, min 0, max 2399, fuzz 0, flat 0, resolution 0
                ABS_MT_TRACKING_ID    : value 0, min 0, max 65535, fuzz 0, flat 0, resolution 0
"""


def _event(t: float, code: str, value: str, kind: str = "EV_ABS", dev: str = "event3") -> str:
    return f"[{t:15.6f}] /dev/input/{dev}: {kind:<12} {code:<20} {value}"


def _touch(t0: float, points: list[tuple[int, int]], step: float, tid: int = 7) -> list[str]:
    lines = [
        _event(t0, "ABS_MT_TRACKING_ID", f"{tid:08x}"),
        _event(t0, "BTN_TOUCH", "DOWN", "EV_KEY"),
    ]
    for i, (x, y) in enumerate(points):
        t = t0 + i * step
        lines += [
            _event(t, "ABS_MT_POSITION_X", f"{x:08x}"),
            _event(t, "ABS_MT_POSITION_Y", f"{y:08x}"),
            _event(t, "SYN_REPORT", "00000000", "EV_SYN"),
        ]
    t = t0 + len(points) * step
    return lines + [
        _event(t, "ABS_MT_TRACKING_ID", "ffffffff"),
        _event(t, "BTN_TOUCH", "UP", "EV_KEY"),
        _event(t, "SYN_REPORT", "00000000", "EV_SYN"),
    ]


def _feed(reader: GestureReader, lines: list[str]) -> list:
    return [e for e in map(reader.feed, lines) if e is not None]


def test_the_touch_screen_is_found_with_its_axis_ranges() -> None:
    panel = find_touch_panel(PANEL_DESCRIPTION)
    assert panel == TouchPanel(
        "/dev/input/event3", "ABS_MT_POSITION_X", "ABS_MT_POSITION_Y", (0, 1079), (0, 2399)
    )
    with pytest.raises(DeviceError, match="no touch screen"):
        find_touch_panel(PANEL_DESCRIPTION.split("add device 2")[0])


def test_taps_long_presses_and_swipes_are_told_apart() -> None:
    reader = GestureReader(find_touch_panel(PANEL_DESCRIPTION), (540, 1200), density=320)
    lines = _touch(100.0, [(540, 1200), (542, 1203)], 0.02)  # wobbles 1 px: a tap
    lines += [_event(100.5, "KEY_VOLUMEDOWN", "DOWN", "EV_KEY", "event0")]  # another device
    lines += _touch(101.0, [(200, 400)] * 40, 0.02)  # held 0.8 s
    lines += _touch(103.0, [(540, 2000 - 50 * i) for i in range(20)], 0.016)  # upwards
    tap, press, swipe = _feed(reader, lines)
    assert (tap.kind, tap.x, tap.y) == ("tap", 270, 600)
    assert (press.kind, press.x, press.y) == ("long_press", 100, 200)
    assert press.duration == pytest.approx(0.8, abs=0.01)
    assert (swipe.kind, swipe.x, swipe.y, swipe.end) == ("swipe", 270, 1000, (270, 525))
    assert tap.time < press.time < swipe.time and abs(time.time() - swipe.time) < 10


def test_a_second_finger_does_not_move_the_first() -> None:
    reader = GestureReader(find_touch_panel(PANEL_DESCRIPTION), (1080, 2400))
    lines = _touch(5.0, [(100, 100)], 0.01)
    second = [
        _event(5.001, "ABS_MT_SLOT", "00000001"),
        _event(5.001, "ABS_MT_TRACKING_ID", "00000009"),
        _event(5.001, "ABS_MT_POSITION_X", "00000300"),
        _event(5.001, "ABS_MT_POSITION_Y", "00000300"),
        _event(5.001, "SYN_REPORT", "00000000", "EV_SYN"),
        _event(5.002, "ABS_MT_TRACKING_ID", "ffffffff"),
        _event(5.002, "ABS_MT_SLOT", "00000000"),
    ]
    events = _feed(reader, lines[:5] + second + lines[5:])
    assert [(e.kind, e.x, e.y) for e in events] == [("tap", 100, 100)]


@pytest.mark.parametrize(
    ("rotation", "expected"),
    [(0, (100, 300)), (1, (300, 980)), (2, (980, 2100)), (3, (2100, 100))],
)
def test_panel_points_follow_the_display_rotation(rotation: int, expected: tuple) -> None:
    size = (2400, 1080) if rotation % 2 else (1080, 2400)
    reader = GestureReader(find_touch_panel(PANEL_DESCRIPTION), size, rotation)
    assert reader.to_frame(100, 300) == expected


# ---- the device, through adbutils, against the simulator -------------------------------------


def test_capture_raw_is_the_screen_and_png_agrees(sim: AdbSimulator, phone: AndroidDevice) -> None:
    frame = phone.capture()
    assert frame.size == (540, 960) == phone.size and frame.scale == 1.0
    assert (frame.pixels == np.asarray(sim.phone.image())).all()
    assert phone.raw_capture
    assert sim.device().commands.count("exec:screencap") >= 2  # at open and now


@pytest.mark.parametrize("header", [12, 20])
def test_old_or_odd_raw_output_is_read_or_falls_back_to_png(header: int) -> None:
    with AdbSimulator() as sim:
        sim.device().shell.raw_header = header
        with AndroidDevice(port=sim.port) as device:
            frame = device.capture()
            assert device.raw_capture == (header == 12)
            assert (frame.pixels == np.asarray(sim.phone.image())).all()
            assert ("exec:screencap -p" in sim.device().commands) == (header == 20)


def test_a_landscape_phone_captures_and_taps_in_its_rotation() -> None:
    with AdbSimulator() as sim:
        sim.device().shell.phone.rotation = 1
        with AndroidDevice(port=sim.port) as device:
            assert device.size == (960, 540) and device.rotation() == 1
            act(device, {"type": "launch", "app": "com.android.settings"})
            act(device, {"type": "click", "target": {"text": "Wi-Fi"}}, (480, 160))
            assert sim.phone.wifi


def test_actions_reach_the_phone(sim: AdbSimulator, phone: AndroidDevice) -> None:
    act(phone, {"type": "double_click", "target": {"point": [5, 5]}}, (270, 900))
    act(phone, {"type": "right_click", "target": {"point": [5, 5]}}, (270, 900))
    assert sim.phone.log == ["tap 270 900", "tap 270 900", "swipe 270 900 270 900 1"]
    act(phone, {"type": "click", "target": {"text": "Settings"}}, SETTINGS_ICON)
    assert sim.phone.package() == "com.android.settings"
    act(phone, {"type": "click", "target": {"text": "Wi-Fi"}}, WIFI_ROW)
    assert sim.phone.wifi
    act(phone, {"type": "scroll", "direction": "down", "amount": 3}, (270, 600))
    assert sim.phone.scrolls["settings"] > 300
    act(phone, {"type": "swipe", "direction": "down", "distance": 0.5}, (270, 300))
    assert sim.phone.scrolls["settings"] == 0
    act(phone, {"type": "long_press", "target": {"point": [5, 5]}, "duration": 0.8}, (270, 400))
    act(
        phone,
        {"type": "drag", "from": {"point": [1, 1]}, "to": {"point": [2, 2]}},
        (1, 1),
        (900, 99),
    )
    act(phone, {"type": "back"})
    assert sim.phone.package() == "com.android.launcher3"
    phone.press("app switch")
    assert sim.phone.showing_recents
    act(phone, {"type": "home"})
    assert sim.phone.log[-5:] == [
        "swipe 270 400 270 400 0.8",
        "drag 1 1 539 99",  # clamped onto the screen
        "key BACK",
        "key APP_SWITCH",
        "key HOME",
    ]
    with pytest.raises(ActionError, match="needs a point"):
        act(phone, {"type": "click", "target": {"text": "OK"}})
    with pytest.raises(ActionError, match="could not run 'input frobnicate': Error: Unknown"):
        phone.shell("input frobnicate", check=True)


def test_typing_replaces_and_submits(sim: AdbSimulator, phone: AndroidDevice) -> None:
    act(phone, {"type": "launch", "app": "com.android.contacts"})
    act(phone, {"type": "type", "text": "Alan", "target": {"text": "Search"}}, (270, 160))
    act(phone, {"type": "type", "text": "Grace H", "clear": True, "enter": True}, (270, 160))
    assert sim.phone.search == "Grace H" and sim.phone.submitted == ["Grace H"]


def test_non_ascii_text_needs_adb_keyboard(sim: AdbSimulator, phone: AndroidDevice) -> None:
    act(phone, {"type": "launch", "app": "com.android.contacts"})
    with pytest.raises(ActionError, match="install ADB Keyboard"):
        act(phone, {"type": "type", "text": "Zoë"}, (270, 160))
    assert sim.phone.search == ""


def test_non_ascii_text_goes_through_adb_keyboard_and_the_ime_is_restored() -> None:
    with AdbSimulator() as sim:
        sim.device().shell.phone.adb_keyboard = True
        with AndroidDevice(port=sim.port) as device:
            act(device, {"type": "launch", "app": "com.android.contacts"})
            act(device, {"type": "type", "text": "Zoë 你好 'x'"}, (270, 160))
            assert sim.phone.search == "Zoë 你好 'x'"
            assert sim.phone.ime == "com.android.inputmethod.latin/.LatinIME"


def test_apps_launch_by_package_and_by_label(sim: AdbSimulator, phone: AndroidDevice) -> None:
    act(phone, {"type": "launch", "app": "com.android.deskclock"})
    assert sim.phone.package() == "com.android.deskclock"
    act(phone, {"type": "launch", "app": "com.android.settings/.Settings"})
    assert sim.phone.package() == "com.android.settings"
    act(phone, {"type": "launch", "app": "contacts"})
    assert sim.phone.package() == "com.android.contacts"
    with pytest.raises(ActionError, match="cannot start com.example.nothing"):
        act(phone, {"type": "launch", "app": "com.example.nothing"})
    with pytest.raises(ActionError, match="no app labelled 'Maps'"):
        act(phone, {"type": "launch", "app": "Maps"})


def test_the_view_hierarchy_reads_the_wifi_switch(sim: AdbSimulator, phone: AndroidDevice) -> None:
    sim.phone.start("com.android.settings")
    sim.phone.toggle("wifi")
    tree = phone.accessibility()
    assert tree is not None and tree.complete
    switch = next(n for n in tree if n.kind == "toggle" and n.label == "Wi-Fi")
    assert "checked" in switch.states and switch.box.contains_point(*switch.box.center)
    assert any(
        n.label == "Bluetooth" and "checked" not in n.states for n in tree if n.kind == "toggle"
    )


@pytest.mark.parametrize("idle_wait", [0.2, 10.0])
def test_a_ui_that_never_idles_gives_no_tree_within_the_limit(idle_wait: float) -> None:
    with AdbSimulator() as sim:
        sim.phone.never_idle, sim.phone.idle_wait = True, idle_wait
        with AndroidDevice(port=sim.port, dump_timeout=1.0) as device:
            started = time.monotonic()
            assert device.accessibility() is None
            assert time.monotonic() - started < 2.5  # the limit, plus one round trip
            dumps = [c for c in sim.device().commands if "uiautomator dump" in c]
            assert len(dumps) >= (2 if idle_wait < 1 else 1)  # retried while time was left
            device.capture()  # the phone is still usable


# ---- finding the phone, and losing it --------------------------------------------------------


def test_an_unreachable_adb_server_is_one_clear_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(DeviceError, match=f"cannot reach the adb server at 127.0.0.1:{port}") as e:
        AndroidDevice(port=port)
    assert "adb start-server" in str(e.value)


@pytest.mark.parametrize(
    ("serials", "states", "asked", "message"),
    [
        ((), {}, None, "no Android device is connected"),
        (("A1", "B2"), {}, None, "2 Android devices are connected: A1 \\(device\\), B2"),
        (("A1",), {}, "Z9", "no Android device 'Z9' is connected"),
        (("A1",), {"A1": "unauthorized"}, None, "A1 has not authorised this computer"),
        (("A1",), {"A1": "offline"}, "A1", "A1 is offline"),
        (("A1",), {"A1": "recovery"}, None, "A1 is in recovery mode"),
    ],
)
def test_missing_ambiguous_or_unready_phones_are_clear_errors(
    serials: tuple, states: dict, asked: str | None, message: str
) -> None:
    with AdbSimulator(serials) as sim:
        for serial, state in states.items():
            sim.device(serial).state = state
        with pytest.raises(DeviceError, match=message) as error:
            AndroidDevice(asked, port=sim.port)
    assert "\n" not in str(error.value).split(" — ")[0] and error.value.hint


def test_one_of_several_phones_is_chosen_by_serial_or_android_serial(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with AdbSimulator(("A1", "B2")) as sim:
        with AndroidDevice("B2", port=sim.port) as device:
            act(device, {"type": "launch", "app": "com.android.settings"})
        monkeypatch.setenv("ANDROID_SERIAL", "A1")
        with AndroidDevice(port=sim.port) as device:
            assert device.serial == "A1"
        assert sim.device("B2").phone.package() == "com.android.settings"
        assert sim.device("A1").phone.package() == "com.android.launcher3"


def test_a_locked_phone_is_refused(sim: AdbSimulator) -> None:
    sim.phone.locked = True
    with pytest.raises(DeviceError, match="SIM is locked.*unlock the phone"):
        AndroidDevice(port=sim.port)


def test_a_phone_that_vanishes_mid_command_says_so(sim: AdbSimulator, phone: AndroidDevice) -> None:
    sim.device().disconnect_after = len(sim.device().commands)
    with pytest.raises(DeviceError, match="SIM disconnected while running 'input'") as error:
        act(phone, {"type": "click", "target": {"text": "Settings"}}, SETTINGS_ICON)
    assert "--wait-device" in error.value.hint
    with pytest.raises(DeviceError, match="disconnected while"):
        phone.capture()


def test_with_wait_a_phone_that_comes_back_is_used_again(sim: AdbSimulator) -> None:
    with AndroidDevice(port=sim.port, wait=5) as device:
        sim.device().disconnect_after = len(sim.device().commands)
        threading.Timer(0.5, sim.plug_in).start()
        act(device, {"type": "click", "target": {"text": "Settings"}}, SETTINGS_ICON)
    assert sim.phone.package() == "com.android.settings"


def test_wait_for_device_waits_until_it_appears(sim: AdbSimulator) -> None:
    sim.unplug()
    threading.Timer(0.4, sim.plug_in).start()
    started = time.monotonic()
    assert wait_for_device("SIM", timeout=5, port=sim.port) == "SIM"
    assert 0.3 < time.monotonic() - started < 3
    sim.unplug()
    with pytest.raises(DeviceError, match="no Android device came online within 0.5 s"):
        wait_for_device("SIM", timeout=0.5, port=sim.port)


def test_device_specs(sim: AdbSimulator, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ANDROID_ADB_SERVER_PORT", str(sim.port))
    with open_device("android:SIM") as device:
        assert device.serial == "SIM" and device.describe()["model"] == "Clickwright Sim"
    with open_device("android") as device:
        assert device.serial == "SIM"
    with pytest.raises(DeviceError, match="unknown device 'ios'"):
        with open_device("ios"):
            pass


# ---- recording -------------------------------------------------------------------------------


def _record(device: AndroidDevice, count: int, timeout: float = 15) -> list:
    stop = threading.Event()
    events: list = []
    timer = threading.Timer(timeout, stop.set)
    timer.start()
    for event in device.input_events(stop):
        events.append(event)
        if len(events) == count:
            stop.set()
    timer.cancel()
    return events


@pytest.mark.parametrize("rotation", [0, 1])
def test_touches_on_the_phone_are_recorded_as_gestures(rotation: int) -> None:
    with AdbSimulator() as sim:
        sim.phone.rotation = rotation
        with AndroidDevice(port=sim.port) as device:
            w, h = device.size
            sim.script_touches(
                [
                    Touch((w // 8, 141)),
                    Touch((w // 2, h - 100), (w // 2, h // 3), 0.3),
                    Touch((w // 3, h // 2), seconds=0.7),
                ]
            )
            tap, swipe, press = _record(device, 3)
    assert tap.kind == "tap" and abs(tap.x - w // 8) <= 1 and abs(tap.y - 141) <= 1
    assert swipe.kind == "swipe" and abs(swipe.y - (h - 100)) <= 1
    assert abs(swipe.end[1] - h // 3) <= 1 and 0.2 < swipe.duration < 0.8
    assert press.kind == "long_press" and press.duration >= 0.5
    assert sim.phone.package() == "com.android.settings"  # the tap really opened it
    assert "shell,pty:getevent -lt" in sim.device().commands  # line-buffered, not stuck in a pipe


def test_recording_ends_with_a_clear_error_when_the_phone_vanishes(
    sim: AdbSimulator, phone: AndroidDevice
) -> None:
    threading.Timer(0.5, sim.unplug).start()
    with pytest.raises(DeviceError, match="SIM disconnected while recording"):
        _record(phone, 1)
