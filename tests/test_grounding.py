"""Offline grounding and the critic on hand-made screens."""

from __future__ import annotations

import numpy as np

from clickwright.agent.critic import Expectation, changed_regions, judge
from clickwright.agent.grounding import (
    MIN_SCORE,
    fields,
    normalize,
    of_kind,
    rank,
    text_similarity,
    unseen_sliders,
)
from clickwright.types import Box, Element, Frame, Screen


def screen(*elements: Element, pixels: np.ndarray | None = None) -> Screen:
    pixels = np.full((400, 600, 3), 240, np.uint8) if pixels is None else pixels
    return Screen(Frame(pixels), tuple(elements))


def el(i: int, kind: str, text: str, box: tuple[int, int, int, int], **kw) -> Element:
    interactive = kind not in ("text", "container", "image")
    return Element(i, Box(*box), kind, text, interactive=interactive, **kw)


def test_similarity_forgives_case_accents_and_punctuation():
    assert normalize("  Save As… ") == "save as"
    assert text_similarity("save as", "Save As...") == 100
    assert text_similarity("Zoe", "Zoë") == 100
    assert text_similarity("Save", "Sav e") > 80
    assert text_similarity("Save", "Cancel") < MIN_SCORE
    # a word after a stop OCR read with no space is a word; a number's point parts none
    assert text_similarity("Eget", "Nunc id auctor.Eget") >= MIN_SCORE
    assert text_similarity("5", "1.5") < MIN_SCORE
    # a long name cut at its box's edge stands for it, if half of it shows
    assert text_similarity("Heard Island and McDonald Islands", "Heard Island and McD") >= 85
    assert text_similarity("Heard Island and McDonald Islands", "Heard Isla") < 85


def test_exact_label_beats_a_longer_text_containing_it():
    s = screen(
        el(0, "text", "Save your work often", (10, 10, 200, 20)),
        el(1, "button", "Save", (10, 50, 80, 30)),
    )
    ranked = rank(s, "Save", "button")
    assert [c.element.id for c in ranked] == [1, 0]


def test_kind_breaks_ties_between_equal_texts():
    s = screen(
        el(0, "text", "Advanced", (10, 200, 80, 20)), el(1, "tab", "Advanced", (100, 10, 80, 25))
    )
    assert rank(s, "Advanced", "tab")[0].element.id == 1


def test_input_is_found_by_its_label_name_or_position():
    named = screen(
        el(0, "text", "Email", (10, 50, 40, 16)),
        el(1, "input", "", (80, 46, 200, 24), name="Email"),
        el(2, "input", "", (80, 86, 200, 24), name="Phone"),
    )
    assert rank(named, "email", "input")[0].element.id == 1
    unnamed = screen(
        el(0, "text", "Phone", (10, 90, 40, 16)),
        el(1, "input", "", (80, 46, 200, 24)),
        el(2, "input", "", (80, 86, 200, 24)),
    )
    assert rank(unnamed, "Phone", "input")[0].element.id == 2
    below = screen(el(0, "text", "Search", (10, 10, 60, 16)), el(1, "input", "", (10, 30, 200, 24)))
    assert rank(below, "Search", "input")[0].element.id == 1


def test_new_elements_are_preferred_after_a_menu_opens():
    closed = screen(
        el(0, "menu", "File", (0, 0, 40, 20)), el(1, "text", "Save", (300, 300, 40, 20))
    )
    opened = screen(
        el(0, "menu", "File", (0, 0, 40, 20)),
        el(1, "text", "Save", (300, 300, 40, 20)),
        el(2, "menuitem", "Save As", (0, 40, 90, 20)),
        el(3, "menuitem", "Save", (0, 20, 90, 20)),
    )
    best = rank(opened, "Save", "menuitem", new_since=closed)
    assert best[0].element.id == 3


def test_nothing_similar_gives_no_candidates():
    assert rank(screen(el(0, "button", "Cancel", (0, 0, 50, 20))), "Submit") == []


