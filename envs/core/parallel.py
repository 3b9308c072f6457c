"""The PettingZoo Parallel adapter for simultaneous games: every seat acts in every step.

``step(actions)`` needs one legal action per live agent; the whole joint action is checked before
anything is applied. The AEC form is :class:`envs.core.aec.TabletopSimultaneousAECEnv` (a game
module gets both from :func:`envs.core.aec.make_env_functions`).
"""

import numpy as np
from pettingzoo import ParallelEnv

from . import kernels
from .game import IllegalActionError
from .table import Table, _integer


class TabletopParallelEnv(Table, ParallelEnv):
    def __init__(self, render_mode=None, **config):
        self._setup(render_mode, config)
        self._actions = np.zeros(self.num_players, np.int64)
        self.agents = []

    def reset(self, seed=None, options=None):
        self._reset_record(seed)
        self.agents = self.possible_agents[:]
        return self._observations(), self._infos()

    def step(self, actions):
        self._require_reset("step()")
        if not self.agents:
            raise RuntimeError("step() after the game ended: call reset()")
        if not isinstance(actions, dict):
            raise IllegalActionError(f"actions must be a dict {{agent: action}}, got {type(actions).__name__}")
        missing = [agent for agent in self.agents if agent not in actions]
        unknown = [agent for agent in actions if agent not in self.agent_name_mapping]
        if missing or unknown:
            raise IllegalActionError(f"need one action for each of {self.agents}; missing {missing}, unknown {unknown}")
        offenders = []
        for agent in self.agents:
            seat = self.agent_name_mapping[agent]
            try:
                self._actions[seat] = self._check_action(seat, actions[agent])
            except IllegalActionError:
                if self.config["illegal_action"] == "raise":
                    raise
                offenders.append(seat)
        self._replay_actions.append([_integer(actions[agent]) for agent in self.agents])
        if offenders:
            self._forfeit(offenders)
        else:
            kernels.step_one(self._states, self._actions)
        agents = self.agents
        rewards = {agent: float(self._reward[self.agent_name_mapping[agent]]) for agent in agents}
        terminated = bool(self._terminal[0])
        truncated = not terminated and self._truncated()
        terminations = dict.fromkeys(agents, terminated)
        truncations = dict.fromkeys(agents, truncated)
        observations, infos = self._observations(), self._infos()
        for seat in offenders:
            infos[self.possible_agents[seat]]["illegal_action"] = 1
        if terminated or truncated:
            self.agents = []
        return observations, rewards, terminations, truncations, infos

    def _observations(self):
        return {agent: self.observe(agent) for agent in self.agents}

    def _infos(self):
        return {agent: self._game_infos(agent) for agent in self.agents}

    def _after_set_state(self):
        self.agents = [] if self._terminal[0] else self.possible_agents[:]

