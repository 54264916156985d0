"""A part of a document's exact text named as people name it: "the passport line", "line 3",
"the last two lines", "the two DEBUG print lines", "the middle paragraph", "Lars's phone
number", "the word 'urgent'".

Read on the text an editor holds exactly (through the clipboard, see agent/editing.py), so a
cut, copy, paste, move or delete changes those characters and no others. A line or a paragraph
takes its line break with it, so it can be put back whole somewhere else.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from clickwright.agent.clauses import mask, unquote
from clickwright.agent.lexicon import lexicon
from clickwright.agent.memory import Clip
from clickwright.text import merged_spans

__all__ = ["Passage", "clipped", "find", "moved", "placed", "read", "removed", "section_of"]

Span = tuple[int, int]

UNITS = {"line": "line", "lines": "line", "paragraph": "paragraph", "paragraphs": "paragraph",
         "sentence": "sentence", "sentences": "sentence", "word": "word",
         "words": "word", "function": "block", "functions": "block", "method": "block",
         "methods": "block", "class": "block", "classes": "block"}  # fmt: skip
WHOLE = ("line", "paragraph", "block")
"""Units that are put back on lines of their own."""
VALUE_KINDS = {"email": "email", "e-mail": "email", "address": "email", "url": "url",
               "link": "url", "website": "url", "date": "date", "time": "time",
               "price": "money", "amount": "money", "total": "money", "cost": "money"}  # fmt: skip
"""A value noun's pattern in the lexicon's [values]; other value nouns ("phone number",
"code") are what follows the colon of the line about them."""
_PLACE = re.compile(
    r"\s+(?:(?:in|from|of|inside|on)\s+(?:the\s+|my\s+|this\s+|your\s+)?"
    r"(?:[\w-]+\.\w{1,5}|text|file|document|editor|note|notes|page|[\w-]+\s+list|list"
    r"|footer|header|sidebar|bottom\s+of\s+the\s+page|top\s+of\s+the\s+page)"
    r"|(?:at|near|towards?)\s+the\s+(?:top|bottom|end|start|beginning))\s*$",
    re.I,
)
"""Where the passage is, said after it ("in app.py", "of the document"): not its words."""
_IN_A_FILE = re.compile(
    r"\b(?:in|of|inside|within)\s+(?:the\s+|my\s+|this\s+|your\s+)?"
    r"(?:[\w-]+\.[a-z]{1,5}\b|file\b|document\b)", re.I
)


def in_a_file(clause: str) -> bool:
    """Whether the clause says it acts in a file's text ("… in playlist.txt", "… of the
    file"): a word it names there stands for its line."""
    return _IN_A_FILE.search(clause) is not None
_ABOUT = re.compile(
    r"^(?P<unit>lines?|paragraphs?|sentences?)\s+(?:with|containing|that\s+says?|that\s+contains?"
    r"|saying|reading|about|holding|mentioning|that\s+mentions?"
    r"|(?:that\s+)?(?:starts?|begins?|ends?|opens?|closes?)\s+with"
    r"|(?:starting|beginning|ending|opening|closing)\s+with)\s+(?P<words>.+)$",
    re.I,
)
_RANGE = re.compile(
    r"^(?P<unit>lines?|paragraphs?)\s+(?P<a>\d+)\s*(?:-|–|to|through)\s*(?P<b>\d+)$", re.I
)
_NUMBERED = re.compile(r"^(?P<unit>line|paragraph)\s+(?:number\s+|no\.?\s+|#)?(?P<n>\d+)$", re.I)
_TOKEN = re.compile(r"""(?<!\w)(?:'[^']*'|"[^"]*"|“[^”]*”|‘[^’]*’)(?!\w)|\S+""")
"""A word, or a quoted span whole."""
_FROM_TO = re.compile(
    r"^(?:the\s+)?(?:(?:text|words)\s+)?from\s+(?P<a>.+?)\s+(?:to|until|till|through|up\s+to)"
    r"\s+(?P<b>\S.*)$",
    re.I,
)
_SAYS = re.compile(
    r"^(?:where|(?:the\s+)?(?:bit|part|place|text|words?)\s+(?:that|which|where))\s+"
    r"(?:it\s+)?(?:says?|reads?)\s+(?=\S)",
    re.I,
)
"""Words before what a place in a text says, that say nothing of it."""
_SECTION = re.compile(
    r"^(?P<rest>.+?)\s+(?:(?:under|below|beneath|after)\s+(?:the\s+)?(?P<h1>.+?)"
    r"(?:\s+(?:heading|header|title|section))?"
    r"|(?:of|in|from|within|inside)\s+(?:the\s+)?(?P<h2>.+?)\s+(?:section|part|chapter))$",
    re.I,
)
"""A part of a page named by its heading, after the passage in it."""
_WITHIN = re.compile(r"\s+(?:of|in|from|within|inside)\s+(?=\S)", re.I)
_CALLED = re.compile(
    r"^(?P<noun>words?|phrase|text|line|sentence|paragraph|function|method|class)\s+"
    r"(?P<words>(?!\d+$)\S.*)$", re.I
)
_SENTENCE = re.compile(r"[^\s.!?](?:[^.!?\n]|[.!?](?=\w)|\n(?!\s*\n))*(?:[.!?]+|$)[ \t]*", re.M)
"""A sentence: to a stop that ends it (not the point in "quill.toml" or "3.10"), across a
wrapped line, not across a blank one."""
_QUIET = {"whole", "entire", "all", "every", "each", "of", "the", "text", "phrase", "bit", "part"}


