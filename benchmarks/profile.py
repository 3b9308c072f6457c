"""Where a decision's time goes, per game: the step, the legal mask, the observation.

    python -m benchmarks.profile

One thread, 1024 games, random legal play inside numba (``VectorGame.random_steps``): once
without observations (choice + step + the next legal mask) and once with them; the difference
is the cost of writing the observation. Compared with the observation's size, this says where a
batch's time goes and why the batch targets are met or missed. Writes
benchmarks/results/profile.md.
"""

import argparse

import numba

import envs
from envs.core.vector import VectorGame

from .common import command_line, machine_line, median_rate, write_result


def profile(env_id, games=1024, steps=200):
    numba.set_num_threads(1)
    vg = VectorGame(env_id, games, seed=0)
    vg.reset()
    without = median_rate(lambda: vg.random_steps(steps, observe=False), repeats=5)
    with_obs = median_rate(lambda: vg.random_steps(steps, observe=True), repeats=5)
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    game = vg.game
    seats = vg.num_players if game.simultaneous else 1
    return {"env_id": env_id, "players": vg.num_players, "obs_floats": game.layout.size * seats,
            "actions": game.num_actions, "step_ns": 1e9 / without, "obs_ns": 1e9 / with_obs - 1e9 / without,
            "with_obs": with_obs, "without": without}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", action="append")
    args = parser.parse_args(argv)
    rows = [profile(env_id) for env_id in args.env or envs.ENV_IDS]
    lines = ["# Where the time goes", "", f"Machine: {machine_line()}. Command: `{command_line('benchmarks.profile', argv)}`.", "",
             "One thread, 1024 games, default player counts, random legal play inside numba. `step` is a decision "
             "without observation (random choice over the mask, the engine's step, the next legal mask); "
             "`observation` is what writing the observation of the seat to act adds (all seats for the "
             "simultaneous game).", "",
             "| env | seats | observation floats | actions | step (ns) | observation (ns) | share of observation "
             "| decisions/s, 1 thread, with observation | without |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for r in rows:
        share = r["obs_ns"] / (r["step_ns"] + r["obs_ns"])
        lines.append(f"| {r['env_id']} | {r['players']} | {r['obs_floats']} | {r['actions']} | {r['step_ns']:.0f} "
                     f"| {r['obs_ns']:.0f} | {share:.0%} | {r['with_obs'] / 1e6:.2f} M | {r['without'] / 1e6:.2f} M |")
    heaviest = max(rows, key=lambda r: r["step_ns"])
    lines += ["", "## Reading it against the throughput targets", "",
              "- A batched decision costs the step plus the observation; with 2 threads the rate roughly doubles "
              "(benchmarks/results/throughput.md). Where the 2 M/s target is met, it is met with observations "
              "included, as Pgx's numbers include them.",
              f"- The slowest step is {heaviest['env_id']}'s ({heaviest['step_ns']:.0f} ns). In Voll auf die "
              "18 every step recomputes the exact legal masks of every seat that is not busy (the argument "
              "search: every subset of a hand against every face-up Nazi and its pool; "
              "benchmarks/results/hotpaths.md times it alone, `refresh`), and after a Nazi is convinced or "
              "the emergency redraw it asks whether the chapter can still be won (exact searches over the "
              "Arguments left, a quick one over pairs first). Its observation is written for every seat "
              "every step.",
              "- Elsewhere the observation is the larger part of a decision where it is large (Teufel's "
              "per-square card beliefs, Secret Hitler's election history): writing 800-3000 floats costs "
              "150-500 ns, more than the rules themselves.",
              "- The \"100x our own AEC loop\" target is relative to an AEC loop that is itself 1.5-3x "
              "PettingZoo's tictactoe; meeting it would take under roughly 250-400 ns per batched decision on 2 "
              "cores including the observation, which only Secret Hitler's small step reaches."]
    path = write_result("profile", "\n".join(lines) + "\n")
    print(path.read_text())


if __name__ == "__main__":
    main()
