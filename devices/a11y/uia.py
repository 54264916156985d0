"""Windows: UI Automation trees as A11yNodes.

`uia_to_nodes` converts a snapshot — nested dicts as `snapshot_uia` records them, with the
property names of the `uiautomation` package (ControlTypeName, Name, BoundingRectangle,
IsEnabled, IsOffscreen, HasKeyboardFocus, ToggleState, SelectionItemIsSelected, Value,
AutomationId, ClassName, Children) — so it is testable anywhere; `read_uia` takes a snapshot of
the live desktop and imports `uiautomation` only when called, on Windows.
"""

from __future__ import annotations

import logging
import sys
import time
from typing import Any

from clickwright.a11y import (
    A11yNode,
    A11yTree,
    A11yUnavailable,
    clean_text,
    interactive_kind,
)
from clickwright.types import Box, ElementKind

log = logging.getLogger(__name__)

CONTROL_KINDS: dict[str, ElementKind] = {
    "Button": "button",
    "SplitButton": "button",
    "Edit": "input",
    "Document": "input",
    "Spinner": "input",
    "Slider": "input",
    "CheckBox": "checkbox",
    "RadioButton": "radio",
    "ComboBox": "combo",
    "Menu": "menu",
    "MenuItem": "menuitem",
    "TabItem": "tab",
    "Hyperlink": "link",
    "ListItem": "list_item",
    "DataItem": "list_item",
    "TreeItem": "list_item",
    "Text": "text",
    "HeaderItem": "text",
    "ToolTip": "text",
    "ProgressBar": "text",
    "Image": "image",
}  # Window, Pane, Group, List, Tree, Table, DataGrid, ToolBar, MenuBar, Tab... are containers

# UIA_*ControlTypeId numbers, for snapshots that record the id instead of the name.
CONTROL_IDS = {
    50000: "Button", 50001: "Calendar", 50002: "CheckBox", 50003: "ComboBox", 50004: "Edit",
    50005: "Hyperlink", 50006: "Image", 50007: "ListItem", 50008: "List", 50009: "Menu",
    50010: "MenuBar", 50011: "MenuItem", 50012: "ProgressBar", 50013: "RadioButton",
    50014: "ScrollBar", 50015: "Slider", 50016: "Spinner", 50017: "StatusBar", 50018: "Tab",
    50019: "TabItem", 50020: "Text", 50021: "ToolBar", 50022: "ToolTip", 50023: "Tree",
    50024: "TreeItem", 50025: "Custom", 50026: "Group", 50027: "Thumb", 50028: "DataGrid",
    50029: "DataItem", 50030: "Document", 50031: "SplitButton", 50032: "Window",
    50033: "Pane", 50034: "Header", 50035: "HeaderItem", 50036: "Table", 50037: "TitleBar",
    50038: "Separator", 50039: "SemanticZoom", 50040: "AppBar",
}  # fmt: skip
TOGGLE_STATES = {0: "off", 1: "on", 2: "mixed", "off": "off", "on": "on", "indeterminate": "mixed"}


def uia_to_nodes(tree: dict[str, Any], max_nodes: int = 3000) -> list[A11yNode]:
    """A UI Automation snapshot (one element dict with nested "Children") as nodes in
    document order, boxes in screen pixels. Raises ValueError when it is not such a dict."""
    if not isinstance(tree, dict):
        raise ValueError(f"a UI Automation snapshot is a dict, not {type(tree).__name__}")
    out: list[A11yNode] = []
    stack: list[tuple[dict[str, Any], int]] = [(tree, 0)]
    while stack and len(out) < max_nodes:
        element, depth = stack.pop()
        node = _node(element, depth)
        if node is not None:
            out.append(node)
        children = element.get("Children") or []
        stack.extend((c, depth + 1) for c in reversed(children) if isinstance(c, dict))
    return out


def control_type(element: dict[str, Any]) -> str:
    """'ButtonControl', 'Button' or 50000 -> 'Button'."""
    raw = element.get("ControlTypeName", element.get("ControlType", ""))
    if isinstance(raw, int):
        return CONTROL_IDS.get(raw, f"control {raw}")
    name = str(raw)
    return name[: -len("Control")] if name.endswith("Control") else name


