"""Compile and cache every engine and kernel ahead of time: ``python -m envs.warmup [env ids]``.

``make install`` runs it after pip, so that ``make demo``, ``make test`` and a user's first game
load compiled code instead of compiling for tens of seconds per game. Per game it drives, through
their public interfaces and with the argument types they use, everything that calls numba:

- the AEC and Parallel envs: a random game (reset, step, observe, state, legal actions), a
  ``set_state`` round trip (the record checks);
- :class:`envs.core.vector.VectorGame`: reset, step, random steps, ``set_state``;
- the game's heuristic agent (a whole game) and the ISMCTS search (a few decisions), when the
  ``agents`` package is importable;
- the batched training envs of :mod:`training.vector_env` (``LearnerVecEnv`` with random and
  heuristic opponents, or ``TeamVecEnv`` for the cooperative game) and a frozen snapshot's
  compiled forward (:mod:`training.numba_policy`), when stable-baselines3 is installed (the
  ``train`` extra).

Games compile ``--jobs`` at a time (default 2), each in its own process, since numba compiles on
one core; a pass in this process then checks that every game loads from the cache. One line per
game says how long it took and whether anything had to be compiled. A warm cache makes the whole
run take seconds; the cold times are kept (in the cache root) for the notice a compile at run
time prints (see :mod:`envs.core.cache`).
"""

import argparse
import concurrent.futures
import importlib.util
import multiprocessing
import os
import time

import numpy as np
from numba.core import event

import envs
from envs.core import cache
from envs.core.game import engine_function
from envs.core.vector import VectorGame
from envs.testing.play import play_aec, play_parallel

SEARCH_DECISIONS = 6  # a few ISMCTS decisions compile the whole search


class _CompileCounter(event.Listener):
    def __init__(self):
        self.count = 0

    def on_start(self, event):
        self.count += 1

    def on_end(self, event):
        pass


def warm_envs(env_id, seed=0):
    """The PettingZoo adapters and the record checks."""
    env = envs.make(env_id)
    play_aec(env, seed)
    env.reset(seed=seed)
    env.unwrapped.set_state(env.unwrapped.get_state())
    env.unwrapped.state()
    if not env.unwrapped.game.simultaneous:
        env.unwrapped.legal_actions()
    play_parallel(envs.make_parallel(env_id), seed)


def warm_vector(env_id, seed=0, steps=8):
    """VectorGame's batch kernels."""
    batch = VectorGame(env_id, num_envs=2, seed=seed)
    batch.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        batch.step(_random_actions(batch.action_mask, rng))
    batch.random_steps(steps)
    batch.random_steps(steps, observe=False)
    batch.set_state(batch.get_state())


def _random_actions(masks, rng):
    """A uniformly random legal action per row of ``masks`` (any leading shape); 0 where none is legal."""
    scores = rng.random(masks.shape) * (masks != 0)
    return scores.argmax(axis=-1).astype(np.int64)


def warm_agents(env_id, seed=0):
    """The heuristic agent (a whole game) and the ISMCTS search (a few decisions)."""
    from agents import RandomAgent, make_agent
    from agents.heuristic import has_heuristic, heuristic_for
    from envs.core.play import play_game

    game = envs.game_of(env_id)
    players = game.default_players
    if has_heuristic(env_id):
        play_game(env_id, [heuristic_for(env_id, seed=seed + seat) for seat in range(players)], seed)
    if engine_function(game.engine.STATE, "determinize") is not None:  # ISMCTS searches only such games
        lineup = [make_agent("ismcts:8", env_id, seed=seed)] + [RandomAgent(seed=seat) for seat in range(1, players)]
        play_game(env_id, lineup, seed, config={"max_cycles": SEARCH_DECISIONS * players})


def warm_training(env_id, seed=0, steps=12):
    """The batched self-play kernels, through the SB3 vector envs, with random and heuristic opponents."""
    from agents.heuristic import has_heuristic
    from training.vector_env import LearnerVecEnv, TeamVecEnv

    if envs.game_of(env_id).simultaneous:
        batch = TeamVecEnv(env_id, num_games=2, seed=seed)
    else:
        weights = (0.5, 0.5 if has_heuristic(env_id) else 0.0, 0.0)  # random and heuristic opponents
        batch = LearnerVecEnv(env_id, num_envs=2, seed=seed, weights=weights)
    batch.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        batch.step(_random_actions(batch.action_masks(), rng))
    _warm_snapshot(env_id, batch)


