"""Widgets set to a value: text fields, spin boxes, sliders and scales, combo boxes (also those
whose options show only when opened), check boxes, date fields and calendars, time fields.

What kind of widget a label names is read from the screen (its element kind, its accessible
role where the platform gives one, what it shows); a slider is moved with its keys and its
value read back after each move, as a person watches the number while dragging.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import replace
from typing import TYPE_CHECKING

from clickwright.a11y import A11yNode
from clickwright.agent.clauses import Step
from clickwright.agent.critic import Expectation, text_near
from clickwright.agent.dates import month, parse_date, time_of_day
from clickwright.agent.executor import CHANGE
from clickwright.agent.grounding import (
    FIELD_KINDS,
    LABEL_KINDS,
    SHOWN_NUMBER,
    TOGGLE_KINDS,
    Field,
    card_box,
    card_round,
    fields,
    normalize,
    rank,
    scope_box,
    showing,
    shows_words,
    text_similarity,
    unseen_sliders,
    without_article,
)
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.errors import StepFailed
from clickwright.parsers.widgets import slider_track
from clickwright.types import Box, Click, Element, Hotkey, Screen, Target, Type

if TYPE_CHECKING:
    from clickwright.agent.actor import OfflineActor

__all__ = ["item_field", "parse_date", "quantity", "set_value", "taking"]

ON = frozenset({"on", "yes", "true", "checked", "enabled", "enable", "1"})
OFF = frozenset({"off", "no", "false", "unchecked", "disabled", "disable", "0"})
SLIDER_ROLES = ("slider", "scroll bar", "dial")
SLIDER_NOUNS = frozenset({"slider", "scale", "range", "range slider", "slider bar", "dial"})
THIN = 18
"""px: a field thinner than this is a slider's bar, not a place to type."""
MAX_MONTHS = 24
"""Months a calendar is turned through at most."""
MAX_MOVES = 8
"""Arrow key presses a slider gets after it was clicked near its value."""


def set_value(actor: OfflineActor, step: Step) -> None:
    """Set the widget `step.target` names to `step.text`; the dialog it is in is then
    confirmed at the end of the task, unless something else confirms it first."""
    _set_value(actor, step)
    actor.state.memory.unconfirmed = actor.state.memory.unconfirmed or f"'{step.target}'"


def _set_value(actor: OfflineActor, step: Step) -> None:
    if step.kind == "cell":
        actor.do(replace(step, verb="type"))
        return
    value = (step.text or "").strip()
    if not step.target:
        if parse_date(value) is not None:
            return pick_date(actor, step, value)
        raise StepFailed(f"could not {step.clause!r}: it names nothing to set")
    if parse_date(value) is not None and _calendar(actor.screen) and not _named(actor, step):
        return pick_date(actor, step, value)
    field = _field(actor, step)
    if field is None and (tracks := _sliders_for(actor.screen, step.target, value)):
        for track, number in tracks:  # "set the sliders to 11, 19 and 5": each in turn
            move_slider(actor, step, track, number)
        return None
    if field is None:
        if (slider := _unseen_slider(actor.screen, step.target)) is not None:
            if step.where in ("up", "down"):
                value = _moved_by(actor.screen, Field(Element(-1, slider, "input"), ""), step)
            return move_slider(actor, step, slider, value)
        raise StepFailed(
            f"could not {step.clause!r}: nothing on screen is labelled '{step.target}'"
            + actor.closest(actor.screen, step.target)
        )
    element = field.element
    label = field.label
    if step.where in ("up", "down"):
        value = _moved_by(actor.screen, field, step)
    if element.kind in ("checkbox", "toggle"):
        wanted = value.lower()
        verb = "uncheck" if wanted in OFF else "check"
        actor.do(Step(verb, step.clause, target=label, kind=element.kind))
    elif element.kind == "radio" and (beside := _choice_beside(actor.screen, element, value)):
        choose(actor, step, beside, value)  # "Built-in Theme (•) [IDLE Classic ▾]": dark
    elif element.kind == "radio":
        actor.do(Step("click", step.clause, target=label, kind="radio"))
    elif element.kind == "combo" and _a_moment(element.text, value) and _LISTED_TIME.fullmatch(
        element.text.strip()
    ):  # "14:30 ▾": a list of times, its option chosen
        choose(actor, step, element, _formatted(value, element))
    elif element.kind == "combo" and _a_moment(element.text, value):
        _type_segments(actor, step, element, _formatted(value, element))  # "10:00 PM 🕓"
    elif element.kind == "combo" and _DASHES.fullmatch(element.text) and (
        time := _half_day_time(value, said=False)
    ):  # an empty time field whose clock reads as a drop-down's arrow: "-:----"
        _type_segments(actor, step, element, time, as_written=True)
    elif _stepped(actor, step, field, value):
        return None
    elif element.kind == "button" and _spin_box(actor.screen, element):
        actor.type_into(step, replace(element, name=element.name or label), _number_of(value))
    elif element.kind in ("combo", "button"):
        choose(actor, step, element, value)
    elif _role(actor, element) in SLIDER_ROLES or _thin_with_number(actor.screen, element):
        move_slider(actor, step, element.box, value)
    elif _segmented(element):
        _type_segments(actor, step, element, _formatted(value, element))
    elif _DASHES.fullmatch(element.text) and (time := _half_day_time(value)):
        _type_segments(actor, step, element, time, as_written=True)  # its "--:-- --" misread
    else:
        had_calendar = _calendar(actor.screen) is not None
        text = _formatted(value, element)
        actor.type_into(step, replace(element, name=element.name or label), text)
        if (time := _half_day_time(value, said=False)) and not text_near(
            actor.screen, text, element.box
        ):  # a browser's time field OCR did not know, which took the digits wrong
            for keys in (("end",), ("shift", "home"), ("backspace",)):
                actor.blind(step, Hotkey(keys=keys), None, CHANGE, "clearing what it took")
            return _type_segments(actor, step, element, time, as_written=True)
        if parse_date(value) and not had_calendar and _calendar(actor.screen) is not None:
            if not text_near(actor.screen, text, element.box):
                return pick_date(actor, step, value)  # a field that only takes its picker
            actor.blind(step, Hotkey(keys=("tab",)), None, CHANGE,
                        "leaving the field, which closes the date picker it opened")  # fmt: skip


