"""Fixtures for testing the shared machinery: two toy games small enough to check by hand, and
:func:`install_unchecked` for scripted positions.

The toy games live under ``envs/`` (not ``tests/``) so that the numba cache key covers them, and
are not registered as env ids.
"""

from __future__ import annotations

from typing import Any

import numpy as np


def install_unchecked(env: Any, record: np.ndarray | np.void) -> None:
    """Continue ``env`` from ``record`` as ``env.set_state(record)`` does, without checking it.

    For rule tests that script a position no real game reaches (hands smaller than a deal, policies
    on the tracks with no election behind them) and so no record ``set_state`` accepts. ``env`` is
    any env of ours (raw, wrapped by ``env()``, or Parallel); ``record`` is a record of its game
    (length 1 or a single one, e.g. ``env.unwrapped._states[0]`` after writing to it). Everything
    ``set_state`` does besides the check happens: the env reads the turn, the agents and the infos
    from the record, and a replay starts from it. A record that breaks the engine's invariants may
    make the engine fail in any way: outside tests, use ``set_state``.
    """
    from envs.core.aec import OrderEnforcingWrapper
    from envs.core.replay import table_of

    table = table_of(env)
    table._install(table._own_copy(record))
    if isinstance(env, OrderEnforcingWrapper):
        env.count_as_reset()
