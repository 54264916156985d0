"""Screen parser benchmark: how much of a labelled screen the parser finds, and how fast.

The screens and their ground truth come from `screens.py` (Qt windows offscreen and local
pages in headless Chromium; generated into `benchmarks/.screens/` on first use). Each screen is
parsed by OCR alone, widget detection alone and both fused; the accessibility source is not
measured, because offscreen renders and screenshots have no accessibility tree.

* text recall: a true text is found when a parsed element's text reads as it (rapidfuzz ratio
  >= 80, lowercased, spaces collapsed) and their boxes overlap; precision the same the other
  way round, over parsed elements with text, where a parsed text may also read as a true
  control's text (a row carrying its cells) or as a phrase inside a longer true text's box (a
  line of a document the tree gives whole);
* text precision, knowable: the same, but only over parsed texts lying on a true text or
  control: an accessibility tree lacks much that is drawn (a calendar's day numbers, a
  document's lines, a title bar), so a parsed text where the truth has nothing is neither
  right nor wrong;
* interactive recall: true controls matched by a parsed interactive element at IoU >= 0.3;
  interactive precision: parsed interactive elements that match a true control so, or lie
  (80 % or more) inside one (a row's check box, a spin box's arrow: clicking them clicks it);
* icon naming: icon-only buttons whose best-overlapping parsed element carries their name;
* cold parse: a fresh ScreenParser's first frame (OCR models already loaded, their load time
  shown apart); warm: the same parser on the frame with one line edit a character longer.

    .venv/bin/python benchmarks/parser.py [--screens DIR] [--limit N]
    .venv/bin/python benchmarks/parser.py --real --beside 068a752   # an older engine beside
    .venv/bin/python benchmarks/parser.py --real --misses            # what dev screens miss

`--beside REV[,REV...]` measures the parser as it was at each git revision on the same screens
in the same run (its package exported to a temporary folder and imported in a child process),
and prints the goals of all side by side. `--misses` lists, per dev screen, the true controls and
texts not found and the parsed ones that match nothing; held-out screens are never listed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import unicodedata
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from PIL import Image
from rapidfuzz import fuzz
from real_screens import DEFAULT_OUT as REAL_SCREENS
from real_screens import node_from_json

from clickwright.parsers.fusion import TextBox
from clickwright.parsers.ocr import OcrEngine, ocr_engine
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.types import Box, Element, Frame

HERE = Path(__file__).resolve().parent
MATCH = 80  # rapidfuzz ratio at which a parsed text reads as a true one
IOU = 0.3  # overlap at which a parsed interactive element is a true control
SOURCES = {"ocr": frozenset({"ocr"}), "widgets": frozenset({"widgets"})}
FUSED = frozenset({"ocr", "widgets"})
WITH_TREE = frozenset({"ocr", "widgets", "a11y"})
GOALS = {"text recall": 0.97, "interactive recall": 0.90, "cold dense s": 0.8, "warm s": 0.1}
REAL_GOALS = {  # issue 14, on the real third-party screens
    "text recall": 0.97,
    "text precision": 0.95,
    "interactive recall": 0.90,
    "interactive precision": 0.95,
    "cold dense s": 0.5,
    "cold median s": 0.5,
    "parse --image s": 1.0,
}
DENSE_REAL = ("gtk-editor", "gtk-file-chooser", "held-gtk-file-save", "held-gtk-widget-factory")


@dataclass(frozen=True)
class Labelled:
    """One generated screen: its pixels, the edited variant's, and the ground truth."""

    meta: dict
    pixels: np.ndarray
    edited: np.ndarray | None

    @property
    def name(self) -> str:
        return self.meta["name"]


@dataclass
class Tally:
    """Counts for one source over a group of screens."""

    texts_found: int = 0
    texts: int = 0
    parsed_right: int = 0
    parsed: int = 0
    known_right: int = 0
    known: int = 0
    clicks_right: int = 0
    clicks: int = 0
    controls_found: int = 0
    controls: int = 0
    icons_named: int = 0
    icons: int = 0
    missed_kinds: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    misses: list[str] = field(default_factory=list)  # what was missed or wrong, to read

    def add(self, other: Tally) -> None:
        for name, value in vars(other).items():
            setattr(self, name, getattr(self, name) + value)


