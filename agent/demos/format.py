"""Demonstrations on disk: a folder with demo.json, steps.jsonl, frames and crops.

    <demos>/<name>/demo.json      schema version, name, description, platform, screen, parameters
    <demos>/<name>/steps.jsonl    one step a line: words, action (the Action JSON), target
                                  signature, frames, recorded effect
    <demos>/<name>/frames/*.png   the screen before each step (and after the last)
    <demos>/<name>/crops/*.png    the picture of each target

The loader checks everything a replay relies on and names the first problem as
`file:line: field: what is wrong`, so a damaged or hand-edited demo is fixed without guessing.
A demonstration may come from anyone, so nothing in it is trusted: bytes that are not UTF-8,
JSON nested too deep, numbers that are not finite, files too big or outside its folder are all
that one-line error, and a step's words are always what its action does (a `launch` step says
its exact command whatever words were stored with it).
Typed text is a parameter placeholder (`{name}`); secret parameters have no stored value at all.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

import cv2
import numpy as np
from PIL import Image
from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from clickwright.agent.demos.signature import Signature
from clickwright.agent.runlog import (
    LOCK,
    claim,
    is_file,
    owner_alive,
    writable_folder,
    write_atomic,
)
from clickwright.devices.factory import check_screen_size
from clickwright.errors import ActionError, ClickwrightError, DemoError, StorageError
from clickwright.types import Action, action_to_json

SCHEMA_VERSION = 1
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
POINTED = ("click", "double_click", "right_click", "long_press")
KEY_WORDS = {"ctrl": "Ctrl", "pageup": "PageUp", "pagedown": "PageDown", "capslock": "CapsLock"}
_FIX_HINT = "fix that line by hand, or record the demonstration again"


MAX_STEPS_BYTES = 32 * 1024 * 1024
"""The most a steps.jsonl may hold (a long recording is a few hundred kilobytes)."""
MAX_INFO_BYTES = 1024 * 1024


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, allow_inf_nan=False)


class Parameter(_Model):
    """Text a replay may change: `--param name=value`. A secret one is never stored."""

    default: str | None = None
    secret: bool = False

    @model_validator(mode="after")
    def _no_stored_secret(self) -> Parameter:
        if self.secret and self.default is not None:
            raise ValueError("a secret parameter cannot have a stored default")
        return self


class DemoInfo(_Model):
    schema_version: Literal[1]
    name: str = Field(pattern=NAME_PATTERN)
    description: str = Field(default="", max_length=2000)
    platform: str = Field(min_length=1)
    """The device kind and system it was recorded on, e.g. "desktop/linux"."""
    screen: tuple[Annotated[int, Field(gt=0)], Annotated[int, Field(gt=0)]]
    parameters: dict[Annotated[str, Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")], Parameter] = {}
    source: Literal["recorded", "run"] = "recorded"
    created: float = Field(default=0.0, ge=0)
    duration: float = Field(default=0.0, ge=0)
    """Seconds the person (or the agent) took: what a replay's time compares with."""


class Effect(_Model):
    """What the step visibly did when it was recorded: what a replay checks it did again."""

    appeared: tuple[str, ...] = ()
    gone: tuple[str, ...] = ()
    changed: bool = True


class DemoStep(_Model):
    words: str = Field(min_length=1)
    action: Action
    target: Signature | None = None
    to: Signature | None = None
    """Where a drag ended."""
    frame: str | None = None
    after: str | None = None
    time: float = Field(default=0.0, ge=0)
    """Seconds from the start of the recording."""
    effect: Effect = Effect()

    @model_validator(mode="after")
    def _findable(self) -> DemoStep:
        kind = self.action.type
        if kind in POINTED and self.target is None and self.action.target.id is not None:
            raise ValueError(f"a {kind} needs a target signature, or a target by text or point")
        if kind == "drag" and (self.target is None) != (self.to is None):
            raise ValueError("a drag needs signatures of both ends, or of neither")
        return self

    @model_validator(mode="after")
    def _truthful(self) -> DemoStep:
        """The words shown (by `demos show`, the panel, the report, an approval) are the
        action's own: stored words that say something else ("click 'Subscribe'" on a launch
        of a shell command) are replaced, never trusted."""
        object.__setattr__(self, "words", words_for(self.action))
        return self

    def placeholders(self) -> list[str]:
        text = getattr(self.action, "text", None)
        return PLACEHOLDER.findall(text) if isinstance(text, str) else []

    def to_json(self) -> dict[str, Any]:
        data = self.model_dump(mode="json", exclude_none=True)
        data["action"] = action_to_json(self.action)
        return data


