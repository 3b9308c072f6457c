"""What both PettingZoo adapters share: one game record, its config, seeding, views and checks.

:class:`Table` is a mixin; :class:`envs.core.aec.TabletopAECEnv` (and its simultaneous-game
form :class:`envs.core.aec.TabletopSimultaneousAECEnv`) and
:class:`envs.core.parallel.TabletopParallelEnv` add the stepping protocol of their API.
A subclass sets the class attribute ``game`` (a :class:`envs.core.game.Game`).

An env answers nothing about the game before ``reset()`` or ``set_state()`` (its record is all
zeros until then): those calls raise ``RuntimeError``. ``copy.deepcopy`` and ``pickle`` give an
independent env that continues exactly as the original would.
"""

import numbers
import os

import numpy as np
from gymnasium import spaces

from . import kernels
from .game import RENDER_MODES, IllegalActionError
from .rng import derive_seed
from .state import copy_records, install_records, new_states
from .validate import check_records

MAX_SEED = 2**64
_RECORD_VIEWS = ("_reward", "_terminal", "_current", "_step_count")  # rebuilt, never copied


def agent_name(seat):
    return f"player_{seat}"


class Table:
    game = None  # set by each game's env class

    def _setup(self, render_mode, config):
        game = self.game
        if render_mode is not None and render_mode not in RENDER_MODES:
            raise ValueError(f"render_mode={render_mode!r} is not valid; choose one of {[None, *RENDER_MODES]}")
        self.render_mode = render_mode
        self.metadata = {"name": game.env_id, "render_modes": list(RENDER_MODES), "render_fps": 2,
                         "is_parallelizable": True}
        self.config = game.validate(config)
        self._config_record = game.make_config(self.config)
        self._states = new_states(game.engine.STATE)
        self._blank = new_states(game.engine.STATE)
        self._mask_buf = np.zeros(game.num_actions, np.int8)
        self.num_players = self.config["num_players"]
        self.possible_agents = [agent_name(seat) for seat in range(self.num_players)]
        self.agent_name_mapping = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation_space = spaces.Dict({
            "observation": game.layout.space(),
            "action_mask": spaces.Box(0, 1, (game.num_actions,), np.int8),
        })
        self.observation_spaces = {agent: observation_space for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(game.num_actions) for agent in self.possible_agents}
        layout = game.layout
        self.state_space = spaces.Box(np.tile(layout.low, self.num_players), np.tile(layout.high, self.num_players),
                                      (layout.size * self.num_players,), np.float32)
        self.render_viewer = None  # a seat: render only what that seat may know
        self._seed_base = None
        self._episode = 0
        self._has_reset = False
        self._bind_record_views()

    def _bind_record_views(self):
        # Views into the record, read after every step without building a record object.
        self._reward = self._states["reward"][0]
        self._terminal = self._states["terminal"]
        self._current = self._states["current_player"]
        self._step_count = self._states["step_count"]

    # A copy's views must look at the copy's record: they are left out and rebuilt from it.
    def __getstate__(self):
        return {name: value for name, value in self.__dict__.items() if name not in _RECORD_VIEWS}

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._bind_record_views()

    def _require_reset(self, call):
        if not self._has_reset:
            raise RuntimeError(f"{self.game.env_id}: call reset() (or set_state()) before {call}")

    def _seat(self, agent):
        """The seat of agent name ``agent``; ValueError naming the agents for anything else."""
        try:
            return self.agent_name_mapping[agent]
        except (KeyError, TypeError):
            raise ValueError(f"unknown agent {agent!r}; the agents are {self.possible_agents}") from None

    # ---- PettingZoo ---------------------------------------------------------------------

    def __str__(self):
        return self.game.env_id

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    @property
    def observation_layout(self):
        """The named blocks of the observation vector (:class:`envs.core.layout.Layout`)."""
        return self.game.layout

    def observe(self, agent):
        self._require_reset("observe()")
        seat = self._seat(agent)
        obs = np.empty(self.game.layout.size, np.float32)
        mask = np.empty(self.game.num_actions, np.int8)
        kernels.view_one(self._states, seat, obs, mask)
        return {"observation": obs, "action_mask": mask}

    def state(self):
        """Every seat's observation side by side (what all seats together know; no deck order)."""
        self._require_reset("state()")
        out = np.empty(self.state_space.shape[0], np.float32)
        kernels.observe_all(self._states, out)
        return out

    def render(self):
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi' or 'rgb_array'")
            return None
        self._require_reset("render()")
        viewer = self.render_viewer
        if viewer is not None and (_integer(viewer) is None or not 0 <= viewer < self.num_players):
            raise ValueError(f"render_viewer={viewer!r} is not valid; choose None or a seat 0..{self.num_players - 1}")
        state = self._states[0]
        if self.render_mode == "rgb_array":
            return self.game.render.rgb(state, self.config)
        text = self.game.render.ansi(state, self.config, viewer=self.render_viewer)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self):
        pass

    # ---- our additions ------------------------------------------------------------------

    def action_to_str(self, action):
        """The human-readable name of ``action`` (an integer in ``[0, num_actions)``)."""
        number = _integer(action)
        if number is None or not 0 <= number < self.game.num_actions:
            raise ValueError(f"{self.game.env_id}: an action is an integer in [0, {self.game.num_actions}), "
                             f"got {action!r}")
        return self.game.action_name(number, self.config)

    def legal_actions(self, agent=None):
        """The legal actions of ``agent`` (default: the one to act) as a list of ints."""
        self._require_reset("legal_actions()")
        if agent is None:
            if self.game.simultaneous:
                raise ValueError("every seat acts at once in this game: name the agent")
            seat = int(self._current[0])
            if seat < 0:
                return []  # the game is over
        else:
            seat = self._seat(agent)
        kernels.mask_one(self._states, seat, self._mask_buf)
        return np.flatnonzero(self._mask_buf).tolist()

    def get_state(self):
        """A copy of the whole game record (a length-1 structured array; ``np.save`` it)."""
        self._require_reset("get_state()")
        return copy_records(self._states)

    def set_state(self, record):
        """Continue from a record made by :meth:`get_state` (or ``np.load`` of one).

        The record is checked first (:func:`envs.core.validate.check_records`): a record that is
        not a game the rules can reach raises ``ValueError`` and leaves the env as it was.
        """
        record = self._own_copy(record)  # what is checked is what is installed
        check_records(self.game, record)
        self._install(record)

    def _own_copy(self, record):
        """A length-1 copy of ``record`` if it is a record of this game at this table; ValueError if not."""
        record = np.asarray(record)
        if record.dtype != self.game.engine.STATE or record.shape not in ((1,), ()):
            raise ValueError(f"set_state expects a record of {self.game.env_id}'s STATE dtype from get_state(), "
                             f"got dtype {record.dtype} shape {record.shape}")
        record = copy_records(record).reshape(1)
        if int(record["num_players"][0]) != self.num_players:
            raise ValueError(f"the record is a {int(record['num_players'][0])}-player game; "
                             f"this env has {self.num_players} players")
        return record

    def _install(self, record):
        """Continue from ``record`` (already checked, or on purpose not: ``envs.testing.install_unchecked``)."""
        install_records(self._states, record)
        self._has_reset = True
        self._start_replay(record.copy())
        self._after_set_state()

    def _next_seed(self, seed):
        if seed is not None:
            if isinstance(seed, bool) or not isinstance(seed, numbers.Integral) or not 0 <= seed < MAX_SEED:
                raise ValueError(f"seed must be an integer in [0, 2**64), got {seed!r}")
            self._seed_base, self._episode = int(seed), 0
            return int(seed)
        if self._seed_base is None:
            self._seed_base = int.from_bytes(os.urandom(8), "little") >> 1
            return self._seed_base
        self._episode += 1
        return int(derive_seed(self._seed_base, 0, self._episode))

    def _reset_record(self, seed):
        seed = self._next_seed(seed)
        kernels.reset_one(self._states, self._blank, self._config_record, np.uint64(seed))
        self._has_reset = True
        self._start_replay(seed)

    def _start_replay(self, start):
        """What a replay of this game starts from (a seed, or a record given to ``set_state``);
        the actions taken since are appended to ``_replay_actions`` (see :mod:`envs.core.replay`)."""
        self._replay_start, self._replay_actions = start, []

    def _check_action(self, seat, action):
        """``action`` as an int if ``seat`` may take it now; IllegalActionError otherwise."""
        number = _integer(action)
        if number is None:
            raise IllegalActionError(f"{agent_name(seat)}: an action is an integer in [0, {self.game.num_actions}), "
                                     f"got {action!r} of type {type(action).__name__}")
        action = number
        kernels.mask_one(self._states, seat, self._mask_buf)
        if not 0 <= action < self.game.num_actions or not self._mask_buf[action]:
            legal = np.flatnonzero(self._mask_buf)
            shown = ", ".join(f"{a} ({self.action_to_str(a)})" for a in legal[:40])
            more = f" and {len(legal) - 40} more" if len(legal) > 40 else ""
            what = (f"{action} ({self.action_to_str(action)})" if 0 <= action < self.game.num_actions
                    else f"{action} (out of range [0, {self.game.num_actions}))")
            raise IllegalActionError(f"{agent_name(seat)} cannot take action {what} now; "
                                     f"legal: {shown or 'none'}{more}")
        return action

    def _forfeit(self, seats):
        """End the game: -1 for each offending seat, 0 for the others (illegal_action='penalize')."""
        record = self._states
        record["reward"][0, :] = 0.0
        record["reward"][0, list(seats)] = -1.0
        record["terminal"][0] = 1
        record["current_player"][0] = -1

    def _truncated(self):
        max_cycles = self.config["max_cycles"]
        return max_cycles is not None and self._step_count[0] >= max_cycles

    def _game_infos(self, agent):
        """The game's infos for ``agent``; under ``illegal_action="penalize"`` also
        ``illegal_action`` (0, or 1 for the seat whose illegal action ended the game), present at
        every step so the keys never change (TorchRL builds its specs from the first step)."""
        infos = {} if self.game.infos is None else self.game.infos(self._states[0], self.config,
                                                                   self.agent_name_mapping[agent])
        if self.config["illegal_action"] == "penalize":
            infos["illegal_action"] = 0
        return infos


def _integer(value):
    """``value`` as an int if it is an integer (a 0-d integer array counts; a bool does not), else None."""
    if isinstance(value, np.ndarray) and value.shape == () and np.issubdtype(value.dtype, np.integer):
        value = value.item()
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        return None
    return int(value)
