"""Tournaments: lineups of agents with seats rotated, win rates with 95% intervals, ratings.

    python -m training.evaluate secret_hitler_v0 --agents random,heuristic,ismcts --games 200

Game ``g`` seats agent ``(seat + g) mod k`` of the ``k`` listed agents, so every agent plays
every seat equally often. A seat *wins* when its final return is positive and the highest at the
table (team games: every member of the winning team; the cooperative game: every seat when the
team wins). Win rates carry Wilson 95% intervals; ratings are openskill (Plackett-Luce) with the
agents of one game ranked by their seats' mean return. Writes ``<out>/<env_id>_evaluation.csv``
and ``.png``.
"""

import argparse
import csv
import math
import os
import pathlib

import numpy as np

import envs
from agents import make_agent
from envs.core.play import play_game


def wilson_interval(wins, n, z=1.96):
    """The Wilson score interval of a binomial proportion (95% for z=1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def seat_wins(returns):
    """Which seats won a game with these final returns."""
    returns = np.asarray(returns, float)
    return (returns > 0) & np.isclose(returns, returns.max())


def lineup_for(game_index, num_players, num_agents):
    """Agent index for each seat in game ``game_index`` (rotated so seats even out)."""
    return [(seat + game_index) % num_agents for seat in range(num_players)]


def evaluate(env_id, specs, games, seed=0, config=None, progress=True, factories=None, max_seconds=None):
    """Play ``games`` games; returns one result dict per agent spec.

    ``factories`` (optional) maps a spec to a function ``seed -> agent`` for agents that are not
    built from a spec string (an in-memory policy during training). With ``max_seconds`` no new
    game starts once that much time has passed (the results count the games actually played).
    """
    import time

    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    from openskill.models import PlackettLuce

    config = dict(config or {})
    game = envs.game_of(env_id)
    num_players = config.setdefault("num_players", game.default_players)
    factories = factories or {}
    build = [factories.get(spec, lambda s, spec=spec: make_agent(spec, env_id, seed=s)) for spec in specs]
    model = PlackettLuce()
    ratings = [model.rating(name=spec) for spec in specs]
    appearances, wins, returns = np.zeros(len(specs)), np.zeros(len(specs)), np.zeros(len(specs))
    iterator = range(games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"{env_id}: {' vs '.join(specs)}", leave=False)
    for g in iterator:
        if deadline is not None and time.perf_counter() > deadline:
            break
        seats = lineup_for(g, num_players, len(specs))
        lineup = [build[i](seed * 1_000_003 + g * 101 + seat) for seat, i in enumerate(seats)]
        final = play_game(env_id, lineup, seed=seed * 1_000_003 + g, config=config)
        won = seat_wins(final)
        for seat, i in enumerate(seats):
            appearances[i] += 1
            wins[i] += won[seat]
            returns[i] += final[seat]
        present = sorted(set(seats))
        if len(present) > 1:
            scores = [float(np.mean([final[s] for s, i in enumerate(seats) if i == a])) for a in present]
            updated = model.rate([[ratings[a]] for a in present], scores=scores)
            for a, team in zip(present, updated):
                ratings[a] = team[0]
    results = []
    for i, spec in enumerate(specs):
        low, high = wilson_interval(wins[i], appearances[i])
        results.append({
            "agent": spec, "seats_played": int(appearances[i]), "wins": int(wins[i]),
            "win_rate": wins[i] / max(appearances[i], 1), "ci_low": low, "ci_high": high,
            "mean_return": returns[i] / max(appearances[i], 1),
            "rating_mu": ratings[i].mu, "rating_sigma": ratings[i].sigma, "rating": ratings[i].ordinal(),
        })
    return results


def format_table(env_id, results):
    lines = [f"{env_id}", f"{'agent':<28}{'seats':>7}{'win rate':>10}{'95% CI':>17}{'mean return':>13}{'rating':>9}"]
    for r in results:
        ci = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
        lines.append(f"{r['agent']:<28}{r['seats_played']:>7}{r['win_rate']:>10.2f}{ci:>17}"
                     f"{r['mean_return']:>+13.2f}{r['rating']:>9.2f}")
    return "\n".join(lines)


def write_outputs(env_id, results, out_dir):
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / f"{env_id}_evaluation.csv"
    with open(csv_path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=list(results[0]))
        writer.writeheader()
        writer.writerows(results)
    from matplotlib.figure import Figure  # no pyplot: leaves the caller's backend (notebooks) alone

    fig = Figure(figsize=(1.6 * len(results) + 2, 3.2))
    ax = fig.add_subplot()
    rates = [r["win_rate"] for r in results]
    errors = [[r["win_rate"] - r["ci_low"] for r in results], [r["ci_high"] - r["win_rate"] for r in results]]
    ax.bar([r["agent"] for r in results], rates, yerr=errors, capsize=4, color="#4a78c2")
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(env_id)
    fig.tight_layout()
    png_path = out_dir / f"{env_id}_evaluation.png"
    fig.savefig(png_path, dpi=100)
    return csv_path, png_path


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", choices=list(envs.ENV_IDS))
    parser.add_argument("--agents", default="random,heuristic",
                        help="comma-separated: random, heuristic, ismcts[:iterations], policy:<path.zip>")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="runs/evaluation")
    args = parser.parse_args(argv)
    specs, config = check_arguments(parser, args)
    results = evaluate(args.env_id, specs, args.games, seed=args.seed, config=config)
    print(format_table(args.env_id, results))
    csv_path, png_path = write_outputs(args.env_id, results, args.out)
    print(f"wrote {csv_path} and {png_path}")


def check_arguments(parser, args):
    """Every argument checked before any game is played (a usage error otherwise); the agent specs
    and the env config. Creates the ``--out`` directory, so an unusable path fails now."""
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    if not specs:
        parser.error("--agents needs at least one agent")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 0 <= args.seed < 2**32:
        parser.error(f"--seed {args.seed}: choose an integer from 0 to 2**32 - 1")
    game = envs.game_of(args.env_id)
    if args.players is not None and args.players not in game.player_counts:
        parser.error(f"--players {args.players}: {args.env_id} is played by {list(game.player_counts)} players")
    config = {} if args.players is None else {"num_players": args.players}
    for spec in specs:
        try:
            make_agent(spec, args.env_id, seed=0)
        except ValueError as error:
            parser.error(f"--agents: {error}")
    out = pathlib.Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file in the way, no permission, ...
        parser.error(f"--out {args.out}: cannot make that directory ({error.strerror or error})")
    if not os.access(out, os.W_OK):
        parser.error(f"--out {args.out}: the directory is not writable")
    return specs, config


if __name__ == "__main__":
    main()
