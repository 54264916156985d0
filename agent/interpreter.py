"""The offline planner: an imperative English task becomes ordered steps, without a model.

Each clause is read first by the lexicon (`agent/reading.py`: intents, forms, changes, dates,
editor edits, arithmetic, places to look through), then by the classic grammar below (click,
type into, choose from, menu paths, keys, scroll, drag, wait). Steps stay in words ("click the
Save button" -> Step("click", target="Save", kind="button")); finding them on the screen, and
settling the spans the grammar could only guess (`Step.soft`), is the actor's job. A clause
neither can read raises TaskError saying which part was understood, pointing at the model
backends.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from typing import NamedTuple

from clickwright.agent import passages, reading
from clickwright.agent.clauses import (
    MASK,
    QUOTED,
    STATEMENT,
    Step,
    Verb,
    clauses,
    known_verbs,
    mask,
    respelled,
    split_at,
    unquote,
)
from clickwright.agent.lexicon import lexicon, words_of
from clickwright.errors import ActionError, TaskError
from clickwright.parsers.colours import palette
from clickwright.types import ElementKind, normalize_key

__all__ = ["SUPPORTED_FORMS", "Step", "Verb", "interpret"]

SUPPORTED_FORMS: tuple[str, ...] = (
    "click the Save button",
    "double-click Report.pdf",
    "right-click Notes.txt",
    "check Remember me",
    "choose Canada from the Country dropdown",
    "open File > Save As",
    "type 'hello' into the search box",
    "Enter the PIN 4821 and confirm",
    "Fill in City with Oslo and Zip with 0150",
    "set the brightness to 40",
    "change draft to final and save",
    "accept the licence",
    "For the user @ana, click Follow",
    "press Ctrl+S",
    "scroll down 5 times",
    "drag Report.pdf to Archive",
    "wait for Saved to appear",
    "click Save, then press Enter",
)
_HINT = (
    "the offline planner understands simple steps such as: "
    + "; ".join(SUPPORTED_FORMS)
    + ". Open-ended tasks need a model backend: --backend openai|anthropic|transformers "
    "(see the README)"
)
_KEY_HINT = (
    "use a single character or a key name such as Enter, Esc, Tab, F5, PageDown, "
    "optionally after modifiers: 'press Ctrl+Shift+T'"
)
# ---- targets, texts, keys and counts ---------------------------------------------------------

_KINDS: tuple[tuple[str, ElementKind], ...] = (
    (r"radio(?:\s+button)?|option", "radio"),
    (r"check\s*box|tick\s*box", "checkbox"),
    (
        r"combo(?:\s*box)?|drop[\s-]?down(?:\s+(?:list|menu|box))?"
        r"|(?:scroll(?:ing|able)?\s+|select\s+)?list(?:\s*box)?",
        "combo",
    ),
    (
        r"(?:input\s+)?(?:text\s*)?(?:field|box)|(?:text\s*)?input|text\s*area"
        r"|textarea",
        "input",
    ),
    (r"button", "button"),
    (r"toggle|switch", "toggle"),
    (r"tab", "tab"),
    (r"menu\s*item", "menuitem"),
    (r"menu", "menu"),
    (r"link", "link"),
    (r"icon", "icon"),
    (r"(?:list\s+)?item", "list_item"),
)
_KIND_WORDS = "|".join(pattern for pattern, _ in _KINDS)
_ARTICLE = re.compile(r"\A(?:the|an?)\s+", re.I)
# A kind word before the name counts before a quote ("the button 'OK'") and for the kinds that
# are never part of a name ("button ONE", "link Eget"), so "Item 3" and "Tab 2" stay names.
_LEADS = r"button|link|check\s*box|radio(?:\s+button)?"
_NAMED = re.compile(
    rf"(?:(?P<lead>{_KIND_WORDS})\s+(?=['\"“‘`])|(?P<lead2>{_LEADS})\s+(?=\S))?(?P<name>.+?)"
    rf"(?:\s+(?P<kind>{_KIND_WORDS}))?",
    re.I | re.S,
)


class Named(NamedTuple):
    name: str
    kind: ElementKind | None
    nth: int | None = None
    every: bool = False


_ORDINAL_WORDS = "first second third fourth fifth sixth seventh eighth ninth tenth".split()
_QUANTIFIED = re.compile(
    r"\A(?:the\s+)?(?:(?P<n>[0-9]+)(?:st|nd|rd|th)|(?P<word>"
    + "|".join(_ORDINAL_WORDS)
    + r"|last))\s+(?P<rest>.+)\Z"
    r"|\A(?:both(?:\s+(?:of\s+)?the)?|all(?:\s+(?:of\s+)?the)?|each(?:\s+of\s+the)?|every)"
    r"\s+(?P<all>.+)\Z",
    re.I | re.S,
)
_MARKED = re.compile(
    r"(?P<colour>[^\W\d_]+(?:\s[^\W\d_]+)?)[-\s](?P<mark>labell?ed|tagged|flagged)\s+(?P<thing>.+)",
    re.I | re.S,
)
"""A thing named by the colour of its mark ("the purple-labelled shot", "red flagged emails")."""
# "the button in the dialog labelled 'Cancel'": the kind before, the name after
_LABELLED = re.compile(
    r"\A(?P<what>.*?)\s*\b(?:labell?ed|named|called|titled|that\s+says|saying|with\s+the\s+"
    r"(?:text|label))\s+(?P<name>.+)\Z",
    re.I | re.S,
)
# 'a "checkbox" widget', 'the "button" element': a kind named in quotes
_QUOTED_KIND = re.compile(
    r"\A(?:an?\s+|the\s+)?(?P<q>['\"“‘`])(?P<kind>[^'\"”’`]+)['\"”’`]\s+"
    r"(?:widget|element|control)s?\Z",
    re.I,
)
_NAMES_TOO = ("menu", "menuitem", "icon", "list_item", "toggle")
"""Kind words that are also what such elements are called ("click the menu": the icon named
menu), so alone they stay names."""
_WHERE = re.compile(r"\s+(?:below|above|here|there|on\s+(?:the\s+)?(?:screen|page))\Z", re.I)


def _kind_of(words: str) -> ElementKind | None:
    """The kind a phrase names on its own ("text field", "buttons"), or None."""
    words = re.sub(r"(?<=\w)(?:es|s)\Z", "", words.strip(), flags=re.I)  # plurals
    return next((k for p, k in _KINDS if re.fullmatch(p, words, re.I)), None)


def _target(words: str, clause: str) -> Named:
    """The element's name and the kind its words imply: "the 'OK' button" -> ("OK", "button");
    a bare kind ("the text field", "the 3rd input", "both text fields") names no text."""
    words = _WHERE.sub("", words.strip())
    nth, every = None, False
    if q := _QUANTIFIED.fullmatch(mask(words)):
        every = q["all"] is not None
        start = q.start("all") if every else q.start("rest")
        if not every:
            nth = (
                int(q["n"])
                if q["n"]
                else (
                    -1
                    if q["word"].lower() == "last"
                    else _ORDINAL_WORDS.index(q["word"].lower()) + 1
                )
            )
        words = words[start:]
    if quoted := _QUOTED_KIND.fullmatch(words):
        words = "input" if quoted["kind"].lower() == "text" else quoted["kind"]  # a text widget
    bare = _ARTICLE.sub("", words, count=1)
    if (kind := _kind_of(bare)) and kind not in _NAMES_TOO:
        return Named("", kind, nth, every)
    if marked := _MARKED.fullmatch(bare):  # "the purple-labelled shot": a mark, not a name
        if palette().name_in(marked["colour"]) is not None:
            mark = {"labelled": "label", "labeled": "label", "tagged": "tag"}.get(
                marked["mark"].lower(), "flag")
            return Named(f"{marked['thing']} with the {marked['colour']} {mark}", None, nth, every)
    if labelled := _LABELLED.fullmatch(mask(bare)):
        what = bare[: labelled.end("what")]
        found = [
            (m.start(), k) for p, k in _KINDS for m in re.finditer(rf"\b(?:{p})\b", what, re.I)
        ]
        kind = min(found)[1] if found else None  # the first kind named: "the button in the box"
        name = bare[labelled.start("name") :].strip()
        return Named(unquote(name) or name, kind, nth, every)
    name, kind = unquote(words), None
    if name is None and (named := _NAMED.fullmatch(bare)):
        inner = unquote(named["name"])
        name = named["name"] if inner is None else inner
        word = named["lead"] or named["lead2"] or named["kind"]
        kind = next((k for p, k in _KINDS if re.fullmatch(p, word, re.I)), None) if word else None
    if not name or not name.strip():
        raise TaskError(f"cannot understand {clause!r}: it names nothing to act on", _HINT)
    return Named(name, kind, nth, every)


def _text(words: str, clause: str) -> str:
    """Text to type or choose: exact inside quotes, trimmed without them."""
    inner = unquote(words.strip())
    text = inner if inner is not None else words.strip()
    if not text:
        raise TaskError(f"cannot understand {clause!r}: the text is empty", _HINT)
    return text


_NUMBERS = {
    "once": 1,
    "twice": 2,
    "thrice": 3,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}
_NUMBER = r"[0-9]+|one|two|three|four|five|six|seven|eight|nine|ten"
_TIMES = rf"(?:{_NUMBER})\s*(?:times?|x)|once|twice|thrice"


def _count(words: str, default: int, clause: str) -> int:
    """A repeat count from "3 times", "twice" or "by 10"; bounded like the Scroll action."""
    if not words:
        return default
    first = re.search(r"[0-9]+|[a-z]+", words.lower())[0]  # type: ignore[index]
    count = int(first) if first.isdigit() else _NUMBERS[first]
    if not 1 <= count <= 50:
        raise TaskError(f"cannot understand {clause!r}: repeat counts go from 1 to 50", _HINT)
    return count


_MODIFIERS = frozenset({"ctrl", "alt", "shift", "win", "command"})


def _key(name: str) -> str | None:
    try:
        return normalize_key(name)
    except ActionError:
        return None


def _keys(words: str, clause: str, must: bool) -> tuple[str, ...] | None:
    """Normalised keys of "Enter", "ctrl-s" or "Ctrl + Shift + T"; None if no key is meant."""
    words = words.strip()
    if key := _key(words):  # "-", "+", "Page Down"
        return (key,)
    head, tail = words, []
    if last := re.fullmatch(r"(.+?)\s*[+-]\s*([+-])", words):  # "Ctrl++", "Ctrl+-"
        head, tail = last[1], [last[2]]
    parts = [*re.split(r"\s*[+-]\s*", head), *tail]
    keys = [_key(part) for part in parts]
    if len(parts) > 1 and all(keys) and _MODIFIERS.issuperset(keys[:-1]):
        return tuple(k for k in keys if k)
    if not (must or keys[0] in _MODIFIERS):
        return None  # "press Submit" is a click
    bad = next((p for p, k in zip(parts, keys, strict=True) if k is None), None)
    problem = f"unknown key {bad!r}" if bad else "a hotkey is modifiers followed by one key"
    raise TaskError(f"cannot understand {clause!r}: {problem}", _KEY_HINT)


# ---- the rules ------------------------------------------------------------------------------


class _Match:
    """A rule's match on the masked clause, with groups read back from the original text."""

    def __init__(self, clause: str, match: re.Match[str]) -> None:
        self.clause, self._match = clause, match

    def __getitem__(self, group: str) -> str:
        """The group's text, or "" when the rule has no such group or it did not take part."""
        if group not in self._match.re.groupindex:
            return ""
        start, end = self._match.span(group)
        return self.clause[start:end] if start >= 0 else ""


