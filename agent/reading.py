"""Reading one clause with the lexicon: its verb picks an action, the verb's frames cut the
rest into roles (what, value, old, new, name, folder, places, …), and the result is a Step — the
small intermediate form (action, target, value, scope, constraints) the actor settles against
the screen.

This module reads without a screen (so a task can be refused before any display opens);
`agent/settle.py` reads the same words again against the screen when the step's turn comes.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace

from clickwright.agent import codes, passages
from clickwright.agent.clauses import MASK, QUOTED, Step, mask, unquote
from clickwright.agent.lexicon import Frame, Lexicon, lexicon, words_of
from clickwright.errors import ActionError
from clickwright.parsers.colours import palette
from clickwright.types import normalize_key

__all__ = [
    "Token",
    "names_values",
    "starts_with_verb",
    "is_pronoun",
    "lone_verb",
    "named_value",
    "parse",
    "place",
    "split_scope",
    "tokens",
    "counted_rows",
    "understood",
    "value_source",
    "words_text",
]


@dataclass(frozen=True)
class Token:
    """A word (or one quoted span, or a punctuation mark) of a clause, with where it is."""

    text: str  # as written; a quoted span's inside
    word: str  # lower case, for matching; a quoted span never matches a literal
    start: int
    end: int
    quoted: bool = False


_TOKEN = re.compile(
    r"(?:[^\s,;:!?()\"“”`]|(?<=\d)[:,](?=\d))+(?:[!?]+(?=[\s,;]|$))?|[,;:!?()]", re.U
)


def tokens(clause: str) -> list[Token]:
    """The clause's tokens: quoted spans whole, words, and the punctuation between them."""
    masked = mask(clause)
    found: list[Token] = []
    position = 0
    for quoted in [*QUOTED.finditer(masked), None]:
        end = quoted.start() if quoted else len(clause)
        for m in _TOKEN.finditer(masked, position, end):
            text = clause[m.start() : m.end()]
            word = text.lower().replace("’", "'").rstrip(".")
            found.append(Token(text, word or text, m.start(), m.end()))
        if quoted:
            found.append(Token(clause[quoted.start() + 1 : quoted.end() - 1], MASK,
                               quoted.start(), quoted.end(), quoted=True))  # fmt: skip
            position = quoted.end()
    return found


def words_text(clause: str, toks: Sequence[Token], start: int, end: int) -> str:
    """The original text of tokens start..end: a lone quoted span's exact inside, else the
    words as written with the determiners at the front dropped."""
    toks = list(toks[start:end])
    if len(toks) == 1 and toks[0].quoted:
        return toks[0].text
    determiners = lexicon().determiners
    while len(toks) > 1 and toks[0].word in determiners:
        toks.pop(0)
    if not toks:
        return ""
    return clause[toks[0].start : toks[-1].end].strip(" ,;")


# ---- the screen-free reading ---------------------------------------------------------------------

# Actions the classic grammar (agent/interpreter.py) also reads; their frames without literal
# words ("select {value}") are left to it, and its steps come back `soft`.
CLASSIC = frozenset({"type", "choose", "set", "find", "look", "label", "delete"})
_PRIORITY = ("order", "comment", "lines", "insert", "change", "save", "close", "compute", "convert", "sort",
             "until", "find", "copy", "clip", "paste", "swap", "set", "type", "choose", "drag",
             "highlight", "form", "delete", "intent", "label", "look")  # fmt: skip


@dataclass(frozen=True)
class _Candidate:
    action: str
    frame: Frame | None
    slots: dict[str, tuple[int, int]]
    verb_words: int

    def rank(self) -> tuple[int, int, int]:
        literals = self.frame.literals if self.frame else 0
        return (-literals, _PRIORITY.index(self.action), -self.verb_words)


def parse(clause: str, loose: bool = False, after: Step | None = None) -> list[Step] | None:
    """The steps of `clause` by the lexicon, or None when it leaves the clause to the classic
    grammar (or cannot read it). `loose` also takes the bare frames of classic verbs ("Pay the
    invoice", "check the summary"); `after` is the previous step, for pronouns ("turn it
    on")."""
    toks = tokens(clause)
    start = _skip_fillers(toks)
    words = [t.word for t in toks]
    lex = lexicon()
    if (keys := lex.key_phrases.get(" ".join(words[start:]))) is not None:
        return [Step("press", clause, keys=keys)]  # "select all", "undo that"
    if m := _FILL_A_FORM.match(clause[toks[start].start :] if start < len(toks) else ""):
        rest = clause[toks[start].start + m.end() :]
        return [Step("form", clause, target=rest, text="")] if rest.strip() else None
    if (purpose := _purpose(clause, toks, start)) is not None:
        return parse(purpose, loose, after)  # "use Search > Replace to change red to green"
    if not starts_with_verb(clause) and (sum_ := arithmetic(clause, toks, start, "")):
        return [Step("compute", clause, text=sum_)]  # "square root of 81", "23*19"
    for candidate in sorted(_candidates(words, start), key=_Candidate.rank):
        literals = candidate.frame.literals if candidate.frame else 0
        if candidate.action in CLASSIC and not literals and not loose:
            continue
        if (steps := _build(clause, toks, start, candidate, after)) is not None:
            return steps
    if start < len(words) and start + _lone_verb(words, start) == len(words):
        verb = clause[toks[start].start :]
        return [Step("label", clause, text=verb)]  # "…, and book": the button that books
    return None


_FILL_A_FORM = re.compile(
    r"(?:fill|complete)\s+(?:in|out)?\s*(?:the|this|my)?\s*(?:[\w-]+\s+){0,2}form\s*(?:[:,]|with)\s*",
    re.I,
)
"""The words that open a form sentence ("Fill in the contact form: name …")."""


