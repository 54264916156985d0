"""The offline reader's words, loaded from `assets/lexicon.toml`: verbs and their frames,
intents, value patterns, number words. Data, not code: a synonym is taught by adding it there.

Phrases are matched on words (`words_of`), so "Sign up" matches "sign up" anywhere the words
line up, whatever the spacing or letter case.
"""

from __future__ import annotations

import functools
import locale
import math
import re
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from typing import Any

__all__ = ["Frame", "Intent", "Lexicon", "lexicon", "phrase_at", "words_of"]

_WORD = re.compile(r"[\w@.+'’$€£%/:-]+|[^\w\s]", re.U)


def words_of(text: str) -> list[str]:
    """Lower-case words of `text`, punctuation apart, so phrases can be compared word by word."""
    text = re.sub(r"[‐-―−]", "-", text.lower())  # "51–200" as a keyboard writes it
    return [w.strip(".").replace("’", "'") or w for w in _WORD.findall(text)]


def phrase_at(words: Sequence[str], start: int, phrase: Sequence[str]) -> int:
    """How many of `words` from `start` the phrase covers (0: no match)."""
    if start + len(phrase) > len(words):
        return 0
    if any(words[start + offset] != wanted for offset, wanted in enumerate(phrase)):
        return 0
    return len(phrase)


@dataclass(frozen=True)
class Frame:
    """How the words after a verb split into roles: literals (alternatives) and {slots}."""

    action: str
    text: str
    parts: tuple[tuple[str, ...] | str, ...]
    """Per word of the frame: its alternative literal words, or a slot's name."""
    literals: int
    order: int

    @classmethod
    def parse(cls, action: str, text: str, order: int) -> Frame:
        parts = tuple(
            t[1:-1] if t.startswith("{") and t.endswith("}") else tuple(t.split("|"))
            for t in text.split()
        )
        literals = sum(isinstance(p, tuple) for p in parts)
        return cls(action, text, parts, literals, order)

    def match(self, words: Sequence[str]) -> dict[str, tuple[int, int]] | None:
        """Slot spans (start, end) over `words`, as few words per slot as the literals allow;
        None when the frame does not fit all the words."""
        return _match(self.parts, words, 0, {})


def _match(
    parts: Sequence[tuple[str, ...] | str],
    words: Sequence[str],
    start: int,
    slots: dict[str, tuple[int, int]],
) -> dict[str, tuple[int, int]] | None:
    if not parts:
        return slots if start == len(words) else None
    part, rest = parts[0], parts[1:]
    if isinstance(part, tuple):
        for alternative in part:
            if n := phrase_at(words, start, (alternative,)):
                if (found := _match(rest, words, start + n, slots)) is not None:
                    return found
        return None
    if not rest:  # the last slot takes the rest
        return {**slots, part: (start, len(words))} if start < len(words) else None
    for end in range(start + 1, len(words)):
        if (found := _match(rest, words, end, {**slots, part: (start, end)})) is not None:
            return found
    return None


@dataclass(frozen=True)
class Intent:
    """What a button means: the verbs that ask for it, the labels that carry it (best first),
    label words that lean towards it, keys to press when no button does, and whether a
    negation in a label fits it (-1), is refused (1), or does not matter (0)."""

    name: str
    verbs: tuple[tuple[str, ...], ...]
    labels: tuple[str, ...]
    words: frozenset[str]
    keys: tuple[str, ...]
    polarity: int


def _locale_day_first() -> bool:
    """Whether the user's locale writes the day before the month (en_GB, de_DE, nb_NO); C and
    en_US write the month first."""
    try:
        saved = locale.setlocale(locale.LC_TIME)
        locale.setlocale(locale.LC_TIME, "")
        try:
            written = locale.nl_langinfo(locale.D_FMT)
        finally:
            locale.setlocale(locale.LC_TIME, saved)
    except (locale.Error, AttributeError):
        return False
    day, month = written.find("%d"), written.find("%m")
    return 0 <= day < month


_CASED = re.compile(r"\$([ULCS]?)(\d)")
"""A group in a rewrite's meaning: $1 as said, $U1 upper case, $L1 lower, $C1 capitalised,
$S1 spelt right ("fix the typo recieve": receive)."""
_GROUP = re.compile(r"\$[ULCS]?(\d)")


@functools.cache
def _speller() -> Any:
    """English words by how often they are written (pyspellchecker's list, in its wheel)."""
    from spellchecker import SpellChecker

    return SpellChecker()


