"""Is a record a game the rules can reach? Checked before any record is installed.

A saved record is a file a user may have edited, truncated or taken from another version, so
``set_state`` never trusts one. :func:`check_records` checks, in order, for a whole array of
records (a single env passes a length-1 array):

1. the shared header (:mod:`envs.core.state`): a player count the game allows, a generator state
   that is not zero, ``terminal`` 0/1, ``current_player`` a seat (or -1 exactly when nobody is to
   act), ``step_count`` >= 0 and finite rewards;
2. every game field within the inclusive ``(low, high)`` of the engine's ``STATE_BOUNDS``
   (vectorised numpy, so it is cheap for a batch of millions);
3. the engine's own ``check_state`` (numba): the game's invariants, such as every card accounted
   for exactly once, whose codes name a text in the engine's ``STATE_PROBLEMS``.

Only step 3 needs the ranges of step 2 to hold, which is why the engine may assume them.
"""

import numpy as np

from . import kernels
from .game import engine_function
from .state import HEADER_FIELDS


class InvalidStateError(ValueError):
    """A record that is not a game the rules can reach (out-of-range field, broken invariant)."""


def check_records(game, records):
    """Raise :class:`InvalidStateError` naming the first problem of ``records`` (a 1-d record array)."""
    records = np.asarray(records)
    problem = _header_problem(game, records) or _bounds_problem(game.engine, records) or _rules_problem(
        game.engine, records)
    if problem:
        raise InvalidStateError(f"{game.env_id} record invalid: {problem}")


def _where(index, records):
    return f" (record {index})" if records.shape[0] > 1 else ""


def _first(bad):
    return int(np.flatnonzero(bad.reshape(bad.shape[0], -1).any(axis=1))[0])


def _header_problem(game, records):
    players = records["num_players"].astype(np.int64)
    bad = ~np.isin(players, game.player_counts)
    if bad.any():
        i = _first(bad)
        return f"num_players={players[i]} is not one of {list(game.player_counts)}{_where(i, records)}"
    checks = (
        (records["rng"] == 0, "rng=0 (the generator's state is never zero)"),
        (~np.isin(records["terminal"], (0, 1)), "terminal must be 0 or 1"),
        (records["step_count"] < 0, "step_count is negative"),
        (~np.isfinite(records["reward"]).all(axis=1), "reward holds NaN or infinity"),
    )
    for bad, text in checks:
        if bad.any():
            i = _first(bad)
            return f"{text}{_where(i, records)}"
    current = records["current_player"].astype(np.int64)
    terminal = records["terminal"] != 0
    if game.simultaneous:
        bad, text = current != -1, "current_player must be -1 in a simultaneous game"
    else:
        bad = np.where(terminal, current != -1, (current < 0) | (current >= players))
        text = "current_player must be a seat 0..num_players-1 while the game runs, -1 once it ended"
    if bad.any():
        i = _first(bad)
        return f"current_player={current[i]}: {text}{_where(i, records)}"
    return None


def _bounds_problem(engine, records):
    bounds = getattr(engine, "STATE_BOUNDS", None)
    if bounds is None:
        return None
    for name in records.dtype.names:
        if name in HEADER_FIELDS:
            continue
        low, high = bounds[name]
        values = records[name]
        if np.issubdtype(values.dtype, np.floating):
            bad = ~np.isfinite(values) | (values < low) | (values > high)
        else:
            bad = (values < low) | (values > high)
        if bad.any():
            i = _first(bad)
            element = np.argwhere(bad[i].reshape(values.shape[1:]) if values.ndim > 1 else bad[i:i + 1])[0]
            index = "[" + ", ".join(str(int(e)) for e in element) + "]" if values.ndim > 1 else ""
            value = values[i][tuple(element)] if values.ndim > 1 else values[i]
            return f"{name}{index}={value} outside [{low}, {high}]{_where(i, records)}"
    return None


def _rules_problem(engine, records):
    if engine_function(engine.STATE, "check_state") is None:
        return None
    codes = np.zeros(records.shape[0], np.int64)
    kernels.check_batch(np.ascontiguousarray(records), codes)
    bad = codes != 0
    if bad.any():
        i = _first(bad)
        code = int(codes[i])
        texts = getattr(engine, "STATE_PROBLEMS", ())
        text = texts[code] if 0 < code < len(texts) else f"check_state code {code}"
        return f"{text}{_where(i, records)}"
    return None


def check_bounds_complete(engine):
    """Every game field of ``engine.STATE`` has an entry in ``STATE_BOUNDS`` (and no other names)."""
    bounds = getattr(engine, "STATE_BOUNDS", None)
    if bounds is None:
        return
    fields = [n for n in engine.STATE.names if n not in HEADER_FIELDS]
    missing = [n for n in fields if n not in bounds]
    extra = [n for n in bounds if n not in fields]
    if missing or extra:
        raise ValueError(f"STATE_BOUNDS: missing {missing}, unknown {extra}")