@dataclass(frozen=True)
class Demo:
    dir: Path
    info: DemoInfo
    steps: tuple[DemoStep, ...]

    @property
    def name(self) -> str:
        return self.dir.name

    def image(self, relative: str | None) -> np.ndarray | None:
        """A frame or crop of this demo as RGB pixels (None when the step has none); one
        that is not an image, or bigger than a screen, is a DemoError."""
        if relative is None:
            return None
        path = self.dir / relative
        limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None  # the lower bound is ours
        try:
            with Image.open(path) as image:
                check_screen_size(*image.size, str(path))
                return np.ascontiguousarray(image.convert("RGB"))
        except (OSError, ValueError, ClickwrightError) as exc:
            raise DemoError(
                f"{path}: not a readable PNG ({exc})",
                "put the picture back, or record the demonstration again",
            ) from None
        finally:
            Image.MAX_IMAGE_PIXELS = limit

    def parameters(self, given: dict[str, str]) -> dict[str, str]:
        """Every parameter's value: given ones over stored defaults; a DemoError names any
        unknown or missing one."""
        declared = self.info.parameters
        unknown = sorted(set(given) - set(declared))
        if unknown:
            raise DemoError(
                f"demonstration '{self.name}' has no parameter {', '.join(unknown)}",
                "its parameters are: " + (", ".join(declared) or "none"),
            )
        values = {k: p.default for k, p in declared.items() if p.default is not None} | given
        missing = [k for k in declared if k not in values]
        if missing:
            raise DemoError(
                f"demonstration '{self.name}' needs "
                + ", ".join(f"--param {k}=…" for k in missing),
                "secret parameters are never stored, so every replay must give them",
            )
        return values

    def secrets(self, values: dict[str, str]) -> list[str]:
        return [values[k] for k, p in self.info.parameters.items() if p.secret and k in values]


def fill(text: str, values: dict[str, str]) -> str:
    """`text` with each `{name}` of a known parameter replaced by its value."""
    return PLACEHOLDER.sub(lambda m: values.get(m[1], m[0]), text)


# ---- words -------------------------------------------------------------------------------------


def words_for(action: Action, target: Signature | None = None, to: Signature | None = None) -> str:
    """The step as a person says it, and as the offline planner reads it ("click 'Save'",
    "type 'Ada' into 'Name'", "press Ctrl+S") so that a step can be repaired by the agent."""
    kind = action.type
    name = _name(target, action.source if kind == "drag" else getattr(action, "target", None))
    if kind in ("click", "double_click", "right_click", "long_press"):
        verb = {"click": "click", "double_click": "double-click", "right_click": "right-click"}
        return f"{verb.get(kind, 'long-press')} {name}"
    if kind == "type":
        line = f"type {_quote(action.text)}"
        if action.target is not None or target is not None:
            line += f" into {_name(target, action.target, field=True)}"
        return line + (", then press Enter" if action.enter else "")
    if kind == "hotkey":
        return "press " + "+".join(
            KEY_WORDS.get(k, k.upper() if len(k) == 1 else k.title()) for k in action.keys
        )
    if kind == "scroll":
        line = f"scroll {action.direction} {action.amount} times"
        return line + (f" in {name}" if action.target is not None or target is not None else "")
    if kind == "drag":
        return f"drag {name} to {_name(to, action.to)}"
    if kind == "swipe":
        return f"swipe {action.direction}" + (f" on {name}" if target is not None else "")
    if kind == "wait":
        until = action.until
        return (
            "wait until the screen is still"
            if until == "stable"
            else f"wait for {_name(None, until)} to appear"
        )
    if kind == "launch":
        return f"launch {_quote(action.app)}"
    return kind.replace("_", " ")


