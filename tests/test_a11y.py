"""Accessibility trees: AT-SPI on a real Qt app over a private D-Bus, uiautomator dumps,
UI Automation snapshots, the failure modes of a missing or hung bus, and fusion with pixels."""

from __future__ import annotations

import ctypes
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from clickwright.a11y import A11yNode, A11yTree, to_frame
from clickwright.devices.a11y import atspi, parse_uiautomator, read_atspi, read_uia, uia_to_nodes
from clickwright.errors import DeviceError
from clickwright.parsers.fusion import TextBox, fuse, fuse_accessibility
from clickwright.parsers.widgets import Widget
from clickwright.types import Box, Element

FIXTURES = Path(__file__).parent / "fixtures" / "a11y"


def by_name(nodes: list[A11yNode], name: str, kind: str | None = None) -> A11yNode:
    found = [n for n in nodes if n.name == name and (kind is None or n.kind == kind)]
    assert found, f"no {kind or 'node'} named {name!r} in {[(n.kind, n.name) for n in nodes]}"
    return found[0]


# ---- Android ---------------------------------------------------------------------------------


def test_uiautomator_settings_screen_with_wifi_switch() -> None:
    nodes = parse_uiautomator((FIXTURES / "android_settings_wifi.xml").read_text())
    switch = next(n for n in nodes if n.role == "android.widget.Switch")
    assert switch.kind == "toggle"
    assert switch.name == "Use Wi\u2011Fi"  # named after its row's title
    assert {"checked", "checkable"} <= switch.states
    assert switch.box == Box(897, 346, 120, 63)
    assert switch.interactive and switch.platform == "android"
    assert switch.ref == "com.android.settings:id/switch_widget"

    row = by_name(nodes, "HomeNet-5G", "list_item")
    assert row.interactive and row.box == Box(0, 472, 1080, 189)
    assert by_name(nodes, "Connected", "text").box == Box(189, 567, 231, 63)
    assert by_name(nodes, "Settings").kind == "icon"  # a clickable ImageView
    assert by_name(nodes, "Navigate up").kind == "icon"
    assert "disabled" in by_name(nodes, "Add network", "list_item").states
    hidden = by_name(nodes, "Saved networks", "list_item")
    assert not hidden.visible and "offscreen" in hidden.states


def test_uiautomator_list_fields_and_trailing_status_line() -> None:
    nodes = parse_uiautomator((FIXTURES / "android_contacts_list.xml").read_text())
    search = by_name(nodes, "Search contacts", "input")
    assert "focused" in search.states and search.value == ""
    items = [n for n in nodes if n.kind == "list_item"]
    assert [n.name for n in items] == ["Ada Lovelace", "Alan Turing", "Grace Hopper"]
    assert "selected" in items[0].states
    assert "checked" in items[2].states
    pin = by_name(nodes, "PIN", "input")  # named by its hint; the dots are not read out
    assert pin.value == "" and "password" in pin.states
    assert by_name(nodes, "Add contact").kind == "icon"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "<hierarchy rotation='0'><node bounds='[0,0][10,10]'>",  # cut off mid-dump
        "<html><body>ERROR: could not get idle state.</body></html>",
        "ERROR: null root node returned by UiTestAutomationBridge.",
    ],
)
def test_uiautomator_malformed_dump_is_a_clear_error(text: str) -> None:
    with pytest.raises(DeviceError) as caught:
        parse_uiautomator(text)
    assert "uiautomator" in str(caught.value)


def test_uiautomator_node_without_bounds_is_skipped() -> None:
    xml = (
        "<hierarchy><node class='android.widget.Button' text='OK' bounds='[0,0][50,20]'/>"
        "<node class='android.widget.Button' text='Broken' bounds='nowhere'/></hierarchy>"
    )
    assert [(n.kind, n.name) for n in parse_uiautomator(xml)] == [("button", "OK")]


# ---- Windows ---------------------------------------------------------------------------------


