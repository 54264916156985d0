"""Merge OCR text boxes and detected widgets into the numbered Elements the agent reads.

OCR knows what is written, widget detection knows what can be clicked; neither alone tells the
agent that "Save" is a button or which line edit is "Email". Fusion puts each text where it
belongs: inside a button (the button's label), beside a check box (the check box's label),
inside a line edit (its value), left of or above a line edit (its name), or on its own.
When the platform has an accessibility tree, `fuse_accessibility` then folds it in: the tree's
roles, names and states win, and the pixels keep what the tree does not know.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from clickwright.parsers.links import nav_bar
from clickwright.parsers.menus import lines_of, menu_bar
from clickwright.parsers.widgets import FIELD_FRAME, Widget
from clickwright.types import INTERACTIVE_KINDS, Box, Element

if TYPE_CHECKING:
    from clickwright.a11y import A11yNode

TOGGLES = ("checkbox", "radio")
LABELLED = (*TOGGLES, "toggle")
"""Controls named by the text beside them (a switch too: "[o ] Yearly", "Dark mode [o ]")."""
FIELDS = ("input", "combo")  # widgets that take a name from a label beside or above them
CONTAINERS = ("container", "image")
LABEL_GAP = 250  # farthest a label may sit left of its field, in pixels
ABOVE_REACH = 3  # field heights right of a field's left edge its label above may start
TOGGLE_GAP = 2.0  # farthest a toggle's label may start, in toggle widths right of it
LOOKALIKES = frozenset("口回□厂OoQ0DCVvLJ2")  # what OCR reads a check box or radio glyph as
# ("2": Tk's diamond)
LEADING_ICON = 18  # px: a named icon this large at the start of a text is no letter of it
ICON_SLACK = 3  # px
LARGE_TOGGLE = 20  # px: a "toggle" this large that OCR reads as a letter is a tool button
SPLIT_SLACK = 0.15  # how far (share of a line) a toggle may sit from the space it splits at
LINE = 24  # a typical line height in pixels: the most of an item's height that sets its row
BAR_GAP = 1.5  # characters' widths between two phrases in one field that make it a bar
BANNER_WORDS = 7  # a "button" saying this many words is a band holding a sentence
HANG = 8  # px: the farthest a menu's first item starts below the title that opened it

_T = TypeVar("_T")


@dataclass(frozen=True)
class TextBox:
    """One OCR result: a line or phrase of text and its box in frame pixels."""

    box: Box
    text: str
    score: float


def fuse(
    texts: list[TextBox], widgets: list[Widget], rows: list[Element] | None = None
) -> list[Element]:
    """Merge OCR text and widgets into Elements in reading order (rows top to bottom, each row
    left to right), with ids 0..n-1.

    `rows` are list rows found on the frame (`rows.find_rows`): they are added with the text of
    what they hold, and a check box or radio inside one keeps its own small box (a row's label
    selects the row, not the check box), named after its label, which stays a text of its own.
    """
    rows = [r for r in rows or [] if not _in_cell(r, widgets)]
    widgets = [_selected_row(w, rows) for w in widgets]
    splitting = [w for w in widgets if w.kind in LABELLED + FIELDS + ("button",)]
    texts = _split_at_widgets(texts, splitting)
    menus = {id(texts[i]): title for i, title in menu_bar(texts).items()}
    widgets = [_as_icon_button(w, texts) for w in widgets]
    texts = [_after_leading_icon(t, widgets) for t in texts]
    icons = [w.box for w in widgets if w.kind == "icon"]
    kept = [
        w for w in widgets if not _glyph_in_text(w, texts) and not _icon_in_word(w, texts, icons)
    ]
    kept = [_as_tile_button(w, texts) for w in kept if not _is_row(w, rows)]
    widgets = as_bars(kept, texts)
    bars = [
        w.box
        for w, original in zip(widgets, kept, strict=True)
        if w.kind != original.kind
        and not any(w.box.iou(r.box) >= 0.5 for r in rows)
        and sum(w.box.contains_point(*r.box.center) for r in rows) < 2
    ]  # a selected list row, or a list's section, looks like a bar: its texts are no menus
    hosts = [w for w in widgets if w.kind not in LABELLED + CONTAINERS]
    inside: dict[int, list[TextBox]] = {}  # widget index in `hosts` -> texts within it
    free: list[TextBox] = []
    for text, host in zip(
        texts, hosts_of([t.box for t in texts], [w.box for w in hosts]), strict=True
    ):
        if host is None:
            free.append(text)
        else:
            inside.setdefault(host, []).append(text)

    parts: list[Element] = []
    listed: list[Element] = []  # the lines of boxes holding a list, one item each
    toggles = [w for w in widgets if w.kind in LABELLED]
    icons = [w.box for w in widgets if w.kind == "icon"]
    free = [t for t in free if not _is_toggle_glyph(t, toggles) and not _over_icons(t, icons)]
    for toggle, label in _pair_toggles(toggles, free):
        in_row = any(row.box.contains(toggle.box, slack=2) for row in rows)
        if label is None:
            name = "" if in_row else _left_label(toggle.box, free, widgets)
            parts.append(replace(_widget_element(toggle), name=name or toggle.name))
            continue
        label_text = _strip_glyph(label, toggle.box)
        if in_row:
            free[free.index(label)] = replace(label, text=label_text)
        else:
            free.remove(label)
        parts.append(
            Element(
                id=0,
                box=toggle.box if in_row else toggle.box.union(label.box),
                kind=toggle.kind,
                text="" if in_row else label_text,
                name=label_text if in_row else "",
                source="merged",
                score=min(toggle.score, label.score),
                interactive=True,
                state=toggle.state,
            )
        )

    panels = [w.box for w in widgets if w.kind in ("container", "list_item")] + [r.box for r in rows]
    names = _name_fields([(i, w) for i, w in enumerate(hosts) if w.kind in FIELDS], free, panels)
    for index, widget in enumerate(hosts):
        contents = _reading_order(inside.get(index, []), lambda t: t.box)
        if widget.kind == "list_item":  # a cell's reading of its check box or icons
            marks = icons + [t.box for t in toggles]
            contents = [
                t
                for t in contents
                if not (is_glyph(t.text) and any(t.box.intersection(m) for m in marks))
            ]
        if widget.kind == "icon" and widget.name:  # OCR's reading of the picture ("a", "☆")
            contents = [t for t in contents if not is_glyph(t.text)]
        if "slider" in widget.state:  # its knob read as a letter or digit ("0", "O", "7")
            contents = [t for t in contents if len(t.text.strip()) > 1]
        if "multiline" in widget.state:  # its resize grip read as a glyph
            x, y = widget.box.right - widget.box.h / 3, widget.box.bottom - widget.box.h / 3
            contents = [
                t for t in contents if not (is_glyph(t.text) and t.box.x >= x and t.box.y >= y)
            ]
        buttons = _window_buttons(widget, contents)
        if widget.kind == "combo" and not buttons:
            arrow = widget.box.right - 1.5 * widget.box.h  # read as "V" or "▼": no value
            contents = [t for t in contents if not (is_glyph(t.text) and t.box.x >= arrow)]
        name = names.get(index, "")
        in_rows = all(any(r.box.contains_point(*t.box.center) for r in rows) for t in contents)
        listing = widget.kind in ("input", "list_item") or in_rows or len(lines_of(contents)) >= 3
        if _stacked(contents) and listing and not _scrolled_text(widget, contents):
            items = [] if in_rows else contents  # the rows found are its items
            as_list = replace(widget, kind="input") if widget.kind == "button" else widget
            elements = _list_elements(as_list, items, name)
            parts.extend(e for e in elements if e.kind != "list_item")
            listed.extend(e for e in elements if e.kind == "list_item")
            free.extend(contents if in_rows else [])
            continue
        if buttons:  # a title bar: its title, and its window buttons
            parts.append(replace(_widget_element(widget), kind="container", interactive=False))
            parts.extend(
                _glyph_button(t, widget.box, name)
                for t, name in zip(buttons, WINDOW_BUTTONS, strict=False)
            )
            free.extend(t for t in contents if t not in buttons)
            continue
        text = " ".join(t.text for t in contents)
        if not text and not name:
            parts.append(_widget_element(widget))
            continue
        if widget.kind == "button" and len(text.split()) >= BANNER_WORDS:
            parts.append(replace(_widget_element(widget), kind="container", interactive=False))
            free.extend(contents)  # a sentence on a coloured band: an info bar, no button
            continue
        parts.append(
            Element(
                id=0,
                box=widget.box,
                kind=widget.kind,
                text=text,
                source="merged",
                score=min([widget.score] + [t.score for t in contents]),
                interactive=True,
                name=name or widget.name,
                state=widget.state,
            )
        )

    parts.extend(_widget_element(w) for w in widgets if w.kind in CONTAINERS)
    outside = [t for t in free if not any(r.box.contains_point(*t.box.center) for r in rows)]
    navigation = {id(outside[i]) for i in nav_bar(outside) if id(outside[i]) not in menus}
    strips = _tab_strips(bars, [w.box for w in widgets if w.kind == "container"], free)
    parts.extend(_free_text(t, bars, menus.get(id(t)), id(t) in navigation, strips) for t in free)
    found = [
        r for r in (_row_text(row, parts) for row in rows) if r.text or not _in_field(r, parts)
    ]
    found += listed
    return numbered(parts + _opened(found, parts))


SCRIPT_SHARE = 0.8  # share of a frame's letters in other scripts above which CJK ones are stray


def without_stray_glyphs(texts: Sequence[TextBox]) -> tuple[TextBox, ...]:
    """Drop the CJK characters on a screen written in another script: the multilingual OCR's
    reading of an icon (a file's page as "首", a spinner as "光", a post's faint "…" as
    "e业号"). A text that is nothing more goes; a word read with one ("Massa. 额") keeps the
    word. Letters are counted, not texts: a feed of icons has many such readings."""
    letters = [c for t in texts for c in t.text if c.isalnum()]
    if not letters or sum(map(_is_cjk, letters)) > (1 - SCRIPT_SHARE) * len(letters):
        return tuple(texts)
    kept = []
    for text in texts:
        rest = "".join(c for c in text.text if not _is_cjk(c)).strip()
        if rest == text.text:
            kept.append(text)
        elif not is_glyph(rest):
            kept.append(replace(text, text=rest))
    return tuple(kept)


def _is_cjk(character: str) -> bool:
    return unicodedata.east_asian_width(character) in ("W", "F") and character.isalpha()


def _opened(rows: list[Element], parts: list[Element]) -> list[Element]:
    """Rows of a list that hangs from a menu bar's title or a drop-down are the menu's or the
    drop-down's items (`menuitem`), each reading its label (its first text, without the
    shortcut key beside it)."""
    openers = [p.box for p in parts if p.kind in ("menu", "combo")]
    opened = list(rows)
    for members in lists_of(rows):
        top = min(members, key=lambda i: rows[i].box.y)
        first = rows[top].box
        if not any(_hangs_from(first, opener) for opener in openers):
            continue
        for i in members:
            row = rows[i]
            cells = sorted(
                (p for p in parts if p.kind == "text" and row.box.contains_point(*p.box.center)),
                key=lambda p: p.box.x,
            )
            opened[i] = replace(row, kind="menuitem", text=cells[0].text if cells else row.text)
    return opened


def lists_of(rows: list[Element]) -> list[list[int]]:
    """The rows grouped into lists (indices): rows of one list start and end at one x."""
    lists: dict[tuple[int, int], list[int]] = {}
    for index, row in enumerate(rows):
        key = next(
            (k for k in lists if abs(k[0] - row.box.x) <= 4 and abs(k[1] - row.box.right) <= 4),
            (row.box.x, row.box.right),
        )
        lists.setdefault(key, []).append(index)
    return list(lists.values())


def _hangs_from(first: Box, opener: Box) -> bool:
    """A list whose first row is just below `opener`, across from it: the list it opened."""
    below = first.y - opener.bottom
    across = min(first.right, opener.right) - max(first.x, opener.x)
    return -2 <= below <= min(HANG, first.h / 2) and across >= 0.5 * min(opener.w, first.w)


def _in_cell(row: Element, widgets: list[Widget]) -> bool:
    """A "row" inside one cell of a table with columns (what the cells of a column hold,
    stacked): the cell stands for it. (A one-column stack of cells is a list's rows.)"""
    cells = [w.box for w in widgets if w.kind == "list_item"]
    return any(
        cell.contains(row.box, slack=3) and any(_beside(cell, other) for other in cells)
        for cell in cells
    )


def _beside(a: Box, b: Box) -> bool:
    """`b` continues `a` to the left or right, tops level: the next cell of a table row."""
    return abs(a.y - b.y) <= 2 and (abs(b.x - a.right) <= 2 or abs(a.x - b.right) <= 2)


def _is_row(widget: Widget, rows: list[Element]) -> bool:
    """A field, button, cell or band that is one of the rows found (a selected row drawn like a
    field or as a highlight's band, a one-column table's cell): the row stands for it."""
    return widget.kind in ("input", "button", "combo", "list_item", "container") and any(
        widget.box.iou(r.box) >= 0.5 for r in rows
    )


def _row_text(row: Element, parts: list[Element]) -> Element:
    """A list row carries the texts of its cells, left to right."""
    cells = sorted(
        (p for p in parts if p.kind in ("text", "link") and row.box.contains_point(*p.box.center)),
        key=lambda p: p.box.x,
    )
    return replace(row, text=" ".join(c.text for c in cells))


def _in_field(row: Element, parts: list[Element]) -> bool:
    """A row with no text of its own across a field: a text area's line."""
    return any(
        p.kind == "input"
        and p.box.y <= row.box.center[1] <= p.box.bottom
        and p.box.x < row.box.right
        and row.box.x < p.box.right
        for p in parts
    )


def numbered(elements: list[Element]) -> list[Element]:
    """The elements in reading order, with ids 0..n-1."""
    return [replace(e, id=i) for i, e in enumerate(_reading_order(elements, lambda e: e.box))]


def unfused(texts: list[TextBox], widgets: list[Widget]) -> list[Element]:
    """Texts and widgets side by side, each on its own, in reading order: what a parse still
    shows when fusing them failed."""
    return numbered([_widget_element(w) for w in widgets] + [_free_text(t, []) for t in texts])


# ---- accessibility ------------------------------------------------------------------------

A11Y_STATES = frozenset({"checked", "selected", "focused", "disabled"})
TEXT_KINDS = ("text",)
SAME_BOX = 0.6  # IoU at which a tree container and a pixel element are one thing
HELD = 0.6  # share of a pixel element that must lie in a node for the node to explain it


def _selected_row(widget: Widget, rows: list[Element]) -> Widget:
    """A field lined up with the list's rows and touching one is the list's selected row (a
    side navigation's current entry, on a tint with an accent edge), not a text box."""
    if widget.kind != "input" or "multiline" in widget.state:
        return widget
    box = widget.box
    for row in (r.box for r in rows):
        lined_up = abs(row.x - box.x) <= ROW_SLACK and abs(row.right - box.right) <= ROW_SLACK
        touching = -ROW_SLACK <= row.y - box.bottom <= ROW_SLACK or (
            -ROW_SLACK <= box.y - row.bottom <= ROW_SLACK
        )
        if lined_up and touching and abs(row.h - box.h) <= row.h / 3:
            return replace(widget, kind="list_item", state=widget.state | {"selected"})
    return widget


ROW_SLACK = 5
"""Pixels a list's selected row may stand out from its neighbours' edges (an accent border)."""


def fuse_accessibility(
    elements: list[Element],
    nodes: list[A11yNode],
    frame_size: tuple[int, int] | None = None,
) -> list[Element]:
    """Merge an accessibility tree into parsed elements; ids 0..n-1 in reading order.

    `nodes` must already be in frame pixels (see `clickwright.a11y.to_frame`). Each
    pixel element is explained by the smallest node that holds it and can be it (a text by a
    label or a control, a widget by a control, a panel by a container); such a node becomes
    one element with the tree's role, name, value and states (source "merged"). Named or
    actionable nodes no pixel matched are added (source "a11y"); text the tree lacks (canvas,
    images, web content) and widgets nothing names are kept as they were. Hidden, offscreen
    and zero-size nodes, and containers that explain nothing, are left out.
    """
    usable = _usable_nodes(nodes, frame_size)
    owner: dict[int, list[Element]] = {}
    kept: list[Element] = []
    for element in elements:
        index = _explaining_node(element, usable)
        if index is None:
            kept.append(element)
        else:
            owner.setdefault(index, []).append(element)

    merged = [_merged_element(usable[i], held) for i, held in sorted(owner.items())]
    parts = kept + merged
    field_names = {_label_key(e.name) for e in parts if e.name}
    for index, node in enumerate(usable):
        if index in owner or not _worth_adding(node, field_names):
            continue
        element = _a11y_element(node)
        if any(_same_thing(element, other) for other in parts):
            continue
        parts.append(element)
    return numbered(_labelled(parts))


def _labelled(elements: list[Element]) -> list[Element]:
    """Fields the tree left nameless (GTK's sliders) take the label beside or above them, as
    in the pixels alone."""
    fields = [
        (i, Widget(e.box, e.kind, e.score))
        for i, e in enumerate(elements)
        if e.kind in FIELDS and not e.name
    ]
    labels = [TextBox(e.box, e.text, e.score) for e in elements if e.kind == "text" and e.text]
    names = _name_fields(fields, labels)
    return [replace(e, name=names[i]) if i in names else e for i, e in enumerate(elements)]


CLIPPING_ROLES = frozenset(
    {
        "scroll pane", "viewport", "tree", "table", "tree table", "list", "list box",  # AT-SPI
        "ScrollViewerControl", "ListControl", "TreeControl", "DataGridControl", "TableControl",
        "android.widget.ScrollView", "android.widget.ListView",
        "androidx.recyclerview.widget.RecyclerView",
    }
)  # fmt: skip
SHOWN = 0.5  # share of a node's box that must show for it to be on the screen


def drawn_nodes(
    nodes: Sequence[A11yNode], frame_size: tuple[int, int] | None = None
) -> list[tuple[A11yNode, Box]]:
    """The visible nodes drawn on the frame, each with the part of its box that shows: cut to
    the frame and to the scrolled views holding it (a row scrolled half out of its list), and
    none mostly under a window that comes later in the tree and shows something (a popup, a
    window over another; the readers list windows back to front; a browser's empty helper
    windows cover nothing). `nodes` in document order, with their depths."""
    frame = Box(0, 0, *frame_size) if frame_size else None
    windows: list[Box] = []
    filled: set[int] = set()  # windows holding a visible text, control or picture
    for node in nodes:
        if node.depth == 0 and node.kind == "container" and node.visible:
            windows.append(node.box)
        elif windows and node.visible and node.kind != "container":
            filled.add(len(windows) - 1)
    windows = [box if i in filled else Box(0, 0, 0, 0) for i, box in enumerate(windows)]
    clips: list[Box | None] = []  # per depth: the box its children are drawn in
    placed: list[tuple[A11yNode, Box, int]] = []
    seen = 0
    for node in nodes:
        if node.depth == 0 and node.kind == "container" and node.visible:
            seen += 1
        del clips[node.depth :]
        clip = clips[-1] if clips else frame
        box = _clipped(node.box, clip) if clip is not None else node.box
        clips.append(box if node.role in CLIPPING_ROLES else clip)
        if node.visible and box.area and box.area >= SHOWN * node.box.area:
            placed.append((node, box, seen))
    return [
        (node, box)
        for node, box, window in placed
        if not any(w.intersection(box) >= SHOWN * box.area for w in windows[window:])
    ]


def _clipped(box: Box, clip: Box) -> Box:
    x, y = max(box.x, clip.x), max(box.y, clip.y)
    return Box(
        x, y, max(0, min(box.right, clip.right) - x), max(0, min(box.bottom, clip.bottom) - y)
    )


def _usable_nodes(nodes: list[A11yNode], frame_size: tuple[int, int] | None) -> list[A11yNode]:
    """The nodes drawn on the frame, cut to what shows, with labels folded into the controls
    they name."""
    usable = [
        replace(node, box=box) if box != node.box else node
        for node, box in drawn_nodes(nodes, frame_size)
        if node.kind not in TEXT_KINDS or node.label
    ]
    # The cells of a row (a web table's) are read in it, not selected on their own.
    rows = [n.box for n in usable if n.kind == "list_item"]
    usable = [
        replace(n, kind="text", interactive=False)
        if n.kind == "list_item" and any(r != n.box and r.contains(n.box) for r in rows)
        else n
        for n in usable
    ]
    # A label inside a control that repeats (or supplies) its name is the control's own text:
    # GTK buttons hold a label child, Android rows their title.
    controls = [
        i for i, n in enumerate(usable) if n.kind not in TEXT_KINDS + ("container", "image")
    ]
    drop: set[int] = set()
    for i, node in enumerate(usable):
        if node.kind not in TEXT_KINDS:
            continue
        for c in controls:
            control = usable[c]
            if not control.box.contains(node.box, slack=2):
                continue
            if not control.name and control.kind not in FIELDS:
                usable[c] = control = replace(control, name=node.label)
            if _label_key(control.label) == _label_key(node.label):
                drop.add(i)
                break
    return [n for i, n in enumerate(usable) if i not in drop]


def _explaining_node(element: Element, nodes: list[A11yNode]) -> int | None:
    """Index of the smallest node that can be `element`, if any."""
    best: tuple[int, float, int] | None = None
    for index, node in enumerate(nodes):
        if node.kind == "container" or element.kind == "container":
            fits = node.kind == "container" and node.box.iou(element.box) >= SAME_BOX
        elif node.kind in TEXT_KINDS:
            fits = element.kind == "text" and _held(element.box, node.box)
        else:
            fits = _held(element.box, node.box)
        if fits:
            key = (node.box.area, -node.box.iou(element.box), index)
            if best is None or key < best:
                best = key
    return best[2] if best else None


def _held(inner: Box, outer: Box) -> bool:
    return inner.area > 0 and outer.intersection(inner) >= HELD * inner.area


def _merged_element(node: A11yNode, held: list[Element]) -> Element:
    box = node.box
    if node.kind in TOGGLES:  # Qt's check box spans its layout cell; the drawn part takes clicks
        drawn = held[0].box
        for element in held[1:]:
            drawn = drawn.union(element.box)
        if box.contains(drawn, slack=4):
            box = drawn
    pixel_text = " ".join(e.text for e in _reading_order(held, lambda e: e.box) if e.text)
    pixel_name = next((e.name for e in held if e.name), "")
    if node.kind in FIELDS:
        text = pixel_text if "password" in node.states else node.value
        name = node.name or pixel_name
    else:
        text = node.label or pixel_text
        name = node.name if node.kind in ("icon", "image") else ""
    return Element(
        id=0,
        box=box,
        kind=node.kind,
        text=text,
        source="merged",
        score=max(e.score for e in held),
        interactive=node.interactive and node.kind not in CONTAINERS + TEXT_KINDS,
        name=name,
        state=node.states & A11Y_STATES,
    )


def _worth_adding(node: A11yNode, field_names: set[str]) -> bool:
    """Whether a node no pixel element matched tells the agent something."""
    if node.kind == "container" or (node.kind == "image" and not node.label):
        return False
    if node.kind in TEXT_KINDS:
        return _label_key(node.label) not in field_names  # a field's label, already its name
    return bool(node.label) or node.interactive


def _a11y_element(node: A11yNode) -> Element:
    is_field = node.kind in FIELDS
    return Element(
        id=0,
        box=node.box,
        kind=node.kind,
        text=node.value if is_field else node.label,
        source="a11y",
        score=0.9,  # the tree says it is there; the pixels did not confirm it
        interactive=node.interactive and node.kind not in CONTAINERS + TEXT_KINDS,
        name=node.name if is_field or node.kind in ("icon", "image") else "",
        state=node.states & A11Y_STATES,
    )


def _same_thing(element: Element, other: Element) -> bool:
    if element.box.iou(other.box) < 0.8:
        return False
    return _label_key(element.text or element.name) == _label_key(other.text or other.name)


def _label_key(text: str) -> str:
    return " ".join(text.casefold().replace("&", "").split()).rstrip(":：").strip()


def _free_text(
    text: TextBox,
    bars: list[Box],
    title: str | None = None,
    navigation: bool = False,
    strips: Sequence[Box] = (),
) -> Element:
    """A text on its own; in a menu bar (`title`: its spelling there) or a toolbar it is an
    item to click, not a caption, on a notebook's tab strip a tab, and in a navigation bar a
    link."""

    def on(boxes: Sequence[Box]) -> bool:
        return any(box.contains_point(*text.box.center) for box in boxes)

    kind = (
        "menu" if title is not None
        else "tab" if on(strips)
        else "link" if navigation
        else "menu" if on(bars)
        else "text"
    )  # fmt: skip
    if kind == "text" and (toggle := _glyph_toggle(text)) is not None:
        return toggle
    if kind == "text":
        return Element(
            id=0, box=text.box, kind="text", text=text.text, source="ocr", score=text.score
        )
    return Element(
        id=0,
        box=text.box,
        kind=kind,
        text=title or text.text,
        source="merged",
        score=text.score,
        interactive=True,
    )


def _tab_strips(bars: list[Box], containers: list[Box], texts: list[TextBox]) -> list[Box]:
    """Bars holding three words or more and lying flush on top of a pane as wide as they are
    or wider: a notebook's tab strip, whose tabs but the current one are words drawn flat on
    it (a title bar holds one, a calendar's header two)."""
    return [
        bar
        for bar in bars
        if sum(not is_glyph(t.text) and bar.contains_point(*t.box.center) for t in texts) >= 3
        and any(
            pane != bar
            and abs(pane.y - bar.bottom) <= 3
            and pane.x <= bar.x + 3
            and pane.right >= bar.right - 3
            and pane.h >= 2 * bar.h
            for pane in containers
        )
    ]


def _scrolled_text(widget: Widget, texts: list[TextBox]) -> bool:
    """A text area, not a list: its resize grip was seen, or its last line is cut off by its
    bottom edge (it holds more than it shows; a list box shows its rows whole)."""
    if widget.kind != "input":
        return False
    if "multiline" in widget.state:  # its resize grip seen
        return True
    heights = sorted(t.box.h for t in texts)
    last = max(texts, key=lambda t: t.box.bottom)
    cut = last.box.bottom >= widget.box.bottom - FIELD_FRAME - 1 and last.box.h < 0.7 * heights[-1]
    return cut or last.box.bottom > widget.box.bottom


def _stacked(texts: list[TextBox]) -> bool:
    """Texts on more than one row: a list box or a multi-line text area, not one value."""
    return any(
        abs(a.box.center[1] - b.box.center[1]) > max(a.box.h, b.box.h) / 2
        for a in texts
        for b in texts
    )


def _list_elements(widget: Widget, rows: list[TextBox], name: str) -> list[Element]:
    """A field (or a too-tall row) holding stacked texts is a list: each row an item that can
    be clicked on its own, inside a container named by the field's label."""
    container = Element(
        id=0, box=widget.box, kind="container", source="widgets", score=widget.score, name=name
    )
    items = [
        Element(
            id=0,
            box=Box(widget.box.x, t.box.y, widget.box.w, t.box.h),  # a row is clicked anywhere
            kind="list_item",
            text=t.text,
            source="merged",
            score=t.score,
            interactive=True,
        )
        for t in rows
    ]
    return [container, *items] if widget.kind == "input" else items


TILE_MAX = (320, 200)  # px: the largest bordered box still taken for a button by its label


def _as_tile_button(widget: Widget, texts: list[TextBox]) -> Widget:
    """A small bordered box holding one short label centred in it ("Click Me!" on two lines,
    a tile) is a button, though too tall for a control row; a panel's text sits anywhere, and
    three lines or more are a list's (a Tk option menu opened)."""
    box = widget.box
    if widget.kind != "container" or box.w > TILE_MAX[0] or box.h > TILE_MAX[1]:
        return widget
    if "selected" in widget.state:
        return widget  # a selection's band, a word or a line an editor selected
    held = [t for t in texts if box.contains(t.box, slack=2)]
    if not held or sum(len(t.text.split()) for t in held) > 4 or len(lines_of(held)) >= 3:
        return widget
    block = held[0].box
    for text in held[1:]:
        block = block.union(text.box)
    (bx, by), (cx, cy) = block.center, box.center
    centred = abs(bx - cx) <= 0.15 * box.w and abs(by - cy) <= 0.2 * box.h
    return replace(widget, kind="button") if centred else widget


def as_bars(widgets: list[Widget], texts: list[TextBox]) -> list[Widget]:
    """A field, button or cell holding several phrases side by side is a bar (a menu bar, a
    toolbar, a menu's section between rules): OCR split them at wide gaps, so each is its
    own item, not one value or label (two words OCR read apart at a word's gap, "2.4"
    "(latest)", are one value).
    A glyph beside a word is a picture OCR read (a file button's folder as "C"), not an item."""
    words = [t for t in texts if not is_glyph(t.text)]
    held = holding([t.box for t in words], [w.box for w in widgets])
    bars = []
    for index, widget in enumerate(widgets):
        inside = [words[i] for i in np.flatnonzero(held[:, index])] if words else []
        side_by_side = (
            widget.kind in ("input", "button", "list_item")
            and not widget.state
            & {
                "multiline"  # a text area's words set apart in a fixed-width font
            }
            and any(
                a.box.x < b.box.x
                and abs(a.box.center[1] - b.box.center[1]) <= max(a.box.h, b.box.h) / 2
                and b.box.x - a.box.right >= BAR_GAP * (_advance(a) + _advance(b)) / 2
                for a in inside
                for b in inside
            )
        )
        bars.append(replace(widget, kind="container") if side_by_side else widget)
    return bars


def _advance(text: TextBox) -> float:
    """The average width of a character of `text`, in pixels."""
    return text.box.w / max(1, len(text.text))


def _widget_element(widget: Widget) -> Element:
    return Element(
        id=0,
        box=widget.box,
        kind=widget.kind,
        source="widgets",
        score=widget.score,
        interactive=widget.kind in INTERACTIVE_KINDS,
        state=widget.state,
        name=widget.name,
    )


CLOSE_GLYPHS = frozenset({"x", "X", "×", "✕", "✖"})
GLYPH_BAR = 2.5  # a field or button this many times wider than tall may be a title bar
WINDOW_BUTTONS = ("close", "maximize", "minimize")  # a title bar's glyph buttons, right to left


def _window_buttons(widget: Widget, contents: list[TextBox]) -> list[TextBox]:
    """The glyphs ending a bar, spaced apart, the last a close glyph ("_ □ ×", read "1 0 X"),
    right to left: a title bar's window buttons, not the value of a field, button or
    drop-down that shows them ("x")."""
    box = widget.box
    if widget.kind not in ("button", "input", "combo") or box.w < GLYPH_BAR * box.h:
        return []
    ordered = sorted(contents, key=lambda t: t.box.x)
    ending: list[TextBox] = []
    for text in reversed(ordered):
        spaced = not ending or ending[-1].box.x - text.box.right >= ending[-1].box.w
        at_end = ending or text.box.x >= box.x + 0.6 * box.w
        if len(text.text.strip()) != 1 or not spaced or not at_end:
            break
        ending.append(text)
    if not ending or ending[0].text.strip() not in CLOSE_GLYPHS:
        return []
    return ending[: len(WINDOW_BUTTONS)]


def _glyph_button(text: TextBox, bar: Box, name: str) -> Element:
    """A window button drawn as a glyph: a square round it as large as such buttons are
    drawn, inside the bar holding it, with no text (OCR's reading of a picture: "□" read as
    "0") but its name."""
    side = min(bar.h, 2 * max(text.box.w, text.box.h) + 4)
    cx, cy = text.box.center
    x = min(max(bar.x, cx - side // 2), bar.right - side)
    y = min(max(bar.y, cy - side // 2), bar.bottom - side)
    return Element(
        id=0,
        box=Box(x, y, side, side),
        kind="button",
        source="merged",
        score=text.score,
        interactive=True,
        name=name,
    )


def is_glyph(text: str) -> bool:
    """OCR's reading of a picture rather than of a word: one or two characters, or symbols."""
    letters = "".join(text.split())
    return len(letters) <= 2 or not any(c.isalnum() for c in letters)


def _over_icons(text: TextBox, icons: list[Box]) -> bool:
    """OCR's reading of a row of icons ("Q ×", "★", "☆八口"): a glyph text over at least one
    icon, or any text but a word over two or more (large letters' ink, "insurance" at 200 %,
    passes for a row of icons; OCR reads no word off one)."""
    covered = sum(text.box.intersection(icon) >= 0.5 * icon.area for icon in icons)
    words = _word(text.text) or EXPRESSION.fullmatch(text.text.strip()) is not None
    return (covered >= 2 and not words) or (covered == 1 and is_glyph(text.text))


EXPRESSION = re.compile(r"[\dx ]+(?:[-+×*/÷=] ?[\dx ?]*){1,}")
"""Large digits and signs ("0 + 0 =", "3x - 2 = 7"): a sum OCR read off the page, no icons."""


def _word(text: str) -> bool:
    """Latin letters, four or more with a vowel among them, and little else."""
    letters = [c for c in text if c.isascii() and c.isalpha()]
    rest = [c for c in text if not c.isspace() and c not in letters]
    return (
        len(letters) >= 4
        and len(rest) <= len(letters) // 4
        and bool(set("aeiouyAEIOUY") & set(letters))
    )


def _after_leading_icon(text: TextBox, widgets: list[Widget]) -> TextBox:
    """A text whose box OCR started at the icon before it (a sidebar's folder, a menu item's
    picture) starts after the icon, so the icon stays one: only for a named icon larger than
    a letter at the very start of a text of a word or more."""
    for widget in widgets:
        box = widget.box
        if (
            widget.kind == "icon"
            and widget.name
            and min(box.w, box.h) >= LEADING_ICON
            and abs(box.x - text.box.x) <= ICON_SLACK
            and text.box.intersection(box) >= 0.5 * box.area
            and text.box.right - box.right >= box.w
            and len(text.text.strip()) >= 3
        ):
            x = box.right + 1
            return TextBox(
                Box(x, text.box.y, text.box.right - x, text.box.h), text.text, text.score
            )
    return text


def _icon_in_word(widget: Widget, texts: list[TextBox], icons: list[Box]) -> bool:
    """An "icon" OCR read as part of a longer text is a letter or sign of that text (a bold
    initial, an '@'), not an icon; unless that text covers other icons too (a row of 16 px
    icon buttons read as one phrase)."""
    if widget.kind != "icon":
        return False
    box = widget.box
    return any(
        text.box.intersection(box) >= 0.5 * box.area
        and not is_glyph(text.text)
        and not _over_icons(text, icons)
        for text in texts
    )


def _as_icon_button(widget: Widget, texts: list[TextBox]) -> Widget:
    """A large "check box" OCR read as one letter is a framed tool button whose picture the
    letter is (a grid of squares read as "B"): toggles that large are drawn at 150 % and up,
    where OCR reads their tick as no letter."""
    if widget.kind not in TOGGLES or min(widget.box.w, widget.box.h) < LARGE_TOGGLE:
        return widget
    for text in texts:
        letter = text.text.strip()
        over = text.box.intersection(widget.box) >= 0.6 * max(1, text.box.area)
        if over and len(letter) == 1 and letter.isalnum() and letter not in LOOKALIKES:
            return replace(widget, kind="icon", state=frozenset())
    return widget


def _glyph_in_text(widget: Widget, texts: list[TextBox]) -> bool:
    """A "check box" or "radio" in the middle of a line of text, or read by OCR as a lone
    letter or digit, is that letter or symbol.

    One at the very start of a text box is kept: OCR often reads a toggle and its label as one
    line ("☑ Large"), or the toggle alone as a look-alike ("O", "口").
    """
    if widget.kind not in TOGGLES:
        return False
    box = widget.box
    for text in texts:
        if text.box.intersection(box) < 0.6 * box.area:
            continue
        letter = text.text.strip()
        if all(not c.isalnum() or c in "口回" for c in letter.replace(" ", "")):
            continue  # a row of toggles read as their glyphs ("□□□"), no line of text
        if box.x - text.box.x > box.w or (
            len(letter) == 1 and letter.isalnum() and letter not in LOOKALIKES
        ):
            return True
    return False


def _split_at_widgets(texts: list[TextBox], widgets: list[Widget]) -> list[TextBox]:
    """Cut a line OCR read across check boxes or radios ("Indent with ( ) Spaces ( ) Tabs"), or
    into a field or button ("Country [Canada v]"), where each falls on a space between its
    words: every toggle keeps the label on its right, a field its value, a button its label,
    and the caption before it stays a text of its own. A line running over a check box at its
    end stops before it."""
    result = []
    for text in texts:
        pieces = [text]
        for widget in sorted(widgets, key=lambda w: w.box.x):
            last = pieces[-1]
            box = widget.box
            if widget.kind in TOGGLES:
                apart = last.box.intersection(box) < 0.6 * box.area or box.x - last.box.x <= box.w
            else:  # a field or button whose left edge the line crosses, on its row
                row = box.y <= last.box.center[1] < box.bottom
                apart = not (row and last.box.x + 4 < box.x < last.box.right - 4)
            if apart:
                continue
            if widget.kind == "checkbox" and box.right >= last.box.right - 3:
                # a check box ending the line, its label on its left: the words stop before it
                # (a "radio" there may be a last letter, an 'e' at 200 %)
                words = last.text.split()
                if len(words) > 1 and len(words[-1]) == 1 and _glyph_sign(words[-1]):
                    words = words[:-1]  # OCR's reading of the toggle
                trimmed = Box(last.box.x, last.box.y, box.x - 2 - last.box.x, last.box.h)
                pieces[-1] = TextBox(trimmed, " ".join(words), last.score)
                continue
            # a toggle at the line's start (OCR read none of it) is no part of its words
            lead = [t.box.right for t in widgets if t.kind in TOGGLES and _leads(t.box, last.box)]
            start = max(lead, default=last.box.x - 2) + 2
            words = TextBox(Box(start, 0, last.box.right - start, 1), last.text, last.score)
            cut = _space_at(words, box.x)
            if cut is None:
                continue
            before = Box(last.box.x, last.box.y, box.x - 2 - last.box.x, last.box.h)
            after = Box(box.x, last.box.y, last.box.right - box.x, last.box.h)
            pieces[-1:] = [
                TextBox(before, last.text[:cut].rstrip(), last.score),
                TextBox(after, last.text[cut:].strip(), last.score),
            ]
        result.extend(p for p in pieces if p.text and p.box.w > 0)
    return result


def _leads(toggle: Box, text: Box) -> bool:
    """The toggle stands at the very start of the text's box."""
    return text.x - 2 <= toggle.x <= text.x + 4 and toggle.intersection(text) > 0


def _space_at(text: TextBox, x: int) -> int | None:
    """Index of the space in `text` nearest to pixel column `x`, if one is that near (text
    advances roughly evenly)."""
    share = (x - text.box.x) / max(1, text.box.w)
    spaces = [i for i, c in enumerate(text.text) if c == " "]
    if not spaces:
        return None
    nearest = min(spaces, key=lambda i: abs(i / len(text.text) - share))
    return nearest if abs(nearest / len(text.text) - share) <= SPLIT_SLACK else None


TOGGLE_GLYPHS = {
    "〇": ("radio", False), "○": ("radio", False), "◯": ("radio", False),
    "●": ("radio", True), "◉": ("radio", True), "⦿": ("radio", True),
    "□": ("checkbox", False), "☐": ("checkbox", False), "◻": ("checkbox", False),
    "■": ("checkbox", True), "☑": ("checkbox", True), "☒": ("checkbox", True),
    "◼": ("checkbox", True),
}  # fmt: skip
"""Symbols OCR reads for a radio or a check box the detector missed, and whether it is on."""


def _glyph_toggle(text: TextBox) -> Element | None:
    """A text that starts with a radio's or a check box's symbol ("〇No", "■Cursor blink"):
    that control, labelled with the rest."""
    head, label = text.text[:1], text.text[1:].strip()
    if head not in TOGGLE_GLYPHS or not any(c.isalpha() for c in label):
        return None
    kind, on = TOGGLE_GLYPHS[head]
    return Element(
        id=0, box=text.box, kind=kind, text=label, source="merged", score=text.score,
        interactive=True, state=frozenset({"checked"}) if on else frozenset(),
    )  # fmt: skip


def _is_toggle_glyph(text: TextBox, toggles: list[Widget]) -> bool:
    """OCR's reading of a check box or radio itself: symbols ("●", "✓") or one look-alike
    letter ("C" for a Tk radio, "V" or "J" for a GTK tick) over a toggle, or read across its
    centre with the empty focus ring of a Tk check button that has no label ("D", "-D")."""
    letters = "".join(c for c in text.text if not _glyph_sign(c))
    if letters and not (len(letters) == 1 and letters in LOOKALIKES):
        return False
    return any(
        text.box.intersection(t.box) >= 0.4 * max(1, text.box.area)
        or text.box.contains_point(*t.box.center)
        for t in toggles
    )


def hosts_of(boxes: list[Box], holders: list[Box]) -> list[int | None]:
    """For each box, the index of the smallest holder that holds its centre and most of it
    (a dense table has hundreds of each)."""
    if not boxes or not holders:
        return [None] * len(boxes)
    held = holding(boxes, holders)
    hw, hh = np.array(holders, np.int64).T[2:]
    area = np.where(held, hw * hh, np.iinfo(np.int64).max)
    best = area.argmin(axis=1)
    return [int(b) if held[i, b] else None for i, b in enumerate(best)]


def holding(boxes: list[Box], holders: list[Box]) -> np.ndarray:
    """A boxes x holders array: whether each holder holds each box's centre and most of it."""
    if not boxes or not holders:
        return np.zeros((len(boxes), len(holders)), bool)
    bx, by, bw, bh = np.array(boxes, np.int64).T
    hx, hy, hw, hh = np.array(holders, np.int64).T
    cx, cy = (bx + bw // 2)[:, None], (by + bh // 2)[:, None]
    centred = (hx <= cx) & (cx < hx + hw) & (hy <= cy) & (cy < hy + hh)
    across = np.minimum((bx + bw)[:, None], hx + hw) - np.maximum(bx[:, None], hx)
    down = np.minimum((by + bh)[:, None], hy + hh) - np.maximum(by[:, None], hy)
    inter = np.clip(across, 0, None) * np.clip(down, 0, None)
    return centred & (inter >= 0.5 * (np.clip(bw, 0, None) * np.clip(bh, 0, None))[:, None])


MARKED_WORD = re.compile(r"[^\w\s]\s+[^\W\d_]")
"""A mark, a space, a word: a flat button's icon and label, never a toggle's label."""


def _pair_toggles(
    toggles: list[Widget], texts: list[TextBox]
) -> list[tuple[Widget, TextBox | None]]:
    """Give each toggle the nearest text starting just right of it on the same row."""
    options = []
    for t_index, toggle in enumerate(toggles):
        box = toggle.box
        for x_index, text in enumerate(texts):
            gap = text.box.x - box.right
            same_row = abs(text.box.center[1] - box.center[1]) <= max(box.h, text.box.h) / 2
            covers = text.box.contains_point(*box.center)  # OCR read glyph and label as one
            over = text.box.x < box.right - 2  # its mark is the toggle's edge ("] Newsletter")
            if not (covers or over) and MARKED_WORD.match(text.text):
                continue  # "⬇ Archive" beside a list's select-all box: a toolbar's flat button
            if same_row and (covers or -box.w / 2 <= gap <= TOGGLE_GAP * box.w):
                options.append((0 if covers else max(gap, 0), t_index, x_index))
    paired: dict[int, TextBox] = {}
    used: set[int] = set()
    for _, t_index, x_index in sorted(options):
        if t_index not in paired and x_index not in used:
            paired[t_index] = texts[x_index]
            used.add(x_index)
    return [(toggle, paired.get(i)) for i, toggle in enumerate(toggles)]


def _left_label(toggle: Box, texts: list[TextBox], widgets: list[Widget]) -> str:
    """The text a toggle with nothing on its right is named by: the nearest one ending left of
    it on its row with no control between ("Show line numbers  [ ]"); it stays a text."""
    best: tuple[int, str] | None = None
    for text in texts:
        gap = toggle.x - text.box.right
        same_row = abs(text.box.center[1] - toggle.center[1]) <= max(toggle.h, text.box.h) / 2
        if not same_row or not -2 <= gap <= LABEL_GAP or (best and gap >= best[0]):
            continue
        between = Box(text.box.right, toggle.y, max(1, gap), toggle.h)
        if not any(
            w.kind not in CONTAINERS and w.box.intersection(between) > 0 and w.box != toggle
            for w in widgets
        ):
            best = (gap, text.text)
    return best[1] if best else ""


def _strip_glyph(label: TextBox, toggle: Box) -> str:
    """Drop what OCR made of the toggle itself when it read glyph and label as one line."""
    text = label.text
    overlap = toggle.right - label.box.x
    if overlap <= 2 or not text:
        return text
    char_width = label.box.w / len(text)
    stripped = text.lstrip()
    while stripped and _glyph_sign(stripped[0]):  # ☑ ✓ • ( ...
        stripped = stripped[1:].lstrip()
    rest = text[1:]
    if (
        stripped == text.lstrip()
        and overlap >= 0.6 * char_width
        and (text[0] in LOOKALIKES or not text[0].isascii())
        and len(rest.strip()) > 1
        and (rest[0].isspace() or rest[0].isupper())
    ):
        stripped = rest.lstrip()  # "O Free", "口Subscribe", "厂 Express"; "Offers" keeps its O
    return stripped or text


def _glyph_sign(character: str) -> bool:
    """A symbol OCR may make of a toggle's glyph; not one that starts a word ("$25", "@ana")."""
    category = unicodedata.category(character)
    return category[0] in "SPZC" and category != "Sc" and character not in "@#%&"


BARE_VALUE = re.compile(r"\s*[-+$€£]?\s?\d[\d.,:/-]*\s?%?\s*")


def _name_fields(
    fields: list[tuple[int, Widget]], texts: list[TextBox], panels: Sequence[Box] = ()
) -> dict[int, str]:
    """Name each line edit or combo box after its label: the nearest text on its left in the
    same row, else the text just above it, each label used once. A panel or a list's row
    that holds one of the two and not the other parts them (a side navigation's entry beside
    a page's search field; a table's cell beside a dialog's field)."""
    options = []
    for index, field in fields:
        box = field.box
        for t_index, text in enumerate(texts):
            if BARE_VALUE.fullmatch(text.text):
                continue  # a number is a value (a slider's, drawn above its knob), no name
            label = text.box
            if any(p.contains(label, slack=2) != p.contains(box, slack=2) for p in panels):
                continue
            left_gap = box.x - label.right
            same_row = abs(label.center[1] - box.center[1]) <= max(box.h, label.h) / 2
            if same_row and -4 <= left_gap <= LABEL_GAP:
                options.append((0, left_gap, index, t_index))
                continue
            above_gap = box.y - label.bottom
            aligned = box.x - box.h <= label.x <= box.x + min(box.w / 2, ABOVE_REACH * box.h)
            if aligned and -2 <= above_gap <= max(box.h, 20):
                options.append((1, above_gap, index, t_index))
    names: dict[int, str] = {}
    used: set[int] = set()
    for _, _, index, t_index in sorted(options):
        if index not in names and t_index not in used:
            names[index] = texts[t_index].text
            used.add(t_index)
    return names


def _reading_order(items: list[_T], box_of: Callable[[_T], Box]) -> list[_T]:
    """Rows top to bottom, each row left to right, tolerant of a few pixels of vertical jitter.

    An item joins the current row when its anchor (its middle) is within half a line of the
    row's; tall items (panels, lists) are anchored at their top edge so they come before what
    they hold.
    """

    def anchor(item: _T) -> float:
        box = box_of(item)
        return box.y + box.h / 2 if box.h <= 2 * LINE else box.y

    rows: list[list[_T]] = []
    row_anchor = 0.0
    for item in sorted(items, key=anchor):
        box = box_of(item)
        near = rows and abs(anchor(item) - row_anchor) <= max(4.0, min(box.h, LINE) / 2)
        # Two items one above the other are never in the same row, however close.
        if near and not any(_x_overlap(box, box_of(other)) for other in rows[-1]):
            rows[-1].append(item)
            row_anchor += (anchor(item) - row_anchor) / len(rows[-1])
        else:
            rows.append([item])
            row_anchor = anchor(item)
    return [item for row in rows for item in sorted(row, key=lambda i: box_of(i).x)]


def _x_overlap(a: Box, b: Box) -> bool:
    return min(a.right, b.right) - max(a.x, b.x) > 0.3 * min(a.w, b.w)
