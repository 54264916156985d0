"""List, table and tree rows: what one selects in a file chooser, a list dialog or a mail list,
and sidebar navigation drawn in ordinary text colour.

Such rows have no outline of their own, so the widget detector cannot see them. They show as a
stack of lines at a steady pitch whose first cells (a text, a check box, an icon) start at one x,
each line on a background that runs on to the list's edge. Each line becomes a `list_item` as
wide as that background and one pitch tall, carrying its cells' text, and `selected` when its
background is a highlight the list's other rows lack. A line holding a field is a form's row,
and a stack of long lines is a paragraph: neither is a list.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, replace

import numpy as np

from clickwright.parsers.fusion import TextBox, as_bars, hosts_of, lists_of
from clickwright.parsers.menus import menu_bar
from clickwright.parsers.widgets import Widget
from clickwright.types import Box, Element

MIN_ROWS = 3  # fewer lines in a column are as likely a label and its neighbour
ALIGN = 3  # px: the first cells of one list's rows start within this of one x (OCR jitters)
PITCH = (0.9, 2.6)  # the range of a row's pitch, in heights of its first cell (OCR's boxes
# of dense rows are as tall as the pitch)
PITCH_SLACK = 0.15  # how far (share of the pitch, at least 3 px) one step may differ
BACKGROUND = 12  # summed channel difference within which a pixel is the row's background
OPEN = 0.5  # share of a pixel column that must be background (or a cell) to go on across it
SELECTED = 40  # summed channel difference at which a row's background is a highlight
PARAGRAPH_WORDS = 6  # lines this long, all of them, are a paragraph's
FIELDS = ("input", "combo")  # a line holding one of these is a form's row
CAPTION = (":", "：")  # a text ending so names what follows it: a form's label
HOSTS = ("input", "combo", "button", "tab", "list_item")  # texts inside these are their own
LEADS = ("checkbox", "radio", "icon")  # textless widgets that can start a row
TOGGLES = ("checkbox", "radio")
HIGHLIGHT = 60  # spread of a colour's channels from which it is a highlight, not grey
LABEL_GAP = (4, 0.4)  # px, and toggle widths: the most a check button's label starts after it
BAND_RATIO = 2.5  # a box this many times wider than tall may be a band across a list
GAP = 1.5  # one step of a run may be this many pitches long (a separator between groups)
TREE_INDENT = 3  # pitches: how far left of a run's column a tree's parent rows may start
TREE_REACH = 1  # rows: how far a row on a run's grid may be from the next one held


@dataclass(frozen=True)
class _Row:
    element: Element
    cells: int  # how many cells it holds


@dataclass(frozen=True)
class _Cell:
    box: Box
    text: str
    score: float
    toggle: bool = False

    @property
    def middle(self) -> float:
        return self.box.y + self.box.h / 2


def find_rows(pixels: np.ndarray, texts: list[TextBox], widgets: list[Widget]) -> list[Element]:
    """The list rows on a frame, as interactive `list_item` elements without text (fusion gives
    them the text of what they hold) and with ids 0."""
    # A selected row drawn as a coloured band, and a bar holding a line's phrases apart (a
    # menu's item and its shortcut key), hold a row's cells, not a control's text.
    widgets = as_bars([w for w in widgets if not _highlight_band(pixels, w)], texts)
    hosts = [w.box for w in widgets if w.kind in HOSTS]
    hosted = hosts_of([t.box for t in texts], hosts)
    # A field holding texts on several lines is a list box (a popup's items): they are rows.
    lists = {
        hosts[h]
        for h in set(hosted) - {None}
        if _several_lines([t.box for t, o in zip(texts, hosted, strict=True) if o == h])
    }
    hosted = [None if h is not None and hosts[h] in lists else h for h in hosted]
    fields = [w.box for w in widgets if w.kind in FIELDS and w.box not in lists]
    bar = menu_bar(texts)
    cells = [
        _Cell(t.box, t.text, t.score)
        for i, t in enumerate(texts)
        if i not in bar and hosted[i] is None
    ]
    cells += [_Cell(w.box, "", w.score, w.kind in TOGGLES) for w in widgets if w.kind in LEADS]
    rows: list[_Row] = []
    columns = _columns(cells)
    for column in columns:
        for run in _runs(column):
            if not _skips_lines(run, cells):
                rows.extend(_run_rows(pixels, run, cells, fields, columns))
    kept = _distinct(rows)
    return _mark_selected(pixels, kept)


def _several_lines(boxes: list[Box]) -> bool:
    return any(abs(a.center[1] - b.center[1]) > max(a.h, b.h) / 2 for a in boxes for b in boxes)


def _highlight_band(pixels: np.ndarray, widget: Widget) -> bool:
    """A wide flat box of a saturated colour is a selected row (or a bar) the detector took
    for a field or button: its texts are a row's cells, not a control's (a coloured button
    alone is no row: rows come three or more)."""
    box = widget.box
    if widget.kind not in HOSTS or box.w < BAND_RATIO * box.h:
        return False
    return _saturated(commonest_colour(_crop(pixels, box)[::2, ::4]))  # a sample is enough


def _saturated(colour: np.ndarray) -> bool:
    """A highlight's colour, not a grey."""
    return int(colour.max() - colour.min()) > HIGHLIGHT


