"""Single-agent gymnasium views of the multi-agent envs, for stable-baselines3 learners.

:class:`LearnerSeatEnv` (turn-based games): one seat, chosen at random each episode, is the
learner; the other seats are played by opponents drawn from a pool. ``step(action)`` applies the
learner's action, then lets the opponents move until it is the learner's turn again or the game
ends, and returns the reward *of the learner's seat* summed over all those steps (a known pitfall
is to return the reward of whichever seat moved last).

:class:`SharedPolicyEnv` (the cooperative simultaneous game): one policy plays every seat. Each
gym step is one seat's choice within the current moment (seat 0, 1, ...); when every seat has
chosen, the joint action is applied and the team reward is returned.

Both expose ``action_masks()`` for sb3-contrib's MaskablePPO, and both pass the environment
checkers of gymnasium and stable-baselines3 (``check_env``).

**Illegal actions** (``illegal_action=``):

- ``"penalize"`` (default): the episode ends at once with reward -1 (the env's own penalty for an
  illegal action) and ``info["illegal_action"] = True``; the first one also warns, and every one
  is counted in ``illegal_actions``. The default because the generic tools sample actions without
  masks (both checkers, SB3's ``VecCheckNan``, an unmasked PPO baseline), and a learner should be
  able to learn the mask from the penalty; the warning and the counter keep it from going unseen.
- ``"raise"``: ``IllegalActionError`` (the record untouched), for a masked learner, where an
  illegal action is a bug in the mask plumbing.

An action that is not an integer is always an ``IllegalActionError``: a bug, not a choice. The
game's own ``illegal_action`` option (in ``config``, "raise" by default) still governs the
opponents' actions.

**Seeding**: ``reset(seed=s)`` fixes the whole episode and the ones after it (``reset()``
continues the stream): the game's seed, the learner's seat, and the opponents. The pool is
reseeded from it at every reset if it has a ``seed(seed)`` method (an opponent pool that draws at
random should have one), and so is every opponent it returns (``Agent.seed``). The constructor's
``seed`` seeds the first ``reset()``.
"""

import numbers
import warnings

import gymnasium
import numpy as np
from gymnasium.utils import seeding

import envs
from envs.core.game import IllegalActionError

ILLEGAL_ACTION_MODES = ("penalize", "raise")
ILLEGAL_ACTION_REWARD = -1.0


class _SingleAgentView(gymnasium.Env):
    """What both views share: the spaces, seeding, and the illegal-action policy."""

    metadata = {"render_modes": []}

    def __init__(self, env_id, seed, illegal_action):
        if illegal_action not in ILLEGAL_ACTION_MODES:
            raise ValueError(f"illegal_action={illegal_action!r} is not valid; choose one of {list(ILLEGAL_ACTION_MODES)}")
        self.game = envs.game_of(env_id)
        self.observation_space = self.game.layout.space()
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self.illegal_action = illegal_action
        self.illegal_actions = 0  # how many illegal actions were penalized
        if seed is not None:
            self._np_random, self._np_random_seed = seeding.np_random(seed)
        self._episode_over = True

    def _draw_seed(self):
        return int(self.np_random.integers(2**63))

    def _checked(self, action, mask):
        """``action`` as an int if legal under ``mask``; None if it was penalized (the first time
        with a warning; counted). Raises for a malformed action, or an illegal one in "raise" mode."""
        if self._episode_over:
            raise RuntimeError("the episode is over: call reset() first")
        if isinstance(action, np.ndarray) and action.shape == ():
            action = action.item()
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, numbers.Integral):
            raise IllegalActionError(f"an action is an integer in [0, {self.game.num_actions}), "
                                     f"got {action!r} of type {type(action).__name__}")
        action = int(action)
        if 0 <= action < mask.size and mask[action]:
            return action
        message = (f"{self.game.env_id}: the learner chose action {action}, not legal now "
                   f"(legal: {np.flatnonzero(mask).tolist()})")
        if self.illegal_action == "raise":
            raise IllegalActionError(message)
        if self.illegal_actions == 0:
            warnings.warn(f"{message}; the episode ends with reward {ILLEGAL_ACTION_REWARD} "
                          f"(illegal_action='penalize'). Further illegal actions are counted in "
                          f"illegal_actions without a warning; illegal_action='raise' stops at the first.",
                          RuntimeWarning, stacklevel=3)
        self.illegal_actions += 1
        self._episode_over = True
        return None

    def _penalty(self, observation):
        return observation, ILLEGAL_ACTION_REWARD, True, False, {"illegal_action": True}


def _seed(obj, seed):
    """``obj.seed(seed)`` if ``obj`` has such a method (an instance: a class used as a factory is skipped)."""
    method = getattr(obj, "seed", None)
    if callable(method) and not isinstance(obj, type):
        method(seed)


