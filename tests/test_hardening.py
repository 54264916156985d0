"""Issue 15, fast part: bad input and faults end in one line and an honest run log, secrets stay
masked, and a demonstration is untrusted input. No display is started here; the real CLI runs
where a user would meet the problem. (The display, the app and signals: test_hardening_e2e.py.)"""

from __future__ import annotations

import contextlib
import json
import math
import os
import shutil
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

from clickwright.agent.backends import base as backends
from clickwright.agent.backends.anthropic_api import AnthropicBackend
from clickwright.agent.backends.base import Message, ModelTimeout
from clickwright.agent.backends.openai_compat import OpenAICompatBackend
from clickwright.agent.config import ConfigError, load_settings
from clickwright.agent.demos.format import load_demo, remove_demo
from clickwright.agent.demos.replay import replay_demo
from clickwright.agent.events import Observers, RunObserver, Waiting
from clickwright.agent.loop import run_task
from clickwright.agent.runlog import (
    REDACTED,
    RunLog,
    check_task,
    close_killed_runs,
    looks_secret,
    read_run,
    read_steps,
)
from clickwright.agent.state import RunSettings
from clickwright.app.report import write_report
from clickwright.devices.desktop import off_corner
from clickwright.errors import ClickwrightError, DemoError, StorageError, TaskError
from clickwright.types import Box, Element, Frame, Screen, StepRecord
from tests.conftest import run_cli
from tests.model_server import ModelServer, Reply, unconnectable
from tests.test_demos import write_demo

PASSWORD = Element(1, Box(100, 100, 200, 30), "input", "", interactive=True, name="Pasword:")
NAME = Element(2, Box(100, 150, 200, 30), "input", "", interactive=True, name="Name:")
SAVE = Element(3, Box(100, 200, 80, 30), "button", "Save", interactive=True)


class Stub:
    """A screen that changes with every action (so each has an effect), and can fail like a
    real one: `fault` raised from `perform`, `gone` what `vanished()` says after some actions,
    `noise` for frames that never repeat (a PNG that does not compress)."""

    kind = "stub"

    def __init__(self, fault: Exception | None = None, gone_after: int = 0, noise: bool = False):
        self.fault, self.gone_after, self.noise = fault, gone_after, noise
        self.performed: list[str] = []

    def capture(self) -> Frame:
        if self.noise:
            seed = len(self.performed)
            return Frame(np.random.default_rng(seed).integers(0, 255, (200, 300, 3), np.uint8))
        return Frame(np.full((200, 300, 3), 10 * len(self.performed), np.uint8))

    def perform(self, action, point=None, end=None) -> None:
        if self.fault is not None:
            raise self.fault
        self.performed.append(action.type)

    def vanished(self, window: bool = True) -> str:
        if self.gone_after and len(self.performed) >= self.gone_after:
            return "the program 'app' was killed by signal 9"
        return ""

    def describe(self) -> dict:
        return {"kind": self.kind}

    def accessibility(self) -> None:
        return None


class Form:
    """The parser's view: a (misspelt) password field, a name field showing `shown`, Save."""

    def __init__(self) -> None:
        self.shown = ""

    def parse(self, frame: Frame, nodes=None) -> Screen:
        name = Element(2, NAME.box, "input", self.shown, interactive=True, name="Name:")
        return Screen(frame, (PASSWORD, name, SAVE))


def quick(**settings) -> RunSettings:
    return RunSettings(settle_timeout=0.3, **settings)


def everything_written(run_dir: Path) -> str:
    return "".join(
        p.read_text(errors="replace")
        for p in run_dir.rglob("*")
        if p.suffix in (".json", ".jsonl", ".html")
    )


@contextmanager
def tmpfs(path: Path, size: str = "2m", read_only: bool = False):
    """A small filesystem of its own (root only): a disk that fills, or one that is read-only."""
    if os.geteuid() != 0 or shutil.which("mount") is None:
        pytest.skip("needs root to mount a tmpfs")
    path.mkdir()
    options = f"size={size}" + (",ro" if read_only else "")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)]).returncode:
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def one_line(result: subprocess.CompletedProcess) -> str:
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.stderr, result.stderr
    return lines[0]