def _purpose(clause: str, toks: Sequence[Token], start: int) -> str | None:
    """What "use <tool> to <step>" asks for: the step, when its words read as one."""
    lex = lexicon()
    words = [t.word for t in toks]
    if not lex.longest(lex.means, words, start):
        return None
    for i in range(start + 1, len(toks) - 1):
        if toks[i].word == "to" and starts_with_verb(clause[toks[i + 1].start :]):
            return clause[toks[i + 1].start :]
    return None


def starts_with_verb(clause: str) -> bool:
    """Whether the clause (past its fillers) starts with a verb or an intent the lexicon
    knows; one that does not names fields and values, or is a remark."""
    lex = lexicon()
    toks = tokens(clause)
    start = _skip_fillers(toks)
    words = [t.word for t in toks]
    return any(lex.verb_at(a, words, start) for a in lex.verbs) or bool(lex.intent_at(words, start))


def _lone_verb(words: Sequence[str], start: int) -> int:
    lex = lexicon()
    return max(lex.verb_at("form", words, start), lex.verb_at("label", words, start))


def lone_verb(clause: str) -> bool:
    """Whether the clause is a verb the lexicon knows and nothing else ("click", "set"): no
    screen can say what it acts on."""
    lex = lexicon()
    toks = tokens(clause)
    start = _skip_fillers(toks)
    words = [t.word for t in toks]
    n = max((lex.verb_at(a, words, start) for a in lex.verbs), default=0)
    return bool(n) and start + n == len(words)


_APPOSITION = re.compile(
    r"\b(?:both|all|the|these|those|my|our|your|two|three|four)(?: [\w.'-]+){1,3} \("
    r"(?:i\.?e\.?,? |namely |that is,? )?"
    r"(?P<what>(?:the|all|both|these|those|my) [^()]+)\)(?=\s*\S)",
    re.I,
)
"""A thing named again in brackets, more exactly, before the clause goes on: the bracket's
words name it."""


def split_scope(clause: str) -> tuple[str, str | None]:
    """The clause without the place it acts in, and that place: a leading one to the first
    comma ("For the user @ana, click Follow") or a trailing one that names a kind of place
    ("… on the Windows tab", "… in the settings")."""
    lex = lexicon()
    if said := _APPOSITION.search(clause):  # "both photos (the .jpg files) …": the .jpg files
        return clause[: said.start()] + said["what"] + clause[said.end() :], None
    m = re.fullmatch(r"(.+?)\s*(?<!\w)\(([^()]*[^\W\d_][^()]*)\)\s*", clause)  # "… (settings, a tab)"
    if m is not None:
        inside = [p.strip() for p in m[2].split(",") if p.strip()]
        places = [p for p in inside if place(re.sub(r"^(?:in|on|under)\s+(?:the\s+)?", "", p))]
        if places:
            return m[1], re.sub(r"^(?:in|on|under)\s+(?:the\s+)?", "", places[-1])
        return m[1], None  # a remark in brackets ("at the bottom") is no part of a name
    toks = tokens(clause)
    instead = next((i for i, t in enumerate(toks) if t.word == "instead" and not t.quoted), 0)
    if instead > 1 and (instead == len(toks) - 1 or toks[instead + 1].word == "of"):
        kept = [t for t in toks[:instead] if t.word != ","]  # "call it X instead (of Y)"
        return clause[: kept[-1].end], None
    if len(toks) > 2 and toks[0].word in lex.scope_openers:
        comma = next((i for i, t in enumerate(toks) if t.word == ","), None)
        if comma is not None and 1 < comma < len(toks) - 1:
            return clause[toks[comma + 1].start :], words_text(clause, toks, 1, comma) or None
    for i in range(2, len(toks) - 3):  # "… on the post by @ana": in the post showing @ana
        thing, by = toks[i + 1 : i + 3] if toks[i].word in lex.determiners else toks[i : i + 2]
        if (
            toks[i - 1].word in ("on", "in", "for", "of", "under")
            and not toks[i - 1].quoted
            and thing.word.removesuffix("s") in lex.owned_things
            and by.word in ("by", "from", "of", "for")
            and by.end < len(clause)
        ):
            return clause[: toks[i - 2].end], clause[by.end :].strip()
    places = set().union(*(v for k, v in lex.places.items() if k != "list"))
    for i in range(len(toks) - 2, 1, -1):
        if toks[i].word in ("in", "on", "inside", "within", "under"):
            rest = {t.word.removesuffix("'s") for t in toks[i + 1 :]}
            if rest & places:
                return clause[: toks[i - 1].end], words_text(clause, toks, i + 1, len(toks))
            break
    return clause, None


def counted_rows(clause: str) -> tuple[str, int] | None:
    """A step said for several rows or cards ("click Share on all posts by @ana", "… on 2
    posts by @dis"): the clause said for one of them, and how many (0: every one)."""
    lex = lexicon()
    toks = tokens(clause)
    for i in range(1, len(toks) - 3):
        said, after = toks[i], i + 1
        count = 0 if said.word in ("all", "every", "each") else 2 if said.word == "both" else None
        if count is None and (n := lex.number(said.word)) is not None and n == int(n) and n > 0:
            count = int(n)
        if count is None or said.quoted:
            continue
        while after < len(toks) - 2 and toks[after].word in ("of", "the", "one"):
            after += 1
        thing, by = toks[after], toks[after + 1]
        if (
            toks[i - 1].word in ("on", "in", "for", "of", "under")
            and thing.word.removesuffix("s") in lex.owned_things
            and by.word in ("by", "from", "of", "for")
        ):
            one = f"{clause[: said.start]}the {thing.text.removesuffix('s')}{clause[thing.end :]}"
            return one, count
    return None


