"""MiniWoB++ through the model path, with a scripted stand-in for a model (no weights here).

The stand-in answers over real HTTP through the real openai SDK, as a model would: it reads the
task and the set-of-marks element list in each actor prompt, clicks the element whose text is
the first quoted phrase of the task (or types that phrase into the first input when the task
says to enter it), then says done. It is not smart, and is not meant to be: its figure proves
that planner prompt, actor prompt, screenshots, answer parsing, grounding by element id and the
critic run end to end on real pages, and gives a floor for a real model to beat.

    .venv/bin/python benchmarks/miniwob_stand_in.py [--episodes 1] [--tasks ...]
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # the tests' loopback model server

from tests.model_server import ModelServer  # noqa: E402
from tests.scripted_model import Prompt, ScriptedModel, act  # noqa: E402


def stand_in(prompt: Prompt) -> dict:
    if "Recent actions:\n(nothing done yet)" not in prompt.text:
        return act({"type": "done", "summary": "one action was all the stand-in knows"})
    task = re.search(r"^Task: (.*)$", prompt.text, re.M)
    quoted = re.findall(r'"([^"]+)"', task[1] if task else "")
    elements = prompt.elements()
    if quoted and re.search(r"\b(enter|type)\b", task[1], re.I):
        field = next((e for e in elements if e["kind"] == "input"), None)
        if field is not None:
            typed = {"type": "type", "text": quoted[0], "target": {"id": int(field["id"])}}
            return act(typed, "the task names the text to enter")
    wanted = (quoted[0] if quoted else "").lower()
    for element in elements:
        if wanted and (element["text"] or "").lower() == wanted:
            return act({"type": "click", "target": {"id": int(element["id"])}}, "it is named")
    return act({"type": "done", "summary": "nothing the stand-in can do"})


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--episodes", default="1")
    options.add_argument("--tasks", default="")
    options.add_argument("--out", default="bench")
    args = options.parse_args()
    model = ScriptedModel(plan=["Do what the task says"], actor=[], then=stand_in)
    with ModelServer([], model) as server:
        command = [
            str(Path(sys.executable).parent / "clickwright"),
            *("bench", "miniwob", "--episodes", args.episodes, "--out", args.out),
            *("--backend", "openai", "--base-url", server.url + "/v1", "--model", "stand-in"),
            *(["--tasks", args.tasks] if args.tasks else []),
        ]
        raise SystemExit(subprocess.call(command))


if __name__ == "__main__":
    main()