Rule = Callable[[_Match], list[Step] | None]  # None: not this rule after all, try the next


def _pointed(verb: Verb) -> Rule:
    """A rule for verbs that act on one named element."""

    def build(m: _Match) -> list[Step]:
        names = split_at(m["target"], re.finditer(r"\s*,\s*(?:and\s+)?", mask(m["target"])))
        said = words_of(m["target"])
        alike = any(lexicon().longest(lexicon().similar_to, said, i) for i in range(len(said)))
        if len(names) > 1 and verb in ("click", "check", "uncheck") and not alike:  # "A, B and C"
            last = re.split(r"\s+and\s+", names.pop(), maxsplit=1)
            return [s for n in [*names, *last] for s in _steps(f"{verb} {n.strip()}")]
        named = _target(m["target"], m.clause)
        if (
            verb in ("check", "uncheck")
            and named.kind == "input"
            and re.search(r"\bbox(?:es)?\b", m["target"], re.I)
        ):
            named = named._replace(kind="checkbox")  # "untick all the boxes": check boxes
        if verb == "uncheck" and named.kind == "input":  # "clear the Search field": no checkbox
            raise TaskError(
                f"cannot understand {m.clause!r}: only checkboxes can be cleared",
                "to replace a field's text, type the new text into it",
            )
        return [Step(verb, m.clause, named.name, named.kind, nth=named.nth, every=named.every)]

    return build