def _columns(cells: list[_Cell]) -> list[list[_Cell]]:
    """Cells grouped by where they start (each within ALIGN of the one before, the group no
    wider than 3 ALIGN), each group top to bottom."""
    groups: list[list[_Cell]] = []
    for cell in sorted(cells, key=lambda c: c.box.x):
        x = cell.box.x
        if groups and x - groups[-1][-1].box.x <= ALIGN and x - groups[-1][0].box.x <= 3 * ALIGN:
            groups[-1].append(cell)
        else:
            groups.append([cell])
    return [sorted(g, key=lambda c: c.middle) for g in groups if len(g) >= MIN_ROWS]


def _runs(column: list[_Cell]) -> list[list[_Cell]]:
    """Stretches of a column whose cells follow each other at one steady row pitch."""
    runs: list[list[_Cell]] = []
    run = [column[0]]
    pitch = 0.0
    gapped = False
    for cell in column[1:]:
        step = cell.middle - run[-1].middle
        if step < run[-1].box.h / 2:
            continue  # on the same line as the last (a text and an icon OCR read apart)
        height = max(cell.box.h, run[-1].box.h)
        fits = PITCH[0] * height <= step <= PITCH[1] * height
        if fits and pitch:
            steady = abs(step - pitch) <= max(3.0, PITCH_SLACK * pitch)
            gap = not gapped and len(run) >= 2 and pitch < step <= GAP * pitch
            fits = steady or gap
            gapped = gapped or (gap and not steady)
        if fits:
            pitch = pitch or step
            run.append(cell)
        else:
            runs.append(run)
            run, pitch, gapped = [cell], 0.0, False
    runs.append(run)
    return [r for r in runs if len(r) >= MIN_ROWS and not _paragraph(r)]


def _skips_lines(run: list[_Cell], cells: list[_Cell]) -> bool:
    """A text between two of the run's lines, starting about where they do: the run takes
    every other line of a text (OCR read an editor's monospaced words apart, so its lines
    start at jittering x), no list's rows, which have nothing between them."""
    for above, below in zip(run, run[1:], strict=False):
        for cell in cells:
            between = above.box.bottom <= cell.middle <= below.box.y
            if cell.text and between and abs(cell.box.x - above.box.x) <= 3 * ALIGN:
                return True
    return False


def _paragraph(run: list[_Cell]) -> bool:
    """Long lines, but for the last (where a paragraph ends short)."""
    return all(len(c.text.split()) >= PARAGRAPH_WORDS for c in run[:-1])