def test_critic_ignores_a_blinking_caret_but_sees_real_change():
    before = np.full((200, 300, 3), 255, np.uint8)
    caret = before.copy()
    caret[50:70, 100:101] = 0
    assert changed_regions(Frame(before), Frame(caret)) == []
    dialog = before.copy()
    dialog[20:120, 40:200] = 90
    assert changed_regions(Frame(before), Frame(dialog)) == [Box(40, 20, 160, 100)]


def test_critic_verdicts():
    field = Box(100, 50, 200, 24)
    blank = np.full((200, 400, 3), 255, np.uint8)
    typed = blank.copy()
    typed[55:70, 105:150] = 0
    before = screen(el(0, "input", "", tuple(field)), pixels=blank)
    after = screen(el(0, "input", "Ada", tuple(field)), pixels=typed)
    assert judge(before, after, Expectation("text_in", "Ada", field)).status == "success"
    assert judge(before, after, Expectation("text_in", "Bob", field)).status == "unverified"
    assert judge(before, before, Expectation("change")).status == "retry"
    assert judge(before, after, Expectation("change")).status == "success"
    assert judge(before, after, Expectation("appears", "Ada")).status == "success"
    box = Box(10, 10, 100, 16)
    unchecked = screen(el(0, "checkbox", "Subscribe", tuple(box)), pixels=blank)
    checked = screen(
        el(0, "checkbox", "Subscribe", tuple(box), state=frozenset({"checked"})), pixels=typed
    )
    assert (
        judge(unchecked, checked, Expectation("state", box=box, state="checked")).status
        == "success"
    )
    assert (
        judge(checked, unchecked, Expectation("state", box=box, state="checked")).status == "retry"
    )


def test_a_box_ticked_is_found_where_a_bar_that_appeared_above_pushed_it() -> None:
    """A table's rows move 50 px down as a bar of actions for the ticked rows appears: the box
    at the old place is another row's, unticked; the one ticked is 50 px lower."""
    blank = np.full((400, 400, 3), 255, np.uint8)
    barred = blank.copy()
    barred[60:100, 10:390] = 200

    def rows(shift: int, ticked: int | None) -> list:
        names = ("Aurora Tannlege", "Bryggen Sykkel", "Fjordkaffe AS")
        return [
            element
            for i, name in enumerate(names)
            for element in (
                el(2 * i, "checkbox", "", (10, 100 + 40 * i + shift, 13, 13),
                   state=frozenset({"checked"}) if i == ticked else frozenset()),
                el(2 * i + 1, "text", name, (40, 98 + 40 * i + shift, 120, 16)),
            )
        ]  # fmt: skip

    before = screen(*rows(0, None), pixels=blank)
    after = screen(*rows(50, 1), pixels=barred)
    box = Box(10, 140, 13, 13)  # Bryggen's box, before the bar
    assert judge(before, after, Expectation("state", box=box, state="checked")).status == "success"


def test_an_icon_is_found_by_its_name():
    s = screen(
        el(0, "text", "Search results", (10, 10, 120, 20)),
        el(1, "icon", "", (300, 10, 24, 24), name="search"),
    )
    assert rank(s, "search", "icon")[0].element.id == 1


def test_a_text_repeating_the_task_is_never_the_target():
    task = 'Click on the link "Eget".'
    shown = screen(
        el(0, "text", 'Click on the link "Eget".', (0, 0, 200, 20)),
        el(1, "link", "Eget", (0, 100, 40, 16)),
    )
    assert [c.element.id for c in rank(shown, "Eget", "link", echo_of=task)] == [1]
    # a label the task quotes whole is still a target
    label = screen(el(0, "checkbox", "Subscribe to newsletter", (0, 0, 200, 20)))
    assert rank(label, "Subscribe to newsletter", echo_of="check Subscribe to newsletter")
    # nor is a box named after a line of it (the post under a wrapped instruction)
    task = 'Click the "Reply" button on 1 post by @lyda and then click Submit.'
    named = screen(el(0, "container", "", (0, 40, 150, 60), name="by @lyda and then click Submit."))
    assert rank(named, "Submit", echo_of=task) == []