@dataclass
class Result:
    """Everything measured on one screen."""

    screen: Labelled
    tallies: dict[str, Tally]
    cold: float
    warm: float | None
    crashed: bool = False  # the parse raised (an old engine): scored as an empty screen


# ---- loading ------------------------------------------------------------------------------


def load_screens(folder: Path, limit: int | None, real: bool = False) -> list[Labelled]:
    """The labelled screens in `folder`, generating them first when there are none (the real
    third-party ones of `real_screens.py` with `real`)."""
    if not any(folder.glob("*.json")):
        # The generators need Qt, Chromium, Xvfb and the programs, so only now.
        if real:
            from real_screens import generate
        else:
            from screens import generate

        print(f"generating screens into {folder} ...")
        generate(folder)
    screens = []
    for path in sorted(folder.glob("*.json"))[:limit]:
        meta = json.loads(path.read_text())
        edited = rgb(folder / meta["edited"]) if meta["edited"] else None
        screens.append(Labelled(meta, rgb(folder / f"{meta['name']}.png"), edited))
    return screens


def rgb(path: Path) -> np.ndarray:
    return np.asarray(Image.open(path).convert("RGB"))


# ---- scoring ------------------------------------------------------------------------------


def norm(text: str) -> str:
    """Lowercased, spaces collapsed, invisible marks dropped (GTK writes a time as
    "22\u200e∶27": a direction mark and a ratio sign drawn as a colon)."""
    seen = "".join(c for c in text.replace("∶", ":") if unicodedata.category(c) != "Cf")
    return " ".join(seen.lower().split())


def reads_as(parsed: Element, text: str, box: Box) -> bool:
    return (
        bool(parsed.text)
        and parsed.box.intersection(box) > 0
        and (fuzz.ratio(norm(parsed.text), norm(text)) >= MATCH or elided(parsed.text, text))
    )


def elided(shown: str, text: str) -> bool:
    """Whether `shown` is `text` drawn cut short in its middle ("ODS...eet" for "ODS
    spreadsheet", as Qt draws a long cell): the tree knows the whole text, the screen shows
    the rest."""
    head, dots, tail = norm(shown).replace("…", "...").partition("...")
    whole = norm(text)
    shown_whole = whole.startswith(head) and whole.endswith(tail)
    return bool(dots) and len(head) + len(tail) >= 3 and shown_whole


def part_of(parsed: Element, text: str, box: Box) -> bool:
    """A phrase of a longer true text, inside its box: a line or word of a document, which the
    tree gives as one text."""
    return (
        len(norm(parsed.text)) >= 3
        and len(text.split()) > len(parsed.text.split())
        and box.contains_point(*parsed.box.center)
        and fuzz.partial_ratio(norm(parsed.text), norm(text)) >= 90
    )


def score(screen: Labelled, elements: tuple[Element, ...]) -> Tally:
    """Text, control and icon counts of one parse against the screen's ground truth, and
    what it missed or got wrong."""
    texts = [(t["text"], Box(*t["box"])) for t in screen.meta["texts"]]
    controls = [(c["text"], Box(*c["box"])) for c in screen.meta["controls"]]
    tally = Tally(texts=len(texts))
    for text, box in texts:
        if any(reads_as(e, text, box) for e in elements):
            tally.texts_found += 1
        else:
            tally.misses.append(f"text missed {text!r} {tuple(box)}")
    with_text = [e for e in elements if e.text]
    tally.parsed = len(with_text)
    # What a parsed text may rightly read: a true text, or a true control's whole text (a
    # list row carrying its cells).
    readable = texts + [(t, b) for t, b in controls if t]
    for element in with_text:
        right = any(reads_as(element, t, b) or part_of(element, t, b) for t, b in readable)
        tally.parsed_right += right
        if any(b.intersection(element.box) >= 0.5 * element.box.area for _, b in readable):
            tally.known += 1
            tally.known_right += right
            if not right:
                tally.misses.append(f"text wrong {element.kind} {element.text!r} {element.box}")
    interactive = [e for e in elements if e.interactive]
    for element in interactive:
        tally.clicks += 1
        if any(element.box.iou(b) >= IOU or held_in(element.box, b) for _, b in controls):
            tally.clicks_right += 1
        else:
            tally.misses.append(f"click wrong {element.kind} {element.text!r} {element.box}")
    for control in screen.meta["controls"]:
        box = Box(*control["box"])
        tally.controls += 1
        tally.kinds[control["kind"]] += 1
        if any(e.box.iou(box) >= IOU for e in interactive):
            tally.controls_found += 1
        else:
            tally.missed_kinds[control["kind"]] += 1
            tally.misses.append(f"control missed {control['kind']} {control['text']!r} {box}")
        if control["name"]:
            tally.icons += 1
            best = max(elements, key=lambda e: e.box.iou(box), default=None)
            named = best is not None and best.box.iou(box) >= IOU
            tally.icons_named += named and best.name == control["name"]
    return tally