def test_uia_snapshot_conversion() -> None:
    nodes = uia_to_nodes(json.loads((FIXTURES / "uia_notepad_save_dialog.json").read_text()))
    save = by_name(nodes, "Save", "button")
    assert save.box == Box(1060, 732, 90, 30) and save.interactive and save.platform == "uia"
    assert save.role == "ButtonControl" and save.ref == "1"
    field = by_name(nodes, "File name:", "input")
    assert field.value == "draft.txt" and "focused" in field.states
    combo = by_name(nodes, "Save as type:", "combo")
    assert combo.value == "Text Documents (*.txt)" and "collapsed" in combo.states
    assert "checked" in by_name(nodes, "Hide extensions", "checkbox").states
    read_only = by_name(nodes, "Read only", "checkbox")
    assert "disabled" in read_only.states and "checked" not in read_only.states
    assert by_name(nodes, "Word wrap").kind == "toggle"  # a button with the Toggle pattern
    assert by_name(nodes, "Learn more").kind == "link"
    assert "selected" in by_name(nodes, "notes.txt", "list_item").states
    assert not by_name(nodes, "todo.txt").visible
    assert by_name(nodes, "Recent").kind == "menuitem"  # numeric id and x/y/width/height box
    assert by_name(nodes, "Recent").box == Box(340, 260, 160, 24)
    assert by_name(nodes, "Save As").kind == "container"
    with pytest.raises(ValueError):
        uia_to_nodes([])  # type: ignore[arg-type]


@pytest.mark.skipif(sys.platform == "win32", reason="checks the behaviour elsewhere")
def test_uia_live_reader_elsewhere_returns_empty_with_reason() -> None:
    tree = read_uia(timeout=0.5)
    assert tree == [] and isinstance(tree, A11yTree)
    assert "Windows" in tree.reason


# ---- AT-SPI without a usable bus -------------------------------------------------------------


def test_role_kinds() -> None:
    expected = {
        "push button": "button", "entry": "input", "check box": "checkbox",
        "radio button": "radio", "toggle button": "toggle", "combo box": "combo",
        "menu": "menu", "menu item": "menuitem", "page tab": "tab", "link": "link",
        "list item": "list_item", "table cell": "list_item", "icon": "icon", "label": "text",
        "static": "text", "image": "image", "panel": "container", "filler": "container",
        "frame": "container", "password text": "input",
    }  # fmt: skip
    for role, kind in expected.items():
        assert role in atspi.ROLES
        assert atspi.role_kind(role) == kind, role
    assert atspi.role_kind("text", editable=True) == "input"
    assert atspi.role_kind("text", editable=False) == "text"
    assert atspi.ROLES[43] == "push button" and atspi.ROLES[79] == "entry"


