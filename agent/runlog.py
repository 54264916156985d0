"""The run log: run.json, steps.jsonl, frames and elements of every step, in runs/<id>/.

Written as the run goes (one line and its files per step, run.json at start and end), so a run
cut short by Ctrl+C or a crash still leaves everything up to its last step. Every write either
lands whole or raises a one-line StorageError (a full disk, a read-only folder); a small reserve
file set aside at the start is given back on a full disk so that `finish` can still say how the
run ended. A run killed outright (SIGKILL) is closed by the next run in the same folder.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import socket
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from rapidfuzz import fuzz

from clickwright.errors import StorageError, TaskError
from clickwright.types import Frame, RunRecord, Screen, StepRecord

REDACTED = "[secret]"
SECRET_WORDS = ("password", "passwd", "passcode", "secret", "token")
"""Words on a field that holds a secret; a label within one typo of them counts too."""
SHORT_SECRET_WORDS = ("pin", "cvv", r"api[\W_]*key")
"""Secret words too short to match loosely: whole words only ("Shipping" is no PIN)."""
LIKENESS = 85.0
"""rapidfuzz ratio at which a label's word is one of SECRET_WORDS misspelt ("Pasword")."""
MAX_TASK = 20_000
"""Characters a task may have: a long batch of steps, not a document."""
RESERVE = 128 * 1024
"""Bytes set aside per run, given back on a full disk so the run can still be finished."""
LOCK, RESERVE_FILE = ".running", ".reserve"
KILLED = "the run was killed before it could finish (SIGKILL, a crash or a power cut)"


def _whole(secret: str) -> str:
    """A pattern for `secret` not inside a longer word (word edges only where it has them)."""
    start = r"(?<!\w)" if secret[:1].isalnum() else ""
    end = r"(?!\w)" if secret[-1:].isalnum() else ""
    return start + re.escape(secret) + end


def looks_secret(label: str) -> bool:
    """Whether a field's label says it holds a secret whose typed text must not be logged,
    also when the label is misspelt ("Pasword") or split ("Pass word")."""
    lowered = label.lower()
    squashed = re.sub(r"[\W_]+", "", lowered)
    if any(word in squashed for word in SECRET_WORDS):
        return True
    if any(re.search(rf"(?<![a-z]){w}(?![a-z])", lowered) for w in SHORT_SECRET_WORDS):
        return True
    words = [w for w in re.split(r"[\W_\d]+", lowered) if len(w) >= 5]
    return any(fuzz.ratio(w, s) >= LIKENESS for w in words for s in SECRET_WORDS)


def check_task(task: str) -> str:
    """`task` if a run can carry and log it; a TaskError for text that cannot be (too long, or
    bytes that are not UTF-8 text)."""
    if len(task) > MAX_TASK:
        raise TaskError(
            f"the task is {len(task):,} characters long; clickwright takes up to {MAX_TASK:,}",
            "say what to do in a few sentences",
        )
    check_text(task, "the task")
    return task


