"""How the heuristic plays Volle Socke over many whole games (not a test: a measurement script).

    .venv/bin/python -m tests.volle_socke.heuristic_stats --games 1000 --players 4

Two series of ``--games`` games each, seeds 0.. and seats rotated:
- *vs random*: one heuristic seat among random ones; its share of first places (ties for first
  count as shared), and the HP per round of heuristic and random seats;
- *all heuristic*: every seat heuristic; the share of player-rounds that score 0 HP and the mean
  HP per player-round.
Prints one markdown table (the numbers of ``docs/rules/volle_socke.md``).
"""

import argparse
import time

import numpy as np

import envs
from agents.base import RandomAgent
from agents.heuristic.volle_socke import HeuristicAgent
from envs.core.play import play_game

ENV_ID = "volle_socke_v0"


def play(lineup, seed, config):
    """Final returns and the (seats, rounds) table of HP scored."""
    last = {}
    returns = play_game(ENV_ID, lineup, seed=seed, config=config, on_step=lambda env: last.setdefault("env", env))
    record = last["env"].unwrapped.get_state()[0]
    n, rounds = len(lineup), int(record["num_rounds"])
    return returns, record["round_scores"][:n, :rounds].astype(np.int64)


def series(games, players, heuristic_seats, config):
    """Per game: share of first place won by the heuristic seats, and the HP tables."""
    firsts, heuristic_hp, random_hp = [], [], []
    for game in range(games):
        seats = heuristic_seats(game)
        lineup = [HeuristicAgent(seed=1000 * game + s) if s in seats else RandomAgent(seed=1000 * game + s)
                  for s in range(players)]
        returns, scores = play(lineup, game, {"num_players": players, **config})
        top = np.isclose(returns, returns.max())
        firsts.append(sum(top[s] for s in seats) / top.sum())
        for s in range(players):
            (heuristic_hp if s in seats else random_hp).append(scores[s])
    return np.array(firsts), np.concatenate(heuristic_hp) if heuristic_hp else None, (
        np.concatenate(random_hp) if random_hp else None)


def describe(hp):
    return f"{100 * np.mean(hp == 0):.1f} % | {np.mean(hp):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    config = {}
    start = time.perf_counter()
    firsts, h_hp, r_hp = series(args.games, args.players, lambda g: {g % args.players}, config)
    _, all_hp, _ = series(args.games, args.players, lambda g: set(range(args.players)), config)
    seconds = time.perf_counter() - start
    n = args.games
    share = firsts.mean()
    half = 1.96 * firsts.std(ddof=1) / np.sqrt(n)
    print(f"{ENV_ID}, {args.players} players, {n} games per series, {seconds:.0f} s, "
          f"options {envs.game_of(ENV_ID).validate({})}")
    print("| series | seats | first places | zero-HP player-rounds | mean HP per player-round |")
    print("|---|---|---|---|---|")
    print(f"| 1 heuristic vs {args.players - 1} random | heuristic | {100 * share:.1f} % +- {100 * half:.1f} | "
          f"{describe(h_hp)} |")
    print(f"| | random | | {describe(r_hp)} |")
    print(f"| all heuristic | heuristic | | {describe(all_hp)} |")


if __name__ == "__main__":
    main()
