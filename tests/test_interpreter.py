"""The offline planner: plain imperative English becomes exact steps; anything else a TaskError."""

from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from clickwright.agent.interpreter import SUPPORTED_FORMS, Step, interpret
from clickwright.agent.lexicon import lexicon
from clickwright.agent.memory import Memory
from clickwright.agent.settle import settle
from clickwright.errors import TaskError
from clickwright.types import Frame, Screen


def S(verb, target=None, **fields):  # noqa: N802 - reads like a constructor in the table
    return Step(verb, "", target, **fields)


def steps(task):
    """The steps without their clauses, which the tables below would only repeat."""
    return [replace(step, clause="") for step in interpret(task)]


CASES = [
    # click, with every click verb, articles, "on", kind words and quoting styles
    ("click Save", [S("click", "Save")]),
    ("Click on the Save button", [S("click", "Save", kind="button")]),
    ("tap 'OK'", [S("click", "OK")]),
    ("please press the Submit button", [S("click", "Submit", kind="button")]),
    ("hit the Privacy link", [S("click", "Privacy", kind="link")]),
    ("push “Continue”", [S("click", "Continue")]),
    ("click `Run all`", [S("click", "Run all")]),
    ('click "Save as PDF"', [S("click", "Save as PDF")]),
    ("click ‘Don’t Save’", [S("click", "Don’t Save")]),
    ("click Don't Save", [S("click", "Don't Save")]),
    ("CLICK SAVE", [S("click", "SAVE")]),
    ("click the Advanced tab", [S("click", "Advanced", kind="tab")]),
    ("click the Inbox item", [S("click", "Inbox", kind="list_item")]),
    ("click the Settings icon", [S("click", "Settings", kind="icon")]),
    ("click the Help menu", [S("click", "Help", kind="menu")]),
    ("click the Paste menu item", [S("click", "Paste", kind="menuitem")]),
    ("click the button 'OK'", [S("click", "OK", kind="button")]),
    ("click the 'Save' button", [S("click", "Save", kind="button")]),
    ("click 'Add Item'", [S("click", "Add Item")]),
    ("click Item 3", [S("click", "Item 3")]),
    ("click the menu", [S("click", "menu")]),
    ("Open Settings and turn Wi-Fi on", [S("click", "Settings"), S("check", "Wi-Fi")]),
    ("switch Dark mode off", [S("uncheck", "Dark mode")]),
    (
        "Click button ONE, then click link Two",
        [S("click", "ONE", kind="button"), S("click", "Two", kind="link")],
    ),
    ("Close the dialog box by clicking the 'x'", [S("click", "x")]),
    ("Focus into the 3rd input textbox", [S("click", "", kind="input", nth=3)]),
    ("Click the button in the dialog labelled 'Cancel'", [S("click", "Cancel", kind="button")]),
    ("type 'ada' in upper case into the text field", [S("type", "", kind="input", text="ADA")]),
    (
        "enter the password 'x' into both text fields",
        [S("type", "", kind="input", text="x", every=True)],
    ),
    (
        "enter the username 'ada' and the password 'x'",
        [
            S("type", "username", kind="input", text="ada"),
            S("type", "password", kind="input", text="x"),
        ],
    ),
    ("use the search box to enter 'cats'", [S("type", "search", kind="input", text="cats")]),
    ("select A, B and C", [S("click", "A"), S("click", "B"), S("click", "C")]),
    ("click on a 'checkbox' widget", [S("click", "", kind="checkbox")]),
    ("Select nothing and click Submit", [S("click", "Submit")]),
    ("Look through the list, then click OK", [S("click", "OK")]),
    ("select the Pro radio button", [S("click", "Pro", kind="radio")]),
    ("select Pro", [S("click", "Pro")]),
    ("choose the 'Monthly' option", [S("click", "Monthly", kind="radio")]),
    ("select Log in button", [S("click", "Log in", kind="button")]),
    ("press Save", [S("click", "Save")]),
    ("press Sign-In", [S("click", "Sign-In")]),
    ("click File / Save As", [S("click", "File / Save As")]),
    ("open the Advanced tab", [S("click", "Advanced", kind="tab")]),
    ("go to the Downloads folder", [S("click", "Downloads folder")]),
    # double and right clicks
    ("double-click the Recycle Bin icon", [S("double_click", "Recycle Bin", kind="icon")]),
    ("double click Report.pdf", [S("double_click", "Report.pdf")]),
    ("doubleclick on 'My Files'", [S("double_click", "My Files")]),
    ("right-click Notes.txt", [S("right_click", "Notes.txt")]),
    ("right click on the Desktop", [S("right_click", "Desktop")]),
    ("open the context menu of the Trash icon", [S("right_click", "Trash", kind="icon")]),
    # check and uncheck
    ("check Remember me", [S("check", "Remember me")]),
    ("tick the Remember me checkbox", [S("check", "Remember me", kind="checkbox")]),
    ("enable the Dark mode switch", [S("check", "Dark mode", kind="toggle")]),
    ("turn on Notifications", [S("check", "Notifications")]),
    (
        "check I agree to the Terms and Conditions",
        [S("check", "I agree to the Terms and Conditions")],
    ),
    ("uncheck the Subscribe check box", [S("uncheck", "Subscribe", kind="checkbox")]),
    ("untick 'Send me offers'", [S("uncheck", "Send me offers")]),
    ("clear the Remember me checkbox", [S("uncheck", "Remember me", kind="checkbox")]),
    ("disable Auto-save", [S("uncheck", "Auto-save")]),
    ("turn off Bluetooth", [S("uncheck", "Bluetooth")]),
    # select an option in a list
    (
        "choose Canada from the Country dropdown",
        [S("select", "Country", kind="combo", text="Canada")],
    ),
    ("select 'Debug' in Log level", [S("select", "Log level", text="Debug")]),
    ("pick Large from the Size drop-down", [S("select", "Size", kind="combo", text="Large")]),
    (
        "select United States of America from Country combo box",
        [S("select", "Country", kind="combo", text="United States of America")],
    ),
    (
        "choose “Made in USA” in the Origin list",
        [S("select", "Origin", kind="combo", text="Made in USA")],
    ),
    ("select Made in USA from Origin", [S("select", "Origin", text="Made in USA")]),
    # menu paths
    ("open File > Save As", [S("open_menu", path=("File", "Save As"))]),
    ("click File > Save As…", [S("open_menu", path=("File", "Save As"))]),
    ("go to Edit → Clear Form", [S("open_menu", path=("Edit", "Clear Form"))]),
    ("File > Save As", [S("open_menu", path=("File", "Save As"))]),
    ("View -> Zoom -> 200%", [S("open_menu", path=("View", "Zoom", "200%"))]),
    ("open Tools » Options...", [S("open_menu", path=("Tools", "Options"))]),
    ("open the File menu > Export", [S("open_menu", path=("File", "Export"))]),
    ("open 'Window' > 'Zoom > 100%'", [S("open_menu", path=("Window", "Zoom > 100%"))]),
    # typing
    ("type 'hello' into the search box", [S("type", "search", kind="input", text="hello")]),
    (
        "enter ada@example.com in the Email field",
        [S("type", "Email", kind="input", text="ada@example.com")],
    ),
    ("write “Zoë” in Name", [S("type", "Name", text="Zoë")]),
    ("fill in Name with 'Ada'", [S("type", "Name", text="Ada")]),
    ("fill Name with Ada", [S("type", "Name", text="Ada")]),
    ("set Name to 'Ada'", [S("set", "Name", text="Ada")]),
    ("type hello", [S("type", text="hello")]),
    ("Type hello world.", [S("type", text="hello world")]),
    ("type 'Hello world.'", [S("type", text="Hello world.")]),
    ("type 'a, b and c' into Notes", [S("type", "Notes", text="a, b and c")]),
    ("type a, b and c into Notes", [S("type", "Notes", text="a, b and c")]),
    (
        'type "  spaced  " into the Comment textbox',
        [S("type", "Comment", kind="input", text="  spaced  ")],
    ),
    ("type log in into Username", [S("type", "Username", text="log in")]),
    ("type 'it's' into Notes", [S("type", "Notes", text="it's")]),
    ("input 42 into the Quantity input", [S("type", "Quantity", kind="input", text="42")]),
    ("type 日本語 into the 名前 field", [S("type", "名前", kind="input", text="日本語")]),
    ("type '🙂 ok' into Chat", [S("type", "Chat", text="🙂 ok")]),
    (
        "type `rm -rf > /dev/null` into the Terminal",
        [S("type", "Terminal", text="rm -rf > /dev/null")],
    ),
    # keys
    ("press Enter", [S("press", keys=("enter",))]),
    ("press Ctrl+S", [S("press", keys=("ctrl", "s"))]),
    ("hit Alt+F4", [S("press", keys=("alt", "f4"))]),
    ("press ctrl-s", [S("press", keys=("ctrl", "s"))]),
    ("press Ctrl + Shift + T", [S("press", keys=("ctrl", "shift", "t"))]),
    ("press Cmd+Shift+4", [S("press", keys=("command", "shift", "4"))]),
    ("press Escape", [S("press", keys=("esc",))]),
    ("press the Enter key", [S("press", keys=("enter",))]),
    ("press Page Down", [S("press", keys=("pagedown",))]),
    ("press -", [S("press", keys=("-",))]),
    ("press Ctrl+-", [S("press", keys=("ctrl", "-"))]),
    ("press Ctrl++", [S("press", keys=("ctrl", "+"))]),
    ("press Tab 3 times", [S("press", keys=("tab",))] * 3),
    ("press Down twice", [S("press", keys=("down",))] * 2),
    # scrolling, dragging, waiting
    ("scroll down", [S("scroll", direction="down")]),
    ("scroll up 5 times", [S("scroll", direction="up", amount=5)]),
    (
        "scroll down by 10 in the Results list",
        [S("scroll", "Results", kind="combo", direction="down", amount=10)],
    ),
    ("scroll right twice on the Timeline", [S("scroll", "Timeline", direction="right", amount=2)]),
    ("drag Report.pdf to the Trash", [S("drag", "Report.pdf", destination="Trash")]),
    (
        "drag the 'Card 1' item onto Done",
        [S("drag", "Card 1", kind="list_item", destination="Done")],
    ),
    (
        "drag and drop photo.png into the Uploads folder",
        [S("drag", "photo.png", destination="Uploads folder")],
    ),
    ("move Bread to the top of the shopping list", [S("drag", "Bread", where="position", nth=1)]),
    ("put Anna third in the queue", [S("drag", "Anna", where="position", nth=3)]),
    ("Drag Gerda to the 3rd position", [S("drag", "Gerda", where="position", nth=3)]),
    ("move the socks to the bottom", [S("drag", "socks", where="position", nth=-1)]),
    ("drag Milk above Eggs", [S("drag", "Milk", where="before", destination="Eggs")]),
    ("move Tea right below Coffee", [S("drag", "Tea", where="after", destination="Coffee")]),
    ("Drag the item left", [S("drag", "item", direction="left", amount=0)]),
    ("drag the box right by 120 pixels", [S("drag", "box", direction="right", amount=120)]),
    ("move the Fix login card to Done", [S("drag", "Fix login card", destination="Done")]),
    ("move the slider to 40", [S("set", "slider", text="40")]),
    ("put 7 in cell B3", [S("type", "B3", kind="cell", text="7")]),
    ("Highlight the text in the 1st paragraph", [S("highlight", "the text in the 1st paragraph")]),
    ("highlight the second sentence", [S("highlight", "the second sentence")]),
    ("select the word 'urgent'", [S("highlight", "the word 'urgent'")]),
    ("select 'Oslo' in the text", [S("highlight", "'Oslo' in the text")]),
    ("select Canada", [S("click", "Canada")]),
    ("select the whole middle paragraph", [S("highlight", "the whole middle paragraph")]),
    (
        "drag eggs up so they come right after milk",
        [S("drag", "eggs", where="after", destination="milk")],
    ),
    (
        "put budget.xlsx in the orange folder",
        [S("drag", "budget.xlsx", destination="orange folder")],
    ),
    ("put Oslo in the City field", [S("type", text="Oslo in the City field", soft=True)]),
    ("wait for Saved to appear", [S("wait_for", "Saved")]),
    ("wait until the Done button appears", [S("wait_for", "Done", kind="button")]),
    ("wait until 'Upload complete' is shown", [S("wait_for", "Upload complete")]),
    ("wait for the Results table", [S("wait_for", "Results table")]),
    # sequences
    ("Click Save. Then press Enter.", [S("click", "Save"), S("press", keys=("enter",))]),
    ("click Save, then press Enter", [S("click", "Save"), S("press", keys=("enter",))]),
    (
        "type 'hello' into the search box and press Enter",
        [S("type", "search", kind="input", text="hello"), S("press", keys=("enter",))],
    ),
    (
        "First, click File. Next, click Export; finally, press Enter",
        [S("click", "File"), S("click", "Export"), S("press", keys=("enter",))],
    ),
    (
        "check Remember me and then click Sign in",
        [S("check", "Remember me"), S("click", "Sign in")],
    ),
    ("click Save after that wait for Saved", [S("click", "Save"), S("wait_for", "Saved")]),
    ("click Save and Close", [S("click", "Save and Close")]),
    ("click Save and Open", [S("click", "Save and Open")]),
    ("click Now and Then", [S("click", "Now and Then")]),
    (
        "click Save; then File > Export",
        [S("click", "Save"), S("open_menu", path=("File", "Export"))],
    ),
    ("click 'Mr. Smith', then press Enter", [S("click", "Mr. Smith"), S("press", keys=("enter",))]),
    (
        "click Save and open the Settings tab",
        [S("click", "Save"), S("click", "Settings", kind="tab")],
    ),
    (
        "scroll down 2 times then double-click Report",
        [S("scroll", direction="down", amount=2), S("double_click", "Report")],
    ),
    ("click Submit\npress Enter", [S("click", "Submit"), S("press", keys=("enter",))]),
    ("Please click OK.", [S("click", "OK")]),
    (
        "open File > Save As..., then type report.txt into the File name field and press Enter",
        [
            S("open_menu", path=("File", "Save As")),
            S("type", "File name", kind="input", text="report.txt"),
            S("press", keys=("enter",)),
        ],
    ),
    (
        "type 'x; then click Go' into Notes; then click Go",
        [S("type", "Notes", text="x; then click Go"), S("click", "Go")],
    ),
]


