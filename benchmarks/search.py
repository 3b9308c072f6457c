"""Search benchmark: the numba ISMCTS against the Python-tree search it replaced, then tournaments.

    python -m benchmarks.search [--positions 6] [--old-iterations 100] [--speed-seconds 0.5] [--speed-cutoff 10]
                                [--seconds 1.0] [--games 400] [--coop-games 100] [--jobs 1] [--threads N]
                                [--cutoff C|none] [--exploration X] [--envs id ...] [--skip-speed]
                                [--skip-tournaments]

1. Speed, every game: ``--positions`` positions from a seeded random game (a seat with a choice).
   At each, the old search (``benchmarks/ismcts_python.py``, random playouts to the end) runs
   ``--old-iterations`` iterations, and the new one (``agents/ismcts.py``) runs ``--speed-seconds``
   several ways: the same random playouts in one thread and in ``--threads`` trees, playouts cut
   after ``--speed-cutoff`` decisions (engines with ``playout_value``), and as shipped. Iterations
   per second = iterations done / time, summed over the positions (wall clock, and CPU time of
   the process for the one-thread comparison).
2. Strength, at ``--seconds`` per decision (``ismcts:<s>s``, with ``--cutoff`` / ``--exploration``
   when given, to compare playout modes): in every competitive game, one ISMCTS
   seat against heuristics in the other seats, and one against random agents (``--games`` games
   each, seats rotated); in the cooperative game, a team of ISMCTS seats and a team of heuristic
   seats (``--coop-games`` games each). *Fair share* is the win rate of an average seat in the
   same games (all wins / all seats): the ISMCTS seat beats the field when above it.

Writes benchmarks/results/search.md and search.json (per env id: iterations_per_s_old,
iterations_per_s_new, ismcts_vs_heuristic, fair_share, seconds_per_decision, and more). With
``--jobs`` > 1 games run in that many processes; keep ``jobs * threads`` at most the core count,
or every search gets less than its budget's worth of CPU.
"""

import argparse
import json
import multiprocessing
import os
import sys
import time

import numba
import numpy as np

import envs
from envs.core.game import engine_function
from agents.ismcts import DEFAULT_CUTOFF, ISMCTSAgent, parse_spec
from envs.core.search import NO_CUTOFF
from envs.testing.play import choice_positions

from .common import RESULTS, machine_line, write_result
from .ismcts_python import PythonISMCTSAgent

COOPERATIVE = {"voll_auf_die_18_v0"}  # the whole table wins or loses together


# ---- 1. speed -----------------------------------------------------------------------------


def _timed_search(agent, env_id, position):
    """(wall seconds, CPU seconds of this process) of one decision at ``position``."""
    record, seat, observation, mask, pending = position
    agent.reset(seat, env_id, {"num_players": int(record["num_players"][0])})
    wall, cpu = time.perf_counter(), time.process_time()
    agent.act(observation, mask, {"record": record, "pending_actions": pending})
    return time.perf_counter() - wall, time.process_time() - cpu


def speed_variants(env_id, old_iterations, seconds, threads, cutoff):
    """name -> agent factory: the old search, the new one with the same playouts (one thread, then
    ``threads``), with a cut-off (engines with playout_value only) and as shipped."""
    variants = {
        "old": lambda: PythonISMCTSAgent(iterations=old_iterations, seed=0),
        "same_1": lambda: ISMCTSAgent(seconds=seconds, cutoff=NO_CUTOFF, threads=1, seed=0),
        "same": lambda: ISMCTSAgent(seconds=seconds, cutoff=NO_CUTOFF, threads=threads, seed=0),
        "default": lambda: ISMCTSAgent(seconds=seconds, threads=threads, seed=0),
    }
    if engine_function(envs.game_of(env_id).engine.STATE, "playout_value") is not None:
        variants["cutoff"] = lambda: ISMCTSAgent(seconds=seconds, cutoff=cutoff, threads=threads, seed=0)
    return variants


def speed(env_id, positions, old_iterations, seconds, threads, cutoff):
    """Iterations per wall second and per CPU second of each search over the same positions.

    Each search decides once untimed first (the old one compiles its kernels then; the new one
    compiles in ``reset``, which is never timed)."""
    found = choice_positions(env_id, positions, seed=1)
    rates = {}
    for name, build in speed_variants(env_id, old_iterations, seconds, threads, cutoff).items():
        _timed_search(build(), env_id, found[0])
        done, wall, cpu = 0, 0.0, 0.0
        for position in found:
            agent = build()
            w, c = _timed_search(agent, env_id, position)
            wall, cpu = wall + w, cpu + c
            done += old_iterations if name == "old" else agent.last_iterations
        rates[name] = (done / wall, done / cpu)
    return len(found), rates


