"""Turn a run folder into one self-contained `report.html` that a person can open or mail.

The report is for debugging a run: for every step it shows what the agent saw (the frame with the
parsed elements, the chosen target and the acted-on point drawn over it), what it did and why, and
whether the critic believed it worked. Styles and downscaled screenshots are inlined, so the one
file travels without its folder. It renders whatever a run left behind: an interrupted run's
truncated last log line is skipped and missing or unreadable frames become placeholders.
"""

from __future__ import annotations

import base64
import html
import io
import json
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, get_args

from PIL import Image

from clickwright.agent.events import Observers, Outcome, RunObserver, RunResult
from clickwright.agent.runlog import close_unfinished, read_steps, write_atomic
from clickwright.errors import ClickwrightError
from clickwright.types import OUTCOME_TONE, STATUS_TONE, RunRecord, StepRecord

OUTCOMES = get_args(Outcome)

MAX_IMAGE_WIDTH = 1280
JPEG_QUALITY = 80
THUMBNAIL_WIDTH = 320
FULL_STEPS = 60
"""Steps at the start of a run shown with full-size frames (so are the last FULL_STEPS // 6
and every step that did not succeed); the others get thumbnails, so that a run of a thousand
steps makes a report that opens and is written in seconds, not minutes."""
PHASES = ("capture", "parse", "decide", "act", "verify")
SOURCE_COLOURS = {"ocr": "#2563eb", "widgets": "#ea580c", "a11y": "#16a34a", "merged": "#9333ea"}
TONE_COLOURS = {"good": "green", "warn": "amber", "bad": "red", "info": "blue"}
DEFAULT_FRAME_SIZE = (1280, 800)


def write_report(run_dir: Path, hurry: Callable[[], bool] = lambda: False) -> Path:
    """Write `run_dir/report.html` from the run's logs and return its path. Once `hurry()`
    says so (a person pressed Ctrl+C again), frames are no longer inlined: the report is
    finished fast, and whole."""
    run_dir = Path(run_dir)
    if not run_dir.is_dir():
        raise ClickwrightError(
            f"no run folder at {run_dir}",
            "pass a folder under runs/, e.g. runs/20261122-081500-ab12",
        )
    run = _read_json(run_dir / "run.json")
    page = _Page(run_dir, run if isinstance(run, dict) else {}, hurry).render(read_steps(run_dir))
    path = run_dir / "report.html"
    write_atomic(path, page, "the report")  # a reader never sees half a report
    return path


class RunFolder(RunObserver):
    """Remembers the folder a run writes to, so that a run cut short can still be closed."""

    def __init__(self) -> None:
        self.run_dir: Path | None = None

    def started(self, run_dir: Path, run: RunRecord) -> None:
        self.run_dir = run_dir


def run_and_report(
    start: Callable[[RunObserver], RunResult], observer: RunObserver | None = None
) -> tuple[RunResult, Path | None, str]:
    """`start(observer)` carried out, and whatever ends it (its own end, Ctrl+C or a stop
    signal, a display or a disk that fails) the run log says how it ended and the report is
    written; a signal while it is written makes it hurry, never stops it. Returns the result,
    and the report's path or why there is none."""
    from clickwright.app.stop_hotkey import finishing, hurry

    folder = RunFolder()
    try:
        result = start(Observers([observer, folder]))
    except (KeyboardInterrupt, ClickwrightError) as exc:
        with finishing():
            result = _closed(folder.run_dir, exc)
    with finishing():
        try:
            return result, write_report(result.run_dir, hurry), ""
        except ClickwrightError as exc:
            return result, None, str(exc)


def _closed(run_dir: Path | None, exc: BaseException) -> RunResult:
    """The run in `run_dir` as `exc` left it: closed with that reason if it was still
    running; `exc` itself when no run had started."""
    interrupted = isinstance(exc, KeyboardInterrupt)
    outcome, reason = ("stopped", "stopped by the user") if interrupted else ("error", str(exc))
    run = close_unfinished(run_dir, outcome, reason) if run_dir is not None else None
    if run_dir is None or run is None:
        raise exc
    seconds = round((run.ended or run.started) - run.started, 3)
    outcome = run.outcome if run.outcome in OUTCOMES else "error"
    return RunResult(outcome, run.reason, run_dir, run.steps, run.usage, seconds=seconds)


