"""Every game as an OpenSpiel game, so OpenSpiel's algorithms run on it (``pip install
tabletop-marl[openspiel]``)::

    import numpy as np
    from open_spiel.python.algorithms.evaluate_bots import evaluate_bots
    from agents import make_agent
    from envs import openspiel

    game = openspiel.load("teufel_teufel_v0", num_players=3, seed=7)   # a pyspiel.Game
    bots = [openspiel.ismcts_bot(game, max_simulations=50, seed=0, evaluator=openspiel.PlayoutEvaluator()),
            openspiel.AgentBot(make_agent("heuristic", "teufel_teufel_v0"), player=1),
            openspiel.AgentBot(make_agent("random", "teufel_teufel_v0"), player=2)]
    evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))   # returns per seat

Importing this module registers every built-in env id with OpenSpiel as ``tabletop_<name>``
(the id without ``_v0``), so ``pyspiel.load_game("tabletop_teufel_teufel(num_players=3)")``
works too; a simultaneous game also gets its turn-based form ``tabletop_<name>_turn_based``
(what OpenSpiel's sequential algorithms, ISMCTS among them, need). :func:`register` adds a game
registered with :func:`envs.register`. What the games look like to OpenSpiel (dynamics, sampled
chance and which algorithms apply, observation vs information state, parameters, seeds,
serialization) is documented in :mod:`envs.core.openspiel`.
"""

import numpy as np
import pyspiel
from open_spiel.python.algorithms import mcts

import envs
from envs.core import openspiel as bridge
from envs.core.openspiel import AgentBot, ISMCTSBot, PlayoutEvaluator, short_name

_REGISTERED = set()  # short names registered by this module


def register(env_id):
    """Register ``env_id`` (and the turn-based form of a simultaneous game) with OpenSpiel, once;
    returns its OpenSpiel short name."""
    game = envs.game_of(env_id)
    for turn_based in (False, True) if game.simultaneous else (False,):
        name = short_name(env_id, turn_based)
        if name not in _REGISTERED:
            cls = bridge.game_class(game, turn_based)
            pyspiel.register_game(cls.game_type, cls)
            _REGISTERED.add(name)
    return short_name(env_id)


def load(env_id, turn_based=False, **config):
    """``env_id`` as a ``pyspiel.Game``: options as for ``envs.make`` (Python values), plus
    ``seed`` (-1: every initial state dealt at random; 0 <= s < 2**31: every one dealt as
    ``env.reset(seed=s)``).
    ``turn_based=True`` gives a simultaneous game's turn-based form."""
    register(env_id)
    game = envs.game_of(env_id)
    if turn_based and not game.simultaneous:
        raise ValueError(f"{env_id} is turn-based already; turn_based=True is for simultaneous games")
    return pyspiel.load_game(short_name(env_id, turn_based), bridge.parameters(game, config))


def ismcts_bot(game, max_simulations=100, uct_c=2.0, seed=None, evaluator=None, **options):
    """OpenSpiel's ISMCTS bot for ``game`` (a sequential game: for a simultaneous one, load its
    turn-based form). Its evaluator is OpenSpiel's ``RandomRolloutEvaluator`` (one rollout
    through the Python API) unless ``evaluator`` is given: :class:`PlayoutEvaluator` plays the
    rollouts inside numba. ``options`` go to ``ISMCTSBot`` (e.g. ``final_policy_type``)."""
    random_state = np.random.RandomState(seed)
    evaluator = evaluator or mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=random_state)
    return ISMCTSBot(game, evaluator, uct_c, max_simulations, random_state=random_state, **options)


for _env_id in envs.ENV_IDS:
    register(_env_id)

__all__ = ["AgentBot", "ISMCTSBot", "PlayoutEvaluator", "ismcts_bot", "load", "register", "short_name"]
