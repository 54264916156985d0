"""Reading tasks with the lexicon, without a screen: which action, which words are what."""

from __future__ import annotations

import tomllib
from dataclasses import replace
from importlib import resources

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clickwright.agent.clauses import Step, clauses
from clickwright.agent.interpreter import interpret
from clickwright.agent.lexicon import Frame, Lexicon, lexicon
from clickwright.agent.reading import understood
from clickwright.errors import TaskError


def S(verb, target=None, **fields):  # noqa: N802 - reads like a constructor in the table
    return Step(verb, "", target, **fields)


def steps(task):
    return [replace(step, clause="") for step in interpret(task)]


CASES = [
    # intents: what a button means, not its label
    ("accept the licence", [S("intent", "licence", text="affirm")]),
    ("say no to the upgrade", [S("intent", "upgrade", text="decline")]),
    ("go ahead with the upgrade", [S("intent", "upgrade", text="affirm")]),
    ("keep the backups", [S("intent", "backups", text="keep")]),
    ("discard the changes", [S("intent", "changes", text="discard")]),
    ("dismiss the warning", [S("intent", "warning", text="dismiss")]),
    ("refuse the location request", [S("intent", "location request", text="decline")]),
    ("confirm", [S("intent", text="affirm")]),
    # a typed value beside the words that name its field: settled on the screen (soft)
    ("Enter the PIN 4821 and confirm",
     [S("type", text="the PIN 4821"), S("intent", text="affirm")]),
    ("Type notes.txt as the document name",
     [S("type", "document name", kind="input", text="notes.txt")]),
    ("Use kim@berg.no as my email and continue",
     [S("type", "email", kind="input", text="kim@berg.no"), S("intent", text="affirm")]),
    # forms from one sentence, submitted at the end unless a later clause presses a button
    ("Sign up Ada with the email ada@example.org",
     [S("form", "Ada with the email ada@example.org", text="sign up"), S("label", text="sign up")]),
    ("Log in with username kim and password Summer2025!, and tick Remember me",
     [S("form", "with username kim and password Summer2025!", text="log in"),
      S("check", "Remember me"), S("label", text="log in")]),
    ("Book for 3 guests and click OK",
     [S("form", "for 3 guests", text="book"), S("click", "OK")]),
    # idioms said another way first (lexicon rewrites)
    ("how much is a 15% tip on a bill of 86.40?", [S("compute", text="86.4 * 0.15 =")]),
    ("put these lines in alphabetical order", [S("order", text="")]),
    ("sort the names in reverse", [S("order", text="reverse")]),
    ("sort the table by Price", [S("click", "Price", kind="button")]),
    ("rename the function calc_total to compute_total everywhere in shop.py",
     [S("change", text="compute_total", old="calc_total", every=True)]),
    ("write a shopping list with oat milk, coffee beans and lemons, one per line",
     [S("lines", text="oat milk\ncoffee beans\nlemons")]),
    ("Book for 3 guests and create it",  # words read on the screen may press its button
     [S("form", "for 3 guests", text="book"), S("unread", "create it")]),
    # widgets set to values
    ("set the brightness to 40", [S("set", "brightness", text="40")]),
    ("turn the volume down to 20", [S("set", "volume", text="20")]),
    ("choose 05/14/2024 as the date", [S("set", "date", text="05/14/2024")]),
    ("Set the arrival time to 7:30 PM and book", [S("set", "arrival time", text="7:30 PM"),
                                                  S("label", text="book")]),
    # changes: a field's value or words in a text
    ("Change the city from Bergen to Oslo", [S("change", "city", old="Bergen", text="Oslo")]),
    ("change draft to final", [S("change", "draft", text="final")]),
    ("replace every colour with color", [S("change", old="colour", text="color", every=True)]),
    ("change the year from 2023 to 2024 everywhere",
     [S("change", "year", old="2023", text="2024", every=True)]),
    # editors
    ("delete the line pears", [S("delete", "line pears")]),
    ("add a line y = 2 below x = 1", [S("insert", "x = 1", text="y = 2", where="below")]),
    ("insert two between one and three",
     [S("insert", "one", destination="three", text="two", where="between")]),
    ("type scratch at the end", [S("insert", text="scratch", where="end")]),
    ("Write Hello on the first line and World on the second", [S("lines", text="Hello\nWorld")]),
    ("Write Milk, Butter and Eggs on separate lines", [S("lines", text="Milk\nButter\nEggs")]),
    ("Save it as report.txt in the Documents folder",
     [S("save", text="report.txt", destination="Documents")]),
    ("save with Ctrl+S", [S("save", keys=("Ctrl", "S"))]),
    ("close the window without saving", [S("close", "window", text="discard")]),
    # looking through places, and values read from the screen
    ("Open the tabs until you find the coupon code", [S("find", "coupon code", where="tab")]),
    ("Find the Share crash reports option in the tabs, turn it on",
     [S("find", "Share crash reports", where="tab"), S("check", "Share crash reports")]),
    ("Type the code shown above into the Code field",
     [S("type", "Code", kind="input", source="code")]),
    ("Copy your account number into Reference",
     [S("type", "Reference", kind="input", source="account number")]),
    ("Type the sum of subtotal and shipping into Total",
     [S("type", "Total", source="sum of subtotal and shipping")]),
    # rows and places by what they show
    ("For the user @ana, click Follow", [S("click", "Follow", scope="user @ana")]),
    ('Click the "Share" button on all posts by @annis',
     [S("click", "Share", kind="button", scope="@annis", rows=0)]),
    ("click Like on 2 posts by @bob", [S("click", "Like", scope="@bob", rows=2)]),
    ("drag the purple-labelled shot into keep",
     [S("drag", "shot with the purple label", destination="keep", soft=True)]),
    ("purple card is finished, put it in done",
     [S("drag", "purple card", destination="done", soft=True)]),
    ("the orange ones are receipts, drag them into my Receipts folder",
     [S("drag", "the orange ones", destination="Receipts folder", soft=True)]),
    ("change the heading to Quarterly report Q3 pls",
     [S("change", "heading", text="Quarterly report Q3")]),
    ("that DRAFT line at the top has to go, delete it", [S("delete", "DRAFT line at the top")]),
    ("move Heroes so it's the last song in playlist.txt",
     [S("drag", "Heroes", where="position", nth=-1)]),
    ("pick the dark green from the palette", [S("click", "dark green swatch", soft=True)]),
    ("reply to Priya and quote only the sentence about parking, nothing else",
     [S("find", "email from Priya"), S("highlight", "the sentence about parking"),
      S("click", "Reply", soft=True)]),
    ("answer tom: thursday at 10 works for me",
     [S("find", "email from tom"), S("click", "Reply", soft=True),
      S("type", "message", text="thursday at 10 works for me"), S("click", "Send", soft=True)]),
    ("scroll the terms to the bottom",
     [S("scroll", "terms", direction="down", amount=0)]),
    ("scroll down to the bottom", [S("scroll", direction="down", amount=0)]),
    ("scroll all the way up to the top", [S("scroll", direction="up", amount=0)]),
    ("scroll to the bottom of the licence", [S("scroll", "licence", direction="down", amount=0)]),
    ("Give Bobine the message you received from Cora",
     [S("find", "email from Cora"), S("click", "Forward", soft=True),
      S("type", "To", kind="input", text="Bobine", soft=True), S("click", "Send", soft=True)]),
    ("Forward to Cathrine the email from Evy",
     [S("find", "email from Evy"), S("click", "Forward", soft=True),
      S("type", "To", kind="input", text="Cathrine", soft=True), S("click", "Send", soft=True)]),
    ("click Follow for both users from Oslo", [S("click", "Follow", scope="Oslo", rows=2)]),
    ("click Like on every one of the posts by @ana", [S("click", "Like", scope="@ana", rows=0)]),
    ("Pay the invoice from March",
     [S("form", "invoice from March", text="pay"), S("label", text="pay")]),
    ("Follow the user who lives in Bergen",
     [S("label", "user who lives in Bergen", text="Follow")]),
    ("set Indent spaces to 2 on the Windows tab",
     [S("set", "Indent spaces", text="2", scope="Windows tab")]),
    # arithmetic on a calculator's keys
    ("Add 17 and 25", [S("compute", text="17 + 25 =")]),
    ("subtract 19 from 100", [S("compute", text="100 - 19 =")]),
    ("divide 100 by 8", [S("compute", text="100 / 8 =")]),
    ("how much is twelve plus thirty", [S("compute", text="12 + 30 =")]),
    ("what's the square root of 144?", [S("compute", text="144 sqrt")]),
    ("find the average of 4, 8 and 12", [S("compute", text="4 + 8 + 12 = / 3 =")]),
    ("what is 20 percent of 150", [S("compute", text="150 * 0.2 =")]),
    ("multiply 7 by 6, then add 8", [S("compute", text="7 * 6 ="), S("compute", text="+ 8 =")]),
    ("press 9, then *, then =", [S("press", keys=("9",)), S("press", keys=("*",)),
                                 S("press", keys=("=",))]),
    ("calculate 15% of 200", [S("compute", text="200 * 0.15 =")]),
    # what people say they want, and clauses with no verb
    ("I'd like the medium one", [S("click", "medium one", soft=True)]),
    ("Name Kim, age 41", [S("form", "Name Kim, age 41", text="", soft=True)]),
    ("use Ana as first name and Lima as surname",
     [S("type", "first name", kind="input", text="Ana"),
      S("type", "surname", kind="input", text="Lima")]),
    ("yes, delete them", [S("delete", "them")]),
    ("remind me later", [S("intent", text="decline")]),
    ("check out", [S("intent", text="checkout")]),
    # finding what is not shown yet
    ("scroll down until you see Terms", [S("find", "Terms", where="list")]),
    ("look in each tab for the API key", [S("find", "API key", where="tab")]),
    ("click Next until you reach the summary",
     [S("find", "summary", where="button", text="Next")]),
    # editors
    ("put cherry on a new line at the top", [S("insert", text="cherry", where="start line")]),
    ("Add the line 'Total: 42' at the end", [S("insert", text="Total: 42", where="end line")]),
    ("change Monday to Tuesday in the first line",
     [S("change", old="Monday", text="Tuesday", nth=1)]),
    ("Replace the word 'teh' with 'the' everywhere",
     [S("change", old="teh", text="the", every=True)]),
    ("Use Search > Find and Replace to change red to green everywhere",
     [S("change", old="red", text="green", every=True)]),
    ("select all the text", [S("press", keys=("ctrl", "a"))]),
    # spreadsheets and calculators with no keys to press
    ("put 7 in cell B3", [S("type", "B3", kind="cell", text="7")]),
    ("type Plums in A4 and 5 in B4",
     [S("type", "A4", kind="cell", text="Plums"), S("type", "B4", kind="cell", text="5")]),
    ("calculate (12 + 8) / 4", [S("compute", text="( 12 + 8 ) / 4 =")]),
    ("square root of 81", [S("compute", text="81 sqrt")]),
    ("23*19", [S("compute", text="23 * 19 =")]),
    ("What's 2 to the power of 10", [S("compute", text="2 ^ 10 =")]),
    ("what is 4 * (2 + 3)", [S("compute", text="4 * ( 2 + 3 ) =")]),
    ("click Save (at the bottom)", [S("click", "Save", soft=True)]),
    ("Convert 5 km to miles", [S("compute", text="5 km to miles")]),
    ("sort the table by price", [S("click", "price", kind="button")]),
    ("Fill in the contact form: name Lena Berg, email lena@berg.se",
     [S("form", "name Lena Berg, email lena@berg.se", text="")]),
    ("undo that", [S("press", keys=("ctrl", "z"))]),
    ("call it Budget 2025 instead", [S("type", text="Budget 2025")]),  # "instead" a remark
    ("how much is 15 plus 27", [S("compute", text="15 + 27 =")]),
    ("The guest is Anna Berg, phone 555-0123",  # no sum: words before it that ask nothing
     [S("form", "The guest is Anna Berg, phone 555-0123", text="", soft=True)]),
    # an editor's text as strangers said it
    ('uppercase the word "urgent" in the first paragraph', [S("change", text="URGENT", old="urgent")]),
    ("make the heading shopping list all caps",
     [S("change", text="SHOPPING LIST", old="shopping list")]),
    ('lowercase "HELLO"', [S("change", text="hello", old="HELLO")]),
    ("capitalize monday on the second line", [S("change", text="Monday", old="monday")]),
    ('replace "Tuesday" with "Thursday" in the letter', [S("change", text="Thursday", old="Tuesday")]),
    ('fix the typo "recieve" -> "receive"', [S("change", "recieve", text="receive")]),
    ("third line -> bottom", [S("drag", "third line", nth=-1, where="position")]),
    ("invoice_march.pdf -> Archive",
     [S("drag", "invoice_march.pdf", destination="Archive", soft=True)]),
    ("click File -> Save As", [S("open_menu", path=("File", "Save As"))]),
    ("comment out the line with print(total)", [S("comment", "line with print(total)")]),
    ("comment the debug line out", [S("comment", "debug line")]),
    ("uncomment the line # import os", [S("comment", "line # import os", where="off")]),
    ('the line that says "sunscreen" should come right after "towels"',
     [S("drag", 'line that says "sunscreen"', destination="towels", where="after")]),
    ("press ctrl+s", [S("press", keys=("ctrl", "s"))]),
    ("copy the first line, then ctrl+s",
     [S("copy", "first line"), S("press", keys=("ctrl", "s"))]),
    ("save it as letter_v2.txt on the Desktop", [S("save", text="letter_v2.txt", destination="Desktop")]),
    # other ways strangers put things
    ("unckeck the blue items", [S("uncheck", "blue items", soft=True)]),
    ('press the green "Confirm" button, not the red one',
     [S("click", 'green "Confirm"', kind="button")]),
    ('the sentence starting with "Note:" - select it',
     [S("highlight", 'the sentence starting with "Note:"')]),
    ('move the card "Design logo" from To Do to In Progress',
     [S("drag", 'card "Design logo"', destination="In Progress", soft=True)]),
    ('move the pink card to the "In Progress" column',
     [S("drag", "pink card", destination='"In Progress" column', soft=True)]),
    ("swap the first and second photos", [S("swap", "first photo", destination="second photo")]),
    ('answer "blue" and hit Enter', [S("type", text="blue"), S("press", keys=("enter",))]),
    # requests said as wishes, states or in the passive
    ("the passport line needs to be deleted", [S("delete", "passport line")]),
    ("can the second line be removed?", [S("delete", "second line")]),
    ("the last sentence should be highlighted", [S("highlight", "the last sentence")]),
    ("the blue items need to be unchecked", [S("uncheck", "blue items", soft=True)]),
    ("the red cards should be archived", [S("label", "red cards", text="archive")]),
    ("the second paragraph has to go", [S("delete", "second paragraph")]),
    ("the dentist line is not needed anymore", [S("delete", "dentist line")]),
    ("we don't need the second paragraph", [S("delete", "second paragraph")]),
    ("the green tasks are done", [S("check", "green tasks", soft=True)]),
    ("get the passport line to the top", [S("drag", "passport line", nth=1, where="position")]),
    ("I'd like the pdf in the Archive folder",
     [S("drag", "pdf", destination="Archive folder", soft=True)]),
    ("bin the orange card", [S("delete", "orange card")]),
    ("the price should be 40", [S("unread", "the price should be 40")]),  # a statement, read later
    ('copy the phrase "free shipping"', [S("copy", '"free shipping"')]),
]  # fmt: skip


