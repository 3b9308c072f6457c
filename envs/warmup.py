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
  heuristic opponents, or ``TeamVecEnv`` for the cooperative game), when stable-baselines3 is
  installed (the ``train`` extra).

It prints one line per game: seconds taken and whether anything had to be compiled. A warm cache
makes the whole run take seconds; the cold times are kept (in the cache root) for the notice a
compile at run time prints (see :mod:`envs.core.cache`).
"""

import argparse
import importlib.util
import sys
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
    from agents.heuristic import heuristic_for
    from envs.core.play import play_game

    game = envs.game_of(env_id)
    players = game.default_players
    if _has_heuristic(env_id):
        play_game(env_id, [heuristic_for(env_id, seed=seed + seat) for seat in range(players)], seed)
    if engine_function(game.engine.STATE, "determinize") is not None:  # ISMCTS searches only such games
        lineup = [make_agent("ismcts:8", env_id, seed=seed)] + [RandomAgent(seed=seat) for seat in range(1, players)]
        play_game(env_id, lineup, seed, config={"max_cycles": SEARCH_DECISIONS * players})


def warm_training(env_id, seed=0, steps=12):
    """The batched self-play kernels, through the SB3 vector envs, with random and heuristic opponents."""
    from training.vector_env import LearnerVecEnv, TeamVecEnv

    game = envs.game_of(env_id)
    if game.simultaneous:
        batch = TeamVecEnv(env_id, num_games=2, seed=seed)
    else:
        batch = LearnerVecEnv(env_id, num_envs=2, seed=seed, weights=(0.5, 0.5 if _has_heuristic(env_id) else 0.0, 0.0))
    batch.reset()
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        batch.step(_random_actions(batch.action_masks(), rng))


def _has_heuristic(env_id):
    from agents.heuristic import heuristic_for

    try:
        heuristic_for(env_id)
    except ValueError:
        return False
    return True


def stages():
    """The warm-up stages this installation can run (agents and training are optional)."""
    found = [warm_envs, warm_vector]
    if importlib.util.find_spec("agents") is not None:
        found.append(warm_agents)
        if importlib.util.find_spec("stable_baselines3") is not None and importlib.util.find_spec("training"):
            found.append(warm_training)
    return found


def warm(env_id, out=sys.stdout):
    """Run every stage for ``env_id``; returns (seconds, number of functions compiled)."""
    counter = _CompileCounter()
    started = time.perf_counter()
    with event.install_listener("numba:compile", counter):
        for stage in stages():
            stage(env_id)
    return time.perf_counter() - started, counter.count


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m envs.warmup", description=__doc__.split("\n\n")[0])
    parser.add_argument("env_ids", nargs="*", metavar="ENV_ID", help=f"default: all of {', '.join(envs.ENV_IDS)}")
    args = parser.parse_args(argv)
    for env_id in args.env_ids:
        try:
            envs.game_of(env_id)
        except ValueError as error:
            parser.error(str(error))
    env_ids = args.env_ids or envs.ENV_IDS
    names = ", ".join(stage.__name__.removeprefix("warm_") for stage in stages())
    print(f"numba cache: {cache.cache_folder()}; compiling {names} for {len(env_ids)} game(s) "
          f"(only what is not cached yet)", flush=True)
    cache.NOTICE.enabled = False  # this run announces itself, game by game
    started = time.perf_counter()
    try:
        for env_id in env_ids:
            print(f"  {env_id:<24}", end="", flush=True)
            seconds, compiled = warm(env_id)
            if compiled:
                cache.record_compile_seconds(cache.engine_label(envs.game_of(env_id).engine.__name__), seconds)
                print(f"compiled {compiled} functions, {seconds:5.1f} s", flush=True)
            else:
                print(f"cached, {seconds:5.1f} s", flush=True)
    finally:
        cache.NOTICE.enabled = True
    print(f"done in {time.perf_counter() - started:.0f} s", flush=True)


if __name__ == "__main__":
    main()
