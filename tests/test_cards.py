"""Controls named by the card they are in and the unit of their value, "every …" with
exceptions, and how far a page moved between two screens: on screens built by hand (the
real pages are in test_perception_controls and the task corpus)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from clickwright.agent.actor import OfflineActor
from clickwright.agent.clauses import Step
from clickwright.agent.grounding import card_box, moved_band, scrolled_by
from clickwright.agent.lexicon import lexicon
from clickwright.agent.setting import _in_card, quantity
from clickwright.types import Box, Element, Frame, Screen


def el(i: int, kind: str, text: str, box: tuple[int, int, int, int], **kw) -> Element:
    interactive = kind not in ("text", "container")
    return Element(i, Box(*box), kind, text, interactive=interactive, **kw)


def room(first: int, x: int, name: str, degrees: str, percent: str) -> list[Element]:
    """A card: its heading, a heating slider showing °C, a Lights switch, a Brightness slider
    showing %; the number and its unit read as two words, as OCR reads them."""
    return [
        el(first, "container", "", (x, 100, 260, 140)),
        el(first + 1, "text", name, (x + 14, 112, 90, 20)),
        el(first + 2, "text", "Heat to", (x + 14, 146, 52, 15)),
        el(first + 3, "input", "", (x + 105, 145, 64, 17), state=frozenset({"slider"})),
        el(first + 4, "text", degrees, (x + 185, 145, 40, 16)),
        el(first + 5, "text", "°C", (x + 228, 145, 20, 16)),
        el(first + 6, "text", "Lights", (x + 14, 178, 45, 18)),
        el(first + 7, "toggle", "", (x + 102, 174, 44, 27), state=frozenset({"checked"})),
        el(first + 8, "text", "Brightness", (x + 14, 212, 73, 15)),
        el(first + 9, "input", "", (x + 105, 211, 64, 17), state=frozenset({"slider"})),
        el(first + 10, "text", percent, (x + 190, 210, 45, 19)),
    ]


HOUSE = Screen(
    Frame(np.zeros((400, 900, 3), np.uint8)),
    tuple(
        room(0, 20, "Living room", "22.0", "80 %")
        + room(20, 300, "Bedroom", "19.0", "35 %")
        + room(40, 580, "Kitchen", "20.0", "100 %")
    ),  # fmt: skip
)


def read_on(clause: str, *elements: Element) -> list[Step]:
    """The steps an unread clause settles into on a screen of `elements`."""
    from clickwright.agent.memory import Memory
    from clickwright.agent.settle import settle

    screen = Screen(HOUSE.frame, elements)
    return settle(Step("unread", clause, target=clause), screen, Memory()).steps


@pytest.mark.parametrize(
    ("words", "value", "chosen"),
    [("bedroom", "18.5 degrees", 23), ("kitchen lights", "40%", 49),
     ("the living room", "21 °C", 3), ("kitchen", "30 percent", 49)],
)  # fmt: skip
def test_a_control_is_named_by_its_card_and_the_unit_of_its_value(
    words: str, value: str, chosen: int
) -> None:
    field = _in_card(HOUSE, words, value, None)
    assert field is not None and field.element.id == chosen


def test_a_card_that_holds_two_controls_for_a_bare_number_is_not_guessed() -> None:
    assert _in_card(HOUSE, "bedroom", "18", None) is None  # heat or brightness: not said
    assert _in_card(HOUSE, "garage", "18 degrees", None) is None  # no such card
    assert card_box(HOUSE, "Kitchen") == Box(580, 100, 260, 140)


def test_quantities_and_units_are_read_with_the_lexicon() -> None:
    assert quantity("18.5 degrees") == (18.5, "temperature")
    assert quantity("40%") == (40.0, "percent") and quantity("7") == (7.0, None)
    assert quantity("12 apples") is None and quantity("soon") is None
    assert lexicon().unit("°C") == lexicon().unit("celsius") == "temperature"


class _Still(OfflineActor):
    """An actor that only reads a screen (no device, nothing done)."""

    def __init__(self, screen: Screen) -> None:
        self._screen = screen

    @property
    def screen(self) -> Screen:
        return self._screen


@pytest.mark.parametrize(
    ("target", "left_out"),
    [("light in the house except the living room", [7]), ("lights but not the kitchen", [47]),
     ("light except for Bedroom and Kitchen", [27, 47])],
)  # fmt: skip
def test_every_named_toggle_is_chosen_less_those_after_except(
    target: str, left_out: list[int]
) -> None:
    chosen, left = _Still(HOUSE)._every_toggle(Step("uncheck", target, target, every=True), "")
    assert [e.id for e in left] == left_out
    assert sorted(e.id for e in chosen) == sorted({7, 27, 47} - set(left_out))


def test_how_far_a_page_moved_is_read_from_the_texts_on_both_screens() -> None:
    before = HOUSE
    shifted = [
        Element(e.id, e.box._replace(y=e.box.y - 90 + 2 * (i % 3 == 0)), e.kind, e.text)
        for i, e in enumerate(before.elements)
    ]
    title = el(99, "text", "Hearth - Fjordvik house", (300, 2, 160, 15))  # it does not move
    after = Screen(before.frame, (*shifted, title))
    assert scrolled_by(Screen(before.frame, (*before.elements, title)), after) in range(88, 93)
    assert scrolled_by(before, before) is None  # nothing moved


@pytest.mark.parametrize(
    ("task", "where", "text"),
    [("turn the heat up by 2", "up", "2"), ("lower the volume by 10%", "down", "10%"),
     ("turn the bedroom down by 1.5 degrees", "down", "1.5 degrees"),
     ("increase the Width by 5 from what it is now", "up", "5"),
     ("set the timeout to 45", None, "45")],
)  # fmt: skip
def test_a_change_by_an_amount_is_read_with_its_direction(
    task: str, where: str | None, text: str
) -> None:
    from clickwright.agent.interpreter import interpret

    (step,) = interpret(task)
    assert (step.verb, step.where, step.text) == ("set", where, text)


@pytest.mark.parametrize(
    ("words", "where", "amount", "moved"),
    [("bedroom", "up", "1.5 degrees", "20.5"), ("kitchen", "down", "25%", "75"),
     ("living room", "down", "0.5 °C", "21.5")],
)  # fmt: skip
def test_an_amount_is_added_to_what_the_control_shows(
    words: str, where: str, amount: str, moved: str
) -> None:
    from clickwright.agent.setting import _moved_by

    field = _in_card(HOUSE, words, amount, None)
    assert field is not None
    assert _moved_by(HOUSE, field, Step("set", words, words, text=amount, where=where)) == moved


def test_a_range_said_with_a_value_after_it_fills_that_value_by_its_unit() -> None:
    """ "… from 22:30 until 6:15 at 16.5 degrees": From and Until take the times, and the one
    other field of their card whose label shows °C takes the temperature."""
    steps = read_on(
        "Night setback should run from 22:30 until 6:15 at 16.5 degrees",
        el(1, "container", "", (20, 260, 530, 130)),
        el(2, "text", "Lower the heating at night", (34, 270, 190, 15)),
        el(3, "combo", "10:00 PM", (34, 320, 118, 35), name="From"),
        el(4, "combo", "06:30 AM", (166, 320, 117, 35), name="Until"),
        el(5, "input", "17", (298, 320, 90, 33), name="Night temperature (°C)"),
        el(6, "button", "Save changes", (700, 360, 150, 36)),
    )
    assert [(s.target, s.text) for s in steps] == [
        ("From", "22:30"), ("Until", "6:15"), ("Night temperature (°C)", "16.5 degrees")
    ]  # fmt: skip


def test_a_sentence_with_no_verb_fills_a_time_a_unit_label_and_a_negation_cut_by_a_linker() -> None:
    """ "Wake me at 06:45, snooze 5 minutes, and not on weekends" on an alarm dialog: the one
    field showing a time takes 06:45, "Snooze (minutes)" takes 5 (its bracketed unit is no
    part of the value), and "not" cut from "on weekends" by its linker still unticks."""
    steps = read_on(
        "Wake me at 06:45, snooze 5 minutes, and not on weekends",
        el(1, "text", "Wake-up time", (10, 40, 90, 15)),
        el(2, "input", "07:00", (120, 32, 250, 30)),
        el(3, "text", "Snooze (minutes)", (10, 80, 110, 15)),
        el(4, "input", "10", (120, 72, 180, 30)),
        el(5, "checkbox", "Also on weekends", (10, 115, 140, 20), state=frozenset({"checked"})),
        el(6, "button", "OK", (300, 160, 80, 30)),
    )
    assert [(s.verb, s.target, s.text) for s in steps] == [
        ("set", "Wake-up time", "06:45"), ("set", "Snooze (minutes)", "5"),
        ("uncheck", "Also on weekends", None),
    ]  # fmt: skip


@pytest.mark.parametrize("kind", ["list_item", "checkbox"])
def test_only_the_rows_that_show_a_word_are_picked(kind: str) -> None:
    """ "Upload only the pictures from Rome to the album": each row showing Rome, with Ctrl
    after the first in a list; in a check list, the others' ticks are cleared."""
    from clickwright.agent.settle import _rows_showing

    places = ("Rome, the Colosseum", "Oslo, the Opera", "Rome, Trevi fountain", "Bergen")
    rows = Screen(HOUSE.frame, tuple(
        el(i, kind, f"IMG_22{i}.jpg - {p}", (100, 100 + 20 * i, 300, 18),
           state=frozenset({"checked"}) if i == 1 else frozenset())
        for i, p in enumerate(places)
    ))  # fmt: skip
    settled = _rows_showing("Upload only the pictures from Rome to the album", rows)
    assert settled is not None
    said = [(s.verb, s.target, s.keys) for s in settled.steps]
    if kind == "list_item":
        assert said == [("click", "IMG_220.jpg - Rome, the Colosseum", ()),
                        ("click", "IMG_222.jpg - Rome, Trevi fountain", ("ctrl",))]  # fmt: skip
    else:
        assert said == [("check", "IMG_220.jpg - Rome, the Colosseum", ()),
                        ("check", "IMG_222.jpg - Rome, Trevi fountain", ()),
                        ("uncheck", "IMG_221.jpg - Oslo, the Opera", ())]  # fmt: skip
    assert _rows_showing("Upload the pictures from Paris", rows) is None


