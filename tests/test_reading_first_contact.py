"""Readings met on first contact with new programs (dev set 4): words no grammar reads settled
on the screen, rows acted on through their menus, a row or a value found however the screen
writes it, idioms, remarks, and the confirmation a task implies."""

from __future__ import annotations

import datetime as dt

import numpy as np
import pytest

from clickwright.agent.dates import date_in, months_in, parse_date
from clickwright.agent.editing import inserted, line_deleted
from clickwright.agent.grounding import fields, row_label, row_menu, shows_words
from clickwright.agent.interpreter import interpret
from clickwright.agent.memory import Memory
from clickwright.agent.safety import _act_said
from clickwright.agent.settle import settle
from clickwright.errors import TaskError
from clickwright.types import Box, Frame, Screen
from tests.test_reading_screen import el, screen


def read(task: str, on: Screen) -> list[tuple]:
    out, memory = [], Memory()
    for step in interpret(task):
        for s in settle(step, on, memory).steps:
            out.append((s.verb, s.target, s.text, *([{"scope": s.scope}] if s.scope else [])))
    return out


ENTRY = screen(
    el(0, "text", "Playlist name:", (20, 20, 110, 20)),
    el(1, "input", "", (140, 16, 200, 28)),
    el(2, "button", "Cancel", (150, 60, 80, 30)),
    el(3, "button", "OK", (240, 60, 80, 30)),
)


def test_a_sentence_with_no_verb_the_lexicon_knows_is_read_on_the_screen():
    assert read("the playlist should be called Road trip 2025", ENTRY) == [
        ("set", "Playlist name:", "Road trip 2025")
    ]
    with pytest.raises(TaskError, match="none of its words name anything on the screen"):
        read("summon a flight to Lisbon", ENTRY)


ACCOUNT = screen(
    el(0, "text", "Username", (20, 20, 90, 20)),
    el(1, "input", "", (120, 16, 200, 28)),
    el(2, "text", "Password", (20, 60, 90, 20)),
    el(3, "input", "", (120, 56, 200, 28)),
    el(4, "text", "Repeat password", (20, 100, 90, 20)),
    el(5, "input", "", (120, 96, 200, 28)),
    el(6, "button", "OK", (240, 140, 80, 30)),
)


def test_a_field_is_named_as_people_say_it_and_a_repeat_field_takes_the_same_value():
    assert read("Create the account jdoe with password Blue-Fox-19", ACCOUNT) == [
        ("set", "Username", "jdoe"),
        ("set", "Password", "Blue-Fox-19"),
        ("set", "Repeat password", "Blue-Fox-19"),
        ("click", "OK", None),  # no Create button: the dialog's own yes
    ]


WIFI = screen(
    el(0, "text", 'Password for the wireless network "HomeNet-5G":', (20, 20, 330, 18)),
    el(1, "text", "Password:", (10, 60, 70, 14)),
    el(2, "input", "", (90, 55, 320, 25)),
    el(3, "button", "OK", (240, 95, 80, 25)),
)


def test_a_verb_with_no_such_button_fills_only_the_fields_its_words_name():
    assert read("Connect to HomeNet-5G, the password is correct-horse-7", WIFI) == [
        ("set", "Password:", "correct-horse-7")
    ]


PIZZA = screen(
    el(0, "list_item", "Small", (75, 32, 60, 20)),
    el(1, "list_item", "8 USD", (140, 32, 200, 20)),
    el(2, "list_item", "Medium", (75, 55, 60, 20)),
    el(3, "list_item", "11 USD", (140, 55, 200, 20)),
    el(4, "button", "OK", (240, 95, 80, 25)),
)


def test_a_row_is_the_one_that_shows_what_the_relative_says():
    assert read("get me the pizza that costs 11", PIZZA) == [("click", "11 USD", None)]


def dotted(*boxes: Box) -> np.ndarray:
    """A light frame with a "•••" drawn in each box."""
    pixels = np.full((600, 800, 3), 250, np.uint8)
    for b in boxes:
        middle = b.y + b.h // 2
        for k in range(3):
            x = b.x + b.w // 4 + k * b.w // 4
            pixels[middle - 2 : middle + 2, x - 2 : x + 2] = 20
    return pixels