@pytest.mark.parametrize(("task", "expected"), CASES, ids=[task for task, _ in CASES])
def test_interprets_task(task, expected):
    assert steps(task) == expected


def test_each_step_keeps_the_clause_it_came_from():
    clauses = [step.clause for step in interpret("First, click Save. Then press Tab twice!")]
    assert clauses == ["click Save", "press Tab twice", "press Tab twice"]


@pytest.mark.parametrize("form", SUPPORTED_FORMS)
def test_every_advertised_form_is_understood(form):
    assert interpret(form)


@pytest.mark.parametrize(
    ("task", "named"),
    [
        ("", None),
        ("   \n\t", None),
        ("click", "click"),
        ("please", "please"),
        ("click ''", "click ''"),
        ("type '' into Name", "type '' into Name"),
        ("press Ctrl+Foo", "Foo"),
        ("press the Foo key", "Foo"),
        ("press Ctrl+A+B", "press Ctrl+A+B"),
        ("scroll down 0 times", "scroll down 0 times"),
        ("press Tab 100 times", "press Tab 100 times"),
        ("File > > Save", "File > > Save"),
        ("clear the Search field", "clear the Search field"),
        ("set", "set"),
    ],
)
def test_rejects_what_no_screen_can_help_read(task, named):
    """Empty tasks, a lone verb and words a rule took and found wrong are refused before any
    display opens."""
    with pytest.raises(TaskError) as raised:
        interpret(task)
    if named:
        assert named in str(raised.value)
    assert raised.value.hint