def held_in(inner: Box, outer: Box) -> bool:
    """Most of `inner` inside `outer`: a part of a control (a row's check box)."""
    return inner.area > 0 and outer.intersection(inner) >= 0.8 * inner.area


# ---- parsing ------------------------------------------------------------------------------


class Recording(OcrEngine):
    """The real engine, keeping its first (whole-frame) reading for the OCR-only parse."""

    def __init__(self, engine: OcrEngine) -> None:
        self.engine = engine
        self.first: list[TextBox] | None = None

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        texts = self.engine.read(pixels)
        if self.first is None:
            self.first = texts
        return texts


class Replay(OcrEngine):
    """Gives back a reading made before, so OCR runs once per screen for both parses."""

    def __init__(self, texts: list[TextBox]) -> None:
        self.texts = texts

    def read(self, pixels: np.ndarray) -> list[TextBox]:
        return list(self.texts)


def timed(call: Callable[[], object]) -> tuple[object, float]:
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def parsed(
    parser: ScreenParser, frame: Frame, nodes: list | None = None
) -> tuple[Element, ...] | None:
    """The elements of one parse, or None when the parser raised (an old engine may)."""
    try:
        return parser.parse(frame, nodes).elements if nodes else parser.parse(frame).elements
    except Exception as error:  # noqa: BLE001 - a crash is a result to count, not to stop at
        print(f"\n  parse raised {type(error).__name__}: {error}", file=sys.stderr)
        return None


def measure(screen: Labelled, engine: OcrEngine) -> Result:
    """Parse one screen fused (timed cold, then warm on the edited frame), OCR-only and
    widgets-only, and with its accessibility tree when it has one; score each parse (a parse
    that raised as an empty screen)."""
    recording = Recording(engine)
    fused = ScreenParser(ocr=recording, sources=FUSED)
    elements, cold = timed(lambda: parsed(fused, Frame(screen.pixels)))
    warm = None
    if screen.edited is not None and elements is not None:
        _, warm = timed(lambda: parsed(fused, Frame(screen.edited)))
    tallies = {"fused": score(screen, elements or ())}
    for name, sources in SOURCES.items():
        alone = ScreenParser(ocr=Replay(recording.first or []), sources=sources)
        tallies[name] = score(screen, parsed(alone, Frame(screen.pixels)) or ())
    nodes = [node_from_json(n) for n in screen.meta.get("nodes", [])]
    if nodes:
        with_tree = ScreenParser(ocr=Replay(recording.first or []), sources=WITH_TREE)
        tallies["tree"] = score(screen, parsed(with_tree, Frame(screen.pixels), nodes) or ())
    return Result(screen, tallies, cold, warm, crashed=elements is None)


def load_models(name: str | None) -> tuple[OcrEngine, float]:
    """The OCR engine (the parser's default without a name) with its models loaded, and the
    seconds that took."""
    start = time.perf_counter()
    engine = ocr_engine(name) if name else ocr_engine()
    sample = np.full((48, 240, 3), 255, np.uint8)
    sample[18:30, 20:220] = 0  # any ink, so both detection and recognition run once
    engine.read(sample)
    return engine, time.perf_counter() - start


# ---- reporting ----------------------------------------------------------------------------