# ---- where runs are written ---------------------------------------------------------------------


@pytest.mark.parametrize("where", ["/dev/null", "file", "file/below"])
def test_a_runs_dir_that_cannot_hold_runs_is_one_line(tmp_path, where):
    (tmp_path / "file").write_text("not a folder")
    runs = Path(where) if where.startswith("/") else tmp_path / where
    with pytest.raises(StorageError, match="cannot write run logs"):
        RunLog(runs, "click Save")


def test_a_read_only_runs_dir_is_one_line(tmp_path):
    with tmpfs(tmp_path / "ro", read_only=True) as ro:
        with pytest.raises(StorageError, match="Read-only file system"):
            RunLog(ro, "click Save")


@contextmanager
def immutable(path: Path):
    """A folder nobody may write in, root included (`chattr +i`)."""
    path.mkdir()
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True).returncode:
        pytest.skip("cannot make a folder immutable here")
    try:
        yield path
    finally:
        subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_immutable_runs_dir_is_one_line(tmp_path):
    with immutable(tmp_path / "frozen") as frozen:
        with pytest.raises(StorageError, match="cannot write run logs in .*frozen"):
            RunLog(frozen, "click Save")


@pytest.mark.parametrize("where", ["/dev/null", "file", "immutable"])
def test_a_demos_dir_that_cannot_hold_demonstrations_is_one_line(tmp_path, where):
    (tmp_path / "file").write_text("")
    run = RunLog(tmp_path / "runs", "click Save")
    run.finish("done", "ok")
    with contextlib.ExitStack() as stack:
        demos = {
            "/dev/null": Path("/dev/null"),
            "file": tmp_path / "file",
            "immutable": stack.enter_context(immutable(tmp_path / "frozen")),
        }[where]
        saving, recording = ["demos", "save-run", str(run.dir), "x"], ["record", "x"]
        for command in (saving, [*recording, "--display", ":987"]):
            said = run_cli(*command, "--demos-dir", str(demos))
            assert said.returncode == 2 and "cannot write demonstrations" in one_line(said)


def test_a_full_disk_ends_the_run_honestly(tmp_path):
    with tmpfs(tmp_path / "small", "1m") as small:
        result = run_task(
            "click Save, " * 30 + "click Save",
            Stub(noise=True),
            small,
            quick(max_steps=40),
            parser=Form(),
        )
        assert result.outcome == "error" and "No space left on device" in result.reason
        run = json.loads((result.run_dir / "run.json").read_text())
        assert run["outcome"] == "error" and "No space" in run["reason"]
        assert run["steps"] == len(read_steps(result.run_dir)) > 0
        assert not [p.name for p in result.run_dir.rglob("*") if p.name.endswith(".tmp")]


# ---- odd text and limits ----------------------------------------------------------------------


def test_tasks_that_cannot_be_logged_are_refused_in_one_line():
    with pytest.raises(TaskError, match="not valid UTF-8"):
        check_task("click \udcff Save")  # how Python keeps the byte 0xff of an argument
    with pytest.raises(TaskError, match="100,006 characters"):
        check_task("click " + "a" * 100_000)
    assert check_task("click Save") == "click Save"


@pytest.mark.parametrize("limit", ["max_time", "max_cost"])
@pytest.mark.parametrize("value", [math.inf, math.nan])
def test_limits_must_be_numbers(limit, value):
    with pytest.raises(ClickwrightError, match="cannot be"):
        RunSettings(**{limit: value})


