"""Batched self-play environments for stable-baselines3: many games in one record array.

:class:`LearnerVecEnv` (turn-based games) is an SB3 ``VecEnv`` whose ``num_envs`` sub-envs are
games in one batch. In each game one seat, drawn at random each episode, is the learner; every
other seat is an opponent drawn from the pool per episode: a random player (moved inside numba),
the game's heuristic agent (one compiled call over every game waiting on it where the game's
strategy is compiled, agents/heuristic; else a Python call per decision), or a frozen
snapshot of the learner (all games waiting on one snapshot share one torch forward). After the
learner's action the opponents move until it is the learner's turn again; the reward returned is
the learner's own, summed over that span. Games restart inside the batch, and
``action_masks()`` gives the whole batch's masks, as sb3-contrib's ``MaskablePPO`` reads them.

:class:`TeamVecEnv` (the cooperative simultaneous game): every seat of every game is a sub-env
of one shared policy (``num_envs`` = games x seats), so one policy forward covers every seat's
choice of a moment; each seat receives the team reward.

Episode ends put ``won`` (the tournament's notion: the learner's return positive and the
highest), ``returns`` (every seat's), ``learner_seat`` and, where the game names roles,
``role`` into that sub-env's ``info``; a cut-off episode also carries ``terminal_observation``
and ``TimeLimit.truncated`` so PPO bootstraps it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv
from stable_baselines3.common.vec_env.base_vec_env import VecEnvObs, VecEnvStepReturn

import envs
from envs.core import learner as K
from envs.core.game import IllegalActionError
from envs.core.rng import RNG, derive_seed, seed_rng
from envs.core.state import new_states
from training.presets import DEFAULT_POOL_WEIGHTS


#: A frozen opponent acting for a batch: ``(obs (N, obs_size), masks (N, num_actions) bool) -> actions (N,)``.
BatchPolicy = Callable[[np.ndarray, np.ndarray], np.ndarray]


class SnapshotPolicy:
    """A frozen copy of a MaskablePPO policy acting for a batch, sampling from its masked distribution.

    Its moves come from the compiled copy of the actor (training/numba_policy.py: the same logits
    as torch within float rounding, a fraction of torch's per-call cost for the few rows a wave
    asks for) where the network is one that module knows, else from torch; :meth:`logits` is
    torch's. ``seed`` seeds the draws of the compiled path (None: drawn from torch's generator,
    so a seeded run stays reproducible); ``compiled=False`` keeps torch throughout."""

    def __init__(self, policy: Any, deterministic: bool = False, seed: int | None = None, compiled: bool = True) -> None:
        """``policy``: a MaskablePPO policy (``model.policy``), copied."""
        import torch

        from training.numba_policy import compile_policy

        # A fresh network with the weights copied: deepcopy would also copy the autograd state
        # the last update left in the policy's distribution.
        self.policy = type(policy)(**policy._get_constructor_parameters())
        self.policy.load_state_dict(policy.state_dict())
        self.policy.set_training_mode(False)
        self.deterministic = deterministic
        self.compiled = compile_policy(self.policy) if compiled else None
        if seed is None:
            seed = int(torch.randint(2**62, ()).item())
        self.rng = np.random.default_rng(seed)

    def __call__(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        if self.compiled is not None:
            return self.compiled.act(obs, masks, None if self.deterministic else self.rng.random(len(obs)))
        import torch

        with torch.inference_mode():
            legal = torch.as_tensor(np.asarray(masks, bool))
            logits = self.logits(torch.as_tensor(obs), legal).masked_fill(~legal, -torch.inf)
            if self.deterministic:
                return logits.argmax(dim=1).numpy().astype(np.int64)
            return torch.multinomial(torch.softmax(logits, dim=1), 1)[:, 0].numpy().astype(np.int64)

    def logits(self, obs: Any, masks: Any = None) -> Any:
        """The policy head's logits before masking: the actor's path of ``get_distribution``,
        without building a distribution object per call (opponents act in many small batches).
        Given ``masks`` (bool tensor), a pointer head scores the legal actions only; the illegal
        ones' logits are then not the policy's and must be masked off by the caller."""
        policy = self.policy
        if hasattr(policy, "action_logits"):  # EntityPolicy
            return policy.action_logits(obs.float(), masks)
        latent = policy.mlp_extractor.forward_actor(policy.pi_features_extractor(obs.float()))
        return policy.action_net(latent)


class _BatchBase(VecEnv):
    """What both batched envs share: the batch, its config, checks and the SB3 plumbing."""

    def __init__(self, env_id: str, num_games: int, num_envs: int, seed: int, config: dict[str, Any] | None) -> None:
        for name, value, low in (("num_envs", num_games, 1), ("seed", seed, 0)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
                raise ValueError(f"{name} must be an integer >= {low}, got {value!r}")
        self.game = envs.game_of(env_id)
        self.env_id = self.game.env_id
        self.config = self.game.validate(dict(config or {}))
        self.num_players = self.config["num_players"]
        self.num_games = int(num_games)
        self.seed_value = int(seed)
        self._config_record = self.game.make_config(self.config)
        self._states = new_states(self.game.engine.STATE, self.num_games)
        self._blank = new_states(self.game.engine.STATE)
        self._slots = np.zeros(self.num_games, K.slot_dtype(self.game.engine.STATE["reward"].shape[0]))
        for i in range(self.num_games):  # game i's action stream, apart from its episode seeds
            seed_rng(self._slots[i], derive_seed(self.seed_value, i, 2**62))
        self._max_cycles = self.config["max_cycles"] or 0
        self.render_mode = None
        self.timings = dict.fromkeys(("engine", "heuristic", "snapshot"), 0.0)
        super().__init__(num_envs, self.game.layout.space(), spaces.Discrete(self.game.num_actions))

    # ---- SB3 VecEnv plumbing ------------------------------------------------------------

    def step_async(self, actions):
        self._actions = actions

    def close(self):
        pass

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(self._indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        setattr(self, attr_name, value)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        if method_name == "action_masks" and indices is None:
            return self.action_masks()  # (num_envs, num_actions): np.stack keeps it as is
        result = getattr(self, method_name)(*args, **kwargs)
        return [result] * len(self._indices(indices))

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._indices(indices))

    def get_images(self):
        return [None] * self.num_envs

    def seed(self, seed=None):
        return [None] * self.num_envs  # seeding happens at construction: one seed for the batch

    # ---- ours -----------------------------------------------------------------------------

    def action_masks(self) -> np.ndarray:
        """The legal actions of every sub-env, (num_envs, num_actions) bool (a copy)."""
        return self._legal.copy()

    def get_state(self) -> np.ndarray:
        """A copy of every game's record."""
        return self._states.copy()

    def _check(self, actions, shape):
        actions = np.asarray(actions)
        if not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError(f"actions must be integers, got dtype {actions.dtype}")
        actions = actions.reshape(-1).astype(np.int64)
        if actions.shape != (self.num_envs,):
            raise IllegalActionError(f"need {self.num_envs} actions, got {actions.shape[0]}")
        in_range = (actions >= 0) & (actions < self.game.num_actions)
        legal = in_range & self._legal[np.arange(self.num_envs), np.where(in_range, actions, 0)]
        if not legal.all():
            bad = int(np.flatnonzero(~legal)[0])
            raise IllegalActionError(f"{self.env_id}: action {int(actions[bad])} is not legal in sub-env {bad}; "
                                     f"legal there: {np.flatnonzero(self._legal[bad]).tolist()}")
        return actions.reshape(shape)

    def _episode_info(self, i, seat):
        slot = self._slots[i]
        info = {"won": bool(slot["won"]), "returns": slot["final_returns"][: self.num_players].copy(),
                "learner_seat": int(seat)}
        if self.game.role_of is not None:
            info["role"] = self.game.role_of(self._final_states[i], int(seat))
        if slot["outcome"] == K.TRUNCATED:
            info["TimeLimit.truncated"] = True
        return info

    def _indices(self, indices):
        if indices is None:
            return range(self.num_envs)
        return [indices] if isinstance(indices, int) else list(indices)