def orders() -> Screen:
    menus = [Box(700, 100 + 40 * i, 36, 26) for i in range(3)]
    rows = [("#1083", "Grace O'Neill", "Paid"), ("#1082", "Kenji Watanabe", "Shipped"),
            ("#1081", "Lucia Romano", "Refunded")]  # fmt: skip
    elements = [el(0, "input", "Search by order number or customer", (20, 40, 260, 30))]
    for i, (number, name, status) in enumerate(rows):
        y = 104 + 40 * i
        elements += [
            el(10 * i + 1, "link", number, (20, y, 60, 18)),
            el(10 * i + 2, "text", name, (150, y, 120, 18)),
            el(10 * i + 3, "button", status, (500, y - 2, 80, 22)),
            el(10 * i + 4, "button", '"', tuple(menus[i])),
        ]
    elements.append(el(99, "button", "Next", (700, 240, 60, 30)))
    return Screen(Frame(dotted(*menus)), tuple(elements))


def test_delete_said_of_a_row_by_a_cell_is_that_rows_delete():
    """ "delete the customer that's based in Tromsø": no Delete button shows, so the row
    that shows Tromsø acts, through its menu if need be; no button called all of that."""
    on = orders()
    said = "Please delete the order that's from Kenji Watanabe"
    assert read(said, on) == [("click", "Delete", None, {"scope": "Kenji Watanabe"})]


def test_an_unknown_verb_on_a_row_is_that_rows_action_kept_in_its_menu():
    on = orders()
    assert row_menu(on, Box(150, 144, 120, 18)).box == Box(700, 140, 36, 26)
    assert read("refund order 1083", on) == [("click", "Refund", None, {"scope": "#1083"})]
    mark = read("Mark Lena Fischer's order as shipped", on)
    assert mark == [("click", "Mark as shipped", None, {"scope": "Lena Fischer"})]


def test_a_bare_yes_after_an_act_looks_for_the_button_that_names_the_act():
    steps = interpret("refund order 1083, yes I'm sure")
    assert (steps[1].verb, steps[1].text, steps[1].target) == ("intent", "affirm", "refund")
    dialog = screen(
        el(0, "button", "Don't refund", (100, 100, 120, 30)),
        el(1, "button", "Refund €58.20", (240, 100, 140, 30)),
    )
    assert settle(steps[1], dialog, Memory()).steps[0].target == "Refund €58.20"


def test_dates_and_months_are_found_however_the_screen_writes_them():
    assert parse_date("3 October").month == 10
    assert date_in("#1071 Oct 3, 2026 Pending") == dt.date(2026, 10, 3)
    assert date_in("Due 14 March") == dt.date(dt.date.today().year, 3, 14)
    assert months_in("invoice-2026-03.pdf") == {3}
    rows = screen(
        el(0, "text", "Oct 3, 2026", (20, 20, 100, 18)),
        el(1, "text", "invoice-2026-03.pdf", (20, 60, 140, 18)),
        el(2, "text", "invoice-2026-04.pdf", (20, 80, 140, 18)),
    )
    assert shows_words(rows, "3 October").id == 0
    assert shows_words(rows, "March").id == 1


def test_idioms_are_read_as_the_plain_words_they_mean():
    assert [(s.verb, s.text) for s in interpret("nah, leave the trash alone")] == [
        ("intent", "keep")
    ]
    assert interpret("what is 23 squared?")[0].text == "23 * 23 ="
    assert interpret("get rid of the DRAFT line")[0].verb == "delete"
    change = interpret("in the title change 2024 to 2025 (leave the second line as it is)")[0]
    assert (change.verb, change.old, change.text, change.nth) == ("change", "2024", "2025", 1)


