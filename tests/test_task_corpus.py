"""The issue-13 task corpus (benchmarks/tasks/) and its runner (benchmarks/tasks.py): the corpus
is sound, the held-out third follows its fixed rule, each kind of check passes on the right
output and fails on the wrong one, and one corpus task runs end to end on Xvfb."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load_runner():
    spec = importlib.util.spec_from_file_location("task_corpus", ROOT / "benchmarks" / "tasks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["task_corpus"] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


tc = _load_runner()
CORPUS = tc.load_corpus()
ISSUE_CLASSES = {
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
}


def test_the_corpus_has_no_problems() -> None:
    assert tc.problems(CORPUS) == []


def test_size_programs_classes_and_the_held_out_third() -> None:
    assert len(CORPUS) >= 150
    assert {t.program for t in CORPUS} == set(tc.PROGRAMS)
    assert len(tc.PROGRAMS) >= 6
    assert ISSUE_CLASSES <= {c for t in CORPUS for c in t.classes}
    held = [t for t in CORPUS if t.split == "heldout"]
    assert len(held) * 3 == len(CORPUS)
    assert {t.id for t in held} == tc.held_out(CORPUS)
    assert {t.scale for t in CORPUS if t.program == "chromium"} == {1, 2}


def test_the_rule_catches_a_hand_picked_split() -> None:
    first = CORPUS[0]
    flipped = tc.Task(
        **{**first.__dict__, "split": "dev" if first.split == "heldout" else "heldout"}
    )
    found = tc.problems([flipped, *CORPUS[1:]])
    assert any("held-out rule" in line for line in found)
    assert any("exactly a third" in line for line in found)


def test_every_task_has_a_check_that_expects_something() -> None:
    broken = tc.Task(**{**CORPUS[0].__dict__, "check": {"kind": "stdout"}})
    assert any("expects nothing" in line for line in tc.problems([broken]))
    duplicate = tc.problems([CORPUS[0], CORPUS[0]])
    assert any("used 2 times" in line for line in duplicate)


def out(tmp_path: Path, **kwargs) -> tc.Outcome:
    return tc.Outcome(home=tmp_path, **kwargs)


def test_stdout_checks(tmp_path: Path) -> None:
    fields = {"kind": "stdout", "fields": ["3", "Double", "TRUE"]}
    assert tc.check(fields, out(tmp_path, stdout="3|Double|TRUE|\n", exit_code=0))[0]
    ok, why = tc.check(fields, out(tmp_path, stdout="3|Single|TRUE|\n", exit_code=0))
    assert not ok and "Single" in why
    assert not tc.check(fields, out(tmp_path, stdout="3|Double|TRUE|\n", exit_code=1))[0]
    zenity = {"kind": "stdout", "fields": ["", "Oslo", "0150"]}
    assert tc.check(zenity, out(tmp_path, stdout="|Oslo|0150\n", exit_code=0))[0]
    cut = tc.check(zenity, out(tmp_path, stdout="|Oslo and Zip with 0150|\n", exit_code=0))
    assert not cut[0] and "Oslo and Zip" in cut[1]
    still_open = tc.check(fields, out(tmp_path, stdout="", exit_code=None))
    assert still_open == (False, "the dialog was still open")
    lines = {"kind": "stdout", "lines": ["TRUE|Ham|", "TRUE|Olives|"]}
    assert tc.check(lines, out(tmp_path, stdout="TRUE|Olives|\nTRUE|Ham|\n", exit_code=0))[0]
    assert not tc.check(lines, out(tmp_path, stdout="TRUE|Ham|\n", exit_code=0))[0]
    edited = {"kind": "stdout", "contains": ["Status: final"], "lacks": ["draft"]}
    assert tc.check(edited, out(tmp_path, stdout="Status: final\n", exit_code=0))[0]
    assert not tc.check(edited, out(tmp_path, stdout="Status: final draft\n", exit_code=0))[0]
    declined = {"kind": "exit", "codes": [1]}
    assert tc.check(declined, out(tmp_path, exit_code=1))[0]
    assert not tc.check(declined, out(tmp_path, exit_code=0))[0]
    chosen = {"kind": "stdout", "equals": "{home}/Pictures/forest.jpg"}
    printed = f"{tmp_path}/Pictures/forest.jpg\n"
    assert tc.check(chosen, out(tmp_path, stdout=printed, exit_code=0))[0]


def test_file_ini_display_and_submission_checks(tmp_path: Path) -> None:
    (tmp_path / "Documents").mkdir()
    (tmp_path / "Documents" / "todo.txt").write_text("Buy milk\n")
    anywhere = {"kind": "file", "path": "todo.txt", "anywhere": True, "equals": "Buy milk"}
    assert tc.check(anywhere, out(tmp_path))[0]
    assert not tc.check({**anywhere, "anywhere": False}, out(tmp_path))[0]
    assert not tc.check({**anywhere, "equals": "Buy eggs"}, out(tmp_path))[0]
    (tmp_path / "main.cfg").write_text("[Indent]\nnum-spaces = 2\n")
    ini = {"kind": "ini", "files": {"main.cfg": {"Indent.num-spaces": "2"}}}
    assert tc.check(ini, out(tmp_path))[0]
    assert not tc.check({"kind": "ini", "files": {"main.cfg": {"Indent.x": "2"}}}, out(tmp_path))[0]
    display = {"kind": "display", "equals": 12.5}
    assert tc.check(display, out(tmp_path, display="12.5\n"))[0]
    assert not tc.check(display, out(tmp_path, display="125"))[0]
    assert not tc.check(display, out(tmp_path, display=None))[0]
    sent = [{"form": ["settings"], "language": ["Norsk"], "dark": ["on"]}]
    wanted = {"kind": "submission", "form": "settings", "fields": {"language": "Norsk"}}
    assert tc.check(wanted, out(tmp_path, submissions=sent))[0]
    assert not tc.check({**wanted, "absent": ["dark"]}, out(tmp_path, submissions=sent))[0]
    assert not tc.check({**wanted, "form": "login"}, out(tmp_path, submissions=sent))[0]


@pytest.mark.slow
def test_one_corpus_task_end_to_end(tmp_path: Path) -> None:
    """The runner's whole path on a real dialog: display, bus, window manager, zenity, the real
    `clickwright run --json` with default settings, and the check on zenity's stdout."""
    for tool in ("Xvfb", "openbox", "xprop", "dbus-daemon", "zenity"):
        if shutil.which(tool) is None:
            pytest.fail(f"needs {tool} (make system-deps installs it)")
    if not tc.CLICKWRIGHT.exists():
        pytest.fail(f"needs {tc.CLICKWRIGHT} (make venv)")
    [task] = [t for t in CORPUS if t.id == "zenity-entry-plain"]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (result.check, result.outcome, result.reason)
    assert result.outcome == "done" and Path(result.run_dir, "run.json").is_file()