@pytest.fixture
def no_a11y_env(monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("AT_SPI_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    atspi._address_cache.clear()
    return monkeypatch


def test_atspi_without_session_bus(no_a11y_env: pytest.MonkeyPatch) -> None:
    start = time.monotonic()
    tree = read_atspi(timeout=60.0)
    assert tree == [] and time.monotonic() - start < 30  # refused at once, not waited out
    assert "DBUS_SESSION_BUS_ADDRESS" in tree.reason


def test_atspi_with_dead_socket(no_a11y_env: pytest.MonkeyPatch, tmp_path: Path) -> None:
    dead = tmp_path / "dead-bus"
    listener = socket.socket(socket.AF_UNIX)
    listener.bind(str(dead))
    listener.close()  # the file stays, nobody listens: connection refused
    no_a11y_env.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={dead}")
    start = time.monotonic()
    tree = read_atspi(timeout=60.0)
    assert tree == [] and time.monotonic() - start < 30  # refused at once, not waited out
    assert "cannot connect to the session D-Bus" in tree.reason
    no_a11y_env.setenv("DBUS_SESSION_BUS_ADDRESS", f"unix:path={tmp_path / 'missing'}")
    assert read_atspi(timeout=1.0) == []


class SilentBus:
    """A unix socket that accepts connections and never answers; with `authenticate`, it
    completes the D-Bus handshake first and then swallows every message."""

    def __init__(self, path: Path, authenticate: bool) -> None:
        self.server = socket.socket(socket.AF_UNIX)
        self.server.bind(str(path))
        self.server.listen(4)
        self.authenticate = authenticate
        self.clients: list[socket.socket] = []
        threading.Thread(target=self._serve, daemon=True).start()

    def _serve(self) -> None:
        while True:
            try:
                client, _ = self.server.accept()
            except OSError:
                return
            self.clients.append(client)
            if self.authenticate:
                threading.Thread(target=self._handshake, args=(client,), daemon=True).start()

    def _handshake(self, client: socket.socket) -> None:
        data = b""
        try:
            while b"BEGIN\r\n" not in data:
                chunk = client.recv(4096)
                if not chunk:
                    return
                data += chunk
                if b"AUTH " in data and b"OK" not in data:
                    client.sendall(b"OK 0123456789abcdef0123456789abcdef\r\n")
                    data += b"OK"
            while client.recv(4096):
                pass  # read Hello and everything after, answer nothing
        except OSError:
            return

    def close(self) -> None:
        self.server.close()
        for client in self.clients:
            client.close()


@pytest.mark.parametrize("authenticate", [False, True], ids=["silent", "answers-handshake-only"])
def test_atspi_with_hung_bus_stops_at_time_limit(
    no_a11y_env: pytest.MonkeyPatch, tmp_path: Path, authenticate: bool
) -> None:
    bus = SilentBus(tmp_path / "hung", authenticate)
    try:
        no_a11y_env.setenv("AT_SPI_BUS_ADDRESS", f"unix:path={tmp_path / 'hung'}")
        start = time.monotonic()
        tree = read_atspi(timeout=0.5)
        elapsed = time.monotonic() - start
        assert tree == [] and 0.4 <= elapsed < 0.9
        assert "in time" in tree.reason
        assert tree.elapsed == pytest.approx(elapsed, abs=0.05)
    finally:
        bus.close()


def test_atspi_unsupported_address(no_a11y_env: pytest.MonkeyPatch) -> None:
    no_a11y_env.setenv("AT_SPI_BUS_ADDRESS", "tcp:host=localhost,port=1")
    tree = read_atspi(timeout=0.5)
    assert tree == [] and "cannot use" in tree.reason


# ---- fusion ----------------------------------------------------------------------------------


def node(kind: str, name: str, box: tuple[int, int, int, int], **extra) -> A11yNode:
    role = {"button": "push button", "text": "label", "container": "panel"}.get(kind, kind)
    return A11yNode(role=role, kind=kind, name=name, box=Box(*box), **extra)  # type: ignore[arg-type]


def test_fuse_keeps_its_old_call() -> None:
    texts = [TextBox(Box(110, 14, 40, 16), "Save", 0.98)]
    widgets = [Widget(Box(100, 10, 60, 24), "button", 0.9)]
    [element] = fuse(texts, widgets)
    assert (element.kind, element.text, element.source) == ("button", "Save", "merged")


def test_fuse_accessibility_merges_adds_and_keeps() -> None:
    texts = [
        TextBox(Box(110, 14, 40, 16), "Save", 0.98),  # inside the button
        TextBox(Box(10, 52, 44, 16), "Name:", 0.97),  # the field's label
        TextBox(Box(300, 300, 120, 18), "chart legend", 0.9),  # canvas text the tree lacks
        TextBox(Box(30, 92, 120, 16), "Rernember me", 0.8),  # OCR misread
    ]
    widgets = [
        Widget(Box(100, 10, 60, 24), "button", 0.9),
        Widget(Box(80, 48, 200, 24), "input", 0.9),
        Widget(Box(10, 92, 14, 14), "checkbox", 0.8),
        Widget(Box(500, 10, 30, 30), "button", 0.7),  # an icon button nothing names
    ]
    elements = fuse(texts, widgets)
    nodes = [
        node("container", "", (0, 0, 640, 480)),  # the window: explains nothing
        node("button", "Save", (100, 10, 60, 24), interactive=True),
        node("text", "Name:", (10, 50, 50, 20)),
        node("input", "Name:", (80, 48, 200, 24), interactive=True, value="Ada"),
        node(
            "checkbox",
            "Remember me",
            (8, 90, 300, 20),
            interactive=True,
            states=frozenset({"checked", "focusable"}),
        ),
        node("button", "Help", (600, 400, 40, 20), interactive=True),  # the pixels missed it
        node("button", "Hidden", (600, 440, 40, 20), states=frozenset({"offscreen"})),
        node("button", "Zero", (600, 460, 0, 0)),
        node("text", "", (5, 5, 10, 10)),
    ]
    fused = fuse_accessibility(elements, nodes, frame_size=(640, 480))
    assert [e.id for e in fused] == list(range(len(fused)))
    found = {(e.kind, e.text or e.name): e for e in fused}

    save = found[("button", "Save")]
    assert save.source == "merged" and save.box == Box(100, 10, 60, 24) and save.interactive
    field = found[("input", "Ada")]
    assert field.source == "merged" and field.name == "Name:"
    check = found[("checkbox", "Remember me")]  # the tree's spelling, the drawn box
    assert check.source == "merged" and check.state == frozenset({"checked"})
    assert check.box.w < 300
    assert found[("button", "Help")].source == "a11y"
    assert found[("text", "chart legend")].source == "ocr"
    assert found[("button", "")].source == "widgets"  # the unnamed icon button stays
    texts_out = [e.text for e in fused]
    assert "Hidden" not in texts_out and "Zero" not in texts_out
    assert "Rernember me" not in texts_out
    assert texts_out.count("Name:") <= 1  # the label is the field's name, not a second item
    assert not any(e.kind == "container" for e in fused)
    # reading order: Save (top row) before the Name field before the check box
    order = [e.text or e.name for e in fused]
    assert order.index("Save") < order.index("Ada") < order.index("Remember me")


def test_fuse_accessibility_label_child_names_its_control() -> None:
    """GTK buttons hold a label child: one element, named by the label."""
    elements = fuse([TextBox(Box(20, 14, 40, 16), "Open", 0.9)], [])
    nodes = [
        node("button", "", (10, 10, 60, 24), interactive=True),
        node("text", "Open", (20, 12, 40, 20)),
    ]
    fused = fuse_accessibility(elements, nodes)
    assert [(e.kind, e.text, e.source) for e in fused] == [("button", "Open", "merged")]


def test_to_frame_maps_screen_to_frame_pixels() -> None:
    nodes = [node("button", "OK", (1940, 110, 50, 20))]
    [moved] = to_frame(nodes, origin=(1920, 0), scale=2.0)
    assert moved.box == Box(40, 220, 100, 40)


# ---- AT-SPI on a real Qt app -----------------------------------------------------------------


def _die_with_parent() -> None:
    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@pytest.fixture(scope="module")
def session_bus(display) -> Iterator[dict[str, str]]:
    """A private session D-Bus (and, on demand, its AT-SPI bus) for the display's apps."""
    if shutil.which("dbus-daemon") is None or not Path("/usr/libexec/at-spi-bus-launcher").exists():
        pytest.fail("needs dbus-daemon and at-spi2-core (make system-deps installs them)")
    runtime = tempfile.mkdtemp(prefix="cw-a11y-")
    env = {**display.env(), "XDG_RUNTIME_DIR": runtime}
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,  # activation chatter
        env=env,
        preexec_fn=_die_with_parent,
    )
    assert daemon.stdout is not None
    address = daemon.stdout.readline().decode().strip()
    assert address.startswith("unix:"), address
    env["DBUS_SESSION_BUS_ADDRESS"] = address
    saved = {k: os.environ.get(k) for k in ("DBUS_SESSION_BUS_ADDRESS", "AT_SPI_BUS_ADDRESS")}
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = address
    os.environ.pop("AT_SPI_BUS_ADDRESS", None)
    try:
        yield env
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        daemon.terminate()
        daemon.wait(timeout=5)
        shutil.rmtree(runtime, ignore_errors=True)


@pytest.fixture(scope="module")
def accessible_app(session_bus: dict[str, str], display, device) -> Iterator[Path]:
    """The sample app with its accessibility tree on the private AT-SPI bus."""
    from clickwright.devices.base import wait_until_stable

    first = read_atspi(timeout=5.0)  # starts the AT-SPI bus on the private session bus
    assert first == [] and "no application" in first.reason, first.reason
    work = Path(tempfile.mkdtemp(prefix="cw-a11y-app-"))
    app = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "clickwright.assets.sample_app",
            "--state-out",
            str(work / "state.json"),
            "--save-dir",
            str(work),
        ],
        env={**session_bus, "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1"},
        cwd=work,
    )
    deadline = time.monotonic() + 30
    while not any(n.name == "Save" for n in read_atspi(timeout=2.0)):
        assert app.poll() is None, "the sample app exited"
        assert time.monotonic() < deadline, "the sample app never showed its tree"
        time.sleep(0.1)
    wait_until_stable(device, timeout=10, quiet=0.5)
    yield work
    app.terminate()
    try:
        app.wait(timeout=5)
    except subprocess.TimeoutExpired:
        app.kill()
    shutil.rmtree(work, ignore_errors=True)


