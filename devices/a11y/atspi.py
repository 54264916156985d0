"""Linux: read the AT-SPI accessibility tree over D-Bus with jeepney (pure Python).

How the tree is found: the session bus's `org.a11y.Bus.GetAddress` gives the accessibility
bus (started on demand by at-spi-bus-launcher; `AT_SPI_BUS_ADDRESS` overrides it), whose
registry lists the applications; each application's children are its top-level windows.

Speed comes from pipelining: the tree is walked a level at a time, and every question about
every node of a level (role, states, name, extents, children) is sent before any answer is
read, so a level costs one round trip, not five per node. Every wait has the one deadline of
the call; a bus that accepts and never answers costs at most `timeout` seconds.
"""

from __future__ import annotations

import logging
import os
import re
import select
import time
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from itertools import count
from typing import Any, Literal

from clickwright.a11y import (
    A11yNode,
    A11yTree,
    A11yUnavailable,
    clean_text,
    interactive_kind,
)
from clickwright.types import Box, ElementKind

log = logging.getLogger(__name__)

ACCESSIBLE = "org.a11y.atspi.Accessible"
COMPONENT = "org.a11y.atspi.Component"
TEXT = "org.a11y.atspi.Text"
VALUE = "org.a11y.atspi.Value"
PROPERTIES = "org.freedesktop.DBus.Properties"
REGISTRY = "org.a11y.atspi.Registry"
ROOT = "/org/a11y/atspi/accessible/root"
NULL_PATH = "/org/a11y/atspi/null"
COORD_SCREEN = 0
MAX_CHILDREN = 1000  # children read from one node (a table of 100 000 rows would stall us)

# AtspiRole, in enum order (atspi-constants.h); index = the number GetRole returns.
ROLES = (
    "invalid", "accelerator label", "alert", "animation", "arrow", "calendar", "canvas",
    "check box", "check menu item", "color chooser", "column header", "combo box",
    "date editor", "desktop icon", "desktop frame", "dial", "dialog", "directory pane",
    "drawing area", "file chooser", "filler", "focus traversable", "font chooser", "frame",
    "glass pane", "html container", "icon", "image", "internal frame", "label",
    "layered pane", "list", "list item", "menu", "menu bar", "menu item", "option pane",
    "page tab", "page tab list", "panel", "password text", "popup menu", "progress bar",
    "push button", "radio button", "radio menu item", "root pane", "row header",
    "scroll bar", "scroll pane", "separator", "slider", "spin button", "split pane",
    "status bar", "table", "table cell", "table column header", "table row header",
    "tearoff menu item", "terminal", "text", "toggle button", "tool bar", "tool tip", "tree",
    "tree table", "unknown", "viewport", "window", "extended", "header", "footer",
    "paragraph", "ruler", "application", "autocomplete", "editbar", "embedded", "entry",
    "chart", "caption", "document frame", "heading", "page", "section", "redundant object",
    "form", "link", "input method window", "table row", "tree item", "document spreadsheet",
    "document presentation", "document text", "document web", "document email", "comment",
    "list box", "grouping", "image map", "notification", "info bar", "level bar",
    "title bar", "block quote", "audio", "video", "definition", "article", "landmark", "log",
    "marquee", "math", "rating", "timer", "static", "math fraction", "math root",
    "subscript", "superscript", "description list", "description term",
    "description value", "footnote", "content deletion", "content insertion", "mark",
    "suggestion", "push button menu", "switch",
)  # fmt: skip

# AtspiStateType bit numbers of the states we use.
S_ACTIVE, S_CHECKED, S_COLLAPSED, S_EDITABLE, S_ENABLED = 1, 4, 5, 7, 8
S_EXPANDED, S_FOCUSABLE, S_FOCUSED, S_ICONIFIED, S_MODAL = 10, 11, 12, 15, 16
S_MULTI_LINE, S_PRESSED, S_SELECTABLE, S_SELECTED, S_SENSITIVE = 17, 20, 22, 23, 24
S_SHOWING, S_VISIBLE, S_INDETERMINATE, S_REQUIRED, S_IS_DEFAULT = 25, 30, 32, 33, 39
STATE_NAMES = {
    S_ACTIVE: "active",
    S_CHECKED: "checked",
    S_COLLAPSED: "collapsed",
    S_EDITABLE: "editable",
    S_EXPANDED: "expanded",
    S_FOCUSABLE: "focusable",
    S_FOCUSED: "focused",
    S_MODAL: "modal",
    S_MULTI_LINE: "multiline",
    S_PRESSED: "pressed",
    S_SELECTABLE: "selectable",
    S_SELECTED: "selected",
    S_INDETERMINATE: "mixed",
    S_REQUIRED: "required",
    S_IS_DEFAULT: "default",
}

