"""The PettingZoo AEC adapter for turn-based games: agent selection follows ``current_player``.

All seats stay in ``agents`` until the game ends (a seat knocked out of play is simply never
selected), then every seat is terminated together (or truncated after ``max_cycles`` decisions)
and steps ``None`` once, as PettingZoo's protocol asks. ``rewards`` holds each seat's reward of
the last step; ``last()`` returns the reward accumulated since that seat last acted.
"""

from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

from . import kernels
from .table import Table


class TabletopAECEnv(Table, AECEnv):
    def __init__(self, render_mode=None, **config):
        super().__init__()
        self._setup(render_mode, config)

    def reset(self, seed=None, options=None):
        self._reset_record(seed)
        self._after_set_state()

    def _after_set_state(self):
        """Every seat in play again, nothing accumulated; the turn read from the record."""
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self._skip_agent_selection = None
        self._sync(reward_changed=False)

    def step(self, action):
        self._require_reset("step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_name_mapping[agent]
        if self.config["illegal_action"] == "penalize":
            try:
                action = self._check_action(seat, action)
            except ValueError:
                self._forfeit([seat])
                self._cumulative_rewards[agent] = 0.0
                self._sync(reward_changed=True)
                self.infos[agent]["illegal_action"] = True
                return
        else:
            action = self._check_action(seat, action)
        kernels.step_one(self._states, action)
        self._cumulative_rewards[agent] = 0.0
        self._sync(reward_changed=True)

    def last(self, observe=True):
        self._require_reset("last()")
        return super().last(observe)

    def agent_iter(self, max_iter=2**63):
        self._require_reset("agent_iter()")
        return super().agent_iter(max_iter)

    def _sync(self, reward_changed):
        """Bring the PettingZoo dicts in line with the record after a reset or a step."""
        agents = self.agents
        if reward_changed:
            reward = self._reward
            for seat, agent in enumerate(self.possible_agents):
                self.rewards[agent] = float(reward[seat])
                self._cumulative_rewards[agent] += self.rewards[agent]
        if self._terminal[0]:
            self.terminations = dict.fromkeys(agents, True)
        elif self._truncated():
            self.truncations = dict.fromkeys(agents, True)
        current = int(self._current[0])
        self.agent_selection = self.possible_agents[current] if current >= 0 else agents[0]
        self.infos = {agent: self._game_infos(agent) for agent in agents}


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's call-order checks, for which a record installed by ``set_state`` counts as a reset."""

    def set_state(self, record):
        self.env.set_state(record)
        self._has_reset = self._has_updated = True


def make_env_functions(env_class):
    """PettingZoo's module functions for an AEC env class: ``env``, ``raw_env``, ``parallel_env``."""

    def env(**kwargs):
        """The AEC environment, wrapped to enforce PettingZoo's call order."""
        return OrderEnforcingWrapper(env_class(**kwargs))

    def parallel_env(**kwargs):
        """The Parallel form: each step applies the action of the seat whose turn it is."""
        return turn_based_aec_to_parallel(env(**kwargs))

    return env, env_class, parallel_env
