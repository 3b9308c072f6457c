"""Is a record a game the rules can reach? Checked before any record is installed.

A saved record is a file a user may have edited, truncated or taken from another version, so
``set_state`` never trusts one. :func:`check_records` checks, in order, for a whole array of
records (a single env passes a length-1 array):

1. the shared header (:mod:`envs.core.state`): a player count the game allows, a generator state
   that is not zero, ``terminal`` 0/1, ``current_player`` a seat (or -1 exactly when nobody is to
   act), ``step_count`` from 0 to :data:`MAX_STEP_COUNT` and finite rewards;
2. every game field within the inclusive ``(low, high)`` of the engine's ``STATE_BOUNDS``
   (vectorised numpy, one gather per element type, so it is cheap for a batch of millions);
3. the engine's own ``check_state`` (numba): the game's invariants, such as every card accounted
   for exactly once, whose codes name a text in the engine's ``STATE_PROBLEMS``;
4. what every game promises, on a scratch copy of each record: every seat's observation lies
   within the layout's bounds, the seat to act (every seat, in a simultaneous game) has a legal
   action while the game runs, and no other seat has one.

Only step 3 needs the ranges of step 2 to hold, which is why the engine may assume them. An
engine without ``STATE_BOUNDS`` / ``check_state`` gets steps 1 and 4 only; step 4 then runs the
engine on a record nothing vouches for.
"""

import numpy as np

from . import kernels
from .game import engine_function
from .state import HEADER_FIELDS


#: The most decisions a record may have counted: far more than any game lasts, and far enough
#: below the int32 limit that play can go on from it without the count overflowing.
MAX_STEP_COUNT = 2**30


class InvalidStateError(ValueError):
    """A record that is not a game the rules can reach (out-of-range field, broken invariant)."""


def check_records(game, records):
    """Raise :class:`InvalidStateError` naming the first problem of ``records`` (a 1-d record array)."""
    records = np.asarray(records)
    if records.dtype != game.engine.STATE or records.ndim != 1:
        raise ValueError(f"{game.env_id}: check_records expects a 1-d array of the game's STATE records, "
                         f"got dtype {records.dtype} shape {records.shape}")
    records = np.ascontiguousarray(records)
    problem = (_header_problem(game, records) or _bounds_problem(game.engine, records)
               or _rules_problem(game.engine, records) or _play_problem(game, records))
    if problem:
        raise InvalidStateError(f"{game.env_id} record invalid: {problem}")


def _where(index, records):
    return f" (record {index})" if records.shape[0] > 1 else ""


def _first(bad):
    return int(np.flatnonzero(bad.reshape(bad.shape[0], -1).any(axis=1))[0])


def _header_problem(game, records):
    players = records["num_players"].astype(np.int64)
    bad = np.ones(players.shape, bool)
    for count in game.player_counts:
        bad &= players != count
    if bad.any():
        i = _first(bad)
        return f"num_players={players[i]} is not one of {list(game.player_counts)}{_where(i, records)}"
    checks = (
        (records["rng"] == 0, "rng", "the generator's state is never zero"),
        ((records["terminal"] != 0) & (records["terminal"] != 1), "terminal", "must be 0 or 1"),
        (~((0 <= records["step_count"]) & (records["step_count"] <= MAX_STEP_COUNT)), "step_count",
         f"must be from 0 to {MAX_STEP_COUNT} (2**30)"),
        (~np.isfinite(records["reward"]), "reward", "is not finite"),
    )
    for bad, name, text in checks:
        if bad.any():
            i = _first(bad)
            if bad.ndim == 1:
                return f"{name}={records[name][i]}: {text}{_where(i, records)}"
            k = int(np.flatnonzero(bad[i])[0])
            return f"{name}[{k}]={records[name][i, k]}: {text}{_where(i, records)}"
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
    table = _bounds_table(engine)
    if table is None:
        return None
    raw = records.view(np.uint8).reshape(records.shape[0], records.dtype.itemsize)
    for element_type, offsets, low, high, names in table:
        values = _gather(raw, offsets, element_type)
        bad = (values < low) | (values > high)
        if element_type.kind == "f":
            bad |= ~np.isfinite(values)
        if bad.any():
            i = _first(bad)
            k = int(np.flatnonzero(bad[i])[0])
            name, index = names[k]
            return f"{name}{index}={values[i, k]} outside [{low[k]}, {high[k]}]{_where(i, records)}"
    return None


