"""A page's side navigation: found beside the page, named by the task's words, and opened
before a step whose thing lives in a section (the router's "rename my wifi")."""

from __future__ import annotations

import cv2
import numpy as np

from clickwright.agent import sections
from clickwright.parsers.widgets import Widget, _toggles_among_icons, detect_widgets
from clickwright.types import Box
from tests.test_reading_first_contact import read
from tests.test_reading_screen import el, screen

NAV = (
    el(1, "text", "Overview", (40, 90, 80, 20)),
    el(2, "text", "Wi-Fi", (40, 130, 50, 20)),
    el(3, "text", "Devices", (16, 170, 90, 20)),  # its icon read with it
    el(4, "input", "0 Guest network", (4, 200, 200, 36)),  # the selected entry's band
    el(5, "text", "Parental controls", (40, 250, 130, 20)),
    el(6, "text", "System", (40, 290, 60, 20)),
)
OVERVIEW = screen(
    *NAV,
    el(10, "text", "Overview", (240, 84, 140, 30)),
    el(11, "text", "Guest network", (250, 320, 130, 20)),  # a card that mentions it
    el(12, "text", "Off", (460, 320, 30, 20)),
    el(13, "button", "Apply changes", (240, 550, 150, 32)),
)


def test_the_leftmost_column_of_short_labels_beside_the_page_is_its_navigation() -> None:
    nav = sections.side_nav(OVERVIEW)
    assert [sections.label(e) for e in nav] == [
        "Overview", "Wi-Fi", "Devices", "Guest network", "Parental controls", "System",
    ]  # fmt: skip
    assert sections.is_open(OVERVIEW, nav[0], nav)  # its name is the page's heading
    assert not sections.is_open(OVERVIEW, nav[3], nav)  # a card mentions it, no heading


def test_a_forms_labels_with_their_fields_are_no_navigation() -> None:
    form = screen(
        *(el(i, "text", t, (20, 40 * i, 80, 20)) for i, t in enumerate(("Name", "City", "Zip"))),
        *(el(10 + i, "input", "", (120, 40 * i - 4, 200, 28)) for i in range(3)),
    )  # fmt: skip
    assert sections.side_nav(form) == []


def test_the_earliest_word_said_names_the_section() -> None:
    nav = sections.side_nav(OVERVIEW)
    named = {w: sections.section_for(w, nav) for w in
             ("wifi", "guest wifi", "device with the orange tag", "blocked websites")}  # fmt: skip
    assert {w: e and sections.label(e) for w, e in named.items()} == {
        "wifi": "Wi-Fi",
        "guest wifi": "Guest network",
        "device with the orange tag": "Devices",
        "blocked websites": None,
    }


def test_a_tour_of_the_sections_never_leaves_the_site() -> None:
    nav = [*NAV, el(7, "text", "Log out", (40, 330, 60, 20))]
    assert "Log out" not in [sections.label(e) for e in sections.tour(nav)]


def test_rename_sets_the_one_name_field_and_a_switch_is_named_by_a_word_it_shares() -> None:
    wifi = screen(
        *NAV,
        el(20, "text", "Network name (SSID)", (250, 200, 150, 20)),
        el(21, "input", "Rossi-Home", (480, 196, 260, 28), name="Network name (SSID)"),
        el(22, "text", "Channel", (250, 240, 80, 20)),
        el(23, "combo", "Auto", (480, 236, 260, 28), name="Channel"),
        el(24, "toggle", "", (480, 280, 40, 24), name="Guest network"),
    )
    assert read("rename my wifi to Casa Rossi and put it on channel 11", wifi) == [
        ("set", "Network name (SSID)", "Casa Rossi"),
        ("set", "channel", "11"),
    ]
    assert read("turn on the guest wifi with the password sunflower42", wifi)[0] == (
        "check", "Guest network", None,
    )  # fmt: skip


def test_marks_in_a_column_with_icons_are_the_icons_of_a_sidebar() -> None:
    def at(y: int, kind: str) -> Widget:
        return Widget(Box(20, y, 16, 16), kind, 0.8, frozenset({"checked"}))

    sidebar = [at(90, "icon"), at(130, "icon"), at(170, "checkbox"), at(270, "radio")]
    assert [w.kind for w in _toggles_among_icons(sidebar)] == ["icon"] * 4
    two_on = [at(90, "icon"), at(130, "radio"), at(170, "radio")]
    assert [w.kind for w in _toggles_among_icons(two_on)] == ["icon"] * 3
    form = [at(90, "icon"), at(130, "checkbox"), at(170, "checkbox"), at(210, "radio")]
    assert [w.kind for w in _toggles_among_icons(form)] == ["icon", "checkbox", "checkbox", "radio"]


def test_a_rows_cross_is_its_own_close_mark_not_a_drop_downs_arrow() -> None:
    pixels = np.full((300, 600, 3), 255, np.uint8)
    for i, site in enumerate(("tiktok.com", "pokerstars.com", "4chan.org")):
        y = 40 + 34 * i
        cv2.rectangle(pixels, (20, y), (440, y + 34), (210, 214, 220), 1)
        cv2.putText(pixels, site, (30, y + 23), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (30, 30, 30), 1,
                    cv2.LINE_AA)  # fmt: skip
        for a, b in (((418, y + 14), (424, y + 20)), ((424, y + 14), (418, y + 20))):
            cv2.line(pixels, a, b, (100, 110, 120), 1, cv2.LINE_AA)
    pixels[220:232, 30:42] = (240, 136, 30)  # a device's orange tag: no checked box
    found = [(w.kind, w.name) for w in detect_widgets(pixels)]
    assert "combo" not in {kind for kind, _ in found}
    assert found.count(("icon", "close")) == 3 and ("icon", "orange square") in found


PARENTAL = screen(
    *NAV,
    el(20, "text", "Blocked websites", (250, 150, 140, 18)),
    *(
        e
        for i, site in enumerate(("tiktok.com", "pokerstars.com"))
        for e in (
            el(21 + 3 * i, "list_item", site, (250, 180 + 34 * i, 420, 34)),
            el(22 + 3 * i, "text", site, (258, 188 + 34 * i, 100, 16)),
            el(23 + 3 * i, "icon", "", (640, 185 + 34 * i, 24, 24), name="close"),
        )
    ),
    el(30, "input", "e.g. example.com", (250, 260, 280, 30), name="System"),
    el(31, "button", "+ Add", (540, 260, 72, 30)),
)


def test_a_listed_site_is_taken_off_by_its_cross_and_a_new_one_added_by_the_lists_verb() -> None:
    assert read(
        "Take tiktok.com off the blocked websites and block roblox.com instead", PARENTAL
    ) == [  # fmt: skip
        ("click", "close", None, {"scope": "tiktok.com"}),
        ("type", "e.g. example.com", "roblox.com"),
        ("click", "+ Add", None),
    ]