EMPTY = Screen(Frame(np.full((300, 400, 3), 240, np.uint8)), ())


@pytest.mark.parametrize(
    ("task", "clause"),
    [
        ("make me a sandwich", "make me a sandwich"),
        ("wait until Loading disappears", "wait until Loading disappears"),
        ("click Save, then fly to the moon", "fly to the moon"),
        ("click Save. Bake a cake.", "Bake a cake"),
        ("click Save and then Frobnicate", "Frobnicate"),
    ],
)
def test_words_neither_grammar_reads_are_read_on_the_screen_when_their_turn_comes(task, clause):
    """ "the playlist should be called Road trip 2025" names a field on its screen; on a screen
    where its words name nothing, it is refused there, saying what was understood."""
    unread = [s for s in interpret(task) if s.verb == "unread"]
    assert [s.clause for s in unread] == [clause]
    with pytest.raises(TaskError) as raised:
        settle(unread[0], EMPTY, Memory())
    assert f"cannot understand {clause!r}" in str(raised.value)
    assert "none of its words name anything on the screen" in str(raised.value)


def test_the_hint_points_at_the_forms_and_the_model_backends():
    with pytest.raises(TaskError) as raised:
        settle(interpret("summon me a flight to Lisbon")[0], EMPTY, Memory())
    hint = raised.value.hint
    assert "--backend openai|anthropic|transformers" in hint and "README" in hint
    assert all(form in hint for form in SUPPORTED_FORMS)