def test_cli_refuses_bad_text_and_infinite_limits(tmp_path):
    env = dict(os.environ, PYTHONIOENCODING="utf-8")
    argv = [sys.executable, "-m", "clickwright.app", "run", b"click \xff Save", "--json"]
    bad = subprocess.run(argv, capture_output=True, env=env, timeout=60)
    assert (
        bad.returncode == 2 and b"not valid UTF-8" in bad.stderr and b"Traceback" not in bad.stderr
    )
    long = run_cli("run", "click " + "a" * 100_000, "--runs-dir", str(tmp_path))
    assert long.returncode == 2 and "characters long" in one_line(long)
    assert len(long.stdout + long.stderr) < 500  # not echoed back
    inf = run_cli("run", "click Save", "--max-time", "inf", "--runs-dir", str(tmp_path))
    assert inf.returncode == 2 and "max-time cannot be inf" in one_line(inf)
    usage = run_cli("run", "click Save", "--max-steps", "many")
    assert usage.returncode == 2 and "--max-steps" in one_line(usage)
    assert not list(tmp_path.iterdir())  # refused before any run began


@pytest.mark.parametrize("where", ["/dev/null", "file"])
def test_cli_checks_the_runs_dir_before_any_display(tmp_path, where):
    (tmp_path / "file").write_text("")
    runs = where if where.startswith("/") else str(tmp_path / where)
    result = run_cli("run", "click Save", "--display", ":987", "--runs-dir", runs)
    assert result.returncode == 2 and "cannot write run logs" in one_line(result)


def test_parse_refuses_huge_images_and_bad_outputs_before_parsing(tmp_path):
    Image.new("L", (20000, 20000)).save(tmp_path / "huge.png")  # 400 MP: a decompression bomb
    Image.new("RGB", (60, 40), "white").save(tmp_path / "small.png")
    huge = run_cli("parse", "--image", str(tmp_path / "huge.png"))
    assert huge.returncode == 2 and "20000×20000" in one_line(huge)
    draw = run_cli("parse", "--image", str(tmp_path / "small.png"), "--draw", "x.nope")
    assert draw.returncode == 2 and "'.nope'" in one_line(draw) and "elements" not in draw.stdout
    to_dir = run_cli("parse", "--image", str(tmp_path / "small.png"), "--json", str(tmp_path))
    assert to_dir.returncode == 2 and "it is a folder" in one_line(to_dir)
    nowhere = run_cli("parse", "--image", str(tmp_path / "small.png"), "--json", "/proc/x.json")
    assert nowhere.returncode == 2 and "cannot write the elements" in one_line(nowhere)


# ---- runs killed outright ---------------------------------------------------------------------


def test_the_next_run_closes_a_run_that_was_killed(tmp_path):
    killed = RunLog(tmp_path, "click Save")
    (killed.dir / "run.json.tmp").write_text("{half")
    dead = subprocess.Popen(["true"])
    dead.wait()
    (killed.dir / ".running").write_text(f"{dead.pid} {os.uname().nodename}\n")
    alive = RunLog(tmp_path, "click Save")  # this process: still running, left alone
    assert close_killed_runs(tmp_path) == []
    RunLog(tmp_path, "click Save")
    run = read_run(killed.dir)
    assert run.outcome == "error" and "killed" in run.reason
    assert not (killed.dir / "run.json.tmp").exists() and not (killed.dir / ".running").exists()
    assert read_run(alive.dir).outcome == "running"


# ---- secrets ----------------------------------------------------------------------------------


def test_labels_that_resemble_a_secret_label_count():
    for label in ("Password:", "Pasword", "Passwrd", "Pass word", "PIN", "PIN-code", "API key"):
        assert looks_secret(label), label
    for label in ("Name", "Shipping address", "Passport number", "Email", "Pinned"):
        assert not looks_secret(label), label


class Said(RunObserver):
    def __init__(self) -> None:
        self.actions: list[str] = []

    def action(self, action, point) -> None:
        self.actions.append(action.model_dump_json())