def test_a_statement_after_a_step_is_a_remark_not_a_refusal():
    close, remark = interpret("close it without saving, I don't want those changes")
    assert (close.verb, close.text) == ("close", "discard")
    assert settle(remark, ENTRY, Memory()).steps == []
    assert _act_said("close it without saving", "Discard")
    assert not _act_said("close the window", "Discard")


def test_editor_lines_are_found_by_their_content_and_values_go_at_a_lines_end():
    agenda = "Mon: gym at 7\nTue: dentist at 14:00\nWed: team lunch\n"
    assert line_deleted("dentist appointment")(agenda) == "Mon: gym at 7\nWed: team lunch\n"
    assert line_deleted("lunch or gym")(agenda) is None  # two lines say as much: neither
    calls = "Call Kim back\nKim's number: 555-0199\n"
    assert inserted("555-0199", "line end", nth=1)(calls).startswith("Call Kim back 555-0199\n")
    step = interpret("put Kim's phone number at the end of the first line")[0]
    assert (step.verb, step.source, step.where, step.nth) == (
        "insert",
        "Kim's phone number",
        "line end",
        1,
    )


def test_a_settings_rows_switch_at_its_far_end_takes_the_rows_title_as_its_label():
    row = screen(
        el(0, "text", "Push notifications", (340, 220, 130, 17)),
        el(1, "text", "Alerts on your phone and in the browser", (340, 240, 230, 17)),
        el(2, "toggle", "", (1116, 227, 43, 25), state=frozenset({"checked"})),
        el(3, "text", "Email digest", (340, 472, 84, 15)),
        el(4, "combo", "Weekly", (1067, 473, 90, 32)),
    )
    assert row_label(row, Box(1116, 227, 43, 25)).text == "Push notifications"
    assert {(f.element.id, f.label) for f in fields(row)} >= {
        (2, "Push notifications"),
        (4, "Email digest"),
    }


def test_a_step_read_past_unknown_words_is_itself_read_on_the_screen():
    """ "quickly register jdoe …": the words after the unknown ones may be a form
    sentence, which the screen settles in turn (never handed to the actor as it is)."""
    from clickwright.agent.actor import OfflineActor

    class Recorder(OfflineActor):
        def __init__(self) -> None:
            self.done: list[str] = []
            self.reading = ""

        @property
        def screen(self) -> Screen:
            return ACCOUNT

        @property
        def state(self):  # noqa: ANN202 - the memory is all the reading needs
            return type("S", (), {"memory": Memory()})()

        def do(self, step) -> None:  # noqa: ANN001
            self.done.append(f"{step.verb} {step.target} {step.text}")

    actor = Recorder()
    actor.carry_out(interpret("quickly register jdoe with password Blue-Fox-19")[0])
    assert actor.done and all(not d.startswith(("form", "unread")) for d in actor.done)


def test_a_table_of_choices_is_read_by_row_and_column_and_stars_are_counted():
    from clickwright.agent.grounding import grid_cell

    survey = screen(
        *[el(i, "icon", "", (267 + 31 * i, 183, 27, 27), name="star") for i in range(5)],
        el(10, "text", "Poor", (687, 259, 34, 19)),
        el(11, "text", "Good", (827, 259, 39, 19)),
        el(12, "text", "Cleanliness of the room", (267, 295, 146, 17)),
        el(13, "radio", "", (699, 296, 13, 13)),
        el(14, "radio", "", (841, 296, 13, 13)),
        el(15, "text", "Friendliness of the staff", (267, 335, 144, 14)),
        el(16, "radio", "", (699, 335, 13, 13)),
        el(17, "radio", "", (841, 335, 13, 13)),
    )
    assert grid_cell(survey, "staff", "good")[2].id == 17
    assert grid_cell(survey, "staff", "great") is None
    read_ = [(s.verb, s.target, s.destination, s.nth) for s in settle(
        interpret("Rate the stay 4 stars: cleanliness poor and staff good")[0], survey, Memory()
    ).steps]  # fmt: skip
    assert read_ == [("grid", "stars", None, 4), ("grid", "cleanliness", "Poor", None),
                     ("grid", "staff", "Good", None)]  # fmt: skip


