"""Real third-party screens with ground truth, for `parser.py --real` and `ocr_bakeoff.py --real`.

* GTK 3 dialogs (yad, zenity: a form with combo boxes and a spin box, the same form with a
  combo's popup open, a form with a calendar and a list, check and radio lists, the file
  chooser on a folder of files), GTK's own demos (tree and list rows with check boxes, rows
  holding buttons and links, spin buttons, sliders, a header bar's icon buttons), the
  mousepad editor and Qt's own file dialog, each on a
  private Xvfb with a private D-Bus: the ground truth is their AT-SPI tree (names, values,
  roles, boxes), read by `clickwright.devices.a11y.read_atspi`; the tree is kept beside the
  frame so the parser can be measured with it and without it.
* A Tk dialog (`tests/fixtures/tk_controls.py`; Tk has no accessibility tree), truth from Tk.
* Web pages at device scale 1 in a real Chromium window on the same Xvfb, started through
  `accessible_launch` (`--force-renderer-accessibility`) so its AT-SPI tree holds the page
  (kept like the programs' trees); the ground truth comes from the DOM as in `screens.py`
  (small native check boxes and radios, sidebar links in text colour, mail rows with 16 px
  icon buttons, a selectable table, a documentation page with a top navigation and a
  contents list in text colour, a task table with check boxes, row and header icon buttons,
  tabs and page links).

Every screen has a `split`: "dev" screens are the ones the parser was tuned on; "held-out"
ones (`HELD_OUT`, chosen before tuning, see `benchmarks/README.md`) were not looked at while
tuning, and are reported apart.

The device readers and the parser's drawn-node rule are imported where a screen is shot, not
at the top, so that `parser.py --beside` can load this module under an older engine's package.

Written to `benchmarks/.real_screens/` (git ignores dot folders there) on first use:

    .venv/bin/python benchmarks/real_screens.py [--out DIR] [--only NAME,...]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

import mss
import numpy as np
from PIL import Image

from clickwright.a11y import A11yNode
from clickwright.types import INTERACTIVE_KINDS, Box

if TYPE_CHECKING:
    from clickwright.devices.virtual_display import VirtualDisplay

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DEFAULT_OUT = HERE / ".real_screens"
SIZE = (1280, 800)
TEXT_KINDS = ("text", "button", "checkbox", "radio", "menuitem", "list_item", "tab", "link")
Json = dict

FORM = [
    "yad", "--form", "--title=Account", "--field=Name", "Ada", "--field=Email", "",
    "--field=Country:CB", "Canada!France!Peru", "--field=Plan:CB", "Free!Pro",
    "--field=Editable:CBE", "one!two", "--field=Subscribe:CHK", "TRUE", "--field=Age:NUM", "3",
    "--field=File:FL", "",
]  # fmt: skip
PROGRAMS: dict[str, list[str]] = {
    "gtk-form": FORM,
    "gtk-combo-open": FORM,  # the Country combo clicked open
    "gtk-forms-calendar": [
        "zenity", "--forms", "--title=Signup", "--text=New account", "--add-entry=Name",
        "--add-password=PIN", "--add-combo=Country", "--combo-values=Canada|France|Peru",
        "--add-calendar=Birthday", "--add-list=Plan", "--list-values=Free|Pro|Team",
    ],
    "gtk-checklist": [
        "zenity", "--list", "--checklist", "--title=Files", "--text=Pick files",
        "--width=420", "--height=300", "--column=Pick", "--column=Name", "--column=Size",
        "TRUE", "report.pdf", "120KB", "FALSE", "notes.txt", "3KB", "TRUE", "photo.jpg", "2MB",
        "FALSE", "budget.ods", "40KB", "FALSE", "slides.odp", "1MB",
    ],
    "gtk-radiolist": [
        "zenity", "--list", "--radiolist", "--title=Plan", "--text=Choose a plan",
        "--width=380", "--height=260", "--column=Use", "--column=Plan", "--column=Price",
        "FALSE", "Free", "0", "TRUE", "Pro", "10", "FALSE", "Team", "30",
    ],
    "gtk-file-chooser": [
        "zenity", "--file-selection", "--title=Open a report", "--filename={work}/",
    ],
    "gtk-editor": ["mousepad", "notes.txt"],
    "qt-file-dialog": [
        sys.executable, "-c",
        "from PySide6.QtWidgets import QApplication, QFileDialog\n"
        "app = QApplication([])\n"
        "d = QFileDialog(None, 'Open a report')\n"
        "d.setOption(QFileDialog.Option.DontUseNativeDialog)\n"
        "d.show()\n"
        "app.exec()\n",
    ],
    "tk-controls": [sys.executable, str(ROOT / "tests" / "fixtures" / "tk_controls.py")],
    # GTK's own demos, each over the demo list's window: tree and list rows with 16 px check
    # boxes, a selected row, rows holding buttons and links, spin buttons, sliders, a header
    # bar's icon-only buttons
    "gtk-demo-tree": ["gtk3-demo", "--run=tree_store"],
    "gtk-demo-list": ["gtk3-demo", "--run=list_store"],
    "gtk-demo-listbox": ["gtk3-demo", "--run=listbox"],
    "gtk-demo-spin": ["gtk3-demo", "--run=spinbutton"],
    "gtk-demo-scale": ["gtk3-demo", "--run=scale"],
    "gtk-demo-header": ["gtk3-demo", "--run=headerbar"],
    # added by the fourth pass: a column of check buttons beside a column of radio buttons
    "gtk-toggles": ["/usr/bin/python3", str(ROOT / "tests" / "fixtures" / "gtk_toggles.py")],
    # held-out: not looked at while tuning
    "held-gtk-list": [
        "zenity", "--list", "--title=Tasks", "--text=Pick a task", "--width=460",
        "--height=320", "--column=Task", "--column=Owner", "--column=Due",
        "Write report", "Ada", "Monday", "Review patch", "Linus", "Tuesday",
        "Plan sprint", "Grace", "Wednesday", "Fix printer", "Alan", "Thursday",
    ],
    "held-gtk-file-save": [
        "zenity", "--file-selection", "--save", "--title=Save the budget",
        "--filename={work}/budget-2.ods",
    ],
    "held-gtk-editor-menu": ["mousepad", "notes.txt"],  # its Edit menu clicked open
    "held-gtk-widget-factory": ["gtk3-widget-factory"],
    "held-gtk-calculator": ["galculator"],
    "held-qt-font-dialog": [
        sys.executable, "-c",
        "from PySide6.QtWidgets import QApplication, QFontDialog\n"
        "app = QApplication([])\n"
        "d = QFontDialog()\n"
        "d.setOption(QFontDialog.FontDialogOption.DontUseNativeDialog)\n"
        "d.show()\n"
        "app.exec()\n",
    ],
}  # fmt: skip
OPEN_MENU = {"gtk-combo-open": ("combo", ""), "held-gtk-editor-menu": ("menu", "Edit")}
REAL_PAGES = (
    "web-mail", "web-settings", "web-files", "web-docs", "web-tracker", "web-options",
    "held-web-shop", "held-web-admin",
)  # fmt: skip
HELD_OUT = frozenset(n for n in (*PROGRAMS, *REAL_PAGES) if n.startswith("held-"))  # README
FILES = {
    "notes.txt": "Shopping list\n- apples\n- flour\n\nCall Grace about the meeting on Friday.\n",
    "report.pdf": "",
    "budget.ods": "",
    "photo.jpg": "",
    "slides.odp": "",
}


@contextmanager
def session(display: VirtualDisplay) -> Iterator[dict[str, str]]:
    """A private session D-Bus on `display`, its AT-SPI bus started on demand."""
    from clickwright.devices.a11y import read_atspi

    runtime = tempfile.mkdtemp(prefix="cw-real-")
    env = {**os.environ, **display.env(), "XDG_RUNTIME_DIR": runtime, "GTK_THEME": "Adwaita"}
    daemon = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--print-address=1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert daemon.stdout is not None
    env["DBUS_SESSION_BUS_ADDRESS"] = daemon.stdout.readline().decode().strip()
    env.pop("AT_SPI_BUS_ADDRESS", None)
    saved = os.environ.get("DBUS_SESSION_BUS_ADDRESS")
    os.environ["DBUS_SESSION_BUS_ADDRESS"] = env["DBUS_SESSION_BUS_ADDRESS"]
    try:
        read_atspi(timeout=5.0)  # starts the AT-SPI bus before any program looks for it
        yield env
    finally:
        if saved is None:
            os.environ.pop("DBUS_SESSION_BUS_ADDRESS", None)
        else:
            os.environ["DBUS_SESSION_BUS_ADDRESS"] = saved
        daemon.terminate()
        daemon.wait(timeout=5)
        shutil.rmtree(runtime, ignore_errors=True)


def capture(display: VirtualDisplay) -> np.ndarray:
    with mss.MSS(display=display.name) as screen:
        shot = screen.grab(screen.monitors[0])
    return np.asarray(Image.frombytes("RGB", shot.size, shot.rgb))


def settled(display: VirtualDisplay, timeout: float = 15.0) -> np.ndarray:
    """The frame once two captures half a second apart are equal (and not blank)."""
    deadline = time.monotonic() + timeout
    before = capture(display)
    while time.monotonic() < deadline:
        time.sleep(0.5)
        now = capture(display)
        if np.array_equal(now, before) and now.any():
            return now
        before = now
    return before


def tree_truth(nodes: list[A11yNode]) -> Json:
    """Texts and controls from an AT-SPI tree, as far as they are drawn: a node is cut to the
    scroll panes it sits in (a table's columns scrolled out of sight are not drawn) and left
    out under a window shown over its own (an open popup); an icon button's name is no drawn
    text; the cells of one table row make one row, a column header that takes the focus is a
    button (clicked, it sorts by its column), and a node reached twice (a popup's menu, under
    its combo box and under its window) counts once."""
    from clickwright.parsers.fusion import drawn_nodes

    texts, controls, cells = [], [], []
    seen: set[tuple[str, Box, str]] = set()
    for node, box in drawn_nodes(nodes, SIZE):
        label = node.value if node.kind in ("input", "combo") else node.label
        key = (node.kind, box, label)
        if key in seen:
            continue
        seen.add(key)
        if label and (node.kind in TEXT_KINDS or node.kind in ("input", "combo")):
            if (
                "password" not in node.states
                and box.area >= VISIBLE * node.box.area
                and not (node.kind in ICON_KINDS and box.w <= ICON_SIDE and box.w <= 1.3 * box.h)
            ):
                texts.append({"text": label, "box": list(box)})
        if node.kind == "list_item":
            cells.append(replace(node, box=box))
        elif node.kind in INTERACTIVE_KINDS and (node.interactive or node.kind == "menuitem"):
            controls.append({"kind": node.kind, "box": list(box), "text": label, "name": ""})
        elif node.role in HEADERS and "focusable" in node.states:
            controls.append({"kind": "button", "box": list(box), "text": label, "name": ""})
    rows: list[list[A11yNode]] = []
    for cell in sorted(cells, key=lambda c: (c.box.y, c.box.x)):
        row = next(
            (r for r in rows if abs(r[0].box.y - cell.box.y) <= 2 and r[0].box.h == cell.box.h),
            None,
        )
        if row is None:
            rows.append([cell])
        else:
            row.append(cell)
    for row in rows:
        box = row[0].box
        for cell in row[1:]:
            box = box.union(cell.box)
        text = " ".join(c.label for c in row if c.label)
        controls.append({"kind": "list_item", "box": list(box), "text": text, "name": ""})
    return {"texts": texts, "controls": controls}


ICON_KINDS = ("button", "toggle", "icon")
HEADERS = ("table column header", "column header")  # focusable ones sort their column: buttons
ICON_SIDE = 40  # a button this narrow and no wider than tall shows a picture: its name is not drawn
VISIBLE = 0.6  # share of a text's box that must be drawn for it to count as a text on screen


def open_popup(display: VirtualDisplay, nodes: list[A11yNode], kind: str, name: str) -> None:
    """Click the topmost `kind` node (called `name`, when given) open."""
    target = min(
        (n for n in nodes if n.kind == kind and n.box.w > 0 and (not name or n.name == name)),
        key=lambda n: n.box.y,
    )
    x, y = target.box.center
    subprocess.run(
        ["xdotool", "mousemove", str(x), str(y), "click", "1"], env=display.env(), check=True
    )


def shoot_program(name: str, display: VirtualDisplay, env: dict[str, str], work: Path) -> Json:
    """Start one program, wait for its tree (or Tk's truth file), capture, close."""
    from clickwright.devices.a11y import read_atspi

    truth_file = work / "tk-truth.json"
    command = [part.replace("{work}", str(work)) for part in PROGRAMS[name]]
    command += ["--truth", str(truth_file)] if name == "tk-controls" else []
    child_env = {**env, "QT_LINUX_ACCESSIBILITY_ALWAYS_ON": "1", "QT_QPA_PLATFORM": "xcb"}
    program = subprocess.Popen(
        command, env=child_env, cwd=work, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 20
        nodes: list[A11yNode] = []
        while time.monotonic() < deadline:
            time.sleep(0.5)
            if name == "tk-controls":
                if truth_file.exists():
                    break
                continue
            nodes = list(read_atspi(timeout=3.0, display=display.name))
            if sum(n.interactive for n in nodes) >= 2:
                break
        pixels = settled(display)
        if name in OPEN_MENU:
            open_popup(display, nodes, *OPEN_MENU[name])
            time.sleep(1.0)
            pixels = settled(display)
            nodes = with_popup(nodes, list(read_atspi(timeout=3.0, display=display.name)))
        if name == "tk-controls":
            truth = json.loads(truth_file.read_text())
        else:
            truth = tree_truth(nodes)
        return {"pixels": pixels, "truth": truth, "nodes": nodes}
    finally:
        program.terminate()
        try:
            program.wait(timeout=5)
        except subprocess.TimeoutExpired:
            program.kill()
        time.sleep(0.5)


def with_popup(before: list[A11yNode], after: list[A11yNode]) -> list[A11yNode]:
    """The tree once a popup is open: each window as fully as either read gave it, the new
    ones (the popup) last, on top. A menu bar's menu is read inside its window, but while a
    combo box's popup holds the pointer GTK answers for the rest of its window only in part."""
    windows: dict[tuple[str, Box], list[A11yNode]] = {}
    for nodes in (before, after):
        read: dict[tuple[str, Box], list[A11yNode]] = {}
        for node in nodes:
            if node.depth == 0:
                current = read.setdefault((node.role, node.box), [])
            current.append(node)
        for key, window in read.items():
            if len(window) > len(windows.get(key, [])):
                windows[key] = window
    return [node for window in windows.values() for node in window]


def node_json(node: A11yNode) -> Json:
    return {
        "role": node.role,
        "kind": node.kind,
        "name": node.name,
        "box": list(node.box),
        "states": sorted(node.states),
        "interactive": node.interactive,
        "value": node.value,
        "depth": node.depth,
    }


def node_from_json(data: Json) -> A11yNode:
    return A11yNode(
        role=data["role"],
        kind=data["kind"],
        name=data["name"],
        box=Box(*data["box"]),
        states=frozenset(data["states"]),
        interactive=data["interactive"],
        value=data["value"],
        depth=data.get("depth", 0),
    )


CHROMIUM_WINDOW = (
    "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--hide-scrollbars",
    "--force-device-scale-factor=1", "--kiosk", "--window-position=0,0",
    f"--window-size={SIZE[0]},{SIZE[1]}",
)  # fmt: skip


def shoot_page(name: str, display: VirtualDisplay, env: dict[str, str], work: Path) -> Json:
    """One page in a real Chromium window (its AT-SPI tree holding the page), captured once
    the tree has stopped growing; the truth from the DOM (`screens.dom_truth`)."""
    from screens import dom_truth, page_html

    from clickwright.devices.a11y import accessible_launch, read_atspi

    page = work / f"{name}.html"
    page.write_text(page_html(name), encoding="utf-8")
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as profile:
        command, browser_env = accessible_launch(
            ["chromium", *CHROMIUM_WINDOW, f"--user-data-dir={profile}", page.as_uri()], env
        )
        browser = subprocess.Popen(
            command,
            env=browser_env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            pixels = settled(display)
            nodes: list[A11yNode] = []
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:  # Chromium builds the page's tree lazily
                now = list(read_atspi(timeout=5.0, display=display.name))
                if len(now) == len(nodes) and any(n.role == "document web" for n in now):
                    break
                nodes = now
                time.sleep(1.0)
            pixels = settled(display)
        finally:
            browser.terminate()
            try:
                browser.wait(timeout=10)
            except subprocess.TimeoutExpired:
                browser.kill()
    return {"pixels": pixels, "truth": dom_truth(name, 1.0, SIZE, work), "nodes": nodes}


def generate(out: Path, only: set[str] | None = None) -> int:
    """Write the real screens (those named in `only`, else all) to `out`; the number written."""
    from screens import save

    from clickwright.devices.virtual_display import VirtualDisplay

    out.mkdir(parents=True, exist_ok=True)
    count = 0
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for file, content in FILES.items():
            (work / file).write_text(content)
        with VirtualDisplay(*SIZE) as display, session(display) as env:
            for name in [*PROGRAMS, *REAL_PAGES]:
                if only and name not in only:
                    continue
                web = name in REAL_PAGES
                shoot = shoot_page if web else shoot_program
                shot = shoot(name, display, env, work)
                meta = {
                    "name": name,
                    "source": "real-web" if web else "real",
                    "app": name,
                    "theme": "light",
                    "scale": 1,
                    "split": "held-out" if name in HELD_OUT else "dev",
                    "nodes": [node_json(n) for n in shot["nodes"]],
                }
                save(out, meta, shot["pixels"], shot["truth"], None)
                count += 1
                print(f"  {name}: {len(shot['truth']['controls'])} controls", flush=True)
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--only", help="comma-separated screen names (default: all)")
    args = parser.parse_args()
    only = set(args.only.split(",")) if args.only else None
    print(f"{generate(args.out, only)} real screens written to {args.out}")


if __name__ == "__main__":
    main()
