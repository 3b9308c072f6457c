"""How the heuristic plays Volle Socke over many whole games (not a test: a measurement script).

    python -m benchmarks.volle_socke_stats --games 1000 --players 4

Two series of ``--games`` games each, seeds 0.. and seats rotated:
- *vs random*: one heuristic seat among random ones; its share of first places (ties for first
  count as shared), and the HP per round of heuristic and random seats;
- *all heuristic*: every seat heuristic; the share of player-rounds that score 0 HP, how many of
  those the seat spent out of the round (it could not lay out a bike), and the mean HP per
  player-round.
Prints one markdown table (the numbers of ``docs/rules/volle_socke.md``).
"""

import argparse
import ast
import time

import numpy as np

import envs
from agents.base import RandomAgent
from agents.heuristic.volle_socke import HeuristicAgent
from envs.core.play import play_game
from envs.volle_socke import engine as E

ENV_ID = "volle_socke_v0"


def play(lineup, seed, config):
    """Final returns, the (seats, rounds) table of HP scored and of seats out of the round."""
    n = len(lineup)
    out = np.ones((n, 10), bool)  # a round that never reached its contest: nobody could lay out

    def watch(env):
        record = env.unwrapped._states[0]
        if record["phase"] >= E.PH_TURN and not record["terminal"]:
            out[:, int(record["round_index"])] = record["status"][:n] == E.OUT
        watch.env = env

    returns = play_game(ENV_ID, lineup, seed=seed, config=config, on_step=watch)
    record = watch.env.unwrapped.get_state()[0]
    rounds = int(record["num_rounds"])
    return returns, record["round_scores"][:n, :rounds].astype(np.int64), out[:, :rounds]


def series(games, players, heuristic_seats, config):
    """Per game: share of first place won by the heuristic seats, and the HP tables."""
    firsts, heuristic_hp, random_hp, heuristic_out = [], [], [], []
    for game in range(games):
        seats = heuristic_seats(game)
        lineup = [HeuristicAgent(seed=1000 * game + s) if s in seats else RandomAgent(seed=1000 * game + s)
                  for s in range(players)]
        returns, scores, out = play(lineup, game, {"num_players": players, **config})
        top = np.isclose(returns, returns.max())
        firsts.append(sum(top[s] for s in seats) / top.sum())
        for s in range(players):
            (heuristic_hp if s in seats else random_hp).append(scores[s])
            if s in seats:
                heuristic_out.append(out[s])
    joined = [np.concatenate(x) if x else None for x in (heuristic_hp, random_hp, heuristic_out)]
    return (np.array(firsts), *joined)


def describe(hp, out=None):
    zero = f"{100 * np.mean(hp == 0):.1f} %"
    if out is not None:
        zero += f" ({100 * np.mean(out):.1f} % out of the round)"
    return f"{zero} | {np.mean(hp):.0f}"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--config", default="{}", help="game options as a Python dict literal")
    args = parser.parse_args()
    config = ast.literal_eval(args.config)
    start = time.perf_counter()
    firsts, h_hp, r_hp, h_out = series(args.games, args.players, lambda g: {g % args.players}, config)
    _, all_hp, _, all_out = series(args.games, args.players, lambda g: set(range(args.players)), config)
    seconds = time.perf_counter() - start
    n = args.games
    share = firsts.mean()
    half = 1.96 * firsts.std(ddof=1) / np.sqrt(n)
    print(f"{ENV_ID}, {args.players} players, {n} games per series, {seconds:.0f} s, "
          f"options {envs.game_of(ENV_ID).validate(config)}")
    print("| series | seats | first places | zero-HP player-rounds | mean HP per player-round |")
    print("|---|---|---|---|---|")
    print(f"| 1 heuristic vs {args.players - 1} random | heuristic | {100 * share:.1f} % +- {100 * half:.1f} | "
          f"{describe(h_hp, h_out)} |")
    print(f"| | random | | {describe(r_hp)} |")
    print(f"| all heuristic | heuristic | | {describe(all_hp, all_out)} |")


if __name__ == "__main__":
    main()