def test_a_remark_before_a_colon_is_the_place_of_the_clause_that_says_its() -> None:
    """ "the kids' room is chilly: turn its thermostat up by 1.5 degrees": the thermostat is
    the kids' room's; a remark that no clause refers back to is still only a remark."""
    from clickwright.agent.clauses import clauses
    from clickwright.agent.interpreter import interpret

    task = "the kids' room is chilly: turn its thermostat up by 1.5 degrees, then save"
    assert clauses(task)[0] == "in the kids' room, turn the thermostat up by 1.5 degrees"
    step = interpret(task)[0]
    assert (step.target, step.scope, step.where) == ("thermostat", "kids' room", "up")
    assert _in_card(HOUSE, "thermostat", "1.5 degrees", "the Kitchen") is not None
    assert clauses("the meeting moved: replace 10am with 11am") == ["replace 10am with 11am"]


def test_a_value_no_label_names_is_looked_for_in_the_one_drop_down_not_set() -> None:
    """ "with the radio" beside a Sound drop-down showing "Classic bell": the drop-down is
    opened to look for Radio, and closed again if it does not list it ("if listed")."""
    steps = read_on(
        "Wake me at 06:45 with the radio",
        el(1, "text", "Wake-up time", (10, 40, 90, 15)),
        el(2, "input", "07:00", (120, 32, 250, 30)),
        el(3, "text", "Sound", (10, 80, 60, 15)),
        el(4, "combo", "Classic bell", (120, 72, 250, 30)),
        el(5, "button", "OK", (300, 160, 80, 30)),
    )
    assert [(s.target, s.text, s.where) for s in steps] == [
        ("Wake-up time", "06:45", None), ("Sound", "radio", "if listed")
    ]  # fmt: skip