def groups(result: Result) -> list[str]:
    """The table rows a screen counts in."""
    meta = result.screen.meta
    if meta["source"].startswith("real"):
        kind = "web (DOM truth)" if meta["source"] == "real-web" else "programs"
        split = meta.get("split", "dev")
        return [f"{split}: {kind}", f"{split}: all", "real all"]
    source = "Qt" if meta["source"] == "qt" else "web"
    width, height = meta["size"]
    return [
        source,
        f"{source} {meta['theme']}",
        f"{source} scale {meta['scale']:g}",
        f"{source} {width}x{height}",
        "all",
    ]


def total(results: list[Result], source: str) -> Tally:
    tally = Tally()
    for result in results:
        tally.add(result.tallies[source])
    return tally


def ratio(found: int, of: int) -> str:
    return f"{found / of:.3f}" if of else "-"


def median(values: list[float | None]) -> str:
    kept = [v for v in values if v is not None]
    return f"{statistics.median(kept):.2f}" if kept else "-"


def table(title: str, rows: dict[str, list[Result]]) -> None:
    """One markdown table: per row, each source's scores and the fused parse times."""
    print(f"\n{title}\n")
    print(
        "| screens | n | texts | text recall ocr / fused | text precision ocr / fused "
        "| controls | interactive recall widgets / fused | icons named widgets / fused "
        "| cold s | warm s |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, results in rows.items():
        ocr, widgets, fused = (total(results, s) for s in ("ocr", "widgets", "fused"))
        icons = (
            f"{ratio(widgets.icons_named, widgets.icons)} / {ratio(fused.icons_named, fused.icons)}"
            if fused.icons
            else "-"
        )
        print(
            f"| {name} | {len(results)} | {fused.texts} "
            f"| {ratio(ocr.texts_found, ocr.texts)} / {ratio(fused.texts_found, fused.texts)} "
            f"| {ratio(ocr.parsed_right, ocr.parsed)} / {ratio(fused.parsed_right, fused.parsed)} "
            f"| {fused.controls} | {ratio(widgets.controls_found, widgets.controls)} / "
            f"{ratio(fused.controls_found, fused.controls)} | {icons} "
            f"| {median([r.cold for r in results])} | {median([r.warm for r in results])} |"
        )


def by(results: list[Result], key: Callable[[Result], list[str]]) -> dict[str, list[Result]]:
    rows: dict[str, list[Result]] = {}
    for result in results:
        for name in key(result):
            rows.setdefault(name, []).append(result)
    return dict(sorted(rows.items(), key=lambda item: (item[0].endswith("all"), item[0])))


def missed_kinds(results: list[Result]) -> None:
    fused = total(results, "fused")
    print("fused interactive recall by true kind (found / total):")
    print(
        "  "
        + ", ".join(
            f"{kind} {count - fused.missed_kinds[kind]}/{count}"
            for kind, count in fused.kinds.most_common()
        )
    )


def end_to_end(screens: list[Labelled], ocr: str | None) -> float:
    """`clickwright parse --image` wall time, process start included: the median over the
    screens (a run that fails, an old engine's crash, is timed all the same)."""
    command = [sys.executable, "-m", "clickwright.app", "parse", "--image"]
    env = {**os.environ, "CLICKWRIGHT_OCR": ocr} if ocr else None
    times = []
    for screen in screens:
        path = REAL_SCREENS / f"{screen.name}.png"
        start = time.perf_counter()
        subprocess.run([*command, str(path)], capture_output=True, check=False, env=env)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def share(found: int, of: int) -> float:
    return found / of if of else float("nan")


def measured(results: list[Result], real: bool, e2e: float | None = None) -> dict[str, float]:
    """Every figure the goals speak of, for one group of screens; "tree ..." figures are over
    the screens that have an accessibility tree, beside "pixels ..." on the same screens."""
    fused = total(results, "fused")
    dense = [
        r.cold
        for r in results
        if (r.screen.meta["app"] in DENSE_REAL if real else r.screen.meta["app"] == "files")
        and r.screen.meta["size"] == [1280, 800]
        and r.screen.meta["scale"] == 1
    ]
    warm = [r.warm for r in results if r.warm is not None]
    figures = {
        "text recall": share(fused.texts_found, fused.texts),
        "text precision, knowable": share(fused.known_right, fused.known),
        "text precision, all parsed": share(fused.parsed_right, fused.parsed),
        "interactive recall": share(fused.controls_found, fused.controls),
        "interactive precision": share(fused.clicks_right, fused.clicks),
        "cold dense s": statistics.median(dense) if dense else float("nan"),
        "cold median s": statistics.median(r.cold for r in results),
        "warm s": statistics.median(warm) if warm else float("nan"),
        "parse --image s": e2e if e2e is not None else float("nan"),
        "screens": len(results),
        "crashed": sum(r.crashed for r in results),
    }
    having = [r for r in results if "tree" in r.tallies]
    for label, source in (("pixels", "fused"), ("tree", "tree")):
        tally = total(having, source) if having else Tally()
        figures[f"{label}: text recall"] = share(tally.texts_found, tally.texts)
        figures[f"{label}: text precision, knowable"] = share(tally.known_right, tally.known)
        figures[f"{label}: interactive recall"] = share(tally.controls_found, tally.controls)
        figures[f"{label}: interactive precision"] = share(tally.clicks_right, tally.clicks)
    figures["screens with a tree"] = len(having)
    return figures


def goal_of(name: str, real: bool) -> tuple[float, bool] | None:
    """The goal a figure is held to, if any, and whether higher is better."""
    goals = REAL_GOALS if real else GOALS
    base = name.split(": ")[-1]
    goal = goals.get(base, goals.get(base.split(",")[0]))
    if goal is None:
        return None
    return goal, "recall" in base or "precision" in base


def verdict(value: float, name: str, real: bool) -> str:
    found = goal_of(name, real)
    if value != value:  # NaN: nothing of that kind measured
        return "not measured"
    if found is None:
        return ""
    goal, higher = found
    met = value >= goal if higher else value <= goal
    return f"{'>=' if higher else '<='} {goal}: " + ("met" if met else f"gap {value - goal:+.3f}")


def goals(figures: dict[str, float], load: float, real: bool) -> None:
    """The issue's targets next to what was measured."""
    print(f"goals (OCR model load once per process: {load:.2f} s):")
    for name, value in figures.items():
        shown = f"{value:.3f}" if isinstance(value, float) else str(value)
        print(f"  {name:38} {shown:>7}  {verdict(value, name, real)}")


def misses(results: list[Result]) -> None:
    """What each dev screen missed or got wrong (held-out screens are never shown)."""
    for result in results:
        if result.screen.meta.get("split", "dev") != "dev":
            continue
        for source in ("fused", "tree"):
            if source in result.tallies:
                print(f"\n-- {result.screen.name} ({source})")
                for line in result.tallies[source].misses:
                    print(f"   {line}")


def report(
    results: list[Result], load: float, real: bool, ocr: str | None, show_misses: bool
) -> dict[str, dict[str, float]]:
    """Tables per category and per app (held-out screens only in totals), then, for the real
    screens, each split's misses by kind and its figures against the goals; the figures."""
    table("By category", by(results, groups))
    shown = [r for r in results if r.screen.meta.get("split") != "held-out"]
    table(
        "By app (held-out screens are counted only in totals)",
        by(shown, lambda r: [r.screen.meta["app"]]),
    )
    if show_misses:
        misses(results)
    if not real:
        print()
        missed_kinds(results)
        figures = measured(results, real)
        goals(figures, load, real)
        return {"all": figures}
    summary = {}
    for split in ("dev", "held-out"):
        part = [r for r in results if r.screen.meta.get("split", "dev") == split]
        if not part:
            continue
        print(f"\n== {split} ({len(part)} screens)")
        missed_kinds(part)
        summary[split] = measured(part, real, end_to_end([r.screen for r in part], ocr))
        goals(summary[split], load, real)
    return summary


# ---- an older engine beside ---------------------------------------------------------------

PACKAGES = ("app", "agent", "parsers", "devices", "assets")  # pyproject's package-dir


def exported(revision: str, folder: Path) -> Path:
    """The clickwright package as it was at `revision`, laid out to import from `folder`."""
    source = folder / "source"
    source.mkdir()
    archive = subprocess.run(
        ["git", "archive", revision], cwd=HERE.parent, capture_output=True, check=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive, check=True)
    package = folder / "package"
    (package / "clickwright").parent.mkdir()
    (package / "clickwright").symlink_to(source / "clickwright")
    for name in PACKAGES:
        if (source / name).is_dir() and not (source / "clickwright" / name).exists():
            (source / "clickwright" / name).symlink_to(source / name)
    return package


def beside(revision: str, arguments: list[str]) -> dict[str, dict[str, float]]:
    """This benchmark run on the parser of `revision` in a child process; its figures."""
    with tempfile.TemporaryDirectory(prefix="cw-engine-") as folder:
        package = exported(revision, Path(folder))
        out = Path(folder) / "figures.json"
        env = {**os.environ, "PYTHONPATH": str(package)}
        print(f"\n# the engine at {revision} (from {package}) ...", flush=True)
        subprocess.run(  # not run from the working tree, whose clickwright/ would come first
            [sys.executable, __file__, *arguments, "--json", str(out)],
            env=env,
            check=True,
            cwd=folder,
        )
        return json.loads(out.read_text())


def side_by_side(engines: dict[str, dict[str, dict[str, float]]], real: bool) -> None:
    """One table: each figure of each split, this engine beside the older ones."""
    new = engines["new"]
    splits = [s for s in new if all(s in figures for figures in engines.values())]
    print(f"\n# goals, this engine beside {', '.join(e for e in engines if e != 'new')}\n")
    heads = [f"{split} {engine}" for split in splits for engine in engines]
    print("| figure | goal | " + " | ".join(heads) + " |")
    print("|---|---|" + "---|" * len(heads))
    for name in new[splits[0]]:
        found = goal_of(name, real)
        goal = f"{'>=' if found[1] else '<='} {found[0]}" if found else ""
        cells = []
        for split in splits:
            for figures in engines.values():
                value = figures[split].get(name, float("nan"))
                cells.append(f"{value:.3f}" if isinstance(value, float) else str(value))
        print(f"| {name} | {goal} | " + " | ".join(cells) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--screens", type=Path, default=HERE / ".screens")
    parser.add_argument("--limit", type=int, help="only the first N screens (by name)")
    parser.add_argument(
        "--real", action="store_true", help="real third-party screens (real_screens.py)"
    )
    parser.add_argument(
        "--ocr",
        help="OCR engine, or several comma-separated, measured one after another in this run "
        "(default: the parser's default)",
    )
    parser.add_argument(
        "--split", choices=("dev", "held-out"), help="only the real screens of one split"
    )
    parser.add_argument(
        "--beside", metavar="REV[,REV]", help="also measure the parser at these git revisions"
    )
    parser.add_argument("--misses", action="store_true", help="list each dev screen's misses")
    parser.add_argument("--json", type=Path, help="write the figures of the last engine here")
    args = parser.parse_args()
    folder = REAL_SCREENS if args.real and args.screens == HERE / ".screens" else args.screens
    screens = load_screens(folder, args.limit, real=args.real)
    if args.split:
        screens = [s for s in screens if s.meta.get("split", "dev") == args.split]
    figures: dict[str, dict[str, float]] = {}
    for name in (args.ocr or "").split(",") if args.ocr else [None]:
        engine, load = load_models(name)
        title = getattr(engine, "name", type(engine).__name__)
        print(f"\n# OCR engine: {title}{f' ({name})' if name else ' (default)'}")
        results = []
        for index, screen in enumerate(screens, 1):
            results.append(measure(screen, engine))
            print(f"\r{index}/{len(screens)} {screen.name:50}", end="", flush=True)
        print(f"\r{len(screens)} screens measured{' ' * 50}")
        figures = report(results, load, args.real, name, args.misses)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=1))
    if args.beside:
        engines = {"new": figures}
        for revision in args.beside.split(","):
            engines[revision] = beside(revision, child_arguments(args))
        side_by_side(engines, args.real)


def child_arguments(args: argparse.Namespace) -> list[str]:
    """The arguments that choose what to measure, for the older engine's run."""
    chosen = ["--screens", str(args.screens)]
    chosen += ["--real"] if args.real else []
    for option in ("limit", "ocr", "split"):
        if getattr(args, option) is not None:
            chosen += [f"--{option}", str(getattr(args, option))]
    return chosen


if __name__ == "__main__":
    main()
