"""The PettingZoo AEC adapters: agent selection follows ``current_player``, or, in a simultaneous
game, goes round the seats within each moment.

All seats stay in ``agents`` until the game ends (a seat knocked out of play is simply never
selected), then every seat is terminated together (or truncated after ``max_cycles`` decisions)
and steps ``None`` once, as PettingZoo's protocol asks. ``rewards`` holds each seat's reward of
the last step; ``last()`` returns the reward accumulated since that seat last acted. An action is
checked the moment it is given: an illegal one raises ``IllegalActionError`` naming the seat and
changes nothing (or, with ``illegal_action="penalize"``, ends the game at once).

:class:`TabletopAECEnv` is the AEC env of a turn-based game, :class:`TabletopSimultaneousAECEnv`
that of a simultaneous one (whose native form is :class:`envs.core.parallel.TabletopParallelEnv`),
and :class:`TurnBasedParallelEnv` the Parallel form of a turn-based game.
"""

import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.conversions import turn_based_aec_to_parallel_wrapper

from . import kernels
from .game import IllegalActionError
from .table import Table, _integer


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
        try:
            action = self._check_action(seat, action)
        except IllegalActionError:
            if self.config["illegal_action"] != "penalize":
                raise
            self._penalize(agent, action)
            return
        self._cumulative_rewards[agent] = 0.0
        self._play(seat, action)

    def _play(self, seat, action):
        """Apply the checked ``action`` of ``seat``."""
        self._replay_actions.append(action)
        kernels.step_one(self._states, action)
        self._sync(reward_changed=True)

    def _penalize(self, agent, action):
        """``illegal_action="penalize"``: the offender's illegal ``action`` ends the game."""
        seat = self.agent_name_mapping[agent]
        self._replay_actions.append(self._replay_entry(seat, _integer(action)))
        self._forfeit([seat])
        self._cumulative_rewards[agent] = 0.0
        self._sync(reward_changed=True)
        self.infos[agent]["illegal_action"] = 1

    def _replay_entry(self, seat, action):
        """What the replay keeps of ``seat`` giving the illegal ``action``."""
        return action

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


class TabletopSimultaneousAECEnv(TabletopAECEnv):
    """The AEC env of a simultaneous game, as PettingZoo's own simultaneous games (rock paper
    scissors) have it: in each moment the seats act one after another, ``player_0`` first, each
    action checked against that seat's mask when it is given; once the last seat has acted the
    moment is applied, exactly as the Parallel env's ``step`` applies the same actions. Until then
    the game does not change: every seat observes the moment's start, infos stay, and ``rewards``
    are 0 from the first action of a moment until the moment is applied.

    A record installed by ``set_state`` starts a new moment; ``copy.deepcopy`` and ``pickle`` keep
    the actions already chosen in the current one. A replay holds whole moments only.
    """

    def __init__(self, render_mode=None, **config):
        super().__init__(render_mode, **config)
        self._actions = np.zeros(self.num_players, np.int64)  # this moment's actions, by seat
        self._chosen = 0  # how many seats have acted in this moment

    def legal_actions(self, agent=None):
        """The legal actions of ``agent`` (default: the seat whose action the moment waits for)."""
        self._require_reset("legal_actions()")
        return super().legal_actions(self.agent_selection if agent is None else agent)

    def _play(self, seat, action):
        self._actions[seat] = action
        self._chosen += 1
        if self._chosen < len(self.agents):  # the moment waits for the next seat
            if self._chosen == 1:
                self._clear_rewards()
            self.agent_selection = self.agents[self._chosen]
            return
        self._replay_actions.append(self._actions.tolist())
        kernels.step_one(self._states, self._actions)
        self._sync(reward_changed=True)

    def _replay_entry(self, seat, action):
        """The moment as the Parallel env would replay it: the actions chosen before ``seat``, its
        illegal one, and a legal action of each seat after it (so only ``seat`` is penalized)."""
        joint = self._actions.tolist()
        joint[seat] = action
        for later in range(seat + 1, len(joint)):
            joint[later] = self.legal_actions(self.possible_agents[later])[0]
        return joint

    def _sync(self, reward_changed):
        self._chosen = 0  # the record changed: a new moment starts with the first seat
        super()._sync(reward_changed)


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's call-order checks, for which a record installed by ``set_state`` counts as a reset."""

    def set_state(self, record):
        self.env.set_state(record)
        self.count_as_reset()

    def count_as_reset(self):
        """The record now in the env (installed from outside) counts as a reset."""
        self._has_reset = self._has_updated = True


class TurnBasedParallelEnv(turn_based_aec_to_parallel_wrapper):
    """The Parallel form of a turn-based game (PettingZoo's ``turn_based_aec_to_parallel``): each
    step applies the action of the seat to act and ignores the others'.

    Infos hold numbers only: ``infos[agent]["active_seat"]`` is the seat to act (-1 once the game
    is over) where PettingZoo's wrapper puts the agent's name under ``"active_agent"``. As the
    simultaneous games' Parallel env, it offers ``observe``, ``get_state`` and ``set_state``.
    """

    def observe(self, agent):
        """``agent``'s observation and action mask now (``{"observation", "action_mask"}``)."""
        return self.aec_env.observe(agent)

    def get_state(self):
        """A copy of the whole game record (see ``raw_env.get_state``)."""
        return self.unwrapped.get_state()

    def set_state(self, record):
        """Continue from ``record`` (checked first: a bad one raises ``ValueError`` and changes
        nothing); a finished game leaves no agents, as after its last step."""
        self.aec_env.set_state(record)
        self.agents = [] if self.unwrapped._terminal[0] else self.aec_env.agents[:]

    def reset(self, seed=None, options=None):
        observations, infos = super().reset(seed=seed, options=options)
        return observations, self._number_active_seat(infos)

    def step(self, actions):
        if not self.agents:
            raise RuntimeError("step() after the game ended: call reset()")
        active = self.aec_env.agent_selection
        if not isinstance(actions, dict) or active not in actions:
            raise IllegalActionError(f"actions must be a dict {{agent: action}} holding an action for {active}, "
                                     f"the seat to act; got {actions!r}")
        observations, rewards, terminations, truncations, infos = super().step(actions)
        return observations, rewards, terminations, truncations, self._number_active_seat(infos)

    def _number_active_seat(self, infos):
        table = self.unwrapped
        seat = table.agent_name_mapping[self.aec_env.agent_selection] if self.aec_env.agents else -1
        for info in infos.values():
            info.pop("active_agent", None)
            info["active_seat"] = seat
        return infos


def make_env_functions(env_class, parallel_class=None):
    """PettingZoo's module functions ``env``, ``raw_env``, ``parallel_env`` for an AEC env class.

    ``raw_env`` is ``env_class`` itself, ``env`` wraps it to enforce PettingZoo's call order. The
    Parallel form of a turn-based game is :class:`TurnBasedParallelEnv` over ``env()``; a
    simultaneous game passes its own ``parallel_class``.
    """

    def env(**kwargs):
        """The AEC environment, wrapped to enforce PettingZoo's call order."""
        return OrderEnforcingWrapper(env_class(**kwargs))

    def parallel_env(**kwargs):
        """The Parallel environment: every seat acts in every step (in a turn-based game only the
        action of the seat to act counts)."""
        if parallel_class is not None:
            return parallel_class(**kwargs)
        return TurnBasedParallelEnv(env(**kwargs))

    return env, env_class, parallel_env