# ---- 2. tournaments -----------------------------------------------------------------------


def _tournament(job):
    from training.evaluate import evaluate

    env_id, specs, games, seed = job
    started = time.perf_counter()
    results = evaluate(env_id, specs, games, seed=seed, progress=False)
    return env_id, specs, results, time.perf_counter() - started


def _field_stats(results, spec):
    """(games' seats, wins, win rate) of the agent ``spec`` and the fair share of the same games."""
    seats = sum(r["seats_played"] for r in results if r["agent"] == spec)
    wins = sum(r["wins"] for r in results if r["agent"] == spec)
    all_seats = sum(r["seats_played"] for r in results)
    fair = sum(r["wins"] for r in results) / max(all_seats, 1)
    return seats, wins, wins / max(seats, 1), fair


def tournament_jobs(env_ids, ismcts, games, coop_games, seed):
    jobs = []
    for env_id in env_ids:
        players = envs.game_of(env_id).default_players
        if env_id in COOPERATIVE:
            jobs += [(env_id, [ismcts], coop_games, seed), (env_id, ["heuristic"], coop_games, seed)]
        else:
            jobs += [(env_id, [ismcts] + ["heuristic"] * (players - 1), games, seed),
                     (env_id, [ismcts] + ["random"] * (players - 1), games, seed)]
    return jobs


def run_jobs(jobs, processes):
    if processes <= 1:
        return [_tournament(job) for job in jobs]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return pool.map(_tournament, jobs, chunksize=1)


