"""Fixed-iteration strength trials of ISMCTS settings: one ISMCTS seat against heuristics.

    python -m benchmarks.search_trials --env teufel_teufel_v0 --games 120 \\
        --specs ismcts:300:threads=1 ismcts:300:threads=1:eps=0.2 [--others heuristic] [--seed 0]

Why fixed iterations: a time budget mixes strength with speed and with the machine's load (three
jobs share two cores here); a fixed number of iterations compares what each setting makes of the
same search effort, whatever else runs. Each spec plays ``--games`` games in the first seat's
place with ``--others`` in every other seat, seats rotated (``training.evaluate``), from the same
seeds, so the settings meet the same deals. In the cooperative game (Voll auf die 18) the spec
takes every seat. A section per run is appended to ``benchmarks/results/search_trials.md``: the
command, machine, load, run time, and per spec its win rate with a 95% Wilson interval beside the
fair share (all wins / all seats of the same games).
"""

import argparse
import os
import subprocess
import time

import envs
from training.evaluate import evaluate, wilson_interval

from .common import RESULTS, command_line, machine_line

COOPERATIVE = {"voll_auf_die_18_v0"}


def code_version():
    """The commit the run measured (and whether files differed from it): results are only
    comparable between runs of the same code."""
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=here, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=here,
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return commit + (" with uncommitted changes" if dirty else "")


def trial(env_id, spec, others, games, seed):
    """Win rate, its interval, the fair share, mean return and minutes of ``spec`` in one seat."""
    players = envs.game_of(env_id).default_players
    lineup = [spec] if env_id in COOPERATIVE else [spec] + [others] * (players - 1)
    started = time.perf_counter()
    results = evaluate(env_id, lineup, games, seed=seed, progress=False)
    mine = [r for r in results if r["agent"] == spec]
    seats = sum(r["seats_played"] for r in mine)
    wins = sum(r["wins"] for r in mine)
    all_seats = sum(r["seats_played"] for r in results)
    return {"wins": wins, "seats": seats, "win_rate": wins / max(seats, 1), "ci": wilson_interval(wins, seats),
            "fair_share": sum(r["wins"] for r in results) / max(all_seats, 1),
            "mean_return": sum(r["mean_return"] * r["seats_played"] for r in mine) / max(seats, 1),
            "minutes": (time.perf_counter() - started) / 60}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", required=True, choices=list(envs.ENV_IDS))
    parser.add_argument("--specs", nargs="+", required=True)
    parser.add_argument("--others", default="heuristic")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    started, load = time.perf_counter(), os.getloadavg()[0]
    lines = [f"## {args.env}: {args.games} games a spec against {args.others}", "",
             f"Command: `{command_line('benchmarks.search_trials', argv)}`. Machine: {machine_line()}. "
             f"Code: {code_version()}.", "",
             "| spec | wins / seats | win rate | 95% CI | fair share | mean return | minutes |",
             "|---|---:|---:|---|---:|---:|---:|"]
    for spec in args.specs:
        s = trial(args.env, spec, args.others, args.games, args.seed)
        low, high = s["ci"]
        lines.append(f"| `{spec}` | {s['wins']} / {s['seats']} | {s['win_rate']:.3f} | [{low:.3f}, {high:.3f}] | "
                     f"{s['fair_share']:.3f} | {s['mean_return']:+.3f} | {s['minutes']:.1f} |")
        print(lines[-1], flush=True)
    lines += ["", f"Took {(time.perf_counter() - started) / 60:.1f} minutes; load average {load:.1f} at the start, "
              f"{os.getloadavg()[0]:.1f} at the end.", ""]
    path = RESULTS / "search_trials.md"
    if not path.exists():
        path.write_text("# ISMCTS settings at a fixed number of iterations (python -m benchmarks.search_trials)\n\n"
                        "Each section is one run, appended in the order they ran; see the module docstring.\n\n")
    with path.open("a") as handle:
        handle.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