def _with_text(verb: Verb) -> Rule:
    """A rule for typing text (into a field) or choosing an option in a list."""

    def build(m: _Match) -> list[Step]:
        named = _target(m["target"], m.clause) if m["target"] else None
        text = _text(m["text"], m.clause)
        if named is None:
            return [Step(verb, m.clause, text=text)]
        return [Step(verb, m.clause, *named[:2], text, nth=named.nth, every=named.every)]

    return build


def _menu(m: _Match) -> list[Step]:
    """'open File > Save As…' names each entry as shown, less the ellipsis menus often add."""
    path = split_at(m["path"], re.finditer(r"\s*(?:->|→|»|>)\s*", mask(m["path"])))
    parts = [part.strip() if (inner := unquote(part.strip())) is None else inner for part in path]
    parts = [re.sub(r"\s*(?:…|\.\.\.)$", "", part) for part in parts]
    parts[0] = re.sub(r"(?i)\s+menu$", "", parts[0])  # "open the File menu > Export"
    if not all(parts):
        raise TaskError(f"cannot understand {m.clause!r}: a menu entry is empty", _HINT)
    return [Step("open_menu", m.clause, path=tuple(parts))]


def _press(m: _Match) -> list[Step] | None:
    """'press Ctrl+S' and 'press the Enter key' press keys; 'press the Submit button' clicks."""
    if m["the"] and not m["key"]:
        return None
    keys = _keys(m["keys"], m.clause, must=bool(m["key"]))
    if keys is None:
        return None
    return [Step("press", m.clause, keys=keys)] * _count(m["n"], 1, m.clause)


def _scroll(m: _Match) -> list[Step]:
    """Scrolls inside the element named, or the screen as a whole when none is."""
    named = _target(m["target"], m.clause) if m["target"] else Named("", None)
    return [
        Step(
            "scroll",
            m.clause,
            target=named.name or None,
            kind=named.kind,
            direction=m["dir"].lower(),
            amount=0 if m["end"] else _count(m["n"], 3, m.clause),
        )
    ]


