"""The HTML report: built from a synthetic run folder written to the run-log contract."""

from __future__ import annotations

import base64
import io
import json
import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont

from clickwright.app.report import write_report
from clickwright.errors import ClickwrightError
from clickwright.types import describe_action, parse_action

SIZE = (1600, 1000)  # wider than the report's 1280 px limit, so frames must be downscaled
HOSTILE = "<script>alert(1)</script>"
ELEMENTS = [
    {
        "id": 0,
        "box": [400, 200, 840, 500],
        "kind": "container",
        "text": "",
        "source": "a11y",
        "score": 1.0,
        "interactive": False,
        "name": "Form",
    },
    {
        "id": 1,
        "box": [420, 212, 80, 30],
        "kind": "text",
        "text": "Form",
        "source": "ocr",
        "score": 0.97,
        "interactive": False,
    },
    {
        "id": 2,
        "box": [460, 318, 90, 34],
        "kind": "text",
        "text": "Name",
        "source": "ocr",
        "score": 0.95,
        "interactive": False,
    },
    {
        "id": 3,
        "box": [580, 310, 420, 50],
        "kind": "input",
        "text": "",
        "source": "widgets",
        "score": 0.9,
        "interactive": True,
        "name": "Name",
        "state": ["focused"],
    },
    {
        "id": 4,
        "box": [1090, 612, 80, 34],
        "kind": "text",
        "text": "Save",
        "source": "ocr",
        "score": 0.96,
        "interactive": False,
    },
    {
        "id": 5,
        "box": [1060, 600, 160, 60],
        "kind": "button",
        "text": "Save",
        "source": "merged",
        "score": 0.93,
        "interactive": True,
    },
]


def draw_frame(name_text: str = "", status: str = "") -> Image.Image:
    """A fake window with a Name input and a Save button, at the coordinates of ELEMENTS."""
    image = Image.new("RGB", SIZE, (210, 214, 220))
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=26)
    draw.rectangle((400, 200, 1240, 700), fill=(250, 250, 250), outline=(120, 120, 120))
    draw.rectangle((400, 200, 1240, 250), fill=(60, 90, 160))
    draw.text((424, 212), "Form", fill="white", font=font)
    draw.text((462, 320), "Name", fill="black", font=font)
    draw.rectangle((580, 310, 1000, 360), fill="white", outline=(90, 90, 90), width=2)
    draw.text((592, 320), name_text, fill="black", font=font)
    draw.rounded_rectangle((1060, 600, 1220, 660), radius=8, fill=(40, 120, 220))
    draw.text((1098, 614), "Save", fill="white", font=font)
    draw.text((430, 640), status, fill=(20, 130, 60), font=font)
    return image