def test_a_bare_kind_picks_elements_of_that_kind_in_reading_order():
    fields = screen(
        el(0, "input", "", (0, 60, 100, 20)),
        el(1, "text", "Name", (0, 0, 40, 20)),
        el(2, "input", "", (0, 20, 100, 20)),
    )
    assert [c.element.id for c in of_kind(fields, "input")] == [2, 0]
    assert [c.element.id for c in of_kind(fields, "input", nth=2)] == [0]
    assert [c.element.id for c in of_kind(fields, "input", nth=-1)] == [0]
    assert of_kind(fields, "input", nth=3) == []


def test_changes_in_regions_that_change_by_themselves_are_no_effect():
    before = screen(pixels=np.zeros((100, 200, 3), np.uint8))
    ticked = np.zeros((100, 200, 3), np.uint8)
    ticked[10:30, 150:190] = 255  # the clock
    after = screen(pixels=ticked)
    assert judge(before, after, Expectation("change")).status == "success"
    clock = [Box(148, 8, 44, 24)]
    assert judge(before, after, Expectation("change"), ignore=clock).status == "retry"


def test_a_word_inside_a_phrase_is_clicked_on_that_word():
    phrase = el(0, "text", "Donec ridiculus eget rhoncus", (0, 0, 280, 20))
    (best,) = rank(screen(phrase), "eget", "link")
    assert best.part is not None and 160 <= best.point[0] <= 210
    whole = el(1, "button", "Save", (0, 0, 80, 20))
    assert rank(screen(whole), "Save")[0].point == whole.box.center


def test_a_toggle_read_with_its_label_is_clicked_on_its_glyph():
    """A check box's square, and a switch's track (its label is often plain text that does
    nothing when clicked)."""
    box = el(0, "checkbox", "Remember me", (10, 10, 120, 16))
    switch = el(1, "toggle", "Yearly", (371, 212, 98, 25))
    assert rank(screen(box), "Remember me")[0].point == (18, 18)
    x, y = rank(screen(switch), "Yearly")[0].point
    assert 371 < x < 371 + 43 and y == switch.box.center[1]


def test_a_control_named_like_the_task_is_a_target_not_the_task_echoed():
    task = normalize("Sign up as Bo, with travel insurance")
    s = screen(
        el(0, "text", "Sign up as Bo, with travel insurance", (10, 10, 300, 20)),
        el(1, "checkbox", "Travel insurance", (10, 50, 150, 20)),
    )
    assert [c.element.id for c in rank(s, "Travel", "checkbox", echo_of=task)] == [1]


def test_a_slider_the_parser_did_not_box_is_found_between_its_label_and_its_number():
    s = screen(
        el(0, "text", "Room temperature", (10, 10, 150, 20)),
        el(1, "text", "0", (240, 8, 20, 22)),  # its handle, read as a digit
        el(2, "text", "22 °C", (330, 10, 50, 20)),
        el(3, "text", "Nights", (10, 50, 60, 20)),
        el(4, "input", "1", (80, 46, 80, 28)),
    )
    [slider] = unseen_sliders(s)
    assert slider.label == "Room temperature" and slider.element.box.x > 160
    assert slider.element.box.right < 330 and slider.element.id < 0
    assert [(f.element.id, f.label) for f in fields(s)] == [(4, "Nights")]


def test_a_glyph_the_task_names_finds_the_icon_button_named_for_it():
    s = screen(
        el(0, "text", "X", (320, 19, 17, 16)),
        Element(1, Box(90, 132, 24, 24), "button", "", interactive=True, name="close"),
    )
    assert rank(s, "x")[0].element.id == 1