def check_text(text: str, what: str) -> None:
    """A TaskError when `text` holds bytes that are not UTF-8 (Python keeps them as lone
    surrogates), which no log, terminal or report can write."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as exc:
        bad = exc.object[exc.start : exc.end]
        with contextlib.suppress(UnicodeEncodeError):
            bad = bad.encode("utf-8", "surrogateescape")  # the bytes as they were given
        raise TaskError(
            f"{what} is not valid UTF-8 text ({bad!r} at character {exc.start + 1})",
            "check the terminal's or the script's encoding",
        ) from None


def new_run_id() -> str:
    return time.strftime("%Y%m%d-%H%M%S") + "-" + os.urandom(2).hex()


def writable_folder(path: Path | str, what: str) -> Path:
    """`path` as a folder clickwright can write `what` into (made if missing), or a one-line
    StorageError saying why not: checked before a run starts, not found out halfway."""
    path = Path(path)
    try:
        if path.exists() and not path.is_dir():
            raise StorageError(
                f"cannot write {what} in {path}: it is not a folder", "choose a folder"
            )
        path.mkdir(parents=True, exist_ok=True)
        probe = path / f".probe-{os.getpid()}-{os.urandom(2).hex()}"
        try:
            probe.write_bytes(b"x")
        finally:
            probe.unlink(missing_ok=True)
    except OSError as exc:
        raise _storage_error(exc, what, path) from None
    return path


def is_file(path: Path) -> bool:
    """Whether `path` is a file; a name the system refuses (too long) names none."""
    try:
        return path.is_file()
    except OSError:
        return False


def write_atomic(path: Path, data: bytes | str, what: str = "the run log") -> None:
    """Write `path` whole or not at all (through a temporary file), or raise StorageError;
    nothing half-written is left behind."""
    payload = data.encode("utf-8") if isinstance(data, str) else data
    tmp = path.with_name(path.name + ".tmp")
    try:
        with open(tmp, "wb") as out:
            out.write(payload)
        os.replace(tmp, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise _storage_error(exc, what, path.parent) from None


def _storage_error(exc: OSError, what: str, where: Path) -> StorageError:
    reason = exc.strerror or str(exc) or type(exc).__name__
    hint = (
        "free some space, or choose another folder"
        if exc.errno == 28
        else "choose a folder you can write to"
    )
    return StorageError(f"cannot write {what} in {where}: {reason}", hint)


class RunLog:
    """One run's folder. `record` is what `run.json` holds, rewritten after every step."""

    def __init__(
        self,
        runs_dir: Path,
        task: str,
        secrets: list[str] | tuple[str, ...] = (),
        **fields: Any,
    ) -> None:
        check_task(task)
        root = writable_folder(runs_dir, "run logs")
        close_killed_runs(root)
        self.id = new_run_id()
        self._secrets: list[str] = []
        self._pattern: re.Pattern[str] | None = None
        for secret in secrets:
            self._learn(secret)
        self.dir = root / self.id
        self._saved: dict[str, str] = {}
        """Content hash -> file already written: an unchanged screen is stored once."""
        self.record = RunRecord(
            id=self.id,
            task=task,
            started=time.time(),
            durations={"capture": 0.0, "parse": 0.0, "decide": 0.0, "act": 0.0, "verify": 0.0},
            **fields,
        )
        try:
            (self.dir / "frames").mkdir(parents=True)
            (self.dir / "elements").mkdir()
            claim(self.dir)
            (self.dir / RESERVE_FILE).write_bytes(bytes(RESERVE))
            self._write_info()
        except (OSError, StorageError) as exc:  # no room even to begin: leave no half folder
            shutil.rmtree(self.dir, ignore_errors=True)
            if isinstance(exc, StorageError):
                raise
            raise _storage_error(exc, "the run log", self.dir) from None

    @property
    def steps(self) -> int:
        return self.record.steps

    def save_frame(self, frame: Frame, name: str) -> str:
        pixels = np.ascontiguousarray(frame.pixels[:, :, ::-1])  # OpenCV writes BGR

        def png() -> bytes:
            ok, data = cv2.imencode(".png", pixels, [cv2.IMWRITE_PNG_COMPRESSION, 1])
            if not ok:
                raise StorageError(f"cannot encode the frame of step {name} as PNG")
            return data.tobytes()

        return self._save(f"frames/{name}.png", hashlib.blake2b(pixels, digest_size=16), png)

    def save_elements(self, screen: Screen, name: str) -> str:
        """The parsed elements, with every known secret masked (a field showing what was typed
        into it, an OCR line that reads it)."""
        text = json.dumps(self.redact(screen.to_json()), ensure_ascii=False).encode()
        digest = hashlib.blake2b(text, digest_size=16)
        return self._save(f"elements/{name}.json", digest, lambda: text)

    def _save(self, path: str, digest: Any, data: Callable[[], bytes]) -> str:
        """Write `path` unless the same content was written before in this run (an unchanged
        screen, the next step's "before" that is this step's "after"): then its file is named."""
        key = digest.hexdigest()
        if key not in self._saved:
            write_atomic(self.dir / path, data())
            self._saved[key] = path
        return self._saved[key]

    def add_step(self, step: StepRecord) -> StepRecord:
        """Append a step (numbered from 1); returns it as written, secrets redacted."""
        run = self.record
        written = StepRecord.model_validate(self.redact({**step.to_json(), "index": run.steps + 1}))
        self._append("steps.jsonl", written.to_json())
        run.steps += 1
        for phase, seconds in step.durations.items():
            run.durations[phase] = round(run.durations.get(phase, 0.0) + seconds, 4)
        self._write_info()
        return written

    def add_secret(self, text: str) -> None:
        """A secret learned mid-run (typed into a field labelled as secret): redacted from here
        on, and from what the run already wrote (an earlier step that showed it)."""
        if self._learn(text) and self.steps:
            self._scrub()

    def _learn(self, text: str) -> bool:
        """Whether `text` is a secret not known before (now known)."""
        if not text or text in self._secrets:
            return False
        self._secrets.append(text)
        ordered = sorted(self._secrets, key=len, reverse=True)  # "abc1" before "abc"
        self._pattern = re.compile("|".join(_whole(s) for s in ordered))
        return True

    def _scrub(self) -> None:
        """Rewrite the run's JSON files with every known secret masked."""
        files = [self.dir / "steps.jsonl", self.dir / "model_calls.jsonl"]
        for path in [*files, *(self.dir / "elements").glob("*.json")]:
            try:
                lines = path.read_text(encoding="utf-8").splitlines()
            except OSError:
                continue
            masked = []
            for line in lines:
                try:
                    masked.append(json.dumps(self.redact(json.loads(line)), ensure_ascii=False))
                except ValueError:  # a line cut short: masked as text
                    masked.append(self.redact(line))
            write_atomic(path, "".join(line + "\n" for line in masked))

    def add_call(self, record: dict[str, Any]) -> None:
        """One model call (role, prompt text, answer, tokens) in model_calls.jsonl."""
        self._append("model_calls.jsonl", self.redact(record))

    def _append(self, name: str, data: Any) -> None:
        """One JSON line; a line cut short by a full disk is left for the reader to skip."""
        line = json.dumps(data, ensure_ascii=False) + "\n"
        try:
            with open(self.dir / name, "a", encoding="utf-8") as out:
                out.write(line)
        except OSError as exc:
            raise _storage_error(exc, "the run log", self.dir) from None

    def redact(self, value: Any) -> Any:
        """`value` with every secret in its strings replaced by a placeholder; keys, numbers
        and words that merely contain a short secret ("x" in "index") are left alone."""
        if self._pattern is None:
            return value
        if isinstance(value, str):
            return self._pattern.sub(REDACTED, value)
        if isinstance(value, dict):
            return {key: self.redact(item) for key, item in value.items()}
        if isinstance(value, list | tuple):
            return [self.redact(item) for item in value]
        return value

    def finish(self, outcome: str, reason: str) -> None:
        """Say how the run ended. On a full disk the reserve is given back first, so this
        last write still lands and the run does not stay 'running'."""
        self.record.outcome, self.record.reason, self.record.ended = outcome, reason, time.time()
        try:
            self._write_info()
        except StorageError:
            (self.dir / RESERVE_FILE).unlink(missing_ok=True)
            self._write_info()
        for name in (RESERVE_FILE, LOCK):
            (self.dir / name).unlink(missing_ok=True)

    def _write_info(self) -> None:
        data = self.redact(self.record.model_dump(mode="json", exclude_none=True))
        write_atomic(self.dir / "run.json", json.dumps(data, indent=2, ensure_ascii=False))


