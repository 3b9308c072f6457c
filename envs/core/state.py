"""The game record: one numpy structured dtype per game, with a header every game shares.

A game's whole state is one record of its ``STATE`` dtype, built by :func:`state_dtype` from
the game's own fields. The header fields are what the shared machinery reads and writes:

==================  =========  ============================================================
``rng``             uint64     the random generator's state (:mod:`envs.core.rng`)
``num_players``     int8       seats in this game
``current_player``  int8       the seat to act (turn-based games); -1 when the game is over or
                               when every seat acts at once
``terminal``        int8       1 once the game has ended
``step_count``      int32      decisions applied so far (the adapters truncate on it)
``reward``          float32[]  each seat's reward for the last step (one entry per possible seat)
==================  =========  ============================================================

Records hold fixed-size fields only (numba records cannot hold bool arrays: use int8). The dtype
is a ``np.record`` dtype, so ``states[i].field`` works in Python as it does in numba.
"""

import numpy as np

HEADER_FIELDS = ("rng", "num_players", "current_player", "terminal", "step_count", "reward")


def state_dtype(fields, max_players):
    """The record dtype of a game: the shared header followed by the game's ``fields``.

    ``fields`` is a list of ``(name, dtype)`` or ``(name, dtype, shape)`` tuples, as for
    ``np.dtype``. Bool fields are rejected: numba records cannot hold them.
    """
    header = [
        ("rng", np.uint64),
        ("num_players", np.int8),
        ("current_player", np.int8),
        ("terminal", np.int8),
        ("step_count", np.int32),
        ("reward", np.float32, (max_players,)),
    ]
    for field in fields:
        name, dtype = field[0], np.dtype(field[1])
        if name in HEADER_FIELDS:
            raise ValueError(f"field {name!r} is part of the shared header; choose another name")
        if dtype == np.bool_:
            raise ValueError(f"field {name!r} is bool; numba records need int8 instead")
    _check_names(fields)
    return np.dtype((np.record, header + list(fields)))


def config_dtype(fields):
    """The record dtype of a game's reset-time configuration (always has ``num_players``)."""
    _check_names(fields)
    return np.dtype((np.record, [("num_players", np.int8)] + list(fields)))


def _check_names(fields):
    # In plain Python (NUMBA_DISABLE_JIT=1) `record.round` is numpy's method, not the field.
    for field in fields:
        if hasattr(np.record, field[0]):
            raise ValueError(f"field {field[0]!r} shadows numpy's record attribute of that name; rename it")


def copy_records(records):
    """A copy of a record array, byte for byte (numpy copies a structured array field by field,
    which takes 20-100x longer for records of dozens of fields)."""
    records = np.asarray(records)
    return np.frombuffer(bytearray(records.tobytes()), records.dtype).reshape(records.shape)


def install_records(target, records):
    """Overwrite the contiguous record array ``target`` with ``records`` (same dtype and shape), byte for byte."""
    np.copyto(target.view(np.uint8), np.ascontiguousarray(records).view(np.uint8))


def new_states(dtype, n=1):
    """``n`` zeroed records: the array form every kernel takes (a single game is ``n=1``)."""
    return np.zeros(n, dtype=dtype)