KINDS: dict[str, ElementKind] = {
    **dict.fromkeys(("push button", "push button menu", "button"), "button"),
    **dict.fromkeys(
        ("entry", "password text", "spin button", "editbar", "terminal", "slider", "dial"),
        "input",
    ),
    "check box": "checkbox",
    "radio button": "radio",
    **dict.fromkeys(("toggle button", "switch"), "toggle"),
    "combo box": "combo",
    "menu": "menu",
    **dict.fromkeys(
        ("menu item", "check menu item", "radio menu item", "tearoff menu item"), "menuitem"
    ),
    "page tab": "tab",
    "link": "link",
    **dict.fromkeys(("list item", "table cell", "tree item", "table row"), "list_item"),
    **dict.fromkeys(("icon", "desktop icon"), "icon"),
    **dict.fromkeys(
        (
            "label",
            "static",
            "accelerator label",
            "caption",
            "heading",
            "paragraph",
            "tool tip",
            "notification",
            "progress bar",
            "level bar",
            "column header",
            "table column header",
            "row header",
            "table row header",
            "description term",
            "description value",
            "footnote",
            "definition",
            "block quote",
            "comment",
            "title bar",
            "timer",
            "rating",
            "math",
            "mark",
        ),
        "text",
    ),
    **dict.fromkeys(
        ("image", "animation", "canvas", "drawing area", "chart", "image map", "video"), "image"
    ),
}  # every other role (panel, filler, frame, window, scroll pane, list, table...) is a container


def role_kind(role: str, editable: bool = False) -> ElementKind:
    """The ElementKind of an AT-SPI role name ("text" is a field only when editable)."""
    if role in ("text", "document text", "document frame") and editable:
        return "input"
    if role == "text":
        return "text"
    return KINDS.get(role, "container")


@dataclass(frozen=True)
class _Error:
    name: str


class _Timeout(A11yUnavailable):
    pass


class _Bus:
    """One D-Bus connection whose every wait ends at `deadline`, with pipelined calls."""

    def __init__(self, address: str, deadline: float, what: str) -> None:
        from jeepney import Parser
        from jeepney.bus import get_connectable_addresses
        from jeepney.io.blocking import prep_socket

        self.deadline, self.what = deadline, what
        try:
            path = next(get_connectable_addresses(address))
        except (RuntimeError, ValueError, StopIteration):
            raise A11yUnavailable(f"cannot use the {what} address {address!r}") from None
        where = path.replace("\0", "@")
        try:
            self.sock = prep_socket(path, timeout=max(self._remaining(), 0.001))
        except TimeoutError:
            raise _Timeout(f"the {what} at {where} did not answer the handshake in time") from None
        except OSError as exc:
            reason = exc.strerror or type(exc).__name__
            raise A11yUnavailable(f"cannot connect to the {what} at {where}: {reason}") from None
        self.parser = Parser()
        self.serials = count(1)
        hello = self.call(
            [
                _call(
                    "org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello"
                )
            ]
        )[0]
        if isinstance(hello, _Error):
            raise A11yUnavailable(f"the {what} refused us: {hello.name}")

    def _remaining(self) -> float:
        return self.deadline - time.monotonic()

    def call(self, messages: Sequence[Any]) -> list[Any]:
        """Send all `messages`, then collect their replies: each a body tuple or an _Error."""
        from jeepney import HeaderFields, MessageType

        if not messages:
            return []
        pending: dict[int, int] = {}
        data = bytearray()
        for index, message in enumerate(messages):
            serial = next(self.serials)
            pending[serial] = index
            data += message.serialise(serial=serial)
        self._send(bytes(data))
        results: list[Any] = [None] * len(messages)
        while pending:
            message = self.parser.get_next_message()
            if message is None:
                self._receive()
                continue
            serial = message.header.fields.get(HeaderFields.reply_serial)
            index = pending.pop(serial, None)
            if index is None:
                continue  # a signal, or the answer to a call we gave up on
            if message.header.message_type == MessageType.method_return:
                results[index] = message.body
            else:
                results[index] = _Error(str(message.header.fields.get(HeaderFields.error_name)))
        return results

    def _send(self, data: bytes) -> None:
        view = memoryview(data)
        while view:
            remaining = self._remaining()
            if remaining <= 0:
                raise _Timeout(f"the {self.what} stopped reading our requests")
            self.sock.settimeout(remaining)
            try:
                sent = self.sock.send(view)
            except TimeoutError:
                raise _Timeout(f"the {self.what} stopped reading our requests") from None
            except OSError as exc:
                raise A11yUnavailable(f"the {self.what} went away: {exc.strerror}") from None
            view = view[sent:]

    def _receive(self) -> None:
        remaining = self._remaining()
        ready = select.select([self.sock], [], [], max(remaining, 0))[0] if remaining > 0 else []
        if not ready:
            raise _Timeout(f"no answer from the {self.what} in time")
        try:
            chunk = self.sock.recv(1 << 16)
        except OSError as exc:
            raise A11yUnavailable(f"the {self.what} went away: {exc.strerror}") from None
        if not chunk:
            raise A11yUnavailable(f"the {self.what} closed the connection")
        self.parser.add_data(chunk)

    def close(self) -> None:
        try:
            self.sock.close()
        except OSError:
            pass


