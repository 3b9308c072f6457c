"""Evidence that the agents and the training work: win rates measured over many games.

    python -m benchmarks.learning [--games 1000] [--ismcts-games 200] [--ppo-steps 200000] [--jobs 2]

For every game:
  - heuristic against random (seats rotated, ``--games`` games),
  - ISMCTS against heuristic (``--ismcts-games`` games, ``--ismcts-iterations`` per decision),
  - a MaskablePPO self-play run (``python -m training.selfplay``) and its win rates against random
    and heuristic agents by training steps.
Jobs run in ``--jobs`` processes. Writes benchmarks/results/learning.md and one learning-curve
PNG per game (learning_<env_id>.png). Every number comes from the run that wrote the page.
"""

import argparse
import multiprocessing
import pathlib
import shutil
import sys
import time

import envs

from .common import RESULTS, machine_line, write_result

PPO_PLAYERS = {"secret_hitler_v0": 5, "voll_auf_die_18_v0": 2, "volles_fass_voraus_v0": 2,
               "teufel_teufel_v0": 2, "volle_socke_v0": 2}


def tournament_job(job):
    from training.evaluate import evaluate

    env_id, specs, games, seed, max_minutes = job
    started = time.perf_counter()
    results = evaluate(env_id, specs, games, seed=seed, progress=False,
                       max_seconds=None if max_minutes is None else 60 * max_minutes)
    return env_id, specs, results, time.perf_counter() - started


def ppo_job(job):
    from training import selfplay

    env_id, players, steps, seed, out = job
    shutil.rmtree(out, ignore_errors=True)
    argv = [env_id, "--players", str(players), "--timesteps", str(steps), "--out", str(out), "--seed", str(seed),
            "--eval-every", str(max(steps // 8, 1)), "--snapshot-every", str(max(steps // 8, 1)),
            "--eval-games", "200"]
    started = time.perf_counter()
    _, history = selfplay.train(selfplay.parse_args(argv))
    curve = RESULTS / f"learning_{env_id}.png"
    shutil.copy(pathlib.Path(out) / "learning_curve.png", curve)
    return env_id, players, history, " ".join(["python -m training.selfplay", *argv]), time.perf_counter() - started


def tournament_lines(outcomes):
    lines = ["| env | lineup | games | agent | win rate | 95% CI | mean return | rating | minutes |",
             "|---|---|---:|---|---:|---|---:|---:|---:|"]
    for env_id, specs, results, seconds in outcomes:
        games = sum(r["seats_played"] for r in results) // envs.game_of(env_id).default_players
        for r in results:
            lines.append(f"| {env_id} | {' vs '.join(specs)} | {games} | {r['agent']} | {r['win_rate']:.3f} | "
                         f"[{r['ci_low']:.3f}, {r['ci_high']:.3f}] | {r['mean_return']:+.3f} | {r['rating']:.1f} "
                         f"| {seconds / 60:.1f} |")
    return lines


def ppo_lines(outcomes):
    lines = []
    for env_id, players, history, command, seconds in outcomes:
        keys = [k for k in history[0] if k.startswith("win_rate")]
        lines += [f"### {env_id} ({players} players)", "", f"`{command}` ({seconds / 60:.1f} minutes)", "",
                  "| training steps | " + " | ".join(k.replace("win_rate_", "win rate ").replace("_", " ")
                                                     for k in keys) + " |",
                  "|---:|" + "---:|" * len(keys)]
        lines += [f"| {row['timesteps']} | " + " | ".join(f"{row[k]:.2f}" for k in keys) + " |" for row in history]
        lines += ["", f"![learning curve](learning_{env_id}.png)", ""]
    return lines


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=1000, help="heuristic vs random games per env")
    parser.add_argument("--ismcts-games", type=int, default=1000, help="ISMCTS vs heuristic games per env")
    parser.add_argument("--ismcts-iterations", type=int, default=50)
    parser.add_argument("--ismcts-max-minutes", type=float, default=None,
                        help="stop an ISMCTS lineup after this long (the page states the games played)")
    parser.add_argument("--ppo-steps", type=int, default=200_000)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--env", action="append")
    parser.add_argument("--skip-ppo", action="store_true")
    args = parser.parse_args(argv)
    env_ids = args.env or list(envs.ENV_IDS)
    started = time.perf_counter()
    jobs = []
    for e in env_ids:
        if envs.game_of(e).simultaneous:  # cooperative: each lineup is a whole team
            jobs += [(e, [spec], args.games, 1, None) for spec in ("heuristic", "random")]
            jobs.append((e, [f"ismcts:{args.ismcts_iterations}"], args.ismcts_games, 2, args.ismcts_max_minutes))
        else:
            jobs.append((e, ["heuristic", "random"], args.games, 1, None))
            jobs.append((e, [f"ismcts:{args.ismcts_iterations}", "heuristic"], args.ismcts_games, 2,
                         args.ismcts_max_minutes))
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(args.jobs) as pool:
        tournaments = pool.map(tournament_job, jobs, chunksize=1)
        ppo = [] if args.skip_ppo else pool.map(
            ppo_job, [(e, PPO_PLAYERS.get(e, envs.game_of(e).default_players), args.ppo_steps, 0,
                       str(pathlib.Path("runs") / "learning" / e)) for e in env_ids], chunksize=1)
    command = "python -m benchmarks.learning " + " ".join(sys.argv[1:] if argv is None else argv)
    lines = ["# Learning: agents and self-play against baselines", "",
             f"Machine: {machine_line()}. Command: `{command.strip()}`; took "
             f"{(time.perf_counter() - started) / 60:.0f} minutes.", "",
             "A seat wins when its final return is positive and the highest at the table (team games: every "
             "member of the winning team). Seats are rotated through the lineup; the default player count of "
             "each game. 95% intervals are Wilson intervals; ratings are openskill (Plackett-Luce) ordinals.", "",
             "## Tournaments", ""] + tournament_lines(tournaments)
    if ppo:
        lines += ["", "## MaskablePPO self-play", "",
                  "The learner plays one seat against the opponent pool (random, heuristic, its own snapshots); "
                  "evaluation puts it in one rotating seat with every other seat random (or heuristic), "
                  "200 games per point. In the cooperative Voll auf die 18 one shared policy learns and is "
                  "evaluated in every seat: its column is the team's success rate.", ""] + ppo_lines(ppo)
    path = write_result("learning", "\n".join(lines) + "\n")
    print(path.read_text())


if __name__ == "__main__":
    main()