def _skip_fillers(toks: Sequence[Token]) -> int:
    """Where the clause's words start past "please", "then", "first" ("first name" is a
    field's name, not a filler)."""
    lex = lexicon()
    words = [t.word for t in toks]
    start = 0
    while start < len(words) and (n := lex.longest(lex.fillers, words, start)):
        if lex.ordinal(words[start]) and start + n < len(words) and words[start + n] in NOUNS:
            break
        start += n
    return start


NOUNS = frozenset({"name", "line", "page", "field", "one", "item", "row", "tab", "word"})
"""Words after "first" or "next" that make it part of a name ("first name", "next page")."""


def names_values(clause: str) -> bool:
    """Whether a clause without a verb gives fields their values ("Name Kim, age 41", "Street:
    12 High St", "no product updates"), rather than saying nothing a screen could settle."""
    lex = lexicon()
    words = clause.split()
    if len(words) < 2:
        return False
    if lex.longest(lex.negations, [w.lower() for w in words], 0):
        return True  # "no product updates"
    if lex.number(words[0].lower()) is not None and words[1][:1].isalpha():
        return True  # "two adults and three children"
    if words[0].lower() in _SUBJECTS and words[1].lower() in _STATES:
        return True  # "It was fair", "I won't come back": answers a form's questions
    if words[1].lower() in lex.determiners | _NOT_A_LABEL:
        return False  # "summon me a flight", "wait until Loading disappears": a verb unknown
    head = words[1:4]
    return ":" in words[0] or any(
        w[:1].isupper() or w[:1].isdigit() or lex.value_kind(w.strip(",;")) for w in head
    )  # "Name Kim", "Street: 12 High St", "age 41", "email kim@berg.no"


_SUBJECTS = frozenset({"it", "i", "we", "this", "that", "everything", "all"})
_STATES = frozenset({"was", "is", "were", "are", "am", "would", "will", "won't", "wont",
                     "wouldn't", "did", "didn't", "do", "don't", "liked", "loved",
                     "had"})  # fmt: skip
_NOT_A_LABEL = frozenset(
    {"me", "us", "you", "him", "her", "them", "it", "until", "till", "to", "for", "with",
     "about", "up", "down", "out", "on", "off", "in"}
)  # fmt: skip


def _candidates(words: Sequence[str], start: int) -> list[_Candidate]:
    lex = lexicon()
    found = []
    for action in _PRIORITY:
        if action == "intent":
            if hit := lex.intent_at(words, start):
                found.append(_Candidate("intent", None, {"topic": (start + hit[1], len(words))},
                                        hit[1]))  # fmt: skip
            continue
        n = lex.verb_at(action, words, start)
        if not n:
            continue
        for frame in lex.frames[action]:
            slots = frame.match(words[start + n :])
            if slots is not None:
                shifted = {k: (a + start + n, b + start + n) for k, (a, b) in slots.items()}
                found.append(_Candidate(action, frame, shifted, n))
    return found