@dataclass(frozen=True)
class Passage:
    """What a phrase says about the part of the text it names."""

    words: str = ""
    """What it holds or is about; exact when `exact`."""
    unit: str = ""
    """line, paragraph, sentence, word or block (a function of code with its body); a value
    kind ("email", "value"); "": the words."""
    nth: int | None = None
    """1-based; -1 the last; 0 the middle one."""
    count: int | None = None
    """How many units ("the last two lines"); None: one, or with `plural` every one that
    holds the words."""
    plural: bool = False
    exact: bool = False
    numbered: bool = False
    """Named by the editor's line number ("line 3"): blank lines count."""
    owner: str = ""
    """Whose value it is ("Lars's phone number"): the line about it after the owner's."""
    blank: bool = False
    """ "the empty lines": lines with nothing on them."""
    until: str = ""
    """ "from 'The ferry' to 'noon'": the words it ends with (it starts with `words`)."""
    within: Passage | None = None
    """The part it is counted in ("the 2nd sentence of the 3rd paragraph")."""
    section: str = ""
    """The heading of the part of a page it is under ("the second paragraph under
    Installation", "the first sentence of the Usage section"): counted there."""

    @property
    def named(self) -> bool:
        """Whether the phrase names a part of a text, not only some words."""
        return (
            bool(self.unit or self.until or self.within)
            or self.nth is not None
            or (self.count is not None)
        )


