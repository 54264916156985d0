"""Fuzz the screen parser: N generated frames (the test's hypothesis strategy: 1x1 to 640 px,
extreme aspect ratios, noise, solid colours, drawn shapes and text, crops of every real
screenshot in tests/fixtures/real) parsed in pairs, so the incremental path runs too, plus
every real screenshot whole. Prints how many frames raised or had a stage fail.

    nice -n 10 .venv/bin/python benchmarks/parser_fuzz.py --frames 10000
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from test_perception_robustness import REAL_SHOTS, frames, rgb  # noqa: E402

from clickwright.parsers.ocr import ocr_engine  # noqa: E402
from clickwright.parsers.screen_parser import ScreenParser  # noqa: E402
from clickwright.types import Frame  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--frames", type=int, default=10_000, help="generated frames to parse")
    parser.add_argument("--ocr", default=None, help="OCR engine (default: the parser's default)")
    args = parser.parse_args()
    engine = ocr_engine(args.ocr)
    raised: Counter[str] = Counter()
    degraded: Counter[str] = Counter()
    count = 0

    def parse(pixels) -> None:  # noqa: ANN001 - a numpy frame
        nonlocal count
        count += 1
        screen_parser = parse.parser  # type: ignore[attr-defined]
        try:
            screen_parser.parse(Frame(pixels))
        except Exception:  # noqa: BLE001 - counted, the run goes on
            raised[traceback.format_exc().strip().splitlines()[-1]] += 1
            return
        for failure in screen_parser.last.failed:
            degraded[failure.split(":")[0]] += 1

    @settings(
        max_examples=(args.frames + 1) // 2,
        deadline=None,
        database=None,
        suppress_health_check=list(HealthCheck),
    )
    @given(first=frames(), second=frames())
    def pair(first, second) -> None:  # noqa: ANN001
        parse.parser = ScreenParser(ocr=engine)  # type: ignore[attr-defined]
        parse(first)
        parse(second)

    start = time.perf_counter()
    pair()
    for path in REAL_SHOTS:
        parse.parser = ScreenParser(ocr=engine)  # type: ignore[attr-defined]
        parse(rgb(path))
    took = time.perf_counter() - start
    print(f"OCR engine: {engine.name}")
    print(f"frames parsed: {count} ({len(REAL_SHOTS)} real screenshots whole) in {took:.0f} s")
    print(f"exceptions: {sum(raised.values())}")
    for line, times in raised.most_common():
        print(f"  {times} x {line}")
    print(f"frames with a failed stage: {sum(degraded.values())} {dict(degraded)}")


if __name__ == "__main__":
    main()
