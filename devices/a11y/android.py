"""Android: the view hierarchy `uiautomator dump` writes, as A11yNodes in screen pixels."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from clickwright.a11y import A11yNode, clean_text, interactive_kind
from clickwright.errors import DeviceError
from clickwright.types import Box, ElementKind

_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_HINT = "dump it again with: adb shell uiautomator dump /sdcard/ui.xml"

# Widget class (last part of the name) -> kind; the most specific match wins, see _kind.
CLASS_KINDS: dict[str, ElementKind] = {
    "Button": "button",
    "MaterialButton": "button",
    "ImageButton": "icon",
    "FloatingActionButton": "icon",
    "EditText": "input",
    "AutoCompleteTextView": "input",
    "MultiAutoCompleteTextView": "input",
    "TextInputEditText": "input",
    "SearchView": "input",
    "SeekBar": "input",
    "NumberPicker": "input",
    "CheckBox": "checkbox",
    "MaterialCheckBox": "checkbox",
    "RadioButton": "radio",
    "MaterialRadioButton": "radio",
    "Switch": "toggle",
    "SwitchCompat": "toggle",
    "SwitchMaterial": "toggle",
    "MaterialSwitch": "toggle",
    "ToggleButton": "toggle",
    "Spinner": "combo",
    "AppCompatSpinner": "combo",
    "Tab": "tab",
    "TabView": "tab",
    "TextView": "text",
    "AppCompatTextView": "text",
    "MaterialTextView": "text",
    "CheckedTextView": "list_item",
    "ImageView": "image",
    "AppCompatImageView": "image",
    "ProgressBar": "text",
}
LISTS = ("ListView", "RecyclerView", "GridView", "ExpandableListView", "AbsListView")


def parse_uiautomator(xml: str) -> list[A11yNode]:
    """Nodes of a `uiautomator dump` (document order), boxes in screen pixels.

    Raises DeviceError for text that is not a hierarchy dump (truncated, empty, HTML...).
    """
    text = (xml or "").strip()
    end = text.rfind("</hierarchy>")
    if end >= 0:
        text = text[: end + len("</hierarchy>")]  # `dump /dev/tty` appends a status line
    if not text:
        raise DeviceError("the uiautomator dump is empty", _HINT)
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        raise DeviceError(f"the uiautomator dump is not valid XML ({exc})", _HINT) from None
    if root.tag != "hierarchy":
        raise DeviceError(f"not a uiautomator dump: the root is <{root.tag}>", _HINT)
    nodes: list[A11yNode] = []
    for child in root.findall("node"):
        _walk(child, [], nodes, in_list=False, depth=0)
    return nodes


def _walk(
    element: ET.Element, ancestors: list[ET.Element], out: list[A11yNode], in_list: bool, depth: int
) -> None:
    node = _node(element, ancestors, in_list, depth)
    if node is not None:
        out.append(node)
    short = element.get("class", "").rpartition(".")[2]
    children = element.findall("node")
    for child in children:
        _walk(child, [*ancestors, element], out, in_list=short in LISTS, depth=depth + 1)


def _node(
    element: ET.Element, ancestors: list[ET.Element], in_list: bool, depth: int
) -> A11yNode | None:
    match = _BOUNDS.fullmatch(element.get("bounds", "").strip())
    if match is None:
        return None  # a node without a place cannot be shown or acted on
    x1, y1, x2, y2 = (int(v) for v in match.groups())
    flag = {
        name: element.get(name, "false") == "true"
        for name in (
            "checkable", "checked", "clickable", "enabled", "focusable", "focused",
            "scrollable", "selected", "password", "long-clickable",
        )
    }  # fmt: skip
    cls = element.get("class", "")
    text = clean_text(element.get("text"))
    desc = clean_text(element.get("content-desc"))
    kind = _kind(cls, flag, in_list, bool(element.findall("node")))
    states = {
        state
        for state, on in (
            ("checked", flag["checked"]),
            ("checkable", flag["checkable"]),
            ("clickable", flag["clickable"] or flag["long-clickable"]),
            ("disabled", not flag["enabled"]),
            ("focusable", flag["focusable"]),
            ("focused", flag["focused"]),
            ("scrollable", flag["scrollable"]),
            ("selected", flag["selected"]),
            ("password", flag["password"]),
            ("offscreen", element.get("visible-to-user", "true") == "false"),
        )
        if on
    }
    if kind == "input":
        name = desc or clean_text(element.get("hint"))
        value = "" if flag["password"] else text
    else:
        name, value = desc or text, ""
        if desc and text and desc != text:
            value = text
    if not name and (flag["clickable"] or flag["checkable"] or kind != "container"):
        name = _nearby_label(element, ancestors)
    return A11yNode(
        role=cls,
        kind=kind,
        name=name,
        box=Box(x1, y1, x2 - x1, y2 - y1),
        states=frozenset(states),
        interactive=interactive_kind(kind) or flag["clickable"] or flag["checkable"],
        value=value,
        platform="android",
        ref=element.get("resource-id", ""),
        depth=depth,
    )


def _kind(cls: str, flag: dict[str, bool], in_list: bool, has_children: bool) -> ElementKind:
    parts = cls.replace("$", ".").split(".")
    for part in reversed(parts):  # "TabLayout$TabView" -> TabView; "ActionBar$Tab" -> Tab
        if part in CLASS_KINDS:
            kind = CLASS_KINDS[part]
            break
    else:
        kind = "container"
    if kind == "text" and flag["checkable"]:
        return "checkbox"
    if kind == "image" and flag["clickable"]:
        return "icon"
    if kind in ("container", "text") and flag["clickable"]:
        return "list_item" if in_list else ("button" if not has_children else "list_item")
    if kind == "container" and in_list and has_children:
        return "list_item"
    return kind


def _nearby_label(element: ET.Element, ancestors: list[ET.Element]) -> str:
    """A nameless control's label: the first text in its own subtree, else in the nearest
    ancestor's (the Wi-Fi switch sits in a row whose title reads "Wi-Fi"); written text comes
    before an icon's description."""
    for scope in [element, *reversed(ancestors[-3:])]:
        inside = [n for n in scope.iter("node") if n is not element or scope is element]
        for attribute in ("text", "content-desc"):
            for inner in inside:
                if inner.get("class", "").endswith("EditText"):
                    continue  # what someone typed is not a label
                label = clean_text(inner.get(attribute))
                if label:
                    return label
    return ""