def _drag_ends(step: Step) -> Step:
    """Both ends of a drag named as elements ("the 'Card 1' item": Card 1, a list item); a bare
    kind stays a word ("the box" is whatever box is there, not a text box); a part of a text
    ("the last line") stays as said, for the text it is in."""
    if passages.read(step.target or "").unit in passages.WHOLE:
        return step
    source = _target(step.target or "", step.clause)
    dropped = _target(step.destination, step.clause).name or None if step.destination else None
    if not source.name:
        return replace(step, destination=dropped)
    if source.nth is not None and not source.every:  # "the last photo": a place, kept
        return replace(step, destination=dropped)
    return replace(step, target=source.name, kind=source.kind, destination=dropped)


def _two_fields(m: _Match) -> list[Step]:
    """'enter the username "ada" and the password "x"': one text per named field."""
    return [
        Step("type", m.clause, target=m[f].strip(), kind="input", text=_text(m[t], m.clause))
        for f, t in (("f1", "t1"), ("f2", "t2"))
    ]


def _named_field(m: _Match) -> list[Step]:
    """'enter the password "x" into both text fields': the target decides, else the field."""
    if m["target"]:
        return _with_text("type")(m)
    return [Step("type", m.clause, m["field"].strip(), "input", _text(m["text"], m.clause))]


def _use_to(m: _Match) -> list[Step]:
    """'use the textbox to enter "x"' is 'enter "x" into the textbox'."""
    return _steps(f"{m['rest']} into {m['target']}")


_T = r"(?P<target>.+)"
_Q = rf"['\"“‘`]{MASK}*['\"”’`]"
_TYPE_VERB = r"(?:type|enter|write|input|fill\s+in)"
_IN = rf"\s+in\s+(?!(?:the\s+)?(?:{_KIND_WORDS})$)"  # "select Log in button" is a click
_MENU_PATH = r"(?:the\s+)?(?P<path>.*(?:>|→|»).*)"
_RULES: list[tuple[re.Pattern[str], Rule]] = [
    (re.compile(p, re.I | re.S), rule)
    for p, rule in [
        (rf"(?:open|click(?:\s+on)?|go\s+to|navigate\s+to|select|choose)\s+{_MENU_PATH}", _menu),
        (rf"open\s+(?:the\s+)?context\s+menu\s+(?:of|for|on)\s+{_T}", _pointed("right_click")),
        (rf"double[\s-]?click(?:\s+on)?\s+{_T}", _pointed("double_click")),
        (rf"right[\s-]?click(?:\s+on)?\s+{_T}", _pointed("right_click")),
        (
            rf"(?:press|hit|push|tap)\s+(?P<the>the\s+)?(?P<keys>.+?)(?P<key>\s+keys?)?"
            rf"(?:\s+(?P<n>{_TIMES}))?",
            _press,
        ),
        (rf"(?:select|choose|pick)\s+(?P<text>.+)\s+from\s+{_T}", _with_text("select")),
        (rf"(?:select|choose|pick)\s+(?P<text>.+){_IN}{_T}", _with_text("select")),
        (
            rf"{_TYPE_VERB}\s+(?:the\s+|your\s+)?(?P<f1>[^'\"“‘`]+?)\s+(?P<t1>{_Q})\s+and\s+"
            rf"(?:the\s+|your\s+)?(?P<f2>[^'\"“‘`]+?)\s+(?P<t2>{_Q})(?:\s+(?:into|in)\s+.+)?",
            _two_fields,
        ),
        (
            rf"{_TYPE_VERB}\s+(?:the\s+|your\s+)(?P<field>[^'\"“‘`]+?)\s+(?P<text>{_Q})"
            rf"(?:\s+(?:into|in)\s+{_T})?",
            _named_field,
        ),
        (rf"use\s+{_T}\s+to\s+(?P<rest>{_TYPE_VERB}\s+.+)", _use_to),
        (r"fill(?:\s+(?:in|out))?\s+(?P<target>.+?)\s+with\s+(?P<text>.+)", _with_text("type")),
        (
            rf"(?:type|enter|write|input|fill\s+in)\s+(?P<text>.+?)\s+into\s+{_T}",
            _with_text("type"),
        ),
        (rf"(?:type|enter|write|input|fill\s+in)\s+(?P<text>.+?)\s+in\s+{_T}", _with_text("type")),
        (r"(?:type|enter|write|input)\s+(?P<text>.+)", _with_text("type")),
        (r"(?:select|check|tick|click|choose|pick)\s+nothing", lambda m: []),
        (r"(?:navigate|look|browse)\s+(?:through|around|over)\s+.+", lambda m: []),
        (r"(?:turn|switch)\s+(?P<target>.+?)\s+on", _pointed("check")),
        (r"(?:turn|switch)\s+(?P<target>.+?)\s+off", _pointed("uncheck")),
        (
            rf"(?:(?:check|tick|cross|mark)\s+off|check|tick|enable|turn\s+on|switch\s+on)\s+{_T}",
            _pointed("check"),
        ),  # fmt: skip
        (
            rf"(?:uncheck|untick|clear|disable|deselect|turn\s+off|switch\s+off)\s+{_T}",
            _pointed("uncheck"),
        ),
        (
            rf"scroll\s+(?P<dir>up|down|left|right)"
            rf"(?:\s+(?:by\s+)?(?P<n>(?:{_NUMBER})(?:\s*(?:times?|x|clicks?|steps?))?|once|twice|thrice)"
            rf"|\s+(?P<end>all\s+the\s+way))?"
            rf"(?:\s+(?:in|on|inside|within|over)\s+{_T})?",
            _scroll,
        ),
        (
            r"wait\s+for\s+(?P<target>.+?)(?:\s+to\s+(?:appear|show(?:\s+up)?|be\s+(?:shown|visible)))?",
            _pointed("wait_for"),
        ),
        (
            r"wait\s+until\s+(?P<target>.+?)\s+(?:appears|shows(?:\s+up)?|is\s+(?:shown|visible))",
            _pointed("wait_for"),
        ),
        (rf"(?:open|go\s+to|navigate\s+to|switch\s+to)\s+{_T}", _pointed("click")),
        (
            rf"(?:click|tap|hit|push|press|select|choose|pick|expand|collapse"
            rf"|focus(?:\s+(?:on|into|in))?)(?:\s+on)?\s+{_T}",
            _pointed("click"),
        ),
        (_MENU_PATH, _menu),  # a bare "File > Save As"; last, so "type a > b" stays typing
    ]
]


