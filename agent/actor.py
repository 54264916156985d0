"""The offline actor: carries out one interpreted step on the live screen.

A step whose words the grammar could only guess is first read again against the screen it is
about to act on (`agent/settle.py`): that decides which words name a field, which button means
"accept", which row "the invoice from March" is. Each verb then grounds its target, acts on the
best candidate, lets the critic judge the effect and, when nothing happened, tries the next
candidate. Multi-action verbs (choose from a combo box, menu paths, a slider set to a value,
words replaced in an editor) chain actions, each checked on the screen after it.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any, Literal

from clickwright.agent import (
    clipping,
    editing,
    passages,
    placing,
    sections,
    selecting,
    setting,
    timetable,
)
from clickwright.agent.clauses import Step, without_echo
from clickwright.agent.critic import Expectation, Verdict, changed_regions
from clickwright.agent.dates import parse_date
from clickwright.agent.executor import (
    CHANGE,
    Aim,
    Executor,
    Judge,
    Purpose,
    offline_judge,
    wait_for_text,
)
from clickwright.agent.grounding import (
    Candidate,
    card_box,
    closest_texts,
    fields,
    grid_cell,
    in_scope,
    item_round,
    moved_band,
    normalize,
    of_kind,
    rank,
    row_label,
    row_menu,
    scope_box,
    scope_round,
    scrolled_by,
    search_field,
    showing_words,
    shows_words,
    star_row,
    text_similarity,
    words_shift,
)
from clickwright.agent.lexicon import lexicon, phrase_at, words_of
from clickwright.agent.making import form_button
from clickwright.agent.reading import is_pronoun, place, value_source
from clickwright.agent.runlog import looks_secret
from clickwright.agent.safety import risk_of
from clickwright.agent.settle import (
    SETTLED,
    Settled,
    describes,
    intent_button,
    listed_end,
    read_value,
    row_by_extreme,
    row_words,
    scope_row,
    searched_form,
    settle,
    tag_close,
)
from clickwright.agent.state import RunState, ScreenChanged
from clickwright.devices.base import Point
from clickwright.errors import StepFailed, TaskError
from clickwright.parsers.colours import palette
from clickwright.parsers.fusion import MARKED_WORD, TextBox
from clickwright.text import without_glyph
from clickwright.types import (
    Action,
    Box,
    Click,
    DoubleClick,
    Drag,
    Element,
    Hotkey,
    RightClick,
    Screen,
    Scroll,
    Target,
    Type,
    Wait,
)

Plan = tuple[Action, Point | None, Point | None, Expectation]
POINTER = {"click": Click, "double_click": DoubleClick, "right_click": RightClick}


TOGGLES = ("checkbox", "radio", "toggle")
EXPANDERS = frozenset({"+", "⊞", "⊕", "▸", "▶", "►", "›"})
"""What OCR reads on a collapsed tree node's button."""
MAX_REVEALS = 8
_PLACED = re.compile(r"\s+(?:in|on|from|under|of)\s+(?:the\s+|my\s+|our\s+)?", re.I)
"""Where a thing is said to be, after it ("tiktok.com in the blocked websites")."""
SECTION_VERBS = frozenset({"change", "set", "check", "uncheck", "delete", "type", "select",
                           "intent", "form"})  # fmt: skip
"""Verbs whose thing may live in a section of the page the side navigation opens."""
_IN_PLACE = re.compile(r"\b(?:in|from|inside|out of) (?:my|the|your|our) (?P<place>[^\W\d_]+)\b",
                       re.I)  # fmt: skip
"""Where a clause says its thing is ("from my cart", "in the inbox")."""
_CELL_REF = re.compile(r"[A-Z]{1,3}[1-9]\d{0,6}\b")
"""What a spreadsheet's name box shows: the current cell's reference."""
SHOWN_WELL = 85.0
"""How well a text must read as the target for a search to stop there."""
SETTINGS_VERBS = frozenset({"set", "check", "uncheck", "select"})
"""Steps whose target, when it is nowhere else, may be an option in the program's settings."""
MAX_SCROLLS = 6
"""Scrolls down a page or list in search of a target before giving up."""
PARAGRAPH_SLACK = 12
"""px: a paragraph seen again after a scroll ends (or starts) this near where it did."""
PART_PAGE = 2
"""Wheel steps of a page's first scroll: less than its height, so nothing on it is skipped;
later ones are sized by how far it moved (`_page_of_clicks`)."""
PART_PANE = 1
"""Wheel steps of a first scroll in a pane (a feed beside the page), which may be only a few
lines tall."""
END_CLICKS = 15
"""Wheel steps of each scroll "to the bottom", repeated until nothing moves."""


def _at_one_of(box: Box, offset: int, places: list[tuple[int, int]]) -> bool:
    """Whether `box`, `offset` pixels down the page, is at one of `places` (page positions)."""
    return any(abs(box.x - x) <= 8 and abs(box.y + offset - y) <= 8 for x, y in places)


NEXT_ARROWS = (">", "›", "»", ">>", "→")
"""A pager's arrow to the next page, as the parser reads it."""


def _page_of_clicks(before: Screen, after: Screen, clicks: int) -> int:
    """Wheel clicks for the next scroll to move the page, or the pane that scrolled, about two
    thirds of what is in view, so nothing scrolls by unseen (a click moves 100 pixels in one
    program, 3 lines in another, twice that at device scale 2); as many as before when the
    move is not known."""
    band = moved_band(before.frame.pixels, after.frame.pixels)
    moved, view = band or (words_shift(before, after), after.frame.size[1])
    if not moved or moved < 0:
        return clicks
    return max(1, min(MAX_CLICKS, int(PAGE_SHARE * view * clicks / moved)))


PAGE_SHARE = 0.6
MAX_CLICKS = 10


def _labels_a_row(screen: Screen, sign: Element) -> bool:
    """Whether a "+" or "▸" opens a row: the row's words follow it on its line (a browser's
    new-tab "+" and a counter's "+" have none beside them)."""
    middle, reach = sign.box.center[1], 3 * max(sign.box.h, sign.box.w)
    return any(e.id != sign.id and e.text.strip() not in EXPANDERS and len(e.text.strip()) > 1
               and 0 <= e.box.x - sign.box.right <= reach
               and abs(e.box.center[1] - middle) <= max(e.box.h, sign.box.h) / 2
               for e in screen.elements)  # fmt: skip


def _pager_arrow(screen: Screen, label: str | None = None) -> Element | None:
    """The last control showing a next-page arrow (`label`, else any of them)."""
    arrows = [e for e in screen.elements if e.interactive
              and e.text.strip() in ((label,) if label else NEXT_ARROWS)]  # fmt: skip
    return arrows[-1] if arrows else None


BLANK = 3
"""Line heights of empty space after a label that are a field drawn with no box."""


def _blank_after(screen: Screen, label: Element) -> tuple[Point, Box] | None:
    """Where to click to type after a label whose field has no outline ("to:" on a line of
    its own): the middle of the empty space after it on its row, and that space's box; None
    when something else follows the label closely."""
    middle, height = label.box.center[1], label.box.h
    after = [e.box.x for e in screen.elements if e.box.x > label.box.right
             and abs(e.box.center[1] - middle) < height / 2 and e.kind != "container"]  # fmt: skip
    end = min(after, default=screen.frame.size[0])
    if end - label.box.right < BLANK * height:
        return None
    width = min(end - label.box.right, 8 * height)
    box = Box(label.box.right + 2, label.box.y, width - 4, height)
    return (box.center[0], middle), box


def _body_box(screen: Screen) -> Element | None:
    """A message box known by its placeholder ("Write your reply"): the lowest field or line
    whose words say what it is for."""
    said = lexicon().body_words
    boxes = [e for e in screen.elements if e.kind in ("input", "text")
             and (len(e.text.split()) >= 2 or e.kind == "input" and e.box.h >= TALL_BOX)
             and len(e.text.split()) <= 5 and set(words_of(e.text)) & said]  # fmt: skip
    return max(boxes, key=lambda e: e.box.y) if boxes else None  # not a "Reply" title's word


_REPLY_SUBJECT = re.compile(r"(?:re|fwd?|aw|sv|tr)\s*:", re.I)
TALL_BOX = 60
"""Pixels a box with one word in it is tall at least to be a text area ("Message"), not a
panel's title ("Reply")."""