FLIGHTS = Screen(HOUSE.frame, tuple(
    [el(1, "text", h, (x, 60, 60, 15)) for h, x in
     (("Flight", 20), ("Departs", 120), ("Arrives", 220), ("Price", 320))]
    + [el(10 + 4 * i + j, "text", cell, (20 + 100 * j, 90 + 24 * i, 60, 16))
       for i, row in enumerate((("LH863", "07:10", "09:05", "2 140 kr"),
                                ("SK2673", "09:45", "11:40", "1 890 kr"),
                                ("DY1102", "13:20", "15:10", "1 460 kr"),
                                ("SK2679", "06:30", "08:25", "2 390 kr")))
       for j, cell in enumerate(row)]
))  # fmt: skip


@pytest.mark.parametrize(
    ("words", "row"),
    [("the cheapest flight that lands before 12", "SK2673"), ("the cheapest flight", "DY1102"),
     ("the flight that departs after 13:00", "DY1102"), ("the one that arrives before 9", "SK2679"),
     ("the most expensive flight that leaves after 7", "LH863"),
     ("a flight under 1 500 kr", "DY1102"), ("the flight that lands before noon", None)],
)  # fmt: skip
def test_a_row_is_chosen_by_a_condition_on_a_column_and_its_extreme(
    words: str, row: str | None
) -> None:
    """The column a verb reads ("lands": Arrives), a time or amount compared ("before 12",
    "under 1 500 kr", thousands spaced), then the least or greatest amount of those left; a
    condition that leaves several rows and no superlative names none of them."""
    from clickwright.agent.settle import row_by_extreme

    assert row_by_extreme(FLIGHTS, words) == row


