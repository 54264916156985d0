"""Screenshots of the control panel for docs/: a real window on Xvfb, the sample app in the
panel's sandbox, the demo task typed in with xdotool; one picture mid-run and one after it, at
1280×800 and 1920×1080, light and dark.

    .venv/bin/python scripts/panel_screenshots.py [--only 1280-light]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from clickwright.app.demo import DEMO_TASK  # noqa: E402
from clickwright.app.panel.sandbox import sample_app  # noqa: E402
from clickwright.devices.virtual_display import VirtualDisplay  # noqa: E402
from tests.panel_driver import PanelProcess  # noqa: E402

SIZES = {"1280": (1280, 800), "1920": (1920, 1080)}
THEMES = ("light", "dark")


def shoot(size: str, theme: str, out: Path) -> None:
    width, height = SIZES[size]
    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay(width, height) as display:
        runs = Path(tmp) / "runs"
        preset = sample_app(runs.resolve() / "sample-app-state.json")  # the listed sample app
        panel = PanelProcess(
            display, Path(tmp), "--device", "sandbox", "--launch", preset,
            "--theme", theme, "--size", f"{width}x{height}",
        )  # fmt: skip
        try:
            panel.wait_for(lambda s: "running in the sandbox" in s["message"], 60, "the app")
            panel.enter_task(DEMO_TASK)
            panel.wait_for(lambda s: len(s["steps"]) >= 4, 120, "four steps")
            panel.screenshot(out / f"panel-{size}-{theme}-run.png")
            panel.wait_for(lambda s: s["outcome"], 120, "the end of the run")
            time.sleep(1.5)  # the live view catches up with the last frame
            panel.screenshot(out / f"panel-{size}-{theme}-done.png")
        finally:
            panel.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="one of 1280-light, 1280-dark, 1920-light, 1920-dark")
    parser.add_argument("--out", type=Path, default=ROOT / "docs")
    args = parser.parse_args()
    for size in SIZES:
        for theme in THEMES:
            if args.only in (None, f"{size}-{theme}"):
                shoot(size, theme, args.out)
                print(f"panel-{size}-{theme}-run.png, panel-{size}-{theme}-done.png")


if __name__ == "__main__":
    main()
