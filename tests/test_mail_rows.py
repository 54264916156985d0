"""A mail client's rows named by what they show ("the 3pm planning thing on thursday", "the
email from mum about sunday lunch"), a reply's body below its header lines, and a send said
after the run pressed Send."""

from __future__ import annotations

from clickwright.agent.actor import _body_below, _body_box
from clickwright.agent.interpreter import interpret
from clickwright.agent.memory import Memory
from clickwright.agent.settle import settle
from tests.test_reading_screen import el, screen


def _inbox(*more):
    return screen(
        el(1, "list_item", "", (216, 164, 499, 47)),
        el(2, "text", "Marta Lind", (280, 170, 70, 16)),
        el(
            3,
            "text",
            "Invitation: Q3 planning @ Thu 12 Jun 15:00 – 16:00 – Marta Lind ha..",
            (280, 188, 420, 17),
        ),  # fmt: skip
        el(4, "list_item", "", (216, 211, 499, 47)),
        el(5, "text", "Mum", (280, 217, 30, 16)),
        el(
            6,
            "text",
            "Sunday lunch? – Hi love, are you free for lunch on Sunday?",
            (280, 235, 420, 17),
        ),
        el(7, "list_item", "", (216, 446, 499, 47)),
        el(8, "text", "Jonas Berg", (280, 452, 70, 16)),
        el(9, "text", "Invitation: design crit @ Fri 13 Jun 10:00 – 11:00", (280, 470, 300, 17)),
        *more,
    )


def _clicked(task: str, page=None) -> tuple[str | None, str | None]:
    step = settle(interpret(task)[0], page or _inbox(), Memory()).steps[0]
    return step.target, step.where


def test_a_row_is_found_by_the_time_day_sender_and_subject_it_shows():
    target, where = _clicked("i won't make it to the 3pm planning thing on thursday, say no")
    assert target.startswith("Invitation: Q3 planning") and where == "open"  # opened, not ticked
    assert _clicked("open the email from mum about sunday lunch")[0].startswith("Sunday lunch?")
    assert _clicked("open the 11am thing on friday")[0] == "11am thing on friday"  # 10 to 11


def test_a_replys_body_is_below_its_to_line_and_its_unlabelled_subject():
    compose = screen(el(1, "input", "Reply", (736, 330, 520, 39), name="10 Jun"),  # its title
                     el(2, "text", "To", (749, 378, 17, 15)),
                     el(3, "text", "Mum", (780, 377, 26, 18)),
                     el(4, "text", "Cc", (1217, 377, 22, 18)),
                     el(5, "text", "Re: Sunday lunch?", (749, 414, 115, 17)))  # fmt: skip
    assert _body_box(compose) is None
    point, band = _body_below(compose)
    assert band.y > 431 and 740 < point[0] < 800


def test_send_said_after_the_run_pressed_send_does_nothing_more():
    memory = Memory(acted=("Send", frozenset()))
    page = screen(
        el(1, "icon", "", (413, 85, 20, 20), name="send"),
        el(2, "button", "Compose", (8, 81, 138, 51)),
    )
    assert settle(interpret("send it")[0], page, memory).steps == []
    shown = screen(el(1, "button", "Send", (750, 757, 80, 33)))
    assert settle(interpret("send it")[0], shown, memory).steps[0].target == "Send"


def test_everything_in_the_trash_deleted_for_good_is_the_trashs_empty_button():
    for task in ("permanently delete everything in the trash", "empty the trash"):
        [step] = interpret(task)
        assert (step.verb, step.target) == ("click", "empty trash")
    [step] = interpret("delete the email in the trash from Bob")  # one message: not emptied
    assert step.target != "empty trash"


def test_an_answer_no_button_gives_is_a_key_that_must_change_something():
    [accept] = interpret("accept the invites i haven't answered yet")
    [press] = settle(
        accept, screen(el(1, "text", "March 2026", (385, 35, 100, 20))), Memory()
    ).steps
    assert (press.verb, press.keys, press.where) == ("press", ("enter",), "answer")


def test_a_rows_verb_with_no_button_for_it_fails_instead_of_clicking_the_thing():
    import pytest

    from clickwright.errors import StepFailed

    page = _inbox(el(10, "button", "Newsletters", (601, 312, 67, 14)))  # a label's chip
    with pytest.raises(StepFailed, match="no 'archive' button"):
        settle(interpret("archive all the newsletters")[0], page, Memory())