def test_a_text_area_is_labelled_by_a_text_level_with_its_bottom():
    """A page's inline label sits on a text area's last line (contact.html at scale 2)."""
    page = Screen(
        Frame(np.full((800, 1280, 3), 255, np.uint8)),
        (
            Element(0, Box(55, 410, 151, 36), "radio", "E-mail", interactive=True),
            Element(1, Box(198, 461, 707, 130), "container", ""),
            Element(2, Box(46, 560, 145, 40), "text", "Message"),
            Element(3, Box(56, 612, 299, 41), "checkbox", "Send me a copy", interactive=True),
        ),
    )
    labelled = {f.label: f.element.kind for f in fields(page)}
    assert labelled["Message"] == "input"


def test_a_line_the_last_action_made_appear_may_say_it_was_refused():
    from clickwright.agent.critic import complaint

    form = screen(el(0, "text", "Please choose a plan", (0, 0, 200, 20)),
                  el(1, "button", "Create workspace", (0, 40, 140, 30)))  # fmt: skip
    refused = screen(*form.elements, el(2, "text", "Please agree to the terms to continue.",
                                        (0, 80, 300, 20)))  # fmt: skip
    assert complaint(form, refused) == "Please agree to the terms to continue."
    assert complaint(form, form) is None  # an instruction shown before is no complaint
    thanks = screen(el(0, "text", "Thanks! Please check your inbox to confirm.", (0, 0, 300, 20)))
    assert complaint(form, thanks) is None
    wrong = screen(el(0, "text", "Email address is invalid", (0, 0, 200, 20)))
    assert complaint(form, wrong) == "Email address is invalid"


def test_the_task_shown_on_the_page_holds_none_of_its_words():
    from clickwright.agent.actor import tab_row
    from clickwright.agent.grounding import shows_words

    page = screen(
        el(0, "text", "Switch between the tabs to find", (1, 2, 142, 11)),
        el(1, "text", 'and click on the link "aliguet".', (0, 14, 132, 9)),
        el(2, "button", "Tab #1", (3, 57, 48, 25)),
        el(3, "button", "Tab #2", (47, 57, 48, 25)),  # outlines overlapping: tabs
        el(4, "button", "Tab #3", (91, 57, 45, 25)),
        el(5, "link", "malesuada", (18, 127, 49, 9)),
        el(6, "button", "Submit", (10, 200, 80, 30)),
    )
    task = 'Switch between the tabs to find and click on the link "aliquet".'
    assert shows_words(page, "aliquet") is not None
    assert shows_words(page, "aliquet", echo_of=task) is None
    assert shows_words(page, "malesuada", echo_of=task).id == 5
    assert tab_row(page) == []  # buttons are tabs only when the task says there are tabs
    assert [t.text for t in tab_row(page, said=True)] == ["Tab #1", "Tab #2", "Tab #3"]


def test_a_reply_is_typed_in_the_blank_below_a_mail_clients_header_lines():
    from clickwright.agent.actor import _body_below

    reply = screen(
        el(0, "icon", "", (3, 54, 17, 17), name="back"),
        el(1, "text", "to: Audrey", (0, 73, 52, 13)),
        el(2, "text", "subject: Re: Ridiculus eget.", (0, 89, 129, 14)),
    )
    point, box = _body_below(reply)
    assert box.y > 103 and box.contains_point(*point)
    written = screen(*reply.elements, el(3, "text", "Imperdiet. Cursus.", (5, 114, 140, 16)))
    assert _body_below(written) is None  # a body with words in it is a text to find
    assert _body_below(screen(reply.elements[2])) is None  # one "subject:" is no mail client


