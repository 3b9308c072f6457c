"""tabletop-marl: five tabletop games as PettingZoo environments over numba engines.

::

    import envs
    env = envs.make("secret_hitler_v0", num_players=7)   # AEC
    par = envs.make_parallel("voll_auf_die_18_v0")       # Parallel
    from envs import teufel_teufel_v0                    # PettingZoo-style module
    teufel_teufel_v0.env(), teufel_teufel_v0.parallel_env()

A game registers by existing: every module ``envs/<name>_v<N>.py`` is an env id, and exposes
``env()``, ``raw_env()``, ``parallel_env()`` and ``GAME`` (its :class:`envs.core.Game`).
"""

from __future__ import annotations

import importlib
import pkgutil
import re
from types import ModuleType
from typing import TYPE_CHECKING, Any

from .core.cache import configure_numba_cache

if TYPE_CHECKING:
    from pettingzoo import AECEnv, ParallelEnv

    from .core.game import Game

configure_numba_cache()  # before any engine is compiled or loaded

_ENV_MODULE = re.compile(r"^[a-z0-9_]+_v\d+$")

#: Every registered environment id, sorted.
ENV_IDS: tuple[str, ...] = tuple(sorted(m.name for m in pkgutil.iter_modules(__path__) if _ENV_MODULE.match(m.name)))


_REGISTERED: dict[str, ModuleType] = {}  # env id -> module, added at run time by register()


def register(module: ModuleType) -> None:
    """Register a game defined outside this package: ``module`` has ``env``, ``raw_env``,
    ``parallel_env`` and ``GAME`` (an :class:`envs.core.Game`) like ``envs/<game>_v0.py``."""
    env_id = module.GAME.env_id
    if env_id in ENV_IDS:
        raise ValueError(f"{env_id!r} is a built-in env id")
    _REGISTERED[env_id] = module


def _module(env_id: str) -> ModuleType:
    if not isinstance(env_id, str):
        raise ValueError(f"an env id is a string, got {env_id!r} of type {type(env_id).__name__}; "
                         f"valid ids are {_valid_ids()}")
    if env_id in _REGISTERED:
        return _REGISTERED[env_id]
    if env_id not in ENV_IDS:
        raise ValueError(f"unknown env id {env_id!r}; valid ids are {_valid_ids()}")
    return importlib.import_module(f"{__name__}.{env_id}")


def _valid_ids() -> list[str]:
    return list(ENV_IDS) + list(_REGISTERED)


def game_of(env_id: str) -> Game:
    """The :class:`envs.core.Game` describing ``env_id``."""
    return _module(env_id).GAME


def make(env_id: str, render_mode: str | None = None, **config: Any) -> AECEnv:
    """The AEC environment ``env_id`` (PettingZoo's ``env()``); bad ids and options raise ValueError."""
    return _module(env_id).env(render_mode=render_mode, **config)


def make_parallel(env_id: str, render_mode: str | None = None, **config: Any) -> ParallelEnv:
    """The Parallel form of ``env_id`` (PettingZoo's ``parallel_env()``)."""
    return _module(env_id).parallel_env(render_mode=render_mode, **config)


def __getattr__(name: str) -> ModuleType:
    if name in ENV_IDS:
        return _module(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(list(globals()) + list(ENV_IDS))
