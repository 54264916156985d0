"""Accessibility trees: what the platform says is on screen, to fuse with what the pixels show.

- Linux: `read_atspi()` walks AT-SPI over D-Bus (pure Python, jeepney).
- Android: `parse_uiautomator(xml)` reads a `uiautomator dump`.
- Windows: `uia_to_nodes(tree)` converts a UI Automation snapshot; `read_uia()` takes one live.

Every reader returns A11yNodes in screen coordinates; `to_frame` maps them into a frame's pixels
and `clickwright.parsers.fusion.fuse_accessibility` merges them with the parsed pixels.
"""

from clickwright.parsers.a11y.android import parse_uiautomator
from clickwright.parsers.a11y.atspi import enable_accessibility, read_atspi
from clickwright.parsers.a11y.node import A11yNode, A11yTree, A11yUnavailable, to_frame
from clickwright.parsers.a11y.uia import read_uia, uia_to_nodes

__all__ = [
    "A11yNode",
    "A11yTree",
    "A11yUnavailable",
    "enable_accessibility",
    "parse_uiautomator",
    "read_atspi",
    "read_uia",
    "to_frame",
    "uia_to_nodes",
]
