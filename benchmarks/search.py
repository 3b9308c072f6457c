"""Search benchmark: the numba ISMCTS against the Python-tree search it replaced, then tournaments.

    python -m benchmarks.search [--positions 4] [--old-iterations 50] [--speed-seconds 0.25] [--cutoff 10]
                                [--seconds 0.05] [--games 400] [--minutes 3] [--jobs 1] [--threads N]
                                [--tournament-threads 1]
                                [--exploration X] [--envs id ...] [--skip-speed] [--default-modes]

1. Speed, every game: ``--positions`` positions from a seeded random game (a seat with a choice).
   At each, the old search (``benchmarks/ismcts_python.py``, random playouts to the end) runs
   ``--old-iterations`` iterations, and the new one (``agents/ismcts.py``) runs ``--speed-seconds``
   with plain random playouts (the old search's playouts: the same work an iteration) and, in
   engines with ``playout_value``, with playouts cut after ``--cutoff`` decisions and made the
   game's way (``DEFAULT_EPSILONS``: epsilon-greedy where listed); each in one thread and in
   ``--threads`` trees. Iterations per second =
   iterations done / time, summed over the positions (wall clock; CPU time of the process too for
   the one-thread comparison with the old search).
2. Playout mode, every game: ``ismcts:<seconds>s`` with plain random playouts and with the cut-off
   (engines with ``playout_value``), each against heuristics in the other seats (the cooperative
   game: a whole team of ISMCTS seats). The mode with the higher win rate (then mean return; a tie
   keeps plain playouts) is the game's chosen mode: ``agents/ismcts.py`` ships it as the default.
   ``--default-modes`` plays only each game's shipped mode (``DEFAULT_CUTOFFS``; a run that tries
   both takes twice the lineups, and stop 35 measured plain playouts losing everywhere at fixed
   iterations; ``benchmarks/search_trials.py`` compares settings at fixed iterations). The cut-off
   mode plays the game's playouts (``DEFAULT_EPSILONS``), the plain mode uniformly random ones.
3. Strength of the chosen mode: one ISMCTS seat against random agents, and against the old
   Python-tree search given the same time (its iterations = its measured rate x ``--seconds``);
   in the cooperative game a heuristic team and an old-search team instead.

Each lineup plays up to ``--games`` games, seats rotated, and starts no new game after
``--minutes``. *Fair share* is the win rate of an average seat in the same games (all wins / all
seats): the ISMCTS seat beats the field when above it. Writes benchmarks/results/search.md and
search.json (per env id: iterations_per_s_old, iterations_per_s_new, ismcts_vs_heuristic,
fair_share, seconds_per_decision, and more). With ``--jobs`` > 1 lineups run in that many
processes; keep ``jobs * threads`` at most the core count, or searches get less than their budget.
"""

import argparse
import json
import multiprocessing
import os
import time

import numba
import numpy as np

import envs
from agents.ismcts import DEFAULT_CUTOFFS, DEFAULT_EPSILONS, ISMCTSAgent, parse_spec
from envs.core.game import engine_function
from envs.core.search import NO_CUTOFF
from envs.testing.play import choice_positions

from .common import RESULTS, command_line, machine_line, write_result
from .ismcts_python import PythonISMCTSAgent

COOPERATIVE = {"voll_auf_die_18_v0"}  # the whole table wins or loses together
OLD = "ismcts-python"  # spec prefix of the old search in the tournaments: ismcts-python:<iterations>


def has_playout_value(env_id):
    return engine_function(envs.game_of(env_id).engine.STATE, "playout_value") is not None


def playout_modes(env_id, cutoff, default_only=False):
    """The playout cut-offs to try in ``env_id``: plain random playouts, and ``cutoff`` where it
    applies; with ``default_only`` just the one ``agents/ismcts.py`` ships for the game."""
    if default_only:
        return [DEFAULT_CUTOFFS.get(env_id, NO_CUTOFF)]
    return [NO_CUTOFF] + ([cutoff] if has_playout_value(env_id) else [])


def playout_epsilon(env_id, cutoff):
    """Share of random playout decisions in a mode: plain playouts are uniformly random (the old
    search's), cut-off ones the game's own (``DEFAULT_EPSILONS``)."""
    return 1.0 if cutoff == NO_CUTOFF else DEFAULT_EPSILONS.get(env_id, 1.0)


def mode_name(cutoff, env_id=None):
    if cutoff == NO_CUTOFF:
        return "plain"
    eps = 1.0 if env_id is None else playout_epsilon(env_id, cutoff)
    return f"cut-off {cutoff}" + ("" if eps == 1.0 else f", eps {eps:g}")