def _name(signature: Signature | None, target: Any, field: bool = False) -> str:
    """'Save', the 'Country' dropdown, the 'Name' field, or a point when nothing has a name."""
    words = signature.words if signature is not None else getattr(target, "text", None) or ""
    kind = signature.kind if signature is not None else getattr(target, "kind", None)
    if not words:
        point = getattr(target, "point", None)
        if point is None and signature is not None:
            x, y, w, h = signature.box
            sw, sh = signature.screen
            point = (round((x + w / 2) * sw), round((y + h / 2) * sh))
        return f"the point {tuple(point)}" if point is not None else "the focused element"
    if kind == "combo":
        return f"the {_quote(words)} dropdown"
    if kind == "icon":
        return f"the {_quote(words)} icon"
    if kind == "input" and not field:
        return f"the {_quote(words)} field"
    return _quote(words)


def _quote(text: str) -> str:
    """Quoted so a person sees exactly what it says: characters that could hide or rewrite
    what a terminal shows (newlines, carriage returns, escape codes) are spelt out."""
    if not text.isprintable():
        return json.dumps(text, ensure_ascii=False)
    return f'"{text}"' if "'" in text else f"'{text}'"


def parameter_name(label: str, taken: Iterable[str]) -> str:
    """A parameter name from a field's label ("E-mail address:" -> "e_mail_address")."""
    base = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")[:32] or "text"
    if base[0].isdigit():
        base = "field_" + base
    taken = set(taken)
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


# ---- the library folder --------------------------------------------------------------------------


def library_dir(override: Path | str | None = None) -> Path:
    """Where demonstrations live: `override`, else $CLICKWRIGHT_DEMOS, else the user's data
    folder (e.g. ~/.local/share/clickwright/demos)."""
    if override:
        return Path(override)
    if os.environ.get("CLICKWRIGHT_DEMOS"):
        return Path(os.environ["CLICKWRIGHT_DEMOS"])
    from platformdirs import user_data_dir

    return Path(user_data_dir("clickwright")) / "demos"


def demo_folder(name: str, root: Path) -> Path:
    """The folder of demonstration `name` (or a path to a demo folder), which must exist."""
    path = Path(name)
    if is_file(path / "demo.json"):
        return path
    folder = root / name
    if not is_file(folder / "demo.json"):
        known = [p.name for p in list_demos(root)]
        hint = f"known in {root}: {', '.join(known)}" if known else f"{root} holds none yet"
        raise DemoError(f"no demonstration named '{name}'", hint + " (clickwright demos list)")
    return folder


def list_demos(root: Path) -> list[Path]:
    """The demonstration folders in `root` (none when it cannot be read, or is no folder)."""
    try:
        return sorted(p.parent for p in root.glob("*/demo.json")) if root.is_dir() else []
    except OSError:
        return []


def remove_demo(name: str, root: Path) -> Path:
    """Remove demonstration `name` of the library in `root`: a name, never a path, so that
    nothing outside the library can be deleted."""
    if not re.match(NAME_PATTERN, name):
        raise DemoError(
            f"'{name}' is not the name of a demonstration",
            "give a name as `clickwright demos list` shows it; only the library's own can go",
        )
    folder = demo_folder(name, root)
    if folder.resolve().parent != root.resolve():
        raise DemoError(f"'{name}' is not in the library {root}", "only the library's own can go")
    try:
        shutil.rmtree(folder)
    except OSError as exc:
        raise StorageError(f"cannot remove {folder}: {exc.strerror or exc}") from None
    return folder