# ---- properties ----------------------------------------------------------------------------

# Words the interpreter reads as structure: a name made of them would mean something else.
RESERVED = {
    "the",
    "a",
    "an",
    "and",
    "then",
    "after",
    "please",
    "first",
    "next",
    "finally",
    "now",
    "radio",
    "button",
    "option",
    "check",
    "checkbox",
    "box",
    "tick",
    "combo",
    "combobox",
    "drop",
    "dropdown",
    "down",
    "list",
    "listbox",
    "text",
    "textbox",
    "textarea",
    "area",
    "input",
    "field",
    "toggle",
    "switch",
    "tab",
    "menu",
    "menuitem",
    "item",
    "link",
    "icon",
    "click",
    "double",
    "right",
    "tap",
    "hit",
    "push",
    "press",
    "select",
    "choose",
    "pick",
    "enable",
    "uncheck",
    "untick",
    "clear",
    "disable",
    "deselect",
    "turn",
    "open",
    "go",
    "navigate",
    "type",
    "enter",
    "write",
    "fill",
    "set",
    "scroll",
    "drag",
    "wait",
    "on",  # "click On B" is a click on B
    "at",
    "all",  # "click All B" clicks every B
    "every",
    "each",
    "both",
}
NAMES = (
    st.lists(st.from_regex(r"[A-Z][a-z]{0,8}", fullmatch=True), min_size=1, max_size=3)
    .filter(lambda words: not RESERVED & {w.lower() for w in words})
    .filter(lambda words: words[-1].lower() not in lexicon().abbreviations)  # "Mr. Smith" is one
    .map(" ".join)
)
QUOTABLE = st.characters(
    blacklist_categories=("Cs", "Cc", "Cn", "Zl", "Zp"), blacklist_characters="'"
)