def read(phrase: str) -> Passage:
    """The passage `phrase` names, read from its words alone."""
    phrase = _PLACE.sub("", " ".join(phrase.split())).strip(" ,.")
    phrase = " ".join(phrase.split()[: _before_shown(phrase.lower().split())])
    if (quoted := unquote(phrase)) is not None:
        return Passage(words=quoted, exact=True)
    masked = mask(phrase)
    if m := _SAYS.match(masked):  # "where it says 'free shipping'": those words
        return read(phrase[m.end() :])
    if m := _SECTION.match(masked):  # "… under Installation", "… of the Usage section"
        group = "h1" if m["h1"] else "h2"
        heading = phrase[m.start(group) : m.end(group)]
        return replace(read(phrase[: m.end("rest")]), section=unquote(heading) or heading)
    if m := _FROM_TO.match(masked):  # "the text from 'The ferry' to 'noon'"
        first, last = read(phrase[m.start("a") : m.end("a")]), read(phrase[m.start("b") :])
        return Passage(words=first.words, exact=first.exact, until=last.words)
    for m in reversed(list(_WITHIN.finditer(masked))):  # "the 2nd sentence of the 3rd paragraph"
        within = read(phrase[m.end() :])
        if within.named and within.unit in UNITS.values():
            return replace(read(phrase[: m.start()]), within=within)
    lex = lexicon()
    said = [t[0] for t in _TOKEN.finditer(phrase)]
    while said and said[0].lower() in lex.determiners | _QUIET:
        said.pop(0)
    text = " ".join(said)
    if m := _RANGE.match(text):
        first, last = sorted((int(m["a"]), int(m["b"])))
        return Passage(unit=UNITS[m["unit"].lower()], nth=first, count=last - first + 1,
                       plural=True, numbered=True)  # fmt: skip
    if m := _NUMBERED.match(text):
        return Passage(unit=UNITS[m["unit"].lower()], nth=int(m["n"]), numbered=True)
    if m := _ABOUT.match(text):
        inner = read(m["words"])
        unit = m["unit"].lower()
        return Passage(words=inner.words, unit=UNITS[unit], plural=unit.endswith("s"),
                       exact=inner.exact)  # fmt: skip
    if m := _CALLED.match(text):  # "the word 'urgent'", "the line 'Call on arrival:'"
        inner, noun = read(m["words"]), m["noun"].lower()
        if noun in ("word", "words", "phrase", "text"):
            return inner
        if inner.exact or re.search(r"[#=(){}\[\];<>]", m["words"]) or UNITS[noun] == "block":
            return replace(inner, unit=UNITS[noun])  # code says it is text; an unquoted word
            # ("the Line tool") is not
    nth = count = None
    unit, plural, rest, exact = "", False, [], False
    for index, word in enumerate(said):
        bare = word.lower().strip(",.")
        if (quoted := unquote(word)) is not None:
            rest.append(quoted)
            exact = True
        elif bare in UNITS and index == len(said) - 1:  # "the passport line", not "Line tool"
            unit, plural = UNITS[bare], bare.endswith("s")
        elif bare == "middle" and nth is None:
            nth = 0
        elif (ordinal := lex.ordinal(bare)) is not None and nth is None and not rest:
            nth = ordinal
        elif bare == "both" and count is None:
            count, plural = 2, True
        elif (number := lex.number(bare)) is not None and count is None and not rest and \
                number == int(number) and 1 <= number <= 50:  # fmt: skip
            count, plural = int(number), True
        elif bare not in _QUIET:
            rest.append(word)
    words = " ".join(rest)
    if not unit and rest and (value := _valued(rest)) is not None:
        return value
    if unit == "line" and words.lower() in ("empty", "blank"):
        return Passage(unit="line", nth=nth, count=count, plural=plural, blank=True)
    if unit == "word" and words and nth is None:
        unit = ""  # "the word urgent": the words
    return Passage(words=words, unit=unit, nth=nth, count=count, plural=plural, exact=exact)


def _before_shown(said: list[str]) -> int:
    """How many words come before words at the end that say where it is shown ("the
    paragraph shown below")."""
    lex, end = lexicon(), len(said)
    while end > 1:
        start = next((i for i in range(1, end) if lex.longest(lex.shown, said, i) == end - i), None)
        if start is None:
            return end
        end = start
    return end


def _valued(words: list[str]) -> Passage | None:
    """ "Lars's phone number", "the email address": a value noun last, said with its owner
    or a kind before it."""
    lex = lexicon()
    last = words[-1].lower()
    if (
        last not in lex.value_nouns
        and last not in VALUE_KINDS
        or len(words) == 1
        and (last not in VALUE_KINDS)
    ):
        return None  # "the number": too little to go on
    kind = next((VALUE_KINDS[w.lower()] for w in reversed(words) if w.lower() in VALUE_KINDS),
                "value")  # fmt: skip
    owner = [re.sub(r"['’]s$", "", w) for w in words if re.search(r"['’]s$", w)]
    topic = [w for w in words if not re.search(r"['’]s$", w)]
    if kind == "value" and len(topic) > 1:
        topic = topic[:-1]  # "phone number": the line about the phone
    return Passage(words=" ".join(topic), unit=kind, owner=" ".join(owner))


# ---- finding it in a text ------------------------------------------------------------------------


def _units(text: str, unit: str) -> list[Span]:
    """The text's units in order; a line or a paragraph with its line break(s)."""
    if unit == "line":
        spans, start = [], 0
        for m in re.finditer(r"\n", text):
            spans.append((start, m.end()))
            start = m.end()
        if start < len(text):
            spans.append((start, len(text)))
        return spans
    if unit == "paragraph":  # with the blank lines after it; the last, with those before
        blocks = [(m.start(), m.end()) for m in re.finditer(r"(?:[^\n]*\S[^\n]*(?:\n|$))+", text)]
        ends = [b[0] for b in blocks[1:]] + [len(text)]
        spans = [(a, e) for (a, _), e in zip(blocks, ends, strict=True)]
        if len(blocks) > 1:
            previous = blocks[-2][1]
            spans[-1] = (previous, len(text))
        return spans
    if unit == "block":
        return _blocks(text)
    if unit == "sentence":  # across a wrapped line, not across a blank one
        return [m.span() for m in _SENTENCE.finditer(text)]
    return [(m.start(), m.end()) for m in re.finditer(r"[\w'’-]+", text)]