class LearnerVecEnv(_BatchBase):
    """``num_envs`` games of a turn-based ``env_id``, one learner seat in each (see the module doc).

    ``weights`` are the pool's (random, heuristic, snapshot) odds for each opponent seat, drawn
    per episode; snapshot odds count once :meth:`add_snapshot` has given one. ``learner_seat``
    fixes the learner's seat (default: random each episode).
    """

    def __init__(self, env_id: str, num_envs: int = 64, seed: int = 0, config: dict[str, Any] | None = None,
                 weights: Sequence[float] = DEFAULT_POOL_WEIGHTS, learner_seat: int | None = None,
                 heuristic_seed: int = 0) -> None:
        super().__init__(env_id, num_envs, num_envs, seed, config)
        if self.game.simultaneous:
            raise ValueError(f"{self.env_id} is simultaneous: use TeamVecEnv")
        self.set_weights(weights)
        if learner_seat is not None and not (isinstance(learner_seat, (int, np.integer))
                                             and 0 <= learner_seat < self.num_players):
            raise ValueError(f"learner_seat must be a seat 0..{self.num_players - 1} or None, got {learner_seat!r}")
        self._fixed_learner = -1 if learner_seat is None else int(learner_seat)
        self.snapshots = []
        self._heuristics = {}  # (game, seat) -> [agent, episode it was reset for]: Python-only heuristics
        self._heuristic_seed = heuristic_seed
        self._heuristic_rngs = np.zeros(num_envs * self.num_players, RNG)  # one stream per (game, seat)
        for stream in range(self._heuristic_rngs.size):
            seed_rng(self._heuristic_rngs[stream], derive_seed(heuristic_seed, stream, 2**61))
        size, actions = self.game.layout.size, self.game.num_actions
        self._obs = np.zeros((num_envs, size), np.float32)
        self._masks = np.zeros((num_envs, actions), np.int8)
        self._legal = np.zeros((num_envs, actions), bool)
        self._their_obs = np.zeros((num_envs, size), np.float32)  # rows of games waiting on Python opponents
        self._their_masks = np.zeros((num_envs, actions), np.int8)
        self._final_states = new_states(self.game.engine.STATE, num_envs)
        self._final_obs = np.zeros((num_envs, size), np.float32)
        self._opponent_actions = np.zeros(num_envs, np.int64)
        self._has_reset = False

    def set_weights(self, weights: Sequence[float]) -> None:
        """The pool's (random, heuristic, snapshot) odds from now on."""
        weights = np.asarray(weights, np.float64)
        if weights.shape != (3,) or (weights < 0).any() or weights[:2].sum() <= 0:
            raise ValueError("weights are (random, heuristic, snapshot) odds >= 0, random + heuristic > 0")
        self._heuristic_rows = None  # (choose_rows, rules) of a compiled heuristic (None: Python-only, or not asked for)
        if weights[1] > 0:
            from agents.heuristic import batched_heuristic

            self._heuristic_rows = batched_heuristic(self.env_id, self.config)  # a clear error now if the game has none
        self.weights = weights

    def add_snapshot(self, policy: BatchPolicy) -> None:
        """Add a frozen opponent (a :class:`SnapshotPolicy`, or any ``(obs, masks) -> actions``)."""
        self.snapshots.append(policy)

    def _kernel_args(self):
        return (self._blank, self._config_record, self.seed_value, self._max_cycles, self.weights,
                len(self.snapshots), self._fixed_learner, self._final_states, self._final_obs,
                self._obs, self._masks, self._their_obs, self._their_masks)

    def reset(self) -> VecEnvObs:
        self._has_reset = True
        self._timed(K.learner_reset, self._states, self._slots, *self._kernel_args())
        return self._after_opponents()

    def step_wait(self) -> VecEnvStepReturn:
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        actions = self._check(self._actions, (self.num_envs,))
        self._timed(K.learner_step, self._states, self._slots, actions, *self._kernel_args())
        obs = self._after_opponents()
        slots = self._slots
        rewards = slots["span_reward"].copy()
        dones = slots["outcome"] != K.ONGOING
        infos = [{} for _ in range(self.num_envs)]
        for i in np.flatnonzero(dones):
            infos[i] = self._episode_info(i, slots[i]["final_learner"])
            if slots[i]["outcome"] == K.TRUNCATED:
                infos[i]["terminal_observation"] = self._final_obs[i].copy()
        return obs, rewards, dones, infos

    def _timed(self, kernel, *args):
        started = time.perf_counter()
        kernel(*args)
        self.timings["engine"] += time.perf_counter() - started

    # ---- opponents that live in Python ----------------------------------------------------

    def _after_opponents(self):
        """Serve every game waiting on a heuristic or snapshot opponent until none waits; then
        every game is at its learner's turn: return the learner observations (a copy)."""
        actions = self._opponent_actions
        while True:
            waiting = self._slots["waiting"]
            games = np.flatnonzero(waiting >= 0)
            if games.size == 0:
                break
            seats = waiting[games]
            kinds = self._slots["kinds"][games, seats]
            obs, masks = self._their_obs[games], self._their_masks[games]
            chosen = np.empty(games.size, np.int64)
            self._heuristic_actions(games, seats, kinds, obs, masks, chosen)
            self._snapshot_actions(kinds, obs, masks, chosen)
            legal = masks[np.arange(games.size), chosen] != 0
            if not legal.all():
                bad = int(np.flatnonzero(~legal)[0])
                raise IllegalActionError(f"opponent (kind {int(kinds[bad])}) chose illegal action "
                                         f"{int(chosen[bad])} in game {int(games[bad])}")
            actions[games] = chosen
            self._timed(K.opponent_steps, self._states, self._slots, games, actions, *self._kernel_args())
        np.not_equal(self._masks, 0, out=self._legal)
        return self._obs.copy()

    def _heuristic_actions(self, games, seats, kinds, obs, masks, actions):
        started = time.perf_counter()
        rows = np.flatnonzero(kinds == K.HEURISTIC)
        if rows.size and self._heuristic_rows is not None:
            streams = games[rows] * self.num_players + seats[rows]
            chosen = np.empty(rows.size, np.int64)
            choose_rows, rules = self._heuristic_rows
            choose_rows(obs[rows], masks[rows], rules, self._heuristic_rngs, streams, chosen)
            actions[rows] = chosen
        else:
            for k in rows:
                agent = self._heuristic_for(int(games[k]), int(seats[k]))
                actions[k] = agent.act(obs[k], masks[k], {})
        self.timings["heuristic"] += time.perf_counter() - started

    def _heuristic_for(self, i, seat):
        """The heuristic agent of game ``i``'s ``seat``, reset at the start of each episode."""
        from agents.heuristic import heuristic_for

        episode = int(self._slots[i]["episode"])
        entry = self._heuristics.get((i, seat))
        if entry is None:
            agent = heuristic_for(self.env_id, seed=self._heuristic_seed * 1_000_003 + i * 16 + seat)
            entry = self._heuristics[(i, seat)] = [agent, -1]
        if entry[1] != episode:
            entry[0].reset(seat, self.env_id, self.config)
            entry[1] = episode
        return entry[0]

    def _snapshot_actions(self, kinds, obs, masks, actions):
        started = time.perf_counter()
        for code in np.unique(kinds[kinds >= K.SNAPSHOT]):
            rows = np.flatnonzero(kinds == code)
            actions[rows] = self.snapshots[int(code) - K.SNAPSHOT](obs[rows], masks[rows].astype(bool))
        self.timings["snapshot"] += time.perf_counter() - started