# ---- held-out set 2 (benchmarks/tasks_heldout2/): checked for form only, never printed -------

HELDOUT2 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout2")


def test_held_out_set_2_is_sound_and_held_out_whole() -> None:
    assert tc.problems(HELDOUT2) == []  # ids unique, every check expects something, pages exist
    assert len(HELDOUT2) >= 55
    assert {t.split for t in HELDOUT2} == {"heldout2"}
    assert not {t.id for t in HELDOUT2} & {t.id for t in CORPUS}
    assert tc.problems([*CORPUS, *HELDOUT2]) == []  # the two corpora side by side
    new_programs = {t.program for t in HELDOUT2} - set(tc.PROGRAMS)
    assert len(new_programs) >= 3
    assert {t.scale for t in HELDOUT2 if t.program == "chromium"} == {1, 2}
    per_class = Counter(c for t in HELDOUT2 for c in t.classes)
    assert set(per_class) == set(tc.CLASSES) - SET6_CLASSES and min(per_class.values()) >= 3
    pages = {t.setup["page"] for t in HELDOUT2 if t.program == "chromium"}
    assert all((tc.ROOT / "benchmarks" / "tasks_heldout2" / "web" / p).is_file() for p in pages)
    assert not pages & {p.name for p in (tc.ROOT / "benchmarks" / "tasks" / "web").iterdir()}


def test_held_out_set_2_split_is_enforced() -> None:
    first = HELDOUT2[0]
    moved = tc.Task(**{**first.__dict__, "split": "dev"})
    found = tc.problems([moved, *HELDOUT2[1:]])
    assert any("held out whole" in line for line in found)
    broken = tc.Task(**{**first.__dict__, "check": {"kind": "sheet", "path": "x.gnumeric"}})
    assert any("expects nothing" in line for line in tc.problems([broken]))


def test_qalculate_display_forms(tmp_path: Path) -> None:
    assert tc.check({"kind": "display", "equals": -7}, out(tmp_path, display="\u22127"))[0]
    big = {"kind": "display", "equals": 1099511627776}
    assert tc.check(big, out(tmp_path, display="1 099 511 627 776"))[0]
    km = {"kind": "display", "equals": 1.5, "unit": "km"}
    assert tc.check(km, out(tmp_path, display="1.5 km"))[0]
    assert not tc.check(km, out(tmp_path, display="1.5 m"))[0]
    assert not tc.check(km, out(tmp_path, display="1500 m"))[0]
    assert not tc.check({"kind": "display", "equals": 1.5}, out(tmp_path, display="1.5 km"))[0]


