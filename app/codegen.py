"""`clickwright demos export NAME --python`: a demonstration as a readable Python script.

The script uses the scripting API (`clickwright.connect`) with semantic targets, so it reads like
the steps ("screen.type(args.name, into='Name')") and survives the same changes a replay does.
Parameters become command-line options; secret ones are required options, never defaults.
"""

from __future__ import annotations

import json
import re

from clickwright.agent.demos.format import PLACEHOLDER, Demo, DemoStep
from clickwright.agent.grounding import normalize
from clickwright.errors import DemoError

UNTYPED = ("text", "container", "image", None)  # kinds not worth naming in a call


def python_script(demo: Demo) -> str:
    """The whole script as text."""
    info = demo.info
    title = info.description or f"Replays the demonstration '{demo.name}'"
    lines = [
        f'"""{_doc(title)}',
        "",
        f"Exported from the clickwright demonstration '{demo.name}'. Run it with:",
        f"    python {demo.name}.py --display :1"
        + "".join(f" --{k} …" for k, p in info.parameters.items() if p.secret),
        '"""',
        "",
        "import argparse",
        "",
        "from clickwright import connect",
        "",
        "",
        "def main() -> None:",
        f"    parser = argparse.ArgumentParser(description={_py(title)})",
        '    parser.add_argument("--display", help="X display to work on (default: $DISPLAY)")',
    ]
    for key, parameter in info.parameters.items():
        if parameter.secret:
            lines.append(
                f'    parser.add_argument("--{key}", required=True, help="secret: never stored")'
            )
        else:
            lines.append(f'    parser.add_argument("--{key}", default={_py(parameter.default)})')
    lines += ["    args = parser.parse_args()", "", "    screen = connect(display=args.display)"]
    seen: set[str] = set()
    for index, step in enumerate(demo.steps):
        lines.append("    " + _call(step))
        following = demo.steps[index + 1] if index + 1 < len(demo.steps) else None
        if following is None or _blind(following):
            # a step that acts without looking first must wait for the previous one's effect
            text = _new_text(step, seen)
            if text:
                lines.append(f"    screen.wait_for(text={_py(text)})")
        seen |= {normalize(t) for t in (*step.effect.appeared, *step.effect.gone)}
    lines += ["", "", 'if __name__ == "__main__":', "    main()", ""]
    return "\n".join(lines)


def _call(step: DemoStep) -> str:
    """One step as one call of the scripting API."""
    action = step.action
    kind = action.type
    target = step.target
    words = (
        target.words
        if target is not None
        else getattr(getattr(action, "target", None), "text", None)
    )
    element_kind = (
        target.kind
        if target is not None
        else getattr(getattr(action, "target", None), "kind", None)
    )
    if kind in ("click", "double_click", "right_click"):
        return f"screen.{kind}({_aim(step, words, element_kind)})"
    if kind == "type":
        args = [_text(action.text)]
        if words:
            args.append(f"into={_py(words)}")
        if action.clear:
            args.append("clear=True")
        if action.enter:
            args.append("enter=True")
        return f"screen.type({', '.join(args)})"
    if kind == "hotkey":
        return f"screen.press({_py('+'.join(action.keys))})"
    if kind == "scroll":
        within = f", within={_py(words)}" if words else ""
        return f"screen.scroll({_py(action.direction)}, {action.amount}{within})"
    if kind == "drag":
        to = step.to.words if step.to is not None else action.to.text
        source = words or action.source.text
        if not source or not to:
            raise DemoError(
                f"step '{step.words}' drags between points with no text to find them by"
            )
        return f"screen.drag({_py(source)}, to={_py(to)})"
    if kind == "wait" and action.until != "stable" and action.until.text:
        return f"screen.wait_for(text={_py(action.until.text)}, timeout={action.timeout:g})"
    if kind == "launch":
        return f"screen.launch({_py(action.app)})"
    raise DemoError(
        f"step '{step.words}' ({kind}) has no call in the scripting API yet",
        "replay the demonstration instead: clickwright replay NAME",
    )


def _aim(step: DemoStep, words: str | None, kind: str | None) -> str:
    if words:
        return f"text={_py(words)}" + (f", kind={_py(kind)}" if kind not in UNTYPED else "")
    target = step.target
    point = getattr(step.action.target, "point", None)
    if point is None and target is not None:
        x, y, w, h = target.box
        width, height = target.screen
        point = (round((x + w / 2) * width), round((y + h / 2) * height))
    return f"point={tuple(point)!r}  # nothing there has words: the recorded place"


def _text(text: str) -> str:
    """A typed text as Python: `args.name` for a parameter, a string, or both joined."""
    parts = []
    position = 0
    for match in PLACEHOLDER.finditer(text):
        if match.start() > position:
            parts.append(_py(text[position : match.start()]))
        parts.append(f"args.{match[1]}")
        position = match.end()
    if position < len(text) or not parts:
        parts.append(_py(text[position:]))
    return " + ".join(parts)


def _blind(step: DemoStep) -> bool:
    """A step that acts without finding anything first (keys, typing where the focus is)."""
    return step.action.type == "hotkey" or (step.action.type == "type" and step.target is None)


def _new_text(step: DemoStep, seen: set[str]) -> str | None:
    """A text this step made appear that no earlier step showed or hid: its real effect
    ("Saved"), not what a closing dialog uncovered."""
    for text in reversed(step.effect.appeared):
        if normalize(text) not in seen:
            return text
    return None


def _py(text: str) -> str:
    """A Python string literal in double quotes (JSON's escapes are Python's too)."""
    return json.dumps(text, ensure_ascii=False)


def _doc(text: str) -> str:
    return re.sub(r'"""', "'''", text.strip())