_BY_DOING = re.compile(r".+?\s+by\s+(?P<how>\w+ing\s+.+)", re.I | re.S)
_GERUNDS = {
    "typing": "type",
    "choosing": "choose",
    "entering": "enter",
    "using": "use",
    "moving": "move",
    "closing": "close",
    "saving": "save",
    "writing": "write",
}


_PASSIVE = re.compile(
    r"(?:(?:can|could|would|will)\s+(?:you\s+)?)?(?P<what>.+?)\s+"
    r"(?:(?:needs?|has|have|ought|is|are)\s+to\s+|must\s+|should\s+|can\s+|could\s+|will\s+)?"
    r"(?:be|get|gets)\s+(?P<done>[a-z]+)(?P<rest>(?:\s+(?:out|up|down|off))?(?:\s+.*)?)\??",
    re.I | re.S,
)
_WANTS = re.compile(
    r"(?P<what>.+?)\s+(?:needs?|wants?)\s+(?P<doing>[a-z]+ing)(?P<rest>\s+.*)?", re.I | re.S
)


def _active(clause: str) -> str | None:
    """A request said in the passive, as the step it asks for: "the passport line needs to be
    deleted" is "delete the passport line", "can the second line be removed?", "the red cards
    need archiving". None when the words after "be" are no verb's participle ("the price
    should be 40" states a value)."""
    masked = mask(clause)
    if reading.starts_with_verb(clause):
        return None
    if (m := _PASSIVE.fullmatch(masked)) is not None and (verb := _base(m["done"])):
        rest = clause[m.start("rest") : m.end("rest")].rstrip(" ?")
        return f"{verb} {clause[m.start('what') : m.end('what')]}{rest}"
    if (m := _WANTS.fullmatch(masked)) is not None and (verb := _base(m["doing"])):
        rest = clause[m.start("rest") : m.end("rest")] if m["rest"] else ""
        return f"{verb} {clause[m.start('what') : m.end('what')]}{rest}"
    return None


def _base(form: str) -> str | None:
    """The verb a participle or a gerund is of, when the reader knows that verb: "archived",
    "copied", "starred", "cut" (the lexicon's table), "archiving"."""
    word, lex = form.lower(), lexicon()
    known = known_verbs()  # "archived": the Archive button's verb too
    if word in lex.participles:
        return lex.participles[word]
    if word.endswith("ing"):
        stems = [_stem(word), word[:-3] + "e", word[:-3]]
    elif word.endswith("ed"):
        stems = [word[:-1], word[:-2], word[:-3], word[:-3] + "y"]
    else:
        return None
    return next((s for s in stems if s in known), None)


def _stem(gerund: str) -> str:
    """ "clicking" -> "click", "dragging" -> "drag", "scrolling" -> "scroll"."""
    stem = gerund[:-3]
    doubled = len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] in "bdgmnprt"
    return stem[:-1] if doubled else stem


_COPY, _PASTED = ("ctrl", "c"), ("ctrl", "v")
# "paste it into the textbox" right after a copy: what the clipboard holds, not a value to read
_PASTE = re.compile(
    r"paste\s+(?:it|that|this|them|the\s+text|what\s+(?:you|was)\s+copied)?\s*"
    r"(?:into|in|to|inside)\s+(?P<into>.+)",
    re.I | re.S,
)
_KEY_COMBO = re.compile(
    r"\s*(?:ctrl|control|alt|shift|super|cmd|meta|win)(?:\s*\+\s*[\w-]+)+\s*", re.I
)
"""A clause that is only keys held together ("ctrl+s"): pressed."""
_CASE = re.compile(
    r"\s*\b(?:in\s+)?(?:all\s+)?(?P<case>upper|lower)[\s-]?case(?:\s+letters)?", re.I
)


