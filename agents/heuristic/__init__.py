"""Rule-based agents, one module per game: ``agents/heuristic/<game>.py`` defines
``HeuristicAgent`` (an :class:`agents.base.Agent`) for env id ``<game>_v0``.

A game whose strategy is compiled also defines, at module level, the numba function every
caller shares (the agent's ``act``, the batched training env's opponents)::

    @njit(cache=True)
    def choose_rows(obs, masks, rules, rngs, streams, out):
        # out[k] = the action for observation obs[k] (float32) with legal mask masks[k] (int8),
        # drawing any randomness from the generator record rngs[streams[k]] (envs.core.rng.RNG)

and its ``HeuristicAgent`` derives from :class:`CompiledHeuristic`, which runs ``choose_rows``
on one row. A game whose heuristic is Python only may instead define ``playout_rows`` (same
contract, its rules from ``playout_rules(config)``): a compiled, memoryless player of its own that
only search playouts use (:func:`playout_strategy`); it is not the game's heuristic, so
:func:`batched_heuristic` does not return it. The strategy reads only the observation, the mask and
the table's rules: ``rules`` is the int64 array ``table_rules(config)`` (index 0 the number of
players; a module that needs more of the config, such as a house rule every player knows, defines
its own ``table_rules``).
"""

import importlib

import numpy as np
from numba import njit

from envs.core.rng import RNG, seed_rng

from .. import base


@njit(cache=True)
def block_argmax(obs, offset, size):
    """numpy's argmax of ``obs[offset:offset + size]`` (the first largest entry): which entry of
    a one-hot block of the observation is set, for the compiled strategies."""
    best = 0
    for k in range(1, size):
        if obs[offset + k] > obs[offset + best]:
            best = k
    return best


def _module(env_id):
    game = env_id.rsplit("_v", 1)[0]
    try:
        return importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game}":
            raise
        raise ValueError(f"no heuristic agent for {env_id!r}") from None


def heuristic_for(env_id, seed=None):
    """A new heuristic agent for ``env_id`` (ValueError if the game has none yet)."""
    return _module(env_id).HeuristicAgent(seed=seed)


def table_rules(config):
    """The rules a compiled strategy reads by default: the number of players."""
    return np.array([config["num_players"]], np.int64)


def batched_heuristic(env_id, config):
    """``(choose_rows, rules)`` of the game's compiled strategy for a table of ``config`` (see the
    module doc), or None if its heuristic is Python only (ValueError if the game has none)."""
    module = _module(env_id)
    if getattr(module, "choose_rows", None) is None:
        return None
    return module.choose_rows, getattr(module, "table_rules", table_rules)(config)


def playout_strategy(env_id, config):
    """``(choose_rows, rules)`` of the compiled player for ISMCTS's ``policy=heuristic`` playouts of
    ``env_id``: the game's compiled heuristic (:func:`batched_heuristic`), or where its heuristic is
    Python only, the module's own compiled playout player (``playout_rows``, a different and
    memoryless player; see the module doc); None if there is neither."""
    compiled = batched_heuristic(env_id, config)
    if compiled is not None:
        return compiled
    module = _module(env_id)
    if getattr(module, "playout_rows", None) is None:
        return None
    return module.playout_rows, module.playout_rules(config)


def has_heuristic(env_id):
    """Whether ``env_id`` has a heuristic agent."""
    try:
        heuristic_for(env_id)
    except ValueError:
        return False
    return True


class CompiledHeuristic(base.Agent):
    """A heuristic agent whose whole strategy is its module's compiled ``choose_rows``.

    Its random choices (ties, bluffs) come from one generator record seeded from ``self.rng``,
    so ``seed`` fixes them as for any agent."""

    name = "heuristic"
    #: The module's ``choose_rows`` and ``table_rules`` (if it has its own); subclasses set them
    #: with ``staticmethod``.
    choose_rows = None
    table_rules = staticmethod(table_rules)

    def __init__(self, seed=None):
        super().__init__(seed)
        self._rngs = np.zeros(1, RNG)
        self._streams = np.zeros(1, np.int64)
        self._out = np.zeros(1, np.int64)
        self._seed_record()

    def seed(self, seed):
        super().seed(seed)
        self._seed_record()

    def _seed_record(self):
        seed_rng(self._rngs[0], int(self.rng.integers(2**63)))

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self._rules = self.table_rules(config)

    def act(self, observation, action_mask, info=None):
        obs = np.ascontiguousarray(observation, np.float32)[None]
        mask = np.ascontiguousarray(action_mask, np.int8)[None]
        self.choose_rows(obs, mask, self._rules, self._rngs, self._streams, self._out)
        return int(self._out[0])