def test_a_secret_typed_into_a_misspelt_field_is_masked_everywhere(tmp_path, capsys):
    """The field is labelled "Pasword:" and the task says "Pasword": the secret is known from
    the start; then it shows, in clear, in another field: masked there too."""
    from clickwright.app.console import Printer

    form = Form()

    class Echo(Stub):
        def perform(self, action, point=None, end=None) -> None:
            super().perform(action, point, end)
            if action.type == "type" and point and point[1] > 150:
                form.shown = action.text  # the Name field now shows what was typed

    said = Said()
    result = run_task(
        "type 'hunter2' into the Pasword field, type 'hunter2' into Name, then click Save",
        Echo(),
        tmp_path,
        quick(),
        parser=form,
        observer=Observers([Printer(), said]),
    )
    assert result.ok, result.reason
    assert "hunter2" not in everything_written(result.run_dir)
    assert "hunter2" not in capsys.readouterr().out
    assert not any("hunter2" in action for action in said.actions)
    elements = [json.loads(p.read_text()) for p in (result.run_dir / "elements").iterdir()]
    assert any(e["text"] == REDACTED for screen in elements for e in screen)
    write_report(result.run_dir)
    assert "hunter2" not in (result.run_dir / "report.html").read_text()


def test_a_secret_learned_from_the_field_is_masked_from_then_on(tmp_path):
    """The task does not say it is a secret; the field it is typed into does."""
    form = Form()
    result = run_task("type 'hunter2' into Pasword", Stub(), tmp_path, quick(), parser=form)
    assert result.ok, result.reason
    assert "hunter2" not in everything_written(result.run_dir)


# ---- the device and the program under test ---------------------------------------------------


class FailSafeException(Exception):
    """What pyautogui raises when the pointer sits in a corner of the screen."""


def test_the_fail_safe_corner_is_a_stop_with_a_finished_log(tmp_path):
    result = run_task(
        "click Save", Stub(FailSafeException("corner")), tmp_path, quick(), parser=Form()
    )
    assert result.outcome == "stopped" and "corner" in result.reason
    assert read_run(result.run_dir).outcome == "stopped"


def test_replay_never_says_done_after_a_fault(tmp_path):
    demo = write_demo(tmp_path / "demos")
    values = {"password": "pw"}
    stopped = replay_demo(
        demo,
        Stub(FailSafeException("corner")),
        tmp_path / "runs",
        quick(),
        params=values,
        parser=Form(),
    )
    assert stopped.outcome == "stopped" and stopped.steps == 0
    (demo.dir / demo.steps[0].target.crop).write_text("not a png")
    broken = replay_demo(
        load_demo(demo.dir), Stub(), tmp_path / "runs", quick(), params=values, parser=Form()
    )
    assert broken.outcome == "error" and "not a readable PNG" in broken.reason
    for result in (stopped, broken):
        assert read_run(result.run_dir).outcome == result.outcome != "done"


def test_no_more_input_once_the_program_under_test_has_gone(tmp_path):
    device = Stub(gone_after=2)
    result = run_task(
        ", ".join(["press Tab"] * 10), device, tmp_path, quick(max_steps=20), parser=Form()
    )
    assert result.outcome == "failed" and "killed by signal 9" in result.reason
    assert device.performed == ["hotkey", "hotkey"]
    steps = read_steps(result.run_dir)
    assert steps[-1].verdict == "failed" and "killed" in steps[-1].verdict_reason


@pytest.mark.parametrize(
    ("point", "placed"),
    [
        ((0, 0), (1, 1)),
        ((1279, 799), (1278, 798)),
        ((1279, 0), (1278, 1)),
        ((0, 799), (1, 798)),
        ((5000, 9000), (1278, 798)),
        ((-3, 400), (0, 400)),
        ((640, 0), (640, 0)),
    ],
)
def test_points_never_land_in_a_fail_safe_corner(point, placed):
    assert off_corner(point, (1280, 800)) == placed


# ---- the demonstration library is untrusted input -------------------------------------------


def broken_copy(root: Path, name: str, line: int, data: bytes) -> Path:
    source = root / "signup"
    if not source.exists():
        write_demo(root)
    shutil.copytree(source, root / name)
    info = json.loads((root / name / "demo.json").read_text())
    (root / name / "demo.json").write_text(json.dumps({**info, "name": name}))
    steps = root / name / "steps.jsonl"
    lines = steps.read_bytes().splitlines()
    lines[line - 1] = data
    steps.write_bytes(b"\n".join(lines) + b"\n")
    return root / name


