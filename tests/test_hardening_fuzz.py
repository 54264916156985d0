"""Issue 15's fault and fuzz suite, bounded for CI: fuzzed demonstrations, config files and run
folders must load (or report) or fail with one clickwright error; bad inputs through the real
CLI must end with one line and an exit status of 0, 1 or 2. `benchmarks/hardening.py` runs the
same generators long (10,000+ files, 200+ CLI probes) and adds injected faults.

A check returns "" when the code under test behaved, else what went wrong (the exception's last
line), so that the benchmark can count instead of stopping at the first."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from clickwright.agent.runlog import LOCK, RunLog, read_run, read_steps
from clickwright.errors import ClickwrightError
from clickwright.types import Box, Element, Frame, Screen, StepRecord, Type
from tests.model_server import anthropic_tool_use, openai_computer_call
from tests.test_demos import write_demo

Mutation = Callable[[list[bytes]], list[bytes]]
PROTOCOL_MODELS = {
    "ui-tars": ("openai", "ui-tars-1.5-7b"),
    "qwen-vl": ("openai", "qwen2.5-vl-7b"),
    "anthropic-computer": ("anthropic", "claude-sonnet-4-5"),
    "openai-computer": ("openai", "computer-use-preview"),
}
BODY_ANSWERS = {
    "anthropic-computer": lambda: (
        anthropic_tool_use(
            {"action": "left_click", "coordinate": [40, 30]}, text="Clicking Advanced"
        ).body
    ),
    "openai-computer": lambda: (
        openai_computer_call(
            {"type": "click", "x": 40, "y": 30, "button": "left"}, summary="Clicking Advanced"
        ).body
    ),
}
"""A real answer of each vendor's JSON protocol, to be damaged."""
ANSWER_SCREEN = Screen(
    Frame(np.full((200, 320, 3), 230, np.uint8)),
    (Element(1, Box(20, 20, 60, 20), "tab", "Advanced", interactive=True),),
)

# ---- generators -------------------------------------------------------------------------------

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**30), 10**30)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.text(max_size=24),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=16,
)
PATHS = st.sampled_from(
    [
        "words",
        "action",
        "action.type",
        "action.text",
        "action.app",
        "action.keys",
        "action.target",
        "action.target.text",
        "action.target.point",
        "action.until",
        "action.timeout",
        "target",
        "target.box",
        "target.crop",
        "target.screen",
        "target.neighbours",
        "frame",
        "after",
        "time",
        "effect",
        "effect.appeared",
        "name",
        "schema_version",
        "screen",
        "parameters",
        "parameters.name",
        "parameters.password.default",
        "duration",
        "description",
        "outcome",
        "steps",
        "started",
        "index",
        "verdict",
        "point",
        "elements",
        "usage",
        "task",
    ]
)


def _set(data: object, path: str, value: object) -> object:
    """`data` with `path` (a.b.c) set to `value`, made where missing; a non-object on the way
    is replaced by one."""
    if not isinstance(data, dict):
        data = {}
    head, _, rest = path.partition(".")
    data[head] = _set(data.get(head), rest, value) if rest else value
    return data


