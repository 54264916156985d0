"""Icon naming: icons drawn here by hand (a style the library was never built from) get their
names; letters, digits, words, blanks and bad input get None without crashing."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from clickwright.parsers.icons import IconNamer, default_namer, describe, name_icon

S = 96  # drawing canvas side; icons are drawn at 4x and scaled down, anti-aliased


def _line(img: np.ndarray, points: list[tuple[int, int]], width: int = 9) -> None:
    cv2.polylines(img, [np.array(points, np.int32)], False, 255, width, cv2.LINE_AA)


def _fill(img: np.ndarray, points: list[tuple[int, int]], value: int = 255) -> None:
    cv2.fillPoly(img, [np.array(points, np.int32)], value, cv2.LINE_AA)


def _close(img):
    _line(img, [(22, 22), (74, 74)])
    _line(img, [(74, 22), (22, 74)])


def _search(img):
    cv2.circle(img, (40, 40), 22, 255, 9, cv2.LINE_AA)
    _line(img, [(57, 57), (80, 80)], 13)


def _menu(img):
    for y in (24, 48, 72):
        _line(img, [(16, y), (80, y)])


def _add(img):
    _line(img, [(48, 16), (48, 80)])
    _line(img, [(16, 48), (80, 48)])


def _play(img):
    _fill(img, [(26, 16), (26, 80), (78, 48)])


def _pause(img):
    _fill(img, [(22, 18), (40, 18), (40, 78), (22, 78)])
    _fill(img, [(56, 18), (74, 18), (74, 78), (56, 78)])


def _home(img):
    _fill(img, [(48, 12), (10, 48), (22, 48), (22, 84), (74, 84), (74, 48), (86, 48)])
    _fill(img, [(40, 60), (56, 60), (56, 84), (40, 84)], 0)


def _check(img):
    _line(img, [(16, 50), (38, 72), (80, 26)], 11)


def _more(img):
    for x in (20, 48, 76):
        cv2.circle(img, (x, 48), 8, 255, -1, cv2.LINE_AA)


def _back(img):
    _line(img, [(20, 48), (80, 48)])
    _line(img, [(44, 22), (18, 48), (44, 74)])


def _forward(img):
    _line(img, [(16, 48), (76, 48)])
    _line(img, [(52, 22), (78, 48), (52, 74)])


def _delete(img):
    _line(img, [(16, 24), (80, 24)], 8)
    _line(img, [(38, 22), (38, 14), (58, 14), (58, 22)], 7)
    _line(img, [(24, 30), (30, 84), (66, 84), (72, 30)], 8)
    _line(img, [(40, 40), (41, 72)], 6)
    _line(img, [(56, 40), (55, 72)], 6)


def _settings(img):
    for k in range(8):
        angle = k * np.pi / 4
        c, s = np.cos(angle), np.sin(angle)
        corners = [(-8, 24), (8, 24), (8, 42), (-8, 42)]
        _fill(img, [(int(48 + x * c - y * s), int(48 + x * s + y * c)) for x, y in corners])
    cv2.circle(img, (48, 48), 30, 255, -1, cv2.LINE_AA)
    cv2.circle(img, (48, 48), 12, 0, -1, cv2.LINE_AA)


def _star(img):
    points = []
    for k in range(10):
        r = 40 if k % 2 == 0 else 17
        a = -np.pi / 2 + k * np.pi / 5
        points.append((int(48 + r * np.cos(a)), int(52 + r * np.sin(a))))
    _fill(img, points)


def _stop(img):
    _fill(img, [(20, 20), (76, 20), (76, 76), (20, 76)])


def _mail(img):
    cv2.rectangle(img, (12, 22), (84, 74), 255, 7, cv2.LINE_AA)
    _line(img, [(14, 26), (48, 52), (82, 26)], 7)


def _user(img):
    cv2.circle(img, (48, 30), 17, 255, -1, cv2.LINE_AA)
    cv2.ellipse(img, (48, 86), (34, 34), 0, 180, 360, 255, -1, cv2.LINE_AA)


DRAWN = {
    "close": _close,
    "search": _search,
    "menu": _menu,
    "add": _add,
    "play": _play,
    "pause": _pause,
    "home": _home,
    "check": _check,
    "more": _more,
    "back": _back,
    "forward": _forward,
    "delete": _delete,
    "settings": _settings,
    "star": _star,
    "stop": _stop,
    "mail": _mail,
    "user": _user,
}


def draw_icon(
    name: str, px: int = 24, dark: bool = False, pad: tuple[int, int, int, int] = (3, 3, 3, 3)
) -> np.ndarray:
    """An RGB crop of a hand-drawn icon, px pixels square, with (top, bottom, left, right)
    padding: dark grey on white, or light grey on dark grey."""
    ink = np.zeros((S, S), np.uint8)
    DRAWN[name](ink)
    ink = cv2.resize(ink, (px, px), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    ink = np.pad(ink, ((pad[0], pad[1]), (pad[2], pad[3])))
    fg, bg = ((220, 220, 220), (45, 45, 48)) if dark else ((40, 40, 40), (255, 255, 255))
    fg, bg = np.array(fg, np.float32), np.array(bg, np.float32)
    return (bg + (fg - bg) * ink[:, :, None] + 0.5).astype(np.uint8)


def text_crop(text: str, px: int = 16, dark: bool = False) -> np.ndarray:
    font = ImageFont.truetype(_font_path(), px)
    left, top, right, bottom = font.getbbox(text)
    image = Image.new(
        "RGB", (right - left + 6, bottom - top + 6), (45, 45, 48) if dark else "white"
    )
    fill = (220, 220, 220) if dark else (30, 30, 30)
    ImageDraw.Draw(image).text((3 - left, 3 - top), text, fill=fill, font=font)
    return np.asarray(image)


def _font_path() -> str:
    for path in (
        "/usr/share/fonts/truetype/liberation/LiberationSans-Regular.ttf",
        "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf",
    ):
        try:
            ImageFont.truetype(path, 12)
            return path
        except OSError:
            continue
    pytest.skip("no TrueType font to draw letters with")


RELIABLE = ["close", "search", "delete", "home", "settings", "menu", "add", "play", "pause",
            "check", "more", "back", "star"]  # fmt: skip


@pytest.mark.parametrize("name", RELIABLE)
def test_hand_drawn_icons_are_named(name: str) -> None:
    for px, dark in ((24, False), (32, True)):
        found = name_icon(draw_icon(name, px, dark))
        assert found is not None, (name, px, dark)
        assert found[0] == name, (name, px, dark, found)
        assert 0 < found[1] <= 1


def test_icons_named_at_other_sizes_and_padding() -> None:
    assert name_icon(draw_icon("search", 18, False, (1, 4, 2, 5)))[0] == "search"
    assert name_icon(draw_icon("close", 40, True, (6, 2, 6, 2)))[0] == "close"


@pytest.mark.parametrize("text", list("AaBbEFHKMRSTWZz") + list("02345689") + ["OK", "File"])
def test_letters_digits_and_words_are_not_icons(text: str) -> None:
    for px, dark in ((14, False), (22, True)):
        assert name_icon(text_crop(text, px, dark)) is None, (text, px, dark)


def test_blank_flat_and_noise_crops_are_not_icons() -> None:
    assert name_icon(np.full((24, 24, 3), 255, np.uint8)) is None
    assert name_icon(np.full((24, 24, 3), 30, np.uint8)) is None
    faint = np.full((24, 24, 3), 200, np.uint8)
    faint[8:16, 8:16] = 210  # too little contrast to be ink
    assert name_icon(faint) is None
    wide = np.full((20, 80, 3), 255, np.uint8)
    wide[9:11, 4:76] = 0  # a long rule is not an icon
    assert name_icon(wide) is None


@pytest.mark.parametrize(
    "crop",
    [
        np.zeros((0, 0, 3), np.uint8),
        np.zeros((1, 1, 3), np.uint8),
        np.zeros((5, 40, 3), np.uint8),
        np.zeros((24, 24, 0), np.uint8),
        np.zeros((24,), np.uint8),
    ],
)
def test_bad_crops_return_none(crop: np.ndarray) -> None:
    assert name_icon(crop) is None


def test_grayscale_rgba_and_float_crops_are_accepted() -> None:
    rgb = draw_icon("close", 24)
    gray = cv2.cvtColor(rgb, cv2.COLOR_RGB2GRAY)
    rgba = np.dstack([rgb, np.full(rgb.shape[:2], 255, np.uint8)])
    for crop in (gray, gray[:, :, None], rgba, rgb.astype(np.float32) / 255):
        assert name_icon(crop)[0] == "close"


def test_default_namer_is_cached_and_describe_is_unit_length() -> None:
    assert default_namer() is default_namer()
    vector = describe(draw_icon("home"))
    assert vector is not None and abs(float(np.linalg.norm(vector)) - 1) < 1e-3


def test_namer_from_arrays_uses_its_own_library() -> None:
    crops = {"close": draw_icon("close"), "play": draw_icon("play")}
    raws = np.array([describe(c) for c in crops.values()])
    dims = raws.shape[1]
    namer = IconNamer.from_arrays(
        np.zeros(dims, np.float32), np.eye(dims, dtype=np.float32), raws,
        np.array([0, 1]), list(crops), threshold=0.5, k=1,
    )  # fmt: skip
    assert namer.name(draw_icon("play", 30, True))[0] == "play"
    assert namer.name(np.full((10, 10, 3), 255, np.uint8)) is None