def test_sheet_check_reads_a_saved_workbook(tmp_path: Path) -> None:
    if shutil.which("ssconvert") is None:
        pytest.fail("needs ssconvert (package gnumeric; make system-deps installs it)")
    import subprocess

    (tmp_path / "t.csv").write_text("Item,Qty\nBolts,340\nNuts,\n")
    subprocess.run(["ssconvert", "t.csv", "t.gnumeric"], cwd=tmp_path, capture_output=True)
    sheet = {"kind": "sheet", "path": "t.gnumeric", "cells": {"A1": "Item", "B2": 340}}
    assert tc.check(sheet, out(tmp_path)) == (True, "")
    ok, why = tc.check({**sheet, "cells": {"B3": 0}}, out(tmp_path))
    assert not ok and "B3" in why
    assert not tc.check({**sheet, "cells": {"B2": "340.5"}}, out(tmp_path))[0]
    assert not tc.check({**sheet, "path": "missing.gnumeric"}, out(tmp_path))[0]
    (tmp_path / "plain.txt").write_text("not a sheet")
    assert not tc.check({**sheet, "path": "plain.txt"}, out(tmp_path))[0]


def test_reference_mode_runs_the_steps_or_nothing(tmp_path: Path) -> None:
    """--reference drives a task by its own steps (here only a pause, no display needed);
    --reference none does nothing; a task without steps cannot pass by reference."""
    task = tc.Task(**{**CORPUS[0].__dict__, "reference": ("sleep 0",)})
    assert tc._reference(task, {}, tmp_path, skip=False) == ("done", "reference steps run", 1)
    assert tc._reference(task, {}, tmp_path, skip=True)[0] == "none"
    bare = tc.Task(**{**CORPUS[0].__dict__, "reference": ()})
    assert tc._reference(bare, {}, tmp_path, skip=False)[0] == "error"
    broken = tc.Task(**{**CORPUS[0].__dict__, "reference": ("key Return", " ")})
    assert any("reference step" in line for line in tc.problems([broken]))


# ---- set 4 (benchmarks/tasks_dev4/ + tasks_heldout3/): one set split by a fixed rule -------

DEV4 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev4")
HELDOUT3 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout3")


def test_set_4_is_sound_and_split_by_its_rule() -> None:
    """Both halves together follow split_set4 (per program, the first half of the ids in
    sha256("clickwright-set4/<id>") order held out); checked for form only, never printed."""
    both = [*DEV4, *HELDOUT3]
    assert tc.problems(both) == []
    assert {t.split for t in DEV4} == {"dev"} and {t.split for t in HELDOUT3} == {"heldout3"}
    rule = tc.split_set4(both)
    assert {t.id: t.split for t in both} == rule
    assert all(t.reference for t in both)  # each check is tested by a run that does the task
    desktop = [t for t in both if t.source == "desktop.toml"]
    assert len(desktop) >= 80
    new = {"kdialog", "speedcrunch", "geany", "pluma", "l3afpad"}
    assert sum(t.program in new for t in desktop) >= 0.4 * len(desktop)
    assert not {t.id for t in both} & {t.id for t in [*CORPUS, *HELDOUT2]}


def test_set_4_rule_catches_a_moved_task() -> None:
    both = [*DEV4, *HELDOUT3]
    first = HELDOUT3[0]
    moved = tc.Task(**{**first.__dict__, "split": "dev"})
    changed = [moved if t.id == first.id else t for t in both]
    assert {t.id: t.split for t in changed} != tc.split_set4(changed)
    assert any("held out whole" in line for line in tc.problems([moved]))


def test_speedcrunch_display_in_another_base(tmp_path: Path) -> None:
    hexa = {"kind": "display", "equals": "0xBEE"}
    assert tc.check(hexa, out(tmp_path, display="0xBEE\n"))[0]
    assert not tc.check(hexa, out(tmp_path, display="3054"))[0]
    assert not tc.check(hexa, out(tmp_path, display=None))[0]


# ---- set 5 (benchmarks/tasks_dev5/ + tasks_heldout4/): one set split by a fixed rule -------

DEV5 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev5")
HELDOUT4 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout4")


def test_set_5_is_sound_and_split_by_its_rule() -> None:
    """Both halves together follow split_set5 (per program, the first half of the ids in
    sha256("clickwright-set5/<id>") order held out; web tasks by page); checked for form only,
    never printed."""
    both = [*DEV5, *HELDOUT4]
    assert tc.problems(both) == []
    assert {t.split for t in DEV5} == {"dev"} and {t.split for t in HELDOUT4} == {"heldout4"}
    assert {t.id: t.split for t in both} == tc.split_set5(both)
    assert all(t.reference for t in both)  # each check is tested by a run that does the task
    assert len(both) >= 50
    web = [t for t in both if t.program == "chromium"]
    assert len(web) >= 25 and {t.scale for t in web} == {1, 2}
    pages = {half: {t.setup["page"] for t in half_tasks if t.program == "chromium"}
             for half, half_tasks in (("dev", DEV5), ("held", HELDOUT4))}  # fmt: skip
    assert len(pages["dev"]) == len(pages["held"]) == 3 and not pages["dev"] & pages["held"]
    assert all((t.corpus / "web" / t.setup["page"]).is_file() for t in web)
    desktop = [t for t in both if t.program != "chromium"]
    assert len(desktop) >= 20 and len({t.program for t in desktop}) >= 8
    weak = {"multi-field", "editor", "row-by-content", "read-then-use", "intent", "consent"}
    for half in (DEV5, HELDOUT4):
        assert weak | {"widget-value"} <= {c for t in half for c in t.classes}


