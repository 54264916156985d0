"""The simulated phone: a small Android-like UI whose one view tree is both what `screencap`
paints and what `uiautomator dump` reports, so the two always agree.

Screens: a launcher with app icons, Settings (a scrolling list with Wi-Fi and Bluetooth
switches and detail pages), Contacts (a search field filtering a scrolling list), a few plain
apps, the recent-apps screen and a lock screen. Input is what `input` and `am` deliver: taps,
swipes, text into the focused field, key events.
"""

from __future__ import annotations

import io
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache
from xml.sax.saxutils import quoteattr

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FONT = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"
WIDTH, HEIGHT, DENSITY = 540, 960, 240  # an hdpi phone: 1 dp = 1.5 px
STATUS_BAR, APP_BAR, ROW = 36, 84, 84
LONG_PRESS = 0.5  # seconds: a touch held this long is a long press, as on Android
TOUCH_SLOP = 12  # px a touch may wander and still be a tap

ADB_KEYBOARD = "com.android.adbkeyboard/.AdbIME"
LATIN_IME = "com.android.inputmethod.latin/.LatinIME"


@dataclass(frozen=True)
class App:
    package: str
    label: str
    colour: str


APPS = (
    App("com.android.settings", "Settings", "#5f6368"),
    App("com.android.contacts", "Contacts", "#1a73e8"),
    App("com.android.deskclock", "Clock", "#188038"),
    App("com.android.camera2", "Camera", "#d93025"),
    App("com.example.notes", "Notes", "#f9ab00"),
    App("com.android.documentsui", "Files", "#9334e6"),
)
SETTINGS_ROWS = (
    ("Wi-Fi", "wifi"), ("Bluetooth", "bluetooth"), ("Display", "Brightness, dark theme"),
    ("Sound", "Volume, vibration"), ("Battery", "80%"), ("Storage", "31% used"),
    ("Apps", "Recent apps, default apps"), ("Notifications", "History, conversations"),
    ("Location", "On"), ("Security", "Screen lock"), ("Privacy", "Permissions"),
    ("Accounts", "No accounts"), ("Accessibility", "Display, interaction"),
    ("System", "Languages, time"), ("About phone", "Simulated phone"),
)  # fmt: skip
CONTACTS = (
    "Ada Lovelace", "Alan Turing", "Barbara Liskov", "Charles Babbage", "Donald Knuth",
    "Edsger Dijkstra", "Frances Allen", "Grace Hopper", "Guido van Rossum", "Hedy Lamarr",
    "John McCarthy", "Ken Thompson", "Linus Torvalds", "Margaret Hamilton", "Niklaus Wirth",
    "Radia Perlman", "Tim Berners-Lee", "Yukihiro Matsumoto",
)  # fmt: skip