def _moved_by(screen: Screen, field: Field, step: Step) -> str:
    """The value `step.text` up or down from what the control shows now ("up by 1.5 degrees"
    at 20.5 °C: 22); a percentage of a control that shows no percent is a share of its value
    ("lower the price by 10%")."""
    said = quantity(step.text or "")
    if said is None:
        raise StepFailed(f"could not {step.clause!r}: '{step.text}' is no amount to change by")
    shown = _slider_value(screen, field.element.box)
    if shown is None:
        raise StepFailed(f"could not {step.clause!r}: '{field.label}' shows no value to change")
    amount, unit = said
    width, height = screen.frame.size
    if unit == "percent" and "percent" not in _shown_units(screen, field, Box(0, 0, width, height)):
        amount = shown * amount / 100
    moved = shown + (amount if step.where == "up" else -amount)
    return f"{round(moved, 6):g}"


MAX_STEPS = 20
"""Presses of a stepper's + or − a count is set by; further is typed."""


def _stepped(actor: OfflineActor, step: Step, field: Field, value: str) -> bool:
    """A shop's "− 2 +" set to 3 as a person does: its + pressed once (its count is often no
    field to type into); whether it now shows the count. The − and + are the ends of the
    box read as one control, its count the number between them."""
    box = field.element.box
    said, shown = quantity(value), re.findall(r"\d{1,3}", field.element.text)
    if field.label != "quantity" or said is None or not shown or box.w < 2.2 * box.h:
        return False
    now, wanted = int(shown[-1]), int(said[0])
    if wanted == now or abs(wanted - now) > MAX_STEPS or wanted != said[0]:
        return False
    end = box.right - box.h // 2 if wanted > now else box.x + box.h // 2
    point = (end, box.center[1])
    sign = "+" if wanted > now else "−"
    for n in range(abs(wanted - now)):
        actor.blind(step, Click(target=Target(point=point)), point, CHANGE,
                    f"the quantity's {sign} ({n + 1} of {abs(wanted - now)})")  # fmt: skip
    return text_near(actor.screen, str(wanted), box)


def _spin_box(screen: Screen, element: Element) -> bool:
    """A spin box read as a button: it shows a bare number, its minus and plus flush right of
    it, each about as tall as it."""
    if _number(element.text) is None or not re.fullmatch(r"\s*-?[\d.,]+\s*", element.text):
        return False
    box = element.box
    beside = [e.box for e in screen.elements if e.interactive and e is not element
              and -3 <= e.box.x - box.right <= 4 + 2 * box.h
              and abs(e.box.center[1] - box.center[1]) <= box.h / 4
              and 0.7 * box.h <= e.box.h <= 1.3 * box.h and e.box.w <= 1.5 * e.box.h]  # fmt: skip
    return len(beside) == 2


def _number_of(value: str) -> str:
    said = quantity(value)
    return f"{said[0]:g}" if said is not None else value


def _choice_beside(screen: Screen, radio: Element, value: str) -> Element | None:
    """The drop-down on a radio's row, when the value is not the radio's own label but one of
    the drop-down's choices."""
    if text_similarity(value, radio.text) >= 80:
        return None
    middle = radio.box.center[1]
    row = [e for e in screen.elements if e.kind in ("combo", "button") and e.text.strip()
           and e.box.x > radio.box.x and e.box.y <= middle <= e.box.bottom]  # fmt: skip
    return min(row, key=lambda e: e.box.x) if row else None


def _thin_with_number(screen: Screen, element: Element) -> bool:
    """A slider the parser took for a field: a bar too thin to type in, its number at the end
    of its row."""
    return "slider" in element.state or (
        element.box.h < THIN
        and element.text.strip() == ""
        and (_row_number(screen, element.box) is not None)
    )


def _a_moment(shown: str, value: str) -> bool:
    """Whether a drop-down shows a time or date as `value` is one: a browser's time or date
    field (its clock or calendar icon reads as an arrow), typed part by part, not a list."""
    kind = lexicon().value_kind(value)
    return kind in ("time", "date") and lexicon().value_kind(shown.strip()) == kind


def _segmented(element: Element) -> bool:
    """A date or time field typed part by part ("mm/dd/yyyy", "--:-- --"), as browsers draw."""
    return bool(re.search(r"(?:dd|mm|yyyy)\W(?:dd|mm|yyyy)|--\s*:\s*--", element.text.lower()))