def _steps(clause: str, after: Step | None = None) -> list[Step]:
    """The steps of one clause: the lexicon's reading when it has a specific one, else the
    first classic rule that accepts it (rule order settles overlaps), else the lexicon's loose
    reading ("Pay the invoice from March"); else TaskError saying what was understood.

    "Close the dialog by clicking X" is the step "click X"; "type 'a' in upper case into B"
    types "A".
    """
    masked = mask(clause)
    if by := _BY_DOING.fullmatch(masked):
        verb, rest = clause[by.start("how") :].split(None, 1)
        return _steps(f"{_GERUNDS.get(verb.lower(), _stem(verb))} {rest}", after)
    if (case := _CASE.search(masked)) and lexicon().rewritten(clause, masked) is None:
        steps = _steps(clause[: case.start()] + clause[case.end() :], after)
        change = str.upper if case["case"].lower() == "upper" else str.lower
        return [replace(s, text=change(s.text)) if s.text else s for s in steps]
    if (active := _active(clause)) is not None:  # "the passport line needs to be deleted"
        return [replace(s, clause=clause) for s in _steps(active, after)]
    if (counted := reading.counted_rows(clause)) is not None:  # "… on all posts by @ana"
        one, rows = counted
        steps = _steps(one, after)
        if any(s.scope for s in steps):
            return [replace(s, clause=clause, rows=rows if s.scope else None) for s in steps]
    core, scope = reading.split_scope(clause)
    if scope is not None:
        return [_scoped(step, clause, scope) for step in _steps(core, after)]
    if core != clause:  # a remark in brackets: "click Save (at the bottom)"
        return [replace(step, clause=clause) for step in _steps(core, after)]
    if (plain := lexicon().rewritten(clause, masked)) is not None:  # "leave X alone": keep X
        if not plain:  # "leave the server as it is": nothing to do
            return []
        steps: list[Step] = []  # an idiom may mean several steps ("copy the text in X")
        for piece in clauses(plain):
            steps += [
                replace(s, clause=clause) for s in _steps(piece, steps[-1] if steps else after)
            ]
        return steps
    if after is not None and after.keys == _COPY and (paste := _PASTE.fullmatch(masked)):
        into = _steps(f"click {clause[paste.start('into') :]}", after)
        into = [replace(s, clause=clause, where=s.where or "empty") for s in into]
        return [*into, Step("press", clause, keys=_PASTED)]
    if _KEY_COMBO.fullmatch(masked):  # "…, then ctrl+s"
        return _classic(f"press {clause}", after)
    if (read := reading.parse(clause, after=after)) is not None:
        return [_drag_ends(s) if s.verb == "drag" else s for s in read]
    try:
        return _classic(clause, after)
    except TaskError as refused:
        if str(refused.args[0]).startswith(f"cannot understand {clause!r}:"):
            raise  # a rule took the clause and found it wrong ("type '' into Name")
        if (read := reading.parse(clause, loose=True, after=after)) is not None:
            return read
        if after is not None and after.verb == "press":  # "press 9, then *, then ="
            try:
                if (keys := _classic(f"press {clause}", after))[0].verb == "press":
                    return keys
            except TaskError:
                pass
        if not reading.starts_with_verb(clause) and reading.names_values(clause):
            return [Step("form", clause, target=clause, text="", soft=True)]  # "Name Kim, age 41"
        if not re.search(r"[^\W\d_]", clause) or reading.lone_verb(clause):
            raise TaskError(
                f"cannot understand {clause!r}: {reading.understood(clause)}", _HINT
            ) from None
        return [Step("unread", clause, target=clause)]  # read on the screen when its turn comes


def unreadable(clause: str, why: str) -> TaskError:
    """The error for a clause neither the grammar nor the screen could read."""
    return TaskError(f"cannot understand {clause!r}: {reading.understood(clause)}; {why}", _HINT)


def _scoped(step: Step, clause: str, scope: str) -> Step:
    """A step of the clause's core, acting in `scope`; "find X in the tabs" looks there."""
    if step.verb == "find" and step.where is None:
        return replace(step, clause=clause, where=reading.place(scope))
    return replace(step, clause=clause, scope=step.scope or scope)


def _classic(clause: str, after: Step | None) -> list[Step]:
    """The first classic rule's steps; a lone step whose words are unquoted is `soft` (its
    spans are settled on the screen), and "it" is what the clause before named."""
    masked = mask(clause)
    for pattern, rule in _RULES:
        if (m := pattern.fullmatch(masked)) and (steps := rule(_Match(clause, m))) is not None:
            if len(steps) == 1:
                steps = [_settled_words(steps[0], after, soft=not QUOTED.search(clause))]
            return steps
    raise TaskError(f"cannot understand {clause!r}", _HINT)


_SOFT_VERBS = ("type", "click", "check", "uncheck", "select", "double_click", "right_click")


