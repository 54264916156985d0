"""`clickwright parse` and the set-of-marks drawing."""

from __future__ import annotations

import json

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from clickwright.app.demo import sample_app_command
from clickwright.parsers.marks import draw_marks, marks_text
from clickwright.types import Box, Element
from tests.conftest import run_cli

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"


def test_marks_list_reads_like_the_picture():
    elements = [
        Element(0, Box(10, 10, 80, 24), "button", "Save", "merged", interactive=True),
        Element(1, Box(10, 50, 200, 24), "input", "Ada", "merged", interactive=True, name="Name"),
        Element(
            2,
            Box(10, 90, 120, 20),
            "checkbox",
            "Subscribe",
            "merged",
            interactive=True,
            state=frozenset({"checked"}),
        ),
        Element(3, Box(10, 120, 60, 16), "text", "Hello", "ocr"),
    ]
    assert marks_text(elements).splitlines() == [
        '[0] button "Save" at (10, 10, 80, 24)',
        '[1] input "Ada" (label: Name) at (10, 50, 200, 24)',
        '[2] checkbox "Subscribe" [checked] at (10, 90, 120, 20)',
        '[3] text "Hello" at (10, 120, 60, 16)',
    ]
    assert len(marks_text(elements, interactive_only=True).splitlines()) == 3
    pixels = np.full((200, 300, 3), 255, np.uint8)
    drawn = draw_marks(pixels, elements)
    assert drawn.shape == pixels.shape and (pixels == 255).all()  # the input is untouched
    assert (drawn[10, 10:90] != 255).any()  # the button's outline is drawn


def test_parse_an_image_to_json_and_a_drawing(tmp_path):
    image = Image.new("RGB", (640, 400), "white")
    draw = ImageDraw.Draw(image)
    draw.text((40, 40), "Customer details", fill="black", font=ImageFont.truetype(FONT, 18))
    draw.rectangle((400, 300, 520, 336), outline="gray", fill=(235, 235, 235))
    draw.text((436, 306), "Save", fill="black", font=ImageFont.truetype(FONT, 18))
    image.save(tmp_path / "shot.png")
    result = run_cli(
        "parse",
        "--image",
        str(tmp_path / "shot.png"),
        "--json",
        str(tmp_path / "els.json"),
        "--draw",
        str(tmp_path / "marks.png"),
    )
    assert result.returncode == 0, result.stderr
    elements = json.loads((tmp_path / "els.json").read_text())
    texts = {e["text"]: e for e in elements}
    assert "Customer details" in texts
    save = texts["Save"]
    assert set(save) >= {"id", "text", "kind", "box", "interactive", "source", "score"}
    x, y, w, h = save["box"]
    assert 390 <= x <= 440 and 295 <= y <= 310
    assert Image.open(tmp_path / "marks.png").size == (640, 400)


@pytest.mark.parametrize("content", [b"not an image", b""])
def test_unreadable_image_is_a_one_line_error(tmp_path, content):
    bad = tmp_path / "bad.png"
    bad.write_bytes(content)
    result = run_cli("parse", "--image", str(bad))
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "cannot read image" in result.stderr


@pytest.mark.slow
def test_parse_a_live_virtual_display(tmp_path):
    result = run_cli(
        "parse",
        "--virtual",
        "--launch",
        sample_app_command(tmp_path / "s.json"),
        "--json",
        str(tmp_path / "els.json"),
    )
    assert result.returncode == 0, result.stderr
    elements = json.loads((tmp_path / "els.json").read_text())
    names = {e.get("name") for e in elements if e["kind"] == "input"}
    assert {"Name:", "Email:", "Phone:"} <= names


def test_sources_choose_what_the_parse_uses(tmp_path):
    image = Image.new("RGB", (320, 200), "white")
    ImageDraw.Draw(image).text(
        (20, 20), "Hello there", fill="black", font=ImageFont.truetype(FONT, 18)
    )
    image.save(tmp_path / "shot.png")
    result = run_cli(
        "parse",
        "--image",
        str(tmp_path / "shot.png"),
        "--sources",
        "widgets",
        "--json",
        str(tmp_path / "els.json"),
    )
    assert result.returncode == 0, result.stderr
    assert all(e["source"] != "ocr" for e in json.loads((tmp_path / "els.json").read_text()))
    bad = run_cli("parse", "--image", str(tmp_path / "shot.png"), "--sources", "pixels")
    assert bad.returncode == 2 and "bad --sources" in bad.stderr