def test_set_5_shares_no_id_with_other_sets() -> None:
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3]
    both = [*DEV5, *HELDOUT4]
    assert not {t.id for t in both} & {t.id for t in others}
    assert tc.problems([*others, *both]) == []  # every corpus side by side


def test_set_5_rule_catches_a_moved_task() -> None:
    both = [*DEV5, *HELDOUT4]
    first = HELDOUT4[0]
    moved = tc.Task(**{**first.__dict__, "split": "dev"})
    changed = [moved if t.id == first.id else t for t in both]
    assert {t.id: t.split for t in changed} != tc.split_set5(changed)
    assert any("held out whole" in line for line in tc.problems([moved]))


def test_split_set_is_the_rule_of_sets_4_and_5() -> None:
    """split_set4 and split_set5 are one rule with their own salt and held-out name."""
    set4 = [*DEV4, *HELDOUT3]
    assert tc.split_set(set4, "clickwright-set4/", "heldout3") == tc.split_set4(set4)
    set5 = [*DEV5, *HELDOUT4]
    assert tc.split_set(set5, "clickwright-set5/", "heldout4") == tc.split_set5(set5)
    assert set(tc.split_set5(set5).values()) == {"dev", "heldout4"}
    assert tc.split_set(set5, "another-salt/", "heldout4") != tc.split_set5(set5)


# ---- set 6 (benchmarks/tasks_dev6/ + tasks_heldout5/): dragging, selecting text, colours ----

DEV6 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev6")
HELDOUT5 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout5")
SET6_CLASSES = {"drag", "text-selection", "colour"}


def test_set_6_is_sound_and_split_by_its_rule() -> None:
    """Both halves together follow split_set6 (per program, the first half of the ids in
    sha256("clickwright-set6/<id>") order held out; web tasks by page); checked for form only,
    never printed."""
    both = [*DEV6, *HELDOUT5]
    assert tc.problems(both) == []
    assert {t.split for t in DEV6} == {"dev"} and {t.split for t in HELDOUT5} == {"heldout5"}
    assert {t.id: t.split for t in both} == tc.split_set6(both)
    assert all(t.reference for t in both)  # each check is tested by a run that does the task
    assert all(t.id.startswith("s6-") for t in both)
    assert len(both) >= 36
    web = [t for t in both if t.program == "chromium"]
    assert len(web) >= 24 and {t.scale for t in web} == {1, 2}
    pages = {half: {t.setup["page"] for t in half_tasks if t.program == "chromium"}
             for half, half_tasks in (("dev", DEV6), ("held", HELDOUT5))}  # fmt: skip
    assert len(pages["dev"]) >= 2 and len(pages["held"]) >= 2
    assert not pages["dev"] & pages["held"]
    assert all((t.corpus / "web" / t.setup["page"]).is_file() for t in web)
    for half in ("tasks_dev6", "tasks_heldout5"):  # each page lives in one folder only
        on_disk = {p.name for p in (ROOT / "benchmarks" / half / "web").iterdir()}
        assert on_disk == pages["dev" if half == "tasks_dev6" else "held"]
    desktop = [t for t in both if t.program != "chromium"]
    assert len(desktop) >= 8 and all(t.program in tc.ALL_PROGRAMS for t in desktop)
    for half in (DEV6, HELDOUT5):
        assert SET6_CLASSES <= {c for t in half for c in t.classes}
    assert all(set(t.classes) & SET6_CLASSES for t in both)


def test_set_6_shares_no_id_with_other_sets() -> None:
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4]
    both = [*DEV6, *HELDOUT5]
    assert not {t.id for t in both} & {t.id for t in others}
    assert tc.problems([*others, *both]) == []  # every corpus side by side


def test_set_6_rule_catches_a_moved_task() -> None:
    both = [*DEV6, *HELDOUT5]
    for first, to in ((HELDOUT5[0], "dev"), (DEV6[0], "heldout5")):
        moved = tc.Task(**{**first.__dict__, "split": to})
        changed = [moved if t.id == first.id else t for t in both]
        assert {t.id: t.split for t in changed} != tc.split_set6(changed)
        assert any("held out whole" in line for line in tc.problems([moved]))