def _settled_words(step: Step, after: Step | None, soft: bool) -> Step:
    if (
        step.target
        and after is not None
        and after.target
        and reading.is_pronoun(step.target)
        and not step.target[:1].isupper()  # "click It": a button's name, not "it"
    ):
        step = replace(step, target=after.target)
    value = reading.named_value(step.text or "") if step.target else None
    if soft and step.verb == "type" and value:
        step = replace(step, text=value)  # a field named apart: "the PIN" only says what it is
    elif (
        soft
        and step.verb == "type"
        and step.text
        and (source := reading.value_source(step.text, after))
    ):
        step = replace(step, text=None, source=source)
    return replace(step, soft=soft and step.verb in _SOFT_VERBS)


def interpret(task: str) -> list[Step]:
    """The ordered steps of `task`, or TaskError naming the first clause it cannot read.

    A form sentence ("Sign up Ada …") is submitted at the end of the task, through the button
    its verb names, unless a later clause presses a button itself."""
    if not task.strip():
        raise TaskError("the task is empty", _HINT)
    pieces = clauses(respelled(task))
    if not pieces:
        raise TaskError(f"cannot understand {task.strip()!r}", _HINT)
    steps: list[Step] = []
    for index, clause in enumerate(pieces):
        read = [_in_a_cell(s) for s in _steps(clause, steps[-1] if steps else None)]
        if index and STATEMENT.match(clause) and all(_unsure(s) for s in read):
            read = [Step("unread", clause, target=clause, where="remark")]  # "I'm sure"
        steps += read
    if not steps:
        raise TaskError(f"{task.strip()!r} asks for nothing to be done", _HINT)
    steps = [s for i, s in enumerate(steps) if not _answered_by_next(s, steps[i + 1 :])
             and not _taken_by_next(s, steps[i + 1 : i + 2])]  # fmt: skip
    steps = [_confirming(s, steps[i - 1]) if i else s for i, s in enumerate(steps)]
    steps = [_referring(s, steps[i - 1]) if i else s for i, s in enumerate(steps)]
    steps = [_owned_by(s, steps[i - 1]) if i else s for i, s in enumerate(steps)]
    steps = [_same_for(s, steps[i - 1]) if i else s for i, s in enumerate(steps)]
    steps = [_put_there(s, steps[i - 1]) if i else s for i, s in enumerate(steps)]
    steps = [s for i, s in enumerate(steps) if not _said_of_the_next(s, steps[i + 1 : i + 2])
             and not _chooses_for_the_next(s, steps[i + 1 : i + 2])
             and not (i and _said_twice(s, steps[i - 1]))]  # fmt: skip
    for index, step in enumerate(list(steps)):
        if (
            step.verb == "form"
            and step.text
            and not any(
                s.verb in _SUBMITS
                and (s.verb != "form" or s.text)
                and (s.verb != "intent" or s.text in _SUBMITTING_INTENTS)
                and (s.verb != "unread" or s.where != "remark")
                for s in steps[index + 1 :]
            )
        ):
            steps.append(Step("label", step.clause, text=step.text))
    return steps


def _put_there(step: Step, before: Step) -> Step:
    """ "the purple card is finished, put it in Done": a thing the clause before named, put
    somewhere, is dragged there (a value it named would be typed)."""
    said = step.source or step.text or ""
    if step.verb != "type" or not before.target or words_of(step.clause)[:1] != ["put"]:
        return step  # "paste it into Email" types what was copied
    if not reading.is_pronoun(said) and said != before.target:  # "it", or what it stood for
        return step
    things = {f"{n}{s}" for n in lexicon().thing_nouns for s in ("", "s")}
    if not set(words_of(before.target)) & things:
        return step
    return Step("drag", step.clause, target=before.target, destination=step.target, soft=True)


def _said_twice(step: Step, before: Step) -> bool:
    """`step` repeats `before` in other words: a delete said first as a wish, or one intent's
    button named twice ("the green words shouldn't be coloured, make them normal text")."""
    again = step.verb == before.verb == "intent" and step.text == before.text and not step.target
    return again or _deletes_it_again(step, before)


def _deletes_it_again(step: Step, before: Step) -> bool:
    """ "that DRAFT line has to go, delete it": the deleting was said twice, once as a wish; a
    Delete press for "it" would take a character more."""
    said = words_of(step.clause)
    return (
        before.verb == "delete"
        and bool(before.target)
        and len(said) == 2
        and lexicon().verb_at("delete", said) == 1
        and reading.is_pronoun(said[1])
    )


def _said_of_the_next(step: Step, rest: list[Step]) -> bool:
    """ "the purple card is finished, put it in Done", "the orange ones are receipts, drag them
    into Receipts": a state said with no verb of its own names what the next step moves; it
    is no box to tick, nor a move of its own."""
    return (
        step.verb in ("check", "uncheck", "unread")
        and not reading.starts_with_verb(step.clause)
        and bool(rest)
        and rest[0].verb == "drag"
        and rest[0].target == _subject(step)
    )


def _chooser(step: Step) -> str | None:
    """ "whoever owes us the most": the words of a clause that only chooses whom the next one
    acts on."""
    said = words_of(step.clause)
    chooses = step.verb == "unread" and bool(said) and said[0] in lexicon().choosers
    return step.target if chooses else None


