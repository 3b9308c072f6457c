"""Rule-based agents, one module per game: ``agents/heuristic/<game>.py`` defines
``HeuristicAgent`` (an :class:`agents.base.Agent`) for env id ``<game>_v0``."""

import importlib


def heuristic_for(env_id, seed=None):
    """A new heuristic agent for ``env_id`` (ValueError if the game has none yet)."""
    game = env_id.rsplit("_v", 1)[0]
    try:
        module = importlib.import_module(f"{__name__}.{game}")
    except ModuleNotFoundError as error:
        if error.name != f"{__name__}.{game}":
            raise
        raise ValueError(f"no heuristic agent for {env_id!r}") from None
    return module.HeuristicAgent(seed=seed)


def has_heuristic(env_id):
    """Whether ``env_id`` has a heuristic agent."""
    try:
        heuristic_for(env_id)
    except ValueError:
        return False
    return True