def _run_rows(
    pixels: np.ndarray,
    run: list[_Cell],
    cells: list[_Cell],
    fields: list[Box],
    columns: list[list[_Cell]],
) -> list[_Row]:
    """One row per cell of a run: a band one pitch tall round it, as wide as its background
    runs, up to another column of the page whose lines are not the run's; with the cells on
    that band inside it. None when the run is a form's column."""
    height, width = pixels.shape[:2]
    pitch = statistics.median(b.middle - a.middle for a, b in zip(run, run[1:], strict=False))
    others = _foreign_cells(run, pitch, columns)
    foreign_boxes = [c.box for c in others]
    cells = [c for c in cells if not any(c is o for o in others)]
    rows: list[_Row] = []
    toggled: list[bool] = []  # per row: whether it holds a check box or radio
    options = True  # every row check boxes or radios that their labels follow closely
    listed = 0  # rows of the run's own lines
    grid = _on_grid(run, pitch, cells)
    for first in run + grid:
        top = max(0, round(first.middle - pitch / 2))
        bottom = min(height, round(first.middle + pitch / 2))
        if bottom - top < 4:
            continue
        line = [c for c in cells if top <= c.middle < bottom]
        left, right = _background_span(pixels[top:bottom], first.box, [c.box for c in line])
        left, right = _within_columns(left, right, first.box, foreign_boxes, top, bottom)
        box = Box(left, top, right - left, bottom - top)
        held = sorted(
            (c for c in line if box.contains(c.box, slack=2) or box.contains_point(*c.box.center)),
            key=lambda c: c.box.x,
        )
        words = [c for c in held if c.text]
        if words and all(w.isdigit() for c in words for w in c.text.split()):
            continue  # a week of a calendar, a line of a grid of numbers: no list row
        # A field on the line where the row's background ends (at the field's own border, not
        # at a pane's divider running on up and down): a label and its field.
        beside = [f for f in fields if top <= f.center[1] < bottom]
        adjacent = [f for f in beside if 0 <= f.x - box.right <= ALIGN]
        if adjacent and _divider(pixels, box):
            adjacent = []
        form = (
            any(f.intersection(box) for f in beside)
            or adjacent
            or any(c.text.rstrip().endswith(CAPTION) for c in words)
        )
        if first in grid:
            if form or not any(_same_span(box, r.element.box) for r in rows):
                continue  # a line beside the list, not one of its rows
        elif form:
            return []  # a label with its field, or a caption: the lines of a form
        highlighted = _saturated(commonest_colour(pixels[top:bottom, left:right][::2, ::4]))
        listed += first not in grid
        if first not in grid and not highlighted:  # (a check box on a highlight may be missed)
            toggles = [c.box for c in held if c.toggle]
            toggled.append(bool(toggles))
            options &= bool(toggles) and (
                (len(toggles) == 1 and len(words) <= 1)
                or all(_labelled(pixels, t, box) for t in toggles)
            )
        score = min([c.score for c in words] or [first.score])
        element = Element(
            id=0, box=box, kind="list_item", source="merged", score=score, interactive=True
        )
        rows.append(_Row(element, len(held)))
    if listed < MIN_ROWS:
        return []  # most of its lines are no rows (a calendar's weeks)
    if all(r.element.box.x <= 1 and r.element.box.right >= width - 2 for r in rows):
        return []  # lines on a page, nothing round them: a heading, a paragraph, a caption
    if options or 2 * sum(toggled) >= len(toggled) > sum(toggled):
        return []  # a column of options, or a form's lines (half or more with a check box)
    return _without_header(pixels, _spanned(rows))


def _labelled(pixels: np.ndarray, toggle: Box, row: Box) -> bool:
    """Ink starts right after the toggle, as a check button's own label does (a list's check
    box column leaves a cell's padding before the next column: a mail list's 7 px at 13 px,
    a GTK tree's 15)."""
    top, bottom = toggle.y + toggle.h // 4, toggle.bottom - toggle.h // 4
    reach = max(LABEL_GAP[0], round(LABEL_GAP[1] * toggle.w))
    strip = pixels[top:bottom, toggle.right + 1 : min(row.right, toggle.right + 1 + reach)]
    if strip.size == 0:
        return False
    background = commonest_colour(pixels[row.y : row.bottom, row.x : row.right][::2, ::4])
    ink = np.abs(strip.astype(np.int16) - background).sum(axis=2) > SELECTED
    return bool(ink.any())


def _spanned(rows: list[_Row]) -> list[_Row]:
    """Rows of one list as wide as most of them are: a row cut short by what is drawn in it
    (a white check box on a highlight) spans the list all the same."""
    left = int(np.median([r.element.box.x for r in rows]))
    right = int(np.median([r.element.box.right for r in rows]))
    spanned = []
    for row in rows:
        box = row.element.box
        if left <= box.x and box.right <= right:
            box = Box(left, box.y, right - left, box.h)
        spanned.append(_Row(replace(row.element, box=box), row.cells))
    return spanned


