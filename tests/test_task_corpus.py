"""The issue-13 task corpus (benchmarks/tasks/) and its runner (benchmarks/tasks.py): the corpus
is sound, the held-out third follows its fixed rule, each kind of check passes on the right
output and fails on the wrong one, and one corpus task runs end to end on Xvfb."""

from __future__ import annotations

import importlib.util
import shutil
import sys
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