def test_split_set_is_the_rule_of_set_6() -> None:
    """split_set6 is split_set with its own salt and held-out name."""
    set6 = [*DEV6, *HELDOUT5]
    assert tc.split_set(set6, "clickwright-set6/", "heldout5") == tc.split_set6(set6)
    assert set(tc.split_set6(set6).values()) == {"dev", "heldout5"}
    assert tc.split_set(set6, "clickwright-set5/", "heldout5") != tc.split_set6(set6)


# ---- set 7 (benchmarks/tasks_dev7/): the engineer's own dev material after set 6 ----------


def test_set_7_is_dev_material_only_and_shares_no_id() -> None:
    dev7 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev7")
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4, *DEV6, *HELDOUT5]
    assert tc.problems([*others, *dev7]) == []
    assert {t.split for t in dev7} == {"dev"} and all(t.id.startswith("s7-") for t in dev7)
    assert not {t.id for t in dev7} & {t.id for t in others}
    assert {t.scale for t in dev7} == {1, 2}
    assert all((t.corpus / "web" / t.setup["page"]).is_file() for t in dev7)


# ---- set 8 (benchmarks/tasks_dev8/): strangers' phrasings read while tuning ------------------


def test_set_8_is_dev_material_only_and_shares_no_id() -> None:
    dev8 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev8")
    dev7 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev7")
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4, *DEV6, *HELDOUT5, *dev7]
    assert tc.problems([*others, *dev8]) == []
    assert {t.split for t in dev8} == {"dev"} and all(t.id.startswith("s8-") for t in dev8)
    assert not {t.id for t in dev8} & {t.id for t in others}
    assert {t.program for t in dev8} >= {"mousepad", "pluma", "geany", "l3afpad", "chromium"}
    assert all((t.corpus / "web" / t.setup["page"]).is_file() for t in dev8 if "page" in t.setup)


# ---- set 9 (benchmarks/tasks_dev9/ + tasks_heldout6/): colours, selecting text, dragging, editors,
# values cut out of a sentence; one set split by a fixed rule, checked for form only, never printed

DEV9 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev9")
HELDOUT6 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout6")
SET9_CLASSES = {"colour", "text-selection", "drag", "editor", "cut-value"}
EDITORS = {"mousepad", "pluma", "geany", "l3afpad", "featherpad"}


def test_set_9_is_sound_and_split_by_its_rule() -> None:
    """Both halves together follow split_set9 (per program, the first half of the ids in
    sha256("clickwright-set9/<id>") order held out; web tasks by page)."""
    both = [*DEV9, *HELDOUT6]
    assert tc.problems(both) == []
    assert {t.split for t in DEV9} == {"dev"} and {t.split for t in HELDOUT6} == {"heldout6"}
    assert {t.id: t.split for t in both} == tc.split_set9(both)
    assert all(t.reference for t in both)  # each check is tested by a run that does the task
    assert all(t.id.startswith("s9-") for t in both)
    assert len(both) >= 36
    web = [t for t in both if t.program == "chromium"]
    assert len(web) >= 24 and {t.scale for t in web} == {1, 2}
    assert 0.25 <= sum(t.scale == 2 for t in web) / len(web) <= 0.4  # about a third at scale 2
    pages = {half: {t.setup["page"] for t in half_tasks if t.program == "chromium"}
             for half, half_tasks in (("dev", DEV9), ("held", HELDOUT6))}  # fmt: skip
    assert len(pages["dev"]) == len(pages["held"]) == 3 and not pages["dev"] & pages["held"]
    for half in ("tasks_dev9", "tasks_heldout6"):  # each page lives in one folder only
        on_disk = {p.name for p in (ROOT / "benchmarks" / half / "web").iterdir()}
        assert on_disk == pages["dev" if half == "tasks_dev9" else "held"]
    desktop = [t for t in both if t.program != "chromium"]
    assert len(desktop) >= 12 and all(t.program in tc.ALL_PROGRAMS for t in desktop)
    assert EDITORS <= {t.program for t in desktop}
    for t in both:  # an editor task is checked on the file the editor saved
        assert "editor" not in t.classes or (t.program in EDITORS and t.check["kind"] == "file")
    for half in (DEV9, HELDOUT6):
        assert SET9_CLASSES <= {c for t in half for c in t.classes}
    assert all(set(t.classes) & SET9_CLASSES for t in both)


def test_set_9_shares_no_id_with_other_sets() -> None:
    dev7 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev7")
    dev8 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev8")
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4, *DEV6, *HELDOUT5]
    others += [*dev7, *dev8]
    both = [*DEV9, *HELDOUT6]
    assert not {t.id for t in both} & {t.id for t in others}
    assert tc.problems([*others, *both]) == []  # every corpus side by side