def _window_geometry(display: str, title: str) -> Box:
    env = {**os.environ, "DISPLAY": display}
    wid = subprocess.run(
        ["xdotool", "search", "--name", title], env=env, capture_output=True, text=True
    ).stdout.split()[0]
    out = subprocess.run(
        ["xdotool", "getwindowgeometry", "--shell", wid], env=env, capture_output=True, text=True
    ).stdout
    values = dict(line.split("=", 1) for line in out.split())
    return Box(int(values["X"]), int(values["Y"]), int(values["WIDTH"]), int(values["HEIGHT"]))


@pytest.mark.slow
def test_atspi_reads_the_qt_sample_app(accessible_app: Path, display) -> None:
    times = []
    for _ in range(5):
        tree = read_atspi(timeout=2.0, display=display.name)
        times.append(tree.elapsed)
    assert tree.complete, tree.reason
    print(
        f"\nAT-SPI read of the sample app: {len(tree)} nodes, best {min(times) * 1000:.0f} ms, "
        f"median {sorted(times)[2] * 1000:.0f} ms"
    )

    window = next(n for n in tree if n.role == "frame")
    assert window.box == _window_geometry(display.name, "Clickwright Sample")
    assert window.box == Box(40, 40, 900, 640)  # where sample_app puts it
    save = by_name(tree, "Save", "button")
    assert window.box.contains(save.box) and save.interactive
    assert save.box.w >= 40 and 18 <= save.box.h <= 40
    assert save.box.bottom > window.box.bottom - 80  # the bottom row of the window
    cancel = by_name(tree, "Cancel", "button")
    assert cancel.box.x > save.box.right - 2 and abs(cancel.box.y - save.box.y) <= 2

    name_field = next(n for n in tree if n.kind == "input" and n.name in ("Name:", "Name"))
    assert "editable" in name_field.states
    notifications = by_name(tree, "Enable notifications", "checkbox")
    assert "checked" in notifications.states
    assert "checked" not in by_name(tree, "Accept terms", "checkbox").states
    assert "selected" in by_name(tree, "General", "tab").states
    combo = next(n for n in tree if n.kind == "combo")
    assert combo.value == "Argentina"
    assert all(n.platform == "atspi" and n.ref for n in tree)
    # The Advanced tab's page is hidden: its controls are not read at all.
    assert not any(n.name == "Apply" for n in tree)

    # Clicking the middle of the node's box really presses Save (the box is where it is
    # drawn): the app asks for confirmation in a dialog, whose Yes button the tree shows too.
    click(display.name, save.box)
    deadline = time.monotonic() + 10
    dialog = read_atspi(scope="active")
    while not any(n.name == "Yes" for n in dialog):
        assert time.monotonic() < deadline, "clicking the Save node's box opened no dialog"
        time.sleep(0.05)
        dialog = read_atspi(scope="active")
    yes = by_name(dialog, "Yes", "button")
    assert not any(n.name == "Cancel" for n in dialog)  # only the active (dialog) window
    click(display.name, yes.box)
    state_file = accessible_app / "state.json"
    while not state_file.exists():
        assert time.monotonic() < deadline, "clicking the Yes node's box did not save"
        time.sleep(0.05)
    saved = json.loads(state_file.read_text())
    assert saved["saved_via"] == "button" and saved["notifications"] is True