def _spelt(words: str) -> str:
    """Each word of `words` as a dictionary spells it, its capital kept; a word the list
    knows, or has nothing close to, as it is."""

    def right(m: re.Match[str]) -> str:
        word = m[0]
        fixed = _speller().correction(word.lower()) or word.lower()
        return fixed[:1].upper() + fixed[1:] if word[:1].isupper() else fixed

    return re.sub(r"[^\W\d_]{2,}", right, words)


def _cased(words: str, case: str) -> str:
    """`words` in the case a rewrite asks for ("uppercase urgent": URGENT), quotes kept."""
    if case == "S":
        return _spelt(words)
    if case == "U":
        return words.upper()
    if case == "L":
        return words.lower()
    if case == "C":
        return re.sub(r"[^\W\d_]", lambda m: m[0].upper(), words, count=1)
    return words


class Lexicon:
    """The loaded word lists, with the look-ups the reader needs."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.determiners = frozenset(data["determiners"])
        self.fillers = _phrases(data["fillers"])
        self.trailers = _phrases(data["trailers"])
        self.negations = _phrases(data["negations"])
        self.conjunctions = frozenset(data["conjunctions"])
        self.pairs = _phrases(data["pairs"])
        self.all_text = frozenset(data["all_text"])
        self.key_phrases = {k: tuple(v) for k, v in data["key_phrases"].items()}
        self.means = _phrases(data["means"])
        self.pronouns = _phrases(data["pronouns"])
        self.persons = frozenset(data["persons"])
        self.linkers = frozenset(data["linkers"])
        self.scope_openers = frozenset(data["scope_openers"])
        self.picture_nouns = frozenset(data["picture_nouns"])
        self.thing_nouns = frozenset(data["thing_nouns"])
        self.slider_ends = {end: frozenset(words) for end, words in data["slider_ends"].items()}
        self.exceptions = re.compile(
            r"\s*\b(?:" + "|".join(map(re.escape, data["exceptions"])) + r")\b\s*", re.I
        )
        self.shared_object_verbs = _phrases(data["shared_object_verbs"])
        self.abbreviations = frozenset(data["abbreviations"])
        self.confirm: tuple[str, ...] = tuple(data["confirm"])
        self.rewrites = tuple(
            (re.compile(pattern, re.I), meant) for pattern, meant in data["rewrites"]
        )
        for idiom, meant in self.rewrites:  # a slip in the data fails at load, not mid-run
            if max((int(n) for n in _GROUP.findall(meant)), default=0) > idiom.groups:
                raise ValueError(f"lexicon rewrite {idiom.pattern!r}: {meant!r} names a group "
                                 "it does not have")  # fmt: skip
        self.statements = tuple(re.compile(p, re.I) for p in data["statements"])
        self.complaints = tuple(re.compile(p, re.I) for p in data["complaints"])
        self.every_row = frozenset(data["every_row"])
        self.every_row_fillers = frozenset(data["every_row_fillers"])
        self.amends = frozenset(data["amends"])
        self.starts = frozenset(data["starts"])
        self.ends = frozenset(data["ends"])
        self.repeat_fields = frozenset(data["repeat_fields"])
        self.keep_unconfirmed = _phrases(data["keep_unconfirmed"])
        self.relatives = frozenset(data["relatives"])
        self.relative_fillers = frozenset(data["relative_fillers"])
        self.shown = _phrases(data["shown"])
        self.value_nouns = frozenset(data["value_nouns"])
        self.code_nouns = frozenset(data["code_nouns"])
        self.value_of = _phrases(data["value_of"])
        self.solving = _phrases(data["solving"])
        self.similar_to = _phrases(data["similar_to"])
        self.clause_starts = tuple(data["clause_starts"])
        self.faults = tuple(data["faults"])
        self.duplicate_words = frozenset(data["duplicate_words"])
        self.exits = frozenset(data["exits"])
        self.remove_icons = frozenset(data["remove_icons"])
        self.owned_things = frozenset(data["owned_things"])
        self.mail_headers = frozenset(data["mail_headers"])
        self.placements = tuple(
            (re.compile(p, re.I), ()) if isinstance(p, str)
            else (re.compile(p[0], re.I), tuple(p[1].split("|")))
            for p in data["placements"]
        )  # fmt: skip
        self.icon_words: dict[str, str] = dict(data["icon_words"])
        self.participle_labels = tuple((end, label) for end, label in data["participle_labels"])
        self.body_fields = frozenset(data["body_fields"])
        self.body_words = frozenset(data["body_words"])
        self.colour_nouns = frozenset(data["colour_nouns"])
        self.shade_words = frozenset(data["shade_words"])
        self.participles: dict[str, str] = {done: verb for done, verb in data["participles"]}
        self.shape_nouns = frozenset(data["shape_nouns"])
        self.text_parts = tuple(data["text_parts"])
        self.verbs: dict[str, tuple[tuple[str, ...], ...]] = {
            action: _phrases(spec.get("verbs", [])) for action, spec in data["actions"].items()
        }
        self.scrolling = _phrases(data["actions"]["find"].get("scrolling", []))
        self.drag_containers = frozenset(data["actions"]["drag"]["containers"])
        self.lowering = _phrases(data["actions"]["set"].get("lowering", []))
        self.frames: dict[str, tuple[Frame, ...]] = {}
        order = 0
        for action, spec in data["actions"].items():
            frames = []
            for text in spec.get("frames", []):
                frames.append(Frame.parse(action, text, order))
                order += 1
            self.frames[action] = tuple(frames)
        self.intents = {
            name: Intent(
                name,
                _phrases(spec["verbs"]),
                tuple(spec["labels"]),
                frozenset(spec["words"]),
                tuple(spec.get("keys", [])),
                int(spec.get("polarity", 0)),
            )
            for name, spec in data["intents"].items()
        }
        self.submit: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in data["submit"].items()}
        self.hints: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in data["hints"].items()}
        self.roles: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in data["roles"].items()}
        self.values = {k: re.compile(rf"(?:{v})", re.I) for k, v in data["values"].items()}
        fields = dict(data["fields"])
        self.months: tuple[str, ...] = tuple(fields.pop("months"))
        self.month_abbreviations: tuple[str, ...] = tuple(fields.pop("month_abbreviations"))
        ambiguous = fields.pop("ambiguous_dates")
        self.day_first = ambiguous == "day" or (ambiguous == "locale" and _locale_day_first())
        self.fields: dict[str, tuple[str, ...]] = {k: tuple(v) for k, v in fields.items()}
        self.measures: dict[str, str] = dict(data["measures"])
        self.units: dict[str, str] = {
            unit: group for group, units in data["units"].items() for unit in units
        }
        self.vocabulary = frozenset(re.findall(r"[a-z]+", str(data).lower()))
        """Every word the lexicon holds: none of them is a misspelling of another."""
        self.comment_markers = {
            ending: marker for marker, endings in data["comment_markers"].items()
            for ending in endings
        }  # fmt: skip
        self.file_kinds: dict[tuple[str, ...], tuple[str, ...]] = {
            tuple(k.split()): tuple(v) for k, v in data["file_kinds"].items()
        }
        self.unit_scales: dict[str, float] = {k: float(v) for k, v in data["unit_scales"].items()}
        self.comparisons: dict[tuple[str, ...], str] = {
            tuple(phrase.split()): op
            for op, phrases in data["comparisons"].items()
            for phrase in phrases
        }
        self.column_verbs: dict[tuple[str, ...], tuple[str, ...]] = {
            tuple(k.split()): tuple(v) for k, v in data["column_verbs"].items()
        }
        self.day_parts: dict[str, tuple[float, float]] = {
            k: (float(v[0]), float(v[1])) for k, v in data["day_parts"].items()
        }
        self.choosers = frozenset(data["choosers"])
        self.buying = frozenset(data["buying"])
        self.holders = frozenset(data["holders"])
        self.drawers = frozenset(data["drawers"])
        self.block_nouns = frozenset(data["block_nouns"])
        self.totals = frozenset(data["totals"])
        self.makers: dict[str, tuple[str, ...]] = {v: tuple(b) for v, b in data["makers"].items()}
        self.row_verbs = frozenset(data["row_verbs"])
        self.edit_entries = _phrases(data["edit_entries"])
        self.superlatives: dict[tuple[str, ...], tuple[str, str]] = {
            tuple(k.split()): (v[0], v[1]) for k, v in data["superlatives"].items()
        }
        self.synonyms: dict[str, tuple[str, ...]] = {
            k: tuple(v) for k, v in data["synonyms"].items()
        }
        self.quiet_forms = _phrases(data["actions"]["form"].get("quiet", []))
        numbers = dict(data["numbers"])
        self.ordinals: tuple[str, ...] = tuple(numbers.pop("ordinals"))
        self.numbers: dict[str, int] = numbers
        places = dict(data["places"])
        self.settings_entries: tuple[str, ...] = tuple(places.pop("settings_entries"))
        self.settings_menus: tuple[str, ...] = tuple(places.pop("settings_menus"))
        self.places: dict[str, frozenset[str]] = {k: frozenset(v) for k, v in places.items()}
        arithmetic = dict(data["arithmetic"])
        self.calculator_keys: dict[str, str] = arithmetic.pop("keys")
        self.calculation_asks = frozenset(arithmetic.pop("asks"))
        self.calculator_buttons: dict[str, tuple[str, ...]] = {
            k: tuple(v) for k, v in arithmetic.pop("buttons").items()
        }
        self.operations: dict[str, tuple[tuple[str, ...], ...]] = {
            k: _phrases(v) for k, v in arithmetic.items()
        }

    # ---- look-ups ---------------------------------------------------------------------------

    def clause_verbs(self) -> frozenset[str]:
        """The verb phrases that start a clause after "and" or a comma: every action's and
        intent's, less the button-label verbs and looks ("Terms and Conditions", "Cut and
        Paste" stay names)."""
        found = {
            " ".join(p)
            for action, phrases in self.verbs.items()
            if action not in ("label", "look", "activate")
            for p in phrases
        }
        found |= {" ".join(p) for i in self.intents.values() for p in i.verbs}
        return frozenset(found | set(self.clause_starts))

    def verb_at(self, action: str, words: Sequence[str], start: int = 0) -> int:
        """Words covered by the longest verb of `action` at `start` (0: none)."""
        return max((phrase_at(words, start, p) for p in self.verbs.get(action, ())), default=0)

    def intent_at(self, words: Sequence[str], start: int = 0) -> tuple[Intent, int] | None:
        """The intent whose verb is the longest at `start`, and how many words it covers."""
        best: tuple[Intent, int] | None = None
        for intent in self.intents.values():
            for phrase in intent.verbs:
                n = phrase_at(words, start, phrase)
                if n and (best is None or n > best[1]):
                    best = (intent, n)
        return best

    def longest(self, phrases: Sequence[Sequence[str]], words: Sequence[str], start: int) -> int:
        return max((phrase_at(words, start, p) for p in phrases), default=0)

    def ordinal(self, word: str) -> int | None:
        """1 for "first" or "1st", 4 for "fourth" or "4th", -1 for "last"; None otherwise."""
        word = word.lower()
        if word == "last":
            return -1
        if word in self.ordinals:
            return self.ordinals.index(word) + 1
        m = re.fullmatch(r"(\d+)(?:st|nd|rd|th)", word)
        return int(m[1]) if m else None

    def value_kind(self, text: str) -> str | None:
        """The value pattern `text` is wholly (email, url, time, date, money, number, path)."""
        text = text.strip()
        return next((k for k, p in self.values.items() if p.fullmatch(text)), None)

    def rewritten(self, clause: str, masked: str | None = None) -> str | None:
        """The plain words an idiom of the lexicon means ("leave the trash alone": "keep the
        trash"; "" for nothing to do), or None when no idiom is the whole clause. `masked`:
        the clause with its quotes blanked, matched instead so quoted words stay as said."""
        for idiom, meant in self.rewrites:
            if (said := idiom.fullmatch(masked or clause)) is not None:
                parts = [clause[a:b] for a, b in (said.span(g) for g in range(1, idiom.groups + 1))]
                return re.sub(_CASED, lambda m, p=parts: _cased(p[int(m[2]) - 1], m[1]), meant)
        return None

    def unit(self, text: str) -> str | None:
        """What the unit `text` measures ("°C", "degrees": temperature), None for no unit."""
        said = re.sub(r"\s+", " ", text.strip().lower().rstrip("."))
        return self.units.get(said) or self.units.get(said.replace(" ", ""))

    def number(self, word: str) -> float | None:
        """A number written in digits or as a word ("twelve", "thirty"); None otherwise."""
        word = word.lower().strip()
        if re.fullmatch(r"[-+]?(?:\d[\d,]*(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?", word):
            value = float(word.replace(",", ""))
            return value if math.isfinite(value) else None  # not "nan", "inf", "1e999"
        if word in self.numbers:
            return float(self.numbers[word])
        if "-" in word:  # "twenty-one"
            tens, _, unit = word.partition("-")
            if tens in self.numbers and unit in self.numbers:
                return float(self.numbers[tens] + self.numbers[unit])
        return None


def _phrases(items: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """Phrases as word tuples, longest first so the longest match is tried first."""
    return tuple(sorted((tuple(words_of(p)) or (p,) for p in items), key=len, reverse=True))


@functools.cache
def lexicon() -> Lexicon:
    """The shipped lexicon (read once)."""
    text = resources.files("clickwright.assets").joinpath("lexicon.toml").read_text("utf-8")
    return Lexicon(tomllib.loads(text))
