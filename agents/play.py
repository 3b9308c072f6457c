"""Play a game in the terminal against agents.

    python -m agents.play teufel_teufel_v0 --seat 0 --opponents heuristic
    python -m agents.play secret_hitler_v0 --players 7 --opponents random,heuristic

The table is drawn as text showing only what your seat may know; on your turn the legal actions
are listed by number and name. Type the number (or ``q`` to quit). Anything else is answered with
a message and you are asked again.
"""

import argparse

import numpy as np

import envs
from agents import make_agent


def ask_action(legal, input_fn, print_fn):
    """Read an action number from the person until it is one of ``legal``."""
    while True:
        text = input_fn("your action> ").strip().lower()
        if text in ("q", "quit", "exit"):
            raise KeyboardInterrupt
        try:
            action = int(text)
        except ValueError:
            print_fn(f"'{text}' is not a number; type one of the numbers listed, or q to quit")
            continue
        if action not in legal:
            print_fn(f"{action} is not a legal action now; choose one of {sorted(legal)}")
            continue
        return action


def show_choices(env, legal, print_fn):
    for action in legal:
        print_fn(f"  [{action:>3}] {env.action_to_str(action)}")


def run(env_id, seat, opponents, seed=0, num_players=None, input_fn=input, print_fn=print):
    """Play one game with a person at ``seat``; returns the final returns of every seat."""
    game = envs.game_of(env_id)
    num_players = game.default_players if num_players is None else num_players
    if not 0 <= seat < num_players:
        raise ValueError(f"seat must be between 0 and {num_players - 1}")
    if not opponents:
        raise ValueError("opponents: give at least one agent spec")
    config = {"num_players": num_players}
    others = [make_agent(opponents[i % len(opponents)], env_id, seed=seed + i) for i in range(num_players)]
    returns = np.zeros(num_players)
    if game.simultaneous:
        env = envs.make_parallel(env_id, render_mode="ansi", **config)
        env.render_viewer = seat
        observations, infos = env.reset(seed=seed)
        for s, agent in enumerate(others):
            agent.reset(s, env_id, env.config)
        while env.agents:
            print_fn(env.render())
            actions = {}
            for s, name in enumerate(env.agents):
                obs = observations[name]
                if s == seat:
                    legal = np.flatnonzero(obs["action_mask"]).tolist()
                    show_choices(env, legal, print_fn)
                    actions[name] = ask_action(set(legal), input_fn, print_fn)
                else:
                    actions[name] = others[s].act(obs["observation"], obs["action_mask"], infos[name])
            observations, rewards, _, _, infos = env.step(actions)
            for name, reward in rewards.items():
                returns[env.agent_name_mapping[name]] += reward
    else:
        env = envs.make(env_id, render_mode="ansi", **config)
        env.unwrapped.render_viewer = seat
        env.reset(seed=seed)
        for s, agent in enumerate(others):
            agent.reset(s, env_id, env.unwrapped.config)
        for name in env.agent_iter():
            observation, reward, terminated, truncated, info = env.last()
            s = env.unwrapped.agent_name_mapping[name]
            returns[s] += reward
            if terminated or truncated:
                env.step(None)
                continue
            if s == seat:
                print_fn(env.render())
                legal = np.flatnonzero(observation["action_mask"]).tolist()
                show_choices(env.unwrapped, legal, print_fn)
                env.step(ask_action(set(legal), input_fn, print_fn))
            else:
                agent = others[s]
                if getattr(agent, "needs_record", False):
                    info = {**info, "record": env.unwrapped.get_state()}
                env.step(agent.act(observation["observation"], observation["action_mask"], info))
                print_fn(f"{name} has moved")
        print_fn(env.render())
    print_fn("final: " + ", ".join(f"player_{s} {r:+.2f}" for s, r in enumerate(returns)) +
             f"  (you are player_{seat})")
    return returns


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", choices=list(envs.ENV_IDS))
    parser.add_argument("--seat", type=int, default=0)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--opponents", default="heuristic", help="comma-separated agent specs, used in turn")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    opponents = check_arguments(parser, args)
    try:
        run(args.env_id, args.seat, opponents, args.seed, args.players)
    except (KeyboardInterrupt, EOFError):
        print("\ngame abandoned")


def check_arguments(parser, args):
    """Every argument checked before the game starts (a usage error otherwise); the opponents' specs."""
    game = envs.game_of(args.env_id)
    players = game.default_players if args.players is None else args.players
    if players not in game.player_counts:
        parser.error(f"--players {players}: {args.env_id} is played by {list(game.player_counts)} players")
    if not 0 <= args.seat < players:
        parser.error(f"--seat {args.seat}: choose a seat from 0 to {players - 1}")
    if not 0 <= args.seed < 2**63:
        parser.error(f"--seed {args.seed}: choose an integer from 0 to 2**63 - 1")
    opponents = [s.strip() for s in args.opponents.split(",") if s.strip()]
    if not opponents:
        parser.error("--opponents needs at least one agent spec, e.g. heuristic or random,heuristic")
    for spec in opponents:
        try:
            make_agent(spec, args.env_id)
        except ValueError as error:
            parser.error(f"--opponents: {error}")
    return opponents


if __name__ == "__main__":
    main()