@pytest.mark.parametrize(
    ("data", "said"),
    [
        ("latin1", "steps.jsonl:2: not UTF-8 text"),
        (b"[" * 100_000, "steps.jsonl:2: JSON nested too deeply"),
        (b'{"words": "x", "action": ' + b'{"a": ' * 5000 + b"1" + b"}" * 5001, "nested too"),
        ("infinity", "steps.jsonl:2: Infinity is not a number"),
        ("nan", "steps.jsonl:2: NaN is not a number"),
    ],
)
def test_the_loader_names_every_decoding_and_depth_error(tmp_path, data, said):
    write_demo(tmp_path)
    good = (tmp_path / "signup" / "steps.jsonl").read_bytes().splitlines()[1]
    data = {
        "latin1": good.replace(b"Password", b"Pa\xdfword"),
        "infinity": good[:-1] + b', "time": Infinity}',
        "nan": good[:-1] + b', "time": NaN}',
    }.get(data, data)
    folder = broken_copy(tmp_path, "bad", 2, data)
    with pytest.raises(DemoError, match=said):
        load_demo(folder)


def test_a_demo_too_big_to_be_one_is_refused(tmp_path):
    folder = broken_copy(tmp_path, "big", 2, b" " * (33 * 1024 * 1024))
    with pytest.raises(DemoError, match="more than a demonstration holds"):
        load_demo(folder)


def test_one_bad_demo_breaks_neither_listing_nor_retrieval(tmp_path):
    from clickwright.agent.demos.knowledge import use_demos

    broken_copy(tmp_path, "bad", 1, b"\xff\xfe[[[")
    listed = run_cli("demos", "list", "--demos-dir", str(tmp_path))
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    assert "signup" in listed.stdout and "damaged" in listed.stdout
    assert [m.demo.name for m in use_demos("sign up a customer", tmp_path).matches] == ["signup"]


def test_a_demo_shows_what_its_steps_really_do(tmp_path):
    hidden = json.dumps(
        {
            "words": "click 'Subscribe to newsletter'",
            "action": {"type": "launch", "app": "touch /tmp/x\rclick 'Subscribe'"},
        }
    ).encode()
    folder = broken_copy(tmp_path, "sneaky", 3, hidden)
    assert load_demo(folder).steps[2].words == "launch \"touch /tmp/x\\rclick 'Subscribe'\""
    shown = run_cli("demos", "show", "sneaky", "--demos-dir", str(tmp_path))
    assert "launch \"touch /tmp/x\\rclick 'Subscribe'\"" in shown.stdout
    assert "Subscribe to newsletter" not in shown.stdout


def test_a_launch_step_of_a_demo_needs_approval(tmp_path):
    hidden = json.dumps(
        {"words": "click 'OK'", "action": {"type": "launch", "app": f"touch {tmp_path}/ran"}}
    ).encode()
    folder = broken_copy(tmp_path, "sneaky", 3, hidden)
    device = Stub()
    result = replay_demo(
        load_demo(folder),
        device,
        tmp_path / "runs",
        quick(),
        params={"password": "pw"},
        only=(3, 4),
        parser=Form(),
    )
    assert result.outcome == "stopped" and "not approved: launch" in result.reason
    assert "launch" not in device.performed


def test_names_cannot_escape_the_library(tmp_path):
    library, elsewhere = tmp_path / "demos", tmp_path / "elsewhere"
    write_demo(library)
    write_demo(elsewhere, "X")
    for name in ("../elsewhere/X", str(elsewhere / "X"), ".."):
        with pytest.raises(DemoError):
            remove_demo(name, library)
        result = run_cli("demos", "rm", name, "--demos-dir", str(library))
        assert result.returncode == 2 and "not the name of a demonstration" in one_line(result)
    assert (elsewhere / "X" / "demo.json").exists()
    assert (
        remove_demo("signup", library) == library / "signup" and not (library / "signup").exists()
    )


