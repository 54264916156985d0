"""The task corpus of issue 13: tasks as new users write them, on real third-party programs.

Each task (benchmarks/tasks/*.toml) gets a fresh Xvfb display (numbers :70-:89), a session
D-Bus (so GTK programs publish their accessibility tree, as on a desktop), the openbox window
manager and its program; then exactly what a user types runs:

    .venv/bin/clickwright run --display :N "<task>" --json

with the default settings (an empty config file, no --yes, no terminal: risky actions the
approval policy does not clear stop the run), under a time limit, and the task's check reads
the program's real output: what a dialog printed, the saved file, the settings file the
program wrote, the number on the calculator's display (copied with the program's own Ctrl+C),
or the form a web page posted to the local server this script runs.

Success is the check alone; what the agent said (done, failed, refused) is recorded beside it.
Prints success per program, per phrasing class and per split (dev / held-out) and writes a
results JSON; run folders (run.json, steps, report) go under the output folder.

    .venv/bin/python benchmarks/tasks.py [--program zenity,yad] [--split heldout]
        [--id 'web-*'] [--jobs 1] [--time-limit 150] [--out bench/tasks-STAMP] [--list]

The held-out third is fixed by rule (`held_out`), not by hand: per program, the tasks whose
sha256("clickwright-issue13/<id>") sorts in the first third. The corpus files store each
task's split and tests/test_task_corpus.py checks that they match the rule.

Another corpus folder runs with --corpus: benchmarks/tasks_heldout2/ (held-out set 2, written
by a helper and never read by the engineers tuning the agent) is held out whole, every task's
split "heldout2"; its pages are in its own web/ folder and it adds four programs (featherpad,
gnumeric, qalculate-gtk, gxmessage) and the `sheet` check (a spreadsheet saved by gnumeric,
read back with its ssconvert).

    .venv/bin/python benchmarks/tasks.py --corpus benchmarks/tasks_heldout2 --jobs 1

Set 4 (benchmarks/tasks_dev4/ and benchmarks/tasks_heldout3/) was written as one set by a helper
and split by a rule fixed before any task was written (`split_set4`): per program, the half
(rounded down) of the ids whose sha256("clickwright-set4/<id>") sorts first is held out, split
"heldout3", the rest is "dev"; web tasks by their page (the first half of the pages in
sha256("clickwright-set4/<page>") order, each with its tasks). The engineers tuning the agent
read only tasks_dev4. Set 5 (benchmarks/tasks_dev5/ and benchmarks/tasks_heldout4/) was made
the same way and split by the same rule with the salt "clickwright-set5/" (`split_set5`, both
built on `split_set`), its held-out half "heldout4"; the engineers read only tasks_dev5. Set 6
(benchmarks/tasks_dev6/ and benchmarks/tasks_heldout5/: dragging, selecting text, colours) is
split the same way with the salt "clickwright-set6/" (`split_set6`), its held-out half
"heldout5"; the engineers read only tasks_dev6. Set 7 (benchmarks/tasks_dev7/) is dev
material the engineer wrote after reading set 6's dev failures (colours, moves said as where
things should be, sets of things by colour): all dev, measured against set 6's held-out half.
Set 9 (benchmarks/tasks_dev9/ and benchmarks/tasks_heldout6/: colours, selecting text, dragging,
editing in text editors, values cut out of a sentence) was written by a helper as one set and split
the same way with the salt "clickwright-set9/" (`split_set9`), its held-out half "heldout6"; the
engineers read only tasks_dev9. Set 10 (benchmarks/tasks_dev10/ and benchmarks/tasks_heldout7/:
selecting text and acting on it, targets named by colour, ordinary web forms, tables, settings and
dialogs, editing in text editors, values cut out of a sentence) was written by a helper as one set
and split the same way with the salt "clickwright-set10/" (`split_set10`), its held-out half
"heldout7"; the engineers read only tasks_dev10. Set 11 (benchmarks/tasks_dev11/: a calendar, a
web shop's product page and cart, a document review tool with suggestions and comments) was
written by a helper as dev material only, after set 10's held-out half had stopped moving; its
page kinds were chosen from the held-out pages' file names alone, their contents unread. Set 12
(benchmarks/tasks_dev12/ and benchmarks/tasks_heldout8/: four web apps of kinds set 11 does not
have, an agenda calendar, a mail inbox, a grocery shop and a task board) was written by helpers and
split by page before any task was written, with the salt "clickwright-set12/" (`split_set12`): its
held-out half is "heldout8"; the engineers read only tasks_dev12.

Reference mode checks the checks, not the agent. A task may carry `reference = [...]`: steps
that do the task by hand on its display, each an xdotool command line ("key ctrl+s",
"type --delay 40 'Oslo'", "search --sync --name Save windowactivate --sync") or "sleep 0.5".
`--reference` runs those steps instead of clickwright, then the task's check: every task must
pass. `--reference none` runs nothing before the check: every task must fail (a check that
passes when nothing was done measures nothing). Run them one task at a time:

    .venv/bin/python benchmarks/tasks.py --corpus benchmarks/tasks_dev4 --reference --jobs 1
    .venv/bin/python benchmarks/tasks.py --corpus benchmarks/tasks_dev4 --reference none

`--against REV` runs the agent of a git revision (laid out in the results folder and put on
PYTHONPATH), so a long run measures one version while the working tree changes, and a
revision before a change can be measured beside it:

    .venv/bin/python benchmarks/tasks.py --corpus benchmarks/tasks_heldout3 --against 9171242
"""

from __future__ import annotations

