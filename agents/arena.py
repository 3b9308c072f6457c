"""Playing whole games between agents, seat by seat, through the PettingZoo envs.

Agents see their seat's observation, mask and info; agents with ``needs_record = True``
(search agents) also get the record in ``info["record"]``, which they may only determinize.
"""

import numpy as np

import envs


def play_game(env_id, lineup, seed, config=None, on_step=None):
    """Play one game of ``env_id`` with ``lineup[seat]`` in each seat; returns final returns per seat.

    ``on_step(env)`` is called after every decision (for replays and plots).
    """
    config = dict(config or {})
    config.setdefault("num_players", len(lineup))
    game = envs.game_of(env_id)
    if game.simultaneous:
        env = envs.make_parallel(env_id, **config)
        return _play_parallel(env, lineup, seed, on_step)
    env = envs.make(env_id, **config)
    return _play_aec(env, lineup, seed, on_step)


def _reset_agents(env, lineup):
    for seat, agent in enumerate(lineup):
        agent.reset(seat, env.unwrapped.game.env_id, env.unwrapped.config)


def _info_for(agent, env, info):
    if getattr(agent, "needs_record", False):
        return {**info, "record": env.unwrapped.get_state()}
    return info


def _play_aec(env, lineup, seed, on_step):
    env.reset(seed=seed)
    _reset_agents(env, lineup)
    returns = np.zeros(len(lineup))
    for agent_name in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        seat = env.unwrapped.agent_name_mapping[agent_name]
        returns[seat] += reward
        if terminated or truncated:
            env.step(None)
            continue
        agent = lineup[seat]
        env.step(agent.act(observation["observation"], observation["action_mask"], _info_for(agent, env, info)))
        if on_step is not None:
            on_step(env)
    return returns


def _play_parallel(env, lineup, seed, on_step):
    observations, infos = env.reset(seed=seed)
    _reset_agents(env, lineup)
    returns = np.zeros(len(lineup))
    while env.agents:
        actions = {}
        for agent_name in env.agents:
            seat = env.agent_name_mapping[agent_name]
            agent = lineup[seat]
            info = _info_for(agent, env, infos[agent_name])
            if getattr(agent, "needs_record", False):
                info["pending_actions"] = [actions[a] for a in env.agents[:seat]]
            obs = observations[agent_name]
            actions[agent_name] = agent.act(obs["observation"], obs["action_mask"], info)
        observations, rewards, _, _, infos = env.step(actions)
        for agent_name, reward in rewards.items():
            returns[env.agent_name_mapping[agent_name]] += reward
        if on_step is not None:
            on_step(env)
    return returns