@st.composite
def mutations(draw: st.DrawFn) -> Mutation:
    """A change to a file's lines as a careless editor, a bad disk or an attacker makes it."""
    how = draw(st.sampled_from(["field", "line", "bytes", "deep", "cut", "drop", "huge"]))
    index = draw(st.integers(0, 50))
    value = draw(JSON_VALUES)
    path = draw(PATHS)
    raw = draw(st.binary(max_size=12))
    depth = draw(st.sampled_from([10, 500, 990, 1100, 5000, 100_000]))
    opener = draw(st.sampled_from([b"[", b'{"a":', b'{"action":']))

    def change(lines: list[bytes]) -> list[bytes]:
        lines = list(lines) or [b""]
        at = index % len(lines)
        line = lines[at]
        if how == "field":
            try:
                data = json.loads(line)
            except ValueError:
                data = {}
            lines[at] = json.dumps(_set(data, path, value), allow_nan=True).encode()
        elif how == "line":
            lines[at] = json.dumps(value, allow_nan=True).encode()
        elif how == "bytes":
            cut = index % (len(line) + 1)
            lines[at] = line[:cut] + raw + line[cut + len(raw) // 2 :]
        elif how == "deep":
            closer = b"]" if opener == b"[" else b"}"
            lines[at] = opener * depth + b"1" + closer * depth
        elif how == "cut":
            lines[at] = line[: index % (len(line) + 1)]
        elif how == "drop":
            del lines[at]
        else:
            lines[at] = line + b" " * (2_000_000 if index % 7 == 0 else 1000)
        return lines

    return change


TOML_KEYS = st.sampled_from(
    [
        "backend",
        "model",
        "base_url",
        "api_key_env",
        "timeout",
        "tries",
        "coords",
        "protocol",
        "api_key",
        "max_steps",
        "max_time",
        "max_cost",
        "approve_risky",
        "hybrid",
        "input",
        "output",
        "unknown",
    ]
)
TOML_LEAVES = (
    st.text(max_size=16)
    | st.integers(-(10**20), 10**20)
    | st.floats(allow_nan=True, allow_infinity=True)
    | st.booleans()
    | st.sampled_from(["offline", "openai", "anthropic", "transformers", "auto", "json"])
)


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "nan"
        return repr(value) if abs(value) != float("inf") else ("inf" if value > 0 else "-inf")
    if isinstance(value, int):
        return str(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(value, ensure_ascii=False)


@st.composite
def config_files(draw: st.DrawFn) -> bytes:
    """A config file: tables and keys clickwright knows and does not, values of every type
    (inf and nan included), sometimes with its bytes damaged."""
    value = (
        TOML_LEAVES
        | st.lists(TOML_LEAVES, max_size=3)
        | st.dictionaries(TOML_KEYS, TOML_LEAVES, max_size=2)
    )
    tables = [
        "",
        "[run]",
        "[roles.actor]",
        "[roles.grounder]",
        "[roles.nobody]",
        '[prices."m"]',
        "[roles]",
        "[[run]]",
    ]
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        lines.append(draw(st.sampled_from(tables)))
        for _ in range(draw(st.integers(0, 4))):
            lines.append(f"{draw(TOML_KEYS)} = {_toml(draw(value))}")
    text = "\n".join(lines).encode("utf-8", "surrogatepass")
    if draw(st.booleans()):
        text = b"\n".join(draw(mutations())([text]))
    return text


ANSWER_KINDS = ("actor", "planner", "critic", "notetaker", "grounder", *PROTOCOL_MODELS)
"""clickwright's JSON roles, then the vendor protocols (each with a model that speaks it)."""
FRAGMENTS = {
    "json": ['{"type": "', "click", "type", "launch", "drag", '", "target": {', '"id": ',
             '"point": [', '"text": "', '"action": {', '"verdict": "', '"subgoals": [',
             '"notes": [', "1e999", "-1", "NaN", "]", "}", ", ", '"', "```json\n", "```"],
    "ui-tars": ["Thought: ", "Action: ", "click(start_box='(", "<|box_start|>(", "<|box_end|>",
                "drag(start_box='(1,2)', end_box='(", "type(content='", "hotkey(key='",
                "scroll(start_box='(3,4)', direction='", "finished(content='", "wait()",
                "press_back()", "long_press(point='<point>", "</point>')", ")", "')", "1e999",
                "-5", "nan", "\n", "<point>10 10</point>", "open_app(app_name='", "\\'"],
    "qwen-vl": ["<tool_call>", "</tool_call>", '{"name": "computer_use", "arguments": {',
                '"action": "', "left_click", "type", "key", "scroll", "terminate", "wait",
                '"coordinate": [', '"keys": [', '"text": "', '"pixels": ', '"status": "',
                "1e999", "-7", "]", "}", '"', ", "],
}  # fmt: skip


@st.composite
def model_answers(draw: st.DrawFn) -> tuple[str, str | dict[str, Any]]:
    """A model's answer as careless, broken or hostile as answers come: for the JSON roles and
    the text grammars, fragments of what they expect mixed with anything; for the vendors'
    JSON protocols, one of their real answers with parts replaced by anything."""
    kind = draw(st.sampled_from(ANSWER_KINDS))
    if kind in BODY_ANSWERS:
        body = json.loads(json.dumps(BODY_ANSWERS[kind]()))
        for _ in range(draw(st.integers(1, 3))):
            body = _replaced(body, draw(st.integers(0, 10**6)), draw(JSON_VALUES))
        return kind, body
    grammar = kind if kind in FRAGMENTS else "json"
    piece = (
        st.text(max_size=30)
        | st.sampled_from(FRAGMENTS[grammar])
        | JSON_VALUES.map(lambda value: json.dumps(value, allow_nan=True))
    )
    return kind, "".join(draw(st.lists(piece, max_size=8)))


def _replaced(body: dict[str, Any], which: int, value: Any) -> dict[str, Any]:
    """`body` with the `which`-th of its parts (any nested value) set to `value`; its list of
    content blocks or output items stays a list, as the backend hands on no other answer."""
    places: list[tuple[Any, Any]] = []

    def walk(node: Any) -> None:
        keys = node.keys() if isinstance(node, dict) else range(len(node))
        for key in list(keys):
            if node is not body or key not in ("content", "output"):
                places.append((node, key))
            if isinstance(node[key], dict | list):
                walk(node[key])

    walk(body)
    parent, key = places[which % len(places)]
    parent[key] = value
    return body


# ---- checks -----------------------------------------------------------------------------------


def _unexpected() -> str:
    return traceback.format_exc().strip().splitlines()[-1]


def check_demo(template: Path, work: Path, which: str, change: Mutation) -> str:
    """A demonstration with one file changed: it loads (its words are its actions' own and it
    exports as a script) or the loader names the problem in one line with file:line."""
    from clickwright.agent.demos.format import load_demo, words_for
    from clickwright.app.codegen import python_script

    if not work.exists():
        shutil.copytree(template, work)
    name = "steps.jsonl" if which == "steps" else "demo.json"
    for kept in ("steps.jsonl", "demo.json"):
        shutil.copy(template / kept, work / kept)
    original = (template / name).read_bytes()
    lines = original.splitlines() if which == "steps" else [original]
    (work / name).write_bytes(b"\n".join(change(lines)) + b"\n")
    try:
        demo = load_demo(work)
    except ClickwrightError as exc:
        text = str(exc)
        return "" if "\n" not in text and str(work) in text else f"unclear error: {text[:200]}"
    except Exception:  # noqa: BLE001 - this is what the check counts
        return _unexpected()
    try:
        assert all(s.words == words_for(s.action) for s in demo.steps)
        python_script(demo)
    except ClickwrightError:
        return ""
    except Exception:  # noqa: BLE001
        return _unexpected()
    return ""


def check_config(work: Path, data: bytes) -> str:
    """A config file is read into settings and run limits, or refused in one line."""
    from clickwright.agent.config import load_settings
    from clickwright.agent.state import RunSettings

    path = work / "config.toml"
    path.write_bytes(data)
    try:
        models = load_settings(env={"CLICKWRIGHT_CONFIG": str(path)})
        limits = models.run
        RunSettings(max_steps=limits.max_steps, max_time=limits.max_time, max_cost=limits.max_cost)
    except ClickwrightError as exc:
        return "" if "\n" not in str(exc) else f"unclear error: {str(exc)[:200]}"
    except Exception:  # noqa: BLE001
        return _unexpected()
    return ""


def check_answer(kind: str, answer: str | dict[str, Any]) -> str:
    """A model's answer read by what reads it: an action (or plan, verdict, note, point), a
    problem told back to the model, or one clickwright error; nothing else."""
    from clickwright.agent import roles
    from clickwright.agent.config import BackendSettings
    from clickwright.agent.protocols.actor import PROTOCOLS
    from clickwright.agent.protocols.base import Outcome, choose
    from clickwright.agent.screen_scaling import ScaledImage

    try:
        if kind in PROTOCOL_MODELS:
            spec = choose(*PROTOCOL_MODELS[kind])
            protocol = PROTOCOLS[kind](spec, "open Advanced", "desktop", 2)
            protocol.observe(Outcome(ANSWER_SCREEN))
            protocol.request()
            protocol.read(answer)
            return ""
        role = {
            "actor": roles.Actor,
            "planner": roles.Planner,
            "critic": roles.ModelCritic,
            "notetaker": roles.Notetaker,
            "grounder": roles.ModelGrounder,
        }[kind](None, BackendSettings(), None, None)  # type: ignore[arg-type]
        if kind == "actor":
            role.parse(answer, ANSWER_SCREEN)
        elif kind == "grounder":
            role.parse(answer, ScaledImage(ANSWER_SCREEN.frame.pixels, ANSWER_SCREEN.frame.size))
        else:
            role.parse(answer)
    except ClickwrightError as exc:
        return "" if "\n" not in str(exc) else f"unclear error: {str(exc)[:200]}"
    except Exception:  # noqa: BLE001
        return _unexpected()
    return ""


def make_run(root: Path) -> Path:
    """A finished run of three steps with frames and elements, to be damaged."""
    log = RunLog(root, "type 'Ada' into Name, then click Save")
    frame = Frame(np.full((120, 160, 3), 200, np.uint8))
    name = Element(1, Box(10, 10, 80, 20), "input", "", interactive=True, name="Name:")
    save = Element(2, Box(10, 60, 50, 20), "button", "Save", interactive=True)
    screen = Screen(frame, (name, save))
    for n, (action, element) in enumerate([(Type(text="Ada"), name), (None, save)], 1):
        log.add_step(
            StepRecord(
                instruction="step",
                action=action,
                target=element.to_json(),
                point=(50, 20),
                frame=log.save_frame(frame, f"{n:04d}"),
                elements=log.save_elements(screen, f"{n:04d}"),
                verdict="success",
            )
        )
    log.finish("done", "all done")
    return log.dir


def check_run_folder(template: Path, work: Path, which: str, change: Mutation) -> str:
    """A run folder with one file damaged: the report is written and saving it as a
    demonstration succeeds or is refused, each in one line."""
    from clickwright.agent.demos.format import DemoWriter
    from clickwright.agent.demos.from_run import demo_from_run
    from clickwright.app.report import write_report

    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(template, work)
    path = (
        work / {"run": "run.json", "steps": "steps.jsonl", "elements": "elements/0001.json"}[which]
    )
    lines = path.read_bytes().splitlines()
    path.write_bytes(b"\n".join(change(lines)) + b"\n")
    try:
        write_report(work)
        writer = DemoWriter(work.parent / "demos", "saved", replace=True)
        try:
            demo_from_run(work, writer)
        finally:
            writer.abandon()
    except ClickwrightError as exc:
        return "" if "\n" not in str(exc) else f"unclear error: {str(exc)[:200]}"
    except Exception:  # noqa: BLE001
        return _unexpected()
    return ""


# ---- bad inputs through the real command ----------------------------------------------------


@dataclass
class Probe:
    name: str
    args: list[str | bytes]
    env: dict[str, str] = field(default_factory=dict)
    runs: Path | None = None
    """Where a run log may appear (checked for a finished log)."""


@dataclass(frozen=True)
class Outcome:
    probe: str
    code: int | None
    traceback: bool
    lines: int
    problems: tuple[str, ...]


def run_probe(probe: Probe, timeout: float = 180) -> Outcome:
    """The command as a user types it: exit status, whether anything but one line of error
    reached the user, and whether a run it began left a finished, valid log."""
    command = [sys.executable.encode(), b"-m", b"clickwright.app"]
    command += [
        a if isinstance(a, bytes) else a.encode("utf-8", "surrogateescape") for a in probe.args
    ]
    try:
        done = subprocess.run(
            command,
            capture_output=True,
            timeout=timeout,
            env={**os.environ, **probe.env},
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        return Outcome(probe.name, None, False, 0, ("hung",))
    err = done.stderr.decode(errors="replace")
    problems = []
    if done.returncode not in (0, 1, 2):
        problems.append(f"exit status {done.returncode}")
    lines = len([line for line in err.splitlines() if line.strip()])
    if done.returncode != 0 and lines > 1:
        problems.append("more than one line on stderr")
    problems += run_log_problems(probe.runs)
    crashed = "Traceback" in err or "internal error" in err
    return Outcome(probe.name, done.returncode, crashed, lines, tuple(problems))


def run_log_problems(runs: Path | None) -> list[str]:
    """What is wrong with the run logs under `runs`: one still 'running', a step count that
    does not match steps.jsonl, leftovers of an unfinished write."""
    problems: list[str] = []
    if runs is None or not runs.is_dir():
        return problems
    for run_dir in runs.iterdir():
        if not (run_dir / "run.json").exists() and run_dir.is_dir() and any(run_dir.iterdir()):
            problems.append(f"{run_dir.name}: no run.json")
            continue
        run = read_run(run_dir)
        if run is None:
            continue
        if run.outcome == "running":
            problems.append(f"{run_dir.name}: still 'running'")
        if run.steps != len(read_steps(run_dir)):
            problems.append(
                f"{run_dir.name}: {run.steps} steps said, {len(read_steps(run_dir))} logged"
            )
        left = [p.name for p in run_dir.iterdir() if p.name.endswith(".tmp") or p.name == LOCK]
        if left:
            problems.append(f"{run_dir.name}: left {left}")
    return problems


def bad_inputs(tmp: Path, mounts: dict[str, Path] | None = None) -> list[Probe]:
    """Over two hundred bad inputs, in the classes the issue lists. Most would reach a display
    only after the problem and name one that does not exist; where the problem shows only with
    a display (a runs folder a run cannot write), a private Xvfb is started."""
    mounts = mounts or {}
    tmp.mkdir(parents=True, exist_ok=True)
    (tmp / "a-file").write_text("not a folder")
    library = tmp / "library"
    if not (library / "signup").exists():
        write_demo(library)
    run_dir = (
        make_run(tmp / "good-runs")
        if not (tmp / "good-runs").exists()
        else next((tmp / "good-runs").iterdir())
    )
    nowhere = ["--display", ":987"]
    places = {
        "dev-null": "/dev/null",
        "a-file": str(tmp / "a-file"),
        "below-a-file": str(tmp / "a-file" / "runs"),
        "proc": "/proc/clickwright",
        "long-name": str(tmp / ("x" * 300)),
        **{name: str(path) for name, path in mounts.items()},
    }
    probes: list[Probe] = []

    def add(
        name: str, *args: str | bytes, env: dict[str, str] | None = None, runs: Path | None = None
    ) -> None:
        probes.append(Probe(name, list(args), env or {}, runs))

    for place, path in places.items():
        add(f"run --runs-dir {place}", "run", "click Save", *nowhere, "--runs-dir", path)
        add(
            f"run --virtual --runs-dir {place}",
            "run",
            "click Save",
            "--virtual",
            "--runs-dir",
            path,
        )
        add(
            f"replay --runs-dir {place}",
            "replay",
            "signup",
            "--param",
            "password=x",
            *nowhere,
            "--demos-dir",
            str(library),
            "--runs-dir",
            path,
        )
        for command in (
            ["demos", "list"],
            ["demos", "show", "signup"],
            ["demos", "rm", "signup"],
            ["demos", "export", "signup", "--python"],
            ["record", "new", *nowhere],
            ["demos", "save-run", str(run_dir), "saved"],
            ["run", "click Save", "--use-demos", *nowhere],
        ):
            add(f"{command[0]} {command[1]} --demos-dir {place}", *command, "--demos-dir", path)
    texts = {
        "latin-1 byte": b"click \xff Save",
        "cut UTF-8": b"click Sav\xc3",
        "UTF-16 surrogate": b"click \xed\xa0\x80",
        "overlong": b"click \xc0\xaf",
        "20,001 chars": "click " + "a" * 19_995,
        "100 KB": "click " + "a" * 100_000,
        "120 KB of clauses": ", ".join(["click Save"] * 10_000),
        "empty": "",
        "spaces": "   ",
        "escape codes": "click \x1b[2J\x1b[31mSave",
        "carriage return": "click Save\rclick Delete",
        "tab and newline": "click\tSave\nthen press Enter",
        "delete char": "click \x7fSave",
        "emoji": "click 💾 Save",
        "right-to-left": "click \u202eevaS",
        "zero width": "click S\u200bave",
        "unbalanced quote": "type 'Ada into Name",
        "only punctuation": "?!.,;",
        "unknown key": "press Ctrl+Banana",
        "type nothing": "type into Name",
        "lone verb": "click",
        "500 clauses": ", ".join(["select Pro"] * 500),
        "markup": "click [bold]Save[/]",
        "braces": "type '{name}' into Name",
        "a path": "click ../../etc/passwd",
        "NUL-like": "click \\x00 Save",
    }
    for name, text in texts.items():
        add(
            f"task: {name}",
            "run",
            text,
            *nowhere,
            "--runs-dir",
            str(tmp / "runs-task"),
            runs=tmp / "runs-task",
        )
    for option, values in {
        "--max-steps": ["0", "-1", "abc", "1e3", "99999999999999999999999"],
        "--max-time": ["inf", "-inf", "nan", "0", "-5", "1e309", "abc"],
        "--max-cost": ["inf", "nan", "-1", "abc", "1e400"],
        "--role": [
            "actor",
            "actor.model",
            ".model=x",
            "actor.timeout=soon",
            "nobody.model=x",
            "actor.backend=bogus",
            "actor.tries=1.5",
            "actor.api_key=sk-123",
        ],
        "--backend": ["bogus", "", "openai"],
        "--device": ["ios", "android:", "desktop:x", "", "virtual:3"],
        "--display": ["junk", ":-1", "", ":987.5"],
        "--screen": ["-1", "abc"],
        "--wait-device": ["-1", "nan", "inf"],
    }.items():
        for value in values:
            add(
                f"run {option} {value!r}",
                "run",
                "click Save",
                *nowhere,
                option,
                value,
                "--runs-dir",
                str(tmp / "runs-opt"),
                runs=tmp / "runs-opt",
            )
    add("run --virtual --display", "run", "click Save", "--virtual", "--display", ":5")
    add("run unknown option", "run", "click Save", "--bogus")
    add("run no task", "run")
    add("unknown command", "frobnicate")
    images = _images(tmp / "images")
    for name, path in images.items():
        add(f"parse --image {name}", "parse", "--image", str(path), "--sources", "widgets")
    small = str(images["small"])
    for name, args in {
        "draw to .nope": ["--draw", str(tmp / "x.nope")],
        "draw without type": ["--draw", str(tmp / "noext")],
        "draw to a folder": ["--draw", str(tmp)],
        "draw under a file": ["--draw", str(tmp / "a-file" / "x.png")],
        "draw to /proc": ["--draw", "/proc/x.png"],
        "json to a folder": ["--json", str(tmp)],
        "json under a file": ["--json", str(tmp / "a-file" / "x.json")],
        "json to /proc": ["--json", "/proc/x.json"],
        "json to /dev/full": ["--json", "/dev/full"],
        "sources bogus": ["--sources", "bogus"],
        "sources empty": ["--sources", ","],
        "image and virtual": ["--virtual"],
        **{f"json to {m}": ["--json", str(p / "x.json")] for m, p in mounts.items()},
    }.items():
        add(f"parse {name}", "parse", "--image", small, "--sources", "widgets", *args)
    replays = tmp / "runs-replay"
    for name in _broken_demos(library):
        add(f"demos show ({name})", "demos", "show", name, "--demos-dir", str(library))
        add(
            f"demos export ({name})",
            "demos",
            "export",
            name,
            "--python",
            "--demos-dir",
            str(library),
        )
        add(
            f"replay ({name})",
            "replay",
            name,
            "--param",
            "password=x",
            *nowhere,
            "--demos-dir",
            str(library),
            "--runs-dir",
            str(replays),
            runs=replays,
        )
    add("demos list (broken library)", "demos", "list", "--demos-dir", str(library))
    add(
        "run --use-demos (broken library)",
        "run",
        "sign up a customer",
        "--use-demos",
        "--demos-dir",
        str(library),
        *nowhere,
    )
    for name, args in {
        "param without =": ["--param", "password"],
        "param empty name": ["--param", "=x"],
        "unknown param": ["--param", "password=x", "--param", "nick=y"],
        "secret missing": [],
        "only 0": ["--param", "password=x", "--only", "0"],
        "only 3-1": ["--param", "password=x", "--only", "3-1"],
        "only 1-99": ["--param", "password=x", "--only", "1-99"],
        "only x": ["--param", "password=x", "--only", "x"],
        "speed -1": ["--param", "password=x", "--speed", "-1"],
        "timeout 0": ["--param", "password=x", "--timeout", "0"],
        "no such demo": None,
    }.items():
        target = "nosuchdemo" if args is None else "signup"
        add(
            f"replay {name}", "replay", target, *(args or []), *nowhere, "--demos-dir", str(library)
        )
    for name in ("../elsewhere", "/etc", "..", ".", "signup/../signup", "", ".hidden", "a/b"):
        add(f"demos rm {name!r}", "demos", "rm", name, "--demos-dir", str(library))
        add(f"record {name!r}", "record", name, *nowhere, "--demos-dir", str(tmp / "rec"))
    add("record a long name", "record", "x" * 100, *nowhere, "--demos-dir", str(tmp / "rec"))
    add(
        "export to a folder",
        "demos",
        "export",
        "signup",
        "--python",
        "-o",
        str(tmp),
        "--demos-dir",
        str(library),
    )
    add(
        "export to /proc",
        "demos",
        "export",
        "signup",
        "--python",
        "-o",
        "/proc/x.py",
        "--demos-dir",
        str(library),
    )
    add("export without --python", "demos", "export", "signup", "--demos-dir", str(library))
    for name, folder in _broken_runs(tmp / "broken-runs", run_dir).items():
        add(
            f"save-run ({name})",
            "demos",
            "save-run",
            str(folder),
            f"from-{name}",
            "--demos-dir",
            str(tmp / "saved"),
        )
    add(
        "save-run no such run",
        "demos",
        "save-run",
        "nosuchrun",
        "x",
        "--demos-dir",
        str(tmp / "saved"),
    )
    add(
        "save-run bad name",
        "demos",
        "save-run",
        str(run_dir),
        "../x",
        "--demos-dir",
        str(tmp / "saved"),
    )
    for name, text in _bad_configs().items():
        config = tmp / "configs" / f"{name}.toml"
        config.parent.mkdir(exist_ok=True)
        config.write_bytes(text)
        add(
            f"config: {name}",
            "run",
            "click Save",
            *nowhere,
            env={"CLICKWRIGHT_CONFIG": str(config)},
        )
    add(
        "config: missing file",
        "run",
        "click Save",
        *nowhere,
        env={"CLICKWRIGHT_CONFIG": str(tmp / "none.toml")},
    )
    add("config: a folder", "run", "click Save", *nowhere, env={"CLICKWRIGHT_CONFIG": str(tmp)})
    add("demos dir env: a file", "demos", "list", env={"CLICKWRIGHT_DEMOS": str(tmp / "a-file")})
    return probes


def _images(folder: Path) -> dict[str, Path]:
    folder.mkdir(parents=True, exist_ok=True)
    made = {
        "small": Image.new("RGB", (64, 40), "white"),
        "one pixel": Image.new("RGB", (1, 1)),
        "cmyk": Image.new("CMYK", (40, 30)),
        "16-bit": Image.new("I;16", (40, 30)),
        "palette": Image.new("P", (40, 30)),
        "alpha": Image.new("LA", (40, 30)),
        "thin": Image.new("L", (1, 8000)),
        "too wide": Image.new("L", (20000, 1)),
        "8K plus one row": Image.new("L", (7680, 4321)),
        "bomb 400 MP": Image.new("1", (20000, 20000)),
    }
    paths = {}
    for name, image in made.items():
        paths[name] = folder / (name.replace(" ", "-") + (".jpg" if name == "cmyk" else ".png"))
        image.save(paths[name])
    raw = {
        "text file": b"hello",
        "empty file": b"",
        "cut png": paths["small"].read_bytes()[:60],
        "wrong extension": b"GIF89a" + b"\x00" * 20,
    }
    for name, data in raw.items():
        paths[name] = folder / (name.replace(" ", "-") + ".png")
        paths[name].write_bytes(data)
    paths["a folder"] = folder
    paths["missing"] = folder / "missing.png"
    return paths


def _broken_demos(library: Path) -> dict[str, Path]:
    """Copies of the library's demo with one line damaged in each way the issue found."""
    template = library / "signup"
    lines = (template / "steps.jsonl").read_bytes().splitlines()
    launch = json.dumps(
        {"words": "click 'Subscribe'", "action": {"type": "launch", "app": "touch /tmp/cw-pwned"}}
    )
    damaged = {
        "latin-1": lines[1].replace(b"Password", b"Pa\xdfword"),
        "deep-list": b"[" * 100_000,
        "deep-object": b'{"a":' * 3000 + b"1" + b"}" * 3000,
        "infinity-time": lines[2][:-1] + b', "time": Infinity}',
        "nan-box": lines[0].replace(b"0.1", b"NaN", 1),
        "cut-line": lines[3][:30],
        "not-json": b"hello",
        "launch-step": launch.encode(),
        "huge-number": lines[2][:-1] + b', "time": 1e999}',
        "unknown-action": lines[2].replace(b"hotkey", b"explode"),
        "outside-file": lines[0].replace(b"frames/", b"../../"),
        "control-words": lines[2].replace(b"press Ctrl+S", b"press \\u001b[2J"),
    }
    folders = {}
    for name, line in damaged.items():
        folder = library / name
        if not folder.exists():
            shutil.copytree(template, folder)
            info = json.loads((folder / "demo.json").read_text())
            (folder / "demo.json").write_text(json.dumps({**info, "name": name}))
            copy = list(lines)
            copy[2 if name in ("launch-step", "infinity-time", "huge-number") else 1] = line
            (folder / "steps.jsonl").write_bytes(b"\n".join(copy) + b"\n")
        folders[name] = folder
    return folders


def _broken_runs(root: Path, good: Path) -> dict[str, Path]:
    damage: dict[str, Callable[[Path], None]] = {
        "corrupt run.json": lambda d: (d / "run.json").write_text('{"id": '),
        "missing run.json": lambda d: (d / "run.json").unlink(),
        "empty run.json": lambda d: (d / "run.json").write_text(""),
        "still running": lambda d: (d / "run.json").write_text(
            (d / "run.json").read_text().replace('"done"', '"running"')
        ),
        "cut steps": lambda d: (d / "steps.jsonl").write_text(
            (d / "steps.jsonl").read_text()[:150]
        ),
        "no steps": lambda d: (d / "steps.jsonl").unlink(),
        "corrupt elements": lambda d: (d / "elements" / "0001.json").write_text("[{"),
        "elements of the wrong shape": lambda d: (d / "elements" / "0001.json").write_text(
            '[{"id": "x", "box": 3}]'
        ),
        "missing frame": lambda d: next((d / "frames").iterdir()).unlink(),
        "not a png": lambda d: next((d / "frames").iterdir()).write_text("nope"),
    }
    folders = {}
    for name, spoil in damage.items():
        folder = root / name.replace(" ", "-")
        if not folder.exists():
            shutil.copytree(good, folder)
            spoil(folder)
        folders[name] = folder
    return folders


def _bad_configs() -> dict[str, bytes]:
    return {
        "binary": b"\x00\xff\xfe\x89PNG",
        "latin-1": b'model = "caf\xe9"',
        "bad toml": b"[run\nmax_steps = ",
        "inf time": b"[run]\nmax_time = inf",
        "nan cost": b"[run]\nmax_cost = nan",
        "negative": b"[run]\nmax_steps = -3",
        "huge steps": b"[run]\nmax_steps = 99999999999999999",
        "string steps": b'[run]\nmax_steps = "many"',
        "unknown key": b"frobnicate = 1",
        "api key in file": b'api_key = "sk-123"',
        "roles not a table": b'roles = "x"',
        "unknown role": b"[roles.boss]\nmodel = 'x'",
        "bad prices": b'[prices."m"]\ninput = "free"',
        "array of run tables": b"[[run]]\nmax_steps = 3",
        "deep inline": b"x = " + b"[" * 5000 + b"]" * 5000,
    }


# ---- the bounded suite ------------------------------------------------------------------------

FUZZ = settings(
    max_examples=120,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(scope="module")
def demo_template(tmp_path_factory) -> Path:
    return write_demo(tmp_path_factory.mktemp("template")).dir


@pytest.fixture(scope="module")
def run_template(tmp_path_factory) -> Path:
    return make_run(tmp_path_factory.mktemp("runs"))


@FUZZ
@given(which=st.sampled_from(["steps", "info"]), change=mutations())
def test_fuzzed_demonstrations_load_or_fail_in_one_line(
    demo_template, tmp_path_factory, which, change
):
    assert (
        check_demo(demo_template, tmp_path_factory.getbasetemp() / "demo-work" / "d", which, change)
        == ""
    )


@FUZZ
@given(data=config_files())
def test_fuzzed_config_files_load_or_fail_in_one_line(tmp_path, data):
    assert check_config(tmp_path, data) == ""


@FUZZ
@given(which=st.sampled_from(["run", "steps", "elements"]), change=mutations())
def test_fuzzed_run_folders_report_or_fail_in_one_line(
    run_template, tmp_path_factory, which, change
):
    work = tmp_path_factory.getbasetemp() / "run-work" / "r"
    work.parent.mkdir(exist_ok=True)
    assert check_run_folder(run_template, work, which, change) == ""


@FUZZ
@given(answer=model_answers())
def test_fuzzed_model_answers_are_read_or_told_back(answer):
    assert check_answer(*answer) == ""


@pytest.mark.slow
def test_a_sample_of_bad_inputs_through_the_cli(tmp_path):
    """Every 16th probe of the benchmark's list (the rest run in benchmarks/hardening.py); some
    start a virtual display."""
    probes = bad_inputs(tmp_path)
    assert len(probes) >= 200
    failures = [o for o in map(run_probe, probes[::16]) if o.traceback or o.problems]
    assert not failures, failures


def test_sigint_inherited_as_ignored_still_stops_a_command(tmp_path):
    """`cmd &` in a script leaves SIGINT ignored; `kill -INT` must still stop clickwright (here
    while it waits for a program that never draws)."""
    import time

    process = subprocess.Popen(
        [sys.executable, "-m", "clickwright.app", "parse", "--image", "/dev/stdin"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN),
    )
    time.sleep(3)  # reading an image that never ends
    process.send_signal(signal.SIGINT)
    out, err = process.communicate(timeout=30)
    assert process.returncode == 1 and err.strip() == "stopped by the user", err


@pytest.mark.parametrize("kind", ["bogus", 5, None])
def test_a_run_whose_elements_have_a_kind_no_parser_makes_is_refused_in_one_line(
    run_template, tmp_path, kind
):
    """A kind no parser makes (the fuzz's find: it reached the signature's validation and came
    back as pydantic's many lines) is the run folder's damage, told in one line."""
    elements = json.loads((run_template / "elements" / "0001.json").read_text())
    elements[0]["kind"] = kind
    damaged = json.dumps(elements).encode()
    assert check_run_folder(run_template, tmp_path / "run", "elements", lambda _: [damaged]) == ""