class LearnerSeatEnv(_SingleAgentView):
    def __init__(self, env_id, opponent_pool, config=None, seed=None, illegal_action="penalize"):
        """``opponent_pool()`` returns a fresh opponent agent each time it is called."""
        super().__init__(env_id, seed, illegal_action)
        if self.game.simultaneous:
            raise ValueError(f"{env_id} is simultaneous: use SharedPolicyEnv")
        self.env = envs.make(env_id, **(config or {})).unwrapped
        self.opponent_pool = opponent_pool
        self._mask = np.zeros(self.game.num_actions, np.int8)
        self.learner = self.env.possible_agents[0]
        self.opponents = {}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        _seed(self.opponent_pool, self._draw_seed())
        self.env.reset(seed=self._draw_seed())
        self.learner = self.env.possible_agents[self.np_random.integers(self.env.num_players)]
        self.opponents = {}
        for seat, agent in enumerate(self.env.possible_agents):
            opponent_seed = self._draw_seed()
            if agent != self.learner:
                opponent = self.opponent_pool()
                _seed(opponent, opponent_seed)
                opponent.reset(seat, self.game.env_id, self.env.config)
                self.opponents[agent] = opponent
        reward, done = self._opponents_move()
        if done:  # the game ended before the learner ever acted: play another
            return self.reset()
        self._episode_over = False
        return self._observation(), {"learner_seat": self.env.agent_name_mapping[self.learner]}

    def step(self, action):
        action = self._checked(action, self._mask)
        if action is None:
            return self._penalty(self._observation())
        self.env.step(action)
        reward = self.env.rewards[self.learner]
        more, done = self._opponents_move()
        reward += more
        terminated = bool(self.env.terminations[self.learner])
        truncated = bool(self.env.truncations[self.learner]) and not terminated
        self._episode_over = done
        return self._observation(), float(reward), terminated, truncated, {"illegal_action": False}

    def action_masks(self):
        return self._mask.astype(bool)

    def _opponents_move(self):
        """Opponents act until the learner is to act or the game is over; the learner's rewards meanwhile."""
        reward = 0.0
        env = self.env
        while True:
            if any(env.terminations.values()) or any(env.truncations.values()):
                return reward, True
            agent = env.agent_selection
            if agent == self.learner:
                return reward, False
            observation = env.observe(agent)
            opponent = self.opponents[agent]
            info = {"record": env.get_state()} if getattr(opponent, "needs_record", False) else {}
            env.step(opponent.act(observation["observation"], observation["action_mask"], info))
            reward += env.rewards[self.learner]

    def _observation(self):
        observation = self.env.observe(self.learner)
        self._mask[:] = observation["action_mask"]
        return observation["observation"]


class SharedPolicyEnv(_SingleAgentView):
    def __init__(self, env_id, opponent_pool=None, config=None, seed=None, illegal_action="penalize"):
        super().__init__(env_id, seed, illegal_action)
        if not self.game.simultaneous:
            raise ValueError(f"{env_id} is turn-based: use LearnerSeatEnv")
        self.env = envs.make_parallel(env_id, **(config or {}))
        self._observations = {}
        self._actions = {}
        self._seat = 0

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        self._observations, _ = self.env.reset(seed=self._draw_seed())
        self._actions, self._seat = {}, 0
        self._episode_over = False
        return self._current()["observation"], {}

    def step(self, action):
        current = self._current()
        action = self._checked(action, current["action_mask"])
        if action is None:
            return self._penalty(current["observation"])
        agent = self.env.possible_agents[self._seat]
        self._actions[agent] = action
        self._seat += 1
        if self._seat < len(self.env.possible_agents):
            return self._current()["observation"], 0.0, False, False, {"illegal_action": False}
        observations, rewards, terminations, truncations, _ = self.env.step(self._actions)
        self._actions, self._seat = {}, 0
        reward = float(np.mean(list(rewards.values())))  # the team reward (equal for every seat)
        if not self.env.agents:
            self._episode_over = True
            last = observations[self.env.possible_agents[0]]["observation"]
            ended = any(terminations.values())
            return last, reward, ended, not ended, {"illegal_action": False}
        self._observations = observations
        return self._current()["observation"], reward, False, False, {"illegal_action": False}

    def action_masks(self):
        return self._current()["action_mask"].astype(bool)

    def _current(self):
        return self._observations[self.env.possible_agents[self._seat]]


def make_training_env(env_id, opponent_pool, config=None, seed=None, illegal_action="penalize"):
    """The right single-agent view of ``env_id`` for a learner."""
    if envs.game_of(env_id).simultaneous:
        return SharedPolicyEnv(env_id, config=config, seed=seed, illegal_action=illegal_action)
    return LearnerSeatEnv(env_id, opponent_pool, config=config, seed=seed, illegal_action=illegal_action)