# ---- 1. speed -----------------------------------------------------------------------------


def _timed_search(agent, env_id, position):
    """(wall seconds, CPU seconds of this process) of one decision at ``position``."""
    record, seat, observation, mask, pending = position
    agent.reset(seat, env_id, {"num_players": int(record["num_players"][0])})
    wall, cpu = time.perf_counter(), time.process_time()
    agent.act(observation, mask, {"record": record, "pending_actions": pending})
    return time.perf_counter() - wall, time.process_time() - cpu


def speed_variants(env_id, old_iterations, seconds, threads, cutoff):
    """(search, mode, threads) -> agent factory: the old search, and the new one in every playout
    mode with one thread and with ``threads``."""
    variants = {("old", NO_CUTOFF, 1): lambda: PythonISMCTSAgent(iterations=old_iterations, seed=0)}
    for mode in playout_modes(env_id, cutoff):
        for count in sorted({1, threads}):
            variants[("new", mode, count)] = (
                lambda mode=mode, count=count: ISMCTSAgent(seconds=seconds, cutoff=mode, threads=count, seed=0,
                                                           epsilon=playout_epsilon(env_id, mode)))
    return variants


def speed(env_id, positions, old_iterations, seconds, threads, cutoff):
    """Iterations per wall second and per CPU second of each search variant over the same positions.

    Each search decides once untimed first (the old one compiles its kernels then; the new one
    compiles in ``reset``, which is never timed)."""
    found = choice_positions(env_id, positions, seed=1)
    rates = {}
    for key, build in speed_variants(env_id, old_iterations, seconds, threads, cutoff).items():
        _timed_search(build(), env_id, found[0])
        done, wall, cpu = 0, 0.0, 0.0
        for position in found:
            agent = build()
            w, c = _timed_search(agent, env_id, position)
            wall, cpu = wall + w, cpu + c
            done += old_iterations if key[0] == "old" else agent.last_iterations
        rates[key] = (done / wall, done / cpu)
    return len(found), rates


# ---- 2./3. tournaments --------------------------------------------------------------------


def _tournament(job):
    from training.evaluate import evaluate

    env_id, specs, games, seed, max_seconds = job
    factories = {}
    for spec in specs:
        if spec.startswith(OLD + ":"):
            iterations = int(spec.partition(":")[2])
            factories[spec] = lambda s, iterations=iterations: PythonISMCTSAgent(iterations=iterations, seed=s)
    started = time.perf_counter()
    results = evaluate(env_id, specs, games, seed=seed, progress=False, factories=factories,
                       max_seconds=max_seconds)
    return job, results, time.perf_counter() - started


def lineup(env_id, spec, others):
    """``spec`` in one seat and ``others`` in the rest; in the cooperative game ``spec`` at every seat."""
    if env_id in COOPERATIVE:
        return [spec]
    return [spec] + [others] * (envs.game_of(env_id).default_players - 1)


def run_jobs(jobs, processes):
    if processes <= 1:
        return [_tournament(job) for job in jobs]
    with multiprocessing.get_context("spawn").Pool(processes) as pool:
        return pool.map(_tournament, jobs, chunksize=1)


def measured(outcome):
    """Statistics of the first spec of a lineup (the one under test) in ``outcome``."""
    from training.evaluate import wilson_interval

    (env_id, specs, _, _, _), results, seconds = outcome
    who = specs[0]
    seats = sum(r["seats_played"] for r in results if r["agent"] == who)
    wins = sum(r["wins"] for r in results if r["agent"] == who)
    all_seats = sum(r["seats_played"] for r in results)
    players = envs.game_of(env_id).default_players
    return {
        "games": all_seats // players, "win_rate": wins / max(seats, 1), "ci": wilson_interval(wins, seats),
        "fair_share": sum(r["wins"] for r in results) / max(all_seats, 1),
        "mean_return": float(np.mean([r["mean_return"] for r in results if r["agent"] == who])),
        "minutes": seconds / 60,
    }


def chosen_mode(trials):
    """The cut-off whose trial won most often (then the higher mean return; a tie keeps plain playouts)."""
    return max(trials, key=lambda mode: (trials[mode]["win_rate"], trials[mode]["mean_return"], mode == NO_CUTOFF))


def spec_cutoff(spec):
    """The playout cut-off of an ``ismcts:`` spec (NO_CUTOFF for ``cutoff=none``)."""
    cutoff = parse_spec(spec.partition(":")[2]).get("cutoff")
    return NO_CUTOFF if cutoff is None else cutoff