class TeamVecEnv(_BatchBase):
    """``num_games`` games of the cooperative simultaneous ``env_id``; each seat is a sub-env.

    Sub-env ``g * players + s`` is seat ``s`` of game ``g``: ``num_envs = num_games * players``.
    Each step takes every seat's action, applies one joint step per game and gives each seat the
    team reward.
    """

    def __init__(self, env_id: str, num_games: int = 16, seed: int = 0, config: dict[str, Any] | None = None) -> None:
        game = envs.game_of(env_id)
        if not game.simultaneous:
            raise ValueError(f"{env_id} is turn-based: use LearnerVecEnv")
        players = game.validate(dict(config or {}))["num_players"]
        super().__init__(env_id, num_games, num_games * players, seed, config)
        size, actions = self.game.layout.size, self.game.num_actions
        self._obs = np.zeros((num_games, players, size), np.float32)
        self._masks = np.zeros((num_games, players, actions), np.int8)
        self._legal = np.zeros((num_games * players, actions), bool)
        self._rewards = np.zeros((num_games, players), np.float32)
        self._final_obs = np.zeros((num_games, players, size), np.float32)
        self._has_reset = False

    def reset(self) -> VecEnvObs:
        self._has_reset = True
        K.team_reset(self._states, self._slots, self._blank, self._config_record, self.seed_value, self._obs,
                     self._masks)
        return self._views()

    def step_wait(self) -> VecEnvStepReturn:
        if not self._has_reset:
            raise RuntimeError("call reset() before step()")
        actions = self._check(self._actions, (self.num_games, self.num_players))
        started = time.perf_counter()
        K.team_step(self._states, self._slots, actions, self._blank, self._config_record, self.seed_value,
                    self._max_cycles, self._rewards, self._final_obs, self._obs, self._masks)
        self.timings["engine"] += time.perf_counter() - started
        obs = self._views()
        finished = self._slots["outcome"] != K.ONGOING
        dones = np.repeat(finished, self.num_players)
        infos = [{} for _ in range(self.num_envs)]
        for g in np.flatnonzero(finished):
            for seat in range(self.num_players):
                k = g * self.num_players + seat
                infos[k] = self._episode_info(g, seat)
                if "TimeLimit.truncated" in infos[k]:
                    infos[k]["terminal_observation"] = self._final_obs[g, seat].copy()
        return obs, self._rewards.reshape(-1).copy(), dones, infos

    def _views(self):
        flat_masks = self._masks.reshape(self.num_envs, -1)
        np.not_equal(flat_masks, 0, out=self._legal)
        return self._obs.reshape(self.num_envs, -1).copy()
