"""A loopback stand-in for the adb server, speaking its real smart-socket protocol, so that
adbutils (or the `adb` command) talks to simulated phones unmodified.

Every request is 4 hex digits of length then the text; the answer starts OKAY or FAIL (+ a
length-prefixed message). Host services answer themselves (`host:version`, `host:devices[-l]`,
`host-serial:S:features` and friends); `host:transport:S` / `host:tport:serial:S` switch the
connection to a device, whose services are `shell:`, `shell,v2:`, `exec:` and `sync:`.
"""

from __future__ import annotations

import contextlib
import select
import socket
import socketserver
import struct
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field

from .phone import Phone
from .shell import Result, Shell, Touch

VERSION = 41  # what platform-tools 30+ report; adbutils then uses host:tport
FEATURES = "shell_v2,cmd,stat_v2,ls_v2,fixed_push_mkdir,apex,abb,abb_exec,remount_shell"
UNAUTHORIZED = (
    "device unauthorized.\nThis adb server's $ADB_VENDOR_KEYS is not set\n"
    "Try 'adb kill-server' if that seems wrong.\n"
    "Otherwise check for a confirmation dialog on your device."
)
DIRECTORIES = {"/", "/sdcard", "/data", "/data/local", "/data/local/tmp"}


@dataclass
class SimDevice:
    """One phone as the server sees it: its serial, connection state and shell."""

    serial: str
    shell: Shell
    state: str = "device"  # device, unauthorized or offline
    transport_id: int = 1
    disconnect_after: int | None = None
    """Drop off the bus (cable pulled) while serving this many-plus-one-th device command."""
    commands: list[str] = field(default_factory=list)
    gone: bool = False

    @property
    def phone(self) -> Phone:
        return self.shell.phone


class Closed(Exception):
    """The client went away."""


