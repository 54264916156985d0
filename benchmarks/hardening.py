"""Issue 15, measured: bad input, fuzzed files and injected faults against the real `clickwright`
command, a secrets scan of everything runs write, and a long soak on the sample app.

    nice -n 10 .venv/bin/python benchmarks/hardening.py                       # all of it
    nice -n 10 .venv/bin/python benchmarks/hardening.py --only probes,fuzz --fuzz 10000
    nice -n 10 .venv/bin/python benchmarks/hardening.py --only soak --soak-steps 1000

Sections (each prints its figures; goal 0 tracebacks, 0 lost or invalid run logs, 0 secrets):
- probes: the CLI bad inputs of tests/test_hardening_fuzz.py (200+), plus read-only and full
  disks (tmpfs mounts, as root). `--against DIR` runs another version's commands (DIR laid
  out as the `clickwright` package, e.g. from `git archive`) to compare before and after.
- fuzz: hypothesis-generated demonstrations, config files, model answers (JSON roles and the
  vendors' protocols) and run folders, in process.
- faults: stop signals at random moments (also a second one, also SIGINT inherited as ignored),
  the display killed, the app killed or stopped, SIGKILL then the next run, a disk that fills.
- secrets: runs that type a secret given in several ways; every file they write and their
  stdout/stderr searched for it.
- endpoints: a model endpoint that takes requests and never answers, cannot be connected to,
  refuses, fails or answers garbage, with the default time-outs: exit status and duration.
- soak: one run of many steps on the sample app, each with a new screen: RSS at start and end,
  report build time and size, run folder size.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from clickwright.agent.runlog import read_run, read_steps  # noqa: E402
from clickwright.app.demo import sample_app_command  # noqa: E402
from tests.conftest import run_cli  # noqa: E402
from tests.test_demos import write_demo  # noqa: E402
from tests.test_hardening_fuzz import (  # noqa: E402
    bad_inputs,
    check_answer,
    check_config,
    check_demo,
    check_run_folder,
    config_files,
    make_run,
    model_answers,
    mutations,
    run_log_problems,
    run_probe,
)

SECRET = "Zq7-hunter2-vX"
LONG_TASK = ", ".join(["select Pro", "select Team"] * 15)


# ---- helpers ------------------------------------------------------------------------------------


@contextlib.contextmanager
def tmpfs(path: Path, size: str, read_only: bool = False, fill: int = 0) -> Iterator[Path]:
    """A filesystem of its own: read-only, or `size` big with only `fill` bytes left free."""
    path.mkdir(parents=True, exist_ok=True)
    options = f"size={size}" + (",ro" if read_only else "")
    subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(path)], check=True)
    try:
        if fill:
            free = shutil.disk_usage(path).free
            (path / "filler").write_bytes(bytes(max(free - fill, 0)))
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=True)


def command(*args: str, ignore_sigint: bool = False, **popen) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "clickwright.app", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        stdin=subprocess.DEVNULL,
        preexec_fn=(lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
        if ignore_sigint
        else None,
        **popen,
    )


def children(pid: int) -> dict[int, str]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    names = {}
    for child in found.split():
        with contextlib.suppress(OSError):
            names[int(child)] = Path(f"/proc/{child}/comm").read_text().strip()
    return names


def wait_for_steps(
    runs: Path, process: subprocess.Popen, count: int = 1, limit: float = 240
) -> bool:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline and process.poll() is None:
        for run_dir in runs.glob("*/"):
            if len(read_steps(run_dir)) >= count:
                return True
        time.sleep(0.2)
    return False


class Tally:
    """Runs, and what went wrong in them."""

    def __init__(self, name: str) -> None:
        self.name, self.tried, self.tracebacks, self.early = name, 0, 0, 0
        self.invalid: list[str] = []
        self.problems: Counter[str] = Counter()
        self.kinds: Counter[str] = Counter()
        self.outcomes: Counter[str] = Counter()

    def add(
        self, what: str, err: str, code: int | None, runs: Path | None, allowed=(0, 1, 2)
    ) -> None:
        self.tried += 1
        self.kinds[what] += 1
        if "Traceback" in err or "internal error" in err:
            self.tracebacks += 1
            lines = err.strip().splitlines()
            where = next((line for line in lines if line.startswith("Exception ignored")), "")
            self.problems[f"{what}: traceback {where} {lines[-1][:120]}"] += 1
        begun = runs is not None and runs.is_dir() and any(runs.iterdir())
        if code is not None and code < 0 and not begun:
            self.early += 1  # killed by the signal while Python was still starting: nothing begun
        elif code not in allowed:
            self.problems[f"{what}: exit {code}"] += 1
        for problem in run_log_problems(runs):
            self.invalid.append(f"{what}: {problem}")
        if runs is not None and runs.is_dir():
            for run_dir in runs.iterdir():
                run = read_run(run_dir)
                self.outcomes[run.outcome if run else "no run.json"] += 1
                if (
                    run is not None
                    and not (run_dir / "report.html").exists()
                    and "space" not in run.reason
                ):
                    self.invalid.append(f"{what}: {run_dir.name} has no report")

    def show(self) -> None:
        print(
            f"{self.name}: {self.tried} tried, {self.tracebacks} tracebacks, "
            f"{len(self.invalid)} lost or invalid run logs; {self.early} ended by the signal "
            "itself before clickwright had started (no run begun)"
        )
        print(f"  injected: {dict(self.kinds)}")
        print(f"  run logs' outcomes: {dict(self.outcomes)}")
        for problem, times in self.problems.most_common():
            print(f"  {times} x {problem}")
        for problem in self.invalid[:20]:
            print(f"  invalid: {problem}")


# ---- sections ---------------------------------------------------------------------------------


def probes(work: Path) -> None:
    as_root = os.geteuid() == 0 and shutil.which("mount") is not None
    with contextlib.ExitStack() as stack:
        mounts = {}
        if as_root:
            mounts["read-only mount"] = stack.enter_context(
                tmpfs(work / "ro", "1m", read_only=True)
            )
            mounts["full disk"] = stack.enter_context(tmpfs(work / "full", "1m", fill=2048))
        listed = bad_inputs(work / "probes", mounts)
        started = time.perf_counter()
        outcomes = [run_probe(probe) for probe in listed]
    took = time.perf_counter() - started
    crashed = [o for o in outcomes if o.traceback]
    wrong = [o for o in outcomes if o.problems]
    codes = Counter(o.code for o in outcomes)
    long = sum("line" in p for o in wrong for p in o.problems)
    lost = sum(1 for o in wrong for p in o.problems if "line" not in p and "exit" not in p)
    print(
        f"CLI probes: {len(outcomes)} tried in {took:.0f} s, {len(crashed)} tracebacks, "
        f"{long} errors longer than a line, {lost} lost or invalid run logs; "
        f"exit status {dict(sorted(codes.items(), key=str))}"
    )
    for outcome in crashed + [o for o in wrong if not o.traceback]:
        print(
            f"  {outcome.probe}: exit {outcome.code}, {'traceback, ' if outcome.traceback else ''}"
            f"{', '.join(outcome.problems)}"
        )


def fuzz(work: Path, count: int) -> None:
    template = write_demo(work / "template").dir
    runs = make_run(work / "runs")
    raised: Counter[str] = Counter()
    tried: Counter[str] = Counter()

    def note(kind: str, problem: str) -> None:
        tried[kind] += 1
        if problem:
            raised[f"{kind}: {problem[:160]}"] += 1

    common = settings(
        max_examples=count, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )

    @common
    @given(which=st.sampled_from(["steps", "info"]), change=mutations())
    def demos(which, change) -> None:  # noqa: ANN001
        note("demonstration", check_demo(template, work / "demo-work", which, change))

    @common
    @given(data=config_files())
    def configs(data) -> None:  # noqa: ANN001
        note("config file", check_config(work, data))

    @common
    @given(answer=model_answers())
    def answers(answer) -> None:  # noqa: ANN001
        note("model answer", check_answer(*answer))

    @settings(common, max_examples=max(count // 5, 1))
    @given(which=st.sampled_from(["run", "steps", "elements"]), change=mutations())
    def folders(which, change) -> None:  # noqa: ANN001
        note("run folder", check_run_folder(runs, work / "run-work", which, change))

    started = time.perf_counter()
    for generated in (demos, configs, answers, folders):
        generated()
    took = time.perf_counter() - started
    print(
        f"fuzz: {sum(tried.values())} files in {took:.0f} s ({dict(tried)}), "
        f"{sum(raised.values())} not a one-line clickwright error"
    )
    for line, times in raised.most_common(20):
        print(f"  {times} x {line}")


def faults(work: Path, rounds: int, rng: random.Random) -> None:
    tally = Tally("faults")
    app = sample_app_command(work / "state.json")

    def run(runs: Path, task: str = LONG_TASK, *extra: str, **options) -> subprocess.Popen:
        return command(
            "run",
            task,
            "--virtual",
            "--max-steps",
            "60",
            "--launch",
            app,
            "--runs-dir",
            str(runs),
            *extra,
            **options,
        )

    for n in range(rounds):  # stop signals at random moments
        runs = work / f"signal-{n}"
        signum = rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP])
        ignored = signum == signal.SIGINT and rng.random() < 0.5
        process = run(runs, ignore_sigint=ignored)
        time.sleep(rng.uniform(0.2, 14))
        process.send_signal(signum)
        what = signal.Signals(signum).name + (" (inherited ignored)" if ignored else "")
        if rng.random() < 0.4:
            time.sleep(rng.uniform(0, 1.5))
            with contextlib.suppress(ProcessLookupError):
                process.send_signal(rng.choice([signal.SIGINT, signal.SIGTERM, signal.SIGHUP]))
            what += " then a second"
        out, err = process.communicate(timeout=240)
        tally.add(
            what,
            err,
            process.returncode,
            runs,
            allowed=(0, 1, 2),
        )
    for what in ("display", "app-kill", "app-stop") * max(rounds // 4, 1):
        runs = work / f"{what}-{tally.tried}"
        process = run(runs, ", ".join(["press Tab"] * 40) if what != "display" else LONG_TASK)
        if wait_for_steps(runs, process, rng.randint(1, 6)):
            kids = children(process.pid)
            victim = [p for p, name in kids.items() if (name == "Xvfb") == (what == "display")]
            if what == "display":
                os.kill(victim[0], signal.SIGKILL)
            else:
                app_pid = [p for p in victim if kids[p].startswith("python")][0]
                os.kill(app_pid, signal.SIGKILL if what == "app-kill" else signal.SIGSTOP)
        out, err = process.communicate(timeout=240)
        tally.add(what, err, process.returncode, runs)
    for n in range(max(rounds // 4, 1)):  # SIGKILL, then the next run closes its log
        runs = work / f"sigkill-{n}"
        process = run(runs)
        wait_for_steps(runs, process, rng.randint(1, 5))
        process.kill()
        process.communicate(timeout=60)
        after = run_cli("run", "select Pro", "--virtual", "--runs-dir", str(runs))
        for run_dir in runs.iterdir():  # the killed run has no report: it could write none
            if read_run(run_dir) and "killed" in read_run(run_dir).reason:
                (run_dir / "report.html").write_text("")
        tally.add("SIGKILL, then a run", after.stderr, after.returncode, runs)
    if os.geteuid() == 0:
        words = ", ".join(f"type 'word {i} of many' into Name" for i in range(30))
        for left in (40_000, 120_000, 300_000, 700_000):  # bytes left on the disk
            with tmpfs(work / f"full-{left}", "2m", fill=left) as small:
                process = run(small / "runs", words)
                out, err = process.communicate(timeout=300)
                tally.add(
                    f"disk full ({left // 1000} KB left)", err, process.returncode, small / "runs"
                )
        with tmpfs(work / "ro-runs", "1m", read_only=True) as ro:
            process = run(ro)
            out, err = process.communicate(timeout=120)
            tally.add("read-only runs folder", err, process.returncode, None)
    tally.show()


def secrets(work: Path) -> None:
    """Runs that type SECRET given four ways, the first saved as a demonstration and replayed
    with the secret as a parameter; then every file written, and stdout/stderr."""
    app = sample_app_command(work / "state.json") + " --password-field"
    runs, demos = work / "runs", work / "demos"
    tasks = {
        "into the Password field": f"type '{SECRET}' into the Password field, "
        f"type '{SECRET}' into Name, then select Pro",
        "into a misspelt field": f"type '{SECRET}' into Pasword, type '{SECRET}' into Email, "
        "then select Pro",
        "named a password in the task": f"type the password '{SECRET}' into Name, then select Pro",
        "into a PIN field the app lacks": f"type '{SECRET}' into the PIN field, then select Pro",
    }
    said: list[str] = []
    outcomes = []
    for how, task in tasks.items():
        done = run_cli(
            "run", task, "--virtual", "--launch", app, "--runs-dir", str(runs), "--json",
            timeout=300,
        )  # fmt: skip
        said += [done.stdout, done.stderr]
        outcomes.append(
            f"{how}: {json.loads(done.stdout)['outcome'] if done.stdout else done.stderr.strip()}"
        )
    first = min(runs.iterdir())
    saved = run_cli("demos", "save-run", str(first), "signup", "--demos-dir", str(demos))
    said += [saved.stdout, saved.stderr]
    if (demos / "signup").exists():
        params = json.loads((demos / "signup" / "demo.json").read_text())["parameters"]
        secret_params = [f"{k}={SECRET}" for k, p in params.items() if p.get("secret")]
        replayed = run_cli(
            "replay", "signup", "--virtual", "--launch", app, "--runs-dir", str(runs), "--yes",
            "--demos-dir", str(demos), *[a for v in secret_params for a in ("--param", v)],
            timeout=300,
        )  # fmt: skip
        said += [replayed.stdout, replayed.stderr]
        outcomes.append(
            f"replay with --param (secret parameters {len(secret_params)}): "
            f"exit {replayed.returncode} {replayed.stderr.strip()[:200]}"
        )
    files = [p for p in work.rglob("*") if p.is_file() and "state" not in p.name]
    hits = [str(p.relative_to(work)) for p in files if SECRET.encode() in p.read_bytes()]
    hits += [f"terminal output {n}" for n, text in enumerate(said) if SECRET in text]
    print(
        f"secrets: {len(outcomes)} ways, {len(files)} files and {len(said)} outputs scanned, "
        f"{len(hits)} hits"
    )
    for line in outcomes + [f"  hit: {h}" for h in hits]:
        print(f"  {line}")


def endpoints(work: Path) -> None:
    """A model endpoint failing in each way, with the default time-outs and tries: exit
    status, what the run said, and how long it lasted (run.json's start to its end)."""
    from model_server import ModelServer, Reply, openai_error, unconnectable

    closed = socket.socket()
    closed.bind(("127.0.0.1", 0))  # bound, never listening: connections are refused
    cases = {
        "takes requests, never answers": lambda: ModelServer([Reply(delay=600)] * 3),
        "cannot be connected to (queue full)": unconnectable,
        "refuses connections": lambda: contextlib.nullcontext(
            f"http://127.0.0.1:{closed.getsockname()[1]}/v1"
        ),
        "answers 500": lambda: ModelServer([openai_error(500, "overloaded")] * 3),
        "answers HTML": lambda: ModelServer([Reply(body=b"<html>", content_type="text/html")]),
    }
    for name, serving in cases.items():
        runs = work / name.split()[0]
        with serving() as served:
            url = served if isinstance(served, str) else served.url + "/v1"
            done = run_cli(
                "run", "save the form", "--backend", "openai", "--base-url", url, "--model", "m",
                "--virtual", "--runs-dir", str(runs),
            )  # fmt: skip
        run = next((read_run(d) for d in runs.iterdir()), None) if runs.exists() else None
        lasted = f"{run.ended - run.started:.1f} s" if run and run.ended else "no run log"
        said = [line for line in done.stdout.splitlines() if line.startswith("error")]
        print(
            f"endpoint {name}: exit {done.returncode} after {lasted}, "
            f"{len(done.stderr.splitlines())} line(s) on stderr; {said[-1] if said else ''}"
        )
    closed.close()


def rss_kb(pid: int) -> int:
    with contextlib.suppress(OSError):
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def soak(work: Path, steps: int) -> None:
    """`steps` actions on the sample app, each leaving a screen never seen before (a letter
    more in the Name field), so that no frame is stored or inlined only once for many steps."""
    runs = work / "runs"
    letters = "abcdefghijklmnopqrstuvwxyz"
    presses = [f"press {letters[n % 26]}" for n in range(steps - 1)]
    task = ", ".join(["type 'x' into Name", *presses])
    started = time.perf_counter()
    process = command(
        "run",
        task,
        "--virtual",
        "--max-steps",
        str(steps + 5),
        "--json",
        "--launch",
        sample_app_command(work / "state.json"),
        "--runs-dir",
        str(runs),
    )
    samples: list[tuple[int, int]] = []  # (steps logged, RSS kB)
    while process.poll() is None:
        run_dir = next(runs.iterdir(), None) if runs.exists() else None
        logged = read_run(run_dir).steps if run_dir and read_run(run_dir) else 0
        if logged and (kb := rss_kb(process.pid)):
            samples.append((logged, kb))
        time.sleep(2)
    out, err = process.communicate()
    took = time.perf_counter() - started
    summary = json.loads(out) if out.strip() else {"outcome": err.strip()}
    run_dir = Path(summary.get("run_dir", next(runs.iterdir())))
    report_started = time.perf_counter()  # again, alone: the command's (any version's) writer
    subprocess.run(
        [sys.executable, "-c", "import sys; from clickwright.app.report import write_report; "
         "write_report(sys.argv[1])", str(run_dir)],
        check=True,
    )  # fmt: skip
    report_took = time.perf_counter() - report_started
    report = run_dir / "report.html"
    size = sum(
        p.stat().st_size for p in run_dir.rglob("*") if p.is_file() and p.name != "report.html"
    )
    frames = len(list((run_dir / "frames").iterdir()))
    first = next((kb for n, kb in samples if n >= 5), samples[0][1] if samples else 0)
    acting = [kb for n, kb in samples if n < (summary.get("steps") or 0)] or [0]
    last, peak = acting[-1], max(kb for _, kb in samples) if samples else 0
    print(
        f"soak: {summary.get('steps')} steps in {took:.0f} s ({summary.get('outcome')}: "
        f"{summary.get('reason', '')[:80]})"
    )
    print(
        f"  RSS after 5 steps {first / 1024:.0f} MB, at the end {last / 1024:.0f} MB "
        f"(growth {(last - first) / 1024:+.0f} MB); peak, while the report is written, "
        f"{peak / 1024:.0f} MB"
    )
    for fraction in (0.25, 0.5, 0.75):
        if samples:
            n, kb = samples[int(len(samples) * fraction)]
            print(f"  RSS at step {n}: {kb / 1024:.0f} MB")
    print(
        f"  run folder {size / 1e6:.1f} MB ({frames} frame files), "
        f"report {report.stat().st_size / 1e6:.1f} MB "
        f"built in {report_took:.1f} s"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", default="probes,fuzz,faults,secrets,endpoints,soak")
    parser.add_argument("--fuzz", type=int, default=4000, help="examples per fuzzed file kind")
    parser.add_argument("--rounds", type=int, default=12, help="random signal injections")
    parser.add_argument("--soak-steps", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=15)
    parser.add_argument(
        "--against", default="", help="PYTHONPATH of another clickwright whose commands to run"
    )
    args = parser.parse_args()
    if args.against:  # every command this script starts runs that version
        os.environ["PYTHONPATH"] = args.against
        os.chdir(tempfile.gettempdir())  # not this checkout, whose clickwright/ comes first
    rng = random.Random(args.seed)
    sections = args.only.split(",")
    with tempfile.TemporaryDirectory(prefix="cw-hardening-") as tmp:
        work = Path(tmp)
        for name in sections:
            section_dir = work / name
            section_dir.mkdir()
            if name == "probes":
                probes(section_dir)
            elif name == "fuzz":
                fuzz(section_dir, args.fuzz)
            elif name == "faults":
                faults(section_dir, args.rounds, rng)
            elif name == "secrets":
                secrets(section_dir)
            elif name == "endpoints":
                endpoints(section_dir)
            elif name == "soak":
                soak(section_dir, args.soak_steps)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
