"""Shared machinery of every game: records, rng, observation layouts, adapters, batches.

Nothing here knows a game's rules; see ``docs/DESIGN.md`` for how a game plugs in.
"""

from .cache import configure_numba_cache

configure_numba_cache()  # before any of our jitted functions is defined: they take their cache place then

from .game import Game, IllegalActionError, Option, int_range, register_engine
from .layout import Layout
from .state import config_dtype, new_states, state_dtype
from .validate import InvalidStateError, check_records

__all__ = [
    "Game",
    "IllegalActionError",
    "InvalidStateError",
    "Layout",
    "Option",
    "check_records",
    "config_dtype",
    "int_range",
    "new_states",
    "register_engine",
    "state_dtype",
]
