"""Replay of one recorded demonstration under changed conditions: success and speed.

Records the 9-step sample-app task once (xdotool drives real X input on Xvfb while the real
`clickwright record` listens; tests/sample_app_driver.py, shared with the replay tests), then
replays it N times per variation, each time against a freshly started sample app, and checks
success through the state the app saved: (a) unchanged, (b) the window moved and resized, (c) a
1600x1000 display with Qt scale 1.25, (d) other parameter values, (e) the app freezing 1.5 s on
Save and on Yes.
Prints per variation: success rate, median replay seconds, and the ratio to the recorded
duration (first to last recorded event), all measured in this one run.

    .venv/bin/python benchmarks/replay.py [--runs 5] [--only abcde]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from sample_app_driver import record_customer, start_sample_app  # noqa: E402

from clickwright.agent.demos.format import Demo, load_demo  # noqa: E402
from clickwright.agent.demos.replay import replay_demo  # noqa: E402
from clickwright.devices.base import wait_until_stable  # noqa: E402
from clickwright.devices.desktop import DesktopDevice  # noqa: E402
from clickwright.devices.virtual_display import VirtualDisplay  # noqa: E402
from clickwright.parsers.screen_parser import ScreenParser  # noqa: E402

RECORDED = {"name": "Ada Lovelace", "email": "ada@example.com"}
FILLED = {"country": "Canada", "plan": "Pro", "subscribe": True, "saved_via": "button"}


@dataclass(frozen=True)
class Variation:
    key: str
    title: str
    app_args: tuple[str, ...] = ()
    params: dict[str, str] = field(default_factory=dict)
    display: tuple[int, int] = (1280, 800)
    env: dict[str, str] = field(default_factory=dict)


VARIATIONS = (
    Variation("a", "unchanged"),
    Variation("b", "window moved and resized", ("--pos", "330,140", "--size", "920x600")),
    Variation(
        "c",
        "1600x1000 display, Qt scale 1.25",
        ("--pos", "250,120"),
        display=(1600, 1000),
        env={"QT_SCALE_FACTOR": "1.25"},
    ),
    Variation(
        "d",
        "other parameter values",
        params={"name": "Grace Hopper", "email": "grace@navy.mil"},
    ),
    Variation("e", "app freezes 1.5 s on Save and on Yes", ("--lag", "1.5")),
)


@dataclass(frozen=True)
class Outcome:
    ok: bool
    seconds: float
    problem: str = ""
    phases: dict[str, float] = field(default_factory=dict)
    """Seconds per phase, summed over the steps, from the replay's run log."""


@contextmanager
def screen(size: tuple[int, int]) -> Iterator[tuple[VirtualDisplay, DesktopDevice]]:
    with VirtualDisplay(*size) as display, DesktopDevice(display=display.name) as device:
        yield display, device


