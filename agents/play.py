"""Play a game in the terminal against agents.

    python -m agents.play teufel_teufel_v0 --seat 0 --opponents heuristic
    python -m agents.play secret_hitler_v0 --players 7 --opponents random,heuristic --save-replay game.json

The table is drawn as text showing only what your seat may know; on your turn the legal actions
are listed by number and name. Type the number, or the name (any unique beginning of it will
do, in any case), or ``q`` to quit; anything else is answered with a message and you are asked
again. Every move at the table is reported by name. When the game ends everything is revealed:
the whole table (every hand, every role), why it ended and every seat's return.
``--save-replay FILE`` saves the game (also an abandoned one) for ``python -m agents.replay FILE``.
"""

import argparse

import numpy as np

import envs
from agents import make_agent
from agents.policy import observation_config
from envs.core import replay

COLUMN_GAP = 3
SCREEN_WIDTH = 100  # choices are laid out in columns that fit this many characters
MAX_MATCHES_SHOWN = 8


def parse_choice(text, legal, names):
    """The action ``text`` names among ``legal`` (``names[a]`` is action a's name): its number,
    its whole name, or a beginning of exactly one name (case ignored). Returns ``(action, None)``
    or ``(None, message)`` saying why the text names no action."""
    text = text.strip()
    if text.lstrip("-").isdigit():
        action = int(text)
        if action in legal:
            return action, None
        return None, f"{action} is not a legal action now; choose one of {sorted(legal)}"
    if not text:
        return None, "type the number or the name of an action, or q to quit"
    wanted = text.lower()
    exact = [a for a in legal if names[a].lower() == wanted]
    matches = exact or [a for a in legal if names[a].lower().startswith(wanted)]
    if len(matches) == 1:
        return matches[0], None
    if not matches:
        return None, f"no legal action is called '{text}'; type a number or the beginning of a name listed"
    shown = "; ".join(f"{a} {names[a]}" for a in matches[:MAX_MATCHES_SHOWN])
    more = f" and {len(matches) - MAX_MATCHES_SHOWN} more" if len(matches) > MAX_MATCHES_SHOWN else ""
    return None, f"'{text}' fits {len(matches)} actions ({shown}{more}); type more of the name, or the number"


def ask_action(legal, names, input_fn, print_fn):
    """Read an action from the person until it names one of ``legal``."""
    while True:
        text = input_fn("your action> ")
        if text.strip().lower() in ("q", "quit", "exit"):
            raise KeyboardInterrupt
        action, problem = parse_choice(text, legal, names)
        if problem is None:
            return action
        print_fn(problem)


