"""What every accessibility reader returns: A11yNode, one platform-neutral node of a tree."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import Literal

from clickwright.types import INTERACTIVE_KINDS, Box, ElementKind

Platform = Literal["atspi", "android", "uia"]

# The state names readers normalise to (a node's `states` holds some of these):
#   focused, focusable, checked, mixed, checkable, selected, selectable, disabled, editable,
#   expanded, collapsed, pressed, active, modal, multiline, password, required, default,
#   clickable, scrollable, offscreen (not showing: hidden, scrolled away, on a hidden page).
ELEMENT_STATES = frozenset({"checked", "selected", "focused", "disabled"})  # what Element keeps


@dataclass(frozen=True)
class A11yNode:
    """One node of an accessibility tree.

    `box` is in the platform's screen coordinates (see `to_frame` for frame pixels); `role` is
    the platform's own role name ("push button", "android.widget.Switch", "ButtonControl"),
    `kind` the project's ElementKind for it; `name` is the accessible name (a button's label,
    a field's label), `value` what a field holds or a node reads out besides its name.
    """

    role: str
    kind: ElementKind
    name: str
    box: Box
    states: frozenset[str] = frozenset()
    interactive: bool = False
    value: str = ""
    description: str = ""
    platform: Platform = "atspi"
    ref: str = ""  # where the node lives: "bus:path", a resource id, an automation id
    depth: int = 0

    @property
    def visible(self) -> bool:
        return "offscreen" not in self.states and self.box.w > 0 and self.box.h > 0

    @property
    def label(self) -> str:
        """The words a person sees for it: the name, else the value."""
        return self.name or self.value


class A11yTree(list[A11yNode]):
    """The nodes a reader found, as a plain list, plus why it is empty or partial.

    `reason` is "" for a complete read; otherwise one line such as "no session D-Bus
    (DBUS_SESSION_BUS_ADDRESS is not set)" or "time limit of 1.0 s reached after 812 nodes".
    An empty tree still compares equal to [].
    """

    def __init__(
        self, nodes: Iterable[A11yNode] = (), reason: str = "", elapsed: float = 0.0
    ) -> None:
        super().__init__(nodes)
        self.reason = reason
        self.elapsed = elapsed

    @property
    def complete(self) -> bool:
        return not self.reason


class A11yUnavailable(Exception):  # noqa: N818 - it is a reason, not a programming error
    """Why no tree could be read (no bus, no registry, a hung peer); readers catch it and
    return an empty A11yTree carrying the message."""


def interactive_kind(kind: ElementKind) -> bool:
    return kind in INTERACTIVE_KINDS


def to_frame(
    nodes: Iterable[A11yNode], origin: tuple[int, int] = (0, 0), scale: float = 1.0
) -> list[A11yNode]:
    """Nodes with boxes moved from screen coordinates into a frame's pixels (the frame's
    `origin` is its top-left on the screen, `scale` frame pixels per screen pixel)."""
    ox, oy = origin
    if (ox, oy) == (0, 0) and scale == 1.0:
        return list(nodes)
    out = []
    for node in nodes:
        x, y, w, h = node.box
        box = Box(
            round((x - ox) * scale), round((y - oy) * scale), round(w * scale), round(h * scale)
        )
        out.append(replace(node, box=box))
    return out


def clean_text(text: object) -> str:
    """One line of text: whitespace runs collapsed, Qt's '&' mnemonics kept as written."""
    return " ".join(str(text or "").split())