@pytest.mark.parametrize(
    ("words", "chosen"),
    [("me the thursday afternoon slot", "Thursday 16:00 - with Marco"),
     ("the monday morning one", "Monday 10:00 - with Lena"), ("the morning window", None),
     ("the evening", None)],
)  # fmt: skip
def test_a_choice_is_found_by_a_part_of_the_day(words: str, chosen: str | None) -> None:
    """ "the thursday afternoon slot": the one row showing Thursday and a time from 12 to 18
    ("slot" is shown only in the question above the list, so it is no condition)."""
    from clickwright.agent.settle import _at_part_of_day

    slots = Screen(HOUSE.frame, (
        el(1, "text", "Pick a time slot for the test drive:", (10, 10, 300, 15)),
        *(el(2 + i, "list_item", t, (10, 40 + 20 * i, 250, 16)) for i, t in enumerate((
            "Monday 10:00 - with Lena", "Thursday 09:00 - with Lena",
            "Thursday 16:00 - with Marco", "Saturday 11:00 - with Lena")))
    ))  # fmt: skip
    found = _at_part_of_day(slots, words)
    assert (found.text if found else None) == chosen


def test_a_condition_in_a_sentence_denies_nothing() -> None:
    """ "if I'm not home, they can leave it at the door": the box Leave the parcel at my door
    is ticked; the "not" belongs to the condition."""
    steps = read_on(
        "if I'm not home they can just leave it outside the door",
        el(1, "checkbox", "Gift wrap (+49 kr)", (10, 40, 160, 20)),
        el(2, "checkbox", "Leave the parcel at my door if I'm not home", (10, 66, 300, 20)),
        el(3, "button", "Place order", (400, 160, 120, 36)),
    )
    assert [(s.verb, s.target) for s in steps] == [
        ("check", "Leave the parcel at my door if I'm not home")
    ]


def test_the_one_slider_is_the_slider_and_its_number_is_read_past_its_knob():
    from clickwright.agent.setting import _number, _unseen_slider

    track = el(0, "input", "", (5, 66, 88, 11), state=frozenset({"slider"}))
    shown = Screen(HOUSE.frame, (track, el(1, "text", "□6", (61, 60, 46, 20))))
    assert _unseen_slider(shown, "the slider") == track.box
    assert _unseen_slider(shown, "the volume") is None
    two = Screen(HOUSE.frame, (track, el(2, "input", "", (5, 96, 88, 11),
                                          state=frozenset({"slider"}))))  # fmt: skip
    assert _unseen_slider(two, "slider") is None  # which one is not said
    assert _number("□6") == 6 and _number("-9") == -9 and _number("Submit") is None


def test_a_date_is_typed_in_the_order_the_field_shows_however_ocr_spaced_it():
    from clickwright.agent.setting import _formatted

    for shown in ("mm/dd/yyyy", "mm/ dd/yyyy o", "dd.mm.yyyy"):
        field = el(0, "input", shown, (7, 62, 125, 24))
        typed = _formatted("05/20/2010", field)
        assert typed == ("20.05.2010" if shown.startswith("dd") else "05/20/2010"), shown