def _blocks(text: str) -> list[Span]:
    """Each line of code with a body indented under it (a function, a method, a class), to
    its body's end and a brace closing it, with the blank lines after it (the last, with the
    blank lines before it), so that taking it out leaves the gaps as they were."""
    lines = [(m.start(), m.end(), m[0]) for m in re.finditer(r"[^\n]*(?:\n|$)", text) if m[0]]

    def depth(line: str) -> int:
        return len(line.expandtabs(4)) - len(line.expandtabs(4).lstrip())

    spans = []
    for i, (start, _, line) in enumerate(lines):
        body = [j for j in range(i + 1, len(lines)) if lines[j][2].strip()]
        if not line.strip() or not body or depth(lines[body[0]][2]) <= depth(line):
            continue
        inside = [j for j in body if depth(lines[j][2]) > depth(line)]
        last = next((j for j in body if depth(lines[j][2]) <= depth(line)), len(lines)) - 1
        last = max(j for j in inside if j <= last)
        if line.rstrip().endswith("{") and last + 1 < len(lines) \
                and lines[last + 1][2].strip().startswith("}"):  # fmt: skip
            last += 1
        end = next((j for j in range(last + 1, len(lines)) if lines[j][2].strip()), len(lines))
        if end == len(lines):  # the last block takes the blank lines before it instead
            while i > 0 and not lines[i - 1][2].strip():
                i -= 1
            spans.append((lines[i][0], len(text)))
        else:
            spans.append((start, lines[end][0]))
    return spans


def section_of(text: str, heading: str) -> Span | None:
    """Where the part of a text under a heading is: from the line after the heading's own
    (a short line saying it, "## Usage" or "Usage", over text rather than in a list of such
    lines, a page's menu) to the next heading set like it (a "#" line, or a short line with no
    end mark after a blank line); None with no such heading."""
    lines = [(m.start(), m.end(), m[0]) for m in re.finditer(r"[^\n]*(?:\n|$)", text) if m[0]]
    wanted = _content(heading)

    def titled(line: str) -> bool:
        said = line.strip().lstrip("#").strip()
        return 0 < len(said.split()) <= HEADING_WORDS and said[-1:] not in ".!?:;,"

    said = [i for i, (_, _, line) in enumerate(lines) if titled(line) and _content(line) == wanted]
    body = [i for i in said  # a heading over text, not the same word in a menu of headings
            if (after := next((ln for _, _, ln in lines[i + 1 :] if ln.strip()), None))
            and not titled(after)]  # fmt: skip
    at = (body or said or [None])[0]
    if at is None:
        return None
    marked = lines[at][2].lstrip().startswith("#")

    def next_heading(i: int) -> bool:
        line = lines[i][2]
        if marked:
            return line.lstrip().startswith("#")
        return titled(line) and not lines[i - 1][2].strip()

    end = next((lines[i][0] for i in range(at + 1, len(lines)) if next_heading(i)), len(text))
    return lines[at][1], end


HEADING_WORDS = 6
"""Words a heading has at most."""


def _holds(part: str, passage: Passage) -> bool:
    if passage.exact:
        return _quoted(passage.words).search(part) is not None
    wanted = _content(passage.words)
    have = set(_content(part))
    return bool(wanted) and all(any(h.startswith(w) for h in have) for w in wanted)


def _content(text: str) -> list[str]:
    quiet = lexicon().determiners | _QUIET
    return [re.sub(r"'s$", "", w) for w in re.findall(r"[\w'.@-]*\w", text.lower())
            if w not in quiet]  # fmt: skip


def _about(parts: list[Span], text: str, words: str) -> list[Span]:
    """The one part that holds more of `words` than any other ("the dentist appointment
    line": "Tue: dentist at 14:00"); none when several hold as many."""
    wanted = [w for w in _content(words) if len(w) >= 3]
    scores = []
    for start, end in parts:
        have = _content(text[start:end])
        scores.append(sum(any(h.startswith(w) or w.startswith(h) and len(h) >= 3 for h in have)
                          for w in wanted))  # fmt: skip
    best = max(scores, default=0)
    if best == 0 or scores.count(best) > 1:
        return []
    return [parts[scores.index(best)]]


