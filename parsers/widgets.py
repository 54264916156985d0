"""Cheap widget detection from pixels alone: no trained weights, a few milliseconds a frame.

Every control the agent cares about is a region of nearly flat colour closed by an outline or a
contrast step: the inside of a line edit, a button face, a check box square, a radio circle, a
group box. So the frame is turned into an edge mask (local contrast in any colour channel, which
works the same for light and dark themes), the flat regions between edges are labelled, and the
regions shaped like a rectangle or a small circle are classified by size, shape and by the
"ink" (text, tick, arrow, dot) they enclose. Only relative contrast is used, never a theme's
colours.

Square tool buttons look like big check boxes and bare toolbar glyphs have no outline at all, so
the icon namer (`icons.name_icon`) settles both: a "check box" whose mark it names as an icon
other than a tick is an icon button, and a small isolated blob of ink in a row of controls that
it names confidently is an unframed icon.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import cv2
import numpy as np

from clickwright.parsers.colours import flat_fill, palette
from clickwright.parsers.icons import NEGATIVE, default_namer
from clickwright.parsers.links import runs as ink_runs
from clickwright.types import Box, ElementKind

EDGE_CONTRAST = 10  # grey levels; a dark Fusion line edit differs from its window by only 18
MIN_SIDE = 6  # smallest region side, in pixels, that can be the inside of a control
MIN_AREA = 18  # px: the smallest inside of a toggle, a filled diamond's (Tk's radio): half its box
MAX_BAND = 6  # widest edge band (outline, highlight line, pixel after) measured across
TOGGLE_INSIDE = (7, 36)  # side range of the inside of a check box square or radio circle
TOGGLE_OUTSIDE = (10, 40)  # side range of a whole check box or radio, outline included
CONTROL_HEIGHTS = (12, 80)  # inside height range of a button, line edit or combo box
FRAMED = (0.9, 0.6)  # share of its box's top and bottom, and of its sides, a rectangle's inside
# runs along
CONTAINER_SIDE = 40  # a flat bordered area at least this large both ways is a container
TAB_HEIGHT = 12  # shortest tab that can stick out above a tab widget's pane
BEVEL_FAINT = 5  # grey levels: the least a bevel's faint side differs from what is round it
# (white on Tk's light hover band is 19 above it at most, less where a corner is the other's)
SOLID_CONTRAST = 100  # an unmarked "toggle" this far from its surroundings is a solid blob
SAME_FACE = 4  # grey levels within which a control's face is the colour round it
SHAPE_CONTRAST = 12  # grey levels (any channel) from the surroundings that are a toggle's shape
LONE_ICON = 0.95  # the namer's confidence above which an icon needs no others beside it
ICON_BLOB = (12, 56)  # side range of an unframed icon's ink, in pixels (48 px at 200 %)
ICON_MARGIN = 4  # px added round an unframed icon's ink: the flat button it is drawn on
ICON_NARROW = 8  # an icon's ink may be this narrow (an arrow) when its other side is in range
ICON_BUTTON = 64  # longest side of a button that holds nothing but an icon
ICON_CENTRED = 0.2  # share of its frame's width by which a framed icon's margins may differ
BAR_RATIO = 6  # a control this many times wider than tall is a bar whose items are its own
LARGE_TOGGLE = 20  # a marked "check box" this large (px) with icon-like ink is an icon button
SQUARE = 1.3  # an unnamed icon's ink may be this many times wider than tall
ROUND_ICONS = frozenset({"info", "stop", "check", "help", "clock", "power"})  # radio look-alikes
ACCENT = 60  # spread of a colour's channels (grey levels) from which it is an accent, not grey
FIELD_FRAME = 3  # px of a field's box that are its outline (and focus ring), no value
SELECTION_EDGE = 0.9  # share of a selection block's top and bottom rows that is its fill
SELECTION_FILL = 0.5  # share of a selection block that is its fill (the rest its glyphs)

_SQUARE = np.ones((3, 3), np.uint8)
_CORNER = np.ones((2, 2), np.uint8)
_RULE_ACROSS = np.ones((1, 2 * ICON_BLOB[1]), np.uint8)  # longer than any icon is wide
_RULE_DOWN = _RULE_ACROSS.T
_CONTROLS = ("button", "input", "combo")
FIELDS = ("input", "combo")  # controls that show a value one can select
_CHECKED = frozenset({"checked"})
_SELECTED = frozenset({"selected"})
SLIDER = frozenset({"slider"})  # a field that is a slider's track, moved, never typed in
MULTILINE = frozenset({"multiline"})  # a text area: its lines are its text, not a list's rows
TOGGLES = ("checkbox", "radio")
_SMALL = ("checkbox", "radio", "icon")  # kinds found whole by the toggle test


@dataclass(frozen=True)
class Widget:
    """A control seen in the pixels; `state` holds "checked" for a checked box or radio and
    "selected" for the current tab and for a selection's band."""

    box: Box
    kind: ElementKind
    score: float
    state: frozenset[str] = frozenset()
    name: str = ""  # an icon's name ("search"), when the icon namer knows it


@dataclass(frozen=True, eq=False)
class _Frame:
    """The per-frame images every region measures against."""

    pixels: np.ndarray
    gray: np.ndarray
    edges: np.ndarray


def detect_widgets(pixels: np.ndarray) -> list[Widget]:
    """Find buttons, inputs, combo boxes, tabs, table cells, check boxes, radios, containers.

    pixels: an HxWx3 uint8 RGB frame (or a crop of one). Widgets come back largest first.
    """
    if min(pixels.shape[:2]) < 2 * MIN_SIDE:
        return []  # too small to hold a control with a border round it
    gray = cv2.cvtColor(pixels, cv2.COLOR_RGB2GRAY)
    frame = _Frame(pixels, gray, _edge_mask(pixels, gray))
    _, labels, stats, _ = cv2.connectedComponentsWithStats(1 - frame.edges, connectivity=4)
    height, width = gray.shape
    x, y, w, h, area = stats.T
    candidates = np.flatnonzero(  # a region touching the frame's edge is the background
        (w >= MIN_SIDE)
        & (h >= MIN_SIDE)
        & (x > 0)
        & (y > 0)
        & (x + w < width)
        & (y + h < height)
        & (area >= MIN_AREA)
    )
    widgets = []
    switches = []
    for label in candidates[candidates > 0]:  # label 0 is the edge pixels themselves
        switch = _switch(frame, labels, int(label), stats[label])
        if switch is not None:
            switches.append(switch)
            continue
        widgets.extend(_Region(frame, labels, int(label), stats[label]).classify())
    widgets = [  # the switch's own pieces go; a card holding it stays
        w
        for w in widgets
        if not any(_overlaps(w.box, s.box) and not _holds(w, s.box) for s in switches)
    ]
    widgets.extend(switches)
    _, blobs, blob_stats, _ = cv2.connectedComponentsWithStats(frame.edges, connectivity=8)
    widgets.extend(
        _marked_toggles(frame, blobs, blob_stats, [w for w in widgets if w.kind in _SMALL])
    )
    widgets.extend(_outlined_fields(frame, blobs, blob_stats, widgets))
    widgets = _join_combo_buttons(_drop_duplicates(widgets))
    widgets = (
        _spin_buttons(_join_slider_pieces(widgets))
        + _thin_sliders(stats, widgets)
        + _thin_sliders(stats, widgets, upright=True)
    )
    sliders = _knob_sliders(blobs, blob_stats, widgets)
    widgets = [w for w in widgets if not _a_knob(w, sliders)] + sliders
    widgets = _choice_cards(_tag_headers(_tag_cells(_tag_tabs(widgets))))
    widgets.extend(_unframed_icons(frame, widgets))
    widgets = _toggles_among_icons(widgets)
    widgets.extend(_dot_menus(frame, widgets))
    widgets = [  # its grip is no drop-down's arrow, nor is its tall box a card
        replace(w, kind="input", state=w.state | MULTILINE)
        if (w.kind in FIELDS or w.kind == "container") and _resize_grip(gray, w.box) else w
        for w in widgets
    ]  # fmt: skip
    return _without_selected_values(frame, _icons_in_fields(_fold_icon_contents(widgets)))


GRIP = (8, 24)  # px: the side of the corner a text area's resize grip is drawn in, 1x to 2x