def test_text_for_a_label_with_no_box_goes_in_the_blank_after_it():
    from clickwright.agent.actor import _blank_after

    form = screen(
        el(0, "text", "to:", (0, 74, 20, 17)),
        el(1, "text", "subject: Ridiculus eget.", (1, 94, 111, 15)),
        el(2, "list_item", "Episodes done: 0", (165, 70, 160, 26)),  # another column
    )
    point, box = _blank_after(form, form.elements[0])
    assert 20 < point[0] < 165 and box.y == 74
    assert _blank_after(form, form.elements[1]) is not None  # space after it too
    tight = screen(el(0, "text", "Name", (0, 10, 40, 16)), el(1, "text", "Kim", (46, 10, 30, 16)))
    assert _blank_after(tight, tight.elements[0]) is None  # something follows it closely


def test_a_label_named_in_a_label_and_value_text_is_aimed_at_its_value():
    row = el(0, "link", "Address: 4341 Tucker Avenue", (3, 120, 142, 17))
    best = rank(screen(row), "address")[0]
    assert best.part is not None and best.part.x >= 3 + 142 * 8 // 27  # past "Address:"
    assert rank(screen(row), "Tucker")[0].part.x > 3


def test_a_plus_sign_opens_a_tree_row_only_when_the_rows_words_follow_it():
    from clickwright.agent.actor import _labels_a_row

    rows = screen(el(0, "text", "+", (10, 40, 10, 12)),
                  el(1, "text", "Documents", (26, 38, 90, 16)),
                  el(2, "button", "+", (300, 6, 24, 24)),  # a browser's new-tab button
                  el(3, "text", "Cloudbox", (40, 6, 120, 24)))  # fmt: skip
    assert _labels_a_row(rows, rows.elements[0])
    assert not _labels_a_row(rows, rows.elements[2])


def test_a_search_scrolls_by_about_two_thirds_of_the_view_whatever_a_wheel_click_moves():
    from clickwright.agent.actor import _page_of_clicks

    words = ["Alpha one", "Beta two", "Gamma three", "Delta four"]
    before = screen(*(el(i, "text", w, (40, 100 + 60 * i, 120, 16)) for i, w in enumerate(words)))
    after = screen(*(el(i, "text", w, (40, 100 + 60 * i - 400, 120, 16))
                     for i, w in enumerate(words)))  # fmt: skip
    view = before.frame.size[1]
    assert _page_of_clicks(before, after, 2) == int(0.6 * view * 2 / 400)  # 200 px a click
    assert _page_of_clicks(before, before, 3) == 3  # not known: as before


def test_an_icon_named_by_another_word_for_it_is_found_by_its_library_name():
    icons = screen(
        el(0, "icon", "", (100, 10, 16, 16), name="delete"),
        el(1, "icon", "", (130, 10, 16, 16), name="star"),
        el(2, "icon", "", (160, 10, 16, 16), name="close"),
    )
    assert rank(icons, "trash", "icon")[0].element.id == 0
    assert rank(icons, "favourite", "icon")[0].element.id == 1
    assert rank(icons, "x", "button")[0].element.id == 2


def test_a_button_is_no_check_rows_label_even_with_a_box_on_its_line():
    from clickwright.agent.actor import row_toggle

    bar = screen(
        el(0, "checkbox", "Trackly", (16, 32, 82, 20)),  # a logo's tick read as a check box
        el(1, "text", "Mobile app", (112, 34, 80, 16)),
        el(2, "button", "Save board", (1166, 27, 98, 29)),
    )
    assert row_toggle(bar, bar.elements[2]) is None
    assert row_toggle(bar, bar.elements[1]) is not None  # a text still is its row's label


def test_a_message_box_is_known_by_its_placeholder_not_by_a_reply_link():
    from clickwright.agent.actor import _body_box

    view = screen(
        el(0, "text", "Reply", (29, 180, 28, 14)),
        el(1, "text", "To: Tom Berg", (698, 520, 200, 20)),
        el(2, "text", "Write your reply", (690, 603, 180, 22)),
    )
    assert _body_box(view) == view.elements[2]
    assert _body_box(screen(view.elements[0])) is None
