"""A trained MaskablePPO policy as an agent (``policy:<path>`` in agent specs).

A checkpoint saved by ``training.selfplay`` has its run's ``args.json`` beside it. The agent reads
there the options that change what a seat observes (``Option.observation``, e.g. Voll auf die 18's
``observe_hints``): a policy trained with them reads blocks that are zero without them, so it
refuses an env that observes otherwise, and :func:`observation_config` gives tournaments the
options their policies need.
"""

import json
import pathlib

import numpy as np

from .base import Agent


def load_model(path, algorithm=None):
    """Load a MaskablePPO checkpoint (as ``algorithm``, a MaskablePPO subclass, if given); a clear
    error if the file is missing or not a checkpoint."""
    from sb3_contrib import MaskablePPO

    path = pathlib.Path(path)
    if not path.is_file():
        raise ValueError(f"no checkpoint at {path}")
    try:
        return (algorithm or MaskablePPO).load(path, device="cpu")
    except Exception as error:  # zip, pickle and torch errors all mean the same to the user
        raise ValueError(f"{path} is not a readable MaskablePPO checkpoint: {error}") from error


def check_fits(model, env_id):
    """ValueError unless ``model`` reads the observations of ``env_id``."""
    import envs

    expected = model.observation_space.shape
    size = envs.game_of(env_id).layout.size
    if expected != (size,):
        raise ValueError(f"this policy was trained on observations of shape {expected}, {env_id} gives ({size},): "
                         "a policy of another game or player count")


def run_arguments(model_path):
    """What training.selfplay saved of the run ``model_path`` comes from (``args.json`` in the
    checkpoint's folder), or {} when there is none."""
    try:
        saved = json.loads((pathlib.Path(model_path).parent / "args.json").read_text())
    except (OSError, ValueError):
        return {}
    return saved if isinstance(saved, dict) else {}


def trained_players(model_path, env_id):
    """The player count of the run ``model_path`` comes from, if it is a run of ``env_id`` that
    names one. A policy reads the same observation at every player count of some games (Secret
    Hitler's is sized for 10 seats), so playing it at another count would raise no error and
    measure another game."""
    saved = run_arguments(model_path)
    return saved.get("players") if saved.get("env_id") == env_id else None


def trained_observation(model_path, env_id):
    """The options of the run ``model_path`` comes from that change what a seat observes, if it is
    a run of ``env_id``."""
    saved = run_arguments(model_path)
    if saved.get("env_id") != env_id or not isinstance(saved.get("env_config"), dict):
        return {}
    import envs

    return envs.game_of(env_id).observation_options(saved["env_config"])


def observed_with(env_id, config):
    """Every observation option of ``env_id`` as ``config`` sets it, defaults filled in."""
    import envs

    game = envs.game_of(env_id)
    return game.observation_options(game.validate(config))


def observation_config(specs, env_id):
    """The observation options (defaults filled in) the ``policy:<path>`` agents among ``specs``
    were trained with, to play them as trained; ValueError when two of them need different ones
    (one env observes alike for every seat)."""
    needed, needed_by = {}, {}
    for spec in specs:
        kind, _, path = spec.partition(":")
        if kind != "policy" or not path:
            continue
        for name, value in observed_with(env_id, trained_observation(path, env_id)).items():
            if name in needed and needed[name] != value:
                raise ValueError(f"{needed_by[name]} was trained with {name}={needed[name]!r} and {spec} with "
                                 f"{name}={value!r}: one game observes alike for every seat")
            needed[name], needed_by[name] = value, spec
    return needed


class PolicyAgent(Agent):
    """Acts with a trained policy on the seat's observation vector and mask.

    It samples from the policy's masked distribution unless ``deterministic``: a policy's strength
    is what it plays, and argmax can loop where the sampled policy does not.
    """

    name = "policy"

    def __init__(self, model_or_path, deterministic=False):
        from_file = isinstance(model_or_path, (str, pathlib.Path))
        self.model = load_model(model_or_path) if from_file else model_or_path
        self.path = pathlib.Path(model_or_path) if from_file else None  # (its run's args.json: see the module)
        self.deterministic = deterministic

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        check_fits(self.model, env_id)
        if self.path is not None:
            self.check_observation(env_id, config)

    def check_observation(self, env_id, config):
        """ValueError unless the env observes as the policy's run did (the blocks of an observation
        option read zero without it, and the policy would play blind to them)."""
        trained = observed_with(env_id, trained_observation(self.path, env_id))
        playing = observed_with(env_id, config)
        if trained != playing:
            raise ValueError(f"{self.path} was trained observing with {trained}, this env observes with {playing}: "
                             f"play it in an env configured with {trained}")

    def act(self, observation, action_mask, info=None):
        action, _ = self.model.predict(observation, action_masks=np.asarray(action_mask, bool),
                                       deterministic=self.deterministic)
        return int(action)