def make_run(root: Path, task: str = "Type 'Ada' into Name and click Save") -> Path:
    """A run of three logged steps (one a retry) and a fourth cut off by Ctrl+C."""
    run_dir = root / "20261122-081500-ab12"
    (run_dir / "frames").mkdir(parents=True)
    (run_dir / "elements").mkdir()
    draw_frame().save(run_dir / "frames/0001.png")
    draw_frame("Ada").save(run_dir / "frames/0001-after.png")
    draw_frame("Ada").save(run_dir / "frames/0002.png")
    draw_frame("Ada").save(run_dir / "frames/0003.png")
    for n in (1, 2, 3):
        (run_dir / f"elements/{n:04d}.json").write_text(json.dumps(ELEMENTS))
    run = {
        "id": run_dir.name,
        "task": task,
        "device": {"kind": "desktop", "display": ":99", "screen": 0, "size": list(SIZE)},
        "planner": "offline",
        "settings": {"max_steps": 30, "dry_run": False},
        "started": 1763799300.1,
        "ended": 1763799312.5,
        "outcome": "done",
        "reason": "the status reads 'Saved'",
        "steps": 4,
        "durations": {"capture": 0.12, "parse": 1.9, "decide": 0.01, "act": 0.3, "verify": 2.1},
    }
    (run_dir / "run.json").write_text(json.dumps(run))
    phases = {"capture": 0.04, "parse": 0.6, "decide": 0.001, "act": 0.2, "verify": 0.7}
    steps = [
        {
            "index": 1,
            "time": 1763799301.0,
            "instruction": "type 'Ada' into Name",
            "thought": "Name is the input labelled 'Name' at (790, 335)",
            "action": {"type": "type", "text": "Ada", "target": {"text": "Name", "kind": "input"}},
            "frame": "frames/0001.png",
            "after_frame": "frames/0001-after.png",
            "elements": "elements/0001.json",
            "target": ELEMENTS[3],
            "candidates": [{"id": 3, "text": "", "kind": "input", "score": 0.9}],
            "attempt": 1,
            "point": [790, 335],
            "verdict": "success",
            "verdict_reason": "the field now shows 'Ada'",
            "durations": phases,
            "tokens": 0,
            "cost": 0.0,
        },
        {
            "index": 2,
            "time": 1763799304.0,
            "instruction": "click Save",
            "thought": "the best match for 'Save' is the text at (1130, 629)",
            "action": {"type": "click", "target": {"text": "Save", "kind": "button"}},
            "frame": "frames/0002.png",
            "after_frame": "frames/0002-after.png",  # never written
            "elements": "elements/0002.json",
            "target": ELEMENTS[4],
            "candidates": [
                {"id": 4, "text": "Save", "kind": "text", "score": 0.96},
                {"id": 5, "text": "Save", "kind": "button", "score": 0.93},
            ],
            "attempt": 1,
            "point": [1130, 629],
            "verdict": "retry",
            "verdict_reason": "nothing changed on screen",
            "durations": phases,
            "tokens": 0,
            "cost": 0.0,
        },
        {
            "index": 3,
            "time": 1763799308.0,
            "instruction": "click Save",
            "thought": "try the next candidate: the button 'Save'",
            "action": {"type": "click", "target": {"id": 5}},
            "frame": "frames/0003.png",
            "after_frame": None,
            "elements": "elements/0003.json",
            "target": ELEMENTS[5],
            "candidates": [
                {"id": 4, "text": "Save", "kind": "text", "score": 0.96},
                {"id": 5, "text": "Save", "kind": "button", "score": 0.93},
            ],
            "attempt": 2,
            "point": [1140, 630],
            "verdict": "success",
            "verdict_reason": "the status reads 'Saved'",
            "durations": phases,
            "tokens": 0,
            "cost": 0.0,
        },
    ]
    lines = [json.dumps(step) for step in steps]
    lines.append('{"index": 4, "time": 1763799311.0, "instruction": "press Ctrl+')  # cut off
    (run_dir / "steps.jsonl").write_text("\n".join(lines))
    return run_dir


@pytest.fixture
def report(tmp_path: Path) -> str:
    path = write_report(make_run(tmp_path))
    assert path == tmp_path / "20261122-081500-ab12" / "report.html"
    return path.read_text(encoding="utf-8")


def test_report_is_self_contained(report: str) -> None:
    assert "http://" not in report and "https://" not in report
    links = re.findall(r'(?:src|href)="([^"]*)"', report)
    assert links and all(link.startswith("data:image/") for link in links)
    assert "<link" not in report and "<script" not in report


def test_report_shows_the_run_and_every_logged_step(report: str) -> None:
    assert "Type &#x27;Ada&#x27; into Name and click Save" in report
    assert 'class="badge green">done<' in report
    assert "the status reads &#x27;Saved&#x27;" in report
    assert "desktop · display :99 · screen 0 · 1600×1000" in report
    assert "offline" in report
    assert "12.40 s" in report  # ended - started
    assert "4 (3 logged)" in report  # run.json counted the step whose line was cut off
    assert report.count('class="card step"') == 3
    assert "type &#x27;Ada&#x27; into Name" in report
    assert report.count("click Save</p>") == 2
    assert "Step 4" not in report and "press Ctrl+" not in report
    assert "<td>parse</td><td class=num>1.90 s</td><td class=num>43%</td>" in report  # of 4.43 s


def test_actions_and_verdicts_read_plainly(report: str) -> None:
    assert "type &quot;Ada&quot; into input &#x27;Name&#x27;" in report
    assert "click button &#x27;Save&#x27;" in report
    assert "click button &#x27;Save&#x27; #5" in report  # an id target named by its element
    assert 'class="badge amber">retry<' in report
    assert "nothing changed on screen" in report
    assert "attempt 2 — the first candidate did not work" in report
    assert "tried, did not work" in report
    assert "input &#x27;Name&#x27; [focused] #3" in report  # candidate named from the elements file


