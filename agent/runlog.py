"""The run log: run.json, steps.jsonl, frames and elements of every step, in runs/<id>/.

Written as the run goes (one line and its files per step, run.json at start and end), so a run
cut short by Ctrl+C or a crash still leaves everything up to its last step.
"""

from __future__ import annotations

import json
import os
import re
import time
from pathlib import Path
from typing import Any

import cv2

from clickwright.types import Frame, RunRecord, Screen, StepRecord

REDACTED = "[secret]"
SECRET_WORDS = ("password", "passwd", "passcode", "pin", "secret", "token", "api key", "cvv")


def _whole(secret: str) -> str:
    """A pattern for `secret` not inside a longer word (word edges only where it has them)."""
    start = r"(?<!\w)" if secret[:1].isalnum() else ""
    end = r"(?!\w)" if secret[-1:].isalnum() else ""
    return start + re.escape(secret) + end


def looks_secret(label: str) -> bool:
    """Whether a field's label says it holds a secret whose typed text must not be logged."""
    lowered = label.lower()
    return any(word in lowered for word in SECRET_WORDS)


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(2).hex()


class RunLog:
    """One run's folder. `record` is what `run.json` holds, rewritten after every step."""

    def __init__(
        self,
        runs_dir: Path,
        task: str,
        secrets: list[str] | tuple[str, ...] = (),
        **fields: Any,
    ) -> None:
        self.id = new_run_id()
        self._secrets = [s for s in secrets if s]
        self.dir = Path(runs_dir) / self.id
        (self.dir / "frames").mkdir(parents=True)
        (self.dir / "elements").mkdir()
        self.record = RunRecord(
            id=self.id,
            task=task,
            started=time.time(),
            durations={"capture": 0.0, "parse": 0.0, "decide": 0.0, "act": 0.0, "verify": 0.0},
            **fields,
        )
        self._write_info()

    @property
    def steps(self) -> int:
        return self.record.steps

    def save_frame(self, frame: Frame, name: str) -> str:
        path = f"frames/{name}.png"
        pixels = frame.pixels[:, :, ::-1]  # OpenCV writes BGR
        cv2.imwrite(str(self.dir / path), pixels, [cv2.IMWRITE_PNG_COMPRESSION, 1])
        return path

    def save_elements(self, screen: Screen, name: str) -> str:
        path = f"elements/{name}.json"
        (self.dir / path).write_text(json.dumps(screen.to_json()))
        return path

    def add_step(self, step: StepRecord) -> StepRecord:
        """Append a step (numbered from 1); returns it as written, secrets redacted."""
        run = self.record
        run.steps += 1
        for phase, seconds in step.durations.items():
            run.durations[phase] = round(run.durations.get(phase, 0.0) + seconds, 4)
        written = StepRecord.model_validate(self.redact({**step.to_json(), "index": run.steps}))
        with open(self.dir / "steps.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps(written.to_json(), ensure_ascii=False) + "\n")
        self._write_info()
        return written

    def add_secret(self, text: str) -> None:
        """A secret learned mid-run (a model typing into a password field): redacted from here
        on, in everything written after."""
        if text and text not in self._secrets:
            self._secrets.append(text)

    def add_call(self, record: dict[str, Any]) -> None:
        """One model call (role, prompt text, answer, tokens) in model_calls.jsonl."""
        with open(self.dir / "model_calls.jsonl", "a", encoding="utf-8") as out:
            out.write(json.dumps(self.redact(record), ensure_ascii=False) + "\n")

    def redact(self, value: Any) -> Any:
        """`value` with every secret in its strings replaced by a placeholder; keys, numbers
        and words that merely contain a short secret ("x" in "index") are left alone."""
        if isinstance(value, str):
            for secret in self._secrets:
                value = re.sub(_whole(secret), REDACTED, value)
            return value
        if isinstance(value, dict):
            return {key: self.redact(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact(item) for item in value]
        return value

    def finish(self, outcome: str, reason: str) -> None:
        self.record.outcome, self.record.reason, self.record.ended = outcome, reason, time.time()
        self._write_info()

    def _write_info(self) -> None:
        tmp = self.dir / "run.json.tmp"
        data = self.redact(self.record.model_dump(mode="json", exclude_none=True))
        tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False))
        os.replace(tmp, self.dir / "run.json")


def read_run(run_dir: Path) -> RunRecord | None:
    """`run.json`, or None when the run never wrote it whole."""
    try:
        return RunRecord.model_validate_json((Path(run_dir) / "run.json").read_bytes())
    except (OSError, ValueError):
        return None


def read_steps(run_dir: Path) -> list[StepRecord]:
    """The logged steps, read by the code that wrote them; a line cut short by an interrupted
    run, or one that is not a step, is skipped."""
    try:
        lines = (Path(run_dir) / "steps.jsonl").read_bytes().splitlines()
    except OSError:
        return []
    steps = []
    for line in lines:
        try:
            steps.append(StepRecord.model_validate_json(line))
        except ValueError:
            continue
    return steps
