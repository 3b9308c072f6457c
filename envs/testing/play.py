"""Random play through the PettingZoo APIs, shared by the tests, the demo and the benchmarks."""

import numpy as np


def random_action(observation, rng):
    """A uniformly random legal action from a PettingZoo observation dict."""
    legal = np.flatnonzero(observation["action_mask"])
    if legal.size == 0:
        raise AssertionError("a seat asked to act has no legal action")
    return int(legal[rng.integers(legal.size)])


def random_parallel_actions(observations, agents, rng):
    """One Parallel step of random legal actions for ``agents``: in the Parallel form of a
    turn-based game only the seat to act has legal actions; the others send 0, which it ignores."""
    return {agent: random_action(observations[agent], rng) if observations[agent]["action_mask"].any() else 0
            for agent in agents}


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

    ``on_step(env, actions)`` is called after every step (see :func:`random_parallel_actions`).
    """
    rng = rng if rng is not None else np.random.default_rng(seed)
    observations, _ = env.reset(seed=seed)
    steps = 0
    returns = dict.fromkeys(env.possible_agents, 0.0)
    while env.agents:
        actions = random_parallel_actions(observations, env.agents, rng)
        observations, rewards, _, _, _ = env.step(actions)
        for agent, reward in rewards.items():
            returns[agent] += reward
        steps += 1
        if on_step is not None:
            on_step(env, actions)
    return steps, returns


def choice_positions(env_id, count, seed=0, num_players=None, share=0.3):
    """Positions of a seeded random game of ``env_id`` where a seat has more than one legal action
    (about ``share`` of them, at most ``count``), for search tests and benchmarks.

    Each is ``(record, seat, observation, action_mask, pending)``: the true record (a length-1
    array) and what the seat sees; ``pending`` lists, in a simultaneous game, the actions the seats
    before it chose this moment (None in a turn-based game).
    """
    import envs

    game = envs.game_of(env_id)
    num_players = num_players or game.default_players
    rng = np.random.default_rng(seed)
    found = []
    if game.simultaneous:
        env = envs.make_parallel(env_id, num_players=num_players)
        observations, _ = env.reset(seed=seed)
        while env.agents and len(found) < count:
            actions = {name: random_action(observations[name], rng) for name in env.agents}
            for seat, name in enumerate(env.agents):
                view = observations[name]
                if view["action_mask"].sum() > 1 and len(found) < count and rng.random() < share:
                    pending = [actions[other] for other in env.agents[:seat]]
                    found.append((env.get_state(), seat, view["observation"], view["action_mask"], pending))
            observations, *_ = env.step(actions)
        return found
    env = envs.make(env_id, num_players=num_players)
    env.reset(seed=seed)
    for name in env.agent_iter():
        view, _, terminated, truncated, _ = env.last()
        if terminated or truncated or len(found) >= count:
            break
        if view["action_mask"].sum() > 1 and rng.random() < share:
            seat = env.unwrapped.agent_name_mapping[name]
            found.append((env.unwrapped.get_state(), seat, view["observation"], view["action_mask"], None))
        env.step(random_action(view, rng))
    return found
