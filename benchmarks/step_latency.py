"""Where a step's time goes, on the sample app on Xvfb: capture, perception, decision, action.

Runs a 20-action task through the real loop and reads each step's timings from its run log
(median over the steps), then times the pieces in isolation: one raw capture, one OCR pass on a
changed and on an unchanged (cached) frame, widget detection. Prints figures and ratios.

    .venv/bin/python benchmarks/step_latency.py [--steps 20]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from clickwright.agent.loop import run_task
from clickwright.app.demo import sample_app_command
from clickwright.devices.factory import open_device, start_program
from clickwright.parsers.screen_parser import ScreenParser
from clickwright.parsers.widgets import detect_widgets

PHASES = ("capture", "parse", "decide", "act", "verify")


def median_ms(samples: list[float]) -> float:
    return statistics.median(samples) * 1000


def timed(function, repeat: int) -> list[float]:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--steps", type=int, default=20)
    args = options.parse_args()
    fields = ("Name", "Email", "Phone")
    # Every step types a new value, so every frame is new and the parse cache cannot help.
    task = ", ".join(f"type 'value {i}' into {fields[i % 3]}" for i in range(args.steps))
    with tempfile.TemporaryDirectory() as tmp, open_device("virtual") as device:
        start_program(device, sample_app_command(Path(tmp) / "state.json"))
        parser = ScreenParser()
        frame = device.capture()
        parser.parse(frame)  # load the OCR models outside the measurement
        result = run_task(task, device, Path(tmp) / "runs", parser=parser)
        steps = [
            json.loads(line) for line in (result.run_dir / "steps.jsonl").read_text().splitlines()
        ]

        capture = timed(device.capture, 50)
        fresh = ScreenParser(ocr=parser.ocr)
        ocr = timed(lambda: fresh.ocr.read(frame.pixels), 5)
        widgets = timed(lambda: detect_widgets(frame.pixels), 20)
        cached = timed(lambda: parser.parse(frame), 20)

    print(
        f"run: {result.outcome} ({result.reason}), {len(steps)} steps on a "
        f"{frame.size[0]}x{frame.size[1]} screen"
    )
    per_phase = {p: median_ms([s["durations"].get(p, 0.0) for s in steps]) for p in PHASES}
    total = sum(per_phase.values())
    print("\nmedian per step (ms), from the run log:")
    for phase in PHASES:
        print(f"  {phase:<8} {per_phase[phase]:8.1f}  {per_phase[phase] / total:6.1%}")
    print(f"  {'total':<8} {total:8.1f}")
    print(
        "  (capture = waiting for a stable screen, incl. the 250 ms quiet window;"
        " verify = the critic's check)"
    )
    print("\npieces in isolation (median ms):")
    print(f"  one raw capture (mss)        {median_ms(capture):8.1f}")
    print(f"  OCR, full frame              {median_ms(ocr):8.1f}")
    print(f"  widget detection             {median_ms(widgets):8.1f}")
    print(f"  parse of an unchanged frame  {median_ms(cached):8.1f}  (cache hit)")
    print(
        f"\nratios: OCR / capture = {median_ms(ocr) / median_ms(capture):.0f}x, "
        f"OCR / widgets = {median_ms(ocr) / median_ms(widgets):.0f}x, "
        f"parse share of a step = {per_phase['parse'] / total:.0%}"
    )


if __name__ == "__main__":
    main()
