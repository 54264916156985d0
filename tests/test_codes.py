"""Codes a page shows for use elsewhere ("use the discount code from the banner")."""

from __future__ import annotations

from clickwright.agent.codes import is_code_phrase, shown_code
from clickwright.agent.interpreter import interpret
from clickwright.agent.settle import read_value
from tests.test_reading_screen import el, screen


def _page(*more):
    return screen(
        el(1, "text", "Midsummer sale: 15% off everything with code", (325, 26, 330, 14)),
        el(2, "text", "MIDsOMMER15", (660, 26, 90, 14)),  # bold, read apart, one capital small
        el(3, "text", "NORDVIND", (33, 62, 148, 24)),
        el(4, "text", "Order ref AB12CD34 · SALE", (40, 700, 300, 14)),
        *more,
    )


def test_the_code_a_code_word_introduces_is_read_in_capitals():
    assert shown_code(_page(), "the discount code from the banner at the top") == "MIDSOMMER15"
    assert read_value(_page(), "the code from the banner at the top") == "MIDSOMMER15"


def test_a_code_said_to_be_at_the_bottom_is_the_lowest_of_letters_and_digits():
    page = _page(el(5, "text", "Use voucher WINTER10 at checkout", (40, 740, 300, 14)))
    assert shown_code(page, "the voucher in the footer") == "WINTER10"
    bare = screen(el(1, "text", "SALE now on", (0, 10, 100, 14)),
                  el(2, "text", "Order ref AB12CD34", (0, 700, 200, 14)))  # fmt: skip
    assert shown_code(bare, "the code at the bottom") == "AB12CD34"  # mixed: a code uncued
    assert (
        shown_code(screen(el(1, "text", "SALE now on", (0, 10, 100, 14))), "the code from the top")
        is None
    )


def test_a_phrase_names_a_shown_code_only_when_it_says_where():
    assert is_code_phrase("the code from the email")
    assert is_code_phrase("the promo code shown in the banner")
    assert not is_code_phrase("the code SAVE10")
    assert not is_code_phrase("the postcode")


def test_using_a_code_from_the_page_types_it_into_the_field_its_words_name_and_enters_it():
    typed, enter = interpret("use the discount code from the banner at the top")
    assert (typed.verb, typed.target, typed.kind) == ("type", "discount code", "input")
    assert typed.source == "the code from the banner at the top" and typed.text is None
    assert enter.keys == ("enter",)


def test_a_value_named_by_its_kind_is_typed_without_the_words_that_name_it():
    [typed] = interpret("type the code SAVE10 into the coupon box")
    assert (typed.target, typed.text) == ("coupon", "SAVE10")
    [typed] = interpret("type my phone number 555-0192 in Phone")
    assert typed.text == "555-0192"
    [typed] = interpret("enter the PIN 4821")  # no field named apart: the screen's PIN field
    assert typed.target is None and typed.text == "the PIN 4821"