def _body_below(screen: Screen) -> tuple[Point, Box] | None:
    """Where a message's body is typed when it is drawn with no box (a mail client's reply):
    the blank band below the last of its header lines ("to: …", "subject: …")."""
    headers = lexicon().mail_headers
    heads = [e for e in screen.elements if e.kind == "text"
             and ((m := re.match(r"(\w+)\s*:", e.text.strip().lower())) and m[1] in headers
                  or e.text.strip().lower() in headers)]  # fmt: skip  # "To:", or "To" alone
    if len(heads) < 2:
        return None
    lowest = max(e.box.bottom for e in heads)
    last = min((e for e in heads if lowest - e.box.bottom < e.box.h / 2), key=lambda e: e.box.x)
    line = last.box.h  # the first header of the lowest line ("To", not "Cc" right of it)
    under = [e for e in screen.elements if e.kind in ("text", "input")
             and _REPLY_SUBJECT.match(e.text.strip()) and 0 < e.box.y - last.box.bottom < 2.5 * line
             and abs(e.box.x - last.box.x) < 2 * line]  # fmt: skip
    if under:  # the subject line under them, written with no label ("Re: Sunday lunch?")
        last = max(under, key=lambda e: e.box.bottom)
    band = Box(last.box.x, last.box.bottom + line // 2, max(last.box.w, 8 * line), 3 * line)
    if any(band.intersection(e.box) > 0 for e in screen.elements if e.kind != "container"):
        return None  # something is written there: no blank body
    return (band.x + line, band.y + line), band


def _by_id(candidate: Candidate) -> Target:
    return Target(id=candidate.element.id)


def click(
    expect: Expectation | Callable[[Candidate], Expectation] = CHANGE,
    make: type[Click | DoubleClick | RightClick] = Click,
    keys: tuple[str, ...] = (),
) -> Callable[[Candidate], Plan]:
    """The plan for pointing at a candidate's centre (with `keys` held: Ctrl adds a list's
    second choice to its first), expecting `expect` afterwards."""

    def plan(c: Candidate) -> Plan:
        expectation = expect(c) if callable(expect) else expect
        return make(target=_by_id(c), keys=keys), c.point, None, expectation

    return plan


def state_after(
    wanted: Literal["checked", "unchecked"], kinds: tuple[str, ...] = TOGGLES
) -> Callable[[Candidate], Expectation]:
    """Expect a toggle to end up `wanted`; anything else that is clicked, just to change."""

    def expect(c: Candidate) -> Expectation:
        if c.element.kind in kinds:
            return Expectation("state", box=c.element.box, state=wanted)
        return CHANGE

    return expect


OWN_CONTROLS = frozenset({"button", "input", "combo", "icon", "tab", "menu", "menuitem"})
"""Controls that act themselves: clicked, never a check list's row whose box is clicked."""


def row_toggle(screen: Screen, element: Element) -> Element | None:
    """The check box or radio button that starts `element`'s row in a check list or radio
    list (a box before the text; a narrow cell before it, blank or named like the row; a cell
    in a column of which a cell is checked), or the box right after a label; None when the
    row has none or `element` is one."""
    if element.kind in TOGGLES:
        return None
    cards = [c.box for c in screen.elements if c.kind == "container" and c.id != element.id
             and c.box.contains(element.box, slack=2)]  # fmt: skip
    card = min(cards, key=lambda b: b.area) if cards else None
    if card is not None:  # a card holds its own radio, never the next card's
        inside = tuple(e for e in screen.elements
                       if card.contains(e.box, slack=2) or e.id == element.id)  # fmt: skip
        screen = Screen(screen.frame, inside)
    others = [e.box for e in screen.elements
              if e.kind == element.kind and e.interactive and e.id != element.id]  # fmt: skip
    theirs = {e.id for e in screen.elements if e.kind in TOGGLES
              and any(o.contains(e.box, slack=2) for o in others)}  # fmt: skip
    if theirs:  # a box inside another choice like this one is that one's ("2-10", "51-200")
        screen = Screen(screen.frame, tuple(e for e in screen.elements if e.id not in theirs))
    middle = element.box.center[1]
    start = [e for e in screen.elements if e.kind in TOGGLES
             and element.box.contains(e.box, slack=2)
             and e.box.x < element.box.x + 0.15 * element.box.w]  # fmt: skip
    if start:  # a row the parser read whole, its box inside at its start
        return min(start, key=lambda e: e.box.x)
    if element.kind in OWN_CONTROLS or MARKED_WORD.match(element.text):
        return None  # a button is no row's label ("Save board" beside a logo read as a box),
        # nor is a toolbar's flat "⬇ Archive" beside a list's select-all box
    def on_its_line(e: Element) -> bool:  # a box may be centred on a row of two lines
        if e.kind not in TOGGLES:
            return e.box.y <= middle <= e.box.bottom
        shared = min(e.box.bottom, element.box.bottom) - max(e.box.y, element.box.y)
        return shared > 0.25 * element.box.h

    before = [
        e
        for e in screen.elements
        if e.box.right <= element.box.x + 4 and on_its_line(e) and e.id != element.id
    ]
    peers = [e.box for e in before if e.kind == element.kind and e.interactive]
    boxes = [e for e in before if e.kind in TOGGLES
             and not any(p.x >= e.box.right - 2 for p in peers)]  # fmt: skip
    # a box with another choice like this one after it is that one's
    if boxes and element.kind != "list_item":  # a mail list: the box at the row's start
        return min(boxes, key=lambda e: e.box.x)
    for cell in sorted(before, key=lambda e: -e.box.x):
        if cell.kind in TOGGLES:
            if cell in boxes:
                return cell
            continue
        if cell.kind != "list_item":
            continue
        column = [e for e in screen.elements if abs(e.box.x - cell.box.x) <= 4
                  and abs(e.box.w - cell.box.w) <= 4]  # fmt: skip
        narrow = cell.box.w <= 2.5 * cell.box.h and cell.text in ("", element.text)
        if narrow or any("checked" in e.state for e in column):
            return cell
    after = [
        e
        for e in screen.elements
        if e.kind in TOGGLES
        and e.box.y <= middle <= e.box.bottom
        and 0 <= e.box.x - element.box.right <= 4 * element.box.h
    ]  # a label with its box after it ("Show line numbers [x]")
    if after:
        return min(after, key=lambda e: e.box.x)
    far = [e for e in screen.elements if e.kind in TOGGLES and not e.text
           and e.box.y <= middle <= e.box.bottom]  # fmt: skip
    titled = [e for e in far if (label := row_label(screen, e.box)) and label.box == element.box]
    if titled:
        return titled[0]
    under = [e for e in screen.elements if e.kind == "toggle"
             and 0 <= e.box.y - element.box.bottom <= 1.5 * element.box.h
             and abs(e.box.x - element.box.x) <= element.box.h]  # fmt: skip
    return under[0] if len(under) == 1 else None  # a form's label over its switch ("All day")


def _names_a_row(words: str) -> bool:
    """Whether a scope's words are what a row shows (a name, a number, a handle), not a kind
    of place ("the sidebar")."""
    return any(w[:1].isupper() or any(c.isdigit() or c == "@" for c in w) for w in words.split())


def _once_found(settled: Settled) -> bool:
    """Whether the screen settled the step only as a button to look for ("'Delete X', once
    found"): what it acts on is not in view."""
    return len(settled.steps) == 1 and settled.steps[0].where == "exact"


def tab_row(screen: Screen, said: bool = False) -> list[Element]:
    """The tabs on the screen, left to right: those the parser saw as tabs, and the short
    labels on the same row beside them (a toolkit's tabs the parser took for buttons). When
    the task `said` there are tabs, buttons drawn edge to edge in a row are taken for them."""
    tabs = [e for e in screen.elements if e.kind == "tab"] or _link_strip(screen)
    tabs = tabs or (_button_strip(screen) if said else [])
    if not tabs:
        return []
    first = tabs[0].box
    row = [
        e
        for e in screen.elements
        if e.kind in ("tab", "button", "input", "text", "link")
        and e.text.strip()
        and len(e.text.split()) <= 3
        and abs(e.box.center[1] - first.center[1]) < first.h / 2
        and 0.6 * first.h <= e.box.h <= 1.6 * first.h
    ]
    return sorted(row, key=lambda e: e.box.x)


def _button_strip(screen: Screen) -> list[Element]:
    """The topmost row of two or more labelled buttons drawn edge to edge (their outlines
    touching or overlapping), tops level: a web page's tabs seen as buttons."""
    buttons = sorted((e for e in screen.elements if e.kind == "button" and e.text.strip()),
                     key=lambda e: (e.box.y, e.box.x))  # fmt: skip
    for first in buttons:
        strip = [first]
        for other in sorted(buttons, key=lambda e: e.box.x):
            last = strip[-1].box
            if abs(other.box.y - last.y) <= 2 and -last.w / 4 <= other.box.x - last.right <= 4:
                strip.append(other)
        if len(strip) >= 2:
            return strip
    return []


def named_as(words: str, element: Element) -> bool:
    """Whether an element reads as a label made from the task's words: closely, or starting
    with the same verb ("Book" for "Book appointment", "Delete workspace" for "Delete this
    workspace")."""
    text = element.text or element.name
    said, shown = normalize(words).split(), normalize(text).split()
    return text_similarity(words, text) >= SHOWN_WELL or (
        bool(said) and shown[:1] == said[:1] and set(said) <= set(shown)
    )


def _link_strip(screen: Screen) -> list[Element]:
    """A page's tabs drawn as a row of short links below its title ("General  Members
    Danger zone"); a site's navigation bar at the very top is no tabs."""
    height = screen.frame.size[1]
    links = [e for e in screen.elements if e.kind == "link" and e.text.strip()
             and len(e.text.split()) <= 3 and e.box.y > TOP_BAR * height]  # fmt: skip
    for link in links:
        row = [o for o in links if abs(o.box.center[1] - link.box.center[1]) < link.box.h / 2]
        if len(row) >= 3:
            return sorted(row, key=lambda e: e.box.x)
    return []


_TO_CONFIRM = re.compile(
    r"\b(?:type|enter|write)\b.*?(?:\((?P<value>[^)]+)\)|[\"'“‘](?P<quoted>[^\"'”’]+)[\"'”’])",
    re.I,
)
"""A label that asks for a name to be typed to confirm an act, the name in brackets or quotes."""
TOP_BAR = 0.12
"""Share of the screen's height a site's navigation bar sits in."""


def _names_place(label: str, noun: str) -> bool:
    """Whether a short label is the place's button: "Cart", "Cart 5", or "OCart" where its
    icon was read as a letter."""
    words = words_of(without_glyph(label))
    return 0 < len(words) <= 3 and any(
        w == noun or len(w) == len(noun) + 1 and w[1:] == noun for w in words[:1]
    )


def _in_settings(screen: Screen) -> bool:
    """Whether a settings window shows: a title that says so and an OK or Apply button."""
    lex = lexicon()
    titled = any(
        text_similarity(word, e.text) >= 85
        for e in screen.elements
        for word in lex.settings_entries
    )
    confirm = any(
        e.kind == "button" and normalize(e.text) in ("ok", "apply") for e in screen.elements
    )
    return titled and confirm


def _labels(screen: Screen, element: Element) -> bool:
    """Whether a label names `element` (a web page's drop-down is drawn as a button)."""
    return any(f.element.id == element.id for f in fields(screen))


class OfflineActor:
    """`judge` is the critic: the offline one by default, or a model critic from the team."""

    def __init__(self, state: RunState, judge: Judge = offline_judge) -> None:
        self.state = state
        self.executor = Executor(state, judge)
        self.reading = ""
        """How the screen settled the current step's words, said in the steps it records."""
        self._seen: tuple[Screen, Screen] | None = None
        self._row: Box | None = None
        """The row or card a step said for several of them acts in now."""
        self._row_moved = 0
        """How far the list moved up (pixels) while acting in that row: scrolled to its
        buttons below the fold."""
        self._list: Box | None = None
        """The open list box the last option was chosen in: the next one said with it ("select
        A, B from the list") is looked for there, though its highlight hides the box."""

    @property
    def screen(self) -> Screen:
        """The screen as seen now, less the lines that only show the task back."""
        seen = self.state.screen or self.state.observe()
        if self._seen is None or self._seen[0] is not seen:
            self._seen = (seen, without_echo(seen, self.state.task))
        return self._seen[1]

    def carry_out(self, step: Step) -> None:
        """Settle the step's words on the screen when they need it, then do what they say."""
        if step.rows is not None and step.scope and self._row is None:
            self._in_rows(step)
            return
        blind = step.verb == "type" and not step.target and describes(step)  # "write a review"
        if not (step.soft or step.source or step.verb in SETTLED or blind):
            self.reading = ""
            if step.scope and self._row is None:
                self._enter_scope(step)  # "for the comment by Tom, type …": his card found first
            self.do(step)
            return
        if step.scope:
            self._enter_scope(step)
        self._open_section(step)
        self._open_place(step)
        if step.verb == "change" and step.old and shows_words(self.screen, step.old) is None:
            self.reveal(step, step.old)  # "from 2000 to 500": 2000 is on another tab
        try:
            settled = settle(step, self.screen, self.state.memory)
            if _once_found(settled) and self._section_showing(step):
                settled = settle(step, self.screen, self.state.memory)
        except (StepFailed, TaskError) as unsettled:  # the report shows the screen it met
            self._record_failure(step, self.screen, str(unsettled))
            raise
        for done in settled.steps:
            self.reading = settled.why
            done = replace(done, scope=done.scope or step.scope)
            if (done.soft or not hasattr(self, "_" + done.verb)) and done != step:
                self.carry_out(done)  # an item of a list; a form read past unknown words
                continue
            if done.scope and done.scope != step.scope:
                self._enter_scope(done)  # a row the screen named ("Lena Fischer's order")
            self.do(done)

    def do(self, step: Step) -> None:
        getattr(self, "_" + step.verb)(step)

    def _refuse(self) -> bool:
        """A button the task said not to press ("don't overwrite") still shown at its end: the
        question is answered with its cancelling button, as a person would."""
        refused = self.state.memory.refused
        if not refused or not any(normalize(e.text or e.name) == normalize(refused)
                                  for e in self.screen.elements if e.kind == "button"):  # fmt: skip
            return False
        button = intent_button(self.screen, lexicon().intents["cancel"])
        if button is None or normalize(button.text or button.name) == normalize(refused):
            return False
        step = Step("click", f"not {refused}", target=button.text or button.name)
        self.click_element(step, button, f"'{refused}' was not to be pressed: '{step.target}'")
        return True

    def _finish_made(self) -> bool:
        """The form opened for what the task makes ("write a review …"), still open at its end,
        is sent with its own button (Submit review, Save), as the person who asked for the thing
        would."""
        made, self.state.memory.made = self.state.memory.made, None
        if made is None:
            return False
        clause, verb, noun, before = made
        button = form_button(self.screen, verb, noun, before)
        if button is None:
            return False
        step = Step("click", clause, target=button.text)
        self.click_element(step, button, f"'{button.text}' finishes the {noun}")
        return True

    def _confirm_act(self) -> bool:
        """The last act the task named opened a dialog asking to confirm it ("Cancel order
        #1062?"): its button that names the same act ("Cancel order", "Refund €58.20") is
        pressed, as the person who named the act would."""
        acted = self.state.memory.acted
        if acted is None:
            return False
        label, shown_before = acted
        verb = [w for w in words_of(without_glyph(label))[:1] if w.isalpha()]  # not a file name
        negations = {" ".join(n) for n in lexicon().negations}
        same = [
            b
            for b in self.screen.elements
            if b.kind == "button"
            and tuple(b.box) not in shown_before  # a button the act brought up
            and words_of(b.text)[:1] == verb
            and not set(words_of(b.text)) & negations
        ]
        if not verb or len(same) != 1:
            return False
        step = Step("click", f"confirm: {same[0].text}", target=same[0].text)
        self.click_element(step, same[0], f"'{label}' asks to be confirmed: '{same[0].text}'")
        return True

    def confirm(self) -> None:
        """A task that changed a dialog's or a form's controls and pressed nothing after ends
        with the dialog's OK (or Apply, Save …): a setting is changed when it is applied, a
        question answered when it is confirmed. Never a risky button (Submit, Send) nobody
        named, and not when the task says to leave it so ("don't save yet")."""
        if not self.state.settings.finish_dialogs:
            return
        changed = self.state.memory.unconfirmed
        lex = lexicon()
        said = words_of(self.state.task)
        if any(lex.longest(lex.keep_unconfirmed, said, i) for i in range(len(said))):
            return
        if self._refuse():
            return
        if self._confirm_act() or self._finish_made():
            return
        if not changed:
            return
        buttons = [e for e in self.screen.elements if e.kind == "button" and e.text.strip()]
        for label in lex.confirm:
            shown = [b for b in buttons if normalize(b.text) == normalize(label)]
            if shown and risk_of(Click(target=Target(id=shown[0].id)), shown[0]) is None:
                step = Step("click", f"confirm with {shown[0].text}", target=shown[0].text)
                thought = f"{changed} was changed and nothing confirmed it: '{shown[0].text}'"
                self.click_element(step, shown[0], thought)
                return

    # ---- verbs ------------------------------------------------------------------------------

    def _click(self, step: Step) -> None:
        if step.every and step.target and palette().name_in(step.target):
            self._click_each(step)  # "select all the shades of red"
            return
        expect = state_after("checked", ("radio",)) if step.verb == "click" else CHANGE
        make = POINTER[step.verb]
        plan = click(expect, make, step.keys)
        if step.verb == "click" and not step.keys and step.where != "open":
            plan = self._toggle_of_row(plan, click(state_after("checked"), make))
        self._on_target(step, step.target or "", step.kind, plan, nth=step.nth)

    _double_click = _right_click = _click

    def _click_each(self, step: Step) -> None:
        """Each element the words name, by where it was on the screen they were found on."""
        found = self._candidates(self.screen, step.target or "", step.kind)
        if not found:
            raise self._not_found(step.target or "", step)
        for point in [c.element.box.center for c in found]:
            under = [e for e in self.screen.elements if e.box.contains_point(*point)]
            if under:
                element = min(under, key=lambda e: e.box.area)
                self.click_element(step, element, f"{element.describe()}: {step.target}")

    def _typed_to_confirm(self, step: Step) -> bool:
        """A button that waits for a name to be typed first ("To confirm, type the workspace
        name (Acme Lab)" above "Delete this workspace"): the name the label shows, typed into
        its empty field, as the task that named the act would."""
        for field in fields(self.screen):
            wanted = _TO_CONFIRM.search(field.label)
            element = field.element
            if wanted is None or element.kind != "input" or element.text.strip():
                continue
            below = [b for b in self.screen.elements if b.kind == "button"
                     and 0 <= b.box.y - element.box.bottom < 4 * element.box.h
                     and text_similarity(step.target or "", b.text) >= SHOWN_WELL]  # fmt: skip
            if below:
                value = (wanted["value"] or wanted["quoted"]).strip()
                self.type_into(step, replace(element, name=field.label), value)
                return True
        return False

    def _check(self, step: Step) -> None:
        wanted = "checked" if step.verb == "check" else "unchecked"
        kind = step.kind or "checkbox"
        if step.every:  # "untick all the boxes": each one not yet as wanted, page by page
            decided: list[tuple[int, int]] = []  # where on the page, whatever was scrolled
            offset, seen = 0, False
            for _ in range(MAX_SCROLLS):
                chosen, left = self._every_toggle(step, kind)
                new = [e for e in chosen if not _at_one_of(e.box, offset, decided)]
                for box in new:
                    if ("checked" in box.state) != (wanted == "checked"):
                        self.click_element(step, box, f"{box.describe()}: {wanted}")
                decided += [(e.box.x, e.box.y + offset) for e in chosen + left]
                seen = seen or bool(chosen)
                before = self.screen
                if not self._scroll_once(step, "more of them may be further down", PART_PAGE):
                    break
                moved = scrolled_by(before, self.screen)
                if moved is None:
                    break  # nothing to tell which boxes were seen already
                offset += moved
            if not seen:
                raise self._not_found(f"a {kind}", step)
            return
        best = self._best(step.target or "", kind, nth=step.nth)
        toggle = best.element if best is not None else None
        if toggle is not None and toggle.kind not in TOGGLES:
            toggle = row_toggle(self.screen, toggle) or (
                toggle if "checked" in toggle.state else None
            )
        if toggle is not None:
            if ("checked" in toggle.state) == (wanted == "checked"):
                self.record_noop(step, f"{toggle.describe()} is already {wanted}")
                return
        plan = self._toggle_of_row(click(state_after(wanted)), click(state_after(wanted)))
        self._on_target(step, step.target or "", kind, plan, nth=step.nth)

    _uncheck = _check

    def _every_toggle(self, step: Step, kind: str) -> tuple[list[Element], list[Element]]:
        """The toggles "every …" names, and those it leaves out: all of the kind ("all the
        boxes"), or those labelled as its noun ("every light": each Lights switch), less those
        the words after "except" name or hold in their card or row ("except the living
        room")."""
        named, excepted = (*lexicon().exceptions.split(step.target or "", maxsplit=1), "")[:2]
        noun = " ".join(words_of(named)[:1])
        if noun:
            stem = noun.lower().rstrip("s")
            toggles = [(f.element, f.label) for f in fields(self.screen)
                       if f.element.kind in TOGGLES
                       and stem in {w.lower().rstrip("s") for w in words_of(f.label)}]  # fmt: skip
        else:
            toggles = [(c.element, c.element.text) for c in of_kind(self.screen, kind)
                       if c.element.kind in TOGGLES]  # fmt: skip
        left: list[Element] = []
        for part in re.split(r",|\band\b|\bor\b|\bnor\b", excepted):  # "except A and B"
            if not part.strip():
                continue
            card = card_box(self.screen, row_words(part))
            row = None if card else scope_box(self.screen, row_words(part))
            left += [e for e, label in toggles
                     if text_similarity(part, label) >= SHOWN_WELL
                     or (card and card.contains(e.box, slack=2))
                     or (row and in_scope([Candidate(e, 0.0, "")], row))]  # fmt: skip
        kept = {e.id: e for e, _ in toggles if e not in left}
        return sorted(kept.values(), key=lambda e: (e.box.y // 8, e.box.x)), left

    def _toggle_of_row(
        self, plan: Callable[[Candidate], Plan], on_toggle: Callable[[Candidate], Plan]
    ) -> Callable[[Candidate], Plan]:
        """A row of a check list or radio list is chosen with the box at its start (clicking
        its text only selects the row)."""

        def chosen(c: Candidate) -> Plan:
            toggle = row_toggle(self.screen, c.element)
            if toggle is None:
                return plan(c)
            return on_toggle(Candidate(toggle, c.score, c.why + ", the box of its row"))

        return chosen

    def _grid(self, step: Step) -> None:
        """The control where a table's row meets its column (a radio under Good on the line
        of Breakfast; an hours field under Tue on the line of Billing API), or the nth star."""
        screen = self.screen
        if step.nth and step.target == "stars":
            stars = star_row(screen)
            if not 1 <= step.nth <= len(stars):
                raise self._not_found(f"{step.nth} stars", step)
            thought = f"star {step.nth} of {len(stars)}"
            if self.click_element(step, stars[step.nth - 1], thought).status == "retry":
                raise StepFailed(f"could not {step.clause!r}: the stars did not change when "
                                 f"{thought} was clicked (a rating shown, not one to give?)")
            return
        cell = grid_cell(screen, step.target or "", step.destination or "")
        if cell is None:
            raise self._not_found(f"{step.target} under {step.destination}", step)
        label, head, control = cell
        if step.text is not None:
            self.type_into(step, replace(control, name=f"{label.text} {head.text}"), step.text)
            return
        self.click_element(step, control, f"'{label.text}' under '{head.text}'")

    def _set(self, step: Step) -> None:
        setting.set_value(self, step)

    def _change(self, step: Step) -> None:
        editing.change_text(self, step)

    def _insert(self, step: Step) -> None:
        if (placed := listed_end(step, self.screen)) is not None:
            self._drag(placed)  # "put Bread at the top": of a list, not a document
            return
        editing.insert(self, step)

    def _order(self, step: Step) -> None:
        editing.order(self, step)

    def _comment(self, step: Step) -> None:
        editing.comment(self, step)

    def _lines(self, step: Step) -> None:
        editing.lines(self, step)

    def _delete(self, step: Step) -> None:
        if step.where == "tag":  # "take tom off it": the × on his tag among the guests
            found = tag_close(self.screen, step.target or "")
            if found is None:
                raise self._not_found(step.target or "", step)
            tag, close = found
            if self.click_element(step, close, f"the × on '{tag.text}'").status == "retry":
                raise StepFailed(f"could not {step.clause!r}: the × on '{tag.text}' did nothing")
            return
        editing.delete(self, step)

    def _cut(self, step: Step) -> None:
        clipping.take(self, step, cut=True)

    def _copy(self, step: Step) -> None:
        clipping.take(self, step, cut=False)

    def _paste(self, step: Step) -> None:
        clipping.paste(self, step)

    def _save(self, step: Step) -> None:
        editing.save(self, step)

    def _close(self, step: Step) -> None:
        editing.close(self, step)

    def _compute(self, step: Step) -> None:
        editing.compute(self, step)

    def _look(self, step: Step) -> None:
        self.record_noop(step, f"'{step.target}' is there to be looked at, not acted on")

    def _find(self, step: Step) -> None:
        """Open the places `step.where` names (tabs, sections, the list) until the target
        shows; what it shows beside it is remembered for the steps after."""
        target = step.target or ""
        task = self.state.task
        said = value_source(target, None) == target and read_value(self.screen, target, task)
        last = bool(said) and (lexicon().ordinal(target.split()[0]) or 0) < 0
        if last and self._to_text_end(step, said):
            said = read_value(self.screen, target, task) or said  # the last word, scrolled to
        if said:  # "find the 2nd word in the paragraph": a value to read, not a thing to see
            self.state.memory.values[normalize(target)] = said
            self.record_noop(step, f"{target} is {said!r}")
            return
        row = row_words(target)
        if row and row != target and shows_words(self.screen, target, echo_of=task) is None:
            target = row  # "the email by Audrey": the row that shows Audrey
        if step.where is None and self._searching(step) and (
            form := searched_form(step, self.screen)
        ):
            for part in form:  # "search for action movies directed by Bowen": a form
                self.carry_out(part)
            return
        if step.where is None and (box := self._search_box(step)) is not None:
            self.type_into(step, box, target)  # "search for blue shoes": what a search box is for
            self.blind(step, Hotkey(keys=("enter",)), None, CHANGE, f"searching for {target!r}")
            return
        if not self._candidates(self.screen, target, None):
            self.reveal(step, target, step.where)
        screen = self.screen
        if shows_words(screen, target, echo_of=task) is None and not self._candidates(
            screen, target, None
        ):
            failure = self._not_found(target, step)
            self._record_failure(step, screen, str(failure))
            raise failure
        value = read_value(screen, target)
        if value is not None:
            self.state.memory.values[normalize(target)] = value
        self.state.memory.found = target
        self.record_noop(step, f"'{target}' is on screen" + (f": {value}" if value else ""))

    def _to_text_end(self, step: Step, shown: str) -> bool:
        """The text a last word (line) was read in, scrolled to its end when its box cuts it
        off (its last line read ends near the box's bottom): whether anything moved."""
        lines = [e for e in self.screen.elements
                 if e.kind in ("text", "link") and shown in e.text]  # fmt: skip
        if not lines:
            return False
        last = max(lines, key=lambda e: e.box.bottom).box
        boxes = [e.box for e in self.screen.elements
                 if e.kind == "container" and e.box.contains(last, slack=2)]  # fmt: skip
        pane = min(boxes, key=lambda b: b.area) if boxes else None
        if pane is None or pane.bottom - last.bottom > 1.5 * last.h:
            return False  # room for another line under it (one cut in half is not read)
        moved = False
        for _ in range(MAX_SCROLLS):
            if not self._scroll_once(step, "the text goes on below its box", END_CLICKS,
                                     pane.center):  # fmt: skip
                return moved
            moved = True
        return moved

    @staticmethod
    def _searching(step: Step) -> bool:
        """Whether the clause asks to search ("search for X", "look up X")."""
        said = step.clause.lower().split()
        return bool(said) and said[0] in ("search", "look", "lookup")

    def _search_box(self, step: Step) -> Element | None:
        """The screen's search field, when the clause asks to search."""
        return search_field(self.screen) if self._searching(step) else None

    def _select(self, step: Step) -> None:
        """Choose an option: open the combo box (or the button a web page draws for one),
        then click the option it shows, or type it."""
        option = step.text or ""
        found = self._candidates(self.screen, step.target or "", step.kind or "combo")
        field = next(iter(self._scoped(step, self.screen, found)), None)  # the row's, if scoped
        # a list named only by its kind ("from the list") is the list, whatever it looks like
        named_list = field is not None and not step.target and step.kind == "combo"
        drop_down = field is not None and (
            field.element.kind == "combo"
            or field.element.kind == "button"
            and (_labels(self.screen, field.element) or step.kind == "combo" and step.target)
        )  # a page's drop-down drawn as a button ("Move to ▾", once rows are ticked)
        open_list = named_list and field is not None and field.element.kind == "container"
        if open_list and field is not None:
            self._list = field.element.box
        elif not step.keys:
            self._list = None
        if self._list is not None and (open_list or field is None or step.keys):
            self._scroll_list_to(step, option, self._list)  # a list box, open already
            open_list = True
        if field is None or (not drop_down and not named_list) or step.keys or open_list:
            near = field.element.box if field else self._list
            self._on_target(step, option, "list_item", click(keys=step.keys), near=near)
            return
        closed = self.screen
        box = field.element.box
        self._on_target(
            step,
            step.target or field.element.text,
            field.element.kind,
            click(Expectation("appears", option)),
        )
        shows_option = Expectation("text_in", option, box)
        if self._best(option, "list_item", new_since=closed, near=box) is None:
            self.blind(
                step,
                Type(text=option, enter=True),
                None,
                shows_option,
                f"'{option}' is not listed in view; typing it selects it in the open list",
            )
            return
        opened = replace(step, scope=None)  # the open list may hang over other rows
        chosen = click(shows_option)
        self._on_target(opened, option, "list_item", chosen, new_since=closed, near=box)

    def _scroll_list_to(self, step: Step, option: str, box: Box) -> None:
        """Turn the wheel over a list box until `option` shows in it: down to its end, then
        up to its start (an option chosen before may have scrolled past it)."""
        for direction in ("down", "up"):
            for _ in range(MAX_SCROLLS):
                if any(box.contains(c.element.box, slack=2) for c in self._candidates(
                        self.screen, option, "list_item") if c.score >= SHOWN_WELL):  # fmt: skip
                    return
                before = self.screen
                self.blind(step, Scroll(direction=direction, amount=2), box.center, CHANGE,
                           f"'{option}' is not in view in the list: scrolling it {direction}")  # fmt: skip
                if self.screen.frame.same_as(before.frame):
                    break

    def _open_menu(self, step: Step) -> None:
        previous: Screen | None = None
        for index, part in enumerate(step.path):
            following = step.path[index + 1] if index + 1 < len(step.path) else None
            expect = Expectation("appears", following) if following else CHANGE
            current = self.screen
            kind = "menu" if index == 0 else "menuitem"
            self._on_target(step, part, kind, click(expect), new_since=previous)
            previous = current

    def _type(self, step: Step) -> None:
        text = step.text or ""
        if step.kind == "cell":
            self._cell(step)
            return
        if step.target and not step.enter and lexicon().value_kind(text) in ("date", "time"):
            self._set(replace(step, verb="set"))  # written as the field writes dates
            return
        if step.target is None:
            self.blind(
                step,
                Type(text=text, enter=step.enter),
                None,
                CHANGE,
                "typing into the focused element",
            )
            return

        def plan(c: Candidate) -> Plan:
            secret = looks_secret(c.element.name or step.target or "")
            if c.element.kind == "text" and (blank := _blank_after(self.screen, c.element)):
                point, box = blank  # "to: ____" drawn with no box: the blank after its label
                expect = CHANGE if secret else Expectation("text_in", text, box)
                action = Type(text=text, target=Target(point=point), enter=step.enter, clear=True)
                return action, point, None, expect
            expect = CHANGE if secret else Expectation("text_in", text, c.element.box)
            action = Type(text=text, target=_by_id(c), enter=step.enter, clear=True)
            return action, c.element.box.center, None, expect

        body_said = normalize(step.target) in lexicon().body_fields
        if body_said and self._best(step.target, step.kind or "input") is None and (
            (box_said := _body_box(self.screen)) is not None
        ):  # "Write your reply" is the message
            point, box = box_said.box.center, box_said.box
            self.blind(step, Type(text=text, target=Target(point=point), enter=step.enter),
                       point, Expectation("text_in", text, box), "the message box")  # fmt: skip
            return
        if (
            body_said
            and self._best(step.target, step.kind or "input") is None
            and (body := _body_below(self.screen)) is not None
        ):
            point, box = body
            self.blind(step, Type(text=text, target=Target(point=point), enter=step.enter),
                       point, Expectation("text_in", text, box), "the message's body, below "
                       "its header lines")  # fmt: skip
            return
        if step.every:
            fields = of_kind(self.screen, step.kind or "input")
            for nth in range(1, len(fields) + 1):
                self._on_target(step, "", step.kind or "input", plan, nth=nth)
            return
        self._on_target(step, step.target, step.kind or "input", plan, nth=step.nth)

    def _cell(self, step: Step) -> None:
        """A spreadsheet cell by its reference: typed into the sheet's name box (the field
        left of the formula bar that shows the current cell, "A1"), then the value, with Enter
        after each, as a person who knows the sheet does."""
        boxes = [e for e in self.screen.elements if e.kind in ("input", "combo", "button", "text")
                 and _CELL_REF.match(e.text.strip())]  # fmt: skip
        if not boxes:
            raise StepFailed(
                f"could not {step.clause!r}: no box on the screen shows the current cell "
                "(a spreadsheet's name box, such as 'A1')"
            )
        name_box = min(boxes, key=lambda e: (e.box.y, e.box.x))
        self.type_into(step, replace(name_box, name="cell"), step.target or "")
        self.blind(step, Hotkey(keys=("enter",)), None, CHANGE, f"going to cell {step.target}")
        self.blind(step, Type(text=step.text or "", enter=True), None, CHANGE,
                   f"typing {step.text!r} into cell {step.target}")  # fmt: skip

    def _press(self, step: Step) -> None:
        before = self.screen
        keys = "+".join(step.keys)
        self.blind(step, Hotkey(keys=step.keys), None, CHANGE, "pressing " + keys)
        if step.where == "answer" and not changed_regions(before.frame, self.screen.frame):
            raise StepFailed(  # an answer no button gave and the key did nothing: not done
                f"could not {step.clause!r}: no button on the screen means it, and {keys} "
                "changed nothing",
                "name the button to press, or run with a model backend",
            )

    def _scroll(self, step: Step) -> None:
        """By the clicks said, or, said "to the bottom", until what it scrolls stops moving (a
        browser drops wheel clicks sent faster than it scrolls)."""
        direction = step.direction or "down"
        clicks = step.amount or END_CLICKS
        w, h = self.screen.frame.size
        at: Point = (w // 2, h // 2)
        if step.target:

            def plan(c: Candidate) -> Plan:
                nonlocal at
                at = c.element.box.center
                action = Scroll(direction=direction, amount=clicks, target=_by_id(c))
                return action, at, None, CHANGE

            # a named area to scroll is usually the list or pane beside its label
            self._on_target(step, step.target, step.kind or "container", plan)
        else:
            self.blind(step, Scroll(direction=direction, amount=clicks), at, CHANGE,
                       f"scrolling {direction} in the middle of the screen")  # fmt: skip
        if step.amount:
            return
        for _ in range(MAX_SCROLLS):
            before = self.screen
            self.blind(step, Scroll(direction=direction, amount=clicks), at, CHANGE,
                       f"scrolling {direction} until it stops")  # fmt: skip
            if self.screen.frame.same_as(before.frame):
                return

    def _drag(self, step: Step) -> None:
        """Onto the element named, beside it, to a place in the list, or along a direction; a
        line or paragraph of an editor's text is moved in the text."""
        if clipping.move(self, step):
            return
        if step.destination and (
            to_day := timetable.moved(self.screen, step.clause, step.target or "", step.destination)
        ):  # a block of a week's view to another day, at the same time
            self._drag_to(step, *to_day)
            return
        drop = None
        if step.destination:
            found = self._best(step.destination, None)
            if found is None:
                raise self._not_found(step.destination, step)
            drop = found.element

        def end(c: Candidate) -> Point:
            if step.where == "position" and drop is not None and step.nth == 1:
                return placing.under_heading(drop)  # "to the top of the backlog"
            if step.where == "places":  # "down two places": that many further in its list
                items, _ = placing.list_around(self.screen, c.element)
                at = next((i for i, e in enumerate(items) if e.id == c.element.id), None)
                shift = step.amount if step.direction == "down" else -step.amount
                point = None if at is None else placing.nth_place(
                    self.screen, c.element, min(max(at + 1 + shift, 1), len(items)))  # fmt: skip
                if point is None:
                    raise StepFailed(f"could not {step.clause!r}: '{c.element.text}' cannot "
                                     "move that way in its list")  # fmt: skip
                return point
            if step.direction:
                return placing.along(self.screen, c.element, step.direction, step.amount)
            if drop is not None and step.where in ("before", "after"):
                return placing.beside(self.screen, drop, after=step.where == "after")
            if drop is not None:
                return drop.box.center
            point = placing.nth_place(self.screen, c.element, step.nth or 1)
            if point is None:
                raise StepFailed(
                    f"could not {step.clause!r}: '{c.element.text}' is in no list I can see"
                )
            return point

        def plan(c: Candidate) -> Plan:
            to = end(c)
            return Drag(source=_by_id(c), to=Target(point=to)), c.element.box.center, to, CHANGE

        if (counted := self._counted(step.target or "")) is not None:
            element = counted[1][0]  # "move the last photo so it is second"
            if step.where == "position" and placing.nth_place(
                self.screen, element, step.nth or 1
            ) is None:
                self.record_noop(step, f"'{element.text or element.kind}' is in that place already")
                return
            self._drag_to(step, element, end(Candidate(element, 1.0, "place")))
            return
        at = self._best(step.target or "", step.kind)
        if at is None and (row := row_by_extreme(self.screen, step.target or "")):
            step = replace(step, target=row)  # "the most expensive thing"
            at = self._best(row, step.kind)
        if step.where == "position" and at is not None and drop is None:
            items, _ = placing.list_around(self.screen, at.element)
            if items and placing.nth_place(self.screen, at.element, step.nth or 1) is None:
                self.record_noop(step, f"'{at.element.text}' is in that place already")
                return
        self._on_target(step, step.target or "", step.kind, plan, alternatives=False)

    def _swap(self, step: Step) -> None:
        """Two lines of a text trade places in the text; two items of a list by two drags:
        the first after the second, then the second where the first was."""
        if clipping.swap(self, step):
            return
        items, i, j = self._swapped(step)
        self._drag_to(step, items[i], placing.beside(self.screen, items[j], after=True))
        if j - i > 1:  # not side by side: the second goes where the first was
            items = self._list_like(items[i])
            if len(items) <= j:
                raise StepFailed(f"could not {step.clause!r}: the list changed under the drag")
            self._drag_to(step, items[j - 1], placing.beside(self.screen, items[i], after=False))

    def _swapped(self, step: Step) -> tuple[list[Element], int, int]:
        """The list two items are in and their places (first < second): named ("Anna and
        Ben"), or by place ("the first two photos")."""
        if step.destination:
            if (counted := self._counted(step.target or "", step.destination)) is not None:
                items, (one, other) = counted  # "the first and third photos"
                i, j = sorted((items.index(one), items.index(other)))
                return items, i, j
            one, other = self._best(step.target or "", None), self._best(step.destination, None)
            if one is None or other is None:
                raise self._not_found(step.destination if one else step.target or "", step)
            items, _ = placing.list_around(self.screen, one.element)
            ids = [e.id for e in items]
            if one.element.id not in ids or other.element.id not in ids:
                raise StepFailed(f"could not {step.clause!r}: they are not in one list I can see")
            i, j = sorted((ids.index(one.element.id), ids.index(other.element.id)))
            return items, i, j
        said = passages.read(step.target or "")
        items = self._main_list(said)
        first = (said.nth or 1) - 1 if (said.nth or 1) > 0 else len(items) - 2
        if said.count not in (None, 2) or len(items) < 2 or not 0 <= first < len(items) - 1:
            raise StepFailed(f"could not {step.clause!r}: say which two to swap")
        return items, first, first + 1

    def _main_list(self, said: passages.Passage) -> list[Element]:
        """The list on the screen things are counted in: the longest of named items, or of
        any items when they are pictures ("the first two photos")."""
        lists = [placing.list_around(self.screen, e)[0] for e in self.screen.elements
                 if e.interactive]  # fmt: skip
        pictures = bool(set(words_of(said.words)) & lexicon().picture_nouns)
        return max(
            lists,
            default=[],
            key=lambda found: (0 if pictures else sum(bool(e.text) for e in found), len(found)),
        )

    def _counted(self, *names: str) -> tuple[list[Element], list[Element]] | None:
        """ "the last photo", "the third card": the list and the items their places name,
        the list found once; None when a name gives no place, or no such place is shown."""
        said = [passages.read(words) for words in names]
        if any(s.nth is None or s.count is not None or s.unit or not s.words for s in said):
            return None
        items = self._main_list(said[0])
        places = [n - 1 if n > 0 else len(items) + n for s in said if (n := s.nth) is not None]
        if not all(0 <= p < len(items) for p in places):
            return None
        return items, [items[p] for p in places]

    def _list_like(self, element: Element) -> list[Element]:
        """The list on the screen now that holds the place `element` had."""
        here = [e for e in self.screen.elements if e.box.iou(element.box) > 0.5]
        return placing.list_around(self.screen, here[0])[0] if here else []

    def _drag_to(self, step: Step, element: Element, to: Point) -> None:
        thought = f"dragging {element.text or element.kind!r}"
        done = self.executor.act(
            Drag(source=Target(id=element.id), to=Target(point=to)),
            Aim(element.box.center, to, element, thought), self.screen, CHANGE,
            Purpose(step.clause, thought),
        )  # fmt: skip
        if done.verdict.status == "retry":
            raise StepFailed(f"could not {step.clause!r}: the drag moved nothing")

    def _highlight(self, step: Step) -> None:
        """A press before the first character and a release after the last, as a person
        selects words."""
        if self._opened_block(step):
            return
        passage, task = passages.read(step.target or ""), self.state.task
        passage = self._counted_down(step, passage)
        found = selecting.span(self.screen, passage, task)
        if found is None and self.reveal(  # below the fold: scrolled to
            step, step.target or "", "list",
            found=lambda: selecting.span(self.screen, passage, task) is not None,
        ):  # fmt: skip
            found = selecting.span(self.screen, passage, task)
        for area in [] if found else self._text_views():  # its lines are one element
            lines = tuple(Element(i, t.box, "text", t.text)
                          for i, t in enumerate(self.read_lines(area.box)))  # fmt: skip
            read = Screen(self.screen.frame, lines)
            if found := selecting.span(read, passage):
                break
        if found is None:
            failure = StepFailed(f"could not {step.clause!r}: the screen shows no "
                                 f"{step.target or 'text'} to select")  # fmt: skip
            self._record_failure(step, self.screen, str(failure))
            raise failure
        self.select(step, found)

    def _opened_block(self, step: Step) -> bool:
        """ "make the meeting right after my lunch on tuesday purple" said of a week's view:
        the block is opened, not its words selected (a drag over them would move it); what the
        clause goes on to do is done in what it opens, and confirmed at the task's end."""
        if words_of(step.clause)[:1] in (["highlight"], ["select"], ["mark"]):
            return False
        found = timetable.block(self.screen, step.target or "")
        if found is None:
            return False
        self.click_element(step, found, f"'{step.target}' is {found.text!r}: opening it")
        self.state.memory.unconfirmed = self.state.memory.unconfirmed or f"'{found.text}'"
        return True

    def select(self, step: Step, found: selecting.Span) -> None:
        """A drag over the words `found`; StepFailed when it selected nothing, so that what
        comes next (a key that deletes, a button that formats) does not act on other text."""
        thought = f"selecting {found.text[:60]!r}"
        drag = Drag(source=Target(point=found.start), to=Target(point=found.end))
        done = self.executor.act(drag, Aim(found.start, found.end, None, thought), self.screen,
                                 CHANGE, Purpose(step.clause, thought))  # fmt: skip
        if done.verdict.status == "retry":
            raise StepFailed(f"could not {step.clause!r}: dragging over {found.text[:60]!r} "
                             "selected nothing")  # fmt: skip

    def _counted_down(self, step: Step, passage: passages.Passage) -> passages.Passage:
        """A paragraph counted from the page's top ("the fourth paragraph", "the last one")
        that is not in view yet: the page scrolled down to it, keeping each paragraph seen at
        its place on the page (one cut at the view's top still ends where it ended), as a
        person reading down counts; the passage then counted in what is in view."""
        nth = selecting.paragraph_nth(passage)
        if nth is None:
            return passage
        seen: list[tuple[int, int]] = []  # on the page: top, bottom
        offset, bottom = 0, self.screen.frame.size[1]
        for _ in range(MAX_SCROLLS + 1):
            shown, read_on = selecting.paragraph_spans(self.screen, self.state.task), self.screen
            for top, end in shown:
                same = next((i for i, (t, b) in enumerate(seen)
                             if abs(t - top - offset) <= PARAGRAPH_SLACK
                             or abs(b - end - offset) <= PARAGRAPH_SLACK), None)  # fmt: skip
                if same is None:
                    seen.append((top + offset, end + offset))
                else:
                    t, b = seen[same]
                    seen[same] = (min(t, top + offset), max(b, end + offset))
            seen.sort()
            wanted = seen[nth - 1] if 0 < nth <= len(seen) else None
            if wanted is not None and wanted[1] - offset < bottom:
                break
            before = self.screen
            if not self._scroll_once(step, f"counting paragraphs to {step.target!r}", 2):
                break
            moved = scrolled_by(before, self.screen)
            if not moved:
                break
            offset += moved
        if self.screen is not read_on:  # scrolled since
            shown = selecting.paragraph_spans(self.screen, self.state.task)
        target = seen[nth - 1] if 0 < nth <= len(seen) else seen[-1] if seen else None
        at = next((i for i, (t, b) in enumerate(shown) if target is not None
                   and abs(b + offset - target[1]) <= PARAGRAPH_SLACK), None)  # fmt: skip
        if at is None or nth < 0:
            return passage
        return selecting.counted_from(passage, nth - 1 - at)

    def _text_views(self) -> list[Element]:
        """Fields holding lines of text as one element (an accessible text view), largest
        first."""
        views = [e for e in self.screen.elements if e.kind == "input"
                 and ("\n" in e.text or len(e.text) > 40 and e.box.h > 60)]  # fmt: skip
        return sorted(views, key=lambda e: -e.box.area)

    def _wait_for(self, step: Step) -> None:
        state, wanted = self.state, step.target or ""
        timeout = state.settings.wait_timeout
        action = Wait(until=Target(text=wanted), timeout=timeout)
        done = self.executor.act(
            action,
            Aim(),
            self.screen,
            lambda before: wait_for_text(state, wanted, timeout, before),
            Purpose(step.clause, f"waiting until '{wanted}' shows"),
        )
        if done.verdict.status == "retry":
            raise StepFailed(done.verdict.reason + self.closest(self.screen, wanted))

    # ---- the shared act-and-verify primitive -------------------------------------------------

    def _candidates(
        self,
        screen: Screen,
        description: str,
        kind: str | None,
        nth: int | None = None,
        **hints: Any,
    ) -> list[Candidate]:
        """By text when the step names one, else the elements of the kind it names."""
        if not description:
            return of_kind(screen, kind, nth)
        return rank(screen, description, kind, echo_of=self.state.task, **hints)

    def _best(self, description: str, kind: str | None, **hints: Any) -> Candidate | None:
        candidates = self._candidates(self.screen, description, kind, **hints)
        return candidates[0] if candidates else None

    def _on_target(self, *args: Any, **hints: Any) -> None:
        """`_act_on_target`, started over on a fresh look when the person changed the screen
        while the run was held."""
        while True:
            try:
                return self._act_on_target(*args, **hints)
            except ScreenChanged:
                continue

    def _act_on_target(
        self,
        step: Step,
        description: str,
        kind: str | None,
        plan: Callable[[Candidate], Plan],
        new_since: Screen | None = None,
        near: Box | None = None,
        nth: int | None = None,
        alternatives: bool = True,
    ) -> None:
        """Act on the best candidate for `description`; on a `retry` verdict try the next
        (unless not `alternatives`: a drag that moved nothing must not move something else)."""
        state = self.state
        before = self.screen
        started = time.perf_counter()

        def found(screen: Screen, **hints: Any) -> list[Candidate]:
            ranked = self._scoped(step, screen, self._candidates(screen, description, kind, nth,
                                                                 **hints))  # fmt: skip
            if not description and nth is None and (step.verb == "type" or step.where == "empty"):
                ranked.sort(key=lambda c: bool(c.element.text.strip()))  # the field waiting
            if step.where != "exact":
                return ranked
            return [c for c in ranked if named_as(description, c.element)
                    and (step.kind != "button" or c.element.interactive)]  # fmt: skip

        candidates = found(before, new_since=new_since, near=near)
        decided = time.perf_counter() - started
        if not candidates and step.scope and place(step.scope) is None:
            candidates = self._in_row_menu(step, description, kind)
            before = self.screen
        if not candidates:
            if state.settings.dry_run:
                self.executor.record(
                    None,
                    None,
                    before,
                    None,
                    Verdict("unverified", f"'{description}' is not on screen yet"),
                    Purpose(step.clause, "dry run: the target would appear after earlier steps"),
                    status="planned",
                )
                return
            if self.reveal(step, description, None, kind, nth):
                before = self.screen
                candidates = found(before)
        if not candidates:
            failure = self._not_found(description, step)
            self._record_failure(step, before, str(failure))
            raise failure
        if step.verb == "click" and self._typed_to_confirm(step):
            before = self.screen
            candidates = found(before) or candidates
        verdict = Verdict("retry", "no candidate tried")
        tries = state.settings.max_attempts if alternatives else 1
        for attempt, candidate in enumerate(candidates[:tries], 1):
            action, point, end, expect = plan(candidate)
            element = candidate.element
            if isinstance(action, Type) and description and not element.name:
                element = replace(element, name=description)  # its label, for secret fields
            thought = f"{description!r} is {candidate.element.describe()} ({candidate.why})"
            if self.reading:
                thought = f"{self.reading}; {thought}"
            fields = {"attempt": attempt, "candidates": [c.to_json() for c in candidates[:5]]}
            aim = Aim(point, end, element, candidate.why)
            done = self.executor.act(
                action, aim, before, expect, Purpose(step.clause, thought, fields), decided
            )
            verdict = done.verdict
            if verdict.status != "retry":
                return
            before = done.after or before
        tried = min(len(candidates), tries)
        raise StepFailed(
            f"could not {step.clause!r}: {tried} candidate(s) for '{description}' tried, "
            f"last result: {verdict.reason}"
        )

    def _in_rows(self, step: Step) -> None:
        """A step said for several rows or cards ("click Share on all posts by @ana"): done in
        each that shows the scope's words, down the list they are in, until `rows` of them
        are done (every one: to the list's end)."""
        words = row_words(step.scope or "")
        one = replace(step, rows=None)
        done: list[tuple[int, int]] = []  # where on the page, whatever was scrolled
        offset, last, amount = 0, None, PART_PANE
        shown = showing_words(self.screen, words, rows=True)
        if step.rows == 0 and shown:  # every one: from the top of their list
            at = (shown[0].box.x + 4, shown[0].box.center[1])
            for _ in range(MAX_SCROLLS):
                if not self._scroll_once(step, "every one of them", amount, at, up=True):
                    break
        for _ in range(MAX_SCROLLS):
            shown, moved = showing_words(self.screen, words, rows=True), 0
            for element in shown:
                if step.rows and len(done) >= step.rows:
                    return
                if _at_one_of(element.box, offset, done):
                    continue
                row = scope_round(self.screen, element, shown)
                if done and step.target and not in_scope(
                    self._candidates(self.screen, step.target, step.kind), row
                ):  # a row that only mentions the words (a reply quoting Daniel), or is done
                    continue
                self._row, self._row_moved = row, 0
                try:
                    self.carry_out(one)
                finally:
                    last, self._row = self._row, None
                done.append((element.box.x, element.box.y + offset))
                moved = self._row_moved
                offset += moved
                if moved:
                    break  # scrolled to its buttons: the rows shown are read again
            if (step.rows and len(done) >= step.rows) or last is None:
                break
            if moved:
                continue
            before = self.screen
            if not self._scroll_once(step, "more of them may be further down", amount,
                                     (last.x + 4, last.center[1])):  # fmt: skip
                break
            moved = scrolled_by(before, self.screen)
            if moved is None:
                break  # nothing to tell which rows were done already
            offset += moved
            amount = _page_of_clicks(before, self.screen, amount)
        if not done or (step.rows and len(done) < step.rows):
            raise StepFailed(
                f"could not {step.clause!r}: {len(done)} row(s) or card(s) show "
                f"{step.scope!r}" + (f", not {step.rows}" if step.rows else ""),
                "name the rows by words they show",
            )

    def _scoped(self, step: Step, screen: Screen, found: list[Candidate]) -> list[Candidate]:
        """Candidates in the row or card the step's scope names first ("for the user @ana");
        when no row shows it, none of several alike is guessed."""
        if not step.scope or place(step.scope) is not None or not found:
            return found
        box = self._row or scope_box(screen, scope_row(step.scope))
        if self._row is None and box is not None and not in_scope(found, box):
            shown = showing_words(screen, scope_row(step.scope), rows=True)
            boxes = [scope_round(screen, e, shown) for e in shown]  # Priya's comment, not
            boxes += [b for e in shown if (b := item_round(screen, e)) is not None]  # her
            box = next((b for b in boxes if in_scope(found, b)), box)  # suggestion below it
        if box is None and len(found) > 1 and found[0].score - found[1].score < 1:
            raise StepFailed(
                f"could not {step.clause!r}: no row or card shows {step.scope!r}, and there are "
                f"{len(found)} alike ('{found[0].element.text or found[0].element.name}')",
                "name the row by words it shows",
            )
        return in_scope(found, box) if box is not None else found

    def _enter_scope(self, step: Step) -> None:
        """Go where the scope says: the program's settings ("in the settings") or a tab ("on
        the Windows tab") when it is not showing yet."""
        scope = step.scope or ""
        where = place(scope)
        if where == "settings" and not _in_settings(self.screen):
            self._open_settings(step)
        if where is None and _names_a_row(scope_row(scope)):  # "Fjordkaffe's notes": its row
            self._find_row(step, scope_row(scope))
        if where != "tab":
            return
        name = " ".join(w for w in scope.split() if w.lower() not in ("tab", "tabs", "page"))
        tabs = [t for t in tab_row(self.screen) if text_similarity(name, t.text) >= 85]
        if tabs and "selected" not in tabs[0].state:
            self.click_element(step, tabs[0], f"the {name} tab first")

    def _find_row(self, step: Step, words: str) -> None:
        """A row the step acts in that is not on the screen: typed into the screen's search
        field, else looked for on the list's other pages, its tabs, further down."""

        typed: list[Box] = []  # the search field, which shows the words once they are typed

        def shown() -> bool:
            found = showing_words(self.screen, words, rows=True)
            return any(not any(t.contains(e.box, slack=4) for t in typed) for e in found)

        if shown():
            return
        box = search_field(self.screen)
        if box is not None and parse_date(words) is None:  # a list is seldom searched by date
            typed.append(box.box)
            self.type_into(step, box, words)
            self.blind(step, Hotkey(keys=("enter",)), None, CHANGE, f"searching for {words!r}")
            if shown():
                return
            self.click_element(step, box, "the search found nothing: the whole list again")
            for keys in (("end",), ("shift", "home"), ("backspace",), ("enter",)):
                self.blind(step, Hotkey(keys=keys), None, CHANGE, "clearing the search")
        if not self.reveal(step, words, found=shown):
            failure = StepFailed(f"could not {step.clause!r}: no row shows {words!r}"
                                 + self.closest(self.screen, words))  # fmt: skip
            self._record_failure(step, self.screen, str(failure))
            raise failure

    def _in_row_menu(self, step: Step, description: str, kind: str | None) -> list[Candidate]:
        """An action of a row that is not shown as a button there ("Mark as shipped" behind the
        row's "•••"): the row's menu opened, and its entries that match."""
        keys = showing_words(self.screen, scope_row(step.scope or ""), rows=True)
        menu = next((m for k in keys if (m := row_menu(self.screen, k.box))), None)
        if menu is None:
            return []
        closed = self.screen
        self.click_element(step, menu, f"{description!r} is not shown: the row's menu")
        found = self._candidates(self.screen, description, kind, new_since=closed)
        if not found and (entry := self._edit_entry(closed)) is not None:
            self.click_element(step, entry, f"{description!r} may be among the row's details")
            found = self._candidates(self.screen, description, kind, new_since=closed)
        if not found:
            self.blind(step, Hotkey(keys=("esc",)), None, CHANGE, "not in the row's menu")
        return found

    def _open_settings(self, step: Step) -> None:
        """Open the program's settings as a person looks for them: each menu that usually holds
        them, until one shows an entry such as Settings, Preferences or Configure."""
        lex = lexicon()
        for name in lex.settings_menus:
            menu = next((e for e in self.screen.elements if e.kind == "menu"
                         and text_similarity(name, e.text) >= 90), None)  # fmt: skip
            if menu is None:
                continue
            closed = self.screen
            self.click_element(step, menu, f"looking for the settings in the {name} menu")
            entries = [
                e
                for e in self.screen.elements
                if normalize(e.text) not in {normalize(t) for t in closed.texts()}
                and any(text_similarity(w, e.text) >= 85 for w in lex.settings_entries)
            ]
            if entries:
                self.click_element(step, entries[0], "the settings")
                return
            self.blind(step, Hotkey(keys=("esc",)), None, CHANGE, "not in this menu")

    def reveal(
        self,
        step: Step,
        description: str,
        where: str | None = None,
        kind: str | None = None,
        nth: int | None = None,
        found: Callable[[], bool] | None = None,
    ) -> bool:
        """The target is not on screen: look for it as a person would, bounded in actions:
        open collapsed tree nodes, then the other tabs, then scroll down; `where` keeps to one
        of these ("section", "tab", "list"). True once it shows (once `found` says so, where
        the caller knows better: a control by its label)."""

        def shown() -> bool:
            if found is not None:
                return found()
            screen = self.screen
            if description and step.where == "exact":
                return any(named_as(description, c.element) and c.element.interactive
                           for c in self._candidates(screen, description, kind, nth))  # fmt: skip
            if description:
                best = self._candidates(screen, description, kind, nth)
                element = best[0].element if best else None
                return element is not None and (
                    not element.text
                    or text_similarity(description, element.text) >= SHOWN_WELL
                    or text_similarity(description, element.name) >= SHOWN_WELL  # a field
                )  # a word that only looks like it ('|cursor' for 'Cursor blink') is not it
            return shows_words(screen, description, echo_of=self.state.task) is not None

        ways = {"section": [self._open_nodes], "tab": [self._open_tabs, self._turn_pages],
                "list": [self._open_found, self._open_more, self._scroll_down,
                         self._turn_pages]}  # fmt: skip
        # (a list: the row a find named opened first, then scrolled, or it is paged)
        if where == "button":  # "click Next until you see Total"
            return self._press_until(step, description, shown, step.text or "")
        every = [self._open_found, self._open_more, self._open_nodes, self._open_tabs,
                 self._turn_pages, self._scroll_down, self._turn_pages,
                 self._open_sections]  # fmt: skip
        # (the pager twice: once in view, once below the fold)
        order = ways[where] if where in ways else [*every, self._open_drawers, self._open_menus]
        if where is None and step.verb in SETTINGS_VERBS and not _in_settings(self.screen):
            order.append(self._in_the_settings)  # an option named by its label, not its place
        return any(way(step, description, shown) for way in order)

    def _open_section(self, step: Step) -> None:
        """The section of the page's side navigation that the step's words name, opened first
        when they name nothing else on the page ("rename my wifi": the Wi-Fi section)."""
        words = step.target or step.old or ""
        if step.verb not in SECTION_VERBS or not words or is_pronoun(words):
            return
        nav = sections.side_nav(self.screen)
        entry = sections.section_for(words, nav)
        if (
            entry is None
            or sections.is_open(self.screen, entry, nav)
            or sections.shown_outside(self.screen, words, nav)
        ):
            return
        name = sections.label(entry)
        self.click_element(step, entry, f"'{words}' is in the '{name}' section: opening it")

    def _open_place(self, step: Step) -> None:
        """ "remove whatever costs the most from my cart": the place the clause says its thing
        is in, a button of the page's ("Cart 5", "Inbox"), opened first when nothing else on
        the screen's texts name it (an open drawer shows "Your cart (5)"; "Add to cart" is no
        sign of it)."""
        found = _IN_PLACE.search(step.clause)
        if found is None:
            return
        noun = found["place"].lower()
        if noun not in lexicon().holders:
            return
        named = [e for e in self.screen.elements if e.kind == "text" and noun in words_of(e.text)]
        buttons = [e for e in self.screen.elements if e.kind in ("button", "link", "text")
                   and _names_place(e.text or e.name, noun)]  # fmt: skip
        named += [b for b in buttons if b not in named]
        if len(buttons) != 1 or any(not buttons[0].box.contains(e.box, slack=2) for e in named
                                    if e is not buttons[0]):  # fmt: skip
            return
        label = buttons[0].text or buttons[0].name
        self.click_element(step, buttons[0], f"'{found[0]}': opening '{label}' first")

    def _open_drawers(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """ "use the discount code from the banner": a field the page does not show may be in
        the drawer its cart button opens (a lexicon list of such places)."""
        for noun in sorted(lexicon().drawers):
            buttons = [e for e in self.screen.elements if e.kind in ("button", "link", "text")
                       and _names_place(e.text or e.name, noun)]  # fmt: skip
            if len(buttons) != 1:
                continue
            label = buttons[0].text or buttons[0].name
            self.click_element(step, buttons[0], f"{description!r} is not on screen: '{label}'")
            if shown():
                return True
        return False

    def _section_showing(self, step: Step) -> bool:
        """The section of the page's side navigation that shows the thing the step names
        ("tiktok.com in the blocked websites": where tiktok.com is listed), when the screen
        shows it nowhere and its words name no section; whether it shows now."""
        thing = _PLACED.split(step.target or step.old or "", maxsplit=1)[0]
        if not thing or is_pronoun(thing) or shows_words(self.screen, thing) is not None:
            return False
        if not sections.side_nav(self.screen):
            return False
        return self._open_sections(step, thing, lambda: shows_words(self.screen, thing) is not None)

    def _open_sections(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """Each section of the page's side navigation, top to bottom, until the target shows."""
        seen: set[str] = set()
        for _ in range(MAX_REVEALS):
            nav = sections.side_nav(self.screen)
            seen |= {sections.label(e) for e in nav if sections.is_open(self.screen, e, nav)}
            unseen = [e for e in sections.tour(nav) if sections.label(e) not in seen]
            if not unseen:
                return False
            entry = unseen[0]
            name = sections.label(entry)
            seen.add(name)
            self.click_element(step, entry, f"{description!r} is not on screen: the '{name}' section")
            if shown():
                return True
        return False

    def _open_found(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """The row an earlier step found, opened: "find the email by Audrey and click the
        trash icon" acts inside the email."""
        row, self.state.memory.found = self.state.memory.found, ""
        element = shows_words(self.screen, row, rows=True) if row else None
        if element is None:
            return False
        self.click_element(step, element, f"opening '{row}', where '{description}' may be")
        return shown()

    def _open_more(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """The "more" menu ("…", "⋮") of the row or card the step acts in, opened: the actions
        a feed or a table keeps out of sight ("For the user @leo, click Mute"). Scoped, it is
        the card's, else the first below the words that name it (a post's actions sit under
        its header); unscoped, only the screen's one such menu."""
        mores = [c.element for c in self._candidates(self.screen, "more", "icon")
                 if c.element.name == "more"]  # fmt: skip
        if step.scope and place(step.scope) is None:
            row = self._row or scope_box(self.screen, scope_row(step.scope))
            if row is None:
                return False
            below = sorted((m for m in mores if m.box.center[1] >= row.y), key=lambda m: m.box.y)
            mores = [m for m in mores if row.contains(m.box, slack=2)] or below[:1]
        if len(mores) != 1:
            return False
        closed = self.screen
        self.click_element(step, mores[0], f"'{description}' may be in its 'more' menu")
        if shown():
            return True
        if (entry := self._edit_entry(closed)) is not None:  # "Edit details": the row's fields
            self.click_element(step, entry, f"'{description}' may be among its details")
            if shown():
                return True
        self.blind(step, Hotkey(keys=("esc",)), None, CHANGE, "not in this menu")
        return False

    def _edit_entry(self, closed: Screen) -> Element | None:
        """The entry of the menu opened since `closed` that opens its row's details to edit
        ("✎ Edit details", "Properties"), by the lexicon's words at the start of its label
        (past a glyph OCR read as a mark or glued on: "9Edit details"); the entry itself over
        its text."""
        entries, before = lexicon().edit_entries, {(e.text, e.box) for e in closed.elements}
        found: dict[str, list[Element]] = {}
        for element in self.screen.elements:
            if (element.text, element.box) in before:
                continue
            words = words_of(re.sub(r"^[^A-Za-z]*", "", element.text))
            if element.kind in ("button", "menu", "list_item", "text") and any(
                phrase_at(words, 0, p) and len(words) <= len(p) + 2 for p in entries
            ):
                found.setdefault(" ".join(words), []).append(element)
        if len(found) != 1:
            return None
        (same,) = found.values()
        return min(same, key=lambda e: e.kind == "text")

    def _in_the_settings(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """Open the program's settings and look through their tabs."""
        self._open_settings(step)
        return _in_settings(self.screen) and (shown() or self._open_tabs(step, description, shown))

    def _open_menus(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """Each menu of the menu bar, left to right, until one lists the target ("open the Find
        and Replace dialog": Search > Find and Replace); that entry is then chosen."""
        wanted = re.sub(
            r"\s+(?:dialog|dialogue|window|panel|pane|box)$", "", description, flags=re.I
        )
        menus = [e for e in self.screen.elements if e.kind == "menu" and len(e.text) < 30]
        rows = [[m for m in menus if abs(m.box.center[1] - n.box.center[1]) < n.box.h / 2]
                for n in menus]  # fmt: skip
        bar = sorted(max(rows, key=len, default=[]), key=lambda e: e.box.x)[:MAX_REVEALS]
        if len(bar) < 2:
            return False  # no menu bar: one "menu" alone is a title or a heading
        for menu in bar:
            closed = self.screen
            self.click_element(
                step, menu, f"{description!r} is not on screen: the {menu.text} menu"
            )
            entry = self._best(wanted, "menuitem", new_since=closed)
            if entry is not None and text_similarity(wanted, entry.element.text) >= 90:
                self.click_element(step, entry.element, f"{wanted!r} in the {menu.text} menu")
                return True
            self.blind(step, Hotkey(keys=("esc",)), None, CHANGE, f"not in the {menu.text} menu")
        return False

    def _open_nodes(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """Collapsed tree nodes (a "+" or "▸" beside a row), top first, until the target shows;
        children's own nodes come next in reading order, so the search goes down first."""
        opened: list[Box] = []
        for _ in range(MAX_REVEALS):
            closed = [
                e
                for e in self.screen.elements
                if e.text.strip() in EXPANDERS
                and not any(e.box.iou(b) > 0.5 for b in opened)
                and _labels_a_row(self.screen, e)
            ]
            if not closed:
                return False
            node = closed[0]
            opened.append(node.box)
            thought = f"{description!r} is not on screen: opening the collapsed node at {node.box}"
            self.click_element(step, node, thought)
            if shown():
                return True
        return False

    def _press_until(
        self, step: Step, description: str, shown: Callable[[], bool], label: str
    ) -> bool:
        """Press the button `label` again and again until the target shows; stop when the
        button is gone or pressing it changes nothing (the last page)."""
        for _ in range(MAX_REVEALS):
            button = self._best(label, "button")
            if button is None and (arrow := _pager_arrow(self.screen, label)) is not None:
                button = Candidate(arrow, 100.0, "the pager's arrow")
            if button is None:
                return False
            before = self.screen
            self.click_element(step, button.element, f"{description!r} is not on screen yet: "
                               f"pressing {label}")  # fmt: skip
            if shown():
                return True
            if self.screen.frame.same_as(before.frame):
                return False
        return False

    def _turn_pages(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """The pages of a paged list, through its Next button."""
        pager = next((label for label in lexicon().intents["next"].labels
                      if (b := self._best(label, "button")) is not None
                      and text_similarity(label, b.element.text) >= SHOWN_WELL), None)  # fmt: skip
        if pager is None and (arrow := _pager_arrow(self.screen)) is not None:
            pager = arrow.text.strip()  # a pager's bare arrow ("1 2 >"), no words to rank
        return pager is not None and self._press_until(step, description, shown, pager)

    def _open_tabs(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """Each tab not yet seen, left to right, until the target shows."""
        said = step.where == "tab"
        if not tab_row(self.screen, said):
            return False
        seen: set[str] = set()
        for _ in range(MAX_REVEALS):
            tabs = tab_row(self.screen, said)
            seen |= {normalize(t.text) for t in tabs if "selected" in t.state}
            unseen = [t for t in tabs if normalize(t.text) not in seen]
            if not unseen:
                return False
            tab = unseen[0]
            seen.add(normalize(tab.text))
            self.click_element(step, tab, f"{description!r} is not on screen: the next tab")
            if shown():
                return True
        return False

    def _scroll_down(self, step: Step, description: str, shown: Callable[[], bool]) -> bool:
        """Scroll the page (or the list under the pointer) down until the target shows or the
        page stops moving; in a row or card, the list it is in (a feed beside the page)."""
        amount = PART_PAGE if self._row is None else PART_PANE
        alike = self._candidates(self.screen, step.target or "", step.kind) if (
            step.scope and self._row is None and step.target) else []  # fmt: skip
        for _ in range(MAX_SCROLLS):
            before, row = self.screen, self._row
            at = (row.x + 4, row.center[1]) if row is not None else None
            if at is None and alike:  # the card said is among others like it (a side panel's
                x, y = alike[0].element.box.center  # comments): the wheel over them
                at = (x, min(y, self.screen.frame.size[1] // 2))
            if not self._scroll_once(step, f"{description!r} is not on screen", amount, at):
                return False
            if row is not None and not self._follow_row(step, before):
                return False
            if shown():
                return True
            amount = _page_of_clicks(before, self.screen, amount)
        return False

    def _follow_row(self, step: Step, before: Screen) -> bool:
        """The row acted in, where the scroll just put it: the one showing the scope's words
        nearest where it should be now; False when it cannot be told how far things moved."""
        moved, row = scrolled_by(before, self.screen), self._row
        if moved is None or row is None:
            return False
        self._row_moved += moved
        shown = showing_words(self.screen, row_words(step.scope or ""), rows=True)
        now = row.y - moved
        near = [e for e in shown if abs(e.box.y - now) <= row.h]
        self._row = (
            scope_round(self.screen, min(near, key=lambda e: abs(e.box.y - now)), shown)
            if near
            else Box(row.x, now, row.w, row.h)
        )
        return True

    def _scroll_once(
        self, step: Step, why: str, amount: int = 5, at: Point | None = None, up: bool = False
    ) -> bool:
        """Scroll the page (or the list `at` a point) down (or up) once, unless a widget is
        under the pointer (the wheel would change its value); whether the page moved."""
        w, h = self.screen.frame.size
        at = at or (w // 2, h // 2)
        under = self.screen.element_at(at, scroll=True)
        if under is not None and under.kind not in ("container", "list_item", "text"):
            return False
        before, direction = self.screen, "up" if up else "down"
        self.blind(step, Scroll(direction=direction, amount=amount), at, CHANGE,
                   f"{why}: scrolling {direction}")  # fmt: skip
        return not self.screen.frame.same_as(before.frame)

    def type_into(self, step: Step, element: Element, text: str) -> None:
        """Type `text` over what the field `element` holds (its label in `name`, so a secret
        field's text is kept out of the logs). What it holds is selected with End, Shift+Home,
        which every toolkit's one-line field understands (Ctrl+A is "start of line" in
        some)."""
        secret = looks_secret(element.name)
        expect = CHANGE if secret else Expectation("text_in", text, element.box)
        thought = f"'{element.name}' is {element.describe()}"
        if self.reading:
            thought = f"{self.reading}; {thought}"
        aim = Aim(element.box.center, None, element, f"labelled '{element.name}'")
        if not secret:
            purpose = Purpose(step.clause, thought)
            self.executor.act(Click(target=Target(id=element.id)), aim, self.screen, CHANGE,
                              purpose)  # fmt: skip
            for keys in (("end",), ("shift", "home")):
                self.blind(step, Hotkey(keys=keys), None, CHANGE, "selecting what it holds")
            action = Type(text=text)
            aim = Aim(None, None, element, aim.how)  # no click: it would undo the selection
        else:
            action = Type(text=text, target=Target(id=element.id), clear=True)
        self.executor.act(action, aim, self.screen, expect, Purpose(step.clause, thought))

    def read_lines(self, box: Box) -> list[TextBox]:
        """The lines of text inside `box` of the current frame, read by OCR one by one (a text
        area the screen holds as one element)."""
        pixels = self.screen.frame.pixels[box.y : box.bottom, box.x : box.right]
        lines = self.state.parser.ocr.read(pixels)
        return [
            TextBox(Box(t.box.x + box.x, t.box.y + box.y, t.box.w, t.box.h), t.text, t.score)
            for t in lines
        ]

    def click_element(self, step: Step, element: Element, thought: str) -> Verdict:
        """One click on an element chosen by the actor itself (a tab, a node, a key)."""
        return self.executor.act(
            Click(target=Target(id=element.id)),
            Aim(element.box.center, None, element, thought),
            self.screen,
            CHANGE,
            Purpose(step.clause, thought),
        ).verdict

    def blind(
        self, step: Step, action: Action, point: Point | None, expect: Expectation, thought: str
    ) -> None:
        """An action with no alternatives to try: no change means 'unverified', not failure."""
        executor, state = self.executor, self.state

        def check(before: Screen) -> tuple[Screen, Verdict]:
            after = state.observe()
            verdict = executor.judge(before, after, expect, action, state.volatile, "")
            if verdict.status == "retry":
                verdict = Verdict("unverified", f"no visible change after {thought}")
            return after, verdict

        while True:
            try:
                executor.act(action, Aim(point), self.screen, check, Purpose(step.clause, thought))
                return
            except ScreenChanged:
                continue

    def record_noop(self, step: Step, reason: str) -> None:
        self.executor.record(
            None, None, self.screen, None, Verdict("success", reason),
            Purpose(step.clause, "nothing to do"),
        )  # fmt: skip

    def _record_failure(self, step: Step, screen: Screen, reason: str) -> None:
        verdict, purpose = Verdict("retry", reason), Purpose(step.clause)
        self.executor.record(None, None, screen, None, verdict, purpose, status="failed")

    def _not_found(self, description: str, step: Step) -> StepFailed:
        return StepFailed(
            f"could not {step.clause!r}: nothing on screen matches '{description}'"
            + self.closest(self.screen, description)
        )

    @staticmethod
    def closest(screen: Screen, description: str) -> str:
        near = closest_texts(screen, description)
        return f" (closest: {', '.join(repr(t) for t in near)})" if near else ""