def _node(element: dict[str, Any], depth: int) -> A11yNode | None:
    box = _box(element.get("BoundingRectangle"))
    if box is None:
        return None
    control = control_type(element)
    toggle = TOGGLE_STATES.get(_lower(element.get("ToggleState")))
    kind = CONTROL_KINDS.get(control, "container")
    if control == "Button" and toggle is not None:
        kind = "toggle"  # a button with the Toggle pattern
    if control == "Document" and element.get("IsReadOnly", element.get("ValueIsReadOnly")):
        kind = "text"
    states = set()
    if toggle in ("on", "mixed"):
        states.add("checked" if toggle == "on" else "mixed")
    if toggle is not None:
        states.add("checkable")
    for key, state in (
        ("SelectionItemIsSelected", "selected"),
        ("HasKeyboardFocus", "focused"),
        ("IsKeyboardFocusable", "focusable"),
        ("IsOffscreen", "offscreen"),
        ("IsPassword", "password"),
    ):
        if element.get(key):
            states.add(state)
    if element.get("IsEnabled", True) is False:
        states.add("disabled")
    expand = _lower(element.get("ExpandCollapseState"))
    if expand in (1, "expanded"):
        states.add("expanded")
    elif expand in (0, "collapsed"):
        states.add("collapsed")
    value = "" if "password" in states else clean_text(element.get("Value", ""))
    return A11yNode(
        role=f"{control}Control",
        kind=kind,
        name=clean_text(element.get("Name", "")),
        box=box,
        states=frozenset(states),
        interactive=interactive_kind(kind),
        value=value,
        description=clean_text(element.get("HelpText", "")),
        platform="uia",
        ref=str(element.get("AutomationId", "")),
        depth=depth,
    )


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _box(rect: Any) -> Box | None:
    """[left, top, right, bottom], {"left":…} or {"x":…, "width":…} -> Box."""
    try:
        if isinstance(rect, dict):
            if "width" in rect:
                return Box(int(rect["x"]), int(rect["y"]), int(rect["width"]), int(rect["height"]))
            left, top, right, bottom = (rect[k] for k in ("left", "top", "right", "bottom"))
        elif isinstance(rect, list | tuple) and len(rect) == 4:
            left, top, right, bottom = rect
        else:
            return None
        return Box(
            int(left), int(top), max(0, int(right) - int(left)), max(0, int(bottom) - int(top))
        )
    except (KeyError, TypeError, ValueError):
        return None


def read_uia(timeout: float = 1.0, max_nodes: int = 3000, foreground: bool = True) -> A11yTree:
    """The live UI Automation tree of the foreground window (or the whole desktop), as nodes.

    Never raises: elsewhere than Windows, without the `uiautomation` package, or when the
    walk fails, the A11yTree is empty and `reason` says why.
    """
    start = time.monotonic()
    try:
        snapshot = snapshot_uia(timeout, max_nodes, foreground)
        nodes = uia_to_nodes(snapshot, max_nodes)
        reason = snapshot.get("_reason", "")
    except A11yUnavailable as exc:
        nodes, reason = [], str(exc)
    except Exception as exc:  # COM errors from a dying window must not end a step
        nodes, reason = [], f"UI Automation read failed: {type(exc).__name__}: {exc}"
    if reason:
        log.info("accessibility tree (UI Automation): %s", reason)
    return A11yTree(nodes, reason, time.monotonic() - start)


def snapshot_uia(timeout: float, max_nodes: int, foreground: bool = True) -> dict[str, Any]:
    """Record the live tree as the dicts `uia_to_nodes` reads (Windows only)."""
    if sys.platform != "win32":
        raise A11yUnavailable("UI Automation exists only on Windows")
    try:
        import uiautomation as auto  # noqa: PLC0415 - Windows-only, imported on use
    except ImportError:
        raise A11yUnavailable("the uiautomation package is not installed") from None
    deadline = time.monotonic() + timeout
    root = auto.GetForegroundControl() if foreground else auto.GetRootControl()
    if root is None:
        raise A11yUnavailable("no foreground window")
    count = 0
    reason = ""

    def record(control: Any, depth: int) -> dict[str, Any]:
        nonlocal count, reason
        count += 1
        rect = control.BoundingRectangle
        item: dict[str, Any] = {
            "ControlTypeName": control.ControlTypeName,
            "Name": control.Name,
            "AutomationId": control.AutomationId,
            "ClassName": control.ClassName,
            "BoundingRectangle": [rect.left, rect.top, rect.right, rect.bottom],
            "IsEnabled": control.IsEnabled,
            "IsOffscreen": control.IsOffscreen,
            "HasKeyboardFocus": control.HasKeyboardFocus,
        }
        for getter, key, attribute in (
            ("GetTogglePattern", "ToggleState", "ToggleState"),
            ("GetSelectionItemPattern", "SelectionItemIsSelected", "IsSelected"),
            ("GetValuePattern", "Value", "Value"),
        ):
            try:
                pattern = getattr(control, getter)()
                if pattern is not None:
                    item[key] = getattr(pattern, attribute)
            except Exception:  # noqa: S112 - a control without the pattern
                continue
        children = []
        if not item["IsOffscreen"]:
            for child in control.GetChildren():
                if count >= max_nodes:
                    reason = f"node limit of {max_nodes} reached"
                    break
                if time.monotonic() > deadline:
                    reason = f"time limit of {timeout:g} s reached after {count} nodes"
                    break
                children.append(record(child, depth + 1))
        item["Children"] = children
        return item

    with auto.UIAutomationInitializerInThread():
        snapshot = record(root, 0)
    snapshot["_reason"] = reason
    return snapshot
