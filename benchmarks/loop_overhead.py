"""The model loop's own time per step, model latency excluded: on the sample app on Xvfb, a model
that answers at once (over real HTTP on loopback, through the real openai SDK) types a new value
into one of three fields each step, so every step sees a new screen. Each step's timings come
from its run log:

- loop's own time = decide (prompt building, set-of-marks drawing, image scaling and encoding,
  answer parsing and validation, grounding) + parse (OCR, widgets, fusion of the new frame)
  + verify (the offline critic);
- shown apart: capture (waiting for the screen to settle after the action: it is what the app
  takes to repaint, not the loop), act (the input itself), model (the HTTP round trip).

    .venv/bin/python benchmarks/loop_overhead.py [--steps 50]
"""

from __future__ import annotations

import argparse
import itertools
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' loopback model server

from clickwright.agent.config import load_settings  # noqa: E402
from clickwright.agent.loop import run_task  # noqa: E402
from clickwright.agent.state import RunSettings  # noqa: E402
from clickwright.app.demo import sample_app_command  # noqa: E402
from clickwright.devices.factory import open_device, start_program  # noqa: E402
from clickwright.parsers.screen_parser import ScreenParser  # noqa: E402
from tests.model_server import ModelServer  # noqa: E402
from tests.scripted_model import Prompt, ScriptedModel, act  # noqa: E402

OWN = ("decide", "parse", "verify")
APART = ("capture", "act", "model")


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--steps", type=int, default=50)
    args = options.parse_args()
    fields = itertools.cycle(["Name", "Email", "Phone"])
    count = itertools.count()

    def type_value(prompt: Prompt) -> dict:
        field = prompt.id(next(fields), "input")
        return act(
            {"type": "type", "text": f"value {next(count)}", "target": {"id": field}, "clear": True}
        )

    model = ScriptedModel(plan=["Fill the fields"], actor=[], then=type_value)
    with (
        tempfile.TemporaryDirectory() as tmp,
        ModelServer([], model) as server,
        open_device("virtual") as device,
    ):
        start_program(device, sample_app_command(Path(tmp) / "state.json"))
        parser = ScreenParser()
        parser.parse(device.capture())  # load the OCR models outside the measurement
        config = Path(tmp) / "config.toml"
        config.write_text("")
        models = load_settings(
            {"backend": "openai", "base_url": server.url + "/v1", "model": "instant"},
            env={"CLICKWRIGHT_CONFIG": str(config)},
        )
        result = run_task(
            "Keep filling in the fields",
            device,
            Path(tmp) / "runs",
            RunSettings(max_steps=args.steps),
            parser=parser,
            models=models,
        )
        lines = (result.run_dir / "steps.jsonl").read_text().splitlines()
    steps = [json.loads(line)["durations"] for line in lines][1:]  # the first parse is cold
    own = [sum(d.get(phase, 0.0) for phase in OWN) for d in steps]
    print(f"{len(steps)} steps ({result.outcome}: {result.reason})")
    print(f"loop's own time per step, median: {statistics.median(own) * 1000:.0f} ms (goal 300)")
    for phase in OWN + APART:
        values = [d.get(phase, 0.0) for d in steps]
        print(f"  {phase:<8} median {statistics.median(values) * 1000:6.1f} ms")


if __name__ == "__main__":
    main()
