"""How a heuristic team does in Voll auf die 18, by chapter and group size (a measurement script).

    python -m benchmarks.voll_auf_die_18_stats --games 200 --players 2 3 4 --chapters 1,2,6,10,18

Plays ``--games`` games per chapter and group size (seeds 0.., every seat the heuristic player,
communication "full", the env's defaults otherwise; ``--config`` adds options as a Python dict)
and prints one markdown table: games won, Nazis convinced on average, game minutes played on
average (how much of the 18-minute clock the team needed), and how the lost games ended (the
end reasons of ``engine.END_REASON_NAMES``, most frequent first). These are the numbers of the
calibration in ``docs/rules/voll_auf_die_18.md``.
"""

import argparse
import ast
import time

import numpy as np

from agents.heuristic import heuristic_for
from envs import voll_auf_die_18_v0
from envs.voll_auf_die_18 import engine as E

ENV_ID = "voll_auf_die_18_v0"


def play(num_players, chapter, seed, config):
    """One game of a heuristic team: (end reason, Nazis convinced, game seconds played)."""
    env = voll_auf_die_18_v0.parallel_env(num_players=num_players, chapter=chapter, **config)
    observations, _ = env.reset(seed=seed)
    players = [heuristic_for(ENV_ID, seed=seed * 10 + s) for s in range(num_players)]
    for seat, player in enumerate(players):
        player.reset(seat, ENV_ID, env.config)
    while env.agents:
        actions = {agent: players[s].act(observations[agent]["observation"], observations[agent]["action_mask"])
                   for s, agent in enumerate(env.possible_agents)}
        observations, *_ = env.step(actions)
    record = env._states[0]
    return int(record["end_reason"]), int(record["convinced"]), int(record["clock"])


def losses(reasons):
    """How the lost games ended, e.g. "; lost: 5 Nazis face up 120, stuck 30"."""
    codes, counts = np.unique(reasons[reasons != E.END_WON], return_counts=True)
    order = np.argsort(-counts, kind="stable")
    parts = [f"{E.END_REASON_NAMES[codes[i]].removeprefix('lost: ').split(' (')[0]} {counts[i]}" for i in order]
    return "; lost: " + ", ".join(parts) if parts else ""


def chapters(text):
    """"1-19" or "1,2,6,10"."""
    out = []
    for part in text.split(","):
        low, _, high = part.partition("-")
        out.extend(range(int(low), int(high or low) + 1))
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    parser.add_argument("--chapters", type=chapters, default=range(1, 20), help="e.g. 1-19 or 1,2,6,10")
    parser.add_argument("--config", type=ast.literal_eval, default={}, help="extra env options, a Python dict")
    args = parser.parse_args()
    start = time.time()
    print(f"{args.games} games per cell, options {args.config or 'default'}; won / convinced (mean) / minutes (mean) / "
          "how the lost games ended\n")
    print("| chapter | " + " | ".join(f"{n} players" for n in args.players) + " |")
    print("|---|" + "---|" * len(args.players))
    for chapter in args.chapters:
        cells = []
        for n in args.players:
            results = np.array([play(n, chapter, seed, args.config) for seed in range(args.games)])
            reasons, convinced, seconds = results.T
            won = reasons == E.END_WON
            cells.append(f"{won.sum()}/{args.games} ({100 * won.mean():.0f}%), {convinced.mean():.1f}, "
                         f"{seconds.mean() / 60:.1f}{losses(reasons)}")
        print(f"| {chapter} | " + " | ".join(cells) + " |", flush=True)
    print(f"\n({time.time() - start:.0f} s)")


if __name__ == "__main__":
    main()