@pytest.mark.parametrize(
    ("said", "time", "bare"),
    [("9:05", (9, 5), (9, 5)), ("8pm", (20, 0), (20, 0)), ("7:30 PM", (19, 30), (19, 30)),
     ("8 p.m.", (20, 0), (20, 0)), ("noon", (12, 0), (12, 0)), ("12", None, (12, 0)),
     ("25:00", None, None), ("10:61", None, None), ("Room 4", None, None)],
)  # fmt: skip
def test_one_reader_of_times_of_day(said, time, bare):
    from clickwright.agent.dates import time_of_day, times_in

    assert time_of_day(said) == time and time_of_day(said, bare=True) == bare
    assert times_in("Thursday 16:00, room 4") == [(16, 0)]
    assert times_in("08-12", bare=True) == [(8, 0), (12, 0)] and times_in("08-12") == []


def test_a_sliders_number_read_with_its_knob_keeps_the_part_past_the_track():
    from clickwright.agent.setting import _slider_value

    track = el(0, "input", "", (6, 67, 87, 9), state=frozenset({"slider"}))
    shown = Screen(HOUSE.frame, (track, el(1, "text", "05", (52, 57, 61, 28))))
    assert _slider_value(shown, track.box) == 5
    upright = el(0, "input", "", (10, 62, 11, 108), state=frozenset({"slider"}))
    below = Screen(HOUSE.frame, (upright, el(1, "text", "-96", (24, 159, 20, 15))))
    assert _slider_value(below, upright.box) == -96


def test_the_sliders_get_the_numbers_in_reading_order():
    from clickwright.agent.setting import _sliders_for

    tracks = [el(i, "input", "", (7, 60 + 21 * i, 142, 11), state=frozenset({"slider"}))
              for i in range(3)]  # fmt: skip
    shown = Screen(HOUSE.frame, tuple(tracks))
    assert [n for _, n in _sliders_for(shown, "the sliders", "[11,19,5]")] == ["11", "19", "5"]
    assert _sliders_for(shown, "the sliders", "[11,19]") == []  # not one number each
    assert _sliders_for(shown, "the slider", "[11,19,5]") == []


def _feed(top: int, hover: int | None = None) -> np.ndarray:
    """A 160-pixel pane of posts drawn with cv2, scrolled `top` pixels down, beside a clock
    that ticks; each post repeats its author's name (what fools words) above a text of its
    own, and the post under the pointer (`hover`, a y in the pane) is tinted."""
    page = np.full((1200, 150, 3), 255, np.uint8)
    for n in range(24):
        y = 10 + n * 50
        cv2.putText(page, "Lane @kasie", (6, y + 12), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 1)
        cv2.putText(page, f"post {n * 37 % 101} says {'xo' * (n % 5 + 1)}", (6, y + 32),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.4, (40, 40, 40), 1)  # fmt: skip
        cv2.line(page, (0, y + 44), (150, y + 44), (220, 220, 220), 1)
    pane = page[top : top + 160].copy()
    if hover is not None:
        post = (hover + top - 10) // 50 * 50 + 10 - top
        band = pane[max(post, 0) : max(post + 44, 0)]
        band[band.sum(axis=2) == 765] = (245, 248, 250)
    frame = np.full((240, 320, 3), 230, np.uint8)
    frame[40:200, 0:150] = pane
    frame[40 + top * 160 // 1200 : 60 + top * 160 // 1200, 152:158] = 120  # the scroll bar
    cv2.putText(frame, f"Time left: {20 - top // 50}s", (180, 80), cv2.FONT_HERSHEY_SIMPLEX,
                0.4, (0, 0, 0), 1)  # fmt: skip
    return frame


def test_how_far_a_pane_moved_is_read_from_its_pixels_when_words_repeat() -> None:
    moved = moved_band(_feed(0), _feed(90, hover=140))
    assert moved is not None and moved[0] == 90 and 150 <= moved[1] <= 160
    assert moved_band(_feed(90), _feed(0))[0] == -90  # back up
    assert moved_band(_feed(0), _feed(0, hover=50)) is None  # only a tint: nothing moved
    assert moved_band(_feed(0), _feed(400)) is None  # too far to overlap: words must tell