def click(display: str, box: Box) -> None:
    x, y = box.center
    subprocess.run(
        ["xdotool", "mousemove", str(x), str(y), "click", "1"],
        env={**os.environ, "DISPLAY": display},
        check=True,
    )


@pytest.mark.slow
def test_atspi_filters_by_display_and_scope(accessible_app: Path, display) -> None:
    assert read_atspi(display=":999") == []
    outside = read_atspi(display_box=Box(2000, 2000, 100, 100))
    assert outside == []
    part = read_atspi(display_box=Box(0, 0, 1280, 400))  # the top of the screen only
    assert not any(n.name == "Save" for n in part) and any(n.name == "General" for n in part)
    limited = read_atspi(max_nodes=10)
    assert len(limited) <= 10 and "node limit" in limited.reason


@pytest.mark.slow
def test_atspi_fused_with_pixels(accessible_app: Path, display, device) -> None:
    from clickwright.parsers.screen_parser import ScreenParser

    frame = device.capture()
    screen = ScreenParser().parse(frame)
    start = time.perf_counter()
    tree = read_atspi(display_box=Box(*frame.origin, *frame.size), display=display.name)
    nodes = to_frame(tree, frame.origin, frame.scale)
    fused = fuse_accessibility(list(screen.elements), nodes, frame.size)
    took = time.perf_counter() - start
    print(
        f"\nAT-SPI read + fusion: {took * 1000:.0f} ms ({len(tree)} nodes, "
        f"{len(screen.elements)} pixel elements -> {len(fused)})"
    )
    assert took < 1.0

    save = [e for e in fused if e.text == "Save"]
    assert len(save) == 1
    assert (save[0].kind, save[0].source) == ("button", "merged")
    notifications = next(e for e in fused if e.text == "Enable notifications")
    assert notifications.kind == "checkbox" and "checked" in notifications.state
    assert notifications.source == "merged"
    field = next(e for e in fused if e.kind == "input" and e.name.rstrip(":") == "Name")
    assert field.source == "merged"
    assert [e.id for e in fused] == list(range(len(fused)))
    assert all(isinstance(e, Element) for e in fused)