@pytest.mark.parametrize(("task", "expected"), CASES, ids=[task for task, _ in CASES])
def test_reads_task(task, expected):
    assert steps(task) == expected


def test_a_number_that_counts_things_is_no_sum():
    assert all(s.verb != "compute" for s in interpret("Add 2 more apples to the cart"))


def test_words_the_grammar_could_only_guess_are_settled_on_the_screen():
    typed, affirm = interpret("Enter the PIN 4821 and confirm")
    assert typed.soft and not affirm.soft
    assert not interpret("type 'the PIN 4821' into Name")[0].soft  # quoted: exactly as given


@pytest.mark.parametrize(
    ("task", "pieces"),
    [
        ("click Save and Close", ["click Save and Close"]),
        ("Untick Butter and confirm", ["Untick Butter", "confirm"]),
        ("Set arrival to 2025-03-14 and OK", ["Set arrival to 2025-03-14", "OK"]),
        ("For the user @ana, click Follow", ["For the user @ana, click Follow"]),
        ("Log in as ada with the password s3cret!", ["Log in as ada with the password s3cret!"]),
        ("Set the arrival time to 7:30 PM and book", ["Set the arrival time to 7:30 PM", "book"]),
        ("Choose June 1 as the date and confirm", ["Choose June 1 as the date", "confirm"]),
        ("Answer the survey: yes, then submit", ["Answer the survey: yes", "submit"]),
        ("Click OK!", ["Click OK"]),
        (
            "Open the Find and Replace dialog and replace all cat with dog",
            ["Open the Find and Replace dialog", "replace all cat with dog"],
        ),
        (
            "Write A on the first line and B on the second",
            ["Write A on the first line and B on the second"],
        ),
        ("the meeting moved to 11am: replace 10am with 11am", ["replace 10am with 11am"]),
        ("tick the email highlighted in yellow and archive it",
         ["tick the email highlighted in yellow", "archive it"]),
        ("press the green button, not the red one", ["press the green button"]),
        (
            "enter ann@site.org as the email and don't subscribe",
            ["enter ann@site.org as the email", "don't subscribe"],
        ),
    ],
)
def test_clauses_are_cut_where_a_new_action_starts(task, pieces):
    assert clauses(task) == pieces


