"""Shared machinery of every game: records, rng, observation layouts, adapters, batches.

Nothing here knows a game's rules; see ``docs/DESIGN.md`` for how a game plugs in.
"""

from .cache import configure_numba_cache

# Before any module below defines a numba function: numba picks each function's cache folder when
# it is decorated, and one defined earlier would cache in __pycache__, keyed on its own file only
# (a kernel would then run a stale engine after an engine changes).
configure_numba_cache()

from .game import Game, IllegalActionError, Option, int_range, register_engine  # noqa: E402
from .layout import Layout  # noqa: E402
from .state import config_dtype, new_states, state_dtype  # noqa: E402
from .validate import InvalidStateError, check_records  # noqa: E402

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