def _type_segments(
    actor: OfflineActor, step: Step, element: Element, text: str, as_written: bool = False
) -> None:
    """Click the first part of the field, type the digits (and AM/PM; `as_written`: the text
    itself): each part moves on to the next by itself; then Tab, which leaves the field and
    closes any picker it opened."""
    point = (element.box.x + min(14, element.box.w // 4), element.box.center[1])
    actor.blind(step, Click(target=Target(point=point)), point, CHANGE, "the field's first part")
    typed = text if as_written else re.sub(r"[^\dAPap]", "", text)
    actor.blind(step, Type(text=typed), None, CHANGE, f"typing {text} part by part")
    actor.blind(step, Hotkey(keys=("tab",)), None, CHANGE, "on to the next field")


def _field(actor: OfflineActor, step: Step) -> Field | None:
    """The control labelled `step.target` (revealing it when it is not on the screen yet)."""
    wanted = _without_unit(step.target or "")
    for _ in range(2):
        known = _labelled(actor.screen, wanted)
        if step.kind in (*FIELD_KINDS, *TOGGLE_KINDS):
            known = [f for f in known if f.element.kind == step.kind] or known
        known = [f for f in known if _takes(f.element, step.text or "")]
        if len(known) != 1 or step.scope:
            carded = _in_card(actor.screen, wanted, step.text or "", step.scope)
            if carded is not None and _takes(carded.element, step.text or ""):
                return carded
        within = scope_box(actor.screen, without_article(step.scope)) if step.scope else None
        best = max(known, key=lambda f: text_similarity(wanted, f.label), default=None)
        if best is not None and text_similarity(wanted, best.label) >= CLOSE:
            return best
        made = _made_for(actor.screen, wanted, step.text or "", within)
        if made is not None or best is not None:
            return made or best  # "start" to 15:00: the first of two times, not "SAT"
        labelled = lambda: bool(_labelled(actor.screen, wanted))  # noqa: E731
        if _unseen_slider(actor.screen, wanted) is not None or not actor.reveal(
            step, wanted, found=labelled
        ):
            return None
    return None


CLOSE = 90
"""How alike a label must be to the words to be the field they name outright; a looser one
gives way to the one field made for the value ("start" to 15:00: a time field, not "SAT")."""


def _takes(element: Element, value: str) -> bool:
    """Whether a control can be set to `value`: a check box or switch takes no amount ("their
    credit limit to 50 000" is no box's)."""
    said = value.strip().lower()
    return element.kind not in TOGGLE_KINDS or said in ON | OFF or quantity(said) is None


def _made_for(screen: Screen, wanted: str, value: str, within: Box | None = None) -> Field | None:
    """ "the date" with no label Date on the screen: the one field made for dates (it shows
    mm/dd/yyyy or a date), when the words name that kind of value; a quantity, the one
    count in the row `within` (a cart's line)."""
    lex = lexicon()
    kind = lex.value_kind(value)
    if set(words_of(wanted)) & QUANTITY_WORDS and quantity(value) is not None:
        return _stepper(screen, within)
    said = set(words_of(wanted))
    if kind not in ("date", "time") or not said & (set(lex.fields[kind]) | lex.starts | lex.ends):
        return None  # "the date", "the start" of a time
    known = fields(screen)
    labelled = {f.element.id for f in known}
    unlabelled = [Field(e, "") for e in screen.elements
                  if e.kind in ("input", "combo") and e.id not in labelled]  # fmt: skip
    made = showing(known + unlabelled, kind)  # a page's lone date field may have no label
    if not made and not known and len(unlabelled) == 1:
        return unlabelled[0]  # the one field there is, its placeholder too faint to read
    if len(made) == 2 and (said & lex.starts or said & lex.ends):  # "14:00 – 15:00": from, to
        first, last = sorted(made, key=lambda f: (f.element.box.y // 8, f.element.box.x))
        return last if said & lex.ends else first
    return made[0] if len(made) == 1 else None


QUANTITY_WORDS = frozenset({"quantity", "qty", "amount", "count", "number"})


def _stepper(screen: Screen, within: Box | None = None) -> Field | None:
    """A shop's quantity with no label: the one field showing a bare count ("− 1 +" beside
    Add to cart), typed into as a field whatever its frame looked like (its − or + may be read
    as a character beside the count); `within`: the one in that row."""
    counts = [e for e in screen.elements if e.kind in ("input", "combo")
              and re.fullmatch(r"(?:\S\s+)?\d{1,3}(?:\s+\S)?", e.text.strip())  # "1 2": its −
              and (within is None or within.y - 4 <= e.box.center[1] <= within.bottom + 4)
              ]  # fmt: skip
    if len(counts) != 1:
        return None
    return Field(replace(counts[0], kind="input"), "quantity")


def _in_card(screen: Screen, words: str, value: str, scope: str | None) -> Field | None:
    """A control named by the card it is in and the value it takes: "the bedroom" to 18.5
    degrees is the one control in the card headed Bedroom whose number shows °C; "the kitchen
    lights" to 40% the one in the Kitchen card showing % (its Lights switch takes no number).
    The card's words are the scope, else the first or last words of the name."""
    tokens = words.split()
    cuts = [(scope, words)] if scope else []
    for cut in range(len(tokens), 0, -1):
        cuts += [(" ".join(tokens[:cut]), " ".join(tokens[cut:]))]
        cuts += [(" ".join(tokens[-cut:]), " ".join(tokens[:-cut]))] if cut < len(tokens) else []
    for card_words, rest in cuts:
        card = card_box(screen, card_words)
        if card is None:
            if not rest and (item := item_field(screen, card_words, value)) is not None:
                return item  # "make the socks 3": the Qty of the item that shows socks
            continue
        inside = [f for f in fields(screen) + unseen_sliders(screen)
                  if card.contains(f.element.box, slack=2)]  # fmt: skip
        chosen = taking(screen, inside, value, card)
        if rest:
            chosen = [f for f in chosen if text_similarity(rest, f.label) >= 80] or chosen
        if len(chosen) == 1:
            return chosen[0]
        item = item_field(screen, card_words, value)
        if item in chosen and (not rest or text_similarity(rest, item.label) >= 80):
            return item  # a card listing items, each with its own field
    return None


def item_field(screen: Screen, words: str, value: str) -> Field | None:
    """In a list of items drawn without borders (a basket: a name, then its own Qty field),
    the field of the item `words` name: among the fields whose label every item repeats, the
    first one at or below the words, the next item's name not in between."""
    shown = shows_words(screen, without_article(words), rows=True)
    if shown is None:
        return None
    known = fields(screen)
    labels = [normalize(f.label) for f in known]
    repeated = [f for f, label in zip(known, labels, strict=True) if labels.count(label) > 1]
    below = [
        f
        for f in taking(screen, repeated, value, Box(0, 0, *screen.frame.size))
        if f.element.box.bottom >= shown.box.bottom
        and abs(f.element.box.center[0] - shown.box.center[0]) < screen.frame.size[0] / 4
    ]
    first = min(below, key=lambda f: f.element.box.y, default=None)
    if first is None:
        return None
    same = [f for f in repeated if normalize(f.label) == normalize(first.label)]
    between = [f for f in same if shown.box.y - 4 <= f.element.box.y < first.element.box.y]
    return first if not between else None


def taking(
    screen: Screen, candidates: list[Field], value: str, card: Box, strict: bool = False
) -> list[Field]:
    """The controls among `candidates` that take `value`: for a number, those showing its
    unit (or, unless `strict`, when none does, those showing none); for words, any."""
    said = quantity(value)
    if said is None:
        return candidates
    numeric = [f for f in candidates if f.element.kind in ("input", "combo")]
    if said[1] is None:
        return numeric
    shown = {id(f): _shown_units(screen, f, card) for f in numeric}
    matched = [f for f in numeric if said[1] in shown[id(f)]]
    return matched or ([] if strict else [f for f in numeric if not shown[id(f)]])


QUANTITY = re.compile(r"\s*(-?\d{1,3}(?:[ \u00a0\u202f]\d{3})+|-?\d+(?:[.,]\d+)?)\s*(\D{0,12}?)\s*")
SHOWN_QUANTITY = re.compile(r"-?\d+(?:[.,]\d+)?\s*(°\s?[CF]?|%|[^\W\d_]{1,10})")


def quantity(text: str) -> tuple[float, str | None] | None:
    """A number and what its unit measures ("18.5 degrees": 18.5, temperature; "40%"; "7":
    no unit); None when `text` is not one number with at most a unit."""
    m = QUANTITY.fullmatch(text or "")
    if m is None:
        return None
    group = lexicon().unit(m[2]) if m[2] else None
    if m[2] and group is None:
        return None
    return float(re.sub(r"[ \u00a0\u202f]", "", m[1]).replace(",", ".")), group  # "50 000"


def _shown_units(screen: Screen, field: Field, within: Box) -> set[str]:
    """What a control's numbers measure: a unit after the number it shows or at the end of its
    row ("19.0 °C", read as two words), or in its label's brackets ("Night temperature (°C)")."""
    box = field.element.box
    row = sorted((e for e in screen.elements if e.kind in LABEL_KINDS and within.contains(e.box, 2)
                  and e.box.center[0] > box.center[0]
                  and abs(e.box.center[1] - box.center[1]) <= max(box.h, 12)),
                 key=lambda e: e.box.x)  # fmt: skip
    shown = " ".join([field.element.text, *(e.text for e in row)])
    units = {lexicon().unit(u) for u in SHOWN_QUANTITY.findall(shown)}
    units |= {lexicon().unit(u) for u in re.findall(r"\(([^)]{1,12})\)", field.label)}
    return {u for u in units if u}


def _labelled(screen: Screen, wanted: str) -> list[Field]:
    """Controls whose label reads as `wanted`, or, when none does, as its last words ("the
    editor font size": Size, "the email address field": Email address)."""
    words = wanted.split()
    for start in range(len(words)):
        tail = " ".join(words[start:])
        needed = 70 if start == 0 else 90
        known = [f for f in fields(screen) if text_similarity(tail, f.label) >= needed]
        if known:
            return known
    return []


def _named(actor: OfflineActor, step: Step) -> bool:
    return bool(_labelled(actor.screen, _without_unit(step.target or "")))


def _without_unit(text: str) -> str:
    return re.sub(r"\s*\((?:[^)]*)\)$", "", text).strip()


def _role(actor: OfflineActor, element: Element) -> str:
    """The accessible role of the node drawn where `element` is ("slider", "spin button"), or
    "" when the platform gives no tree."""
    nodes = actor.state.accessibility_nodes() or []
    ox, oy = actor.screen.frame.origin

    def overlap(node: A11yNode) -> tuple[float, bool, int]:
        box = Box(node.box.x - ox, node.box.y - oy, node.box.w, node.box.h)
        return (round(box.iou(element.box), 2), node.interactive, node.depth)

    best = max(nodes, key=overlap, default=None)
    return best.role if best is not None and overlap(best)[0] > 0.8 else ""


# ---- combo boxes ---------------------------------------------------------------------------------


def choose(actor: OfflineActor, step: Step, element: Element, option: str) -> None:
    """Open the combo box, then click the option it shows, or type the option when the list
    shows none (typing picks it in an open list)."""
    if text_similarity(option, element.text) >= 90:
        actor.record_noop(step, f"{element.describe()} already shows '{option}'")
        return
    closed = actor.screen
    actor.click_element(step, element, f"opening {element.describe()}")
    listed = [
        c
        for c in rank(actor.screen, option, "list_item", new_since=closed, near=element.box)
        if c.element.id != element.id and text_similarity(option, c.element.text) >= 85
        and c.element.box.x < element.box.right and c.element.box.right > element.box.x
    ]  # in the list under the box, not a like text elsewhere (a calendar's hour "15:00")
    if listed:
        picked = actor.click_element(step, listed[0].element, f"'{option}' in the open list")
        if picked.status == "retry":  # a like text that is no option (a calendar's day)
            raise StepFailed(f"could not {step.clause!r}: choosing '{option}' changed nothing")
        return
    if step.where == "if listed":  # a guess that this list holds it: it does not
        actor.blind(step, Hotkey(keys=("escape",)), None, CHANGE, f"'{option}' is not listed")
        return
    shows = Expectation("text_in", option, element.box)
    if not _opened_under(closed, actor.screen, element.box):  # focused, its list not shown:
        actor.blind(step, Type(text=option), None, shows, f"typing '{option}' picks it")  # an
        return  # Enter would open the list over the form
    actor.blind(step, Type(text=option), None, CHANGE,
                f"'{option}' is not listed in view; typing it finds it")  # fmt: skip
    actor.blind(step, Hotkey(keys=("enter",)), None, shows, f"Enter picks '{option}'")  # a list
    # still searching as it is typed into would take an Enter sent with the text for nothing


def _opened_under(before: Screen, after: Screen, box: Box) -> bool:
    """Whether a list opened under `box` between the two screens: three or more new items
    stacked below it, starting in line with one another."""
    seen = {tuple(e.box) for e in before.elements}
    new = [e for e in after.elements if tuple(e.box) not in seen and e.box.y >= box.bottom - 2
           and e.box.x < box.right and e.box.right > box.x and e.text.strip()]  # fmt: skip
    return any(sum(abs(o.box.x - e.box.x) <= 8 for o in new) >= 3 for e in new)


# ---- sliders -------------------------------------------------------------------------------------


def _row_number(screen: Screen, box: Box) -> Element | None:
    """The number shown right of a slider `box` on its row: the nearest, in the card holding
    the slider when it is in one (the next card's sliders have numbers too)."""
    card = card_round(screen, box)
    row = [past for e in screen.elements if abs(e.box.center[1] - box.center[1]) <= max(box.h, 12)
           and e.box.right > box.right + 2 and (past := _past(e, box.right)) is not None
           and _number(past.text) is not None
           and (card is None or card.contains(e.box, slack=2))]  # fmt: skip
    return min(row, key=lambda e: e.box.x) if row else None


def _past(element: Element, x: int) -> Element | None:
    """The part of a text right of `x`: a slider's knob at the track's end and its number read
    as one word ("05" for the knob and 5) keep only the number's characters."""
    if element.box.center[0] >= x:
        return element
    text = element.text.strip()
    cut = round(len(text) * (x - element.box.x) / max(1, element.box.w))
    return replace(element, text=text[cut:]) if 0 < cut < len(text) else None


def _unseen_slider(screen: Screen, label: str) -> Box | None:
    """The track of a slider the parser drew no box for, by its label; or the screen's one
    slider, named by its kind alone ("select 5 with the slider")."""
    sliders = [f for f in unseen_sliders(screen) if text_similarity(label, f.label) >= 80]
    if sliders:
        return sliders[0].element.box
    if without_article(label).lower() not in SLIDER_NOUNS:
        return None
    tracks = _tracks(screen)
    return tracks[0] if len(tracks) == 1 else None


def _tracks(screen: Screen) -> list[Box]:
    """Every slider's track on the screen, in reading order: those the parser drew, then
    those it drew no box for."""
    drawn = sorted((e.box for e in screen.elements if "slider" in e.state),
                   key=lambda b: (b.y // 8, b.x))  # fmt: skip
    return drawn + [f.element.box for f in unseen_sliders(screen)]


def _sliders_for(screen: Screen, target: str, value: str) -> list[tuple[Box, str]]:
    """ "the sliders" and as many numbers as the screen has sliders: each slider, left to
    right (top to bottom), with its number."""
    noun = without_article(target).lower()
    if not noun.endswith("s") or noun[:-1] not in SLIDER_NOUNS:
        return []
    numbers = re.findall(r"-?\d+(?:\.\d+)?", value)
    tracks = _tracks(screen)
    return list(zip(tracks, numbers, strict=True)) if len(tracks) == len(numbers) > 1 else []


def move_slider(actor: OfflineActor, step: Step, box: Box, value: str) -> None:
    """As a person drags a slider while watching its number: click two points of its track
    and read the value each time, click where the value falls between them, then press the
    arrow keys for the rest, reading the value back after each press."""
    said = quantity(value)
    upright = box.h > box.w  # a vertical slider: the same along its height
    if not upright:
        box = slider_track(actor.screen.frame.pixels, box)  # only its filled part was boxed
    if said is None and (end := _named_end(actor.screen, box, value, upright)) is not None:
        _to_end(actor, step, box, end, upright)  # "all the way to round", "to the max"
        return
    if said is None:
        raise StepFailed(f"could not {step.clause!r}: '{value}' is not a number")
    wanted = said[0]

    def point(along: int) -> tuple[int, int]:
        if upright:
            return box.center[0], max(box.y, min(box.bottom - 1, along))
        return max(box.x, min(box.right - 1, along)), box.center[1]

    start, length = (box.y, box.h) if upright else (box.x, box.w)
    seen: list[tuple[int, float]] = []
    for share in (0.25, 0.75):
        at = start + round(length * share)
        current = _click_slider(actor, step, point(at), box)
        seen.append((at, current))
        if current == wanted:
            return
    (a1, v1), (a2, v2) = seen
    if v1 != v2:
        current = _click_slider(
            actor, step, point(round(a1 + (wanted - v1) * (a2 - a1) / (v2 - v1))), box
        )
    keys = ["up", "down"] if upright else ["right", "left"]  # what raises it first; some turn round
    for _ in range(MAX_MOVES):
        if abs(wanted - current) < 1e-9:
            return
        key = keys[0 if wanted > current else 1]
        before = current
        actor.blind(step, Hotkey(keys=(key,)), None, CHANGE, f"pressing {key} on the slider")
        current = _slider_value(actor.screen, box)
        if current is None or current == before:
            break
        if (current > before) != (key == keys[0]):
            keys.reverse()
    raise StepFailed(
        f"could not {step.clause!r}: the slider stopped at {current}, wanted {wanted:g}"
    )


def _named_end(screen: Screen, box: Box, value: str, upright: bool) -> bool | None:
    """Which end of a slider `value` names: True for its high end (right, top), False for
    its low one, by a word for an end ("max", "the left") or the label at that end ("Round"
    at the right of "Corner radius"); None when it names neither."""
    said = " ".join(words_of(value))
    ends = lexicon().slider_ends
    if said in ends["high"]:
        return True
    if said in ends["low"]:
        return False
    reach = max(box.h, box.w) // 5
    for e in screen.elements:
        if e.kind not in ("text", "link") or text_similarity(value, e.text) < 80:
            continue
        x, y = e.box.center
        if upright and box.x - 2 * reach <= x <= box.right + 2 * reach:
            if y <= box.y + reach or y >= box.bottom - reach:
                return y <= box.y + reach
        elif not upright and box.y - 3 * box.h - 20 <= y <= box.bottom + 3 * box.h + 20:
            if x <= box.x + reach or x >= box.right - reach:
                return x >= box.right - reach
    return None


def _to_end(actor: OfflineActor, step: Step, box: Box, high: bool, upright: bool) -> None:
    """The slider's knob to one end: a click at that end of its track, then Home or End."""
    if upright:
        point = (box.center[0], box.y + 1 if high else box.bottom - 2)
    else:
        point = (box.right - 2 if high else box.x + 1, box.center[1])
    actor.blind(step, Click(target=Target(point=point)), point, CHANGE, "the track's end")
    key = "end" if high else "home"
    actor.blind(step, Hotkey(keys=(key,)), None, CHANGE, f"pressing {key} on the slider")


def _click_slider(actor: OfflineActor, step: Step, point: tuple[int, int], box: Box) -> float:
    click = Click(target=Target(point=point))
    actor.blind(step, click, point, CHANGE, "clicking the slider's track")
    current = _slider_value(actor.screen, box)
    if current is None:
        raise StepFailed(f"could not {step.clause!r}: the slider shows no value to read")
    return current


def _slider_value(screen: Screen, box: Box) -> float | None:
    """The number a slider shows: its own text (the accessible value), a number drawn over
    it, or the number at the end of its row."""
    inside = [e for e in screen.elements if e.box.iou(box) > 0.5 and _number(e.text) is not None]
    if inside:
        return _number(inside[0].text)
    over = [
        e
        for e in screen.elements
        if _number(e.text) is not None
        and box.x <= e.box.center[0] <= box.right
        and 0 <= box.y - e.box.bottom < 30
    ]
    under = [e for e in screen.elements if _number(e.text) is not None and box.h < box.w
             and 0 <= e.box.y - box.bottom < max(20, 2 * box.h)
             and box.x - 10 <= e.box.x <= box.x + box.w // 4]  # fmt: skip  # "5" under its start
    end = over[0] if over else _row_number(screen, box) or (under[0] if under else None)
    return _number(end.text) if end is not None else None


def _number(text: str) -> float | None:
    """The number a text shows, less a knob or box OCR read before it as a glyph ("□6")."""
    text = (text or "").lstrip("□■○●◯◻◼▢|[](){}<>«»'\"`~^ ")
    m = SHOWN_NUMBER.fullmatch(text)
    return float(m[1].replace(",", ".")) if m else None


# ---- dates and times -----------------------------------------------------------------------------


def _formatted(value: str, element: Element) -> str:
    """`value` written the way the field writes dates (its placeholder "mm/dd/yyyy", a date it
    shows, else year-month-day) and times (12 hours with AM/PM when it shows "--:-- --")."""
    date = parse_date(value)
    shown = element.text.lower()
    if date is not None:
        if m := re.search(r"(dd|mm|yyyy)\s?([/.-])\s?(dd|mm|yyyy)\s?\2\s?(dd|mm|yyyy)", shown):
            parts = {"dd": f"{date.day:02d}", "mm": f"{date.month:02d}", "yyyy": str(date.year)}
            return m[2].join(parts[m[i]] for i in (1, 3, 4))
        if re.fullmatch(r"\d{1,2}/\d{1,2}/\d{4}", shown.strip()):
            return f"{date.month:02d}/{date.day:02d}/{date.year}"
        if re.fullmatch(r"\d{1,2}\.\d{1,2}\.\d{4}", shown.strip()):
            return f"{date.day:02d}.{date.month:02d}.{date.year}"
        if not shown.strip() and re.fullmatch(r"\d{1,4}([/.-])\d{1,2}\1\d{1,4}", value.strip()):
            return value.strip()  # an empty field with no format shown: as the user wrote it
        return date.isoformat()
    if time := time_of_day(value):
        hour, minute = time
        if re.search(r"--\s*:\s*--\s*--", shown) or re.search(r"\b[ap]m\b", shown):
            half = "PM" if hour >= 12 else "AM"
            return f"{(hour - 1) % 12 + 1:02d}{minute:02d}{half}"
        return f"{hour:02d}:{minute:02d}"
    return _digits_for_number_field(value, element)


_LISTED_TIME = re.compile(r"[0-2]?\d[:.][0-5]\d\W{0,2}")
"""A drop-down showing a 24-hour time and no AM/PM: a list of times, not a browser's time
field (which shows "02:30 PM")."""
_DASHES = re.compile(r"[\s\-–—一_:.,'!|l1]*")
"""What OCR makes of a browser's empty time field ("--:-- --"): nothing, or dashes and strokes."""


def _half_day_time(value: str, said: bool = True) -> str | None:
    """A time said with AM or PM (`said`; else any time) as "09:37PM", which a plain field
    takes as it is and a browser's time field part by part from its first part (a space
    there spoils it)."""
    time = time_of_day(value)
    if time is None or (said and not re.search(r"\b[ap]\.?m\b\.?", value, re.I)):
        return None
    hour, minute = time
    return f"{(hour - 1) % 12 + 1:02d}:{minute:02d}{'PM' if hour >= 12 else 'AM'}"


def _digits_for_number_field(value: str, element: Element) -> str:
    """ "500 ms", "20 degrees": a field that holds a bare number gets the number alone."""
    number = re.fullmatch(r"(-?\d+(?:[.,]\d+)?)\s+[A-Za-z°%]+", value.strip())
    if number and re.fullmatch(r"-?\d+(?:[.,]\d+)?", element.text.strip() or "0"):
        return number[1]
    return value


# ---- calendars -----------------------------------------------------------------------------------


def _calendar(screen: Screen) -> Element | None:
    """The shown month's name, when the screen holds a calendar (a month name and day numbers
    1 to 28 at least)."""
    days = {w for e in screen.elements for w in e.text.split() if w.isdigit()}
    if len({str(d) for d in range(1, 32)} & days) < 24:
        return None
    months = [e for e in screen.elements if e.text.split() and _shown_month(e.text.split()[0])]
    return months[0] if months else None


def _shown_month(word: str) -> int | None:
    """The month a calendar's heading names, one letter or two misread ("Februnry")."""
    if (number := month(word)) is not None:
        return number
    lex, word = lexicon(), word.lower()
    if len(word) < 5 or word[:3] not in lex.month_abbreviations:
        return None
    number = lex.month_abbreviations.index(word[:3]) + 1
    name = lex.months[number - 1]
    close = abs(len(word) - len(name)) <= 1 and text_similarity(word, name) >= 75
    return number if close else None


MONTH_KEYS = ((("ctrl", "right"), ("ctrl", "left")), (("pagedown",), ("pageup",)))
"""Keys that turn a calendar a month on and back: GTK's, then Qt's and the web's."""


def pick_date(actor: OfflineActor, step: Step, value: str) -> None:
    """On a calendar: turn it to the month with the arrows at the ends of its heading, else
    with its keys once a day of the month it shows is clicked (which gives it the keys),
    reading the month after each turn; then click the day."""
    date = parse_date(value)
    if date is None:
        raise StepFailed(f"could not {step.clause!r}: '{value}' is not a date")
    ways: list[tuple[tuple[str, ...], tuple[str, ...]] | None] = [None, *MONTH_KEYS]
    focused = False
    counted: int | None = None  # months still to turn, counted once an arrow turned one
    for _ in range(MAX_MONTHS):
        distance = counted if counted is not None else _months_away(actor.screen, date)
        if distance is None:
            raise StepFailed(f"could not {step.clause!r}: no calendar or date field on screen")
        if distance == 0 or not ways:
            break
        if ways[0] is None:  # the heading's arrows
            point = _month_arrow(actor.screen, distance > 0)
            if point is None:
                ways.pop(0)
                continue
            actor.blind(step, Click(target=Target(point=point)), point, CHANGE,
                        "the calendar's arrow to the month")  # fmt: skip
            after, turned = _months_away(actor.screen, date), distance - (1 if distance > 0 else -1)
            if counted is None and after is not None and after != turned:
                ways.pop(0)  # no arrow there that turns it a month (a year's, or nothing)
            elif counted is not None or after == turned:
                counted = turned  # a small heading misread now and then: the turns counted
            continue
        if not focused:
            focused = True
            if (day := _day(actor.screen, dt.date(2000, 1, 15))) is not None:
                actor.click_element(step, day, "the calendar, to turn its months")
        forward, back = ways[0]
        keys = forward if distance > 0 else back
        actor.blind(step, Hotkey(keys=keys), None, CHANGE, "turning the calendar a month")
        if _months_away(actor.screen, date) == distance:
            ways.pop(0)  # these keys do not turn this calendar
    day = _day(actor.screen, date)
    if day is None or (counted != 0 and _months_away(actor.screen, date) != 0):
        raise StepFailed(f"could not {step.clause!r}: the calendar does not show {date:%B %Y}")
    actor.click_element(step, day, f"day {date.day} of {calendar.month_name[date.month]}")


def _month_arrow(screen: Screen, forward: bool) -> tuple[int, int] | None:
    """Where a calendar's arrow to the next (or previous) month is: the small thing nearest
    its heading on that side, else that end of the row above its last (or first) day column, where
    such arrows are drawn (a picker's faint arrow may be seen by no parser)."""
    header = _calendar(screen)
    if header is None:
        return None
    middle, height = header.box.center[1], header.box.h
    days = [e.box for e in screen.elements if e.text.strip().isdigit()
            and 0 < e.box.y - header.box.bottom < 12 * height
            and abs(e.box.center[0] - header.box.center[0]) < 8 * height]  # fmt: skip
    if not days:
        return None
    left, right = min(b.x for b in days), max(b.right for b in days)

    def beyond(b: Box) -> bool:  # past the heading's end, on the side the arrow turns to
        return b.x >= header.box.right if forward else b.right <= header.box.x

    row = [e for e in screen.elements if e.id != header.id and beyond(e.box)
           and abs(e.box.center[1] - middle) <= height / 2
           and left - 2 * height <= e.box.center[0] <= right + 2 * height]  # fmt: skip
    words = [e.box for e in row if len(re.sub(r"\W", "", e.text)) > 1]  # a year beside it

    def its_own(b: Box) -> bool:  # not the arrow of the year beside the month ("‹ 2025 ›")
        return not any(0 <= (w.x - b.right if forward else b.x - w.right) <= 2 * height
                       for w in words)  # fmt: skip

    ends = [e.box for e in row if e.box.w <= 3 * height and its_own(e.box)
            and len(re.sub(r"\W", "", e.text)) <= 1]  # fmt: skip  # an arrow, not "Date:"
    if ends:  # the nearest to the month's name
        end = min(ends, key=lambda b: b.x) if forward else max(ends, key=lambda b: b.x)
        return end.center
    if words:
        return None  # arrows unseen beside a year's: the keys turn it, not a guess
    column = [b for b in days if (b.right >= right - 2 if forward else b.x <= left + 2)]
    return round(sum(b.center[0] for b in column) / len(column)), middle


def _months_away(screen: Screen, date: dt.date) -> int | None:
    """How many months from the month the calendar shows to `date`'s (None: no calendar)."""
    header = _calendar(screen)
    if header is None:
        return None
    shown = _shown_month(header.text.split()[0]) or date.month
    year = _shown_year(screen, header) or date.year
    return (date.year - year) * 12 + date.month - shown


def _shown_year(screen: Screen, header: Element) -> int | None:
    years = [int(m) for e in screen.elements if abs(e.box.center[1] - header.box.center[1]) < 12
             for m in re.findall(r"\b(?:19|20)\d\d\b", e.text)]  # fmt: skip
    return years[0] if years else None


def _day(screen: Screen, date: dt.date) -> Element | None:
    """The day's number in the month's grid (not a neighbouring month's grey days at the ends):
    a cell of its own when the screen has one, else a part of a row OCR read as one text
    ("14 15 16"), placed by its characters."""
    day = str(date.day)
    single, merged = [], []
    for e in screen.elements:
        words = e.text.split()
        if e.kind == "container" or day not in words or not all(w.isdigit() for w in words):
            continue
        if len(words) == 1:
            single.append(e)
            continue
        start = f" {e.text} ".index(f" {day} ")
        share = len(e.text)
        x = e.box.x + round(e.box.w * start / share)
        width = max(6, round(e.box.w * len(day) / share))
        merged.append(replace(e, box=Box(x, e.box.y, width, e.box.h), text=day))
    cells = sorted(single or merged, key=lambda e: (e.box.y, e.box.x))
    if not cells:
        return None
    return cells[0] if date.day < 15 or len(cells) == 1 else cells[-1]