def test_set_9_rule_catches_a_moved_task() -> None:
    both = [*DEV9, *HELDOUT6]
    for first, to in ((HELDOUT6[0], "dev"), (DEV9[0], "heldout6")):
        moved = tc.Task(**{**first.__dict__, "split": to})
        changed = [moved if t.id == first.id else t for t in both]
        assert {t.id: t.split for t in changed} != tc.split_set9(changed)
        assert any("held out whole" in line for line in tc.problems([moved]))


def test_split_set_is_the_rule_of_set_9() -> None:
    """split_set9 is split_set with its own salt and held-out name."""
    set9 = [*DEV9, *HELDOUT6]
    assert tc.split_set(set9, "clickwright-set9/", "heldout6") == tc.split_set9(set9)
    assert set(tc.split_set9(set9).values()) == {"dev", "heldout6"}
    assert tc.split_set(set9, "clickwright-set6/", "heldout6") != tc.split_set9(set9)


# ---- set 10 (benchmarks/tasks_dev10/ + tasks_heldout7/): selecting text, colours, ordinary web
# forms, tables, settings and dialogs, editors, values cut out of a sentence; one set split by a
# fixed rule, checked for form only, never printed

DEV10 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev10")
HELDOUT7 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout7")
SET10_CLASSES = {"colour", "text-selection", "editor", "cut-value"}


def test_set_10_is_sound_and_split_by_its_rule() -> None:
    """Both halves together follow split_set10 (per program, the first half of the ids in
    sha256("clickwright-set10/<id>") order held out; web tasks by page)."""
    both = [*DEV10, *HELDOUT7]
    assert tc.problems(both) == []
    assert {t.split for t in DEV10} == {"dev"} and {t.split for t in HELDOUT7} == {"heldout7"}
    assert {t.id: t.split for t in both} == tc.split_set10(both)
    assert all(t.reference for t in both)  # each check is tested by a run that does the task
    assert all(t.id.startswith("s10-") for t in both)
    assert len(both) == 40 and len(DEV10) == len(HELDOUT7)
    web = [t for t in both if t.program == "chromium"]
    assert len(web) >= 24 and {t.scale for t in web} == {1, 2}
    assert 0.25 <= sum(t.scale == 2 for t in web) / len(web) <= 0.4  # about a third at scale 2
    pages = {half: {t.setup["page"] for t in half_tasks if t.program == "chromium"}
             for half, half_tasks in (("dev", DEV10), ("held", HELDOUT7))}  # fmt: skip
    assert len(pages["dev"]) == len(pages["held"]) == 3 and not pages["dev"] & pages["held"]
    for half in ("tasks_dev10", "tasks_heldout7"):  # each page lives in one folder only
        on_disk = {p.name for p in (ROOT / "benchmarks" / half / "web").iterdir()}
        assert on_disk == pages["dev" if half == "tasks_dev10" else "held"]
    desktop = [t for t in both if t.program != "chromium"]
    assert len(desktop) >= 12 and all(t.program in tc.ALL_PROGRAMS for t in desktop)
    assert EDITORS <= {t.program for t in desktop}
    for program in {t.program for t in desktop}:  # an even count per program: half held out
        counts = [sum(t.program == program for t in half) for half in (DEV10, HELDOUT7)]
        assert counts[0] == counts[1]
    for t in both:  # an editor task is checked on the file the editor saved
        assert "editor" not in t.classes or (t.program in EDITORS and t.check["kind"] == "file")
    for half in (DEV10, HELDOUT7):
        assert SET10_CLASSES <= {c for t in half for c in t.classes}
    focus = SET10_CLASSES | {"list", "row-by-content", "find-hidden"}
    assert all(set(t.classes) & focus for t in both)


def test_set_10_shares_no_id_or_page_with_other_sets() -> None:
    dev7 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev7")
    dev8 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev8")
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4, *DEV6, *HELDOUT5]
    others += [*dev7, *dev8, *DEV9, *HELDOUT6]
    both = [*DEV10, *HELDOUT7]
    assert not {t.id for t in both} & {t.id for t in others}
    assert tc.problems([*others, *both]) == []  # every corpus side by side
    def page(t: tc.Task) -> str:
        return (t.corpus / "web" / t.setup["page"]).read_text(encoding="utf-8")

    texts = {page(t) for t in others if t.program == "chromium"}
    assert not any(page(t) in texts for t in both if t.program == "chromium")  # pages are new


def test_set_10_rule_catches_a_moved_task() -> None:
    both = [*DEV10, *HELDOUT7]
    for first, to in ((HELDOUT7[0], "dev"), (DEV10[0], "heldout7")):
        moved = tc.Task(**{**first.__dict__, "split": to})
        changed = [moved if t.id == first.id else t for t in both]
        assert {t.id: t.split for t in changed} != tc.split_set10(changed)
        assert any("held out whole" in line for line in tc.problems([moved]))


