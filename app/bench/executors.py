"""Where episodes run: K worker processes on this machine, or a Ray cluster.

Each episode needs its own display and browser, and the desktop device binds one X display per
process, so episodes run in processes, never threads. Results arrive as episodes finish, in any
order; `on_result` sees each one (for the progress bar).
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor, as_completed

from clickwright.app.bench.miniwob import EpisodeResult, EpisodeSpec, run_episode
from clickwright.errors import ClickwrightError

OnResult = Callable[[EpisodeResult], None]


def run_local(specs: Iterable[EpisodeSpec], workers: int, on_result: OnResult) -> None:
    """Episodes of one task go to the same worker in a row where possible, since a worker keeps
    its browser while the task stays the same."""
    context = multiprocessing.get_context("spawn")  # no X connection or thread is inherited
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = [pool.submit(run_episode, spec) for spec in specs]
        for future in as_completed(futures):
            on_result(future.result())


def run_ray(specs: Iterable[EpisodeSpec], address: str | None, on_result: OnResult) -> None:
    """The same episodes as Ray tasks, on the cluster at `address` (None: a local instance)."""
    try:
        import ray
    except ImportError:
        raise ClickwrightError(
            "--executor ray needs Ray", "pip install 'clickwright[bench]'"
        ) from None
    started_here = not ray.is_initialized()
    if started_here:
        try:
            ray.init(address=address, include_dashboard=False, log_to_driver=False)
        except (ConnectionError, RuntimeError, ValueError) as error:
            raise ClickwrightError(
                f"cannot reach the Ray cluster at {address}: {error}",
                "check --ray-address (e.g. ray://head:10001), or leave it out for a local Ray",
            ) from None
    try:
        episode = ray.remote(num_cpus=1)(run_episode)
        pending = [episode.remote(spec) for spec in specs]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            on_result(ray.get(done[0]))
    finally:
        if started_here:
            ray.shutdown()