@pytest.mark.parametrize(
    ("task", "said"),
    [
        ("bake a cake", "'bake' is not a verb the offline planner knows"),
        ("make me a sandwich", "understood the verb 'make' but not 'me a sandwich'"),
        ("change the colour", "understood the verb 'change' but not 'the colour'"),
        ("set", "understood the verb 'set' but not what it acts on"),
    ],
)
def test_an_unreadable_clause_says_what_was_understood(task, said):
    assert said in understood(task)


def test_a_form_sentence_that_gives_no_values_is_not_a_form():
    assert [s.verb for s in interpret("Register the customer")] == ["unread"]


def test_the_lexicon_is_data_a_new_synonym_is_a_new_reading():
    text = resources.files("clickwright.assets").joinpath("lexicon.toml").read_text("utf-8")
    data = tomllib.loads(text)
    data["intents"]["affirm"]["verbs"].append("make it so")
    taught = Lexicon(data)
    hit = taught.intent_at("make it so".split())
    assert hit is not None and hit[0].name == "affirm"
    assert lexicon().intent_at("make it so".split()) is None


def test_frames_cut_the_fewest_words_per_role():
    frame = Frame.parse("change", "{what} from {old} to {new}", 0)
    words = "the city from Bergen to Oslo".lower().split()
    assert frame.match(words) == {"what": (0, 2), "old": (3, 4), "new": (5, 6)}
    assert frame.match("the city to Oslo".split()) is None


