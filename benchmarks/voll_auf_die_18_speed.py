"""Voll auf die 18's VectorGame speed and where a step's time goes (a measurement script).

    python -m benchmarks.voll_auf_die_18_speed
    python -m benchmarks.voll_auf_die_18_speed --views
    python -m benchmarks.voll_auf_die_18_speed --ab OTHER_TREE [--rounds 5]

Decisions per second (joint steps, as benchmarks/throughput.py counts them) of
``VectorGame.random_steps`` with 1024 games, 1 thread and all threads, at 2 and 4 players; then
the time of one ``refresh`` (every seat's masks) and of one ``observe`` per seat on records of
random games. Numbers from a loaded machine compare only with runs made back to back.

``--views`` measures instead what one seat's view costs with and without ``observe_hints`` (the
self-play preset trains with it) and its two hint parts alone (``team_hints``, ``exchange_gains``),
at 2-5 players on records of random chapter-1 play, 1 thread, the variants interleaved round by
round so load drifts hit them alike; it writes ``benchmarks/results/voll_auf_die_18_views.md``.
"""

import argparse
import os
import statistics
import sys
import time

import numba
import numpy as np
from numba import njit

from benchmarks.common import command_line, machine_line, median_rate, write_result
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


@njit(cache=True)
def _exchange_all(states, repeats):
    """exchange_gains for every seat of every record, ``repeats`` times; returns the views done."""
    n = (E.MAX_PLAYERS - 1) * E.HAND
    offer, accept, bib = np.zeros(n), np.zeros(n), np.zeros(E.HAND * E.NUM_ARG)
    done = 0
    for _ in range(repeats):
        for i in range(states.shape[0]):
            for seat in range(states[i].num_players):
                E.exchange_gains(states[i], seat, offer, accept, bib)
                done += 1
    return done


@njit(cache=True)
def _team_hints_all(states, repeats):
    """team_hints for every seat of every record, ``repeats`` times; returns the views done."""
    hint = np.zeros((E.NUM_SLOTS, E.MAX_PLAYERS), np.int8)
    ways = np.zeros(E.NUM_SLOTS, np.int16)
    done = 0
    for _ in range(repeats):
        for i in range(states.shape[0]):
            for seat in range(states[i].num_players):
                E.team_hints(states[i], seat, hint, ways)
                done += 1
    return done


def view_records(players, games=512, steps=60, seed=0):
    """Live records of random chapter-1 play: ``games`` games after ``steps`` random joint steps
    (terminal ones dropped), so hands, Bib and face-up Nazis are those of real play."""
    vg = VectorGame("voll_auf_die_18_v0", games, seed=seed, num_players=players, chapter=1)
    vg.reset()
    vg.random_steps(steps)
    states = vg.get_state()
    return states[states["terminal"] == 0].copy()


def measure_views(players, rounds, repeats):
    """Per-view microseconds of each variant (median over ``rounds`` interleaved rounds), and facts
    about the records measured on."""
    states = view_records(players)
    on, off = states.copy(), states.copy()
    on["observe_hints"], off["observe_hints"] = 1, 0
    out = np.zeros(E.LAYOUT.size, np.float32)
    variants = {"observe, no hints": lambda: _observe_all(off, out, repeats),
                "observe_hints": lambda: _observe_all(on, out, repeats),
                "team_hints alone": lambda: _team_hints_all(on, repeats),
                "exchange_gains alone": lambda: _exchange_all(on, repeats)}
    for run in variants.values():
        run()  # compile and warm
    times = {name: [] for name in variants}
    for _ in range(rounds):
        for name, run in variants.items():
            start = time.perf_counter()
            views = run()
            times[name].append((time.perf_counter() - start) / views * 1e6)
    return {name: statistics.median(t) for name, t in times.items()}, len(states), _mean_slots(states)


@njit(cache=True)
def _mean_slots(states):
    """The mean number of Nazis in the hint slots (stack top and spaces) of ``states``."""
    total = 0
    for i in range(states.shape[0]):
        for slot in range(E.NUM_SLOTS):
            total += E.nazi_in_slot(states[i], slot) >= 0
    return total / max(1, states.shape[0])