def test_the_agent_loop_fuses_the_live_tree(accessible_app: Path, device, tmp_path: Path) -> None:
    from clickwright.agent.loop import run_task

    result = run_task("type 'Grace Hopper' into Name, then press Ctrl+S", device, tmp_path)
    assert result.ok, result.reason
    assert json.loads((accessible_app / "state.json").read_text())["name"] == "Grace Hopper"
    elements = json.loads(next(result.run_dir.glob("elements/0001.json")).read_text())
    # Qt's menu bar titles are "menu item"s in its tree; pixels alone read them as menus
    file = next(e for e in elements if e["text"] == "File")
    assert (file["kind"], file["source"]) == ("menuitem", "merged")


# ---- Chromium: its page in the tree, fused with pixels ----------------------------------------

PAGE = (
    "<body style='margin:0;font:13px sans-serif'><nav style='position:absolute;left:0;top:0;"
    "bottom:0;width:160px;padding:12px;background:#f4f4f4'>"
    + "".join(
        f"<a href='#' style='display:block;color:#222;text-decoration:none;padding:6px 0'>{n}</a>"
        for n in ("Overview", "Projects", "Invoices")
    )
    + "</nav><main style='margin-left:200px;padding-top:12px'>"
    "<label><input type=checkbox checked>Only open invoices</label>"
    "<p><button aria-label='Delete'>&#128465;</button></p></main></body>"
)
BROWSER = (
    "chromium", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--force-device-scale-factor=1", "--kiosk", "--window-position=0,0",
    "--window-size=1280,800",
)  # fmt: skip