def _build(
    clause: str, toks: list[Token], start: int, c: _Candidate, after: Step | None
) -> list[Step] | None:
    """The step(s) one reading gives, or None when its slots do not hold what it needs: a
    quoted span is a value whole, never a part of one (but a form's fields hold values among
    their labels), and a slot holds more than "the"."""
    lex = lexicon()
    said = c  # a drag's ends keep their kinds ("the 'Card 1' item")
    c = replace(c, slots={k: _quoted_name(toks, a, b) for k, (a, b) in c.slots.items()})
    for name, (a, b) in c.slots.items():
        if (
            b - a > 1
            and any(t.quoted for t in toks[a:b])
            and name != "fields"
            and c.action != "highlight"  # "the paragraph that starts with 'To install'"
            and not any(t.word in passages.UNITS for t in toks[a:b])
        ):  # "the 'milk' line" names a part of a text
            return None
        if (
            name not in ("what", "topic")
            and b > a
            and all(t.word in lex.determiners for t in toks[a:b])
        ):
            return None  # "check the As checkbox": "the" is no value ("save this" is fine)

    def slot(name: str) -> str:
        if name not in c.slots:
            return ""
        a, b = c.slots[name]
        return words_text(clause, toks, a, b)

    verb = clause[toks[start].start : toks[start + c.verb_words - 1].end]
    literal_words = set(c.frame.text.split()) if c.frame else set()
    every = bool(literal_words & {"every|all|each", "everywhere|throughout"})
    every = every or any(t.word in ("everywhere", "throughout") for t in toks)
    match c.action:
        case "intent":
            intent = lex.intent_at([t.word for t in toks], start)
            assert intent is not None
            topic = slot("topic") or None
            if topic and (is_pronoun(topic) or topic.lower() in lex.determiners):
                topic = None  # "skip this", "allow it": what the question is about
            return [Step("intent", clause, target=topic, text=intent[0].name)]
        case "form":
            fields = slot("fields")
            if not _gives_values(fields):
                return None  # "Register the customer" gives no field a value
            quiet = lex.longest(lex.quiet_forms, verb.lower().split(), 0)
            return [Step("form", clause, target=fields, text="" if quiet else verb.lower())]
        case "change":
            new = re.sub(r"\s+(?:everywhere|throughout)$", "", slot("new"), flags=re.I)
            if not new:
                return None
            what, old = slot("what") or None, slot("old") or None
            if what and is_pronoun(what) and after is not None and after.target:
                what = after.target
            nth = lex.ordinal(slot("nth")) if "nth" in c.slots else None
            if "nth" in c.slots and nth is None:
                nth = int(slot("nth")) if slot("nth").isdigit() else None
                if nth is None:
                    return None
            return [Step("change", clause, target=what, old=old, text=new, every=every, nth=nth)]
        case "set" | "choose":
            what, value = slot("what"), slot("value")
            if not value:
                return None
            if not what:  # "choose Premium": a click on the option
                return [Step("click", clause, target=value, soft=True)]
            by = None
            if "by" in literal_words:  # "turn the heat up by 2": from the value shown now
                down = "up|down" in literal_words and toks[c.slots["what"][1]].word == "down"
                lowering = lex.longest(lex.lowering, [t.word for t in toks], start) > 0
                by = "down" if down or (lowering and "up|down" not in literal_words) else "up"
            target = _referent(_strip_kind(what), after)  # "the brightness slider": Brightness
            return [Step("set", clause, target=target, text=value, where=by)]
        case "type" if "value2" in c.slots:  # "use Ana as first name and Lima as surname"
            pairs = ((slot("value"), slot("what")), (slot("value2"), slot("what2")))
            if any(t.word in ("in", "into") for t in toks) and not all(
                _CELL_NAME.fullmatch(w) for _, w in pairs
            ):
                return None  # "type X into Y and …": the classic grammar's, but for cells
            return [Step("type", clause, target=w, text=v, kind="input") for v, w in pairs]
        case "type":
            what, value = slot("what"), slot("value")
            if not value or "into" in value.lower().split():
                return None  # "type X into the As field": the classic grammar's
            source = value_source(value, after)
            in_frame = c.frame is not None and c.frame.parts[1:2] == (("in",),)
            if in_frame and not source and not _CELL_NAME.fullmatch(what):
                return None
            step = Step(
                "type",
                clause,
                target=what or None,
                text=None if source else value,
                source=source,
                kind="input" if what else None,
                soft=not what,
            )
            return [step]  # fmt: skip
        case "copy" if (
            toks[c.slots["what"][0] - 1].word == "in"
            and words_of(slot("what"))[-1:] in ([w] for w in _REGIONS)
        ):
            return None  # "copy the email address in the footer": where it is, not where to
        case "copy":  # "paste it into Notes": what the step before named
            source = value_source(slot("value"), after) or slot("value")
            return [Step("type", clause, target=slot("what"), kind="input", source=source)]
        case "swap":
            first, second = _pair(slot("what"), slot("other"))
            return [Step("swap", clause, target=first, destination=second or None)]
        case "clip":
            a, b = c.slots["what"]
            lone = b - a == 1 and toks[a].quoted  # "copy the phrase 'free shipping'": exactly
            what = (f'"{slot("what")}"' if lone else None) or selected(slot("what"), after) or (
                _referent(slot("what"), after))  # fmt: skip
            taken = Step("cut" if verb.lower() == "cut" else "copy", clause, target=what)
            if verb.lower() == "duplicate":
                return [taken, Step("paste", clause, target=what, where="after")]
            if where := _pasted_at(toks, c):  # "copy the first line to the end"
                return [taken, Step("paste", clause, target=slot("anchor") or None, where=where)]
            return [taken]
        case "paste":
            return [Step("paste", clause, target=slot("anchor") or None,
                         where=_pasted_at(toks, c))]  # fmt: skip
        case "find":
            target, places = slot("target"), slot("places")
            kind = place(places) if places else None
            if places and kind is None:
                return None
            if lex.longest(lex.scrolling, verb.lower().split(), 0):
                if not literal_words & {"until|till", "to"}:
                    return None  # "scroll down by 10 in the list" is a scroll
                kind = kind or "list"  # "scroll down until you see Terms"
            return [Step("find", clause, target=_strip_kind(target), where=kind)]
        case "sort":
            return [Step("click", clause, target=slot("key"), kind="button")]
        case "convert":
            amount = slot("amount")
            if not any(ch.isdigit() for ch in amount):
                return None  # "how many people are there"
            return [Step("compute", clause, text=f"{amount} to {slot('unit')}")]
        case "until":
            button = slot("button")
            return [Step("find", clause, target=_strip_kind(slot("target")), where="button",
                         text=button)]  # fmt: skip
        case "save":
            keys = slot("keys")
            if keys and not all(_is_key(k) for k in _key_list(keys)):
                return None  # "save with OK": no keys
            name, folder = slot("name") or None, _strip_folder(slot("folder")) or None
            return [Step("save", clause, text=name, destination=folder,
                         keys=tuple(_key_list(keys)) if keys else ())]  # fmt: skip
        case "close":
            without = "without saving" in c.frame.text if c.frame else False
            return [Step("close", clause, target=slot("what") or None,
                         text="discard" if without else None)]  # fmt: skip
        case "compute":
            expression = arithmetic(clause, toks, start + c.verb_words, verb)
            return [Step("compute", clause, text=expression)] if expression else None
        case "insert" if (
            passages.read(slot("text")).unit in passages.WHOLE
            and not unquote(slot("text"))
            and toks[c.slots["text"][0]].word not in ("a", "an", "one")  # "a blank line": new
        ):  # "put the passport line before socks": moved, not typed
            tail = [t.word for t in toks[c.slots["text"][1] :]]
            where = _place_said(set(tail[:4]))
            if where in ("start", "end"):
                return [Step("drag", clause, target=slot("text"), where="position",
                             nth=1 if where == "start" else -1)]  # fmt: skip
            anchor = slot("anchor") or slot("before")
            return [Step("drag", clause, target=slot("text"), where=where, destination=anchor)]
        case "insert" if is_pronoun(slot("text")) and after and after.verb in ("cut", "copy"):
            tail = [t.word for t in toks[c.slots["text"][1] :]]
            return _pasted(clause, tail, slot("anchor") or slot("before"))  # "add it at the end"
        case "insert":
            text, anchor_words = slot("text"), slot("anchor").lower().split()
            source = value_source(text, after) if text else None
            if (
                not text
                or source
                and not _owned_value(text)
                or anchor_words[:1] in (["into"], ["in"])
            ):
                return None  # "type the code shown above into …" reads a value
            frame = c.frame.text if c.frame else ""
            if "nth" in c.slots:  # "at the end of the first line"
                nth = lex.ordinal(slot("nth")) or (int(slot("nth")) if slot("nth").isdigit()
                                                   else None)  # fmt: skip
                where = "line end" if "end" in frame else "line start"
                return [Step("insert", clause, text=None if source else text, source=source,
                             where=where, nth=nth)] if nth else None  # fmt: skip
            where = next(
                (w for w in ("between", "below", "above", "end", "start") if w in frame), None
            )
            if "last|final line" in frame or "first line" in frame:
                where = "end" if "last" in frame else "start"
            if where in ("end", "start") and "line" in frame:
                where += " line"  # on a line of its own
            anchor = slot("anchor") or slot("before") or None
            return [Step("insert", clause, target=anchor, destination=slot("after") or None,
                         text=None if source else text, source=source, where=where)]  # fmt: skip
        case "comment":
            off = verb.lower().replace("-", "") == "uncomment"
            return [Step("comment", clause, target=slot("what"), where="off" if off else None)]
        case "order":
            reverse = any(t.word == "reverse" for t in toks)
            return [Step("order", clause, text="reverse" if reverse else "")]
        case "lines":
            items = (
                [slot("first"), slot("second")]
                if "first" in c.slots
                else _items(clause, toks, *c.slots["items"])
            )
            if not all(items):
                return None
            items[-1] = re.sub(r"\s+(?:to|into|onto|in|at the end of)\s+(?:the|my|this)\s.+$",
                               "", items[-1], flags=re.I)  # fmt: skip  # "… to the shopping list"
            return [Step("lines", clause, text="\n".join(items))]
        case "drag":
            return _dragged(clause, toks, said, verb, after)
        case "highlight":
            return _highlighted(clause, toks, c, verb, start)
        case "delete":
            return [Step("delete", clause, target=selected(slot("what"), after) or slot("what"))]
        case "label":
            return [Step("label", clause, text=verb, target=slot("what") or None)]
        case "look":
            return [Step("look", clause, target=slot("what"))]
    return None