def _foreign_cells(run: list[_Cell], pitch: float, columns: list[list[_Cell]]) -> list[_Cell]:
    """The cells of other columns of the page whose lines, where they meet the run, are off
    the run's grid of lines: another text beside a list (a page's main column beside its
    contents list), not a column of the list's own table or a tree's parent rows."""
    slack = max(3.0, PITCH_SLACK * pitch)
    top, bottom = run[0].middle - pitch, run[-1].middle + pitch
    foreign = []
    for column in columns:
        if any(c is run[0] for c in column):
            continue
        meeting = [c for c in column if top <= c.middle <= bottom]
        aligned = sum(
            abs(c.middle - run[0].middle - _line(c, run[0], pitch) * pitch) <= slack
            for c in meeting
        )
        if meeting and 2 * aligned < len(meeting):
            foreign.extend(meeting)
    return foreign


def _within_columns(
    left: int, right: int, first: Box, foreign: list[Box], top: int, bottom: int
) -> tuple[int, int]:
    """A row's span cut short of the nearest foreign cell on its line, either side."""
    for box in foreign:
        if box.y < bottom and box.bottom > top:
            if box.x >= first.right:
                right = min(right, box.x - 1)
            elif box.right <= first.x:
                left = max(left, box.right + 1)
    return left, max(right, first.right)


def _on_grid(run: list[_Cell], pitch: float, cells: list[_Cell]) -> list[_Cell]:
    """Texts on the run's grid of rows, on lines it does not hold, next to a line held (or
    taken so), in its column or indented less: a tree's parent rows, and children under a
    later parent. Each line of the grid gets the leftmost such text."""
    slack = max(3.0, PITCH_SLACK * pitch)
    x = run[0].box.x
    held = {_line(c, run[0], pitch) for c in run}
    near: dict[int, _Cell] = {}
    for cell in sorted(cells, key=lambda c: c.box.x):
        line = _line(cell, run[0], pitch)
        off = abs(cell.middle - run[0].middle - line * pitch)
        if (
            cell.text
            and line not in held
            and line not in near
            and off <= slack
            and x - TREE_INDENT * pitch <= cell.box.x <= x + 2 * ALIGN
        ):
            near[line] = cell
    found: list[_Cell] = []
    grew = True
    while grew:  # each line taken is within reach of one already held
        grew = False
        for line in list(near):
            if min(abs(line - h) for h in held) <= TREE_REACH:
                held.add(line)
                found.append(near.pop(line))
                grew = True
    return found


def _same_span(a: Box, b: Box) -> bool:
    """Two rows of one list: their backgrounds start and end at the same x."""
    return abs(a.x - b.x) <= 2 * ALIGN and abs(a.right - b.right) <= 2 * ALIGN


def _line(cell: _Cell, first: _Cell, pitch: float) -> int:
    return round((cell.middle - first.middle) / pitch)


def _background_span(band: np.ndarray, first: Box, covered: list[Box]) -> tuple[int, int]:
    """How far left and right of the first cell the row's background runs, in frame x.

    The background is the commonest colour round the first cell. A pixel column goes with the
    row when most of it is that background, or when a cell of the line covers it; two columns
    in a row that do not (a list's border, another panel's colour), or one with no background
    at all (a 1 px divider between panes), end it.
    """
    width = band.shape[1]
    background = commonest_colour(band[:, max(0, first.x - 4) : min(width, first.right + 4)])
    near = np.abs(band.astype(np.int16) - background).sum(axis=2) <= BACKGROUND
    share = near.mean(axis=0)
    open_ = share >= OPEN
    line = share == 0
    for box in covered:  # (a line the whole band tall is no letter of a cell)
        open_[max(0, box.x) : min(width, box.right)] = True
    closed = ~open_
    pairs = closed[:-1] & closed[1:]
    wall = np.zeros(width, bool)  # columns that are part of a wall
    wall[:-1] |= pairs
    wall[1:] |= pairs
    wall |= line
    before = np.flatnonzero(wall[: first.x])
    after = np.flatnonzero(wall[first.right :]) + first.right
    left = int(before[-1]) + 1 if before.size else 0
    right = int(after[0]) if after.size else width
    return left, max(right, first.right)