@cache
def font(size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(FONT, size)


@dataclass
class View:
    """One node of the view tree: what it paints and what uiautomator says about it."""

    cls: str
    box: tuple[int, int, int, int]  # x1, y1, x2, y2 on screen
    text: str = ""
    desc: str = ""
    rid: str = ""
    hint: str = ""
    clickable: bool = False
    checkable: bool = False
    checked: bool = False
    focused: bool = False
    scrollable: bool = False
    size: int = 24  # text size, px
    centre: bool = False  # text centred across the box (launcher labels, the lock clock)
    colour: str = "#202124"
    bg: str = ""
    on_tap: Callable[[], None] | None = None
    scroll: str = ""  # the name of the scroll offset a swipe here changes
    scroll_limit: int = 0  # how far it can scroll
    photo: bool = False  # shows a photo (the camera's viewfinder): busy pixels, hard to compress
    children: list[View] = field(default_factory=list)

    def contains(self, x: float, y: float) -> bool:
        x1, y1, x2, y2 = self.box
        return x1 <= x < x2 and y1 <= y < y2

    def walk(self) -> list[View]:
        return [self, *(v for child in self.children for v in child.walk())]


@dataclass(frozen=True)
class Page:
    package: str
    name: str  # "main" or a detail page's title


class Phone:
    """The phone's state, changed by input and read as pixels or as a hierarchy dump."""

    def __init__(
        self,
        *,
        rotation: int = 0,
        locked: bool = False,
        adb_keyboard: bool = False,
        never_idle: bool = False,
        idle_wait: float = 0.3,
    ) -> None:
        self.rotation = rotation
        self.locked = locked
        self.adb_keyboard = adb_keyboard
        self.never_idle = never_idle
        self.idle_wait = idle_wait  # how long a dump waits for an idle UI before it gives up
        self.ime = LATIN_IME
        self.wifi = False
        self.bluetooth = False
        self.search = ""
        self.selected_all = False
        self.focus = ""  # resource id of the focused field
        self.submitted: list[str] = []  # what Enter was pressed on in the search field
        self.stack: list[Page] = []  # empty: the launcher
        self.recents: list[str] = []
        self.scrolls: dict[str, int] = {}
        self.showing_recents = False
        self.log: list[str] = []  # every input command, for tests to read
        self.lock = threading.RLock()
        self._picture: tuple[tuple, Image.Image, View] | None = None

    # ---- geometry -------------------------------------------------------------------------

    @property
    def size(self) -> tuple[int, int]:
        """The display in its current orientation, as screencap and input see it."""
        return (HEIGHT, WIDTH) if self.rotation % 2 else (WIDTH, HEIGHT)

    # ---- what the screen shows ------------------------------------------------------------

    def package(self) -> str:
        if self.locked:
            return "com.android.systemui"
        if self.showing_recents:
            return "com.android.launcher3"
        return self.stack[-1].package if self.stack else "com.android.launcher3"

    def tree(self) -> View:
        with self.lock:
            return self._render()[2]

    def image(self) -> Image.Image:
        with self.lock:
            return self._render()[1]

    def _render(self) -> tuple[tuple, Image.Image, View]:
        """The view tree and its picture, built again only when what they show has changed."""
        shown = (
            self.rotation, self.locked, self.showing_recents, tuple(self.stack), self.wifi,
            self.bluetooth, self.search, self.focus, tuple(sorted(self.scrolls.items())),
            tuple(self.recents),
        )  # fmt: skip
        if self._picture is None or self._picture[0] != shown:
            root = self._build()
            image = Image.new("RGB", self.size, "white")
            for view in root.walk():
                paint(image, view)
            self._picture = (shown, image, root)
        return self._picture

    def _build(self) -> View:
        w, h = self.size
        root = View("android.widget.FrameLayout", (0, 0, w, h), bg="#ffffff")
        if self.locked:
            root.bg = "#202124"
            root.children = [
                View(
                    "android.widget.TextView",
                    (0, h // 3, w, h // 3 + 90),
                    "12:00",
                    size=72,
                    colour="#ffffff",
                    centre=True,
                    rid="com.android.systemui:id/clock",
                ),
                View(
                    "android.widget.TextView",
                    (0, h - 140, w, h - 100),
                    "Swipe up to unlock",
                    size=22,
                    colour="#ffffff",
                    centre=True,
                ),
            ]
            return root
        if self.showing_recents:
            root.children = self._recents()
        elif not self.stack:
            root.children = self._launcher()
        else:
            page = self.stack[-1]
            app = next(a for a in APPS if a.package == page.package)
            title = app.label if page.name == "main" else page.name
            body = (0, STATUS_BAR + APP_BAR, w, h)
            content = {
                ("com.android.settings", "main"): self._settings,
                ("com.android.contacts", "main"): self._contacts,
            }.get((page.package, page.name), lambda box: self._plain(box, page.name))(body)
            bar = View(
                "android.view.ViewGroup",
                (0, STATUS_BAR, w, STATUS_BAR + APP_BAR),
                bg=app.colour,
                rid=f"{app.package}:id/app_bar",
                children=[
                    View(
                        "android.widget.TextView",
                        (24, STATUS_BAR, w - 24, STATUS_BAR + APP_BAR),
                        title,
                        size=30,
                        colour="#ffffff",
                        rid=f"{app.package}:id/title",
                    )
                ],
            )
            root.children = [*content, bar]  # the bar paints over rows scrolled under it
        root.children.append(self._status_bar())
        return root

    def _status_bar(self) -> View:
        w = self.size[0]
        return View(
            "android.widget.FrameLayout",
            (0, 0, w, STATUS_BAR),
            bg="#f1f3f4",
            rid="com.android.systemui:id/status_bar",
            children=[
                View(
                    "android.widget.TextView",
                    (16, 0, 100, STATUS_BAR),
                    "12:00",
                    size=18,
                    rid="com.android.systemui:id/clock",
                )
            ],
        )

    def _launcher(self) -> list[View]:
        w, _ = self.size
        columns = max(3, w // 135)
        cell = w // columns
        icons: list[View] = []
        for i, app in enumerate(APPS):
            x = (i % columns) * cell
            y = STATUS_BAR + 40 + (i // columns) * 150
            icons.append(
                View(
                    "android.widget.TextView",
                    (x, y, x + cell, y + 130),
                    app.label,
                    desc=app.label,
                    clickable=True,
                    on_tap=lambda app=app: self.start(app.package),
                    children=[
                        View(
                            "android.widget.ImageView",
                            (x + cell // 2 - 36, y + 8, x + cell // 2 + 36, y + 80),
                            bg=app.colour,
                        ),
                        View(
                            "android.widget.TextView",
                            (x, y + 90, x + cell, y + 122),
                            app.label,
                            size=22,
                            centre=True,
                        ),
                    ],
                )
            )
        return [
            View(
                "android.view.ViewGroup",
                (0, STATUS_BAR, w, self.size[1]),
                bg="#e8f0fe",
                rid="com.android.launcher3:id/workspace",
                children=icons,
            )
        ]

    def _recents(self) -> list[View]:
        w, h = self.size
        cards: list[View] = [
            View(
                "android.widget.TextView",
                (24, STATUS_BAR + 20, w, STATUS_BAR + 70),
                "Recent apps",
                size=30,
            )
        ]
        for i, package in enumerate(reversed(self.recents[-5:])):
            app = next(a for a in APPS if a.package == package)
            y = STATUS_BAR + 100 + i * 110
            cards.append(
                View(
                    "android.widget.FrameLayout",
                    (40, y, w - 40, y + 90),
                    app.label,
                    desc=app.label,
                    clickable=True,
                    bg="#ffffff",
                    on_tap=lambda p=package: self.start(p),
                    children=[
                        View("android.widget.TextView", (64, y, w - 40, y + 90), app.label, size=26)
                    ],
                )
            )
        if len(cards) == 1:
            cards.append(
                View(
                    "android.widget.TextView",
                    (24, h // 2, w, h // 2 + 40),
                    "No recent items",
                    size=24,
                    colour="#5f6368",
                )
            )
        return [
            View("android.widget.FrameLayout", (0, STATUS_BAR, w, h), bg="#dadce0", children=cards)
        ]

    def _list(self, name: str, box: tuple[int, int, int, int], rows: list[View]) -> View:
        """A scrolling list: rows laid out from the offset, those out of sight left out."""
        x1, y1, x2, y2 = box
        content = sum(r.box[3] - r.box[1] for r in rows)
        limit = max(0, content - (y2 - y1))
        offset = self.scrolls[name] = min(max(self.scrolls.get(name, 0), 0), limit)
        shown, y = [], y1 - offset
        for row in rows:
            height = row.box[3] - row.box[1]
            if y + height > y1 and y < y2:
                shown.append(_moved(row, y - row.box[1]))
            y += height
        return View(
            "androidx.recyclerview.widget.RecyclerView",
            box,
            scrollable=limit > 0,
            scroll=name,
            scroll_limit=limit,
            rid=f"{self.package()}:id/list",
            children=shown,
        )

    def _settings(self, box: tuple[int, int, int, int]) -> list[View]:
        x1, _, x2, _ = box
        rows = []
        for i, (title, summary) in enumerate(SETTINGS_ROWS):
            switch = summary in ("wifi", "bluetooth")
            on = getattr(self, summary, False) if switch else False
            tap = (lambda s=summary: self.toggle(s)) if switch else (lambda t=title: self.open(t))
            y = i * ROW
            children = [
                View(
                    "android.widget.TextView",
                    (x1 + 24, y + 10, x2 - 110, y + 46),
                    title,
                    rid="android:id/title",
                ),
                View(
                    "android.widget.TextView",
                    (x1 + 24, y + 46, x2 - 110, y + 76),
                    ("On" if on else "Off") if switch else summary,
                    size=18,
                    colour="#5f6368",
                    rid="android:id/summary",
                ),
            ]
            if switch:
                children.append(
                    View(
                        "android.widget.Switch",
                        (x2 - 96, y + 24, x2 - 24, y + 60),
                        checkable=True,
                        checked=on,
                        clickable=True,
                        on_tap=tap,
                        rid=f"com.android.settings:id/{summary}_switch",
                    )
                )
            rows.append(
                View(
                    "android.widget.LinearLayout",
                    (x1, y, x2, y + ROW),
                    clickable=True,
                    on_tap=tap,
                    children=children,
                )
            )
        return [self._list("settings", box, rows)]

    def _contacts(self, box: tuple[int, int, int, int]) -> list[View]:
        x1, y1, x2, y2 = box
        field_box = (x1 + 20, y1 + 16, x2 - 20, y1 + 80)
        search = View(
            "android.widget.EditText",
            field_box,
            self.search,
            hint="Search",
            clickable=True,
            focused=self.focus == "search",
            rid="com.android.contacts:id/search",
            on_tap=lambda: self.focus_field("search"),
        )
        names = [n for n in CONTACTS if self.search.lower() in n.lower()]
        rows = [
            View(
                "android.widget.LinearLayout",
                (x1, i * 72, x2, (i + 1) * 72),
                clickable=True,
                on_tap=lambda n=name: self.open(n),
                children=[
                    View(
                        "android.widget.TextView",
                        (x1 + 24, i * 72, x2, (i + 1) * 72),
                        name,
                        rid="com.android.contacts:id/name",
                    )
                ],
            )
            for i, name in enumerate(names)
        ]
        views = [search, self._list("contacts", (x1, y1 + 96, x2, y2), rows)]
        if not names:
            views.append(
                View(
                    "android.widget.TextView",
                    (x1 + 24, y1 + 120, x2, y1 + 160),
                    "No contacts found",
                    colour="#5f6368",
                )
            )
        return views

    def _plain(self, box: tuple[int, int, int, int], name: str) -> list[View]:
        x1, y1, x2, _ = box
        if self.package() == "com.android.camera2":
            return [View("android.view.TextureView", box, desc="Viewfinder", photo=True)]
        text = "Nothing here yet" if name == "main" else f"{name} settings"
        return [
            View("android.widget.TextView", (x1 + 24, y1 + 40, x2, y1 + 80), text, colour="#5f6368")
        ]

    # ---- behaviour ------------------------------------------------------------------------

    def start(self, package: str) -> bool:
        if not any(a.package == package for a in APPS):
            return False
        with self.lock:
            self.showing_recents = False
            self.stack = [Page(package, "main")]
            self.focus = ""
            if package in self.recents:
                self.recents.remove(package)
            self.recents.append(package)
        return True

    def open(self, name: str) -> None:
        self.stack.append(Page(self.stack[-1].package, name))
        self.focus = ""

    def toggle(self, name: str) -> None:
        setattr(self, name, not getattr(self, name))

    def focus_field(self, name: str) -> None:
        self.focus = name
        self.selected_all = False

    def tap(self, x: float, y: float) -> None:
        with self.lock:
            self.log.append(f"tap {x:g} {y:g}")
            if self.locked:
                return
            target = _hit(self.tree(), x, y)
            if target is not None and target.on_tap is not None:
                target.on_tap()
            else:
                self.focus = ""

    def swipe(self, x1: float, y1: float, x2: float, y2: float, seconds: float) -> None:
        with self.lock:
            self.log.append(f"swipe {x1:g} {y1:g} {x2:g} {y2:g} {seconds:g}")
            if abs(x2 - x1) <= TOUCH_SLOP and abs(y2 - y1) <= TOUCH_SLOP:
                if seconds < LONG_PRESS:
                    self.tap(x1, y1)
                return  # a long press: nothing here has a context menu
            if self.locked:
                self.locked = y2 > y1 - 100  # swiping up unlocks (there is no PIN)
                return
            for view in reversed(self.tree().walk()):
                if view.scroll and view.contains(x1, y1):
                    offset = self.scrolls.get(view.scroll, 0) + round(y1 - y2)
                    self.scrolls[view.scroll] = min(max(offset, 0), view.scroll_limit)
                    break

    def type_text(self, text: str) -> bool:
        """Text from the keyboard into the focused field; False when no field has focus."""
        with self.lock:
            self.log.append(f"text {text}")
            if self.focus != "search" or self.package() != "com.android.contacts":
                return False
            self.search = ("" if self.selected_all else self.search) + text
            self.selected_all = False
            self.scrolls["contacts"] = 0
            return True

    def key(self, code: str) -> None:
        """One key event, by its KEYCODE_ name without the prefix."""
        with self.lock:
            self.log.append(f"key {code}")
            if code in ("BACK", "ESCAPE"):  # Generic.kcm: an unhandled ESCAPE falls back to BACK
                self.back()
            elif code == "HOME":
                self.stack, self.showing_recents, self.focus = [], False, ""
            elif code == "APP_SWITCH":
                self.showing_recents, self.focus = True, ""
            elif self.focus == "search":
                self._edit(code)

    def select_all(self) -> None:
        with self.lock:
            self.log.append("key CTRL_LEFT+A")
            if self.focus:
                self.selected_all = True

    def _edit(self, code: str) -> None:
        if code == "DEL":
            self.search = "" if self.selected_all else self.search[:-1]
        elif code == "ENTER":
            self.submitted.append(self.search)
        elif code == "SPACE":
            self.search += " "
        elif code not in ("MOVE_END", "FORWARD_DEL"):
            return
        self.selected_all = False

    def back(self) -> None:
        if self.showing_recents:
            self.showing_recents = False
        elif self.focus:
            self.focus = ""  # the first Back hides the keyboard
        elif self.stack:
            self.stack.pop()

    # ---- output formats -------------------------------------------------------------------

    def raw_screencap(self, header: int = 16) -> bytes:
        """What `screencap` writes: width, height, format (1 = RGBA_8888) [, dataspace], pixels."""
        image = self.image()
        w, h = image.size
        head = np.array([w, h, 1, 0, 0][: header // 4], "<u4").tobytes()
        return head + image.convert("RGBA").tobytes()

    def png_screencap(self) -> bytes:
        out = io.BytesIO()
        self.image().save(out, "PNG")
        return out.getvalue()

    def hierarchy_xml(self) -> str:
        """The view tree as `uiautomator dump` writes it."""
        package = self.package()
        parts = [
            "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?>",
            f'<hierarchy rotation="{self.rotation}">',
        ]
        _xml(self.tree(), package, 0, parts)
        parts.append("</hierarchy>")
        return "".join(parts)


@cache
def photo(width: int, height: int) -> Image.Image:
    """A stand-in for a camera picture: smooth colour fields plus sensor noise."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:height, 0:width] / max(width, height)
    base = np.dstack([np.sin(6 * x + 1) + np.cos(4 * y), np.sin(5 * y + 2) * x, np.cos(7 * x * y)])
    noise = rng.normal(0, 0.08, (height, width, 3))
    pixels = (base - base.min() + noise) / (base.max() - base.min() + 0.3) * 255
    return Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8))


def _hit(root: View, x: float, y: float) -> View | None:
    """The innermost tappable view under a point, later siblings first (they paint on top)."""
    for child in reversed(root.children):
        if child.contains(x, y):
            found = _hit(child, x, y)
            if found is not None:
                return found
    return root if root.on_tap is not None and root.contains(x, y) else None


def _moved(view: View, dy: int) -> View:
    x1, y1, x2, y2 = view.box
    copy = View(**{**view.__dict__, "box": (x1, y1 + dy, x2, y2 + dy)})
    copy.children = [_moved(c, dy) for c in view.children]
    return copy


def _xml(view: View, package: str, index: int, out: list[str]) -> None:
    flags = {
        "checkable": view.checkable,
        "checked": view.checked,
        "clickable": view.clickable,
        "enabled": True,
        "focusable": view.clickable or view.cls.endswith("EditText"),
        "focused": view.focused,
        "scrollable": view.scrollable,
        "long-clickable": False,
        "password": False,
        "selected": False,
    }
    attrs = [
        f'index="{index}"',
        f"text={quoteattr(view.text)}",
        f"resource-id={quoteattr(view.rid)}",
        f'class="{view.cls}"',
        f'package="{package}"',
        f"content-desc={quoteattr(view.desc)}",
        *(f'{name}="{str(on).lower()}"' for name, on in flags.items()),
        'bounds="[{},{}][{},{}]"'.format(*view.box),
    ]
    if view.hint:
        attrs.insert(3, f"hint={quoteattr(view.hint)}")
    out.append(f"<node {' '.join(attrs)}")
    if not view.children:
        out.append(" />")
        return
    out.append(">")
    for i, child in enumerate(view.children):
        _xml(child, package, i, out)
    out.append("</node>")


def paint(image: Image.Image, view: View) -> None:
    """Draw one view (its children are drawn after it, on top)."""
    draw = ImageDraw.Draw(image)
    x1, y1, x2, y2 = view.box
    kind = view.cls.rpartition(".")[2]
    if view.photo:
        image.paste(photo(x2 - x1, y2 - y1), (x1, y1))
    elif kind == "ImageView":
        draw.rounded_rectangle(view.box, radius=18, fill=view.bg)
        cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
        draw.ellipse((cx - 14, cy - 14, cx + 14, cy + 14), outline="white", width=5)
        return
    if view.bg:
        draw.rectangle(view.box, fill=view.bg)
    if kind == "LinearLayout":
        draw.line((x1 + 24, y2 - 1, x2, y2 - 1), fill="#e0e0e0")
    elif kind == "Switch":
        on = view.checked
        draw.rounded_rectangle(view.box, radius=(y2 - y1) // 2, fill="#1a73e8" if on else "#bdc1c6")
        d = y2 - y1 - 8
        tx = x2 - 4 - d if on else x1 + 4
        draw.ellipse((tx, y1 + 4, tx + d, y1 + 4 + d), fill="white")
    elif kind == "EditText":
        border = "#1a73e8" if view.focused else "#9aa0a6"
        draw.rounded_rectangle(view.box, radius=8, fill="#ffffff", outline=border, width=2)
        text, colour = (view.text, "#202124") if view.text else (view.hint, "#80868b")
        end = _text(draw, (x1 + 16, y1, x2, y2), text, view.size, colour, centre=False)
        if view.focused:
            draw.line((end + 2, y1 + 16, end + 2, y2 - 16), fill="#1a73e8", width=2)
    elif kind == "TextView" and view.text and not view.children:
        _text(draw, view.box, view.text, view.size, view.colour, view.centre)


def _text(
    draw: ImageDraw.ImageDraw,
    box: tuple[int, int, int, int],
    text: str,
    size: int,
    colour: str,
    centre: bool,
) -> int:
    """Text vertically centred in a box, and across it when `centre`; returns where it ends,
    for a cursor."""
    x1, y1, x2, y2 = box
    face = font(size)
    left, top, right, bottom = draw.textbbox((0, 0), text, font=face)
    width = right - left
    x = x1 + (x2 - x1 - width) // 2 if centre else x1
    y = y1 + (y2 - y1 - (bottom - top)) // 2 - top
    draw.text((x, y), text, font=face, fill=colour)
    return x + width
