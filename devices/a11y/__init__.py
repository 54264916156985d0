"""Accessibility-tree readers: what the platform says is on screen, read where it lives.

- Linux: `read_atspi()` walks AT-SPI over D-Bus (pure Python, jeepney); `accessible_launch()`
  starts a program so that it publishes its tree (a Chromium browser's pages need a flag).
- Android: `parse_uiautomator(xml)` reads a `uiautomator dump`.
- Windows: `uia_to_nodes(tree)` converts a UI Automation snapshot; `read_uia()` takes one live.

Every reader returns `clickwright.a11y.A11yNode`s in screen coordinates; each device's
`accessibility()` calls its platform's reader, and the parsers fuse the nodes with the pixels.
"""

from clickwright.devices.a11y.android import parse_uiautomator
from clickwright.devices.a11y.atspi import accessible_launch, enable_accessibility, read_atspi
from clickwright.devices.a11y.uia import read_uia, uia_to_nodes

__all__ = [
    "accessible_launch",
    "enable_accessibility",
    "parse_uiautomator",
    "read_atspi",
    "read_uia",
    "uia_to_nodes",
]