def _gather(raw, offsets, element_type):
    """The elements at byte ``offsets`` of every record, as an (records, elements) array."""
    if element_type.itemsize == 1:
        return raw[:, offsets].view(element_type)
    columns = offsets[:, None] + np.arange(element_type.itemsize)
    return np.ascontiguousarray(raw[:, columns]).view(element_type)[..., 0]


_BOUNDS_TABLES = {}  # STATE dtype -> the bounds table of _bounds_table


def _bounds_table(engine):
    """``STATE_BOUNDS`` per element, grouped by element type: a list of
    ``(element type, byte offsets, low, high, [(field, "[i, j]")])``; None without bounds."""
    bounds = getattr(engine, "STATE_BOUNDS", None)
    if bounds is None:
        return None
    dtype = engine.STATE
    if dtype not in _BOUNDS_TABLES:
        groups = {}
        for name in dtype.names:
            if name in HEADER_FIELDS:
                continue
            field_type, offset = dtype.fields[name][:2]
            element_type, shape = field_type.base, field_type.shape
            low, high = bounds[name]
            group = groups.setdefault(element_type, ([], [], [], []))
            for flat, index in enumerate(np.ndindex(*shape)):
                group[0].append(offset + flat * element_type.itemsize)
                group[1].append(low)
                group[2].append(high)
                group[3].append((name, "[" + ", ".join(map(str, index)) + "]" if shape else ""))
        _BOUNDS_TABLES[dtype] = [
            (element_type, np.array(offsets, np.intp), np.array(lows), np.array(highs), names)
            for element_type, (offsets, lows, highs, names) in groups.items()]
    return _BOUNDS_TABLES[dtype]


def _rules_problem(engine, records):
    if engine_function(engine.STATE, "check_state") is None:
        return None
    codes = np.zeros(records.shape[0], np.int64)
    kernels.check_batch(records, codes)
    bad = codes != 0
    if bad.any():
        i = _first(bad)
        code = int(codes[i])
        texts = getattr(engine, "STATE_PROBLEMS", ())
        text = texts[code] if 0 < code < len(texts) else f"check_state code {code}"
        return f"{text}{_where(i, records)}"
    return None


def _play_problem(game, records):
    layout = game.layout
    codes = np.zeros(records.shape[0], np.int8)
    seats = np.zeros(records.shape[0], np.int64)
    scratch = np.empty(1, records.dtype)
    mask = np.empty(game.num_actions, np.int8)
    kernels.check_play_batch(records, scratch, layout.low, layout.high, mask, codes, seats)
    bad = codes != kernels.PLAYABLE
    if not bad.any():
        return None
    i = _first(bad)
    code, seat = int(codes[i]), int(seats[i])
    where = _where(i, records)
    if code == kernels.NO_LEGAL_ACTION:
        return f"player_{seat} is to act but has no legal action{where}"
    if code == kernels.ACTIONS_OUT_OF_TURN:
        return f"player_{seat} has legal actions but is not to act{where}"
    obs = np.zeros(layout.size, np.float32)
    kernels.view_one(records[i : i + 1].copy(), seat, obs, mask)
    k = int(np.flatnonzero(~((layout.low <= obs) & (obs <= layout.high)))[0])
    name, index = layout.locate(k)
    return (f"player_{seat}'s observation {name}[{', '.join(map(str, index))}]={obs[k]} is outside the layout's bounds "
            f"[{layout.low[k]}, {layout.high[k]}]{where}")


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