def _resize_grip(gray: np.ndarray, box: Box) -> bool:
    """A browser's text area has a resize grip in its bottom-right corner: two or three short
    strokes, each on one anti-diagonal (x + y the same along it), all near the corner."""
    side = min(GRIP[1], box.h // 3, box.w // 4)
    if side < GRIP[0]:
        return False
    patch = gray[box.bottom - side - 1 : box.bottom - 1, box.right - side - 1 : box.right - 1]
    ink = np.abs(patch.astype(int) - int(np.median(patch))) > SHAPE_CONTRAST * 4
    while ink.shape[0] > GRIP[0] and ink[-1].mean() > 0.5:  # the frame's own border
        ink = ink[:-1]
    while ink.shape[1] > GRIP[0] and ink[:, -1].mean() > 0.5:
        ink = ink[:, :-1]
    ys, xs = np.nonzero(ink)
    if len(xs) < 6 or len(set(xs.tolist())) < 4:
        return False
    if (xs + ys < max(ink.shape) - 1).any():
        return False  # ink reaching the corner's far side: a button's rounded corner, not a grip
    diagonals = np.bincount(xs + ys)
    strokes = diagonals >= 3
    return 2 <= strokes.sum() <= 6 and diagonals[strokes].sum() >= 0.8 * len(xs)


def _edge_mask(pixels: np.ndarray, gray: np.ndarray) -> np.ndarray:
    """1 where local contrast exceeds EDGE_CONTRAST: the outlines, text and glyphs of a frame.

    A pixel is an edge when its 2x2 neighbourhood (itself, left, up, up-left) spans the
    threshold in some colour channel. That marks a 1 px outline as a 2 px band, thin enough
    that the ring between a radio's outline and its dot stays a region, while the diagonal
    closes anti-aliased corners; the strongest channel keeps coloured outlines (a blue focus
    frame) that match their background's brightness. Soft outlines that step down in two small
    stages (a dark theme's 52 -> 42 -> 35) are added by marking their middle pixel.
    """
    red, green, blue = cv2.split(cv2.morphologyEx(pixels, cv2.MORPH_GRADIENT, _CORNER))
    edges = (cv2.max(cv2.max(red, green), blue) > EDGE_CONTRAST).astype(np.uint8)
    for before, middle, after, target in (
        (gray[:, :-2], gray[:, 1:-1], gray[:, 2:], edges[:, 1:-1]),
        (gray[:-2], gray[1:-1], gray[2:], edges[1:-1]),
    ):
        for low, high in ((before, after), (after, before)):
            first, second = cv2.subtract(middle, low), cv2.subtract(high, middle)
            target |= (cv2.min(first, second) >= 3) & (cv2.add(first, second) > EDGE_CONTRAST)
    return edges


class _Region:
    """One flat region between edges, with the measurements classification needs."""

    def __init__(self, frame: _Frame, labels: np.ndarray, label: int, stat: np.ndarray) -> None:
        self.frame = frame
        self.x, self.y, self.w, self.h, self.area = (int(v) for v in stat)
        self.window = (slice(self.y, self.y + self.h), slice(self.x, self.x + self.w))
        self.mask = (labels[self.window] == label).astype(np.uint8)
        self.filled = _fill_holes(self.mask)
        if self.h <= CONTROL_HEIGHTS[1] and _framed(self.mask):
            self.filled = _notches_filled(self.filled)
        self.extent = float(self.filled.mean())
        self.ink = (self.filled > 0) & (self.mask == 0)  # holes: text, ticks, arrows, dots

    def classify(self) -> list[Widget]:
        low, high = TOGGLE_INSIDE
        if low <= self.w <= high and low <= self.h <= high and 0.75 <= self.w / self.h <= 1.33:
            toggle = self._toggle()
            # Below a control's least area only a solid fill is one (Tk's filled diamond); with
            # a hole it is a glyph's ring (a title bar's maximize square).
            if toggle is not None and (self.area >= MIN_SIDE * MIN_SIDE or not self.ink.any()):
                return [toggle]
        # A 1 px wide region between two parallel outlines is not the inside of anything.
        if cv2.erode(self.mask, _SQUARE).sum() < 0.3 * self.area:
            return []
        if self.extent >= 0.85 and CONTROL_HEIGHTS[0] <= self.h <= CONTROL_HEIGHTS[1]:
            if self.w >= 1.2 * self.h:
                control = self._control()
                cross = self._end_cross(np.flatnonzero(self.ink.any(axis=0)))
                return [control, cross] if cross is not None and control.kind == "input" else [
                    control
                ]
            if self.w >= 0.4 * self.h and self._ink_centred():
                # A framed icon: a tool button, or the arrow part of a combo box.
                return [Widget(self._outer_box(), "button", 0.3)]
        if self.w >= CONTAINER_SIDE and self.h >= CONTAINER_SIDE:
            return self._container()
        return []

    def _toggle(self) -> Widget | None:
        """A check box (square) or radio (circle) with clear space around it; ink means checked."""
        box = self._outer_box()
        if min(self._bands()) == 0 or not _isolated(
            self.frame.edges, box, label_right=self._coloured()
        ):
            return None
        outline = (_grow(np.pad(self.filled, 1), 1) > 0) & (np.pad(self.filled, 1) == 0)
        ring = self.frame.edges[self.y - 1 : self.y + self.h + 1, self.x - 1 : self.x + self.w + 1]
        if ring.shape != outline.shape or ring[outline].mean() < 0.85:
            return None  # the outline must close all round
        filled_in = _accent(self.frame.pixels[self.window][self.mask > 0])
        for flat, shape in ((_flat_disc, "dot"), (_flat_square, "square")):
            if filled_in and flat(self.frame.pixels, box):  # one flat colour, no tick or ring
                fill = flat_fill(self.frame.pixels, box)  # in it: a mail's dot, a colour tag,
                named = f"{palette().nearest(fill)} {shape}" if fill is not None else shape
                return Widget(box, "icon", 0.5, name=named)  # a swatch
        marked = self.ink.sum() >= 0.08 * self.filled.sum() or filled_in
        # Kind by the outline's shape: at 13 px the flat inside of a ring is nearly square and
        # a tick splits a filled box's inside into a ragged shape.
        kind: ElementKind
        if _round(_silhouette(self.frame.pixels, box)):
            if self.extent < 0.5 or _letters_inside(self.ink):
                return None  # an avatar's circle with initials, not a radio's dot
            kind = "radio"
        elif self.extent >= 0.88 or filled_in:
            kind = "checkbox"
        else:
            return None
        if not marked and _centre_contrast(self.frame.gray, box) > SOLID_CONTRAST:
            if not _bevelled(self.frame, box):
                return None  # a solid dot or square: a bullet, a password character
            marked = True  # a sunken square or diamond filled in: Tk's indicator, on
        if (
            marked
            and kind == "radio"
            and not self._coloured()
            and _centre_contrast(self.frame.gray, box) <= 3 * EDGE_CONTRAST
        ):
            return None  # a grey ring with the background showing through: a bold letter 'O'
        if marked:
            icon = _icon_not_toggle(self.frame.pixels, box, kind)
            if icon is not None:
                return icon
        return Widget(box, kind, 0.85, _CHECKED if marked else frozenset())

    def _ink_centred(self) -> bool:
        """Ink centred across the region, as a framed icon's is (a toggle at the left end of a
        hover highlight, the rest cut off by a focus ring round its label, is not)."""
        columns = np.flatnonzero(self.ink.any(axis=0))
        if columns.size == 0:
            return False
        left, right = int(columns[0]), self.w - 1 - int(columns[-1])
        return abs(left - right) <= max(2, ICON_CENTRED * self.w)

    def _coloured(self) -> bool:
        """An accent-coloured region (a blue checked radio), unlike black or grey text."""
        return _accent(self.frame.pixels[self.window][self.mask > 0])

    def _control(self) -> Widget:
        """Button, line edit or combo box, told apart by where the ink sits and by shading.

        Line edits are flat and left-aligned (or empty); buttons centre their label and are
        often shaded top to bottom; combo boxes end in a small drop-down arrow.
        """
        columns = np.flatnonzero(self.ink.any(axis=0))
        inside = self.frame.gray[self.window]
        quarter = max(1, self.h // 4)
        top = inside[:quarter][self.mask[:quarter] > 0]
        bottom = inside[-quarter:][self.mask[-quarter:] > 0]
        shaded = bool(
            top.size and bottom.size and abs(float(top.mean()) - float(bottom.mean())) >= 4
        )
        box = self._outer_box()
        # A field is never filled with an accent colour: such a band is a selection (lines an
        # editor selected, a list's selected row), whose texts are no field's value.
        band = self._coloured()
        field = Widget(box, "container", 0.6, _SELECTED) if band else Widget(box, "input", 0.75)
        if columns.size == 0:
            return Widget(box, "button", 0.4) if shaded else replace(field, score=0.6)
        if self._ends_with_arrow(columns):
            return Widget(box, "combo", 0.75)
        left, right = int(columns[0]), self.w - 1 - int(columns[-1])
        centred = left >= max(3, 0.05 * self.w) and abs(left - right) <= max(4, 0.12 * self.w)
        if centred and not (self._on_its_background() and self._value_and_icon(columns)):
            return Widget(box, "button", 0.85 if shaded else 0.7)
        if shaded:
            return Widget(box, "button", 0.5)
        return field

    def _value_and_icon(self, columns: np.ndarray) -> bool:
        """Ink from the left and a square icon alone at the right end (a time or date field's
        picker, a search field's lens): a field's value and picture, no centred label."""
        gaps = np.flatnonzero(np.diff(columns) > max(6, self.h // 3))
        if gaps.size == 0:
            return False
        start, end = int(columns[gaps[-1] + 1]), int(columns[-1])
        rows = np.flatnonzero(self.ink[:, start : end + 1].any(axis=1))
        width, height = end - start + 1, int(rows[-1] - rows[0]) + 1
        square = 0.75 <= width / height <= 1.33 and 0.3 * self.h <= height <= 0.8 * self.h
        value = int(columns[0]) <= 0.15 * self.w and start - int(columns[gaps[-1]]) >= self.h
        return square and value and self.w - 1 - end <= 1.2 * self.h

    def _on_its_background(self) -> bool:
        """The face is the colour just outside the control (a field drawn white on a white
        page; a button's face stands out from it)."""
        face = float(np.median(self.frame.gray[self.window][self.mask > 0]))
        return abs(face - _outside(self.frame.gray, self._outer_box())) <= SAME_FACE

    def _ends_with_arrow(self, columns: np.ndarray) -> bool:
        """A small glyph, wider than tall, alone at the right end: a drop-down arrow. It may
        sit close to the value (a web page's plain select) when shaped like an arrow pointing
        down; a button's last letters are not."""
        return any(
            not _three_dots(drawn) and not _crossed(drawn) and (gap > 2 or _pointing_down(drawn))
            for gap, _, drawn in self._end_glyphs(columns)
        )  # (three dots are a "more" menu, a cross removes a list's item)

    def _end_cross(self, columns: np.ndarray) -> Widget | None:
        """The "×" at a row's right end that removes it (a list of blocked sites), its own
        button: the row around it is a cell, not a drop-down."""
        for gap, box, drawn in self._end_glyphs(columns):
            if gap > 2 and _crossed(drawn):
                return Widget(box, "icon", 0.6, name="close")
        return None

    def _end_glyphs(self, columns: np.ndarray) -> Iterator[tuple[int, Box, np.ndarray]]:
        """The small glyph alone at the right end, shaped like an arrow or a mark, as cut at a
        wide gap then a narrow one: the gap, its box on the frame, its ink."""
        if columns.size == 0:
            return
        for gap in (max(6, self.h // 3), 2):
            gaps = np.flatnonzero(np.diff(columns) > gap)
            start = int(columns[gaps[-1] + 1]) if gaps.size else int(columns[0])
            end = int(columns[-1])
            if gaps.size == 0 and start < self.w / 2:
                continue
            glyph = self.ink[:, start : end + 1]
            rows = np.flatnonzero(glyph.any(axis=1))
            glyph_w, glyph_h = end - start + 1, int(rows[-1] - rows[0] + 1)
            shaped = (
                self.w - 1 - end <= 1.2 * self.h
                and glyph_w <= 0.8 * self.h
                and glyph_h <= 0.5 * self.h
                and glyph_w >= glyph_h
            )
            if shaped:
                pad = self.h // 4  # the mark's clickable square, not its ink alone
                box = Box(self.x + start - pad, self.y + int(rows[0]) - pad,
                          glyph_w + 2 * pad, glyph_h + 2 * pad)  # fmt: skip
                yield gap, box, glyph[rows[0] : rows[-1] + 1]

    def _container(self) -> list[Widget]:
        """A group box, list, pane or panel; a tab widget's pane also yields its current tab.

        The current tab shares its colour with the pane, so their regions merge: the tab shows
        as a narrow bump on top of the pane's rectangle.
        """
        full_rows = np.flatnonzero(self.filled.sum(axis=1) >= 0.9 * self.w)
        pane_top = int(full_rows[0]) if full_rows.size else 0
        bump = np.flatnonzero(self.filled[pane_top // 2])
        outer = self._outer_box()
        tabbed = (
            TAB_HEIGHT <= pane_top <= CONTROL_HEIGHTS[1]
            and 0 < bump.size <= self.w / 2
            and bump[-1] - bump[0] + 1 == bump.size
            and self.filled[pane_top:].mean() >= 0.9
        )
        if not tabbed:
            if self.extent < 0.85:
                return []
            return [Widget(outer, "container", round(0.5 + 0.4 * self.extent, 3))]
        margin = self.x - outer.x
        tab = Box(
            self.x + int(bump[0]) - margin,
            outer.y,
            int(bump.size) + 2 * margin,
            self.y + pane_top - outer.y,
        )
        pane = Box(outer.x, self.y + pane_top, outer.w, outer.bottom - self.y - pane_top)
        return [Widget(pane, "container", 0.85), Widget(tab, "tab", 0.8, _SELECTED)]

    def _bands(self) -> tuple[int, int, int, int]:
        """Edge band widths beyond the top, left, bottom and right sides, measured mid-side.

        A 1 px outline gives 2 (the outline and the pixel after it), a plain contrast step 1;
        an outline with a highlight line inside it (Fusion at 200 %) counts as one band.
        """
        edges = self.frame.edges
        cy, cx = self.y + self.h // 2, self.x + self.w // 2
        top = edges[max(0, self.y - MAX_BAND) : self.y, cx][::-1]
        left = edges[cy, max(0, self.x - MAX_BAND) : self.x][::-1]
        bottom = edges[self.y + self.h : self.y + self.h + MAX_BAND, cx]
        right = edges[cy, self.x + self.w : self.x + self.w + MAX_BAND]
        return (_run_length(top), _run_length(left), _run_length(bottom), _run_length(right))

    def _outer_box(self) -> Box:
        """The control's outline box: the region grown across its edge bands.

        The 2x2 window marks the pixel after a step, so on the bottom and right the band ends
        one pixel outside the outline.
        """
        top, left, bottom, right = self._bands()
        x0, y0 = self.x - left, self.y - top
        return Box(
            x0,
            y0,
            self.x + self.w + max(0, right - 1) - x0,
            self.y + self.h + max(0, bottom - 1) - y0,
        )


def _marked_toggles(
    frame: _Frame, labels: np.ndarray, stats: np.ndarray, found: list[Widget]
) -> list[Widget]:
    """Checked boxes and radios whose mark crowds the inside into slivers the region pass misses.

    Seen in the edge mask instead, such a toggle is one small isolated blob: a closed square
    outline with a tick inside that leaves some clear space, or a disc whose centre is a dot
    (where a letter 'O' or '@' shows the background through its middle). `labels` and `stats`
    are the connected components of the edge mask.
    """
    edges = frame.edges
    x, y, w, h, _ = stats.T
    low, high = TOGGLE_OUTSIDE
    candidates = np.flatnonzero(
        (w >= low)
        & (w <= high)
        & (h >= low)
        & (h <= high)
        & (np.abs(w - h) <= 0.25 * np.maximum(w, h))
    )
    taken = np.zeros(edges.shape, bool)
    for widget in found:
        taken[widget.box.y : widget.box.bottom, widget.box.x : widget.box.right] = True
    toggles = []
    for label in candidates:
        box = Box(*(int(v) for v in stats[label][:4]))
        coloured = _accent(frame.pixels[box.y : box.bottom, box.x : box.right].reshape(-1, 3))
        if taken[box.center[1], box.center[0]] or not _isolated(edges, box, coloured):
            continue
        if any(box.contains(t.box) for t in found if t.kind in TOGGLES):
            continue  # a hover band round a toggle (Tk's, with its label's focus ring)
        blob = (labels[box.y : box.bottom, box.x : box.right] == label).astype(np.uint8)
        filled = _fill_holes(blob)
        if _centre_contrast(frame.gray, box) > SOLID_CONTRAST and _bevelled(frame, box):
            kind = "radio" if _round(filled) else "checkbox"  # Tk's sunken diamond, filled: on
            toggles.append(Widget(box, kind, 0.75, _CHECKED))
            continue
        core = _shrink(filled, 3) > 0
        if not core.any() or blob[core].mean() < 0.1:
            continue
        # Each side closed within its two outermost lines (a stray anti-aliased pixel can
        # widen the blob by one).
        rows, columns = blob.mean(axis=1), blob.mean(axis=0)
        sides = (max(rows[:2]), max(rows[-2:]), max(columns[:2]), max(columns[-2:]))
        kind: ElementKind
        if filled.mean() >= 0.9 and min(sides) >= 0.8 and blob[core].mean() <= 0.85:
            kind = "checkbox"
        elif (
            0.6 <= filled.mean() < 0.9
            and _round(filled)
            and (
                _centre_contrast(frame.gray, box) > 3 * EDGE_CONTRAST
                or _accent(frame.pixels[box.y : box.bottom, box.x : box.right][blob > 0])
            )
        ):
            kind = "radio"  # a dot in a ring, or GTK's accent-coloured ring round a light hole
        else:
            continue
        icon = _icon_not_toggle(frame.pixels, box, kind)
        toggles.append(icon if icon is not None else Widget(box, kind, 0.75, _CHECKED))
    return toggles


def _crossed(glyph: np.ndarray) -> bool:
    """An "×": ink in all four corners and the middle, none midway along its sides (an
    arrow's lower corners are empty; a block, Tk's option-menu mark, is inked all over)."""
    h, w = glyph.shape
    if h < 4 or w < 4:
        return False
    ch, cw, my, mx = max(1, h // 4), max(1, w // 4), h // 2, w // 2
    corners = (glyph[:ch, :cw], glyph[:ch, -cw:], glyph[-ch:, :cw], glyph[-ch:, -cw:])
    sides = (glyph[0, mx], glyph[-1, mx], glyph[my, 0], glyph[my, -1])
    middle = glyph[my - 1 : my + 1, mx - 1 : mx + 1]
    return all(c.any() for c in corners) and middle.any() and not any(sides)


def _pointing_down(glyph: np.ndarray) -> bool:
    """An arrow or chevron pointing down: each row centred on one axis, and the lower half
    narrowing row by row to half the glyph's width or less (a word's last letters, "up",
    keep their width and then drop a descender to one side)."""
    spans = [np.flatnonzero(row) for row in glyph]
    if any(span.size == 0 for span in spans):
        return False
    widths = [int(span[-1] - span[0]) + 1 for span in spans]
    middle = (glyph.shape[1] - 1) / 2
    centred = all(abs((span[0] + span[-1]) / 2 - middle) <= 1.5 for span in spans)
    lower = widths[len(widths) // 2 :]
    narrowing = all(b < a for a, b in zip(lower, lower[1:], strict=False))
    return centred and narrowing and widths[-1] <= 0.5 * max(widths)


def _bevelled(frame: _Frame, box: Box) -> bool:
    """A shape drawn sunken or raised: its upper edge darker than the colour round it and its
    lower edge lighter, or the other way round (a glyph's edges are both its ink's colour)."""
    shape = _silhouette(frame.pixels, box) > 0
    columns = np.flatnonzero(shape.any(axis=0))
    if columns.size == 0:
        return False
    gray = frame.gray[box.y : box.bottom, box.x : box.right].astype(np.float64)
    top = shape[:, columns].argmax(axis=0)
    bottom = shape.shape[0] - 1 - shape[::-1, columns].argmax(axis=0)
    outside = _outside(frame.gray, box)
    upper = float(gray[top, columns].mean()) - outside
    lower = float(gray[bottom, columns].mean()) - outside
    faint, strong = sorted((abs(upper), abs(lower)))
    return faint >= BEVEL_FAINT and strong >= 2 * EDGE_CONTRAST and upper * lower < 0


def _outlined_fields(
    frame: _Frame, labels: np.ndarray, stats: np.ndarray, found: list[Widget]
) -> list[Widget]:
    """Fields whose inside is no one flat region (a value selected: the selection's block and
    the rest of the field are two), seen in the edge mask as a closed rectangular outline of
    a control's size, neither holding nor inside a control found, drawn solid (a dotted one is
    a focus ring round a label). `labels`, `stats`: the edge mask's components."""
    x, y, w, h, _ = stats.T
    candidates = np.flatnonzero(
        (h >= CONTROL_HEIGHTS[0] + 2) & (h <= CONTROL_HEIGHTS[1] + 4) & (w >= 1.2 * h)
    )
    controls = [f.box for f in found if f.kind not in ("container", "icon") + TOGGLES]
    toggles = [f.box for f in found if f.kind in TOGGLES]
    fields = []
    for label in candidates[candidates > 0]:
        box = Box(*(int(v) for v in stats[label][:4]))
        if any(c.intersection(box) >= 0.5 * min(c.area, box.area) for c in controls):
            continue  # found already, a table's row of cells, or a selection in a field
        if any(box.contains(t) and t.x - box.x <= t.w // 2 for t in toggles):
            continue  # a toggle's hover highlight round it and its label
        blob = labels[box.y : box.bottom, box.x : box.right] == label
        rows, columns = blob.mean(axis=1), blob.mean(axis=0)
        sides = (max(rows[:2]), max(rows[-2:]), max(columns[:2]), max(columns[-2:]))
        if min(sides) >= 0.9 and _solid_outline(frame.gray, box):
            fields.append(Widget(box, "input", 0.5))
    return fields


def _solid_outline(gray: np.ndarray, box: Box) -> bool:
    """The top and left lines of `box` drawn unbroken in a colour apart from what is round
    them (every other pixel of a dotted line is the background's)."""
    height, width = gray.shape
    if box.y < 1 or box.x < 1:
        return False
    around = float(
        np.median(
            np.concatenate(
                [gray[box.y - 1, box.x : box.right], gray[box.y : box.bottom, box.x - 1]]
            )
        )
    )
    line = np.concatenate([gray[box.y, box.x : box.right], gray[box.y : box.bottom, box.x]])
    return bool((np.abs(line.astype(np.int16) - around) > EDGE_CONTRAST).mean() >= 0.9)


def _silhouette(pixels: np.ndarray, box: Box) -> np.ndarray:
    """What of `box` differs from the colour just outside it, holes filled: a toggle's shape."""
    height, width = pixels.shape[:2]
    x0, y0 = max(0, box.x - 1), max(0, box.y - 1)
    x1, y1 = min(width, box.right + 1), min(height, box.bottom + 1)
    around = pixels[y0:y1, x0:x1]
    border = np.concatenate([around[0], around[-1], around[:, 0], around[:, -1]])
    outside = np.median(border, axis=0)
    crop = pixels[box.y : box.bottom, box.x : box.right].astype(np.int16)
    shape = (np.abs(crop - outside).max(axis=2) > SHAPE_CONTRAST).astype(np.uint8)
    return _fill_holes(shape)


def _accent(colours: np.ndarray) -> bool:
    """Mostly saturated colours (a checked toggle's blue), unlike black or grey text."""
    if colours.size == 0:
        return False
    return float(np.median(_spread(colours))) > ACCENT


def _spread(colours: np.ndarray) -> np.ndarray:
    """Each colour's channel spread: how far it is from a grey."""
    colours = colours.astype(np.int16)
    return colours.max(axis=-1) - colours.min(axis=-1)


def selection_block(pixels: np.ndarray, field: Box) -> Box | None:
    """The block of an accent colour a field draws behind the part of its value that is
    selected (a spin box's value as it takes the focus), or None: its top and bottom rows all
    fill, its corners square, its glyphs on it, at least half the field's inside tall."""
    inside = Box(field.x + FIELD_FRAME, field.y + FIELD_FRAME,
                 field.w - 2 * FIELD_FRAME, field.h - 2 * FIELD_FRAME)  # fmt: skip
    if min(inside.w, inside.h) < MIN_SIDE:
        return None
    fill = _spread(pixels[inside.y : inside.bottom, inside.x : inside.right]) > ACCENT
    rows, columns = np.flatnonzero(fill.any(axis=1)), np.flatnonzero(fill.any(axis=0))
    if rows.size < max(MIN_SIDE, inside.h / 2) or columns.size < MIN_SIDE:
        return None
    block = fill[rows[0] : rows[-1] + 1, columns[0] : columns[-1] + 1]
    edges = min(block[0].mean(), block[-1].mean())
    if edges < SELECTION_EDGE or block.mean() < SELECTION_FILL or block.all():
        return None
    found = Box(inside.x + int(columns[0]), inside.y + int(rows[0]), block.shape[1], block.shape[0])
    colours = pixels[found.y : found.bottom, found.x : found.right].astype(np.int16)
    corners = colours[[0, 0, -1, -1], [0, -1, 0, -1]]
    if np.abs(corners - np.median(colours[0], axis=0)).max() > EDGE_CONTRAST:
        return None  # rounded corners: a checked box drawn filled (on a selected row)
    return found


RIM = 0.15
"""Share of a round mark's side its anti-aliased rim may take."""
FLAT_SPREAD = 40
"""Grey levels a coloured dot's middle spans at most: a checked radio's has a white dot or
ring in it."""


def _flat_disc(pixels: np.ndarray, box: Box) -> bool:
    """A round mark of one flat colour: all but its rim, in every channel, one colour (a
    checked radio's white ring lies well inside its rim, at any scale)."""
    if not _round(_silhouette(pixels, box)):
        return False
    patch = pixels[box.y : box.bottom, box.x : box.right].astype(int)
    rows, columns = np.indices(patch.shape[:2])
    radius = min(box.w, box.h) / 2
    inside = np.hypot(rows + 0.5 - box.h / 2, columns + 0.5 - box.w / 2) <= (1 - 2 * RIM) * radius
    middle = patch[inside]
    return middle.size > 0 and int((middle.max(axis=0) - middle.min(axis=0)).max()) < FLAT_SPREAD


def _flat_square(pixels: np.ndarray, box: Box) -> bool:
    """A square mark of one flat colour inside its rim: a colour tag, not a checked box (whose
    tick is drawn across its fill). Its corners are left out: a swatch's are rounded."""
    inset = max(1, round(RIM * min(box.w, box.h)))
    across = pixels[box.y + box.h // 4 : box.bottom - box.h // 4, box.x + inset : box.right - inset]
    down = pixels[box.y + inset : box.bottom - inset, box.x + box.w // 4 : box.right - box.w // 4]
    middle = np.concatenate([across.reshape(-1, 3), down.reshape(-1, 3)]).astype(int)
    return middle.size > 0 and int((middle.max(axis=0) - middle.min(axis=0)).max()) < FLAT_SPREAD


def _icon_not_toggle(pixels: np.ndarray, box: Box, kind: ElementKind) -> Widget | None:
    """The icon button a marked "check box" or "radio" really is, if it is one.

    A framed tool button is a square with ink inside, just like a checked box. The icon namer
    tells them apart: a tick is named "check" (or nothing), a magnifier "search". A large
    square whose ink the namer almost takes for an icon is an icon it does not know; round
    icons that look like a checked radio (a dot in a ring: "info", "stop") never count.
    """
    inner = pixels[box.y + 1 : box.bottom - 1, box.x + 1 : box.right - 1]
    namer = default_namer()
    found = namer.match(inner)
    if kind == "radio":  # an unframed outline icon (a house) has no frame to cut off
        whole = namer.match(pixels[box.y : box.bottom, box.x : box.right])
        if whole is not None and (found is None or whole[1] > found[1]):
            found = whole
    if found is None or found[0] == NEGATIVE:
        return None
    name, score = namer.names[found[0]], found[1]
    if name in ROUND_ICONS:
        return None
    if kind == "radio":
        return Widget(box, "icon", 0.6, name=name) if score >= 0.8 else None
    if score >= namer.threshold:
        return Widget(box, "icon", 0.6, name=name)
    if min(box.w, box.h) >= LARGE_TOGGLE and score >= namer.threshold - 0.1:
        return Widget(box, "icon", 0.4)
    return None


def _unframed_icons(frame: _Frame, found: list[Widget]) -> list[Widget]:
    """Icons drawn straight on a toolbar or beside a field, with no outline round them.

    Such an icon is a small blob of ink (its strokes joined across gaps of a pixel or two)
    with clear space all round, outside every control, in a row with other such blobs or
    controls. Only blobs the icon namer names confidently are kept, so that a stray letter or
    digit is not taken for an icon; fusion later drops any that OCR read as part of a word.
    """
    low, high = ICON_BLOB
    # Strokes joined across small gaps, at half resolution (a quarter of the pixels to label),
    # less the rules and outlines near them (a card's edge under its row of icons).
    rules = cv2.morphologyEx(frame.edges, cv2.MORPH_OPEN, _RULE_ACROSS) | cv2.morphologyEx(
        frame.edges, cv2.MORPH_OPEN, _RULE_DOWN
    )
    grown = cv2.dilate(frame.edges & ~rules, _SQUARE)[::2, ::2]
    _, labels, stats, _ = cv2.connectedComponentsWithStats(grown, connectivity=8)
    x, y, w, h, _ = stats.T
    candidates = np.flatnonzero(
        (np.minimum(w, h) >= ICON_NARROW // 2)
        & (np.maximum(w, h) >= low // 2)
        & (w <= high // 2 + 2)
        & (h <= high // 2 + 2)
        & (w <= 2 * h + 1)
        & (h <= 2 * w + 1)
    )
    if candidates.size == 0:
        return []
    taken = np.zeros(frame.edges.shape, bool)
    for widget in found:
        # A bar (a toolbar seen as one wide button, a search field) holds icons of its own.
        bar = widget.box.w > BAR_RATIO * widget.box.h
        card = widget.kind == "input" and widget.box.h > CARD_HEIGHT  # a post's icons
        if widget.kind not in ("container", "list_item") and not bar and not card:
            taken[widget.box.y : widget.box.bottom, widget.box.x : widget.box.right] = True
    blobs = []
    for label in candidates:
        bx, by, bw, bh = (int(v) for v in stats[label][:4])
        window = (slice(2 * by, 2 * (by + bh)), slice(2 * bx, 2 * (bx + bw)))
        mine = np.repeat(np.repeat(labels[by : by + bh, bx : bx + bw] == label, 2, 0), 2, 1)
        ink = mine[: frame.edges[window].shape[0], : frame.edges[window].shape[1]]
        ink = ink & (frame.edges[window] > 0)
        parts = _side_by_side(ink, 2 * bx, 2 * by)
        for box in parts:
            short, long = sorted((box.w, box.h))
            if not (ICON_NARROW <= short and low <= long <= high):
                continue
            if not taken[box.y : box.bottom, box.x : box.right].any() and _isolated(
                frame.edges, box, beside=parts
            ):
                blobs.append(box)
    neighbours = blobs + [w.box for w in found if w.kind != "container"]
    namer = default_namer()
    icons: dict[Box, Widget] = {}
    unnamed = []
    for box in blobs:
        lone = not any(
            other is not box and (_in_row(box, other) or _in_column(box, other))
            for other in neighbours
        )
        crop = frame.pixels[box.y - 2 : box.bottom + 2, box.x - 2 : box.right + 2]
        named = namer.name(crop)
        if lone and (named is None or named[1] < LONE_ICON or named[0] in ROUND_ICONS):
            continue  # alone, only a picture the namer is sure of, no letter's look-alike
        if named is not None and named[0] != "check":
            icons[box] = Widget(box, "icon", round(0.5 * named[1], 3), name=named[0])
        else:
            unnamed.append(box)
    # A blob the namer does not know is still an icon in a toolbar of icons it does know, if
    # it is about square, as icons are (a word's ink is wider than tall).
    unnamed = [box for box in unnamed if box.w <= SQUARE * box.h]
    grew = True
    while grew:
        grew = False
        for box in list(unnamed):
            if any(
                (_in_row(box, other) or _in_column(box, other)) and _alike(box, other)
                for other in icons
            ):
                icons[box] = Widget(box, "icon", 0.3)
                unnamed.remove(box)
                grew = True
    height, width = frame.edges.shape
    return [replace(icon, box=_clickable(icon.box, width, height)) for icon in icons.values()]


def _ink_box(ink: np.ndarray, x: int, y: int) -> Box | None:
    """The tight box of the ink in `ink`, a patch whose top left is at (x, y)."""
    rows, columns = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        return None
    return Box(x + int(columns[0]), y + int(rows[0]), int(columns[-1] - columns[0]) + 1,
               int(rows[-1] - rows[0]) + 1)  # fmt: skip


def _side_by_side(ink: np.ndarray, x: int, y: int) -> list[Box]:
    """The ink's box, or the boxes of the icons it holds side by side: icons a few pixels
    apart (a mail's star beside its bin) are joined when strokes are, and are parted again at
    their blank columns when each part is icon-sized (a pause sign's bars are not)."""
    whole = _ink_box(ink, x, y)
    if whole is None:
        return []
    spans: list[list[int]] = []  # inked column runs, joined across a one-column gap
    for column in np.flatnonzero(ink.any(axis=0)).tolist():
        if spans and column - spans[-1][1] <= 2:
            spans[-1][1] = column
        else:
            spans.append([column, column])
    parts = [_ink_box(ink[:, a : b + 1], x + a, y) for a, b in spans]
    parts = [p for p in parts if p is not None]
    if len(parts) > 1 and all(min(p.w, p.h) >= ICON_NARROW for p in parts):
        return parts
    return [whole]


DOTS = ((3, 10), (8, 40))
"""px: the short and long sides of a "more" menu's three dots, as edges band them (1x to 2x)."""
DOT_INK = 20
"""Grey levels from the background at which a pixel is a dot's ink."""
DOT_FILL = 0.6
"""Share of its square a dot's ink fills at least (a letter's strokes fill less)."""
DOT_GAP = 5
"""px: the widest gap between two dots of one menu that the edges are joined across."""


def _dot_menus(frame: _Frame, found: list[Widget]) -> list[Widget]:
    """A "more" menu drawn as three dots in a row or a column ("…", "⋮"), evenly spaced,
    with clear space round them: too small for an icon's blob, and OCR reads them as noise.
    The edges are joined along each axis across a dot's gap, and each flat blob read along
    its length: three runs of ink as wide as they are tall, equally far apart."""
    (short_low, short_high), (long_low, long_high) = DOTS
    taken = [w.box for w in found if w.kind not in ("container", "list_item", "input")]
    height, width = frame.gray.shape  # (a card read as a field holds its menu)
    boxes: set[Box] = set()
    for kernel in (np.ones((1, DOT_GAP), np.uint8), np.ones((DOT_GAP, 1), np.uint8)):
        _, _, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(frame.edges, kernel),
                                                          connectivity=8)  # fmt: skip
        w, h = stats[:, 2], stats[:, 3]
        short, long = np.minimum(w, h), np.maximum(w, h)
        flat = np.flatnonzero((short >= short_low) & (short <= short_high) & (long >= long_low)
                              & (long <= long_high) & (long >= 2.5 * short))  # fmt: skip
        boxes.update(Box(*(int(v) for v in stats[i][:4])) for i in flat[flat > 0])
    menus = []
    for box in boxes:
        if box.x < 1 or box.y < 1 or box.right >= width or box.bottom >= height:
            continue
        patch = frame.gray[box.y - 1 : box.bottom + 1, box.x - 1 : box.right + 1].astype(np.int16)
        ring = np.concatenate([patch[0], patch[-1], patch[:, 0], patch[:, -1]])
        ink = np.abs(patch - int(np.median(ring))) > DOT_INK
        if _three_dots(ink) and not any(_overlaps(box, t) for t in taken) \
                and _isolated(frame.edges, box):  # fmt: skip
            menus.append(Widget(_clickable(box, width, height), "icon", 0.4, name="more"))
    return menus


def _three_dots(ink: np.ndarray) -> bool:
    """Whether the ink is three round dots of one size, evenly spaced, in a row or a column."""
    along = 1 if ink.shape[1] > ink.shape[0] else 0  # the axis the dots run along
    runs = ink_runs(ink.any(axis=1 - along))
    if len(runs) != 3:
        return False
    sizes = [b - a for a, b in runs]
    dots = [ink.take(range(a, b), axis=along) for a, b in runs]
    across = [int(dot.any(axis=along).sum()) for dot in dots]
    solid = all(dot.sum() >= DOT_FILL * size * wide for dot, size, wide in zip(dots, sizes, across,
                                                                            strict=True))  # fmt: skip
    gaps = [runs[1][0] - runs[0][1], runs[2][0] - runs[1][1]]
    return (max(sizes) - min(sizes) <= 1 and abs(gaps[0] - gaps[1]) <= 1 and gaps[0] >= 1
            and all(abs(a - b) <= 2 for a, b in zip(sizes, across, strict=True)) and solid)  # fmt: skip


def _clickable(ink: Box, width: int, height: int) -> Box:
    """The square round an unframed icon's ink that takes its clicks: the ink is narrower than
    the button drawn flat around it (an arrow's ink is 9 px of a 22 px button)."""
    side = max(ink.w, ink.h) + ICON_MARGIN
    x = max(0, min(width - side, ink.center[0] - side // 2))
    y = max(0, min(height - side, ink.center[1] - side // 2))
    return Box(x, y, min(side, width), min(side, height))


def _alike(box: Box, other: Box) -> bool:
    """Heights within a third of each other, as icons of one toolbar are."""
    return abs(box.h - other.h) <= max(box.h, other.h) / 3


def _in_row(box: Box, other: Box) -> bool:
    """`other` sits on the same row as `box`, no more than three of its heights away."""
    same_row = abs(box.center[1] - other.center[1]) <= max(box.h, min(other.h, 2 * box.h)) / 2
    gap = max(other.x - box.right, box.x - other.right)
    return same_row and gap <= 3 * box.h


def _in_column(box: Box, other: Box) -> bool:
    """`other` is an icon-sized blob right above or below `box`, centred with it, no more than
    three of its heights away: the icons leading the rows of a sidebar."""
    centred = abs(box.center[0] - other.center[0]) <= max(2, box.w // 4)
    gap = max(other.y - box.bottom, box.y - other.bottom)
    return centred and _alike(box, other) and abs(box.w - other.w) <= box.w / 3 and gap <= 3 * box.h


SIDEBAR_GAP = 6
"""Heights between the icons leading a sidebar's rows (a two-line entry spaces them out)."""


def _toggles_among_icons(widgets: list[Widget]) -> list[Widget]:
    """A "check box" or "radio" in a column with two icons is one of the icons that lead a
    sidebar's entries (a device drawn as a framed square, "blocked" as a slashed ring): a
    form's check boxes stand in a column of check boxes, not of pictures. With one icon, two
    "radios" both on say the same (a radio group has one on)."""
    small = [w for w in widgets if w.kind in _SMALL]
    group = list(range(len(small)))  # union-find over column neighbours

    def root(i: int) -> int:
        while group[i] != i:
            i = group[i]
        return i

    for i, a in enumerate(small):
        for j in range(i):
            if _column_mates(a.box, small[j].box):
                group[root(i)] = root(j)
    icons = Counter(root(i) for i, w in enumerate(small) if w.kind == "icon")
    radios_on = Counter(
        root(i) for i, w in enumerate(small) if w.kind == "radio" and "checked" in w.state
    )
    pictures = {
        id(w)
        for i, w in enumerate(small)
        if w.kind in TOGGLES
        and (icons[root(i)] >= 2 or (icons[root(i)] and radios_on[root(i)] >= 2))
    }
    return [
        Widget(w.box, "icon", w.score, frozenset(), w.name) if id(w) in pictures else w
        for w in widgets
    ]


def _column_mates(box: Box, other: Box) -> bool:
    """Centred one above the other, of about a size, a few entries apart at most."""
    gap = max(other.y - box.bottom, box.y - other.bottom)
    return (
        abs(box.center[0] - other.center[0]) <= max(2, min(box.w, other.w) // 3)
        and max(box.h, other.h) <= 1.6 * min(box.h, other.h)
        and 0 <= gap <= SIDEBAR_GAP * max(box.h, other.h)
    )


def _fold_icon_contents(widgets: list[Widget]) -> list[Widget]:
    """What sits inside an icon-sized button is its icon, not a control of its own: the lens
    of a magnifier is no radio. A named icon found inside names the button."""
    buttons = [
        w for w in widgets if w.kind in ("button", "icon") and max(w.box.w, w.box.h) <= ICON_BUTTON
    ]
    result = []
    named: dict[int, str] = {}
    for widget in widgets:
        host = next(
            (
                b
                for b in buttons
                if b is not widget
                and b.box.area > widget.box.area
                and b.box.contains(widget.box, slack=1)
            ),
            None,
        )
        if host is None or widget.kind not in ("checkbox", "radio", "icon", "button"):
            result.append(widget)
        elif widget.name and not host.name:
            named[id(host)] = widget.name
    return [
        Widget(w.box, "icon", w.score, w.state, named[id(w)]) if id(w) in named else w
        for w in result
    ]


def _icons_in_fields(widgets: list[Widget]) -> list[Widget]:
    """A "check box" or "radio" drawn at the right end of a field or button is a picture it
    shows (a time field's clock, a title bar's window button), not a toggle of its own (one at
    a row's start is the row's)."""
    fields = [w.box for w in widgets if w.kind in _CONTROLS and w.box.w >= 2 * w.box.h]

    def shown(toggle: Box) -> bool:
        return any(
            f.contains(toggle) and f.area >= 4 * toggle.area and f.right - toggle.right <= f.h
            for f in fields
        )

    return [
        Widget(w.box, "icon", 0.5) if w.kind in TOGGLES and shown(w.box) else w for w in widgets
    ]


def _without_selected_values(frame: _Frame, widgets: list[Widget]) -> list[Widget]:
    """What lies on the block a field draws behind its selected value is that value, no control
    of its own: the block's fill between the glyphs passes for a filled check box, the block
    with its glyphs for an icon. (What holds the field, a pane, stays.)"""
    blocks = [
        (w.box, block)
        for w in widgets
        if w.kind in FIELDS and (block := selection_block(frame.pixels, w.box)) is not None
    ]
    return [
        w
        for w in widgets
        if not any(
            w.box.area < field.area and b.intersection(w.box) >= 0.5 * min(b.area, w.box.area)
            for field, b in blocks
        )
    ]


def _isolated(
    edges: np.ndarray, box: Box, label_right: bool = False, beside: Sequence[Box] = ()
) -> bool:
    """Clear space all round, as a toggle keeps from its label (while a letter's round counter
    sits inside its stroke, between neighbouring letters). With `label_right`, the right side
    may be crowded: Chromium draws its label 3 px from an accent-coloured toggle. Icons
    `beside` it (its neighbours in a tight row) are no crowd."""
    clear = max(3, min(box.w, box.h) // 5)
    reach = clear + 1
    height, width = edges.shape
    if box.x < reach or box.y < reach or box.right + reach > width or box.bottom + reach > height:
        return False
    ring = edges[
        box.y - clear - 1 : box.bottom + clear + 1, box.x - clear - 1 : box.right + clear + 1
    ].copy()
    # A straight line running right past (a list's header rule, a table's grid) is no
    # neighbour: the first check box of a list sits just below its header.
    ring[ring.mean(axis=1) >= 0.9] = 0  # (a rule may stop a pixel short of the ring's end)
    ring[:, ring.mean(axis=0) >= 0.9] = 0
    ring[clear:-clear, clear:-clear] = 0  # also skips the band's trailing pixel at distance 1
    left, top = box.x - clear - 1, box.y - clear - 1
    for other in (b for b in beside if b != box):
        ring[max(0, other.y - top - 1) : max(0, other.bottom - top + 1),
             max(0, other.x - left - 1) : max(0, other.right - left + 1)] = 0  # fmt: skip
    if label_right:
        ring[:, -clear - 1 :] = 0
    top, centre = box.y - clear - 1, box.w // 2 + clear + 1
    above = ring[box.y - reach - top : box.y - 1 - top, centre]
    below = ring[box.bottom + 1 - top : box.bottom + reach - top, centre]
    ring_area = ring.size - (box.h + 2) * (box.w + 2)
    return ring.sum() <= 0.05 * ring_area and not above.any() and not below.any()


def _outside(gray: np.ndarray, box: Box) -> float:
    """The grey level just above and below the middle of `box` (its sides may touch a label)."""
    middle = slice(box.x + box.w // 3, box.right - box.w // 3)
    above, below = max(box.y - 2, 0), min(box.bottom + 1, gray.shape[0] - 1)  # at the edges
    return float(np.median(np.concatenate([gray[above, middle], gray[below, middle]])))


def _centre_contrast(gray: np.ndarray, box: Box) -> float:
    """How far the middle of `box` is from the colour just outside it."""
    cy, cx = box.y + box.h // 2, box.x + box.w // 2
    return abs(float(gray[cy - 1 : cy + 2, cx - 1 : cx + 2].mean()) - _outside(gray, box))


def _framed(mask: np.ndarray) -> bool:
    """A region running along its box's top and bottom and most of its sides, as the inside
    of a rectangle does."""
    across = min(mask[0].mean(), mask[-1].mean())
    down = min(mask[:, 0].mean(), mask[:, -1].mean())
    return across >= FRAMED[0] and down >= FRAMED[1]


def _notches_filled(filled: np.ndarray) -> np.ndarray:
    """A rectangle's inside with what cuts into it from a side filled in: a value drawn a pixel
    from a Tk entry's frame joins the frame, a notch, not a hole. What is missing at a corner
    (a rounded one) stays out."""
    _, parts = cv2.connectedComponents((filled == 0).astype(np.uint8), connectivity=4)
    corners = [parts[0, 0], parts[0, -1], parts[-1, 0], parts[-1, -1]]
    return (filled | ((parts > 0) & ~np.isin(parts, corners))).astype(np.uint8)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 1, cv2.FILLED)
    return filled


def _shrink(mask: np.ndarray, pixels: int) -> np.ndarray:
    return cv2.erode(
        mask, _SQUARE, iterations=pixels, borderType=cv2.BORDER_CONSTANT, borderValue=0
    )


def _grow(mask: np.ndarray, pixels: int) -> np.ndarray:
    return cv2.dilate(mask, _SQUARE, iterations=pixels)


def _round(mask: np.ndarray) -> bool:
    """Empty corners all round, as a circle has (and a square or a glyph's hole has not)."""
    k = max(2, int(0.15 * min(mask.shape)))
    corners = (mask[:k, :k], mask[:k, -k:], mask[-k:, :k], mask[-k:, -k:])
    return all(corner.mean() < 0.35 for corner in corners)


def _run_length(line: np.ndarray) -> int:
    """How far the leading edge pixels of `line` reach, bridging single-pixel gaps."""
    reach = 0
    for index, value in enumerate(line):
        if value:
            reach = index + 1
        elif index > reach:  # a second non-edge pixel in a row ends the band
            break
    return reach


SWITCH_HEIGHTS = (9, 60)  # px: a switch's track, less its border, at scales 1 to 2.5
SWITCH_NOTCH = 0.3  # of the track's height: where the knob cuts the track's middle row short
SWITCH_CONTRAST = 15  # grey levels (any channel) between a track and the page round it


def _ring(pixels: np.ndarray, box: Box, width: int) -> np.ndarray | None:
    """The pixels in a band `width` wide just outside `box` (None when it leaves the frame)."""
    height, full = pixels.shape[:2]
    x0, y0 = box.x - width, box.y - width
    x1, y1 = box.x + box.w + width, box.y + box.h + width
    if x0 < 0 or y0 < 0 or x1 > full or y1 > height:
        return None
    outer = pixels[y0:y1, x0:x1].reshape(-1, 3)
    inside = np.zeros((y1 - y0, x1 - x0), bool)
    inside[width:-width, width:-width] = True
    return outer[~inside.reshape(-1)].astype(float)


def _switch(frame: _Frame, labels: np.ndarray, label: int, stat: np.ndarray) -> Widget | None:
    """A switch (a toggle drawn as a pill with a round knob): its track is one flat colour,
    about twice as wide as high, its middle row cut short at one end by the knob. The knob at
    the right end is on."""
    x, y, w, h, area = (int(v) for v in stat)
    if not (SWITCH_HEIGHTS[0] <= h <= SWITCH_HEIGHTS[1] and 1.2 * h <= w <= 2.4 * h):
        return None
    if not 0.45 <= area / (w * h) <= 0.8:
        return None
    mask = labels[y : y + h, x : x + w] == label
    colours = frame.pixels[y : y + h, x : x + w][mask]
    if colours.std(axis=0).max() > 6 or colours.mean() > 245:
        return None  # text or shading inside, or the page's own white
    row = np.flatnonzero(mask[h // 2])
    if row.size == 0:
        return None
    runs = np.split(row, np.flatnonzero(np.diff(row) > 1) + 1)
    notch = SWITCH_NOTCH * h
    if len(runs) == 2:  # the knob drawn inside the track (a hole in its middle row)
        gap = (int(runs[0][-1]) + 1, int(runs[1][0]))
        outer = min(runs, key=len)
        if gap[1] - gap[0] < 2 * notch or len(outer) > notch or row[0] > 2 or row[-1] < w - 3:
            return None
        on = outer is runs[1]
        knob_x = x + (gap[0] + gap[1]) // 2
    elif len(runs) == 1:  # the knob cuts the track's end
        left, right = int(row[0]), w - 1 - int(row[-1])
        if (left > notch) == (right > notch) or min(left, right) > 2:
            return None  # a knob cuts exactly one end
        on = right > notch
        knob_x = x + (int(row[-1]) + w) // 2 if on else left // 2 + x
    else:
        return None
    track = colours.mean(axis=0)
    around = _ring(frame.pixels, Box(x, y, w, h), max(3, h // 4))
    if around is None:
        return None
    page = np.median(around, axis=0)
    if (np.abs(around - page).max(axis=1) <= SWITCH_CONTRAST).mean() < 0.6:
        return None  # ink all round: the inside of a letter, not a track on a page
    if np.abs(page - track).max() < SWITCH_CONTRAST:
        return None  # a track is drawn apart from its page
    knob = frame.pixels[y + h // 2, knob_x]
    if np.abs(knob.astype(float) - track).max() < 2 * SWITCH_CONTRAST:
        return None  # the knob stands out from the track
    reach = int(0.3 * h) if len(runs) == 1 else 0  # a knob at the end reaches past the track
    box = Box(x - 2 - (0 if on else reach), y - 2, w + 4 + reach, h + 4)
    return Widget(box, "toggle", 0.8, _CHECKED if on else frozenset())


def _letters_inside(ink: np.ndarray) -> bool:
    """Whether the ink inside a round outline is two or more marks side by side (an avatar's
    initials "AO"), not the one dot of a radio button."""
    if not ink.any():
        return False
    count, _, stats, _ = cv2.connectedComponentsWithStats(ink.astype(np.uint8), connectivity=8)
    marks = [s for s in stats[1:count] if s[4] >= 3]
    wide = any(s[2] >= 1.5 * s[3] and s[2] >= 6 for s in marks)  # letters run together
    return len(marks) >= 2 or wide


def _overlaps(a: Box, b: Box) -> bool:
    return a.intersection(b) >= 0.5 * min(a.area, b.area)


def _holds(widget: Widget, box: Box) -> bool:
    return (
        widget.kind == "container" and widget.box.area >= 4 * box.area and widget.box.contains(box)
    )


def _drop_duplicates(widgets: list[Widget]) -> list[Widget]:
    """Keep one widget where two boxes trace the same control (a double outline)."""
    ordered = sorted(widgets, key=lambda w: -w.box.area)
    same = _pairwise_iou([w.box for w in ordered]) > 0.7
    kept: list[int] = []
    for index in range(len(ordered)):
        if not same[index, kept].any():
            kept.append(index)
    return [ordered[i] for i in kept]


def _pairwise_iou(boxes: list[Box]) -> np.ndarray:
    """The IoU of every pair of boxes, as an n x n array (a dense table has hundreds)."""
    if not boxes:
        return np.zeros((0, 0))
    x, y, w, h = np.array(boxes, np.int64).T
    right, bottom = x + w, y + h
    across = np.minimum(right[:, None], right[None]) - np.maximum(x[:, None], x[None])
    down = np.minimum(bottom[:, None], bottom[None]) - np.maximum(y[:, None], y[None])
    inter = np.clip(across, 0, None) * np.clip(down, 0, None)
    area = np.clip(w, 0, None) * np.clip(h, 0, None)
    union = area[:, None] + area[None] - inter
    return np.divide(inter, union, out=np.zeros(inter.shape), where=union > 0)


def _join_combo_buttons(widgets: list[Widget]) -> list[Widget]:
    """An editable combo box draws its arrow as a separate small square flush with its field
    (top and bottom level with it), which alone would pass for a button or a check box.

    Two such squares flush with each other are a spin box's minus and plus buttons, each
    clicked on its own, so neither joins. The list is rebuilt, never edited in place: a piece
    may already have been joined (or have become a field's partner) when its turn comes.
    """
    squares = [
        w for w in widgets if w.kind in ("button", "checkbox", "icon") and w.box.w <= w.box.h * 1.5
    ]
    result = list(widgets)
    for arrow in squares:
        if not any(arrow is w for w in result) or any(
            _flush(arrow.box, o.box) or _flush(o.box, arrow.box) for o in squares if o is not arrow
        ):
            continue
        field = next(
            (
                w
                for w in result
                if w is not arrow and w.kind in _CONTROLS and _flush(w.box, arrow.box)
            ),
            None,
        )
        if field is None:
            continue
        joined = Widget(field.box.union(arrow.box), "combo", 0.7)
        result = [joined if w is field else w for w in result if w is not arrow]
    return result


def _spin_buttons(widgets: list[Widget]) -> list[Widget]:
    """Two squares flush with each other, the first flush with a field, are a spin box's
    minus and plus buttons (named so when the plus's sign is known: "add"), never a checked
    box or a radio (a disabled minus's faint sign in a square 36 px wide), however large their
    frame; the field is a field, however narrow."""
    squares = [
        w for w in widgets if w.kind in ("button", "icon") + TOGGLES and w.box.w <= 1.5 * w.box.h
    ]
    fields = [w for w in widgets if w.kind in _CONTROLS and w.box.w > 1.2 * w.box.h]
    next_square = _flush_after(squares, squares)
    changed: dict[int, Widget] = {}
    for field, at in zip(fields, _flush_after(fields, squares), strict=True):
        second = next_square[at] if at is not None else None
        if at is None or second is None:
            continue
        first, second = squares[at], squares[second]
        minus = first.name or ("remove" if second.name == "add" else "")
        changed[id(field)] = replace(field, kind="input")
        for square, name in ((first, minus), (second, second.name)):
            changed[id(square)] = Widget(square.box, "icon" if name else "button", 0.6, name=name)
    return [changed.get(id(w), w) for w in widgets]


def _join_slider_pieces(widgets: list[Widget]) -> list[Widget]:
    """A slider drawn as a sunken trough with a raised handle (Tk's Scale) reads as a field,
    one or two small squares and another field, flush in one band: one control, the handle
    where its value is. (A spin box's two squares end its field; they have no field after.)"""
    pieces = [w for w in widgets if w.kind in _CONTROLS + ("checkbox", "icon")]
    after = _flush_after(pieces, pieces)
    result = list(widgets)
    for start, left in enumerate(pieces):
        if left.kind not in ("input", "button"):
            continue
        chain, at = [left], start
        while True:
            if after[at] is None:
                break
            at = after[at]
            following = pieces[at]
            chain.append(following)
            if following.kind in ("input", "button") and 2 <= len(chain) - 2 <= 2:
                handle = chain[1:-1]
                if all(h.box.w <= 1.5 * h.box.h for h in handle):
                    box = chain[0].box
                    for piece in chain[1:]:
                        box = box.union(piece.box)
                    joined = Widget(box, "input", 0.6, SLIDER)
                    result = [w for w in result if not any(w is p for p in chain)] + [joined]
                break
            if following.kind in ("input", "button") or len(chain) > 4:
                break
    return result


TRACK_HEIGHT = (3, 10)  # px: the inside of a slider's thin track (a range input's)
TRACK_WIDTH = 30  # px: the shortest plain piece of track beside a thumb


def _thin_sliders(stats: np.ndarray, found: list[Widget], upright: bool = False) -> list[Widget]:
    """Range sliders drawn as a thin flat track with a thumb or handle taller than the track
    against it (Chromium's: the filled side and the thumb share a colour, so they are one
    region, the plain side another; a jQuery slider's square handle cuts its track in two).
    `upright`: vertical ones, found the same way with the axes swapped."""
    if upright:
        stats = stats[:, [1, 0, 3, 2, 4]]
        found = [replace(f, box=_swapped(f.box)) for f in found]
    x, y, w, h, area = stats.T
    thin = np.flatnonzero(
        (h >= TRACK_HEIGHT[0])
        & (h <= TRACK_HEIGHT[1])
        & (w >= TRACK_WIDTH)
        & (w >= 4 * h)
        & (area >= 0.8 * w * h)
    )
    sliders = []
    for index in thin[thin > 0]:
        track = Box(*(int(v) for v in stats[index][:4]))
        middle = y + h / 2
        beside = np.flatnonzero(
            (np.abs(middle - (track.y + track.h / 2)) <= 2)
            & (h >= track.h + 2)
            & (h <= 4 * track.h + 4)
            & (w >= 8)
            & (
                (np.abs(x + w - track.x) <= 3)  # the thumb (and filled side) on the left
                | (np.abs(track.right - x) <= 3)  # or on the right
            )
        )
        for other in beside[beside > 0]:
            box = track.union(Box(*(int(v) for v in stats[other][:4])))
            rest = np.flatnonzero(  # the track's other piece, past a square handle
                (np.abs(y - track.y) <= 2) & (np.abs(h - track.h) <= 2) & (area >= 0.8 * w * h)
                & ((np.abs(x - box.right) <= 3) | (np.abs(x + w - box.x) <= 3))
            )  # fmt: skip
            for piece in rest[rest > 0]:
                box = box.union(Box(*(int(v) for v in stats[piece][:4])))
            if not any(f.box.intersection(box) for f in found if f.kind != "container"):
                sliders.append(Widget(_swapped(box) if upright else box, "input", 0.5, SLIDER))
    return _drop_duplicates(sliders)


def _swapped(box: Box) -> Box:
    """The box with its axes swapped (x for y, width for height)."""
    return Box(box.y, box.x, box.h, box.w)


SLIDER_LENGTH = 60  # px: the shortest slider seen whole in the edges
KNOB = (10, 40)  # px: the height range of a slider's round knob
STRAIGHT_RUN = 8  # px: columns alike in a row that are a piece of straight track
TRACK_SHARE = 0.6  # of its knob's height, the thickest a slider's track is (a web page's: 8 of 17)


def _knob_sliders(labels: np.ndarray, stats: np.ndarray, found: list[Widget]) -> list[Widget]:
    """Sliders whose trough is too thin to have an inside (GTK's: 4 px with its border), seen
    as one shape in the edges: a long thin line with a round knob on it, as tall as the whole
    shape and about as wide as tall, the line running through the knob's middle."""
    x, y, w, h, _ = stats.T
    long = np.flatnonzero((w >= SLIDER_LENGTH) & (w >= 3 * h) & (h >= KNOB[0]) & (h <= KNOB[1]))
    sliders = []
    controls = [f for f in found if f.kind != "container"]
    for index in long[long > 0]:
        box = Box(*(int(v) for v in stats[index][:4]))
        shape = labels[box.y : box.bottom, box.x : box.right] == index
        rows = np.arange(box.h)[:, None]
        top = np.where(shape, rows, box.h).min(axis=0)
        bottom = np.where(shape, rows, -1).max(axis=0)
        extent = np.where(bottom >= 0, bottom - top + 1, 0)
        tall = np.flatnonzero(extent >= 0.8 * box.h)
        thin = extent[(extent > 0) & (extent <= TRACK_SHARE * box.h)]
        if tall.size == 0 or tall[-1] - tall[0] + 1 > 1.5 * box.h or thin.size < box.w / 2:
            continue  # no knob, a knob too wide to be round, or little line beside it
        if np.percentile(thin, 90) > 0.4 * box.h and not _straight(shape, extent, box.h):
            continue  # a thick track is one straight band (a word in bold is not)
        middle = (top + bottom) / 2
        line_middle = float(np.median(middle[(extent > 0) & (extent <= TRACK_SHARE * box.h)]))
        centred = abs(line_middle - box.h / 2) <= max(2.0, 0.15 * box.h)
        slider = Widget(box, "input", 0.5, SLIDER)
        if centred and not any(
            c.box.intersection(box) and not _a_knob(c, [slider]) for c in controls
        ):
            sliders.append(slider)
    return sliders


CARD_HEIGHT = 40  # px: the least height of a choice card (a list's row, 24 px, is none)


def _choice_cards(widgets: list[Widget]) -> list[Widget]:
    """A framed box with a radio button or check box at its left end is a choice drawn as a
    card (its label and what it costs beside the toggle), not a field or drop-down to fill."""
    toggles = [w.box for w in widgets if w.kind in TOGGLES]

    def card(field: Widget) -> bool:
        box = field.box
        return field.kind in FIELDS and any(
            box.contains(t) and t.x - box.x <= 3 * t.w and box.h >= max(3 * t.h, CARD_HEIGHT)
            for t in toggles
        )

    return [replace(w, kind="container", score=0.6) if card(w) else w for w in widgets]


def _a_knob(widget: Widget, sliders: list[Widget]) -> bool:
    """A round thumb drawn apart from its track reads as a radio button (or a flat dot) on
    its own."""
    return (widget.kind in TOGGLES or widget.name.endswith("dot")) and any(
        s.box.contains(widget.box, slack=2) and widget.box.h >= 0.7 * s.box.h for s in sliders
    )


def _straight(shape: np.ndarray, extent: np.ndarray, height: int) -> bool:
    """Whether the thin columns of a slider-like shape are one straight band: unbroken, and
    the same from one column to the next (letters change at every stroke)."""
    columns = np.flatnonzero((extent > 0) & (extent <= TRACK_SHARE * height))
    if (extent == 0).any() or columns.size < 2:
        return False
    profiles = shape[:, columns]
    same = np.r_[False, (profiles[:, 1:] == profiles[:, :-1]).all(axis=0) & (np.diff(columns) == 1)]
    starts = np.flatnonzero(~same)
    runs = np.diff(np.r_[starts, columns.size])
    return bool(runs[runs >= STRAIGHT_RUN].sum() >= 0.5 * columns.size)


def _flush_after(lefts: list[Widget], rights: list[Widget]) -> list[int | None]:
    """For each of `lefts`, the index of the first of `rights` that continues it on its right
    (`_flush` for many at once: a dense table has hundreds)."""
    if not lefts or not rights:
        return [None] * len(lefts)
    lx, ly, lw, lh = np.array([w.box for w in lefts], np.int64).T
    rx, ry, rw, rh = np.array([w.box for w in rights], np.int64).T
    flush = (
        (np.abs(rx[None] - (lx + lw)[:, None]) <= 3)
        & (np.abs(ry[None] - ly[:, None]) <= 3)
        & (np.abs((ry + rh)[None] - (ly + lh)[:, None]) <= 3)
    )
    first = flush.argmax(axis=1)
    return [int(f) if flush[i, f] else None for i, f in enumerate(first)]


def _flush(left: Box, right: Box) -> bool:
    """`right` continues `left` on its right side, tops and bottoms level within 3 px."""
    return (
        -3 <= right.x - left.right <= 3
        and abs(right.y - left.y) <= 3
        and abs(right.bottom - left.bottom) <= 3
    )


def _tag_tabs(widgets: list[Widget]) -> list[Widget]:
    """Buttons in an unbroken row with the current tab, bottoms level with it, are tabs too
    (their outlines a few pixels apart, more at 200 %)."""
    result = list(widgets)
    tabs = [w for w in result if w.kind == "tab"]
    while tabs:
        tab = tabs.pop()
        slack = max(3, tab.box.h // 8)
        for index, widget in enumerate(result):
            touching = (
                -slack <= widget.box.x - tab.box.right <= slack
                or -slack <= tab.box.x - widget.box.right <= slack
            )
            if (
                widget.kind == "button"
                and touching
                and abs(widget.box.bottom - tab.box.bottom) <= 4
            ):
                result[index] = Widget(widget.box, "tab", widget.score)
                tabs.append(result[index])
    # A "field" inside a tab is its label's focus ring (Tk's current tab); a tab's own close
    # button stays.
    tab_boxes = [w.box for w in result if w.kind == "tab"]
    return [
        w
        for w in result
        if w.kind != "input" or not any(t.contains(w.box, slack=2) for t in tab_boxes)
    ]


def _tag_headers(widgets: list[Widget]) -> list[Widget]:
    """Three or more fields and buttons side by side, sharing their borders, tops and bottoms
    level, are buttons: a list's column headers (clicked, they sort it) or a segmented row of
    buttons. A field followed by two squares of one size is a spin box: it stays as it is."""
    controls = [i for i, w in enumerate(widgets) if w.kind in _CONTROLS]
    if not controls:
        return widgets
    boxes = np.array([widgets[i].box for i in controls], np.int64)
    beside = _sharing(boxes, across=True) & (boxes[:, 3] <= CONTROL_HEIGHTS[1] // 2)[:, None]
    headers: set[int] = set()
    for group in _groups(beside):
        row = sorted((widgets[controls[i]] for i in group), key=lambda v: v.box.x)
        spin = len(row) >= 3 and all(
            v.box.w <= 1.5 * v.box.h and abs(v.box.w - row[-1].box.w) <= 2 for v in row[-2:]
        )
        if len(group) >= 3 and not spin:
            headers.update(controls[i] for i in group)
    return [
        Widget(w.box, "button", w.score, w.state, w.name) if i in headers else w
        for i, w in enumerate(widgets)
    ]


def _sharing(boxes: np.ndarray, across: bool) -> np.ndarray:
    """An n x n array: whether two boxes share a border, side by side with tops and bottoms
    level (`across`), else one on the other with left and right sides level."""
    x, y, w, h = boxes.T
    if not across:  # the same test with the axes swapped
        x, y, w, h = y, x, h, w
    right, bottom = x + w, y + h
    sharing = (
        (np.abs(y[:, None] - y[None]) <= 2)
        & (np.abs(bottom[:, None] - bottom[None]) <= 2)
        & ((np.abs(right[:, None] - x[None]) <= 2) | (np.abs(right[None] - x[:, None]) <= 2))
    )
    np.fill_diagonal(sharing, False)
    return sharing


def _groups(linked: np.ndarray) -> list[list[int]]:
    """The connected groups of an n x n adjacency matrix, each a list of indices."""
    seen = np.zeros(len(linked), bool)
    groups = []
    for start in range(len(linked)):
        if seen[start]:
            continue
        seen[start] = True
        group, frontier = [start], [start]
        while frontier:
            found = np.flatnonzero(linked[frontier].any(axis=0) & ~seen)
            seen[found] = True
            frontier = found.tolist()
            group.extend(frontier)
        groups.append(group)
    return groups


def _tag_cells(widgets: list[Widget]) -> list[Widget]:
    """Boxes stacked flush on top of each other, column-aligned, three or more, are table or
    list cells (a drop-down is none: the list it opens may hang flush under it).

    Form fields always leave a gap between rows; the cells of a table share their borders
    (two bars that touch, a header bar over a tab strip, are no table).
    """

    controls = [i for i, w in enumerate(widgets) if w.kind in ("button", "input")]
    if not controls:
        return widgets
    stacked = _sharing(np.array([widgets[i].box for i in controls], np.int64), across=False)
    cells = {controls[i] for group in _groups(stacked) if len(group) >= 3 for i in group}
    return [Widget(w.box, "list_item", w.score) if i in cells else w for i, w in enumerate(widgets)]


TRACK_CONTRAST = 24
"""How far (summed over R, G and B) a track's pixel is from the background it lies on."""
TRACK_GAP = 2
"""Pixels of plain background a track may skip (its rounded end, anti-aliasing)."""


def slider_track(pixels: np.ndarray, box: Box) -> Box:
    """A horizontal slider's whole track, where only a part of it was boxed: the filled part
    in the accent colour, with the rest of the track pale grey beside it and the knob
    between. Followed along the box's middle row both ways while the row differs from the
    background above and below it, and across the knob (its ring reaches above and below the
    track); a plain gap of background ends it. `box` itself when nothing goes on."""
    height, width = pixels.shape[:2]
    y = box.center[1]
    reach = box.h + 3  # above and below: the background beside the track
    if box.h > box.w or y - reach < 0 or y + reach >= height:
        return box
    band = pixels[y - reach : y + reach + 1].astype(np.int16)
    background = band[0]
    differs = np.abs(band - background).sum(axis=2) > TRACK_CONTRAST  # (rows, columns)
    track = differs[reach] & ~differs[0] & ~differs[-1]
    knob = differs.any(axis=0) & ~track  # a column crossed by the knob, not by the track
    going = track | knob

    def reach_to(start: int, step: int) -> int:
        last, x = start, start
        while 0 <= x + step < width and (going[x + step] or abs(x + step - last) <= TRACK_GAP):
            x += step
            if track[x]:
                last = x
        return last

    left, right = reach_to(box.x, -1), reach_to(box.right - 1, 1)
    return Box(left, box.y, right - left + 1, box.h)
