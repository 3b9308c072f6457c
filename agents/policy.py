"""A trained MaskablePPO policy as an agent (``policy:<path>`` in agent specs)."""

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


class PolicyAgent(Agent):
    """Acts with a trained policy on the seat's observation vector and mask.

    It samples from the policy's masked distribution unless ``deterministic``: a policy's strength
    is what it plays, and argmax can loop where the sampled policy does not.
    """

    name = "policy"

    def __init__(self, model_or_path, deterministic=False):
        self.model = load_model(model_or_path) if isinstance(model_or_path, (str, pathlib.Path)) else model_or_path
        self.deterministic = deterministic

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        check_fits(self.model, env_id)

    def act(self, observation, action_mask, info=None):
        action, _ = self.model.predict(observation, action_masks=np.asarray(action_mask, bool),
                                       deterministic=self.deterministic)
        return int(action)