def test_save_run_refuses_a_damaged_run(tmp_path):
    result = run_task(
        "click Save, click Save, click Save", Stub(), tmp_path / "runs", quick(), parser=Form()
    )
    assert result.ok
    steps = result.run_dir / "steps.jsonl"
    lines = steps.read_text().splitlines()
    steps.write_text(lines[0] + "\n" + lines[1][:40])  # cut short, as by a crash
    cut = run_cli(
        "demos", "save-run", str(result.run_dir), "cut", "--demos-dir", str(tmp_path / "d")
    )
    assert cut.returncode == 2 and "3 step(s) but 1 can be read" in one_line(cut)
    (result.run_dir / "run.json").write_text('{"id": ')
    corrupt = run_cli(
        "demos", "save-run", str(result.run_dir), "c", "--demos-dir", str(tmp_path / "d")
    )
    assert corrupt.returncode == 2 and "no readable run.json" in one_line(corrupt)
    assert not list((tmp_path / "d").glob("*/demo.json"))


# ---- the report scales, and a second signal hurries it ------------------------------------------


def long_run(tmp_path: Path, steps: int) -> Path:
    from PIL import ImageDraw

    log = RunLog(tmp_path, "press Tab")
    for n in range(steps):
        screen = Image.new("RGB", (1280, 800), "#eef0f3")
        draw = ImageDraw.Draw(screen)
        for row in range(24):  # a form: labels and fields, one of them different each step
            draw.text((40, 30 * row + 10), f"Field {row} of step {n}", fill="black")
            draw.rectangle((300, 30 * row + 6, 900, 30 * row + 28), outline="gray", fill="white")
        frame = Frame(np.asarray(screen))
        log.add_step(StepRecord(frame=log.save_frame(frame, f"{n:04d}"), verdict="success"))
    log.finish("done", "ok")
    return log.dir


def test_a_long_run_gets_thumbnails_beyond_a_bound(tmp_path):
    from clickwright.app.report import FULL_STEPS

    run_dir = long_run(tmp_path, FULL_STEPS + 30)
    page = write_report(run_dir).read_text()
    sizes = [len(part.split('"')[0]) for part in page.split('href="data:')[1:]]
    full, thumbs = sizes[:FULL_STEPS], sizes[FULL_STEPS : FULL_STEPS + 15]
    assert min(full) > 3 * max(thumbs)


def test_a_hurried_report_is_whole_and_inlines_nothing_more(tmp_path):
    run_dir = long_run(tmp_path, 5)
    page = write_report(run_dir, hurry=lambda: True).read_text()
    assert page.endswith("</html>\n") and "data:image" not in page
    assert "not inlined (the report was cut short): frames/0000.png" in page


def test_signals_never_interrupt_what_is_being_finished(monkeypatch):
    from clickwright.app import stop_hotkey as stops

    monkeypatch.setattr(stops, "_signals", stops._Signals())
    with stops.finishing():
        stops._on_stop_signal(15, None)  # while finishing: noted, not raised
    assert stops.hurry()
    monkeypatch.setattr(stops, "_signals", stops._Signals())
    with pytest.raises(KeyboardInterrupt):
        stops._on_stop_signal(1, None)
    assert not stops.hurry()
    stops._on_stop_signal(15, None)  # a second one never raises: the first is stopping it
    assert stops.hurry()


def test_a_stop_signal_after_the_command_has_ended_changes_nothing():
    """Python drops its own handlers while it shuts down: a SIGTERM then would kill the
    process (status -15) after the command said how it ended, unless it is ignored by then."""
    import signal

    from clickwright.app import stop_hotkey as stops

    kept = {signum: signal.getsignal(signum) for signum in stops.STOP_SIGNALS}
    try:
        with stops.stop_signals():
            assert signal.getsignal(signal.SIGTERM) is stops._on_stop_signal
        assert all(signal.getsignal(n) == signal.SIG_IGN for n in stops.STOP_SIGNALS)
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)