def _divider(pixels: np.ndarray, box: Box) -> bool:
    """Whether the line ending the row on its right runs on far above and below it: a pane's
    divider, not the border of a field beside a label."""
    x = min(box.right, pixels.shape[1] - 1)
    column = pixels[:, x].astype(np.int16)
    line = np.abs(column - column[box.center[1]]).max(axis=1) <= BACKGROUND // 3
    reach = 3 * box.h
    above = line[max(0, box.y - reach) : box.y]
    below = line[box.bottom : box.bottom + reach]
    return bool(above.all() and below.all() and above.size + below.size >= reach)


def _without_header(pixels: np.ndarray, rows: list[_Row]) -> list[_Row]:
    """Drop a first row cut off from the others by a rule none of them has between them: a
    table's column headers."""
    if len(rows) < MIN_ROWS + 1:
        return rows
    ruled = [
        _rule_between(pixels, a.element.box, b.element.box)
        for a, b in zip(rows, rows[1:], strict=False)
    ]
    if ruled[0] and not any(ruled[1:]):
        return rows[1:]
    return rows


def _rule_between(pixels: np.ndarray, upper: Box, lower: Box) -> bool:
    """A line across the rows between two rows: pixel rows unlike the background of either
    (where a selected row meets the next, the colour only steps from one to the other)."""
    x0, x1 = max(upper.x, lower.x), min(upper.right, lower.right)
    y0, y1 = upper.center[1], lower.center[1]
    if x1 - x0 < 8 or y1 - y0 < 2:
        return False
    strip = pixels[y0:y1, x0:x1].astype(np.int16)
    unlike = np.ones(strip.shape[:2], bool)
    for box in (upper, lower):
        background = commonest_colour(_crop(pixels, box))
        unlike &= np.abs(strip - background).sum(axis=2) > 3 * BACKGROUND
    return bool((unlike.mean(axis=1) >= 0.9).any())


def _distinct(rows: list[_Row]) -> list[Element]:
    """One row per band: where runs of two columns (a check box's and its label's) found the
    same rows, the row holding more cells wins."""
    kept: list[Element] = []
    for row in sorted(rows, key=lambda r: (-r.cells, -r.element.box.w)):
        if not any(_same_band(row.element.box, other.box) for other in kept):
            kept.append(row.element)
    return kept


def _same_band(a: Box, b: Box) -> bool:
    overlap_y = min(a.bottom, b.bottom) - max(a.y, b.y)
    overlap_x = min(a.right, b.right) - max(a.x, b.x)
    return overlap_y >= 0.5 * min(a.h, b.h) and overlap_x > 0


def _mark_selected(pixels: np.ndarray, rows: list[Element]) -> list[Element]:
    """Rows whose background stands out from that of most rows of their list are selected."""
    marked = list(rows)
    for members in lists_of(rows):
        if len(members) < 2:
            continue
        colours = [commonest_colour(_crop(pixels, rows[i].box)) for i in members]
        common = np.median(np.array(colours), axis=0)
        odd = [
            i for i, c in zip(members, colours, strict=True) if np.abs(c - common).sum() > SELECTED
        ]
        if 0 < len(odd) < len(members) / 2:
            for i in odd:
                marked[i] = replace(rows[i], state=frozenset({"selected"}))
    return marked


def _crop(pixels: np.ndarray, box: Box) -> np.ndarray:
    return pixels[box.y : box.bottom, box.x : box.right]


def commonest_colour(pixels: np.ndarray) -> np.ndarray:
    """The most frequent RGB colour of an image (int16, to subtract from)."""
    flat = pixels.reshape(-1, 3).astype(np.int32)
    packed = (flat[:, 0] << 16) | (flat[:, 1] << 8) | flat[:, 2]
    values, counts = np.unique(packed, return_counts=True)
    top = int(values[np.argmax(counts)])
    return np.array([top >> 16, (top >> 8) & 255, top & 255], np.int16)