def test_overlay_is_in_frame_pixels(report: str) -> None:
    assert report.count('viewBox="0 0 1600 1000"') == 5  # 3 before, 1 after, 1 missing after
    assert 'class="box" x="1060" y="600" width="160" height="60"' in report
    assert 'class="box" x="580" y="310" width="420" height="50"' in report
    assert '<circle cx="1140" cy="630"' in report
    assert report.count('<rect class="el"') == 3 * len(ELEMENTS)
    for source in ("ocr", "widgets", "a11y", "merged"):
        assert source in report
    assert 'id="show-elements"' in report


def test_frames_are_embedded_downscaled(report: str) -> None:
    uris = re.findall(r'href="data:image/(?:png|jpeg);base64,([^"]+)"', report)
    assert len(uris) == 4  # the missing after frame is a placeholder, not an image
    for uri in uris:
        with Image.open(io.BytesIO(base64.b64decode(uri))) as image:
            assert image.size == (1280, 800)


def test_missing_frame_shows_a_placeholder(report: str) -> None:
    assert "frame missing: frames/0002-after.png" in report


def test_missing_before_frame_keeps_its_overlay(tmp_path: Path) -> None:
    run_dir = make_run(tmp_path)
    (run_dir / "frames/0003.png").unlink()
    (run_dir / "elements/0003.json").write_text('[{"id": 0, "box": [400, 2')  # cut off
    report = write_report(run_dir).read_text(encoding="utf-8")
    assert "frame missing: frames/0003.png" in report
    assert 'class="box" x="1060" y="600" width="160" height="60"' in report
    assert report.count('<rect class="el"') == 2 * len(ELEMENTS)


def test_hostile_text_is_escaped(tmp_path: Path) -> None:
    run_dir = make_run(tmp_path, task=f"Say {HOSTILE} please")
    report = write_report(run_dir).read_text(encoding="utf-8")
    assert HOSTILE not in report
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in report


@pytest.mark.parametrize(
    "run",
    [
        {
            "id": "x",
            "task": "Click Submit",
            "started": 1763799300.1,
            "ended": None,
            "outcome": "stopped",
            "reason": "stopped by the user",
            "steps": 0,
        },
        None,  # interrupted before run.json was written
    ],
)
def test_run_without_steps_still_renders(tmp_path: Path, run: dict | None) -> None:
    if run is not None:
        (tmp_path / "run.json").write_text(json.dumps(run))
    report = write_report(tmp_path).read_text(encoding="utf-8")
    assert "No steps were logged" in report
    if run is not None:
        assert "Click Submit" in report
        assert 'class="badge amber">stopped<' in report


def test_missing_run_folder_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ClickwrightError, match="no run folder"):
        write_report(tmp_path / "nope")


@pytest.mark.parametrize(
    "action, text",
    [
        ({"type": "click", "target": {"text": "Save", "kind": "button"}}, "click button 'Save'"),
        ({"type": "double_click", "target": {"text": "a.txt"}}, "double-click 'a.txt'"),
        ({"type": "right_click", "target": {"point": [10, 20]}}, "right-click point (10, 20)"),
        ({"type": "click", "target": {"id": 7}}, "click element #7"),
        (
            {
                "type": "type",
                "text": "Ada",
                "target": {"text": "Name", "kind": "input"},
                "enter": True,
            },
            "type \"Ada\" into input 'Name', then press Enter",
        ),
        ({"type": "hotkey", "keys": ["ctrl", "s"]}, "press Ctrl+S"),
        ({"type": "hotkey", "keys": ["alt", "f4"]}, "press Alt+F4"),
        ({"type": "scroll", "direction": "down", "amount": 3}, "scroll down 3"),
        (
            {"type": "drag", "from": {"text": "a"}, "to": {"text": "Bin", "kind": "icon"}},
            "drag 'a' to icon 'Bin'",
        ),
        (
            {"type": "wait", "until": {"text": "Saved"}, "timeout": 10},
            "wait until 'Saved' appears (up to 10 s)",
        ),
        (
            {"type": "wait", "until": "stable", "timeout": 2.5},
            "wait until the screen is stable (up to 2.5 s)",
        ),
        ({"type": "launch", "app": "gedit"}, 'launch "gedit"'),
        ({"type": "done", "summary": "saved"}, "done — saved"),
        ({"type": "fail", "reason": "no Save button"}, "give up — no Save button"),
        ({"type": "back"}, "press Back"),
    ],
)
def test_describe_action(action: dict, text: str) -> None:
    assert describe_action(parse_action(action)) == text