def replay_once(
    variation: Variation,
    number: int,
    display: VirtualDisplay,
    device: DesktopDevice,
    parser: ScreenParser,
    demo: Demo,
    tmp: Path,
) -> Outcome:
    """One replay against a fresh sample app; success only when the app saved what it should."""
    password = f"pw-{variation.key}{number}"
    params = {**variation.params, "password": password}
    wanted = {**RECORDED, **variation.params, "password": password, **FILLED}
    args = ("--password-field", *variation.app_args)
    app = start_sample_app(display, device, tmp, *args, env=variation.env)
    try:
        result = replay_demo(demo, device, tmp / "runs", params=params, parser=parser)
    finally:
        app.close()
        wait_until_stable(device, timeout=5)
    phases: dict[str, float] = {}
    for line in (result.run_dir / "steps.jsonl").read_text().splitlines():
        for phase, seconds in json.loads(line).get("durations", {}).items():
            phases[phase] = phases.get(phase, 0.0) + seconds
    if not result.ok:
        return Outcome(False, result.seconds, result.reason, phases)
    saved = app.state() if app.state_file.exists() else {}
    wrong = {k: saved.get(k) for k, v in wanted.items() if saved.get(k) != v}
    problem = f"the app saved {wrong}" if wrong else ""
    return Outcome(not wrong, result.seconds, problem, phases)


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--runs", type=int, default=5, help="replays per variation")
    options.add_argument("--only", default="abcde", help="variations to run, e.g. 'ae'")
    args = options.parse_args()
    chosen = [v for v in VARIATIONS if v.key in args.only]
    parser = ScreenParser()
    results: dict[str, list[Outcome]] = {}
    with tempfile.TemporaryDirectory() as tmp, screen((1280, 800)) as (display, device):
        parser.parse(device.capture())  # load the OCR models outside the measurement
        (Path(tmp) / "record").mkdir()
        recording = record_customer(display, device, parser, Path(tmp) / "record")
        if recording.code != 0:
            sys.exit(f"recording failed: {recording.err.strip()[-500:]}")
        demo = load_demo(recording.demos / "customer")
        print(
            f"recorded '{demo.name}': {len(demo.steps)} steps in {demo.info.duration:.1f} s "
            f"(first to last event; xdotool drove for {recording.took:.1f} s)",
            flush=True,
        )
        # pyautogui is bound to one X display per process: a device on another display takes
        # it over for good, so the variations on a display of their own go last
        for variation in sorted(chosen, key=lambda v: v.display != (1280, 800)):
            outcomes = results[variation.key] = []
            own = variation.display != (1280, 800)
            with screen(variation.display) if own else nullcontext((display, device)) as (vd, dev):
                for number in range(1, args.runs + 1):
                    run_tmp = Path(tmp) / f"{variation.key}{number}"
                    run_tmp.mkdir()
                    outcome = replay_once(variation, number, vd, dev, parser, demo, run_tmp)
                    outcomes.append(outcome)
                    verdict = "ok" if outcome.ok else f"FAILED: {outcome.problem}"
                    print(
                        f"  ({variation.key}) run {number}: {outcome.seconds:5.1f} s  {verdict}",
                        flush=True,
                    )
    report(chosen, results, demo.info.duration)


def seconds(outcomes: list[Outcome]) -> list[float]:
    """The successful replays' times (all of them when none succeeded)."""
    return [o.seconds for o in outcomes if o.ok] or [o.seconds for o in outcomes]


def report(chosen: list[Variation], results: dict[str, list[Outcome]], recorded: float) -> None:
    print(f"\nrecorded duration: {recorded:.1f} s")
    print(f"{'variation':<42} {'success':>9} {'median s':>9} {'min-max s':>11} {'/ recorded':>10}")
    for variation in chosen:
        outcomes = results[variation.key]
        ok = sum(o.ok for o in outcomes)
        times = seconds(outcomes)
        median = statistics.median(times)
        print(
            f"({variation.key}) {variation.title:<38} {ok:>3}/{len(outcomes):<2} "
            f"{ok / len(outcomes):4.0%} {median:9.1f} {min(times):5.1f}-{max(times):<5.1f} "
            f"{median / recorded:9.2f}x"
        )
    print("where a replay's time goes (medians, s): waiting for a still screen, parsing, acting")
    for variation in chosen:
        outcomes = results[variation.key]
        part = {
            p: statistics.median([o.phases.get(p, 0.0) for o in outcomes])
            for p in ("capture", "parse", "act")
        }
        rest = statistics.median(
            [o.seconds - sum(o.phases.get(p, 0.0) for p in part) for o in outcomes]
        )
        print(
            f"  ({variation.key}) settle {part['capture']:.1f}  parse {part['parse']:.1f}  "
            f"act {part['act']:.1f}  rest {rest:.1f} (finding, checking, logging)"
        )
    changed = [o for v in chosen if v.key != "a" for o in results[v.key]]
    if "a" in results:
        rate = sum(o.ok for o in results["a"]) / len(results["a"])
        print(f"goal: unchanged 100%: {rate:.0%} {'met' if rate == 1 else 'NOT met'}")
    if changed:
        rate = sum(o.ok for o in changed) / len(changed)
        print(f"goal: variations >= 95%: {rate:.1%} {'met' if rate >= 0.95 else 'NOT met'}")
    slower = [v.key for v in chosen if statistics.median(seconds(results[v.key])) >= recorded]
    print(
        "goal: faster than the person: "
        + (f"NOT met in ({', '.join(slower)})" if slower else "met in every variation")
    )


if __name__ == "__main__":
    main()
