"""A week's view: blocks named by their day, colour, words or place after another, found in
real pixels (a drawn calendar), and what the offline planner makes of sentences about them."""

from __future__ import annotations

import cv2
import numpy as np

from clickwright.agent import timetable
from clickwright.agent.clauses import Step
from clickwright.agent.dates import times_in
from clickwright.agent.interpreter import interpret
from clickwright.agent.memory import Memory
from clickwright.agent.settle import settle, tag_close
from clickwright.types import Frame, Screen
from tests.test_reading_screen import el, read, screen

DAYS = ("MON 9", "TUE 10", "WED 11", "THU 12", "FRI 13")
EVENTS = [  # day, title, times, top, height, colour (RGB)
    (1, "Design review", "10:00 - 12:00", 265, 120, (244, 81, 30)),
    (1, "Lunch with Sara", "12:00 - 13:00", 389, 58, (11, 128, 67)),
    (1, "Roadmap sync", "13:30 - 14:30", 482, 58, (63, 81, 181)),
    (2, "Dentist", "16:00 - 17:00", 637, 58, (11, 128, 67)),
    (3, "Quarterly board prep", "14:30 - 16:00", 544, 89, (213, 0, 0)),
    (3, "Customer call", "11:00 - 12:00", 327, 58, (246, 191, 38)),
]


def _week() -> Screen:
    """A week's view drawn as a calendar draws it: day headers, white hour rows, events as
    filled blocks with a title and times in them."""
    pixels = np.full((800, 1280, 3), 255, np.uint8)
    elements = [el(i, "text", day, (290 + 142 * i + 40, 80, 60, 20)) for i, day in enumerate(DAYS)]
    for n, (day, title, times, top, height, colour) in enumerate(EVENTS):
        x = 294 + 142 * day
        cv2.rectangle(pixels, (x, top), (x + 130, top + height), colour[::-1], -1)
        elements.append(el(100 + 2 * n, "text", title, (x + 6, top + 2, 110, 17)))
        elements.append(el(101 + 2 * n, "text", times, (x + 6, top + 20, 80, 15)))
    elements.append(el(99, "text", "15:00", (250, 570, 40, 15)))  # an hour's label
    return Screen(Frame(pixels[:, :, ::-1].copy()), tuple(elements))


def _found(words: str) -> str | None:
    found = timetable.block(_week(), words)
    return found.text if found is not None else None


def test_a_block_is_found_by_its_day_its_colour_its_words_or_its_place_after_another():
    assert _found("the red event on thursday") == "Quarterly board prep"
    assert _found("the dentist on wednesday") == "Dentist"
    assert _found("the orange event from tuesday") == "Design review"
    assert _found("the meeting right after my lunch on tuesday") == "Roadmap sync"
    assert _found("the red event on monday") is None  # nothing red that day
    assert _found("the green one") is None  # two are green: no guess


def test_a_days_column_spans_its_header():
    columns = timetable.day_columns(_week())
    assert list(columns) == ["monday", "tuesday", "wednesday", "thursday", "friday"]
    left, right = columns["thursday"]
    assert left < 294 + 142 * 3 + 65 < right


def test_a_block_dragged_to_another_day_keeps_its_time():
    moved = timetable.moved(_week(), "drag the orange event from tuesday over to wednesday",
                            "orange event", "to wednesday, same time")  # fmt: skip
    assert moved is not None
    block, (x, y) = moved
    assert block.text == "Design review" and y == block.box.center[1]
    assert x - block.box.center[0] == 142


def test_sentences_about_blocks_open_them_first():
    week = _week()
    assert read("the red event on thursday should start at 15:00 not 14:30", week) == [
        ("click", "Quarterly board prep", None),
        ("set", "start", "15:00"),
    ]
    assert read("cancel the dentist on wednesday", week) == [
        ("click", "Dentist", None),
        ("label", None, "delete"),
    ]
    assert read("drag the dentist on wednesday to 17:00, keep it the same length", week)[1:] == []