def ismcts_spec(seconds, threads, cutoff, exploration, epsilon=1.0):
    spec = f"ismcts:{seconds:g}s:threads={threads}:cutoff={'none' if cutoff == NO_CUTOFF else cutoff}"
    spec += "" if epsilon == 1.0 else f":eps={epsilon:g}"
    return spec + ("" if exploration is None else f":c={exploration:g}")


def row(env_id, lineup_text, mode, stats):
    low, high = stats["ci"]
    fair = "-" if env_id in COOPERATIVE else f"{stats['fair_share']:.3f}"
    return (f"| {env_id} | {lineup_text} | {mode} | {stats['games']} | {stats['win_rate']:.3f} | "
            f"[{low:.3f}, {high:.3f}] | {fair} | {stats['mean_return']:+.3f} | {stats['minutes']:.1f} |")


TABLE_HEAD = ["| env | lineup | ISMCTS playouts | games | win rate | 95% CI | fair share | mean return | minutes |",
              "|---|---|---|---:|---:|---|---:|---:|---:|"]


# ---- report -------------------------------------------------------------------------------


def parse_arguments(argv):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--positions", type=int, default=4)
    parser.add_argument("--old-iterations", type=int, default=50,
                        help="old search's iterations a position (and a decision, with --skip-speed)")
    parser.add_argument("--speed-seconds", type=float, default=0.25)
    parser.add_argument("--cutoff", type=int, default=10, help="cut-off tried against plain random playouts")
    parser.add_argument("--seconds", type=float, default=0.05, help="ISMCTS time budget per decision")
    parser.add_argument("--games", type=int, default=400, help="games per lineup at most")
    parser.add_argument("--minutes", type=float, default=3.0, help="no new game of a lineup after this long")
    parser.add_argument("--threads", type=int, default=numba.get_num_threads(),
                        help="trees/threads of the speed table's parallel columns")
    parser.add_argument("--tournament-threads", type=int, default=1, help="trees/threads of the tournaments' ISMCTS")
    parser.add_argument("--exploration", type=float, default=None, help="UCB1 constant (default: the agent's)")
    parser.add_argument("--jobs", type=int, default=1, help="tournament processes")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--envs", nargs="*", default=list(envs.ENV_IDS), choices=list(envs.ENV_IDS))
    parser.add_argument("--skip-speed", action="store_true")
    parser.add_argument("--default-modes", action="store_true",
                        help="tournaments play each game's shipped playout mode only (DEFAULT_CUTOFFS)")
    args = parser.parse_args(argv)
    for name in ("positions", "old_iterations", "games", "threads", "tournament_threads", "jobs"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.cutoff < 0:
        parser.error("--cutoff must be at least 0")
    if min(args.seconds, args.speed_seconds, args.minutes) <= 0:
        parser.error("--seconds, --speed-seconds and --minutes must be positive")
    try:
        parse_spec(ismcts_spec(args.seconds, args.tournament_threads, args.cutoff, args.exploration).partition(":")[2])
    except ValueError as error:
        parser.error(str(error))
    return args


def speed_section(args, summary, speeds):
    lines = [
        "## Iterations per second",
        "",
        f"Old: the Python-tree search it replaced (benchmarks/ismcts_python.py), {args.old_iterations} "
        f"iterations a position, random playouts to the end. New: agents/ismcts.py for {args.speed_seconds} s a "
        f"position, with *plain* random playouts to the end as well, and with playouts *cut off* after "
        f"{args.cutoff} decisions and the engine's playout_value (n/a: the engine has none), made the game's way "
        f"(epsilon-greedy by one-step playout_value where `DEFAULT_EPSILONS` lists the game: "
        f"{_epsilons_text(args.envs)}); 1 tree in the "
        f"calling thread, then {args.threads} trees in parallel threads. {args.positions} positions a game from "
        "seeded random play, the same for every search; each search decides once untimed first. Rates are "
        "iterations per wall-clock second; the *CPU* speed-up compares iterations per CPU second of the process "
        "(one thread each), which a busy machine distorts less.",
        "",
        f"| env | old it/s | plain, 1 thread | speed-up (wall / CPU) | plain, {args.threads} threads | "
        f"cut-off {args.cutoff}, 1 thread | cut-off {args.cutoff}, {args.threads} threads |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for env_id in args.envs:
        count, rates = speed(env_id, args.positions, args.old_iterations, args.speed_seconds, args.threads,
                             args.cutoff)
        old, plain_1 = rates[("old", NO_CUTOFF, 1)], rates[("new", NO_CUTOFF, 1)]
        new = {f"{mode_name(mode)}, {count} thread{'s' * (count > 1)}": rate[0]
               for (search, mode, count), rate in rates.items() if search == "new"}
        speeds[env_id] = {(mode, count): rate[0] for (search, mode, count), rate in rates.items() if search == "new"}
        summary[env_id].update({"iterations_per_s_old": old[0], "iterations_per_s_new_by_mode": new,
                                "speed_up_plain_cpu": plain_1[1] / old[1], "speed_positions": count})
        cells = [rates.get(("new", mode, count)) for mode in (NO_CUTOFF, args.cutoff) for count in (args.threads, 1)]
        plain_n, _, cut_n, cut_1 = (f"{cell[0]:,.0f}" if cell else "n/a" for cell in cells)
        lines.append(f"| {env_id} | {old[0]:,.0f} | {plain_1[0]:,.0f} | {plain_1[0] / old[0]:.1f}x / "
                     f"{plain_1[1] / old[1]:.1f}x | {plain_n} | {cut_1} | {cut_n} |")
        print(lines[-1], flush=True)
    return lines + [""]


def _epsilons_text(env_ids):
    listed = [f"{env_id} eps {DEFAULT_EPSILONS[env_id]:g}" for env_id in env_ids if env_id in DEFAULT_EPSILONS]
    return ", ".join(listed) if listed else "none"


def tournament_sections(args, summary, speeds):
    budget = args.minutes * 60

    def spec(cutoff, env_id):
        return ismcts_spec(args.seconds, args.tournament_threads, cutoff, args.exploration,
                           playout_epsilon(env_id, cutoff))

    trial_jobs = [(env_id, lineup(env_id, spec(mode, env_id), "heuristic"), args.games, args.seed, budget)
                  for env_id in args.envs for mode in playout_modes(env_id, args.cutoff, args.default_modes)]
    trials = {}
    for outcome in run_jobs(trial_jobs, args.jobs):
        env_id, specs = outcome[0][:2]
        trials.setdefault(env_id, {})[spec_cutoff(specs[0])] = measured(outcome)
    lines = [
        "## Playout mode: plain random playouts or cut off",
        "",
        f"`{spec(playout_modes(args.envs[0], args.cutoff, args.default_modes)[-1], args.envs[0])}` "
        f"({args.envs[0]}; `eps` as `DEFAULT_EPSILONS` gives each game: "
        f"{_epsilons_text(args.envs)})"
        + (", each game only in the mode agents/ismcts.py ships (`--default-modes`: `DEFAULT_CUTOFFS` "
           f"{DEFAULT_CUTOFFS}, the others plain random playouts)" if args.default_modes
           else " and the same with `cutoff=none` and uniformly random playouts")
        + f": {args.seconds:g} s a decision in {args.tournament_threads} "
        f"tree(s), {args.jobs} lineup(s) at a time; up to {args.games} games a lineup, none started after "
        f"{args.minutes:g} minutes. One ISMCTS seat against heuristics in the others (the cooperative game: a "
        "team of ISMCTS seats), seats rotated. A seat wins when its final return is positive and the highest "
        "(team games: every member of the winning team). The mode with the higher win rate is chosen; "
        "`agents/ismcts.py` ships it as the game's default (`DEFAULT_CUTOFFS`)"
        + (". With `--default-modes` only the shipped mode ran, so nothing was chosen here: "
           "`DEFAULT_CUTOFFS` and `DEFAULT_EPSILONS` come from fixed-iteration trials "
           "(benchmarks/results/search_trials.md)." if args.default_modes else ".")
        ,
        "",
        *TABLE_HEAD,
    ]
    chosen = {}
    for env_id in args.envs:
        chosen[env_id] = chosen_mode(trials[env_id])
        for mode, stats in trials[env_id].items():
            who = "team of ISMCTS" if env_id in COOPERATIVE else f"1 ISMCTS vs {envs.game_of(env_id).default_players - 1} heuristic"
            mark = " (chosen)" if mode == chosen[env_id] and len(trials[env_id]) > 1 else ""
            lines.append(row(env_id, who, mode_name(mode, env_id) + mark, stats))
        best = trials[env_id][chosen[env_id]]
        summary[env_id].update({
            "playout_cutoff": None if chosen[env_id] == NO_CUTOFF else chosen[env_id],
            "playout_trials": {mode_name(mode, env_id): stats["win_rate"] for mode, stats in trials[env_id].items()},
            "playout_epsilon": playout_epsilon(env_id, chosen[env_id]),
            "ismcts_vs_heuristic": best["win_rate"], "fair_share": best["fair_share"],
            "games_vs_heuristic": best["games"]})
        if env_id in speeds:  # the chosen mode's rate
            summary[env_id]["iterations_per_s_new"] = speeds[env_id].get((chosen[env_id], args.tournament_threads))
            summary[env_id]["iterations_per_s_new_one_thread"] = speeds[env_id][(chosen[env_id], 1)]
            summary[env_id][f"iterations_per_s_new_{args.threads}_threads"] = speeds[env_id][(chosen[env_id], args.threads)]
    lines.append("")

    def old_spec(env_id):
        rate = summary[env_id].get("iterations_per_s_old")
        return f"{OLD}:{max(1, round(rate * args.seconds)) if rate else args.old_iterations}"

    strength_jobs = []
    for env_id in args.envs:
        if env_id in COOPERATIVE:
            strength_jobs += [(env_id, ["heuristic"], args.games, args.seed, budget),
                              (env_id, [old_spec(env_id)], args.games, args.seed, budget)]
        else:
            strength_jobs += [(env_id, lineup(env_id, spec(chosen[env_id], env_id), others), args.games, args.seed,
                               budget)
                              for others in ("random", old_spec(env_id))]
    lines += [
        "## The chosen mode against random agents and the old search",
        "",
        f"As above with each game's chosen playouts. The old search ({OLD}:<iterations>, "
        "benchmarks/ismcts_python.py) gets the iterations it does in the same time: its measured rate above x "
        f"{args.seconds:g} s. In the cooperative game the rows are a whole team of heuristic seats and a whole "
        "team of old-search seats, to set beside the ISMCTS team above.",
        "",
        *TABLE_HEAD,
    ]
    for outcome in run_jobs(strength_jobs, args.jobs):
        (env_id, specs, *_), stats = outcome[0], measured(outcome)
        players = envs.game_of(env_id).default_players
        if env_id in COOPERATIVE:
            key = "heuristic_team" if specs[0] == "heuristic" else "old_search_team"
            text, mode = f"team of {specs[0]}", "-"
        else:
            key = "ismcts_vs_random" if specs[1] == "random" else "ismcts_vs_old_search"
            text, mode = f"1 ISMCTS vs {players - 1} {specs[1]}", mode_name(chosen[env_id], env_id)
            summary[env_id]["fair_share_" + key.removeprefix("ismcts_")] = stats["fair_share"]
        summary[env_id][key] = stats["win_rate"]
        summary[env_id]["games_" + key] = stats["games"]
        lines.append(row(env_id, text, mode, stats))
        print(lines[-1], flush=True)
    lines.append("")
    for env_id in COOPERATIVE.intersection(args.envs):
        # One outcome a game for the whole table: the ISMCTS team is measured against the heuristic team.
        summary[env_id]["ismcts_team"] = summary[env_id]["ismcts_vs_heuristic"]
        summary[env_id]["fair_share"] = summary[env_id]["heuristic_team"]
        lines += [f"In {env_id} (cooperative) `ismcts_vs_heuristic` in search.json is the ISMCTS team's "
                  "success rate and `fair_share` the heuristic team's.", ""]
    return lines


def main(argv=None):
    args = parse_arguments(argv)
    command = command_line("benchmarks.search", argv)
    started, load_before = time.perf_counter(), os.getloadavg()[0]
    summary = {env_id: {"seconds_per_decision": args.seconds} for env_id in args.envs}
    speeds = {}  # env id -> (cut-off, threads) -> iterations per wall second
    lines = ["# Search: ISMCTS compiled with numba", "", f"Machine: {machine_line()}. Command: `{command}`.", ""]
    if not args.skip_speed:
        lines += speed_section(args, summary, speeds)
    lines += tournament_sections(args, summary, speeds)
    minutes = (time.perf_counter() - started) / 60
    lines += [f"Took {minutes:.1f} minutes; load average {load_before:.1f} at the start, "
              f"{os.getloadavg()[0]:.1f} at the end (the machine's other work slows every search alike).", ""]
    path = write_result("search", "\n".join(lines))
    (RESULTS / "search.json").write_text(json.dumps(summary, indent=2) + "\n")
    print(f"wrote {path} and {RESULTS / 'search.json'}")


if __name__ == "__main__":
    main()