class AdbSimulator:
    """Simulated phones behind a simulated adb server on 127.0.0.1 (a free port by default).

    with AdbSimulator() as sim:  # one phone, serial "SIM"
        AdbClient(port=sim.port).device_list()
        sim.phone.wifi  # what the UI shows
    """

    def __init__(self, serials: tuple[str, ...] = ("SIM",), port: int = 0) -> None:
        self.devices: dict[str, SimDevice] = {}
        for serial in serials:
            self.add(serial)
        simulator = self

        class Handler(socketserver.BaseRequestHandler):
            def handle(self) -> None:
                with contextlib.suppress(Closed, OSError):
                    simulator._serve(self.request)

        socketserver.ThreadingTCPServer.allow_reuse_address = True
        self._server = socketserver.ThreadingTCPServer(("127.0.0.1", port), Handler)
        self._server.daemon_threads = True
        self._thread: threading.Thread | None = None

    # ---- control --------------------------------------------------------------------------

    def add(self, serial: str, phone: Phone | None = None, state: str = "device") -> SimDevice:
        device = SimDevice(serial, Shell(phone or Phone()), state, len(self.devices) + 1)
        self.devices[serial] = device
        return device

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def phone(self) -> Phone:
        """The first device's phone."""
        return next(iter(self.devices.values())).phone

    def device(self, serial: str = "") -> SimDevice:
        return self.devices[serial] if serial else next(iter(self.devices.values()))

    def script_touches(self, touches: list[Touch], serial: str = "") -> None:
        self.device(serial).shell.touches = list(touches)

    def unplug(self, serial: str = "") -> None:
        self.device(serial).gone = True

    def plug_in(self, serial: str = "") -> None:
        device = self.device(serial)
        device.gone, device.disconnect_after = False, None

    def start(self) -> AdbSimulator:
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> AdbSimulator:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # ---- protocol -------------------------------------------------------------------------

    def _serve(self, sock: socket.socket) -> None:
        device: SimDevice | None = None
        while True:
            request = _read_request(sock)
            if request.startswith(
                ("host:", "host-serial:", "host-transport-id:", "host-usb:", "host-local:")
            ):
                device = self._host(sock, request)
                if device is None:
                    return  # a host service answers once and the server closes
                continue
            if device is None:
                _fail(sock, "no transport selected: send host:transport first")
                return
            self._service(sock, device, request)
            return

    def _host(self, sock: socket.socket, request: str) -> SimDevice | None:
        """Answer a host request; return the device when the connection now talks to it."""
        scope, _, command = request.partition(":")
        target: SimDevice | None = None
        if scope in ("host-serial", "host-transport-id"):
            key, _, command = command.rpartition(":")
            if command.startswith("wait-for-"):
                self._wait_for(sock, key, command)
                return None
            target = self._find(
                sock,
                key if scope == "host-serial" else None,
                int(key) if scope == "host-transport-id" else None,
            )
            if target is None:
                return None
        if command == "version":
            _okay(sock, f"{VERSION:04x}")
        elif command in ("devices", "devices-l"):
            _okay(
                sock,
                "".join(
                    self._listing(d, command == "devices-l")
                    for d in self.devices.values()
                    if not d.gone
                ),
            )
        elif command in ("features", "host-features"):
            _okay(sock, FEATURES)
        elif command in ("get-state", "get-serialno", "get-devpath") and target is not None:
            value = {
                "get-state": target.state,
                "get-serialno": target.serial,
                "get-devpath": f"usb:1-{target.transport_id}",
            }[command]
            _okay(sock, value)
        elif command.startswith("wait-for-"):
            self._wait_for(sock, "", command)
        elif command.startswith(("transport:", "tport:", "transport-id:")) or command in (
            "transport-any",
            "transport-usb",
            "transport-local",
        ):
            return self._transport(sock, command)
        elif command == "kill":
            sock.sendall(b"OKAY")
        else:
            _fail(sock, f"unknown host service '{command}'")
        return None

    def _transport(self, sock: socket.socket, command: str) -> SimDevice | None:
        kind, _, rest = command.partition(":")
        if kind == "tport":
            how, _, serial = rest.partition(":")
            device = self._find(sock, serial if how == "serial" else None)
        elif kind == "transport-id":
            device = self._find(sock, None, int(rest))
        else:
            device = self._find(sock, rest or None)
        if device is None:
            return None
        sock.sendall(b"OKAY")
        if kind == "tport":
            sock.sendall(struct.pack("<Q", device.transport_id))
        return device

    def _find(
        self, sock: socket.socket, serial: str | None, transport_id: int | None = None
    ) -> SimDevice | None:
        """The device a request names (or the only one), or None after a FAIL saying why."""
        present = [d for d in self.devices.values() if not d.gone]
        if serial:
            found = [d for d in present if d.serial == serial]
            problem = f"device '{serial}' not found"
        elif transport_id is not None:
            found = [d for d in present if d.transport_id == transport_id]
            problem = f"no device with transport id '{transport_id}'"
        else:
            found = present
            problem = "no devices/emulators found"
        if not found:
            _fail(sock, problem)
            return None
        if len(found) > 1:
            _fail(sock, "more than one device/emulator")
            return None
        device = found[0]
        if device.state == "unauthorized":
            _fail(sock, UNAUTHORIZED)
            return None
        if device.state == "offline":
            _fail(sock, "device offline")
            return None
        return device

    @staticmethod
    def _listing(device: SimDevice, long: bool) -> str:
        if not long:
            return f"{device.serial}\t{device.state}\n"
        extra = "product:sdk_phone_sim model:Clickwright_Sim device:sim "
        return (
            f"{device.serial:<22} {device.state} usb:1-{device.transport_id} "
            f"{extra if device.state == 'device' else ''}transport_id:{device.transport_id}\n"
        )

    def _wait_for(self, sock: socket.socket, serial: str, command: str) -> None:
        """wait-for-TRANSPORT-STATE: OKAY now, OKAY again once the device (or any) is ready."""
        sock.sendall(b"OKAY")
        wanted = command.rpartition("-")[2]
        while True:
            devices = [d for d in self.devices.values() if d.serial == serial or not serial]
            if any(not d.gone and d.state == wanted for d in devices):
                sock.sendall(b"OKAY")
                return
            if _client_left(sock):
                raise Closed
            time.sleep(0.05)

    def _service(self, sock: socket.socket, device: SimDevice, request: str) -> None:
        device.commands.append(request)
        limit = device.disconnect_after
        if limit is not None and len(device.commands) > limit:
            device.gone = True  # the cable is pulled mid-command: no answer at all
            return
        service, _, argument = request.partition(":")
        if service == "sync":
            sock.sendall(b"OKAY")
            self._sync(sock, device)
            return
        name, *options = service.split(",")  # shell[,v2][,pty|,raw][,TERM=...]
        if name not in ("shell", "exec") or (name == "exec" and options):
            _fail(sock, f"unknown service '{service}'")
            return
        sock.sendall(b"OKAY")
        result = device.shell.run(argument)
        pty = "pty" in options  # a terminal writes CR LF for every newline
        if isinstance(result, Result):
            if "v2" in options:
                _send_v2(sock, result)
            else:
                output = result.stdout + result.stderr
                sock.sendall(output.replace(b"\n", b"\r\n") if pty else output)
            return
        self._stream(sock, device, result, pty)

    @staticmethod
    def _stream(sock: socket.socket, device: SimDevice, chunks: Iterator[bytes], pty: bool) -> None:
        """Pass a never-ending command's output on until the client or the device leaves."""
        for chunk in chunks:
            if device.gone or _client_left(sock):
                return
            if chunk:
                sock.sendall(chunk.replace(b"\n", b"\r\n") if pty else chunk)

    def _sync(self, sock: socket.socket, device: SimDevice) -> None:
        files = device.shell.files
        while True:
            head = _read_exact(sock, 8)
            command, length = head[:4].decode(), struct.unpack("<I", head[4:])[0]
            if command == "QUIT":
                return
            path = _read_exact(sock, length).decode()
            if command == "STAT":
                if path.rstrip("/") in DIRECTORIES or path == "/":
                    sock.sendall(b"STAT" + struct.pack("<III", 0o40755, 4096, int(time.time())))
                elif path in files:
                    stat = struct.pack("<III", 0o100644, len(files[path]), int(time.time()))
                    sock.sendall(b"STAT" + stat)
                else:
                    sock.sendall(b"STAT" + bytes(12))
            elif command == "LIST":
                folder = path.rstrip("/") + "/"
                for name in sorted(p for p in files if p.startswith(folder)):
                    base = name[len(folder) :].encode()
                    sock.sendall(
                        b"DENT"
                        + struct.pack(
                            "<IIII", 0o100644, len(files[name]), int(time.time()), len(base)
                        )
                        + base
                    )
                sock.sendall(b"DONE" + bytes(16))
            elif command == "RECV":
                if path not in files:
                    message = b"No such file or directory"
                    sock.sendall(b"FAIL" + struct.pack("<I", len(message)) + message)
                    continue
                data = files[path]
                for start in range(0, len(data), 64 * 1024):
                    chunk = data[start : start + 64 * 1024]
                    sock.sendall(b"DATA" + struct.pack("<I", len(chunk)) + chunk)
                sock.sendall(b"DONE" + bytes(4))
            elif command == "SEND":
                name = path.rpartition(",")[0]
                data = b""
                while True:
                    head = _read_exact(sock, 8)
                    if head[:4] == b"DONE":
                        break
                    data += _read_exact(sock, struct.unpack("<I", head[4:])[0])
                files[name] = data
                sock.sendall(b"OKAY" + bytes(4))
            else:
                message = f"unknown sync command {command}".encode()
                sock.sendall(b"FAIL" + struct.pack("<I", len(message)) + message)
                return


