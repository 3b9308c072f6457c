"""Voll auf die 18's VectorGame speed and where a step's time goes (a measurement script).

    python -m benchmarks.voll_auf_die_18_speed

Decisions per second (joint steps, as benchmarks/throughput.py counts them) of
``VectorGame.random_steps`` with 1024 games, 1 thread and all threads, at 2 and 4 players; then
the time of one ``refresh`` (every seat's masks) and of one ``observe`` per seat on records of
random games. Numbers from a loaded machine compare only with runs made back to back.
"""

import time

import numba
import numpy as np
from numba import njit

from benchmarks.common import median_rate
from envs.core.vector import VectorGame
from envs.voll_auf_die_18 import engine as E


@njit(cache=True)
def _refresh_all(states, repeats):
    for _ in range(repeats):
        for i in range(states.shape[0]):
            E.refresh(states[i])
    return repeats * states.shape[0]


@njit(cache=True)
def _observe_all(states, out, repeats):
    done = 0
    for _ in range(repeats):
        for i in range(states.shape[0]):
            for seat in range(states[i].num_players):
                out[:] = 0.0
                E.observe(states[i], seat, out)
                done += 1
    return done


def main():
    for players in (2, 4):
        vg = VectorGame("voll_auf_die_18_v0", 1024, seed=0, num_players=players)
        vg.reset()
        for threads in (1, numba.config.NUMBA_NUM_THREADS):
            numba.set_num_threads(threads)
            rate = median_rate(lambda: vg.random_steps(200), 5)
            print(f"{players}p vec-nb 1024 x{threads}t: {rate / 1e6:.3f} M decisions/s", flush=True)
        numba.set_num_threads(1)
        states = vg.get_state()
        states = states[states["terminal"] == 0]
        out = np.zeros(E.LAYOUT.size, np.float32)
        for name, run in (("refresh", lambda: _refresh_all(states, 20)), ("observe (one seat)", lambda: _observe_all(states, out, 20))):
            rate = median_rate(run, 5)
            print(f"{players}p {name}: {1e6 / rate:.2f} us", flush=True)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


if __name__ == "__main__":
    main()
