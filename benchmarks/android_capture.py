"""Android capture: raw framebuffer vs PNG, through adbutils against the adb simulator.

Times `screencap` (raw) and `screencap -p` over exec-out, each split into the transfer (with the
device's own work: for PNG that is the encoding) and the decoding here, plus the whole
`AndroidDevice.capture()` in each mode, on a flat UI (the launcher) and on a photo (the camera's
viewfinder). Medians of N. The simulator's phone is 540x960 on loopback and encodes PNG with
Pillow on this CPU: a real phone's screen is larger, its link slower and its CPU slower.

    .venv/bin/python benchmarks/android_capture.py [--repeat 30]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from adb_simulator import AdbSimulator  # noqa: E402

from clickwright.devices.android import AndroidDevice, decode_png, decode_raw  # noqa: E402


def median_ms(function: Callable[[], object], repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples) * 1000


def measure(device: AndroidDevice, repeat: int) -> dict[str, float]:
    raw, png = device.exec_out("screencap"), device.exec_out("screencap -p")
    device.raw_capture = True
    rows = {
        "raw transfer": median_ms(lambda: device.exec_out("screencap"), repeat),
        "raw decode": median_ms(lambda: decode_raw(raw), repeat),
        "raw capture()": median_ms(device.capture, repeat),
        "PNG transfer+encode": median_ms(lambda: device.exec_out("screencap -p"), repeat),
        "PNG decode": median_ms(lambda: decode_png(png), repeat),
    }
    device.raw_capture = False
    rows["PNG capture()"] = median_ms(device.capture, repeat)
    rows["raw MB"], rows["PNG MB"] = len(raw) / 1e6, len(png) / 1e6
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=30, help="captures per figure")
    repeat = parser.parse_args().repeat
    with AdbSimulator() as sim, AndroidDevice(port=sim.port) as device:
        flat = measure(device, repeat)
        sim.phone.start("com.android.camera2")
        busy = measure(device, repeat)
    width, height = device.size
    print(f"Android capture, {width}x{height} simulated phone, median of {repeat} (ms, MB)")
    print(f"  {'':<22}{'launcher':>10}{'camera':>10}")
    for name in flat:
        print(f"  {name:<22}{flat[name]:>10.2f}{busy[name]:>10.2f}")
    for label, rows in (("launcher", flat), ("camera", busy)):
        ratio = rows["PNG capture()"] / rows["raw capture()"]
        print(f"  {label}: raw capture() is {ratio:.1f}x as fast as PNG")


if __name__ == "__main__":
    main()