@pytest.fixture
def browser(session_bus: dict[str, str], tmp_path: Path) -> Iterator:
    """Starts Chromium on the page (through `accessible_launch` unless told not to) and waits
    until its window is in the tree; everything started is stopped afterwards."""
    started: list[subprocess.Popen] = []
    page = tmp_path / "page.html"
    page.write_text(PAGE)

    def start(accessible: bool = True) -> None:
        command = [*BROWSER, f"--user-data-dir={tmp_path}/profile{len(started)}", page.as_uri()]
        env = dict(session_bus)
        if accessible:
            command, env = atspi.accessible_launch(command, env)
        else:
            env["ACCESSIBILITY_ENABLED"] = "1"  # the window, as a desktop with a11y on shows it
        started.append(subprocess.Popen(command, env=env, stderr=subprocess.DEVNULL))
        deadline = time.monotonic() + 30
        while not any(n.name.endswith("Chromium") for n in read_atspi(timeout=2.0)):
            assert time.monotonic() < deadline, "Chromium never showed its window in the tree"
            time.sleep(0.3)

    yield start
    for process in started:
        process.terminate()
        process.wait(timeout=10)


@pytest.mark.slow
def test_chromium_pages_are_in_the_tree_and_fused_with_pixels(browser, device) -> None:
    from clickwright.devices.base import wait_until_stable
    from clickwright.parsers.screen_parser import ScreenParser

    browser()
    deadline = time.monotonic() + 20
    tree = read_atspi(timeout=3)
    while not any(n.role == "document web" and n.box.w for n in tree):
        assert time.monotonic() < deadline, tree.reason
        time.sleep(0.3)
        tree = read_atspi(timeout=3)
    links = {n.name for n in tree if n.kind == "link" and n.visible}
    # all of them: each window's nodes are clipped to that window, not to the last one of
    # the application (Chromium has three)
    assert {"Overview", "Projects", "Invoices"} <= links
    wait_until_stable(device, timeout=10, quiet=0.5)
    frame = device.capture()
    screen = ScreenParser().parse(frame, to_frame(tree, frame.origin, frame.scale))
    by_text = {e.text: e for e in screen.elements}
    assert by_text["Invoices"].kind == "link" and by_text["Invoices"].source in ("merged", "a11y")
    only = by_text["Only open invoices"]
    assert only.kind == "checkbox" and "checked" in only.state
    assert any(e.kind == "button" and "Delete" in (e.text, e.name) for e in screen.elements)


@pytest.mark.slow
def test_a_chromium_without_its_page_tree_says_how_to_get_it(browser) -> None:
    browser(accessible=False)
    time.sleep(2.0)  # Chromium would have built the page's tree by now, were it asked to
    tree = read_atspi(timeout=3)
    assert not any(n.role == "document web" and n.box.w for n in tree)
    assert "--force-renderer-accessibility" in tree.reason