def show_choices(legal, names, print_fn, width=SCREEN_WIDTH):
    """The legal actions by number and name, in as many columns as fit ``width`` (read down)."""
    entries = [f"[{action:>3}] {names[action]}" for action in legal]
    column = max(map(len, entries), default=0) + COLUMN_GAP
    columns = max(1, min(len(entries) // 8 + 1, width // column))
    rows = -(-len(entries) // columns)
    for r in range(rows):
        print_fn("  " + "".join(f"{entries[i]:<{column}}" for i in range(r, len(entries), rows)).rstrip())


def action_names(table):
    """Every action's name in this game and configuration."""
    return [table.action_to_str(a) for a in range(table.game.num_actions)]


def run(env_id, seat, opponents, seed=0, num_players=None, input_fn=input, print_fn=print, replay_path=None):
    """Play one game with a person at ``seat``; returns the final returns of every seat.

    With ``replay_path`` the game is saved there as a replay when it ends or is abandoned."""
    game = envs.game_of(env_id)
    num_players = game.default_players if num_players is None else num_players
    if not 0 <= seat < num_players:
        raise ValueError(f"seat must be between 0 and {num_players - 1}")
    if not opponents:
        raise ValueError("opponents: give at least one agent spec")
    others = [make_agent(opponents[i % len(opponents)], env_id, seed=seed + i) for i in range(num_players)]
    make = envs.make_parallel if game.simultaneous else envs.make
    env = make(env_id, render_mode="ansi", num_players=num_players, **observation_config(opponents, env_id))
    table = env.unwrapped
    table.render_viewer = seat
    play = _play_simultaneous if game.simultaneous else _play_turns
    try:
        returns = play(env, table, seat, others, seed, action_names(table), input_fn, print_fn)
        reveal(env, table, returns, seat, print_fn)
    finally:
        if replay_path is not None and table._has_reset:
            print_fn(f"replay saved to {replay.save(env, replay_path)} (python -m agents.replay {replay_path})")
    return returns


def _play_turns(env, table, seat, others, seed, names, input_fn, print_fn):
    env.reset(seed=seed)
    for s, agent in enumerate(others):
        agent.reset(s, table.game.env_id, table.config)
    returns = np.zeros(table.num_players)
    for name in env.agent_iter():
        observation, reward, terminated, truncated, info = env.last()
        s = table.agent_name_mapping[name]
        returns[s] += reward
        if terminated or truncated:
            env.step(None)
            continue
        if s == seat:
            print_fn(env.render())
            legal = np.flatnonzero(observation["action_mask"]).tolist()
            show_choices(legal, names, print_fn)
            action = ask_action(set(legal), names, input_fn, print_fn)
            print_fn(f"you ({name}): {names[action]}")
        else:
            agent = others[s]
            if getattr(agent, "needs_record", False):
                info = {**info, "record": table.get_state()}
            action = agent.act(observation["observation"], observation["action_mask"], info)
            print_fn(f"{name}: {names[action]}")
        env.step(action)
    return returns


def _play_simultaneous(env, table, seat, others, seed, names, input_fn, print_fn):
    observations, infos = env.reset(seed=seed)
    for s, agent in enumerate(others):
        agent.reset(s, table.game.env_id, table.config)
    returns = np.zeros(table.num_players)
    while env.agents:
        print_fn(env.render())
        actions = {}
        for s, name in enumerate(env.agents):
            obs = observations[name]
            if s == seat:
                legal = np.flatnonzero(obs["action_mask"]).tolist()
                show_choices(legal, names, print_fn)
                actions[name] = ask_action(set(legal), names, input_fn, print_fn)
            else:
                agent, info = others[s], infos[name]
                if getattr(agent, "needs_record", False):  # as the tournament runner gives it
                    info = {**info, "record": table.get_state(), "pending_actions": list(actions.values())}
                actions[name] = agent.act(obs["observation"], obs["action_mask"], info)
        print_fn("; ".join(f"{'you' if s == seat else name}: {names[actions[name]]}"
                           for s, name in enumerate(actions)))
        observations, rewards, _, _, infos = env.step(actions)
        for name, reward in rewards.items():
            returns[table.agent_name_mapping[name]] += reward
    return returns


def reveal(env, table, returns, seat, print_fn):
    """The end: the whole table with nothing hidden, why the game ended, every seat's return."""
    record = table.get_state()
    table.render_viewer = None
    print_fn("=" * 20 + " game over: everything revealed " + "=" * 20)
    print_fn(env.render())
    if record["terminal"][0]:
        print_fn(f"the game ended by its rules after {int(record['step_count'][0])} decisions")
    else:
        print_fn(f"the game was stopped after {table.config['max_cycles']} decisions (max_cycles)")
    print_fn("final: " + ", ".join(f"player_{s} {r:+.2f}" for s, r in enumerate(returns)) +
             f"  (you are player_{seat})")


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", choices=list(envs.ENV_IDS), help="the game to play")
    parser.add_argument("--seat", type=int, default=0, help="your seat, from 0 (default 0: you start)")
    parser.add_argument("--players", type=int, default=None,
                        help="number of seats, yours included (default: the game's default)")
    parser.add_argument("--opponents", default="heuristic",
                        help="comma-separated agent specs (random, heuristic, ismcts[:N], policy:<path.zip>), "
                             "given to the other seats in turn (default heuristic)")
    parser.add_argument("--seed", type=int, default=0, help="the game's seed: the same seed deals the same game")
    parser.add_argument("--save-replay", default=None, metavar="FILE",
                        help="save the game as a replay file (JSON) when it ends or is abandoned")
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    opponents = check_arguments(parser, args)
    try:
        run(args.env_id, args.seat, opponents, args.seed, args.players, replay_path=args.save_replay)
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
    if args.save_replay is not None:
        _check_writable(parser, "--save-replay", args.save_replay)
    return opponents


def _check_writable(parser, option, path):
    import pathlib

    folder = pathlib.Path(path).parent
    if pathlib.Path(path).is_dir() or not folder.is_dir():
        parser.error(f"{option} {path}: give a file in an existing folder")


if __name__ == "__main__":
    main()