def views_page(rows, argv, seconds, loads):
    lines = ["# Voll auf die 18: the cost of one view with and without hints", "",
             f"Machine: {machine_line()}. Command: `{command_line('benchmarks.voll_auf_die_18_speed', argv)}`. "
             f"Run took {seconds:.0f} s; 1-minute load average {min(loads):.1f}-{max(loads):.1f} "
             "(2.0 fills this 2-core machine).", "",
             "Microseconds per view (one seat's observation), 1 thread, median of interleaved rounds, on live "
             "records after 60 random joint steps of chapter-1 play (512 games, terminal ones dropped). "
             "`observe_hints` is the whole view with the hint blocks; the two parts alone are the argue hints "
             "(`engine.team_hints`) and the exchange hints (`engine.exchange_gains`).", "",
             "| players | records | Nazis in slots (mean) | observe, no hints | observe_hints | team_hints alone "
             "| exchange_gains alone |",
             "|---|---|---|---|---|---|---|"]
    for players, (cost, records, slots) in rows.items():
        lines.append(f"| {players} | {records} | {slots:.1f} | " + " | ".join(f"{cost[k]:.2f}" for k in
                     ("observe, no hints", "observe_hints", "team_hints alone", "exchange_gains alone")) + " |")
    return "\n".join(lines) + "\n"


def views_main(argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--views", action="store_true")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4, 5])
    args = parser.parse_args(argv)
    numba.set_num_threads(1)
    start, rows, loads = time.perf_counter(), {}, [os.getloadavg()[0]]
    for players in args.players:
        rows[players] = measure_views(players, args.rounds, args.repeats)
        loads.append(os.getloadavg()[0])
        cost = rows[players][0]
        print(f"{players}p " + ", ".join(f"{k}: {v:.2f} us" for k, v in cost.items()) + f" (load {loads[-1]:.2f})",
              flush=True)
    path = write_result("voll_auf_die_18_views", views_page(rows, argv, time.perf_counter() - start, loads))
    print(f"wrote {path}")


def rate_main(argv):
    """``--rate PLAYERS THREADS``: one line, the median decisions/s of 5 runs of 200 random steps of
    1024 games (what ``--ab`` runs in each tree)."""
    players, threads = int(argv[1]), int(argv[2])
    vg = VectorGame("voll_auf_die_18_v0", 1024, seed=0, num_players=players)
    vg.reset()
    numba.set_num_threads(threads)
    vg.random_steps(20)
    print(median_rate(lambda: vg.random_steps(200), 5), flush=True)


def ab_main(argv):
    """``--ab OTHER_TREE [--rounds N]``: decisions/s of this checkout against another one (e.g. a
    ``git archive`` of the commit to compare with, its numba cache warmed), at 2 and 4 players, 1
    and all threads, in fresh processes that alternate between the trees round by round (so load
    drifts hit both alike); prints each round and the medians."""
    import subprocess
    parser = argparse.ArgumentParser()
    parser.add_argument("--ab", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    trees = {"this": os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "other": os.path.abspath(args.ab)}
    cases = [(p, t) for p in (2, 4) for t in (1, numba.config.NUMBA_NUM_THREADS)]
    rates = {(name, case): [] for name in trees for case in cases}
    for r in range(args.rounds):
        for case in cases:
            order = list(trees.items()) if r % 2 == 0 else list(trees.items())[::-1]
            for name, tree in order:
                env = dict(os.environ, PYTHONPATH=tree)
                out = subprocess.run([sys.executable, "-m", "benchmarks.voll_auf_die_18_speed", "--rate", *map(str, case)],
                                     cwd=tree, env=env, capture_output=True, text=True, check=True).stdout
                rates[name, case].append(float(out.split()[-1]))
            print(f"round {r}: {case[0]}p x{case[1]}t " + ", ".join(
                f"{name} {rates[name, case][-1] / 1e6:.3f}" for name in trees) + " M decisions/s", flush=True)
    for case in cases:
        this, other = (statistics.median(rates[name, case]) for name in trees)
        print(f"{case[0]}p x{case[1]}t: this {this / 1e6:.3f}, other {other / 1e6:.3f} M decisions/s "
              f"(median of {args.rounds}), ratio {this / other:.2f}")


def main():
    if "--views" in sys.argv[1:]:
        views_main(sys.argv[1:])
        return
    if sys.argv[1:2] == ["--rate"]:
        rate_main(sys.argv[1:])
        return
    if "--ab" in sys.argv[1:]:
        ab_main(sys.argv[1:])
        return
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
