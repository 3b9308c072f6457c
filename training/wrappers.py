"""Single-agent gymnasium views of the multi-agent envs, for stable-baselines3 learners.

:class:`LearnerSeatEnv` (turn-based games): one seat, chosen at random each episode, is the
learner; the other seats are played by opponents drawn from a pool. ``step(action)`` applies the
learner's action, then lets the opponents move until it is the learner's turn again or the game
ends, and returns the reward *of the learner's seat* summed over all those steps (a known pitfall
is to return the reward of whichever seat moved last).

:class:`SharedPolicyEnv` (the cooperative simultaneous game): one policy plays every seat. Each
gym step is one seat's choice within the current moment (seat 0, 1, ...); when every seat has
chosen, the joint action is applied and the team reward is returned.

Both expose ``action_masks()`` for sb3-contrib's MaskablePPO.
"""

import gymnasium
import numpy as np

import envs


class LearnerSeatEnv(gymnasium.Env):
    metadata = {"render_modes": []}

    def __init__(self, env_id, opponent_pool, config=None, seed=None):
        """``opponent_pool()`` returns a fresh opponent agent each time it is called."""
        self.game = envs.game_of(env_id)
        if self.game.simultaneous:
            raise ValueError(f"{env_id} is simultaneous: use SharedPolicyEnv")
        self.env = envs.make(env_id, **(config or {})).unwrapped
        self.opponent_pool = opponent_pool
        self.observation_space = self.game.layout.space()
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self._rng = np.random.default_rng(seed)
        self._mask = np.zeros(self.game.num_actions, np.int8)
        self.learner = self.env.possible_agents[0]
        self.opponents = {}

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.env.reset(seed=int(self._rng.integers(2**63)))
        self.learner = self.env.possible_agents[self._rng.integers(self.env.num_players)]
        self.opponents = {}
        for seat, agent in enumerate(self.env.possible_agents):
            if agent != self.learner:
                opponent = self.opponent_pool()
                opponent.reset(seat, self.game.env_id, self.env.config)
                self.opponents[agent] = opponent
        reward, done = self._opponents_move()
        if done:  # the game ended before the learner ever acted: play another
            return self.reset()
        return self._observation(), {"learner_seat": self.env.agent_name_mapping[self.learner]}

    def step(self, action):
        self.env.step(int(action))
        reward = self.env.rewards[self.learner]
        more, done = self._opponents_move()
        reward += more
        terminated = bool(self.env.terminations[self.learner])
        truncated = bool(self.env.truncations[self.learner]) and not terminated
        observation = self._observation()
        return observation, float(reward), terminated, truncated, {}

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


class SharedPolicyEnv(gymnasium.Env):
    metadata = {"render_modes": []}

    def __init__(self, env_id, opponent_pool=None, config=None, seed=None):
        self.game = envs.game_of(env_id)
        if not self.game.simultaneous:
            raise ValueError(f"{env_id} is turn-based: use LearnerSeatEnv")
        self.env = envs.make_parallel(env_id, **(config or {}))
        self.observation_space = self.game.layout.space()
        self.action_space = gymnasium.spaces.Discrete(self.game.num_actions)
        self._rng = np.random.default_rng(seed)
        self._observations = {}
        self._actions = {}
        self._seat = 0

    def reset(self, seed=None, options=None):
        super().reset(seed=seed)
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self._observations, _ = self.env.reset(seed=int(self._rng.integers(2**63)))
        self._actions, self._seat = {}, 0
        return self._current()["observation"], {}

    def step(self, action):
        agent = self.env.possible_agents[self._seat]
        self._actions[agent] = int(action)
        self._seat += 1
        if self._seat < len(self.env.possible_agents):
            return self._current()["observation"], 0.0, False, False, {}
        observations, rewards, terminations, truncations, _ = self.env.step(self._actions)
        self._actions, self._seat = {}, 0
        reward = float(np.mean(list(rewards.values())))  # the team reward (equal for every seat)
        if not self.env.agents:
            last = observations[self.env.possible_agents[0]]["observation"]
            return last, reward, any(terminations.values()), not any(terminations.values()), {}
        self._observations = observations
        return self._current()["observation"], reward, False, False, {}

    def action_masks(self):
        return self._current()["action_mask"].astype(bool)

    def _current(self):
        return self._observations[self.env.possible_agents[self._seat]]


def make_training_env(env_id, opponent_pool, config=None, seed=None):
    """The right single-agent view of ``env_id`` for a learner."""
    if envs.game_of(env_id).simultaneous:
        return SharedPolicyEnv(env_id, config=config, seed=seed)
    return LearnerSeatEnv(env_id, opponent_pool, config=config, seed=seed)