def _warm_snapshot(env_id, batch):
    """A frozen snapshot's compiled moves (training.numba_policy), sampled and greedy, on the
    preset's network: the kernels every run with snapshot opponents calls."""
    from training.networks import preset_policy
    from training.vector_env import SnapshotPolicy

    obs, masks = batch.reset(), batch.action_masks()
    for deterministic in (False, True):
        SnapshotPolicy(preset_policy(env_id), deterministic=deterministic, seed=0)(obs, masks)


def stages():
    """The warm-up stages this installation can run (agents and training are optional)."""
    found = [warm_envs, warm_vector]
    if importlib.util.find_spec("agents") is not None:
        found.append(warm_agents)
        if importlib.util.find_spec("stable_baselines3") is not None and importlib.util.find_spec("training"):
            found.append(warm_training)
    return found


def warm(env_id):
    """Run every stage for ``env_id``; returns (wall seconds, CPU seconds, number of functions compiled)."""
    counter = _CompileCounter()
    started, cpu = time.perf_counter(), time.process_time()
    cache.NOTICE.enabled = False  # the warm-up announces itself, game by game
    try:
        with event.install_listener("numba:compile", counter):
            for stage in stages():
                stage(env_id)
    finally:
        cache.NOTICE.enabled = True
    return time.perf_counter() - started, time.process_time() - cpu, counter.count


def _report(env_id, seconds, cpu, compiled):
    if compiled:
        cache.record_compile_seconds(cache.engine_label(envs.game_of(env_id).engine.__name__), seconds)
        print(f"  {env_id:<24}compiled {compiled} functions, {seconds:5.1f} s ({cpu:.0f} s CPU)", flush=True)
    else:
        print(f"  {env_id:<24}cached, {seconds:5.1f} s", flush=True)


def warm_in_processes(env_ids, jobs):
    """Warm the games ``jobs`` at a time, each in a fresh process (numba compiles on one core);
    returns the CPU seconds the processes used."""
    used = 0.0
    spawn = multiprocessing.get_context("spawn")  # no forked numba or torch state
    with concurrent.futures.ProcessPoolExecutor(jobs, mp_context=spawn) as pool:
        futures = {pool.submit(warm, env_id): env_id for env_id in env_ids}
        for future in concurrent.futures.as_completed(futures):
            seconds, cpu, compiled = future.result()
            _report(futures[future], seconds, cpu, compiled)
            used += cpu
    # Two processes saving one function's cache index at the same moment can lose an entry: a
    # pass here recompiles whatever is missing, so that nothing compiles at run time later.
    lost = sum(warm(env_id)[2] for env_id in env_ids)
    print(f"  every game loads from the cache{f' ({lost} lost entries recompiled)' if lost else ''}", flush=True)
    return used


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m envs.warmup", description=__doc__.split("\n\n")[0])
    parser.add_argument("env_ids", nargs="*", metavar="ENV_ID", help=f"default: all of {', '.join(envs.ENV_IDS)}")
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="games compiled at once, each in its own process (default: %(default)s)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error(f"--jobs must be at least 1, got {args.jobs}")
    for env_id in args.env_ids:
        try:
            envs.game_of(env_id)
        except ValueError as error:
            parser.error(str(error))
    env_ids = args.env_ids or envs.ENV_IDS
    names = ", ".join(stage.__name__.removeprefix("warm_") for stage in stages())
    print(f"numba cache: {cache.cache_folder()}; compiling {names} for {len(env_ids)} game(s), "
          f"{args.jobs} at a time (only what is not cached yet)", flush=True)
    started = time.perf_counter()
    used = 0.0
    if args.jobs > 1 and len(env_ids) > 1:
        used = warm_in_processes(env_ids, args.jobs)
    else:
        for env_id in env_ids:
            _report(env_id, *warm(env_id))
    print(f"done in {time.perf_counter() - started:.0f} s ({used + time.process_time():.0f} s CPU)", flush=True)


if __name__ == "__main__":
    main()
