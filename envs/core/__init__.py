"""Shared machinery of every game: records, rng, observation layouts, adapters, batches.

Nothing here knows a game's rules; see ``docs/DESIGN.md`` for how a game plugs in.
"""

from .cache import configure_numba_cache

# First of all: numba fixes a cached function's folder when the function is defined, so the
# cache must point at this source tree's folder before any module below defines one.
configure_numba_cache()

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