@given(text=st.text(QUOTABLE, min_size=1, max_size=40), name=NAMES)
def test_quoted_text_is_typed_exactly(text, name):
    assert interpret(f"type '{text}' into the {name} field") == [
        Step("type", f"type '{text}' into the {name} field", name, "input", text=text)
    ]


CLAUSES = st.one_of(
    NAMES.map(lambda n: (f"click {n}", ("click", n))),
    NAMES.map(lambda n: (f"check the {n} checkbox", ("check", n))),
    NAMES.map(lambda n: (f"wait for {n} to appear", ("wait_for", n))),
    st.sampled_from(["Enter", "Tab", "Esc", "F5", "Ctrl+S"]).map(
        lambda k: (f"press {k}", ("press", None))
    ),
    st.integers(1, 50).map(lambda n: (f"scroll down {n} times", ("scroll", None))),
    st.tuples(st.text(QUOTABLE, min_size=1, max_size=20), NAMES).map(
        lambda tn: (f"type '{tn[0]}' into {tn[1]}", ("type", tn[1]))
    ),
)
SEPARATORS = st.sampled_from(
    [
        ", ",
        "; ",
        " and ",
        " then ",
        " and then ",
        ", then ",
        ". ",
        ". Then ",
        " after that ",
        ", and ",
        "\n",
        ". Next, ",
    ]
)


@given(st.lists(st.tuples(CLAUSES, SEPARATORS), min_size=1, max_size=6))
def test_joined_clauses_give_one_step_each_in_order(parts):
    task = "".join(clause + sep for (clause, _), sep in parts[:-1]) + parts[-1][0][0]
    result = interpret(task)
    assert [(s.verb, s.target) for s in result] == [expected for (_, expected), _ in parts]


@given(
    st.one_of(
        st.text(),
        st.tuples(
            st.sampled_from(
                [
                    "",
                    "click ",
                    "press ",
                    "type ",
                    "select ",
                    "scroll down ",
                    "drag ",
                    "wait for ",
                    "open ",
                    "fill ",
                    "File > ",
                ]
            ),
            st.text(),
        ).map("".join),
    )
)
def test_any_text_gives_steps_or_task_error(task):
    try:
        result = interpret(task)
    except TaskError:
        return
    assert result and all(isinstance(step, Step) for step in result)


def test_a_capitalised_it_after_a_verb_is_a_name_not_the_pronoun():
    """Found by the joined-clauses property test: "click It" is a button called It."""
    assert [(s.verb, s.target) for s in interpret("click B, and click It")] == [
        ("click", "B"),
        ("click", "It"),
    ]


