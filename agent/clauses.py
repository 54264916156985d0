"""A task cut into clauses, and the Step each clause becomes: the shared ground of the
interpreter (the grammar read without a screen) and the reader (agent/reading.py, the same words
read against the screen).

Every rule works on a *masked* copy of the text in which the inside of each quoted span is
blanked out, so separators and keywords inside quotes ("type 'a, b and c' into Notes") are never
taken for structure; spans found on the masked copy are read back from the original text.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Literal

from rapidfuzz.distance import DamerauLevenshtein

from clickwright.agent.lexicon import lexicon, phrase_at, words_of
from clickwright.text import normalize
from clickwright.types import Box, ElementKind, Screen

__all__ = ["Step", "Verb", "clauses", "mask", "split_at", "unquote"]

Verb = Literal[
    "click",
    "double_click",
    "right_click",
    "check",
    "uncheck",
    "select",
    "open_menu",
    "type",
    "press",
    "scroll",
    "drag",
    "highlight",  # select the words `target` with the pointer, or the `nth` `where` (word,
    # sentence, line, paragraph) of the screen's text
    "cut",  # the passage `target` names (a line, a value, words), kept for a paste
    "copy",
    "paste",  # what was cut or copied, at `where` (start, end, before or after `target`, or
    # the caret)
    "swap",  # `target` and `destination` trade places (lines of a text, items of a list)
    "wait_for",
    # read against the screen when the step's turn comes (agent/reading.py):
    "intent",  # the button that means `text` (affirm, decline, …); `target` the topic
    "form",  # fill the fields named in `target`, then submit through `text` (the form verb)
    "set",  # the widget `target` to the value `text`
    "change",  # `old` to `text`, in the field or the text named `target` (or wherever shown)
    "find",  # open the `kind` places (tabs, sections) until `target` shows
    "save",  # save (as `text`, in the folder `destination`; with `keys`)
    "close",  # close the window (`text` "discard": without saving)
    "compute",  # arithmetic `text` on a calculator on the screen
    "insert",  # `text` at `where` (end, start, below/above `target`, between `target` and
    # `destination`)
    "lines",  # `text`'s lines, one per line
    "comment",  # the lines `target` names turned into comments (`where` "off": back into code)
    "order",  # an editor's lines sorted (`text` "reverse": from Z to A)
    "delete",  # the row, line or words `target` names
    "label",  # the button labelled `text` (a verb: Pay, Follow) for what `target` names
    "look",  # nothing to do on the screen: the task asks to look at `target`
    "unread",  # words neither grammar reads: what they name on the screen decides
    "grid",  # the control where the row `target` meets the column `destination` (`text`: to
    # type there); with `nth`, the nth of a row of stars ("4 stars")
]


@dataclass(frozen=True)
class Step:
    """One instruction, still in words; the actor grounds it on the screen (and, for the verbs
    read against the screen and for `soft` steps, settles its spans there first)."""

    verb: Verb
    clause: str  # the piece of the task it came from, for logs
    target: str | None = None  # what to act on, as the user named it
    kind: ElementKind | None = None  # only when the task says it ("the Save button")
    text: str | None = None  # text to type, or the option to choose for select
    keys: tuple[str, ...] = ()  # for press, normalised with normalize_key
    path: tuple[str, ...] = ()  # for open_menu: ("File", "Save As")
    direction: str | None = None  # for scroll and drag: up/down/left/right
    amount: int = 3  # scroll clicks (0: until it stops moving); a drag's pixels along `direction`
    # (0: a default distance)
    destination: str | None = None  # for drag: where to drop
    enter: bool = False  # "... and press Enter" is a separate press step instead
    nth: int | None = None  # "the 3rd input": which of the elements of `kind`, 1-based; -1 last
    # (a highlight: 0 the middle one)
    every: bool = False  # "both text fields": each element of `kind`; "every colour"
    old: str | None = None  # for change: the value or words to replace
    where: str | None = None  # insert: end, start, below, above, between; find: places;
    # unread: "remark" for a statement after a step ("…, I don't want those changes");
    # click: "exact" for a label made from the task's words, found only as written; "empty"
    # for a field named by its kind alone that waits for text (an empty one first);
    # set: "up" or "down" when the value is an amount to change it by, "if listed" when a
    # drop-down is only guessed to hold the value (closed again when it does not); drag:
    # "position" (the `nth` place of its list), "before" or "after" the `destination`
    scope: str | None = None  # a text the row, card or section acted in contains
    rows: int | None = None  # with a scope: in how many of the rows showing it (0: every one)
    source: str | None = None  # the value is read from the screen: what names it
    soft: bool = field(default=False, compare=False)
    """Spans cut by grammar alone (unquoted): the actor reads the clause again against the
    screen before acting (a field label inside a typed value, a list in one target)."""


# ---- quotes ---------------------------------------------------------------------------------

# A quote opens after a non-word character and closes before one, so "Don't Save" is no quote.
QUOTED = re.compile(r"""(?<!\w)(?:'.*?'|".*?"|“.*?”|‘.*?’|`.*?`)(?!\w)""", re.S)
MASK = "\x1a"


def mask(text: str) -> str:
    """`text` with the inside of each quoted span blanked out; same length, so spans carry over."""
    return QUOTED.sub(lambda m: m[0][0] + MASK * (len(m[0]) - 2) + m[0][-1], text)


def unquote(text: str) -> str | None:
    """The exact inside of `text` if it is one quoted span, else None."""
    m = QUOTED.match(text)
    return text[1:-1] if m and m.end() == len(text) else None


def split_at(text: str, separators: Iterable[re.Match[str]]) -> list[str]:
    """Cut `text` at separators found on its masked copy."""
    pieces, start = [], 0
    for sep in separators:
        pieces.append(text[start : sep.start()])
        start = sep.end()
    return [*pieces, text[start:]]


# ---- cutting a task into clauses ------------------------------------------------------------

_FILLER = (
    r"(?:(?:please|pls|plz|(?:first(?:ly)?|next)(?!\s+(?:name|line|page|field|one|item|row|tab|word))"
    r"|then|finally|lastly|now|and|so|after\s+that|(?:find|locate)\s+and"
    r"|(?:could|can|would|will)\s+you|i(?:'d\s+like|\s+want|\s+need)\s+you\s+to)\b[\s,]*)*"
)
_CLASSIC_VERBS = (
    r"double[\s-]?click|right[\s-]?click|click|tap|hit|push|press|select|choose|pick"
    r"|check|tick|enable|uncheck|untick|clear|disable|deselect|turn|switch|open|go\s+to"
    r"|navigate\s+to|type|enter|write|input|fill|set|scroll|drag|wait|focus|expand|collapse"
    r"|find|use|navigate|look|browse"
)
CLASSIC_WORDS = frozenset(re.findall(r"[a-z]+", _CLASSIC_VERBS)) - {"s", "to"}
"""The one-word verbs the classic grammar knows."""
# Verbs that are also common button labels: after "click X and", alone, they stay in the name
# ("click Save and Close").
_LABEL_LIKE = frozenset(
    {"close", "save", "cancel", "continue", "next", "back", "open", "ok", "apply", "publish"}
)


def _verbs_pattern() -> str:
    words = {v for v in lexicon().clause_verbs() if v[:1].isalpha()}
    extra = "|".join(
        re.escape(v).replace(r"\ ", r"\s+")
        for v in sorted(words, key=len, reverse=True)
        if v not in {"and", "no", "yes", "ok", "okay", "a", "an"}
    )
    return f"{_CLASSIC_VERBS}|{extra}"


_VERBS = _verbs_pattern()
_AT_A_STEP = re.compile(r"(?:^\s*|[.;!?]\s+|\bthen\s+)([a-z]{5,})\b(?=\s)", re.I)
"""A word where a step surely starts: not after a comma or "and", where values are listed
("company Kettle & Co, retail" is no "retain")."""


@functools.cache
def known_verbs() -> frozenset[str]:
    """The one-word verbs the reader knows: every action's, the classic grammar's, and the
    button verbs ("archive")."""
    lex = lexicon()
    phrases = {*lex.clause_verbs(), *(" ".join(p) for p in lex.verbs["label"])}
    return frozenset({v for v in phrases if " " not in v and v.isalpha()} | CLASSIC_WORDS)


def respelled(task: str) -> str:
    """The task with a verb mistyped where a step starts ("unckeck the blue items",
    "hihglight the title") spelled right: one letter off, or two in a long word, from exactly
    one verb, and no word the lexicon knows."""
    lex = lexicon()
    verbs = [v for v in known_verbs() if len(v) >= 4]

    def spelled(m: re.Match[str]) -> str:
        word = m[1].lower()
        if word in lex.vocabulary:
            return m[0]
        most = 1 if len(word) < 8 else 2
        near = {v for v in verbs if DamerauLevenshtein.distance(word, v, score_cutoff=most) <= most}
        if len(near) != 1:
            return m[0]
        return m[0][: m.start(1) - m.start()] + near.pop()

    return _AT_A_STEP.sub(spelled, task)
STARTS_STEP = re.compile(rf"(?:(?:don'?t|do\s+not|never)\s+)?(?:{_VERBS})\b", re.I)
_SEPARATOR = re.compile(
    rf"(?:\s*(?P<stop>[;\n:]|[.!?…]+(?=\s|$))|\s*,"
    rf"|\s+(?=(?:and|then|after)\b))[\s,]*{_FILLER}",
    re.I,
)
STATEMENT = re.compile(
    r"\s*(?:i|we|i'm|i am|we're|we are|it's|it is|that's|that is)\s+(?:don'?t|do not|'?m|am|"
    r"are|is|was|really|just|still|also|no longer|won'?t|will not|wouldn'?t|can'?t|didn'?t|already|"
    r"not|never|too|wrong|only|"
    r"need|want|have|had|hate|like|love|prefer)\b",
    re.I,
)
"""A statement after a comma ("…, I don't want those changes"): a clause of its own, most
often a remark on the step before it."""
_NOT_THAT = re.compile(
    r"\s*(?:but\s+)?(?:not|never|rather than|instead of)\s+(?:the|a|an|that|this|those)\b", re.I
)
"""After a comma, what a step is not about ("…, not the red one"): a remark."""
_STRONG = re.compile(r"\b(?:then|after|next|finally|lastly)\b", re.I)
LEADING = re.compile(rf"\s*{_FILLER}", re.I)
_TRAILING = re.compile(r"(?:(?<!\.)[.!?])?\s*$")  # a full stop, but not an ellipsis
_CODED = re.compile(r"(?<!\S)(?=\S*?(?:\d|[^\w\s!.,;?]))(\S*?\w)(!+)(?=[\s,;]|$)")
_POINTING = re.compile(r"(?:click|tap|hit|push|press)\b", re.I)
_DRAG, _DROP = re.compile(r"\bdrag\s*$", re.I), re.compile(r"drop\b", re.I)


def clauses(task: str) -> list[str]:
    """Split the task where a separator starts a new step.

    Weak separators ("," and "and") split only before a verb, so "Terms and Conditions" stays
    whole, and a bare label-like verb after a click stays in its name ("click Save and Close");
    strong ones (sentence ends, ";", "then") split before any text, so an unreadable step after
    them is reported instead of swallowed into the previous target. A leading place without a
    verb ("For the user @ana, click Follow") stays with the clause it scopes.
    """
    masked = _masked(task)
    cuts = []
    remarks = set()
    for s in _SEPARATOR.finditer(masked):
        rest = masked[s.end() :]
        strong = s["stop"] or _STRONG.search(s[0])
        if s[0].strip().startswith(",") and _NOT_THAT.match(rest):
            remarks.add(len(cuts) + 1)  # "press the green button, not the red one"
            cuts.append(s)
            continue
        if not (STARTS_STEP.match(rest) or (strong and rest.strip()) or _lone_intent(rest)
                or s[0].strip().startswith(",") and STATEMENT.match(rest)):  # fmt: skip
            continue
        if (
            s["stop"] in (".", "!", "?")
            and re.match(r"\s*[a-z]", task[s.end("stop") :])
            and not re.match(r"\s*[a-z][\w ]{0,20}:\s", task[s.end("stop") :])
            and not (STARTS_STEP.match(rest) or _lone_intent(rest))
        ):
            continue  # "Thanks for your help! at the end": the sentence goes on; a label and
            # its colon start one ("… the router. subject: No internet at all")
        if _SO.match(s[0]) and not STARTS_STEP.match(rest):
            continue  # "…, so it is saved": why, not a step
        if s["stop"] == "." and _abbreviated(masked[: s.start("stop")]):
            continue  # "Dr. Osei": a title's full stop
        if s["stop"] == ":" and not STARTS_STEP.match(rest):
            continue  # "Answer the survey: very satisfied, …" lists what follows
        if not strong and _label_after_click(masked, cuts, s, rest):
            continue
        before = masked[cuts[-1].end() if cuts else 0 : s.start()]
        if not strong and _pair_opened(before):
            continue  # "X on the first line and Y on the second"
        if not strong and _in_a_name(before, rest):
            continue  # "open the Find and Replace dialog"
        if not strong and _DRAG.search(before) and _DROP.match(rest):
            continue  # "drag and drop": one verb
        if s["stop"] == ":" and not STARTS_STEP.match(LEADING.sub("", before, count=1)):
            remarks.add(len(cuts))  # "the meeting moved: replace 10am with 11am" says why
        elif _SO.match(s[0]) and not STARTS_STEP.match(LEADING.sub("", before, count=1)):
            remarks.add(len(cuts))  # "the item with the green dot is from the market, so …"
        cuts.append(s)
    pieces = []
    subject = None  # what a remark before a colon was about ("the kids' room is chilly:")
    trimmed = [_trimmed(piece) for piece in split_at(task, cuts)]
    for index, clause in enumerate(trimmed):
        if index + 1 < len(trimmed) and _at_fault(clause):
            remarks.add(index)  # "The old line is out of date. Delete it.": why, and what
            # "it" is
        if index in remarks or _MIND_CHANGED.fullmatch(clause):
            said = _SAID_OF.match(clause) or _MIND_CHANGED.fullmatch(clause)
            subject = said["subject"] if said else None
        elif clause:
            if subject and (its := _ITS.search(clause)):  # "turn its thermostat up": in it
                clause = f"in {subject}, {clause[: its.start()]}the {clause[its.end() :]}"
            elif subject and (it := _IT.search(clause)):  # "…, take it out of the basket"
                clause = f"{clause[: it.start()]}{subject}{clause[it.end() :]}"
            pieces.append(clause)
            subject = None
    return _with_scopes(_shared_objects(pieces))


def _trimmed(piece: str) -> str:
    """A piece of the task without the fillers and trailers round its clause."""
    masked = _masked(piece)
    start = LEADING.match(masked).end()  # type: ignore[union-attr]  # "" at worst
    end = _TRAILING.search(masked, start).start()  # type: ignore[union-attr]
    return piece[start : _before_trailer(masked, start, end)].strip()


def _at_fault(clause: str) -> bool:
    """Whether the clause only says what is wrong with a thing ("X is out of date")."""
    said = _SAID_OF.match(clause)
    return (
        said is not None
        and ":" not in said["subject"]  # "message: I was charged twice" gives a value
        and not STARTS_STEP.match(clause)
        and any(
            re.fullmatch(rf"(?:\w+\s+)?{re.escape(f)}\W*", clause[said.end() :].strip(), re.I)
            for f in lexicon().faults
        )
    )


_SAID_OF = re.compile(
    r"(?P<subject>.+?)\s+(?:is|are|was|were|seems|feels|looks|comes|come|goes|belongs)\b", re.I
)
_SO = re.compile(r"\s*,\s*so\b", re.I)
_MIND_CHANGED = re.compile(
    r"(?:i|we)(?:'ve| have)? changed (?:my|our) minds? (?:about|on) (?P<subject>.+)", re.I
)
_ITS = re.compile(r"\b(?:its|their)\s+", re.I)
_IT = re.compile(r"(?<=\s)(?:it|them)\b", re.I)


def _before_trailer(masked: str, start: int, end: int) -> int:
    """Where a clause ends before words at its end that say nothing ("press Submit when
    done", "… if possible"): never the whole clause."""
    words = [(m.start(), m[0].lower()) for m in re.finditer(r"[\w']+", masked[start:end])]
    said = [w for _, w in words]
    lex = lexicon()
    for i in range(1, len(said)):
        if lex.longest(lex.trailers, said, i) == len(said) - i:
            return start + words[i][0]
    return end


def _shared_objects(pieces: list[str]) -> list[str]:
    """ "find and click the link quam", "select and copy the address": a clause that ends on a
    verb whose object the next clause names acts on that object too."""
    verbs = lexicon().shared_object_verbs
    shared = list(pieces)
    for i, piece in enumerate(pieces[:-1]):
        words = words_of(piece)
        ends = [v for v in verbs if len(words) >= len(v) and tuple(words[-len(v) :]) == v]
        if not any(len(words) == len(v) or words[-len(v) - 1] == "to" for v in ends):
            continue  # the verb alone, or its purpose ("… to find"); "send me a copy" is whole
        following = mask(pieces[i + 1])
        if (verb := STARTS_STEP.match(following)) is None:
            continue
        rest = re.match(r"\s*(?:on|at|onto)?\s*", following[verb.end() :])
        start = verb.end() + (rest.end() if rest else 0)
        if obj := pieces[i + 1][start:].strip():
            shared[i] = f"{piece} {obj}"
    return shared


def _abbreviated(before: str) -> bool:
    """Whether the text before a full stop ends with an abbreviation ("… with Dr")."""
    last = re.search(r"([\w.]+)$", before)
    return last is not None and last[1].lower() in lexicon().abbreviations


def _in_a_name(before: str, rest: str) -> bool:
    """Whether "and" joins two capitalised words inside a name ("Find and Replace", "Save and
    Close"), not two steps (which go on in lower case: "…dialog and replace all cat")."""
    last = re.search(r"(\S+)\s*$", before)
    first = re.match(r"\s*(\S+)", rest)
    words = before.split()
    return (
        last is not None
        and first is not None
        and len(words) > 1
        and last[1][:1].isupper()
        and first[1][:1].isupper()
        and not first[1].isupper()  # "OK" after "and" is a button to press, not a name part
    )


def _pair_opened(before: str) -> bool:
    """Whether the words before an "and" open a pair its second half closes ("… on the
    first line")."""
    words = words_of(before)
    return any(
        len(words) >= len(p) and phrase_at(words, len(words) - len(p), p) == len(p)
        for p in lexicon().pairs
    )


def _masked(text: str) -> str:
    """`mask(text)`, with the "!" that ends a code-like word ("password s3cret!") kept from
    reading as the end of a sentence."""
    return _CODED.sub(lambda m: m[1] + MASK * len(m[2]), mask(text))


def _lone_intent(rest: str) -> bool:
    """ "…and OK": a last bare word that says what to answer; "…and archive it": a button's
    verb done to what was just named."""
    words = words_of(_TRAILING.sub("", rest))
    lex = lexicon()
    if len(words) == 2 and words[1] in ("it", "them") and lex.verb_at("label", words, 0) == 1:
        return True
    return bool(words) and any(
        phrase_at(words, 0, p) == len(words) for i in lex.intents.values() for p in i.verbs
    )


def _label_after_click(
    masked: str, cuts: list[re.Match[str]], separator: re.Match[str], rest: str
) -> bool:
    """ "click Save and Close": a lone label-like verb ends the name of what is clicked."""
    word = re.match(r"\w+", rest)
    lone = word is not None and not rest[word.end() :].strip()
    if not lone or (word[0].lower() not in _LABEL_LIKE and not _lone_intent(rest)):
        return False
    start = cuts[-1].end() if cuts else 0
    clause = LEADING.sub("", masked[start : separator.start()], count=1)
    return bool(_POINTING.match(clause))


_WANTED = re.compile(r"\b(?:should|must|needs? to|has to|have to|ought to)\b", re.I)
"""A clause saying where something should be is a step of its own, not a place to glue on
("in week.txt the 3 lines under TODO should be at the end. save")."""


def _with_scopes(pieces: list[str]) -> list[str]:
    """Glue a verbless leading place ("For the user @ana") to the clause after it."""
    openers = lexicon().scope_openers
    glued: list[str] = []
    pending = ""
    for piece in pieces:
        first, *rest = piece.split() or [""]
        said = mask(" ".join(rest)).split()  # a verb, but not a place's last noun ("my list")
        verbs = any(STARTS_STEP.match(" ".join(said[i:])) for i in range(len(said) - 1))
        place = not verbs and not re.search(r"\s(?:and|then)\s", piece) and not _WANTED.search(piece)
        if first.lower() in openers and place and piece != pieces[-1]:
            pending = f"{pending}{piece}, "
            continue
        glued.append(pending + piece)
        pending = ""
    return glued


def without_echo(screen: Screen, task: str) -> Screen:
    """The screen less the texts that only show the task back (a test page's instruction, a
    tutorial's step: "click on their address."): a text the task holds word for word that
    starts one of its clauses. Such a line is no target, no row and no value."""
    said, starts = _echoed(task)
    texts = [e for e in screen.elements if e.kind == "text" and _bare(e.text)]
    echo = {
        e.id
        for e in texts
        if len(shown := _bare(e.text)) >= 2
        and f" {' '.join(shown)} " in said
        and any(tuple(shown[i : i + 2]) in starts for i in range(len(shown)))
    }
    if not echo:
        return screen
    grew = True
    while grew:  # the lines an echoed line wraps onto, or from ('… the item labeled' / '"Save".')
        grew = False
        for line in (e for e in texts if e.id not in echo):
            for other in (e for e in texts if e.id in echo):
                upper, lower = (other, line) if other.box.y < line.box.y else (line, other)
                if _wrapped(upper.box, lower.box) and \
                        f" {' '.join(_bare(upper.text) + _bare(lower.text))} " in said:  # fmt: skip
                    echo.add(line.id)
                    grew = True
                    break
    return replace(screen, elements=tuple(e for e in screen.elements if e.id not in echo))


def _wrapped(upper: Box, lower: Box) -> bool:
    """`lower` is the next line of a paragraph whose line `upper` is: just below it, starting
    where it starts."""
    gap = lower.y - upper.bottom
    return -upper.h / 3 <= gap <= upper.h and abs(lower.x - upper.x) <= upper.h


@functools.lru_cache(maxsize=8)
def _echoed(task: str) -> tuple[str, frozenset[tuple[str, ...]]]:
    """The task as matched, and the first two words of each of its clauses that start with a
    verb or with the place it acts in (an instruction, not the name of a setting: "quiet
    hours from 23:00 to 6:30")."""
    openers = lexicon().scope_openers  # "For the user @ana, click Follow" is one too
    starts = frozenset(tuple(_bare(c)[:2]) for c in clauses(task) if len(c.split()) > 1 and (
        STARTS_STEP.match(c) or c.split()[0].lower() in openers and "," in c))  # fmt: skip
    return f" {' '.join(_bare(task))} ", starts


def _bare(text: str) -> list[str]:
    """The words of `text` without a sentence's stops at their ends."""
    return [w.rstrip(".") for w in normalize(text).split() if w.rstrip(".")]