def test_words_that_only_say_when_or_why_are_not_part_of_the_target():
    def said(task: str) -> list[tuple]:
        return [(s.verb, s.target, s.where) for s in interpret(task)]

    assert said("Press submit when done.") == [("click", "submit", None)]
    assert said("click OK to save the file") == [("click", "OK", None)]
    assert said("click Add to cart") == [("click", "Add to cart", None)]  # a name, not a purpose
    assert said("Find Casie in the contact book") == [("find", "Casie", "list")]
    assert [(s.verb, s.target, s.text) for s in interpret("Select -99 with the slider")] == [
        ("set", "slider", "-99")
    ]


def test_the_task_shown_back_on_the_screen_is_no_target():
    from clickwright.agent.clauses import without_echo

    page = screen(
        el(0, "text", "Find Casie in the contact book and", (0, 56, 160, 14)),
        el(1, "text", "click on their address.", (1, 69, 99, 11)),
        el(2, "link", "Address:645 Stephenson Loop", (3, 178, 148, 14)),
        el(3, "text", "Lunch on Friday", (3, 200, 148, 14)),
    )
    task = "Find Casie in the contact book and click on their address. Open Lunch on Friday"
    kept = without_echo(page, task)
    assert [e.id for e in kept.elements] == [2, 3]  # a row the task names is kept
    assert read("click on their address", kept) == [("click", "address", None)]
    heading = screen(el(0, "text", "Quiet hours", (20, 20, 100, 20)))
    assert without_echo(heading, "quiet hours from 23:00 to 6:30") is heading  # a label, kept
    wrapped = screen(  # the lines an instruction wraps onto are the task too, not its items
        el(0, "text", 'Click the "Menu" button, and then', (2, 4, 150, 12)),
        el(1, "text", "find and click on the item labeled", (2, 17, 150, 12)),
        el(2, "text", '"Save".', (2, 30, 30, 12)),
        el(3, "text", "Save", (200, 80, 30, 12)),
        el(4, "text", '"Save".', (2, 120, 30, 12)),
    )
    task = 'Click the "Menu" button, and then find and click on the item labeled "Save".'
    assert [e.id for e in without_echo(wrapped, task).elements] == [3, 4]
    scoped = screen(el(0, "text", "For the user @leo, click on the", (2, 4, 150, 12)),
                    el(1, "text", '"Mute" button.', (2, 17, 70, 12)),
                    el(2, "text", "Leo Park @leo", (2, 60, 90, 12)))  # fmt: skip
    task = 'For the user @leo, click on the "Mute" button.'
    assert [e.id for e in without_echo(scoped, task).elements] == [2]


def test_a_form_verb_said_of_it_presses_the_button_it_starts():
    wizard = screen(
        el(0, "text", "Name", (20, 20, 60, 20)),
        el(1, "input", "Bluefin Labs", (100, 16, 200, 28)),
        el(2, "button", "Back", (20, 120, 80, 30)),
        el(3, "button", "Create workspace", (120, 120, 150, 30)),
    )
    assert read("create it", wizard) == [("click", "Create workspace", None)]


def test_a_verb_that_heads_a_column_of_switches_is_the_switch_on_the_rows_line():
    """ "block the living room TV" on a router's device table: no Block button, a column headed
    Block holds one switch per row (named after nothing of their own): the row's is ticked,
    known by its place among the switches."""
    devices = screen(
        el(0, "text", "Device", (20, 10, 60, 16)),
        el(1, "text", "Block", (400, 10, 50, 16)),
        *(
            e
            for i, name in enumerate(("Marco's iPhone", "Living room TV", "Kitchen speaker"))
            for e in (
                el(10 + 2 * i, "text", name, (20, 50 + 40 * i, 120, 16)),
                el(11 + 2 * i, "toggle", "", (404, 46 + 40 * i, 40, 24), name="● Online"),
            )
        ),
    )
    (step,) = settle(interpret("block the Living room TV")[0], devices, Memory()).steps
    assert (step.verb, step.kind, step.nth) == ("check", "toggle", 2)