import argparse
import configparser
import csv
import fnmatch
import functools
import hashlib
import http.server
import json
import math
import os
import queue
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.parse
from collections import Counter, defaultdict
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "benchmarks" / "tasks"
WEB = CORPUS / "web"
CLICKWRIGHT = ROOT / ".venv" / "bin" / "clickwright"
SALT = "clickwright-issue13/"
SET4_SALT = "clickwright-set4/"
SET5_SALT = "clickwright-set5/"
SET6_SALT = "clickwright-set6/"
SET9_SALT = "clickwright-set9/"
SET10_SALT = "clickwright-set10/"
SET12_SALT = "clickwright-set12/"
WHOLE_SPLITS = {
    "tasks_heldout2": "heldout2",
    "tasks_dev2": "dev",
    "tasks_dev3": "dev",
    "tasks_dev4": "dev",
    "tasks_heldout3": "heldout3",
    "tasks_dev5": "dev",
    "tasks_heldout4": "heldout4",
    "tasks_dev6": "dev",
    "tasks_heldout5": "heldout5",
    "tasks_dev7": "dev",
    "tasks_dev8": "dev",
    "tasks_dev9": "dev",
    "tasks_heldout6": "heldout6",
    "tasks_dev10": "dev",
    "tasks_heldout7": "heldout7",
    "tasks_dev11": "dev",
    "tasks_dev12": "dev",
    "tasks_heldout8": "heldout8",
}
"""Corpus folders whose tasks all have one split (no held-out third): held-out sets 2 to 8,
and the second to twelfth dev sets."""
SPLITS = (
    "dev",
    "heldout",
    "heldout2",
    "heldout3",
    "heldout4",
    "heldout5",
    "heldout6",
    "heldout7",
    "heldout8",
)
PROGRAMS = {
    # program: the Debian package that provides it (they go into the Makefile)
    "zenity": "zenity",
    "yad": "yad",
    "mousepad": "mousepad",
    "galculator": "galculator",
    "idle": "idle3",
    "chromium": "chromium",
}
MORE_PROGRAMS = {
    # programs only later corpora use (benchmarks/tasks_heldout2/, then set 4)
    "featherpad": "featherpad",
    "gnumeric": "gnumeric",
    "qalculate": "qalculate-gtk",
    "gxmessage": "gxmessage",
    "kdialog": "kdialog",
    "speedcrunch": "speedcrunch",
    "geany": "geany",
    "pluma": "pluma",
    "l3afpad": "l3afpad",
}
ALL_PROGRAMS = {**PROGRAMS, **MORE_PROGRAMS}
PROGRAM_TOOLS = {
    "zenity": ("zenity",),
    "yad": ("yad",),
    "mousepad": ("mousepad",),
    "galculator": ("galculator",),
    "idle": ("/usr/bin/idle",),
    "chromium": ("chromium",),
    "featherpad": ("featherpad",),
    "gnumeric": ("gnumeric", "ssconvert"),
    "qalculate": ("qalculate-gtk",),
    "gxmessage": ("gxmessage",),
    "kdialog": ("kdialog",),
    "speedcrunch": ("speedcrunch",),
    "geany": ("geany",),
    "pluma": ("pluma",),
    "l3afpad": ("l3afpad",),
}
COPY_DISPLAY = {
    # calculator: (its window class, its own "copy the result" shortcut)
    "galculator": ("galculator", "ctrl+c"),
    "qalculate": ("qalculate-gtk", "ctrl+alt+c"),
    "speedcrunch": ("speedcrunch", "ctrl+r"),  # Edit > Copy Last Result
}
SUPPORT_PACKAGES = ("openbox", "xclip", "dbus-daemon", "at-spi2-core", "x11-utils", "xdotool")
TOOLS = ("Xvfb", "openbox", "xclip", "xdotool", "xprop", "dbus-daemon", "zenity", "yad")
TOOLS += ("mousepad", "galculator", "/usr/bin/idle", "chromium")
CLASSES = (
    "plain",
    "cut-value",
    "multi-field",
    "intent",
    "from-to",
    "list",
    "row-by-content",
    "widget-value",
    "editor",
    "find-hidden",
    "read-then-use",
    "consent",
    "arithmetic",
    "drag",
    "text-selection",
    "colour",
)
CHECK_KINDS = ("stdout", "exit", "file", "ini", "display", "submission", "sheet")
DISPLAYS = range(70, 90)
SCREEN = (1280, 800)
CHROMIUM_FLAGS = (
    "--no-sandbox",  # Chromium refuses to run as root without it
    "--test-type",  # no "unsupported command-line flag" bar over the page
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--password-store=basic",
    "--start-maximized",
)


# ---- the corpus ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    id: str
    program: str
    task: str
    classes: tuple[str, ...]
    split: str
    setup: dict[str, Any]
    check: dict[str, Any]
    source: str
    corpus: Path = CORPUS
    """The corpus folder (its web/ holds the task's page)."""
    reference: tuple[str, ...] = ()
    """Steps doing the task by hand (xdotool command lines, "sleep N"), for --reference."""

    @property
    def scale(self) -> int | None:
        return self.setup.get("scale") if self.program == "chromium" else None

    @property
    def group(self) -> str:
        """The program, with the device scale for web pages (chromium@1, chromium@2)."""
        return f"chromium@{self.scale}" if self.scale else self.program


def load_corpus(folder: Path = CORPUS) -> list[Task]:
    folder = Path(folder).resolve()
    tasks = []
    for path in sorted(folder.glob("*.toml")):
        for raw in tomllib.loads(path.read_text(encoding="utf-8")).get("task", []):
            tasks.append(
                Task(
                    id=raw["id"],
                    program=raw["program"],
                    task=raw["task"],
                    classes=tuple(raw.get("classes", ())),
                    split=raw.get("split", ""),
                    setup=raw.get("setup", {}),
                    check=raw.get("check", {}),
                    source=path.name,
                    corpus=folder,
                    reference=tuple(raw.get("reference", ())),
                )
            )
    return tasks