def test_a_stop_signal_inside_a_finalizer_prints_nothing_and_the_next_one_interrupts(
    monkeypatch, capsys
):
    """A signal's KeyboardInterrupt raised in an object's __del__ cannot get out of it: Python
    printed it as a traceback, and the command went on as if no signal had come."""
    import gc
    import signal

    from clickwright.app import stop_hotkey as stops

    class Struck:
        def __del__(self) -> None:
            stops._on_stop_signal(signal.SIGTERM, None)

    monkeypatch.setattr(stops, "_signals", stops._Signals())
    kept = {signum: signal.getsignal(signum) for signum in stops.STOP_SIGNALS}
    stop = threading.Event()
    stops._signals.stops.append(stop)
    try:
        with stops.stop_signals():
            Struck()
            gc.collect()
            assert stop.is_set() and not stops.hurry()
            with pytest.raises(KeyboardInterrupt):
                stops._on_stop_signal(signal.SIGTERM, None)
    finally:
        for signum, handler in kept.items():
            signal.signal(signum, handler)
    assert "Traceback" not in capsys.readouterr().err


def test_a_secret_learned_late_is_masked_in_what_was_written_before(tmp_path):
    log = RunLog(tmp_path, "fill in the form")
    frame = Frame(np.zeros((10, 10, 3), np.uint8))
    shown = Element(1, Box(0, 0, 5, 5), "text", "hunter2")
    log.add_step(
        StepRecord(
            instruction="the screen says hunter2",
            elements=log.save_elements(Screen(frame, (shown,)), "0001"),
        )
    )
    log.add_secret("hunter2")  # typed into a field labelled "Password" only now
    log.finish("done", "ok")
    assert "hunter2" not in everything_written(log.dir)
    assert read_steps(log.dir)[0].instruction == f"the screen says {REDACTED}"


def test_run_json_is_standard_json_whatever_it_is_given(tmp_path):
    log = RunLog(tmp_path, "click Save", settings={"max_time": math.inf, "max_cost": math.nan})
    log.finish("done", "ok")

    def refuse(constant: str) -> None:
        raise ValueError(f"{constant} is not standard JSON")

    run = json.loads((log.dir / "run.json").read_text(), parse_constant=refuse)
    assert run["settings"] == {"max_time": None, "max_cost": None}


def test_a_disk_too_full_to_begin_a_run_leaves_no_half_folder(tmp_path):
    with tmpfs(tmp_path / "small", "1m") as small:
        free = shutil.disk_usage(small).free
        (small / "filler").write_bytes(bytes(free - 8192))
        with pytest.raises(StorageError, match="No space left"):
            RunLog(small / "runs", "click Save")
        assert not list((small / "runs").iterdir())


# ---- model endpoints that do not answer ------------------------------------------------------

PROMPT = [Message("user", ["Where is Save?"])]
NEVER = Reply(delay=600)
"""Taken, never answered: the server holds the request until the test ends."""


def api_backend(kind: str, url: str, **options):
    options.setdefault("backoff", 0.01)
    if kind == "openai":
        return OpenAICompatBackend("m", base_url=url + "/v1", api_key="k", **options)
    return AnthropicBackend("m", base_url=url, api_key="k", **options)


@pytest.fixture
def often(monkeypatch):
    """Progress reported every 50 ms, so that short time-outs are reported on too."""
    monkeypatch.setattr(backends, "PROGRESS_EVERY", 0.05)


@pytest.mark.parametrize("kind", ["openai", "anthropic"])
def test_an_endpoint_that_never_answers_is_given_up_after_bounded_tries(often, kind):
    with ModelServer([NEVER] * 3) as server:
        backend = api_backend(kind, server.url, tries=3)
        heard: list[Waiting] = []
        backend.on_wait = heard.append
        with pytest.raises(ModelTimeout, match=r"answer within 0\.5 s \(3 tries") as caught:
            backend.chat(PROMPT, max_tokens=8, timeout=0.5)
    assert len(server.requests) == 3
    assert "\n" not in str(caught.value) and "--timeout" in str(caught.value)
    assert {w.attempt for w in heard} == {1, 2, 3} and {w.tries for w in heard} == {3}
    retries = [w for w in heard if w.retrying and not w.seconds]
    assert [w.attempt for w in retries] == [2, 3]
    assert retries[0].describe().endswith("did not answer within 0.5 s; trying again (try 2 of 3)")
    assert heard[-1].over and "waiting for m at" in heard[1].describe()


