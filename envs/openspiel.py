"""Every game as an OpenSpiel game, so OpenSpiel's algorithms run on it (needs ``pip install
tabletop-marl[openspiel]``)::

    import pyspiel
    from envs import openspiel

    game = openspiel.load("teufel_teufel_v0", num_players=3, seed=7)   # a pyspiel.Game
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    state.returns()

    pyspiel.load_game("tabletop_teufel_teufel(num_players=3)")        # the same, by name

Importing this module registers every built-in env id with OpenSpiel under
``tabletop_<name>`` (the id without ``_v0``); :func:`register` adds a game registered with
:func:`envs.register`. What the games look like to OpenSpiel (dynamics, sampled chance, which
algorithms apply, observation vs information state, parameters, seeds, serialization) is
documented in :mod:`envs.core.openspiel`.
"""

import pyspiel

import envs
from envs.core import openspiel as bridge

short_name = bridge.short_name

_REGISTERED = {}  # env id -> the registered pyspiel.Game subclass


def register(env_id):
    """Register ``env_id`` with OpenSpiel (once); returns its OpenSpiel short name."""
    if env_id not in _REGISTERED:
        cls = bridge.game_class(envs.game_of(env_id))
        pyspiel.register_game(cls.game_type, cls)
        _REGISTERED[env_id] = cls
    return short_name(env_id)


def load(env_id, **config):
    """``env_id`` as a ``pyspiel.Game``: options as for ``envs.make`` (Python values), plus
    ``seed`` (-1: every initial state dealt at random; s >= 0: dealt as ``env.reset(seed=s)``)."""
    name = register(env_id)
    return pyspiel.load_game(name, bridge.parameters(envs.game_of(env_id), config))


for _env_id in envs.ENV_IDS:
    register(_env_id)

__all__ = ["load", "register", "short_name"]
