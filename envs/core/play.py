"""Whole games between agents through the PettingZoo envs, and GIF replays of them.

An agent is any object with ``reset(seat, env_id, config)`` and
``act(observation, action_mask, info) -> int`` (see ``agents/base.py``). Agents see their seat's
observation vector, mask and info; agents with ``needs_record = True`` (search agents) also get
the record in ``info["record"]``, which they may only determinize.
"""

import numpy as np
from PIL import Image


def play_game(env_id, lineup, seed, config=None, on_step=None, on_end=None):
    """Play one game of ``env_id`` with ``lineup[seat]`` in each seat; returns final returns per seat.

    ``on_step(env)`` is called after the reset and after every decision (for replays and plots),
    ``on_end(env)`` once the game is over (to read its final record, or save its replay).
    """
    import envs  # the registry imports the games; envs.core must not import it at load time

    config = dict(config or {})
    config.setdefault("num_players", len(lineup))
    game = envs.game_of(env_id)
    if game.simultaneous:
        env = envs.make_parallel(env_id, **config)
        returns = _play_parallel(env, lineup, seed, on_step)
    else:
        env = envs.make(env_id, **config)
        returns = _play_aec(env, lineup, seed, on_step)
    if on_end is not None:
        on_end(env)
    return returns


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
    if on_step is not None:
        on_step(env)
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
    if on_step is not None:
        on_step(env)
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


def record_gif(env_id, agents, path, seed=0, config=None, frame_ms=600, max_frames=400):
    """Play one game of ``env_id`` with ``agents`` (one per seat) and save it as an animated GIF.

    One frame for the start and one per decision (``rgb_array`` render), the last held longer. Returns the final
    returns per seat.
    """
    frames = []

    def capture(env):
        if len(frames) < max_frames:
            frames.append(env.render())

    config = {**(config or {}), "render_mode": "rgb_array"}
    returns = play_game(env_id, agents, seed, config=config, on_step=capture)
    if not frames:
        raise RuntimeError(f"{env_id}: the game ended before any frame was drawn")
    save_gif(frames, path, frame_ms)
    return returns


def save_gif(frames, path, frame_ms=600):
    """Write ``frames`` (uint8 (H, W, 3) pictures, sizes may differ) as an animated GIF that
    holds the last frame five times longer."""
    height = max(f.shape[0] for f in frames)
    width = max(f.shape[1] for f in frames)
    images = [Image.fromarray(_pad(f, height, width)) for f in frames]
    durations = [frame_ms] * (len(images) - 1) + [frame_ms * 5]
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True)


def _pad(frame, height, width):
    out = np.full((height, width, 3), 255, np.uint8)
    out[: frame.shape[0], : frame.shape[1]] = frame
    return out
