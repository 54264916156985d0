"""Real third-party screens with ground truth, for `parser.py --real` and `ocr_bakeoff.py --real`.

* GTK 3 dialogs (yad, zenity: a form with combo boxes and a spin box, the same form with a
  combo's popup open, a form with a calendar and a list, check and radio lists, the file
  chooser), the mousepad editor and Qt's own file dialog, each on a private Xvfb with a private
  D-Bus: the ground truth is their AT-SPI tree (names, values, roles, boxes), read by
  `clickwright.devices.a11y.read_atspi`; the tree is kept beside the frame so the parser can
  be measured with it and without it.
* A Tk dialog (`tests/fixtures/tk_controls.py`; Tk has no accessibility tree), truth from Tk.
* Web pages at device scale 1 in Chromium (small native check boxes and radios, sidebar links in
  text colour, mail rows with 16 px icon buttons, a selectable table), truth from the DOM as in
  `screens.py`.

Written to `benchmarks/.real_screens/` (git ignores dot folders there) on first use:

    .venv/bin/python benchmarks/real_screens.py [--out DIR]
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
from pathlib import Path

import mss
import numpy as np
from PIL import Image

from clickwright.a11y import A11yNode
from clickwright.devices.a11y import read_atspi
from clickwright.devices.virtual_display import VirtualDisplay
from clickwright.types import INTERACTIVE_KINDS, Box

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
    "gtk-file-chooser": ["zenity", "--file-selection", "--title=Open a report"],
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
}  # fmt: skip
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
    """Texts and controls from an AT-SPI tree; the cells of one table row make one row."""
    texts, controls, cells = [], [], []
    width, height = SIZE
    for node in nodes:
        box = node.box
        if not node.visible or box.x < 0 or box.y < 0 or box.right > width or box.bottom > height:
            continue
        label = node.value if node.kind in ("input", "combo") else node.label
        if label and (node.kind in TEXT_KINDS or node.kind in ("input", "combo")):
            if "password" not in node.states:
                texts.append({"text": label, "box": list(box)})
        if node.kind == "list_item":
            cells.append(node)
        elif node.kind in INTERACTIVE_KINDS and (node.interactive or node.kind == "menuitem"):
            controls.append({"kind": node.kind, "box": list(box), "text": label, "name": ""})
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


def open_combo(display: VirtualDisplay, nodes: list[A11yNode]) -> None:
    combo = min((n for n in nodes if n.kind == "combo" and n.box.w > 0), key=lambda n: n.box.y)
    x, y = combo.box.center
    subprocess.run(
        ["xdotool", "mousemove", str(x), str(y), "click", "1"], env=display.env(), check=True
    )


def shoot_program(name: str, display: VirtualDisplay, env: dict[str, str], work: Path) -> Json:
    """Start one program, wait for its tree (or Tk's truth file), capture, close."""
    truth_file = work / "tk-truth.json"
    command = PROGRAMS[name] + (["--truth", str(truth_file)] if name == "tk-controls" else [])
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
        if name == "gtk-combo-open":
            open_combo(display, nodes)
            time.sleep(1.0)
            pixels = settled(display)
            nodes = list(read_atspi(timeout=3.0, display=display.name))
        if name == "tk-controls":
            truth = json.loads(truth_file.read_text())
        else:
            truth = tree_truth(nodes)
        return {
            "pixels": pixels,
            "truth": truth,
            "nodes": [node_json(n) for n in nodes],
        }
    finally:
        program.terminate()
        try:
            program.wait(timeout=5)
        except subprocess.TimeoutExpired:
            program.kill()
        time.sleep(0.5)


def node_json(node: A11yNode) -> Json:
    return {
        "role": node.role,
        "kind": node.kind,
        "name": node.name,
        "box": list(node.box),
        "states": sorted(node.states),
        "interactive": node.interactive,
        "value": node.value,
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
    )


REAL_PAGES = ("web-mail", "web-settings", "web-files")


def generate(out: Path) -> int:
    """Write every real screen to `out`; the number written."""
    from screens import render_web, save

    out.mkdir(parents=True, exist_ok=True)
    count = 0
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        for file, content in FILES.items():
            (work / file).write_text(content)
        with VirtualDisplay(*SIZE) as display, session(display) as env:
            for name in PROGRAMS:
                shot = shoot_program(name, display, env, work)
                meta = {"name": name, "source": "real", "app": name, "theme": "light", "scale": 1}
                save(out, {**meta, "nodes": shot["nodes"]}, shot["pixels"], shot["truth"], None)
                count += 1
                print(f"  {name}: {len(shot['truth']['controls'])} controls", flush=True)
        for page in REAL_PAGES:
            pixels, truth = render_web(page, 1.0, SIZE, work)
            meta = {"name": page, "source": "real-web", "app": page, "theme": "light", "scale": 1}
            save(out, {**meta, "nodes": []}, pixels, truth, None)
            count += 1
    return count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    print(f"{generate(args.out)} real screens written to {args.out}")


if __name__ == "__main__":
    main()