# ---- loading -----------------------------------------------------------------------------------


def load_demo(folder: Path) -> Demo:
    """The demonstration in `folder`, fully checked; DemoError names the first problem."""
    info_path, steps_path = folder / "demo.json", folder / "steps.jsonl"
    info_lines = _read_lines(info_path, MAX_INFO_BYTES)
    info = _validate(DemoInfo, _read_json(b"\n".join(info_lines), str(info_path)), str(info_path))
    steps = []
    for number, line in enumerate(_read_lines(steps_path, MAX_STEPS_BYTES), 1):
        if not line.strip():
            continue
        where = f"{steps_path}:{number}"
        step = _validate(DemoStep, _read_json(line, where), where)
        _check_step(step, folder, info, where)
        steps.append(step)
    if not steps:
        raise DemoError(f"{steps_path}: no steps", _FIX_HINT)
    return Demo(folder, info, tuple(steps))


def _read_lines(path: Path, limit: int) -> list[bytes]:
    """The file's lines as bytes, or a DemoError: missing, unreadable, or too big."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise DemoError(f"{path}: {size:,} bytes, more than a demonstration holds", _FIX_HINT)
        return path.read_bytes().splitlines()
    except FileNotFoundError:
        raise DemoError(
            f"{path}: missing", "a demonstration folder holds demo.json and steps.jsonl"
        ) from None
    except OSError as exc:
        raise DemoError(f"{path}: cannot be read: {exc.strerror or exc}") from None


def _read_json(data: bytes, where: str) -> Any:
    """One JSON document from a file: UTF-8 text, nested as deep as a demonstration is, with
    numbers that are numbers (no NaN or Infinity, which standard JSON does not have)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DemoError(
            f"{where}: not UTF-8 text (byte {data[exc.start : exc.start + 1]!r} at column "
            f"{exc.start + 1})",
            _FIX_HINT,
        ) from None
    try:
        return json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise DemoError(
            f"{where}: not valid JSON: {exc.msg} at column {exc.colno}", _FIX_HINT
        ) from None
    except RecursionError:
        raise DemoError(f"{where}: JSON nested too deeply", _FIX_HINT) from None
    except ValueError as exc:  # NaN or Infinity
        raise DemoError(f"{where}: {exc}", _FIX_HINT) from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number standard JSON has")


def _validate(model: type[_Model], data: Any, where: str) -> Any:
    try:
        return model.model_validate(data)
    except RecursionError:
        raise DemoError(f"{where}: nested too deeply", _FIX_HINT) from None
    except ValidationError as exc:
        error = exc.errors()[0]
        message = error["msg"].removeprefix("Value error, ")
        if error["type"] in ("union_tag_invalid", "union_tag_not_found"):
            tag = error.get("ctx", {}).get("tag")
            message = f"unknown action type {tag!r}" if tag else "an action needs a 'type'"
        elif error["type"] == "extra_forbidden":
            message = "unknown field"
        raise DemoError(f"{where}: {_field(error['loc'], data)}: {message}", _FIX_HINT) from None
    except ActionError as exc:  # a key name no keyboard has, from the Hotkey validator
        raise DemoError(f"{where}: action: {exc.args[0]}", _FIX_HINT) from None


def _field(loc: tuple[int | str, ...], data: Any) -> str:
    """pydantic's error location as a path into the JSON (`action.target.text`, `box[2]`),
    without the union member names it inserts (`action.click.target`)."""
    path, node = "", data
    for index, part in enumerate(loc):
        last = index == len(loc) - 1
        if isinstance(part, str) and isinstance(node, dict) and part not in node and not last:
            continue  # a union member's name, not a key of the JSON
        name = part if isinstance(part, int) or part.isprintable() else repr(part)
        path += f"[{name}]" if isinstance(part, int) else f".{name}"
        if isinstance(node, dict):
            node = node.get(part)
        elif isinstance(node, list) and isinstance(part, int) and part < len(node):
            node = node[part]
        else:
            node = None
    return path.lstrip(".") or "(the whole line)"


