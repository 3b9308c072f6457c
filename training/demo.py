"""`make demo`: every registered game played to the end by random agents, with a results table.

Prints, per game: games played, mean decisions per game, the mean final reward of each seat,
AEC-loop decisions per second, and VectorGame random-play decisions per second.
"""

import argparse
import time

import numpy as np

import envs
from envs.core.vector import VectorGame
from envs.testing.play import play_aec, play_parallel


def demo_game(env_id, games, seed):
    game = envs.game_of(env_id)
    env = envs.make_parallel(env_id) if game.simultaneous else envs.make(env_id)
    play = play_parallel if game.simultaneous else play_aec
    play(env, seed)  # first game outside the clock: numba loads or compiles here
    rng = np.random.default_rng(seed)
    lengths, totals = [], np.zeros(game.default_players)
    start = time.perf_counter()
    for g in range(games):
        decisions, returns = play(env, seed + g, rng)
        lengths.append(decisions)
        totals += [returns[agent] for agent in env.possible_agents]
    aec_rate = sum(lengths) / (time.perf_counter() - start)
    vg = VectorGame(env_id, 1024, seed=seed)
    vg.reset()
    vg.random_steps(10)
    start = time.perf_counter()
    vector_rate = vg.random_steps(200) / (time.perf_counter() - start)
    return {"env_id": env_id, "players": game.default_players, "games": games,
            "length": float(np.mean(lengths)), "mean_reward": totals / games,
            "aec_rate": aec_rate, "vector_rate": vector_rate}


def print_table(rows):
    print(f"\n{'game':<24}{'seats':>6}{'games':>7}{'decisions/game':>16}{'AEC steps/s':>13}"
          f"{'VectorGame steps/s':>20}  mean final reward per seat")
    for r in rows:
        rewards = " ".join(f"{x:+.2f}" for x in r["mean_reward"])
        print(f"{r['env_id']:<24}{r['players']:>6}{r['games']:>7}{r['length']:>16.1f}{r['aec_rate']:>13,.0f}"
              f"{r['vector_rate']:>20,.0f}  {rewards}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=50, help="random games per env id")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    if not envs.ENV_IDS:
        raise SystemExit("no games are registered yet")
    rows = []
    for env_id in envs.ENV_IDS:
        start = time.perf_counter()
        rows.append(demo_game(env_id, args.games, args.seed))
        print(f"{env_id}: done in {time.perf_counter() - start:.1f}s", flush=True)
    print_table(rows)


if __name__ == "__main__":
    main()