def _describe_element(element: dict[str, Any]) -> str:
    label = element.get("text") or element.get("name") or "(no text)"
    state = element.get("state")
    state = f" [{', '.join(map(str, state))}]" if state else ""
    return f"{element.get('kind', 'element')} '{label}'{state} #{element.get('id', '?')}"


# ---- reading the run folder ------------------------------------------------------------------


def _read_json(path: Path) -> Any:
    """The file's JSON, or None when the run never wrote it, was cut off while writing it, or
    something else wrote it (not UTF-8, nested too deep)."""
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None


def _encode_image(path: Path, width: int = MAX_IMAGE_WIDTH) -> tuple[str, tuple[int, int]] | None:
    """A data URI of the frame downscaled to `width`, as JPEG or PNG, whichever is smaller,
    and the frame's original size (the coordinate space of its elements); None if unreadable."""
    try:
        with Image.open(path) as image:
            image.load()
            size = image.size
            rgb = image.convert("RGB")
    except (OSError, ValueError, Image.DecompressionBombError):
        return None
    if rgb.width > width:
        height = max(1, round(rgb.height * width / rgb.width))
        if width < MAX_IMAGE_WIDTH:
            rgb = rgb.reduce(max(1, rgb.width // (2 * width)))  # fast, before a fine resize
        rgb = rgb.resize((width, height), Image.Resampling.LANCZOS)
    encodings = []
    for fmt, mime, options in (
        ("JPEG", "image/jpeg", {"quality": JPEG_QUALITY}),
        ("PNG", "image/png", {"optimize": width >= MAX_IMAGE_WIDTH}),
    ):
        buffer = io.BytesIO()
        rgb.save(buffer, fmt, **options)
        encodings.append((buffer.getvalue(), mime))
    data, mime = min(encodings, key=lambda encoding: len(encoding[0]))
    return f"data:{mime};base64,{base64.b64encode(data).decode('ascii')}", size


# ---- small formatting helpers ----------------------------------------------------------------


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _float(value: Any) -> float | None:
    return float(value) if isinstance(value, int | float) and not isinstance(value, bool) else None


def _number(value: Any) -> str:
    number = _float(value)
    return f"{number:g}" if number is not None else str(value)


def _seconds(value: float) -> str:
    if value < 1:
        return f"{value * 1000:.0f} ms"
    if value < 60:
        return f"{value:.2f} s"
    minutes, seconds = divmod(value, 60)
    return f"{minutes:.0f} min {seconds:02.0f} s"


def _badge(label: str, colour: str) -> str:
    return f'<span class="badge {colour}">{_e(label)}</span>'


def _box(value: Any) -> tuple[float, float, float, float] | None:
    if isinstance(value, list | tuple) and len(value) == 4:
        numbers = [_float(v) for v in value]
        if all(n is not None for n in numbers):
            return tuple(numbers)  # type: ignore[return-value]
    return None


def _point(value: Any) -> tuple[float, float] | None:
    if isinstance(value, list | tuple) and len(value) == 2:
        x, y = (_float(v) for v in value)
        if x is not None and y is not None:
            return x, y
    return None


def _durations(value: Any) -> dict[str, float]:
    if not isinstance(value, dict):
        return {}
    return {str(k): s for k, v in value.items() if (s := _float(v)) is not None}


# ---- the page --------------------------------------------------------------------------------


class _Page:
    """Builds the HTML for one run; holds the run folder and encoded frames shared by steps."""

    def __init__(
        self, run_dir: Path, run: dict[str, Any], hurry: Callable[[], bool] = lambda: False
    ) -> None:
        self.run_dir = run_dir
        self.run = run
        self.hurry = hurry
        self.images: dict[tuple[str, int], tuple[str, tuple[int, int]] | None] = {}
        self.width = MAX_IMAGE_WIDTH
        """How wide the frames of the step being drawn are inlined."""
        device = run.get("device") if isinstance(run.get("device"), dict) else {}
        size = device.get("size")
        self.fallback_size = (
            (int(size[0]), int(size[1])) if _point(size) and min(size) > 0 else DEFAULT_FRAME_SIZE
        )

    def render(self, steps: list[StepRecord]) -> str:
        task = self.run.get("task") or "(no task recorded)"
        cards = "".join(self.step(step, self.full(n, step, len(steps))) for n, step in
                        enumerate(steps)) or (
            '<section class="card empty">No steps were logged for this run.</section>'
        )  # fmt: skip
        return (
            '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>clickwright · {_e(task)}</title><style>{CSS}</style></head><body><main>"
            f"{self.header(task, steps)}{self.legend()}{cards}"
            f"<footer>Report written by clickwright on {_e(time.strftime('%Y-%m-%d %H:%M:%S'))}"
            "</footer></main></body></html>\n"
        )

    # -- header --

    def header(self, task: str, steps: list[StepRecord]) -> str:
        run = self.run
        outcome = str(run.get("outcome") or "unknown")
        reason = run.get("reason")
        rows = [
            (
                "Outcome",
                _badge(outcome, TONE_COLOURS[OUTCOME_TONE.get(outcome, "bad")])
                + (f' <span class="reason">{_e(reason)}</span>' if reason else ""),
            ),
            ("Device", _e(self.device_text())),
            ("Models", _e(self.roles_text())),
            ("Started", _e(self.started_text())),
            ("Total time", _e(self.total_time_text(steps))),
            ("Steps", _e(self.steps_text(steps))),
        ]
        settings = run.get("settings")
        if isinstance(settings, dict) and settings:
            rows.append(
                (
                    "Settings",
                    _e(
                        " · ".join(
                            f"{k} {json.dumps(v, ensure_ascii=False)}" for k, v in settings.items()
                        )
                    ),
                )
            )
        usage = run.get("usage") if isinstance(run.get("usage"), dict) else {}
        if usage.get("calls"):
            tokens = (_float(usage.get("input_tokens")) or 0) + (
                _float(usage.get("output_tokens")) or 0
            )
            cost = _float(usage.get("cost"))
            spent = "cost unknown" if cost is None else f"${cost:.4f}"
            rows.append(
                ("Model use", _e(f"{usage['calls']} calls · {tokens:,.0f} tokens · {spent}"))
            )
        plan = run.get("plan")
        if isinstance(plan, list) and plan:
            rows.append(("Plan", "<br>".join(f"{i}. {_e(str(g))}" for i, g in enumerate(plan, 1))))
        meta = "".join(f"<dt>{name}</dt><dd>{value}</dd>" for name, value in rows)
        return (
            '<header class="card run">'
            f'<div class="run-id">clickwright run {_e(run.get("id") or self.run_dir.name)}</div>'
            f"<h1>{_e(task)}</h1>"
            f'<div class="summary"><dl class="meta">{meta}</dl>{self.durations_table(steps)}</div>'
            "</header>"
        )

    def device_text(self) -> str:
        device = self.run.get("device")
        if not isinstance(device, dict):
            return "—"
        parts = [str(device.get("kind", "device"))]
        for key, value in device.items():
            if key == "kind":
                continue
            if key == "size" and _point(value):
                parts.append(f"{_number(value[0])}×{_number(value[1])}")
            else:
                parts.append(f"{key} {value}")
        return " · ".join(parts)

    def roles_text(self) -> str:
        roles = self.run.get("roles")
        if not isinstance(roles, dict) or all(v == "offline" for v in roles.values()):
            return "none: offline planner, actor, grounder and critic"
        return " · ".join(f"{role} {name}" for role, name in roles.items())

    def started_text(self) -> str:
        started = _float(self.run.get("started"))
        if started is None:
            return "—"
        return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(started))

    def total_time_text(self, steps: list[StepRecord]) -> str:
        started, ended = _float(self.run.get("started")), _float(self.run.get("ended"))
        if started is not None and ended is not None:
            return _seconds(max(0.0, ended - started))
        last = max((step.time for step in steps), default=None)
        if started is not None and last is not None:
            return f"{_seconds(max(0.0, last - started))} until the last logged step (no end time)"
        return "unknown (no end time)"

    def steps_text(self, steps: list[StepRecord]) -> str:
        counted = self.run.get("steps")
        if isinstance(counted, int) and counted != len(steps):
            return f"{counted} ({len(steps)} logged)"
        return str(len(steps))

    def durations_table(self, steps: list[StepRecord]) -> str:
        totals = _durations(self.run.get("durations"))
        if not totals:  # an interrupted run may not have written its totals yet
            for step in steps:
                for phase, seconds in step.durations.items():
                    totals[phase] = totals.get(phase, 0.0) + seconds
        whole = sum(totals.values())
        if not whole:
            return '<div class="durations muted">No phase timings recorded.</div>'
        order = [p for p in PHASES if p in totals] + [p for p in totals if p not in PHASES]
        rows = []
        for phase in order:
            share = totals[phase] / whole
            rows.append(
                f"<tr><td>{_e(phase)}</td><td class=num>{_seconds(totals[phase])}</td>"
                f"<td class=num>{share:.0%}</td>"
                f'<td class=bar><span style="width:{share * 100:.1f}%"></span></td></tr>'
            )
        return (
            '<table class="durations"><thead><tr><th>phase</th><th class=num>time</th>'
            "<th class=num>share</th><th></th></tr></thead>"
            f"<tbody>{''.join(rows)}</tbody><tfoot><tr><td>total</td>"
            f"<td class=num>{_seconds(whole)}</td><td class=num>100%</td><td></td></tr></tfoot>"
            "</table>"
        )

    def legend(self) -> str:
        swatches = "".join(
            f'<span><i class="swatch" style="border-color:{colour}"></i>{source}</span>'
            for source, colour in SOURCE_COLOURS.items()
        )
        return (
            '<div class="legend"><label><input type="checkbox" id="show-elements" checked> '
            f"show element boxes</label>{swatches}"
            '<span><i class="swatch target"></i>chosen target</span>'
            '<span><i class="swatch point"></i>acted-on point</span></div>'
        )

    # -- steps --

    @staticmethod
    def full(number: int, step: StepRecord, count: int) -> bool:
        """Whether step `number` (from 0) of `count` shows full-size frames."""
        ends = number < FULL_STEPS or number >= count - FULL_STEPS // 6
        return ends or step.verdict not in ("success", "unverified", "planned")

    def step(self, record: StepRecord, full: bool = True) -> str:
        self.width = MAX_IMAGE_WIDTH if full else THUMBNAIL_WIDTH
        step = record.to_json()
        index = step.get("index", "?")
        attempt = step.get("attempt") if isinstance(step.get("attempt"), int) else 1
        verdict = str(step.get("verdict") or "unknown")
        target = step.get("target") if isinstance(step.get("target"), dict) else None
        if attempt > 1:
            tried = "the first candidate" if attempt == 2 else f"the first {attempt - 1} candidates"
            attempt_html = f'<span class="retry">attempt {attempt} — {tried} did not work</span>'
        else:
            attempt_html = f'<span class="muted">attempt {attempt}</span>'
        instruction, thought = step.get("instruction"), step.get("thought")
        reason = step.get("verdict_reason")
        elements = self.elements(step)
        verdict_badge = _badge(verdict.replace("_", " "), TONE_COLOURS[STATUS_TONE[verdict]])
        parts = [
            f'<section class="card step" id="step-{_e(index)}"><div class="step-head">'
            f"<h2>Step {_e(index)}</h2>{attempt_html}"
            f'<span class="elapsed">{_e(self.elapsed_text(step))}</span></div>',
            f'<p class="instruction">{_e(instruction)}</p>' if instruction else "",
            f'<p><code class="action">{_e(record.describe())}</code></p>',
            f'<p class="verdict">{verdict_badge} {_e(reason or "")}</p>',
            f'<blockquote class="thought">{_e(thought)}</blockquote>' if thought else "",
            '<div class="shots"><figure><figcaption>before the action</figcaption>'
            f"{self.before_shot(step, elements, target)}</figure>",
            f'<div class="side">{self.after_shot(step)}{self.candidates(step, elements, attempt)}'
            f"{self.details(step, target)}</div></div></section>",
        ]
        return "".join(parts)

    def elapsed_text(self, step: dict[str, Any]) -> str:
        started, at = _float(self.run.get("started")), _float(step.get("time"))
        return f"+{at - started:.1f} s" if started is not None and at is not None else ""

    def image(self, name: Any) -> tuple[str, tuple[int, int]] | None:
        key = (str(name), self.width)
        if key not in self.images:
            if self.hurry():
                return None
            self.images[key] = _encode_image(self.run_dir / key[0], self.width)
        return self.images[key]

    def missing(self, name: Any) -> str:
        if self.hurry():
            return f"not inlined (the report was cut short): {name}"
        return f"frame missing: {name}"

    def elements(self, step: dict[str, Any]) -> list[dict[str, Any]]:
        """The parsed elements of the step's frame; none if the file is missing or cut off."""
        name = step.get("elements")
        elements = _read_json(self.run_dir / str(name)) if name else None
        return [e for e in elements if isinstance(e, dict)] if isinstance(elements, list) else []

    def before_shot(
        self, step: dict[str, Any], elements: list[dict[str, Any]], target: dict[str, Any] | None
    ) -> str:
        frame = step.get("frame")
        image = self.image(frame) if frame else None
        return _overlay_svg(
            image,
            self.fallback_size,
            self.missing(frame) if frame else "no frame logged",
            elements,
            target,
            _point(step.get("point")),
        )

    def after_shot(self, step: dict[str, Any]) -> str:
        after = step.get("after_frame")
        if not after:
            return ""
        image = self.image(after)
        return (
            f"<figure><figcaption>after</figcaption>"
            f"{_overlay_svg(image, self.fallback_size, self.missing(after), [], None, None)}"
            "</figure>"
        )

    def candidates(self, step: dict[str, Any], elements: list[dict[str, Any]], attempt: int) -> str:
        candidates = [c for c in step.get("candidates") or [] if isinstance(c, dict)]
        if not candidates:
            return ""
        by_id = {element.get("id"): element for element in elements}  # names icons and inputs
        items = []
        for rank, candidate in enumerate(candidates, 1):
            score = _float(candidate.get("score"))
            status, note = (
                ("tried", "tried, did not work")
                if rank < attempt
                else ("current", "this attempt")
                if rank == attempt
                else ("", "")
            )
            items.append(
                f'<li class="{status}">'
                f"{_e(_describe_element(by_id.get(candidate.get('id'), candidate)))}"
                + (f' <span class="muted">{score:.2f}</span>' if score is not None else "")
                + (f' <span class="note">{note}</span>' if note else "")
                + "</li>"
            )
        return f'<div class="candidates"><h3>Candidates</h3><ol>{"".join(items)}</ol></div>'

    def details(self, step: dict[str, Any], target: dict[str, Any] | None) -> str:
        rows = []
        if target:
            box = _box(target.get("box"))
            where = f" at ({', '.join(_number(v) for v in box)})" if box else ""
            source = target.get("source", "?")
            rows.append(("target", f"{_describe_element(target)}{where} · {source}"))
        point = _point(step.get("point"))
        if point:
            rows.append(("point", f"({_number(point[0])}, {_number(point[1])})"))
        phases = _durations(step.get("durations"))
        if phases:
            rows.append(("timing", " · ".join(f"{k} {_seconds(v)}" for k, v in phases.items())))
        tokens, cost = _float(step.get("tokens")), _float(step.get("cost"))
        if tokens or cost:
            rows.append(("model use", f"{tokens or 0:,.0f} tokens · ${cost or 0:.4f}"))
        cells = "".join(f"<dt>{_e(name)}</dt><dd>{_e(value)}</dd>" for name, value in rows)
        return f'<dl class="details">{cells}</dl>' if cells else ""


def _overlay_svg(
    image: tuple[str, tuple[int, int]] | None,
    fallback_size: tuple[int, int],
    missing_text: str,
    elements: list[dict[str, Any]],
    target: dict[str, Any] | None,
    point: tuple[float, float] | None,
) -> str:
    """The frame with boxes drawn over it; the viewBox is in frame pixels, so the overlay scales
    with the image. A missing frame still shows its boxes on a blank canvas of the screen size."""
    width, height = image[1] if image else fallback_size
    unit = max(width, height) / 100  # marker sizes relative to the frame, so they look alike
    parts = [f'<svg class="shot" viewBox="0 0 {width} {height}" role="img">']
    if image:
        parts.append(f'<image href="{image[0]}" x="0" y="0" width="{width}" height="{height}"/>')
    else:
        parts.append(
            f'<rect class="missing" x="0" y="0" width="{width}" height="{height}"/>'
            f'<text class="missing" x="{width / 2:g}" y="{height / 2:g}" font-size="{unit * 3.5:g}"'
            f' text-anchor="middle">{_e(missing_text)}</text>'
        )
    boxes = [(box, e) for e in elements if (box := _box(e.get("box")))]
    boxes.sort(key=lambda item: -item[0][2] * item[0][3])  # small boxes on top, so they get hovers
    parts.append('<g class="elements">')
    for (x, y, w, h), element in boxes:
        source = element.get("source")
        colour = SOURCE_COLOURS.get(source, "#64748b")
        score = _float(element.get("score"))
        parts.append(
            f'<rect class="el" x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" stroke="{colour}">'
            f"<title>{_e(_describe_element(element))} · {_e(source)}"
            f"{f' · {score:.2f}' if score is not None else ''}</title></rect>"
        )
    parts.append("</g>")
    target_box = _box(target.get("box")) if target else None
    if target_box:
        x, y, w, h = target_box
        label = f"#{target.get('id', '?')}"
        size = unit * 1.8
        tag_w, tag_h = len(label) * size * 0.62 + size * 0.6, size * 1.35
        tag_y = y - tag_h - 2 if y - tag_h - 2 >= 0 else y + h + 2
        rect = f'x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}"'
        parts.append(
            f'<g class="target"><rect class="halo" {rect}/><rect class="box" {rect}/>'
            f'<rect class="tag" x="{x:g}" y="{tag_y:g}" width="{tag_w:g}" height="{tag_h:g}"'
            f' rx="{size / 4:g}"/><text x="{x + size * 0.3:g}" y="{tag_y + tag_h * 0.75:g}"'
            f' font-size="{size:g}">{_e(label)}</text>'
            f"<title>{_e(_describe_element(target))}</title></g>"
        )
    if point:
        px, py = point
        r = unit * 1.2
        ticks = "".join(
            f'<line x1="{px + dx * r * 0.4:g}" y1="{py + dy * r * 0.4:g}"'
            f' x2="{px + dx * r * 1.8:g}" y2="{py + dy * r * 1.8:g}"/>'
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        )
        marker = f'<circle cx="{px:g}" cy="{py:g}" r="{r:g}"/>{ticks}'
        parts.append(
            f'<g class="point"><g class="halo">{marker}</g><g class="mark">{marker}</g>'
            f"<title>acted at ({_number(px)}, {_number(py)})</title></g>"
        )
    parts.append("</svg>")
    return "".join(parts)


CSS = """
:root { --border: #e4e7ec; --muted: #667085; --bg: #f5f6f8; --text: #1d2433; --hot: #e11d48; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--text);
  font: 14px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
  sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 24px 20px 40px; }
.card { background: #fff; border: 1px solid var(--border); border-radius: 10px;
  padding: 16px 20px; margin-bottom: 16px; }
.muted, .run-id, footer, .elapsed { color: var(--muted); }
code, .run-id { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "DejaVu Sans Mono",
  monospace; }
.run-id { font-size: 12px; }
h1 { font-size: 22px; line-height: 1.3; margin: 4px 0 14px; overflow-wrap: anywhere; }
.summary { display: grid; grid-template-columns: 1fr 340px; gap: 28px; align-items: start; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 4px 16px; margin: 0; }
dt { color: var(--muted); }
dd { margin: 0; overflow-wrap: anywhere; }
.badge { display: inline-block; padding: 1px 10px; border-radius: 999px; font-size: 12px;
  font-weight: 600; letter-spacing: .02em; text-transform: uppercase; color: #fff;
  background: #98a2b3; }
.badge.green { background: #15803d; } .badge.red { background: #dc2626; }
.badge.amber { background: #d97706; } .badge.blue { background: #2563eb; }
.reason { margin-left: 6px; }
table.durations { border-collapse: collapse; width: 100%; font-size: 13px; }
.durations th { text-align: left; font-weight: 500; color: var(--muted);
  border-bottom: 1px solid var(--border); }
.durations td, .durations th { padding: 3px 6px; }
.durations th.num { text-align: right; }
.durations tfoot td { border-top: 1px solid var(--border); font-weight: 600; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
td.bar { width: 35%; }
td.bar span { display: block; height: 6px; border-radius: 3px; background: #94a3b8; }
.legend { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 6px 18px;
  align-items: center; padding: 8px 14px; margin-bottom: 16px; font-size: 12px; color: var(--muted);
  background: rgba(255, 255, 255, .96); border: 1px solid var(--border); border-radius: 10px; }
.legend label { color: var(--text); font-weight: 500; cursor: pointer; }
.legend input { margin: 0 4px 0 0; vertical-align: -2px; }
.swatch { display: inline-block; width: 16px; height: 11px; border: 2px solid; border-radius: 2px;
  margin-right: 5px; vertical-align: -1px; }
.swatch.target { border: 3px solid var(--hot); background: rgba(225, 29, 72, .12); }
.swatch.point { width: 11px; border-radius: 50%; border-color: var(--hot); }
.step-head { display: flex; align-items: baseline; gap: 12px; flex-wrap: wrap; }
.step-head h2 { font-size: 17px; margin: 0; }
.elapsed { margin-left: auto; font-size: 12px; font-variant-numeric: tabular-nums; }
.retry { background: #fff7e6; border: 1px solid #fcd9a0; color: #92400e; padding: 0 8px;
  border-radius: 6px; font-size: 13px; }
.step p { margin: 8px 0; }
.instruction { font-size: 15px; font-weight: 600; }
.action { display: inline-block; background: #f2f4f7; border: 1px solid var(--border);
  border-radius: 6px; padding: 3px 10px; font-size: 13px; overflow-wrap: anywhere; }
.thought { margin: 8px 0; padding: 2px 12px; border-left: 3px solid var(--border); color: #475467;
  font-style: italic; overflow-wrap: anywhere; }
.shots { display: grid; grid-template-columns: 2fr 1fr; gap: 16px; align-items: start;
  margin-top: 12px; }
figure { margin: 0 0 12px; }
figcaption, .candidates h3 { font-size: 12px; color: var(--muted); margin: 0 0 4px;
  font-weight: 500; }
svg.shot { display: block; width: 100%; height: auto; border: 1px solid var(--border);
  border-radius: 4px; background: #f2f4f7; }
svg .missing { fill: #eef0f3; } svg text.missing { fill: #98a2b3; }
svg .el { fill: transparent; stroke-width: 1; vector-effect: non-scaling-stroke; }
svg .el:hover { stroke-width: 3; }
body:has(#show-elements:not(:checked)) svg .elements { display: none; }
svg .target .box { fill: rgba(225, 29, 72, .06); stroke: var(--hot); stroke-width: 3;
  vector-effect: non-scaling-stroke; }
svg .halo { fill: none; stroke: #fff; stroke-width: 6; vector-effect: non-scaling-stroke; }
svg .target .tag { fill: var(--hot); } svg .target text { fill: #fff; font-weight: 700;
  font-family: system-ui, sans-serif; }
svg .point .mark { fill: none; stroke: var(--hot); stroke-width: 2;
  vector-effect: non-scaling-stroke; }
.candidates ol { margin: 0 0 12px; padding-left: 22px; font-size: 13px; }
.candidates li.tried { color: var(--muted); text-decoration: line-through; }
.candidates li.current { font-weight: 600; }
.candidates .note { font-size: 11px; color: var(--muted); font-weight: 400; text-decoration: none;
  display: inline-block; }
.details { font-size: 12px; gap: 2px 10px; }
.empty { color: var(--muted); text-align: center; padding: 32px; }
footer { font-size: 12px; text-align: center; }
@media (max-width: 820px) { .summary, .shots { grid-template-columns: 1fr; } }
"""