def _read_exact(sock: socket.socket, n: int) -> bytes:
    data = b""
    while len(data) < n:
        chunk = sock.recv(n - len(data))
        if not chunk:
            raise Closed
        data += chunk
    return data


def _read_request(sock: socket.socket) -> str:
    length = int(_read_exact(sock, 4), 16)
    return _read_exact(sock, length).decode()


def _okay(sock: socket.socket, payload: str) -> None:
    data = payload.encode()
    sock.sendall(b"OKAY" + f"{len(data):04x}".encode() + data)


def _fail(sock: socket.socket, message: str) -> None:
    data = message.encode()
    sock.sendall(b"FAIL" + f"{len(data):04x}".encode() + data)


def _send_v2(sock: socket.socket, result: Result) -> None:
    """The shell protocol: packets of (id, little-endian length, data); 3 carries the exit code."""
    for kind, data in ((1, result.stdout), (2, result.stderr)):
        if data:
            sock.sendall(bytes([kind]) + struct.pack("<I", len(data)) + data)
    sock.sendall(bytes([3]) + struct.pack("<I", 1) + bytes([result.code & 0xFF]))


def _client_left(sock: socket.socket) -> bool:
    readable, _, _ = select.select([sock], [], [], 0)
    return bool(readable) and not sock.recv(1, socket.MSG_PEEK)