def test_a_new_events_day_times_and_title_go_each_in_its_field():
    form = screen(
        el(1, "text", "|Add title", (221, 290, 105, 38)),  # its caret: it has the focus
        el(2, "text", "When", (218, 345, 60, 27)),
        el(3, "combo", "Wed 11 Jun", (324, 343, 168, 35), name="When"),
        el(4, "combo", "12:00", (500, 343, 109, 35)),
        el(5, "combo", "13:00", (637, 343, 109, 35)),
        el(6, "button", "Save", (975, 520, 81, 36)),
    )
    rest = "on friday 2pm to 2.30pm called Call with bank"  # what the opened form takes
    steps = settle(Step("form", rest, target=rest, text="", soft=True), form, Memory()).steps
    assert [(s.verb, s.target, s.text) for s in steps] == [
        ("type", "|Add title", "Call with bank"), ("set", "When", "Fri"), ("set", "start", "14:00"),
        ("set", "end", "14:30")]  # fmt: skip


def test_a_time_with_a_dot_before_pm_is_a_time_and_a_price_is_not():
    assert times_in("on friday 2pm to 2.30pm") == [(14, 0), (14, 30)]
    assert times_in("it costs 2.30 now") == []


def _event_dialog(*guests: str):
    chips = []
    for i, name in enumerate(guests):
        x = 500 + 110 * i
        chips += [el(10 + 2 * i, "link", name, (x, 439, 70, 15)),
                  el(11 + 2 * i, "button", "", (x + 62, 435, 24, 24), name="close")]  # fmt: skip
    return screen(
        el(1, "text", "Edit event", (409, 271, 62, 18)),
        el(2, "text", "Guests", (409, 439, 45, 15)),
        *chips,
        el(3, "button", "Delete", (412, 521, 69, 29)),
        el(4, "button", "Save", (806, 521, 62, 29)),
    )


def test_a_guest_is_taken_off_by_the_x_on_their_tag_never_by_the_events_delete():
    dialog = _event_dialog("Lena Ortiz", "Tom Becker", "Sara Lind")
    assert tag_close(dialog, "tom in the it")[1].id == 13
    steps = settle(interpret("take tom off it")[0], dialog, Memory()).steps
    assert [(s.verb, s.where) for s in steps] == [("delete", "tag")]
    without_tom = _event_dialog("Lena Ortiz", "Sara Lind")
    assert all(s[1] != "Delete" for s in read("take tom off it", without_tom))


def test_a_person_added_to_a_block_opens_it_and_goes_into_its_guests():
    memory = Memory()
    steps = read("add priya to the design review", _week(), memory)
    assert steps == [("click", "Design review", None), ("type", "add guests", "priya")]
    assert memory.made is not None and memory.made[2] == "Design review"


# ---- a month's view ----------------------------------------------------------------------------

HEADS = ("MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN")
ENTRIES = [  # date, words, dot colour (RGB), or a fill when the last is True
    (10, "15:00 Quart...", (51, 103, 214), False),
    (19, "09:00 Offsit...", (51, 103, 214), False),
    (19, "18:30 Paren..", (52, 168, 83), False),
    (24, "08:00 Car S...", (142, 68, 173), False),
    (25, "●15:30 Expe...", (51, 103, 214), False),
    (29, "Dad's birthday", (216, 67, 120), True),
]