def _call(
    bus: str, path: str, interface: str, method: str, sig: str | None = None, body: tuple = ()
) -> Any:
    from jeepney import DBusAddress, new_method_call

    return new_method_call(DBusAddress(path, bus, interface), method, sig, body)


_address_cache: dict[str, str] = {}  # session bus address -> accessibility bus address


def _a11y_address(deadline: float) -> str:
    """The accessibility bus address: $AT_SPI_BUS_ADDRESS, else asked of the session bus."""
    if os.environ.get("AT_SPI_BUS_ADDRESS"):
        return os.environ["AT_SPI_BUS_ADDRESS"]
    session = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    if not session:
        raise A11yUnavailable("no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)")
    if session in _address_cache:
        return _address_cache[session]
    bus = _Bus(session, deadline, "session D-Bus")
    try:
        reply = bus.call([_call("org.a11y.Bus", "/org/a11y/bus", "org.a11y.Bus", "GetAddress")])
    finally:
        bus.close()
    if isinstance(reply[0], _Error):
        raise A11yUnavailable(
            f"no AT-SPI bus on the session D-Bus ({reply[0].name}); install at-spi2-core"
        )
    _address_cache[session] = reply[0][0]
    return reply[0][0]


def _connect(deadline: float) -> _Bus:
    address = _a11y_address(deadline)
    try:
        return _Bus(address, deadline, "AT-SPI bus")
    except A11yUnavailable:
        if _address_cache.pop(os.environ.get("DBUS_SESSION_BUS_ADDRESS", ""), None) is None:
            raise
        return _Bus(_a11y_address(deadline), deadline, "AT-SPI bus")  # the launcher restarted


@dataclass
class _Pending:
    """A node asked about in the current level of the walk."""

    bus: str
    path: str
    order: tuple[int, ...]  # child indices from the window down: document order
    window: int  # which window (of all applications') the node is in
    replies: list[Any] = field(default_factory=list)  # a window's answers, once chosen
    active: bool = False


