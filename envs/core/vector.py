"""``VectorGame``: a batch of games stepped in one numba ``prange`` call.

::

    vg = VectorGame("teufel_teufel_v0", num_envs=4096, seed=0, num_players=4)
    obs, mask, player = vg.reset()
    while ...:
        actions = pick(obs, mask)                      # one action per game
        obs, mask, rewards, terminated, player = vg.step(actions)

Turn-based games: ``obs`` (B, obs_size) and ``mask`` (B, num_actions) are those of the seat to act
(``player``, (B,)); ``actions`` is (B,). Simultaneous games carry a seat axis after the batch
axis: ``obs`` (B, P, obs_size), ``mask`` (B, P, num_actions), ``actions`` (B, P).
``rewards`` is (B, P) for every seat. A game that ends is reset at once: the returned ``obs`` is
the first of its next episode, while ``rewards`` and ``terminated`` belong to the step that ended
it; ``truncated`` (an attribute, (B,)) marks games cut off by ``max_cycles``.

Episode ``k`` of game ``i`` starts from seed :meth:`episode_seed` ``(i, k)``; a single env reset
with that seed and given the same actions follows the identical trajectory.

A VectorGame trusts no caller: the arrays it returns are refreshed in place by every call, but
actions are checked against masks of its own (writing into ``action_mask`` changes nothing), and
``set_state`` checks every record (:func:`envs.core.validate.check_records`) before installing
any. It can be deep-copied and pickled (the game is named by its env id).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numpy.typing import ArrayLike

from . import kernels
from .game import Game, IllegalActionError, registered_game
from .rng import RNG, derive_seed, seed_rng
from .state import copy_records, install_records, new_states
from .validate import check_records


#: ``(obs, action_mask, current_player)``, as :meth:`VectorGame.reset` and ``set_state`` return them.
Views = tuple[np.ndarray, np.ndarray, np.ndarray]
#: ``(obs, action_mask, rewards, terminated, current_player)``, as :meth:`VectorGame.step` returns them.
StepResult = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]


class VectorGame:
    def __init__(self, env_id: str | Game, num_envs: int, seed: int = 0, **config: Any) -> None:
        """``env_id`` is a registered id (or a :class:`envs.core.Game`); ``config`` as for ``envs.make``."""

        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
        self.game = game = env_id if isinstance(env_id, Game) else registered_game(env_id)
        self.env_id = game.env_id
        self.config = game.validate(config)
        self.num_envs = int(num_envs)
        self.num_players = self.config["num_players"]
        self.seed = int(seed)
        self._config_record = game.make_config(self.config)
        self._states = new_states(game.engine.STATE, self.num_envs)
        self._blank = new_states(game.engine.STATE)
        self._episodes = np.zeros(self.num_envs, np.int64)
        self._max_cycles = self.config["max_cycles"] or 0
        self._actor_rngs = np.zeros(self.num_envs, RNG)
        self._actor_rngs["stream"] = np.arange(self.num_envs)
        for i in range(self.num_envs):  # the action stream of game i, apart from its episode seeds
            seed_rng(self._actor_rngs[i], derive_seed(self.seed, i, 2**62))
        seats = (self.num_players,) if game.simultaneous else ()
        # What the kernels write. The properties below hand these out (a caller may write into
        # them: nothing reads them back), except the masks: the caller gets a copy of _masks.
        self._obs = np.zeros((self.num_envs, *seats, game.layout.size), np.float32)
        self._masks = np.zeros((self.num_envs, *seats, game.num_actions), np.int8)
        self._mask_copy = np.zeros_like(self._masks)
        self._rewards = np.zeros((self.num_envs, self.num_players), np.float32)
        self._terminated = np.zeros(self.num_envs, np.bool_)
        self._truncated = np.zeros(self.num_envs, np.bool_)
        self._players = np.full(self.num_envs, -1, np.int8)
        self._action_shape = (self.num_envs, *seats)
        self._has_reset = False

    @property
    def obs(self) -> np.ndarray:
        """The observations of the last call: (B, obs_size), or (B, P, obs_size) for a simultaneous game."""
        return self._obs

    @property
    def action_mask(self) -> np.ndarray:
        """A copy of the legal-action masks (writing into it does not change what is legal)."""
        return self._mask_copy

    @property
    def rewards(self) -> np.ndarray:
        return self._rewards

    @property
    def terminated(self) -> np.ndarray:
        return self._terminated

    @property
    def truncated(self) -> np.ndarray:
        """Games cut off by ``max_cycles`` in the last step (already reset)."""
        return self._truncated

    @property
    def current_player(self) -> np.ndarray:
        return self._players

    def _views(self):
        np.copyto(self._mask_copy, self._masks)
        return self._obs, self._mask_copy

    def episode_seed(self, index: int, episode: int) -> int:
        """The seed game ``index`` starts its ``episode``-th episode (from 0) with."""
        return int(derive_seed(self.seed, index, episode))

    def _common(self):
        return self._blank, self._config_record, self.seed, self._episodes

    def reset(self) -> Views:
        """Restart every game from episode 0; returns ``(obs, action_mask, current_player)``."""
        self._episodes[:] = 0
        self._has_reset = True
        if self.game.simultaneous:
            kernels.reset_batch_joint(self._states, *self._common(), self._obs, self._masks)
        else:
            kernels.reset_batch(self._states, *self._common(), self._obs, self._masks, self._players)
        return *self._views(), self._players

    def step(self, actions: ArrayLike) -> StepResult:
        """One decision in every game; returns ``(obs, action_mask, rewards, terminated, current_player)``.

        Raises ``IllegalActionError`` (and changes nothing) if any action is not legal.
        """
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        actions = self._checked(actions)
        step = kernels.step_batch_joint if self.game.simultaneous else kernels.step_batch
        extra = () if self.game.simultaneous else (self._players,)
        step(self._states, actions, *self._common(), self._max_cycles, self._obs, self._masks,
             self._rewards, self._terminated, self._truncated, *extra)
        obs, masks = self._views()
        return obs, masks, self._rewards, self._terminated, self._players

    def random_steps(self, num_steps: int, observe: bool = True) -> int:
        """``num_steps`` uniformly random legal decisions in every game, all inside numba.

        Games that end are reset as in :meth:`step`. With ``observe`` the observation of the seat
        to act is computed after every decision, as an agent would need it. Returns the number of
        decisions made (for a simultaneous game: joint steps).
        """
        if isinstance(num_steps, (bool, np.bool_)) or not isinstance(num_steps, (int, np.integer)) or not (
                0 <= num_steps < 2**63 // self.num_envs):
            raise ValueError(f"num_steps must be a non-negative integer (below 2**63 / num_envs), got {num_steps!r}")
        if not isinstance(observe, (bool, np.bool_)):
            raise ValueError(f"observe must be True or False, got {observe!r}")
        if not self._has_reset:
            raise RuntimeError("call reset() before random_steps()")
        run = kernels.random_steps_batch_joint if self.game.simultaneous else kernels.random_steps_batch
        made = run(self._states, self._actor_rngs, int(num_steps), *self._common(), self._max_cycles,
                   self._obs, self._masks, bool(observe))
        self._views()
        return int(made)

    def get_state(self) -> np.ndarray:
        """A copy of every game's record."""
        return copy_records(self._states)

    def set_state(self, records: np.ndarray) -> Views:
        """Continue from ``records`` (as from :meth:`get_state`); returns ``(obs, action_mask, current_player)``.

        Every record is checked first (:func:`envs.core.validate.check_records`); if one is not a
        game the rules can reach, ``ValueError`` names it and nothing changes.
        """
        records = np.asarray(records)
        if records.dtype != self.game.engine.STATE or records.shape != (self.num_envs,):
            raise ValueError(f"set_state expects {self.num_envs} records of {self.env_id}'s STATE dtype, "
                             f"got dtype {records.dtype} shape {records.shape}")
        records = copy_records(records)  # our own copy: what was checked is what is installed
        if (records["num_players"] != self.num_players).any():
            raise ValueError(f"every record must be a {self.num_players}-player game")
        check_records(self.game, records)
        install_records(self._states, records)
        self._has_reset = True
        if self.game.simultaneous:
            kernels.view_batch_joint(self._states, self._obs, self._masks)
        else:
            kernels.view_batch(self._states, self._obs, self._masks, self._players)
        return *self._views(), self._players

    def _checked(self, actions):
        actions = np.asarray(actions)
        if actions.shape != self._action_shape or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError(f"actions must be an integer array of shape {self._action_shape}, "
                                     f"got {actions.dtype} {actions.shape}")
        actions = actions.astype(np.int64)
        in_range = (actions >= 0) & (actions < self.game.num_actions)
        clipped = np.where(in_range, actions, 0)
        legal = in_range & (np.take_along_axis(self._masks, clipped[..., None], axis=-1)[..., 0] != 0)
        if not legal.all():
            where = np.argwhere(~legal)[0]
            bad = int(actions[tuple(where)])
            raise IllegalActionError(f"action {bad} is not legal in game {tuple(int(w) for w in where)}; "
                                     f"legal there: {np.flatnonzero(self._masks[tuple(where)]).tolist()}")
        return actions
