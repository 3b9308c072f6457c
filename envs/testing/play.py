"""Random play through the PettingZoo APIs, shared by the tests, the demo and the benchmarks."""

import numpy as np


def random_action(observation, rng):
    """A uniformly random legal action from a PettingZoo observation dict."""
    legal = np.flatnonzero(observation["action_mask"])
    if legal.size == 0:
        raise AssertionError("a seat asked to act has no legal action")
    return int(legal[rng.integers(legal.size)])


def play_aec(env, seed, rng=None, on_step=None):
    """Play one game of an AEC env with random legal actions; returns (decisions, final rewards).

    ``on_step(env, agent, action)`` is called after every decision.
    """
    rng = rng if rng is not None else np.random.default_rng(seed)
    env.reset(seed=seed)
    decisions = 0
    returns = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        returns[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = random_action(observation, rng)
        env.step(action)
        decisions += 1
        if on_step is not None:
            on_step(env, agent, action)
    return decisions, returns


def play_parallel(env, seed, rng=None, on_step=None):
    """Play one game of a Parallel env with random legal actions; returns (steps, total rewards).

    In the Parallel form of a turn-based game only the seat to act has legal actions; the others
    send 0, which the form ignores. ``on_step(env, actions)`` is called after every step.
    """
    rng = rng if rng is not None else np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    steps = 0
    returns = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        actions = {agent: random_action(observations[agent], rng) if observations[agent]["action_mask"].any() else 0
                   for agent in env.agents}
        observations, rewards, _, _, _ = env.step(actions)
        for agent, reward in rewards.items():
            returns[agent] += reward
        steps += 1
        if on_step is not None:
            on_step(env, actions)
    return steps, returns