def _pair(first: str, second: str) -> tuple[str, str]:
    """ "the first and second lines", "lines 1 and 3": each of the two named whole."""
    noun = second.split()[-1:] if second else []
    if noun and noun[0].lower() in passages.UNITS and noun[0].lower().endswith("s"):
        unit = noun[0][:-1]
        return f"{first} {unit}", f"{' '.join(second.split()[:-1])} {unit}"
    head = first.split()[:1]
    if head and head[0].lower() in passages.UNITS and second.split()[0].isdigit():
        unit = head[0].rstrip("sS")
        return f"{unit} {' '.join(first.split()[1:])}", f"{unit} {second}"
    return first, second


def _pasted(clause: str, tail: Sequence[str], anchor: str) -> list[Step] | None:
    """What was cut or copied, put where the words after "it" say."""
    where = _place_said(set(tail[:4]))
    if where is None:
        return None
    return [Step("paste", clause, target=anchor or None if where in ("after", "before") else None,
                 where=where)]  # fmt: skip


def _pasted_at(toks: Sequence[Token], c: _Candidate) -> str | None:
    """Where a paste goes by the words outside the frame's slots: "after" or "before" its
    anchor, the text's "start" or "end"; None: at the caret."""
    inside = {i for a, b in c.slots.values() for i in range(a, b)}
    said = {t.word for i, t in enumerate(toks) if i not in inside}
    where = _place_said(said)
    if where in ("start", "end") and "of" in said and "anchor" in c.slots:
        return f"line {where}"  # "at the end of the first line": on that line
    return where


def _place_said(words: set[str]) -> str | None:
    """ "after" or "before" an anchor, or the text's "start" or "end", by the words said."""
    return next((where for where, said in _PASTED_AT if said & words), None)


_PASTED_AT = (("after", {"after", "below", "under", "beneath", "underneath"}),
              ("before", {"before", "above", "over"}), ("start", {"top", "start", "beginning"}),
              ("end", {"end", "bottom"}))  # fmt: skip
_TOWARDS = {"left": "left", "leftwards": "left", "right": "right", "rightwards": "right",
            "up": "up", "upwards": "up", "down": "down", "downwards": "down"}  # fmt: skip
_ENDS = {"top": 1, "start": 1, "front": 1, "beginning": 1, "bottom": -1, "end": -1, "back": -1}
_BESIDE = {"above": "before", "before": "before", "ahead": "before", "below": "after",
           "after": "after", "under": "after", "underneath": "after",
           "behind": "after"}  # fmt: skip
_PIXELS = re.compile(r"(\d+)\s*(?:px|pixels?)?", re.I)