def close_unfinished(run_dir: Path, outcome: str, reason: str) -> RunRecord | None:
    """A run folder whose run.json still says 'running' (the process was interrupted while it
    finished, or killed) closed with `outcome` and `reason`, and its leftovers removed; a run
    that finished is left as it is. Returns run.json as it now stands."""
    run = read_run(run_dir)
    if run is not None and run.outcome == "running":
        steps = read_steps(run_dir)
        run.outcome, run.reason, run.steps = outcome, reason, len(steps)
        run.ended = max([run.started, *(s.time for s in steps)])
        (run_dir / RESERVE_FILE).unlink(missing_ok=True)
        write_atomic(run_dir / "run.json", run.model_dump_json(indent=2, exclude_none=True))
    for leftover in (RESERVE_FILE, LOCK, "run.json.tmp", "report.html.tmp"):
        (run_dir / leftover).unlink(missing_ok=True)
    return run


def close_killed_runs(runs_dir: Path) -> list[Path]:
    """Close the runs in `runs_dir` whose process died without finishing them (SIGKILL): the
    lock file names a process of this machine that no longer exists."""
    closed = []
    for lock in runs_dir.glob(f"*/{LOCK}"):
        if owner_alive(lock):
            continue
        with contextlib.suppress(OSError, StorageError):
            close_unfinished(lock.parent, "error", KILLED)
            closed.append(lock.parent)
    return closed


def claim(folder: Path) -> None:
    """Mark `folder` as being written by this process (the mark goes when it is finished)."""
    (folder / LOCK).write_text(f"{os.getpid()} {socket.gethostname()}\n")


def owner_alive(lock: Path) -> bool:
    """Whether the process named in a lock file may still be running (unknown counts as yes:
    another machine's process, a platform where it cannot be told)."""
    try:
        pid_text, _, host = lock.read_text().strip().partition(" ")
        pid = int(pid_text)
    except (OSError, ValueError):
        return False
    if host != socket.gethostname() or os.name != "posix":
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


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
