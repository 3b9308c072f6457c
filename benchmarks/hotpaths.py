"""The named hot paths and every engine's step: numba against the same code as plain Python.

    python -m benchmarks.hotpaths [--quick]

Positions are recorded from random games (a VectorGame of 64 games after random play, sampled
at several moments), so the hot paths run on real positions. Each measurement runs twice in a
fresh process: once compiled, once with NUMBA_DISABLE_JIT=1, which runs the identical functions
(engine and driver loop alike) as plain Python. Reported: calls per second and the speed-up.

Hot paths:
  teufel_teufel_v0       reachable_squares: the breadth-first search of a disc's destinations
  volles_fass_voraus_v0  extractable: which barrels can be pulled straight back off a deck
  voll_auf_die_18_v0     refresh: the subset-sum argument search (seat_options) of every seat for
                         every face-up Nazi, which every step runs for the legal masks
Writes benchmarks/results/hotpaths.md.
"""

import argparse
import json
import os
import subprocess
import sys

import envs

from .common import command_line, fmt_rate, machine_line, write_result

MEASURE = r"""
import json, sys, time
import numpy as np
import envs
from envs.core.vector import VectorGame
from benchmarks import hotpaths

env_id, kind, calls = sys.argv[1], sys.argv[2], int(sys.argv[3])
positions = hotpaths.record_positions(env_id)
runner = hotpaths.RUNNERS[kind]
runner(env_id, positions, 1)  # compile (or warm up) outside the clock
start = time.perf_counter()
done = runner(env_id, positions, calls)
print(json.dumps({"rate": done / (time.perf_counter() - start), "positions": len(positions)}))
"""


def record_positions(env_id, games=64, moments=8, steps_between=15):
    """Game records from random play: ``games`` games sampled at ``moments`` points."""
    import numpy as np

    from envs.core.vector import VectorGame

    vg = VectorGame(env_id, games, seed=12345)
    vg.reset()
    records = []
    for _ in range(moments):
        vg.random_steps(steps_between)
        records.append(vg.get_state())
    return np.concatenate(records)


# ---- runners: each returns how many calls it made ------------------------------------------


def run_step(env_id, positions, calls):
    """Engine steps: random legal decisions from the recorded positions (mask + choice + step)."""
    from envs.core.vector import VectorGame

    vg = VectorGame(env_id, 1, seed=0)
    vg.set_state(positions[:1])
    return vg.random_steps(calls, observe=False)


def _kernel_runner(name):
    """A runner for a driver loop of benchmarks/_hot_kernels.py, imported when first called (after
    NUMBA_DISABLE_JIT is set for the pure-Python mode)."""
    def run(env_id, positions, calls):
        from benchmarks import _hot_kernels

        done, _checksum = getattr(_hot_kernels, name)(positions, calls)
        return done

    return run


RUNNERS = {"step": run_step, "teufel_reachable": _kernel_runner("teufel_reachable_loop"),
           "fass_extractable": _kernel_runner("fass_extractable_loop"), "vad18_search": _kernel_runner("vad18_search_loop")}
HOT_PATHS = {
    "voll_auf_die_18_v0": ("argument search for every face-up Nazi (refresh: every seat's legal masks)", "vad18_search"),
    "teufel_teufel_v0": ("reachable_squares (BFS over the board)", "teufel_reachable"),
    "volles_fass_voraus_v0": ("extractable (barrel geometry)", "fass_extractable"),
}


def measure(env_id, kind, calls, disable_jit):
    environment = {**os.environ, "NUMBA_DISABLE_JIT": "1" if disable_jit else "0"}
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    result = subprocess.run([sys.executable, "-c", MEASURE, env_id, kind, str(calls)], capture_output=True,
                            text=True, env=environment, cwd=root, timeout=3600)
    if result.returncode != 0:
        raise RuntimeError(f"{env_id} {kind}: {result.stderr[-2000:]}")
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--env", action="append")
    args = parser.parse_args(argv)
    fast, slow = (200_000, 2_000) if args.quick else (2_000_000, 20_000)
    rows = []
    for env_id in args.env or envs.ENV_IDS:
        work = [("step", "engine step (mask + random choice + step)")]
        if env_id in HOT_PATHS:
            label, kind = HOT_PATHS[env_id]
            work.insert(0, (kind, label))
        for kind, label in work:
            print(f"measuring {env_id}: {label}", flush=True)
            compiled = measure(env_id, kind, fast, disable_jit=False)
            python = measure(env_id, kind, slow, disable_jit=True)
            rows.append((env_id, label, compiled["rate"], python["rate"], compiled["positions"]))
    lines = ["# Hot paths: numba against the same code as plain Python", "",
             f"Machine: {machine_line()}. Command: `{command_line('benchmarks.hotpaths', argv)}`.",
             "", "Calls per second on positions recorded from random games; plain Python is the identical code "
             "run with NUMBA_DISABLE_JIT=1. Target: at least 50x.", "",
             "| env | function | numba calls/s | plain Python calls/s | speed-up | positions |",
             "|---|---|---:|---:|---:|---:|"]
    for env_id, label, fast_rate, slow_rate, positions in rows:
        speedup = fast_rate / slow_rate
        lines.append(f"| {env_id} | {label} | {fmt_rate(fast_rate)} | {fmt_rate(slow_rate)} | "
                     f"{speedup:,.0f}x{'' if speedup >= 50 else ' (below 50x)'} | {positions} |")
    path = write_result("hotpaths", "\n".join(lines) + "\n")
    print(path.read_text())


if __name__ == "__main__":
    main()