def _node_questions(item: _Pending) -> list[Any]:
    bus, path = item.bus, item.path
    return [
        _call(bus, path, ACCESSIBLE, "GetRole"),
        _call(bus, path, ACCESSIBLE, "GetState"),
        _call(bus, path, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Name")),
        _call(bus, path, PROPERTIES, "Get", "ss", (ACCESSIBLE, "Description")),
        _call(bus, path, COMPONENT, "GetExtents", "u", (COORD_SCREEN,)),
        _call(bus, path, ACCESSIBLE, "GetChildren"),
    ]  # (Qt answers Properties.Get but not GetAll)


QUESTIONS = 6


def _states(reply: Any) -> set[int]:
    if isinstance(reply, _Error) or not reply:
        return set()
    words = reply[0]
    return {32 * i + bit for i, word in enumerate(words) for bit in range(32) if word >> bit & 1}


def _normal_states(bits: set[int]) -> frozenset[str]:
    states = {STATE_NAMES[b] for b in bits if b in STATE_NAMES}
    if S_ENABLED not in bits and S_SENSITIVE not in bits:
        states.add("disabled")
    if S_SHOWING not in bits or S_VISIBLE not in bits or S_ICONIFIED in bits:
        states.add("offscreen")
    return frozenset(states)


def _variant(reply: Any) -> Any:
    """The value of a Properties.Get answer (a ('s', 'Save') variant), or None."""
    if isinstance(reply, _Error) or not reply:
        return None
    value = reply[0]
    return value[1] if isinstance(value, tuple) and len(value) == 2 else value


def read_atspi(
    display_box: Box | None = None,
    timeout: float = 1.0,
    max_nodes: int = 3000,
    *,
    scope: Literal["all", "active"] = "all",
    display: str | None = None,
) -> A11yTree:
    """Read the accessible nodes of the windows on screen, in screen coordinates.

    display_box: the screen area being captured; windows and nodes outside it are left out.
    scope: "all" showing windows of all applications, or only the "active" (focused) one.
    display: an X display name (":1"); applications started on another display are skipped.
    Never raises and never waits past `timeout`: on failure it returns an empty A11yTree
    whose `reason` says why (no bus, no registry, nothing registered, a hung peer); a walk cut
    short by the time or node limit returns what it read, with the reason.
    """
    start = time.monotonic()
    deadline = start + timeout
    found: list[_Found] = []
    reason = ""
    try:
        bus = _connect(deadline)
        try:
            reason = _walk(bus, found, display_box, max_nodes, scope, display)
        finally:
            bus.close()
    except A11yUnavailable as exc:
        reason = str(exc)
        if isinstance(exc, _Timeout) and found:
            reason = f"time limit of {timeout:g} s reached after {len(found)} nodes ({exc})"
    except Exception as exc:  # a misbehaving application must never break a step
        reason = f"AT-SPI read failed: {type(exc).__name__}: {exc}"
        log.debug("AT-SPI read failed", exc_info=True)
    elapsed = time.monotonic() - start
    found.sort(key=lambda f: f.item.order)  # document order: windows, then depth first
    nodes = [f.node for f in found]
    reason = reason or _browser_without_page(nodes)
    if reason:
        log.info("accessibility tree (AT-SPI): %s", reason)
    return A11yTree(nodes, reason, elapsed)


BROWSER_TITLE = re.compile(r" - (Chromium|Google Chrome|Brave|Microsoft Edge|Vivaldi|Opera)$")
BROWSER_FLAG = "--force-renderer-accessibility"
BROWSER_PROGRAMS = frozenset(
    {"chromium", "chromium-browser", "chrome", "google-chrome", "google-chrome-stable",
     "brave", "brave-browser", "microsoft-edge", "vivaldi", "opera", "electron", "code"}
)  # fmt: skip
ACCESSIBLE_ENV = {  # what toolkits read at start to publish their trees
    "ACCESSIBILITY_ENABLED": "1",  # Chromium, Electron
    "GNOME_ACCESSIBILITY": "1",  # GTK 2 and others through the ATK bridge
    "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1",  # Qt 5 and 6
}


def _browser_without_page(nodes: list[A11yNode]) -> str:
    """Why a Chromium-based browser window holds no page: Chromium builds its page tree only
    when started with --force-renderer-accessibility (or asked by its own settings page), and
    nothing from outside can turn it on later."""
    windows = [n for n in nodes if n.depth == 0 and BROWSER_TITLE.search(n.name)]
    if windows and not any(n.role == "document web" for n in nodes):
        return (
            f"{windows[0].name!r} shows no page in its accessibility tree: start the browser "
            f"with {BROWSER_FLAG}"
        )
    return ""


def accessible_launch(command: list[str], env: dict[str, str]) -> tuple[list[str], dict[str, str]]:
    """`command` and `env` changed so that the program publishes its accessibility tree: the
    toolkit variables set (where not already), and a Chromium-based browser or Electron app
    started with --force-renderer-accessibility, without which its pages have no tree."""
    env = {**ACCESSIBLE_ENV, **env}
    program = os.path.basename(command[0]) if command else ""
    if program in BROWSER_PROGRAMS and BROWSER_FLAG not in command:
        command = [command[0], BROWSER_FLAG, *command[1:]]
    return command, env


@dataclass
class _Found:
    item: _Pending
    node: A11yNode


def _walk(
    bus: _Bus,
    out: list[_Found],
    display_box: Box | None,
    max_nodes: int,
    scope: str,
    display: str | None,
) -> str:
    apps = bus.call([_call(REGISTRY, ROOT, ACCESSIBLE, "GetChildren")])[0]
    if isinstance(apps, _Error):
        return f"the AT-SPI registry did not list applications ({apps.name})"
    apps = [(name, path) for name, path in apps[0] if name and path != NULL_PATH]
    if not apps:
        return (
            "no application has registered with AT-SPI (Qt apps need "
            "QT_LINUX_ACCESSIBILITY_ALWAYS_ON=1 or accessibility enabled in the desktop)"
        )
    if display is not None:
        apps = _on_display(bus, apps, display)
    replies = bus.call([_call(name, path, ACCESSIBLE, "GetChildren") for name, path in apps])
    windows = [
        _Pending(name, path, (a, w), 0)
        for a, reply in enumerate(replies)
        if not isinstance(reply, _Error)
        for w, (name, path) in enumerate(reply[0][:MAX_CHILDREN])
        if path != NULL_PATH
    ]
    for number, window in enumerate(windows):  # an application may show several windows
        window.window = number
    level = windows
    depth = 0
    boxes: dict[int, Box] = {}  # window number -> its box, to clip what it holds
    reason = ""
    while level:
        questions = [q for item in level for q in _node_questions(item)]
        replies = bus.call(questions)
        if depth == 0:
            level = _choose_windows(level, replies, display_box, scope, boxes)[:max_nodes]
            replies = [r for item in level for r in item.replies]
            queued = len(level)  # nodes asked about so far, this level included
        following: list[_Pending] = []
        for i, item in enumerate(level):
            role_r, state_r, name, description, extents, children = replies[
                QUESTIONS * i : QUESTIONS * (i + 1)
            ]
            node, showing = _make_node(item, depth, role_r, state_r, name, description, extents)
            window_box = boxes.get(item.window)
            if node is not None and _inside(node.box, window_box, display_box):
                out.append(_Found(item, node))
            if not showing or isinstance(children, _Error) or not children:
                continue
            for c, (name, path) in enumerate(children[0][:MAX_CHILDREN]):
                if path == NULL_PATH:
                    continue
                if queued >= max_nodes:
                    reason = f"node limit of {max_nodes} reached"
                    break
                queued += 1
                following.append(_Pending(name, path, (*item.order, c), item.window))
        level = following
        depth += 1
    _read_values(bus, out)
    return reason


def _choose_windows(
    windows: list[_Pending],
    replies: list[Any],
    display_box: Box | None,
    scope: str,
    boxes: dict[int, Box],
) -> list[_Pending]:
    """The showing windows on the captured area; only the active one for scope="active"."""
    chosen = []
    for i, window in enumerate(windows):
        answers = replies[QUESTIONS * i : QUESTIONS * i + QUESTIONS]
        bits = _states(answers[1])
        extents = answers[4]
        if S_SHOWING not in bits or S_ICONIFIED in bits or isinstance(extents, _Error):
            continue
        box = Box(*extents[0])
        if display_box is not None and box.intersection(display_box) == 0:
            continue
        window.replies = answers
        window.active = S_ACTIVE in bits
        chosen.append(window)
        boxes[window.window] = box
    if scope == "active" and any(w.active for w in chosen):
        chosen = [w for w in chosen if w.active]
    return chosen


def _make_node(
    item: _Pending,
    depth: int,
    role_r: Any,
    state_r: Any,
    name: Any,
    description: Any,
    extents: Any,
) -> tuple[A11yNode | None, bool]:
    """The node for one set of answers, and whether its children are worth reading."""
    if isinstance(role_r, _Error) or isinstance(state_r, _Error):
        return None, False  # gone (destroyed while we walked) or not accessible after all
    role_number = role_r[0]
    role = ROLES[role_number] if role_number < len(ROLES) else f"role {role_number}"
    bits = _states(state_r)
    showing = S_SHOWING in bits and S_VISIBLE in bits
    if isinstance(extents, _Error):
        box = Box(0, 0, 0, 0)
    else:
        box = Box(*(int(v) for v in extents[0]))
    states = _normal_states(bits)
    kind = role_kind(role, S_EDITABLE in bits)
    if kind in ("input", "combo") and S_EDITABLE in bits and "password" in role:
        states |= {"password"}
    interactive = interactive_kind(kind) or (
        S_FOCUSABLE in bits and kind not in ("container", "text", "image")
    )
    node = A11yNode(
        role=role,
        kind=kind,
        name=clean_text(_variant(name)),
        box=box,
        states=states,
        interactive=interactive,
        description=clean_text(_variant(description)),
        platform="atspi",
        ref=f"{item.bus}:{item.path}",
        depth=depth,
    )
    return node, showing and box.w > 0 and box.h > 0


def _inside(box: Box, window: Box | None, display_box: Box | None) -> bool:
    """A node is kept when some of it is on the captured area and inside its window."""
    if box.w <= 0 or box.h <= 0:
        return True  # kept with its states; fusion drops what has no size
    for area in (window, display_box):
        if area is not None and box.intersection(area) == 0:
            return False
    return True


def _read_values(bus: _Bus, found: list[_Found]) -> None:
    """Fill in what fields hold: the text of entries and combo boxes, spin box numbers."""
    wanted = [
        f
        for f in found
        if f.node.kind in ("input", "combo") and f.node.visible and "password" not in f.node.states
    ]
    questions = []
    for f in wanted:
        bus_name, path = f.item.bus, f.item.path
        questions.append(_call(bus_name, path, TEXT, "GetText", "ii", (0, -1)))
        questions.append(_call(bus_name, path, PROPERTIES, "Get", "ss", (VALUE, "CurrentValue")))
    replies = bus.call(questions)
    for k, f in enumerate(wanted):
        text, number = replies[2 * k], replies[2 * k + 1]
        value = ""
        if not isinstance(text, _Error) and text and text[0]:
            value = clean_text(text[0])
        elif (raw := _variant(number)) is not None:
            value = f"{raw:g}" if isinstance(raw, float) else str(raw)
        if value:
            f.node = replace(f.node, value=value)
        elif f.node.kind == "combo" and f.node.name:
            # Qt and GTK name a combo box after its current choice: that is its value.
            f.node = replace(f.node, value=f.node.name, name="")


def _on_display(bus: _Bus, apps: list[tuple[str, str]], display: str) -> list[tuple[str, str]]:
    """The applications whose process shows on X display `display` (unknown ones are kept)."""
    replies = bus.call(
        [
            _call(
                "org.freedesktop.DBus",
                "/org/freedesktop/DBus",
                "org.freedesktop.DBus",
                "GetConnectionUnixProcessID",
                "s",
                (name,),
            )
            for name, _ in apps
        ]
    )
    wanted = _display_number(display)
    kept = []
    for app, reply in zip(apps, replies, strict=True):
        if isinstance(reply, _Error):
            kept.append(app)
            continue
        shown_on = _process_display(int(reply[0]))
        if shown_on is None or _display_number(shown_on) == wanted:
            kept.append(app)
    return kept


def _process_display(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/environ", "rb") as env:
            for entry in env.read().split(b"\0"):
                if entry.startswith(b"DISPLAY="):
                    return entry[8:].decode(errors="replace")
    except OSError:
        return None
    return None


def _display_number(display: str) -> str:
    """':1.0' and 'localhost:1' -> '1'."""
    return display.rpartition(":")[2].split(".")[0]


def enable_accessibility(timeout: float = 1.0) -> str:
    """Ask toolkits to expose their trees (sets org.a11y.Status.IsEnabled on the session bus,
    as screen readers do); running Qt and GTK applications follow the change. Returns "" on
    success, else the reason."""
    session = os.environ.get("DBUS_SESSION_BUS_ADDRESS", "")
    if not session:
        return "no session D-Bus (DBUS_SESSION_BUS_ADDRESS is not set)"
    try:
        bus = _Bus(session, time.monotonic() + timeout, "session D-Bus")
    except A11yUnavailable as exc:
        return str(exc)
    try:
        reply = bus.call(
            [
                _call(
                    "org.a11y.Bus",
                    "/org/a11y/bus",
                    PROPERTIES,
                    "Set",
                    "ssv",
                    ("org.a11y.Status", "IsEnabled", ("b", True)),
                )
            ]
        )[0]
    except A11yUnavailable as exc:
        return str(exc)
    finally:
        bus.close()
    return reply.name if isinstance(reply, _Error) else ""


__all__ = ["read_atspi", "enable_accessibility", "accessible_launch", "role_kind", "ROLES"]