def _dragged(
    clause: str, toks: list[Token], c: _Candidate, verb: str, after: Step | None
) -> list[Step] | None:
    """Where a drag ends, from the words after what it moves: a place in its list (`nth`,
    `where` "position"), beside another (`where` "before" or "after" the `destination`), a
    direction (`amount` pixels, 0 for a default distance), or onto the `destination`."""

    def slot(name: str) -> str:
        return words_text(clause, toks, *c.slots[name]) if name in c.slots else ""

    what, dest = slot("what"), slot("dest")
    tail = [t.word for t in toks[c.slots["what"][1] :]]
    lex = lexicon()
    if is_pronoun(what) and after is not None and after.verb in ("cut", "copy"):
        return _pasted(clause, tail, dest)  # "cut the passport line and put it at the top"
    if "count" in c.slots:  # "move the last line up one line", "Milk down two places"
        count = lex.number(slot("count"))
        towards = next((_TOWARDS[w] for w in tail[:2] if w in ("up", "down")), None)
        if count is None or count != int(count) or towards is None:
            return None
        return [Step("drag", clause, target=what, where="places", direction=towards,
                     amount=int(count))]  # fmt: skip
    if lex.value_kind(dest.strip().rstrip("%")) in ("number", "money"):
        return [Step("set", clause, target=_strip_kind(what), text=dest)]  # "the slider up to 40"
    if "nth" in c.slots or lex.ordinal(tail[0]) is not None:
        if (nth := lex.ordinal(slot("nth") or tail[0])) is None:
            return None
        return [Step("drag", clause, target=what, where="position", nth=nth)]
    if end := next((_ENDS[w] for w in tail[:5] if w in _ENDS), None):
        return [Step("drag", clause, target=what, where="position", nth=end)]
    if side := next((_BESIDE[w] for w in tail[:7] if w in _BESIDE), None):
        return [Step("drag", clause, target=what, where=side, destination=dest)]
    if towards := next((_TOWARDS[w] for w in tail[:3] if w in _TOWARDS), None):
        pixels = _PIXELS.fullmatch(slot("amount").strip()) if "amount" in c.slots else None
        if "amount" in c.slots and pixels is None:
            return None  # "move the volume up by 10%": a setting
        amount = int(pixels[1]) if pixels else 0
        return [Step("drag", clause, target=what, direction=towards, amount=amount)]
    if (
        verb.lower() in ("put", "place")
        and not set(words_of(dest)) & lex.drag_containers
        and palette().name_in(what) is None
    ):
        return None  # "put 7 in B3": a value's place, the typing verbs'; "the blue one" a thing
    return [Step("drag", clause, target=what, destination=dest, soft=True)]  # "A and B", "the pdfs"


def _highlighted(
    clause: str, toks: list[Token], c: _Candidate, verb: str, start: int
) -> list[Step] | None:
    """Words to select with the pointer, named as a part of the text (agent/passages.py):
    "the second sentence of the third paragraph", "the word 'urgent'"; "select" needs a unit
    of text ("select Canada" chooses)."""
    if c.frame is None or (not c.frame.literals and verb.lower() != "highlight"):
        return None  # "select Canada": an option
    phrase = clause[toks[start + c.verb_words].start :] if start + c.verb_words < len(toks) else ""
    return [Step("highlight", clause, target=phrase.strip() or None)]


def _quoted_name(toks: Sequence[Token], start: int, end: int) -> tuple[int, int]:
    """ "the link 'quam'", "the 'Share' button": the quoted name alone, when the other words
    only say what kind of thing it is."""
    quoted = [i for i in range(start, end) if toks[i].quoted]
    if len(quoted) != 1 or end - start == 1:
        return start, end
    others = {t.word for t in toks[start:end] if not t.quoted}
    lex = lexicon()
    kinds = {w for k in _KIND_NOUNS for w in k.split()} | {"link", "tab", "button", "item", "card",
                                                        "phrase", "word", "words", "text"}
    kinds |= lex.drag_containers  # "the 'In Progress' column"
    return (quoted[0], quoted[0] + 1) if others <= lex.determiners | kinds else (start, end)


def _gives_values(words: str) -> bool:
    """Whether a form sentence's rest gives values: a name, a linking word ("with", "as",
    "for"), a list, a denial ("without the newsletter") or a value of a known kind (a number,
    an e-mail address, a date)."""
    lex = lexicon()
    if any(w[:1].isupper() for w in words.split()):  # a name: "Register Ada Lovelace"
        return True
    said = words_of(words)
    if any(lex.longest(lex.negations, said, i) for i in range(len(said))):
        return True
    return any(w in lex.linkers or w == "," or lex.value_kind(w) for w in said)


def is_pronoun(text: str) -> bool:
    words = text.lower().split()
    return bool(words) and lexicon().longest(lexicon().pronouns, words, 0) == len(words)


_SELECTING = ("select", "highlight", "mark")
_SELECTION = ("selection", "selected text", "highlighted text", "the selection",
              "the selected text", "the highlighted text", "what you selected")  # fmt: skip


def selected(what: str, after: Step | None) -> str:
    """ "select the two DEBUG lines and delete them": what the selecting clause before named
    (its words after the verb), or "" when `what` is no pronoun for a selection."""
    if after is None or not (is_pronoun(what) or what.lower() in _SELECTION):
        return ""
    verb, _, rest = after.clause.partition(" ")
    return rest.strip() if verb.lower() in _SELECTING and rest.strip() else ""


def _referent(what: str, after: Step | None) -> str:
    """ "turn it on": what the previous clause named."""
    if is_pronoun(what) and after is not None and after.target:
        return after.target
    return what


def value_source(value: str, after: Step | None) -> str | None:
    """What names a value to read from the screen ("it" after a find, "the code shown above",
    "the sum of A and B"), or None for a value given in the words."""
    lex = lexicon()
    if is_pronoun(value):
        return after.target if after is not None and after.target else value
    said = value.split()
    while len(said) > 1 and said[0].lower() in lex.determiners:
        said.pop(0)
    words = [w.lower() for w in said]
    shown = [i for i in range(len(words)) if lex.longest(lex.shown, words, i)]
    if shown and shown[0] > 0:
        return " ".join(said[: shown[0]])
    totals = lex.operations["plus"] + lex.operations["average"] + lex.operations["total"]
    if words and lex.longest(totals + lex.value_of + lex.solving, words, 0):
        return " ".join(said)
    if len(words) > 2 and lex.ordinal(words[0]) and words[1] in lex.text_parts:
        return " ".join(said)  # "the 4th word of the paragraph"
    if _owned_value(value) and not value.startswith(("'", '"')):
        return value  # "Kim's phone number": as the screen shows it
    if codes.is_code_phrase(value):
        return value  # "the code from the banner"
    return None