# ---- report -------------------------------------------------------------------------------


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--old-iterations", type=int, default=100)
    parser.add_argument("--speed-seconds", type=float, default=0.5)
    parser.add_argument("--speed-cutoff", type=int, default=10, help="cut-off of the speed table's cut-off column")
    parser.add_argument("--seconds", type=float, default=1.0, help="ISMCTS time budget per decision")
    parser.add_argument("--games", type=int, default=400, help="games per competitive lineup")
    parser.add_argument("--coop-games", type=int, default=100, help="games per team in the cooperative game")
    parser.add_argument("--threads", type=int, default=numba.get_num_threads(), help="search trees/threads")
    parser.add_argument("--cutoff", default=None,
                        help="tournament playouts: decisions before playout_value, or none (default: the agent's)")
    parser.add_argument("--exploration", type=float, default=None, help="UCB1 constant (default: the agent's)")
    parser.add_argument("--jobs", type=int, default=1, help="tournament processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", nargs="*", default=list(envs.ENV_IDS), choices=list(envs.ENV_IDS))
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--skip-tournaments", action="store_true")
    args = parser.parse_args(argv)
    for name in ("positions", "old_iterations", "speed_cutoff", "games", "coop_games", "threads", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.seconds <= 0 or args.speed_seconds <= 0:
        parser.error("--seconds and --speed-seconds must be positive")
    try:
        parse_spec("".join(f":{k}={v}" for k, v in (("cutoff", args.cutoff), ("c", args.exploration)) if v is not None))
    except ValueError as error:
        parser.error(str(error))
    command = "python -m benchmarks.search " + " ".join(argv if argv is not None else sys.argv[1:])
    started = time.perf_counter()
    load_before = os.getloadavg()[0]
    summary = {env_id: {"seconds_per_decision": args.seconds} for env_id in args.envs}
    lines = [
        "# Search: ISMCTS compiled with numba",
        "",
        f"Machine: {machine_line()}. Command: `{command}`.",
        "",
    ]

    if not args.skip_speed:
        shipped = "none" if DEFAULT_CUTOFF == NO_CUTOFF else DEFAULT_CUTOFF
        lines += [
            "## Iterations per second",
            "",
            f"Old: the Python-tree search it replaced (benchmarks/ismcts_python.py), {args.old_iterations} "
            f"iterations a position, random playouts to the end. New: agents/ismcts.py for {args.speed_seconds} s a "
            f"position: *same playouts* plays to the end as well (1 tree, then {args.threads} trees in parallel); "
            f"*cut-off {args.speed_cutoff}* stops playouts after {args.speed_cutoff} decisions with the engine's "
            f"playout_value (n/a: the engine has none); *as shipped* is the agent's default ({args.threads} trees, "
            f"cut-off {shipped}). {args.positions} positions a game from seeded random play, the same for every "
            "search; each search decides once untimed first. Rates are iterations per wall-clock second; "
            "the *CPU* speed-up compares iterations per CPU second of this process (one thread each), which a "
            "busy machine distorts less.",
            "",
            "| env | old it/s | new, same playouts, 1 thread | speed-up (wall / CPU) | "
            f"same playouts, {args.threads} threads | cut-off {args.speed_cutoff}, {args.threads} threads | "
            "as shipped | speed-up as shipped |",
            "|---|---:|---:|---:|---:|---:|---:|---:|",
        ]
        for env_id in args.envs:
            count, rates = speed(env_id, args.positions, args.old_iterations, args.speed_seconds, args.threads,
                                 args.speed_cutoff)
            old, same_1, same, default = (rates[k][0] for k in ("old", "same_1", "same", "default"))
            cpu_speedup = rates["same_1"][1] / rates["old"][1]
            cut = f"{rates['cutoff'][0]:,.0f}" if "cutoff" in rates else "n/a"
            summary[env_id].update({
                "iterations_per_s_old": old, "iterations_per_s_new": default,
                "iterations_per_s_new_same_playouts_one_thread": same_1, "iterations_per_s_new_same_playouts": same,
                "iterations_per_s_new_cutoff": rates["cutoff"][0] if "cutoff" in rates else None,
                "speed_up_same_playouts_cpu": cpu_speedup, "speed_positions": count})
            lines.append(f"| {env_id} | {old:,.0f} | {same_1:,.0f} | {same_1 / old:.1f}x / {cpu_speedup:.1f}x | "
                         f"{same:,.0f} | {cut} | {default:,.0f} | {default / old:.1f}x |")
            print(lines[-1], flush=True)
        lines.append("")

    if not args.skip_tournaments:
        spec = f"ismcts:{args.seconds:g}s:threads={args.threads}"
        spec += "" if args.cutoff is None else f":cutoff={args.cutoff}"
        spec += "" if args.exploration is None else f":c={args.exploration:g}"
        jobs = tournament_jobs(args.envs, spec, args.games, args.coop_games, args.seed)
        outcomes = run_jobs(jobs, args.jobs)
        lines += [
            "## Tournaments",
            "",
            f"`{spec}`: {args.seconds:g} s a decision in {args.threads} trees; {args.jobs} game(s) at a time. "
            "Default player counts, seats rotated so the ISMCTS seat sits everywhere equally often. A seat wins "
            "when its final return is positive and the highest (team games: every member of the winning team). "
            "Fair share: the win rate of an average seat in the same games.",
            "",
            "| env | lineup | games | ISMCTS win rate | 95% CI | fair share | ISMCTS mean return | minutes |",
            "|---|---|---:|---:|---|---:|---:|---:|",
        ]
        from training.evaluate import wilson_interval

        for env_id, specs, results, seconds in outcomes:
            players = envs.game_of(env_id).default_players
            games = sum(r["seats_played"] for r in results) // players
            lineup = specs[0] if len(specs) == 1 else f"1 ISMCTS vs {players - 1} {specs[1]}"
            who = specs[0]
            seats, wins, rate, fair = _field_stats(results, who)
            low, high = wilson_interval(wins, seats)
            mean = np.mean([r["mean_return"] for r in results if r["agent"] == who])
            if env_id in COOPERATIVE:
                key = "ismcts_team" if who == spec else "heuristic_team"
                lineup = "team of " + ("ISMCTS" if who == spec else "heuristic") + f" ({players} seats)"
                summary[env_id][key] = rate
                summary[env_id][key + "_games"] = games
            elif specs[1] == "heuristic":
                summary[env_id].update({"ismcts_vs_heuristic": rate, "fair_share": fair, "games_vs_heuristic": games})
            else:
                summary[env_id].update({"ismcts_vs_random": rate, "fair_share_vs_random": fair,
                                        "games_vs_random": games})
            lines.append(f"| {env_id} | {lineup} | {games} | {rate:.3f} | [{low:.3f}, {high:.3f}] | "
                         f"{'-' if env_id in COOPERATIVE else f'{fair:.3f}'} | {mean:+.3f} | {seconds / 60:.1f} |")
            print(lines[-1], flush=True)
        lines.append("")
        for env_id in COOPERATIVE.intersection(args.envs):
            # One outcome a game for the whole table: the ISMCTS team is measured against the heuristic team.
            summary[env_id]["ismcts_vs_heuristic"] = summary[env_id]["ismcts_team"]
            summary[env_id]["fair_share"] = summary[env_id]["heuristic_team"]
            lines += [f"In {env_id} (cooperative) `ismcts_vs_heuristic` in search.json is the ISMCTS team's "
                      "success rate and `fair_share` the heuristic team's.", ""]

    minutes = (time.perf_counter() - started) / 60
    lines += [f"Took {minutes:.1f} minutes; load average {load_before:.1f} at the start, "
              f"{os.getloadavg()[0]:.1f} at the end (the machine's other work slows every search alike).", ""]
    path = write_result("search", "\n".join(lines))
    (RESULTS / "search.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"wrote {path} and {RESULTS / 'search.json'}")


if __name__ == "__main__":
    main()