def _ranked(tasks: list[Task], salt: str) -> list[list[str]]:
    """Per program, the ids sorted by their salted sha256 (the order the split rules cut)."""
    by_program: dict[str, list[str]] = defaultdict(list)
    for task in tasks:
        by_program[task.program].append(task.id)
    key = lambda i: hashlib.sha256((salt + i).encode()).hexdigest()  # noqa: E731
    return [sorted(ids, key=key) for ids in by_program.values()]


def held_out(tasks: list[Task]) -> set[str]:
    """The fixed rule: per program, the third of the ids whose salted sha256 sorts first."""
    return {i for ranked in _ranked(tasks, SALT) for i in ranked[: len(ranked) // 3]}


def split_set(tasks: list[Task], salt: str, held: str) -> dict[str, str]:
    """A set's fixed rule, on both its folders together: per program, the first half (rounded
    down) of the ids in sha256(salt + id) order is `held`, the rest "dev". Web tasks (chromium)
    are split by page, so no page is in both halves: the first half of the pages in
    sha256(salt + page file name) order is held out with its tasks."""
    web = [t for t in tasks if t.program == "chromium"]
    split = {
        i: held if n < len(ranked) // 2 else "dev"
        for ranked in _ranked([t for t in tasks if t.program != "chromium"], salt)
        for n, i in enumerate(ranked)
    }
    pages = sorted(
        {str(t.setup.get("page", "")) for t in web},
        key=lambda p: hashlib.sha256((salt + p).encode()).hexdigest(),
    )
    first = set(pages[: len(pages) // 2])
    split.update({t.id: held if t.setup.get("page") in first else "dev" for t in web})
    return split


def split_set4(tasks: list[Task]) -> dict[str, str]:
    """Set 4's fixed rule (`split_set` with the salt "clickwright-set4/"): "heldout3" or "dev"."""
    return split_set(tasks, SET4_SALT, "heldout3")


def split_set5(tasks: list[Task]) -> dict[str, str]:
    """Set 5's fixed rule (`split_set` with the salt "clickwright-set5/"): "heldout4" or "dev"."""
    return split_set(tasks, SET5_SALT, "heldout4")


def split_set6(tasks: list[Task]) -> dict[str, str]:
    """Set 6's fixed rule (`split_set` with the salt "clickwright-set6/"): "heldout5" or "dev"."""
    return split_set(tasks, SET6_SALT, "heldout5")


def split_set9(tasks: list[Task]) -> dict[str, str]:
    """Set 9's fixed rule (`split_set` with the salt "clickwright-set9/"): "heldout6" or "dev"."""
    return split_set(tasks, SET9_SALT, "heldout6")


def split_set10(tasks: list[Task]) -> dict[str, str]:
    """Set 10's fixed rule (`split_set` with the salt "clickwright-set10/"): "heldout7" or "dev"."""
    return split_set(tasks, SET10_SALT, "heldout7")


def split_set12(tasks: list[Task]) -> dict[str, str]:
    """Set 12's fixed rule (`split_set` with the salt "clickwright-set12/"): "heldout8" or "dev"."""
    return split_set(tasks, SET12_SALT, "heldout8")


def problems(tasks: list[Task]) -> list[str]:
    """Everything wrong with the corpus, one line each; empty when it is sound."""
    found = []
    counts = Counter(t.id for t in tasks)
    found += [f"{i}: id used {n} times" for i, n in counts.items() if n > 1]
    thirds = [t for t in tasks if t.corpus.name not in WHOLE_SPLITS]
    rule = held_out(thirds)
    for t in tasks:
        whole = WHOLE_SPLITS.get(t.corpus.name)
        if whole and t.split != whole:
            found.append(f"{t.id}: split {t.split!r}, this corpus is held out whole as {whole!r}")
        if t.program not in ALL_PROGRAMS:
            found.append(f"{t.id}: unknown program {t.program!r}")
        if not t.task.strip():
            found.append(f"{t.id}: empty task sentence")
        if not t.classes or set(t.classes) - set(CLASSES):
            found.append(f"{t.id}: classes {t.classes} not among {CLASSES}")
        if not whole and t.split != ("heldout" if t.id in rule else "dev"):
            found.append(f"{t.id}: split {t.split!r} does not follow the held-out rule")
        if t.check.get("kind") not in CHECK_KINDS:
            found.append(f"{t.id}: check kind {t.check.get('kind')!r} not among {CHECK_KINDS}")
        elif not _check_has_expectation(t.check):
            found.append(f"{t.id}: the {t.check['kind']} check expects nothing")
        if t.program == "chromium":
            web = t.corpus / "web"
            if not (web / str(t.setup.get("page", ""))).is_file():
                found.append(f"{t.id}: no page {t.setup.get('page')!r} in {web}")
            if t.setup.get("scale") not in (1, 2):
                found.append(f"{t.id}: device scale must be 1 or 2")
        elif not t.setup.get("command"):
            found.append(f"{t.id}: no setup command")
        if t.check.get("kind") == "display" and t.program not in COPY_DISPLAY:
            found.append(f"{t.id}: no way to copy the display of {t.program}")
        if any(not isinstance(step, str) or not step.strip() for step in t.reference):
            found.append(f"{t.id}: a reference step that is not an xdotool command line")
    if not thirds:
        return found
    by_program = Counter(t.program for t in thirds)
    for program, n in by_program.items():
        if n % 3:
            found.append(f"{program}: {n} tasks, not a multiple of 3, so no exact third")
    held = sum(t.split == "heldout" for t in thirds)
    if held * 3 != len(thirds):
        found.append(f"{held} of {len(thirds)} tasks held out, not exactly a third")
    return found


def _check_has_expectation(check: dict[str, Any]) -> bool:
    expected = {
        "stdout": ("equals", "fields", "lines", "has_lines", "contains"),
        "exit": ("codes",),
        "file": ("equals", "regex"),
        "ini": ("files",),
        "display": ("equals",),
        "submission": ("fields",),
        "sheet": ("cells",),
    }[check["kind"]]
    return any(check.get(key) not in (None, [], {}) for key in expected)


# ---- checks on the program's real output -----------------------------------------------------


@dataclass
class Outcome:
    """What the program left behind, for the check."""

    home: Path
    stdout: str = ""
    exit_code: int | None = None
    """None: the program was still running when the agent finished."""
    display: str | None = None
    submissions: list[dict[str, list[str]]] = field(default_factory=list)


def check(spec: dict[str, Any], out: Outcome) -> tuple[bool, str]:
    """(passed, why not). Every kind compares real output only; "{home}" in what it expects
    stands for the task's home folder (a file chooser prints whole paths)."""
    spec = _at_home(spec, out.home)
    kind = spec["kind"]
    if kind in ("stdout", "exit"):
        codes = spec.get("codes", [0])
        if out.exit_code is None:
            return False, "the dialog was still open"
        if out.exit_code not in codes:
            return False, f"exit status {out.exit_code}, wanted {codes}"
        return _check_text(spec, out.stdout) if kind == "stdout" else (True, "")
    if kind == "file":
        if spec.get("exited") and out.exit_code is None:
            return False, "the program is still open"
        return _check_file(spec, out.home)
    if kind == "ini":
        return _check_ini(spec["files"], out.home)
    if kind == "display":
        return _check_display(spec["equals"], out.display, spec.get("unit"))
    if kind == "sheet":
        return _check_sheet(spec, out.home)
    return _check_submission(spec, out.submissions)


def _at_home(value: Any, home: Path) -> Any:
    if isinstance(value, str):
        return value.replace("{home}", str(home))
    if isinstance(value, list):
        return [_at_home(v, home) for v in value]
    if isinstance(value, dict):
        return {k: _at_home(v, home) for k, v in value.items()}
    return value


def _check_text(spec: dict[str, Any], text: str) -> tuple[bool, str]:
    text = text.replace("\r\n", "\n").rstrip("\n")
    shown = repr(text[:120])
    if "equals" in spec and text.strip() != spec["equals"]:
        return False, f"printed {shown}, wanted {spec['equals']!r}"
    if "fields" in spec:
        want = spec["fields"]
        got = [part.strip() for part in text.strip("\n").split("|")]
        extra = got[len(want) :]  # yad ends a form with "|": one more, empty, field
        if got[: len(want)] != want or any(extra):
            return False, f"fields {got}, wanted {want}"
    lines = [line for line in text.split("\n") if line.strip()]
    if "lines" in spec and sorted(lines) != sorted(spec["lines"]):
        return False, f"lines {lines}, wanted {spec['lines']}"
    missing = [line for line in spec.get("has_lines", []) if line not in lines]
    if missing:
        return False, f"no line {missing[0]!r} in {shown}"
    return _contains(spec, text)


def _contains(spec: dict[str, Any], text: str) -> tuple[bool, str]:
    for part in spec.get("contains", []):
        if part not in text:
            return False, f"{part!r} missing from {text[:120]!r}"
    for part in spec.get("lacks", []):
        if part in text:
            return False, f"{part!r} still in {text[:120]!r}"
    return True, ""


def _check_file(spec: dict[str, Any], home: Path) -> tuple[bool, str]:
    name = spec["path"]
    if spec.get("anywhere"):
        candidates = sorted(home.rglob(Path(name).name))
    else:
        candidates = [home / name] if (home / name).is_file() else []
    if not candidates:
        return False, f"no file {name}"
    why = ""
    for path in candidates:
        text = path.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
        if "equals" in spec and text.rstrip("\n") != spec["equals"].rstrip("\n"):
            why = f"{path.relative_to(home)} holds {text[:120]!r}"
        elif "regex" in spec and not re.search(spec["regex"], text):
            why = f"{path.relative_to(home)} holds {text[:120]!r}"
        else:
            return True, ""
    return False, why


def _check_ini(files: dict[str, dict[str, str]], home: Path) -> tuple[bool, str]:
    for name, values in files.items():
        parser = configparser.ConfigParser(interpolation=None)
        parser.read(home / name, encoding="utf-8")
        for dotted, wanted in values.items():
            section, _, key = dotted.partition(".")
            got = parser.get(section, key, fallback=None)
            if got is None or got.strip().lower() != str(wanted).lower():
                return False, f"{name} [{section}] {key} = {got!r}, wanted {wanted!r}"
    return True, ""


def _check_display(
    wanted: float | str, shown: str | None, unit: str | None = None
) -> tuple[bool, str]:
    """The number a calculator shows; qalculate copies "−7", "1 099 511 627 776" or "1.5 km"
    (`unit`: the unit that must follow the number). A text `wanted` ("0xBEE", a result shown in
    another base) must be copied exactly."""
    if shown is None:
        return False, "could not copy the calculator's display (closed?)"
    if isinstance(wanted, str):
        same = shown.strip() == wanted
        return same, "" if same else f"the display shows {shown.strip()!r}, wanted {wanted!r}"
    text = shown.strip().replace("\u2212", "-")
    if unit:
        if not text.endswith(unit):
            return False, f"the display shows {shown.strip()!r}, wanted a result in {unit}"
        text = text[: -len(unit)].strip()
    text = re.sub(r"(?<=\d)[ \u2009\u202f](?=\d)", "", text)  # digit groups
    try:
        value = float(text.replace(",", ""))
    except ValueError:
        return False, f"the display shows {shown!r}"
    if not math.isclose(value, float(wanted), rel_tol=1e-9, abs_tol=1e-9):
        return False, f"the display shows {shown.strip()}, wanted {float(wanted):.12g}"
    return True, ""


def _check_sheet(spec: dict[str, Any], home: Path) -> tuple[bool, str]:
    """Cells of a spreadsheet file the program saved, read back with gnumeric's own ssconvert
    (any format it reads): {"B7": 1250} compares numbers, {"A1": "Quantity"} text."""
    path = home / spec["path"]
    if not path.is_file():
        return False, f"no file {spec['path']}"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "sheet.csv"
        env = dict(os.environ, HOME=tmp)
        command = ["ssconvert", "--export-type=Gnumeric_stf:stf_csv", str(path), str(out)]
        try:
            subprocess.run(command, env=env, capture_output=True, timeout=60)
        except (OSError, subprocess.TimeoutExpired) as error:
            return False, f"ssconvert failed on {spec['path']}: {error}"
        if not out.is_file():
            return False, f"{spec['path']} is not a spreadsheet ssconvert reads"
        rows = list(csv.reader(out.read_text(encoding="utf-8", errors="replace").splitlines()))
    for ref, wanted in spec["cells"].items():
        match = re.fullmatch(r"([A-Z]+)([0-9]+)", ref)
        if not match:
            return False, f"bad cell reference {ref!r}"
        column = functools.reduce(lambda n, c: n * 26 + ord(c) - 64, match[1], 0) - 1
        row = int(match[2]) - 1
        got = rows[row][column].strip() if row < len(rows) and column < len(rows[row]) else ""
        if isinstance(wanted, (int, float)) and not isinstance(wanted, bool):
            try:
                same = math.isclose(float(got), float(wanted), rel_tol=1e-9, abs_tol=1e-9)
            except ValueError:
                same = False
        else:
            same = got == str(wanted)
        if not same:
            return False, f"{ref} holds {got!r}, wanted {wanted!r}"
    return True, ""


def _check_submission(spec: dict[str, Any], sent: list[dict[str, list[str]]]) -> tuple[bool, str]:
    mine = [s for s in sent if s.get("form") == [spec["form"]]]
    if not mine:
        return False, f"the {spec['form']} form was never submitted"
    last = mine[-1]
    for name, wanted in spec["fields"].items():
        got = [v.strip() for v in last.get(name, [])]
        want = wanted if isinstance(wanted, list) else [wanted]
        if got != want:
            return False, f"{name} = {got}, wanted {want}"
    for name in spec.get("absent", []):
        if name in last:
            return False, f"{name} was sent ({last[name]}), should be off"
    return True, ""


# ---- one task's world: display, session bus, window manager, program -------------------------


class Displays:
    """Display numbers :70-:89 handed to one task at a time."""

    def __init__(self) -> None:
        self.free: queue.Queue[int] = queue.Queue()
        for number in DISPLAYS:
            self.free.put(number)

    @contextmanager
    def take(self) -> Iterator[int]:
        while True:
            number = self.free.get()
            if not Path(f"/tmp/.X{number}-lock").exists():
                break
        try:
            yield number
        finally:
            self.free.put(number)


def _die_with_parent() -> None:
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _start(command: list[str], env: dict[str, str], **kwargs: Any) -> subprocess.Popen[bytes]:
    """A helper process in its own session (so its whole group can be ended) that dies with us."""
    kwargs.setdefault("stdout", subprocess.DEVNULL)
    kwargs.setdefault("stderr", subprocess.DEVNULL)
    return subprocess.Popen(
        command, env=env, start_new_session=True, preexec_fn=_die_with_parent, **kwargs
    )


def _end(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    try:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        process.wait()


def _until(condition: Any, timeout: float, what: str, step: float = 0.1) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} within {timeout:g} s")
        time.sleep(step)


@contextmanager
def desktop(number: int, home: Path) -> Iterator[dict[str, str]]:
    """Xvfb :number + a session D-Bus + openbox; yields the environment programs run with."""
    name = f":{number}"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CLICKWRIGHT_", "DBUS_"))}
    env.pop("AT_SPI_BUS_ADDRESS", None)
    runtime = home.parent / "runtime"
    runtime.mkdir(mode=0o700)
    env.pop("NO_AT_BRIDGE", None)  # GTK programs publish their tree, as on a desktop
    env.update(DISPLAY=name, XDG_RUNTIME_DIR=str(runtime), LANG="C.UTF-8")
    env["TMPDIR"] = str(runtime)  # single-instance programs (pluma) meet through a socket there
    started: list[subprocess.Popen[bytes]] = []
    try:
        size = f"{SCREEN[0]}x{SCREEN[1]}x24"
        started.append(_start(["Xvfb", name, "-screen", "0", size, "-nolisten", "tcp"], env))
        _until(lambda: _answers(env), 30, f"Xvfb {name} did not start")
        bus = _start(
            ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
            env,
            stdout=subprocess.PIPE,
        )
        started.append(bus)
        assert bus.stdout is not None
        env["DBUS_SESSION_BUS_ADDRESS"] = bus.stdout.readline().decode().strip()
        window_manager = [_start(["openbox", "--sm-disable"], env)]
        started.append(window_manager[0])

        def managed() -> bool:
            if window_manager[-1].poll() is not None:  # it lost a race for the display: again
                window_manager.append(_start(["openbox", "--sm-disable"], env))
                started.append(window_manager[-1])
            return _has_window_manager(env)

        _until(managed, 30, "openbox did not start", step=0.3)
        yield env
    finally:
        for process in reversed(started):
            _end(process)


def _answers(env: dict[str, str]) -> bool:
    """The X server accepts clients (its socket appears a moment before it does)."""
    return (
        subprocess.run(["xprop", "-root", "-len", "0"], env=env, capture_output=True).returncode
        == 0
    )


def _has_window_manager(env: dict[str, str]) -> bool:
    probe = subprocess.run(
        ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True, text=True
    )
    return "window id" in probe.stdout


def _grab(display: str) -> bytes:
    import mss

    factory = getattr(mss, "MSS", None) or mss.mss
    with factory(display=display) as shots:
        return shots.grab(shots.monitors[1]).rgb


def wait_for_window(display: str, blank: bytes, process: subprocess.Popen[bytes]) -> None:
    """Until the program has drawn something and the screen has been still for 0.5 s."""

    def drawn() -> bool:
        if process.poll() is not None:
            raise RuntimeError(f"the program exited with status {process.returncode} at start")
        return _grab(display) != blank

    _until(drawn, 40, "the program showed no window")
    last, still_since = _grab(display), time.monotonic()
    deadline = time.monotonic() + 20
    while time.monotonic() - still_since < 0.5 and time.monotonic() < deadline:
        time.sleep(0.1)
        now = _grab(display)
        if now != last:
            last, still_since = now, time.monotonic()


class Submissions(http.server.ThreadingHTTPServer):
    """Serves benchmarks/tasks/web/ on 127.0.0.1 and records every form posted to /submit."""

    def __init__(self, web: Path = WEB) -> None:
        super().__init__(("127.0.0.1", 0), functools.partial(_Handler, directory=str(web)))
        self.received: list[dict[str, list[str]]] = []
        self.pages: list[str] = []
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def root(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/"


class _Handler(http.server.SimpleHTTPRequestHandler):
    server: Submissions

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("directory", str(WEB))
        super().__init__(*args, **kwargs)

    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        self.server.pages.append(self.path)
        super().do_GET()

    def do_POST(self) -> None:  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length).decode("utf-8", errors="replace")
        fields: dict[str, list[str]] = {}
        for name, value in urllib.parse.parse_qsl(body, keep_blank_values=True):
            fields.setdefault(name, []).append(value)
        self.server.received.append(fields)
        page = b"<!doctype html><title>Received</title><h1>Thank you, received.</h1>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def log_message(self, *args: Any) -> None:
        pass


def _prepare_home(task: Task, home: Path) -> None:
    home.mkdir()
    for folder in task.setup.get("dirs", []):
        (home / folder).mkdir(parents=True, exist_ok=True)
    for name, text in task.setup.get("files", {}).items():
        path = home / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


def _copy_display(env: dict[str, str], program: str = "galculator") -> str | None:
    """The calculator's display, through its own Edit > Copy shortcut and the clipboard."""
    window_class, keys = COPY_DISPLAY[program]
    windows = subprocess.run(
        ["xdotool", "search", "--onlyvisible", "--class", window_class],
        env=env,
        capture_output=True,
        text=True,
    ).stdout.split()
    for window in windows:  # the main window, and any other it has open
        subprocess.run(
            ["xdotool", "windowactivate", "--sync", window], env=env, capture_output=True
        )
        subprocess.run(["xdotool", "key", keys], env=env)  # GTK ignores keys sent to a window
        try:
            copied = subprocess.run(
                ["xclip", "-o", "-selection", "clipboard"],
                env=env,
                capture_output=True,
                text=True,
                timeout=5,
            )
        except subprocess.TimeoutExpired:
            continue
        if copied.returncode == 0 and copied.stdout.strip():
            return copied.stdout
    return None


# ---- running one task ------------------------------------------------------------------------


@dataclass
class Result:
    id: str
    program: str
    group: str
    split: str
    classes: list[str]
    task: str
    success: bool
    check: str
    """Why the check failed ("" when it passed)."""
    outcome: str
    """What clickwright said: done, failed, stopped, refused (exit 2), timeout, or setup."""
    reason: str
    steps: int
    seconds: float
    run_dir: str


def run_task(
    task: Task,
    displays: Displays,
    out: Path,
    time_limit: float,
    keep: bool,
    config: str = "",
    reference: str = "",
) -> Result:
    """One task on a fresh display, driven by clickwright, or by the task's reference steps
    (`reference` "task") or by nothing ("none")."""
    start = time.monotonic()
    outcome, reason, steps, run_dir, verdict = "setup", "", 0, "", (False, "")
    work = Path(tempfile.mkdtemp(prefix="cw-task-"))  # no id: window titles show the path
    home = work / "home"
    try:
        _prepare_home(task, home)
        with displays.take() as number, ExitStack() as stack:
            env = stack.enter_context(desktop(number, work / "home"))
            env["HOME"] = str(home)
            server = None
            blank = _grab(env["DISPLAY"])
            stdout_path = work / "stdout.txt"
            stdout_file = stack.enter_context(stdout_path.open("wb"))
            if task.program == "chromium":
                server = Submissions(task.corpus / "web")
                stack.callback(server.shutdown)
                command = [
                    "chromium",
                    *CHROMIUM_FLAGS,
                    f"--user-data-dir={work / 'chromium'}",
                    f"--force-device-scale-factor={task.scale}",
                    f"--app={server.root}{task.setup['page']}",
                ]
            else:
                command = ["sh", "-c", task.setup["command"]]
            program = _start(command, env, cwd=home, stdout=stdout_file)
            stack.callback(_end, program)
            wait_for_window(env["DISPLAY"], blank, program)
            if server is not None:
                page = "/" + task.setup["page"]
                _until(lambda: page in server.pages, 20, "the page was never loaded")
                wait_for_window(env["DISPLAY"], blank, program)
            if reference:
                outcome, reason, steps = _reference(task, env, home, reference == "none")
            else:
                outcome, reason, steps, run_dir = _clickwright(
                    task, env, work, out, time_limit, config
                )
            if task.check["kind"] in ("stdout", "exit", "file", "sheet"):
                try:
                    program.wait(timeout=3)  # a dialog closed by OK exits at once
                except subprocess.TimeoutExpired:
                    pass
            result = Outcome(home=home, exit_code=program.poll())
            if task.check["kind"] == "display":
                result.display = _copy_display(env, task.program)
            if server is not None:
                result.submissions = list(server.received)
            stdout_file.flush()
            result.stdout = stdout_path.read_text(encoding="utf-8", errors="replace")
            verdict = check(task.check, result)
    except Exception as error:  # a broken setup is a failed task with its reason; go on
        verdict = (False, f"setup: {' '.join(str(error).split())[:200]}")
    finally:
        if keep:
            print(f"  kept {work}", file=sys.stderr)
        else:
            shutil.rmtree(work, ignore_errors=True)
    return Result(
        id=task.id,
        program=task.program,
        group=task.group,
        split=task.split,
        classes=list(task.classes),
        task=task.task,
        success=verdict[0],
        check=verdict[1],
        outcome=outcome,
        reason=reason,
        steps=steps,
        seconds=round(time.monotonic() - start, 1),
        run_dir=run_dir,
    )


def snapshot(revision: str, folder: Path) -> Path:
    """The packages of `revision` laid out as `clickwright/` in `folder` (pyproject's mapping of
    the top-level folders), for PYTHONPATH."""
    source = folder / "source"
    source.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], capture_output=True,
                             check=True).stdout  # fmt: skip
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    package = folder / "pkg" / "clickwright"
    shutil.copytree(source / "clickwright", package)
    for name in ("app", "agent", "parsers", "devices", "assets"):
        (package / name).symlink_to(source / name)
    return package.parent


def _clickwright(
    task: Task, env: dict[str, str], work: Path, out: Path, time_limit: float, settings: str
) -> tuple[str, str, int, str]:
    """The user's command line, with the default settings (or the config file text
    `settings`, e.g. a model for benchmarks/hybrid_calls.py); (outcome, reason, steps, run)."""
    config = work / "config.toml"
    config.write_text(settings, encoding="utf-8")  # not the user's own file
    agent_env = dict(env, HOME=os.environ.get("HOME", str(work)), CLICKWRIGHT_CONFIG=str(config))
    command = [
        str(CLICKWRIGHT),
        "run",
        "--display",
        env["DISPLAY"],
        task.task,
        "--json",
        "--runs-dir",
        str(out / "runs"),
    ]
    agent = _start(
        command,
        agent_env,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        stdout, stderr = agent.communicate(timeout=time_limit)
    except subprocess.TimeoutExpired:
        _end(agent)
        return "timeout", f"no result within {time_limit:g} s", 0, _latest_run(out, task)
    for line in reversed(stdout.decode(errors="replace").splitlines()):
        if line.startswith("{"):
            data = json.loads(line)
            return data["outcome"], data["reason"], data["steps"], data["run_dir"]
    lines = [line for line in stderr.decode(errors="replace").splitlines() if line.strip()]
    said = lines[-1].strip() if lines else f"exit status {agent.returncode}"
    return ("refused" if agent.returncode == 2 else "error"), said, 0, ""


def _reference(task: Task, env: dict[str, str], home: Path, skip: bool) -> tuple[str, str, int]:
    """The task done by its reference steps instead of clickwright (or nothing, `skip`), to
    test the check: (outcome, reason, steps). A step xdotool fails on fails the run."""
    if skip:
        return "none", "nothing was done (--reference none)", 0
    if not task.reference:
        return "error", "the task has no reference", 0
    for n, step in enumerate(task.reference, 1):
        words = shlex.split(step)
        if words[0] == "sleep":
            time.sleep(float(words[1]))
            continue
        try:
            done = subprocess.run(
                ["xdotool", *words], env=env, cwd=home, capture_output=True, text=True, timeout=60
            )
        except subprocess.TimeoutExpired:
            return "failed", f"step {n} ({step}) took over 60 s", n
        if done.returncode:
            said = " ".join(done.stderr.split())[:100] or f"exit status {done.returncode}"
            return "failed", f"step {n} ({step}): {said}", n
    return "done", "reference steps run", len(task.reference)


def _latest_run(out: Path, task: Task) -> str:
    """The run folder a timed-out run left (its run.json names the task)."""
    for folder in sorted((out / "runs").glob("*"), reverse=True):
        try:
            if json.loads((folder / "run.json").read_text()).get("task") == task.task:
                return str(folder)
        except (OSError, ValueError):
            continue
    return ""


# ---- figures ---------------------------------------------------------------------------------


def rate(results: list[Result]) -> str:
    if not results:
        return "-"
    won = sum(r.success for r in results)
    return f"{won / len(results):.2f} ({won}/{len(results)})"


def summary(results: list[Result]) -> dict[str, dict[str, Any]]:
    """Success by split, by program (chromium split by device scale) and by class."""

    def table(key: Any) -> dict[str, Any]:
        groups: dict[str, list[Result]] = defaultdict(list)
        for result in results:
            for name in key(result):
                groups[name].append(result)
        return {
            name: {
                "n": len(rs),
                "success": round(sum(r.success for r in rs) / len(rs), 4),
                **{split: rate([r for r in rs if r.split == split]) for split in SPLITS},
            }
            for name, rs in sorted(groups.items())
        }

    return {
        "split": table(lambda r: [r.split, "all"]),
        "program": table(lambda r: sorted({r.program, r.group})),
        "class": table(lambda r: r.classes),
        "outcome": dict(Counter(r.outcome for r in results)),
        "failed_outcome": dict(Counter(r.outcome for r in results if not r.success)),
    }


def print_summary(data: dict[str, dict[str, Any]], driver: str = "clickwright") -> None:
    columns = ["dev", "heldout", *(s for s in SPLITS[2:] if s in data["split"])]
    for title in ("split", "program", "class"):
        print(f"\nby {title}:")
        heads = "".join(f" {s:<14}" for s in columns)
        print(f"  {'':<16} {'n':>4}  {'success':>7}  {heads}")
        for name, row in data[title].items():
            cells = "".join(f" {row.get(s, '-'):<14}" for s in columns)
            print(f"  {name:<16} {row['n']:>4}  {row['success']:>7.2f}  {cells}")
    said = ", ".join(f"{k} {v}" for k, v in data["outcome"].items())
    wrong = ", ".join(f"{k} {v}" for k, v in data["failed_outcome"].items())
    print(f"\nwhat {driver} said: {said}\n  on the failed tasks: {wrong or '-'}")


def select(tasks: list[Task], args: argparse.Namespace) -> list[Task]:
    def listed(value: str | None) -> list[str]:
        return [part.strip() for part in (value or "").split(",") if part.strip()]

    programs, ids = listed(args.program), listed(args.id)
    unknown = set(programs) - set(ALL_PROGRAMS)
    if unknown:
        raise SystemExit(f"unknown program {sorted(unknown)}; known: {', '.join(ALL_PROGRAMS)}")
    chosen = [
        t
        for t in tasks
        if (not programs or t.program in programs)
        and (args.split == "all" or t.split == args.split)
        and (not ids or any(fnmatch.fnmatch(t.id, pattern) for pattern in ids))
        and (not args.cls or args.cls in t.classes)
    ]
    if not chosen:
        raise SystemExit("no task matches the filters")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--program", help="comma list: " + ", ".join(ALL_PROGRAMS))
    parser.add_argument("--split", choices=("all", *SPLITS), default="all")
    parser.add_argument(
        "--corpus",
        type=Path,
        default=CORPUS,
        help="corpus folder (default benchmarks/tasks; benchmarks/tasks_heldout2: held-out set 2)",
    )
    parser.add_argument("--id", help="comma list of ids or patterns (web-*)")
    parser.add_argument("--class", dest="cls", choices=CLASSES, help="one phrasing class")
    parser.add_argument("--jobs", type=int, default=1, help="tasks at once (default 1)")
    parser.add_argument("--time-limit", type=float, default=150, help="seconds per task")
    parser.add_argument("--out", type=Path, help="results folder (default bench/tasks-STAMP)")
    parser.add_argument("--keep", action="store_true", help="keep each task's home folder")
    parser.add_argument("--list", action="store_true", help="list the chosen tasks, run nothing")
    parser.add_argument(
        "--config", type=Path, help="a clickwright config file for every task (default: none)"
    )
    parser.add_argument(
        "--reference",
        nargs="?",
        const="task",
        choices=("task", "none"),
        default="",
        help="test the checks: run each task's reference steps instead of clickwright "
        "(or, with 'none', nothing: every check must then fail)",
    )
    parser.add_argument(
        "--against",
        metavar="REV",
        help="run the agent of another git revision (a snapshot of it goes into the results "
        "folder), so a run is not changed by edits made while it goes on",
    )
    args = parser.parse_args(argv)
    corpus = load_corpus(args.corpus)
    wrong = problems(corpus)
    if wrong:
        raise SystemExit("the corpus is broken:\n  " + "\n  ".join(wrong))
    tasks = select(corpus, args)
    if args.list:
        for t in tasks:
            print(f"{t.id:<40} {t.group:<12} {t.split:<8} {','.join(t.classes):<32} {t.task}")
        return 0
    if not args.reference and not CLICKWRIGHT.exists():
        raise SystemExit(f"{CLICKWRIGHT} is missing: run `make venv` first")
    needed = [*TOOLS, *(tool for t in tasks for tool in PROGRAM_TOOLS[t.program])]
    missing = [tool for tool in dict.fromkeys(needed) if shutil.which(tool) is None]
    if missing:
        used = {t.program for t in tasks}
        packages = " ".join(
            (*PROGRAMS.values(), *(ALL_PROGRAMS[p] for p in sorted(used - set(PROGRAMS))))
        )
        packages += " " + " ".join(SUPPORT_PACKAGES)
        raise SystemExit(f"missing {', '.join(missing)}: sudo apt-get install -y {packages}")
    out = (args.out or ROOT / "bench" / f"tasks-{time.strftime('%Y%m%d-%H%M%S')}").resolve()
    (out / "runs").mkdir(parents=True, exist_ok=True)
    if args.against:  # every clickwright this script starts runs that revision
        os.environ["PYTHONPATH"] = str(snapshot(args.against, out / "agent"))
    displays = Displays()
    results: list[Result] = []
    started = time.monotonic()
    lock = threading.Lock()

    config = args.config.read_text(encoding="utf-8") if args.config else ""

    def one(task: Task) -> None:
        def attempt() -> Result:
            return run_task(task, displays, out, args.time_limit, args.keep, config, args.reference)

        result = attempt()
        if result.outcome == "setup":  # the harness failed, not the agent: once more
            result = attempt()
        with lock:
            results.append(result)
            mark = "✔" if result.success else "✘"
            why = "" if result.success else f" — {result.check}"
            said = f"{result.outcome}: {result.reason}"[:110]
            driver = "reference" if args.reference else "agent"
            print(
                f"{mark} [{len(results)}/{len(tasks)}] {task.id} ({task.split}) "
                f"{result.seconds:.0f} s{why} | {driver} {said}",
                flush=True,
            )

    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        list(pool.map(one, tasks))
    order = {t.id: n for n, t in enumerate(tasks)}
    results.sort(key=lambda r: order[r.id])
    data = summary(results)
    print_summary(data, "the reference" if args.reference else "clickwright")
    document = {
        "benchmark": "task-corpus",
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "commit": _commit(args.against or "HEAD"),
        "settings": {
            "time_limit": args.time_limit,
            "jobs": args.jobs,
            "split": args.split,
            "corpus": str(args.corpus),
            "reference": args.reference,
        },
        "seconds": round(time.monotonic() - started, 1),
        "median_task_seconds": statistics.median(r.seconds for r in results),
        "summary": data,
        "results": [asdict(r) for r in results],
    }
    path = out / "results.json"
    path.write_text(json.dumps(document, indent=1, ensure_ascii=False), encoding="utf-8")
    print(f"\nresults: {path}")
    return 0


def _commit(revision: str = "HEAD") -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", revision], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
    except OSError:
        return ""


if __name__ == "__main__":
    sys.exit(main())