def named_value(text: str) -> str | None:
    """ "the code SAVE10", "the PIN 4821", "my phone number 555-0192": the one token after the
    noun that says what kind of value it is, which is what is typed."""
    said = text.split()
    lex = lexicon()
    nouns = lex.value_nouns | lex.code_nouns
    if len(said) < 3 or said[0].lower() not in lex.determiners or said[-2].lower() not in nouns:
        return None
    return said[-1] if len(said) <= 4 else None


def _owned_value(text: str) -> bool:
    """ "Kim's phone number", "my order number": a value named by its owner and its noun,
    to be read on the screen."""
    words = words_of(text)
    owned = bool(words) and (words[0] in lexicon().determiners or words[0].endswith("'s"))
    return owned and words[-1] in lexicon().value_nouns


def place(words: str) -> str | None:
    """The kind of place "the tabs" or "the sections" names (a key of [places])."""
    lex = lexicon()
    said = set(words.lower().replace(",", " ").split())
    return next((kind for kind, names in lex.places.items() if said & names), None)


_REGIONS = frozenset({"footer", "header", "sidebar", "page", "article", "paragraph", "sentence",
                      "table", "section", "banner", "menu", "list", "code", "block", "card",
                      "post", "message", "notice", "alert", "panel", "column", "row", "caption",
                      "quote", "document", "text", "intro", "introduction", "summary"})
"""Parts of a page a value is copied from, never into ("copy the email in the footer")."""

_KIND_NOUNS = ("option", "setting", "checkbox", "check box", "box", "field", "button", "entry",
               "switch", "toggle", "tab", "item", "slider", "scale")  # fmt: skip


def _strip_kind(target: str) -> str:
    """ "the Share crash reports option" -> "Share crash reports"."""
    words = target.split()
    while len(words) > 1 and words[-1].lower() in _KIND_NOUNS:
        words.pop()
    return " ".join(words)


def _strip_folder(folder: str) -> str:
    words = folder.split()
    if len(words) > 1 and words[-1].lower() in ("folder", "directory", "dir"):
        words.pop()
    return " ".join(words)


_CELL_NAME = re.compile(r"(?:(?:the\s+)?cell\s+)?[A-Z]{1,3}[1-9]\d{0,6}")
"""A spreadsheet cell's reference ("B3", "cell B3")."""


def _is_key(name: str) -> bool:
    try:
        normalize_key(name)
    except ActionError:
        return False
    return True


def _key_list(text: str) -> list[str]:
    return [k for k in re.split(r"\s*[+-]\s*", text.strip()) if k]


def joins(toks: Sequence[Token], i: int) -> bool:
    """Whether the token at `i` is a conjunction joining two of a form's values: "&" between
    capitalised words is part of a name ("Kettle & Co", "Marks & Spencer")."""
    if toks[i].word not in lexicon().conjunctions:
        return False
    if toks[i].word != "&" or not 0 < i < len(toks) - 1:
        return True
    return not (toks[i - 1].text[:1].isupper() and toks[i + 1].text[:1].isupper())


def _items(clause: str, toks: Sequence[Token], start: int, end: int) -> list[str]:
    """ "Milk, Butter and Eggs" -> the items, cut at commas and conjunctions."""
    items, first = [], start
    conjunctions = lexicon().conjunctions
    for i in range(start, end + 1):
        if i == end or toks[i].word == "," or toks[i].word in conjunctions:
            if i > first:
                items.append(words_text(clause, toks, first, i))
            first = i + 1
    return items


# ---- arithmetic ----------------------------------------------------------------------------------


def arithmetic(clause: str, toks: Sequence[Token], start: int, verb: str) -> str | None:
    """The calculator keys for an arithmetic clause ("subtract 19 from 100" -> "100 - 19 ="),
    or None when the words are not arithmetic. A leading operator goes on from the number the
    calculator shows ("then add 8" -> "+ 8 =")."""
    lex = lexicon()
    words = [t.word.rstrip("?") for t in toks[start:] if t.word not in ("?", ",")]
    words = [part for w in words for part in re.split(r"([()])", w) if part]  # "(12"
    words = [
        part
        for w in words
        for part in (
            re.split(r"([*/+×÷x-])", w) if re.fullmatch(r"[\d.]+(?:[*/+×÷x-][\d.]+)+", w) else [w]
        )
        if part
    ]  # "23*19"
    words = [part for w in words for part in re.split(r"(?<=\d)(%)$", w) if part]  # "15%"
    while words and words[-1] in ("=", "=?"):
        words.pop()  # "(3.2 + 4.8) × 12.5 = ?": the question mark of a sum
    verb_words = verb.lower().split()
    numbers = [lex.number(w) for w in words]
    values = [n for n in numbers if n is not None]
    if not values:
        return None
    ops = lex.operations

    def said(op: str) -> bool:
        return any(lex.longest(ops[op], words, i) for i in range(len(words))) or bool(
            lex.longest(ops[op], verb_words, 0)
        )

    def keys(parts: Sequence[float | str]) -> str:
        return " ".join(_number(p) if isinstance(p, float) else p for p in parts)

    lead = verb_words[0] if verb_words else ""
    refers = any(is_pronoun(" ".join(words[i : i + 2])) for i in range(len(words)))
    for function in _FUNCTIONS:  # "square root of 1764", "sin 30": the number, then its key
        if said(function) and len(values) == 1:
            return keys([values[0], function])
    if said("average") and len(values) >= 2:
        return keys([*_joined(values, "+"), "=", "/", float(len(values)), "="])
    if said("percent") and len(values) == 2:
        return keys([values[1], "*", values[0] / 100, "="])  # 20 percent is 0.2
    if lead in ("subtract", "take") and "from" in words:
        if len(values) == 2:
            return keys([values[1], "-", values[0], "="])
        return None
    operator = _operator(lead, words)
    if operator and (_counts_things(words) or not _only_sum_words(words)):
        return None  # "add 2 more apples to the cart", "add the cheapest one" are no sums
    if operator and lead in ("add", "subtract", "multiply", "divide", "sum", "take"):
        if len(values) == 1 or refers:
            return keys([operator, values[-1], "="])
        return keys([*_joined(values, operator), "="])
    return _infix(words, values)


