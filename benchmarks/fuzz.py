"""The record fuzz for every game: how corrupt records fare through ``set_state``.

    python -m benchmarks.fuzz [--jobs 2] [env_id ...]

Every field of a mid-game record (header and game fields; first, middle and last element) at
boundary and out-of-range values, through the env's and a VectorGame's ``set_state``, each case in
a forked child (see :mod:`tests.fuzz.runner`). Writes benchmarks/results/fuzz.md: per game the
cases, how many were rejected cleanly, accepted and played to the end, failed (accepted but broke
a check, or refused uncleanly), and crashed (the process died or hung; must be 0), then every
failed or crashed case.
"""

import argparse
import time
from concurrent.futures import ThreadPoolExecutor

import envs
from tests.fuzz.runner import fuzz_game

from .common import machine_line, write_result

SHOWN_PER_GAME = 40


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_ids", nargs="*", metavar="env_id",
                        help=f"games to fuzz (default: all of {', '.join(envs.ENV_IDS)})")
    parser.add_argument("--jobs", type=int, default=1, help="games fuzzed at once (one worker process each)")
    args = parser.parse_args(argv)
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")
    unknown = [env_id for env_id in args.env_ids if env_id not in envs.ENV_IDS]
    if unknown:
        parser.error(f"unknown env id(s) {unknown}; choose from {list(envs.ENV_IDS)}")
    env_ids = args.env_ids or list(envs.ENV_IDS)
    start = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        reports = list(pool.map(fuzz_game, env_ids))
    for report in reports:
        print(f"{report.env_id}: {summary(report)}")
    path = write_result("fuzz", page(reports, time.perf_counter() - start))
    print(f"wrote {path}")


def summary(report):
    return ", ".join(f"{report.count(outcome)} {outcome}" for outcome in ("rejected", "played", "failed", "crashed"))


def page(reports, seconds):
    lines = [
        "# Fuzz: corrupt records through set_state",
        "",
        f"Machine: {machine_line()}. Command: `python -m benchmarks.fuzz`. Run took {seconds:.0f} s.",
        "",
        "Each case sets one element of a mid-game record (every header and game field; the first, middle and "
        "last element of an array) to a boundary or out-of-range value (-1, 0, 1, seats-1, seats, 100, the "
        "type's min and max, NaN and infinities for floats, the engine's STATE_BOUNDS and one past each) and "
        "passes it to the env's and a VectorGame's `set_state`, in a forked child. *Rejected*: ValueError from "
        "both, nothing changed. *Played*: accepted by both and played to the end with random legal actions, "
        "`check_records` passing after every step and the VectorGame following the env record for record. "
        "*Failed*: anything else that returned. *Crashed*: the process died or hung (must be 0).",
        "",
        "| env | seats | engine checks | cases | rejected | played | failed | crashed |",
        "|---|---:|---|---:|---:|---:|---:|---:|",
    ]
    for r in reports:
        checks = "bounds + check_state" if r.has_tables else "**none yet** (shared checks only)"
        lines.append(f"| {r.env_id} | {r.num_players} | {checks} | {len(r.results)} | {r.count('rejected')} | "
                     f"{r.count('played')} | {r.count('failed')} | {r.count('crashed')} |")
    for r in reports:
        problems = r.problems()
        if not problems:
            continue
        lines += ["", f"## {r.env_id}: {len(problems)} cases failed or crashed", ""]
        for result in problems[:SHOWN_PER_GAME]:
            detail = result["detail"].replace("|", "\\|").replace("\n", " ")
            lines.append(f"- `{result['what']}` {result['outcome']}: {detail[:300]}")
        if len(problems) > SHOWN_PER_GAME:
            lines.append(f"- ... and {len(problems) - SHOWN_PER_GAME} more")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()
