"""Build the icon library that `clickwright.parsers.icons` names icons with.

Renders every named icon from freely licensed icon fonts and SVG themes installed from Debian
and PyPI, at several sizes, in light and dark themes and with a few pixels of position jitter,
computes each rendering's descriptor (`parsers.icons.describe`), adds descriptors of things that
are NOT icons (letters, digits, short words, photo-like patches, bare rectangles), reduces them
with PCA, quantises them to int8 and writes `assets/icons/library.npz` plus
`assets/icons/names.json` (the names and, for each, which source glyphs were used).

Sources (install them first; none is needed at run time, the outputs are committed):

    apt-get install fonts-font-awesome fonts-materialdesignicons-webfont \
        fonts-material-design-icons-iconfont adwaita-icon-theme
    .venv/bin/pip install fontawesomefree        # Font Awesome 6 Free SVGs
    apt-get install breeze-icon-theme            # only for benchmarks/icons.py (held out)

Then:

    QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/build_icons.py

Breeze is deliberately left out of the library so the benchmark and tests can measure matching
on a style the library has never seen. `--styles` picks other styles (e.g. to measure
leave-one-style-out); `--out` writes elsewhere.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from functools import cache, lru_cache
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # so the script runs from a checkout without installing

from clickwright.parsers.icons import NEGATIVE, describe  # noqa: E402

OUT = ROOT / "assets" / "icons"
SIZES = (16, 20, 24, 28, 32, 40, 48)
RESTYLE_SIZES = (18, 24, 32)  # sizes of the outline and bold variants
LIBRARY_STYLES = ("fa6", "fa4", "mdi", "material", "adwaita")
ALL_STYLES = LIBRARY_STYLES + ("breeze",)
PCA_DIMS = 96
THRESHOLD = 0.70  # least confidence to name an icon (calibrated with benchmarks/icons.py)
DEDUP = 0.985  # drop a rendering this similar (cosine) to one already kept for the same name

FA6 = None  # set lazily: the fontawesomefree package's SVG folder
FA4_TTF = "/usr/share/fonts/truetype/font-awesome/fontawesome-webfont.ttf"
FA4_CSS = "/usr/share/fonts-font-awesome/css/font-awesome.css"
MDI_TTF = "/usr/share/fonts/truetype/materialdesignicons-webfont/materialdesignicons-webfont.ttf"
MDI_CSS = "/usr/share/fonts-materialdesignicons-webfont/css/materialdesignicons.css"
MAT_TTF = "/usr/share/fonts/truetype/material-design-icons-iconfont/MaterialIcons-Regular.ttf"
MAT_SCSS = "/usr/share/fonts-material-design-icons-iconfont/scss/_variables.scss"
ADWAITA = Path("/usr/share/icons/Adwaita/scalable")
BREEZE = Path("/usr/share/icons/breeze")
BREEZE_DIRS = ("actions", "places", "status", "devices", "mimetypes", "apps")

FONT_DIR = Path("/usr/share/fonts/truetype")
LIBRARY_TEXT_FONTS = (  # letters and words the library learns are not icons
    "dejavu/DejaVuSans.ttf",
    "dejavu/DejaVuSans-Bold.ttf",
    "dejavu/DejaVuSerif.ttf",
    "liberation/LiberationMono-Regular.ttf",
    "dejavu/DejaVuSansCondensed.ttf",
)
HELD_OUT_TEXT_FONTS = (  # used only by the benchmark and tests
    "liberation/LiberationSans-Regular.ttf",
    "liberation/LiberationSans-Bold.ttf",
    "liberation/LiberationSerif-Regular.ttf",
    "dejavu/DejaVuSansMono.ttf",
    "liberation/LiberationSansNarrow-Regular.ttf",
)
CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789&@#%$"
WORDS = (
    "OK", "File", "Edit", "View", "Help", "Save", "Name", "Go", "ab", "No", "Yes", "Tools",
    "Open", "New", "Cancel", "Apply", "Find", "Menu", "Tab", "1.5", "10", "42", "Qt", "Hi",
    "fx", "Mr", "A4", "x2", "OFF", "ON", "Min", "Max", "All",
)  # fmt: skip

# name -> glyphs per style: (fa6, fa4, mdi, material, adwaita, breeze); several names separated
# by spaces are all used (e.g. solid and outline variants), an empty string means none.
ICONS: dict[str, tuple[str, str, str, str, str, str]] = {
    "close": ("xmark", "times", "close", "close", "window-close-symbolic", "window-close"),
    "search": (
        "magnifying-glass",
        "search",
        "magnify",
        "search",
        "edit-find-symbolic system-search-symbolic",
        "edit-find search",
    ),
    "settings": ("gear", "cog", "settings", "settings", "emblem-system-symbolic", ""),
    "back": (
        "arrow-left chevron-left angle-left",
        "arrow-left chevron-left angle-left",
        "arrow-left chevron-left",
        "arrow_back chevron_left arrow_back_ios",
        "go-previous-symbolic",
        "go-previous arrow-left",
    ),
    "forward": (
        "arrow-right chevron-right angle-right",
        "arrow-right chevron-right angle-right",
        "arrow-right chevron-right",
        "arrow_forward chevron_right arrow_forward_ios",
        "go-next-symbolic",
        "go-next arrow-right",
    ),
    "arrow-up": ("arrow-up", "arrow-up", "arrow-up", "arrow_upward", "", ""),
    "arrow-down": ("arrow-down", "arrow-down", "arrow-down", "arrow_downward", "", ""),
    "expand": (
        "chevron-down angle-down caret-down",
        "chevron-down angle-down caret-down",
        "chevron-down menu-down",
        "expand_more arrow_drop_down keyboard_arrow_down",
        "go-down-symbolic pan-down-symbolic",
        "go-down",
    ),
    "collapse": (
        "chevron-up angle-up caret-up",
        "chevron-up angle-up caret-up",
        "chevron-up menu-up",
        "expand_less arrow_drop_up keyboard_arrow_up",
        "go-up-symbolic pan-up-symbolic",
        "go-up",
    ),
    "menu": (
        "bars",
        "bars",
        "menu",
        "menu",
        "open-menu-symbolic",
        "application-menu open-menu-symbolic",
    ),
    "more": (
        "ellipsis ellipsis-vertical",
        "ellipsis-h ellipsis-v",
        "dots-horizontal dots-vertical",
        "more_horiz more_vert",
        "view-more-symbolic view-more-horizontal-symbolic",
        "overflow-menu",
    ),
    "add": ("plus", "plus", "plus", "add", "list-add-symbolic", "list-add"),
    "remove": ("minus", "minus", "minus", "remove", "list-remove-symbolic", "list-remove"),
    "delete": (
        "trash trash-can",
        "trash trash-o",
        "delete",
        "delete delete_outline",
        "user-trash-symbolic",
        "edit-delete delete",
    ),
    "edit": (
        "pen pencil pen-to-square",
        "pencil edit",
        "pencil",
        "edit create",
        "document-edit-symbolic",
        "document-edit edit-entry",
    ),
    "share": (
        "share-nodes share-from-square",
        "share-alt share",
        "share-variant share",
        "share",
        "send-to-symbolic",
        "",
    ),
    "refresh": (
        "arrows-rotate rotate-right arrow-rotate-right",
        "refresh",
        "refresh",
        "refresh",
        "view-refresh-symbolic",
        "view-refresh",
    ),
    "home": ("house", "home", "home", "home", "go-home-symbolic user-home-symbolic", "go-home"),
    "download": (
        "download",
        "download",
        "download",
        "file_download download",
        "folder-download-symbolic",
        "download",
    ),
    "upload": ("upload", "upload", "upload", "file_upload upload", "", ""),
    "play": (
        "play",
        "play",
        "play",
        "play_arrow",
        "media-playback-start-symbolic",
        "media-playback-start",
    ),
    "pause": (
        "pause",
        "pause",
        "pause",
        "pause",
        "media-playback-pause-symbolic",
        "media-playback-pause",
    ),
    "stop": ("stop", "stop", "stop", "stop", "media-playback-stop-symbolic", "media-playback-stop"),
    "skip-next": (
        "forward-step",
        "step-forward",
        "skip-next",
        "skip_next",
        "media-skip-forward-symbolic",
        "media-skip-forward",
    ),
    "skip-previous": (
        "backward-step",
        "step-backward",
        "skip-previous",
        "skip_previous",
        "media-skip-backward-symbolic",
        "media-skip-backward",
    ),
    "save": ("floppy-disk", "floppy-o save", "content-save", "save", "", "document-save"),
    "copy": (
        "copy",
        "copy files-o",
        "content-copy",
        "content_copy",
        "edit-copy-symbolic",
        "edit-copy",
    ),
    "paste": (
        "paste clipboard",
        "clipboard paste",
        "content-paste",
        "content_paste",
        "edit-paste-symbolic",
        "edit-paste",
    ),
    "cut": (
        "scissors",
        "scissors cut",
        "content-cut",
        "content_cut",
        "edit-cut-symbolic",
        "edit-cut",
    ),
    "undo": (
        "rotate-left arrow-rotate-left",
        "undo rotate-left",
        "undo",
        "undo",
        "edit-undo-symbolic",
        "edit-undo",
    ),
    "redo": (
        "arrow-rotate-right",
        "repeat rotate-right",
        "redo",
        "redo",
        "edit-redo-symbolic",
        "edit-redo",
    ),
    "folder": ("folder", "folder folder-o", "folder", "folder", "folder-symbolic", "folder"),
    "file": (
        "file",
        "file file-o",
        "file",
        "insert_drive_file description",
        "text-x-generic-symbolic",
        "document-new",
    ),
    "star": (
        "star",
        "star star-o",
        "star star-outline",
        "star star_border",
        "starred-symbolic non-starred-symbolic",
        "rating",
    ),
    "heart": (
        "heart",
        "heart heart-o",
        "heart heart-outline",
        "favorite favorite_border",
        "emblem-favorite-symbolic",
        "emblem-favorite",
    ),
    "bell": (
        "bell",
        "bell bell-o",
        "bell bell-outline",
        "notifications notifications_none",
        "preferences-system-notifications-symbolic",
        "notifications",
    ),
    "user": ("user", "user user-o", "account", "person", "avatar-default-symbolic", "user"),
    "lock": (
        "lock",
        "lock",
        "lock",
        "lock",
        "changes-prevent-symbolic system-lock-screen-symbolic",
        "object-locked",
    ),
    "unlock": (
        "lock-open unlock",
        "unlock",
        "lock-open",
        "lock_open",
        "changes-allow-symbolic",
        "object-unlocked",
    ),
    "mail": (
        "envelope",
        "envelope envelope-o",
        "email",
        "email mail",
        "mail-unread-symbolic",
        "mail-message",
    ),
    "calendar": (
        "calendar calendar-days",
        "calendar calendar-o",
        "calendar",
        "calendar_today event",
        "x-office-calendar-symbolic",
        "view-calendar",
    ),
    "camera": (
        "camera",
        "camera",
        "camera",
        "photo_camera",
        "camera-photo-symbolic",
        "camera-photo",
    ),
    "check": (
        "check",
        "check",
        "check",
        "check done",
        "object-select-symbolic",
        "dialog-ok checkmark",
    ),
    "info": (
        "circle-info info",
        "info-circle info",
        "information information-outline",
        "info info_outline",
        "dialog-information-symbolic",
        "dialog-information",
    ),
    "help": (
        "circle-question question",
        "question-circle question",
        "help-circle help",
        "help help_outline",
        "help-browser-symbolic",
        "",
    ),
    "warning": (
        "triangle-exclamation",
        "exclamation-triangle",
        "alert",
        "warning",
        "dialog-warning-symbolic",
        "dialog-warning",
    ),
    "filter": ("filter", "filter", "filter", "filter_list filter_alt", "", "view-filter"),
    "sort": (
        "sort arrow-down-wide-short",
        "sort sort-amount-desc",
        "sort",
        "sort",
        "view-sort-descending-symbolic",
        "view-sort-descending view-sort",
    ),
    "zoom-in": ("magnifying-glass-plus", "search-plus", "magnify-plus", "zoom_in", "", ""),
    "zoom-out": ("magnifying-glass-minus", "search-minus", "magnify-minus", "zoom_out", "", ""),
    "print": (
        "print",
        "print",
        "printer",
        "print",
        "printer-symbolic document-print-symbolic",
        "document-print",
    ),
    "attach": (
        "paperclip",
        "paperclip",
        "paperclip attachment",
        "attach_file attachment",
        "mail-attachment-symbolic",
        "mail-attachment",
    ),
    "link": ("link", "link", "link link-variant", "link", "", "insert-link"),
    "send": (
        "paper-plane",
        "paper-plane paper-plane-o send",
        "send",
        "send",
        "",
        "document-send mail-send",
    ),
    "mic": (
        "microphone",
        "microphone",
        "microphone",
        "mic",
        "audio-input-microphone-symbolic",
        "audio-input-microphone",
    ),
    "volume": (
        "volume-high",
        "volume-up",
        "volume-high",
        "volume_up",
        "audio-volume-high-symbolic",
        "audio-volume-high",
    ),
    "mute": (
        "volume-xmark",
        "volume-off",
        "volume-off",
        "volume_off",
        "audio-volume-muted-symbolic",
        "audio-volume-muted",
    ),
    "image": (
        "image",
        "image picture-o",
        "image",
        "image",
        "image-x-generic-symbolic",
        "image-x-generic",
    ),
    "eye": ("eye", "eye", "eye", "visibility", "view-reveal-symbolic", "view-visible"),
    "list": (
        "list",
        "list",
        "view-list format-list-bulleted",
        "view_list list format_list_bulleted",
        "view-list-symbolic",
        "view-list-details view-list-text",
    ),
    "grid": (
        "table-cells",
        "th th-large",
        "view-grid view-module",
        "apps view_module",
        "view-grid-symbolic",
        "view-list-icons",
    ),
    "clock": (
        "clock",
        "clock-o",
        "clock",
        "schedule access_time",
        "document-open-recent-symbolic",
        "chronometer",
    ),
    "bookmark": (
        "bookmark",
        "bookmark bookmark-o",
        "bookmark",
        "bookmark bookmark_border",
        "bookmark-new-symbolic",
        "bookmarks",
    ),
    "fullscreen": (
        "expand maximize",
        "expand arrows-alt",
        "fullscreen",
        "fullscreen",
        "view-fullscreen-symbolic",
        "view-fullscreen",
    ),
    "power": (
        "power-off",
        "power-off",
        "power",
        "power_settings_new",
        "system-shutdown-symbolic",
        "system-shutdown",
    ),
    "logout": (
        "right-from-bracket arrow-right-from-bracket",
        "sign-out",
        "logout",
        "exit_to_app logout",
        "system-log-out-symbolic application-exit-symbolic",
        "system-log-out",
    ),
    "phone": ("phone", "phone", "phone", "phone call", "call-start-symbolic", "call-start"),
    "location": (
        "location-dot",
        "map-marker",
        "map-marker",
        "place location_on",
        "mark-location-symbolic",
        "mark-location",
    ),
    "cloud": ("cloud", "cloud", "cloud", "cloud cloud_queue", "weather-overcast-symbolic", "cloud"),
    "minimize": (
        "window-minimize",
        "window-minimize",
        "window-minimize",
        "minimize",
        "window-minimize-symbolic",
        "",
    ),
    "maximize": (
        "window-maximize",
        "window-maximize",
        "window-maximize",
        "crop_square",
        "window-maximize-symbolic",
        "",
    ),
    "tag": ("tag", "tag", "tag", "local_offer label", "", "tag"),
    "chat": (
        "comment message",
        "comment comment-o",
        "message comment",
        "chat chat_bubble",
        "chat-message-new-symbolic",
        "dialog-messages",
    ),
    "globe": ("globe", "globe", "earth web", "language public", "web-browser-symbolic", "globe"),
    "cart": ("cart-shopping", "shopping-cart", "cart", "shopping_cart", "", "cart"),
}


# ---- sources ---------------------------------------------------------------------------------


def _qt() -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtWidgets import QApplication

    if QApplication.instance() is None:
        _qt.app = QApplication([])  # type: ignore[attr-defined]


@cache
def _codepoints(path: str) -> dict[str, int]:
    text = Path(path).read_text()
    if path.endswith(".scss"):
        pairs = re.findall(r'"([a-z0-9_]+)":\s*([0-9a-f]+)', text)
    else:
        prefix = "mdi" if "materialdesign" in path else "fa"
        pairs = re.findall(
            rf"\.{prefix}-([a-z0-9-]+):before\s*\{{\s*content:\s*\"\\([0-9a-fA-F]+)\"", text
        )
        aliases = re.findall(
            rf"((?:\.{prefix}-[a-z0-9-]+:before,\s*)+)\.{prefix}-[a-z0-9-]+:before\s*\{{\s*content:\s*\"\\([0-9a-fA-F]+)\"",
            text,
        )  # noqa: E501
        for group, code in aliases:
            pairs += [(n, code) for n in re.findall(rf"\.{prefix}-([a-z0-9-]+):before", group)]
    return {name: int(code, 16) for name, code in pairs}


def _fa6_dir() -> Path:
    import fontawesomefree

    return Path(fontawesomefree.__file__).parent / "static" / "fontawesomefree" / "svgs"


def glyphs(style: str, name: str) -> list[tuple[str, str]]:
    """The (kind, reference) glyphs of one named icon in one style: ("svg", path) or
    ("font", "ttf-path#codepoint")."""
    wanted = ICONS[name][ALL_STYLES.index(style)].split()
    found: list[tuple[str, str]] = []
    for glyph in wanted:
        if style == "fa6":
            for variant in ("solid", "regular"):
                path = _fa6_dir() / variant / f"{glyph}.svg"
                if path.exists():
                    found.append(("svg", str(path)))
        elif style in ("fa4", "mdi", "material"):
            ttf, css = {"fa4": (FA4_TTF, FA4_CSS), "mdi": (MDI_TTF, MDI_CSS)}.get(
                style, (MAT_TTF, MAT_SCSS)
            )
            code = _codepoints(css).get(glyph)
            if code is not None:
                found.append(("font", f"{ttf}#{code}"))
        elif style == "adwaita":
            paths = sorted(ADWAITA.glob(f"*/{glyph}.svg"))
            found += [("svg", str(p)) for p in paths[:1]]
        elif style == "breeze":
            for folder in BREEZE_DIRS:
                path = BREEZE / folder / "22" / f"{glyph}.svg"
                if path.exists():
                    found.append(("svg", str(path)))
                    break
    return found


@lru_cache(maxsize=4096)
def _font(path: str, size: int):
    from PIL import ImageFont

    return ImageFont.truetype(path, size)


def coverage(kind: str, ref: str, px: int, shift: tuple[float, float] = (0.0, 0.0)) -> np.ndarray:
    """A glyph's anti-aliased coverage (float32, 0..1) in a px x px box (fonts: px is the font
    size; the ink may overhang a little and is kept)."""
    if kind == "font":
        from PIL import Image, ImageDraw

        path, code = ref.split("#")
        font = _font(path, px)
        pad = px // 2 + 2
        canvas = Image.new("L", (px + 2 * pad, px + 2 * pad), 0)
        ImageDraw.Draw(canvas).text(
            (pad + shift[0], pad + shift[1]), chr(int(code)), 255, font=font
        )
        return np.asarray(canvas, np.float32) / 255
    _qt()
    from PySide6.QtCore import QRectF, Qt
    from PySide6.QtGui import QImage, QPainter

    renderer = _svg(ref)
    image = QImage(px + 4, px + 4, QImage.Format.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    renderer.setAspectRatioMode(Qt.AspectRatioMode.KeepAspectRatio)
    renderer.render(painter, QRectF(2 + shift[0], 2 + shift[1], px, px))
    painter.end()
    buffer = np.frombuffer(image.constBits(), np.uint8).reshape(
        px + 4, image.bytesPerLine() // 4, 4
    )
    return buffer[:, : px + 4, 3].astype(np.float32) / 255  # alpha: BGRA on little endian


@lru_cache(maxsize=4096)
def _svg(path: str):
    from PySide6.QtSvg import QSvgRenderer

    return QSvgRenderer(path)


LIGHT = (
    ((32, 32, 32), (255, 255, 255)),
    ((70, 70, 70), (239, 240, 241)),
    ((0, 92, 180), (250, 250, 250)),
    ((46, 52, 54), (246, 245, 244)),
)  # noqa: E501
DARK = (
    ((238, 238, 238), (32, 32, 32)),
    ((200, 200, 200), (49, 54, 59)),
    ((255, 255, 255), (53, 132, 228)),
    ((220, 220, 220), (45, 45, 45)),
)  # noqa: E501


def compose(ink: np.ndarray, fg, bg, pads: tuple[int, int, int, int]) -> np.ndarray:
    """Paint a coverage mask in colour fg on bg, trimmed to its ink plus pads (t, b, l, r)."""
    rows, cols = np.flatnonzero(ink.max(axis=1) > 0.02), np.flatnonzero(ink.max(axis=0) > 0.02)
    if rows.size == 0:
        ink = np.zeros((8, 8), np.float32)
    else:
        ink = ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
    top, bottom, left, right = pads
    ink = np.pad(ink, ((top, bottom), (left, right)))
    fg, bg = np.array(fg, np.float32), np.array(bg, np.float32)
    rgb = bg + (fg - bg) * ink[:, :, None]
    return np.clip(rgb + 0.5, 0, 255).astype(np.uint8)


def restyled(kind: str, ref: str, px: int, variant: str, rng: np.random.Generator) -> np.ndarray:
    """The glyph drawn 4x larger, turned into another style, and scaled down to px: "outline"
    keeps a 1 px (at px) rim of solid shapes, as line-art themes draw them; "bold" thickens
    every stroke by about 1 px."""
    import cv2

    shift = (float(rng.integers(0, 4)), float(rng.integers(0, 4)))
    big = coverage(kind, ref, px * 4, shift)
    mask = (big > 0.5).astype(np.uint8)
    disc = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (7, 7))
    if variant == "outline":
        mask = mask - cv2.erode(mask, disc)
    else:
        mask = cv2.dilate(mask, disc)
    h, w = mask.shape
    return cv2.resize(mask.astype(np.float32), (w // 4, h // 4), interpolation=cv2.INTER_AREA)


def render(
    kind: str, ref: str, px: int, rng: np.random.Generator, dark: bool, variant: str = "plain"
) -> np.ndarray:
    """One RGB rendering of a glyph: size px, a random theme colour pair, sub-pixel shift and
    1-4 px of padding on each side; variant "outline" or "bold" changes its stroke style."""
    fg, bg = (DARK if dark else LIGHT)[rng.integers(4)]
    if variant == "plain":
        shift = (float(rng.uniform(0, 1)), float(rng.uniform(0, 1)))
        ink = coverage(kind, ref, px, shift)
    else:
        ink = restyled(kind, ref, px, variant, rng)
    return compose(ink, fg, bg, tuple(rng.integers(1, 5, 4)))


# ---- not icons ------------------------------------------------------------------------------


def text_crop(
    text: str, font_path: str, px: int, rng: np.random.Generator, dark: bool
) -> np.ndarray:
    from PIL import Image, ImageDraw

    font = _font(font_path, px)
    canvas = Image.new("L", (px * (len(text) + 2), px * 2 + 4), 0)
    ImageDraw.Draw(canvas).text((px // 2, px // 2), text, 255, font=font)
    fg, bg = (DARK if dark else LIGHT)[rng.integers(4)]
    return compose(np.asarray(canvas, np.float32) / 255, fg, bg, tuple(rng.integers(1, 5, 4)))


def photo_patch(rng: np.random.Generator) -> np.ndarray:
    """A photo-like patch: colour 1/f noise (natural images' spectrum) with a soft edge or two."""
    side = int(rng.integers(14, 56))
    h, w = side, int(side * rng.uniform(0.7, 1.4))
    fy, fx = np.meshgrid(np.fft.fftfreq(h), np.fft.fftfreq(w), indexing="ij")
    falloff = 1 / np.maximum(np.hypot(fy, fx), 1 / max(h, w)) ** rng.uniform(0.8, 1.5)
    channels = []
    base = rng.normal(size=(h, w)) + 1j * rng.normal(size=(h, w))
    for _ in range(3):
        noise = base * 0.8 + 0.4 * (rng.normal(size=(h, w)) + 1j * rng.normal(size=(h, w)))
        field = np.real(np.fft.ifft2(noise * falloff))
        field = (field - field.mean()) / (field.std() + 1e-6)
        channels.append(128 + field * rng.uniform(25, 60) + rng.uniform(-60, 60))
    return np.clip(np.stack(channels, axis=2), 0, 255).astype(np.uint8)


def rectangle_crop(rng: np.random.Generator, dark: bool) -> np.ndarray:
    """A bare rectangle or frame (a field, a button face, a separator box), never square."""
    h = int(rng.integers(8, 30))
    w = int(h * rng.uniform(1.6, 3.8))
    ink = np.zeros((h, w), np.float32)
    if rng.random() < 0.5:
        ink[:] = 1
    else:
        t = int(rng.integers(1, 3))
        ink[:t], ink[-t:], ink[:, :t], ink[:, -t:] = 1, 1, 1, 1
    fg, bg = (DARK if dark else LIGHT)[rng.integers(4)]
    return compose(ink, fg, bg, tuple(rng.integers(1, 5, 4)))


def negatives(
    fonts: tuple[str, ...], rng: np.random.Generator, photos: int = 300
) -> list[np.ndarray]:
    """Crops of letters, digits, words, photo-like patches and rectangles."""
    crops = []
    for font in fonts:
        path = str(FONT_DIR / font)
        for char in CHARACTERS:
            for px in (11, 14, 20, 28):
                crops.append(text_crop(char, path, px, rng, bool(rng.random() < 0.4)))
        for word in WORDS:
            for px in (11, 13, 16):
                crops.append(text_crop(word, path, px, rng, bool(rng.random() < 0.4)))
    crops += [photo_patch(rng) for _ in range(photos)]
    crops += [rectangle_crop(rng, bool(rng.random() < 0.4)) for _ in range(photos)]
    return crops


# ---- the library ----------------------------------------------------------------------------


def icon_renderings(
    styles: tuple[str, ...], sizes: tuple[int, ...], rng: np.random.Generator
) -> tuple[list[np.ndarray], list[int], dict[str, dict[str, list[str]]]]:
    """RGB renderings of every named icon in the styles, their name indices, and which
    glyphs were used (name -> style -> references)."""
    crops, labels, used = [], [], {}
    for index, name in enumerate(ICONS):
        used[name] = {}
        for style in styles:
            refs = glyphs(style, name)
            used[name][style] = [
                Path(r.split("#")[0]).stem + ("#" + r.split("#")[1] if "#" in r else "")
                for _, r in refs
            ]  # noqa: E501
            for kind, ref in refs:
                for px in sizes:
                    for dark in (False, True):
                        crops.append(render(kind, ref, px, rng, dark))
                        labels.append(index)
                for px in RESTYLE_SIZES:
                    for variant in ("outline", "bold"):
                        crops.append(render(kind, ref, px, rng, bool(rng.random() < 0.5), variant))
                        labels.append(index)
    return crops, labels, used


def build(
    styles: tuple[str, ...] = LIBRARY_STYLES,
    sizes: tuple[int, ...] = SIZES,
    text_fonts: tuple[str, ...] = LIBRARY_TEXT_FONTS,
    seed: int = 0,
) -> dict:
    """The library as arrays: PCA mean and components, int8 vectors, labels, names, threshold."""
    rng = np.random.default_rng(seed)
    crops, labels, used = icon_renderings(styles, sizes, rng)
    negative = negatives(text_fonts, rng)
    crops += negative
    labels += [NEGATIVE] * len(negative)
    raws, kept = [], []
    for crop, label in zip(crops, labels, strict=True):
        raw = describe(crop)
        if raw is not None:
            raws.append(raw)
            kept.append(label)
    data = np.array(raws, np.float32)
    label_array = np.array(kept, np.int16)
    mean = data.mean(axis=0)
    _, _, vt = np.linalg.svd(data - mean, full_matrices=False)
    components = vt[:PCA_DIMS]
    projected = (data - mean) @ components.T
    projected /= np.linalg.norm(projected, axis=1, keepdims=True) + 1e-6
    keep = _dedupe(projected, label_array)
    projected, label_array = projected[keep], label_array[keep]
    scale = float(np.abs(projected).max()) / 127
    return {
        "mean": mean.astype(np.float32),
        "components": components.astype(np.float16),
        "vectors": np.round(projected / scale).astype(np.int8),
        "scale": np.float32(scale),
        "labels": label_array,
        "names": json.dumps(list(ICONS)),
        "threshold": np.float32(THRESHOLD),
        "used": used,
    }


def _dedupe(vectors: np.ndarray, labels: np.ndarray) -> np.ndarray:
    keep = []
    for label in np.unique(labels):
        members = np.flatnonzero(labels == label)
        chosen: list[int] = []
        for index in members:
            if not chosen or float((vectors[chosen] @ vectors[index]).max()) < DEDUP:
                chosen.append(int(index))
        keep += chosen
    return np.array(sorted(keep))


def save(library: dict, out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    arrays = {k: v for k, v in library.items() if k != "used"}
    np.savez_compressed(out / "library.npz", **arrays)
    (out / "names.json").write_text(json.dumps(library["used"], indent=1) + "\n")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--styles", default=",".join(LIBRARY_STYLES), help="comma-separated")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    styles = tuple(args.styles.split(","))
    missing = [
        (n, s) for n in ICONS for s in styles if ICONS[n][ALL_STYLES.index(s)] and not glyphs(s, n)
    ]  # noqa: E501
    for name, style in missing:
        print(f"warning: no {style} glyph found for {name!r}", file=sys.stderr)
    library = build(styles)
    save(library, args.out)
    counts = np.bincount(library["labels"].astype(int) + 1)
    size = sum(p.stat().st_size for p in args.out.glob("*") if p.is_file())
    print(
        f"{len(ICONS)} names from {', '.join(styles)}: {int(counts[1:].sum())} icon and "
        f"{int(counts[0])} not-icon descriptors, {size / 1024:.0f} KiB in {args.out}"
    )


if __name__ == "__main__":
    main()
