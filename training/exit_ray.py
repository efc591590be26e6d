"""Expert iteration's self-play on a Ray cluster (``exit.backend: ray``).

The same tasks as the local worker processes (:class:`.expert_iteration.SelfPlayPool`),
each one Ray task of one CPU: a task depends only on its own seeds, so a generation's
games are the same on any number of nodes, and a task whose worker or node dies is simply
run again (``max_retries``, Ray's task fault tolerance) with the same result. Where Ray
runs: ``exit.ray_address``, else ``$RAY_ADDRESS`` (``auto`` joins the cluster this machine
belongs to), else a local Ray of ``exit.workers`` CPUs, as RLlib's trainer starts one.
Each game's result names the node that played it, so a run can show where its games went.
"""

from __future__ import annotations

import os
from typing import Any

from .exit_selfplay import SelfPlayTask, play_chunk

TASK_RETRIES = 3  # a game whose worker died is played again, from its own seeds


def _lost_worker_errors() -> tuple[type[BaseException], ...]:
    """What ``ray.get`` raises for a task whose worker or node died past its retries."""
    from ray.exceptions import NodeDiedError, ObjectLostError, WorkerCrashedError

    return (WorkerCrashedError, NodeDiedError, ObjectLostError)


def _play_on_node(tasks: list[SelfPlayTask]) -> list[dict[str, Any]]:
    """One Ray task: the games, each marked with the node that played it."""
    import ray

    node = ray.get_runtime_context().get_node_id()
    return [{**game, "node": node} for game in play_chunk(tasks)]


class RaySelfPlayPool:
    """Plays a generation's tasks as Ray tasks (the local pool's ``play``/``kill``/``close``)."""

    def __init__(self, workers: int, address: str | None = None) -> None:
        self.workers = workers
        self.address = address or os.environ.get("RAY_ADDRESS")
        self._remote: Any = None
        self._owns_ray = False
        self._pending: list[Any] = []

    def _connect(self) -> Any:
        import ray

        if self._remote is None:
            if not ray.is_initialized():
                if self.address:
                    print(f"expert iteration: self-play on the Ray cluster at {self.address}")
                    ray.init(address=self.address, logging_level="ERROR")
                else:  # "local": a new Ray, never a stale cluster recorded in /tmp/ray
                    ray.init(
                        address="local",
                        num_cpus=self.workers,
                        include_dashboard=False,
                        logging_level="ERROR",
                    )
                self._owns_ray = True
            # one CPU a task: Ray then sets OMP_NUM_THREADS=1 in its worker, one BLAS
            # thread as the local workers have (two cost a search 5-6x the CPU)
            self._remote = ray.remote(num_cpus=1, max_retries=TASK_RETRIES)(_play_on_node)
        return ray

    def play(self, tasks: list[SelfPlayTask]) -> list[dict[str, Any]]:
        """Every task's game (in any order); a stop signal cancels the rest. A task whose
        worker died more than ``TASK_RETRIES`` times stops the run in one line
        (:class:`ChildProcessError`); the generation's games are dropped."""
        ray = self._connect()
        self._pending = [self._remote.remote([task]) for task in tasks]
        results: list[dict[str, Any]] = []
        lost = _lost_worker_errors()
        try:
            pending = list(self._pending)
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                results.extend(ray.get(done[0]))
        except lost as err:
            self.kill()
            raise ChildProcessError(
                f"a self-play task's Ray worker died and its {TASK_RETRIES} retries are used "
                f"up ({type(err).__name__}; {len(results)} of {len(tasks)} games finished); "
                "the generation is dropped (a worker or node killed, or out of memory)"
            ) from None
        except BaseException:
            self.kill()
            raise
        self._pending = []
        return results

    def kill(self) -> None:
        """Cancel the tasks still running (their games are dropped)."""
        if self._pending:
            import ray

            for ref in self._pending:
                ray.cancel(ref, force=True)
            self._pending = []

    def close(self) -> None:
        if self._owns_ray:
            import ray

            ray.shutdown()
            self._owns_ray = False
        self._remote = None