def test_values_are_told_apart_by_their_patterns():
    lex = lexicon()
    assert lex.value_kind("ada@example.org") == "email"
    assert lex.value_kind("14/02/2025") == "date" and lex.value_kind("2025-03-14") == "date"
    assert lex.value_kind("7:30 PM") == "time" and lex.value_kind("18:00") == "time"
    assert lex.value_kind("4821") == "number" and lex.value_kind("$9") == "money"
    assert lex.value_kind("Oslo") is None
    assert lex.number("thirty") == 30 and lex.number("twenty-one") == 21


_WORDS = ["click", "type", "into", "the", "and", "then", "save", "as", "in", "line", "first",
          "Name", "41", ":", ",", "(", ")", "*", "x", "to", "from", "change", "delete", "lines",
          "cell", "B3", "select", "all", "I", "want", "don't", "no", "yes", "use", "Find",
          "Replace", "search", "for", "scroll", "until", "see", "press", "Next", "of", "price",
          "make", "wide", "power", "convert", "km", "'", '"', "sort", "by", "close", "fill",
          "form", "set", "%", "15%", "2.5", "-", "/", "=", "sqrt", "add", "more", "tick",
          "every", "put", "top", "end", "it", "remind", "NAN", "inf", "1e999"]  # fmt: skip


@settings(max_examples=400, deadline=None, database=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), st.text(max_size=4)), min_size=1, max_size=12))
def test_no_task_text_crashes_the_reader(words):
    try:
        interpret(" ".join(words))
    except TaskError:
        pass


def test_a_mistyped_verb_is_respelled_only_where_a_step_surely_starts():
    from clickwright.agent.clauses import respelled

    assert respelled("unckeck the blue items") == "uncheck the blue items"
    assert respelled("click Save. delte the draft") == "click Save. delete the draft"
    assert respelled("company Kettle & Co, retail") == "company Kettle & Co, retail"  # a value
    assert respelled("tick Milk and Butter") == "tick Milk and Butter"