def _check_step(step: DemoStep, folder: Path, info: DemoInfo, where: str) -> None:
    """What one line cannot say about itself: its files exist, its parameters are declared."""
    files = {"frame": step.frame, "after": step.after}
    files |= {
        f"{side}.crop": sig.crop for side, sig in (("target", step.target), ("to", step.to)) if sig
    }
    for field, relative in files.items():
        if relative is None:
            continue
        path = (folder / relative).resolve()
        if not path.is_relative_to(folder.resolve()):
            raise DemoError(
                f"{where}: {field}: '{relative}' is outside the demonstration", _FIX_HINT
            )
        if not is_file(path):
            raise DemoError(f"{where}: {field}: file '{relative}' is missing", _FIX_HINT)
    for name in step.placeholders():
        if name not in info.parameters:
            raise DemoError(
                f"{where}: action.text: {{{name}}} is not a parameter of demo.json",
                f'declare it under "parameters" in demo.json, e.g. "{name}": {{"default": "…"}}',
            )


# ---- writing -----------------------------------------------------------------------------------


class DemoWriter:
    """Writes a demonstration into a hidden folder and moves it into place when complete, so
    an interrupted save never leaves half a demo in the library (and one a killed process left
    is cleared by the next save)."""

    def __init__(self, root: Path, name: str, replace: bool = False) -> None:
        if not re.match(NAME_PATTERN, name):
            raise DemoError(
                f"'{name}' cannot name a demonstration",
                "use letters, digits, '.', '_' and '-', starting with a letter or digit",
            )
        writable_folder(root, "demonstrations")
        self.folder = root / name
        if self.folder.exists() and not replace:
            raise DemoError(
                f"a demonstration named '{name}' exists already",
                f"choose another name, or remove it first: clickwright demos rm {name}",
            )
        for left in root.glob(f".*.partial/{LOCK}"):
            if not owner_alive(left):
                shutil.rmtree(left.parent, ignore_errors=True)
        self.partial = root / f".{name}.partial"
        shutil.rmtree(self.partial, ignore_errors=True)
        try:
            (self.partial / "frames").mkdir(parents=True)
            (self.partial / "crops").mkdir()
            claim(self.partial)
        except OSError as exc:
            raise StorageError(f"cannot write demonstrations in {root}: {exc.strerror}") from None

    def image(self, kind: Literal["frames", "crops"], name: str, pixels: np.ndarray) -> str:
        relative = f"{kind}/{name}.png"
        ok, png = cv2.imencode(".png", pixels[:, :, ::-1], [cv2.IMWRITE_PNG_COMPRESSION, 3])
        if not ok:
            raise DemoError(f"cannot encode {relative} as PNG")
        write_atomic(self.partial / relative, png.tobytes(), "the demonstration")
        return relative

    def finish(self, info: DemoInfo, steps: list[DemoStep]) -> Demo:
        text = json.dumps(info.model_dump(mode="json"), indent=2, ensure_ascii=False) + "\n"
        write_atomic(self.partial / "demo.json", text, "the demonstration")
        lines = "".join(json.dumps(step.to_json(), ensure_ascii=False) + "\n" for step in steps)
        write_atomic(self.partial / "steps.jsonl", lines, "the demonstration")
        load_demo(self.partial)  # what is written must load: a bug here, not in the user's file
        (self.partial / LOCK).unlink()
        if self.folder.exists():
            shutil.rmtree(self.folder)
        os.replace(self.partial, self.folder)
        return load_demo(self.folder)

    def abandon(self) -> None:
        shutil.rmtree(self.partial, ignore_errors=True)


def new_info(
    name: str, description: str, platform: str, screen: tuple[int, int], **fields: Any
) -> DemoInfo:
    return DemoInfo(
        schema_version=SCHEMA_VERSION,
        name=name,
        description=description,
        platform=platform,
        screen=screen,
        created=time.time(),
        **fields,
    )