def find(text: str, passage: Passage) -> list[Span]:
    """Where `passage` is in `text`, in order; [] when the text holds no such part (or more
    than one where the phrase names one and nothing tells them apart)."""
    if passage.section:
        region = section_of(text, passage.section)
        if region is None:
            return []
        first = 1 if passage.count and passage.nth is None and not passage.words else passage.nth
        inner = find(text[region[0] : region[1]], replace(passage, section="", nth=first))
        return [(a + region[0], b + region[0]) for a, b in inner]
    if passage.within is not None:
        inner = replace(passage, within=None)
        for start, end in find(text, passage.within):
            if not (inner.words or inner.named):  # "the text in the 1st paragraph": all of it
                return [(start, end)]
            if found := find(text[start:end], inner):
                return [(a + start, b + start) for a, b in found]
        return []
    if passage.until:
        first = find(text, replace(passage, until=""))
        if not first:
            return []
        last = find(text[first[0][1] :], Passage(words=passage.until, exact=passage.exact))
        return [(first[0][0], first[0][1] + last[0][1])] if last else []
    if passage.unit in ("", "value") and not passage.words:
        return []
    if passage.unit == "":
        pattern = _quoted(passage.words) if passage.exact else _words(passage.words)
        found = [m.span() for m in pattern.finditer(text)]
        return found if passage.plural else found[:1]
    if passage.unit not in UNITS.values():
        return _value(text, passage)
    parts = _units(text, passage.unit)
    if passage.blank:
        parts = [p for p in parts if not text[p[0] : p[1]].strip()]
    elif not passage.numbered:
        parts = [p for p in parts if text[p[0] : p[1]].strip()]
    if passage.words:  # (a block by the line it starts with)
        held = [p for p in parts if _holds(text[p[0] : p[1]].lstrip("\n").split("\n", 1)[0]
                                           if passage.unit == "block" else text[p[0] : p[1]],
                                           passage)]  # fmt: skip
        if not held and not passage.plural and passage.count is None:
            held = _about(parts, text, passage.words)
        parts = held
    count = passage.count or (len(parts) if passage.plural and passage.nth is None else 1)
    if passage.nth is None:
        if passage.count is not None and len(parts) != passage.count:
            return []  # "the two DEBUG lines" where three say DEBUG: which two is unsaid
        return parts[:count]
    if passage.nth == 0:  # of an even number, the second of the two in the middle
        return parts[len(parts) // 2 : len(parts) // 2 + 1]
    if passage.nth < 0:
        return parts[-count:] if len(parts) >= count else []
    chosen = parts[passage.nth - 1 : passage.nth - 1 + count]
    return chosen if len(chosen) == count else []


def _quoted(words: str) -> re.Pattern[str]:
    """Quoted words as written, in any case, wrapped over lines anywhere between them."""
    return re.compile(r"\s+".join(map(re.escape, words.split())), re.I)


def _words(words: str) -> re.Pattern[str]:
    parts = [re.escape(w) for w in words.split()]
    return re.compile(r"(?<![\w@.-])" + r"\s+".join(parts) + r"(?![\w@-])", re.I)


def _value(text: str, passage: Passage) -> list[Span]:
    """ "Lars's phone number": on the line about the words (the first after the owner's),
    the value of its kind, else what follows the line's colon or equals sign."""
    lines = [(a, b) for a, b in _units(text, "line") if text[a:b].strip()]
    if passage.owner:
        owned = [p for p in lines if _holds(text[p[0] : p[1]], Passage(words=passage.owner))]
        lines = [p for p in lines if owned and p[0] >= owned[0][0]] or lines
    about = [p for p in lines if _holds(text[p[0] : p[1]], passage)] if passage.words else lines
    about = about or _about(lines, text, passage.words)
    pattern = lexicon().values.get(passage.unit)
    for start, end in about:
        line = text[start:end].rstrip("\n")
        if pattern is not None and (m := pattern.search(line)):
            return [(start + m.start(), start + m.end())]
        if pattern is None and (m := re.search(r"[:=]\s*(\S.*?)\s*$", line)):
            return [(start + m.start(1), start + m.end(1))]
    if pattern is not None and (m := pattern.search(text)):
        return [m.span()]
    return []


# ---- changing the text ---------------------------------------------------------------------------


def removed(text: str, spans: list[Span]) -> str:
    """`text` without `spans`; the space beside removed words goes too."""
    for start, end in reversed(merged_spans(spans)):
        if end == len(text) and text[start - 1 : start] == "\n" and text[end - 1] != "\n":
            start -= 1  # the last line, which has no line break of its own, takes the one before
        elif not text[start:end].endswith(("\n", " ")):  # a sentence holds its space
            if text[end : end + 1] == " ":
                end += 1
            elif text[start - 1 : start] == " ":
                start -= 1
        text = text[:start] + text[end:]
    return text


def clipped(text: str, spans: list[Span], unit: str = "") -> Clip:
    """What a cut or a copy of `spans` takes: whole lines with their line break, paragraphs
    without the blank lines round them."""
    parts = [text[a:b] for a, b in spans]
    if unit == "paragraph":
        return Clip("\n\n".join(p.strip("\n") for p in parts) + "\n", lines=True, paragraphs=True)
    lines = all(p.endswith("\n") or b == len(text) and (a == 0 or text[a - 1] == "\n")
                for p, (a, b) in zip(parts, spans, strict=True))  # fmt: skip
    if lines:
        return Clip("".join(p if p.endswith("\n") else p + "\n" for p in parts), lines=True)
    return Clip(" ".join(p.strip() for p in parts))


def placed(text: str, clip: Clip, where: str, anchor: Span | None = None,
           anchor_lines: bool = False) -> str:  # fmt: skip
    """`text` with `clip` put at its "start" or "end", "before" or "after" `anchor`, or at the
    "line start" or "line end" of the anchor's line. Lines go on lines of their own (beside
    the anchor's line); words go right beside words, one space between."""
    if where in ("line start", "line end") and anchor is not None:
        words = clip.text.strip()
        start = text.rfind("\n", 0, anchor[0]) + 1
        if where == "line start":
            return text[:start] + words + " " + text[start:]
        end = text.find("\n", anchor[0])
        end = len(text) if end < 0 else end
        gap = "" if text[start:end].endswith(" ") or start == end else " "
        return text[:end] + gap + words + text[end:]
    if clip.lines or anchor_lines:
        body = clip.text if clip.text.endswith("\n") else clip.text + "\n"
        ended = text if not text or text.endswith("\n") else text + "\n"
        if clip.paragraphs:
            body = body + "\n" if where != "end" else body
            ended = ended.rstrip("\n") + "\n\n" if ended.strip() else ended
        if where == "start":
            return body + text
        if where == "end" or anchor is None:
            return ended + body
        start = text.rfind("\n", 0, anchor[0]) + 1
        if where == "before":
            return text[:start] + body + text[start:]
        at = anchor[1]
        if text[at - 1 : at] != "\n":  # words on the line: after the line
            if (at := text.find("\n", at) + 1) == 0:
                return ended + body
        return text[:at] + body + text[at:]
    words = clip.text.strip()
    if where == "start":
        return words + " " + text
    if where == "end" or anchor is None:
        body = text.rstrip("\n")
        return body + (" " if body and not body.endswith(" ") else "") + words + text[len(body) :]
    start, end = anchor
    if where == "before":
        return text[:start] + words + " " + text[start:]
    return text[:end] + " " + words + text[end:]


def moved(text: str, spans: list[Span], unit: str, where: str, anchor: Span | None = None,
          anchor_lines: bool = False) -> str | None:  # fmt: skip
    """`text` with the lines or paragraphs at `spans` taken out and put back at its "start"
    or "end", or "before" or "after" `anchor` (a span of `text`); None when the anchor is
    inside what moves."""
    clip = clipped(text, spans, unit)
    rest = removed(text, spans)
    if anchor is not None:
        merged = merged_spans(spans)
        if any(a < anchor[1] and anchor[0] < b for a, b in merged):
            return None
        shift = sum(b - a for a, b in merged if b <= anchor[0])
        anchor = (anchor[0] - shift, anchor[1] - shift)
    return placed(rest, clip, where, anchor, anchor_lines or clip.lines)
