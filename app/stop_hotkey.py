"""Stopping a run from outside it: the stop hotkey, and the signals a terminal or a script sends.

The hotkey, pressed on the user's own keyboard, stops a run after its current action. It
watches the display the user sits at (their $DISPLAY), which with --virtual is not the one
the agent drives. On X11 it is a passive key grab on the root window, polled with a timeout so
it stops promptly (pynput's XRecord listener only notices a stop request on the next event); on
other platforms pynput's global hotkeys.

SIGINT, SIGTERM and SIGHUP all stop a command the way Ctrl+C does, also when SIGINT was
inherited as ignored (a command started in the background by a script). While a command
finishes (the run log, the report, a recording being saved) a signal does not cut it short:
it asks it to hurry instead, so what is written is always whole.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import threading
from collections.abc import Callable, Iterator

STOP_KEYS_LABEL = "Ctrl+Shift+F12"
STOP_SIGNALS = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


class _Signals:
    """What the signal handler knows: how many stop signals came, whether one came while a
    command was finishing, and the runs' stop events to set."""

    def __init__(self) -> None:
        self.count = 0
        self.finishing = 0
        self.hurried = False
        self.stops: list[threading.Event] = []


_signals = _Signals()


def _on_stop_signal(signum: int, frame: object) -> None:
    _signals.count += 1
    for stop in _signals.stops:
        stop.set()  # a run that swallowed the interrupt still stops at its next look
    if _signals.finishing or _signals.count > 1:
        _signals.hurried = True  # the first signal is already stopping the command
    else:
        raise KeyboardInterrupt


@contextlib.contextmanager
def stop_signals() -> Iterator[None]:
    """A command, during which the first stop signal interrupts it like Ctrl+C (unless it is
    `finishing`) and later ones only make it `hurry`, so they never cut short how it ends.
    Once it has ended they are ignored: while Python shuts down its handlers are gone, and a
    signal then would kill the process and change the exit status the command chose."""
    for signum in STOP_SIGNALS:
        signal.signal(signum, _on_stop_signal)
    unraisable, sys.unraisablehook = sys.unraisablehook, _on_unraisable
    try:
        yield
    finally:
        for signum in STOP_SIGNALS:
            signal.signal(signum, signal.SIG_IGN)
        sys.unraisablehook = unraisable


def _on_unraisable(unraisable: sys.UnraisableHookArgs) -> None:
    """A stop signal that struck inside a finalizer (an object's __del__, a generator being
    closed) dies there: no traceback for it, and since it interrupted nothing, the next
    signal interrupts again (the runs it set to stop still stop)."""
    if unraisable.exc_type is not None and issubclass(unraisable.exc_type, KeyboardInterrupt):
        _signals.count = max(0, _signals.count - 1)
        return
    sys.__unraisablehook__(unraisable)


@contextlib.contextmanager
def finishing() -> Iterator[None]:
    """A block that writes what a command leaves behind: a signal within it does not
    interrupt it, it only asks it to `hurry`."""
    _signals.finishing += 1
    try:
        yield
    finally:
        _signals.finishing -= 1


def hurry() -> bool:
    """Whether the person asked to stop while the command was finishing, or asked twice:
    whatever is being written, write it fast (and whole)."""
    return _signals.hurried or _signals.count >= 2


class _X11Grab(threading.Thread):
    def __init__(self, display_name: str, on_press: Callable[[], None]) -> None:
        super().__init__(name="clickwright-stop-hotkey", daemon=True)
        from Xlib import XK, X
        from Xlib.display import Display
        from Xlib.error import BadAccess, CatchError, ConnectionClosedError, XError

        self._gone = (OSError, ValueError, ConnectionClosedError, XError)
        """What reading or closing a display that went away raises."""

        self._on_press = on_press
        self._halt = threading.Event()
        self._display = Display(display_name)
        root = self._display.screen().root
        keycode = self._display.keysym_to_keycode(XK.string_to_keysym("F12"))
        wanted = X.ControlMask | X.ShiftMask
        taken = CatchError(BadAccess)  # another program holds the keys: say nothing, go without
        for locks in (0, X.LockMask, X.Mod2Mask, X.LockMask | X.Mod2Mask):  # Caps/Num Lock
            root.grab_key(
                keycode, wanted | locks, True, X.GrabModeAsync, X.GrabModeAsync, onerror=taken
            )
        self._display.sync()
        if taken.get_error() is not None:
            self._display.close()
            raise RuntimeError(f"{STOP_KEYS_LABEL} is grabbed by another program")
        self._key_press = X.KeyPress

    def run(self) -> None:
        """Until closed, or until the display goes away (the person logged out, a display
        that was stopped): then there is no keyboard left to watch, and nothing to say."""
        display = self._display
        try:
            while not self._halt.is_set():
                select.select([display], [], [], 0.2)
                while display.pending_events():
                    if display.next_event().type == self._key_press:
                        self._on_press()
        except self._gone:
            return

    def close(self) -> None:
        self._halt.set()
        self.join(timeout=2)
        with contextlib.suppress(*self._gone):
            self._display.close()


class _PynputHotkey:
    def __init__(self, on_press: Callable[[], None]) -> None:
        from pynput import keyboard

        self._listener = keyboard.GlobalHotKeys({"<ctrl>+<shift>+<f12>": on_press})
        self._listener.start()
        self._listener.wait()

    def close(self) -> None:
        self._listener.stop()


@contextlib.contextmanager
def stop_hotkey(stop: threading.Event, display: str | None = None) -> Iterator[str | None]:
    """Set `stop` when the hotkey is pressed or a stop signal comes; yields the hotkey's label,
    or None if no keyboard is there."""
    watcher: _X11Grab | _PynputHotkey | None = None
    _signals.stops.append(stop)  # a stop signal stops the run too
    try:
        if sys.platform.startswith("linux"):
            name = display or os.environ.get("DISPLAY")
            if name:
                watcher = _X11Grab(name, stop.set)
                watcher.start()
        else:
            watcher = _PynputHotkey(stop.set)
    except Exception:  # no X server, keys grabbed by another program: run without a hotkey
        watcher = None
    try:
        yield STOP_KEYS_LABEL if watcher is not None else None
    finally:
        _signals.stops.remove(stop)
        if watcher is not None:
            watcher.close()