def _chooses_for_the_next(step: Step, rest: list[Step]) -> bool:
    """Whether `step` only chose the row the next step acts in (its scope now)."""
    chooser = _chooser(step)
    return chooser is not None and bool(rest) and rest[0].scope == chooser


_OWNER = re.compile(r"(?:all (?:of )?)?(?P<who>\w+?)(?:'s|’s|s)(?: ones?)?", re.I)


def _same_for(step: Step, before: Step) -> Step:
    """ "accept all of daniel's suggestions and reject priya's": the second verb is said for
    every one of the same things by its owner too, pressed on each."""
    said = words_of(step.clause)
    owner = _OWNER.fullmatch(step.target or "")
    if before.rows is None or not before.scope or owner is None or step.verb != "intent":
        return step
    if not said or said[0] not in lexicon().row_verbs:
        return step
    return Step("click", step.clause, target=said[0], scope=owner["who"], rows=before.rows,
                soft=True)  # fmt: skip


def _owned_by(step: Step, before: Step) -> Step:
    """ "whoever owes us the most, raise their credit limit": the row the clause before chose
    is where "their" credit limit is."""
    chooser = _chooser(before)
    owned = set(words_of(step.clause)) & {"their", "his", "her", "its", "them", "him"}
    return replace(step, scope=chooser) if chooser and owned and not step.scope else step


def _referring(step: Step, before: Step) -> Step:
    """ "the orange ones are receipts, drag them into Receipts": "them" is what the state was
    said of, not the whole statement."""
    if before.verb != "unread" or not step.target or (subject := _subject(before)) == before.target:
        return step
    if reading.is_pronoun(step.target) or step.target == before.target:
        return replace(step, target=subject)
    return step


_COPULA = re.compile(r"(.+?)\s+(?:is|are|was|were|'s|'re)\s+\S", re.I)


def _subject(step: Step) -> str:
    """What a pronoun after `step` stands for: its target; of a state said with no verb ("the
    orange ones are receipts"), what the state is said of."""
    target = step.target or ""
    if step.verb == "unread" and (said := _COPULA.match(target)) is not None:
        return said[1]
    return target


def _unsure(step: Step) -> bool:
    """A step only the screen can tell the meaning of: words neither grammar read, or names
    and values with no verb."""
    return step.verb == "unread" or step.verb == "form" and step.soft and not step.text


def _confirming(step: Step, before: Step) -> Step:
    """ "refund order 1083, yes I'm sure": a bare yes after an act confirms that act, so its
    button is the one that names it ("Refund €58.20", not "Don't refund")."""
    if step.verb != "intent" or step.text != "affirm" or step.target:
        return step
    if not set(words_of(step.clause)) <= _ANSWERS | {"i'm", "i", "am", "sure", "do", "it"}:
        return step  # "… and confirm": the dialog's own yes, whatever the act was
    verb = words_of(before.clause)[:1]
    if before.verb in ("press", "type", "intent", "lines", "insert") or not verb:
        return step
    return replace(step, target=verb[0])


_CELL = re.compile(r"(?:(?:the\s+)?cell\s+)?([A-Z]{1,3}[1-9]\d{0,6})")


def _in_a_cell(step: Step) -> Step:
    """ "put 7 in cell B3", "set B2 to 5": a spreadsheet cell, named by its reference."""
    if step.verb not in ("type", "set") or not step.target:
        return step
    if (m := _CELL.fullmatch(step.target.strip())) is None:
        return step
    return replace(step, target=m[1], kind="cell", soft=False)


def _answered_by_next(step: Step, rest: list[Step]) -> bool:
    """ "yes, delete them", "OK, accept the cookies": a bare yes or no before the step that
    says what it answers is that step."""
    bare = step.verb == "intent" and step.text in ("affirm", "decline")
    answer = set(words_of(step.clause)) <= _ANSWERS
    return bare and answer and bool(rest) and rest[0].verb in ("intent", "label", "delete", "click")


def _taken_by_next(step: Step, rest: list[Step]) -> bool:
    """ "select the two DEBUG lines and delete them": the selecting is the deleting's (which
    selects what it deletes where it has to)."""
    return bool(rest) and rest[0].verb in ("delete", "cut", "copy") and bool(rest[0].target) \
        and rest[0].target == reading.selected("it", step)  # fmt: skip


_ANSWERS = frozenset({"yes", "no", "ok", "okay", "sure", "yep", "yeah", "nope", "nah", "please",
                      "fine", "alright", "right"})  # fmt: skip


_SUBMITS = ("click", "double_click", "press", "intent", "label", "save", "close", "form", "unread")
"""Steps after a form sentence that may send it: then no button named by its verb is added
("…, skip the invites and create it": "create it" is read on the screen, and presses Create)."""
_SUBMITTING_INTENTS = frozenset({"affirm", "submit", "save", "next", "checkout"})
"""Intents whose button sends a form on ("keep me signed in" after a login keeps a box)."""