def _month() -> Screen:
    """March 2026 as a month's view draws it: day names over seven columns, each date's number
    at its cell's top left (February's last days grey before it, today's on a red disc and not
    read), its entries under it, a coloured dot before their words or a fill behind them."""
    pixels = np.full((800, 1280, 3), 255, np.uint8)
    elements = [el(i, "text", d, (216 + 105 * i, 75, 30, 16)) for i, d in enumerate(HEADS)]
    dates = [23, 24, 25, 26, 27, 28, *range(1, 32), 1, 2, 3, 4, 5]
    cells = {}
    for n, number in enumerate(dates):
        x, y = 211 + 105 * (n % 7), 97 + 117 * (n // 7)
        label = f"{number} Mar" if number == 1 and n < 10 else str(number)
        if n > 10 and number == 1:
            label = "1 Apr"
        if (number, n < 37) == (10, True) and n > 6:
            cv2.circle(pixels, (x + 16, y + 14), 12, (53, 67, 234)[::-1], -1)  # today, unread
        else:
            elements.append(el(300 + n, "text", label, (x + 6, y + 5, 9 * len(label), 14)))
        if 6 <= n < 37:
            cells[number] = (x, y)
    for n, (number, words, colour, filled) in enumerate(ENTRIES):
        x, y = cells[number]
        top = y + 28 + 20 * sum(1 for d, *_ in ENTRIES[:n] if d == number)
        if filled:
            cv2.rectangle(pixels, (x + 4, top - 2), (x + 100, top + 16), colour[::-1], -1)
        else:
            cv2.circle(pixels, (x + 12, top + 7), 4, colour[::-1], -1)
        elements.append(el(500 + n, "radio", words, (x + 6, top, 90, 15)))
    return Screen(Frame(pixels[:, :, ::-1].copy()), tuple(elements))


def _entry(words: str) -> str | None:
    found = timetable.block(_month(), words)
    return found.text if found is not None else None


def test_a_months_entry_is_found_by_its_date_its_time_its_colour_or_its_words_cut_short():
    assert _entry("the green thing on the 19th") == "18:30 Paren.."
    assert _entry("the 3pm today") == "15:00 Quart..."  # today: the date on a colour
    assert _entry("the expense report thing on the 25th") == "●15:30 Expe..."
    assert _entry("the car service") == "08:00 Car S..."
    assert _entry("the pink one on the 29th") == "Dad's birthday"
    assert _entry("the meeting on the 20th") is None  # an empty date
    assert _entry("the green thing on the 24th") is None
    dates = timetable.month_days(_month(), timetable.day_columns(_month()))
    assert sorted(dates) == list(range(1, 32))  # not February's last days, nor April's first


def test_an_entry_is_pushed_later_by_a_span_said_in_words():
    steps = settle(interpret("push the green thing on the 19th half an hour later")[0], _month(),
                   Memory()).steps  # fmt: skip
    assert [(s.verb, s.target, s.text) for s in steps] == [
        ("click", "18:30 Paren..", None),
        ("set", "start", "19:00"),
    ]
    assert times_in("18:30") == [(18, 30)]


def test_an_entry_is_opened_and_made_what_the_rest_says():
    [made] = [s for s in interpret("make the expense report thing on the 25th an all day event")]
    steps = settle(made, _month(), Memory()).steps
    assert [(s.verb, s.target) for s in steps] == [
        ("click", "●15:30 Expe..."),
        ("check", "all day"),
    ]
    [opened, answer] = interpret("i won't make it to the 3pm today, say no")
    assert settle(opened, _month(), Memory()).steps[0].target == "15:00 Quart..."
    assert (answer.verb, answer.text) == ("intent", "decline")


def test_spans_of_time_said_in_words_and_an_invitations_no_among_coloured_dots():
    from clickwright.agent.dates import minutes_in
    from clickwright.agent.lexicon import lexicon
    from clickwright.agent.settle import intent_button

    assert minutes_in("half an hour") == (30, 0)
    assert minutes_in("the 19th an hour and a half") == (90, 9)
    assert minutes_in("15 minutes")[0] == 15 and minutes_in("2 hours")[0] == 120
    assert minutes_in("the green thing on the 19th") is None
    dialog = screen(el(1, "icon", "", (39, 329, 10, 10), name="blue dot"),
                    el(2, "button", "Yes", (1025, 631, 47, 25)),
                    el(3, "menu", "No", (1086, 635, 25, 17)),  # a pill read as a menu
                    el(4, "button", "Maybe", (1127, 631, 64, 25)))  # fmt: skip
    assert intent_button(dialog, lexicon().intents["decline"]).text == "No"  # "dot" is no "dont"


def test_an_entry_moved_to_another_date_is_opened_and_its_date_written_out():
    page = Screen(
        _month().frame, (*_month().elements, el(900, "text", "March 2026", (385, 35, 100, 20)))
    )
    entry, date = timetable.redated(page, "dad's birthday", "friday, same time")
    assert (entry.text, date) == ("Dad's birthday", "13 March 2026")  # this week's friday
    entry, date = timetable.redated(
        page, "the car service", "the day of the green thing on the 19th"
    )
    assert (entry.text, date) == ("08:00 Car S...", "19 March 2026")
    assert timetable.redated(_month(), "the car service", "friday") is None  # no month's title