def test_a_copy_from_a_field_goes_through_the_clipboard_and_a_paste_after_it_too():
    steps = interpret(
        "Copy the text from the 2nd text area below and paste it into the text input, then "
        "press Submit."
    )
    said = [(s.verb, s.target, s.kind, s.nth, s.keys, s.where) for s in steps]
    assert said == [
        ("click", "", "input", 2, (), None),
        ("press", None, None, None, ("ctrl", "a"), None),
        ("press", None, None, None, ("ctrl", "c"), None),
        ("click", "", "input", None, (), "empty"),  # the field waiting for the text
        ("press", None, None, None, ("ctrl", "v"), None),
        ("click", "Submit", None, None, (), None),
    ]
    assert steps[0].clause == "Copy the text from the 2nd text area below"
    found = interpret("find the order number, paste it into Reference")  # no copy: a read value
    assert [s.verb for s in found] == ["find", "type"] and found[1].source == "order number"


def test_a_step_on_the_post_by_someone_acts_in_that_post():
    said = [(s.verb, s.target, s.kind, s.scope) for s in interpret(
        'Click the "Retweet" button on the post by @lacus'
    )]  # fmt: skip
    assert said == [("click", "Retweet", "button", "@lacus")]
    assert interpret("click Like on the comment from Ann")[0].scope == "Ann"
    assert interpret("delete the email from Bob")[0].scope is None  # the email is the target


def test_a_remark_before_so_names_what_the_step_after_it_acts_on():
    task = "The item with the green dot comes from the market, so drag it down to the very bottom"
    assert steps(task) == [S("drag", "item with the green dot", where="position", nth=-1)]


@pytest.mark.parametrize(
    ("task", "read"),
    [
        ("make the word mandatory bold and publish the page",
         [("highlight", "mandatory", None), ("intent", None, "bold"), ("label", "page", "publish")]),
        ("bold the second sentence", [("highlight", "second sentence", None), ("intent", None, "bold")]),
        ("take the sentence about the cat out of the note, then press OK",
         [("delete", "sentence about the cat in the note", None), ("click", "OK", None)]),
        ("its called GlobalProtect, not GlobalConnect", [("change", None, "GlobalProtect")]),
        ("its called GlobalProtect, not GlobalConnect. fix the name in the article and publish "
         "with the summary: client renamed",
         [("change", None, "GlobalProtect"), ("type", "summary", "client renamed"),
          ("label", None, "publish")]),
        ("make 'extension 4400' red", [("highlight", "'extension 4400'", None),
                                       ("click", "red swatch", None)]),
        ("colour the heading Troubleshooting blue",
         [("highlight", "Troubleshooting", None), ("click", "blue swatch", None)]),
        ("the green words shouldnt be coloured, make them normal text like the rest",
         [("highlight", "the green words", None), ("intent", None, "plain")]),
        ("remove the colour from Software Centre",
         [("highlight", "Software Centre", None), ("intent", None, "plain")]),
        ("change the colour of 'Troubleshooting' to blue",
         [("highlight", "'Troubleshooting'", None), ("click", "blue swatch", None)]),
        ("turn the text 'extension 4400' red",
         [("highlight", "'extension 4400'", None), ("click", "red swatch", None)]),
        ("highlight 'free shipping' in yellow",
         [("highlight", "'free shipping'", None),
          ("click", "yellow highlight swatch", None)]),
        ("add it to the cart", [("click", "Add to cart", None)]),
        ("The sentence about the old client is out of date. Delete it and publish.",
         [("delete", "sentence about the old client", None), ("label", None, "publish")]),
        ("click Save and Apply", [("click", "Save and Apply", None)]),
        ("make the timeout 30 in settings.py", [("set", "timeout", "30")]),
        ("one of the lines is there twice. remove the duplicate and save",
         [("delete", "duplicate", None), ("intent", None, "save")]),
        ("Fix the typo 'recieve' in the notice, then save it as a new file called b.txt",
         [("change", "recieve", "receive"), ("save", None, "b.txt")]),  # a dictionary spells it
        ("fix the spelling of Wendsday", [("change", "Wendsday", "Wednesday")]),
    ],
)  # fmt: skip
def test_formatting_taking_out_corrections_and_faults_are_read_as_meant(task, read):
    """"make X bold" selects X first; "take X out of Y" deletes; "it's called X, not Y"
    corrects Y; a sentence saying what is wrong with a thing is what "it" is next; "make X
    red" selects X and presses the red swatch; colour taken off presses Clear formatting."""
    assert [(s.verb, s.target, s.text) for s in interpret(task)] == read


def test_a_name_said_to_be_wrong_is_corrected_everywhere():
    """ "it's called X, not Y": every Y in the text, not the first one alone."""
    (step,) = interpret("its called GlobalProtect, not GlobalConnect")
    assert (step.old, step.text, step.every) == ("GlobalConnect", "GlobalProtect", True)