def test_split_set_is_the_rule_of_set_10() -> None:
    """split_set10 is split_set with its own salt and held-out name."""
    set10 = [*DEV10, *HELDOUT7]
    assert tc.split_set(set10, "clickwright-set10/", "heldout7") == tc.split_set10(set10)
    assert set(tc.split_set10(set10).values()) == {"dev", "heldout7"}
    assert tc.split_set(set10, "clickwright-set9/", "heldout7") != tc.split_set10(set10)
    assert "heldout7" in tc.SPLITS and tc.WHOLE_SPLITS["tasks_heldout7"] == "heldout7"


@pytest.mark.slow
@pytest.mark.parametrize("task_id", ["s10-router-casa-rossi-ch11", "s10-router-swap-blocked-site"])
def test_a_settings_sites_section_is_opened_for_the_step_that_names_it(
    task_id: str, tmp_path: Path
) -> None:
    """Chromium at scale 1, default settings, a router's Overview: "rename my wifi …" opens the
    Wi-Fi section its words name, sets the name field and the channel; "Take tiktok.com off the
    blocked websites and block roblox.com instead" looks through the sections for tiktok.com,
    removes it by its "×" and adds roblox.com through the list's field and Add. Each applies;
    the check is the form the page sent."""
    [task] = [t for t in DEV10 if t.id == task_id]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (result.check, result.outcome, result.reason)


@pytest.mark.slow
@pytest.mark.parametrize("task_id", ["s10-wiki-red-extension", "s10-wiki-drop-cisco"])
def test_a_rich_text_edit_keeps_the_articles_formatting(task_id: str, tmp_path: Path) -> None:
    """Chromium, default settings, a wiki's rich-text editor: "make 'extension 4400' red" (at
    scale 2) selects the words and presses the red swatch; deleting the sentence about the old
    client (at scale 1) selects that sentence alone and deletes it, so the green words
    elsewhere stay green (a paste of the plain text would lose them). The check is the
    article the page sent: its text and each run's colour."""
    [task] = [t for t in DEV10 if t.id == task_id]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (result.check, result.outcome, result.reason)


@pytest.mark.slow
@pytest.mark.parametrize(
    "task_id", ["s10-customers-limit-biggest-debt", "s10-customers-fjordkaffe-notes"]
)
def test_a_rows_field_behind_its_menu_is_set(task_id: str, tmp_path: Path) -> None:
    """Chromium at scale 1, default settings, an invoicing app's customers: "whoever owes us
    the most right now, raise their credit limit to 50 000" finds the row with the largest
    Balance due; "In Fjordkaffe's notes, get rid of the line about their old address and save"
    the row Fjordkaffe. Each opens its row's "⋯" menu's Edit details, changes the field (the
    limit; one line of the notes) and presses the dialog's Save changes. The check is the form
    the page sent (that customer's field, nobody else's)."""
    [task] = [t for t in DEV10 if t.id == task_id]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (result.check, result.outcome, result.reason)


# ---- set 11 (benchmarks/tasks_dev11/): a calendar, a web shop and a document review tool ------

DEV11 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev11")


def test_set_11_is_dev_material_only_and_shares_no_id() -> None:
    dev7 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev7")
    dev8 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev8")
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4, *DEV6, *HELDOUT5]
    others += [*dev7, *dev8, *DEV9, *HELDOUT6, *DEV10, *HELDOUT7]
    assert tc.problems([*others, *DEV11]) == []
    assert {t.split for t in DEV11} == {"dev"} and all(t.id.startswith("s11-") for t in DEV11)
    assert not {t.id for t in DEV11} & {t.id for t in others}
    assert all(t.reference for t in DEV11)  # each check is tested by a run that does the task
    assert {t.program for t in DEV11} == {"chromium"} and {t.scale for t in DEV11} == {1, 2}
    pages = {t.setup["page"] for t in DEV11}
    assert pages == {p.name for p in (ROOT / "benchmarks" / "tasks_dev11" / "web").iterdir()}

    def page(t: tc.Task) -> str:
        return (t.corpus / "web" / t.setup["page"]).read_text(encoding="utf-8")

    texts = {page(t) for t in others if t.program == "chromium"}
    assert not any(page(t) in texts for t in DEV11)  # pages are new


@pytest.mark.slow
def test_a_products_colour_size_and_quantity_are_chosen_before_add_to_cart(
    tmp_path: Path,
) -> None:
    """Chromium at scale 1, default settings, a shop's product page: "add the hoodie in the
    dark red colour, size L, 2 of them" presses the dark red swatch (no text on it), the L
    button, sets the unlabelled quantity stepper to 2 (its + pressed) and presses Add to cart.
    The check is the cart the page sent (one line: that colour, that size, two)."""
    [task] = [t for t in DEV11 if t.id == "s11-shop-dark-red-l"]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (result.check, result.outcome, result.reason)


