"""How well icons are named, on styles the library was not built from, and how fast.

Prints, for the shipped library (Font Awesome 6 + 4, Material Design Icons, Material Icons,
Adwaita):
  * top-1 accuracy on Breeze icons (never in the library) at 18/24/32 px, light and dark, with
    sub-pixel shifts and 1-4 px of padding jitter: named right / named wrong / not named;
  * the same on icons drawn by hand with OpenCV (tests/test_icons.py);
  * leave-one-style-out: a library built without Adwaita, tested on Adwaita;
  * the rejection rate on not-icons rendered in fonts the library never saw (letters, digits,
    short words), photo-like patches and bare rectangles, and which letters slipped through;
  * a PySide6 toolbar of QToolButtons with Breeze theme icons, and one with Qt's own standard
    icons, grabbed offscreen, each button's crop named;
  * load time and time per crop; a threshold sweep to calibrate `THRESHOLD`.

Needs the build sources (see scripts/build_icons.py) plus `apt-get install breeze-icon-theme`.

    QT_QPA_PLATFORM=offscreen .venv/bin/python benchmarks/icons.py [--sweep]
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "scripts"))

import build_icons as lib  # noqa: E402

from clickwright.parsers.icons import LIBRARY, NEGATIVE, IconNamer  # noqa: E402

TEST_SIZES = (18, 24, 32)


def _tests_module():
    spec = importlib.util.spec_from_file_location("test_icons", ROOT / "tests" / "test_icons.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def style_set(style: str, rng: np.random.Generator) -> list[tuple[str, np.ndarray]]:
    """(name, crop) for every named icon the style has, at the test sizes, light and dark."""
    out = []
    for name in lib.ICONS:
        for kind, ref in lib.glyphs(style, name):
            for px in TEST_SIZES:
                for dark in (False, True):
                    out.append((name, lib.render(kind, ref, px, rng, dark)))
    return out


def drawn_set() -> list[tuple[str, np.ndarray]]:
    tests = _tests_module()
    rng = np.random.default_rng(7)
    out = []
    for name in tests.DRAWN:
        for px in TEST_SIZES:
            for dark in (False, True):
                pad = tuple(int(p) for p in rng.integers(1, 5, 4))
                out.append((name, tests.draw_icon(name, px, dark, pad)))
    return out


def not_icons(rng: np.random.Generator) -> dict[str, list[tuple[str, np.ndarray]]]:
    groups: dict[str, list[tuple[str, np.ndarray]]] = {"letters/digits": [], "words": []}
    for font in lib.HELD_OUT_TEXT_FONTS:
        path = str(lib.FONT_DIR / font)
        for char in lib.CHARACTERS[:62]:
            for px in (12, 16, 24):
                crop = lib.text_crop(char, path, px, rng, bool(rng.random() < 0.5))
                groups["letters/digits"].append((char, crop))
        for word in ("Open", "Close", "Print", "Back", "Ok", "Run", "Log", "Set", "id", "7%"):
            for px in (12, 15):
                groups["words"].append((word, lib.text_crop(word, path, px, rng, False)))
    groups["photo patches"] = [("photo", lib.photo_patch(rng)) for _ in range(300)]
    groups["rectangles"] = [
        ("rect", lib.rectangle_crop(rng, bool(rng.random() < 0.5))) for _ in range(100)
    ]  # noqa: E501
    return groups


def score(namer: IconNamer, samples: list[tuple[str, np.ndarray]], threshold: float | None = None):
    """(right, wrong, unnamed) counts and the confusions (truth -> answer)."""
    threshold = namer.threshold if threshold is None else threshold
    right = wrong = unnamed = 0
    confusions: Counter = Counter()
    for truth, crop in samples:
        found = namer.match(crop)
        if found is None or found[0] == NEGATIVE or found[1] < threshold:
            unnamed += 1
            confusions[(truth, None)] += 1
        elif namer.names[found[0]] == truth:
            right += 1
        else:
            wrong += 1
            confusions[(truth, namer.names[found[0]])] += 1
    return right, wrong, unnamed, confusions


def report(title: str, namer: IconNamer, samples: list[tuple[str, np.ndarray]]) -> None:
    right, wrong, unnamed, confusions = score(namer, samples)
    n = len(samples)
    print(
        f"{title}: {n} crops, top-1 {right / n:.1%} right, {wrong / n:.1%} wrong, "
        f"{unnamed / n:.1%} not named"
    )
    worst = ", ".join(f"{t}->{a or 'None'} x{c}" for (t, a), c in confusions.most_common(8))
    print(f"    most common misses: {worst}")


def rejection(namer: IconNamer, groups: dict[str, list[tuple[str, np.ndarray]]]) -> None:
    for title, samples in groups.items():
        named = [(t, namer.name(c)) for t, c in samples]
        slipped = [(t, r[0]) for t, r in named if r is not None]
        print(
            f"not-icons, {title}: {len(samples)} crops, "
            f"rejected {1 - len(slipped) / len(samples):.1%}"
            + (f"; named: {Counter(slipped).most_common(8)}" if slipped else "")
        )


def toolbar_crops() -> dict[str, list[tuple[str, np.ndarray]]]:
    """Crops of QToolButtons in an offscreen toolbar: Breeze theme icons and Qt's standard
    icons (the Fusion style's own pixmaps)."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication, QStyle, QToolBar, QToolButton

    app = QApplication.instance() or QApplication([])
    app.setStyle("Fusion")
    QIcon.setThemeSearchPaths(["/usr/share/icons"])
    QIcon.setThemeName("breeze")
    themed = {
        "close": "window-close", "search": "edit-find", "delete": "edit-delete",
        "home": "go-home", "back": "go-previous", "forward": "go-next", "refresh": "view-refresh",
        "add": "list-add", "remove": "list-remove", "copy": "edit-copy", "cut": "edit-cut",
        "paste": "edit-paste", "undo": "edit-undo", "redo": "edit-redo", "save": "document-save",
        "print": "document-print", "play": "media-playback-start", "pause": "media-playback-pause",
        "stop": "media-playback-stop", "folder": "folder", "mail": "mail-message",
        "lock": "object-locked", "edit": "document-edit", "bell": "notifications",
        "attach": "mail-attachment", "filter": "view-filter", "mic": "audio-input-microphone",
        "volume": "audio-volume-high", "camera": "camera-photo", "calendar": "view-calendar",
    }  # fmt: skip
    sp = QStyle.StandardPixmap
    standard = {
        "close": sp.SP_DialogCloseButton, "delete": sp.SP_TrashIcon, "back": sp.SP_ArrowBack,
        "forward": sp.SP_ArrowForward, "arrow-up": sp.SP_ArrowUp, "arrow-down": sp.SP_ArrowDown,
        "refresh": sp.SP_BrowserReload, "stop": sp.SP_MediaStop, "play": sp.SP_MediaPlay,
        "pause": sp.SP_MediaPause, "save": sp.SP_DialogSaveButton, "folder": sp.SP_DirIcon,
        "file": sp.SP_FileIcon, "warning": sp.SP_MessageBoxWarning,
        "info": sp.SP_MessageBoxInformation, "help": sp.SP_MessageBoxQuestion,
        "home": sp.SP_DirHomeIcon, "skip-next": sp.SP_MediaSkipForward,
        "skip-previous": sp.SP_MediaSkipBackward, "volume": sp.SP_MediaVolume,
        "mute": sp.SP_MediaVolumeMuted,
    }  # fmt: skip
    out = {}
    for title, icons in (("Breeze theme", themed), ("Qt standard", standard)):
        crops = []
        for size in (16, 24):
            bar = QToolBar()
            bar.setIconSize(QSize(size, size))
            buttons = []
            for name, source in icons.items():
                button = QToolButton()
                icon = (
                    QIcon.fromTheme(source)
                    if isinstance(source, str)
                    else app.style().standardIcon(source)
                )  # noqa: E501
                button.setIcon(icon)
                button.setAutoRaise(True)
                bar.addWidget(button)
                buttons.append((name, button))
            bar.resize(bar.sizeHint())
            bar.show()
            app.processEvents()
            image = bar.grab().toImage().convertToFormat(bar.grab().toImage().Format.Format_RGB888)
            width, height, stride = image.width(), image.height(), image.bytesPerLine()
            pixels = np.frombuffer(image.constBits(), np.uint8).reshape(height, stride)
            pixels = pixels[:, : width * 3].reshape(height, width, 3)
            ratio = width / bar.width()
            for name, button in buttons:
                g = button.geometry()
                x, y, w, h = (int(v * ratio) for v in (g.x(), g.y(), g.width(), g.height()))
                crops.append((name, pixels[y : y + h, x : x + w].copy()))
            bar.close()
        out[title] = crops
    return out


def timing(namer: IconNamer, samples: list[tuple[str, np.ndarray]]) -> None:
    start = time.perf_counter()
    IconNamer(LIBRARY)
    load_ms = (time.perf_counter() - start) * 1000
    crops = [c for _, c in samples]
    for crop in crops[:20]:
        namer.name(crop)
    times = []
    for crop in crops:
        start = time.perf_counter()
        namer.name(crop)
        times.append((time.perf_counter() - start) * 1000)
    size = sum(p.stat().st_size for p in LIBRARY.parent.iterdir() if p.is_file())
    print(
        f"library: {len(namer.names)} names, {len(namer.labels)} descriptors, "
        f"{size / 1024:.0f} KiB on disk; load {load_ms:.1f} ms; per crop median "
        f"{statistics.median(times):.2f} ms, p95 {np.percentile(times, 95):.2f} ms, "
        f"max {max(times):.2f} ms ({len(times)} crops)"
    )


def sweep(namer: IconNamer, icons: list, negatives: list) -> None:
    print("threshold sweep (held-out Breeze + drawn icons vs all not-icons):")
    for threshold in (0.4, 0.5, 0.55, 0.6, 0.62, 0.65, 0.7, 0.75, 0.8):
        right, wrong, _, _ = score(namer, icons, threshold)
        named = sum(
            1
            for _, c in negatives
            if (m := namer.match(c)) is not None and m[0] != NEGATIVE and m[1] >= threshold
        )
        print(
            f"    {threshold:.2f}: icons right {right / len(icons):.1%}, wrong "
            f"{wrong / len(icons):.1%}; not-icons named {named / len(negatives):.1%}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description="icon naming benchmark")
    parser.add_argument("--sweep", action="store_true", help="also sweep the threshold")
    parser.add_argument("--quick", action="store_true", help="skip leave-one-style-out")
    args = parser.parse_args()
    rng = np.random.default_rng(2024)
    namer = IconNamer(LIBRARY)
    breeze = style_set("breeze", rng)
    drawn = drawn_set()
    report("held-out Breeze icons", namer, breeze)
    report("held-out hand-drawn icons", namer, drawn)
    if not args.quick:
        built = lib.build(tuple(s for s in lib.LIBRARY_STYLES if s != "adwaita"), seed=1)
        without = IconNamer.from_arrays(
            built["mean"], built["components"], built["vectors"].astype(np.float32),
            built["labels"], list(lib.ICONS), float(built["threshold"]),
        )  # fmt: skip
        report(
            "leave-one-out: Adwaita icons, library without Adwaita",
            without,
            style_set("adwaita", rng),
        )  # noqa: E501
    groups = not_icons(rng)
    rejection(namer, groups)
    for title, crops in toolbar_crops().items():
        report(f"toolbar, {title} icons (16 and 24 px buttons)", namer, crops)
        named = [(t, namer.name(c)) for t, c in crops]
        print("    " + ", ".join(f"{t}:{r[0] if r else '-'}" for t, r in named[: len(named) // 2]))
    timing(namer, breeze + drawn + [s for g in groups.values() for s in g])
    if args.sweep:
        sweep(namer, breeze + drawn, [s for g in groups.values() for s in g])


if __name__ == "__main__":
    main()
