"""Model calls per task: hybrid mode against the model-only loop, on the task corpus.

Both modes run the same corpus tasks (benchmarks/tasks.py, real programs on Xvfb, the command a
user types) with the same scripted stand-in model served over real HTTP on loopback
(benchmarks/miniwob_stand_in.py: it clicks or types the task's first quoted phrase, then says
done). No real model can run here, so the success figures say nothing about a real model; the
call counts show what hybrid mode saves: a step the offline planner can do costs no call.

    .venv/bin/python benchmarks/hybrid_calls.py [--split dev] [--program zenity] [--id ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import tasks  # noqa: E402
from benchmarks.miniwob_stand_in import stand_in  # noqa: E402
from tests.model_server import ModelServer  # noqa: E402
from tests.scripted_model import ScriptedModel  # noqa: E402

MODES = {"model only": "", "hybrid": "\n[run]\nhybrid = true\n"}


def calls_of(run_dir: str) -> int:
    try:
        usage = json.loads((Path(run_dir) / "run.json").read_text())["usage"]
    except (OSError, ValueError, KeyError, TypeError):
        return 0
    return int(usage.get("calls", 0))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", choices=("all", "dev", "heldout"), default="dev")
    parser.add_argument("--program", help="comma list of programs")
    parser.add_argument("--id", help="comma list of ids or patterns")
    parser.add_argument("--time-limit", type=float, default=150)
    args = parser.parse_args()
    figures: dict[str, dict[str, list]] = {}
    model = ScriptedModel(plan=["do the task"], actor=[], then=stand_in)
    with tempfile.TemporaryDirectory() as tmp, ModelServer([], model) as s:
        base = f'backend = "openai"\nmodel = "stand-in"\nbase_url = "{s.url}/v1"\n'
        for mode, extra in MODES.items():
            config = Path(tmp) / f"{mode.replace(' ', '-')}.toml"
            config.write_text(base + extra, encoding="utf-8")
            out = Path(tmp) / config.stem
            argv = ["--split", args.split, "--time-limit", str(args.time_limit)]
            argv += ["--config", str(config), "--out", str(out)]
            chosen = {"program": args.program, "id": args.id}
            argv += [f"--{name}={value}" for name, value in chosen.items() if value]
            tasks.main(argv)
            results = json.loads((out / "results.json").read_text())["results"]
            figures[mode] = {
                "calls": [calls_of(r["run_dir"]) for r in results],
                "success": [r["success"] for r in results],
            }
    print("\nmodel calls per task (stand-in model; success is the stand-in's, not a model's)")
    for mode, data in figures.items():
        calls, success = data["calls"], data["success"]
        free = sum(1 for c in calls if c == 0)
        mean, median = statistics.mean(calls), statistics.median(calls)
        print(
            f"  {mode:<11} mean {mean:5.2f}  median {median:4.1f}"
            f"  tasks with no call {free}/{len(calls)}  success {sum(success)}/{len(success)}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