@pytest.mark.slow
def test_each_of_someones_suggestions_is_accepted_from_the_top_of_the_list(tmp_path: Path) -> None:
    """Chromium at scale 1, default settings, a review tool's sidebar of suggestions and
    comments: "accept all of daniels suggestions and reject priyas, then submit the review"
    presses Accept on each of Daniel's cards and Reject on each of Priya's (the sidebar
    scrolled back to its top first, cards that only mention a name skipped), then Submit
    review. The check is the article the page sent."""
    [task] = [t for t in DEV11 if t.id == "s11-review-daniel-accept"]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (result.check, result.outcome, result.reason)


ONE_LEVEL_DEEPER = {
    "s11-cal-red-thursday-later": "a week's block opened, its start chosen, Save at the end",
    "s11-shop-drop-priciest": "the cart's drawer opened, the priciest line's Remove (no total)",
    "s11-shop-banner-code": "the banner's code read, typed into the field in the cart's drawer",
    "s11-shop-review-four-stars": "Write a review opened, stars, fields, Submit review",
    "s11-review-lena-fix": "the change Lena's comment states, made in place in the text",
}


@pytest.mark.slow
@pytest.mark.parametrize("task_id", sorted(ONE_LEVEL_DEEPER))
def test_a_task_one_level_deeper_than_a_visible_button(task_id: str, tmp_path: Path) -> None:
    """Chromium, default settings, set 11's web apps: what the task acts on is behind a click
    (a calendar's event dialog, a cart drawer, a review form, a comment's words). The check is
    the state the page sent, every other event, line or word unchanged."""
    [task] = [t for t in DEV11 if t.id == task_id]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (ONE_LEVEL_DEEPER[task_id], result.check, result.outcome, result.reason)


# ---- set 12 (benchmarks/tasks_dev12/ + tasks_heldout8/): four web apps, split by page before
# any task was written; checked for form only, never printed

DEV12 = tc.load_corpus(ROOT / "benchmarks" / "tasks_dev12")
HELDOUT8 = tc.load_corpus(ROOT / "benchmarks" / "tasks_heldout8")


def test_set_12_is_sound_and_split_by_its_pages() -> None:
    """Both halves together follow split_set12: of the four pages, the two first in
    sha256("clickwright-set12/<page>") order are held out with their tasks."""
    both = [*DEV12, *HELDOUT8]
    others = [*CORPUS, *HELDOUT2, *DEV4, *HELDOUT3, *DEV5, *HELDOUT4, *DEV6, *HELDOUT5]
    others += [*DEV9, *HELDOUT6, *DEV10, *HELDOUT7, *DEV11]
    assert tc.problems([*others, *both]) == []
    assert {t.split for t in DEV12} == {"dev"} and {t.split for t in HELDOUT8} == {"heldout8"}
    assert {t.id: t.split for t in both} == tc.split_set12(both)
    assert not {t.id for t in both} & {t.id for t in others}
    assert all(t.reference and t.id.startswith("s12-") for t in both)
    assert {t.program for t in both} == {"chromium"} and {t.scale for t in both} == {1, 2}
    pages = {half: {t.setup["page"] for t in tasks} for half, tasks in
             (("tasks_dev12", DEV12), ("tasks_heldout8", HELDOUT8))}  # fmt: skip
    assert len(pages["tasks_dev12"]) == len(pages["tasks_heldout8"]) == 2
    for half, names in pages.items():  # each page lives in one folder only
        assert names == {p.name for p in (ROOT / "benchmarks" / half / "web").iterdir()}
    assert tc.split_set(both, "clickwright-set11/", "heldout8") != tc.split_set12(both)
    assert "heldout8" in tc.SPLITS and tc.WHOLE_SPLITS["tasks_heldout8"] == "heldout8"


MONTH_AND_MAIL = {
    "s12-agenda-green-19th-later": "a month's entry by its date and dot colour, its start moved",
    "s12-inbox-reply-mum": "a mail row by sender and subject opened, the reply's body, Send once",
}


@pytest.mark.slow
@pytest.mark.parametrize("task_id", sorted(MONTH_AND_MAIL))
def test_a_month_views_entry_and_a_mail_row_are_found_by_what_they_show(
    task_id: str, tmp_path: Path
) -> None:
    """Chromium, default settings, set 12's dev pages: the check is the state the page sent,
    every other entry or message unchanged."""
    [task] = [t for t in DEV12 if t.id == task_id]
    result = tc.run_task(task, tc.Displays(), tmp_path, time_limit=120, keep=False)
    assert result.success, (MONTH_AND_MAIL[task_id], result.check, result.outcome, result.reason)