_FUNCTIONS = ("sqrt", "sin", "cos", "tan", "ln", "log")
"""Functions of one number, each with its calculator key."""


def _counts_things(words: Sequence[str]) -> bool:
    """Whether a number counts something named after it ("2 more apples"), not a quantity."""
    lex = lexicon()
    for i, word in enumerate(words[:-1]):
        j = i + 1
        while j < len(words) - 1 and words[j] in ("more", "extra", "additional", "new"):
            j += 1  # "2 more apples"
        after = words[j]
        if lex.number(word) is not None and after.isalpha() and after not in _SUM_WORDS:
            if not any(lex.longest(ops, words, j) for ops in lex.operations.values()):
                return True
    return False


def _only_sum_words(words: Sequence[str]) -> bool:
    """Whether every word is a number, an operator, a word that refers to a result ("it",
    "the answer") or one that asks for a calculation."""
    lex = lexicon()
    refers = {w for p in lex.pronouns for w in p}
    ops = {w for phrases in lex.operations.values() for p in phrases for w in p}
    known = _SUM_WORDS | lex.calculation_asks | refers | ops | {"(", ")", "%"}
    return all(lex.number(w) is not None or w in known for w in words)


_SUM_WORDS = frozenset({"and", "to", "from", "by", "then", "of", "times", "percent", "plus",
                        "minus", "over", "into", "with", "is", "equals"})  # fmt: skip


def _operator(lead: str, words: Sequence[str]) -> str | None:
    lex = lexicon()
    for name in ("plus", "minus", "times", "divided"):
        if lex.longest(lex.operations[name], [lead], 0):
            return lex.calculator_keys[name]
    return None


def _joined(values: Sequence[float], operator: str) -> list[float | str]:
    parts: list[float | str] = []
    for value in values:
        parts += [operator, value] if parts else [value]
    return parts


def _infix(words: Sequence[str], values: Sequence[float]) -> str | None:
    """ "5 minus 12", "twelve plus thirty", "15 x 3", "(12 + 8) / 4": numbers joined by
    operator words, in brackets where they are written so."""
    lex = lexicon()
    parts: list[str] = []
    operators = set(lex.calculator_keys.values())
    depth = 0
    i = 0
    while i < len(words):
        if words[i] in ("(", ")"):
            depth += 1 if words[i] == "(" else -1
            if depth < 0:
                return None
            parts.append(words[i])
            i += 1
            continue
        number = lex.number(words[i])
        if number is not None:
            if parts and parts[-1] not in operators | {"("}:
                return None
            parts.append(_number(number))
            i += 1
            continue
        for name in ("plus", "minus", "times", "divided", "power"):
            n = lex.longest(lex.operations[name], words, i)
            if n and parts:
                parts.append(lex.calculator_keys[name])
                i += n
                break
        else:
            if parts or words[i] not in lex.calculation_asks:
                return None  # "The guest is Ann, phone 555-0123" is no sum
            i += 1  # words before the numbers ("what is", "the result of")
    plain = [p for p in parts if p not in ("(", ")")]
    if depth or len(plain) < 3 or len(plain) % 2 == 0:
        return None
    return " ".join([*parts, "="])


def _number(value: float) -> str:
    return f"{value:g}" if value != int(value) else str(int(value))


# ---- what the reader made of a clause it could not read ------------------------------------------


def understood(clause: str) -> str:
    """Which part of an unreadable clause the lexicon knows and which it does not, in words."""
    lex: Lexicon = lexicon()
    toks = tokens(clause)
    start = _skip_fillers(toks)
    words = [t.word for t in toks]
    if start >= len(words):
        return "it names no action"
    known = [(a, lex.verb_at(a, words, start)) for a in lex.verbs]
    action, n = max(known, key=lambda k: k[1])
    if intent := lex.intent_at(words, start):
        if intent[1] > n:
            n = intent[1]
    if not n:
        return f"'{toks[start].text}' is not a verb the offline planner knows"
    verb = clause[toks[start].start : toks[start + n - 1].end]
    rest = clause[toks[start + n - 1].end :].strip()
    forms = "; ".join(
        f"{verb.lower()} {_shown_frame(f)}" for f in lex.frames.get(action, ())[:4] if f.literals
    )
    said = (
        f"understood the verb '{verb}' but not '{rest}'"
        if rest
        else (f"understood the verb '{verb}' but not what it acts on")
    )
    return said + (f" (it reads: {forms})" if forms else "")


def _shown_frame(frame: Frame) -> str:
    """A frame as a person reads it: "{what} from {old} to|into {new}" -> "X from A to B"."""
    names = iter("XYZ")
    return " ".join(
        part[0] if isinstance(part, tuple) else next(names, "…") for part in frame.parts
    )