def test_an_endpoint_that_cannot_be_connected_to_is_given_up_after_bounded_tries():
    with unconnectable() as url:
        backend = OpenAICompatBackend("m", base_url=url, api_key="k", tries=2, backoff=0.01,
                                      connect_timeout=0.3)  # fmt: skip
        with pytest.raises(ModelTimeout, match=r"cannot connect to .* within 0\.3 s \(2 tries"):
            backend.chat(PROMPT, max_tokens=8, timeout=30)


def test_by_default_a_dead_endpoint_ends_a_run_within_about_a_minute():
    """A server that takes the request and never answers costs `tries` first-byte time-outs
    (and the back-off between them); one that cannot be connected to, `tries` connect ones."""
    default = load_settings({"backend": "openai", "model": "m"}, env={}).for_role("actor")
    backoff = sum(0.5 * 2**n for n in range(default.tries - 1))
    assert 30 <= default.tries * default.timeout + backoff <= 65
    assert default.tries * default.connect_timeout <= 30


@pytest.mark.parametrize("value", [math.inf, math.nan, 0, -1, "soon"])
def test_time_outs_must_be_positive_numbers(value):
    with pytest.raises(ConfigError, match="must be a positive number"):
        load_settings({"timeout": value}, env={})
    with pytest.raises(ConfigError, match="must be a positive number"):
        load_settings(role_flags={"actor": {"connect_timeout": value}}, env={})
    assert load_settings({"timeout": 90.0}, env={}).default.timeout == 90.0


def dead_model_run(tmp_path: Path, timeout: float, heard: RunObserver | None = None, **limits):
    """A run whose model (every role) is behind a server that never answers."""
    with ModelServer([NEVER] * 3) as server:
        flags = {"backend": "openai", "base_url": server.url + "/v1", "model": "m"}
        models = load_settings({**flags, "timeout": timeout}, env={})
        stop = heard.stop if isinstance(heard, Heard) else None
        result = run_task(
            "save the form", Stub(), tmp_path, quick(**limits), parser=Form(), models=models,
            observer=heard, stop=stop,
        )  # fmt: skip
    return result, len(server.requests)


class Heard(RunObserver):
    """The waits a run reports; with `stopping`, the person stops the run at the first."""

    def __init__(self, stopping: bool = False) -> None:
        self.waits: list[Waiting] = []
        self.stopping = stopping
        self.stop = threading.Event()

    def waiting(self, waiting: Waiting) -> None:
        self.waits.append(waiting)
        if self.stopping:
            self.stop.set()


def test_a_run_whose_model_never_answers_ends_as_an_error_with_its_log(often, tmp_path):
    heard = Heard()
    result, asked = dead_model_run(tmp_path, 0.5, heard)
    assert result.outcome == "error" and "did not answer within 0.5 s (3 tries" in result.reason
    run = read_run(result.run_dir)
    assert run.outcome == "error" and run.reason == result.reason and asked == 3
    assert {w.attempt for w in heard.waits} == {1, 2, 3}


def test_a_stop_while_a_model_call_waits_ends_the_wait(often, tmp_path):
    result, asked = dead_model_run(tmp_path, 60, Heard(stopping=True))
    assert result.outcome == "stopped" and asked == 1
    assert read_run(result.run_dir).outcome == "stopped"


def test_the_time_limit_ends_a_model_call_that_waits(often, tmp_path):
    result, asked = dead_model_run(tmp_path, 60, max_time=1)
    assert result.outcome == "failed" and "time limit of 1 s" in result.reason and asked == 1


def test_a_config_nested_too_deeply_is_one_line(tmp_path):
    config = tmp_path / "config.toml"
    config.write_text("x = " + "[" * 5000 + "]" * 5000)
    with pytest.raises(ConfigError, match="nested too deeply"):
        load_settings(env={"CLICKWRIGHT_CONFIG": str(config)})
