"""Can the games be learned? Batched MaskablePPO self-play on a fixed time budget per game.

    python -m benchmarks.learning [--minutes 25] [--games 1000] [--env secret_hitler_v0 ...] [--players N]

For every game (at the player count in ``PLAYERS``), ``python -m training.selfplay`` trains with
its preset for ``--minutes`` of wall-clock time (rollouts, updates and the periodic evaluations
all count). Then, with the policy sampling from its masked distribution, ``--games`` games each:

- the policy in one seat (random per game) against random players, and against heuristic agents;
- the heuristic agent in the same seat against random players, and against heuristic agents (the
  bars the policy is measured by; per role in Secret Hitler, where a role's rate among heuristic
  players is what a learned liberal or fascist has to beat);
- a random agent in the same seat against random players: what random play wins there, the bar for
  "beats random play" (the fair share where every seat plays alike, but not in a team game whose
  team-mates are random: a Secret Hitler liberal with random team-mates wins less than half);
- in the cooperative Voll auf die 18: the policy in every seat, and the heuristic in every seat.

Win rates are given beside the fair share (a seat's rate when every seat plays alike), per role in
Secret Hitler. Each game's run is stored in benchmarks/results/learning_runs/<run>.json, and
learning.md, learning.json and the learning-curve PNGs are rebuilt from all stored runs, so games
can be run one at a time (``--env``); every number comes from the run that wrote it. A run is
named by its env id, or ``<env id>_<n>p`` when ``--players`` differs from the count in
``PLAYERS`` (e.g. Secret Hitler at 7 players beside the 5-player run); learning.json is keyed by
run name, and each entry states its players.
"""

import argparse
import json
import os
import pathlib
import shutil
import time

import numba

import envs
from training.presets import DEFAULT_POOL_WEIGHTS, WARM_START

from .common import RESULTS, LoadSampler, command_line, machine_line, write_result

RUNS = RESULTS / "learning_runs"  # one game's full run (curve, command, machine) per file
READING = RESULTS / "learning_reading.md"  # the hand-written reading of the runs, kept across reruns

PLAYERS = {"secret_hitler_v0": 5, "voll_auf_die_18_v0": 2, "volles_fass_voraus_v0": 4,
           "teufel_teufel_v0": 4, "volle_socke_v0": 4}


def default_players(env_id):
    """The player count a game's learning run uses unless ``--players`` says otherwise."""
    return PLAYERS.get(env_id, envs.game_of(env_id).default_players)


def run_name(env_id, players):
    """A stored run's name: the env id at its default player count, else with the count."""
    return env_id if players == default_players(env_id) else f"{env_id}_{players}p"


def train(env_id, players, minutes, seed, out):
    from training import selfplay

    shutil.rmtree(out, ignore_errors=True)
    argv = [env_id, "--players", str(players), "--timesteps", str(10**10), "--max-minutes", str(minutes),
            "--out", str(out), "--seed", str(seed), "--eval-every", "500000", "--eval-games", "200"]
    started = time.perf_counter()
    model, history = selfplay.train(selfplay.parse_args(argv))
    shutil.copy(pathlib.Path(out) / "learning_curve.png", RESULTS / f"learning_{run_name(env_id, players)}.png")
    command = " ".join(["python -m training.selfplay", *argv])
    return model, history, command, (time.perf_counter() - started) / 60


#: The final evaluation's seeds start here, apart from the training run's evaluations (seeds
#: ``--seed`` + k) that chose the best policy: the policy is not measured on the games that chose it.
FINAL_SEEDS = 1_000_000


def measure(env_id, players, minutes, games, seed):
    """Train, then the final numbers of one game (see the module docstring) for the run's best
    policy (training.selfplay keeps it as best.zip: the best of its evaluations)."""
    from agents.policy import load_model, trained_observation
    from training.policy_eval import policy_strength
    from training.vector_env import SnapshotPolicy

    out = pathlib.Path("runs/learning") / run_name(env_id, players)
    model, history, command, trained = train(env_id, players, minutes, seed, out)
    best = json.loads((out / "best.json").read_text())
    saved = json.loads((out / "args.json").read_text())
    policy = SnapshotPolicy(load_model(out / "best.zip").policy)
    config = {"num_players": players, **trained_observation(out / "best.zip", env_id)}  # (shaping: training only)
    row = {"players": players, "timesteps": int(model.num_timesteps), "minutes": round(trained, 1),
           "command": command, "history": history, "evaluated_timesteps": best["timesteps"],
           "pool_weights": saved["pool_weights"], "policy_head": saved.get("policy_head", "flat")}
    imitation = out / "imitation.json"
    if imitation.exists():  # the warm start: how much heuristic play was cloned before PPO
        done = json.loads(imitation.read_text())
        row["imitation"] = {"samples": done["samples"], "rounds": len(done["rounds"]),
                            "agreement": round(done["agreement"], 3), "minutes": done["minutes"]}
    seed += FINAL_SEEDS
    if envs.game_of(env_id).simultaneous:
        row["team_success_ppo"] = policy_strength(policy, env_id, "random", games, seed + SEED_OFFSET["random"], config)
        row["team_success_heuristic"] = baseline("heuristic_vs_random", env_id, games, seed, config)
    else:
        for opponent, offset in SEED_OFFSET.items():
            row[f"ppo_vs_{opponent}"] = policy_strength(policy, env_id, opponent, games, seed + offset, config)
        for name in ("heuristic_vs_random", *BASELINES):
            row[name] = baseline(name, env_id, games, seed, config)
        row["fair_share"] = row["ppo_vs_random"]["fair_share"]
    return row


#: The final evaluation plays random opponents on the final seeds + 1 and heuristic ones on + 2; a
#: baseline line plays on the seeds of the policy's line against the same opponents.
SEED_OFFSET = {"random": 1, "heuristic": 2}
#: The policy_eval.BASELINE_LINES a run keeps beside its policy's lines (a stored run can gain them
#: later: ``--add-baselines``); ``heuristic_vs_random`` is a line of every run.
BASELINES = ("heuristic_vs_heuristic", "random_vs_random")


def baseline(name, env_id, games, seed, config):
    """The policy_eval.BASELINE_LINES line ``name``, from the final evaluation's seeds ``seed`` (the
    arguments in :func:`training.policy_eval.baseline_line`'s order)."""
    from training.policy_eval import BASELINE_LINES, baseline_line

    opponent = BASELINE_LINES[name][1]
    return baseline_line(name, env_id, games, seed + SEED_OFFSET[opponent], config)


def flat(rows):
    """The machine-readable summary: one dict of plain numbers per env id."""
    summary = {}
    for env_id, row in rows.items():
        entry = {k: row[k] for k in ("players", "timesteps", "minutes")}
        for key in ("ppo_vs_random", "ppo_vs_heuristic", "heuristic_vs_random", *BASELINES,
                    "team_success_ppo", "team_success_heuristic"):
            if key in row:
                entry[key] = round(row[key]["win_rate"], 4)
                for role, split in row[key].get("by_role", {}).items():
                    entry[f"{key}_{role}"] = round(split["win_rate"], 4)
        if "fair_share" in row:
            entry["fair_share"] = round(row["fair_share"], 4)
        if "ppo_vs_heuristic" in row:
            entry["random_bar"] = round(random_bar(row), 4)
            entry["beats_random"] = bool(_beats_random(row))
            entry["heuristic_bar"] = round(heuristic_bar(row), 4)
            entry["beats_heuristic"] = bool(_beats_heuristic(row))
        summary[env_id] = entry
    return summary


def _chosen(row):
    return f"; measured: the policy of step {row['evaluated_timesteps']:,}" if "evaluated_timesteps" in row else ""


def _steps(row):
    """PPO steps, and the heuristic decisions cloned before them."""
    warm = row.get("imitation")
    return f"{row['timesteps']:,}" + (f" + {warm['samples']:,} cloned" if warm else "")


def _rate(result):
    text = f"{result['win_rate']:.3f} [{result['ci_low']:.3f}, {result['ci_high']:.3f}]"
    roles = result.get("by_role", {})
    if roles:
        text += " (" + ", ".join(f"{role} {split['win_rate']:.3f}" for role, split in roles.items()) + ")"
    return text


def _load_text(row):
    load = row.get("load")  # runs stored before the sampler have none
    text = f", load average {load['mean']} (max {load['max']}) on {os.cpu_count()} cores" if load else ""
    if "numba_threads" in row:  # two runs side by side each take one thread (NUMBA_NUM_THREADS=1)
        text += f", numba threads {row['numba_threads']}"
    return text


#: What the runs above stand on: the levers already pulled, for reading a missed target.
TRIED = ["What these runs use: batched self-play (`--backend vector`, 64 games), the per-game presets "
         "(training/presets.py: network, shaping rewards the envs offer, gamma, entropy) and an opponent pool of "
         "random, heuristic and snapshot opponents at the preset's odds (given per game below where the run "
         "recorded them; the warm start's common odds are {warm}, runs from random weights used {pool}; until the "
         "first snapshot, random and heuristic only). Learner steps per minute are set by the PPO update, the Python heuristic opponents "
         "and the snapshots' small forwards: benchmarks/results/training_speed.md says how much of each.",
         "",
         "Runs with a warm start (the `+ N cloned` in the steps column) first cloned that many heuristic "
         "decisions into the policy (training/imitation.py: behaviour cloning, then DAgger rounds in which the "
         "cloned policy plays and the heuristic labels the positions it reaches; the time counts in the budget) "
         "and squash the observation with symlog before the first layer (training/networks.py); their curve's "
         "row at step 0 is the cloned policy before any PPO update. Runs without it started from random "
         "weights on raw observations and report their last policy; warm-started runs report the best of their "
         "evaluations (200 games against heuristic agents each, training.selfplay's best.zip), measured again on "
         "other games."]


def _beats(result, bar):
    """Above the bar with the whole 95% interval."""
    return result["ci_low"] > bar


def random_bar(row):
    """What random play wins in the policy's seat against random players (the random_vs_random
    line; the fair share for runs stored before it)."""
    return row["random_vs_random"]["win_rate"] if "random_vs_random" in row else row["fair_share"]


def _beats_random(row):
    return _beats(row["ppo_vs_random"], random_bar(row))


def heuristic_bar(row):
    """The win rate against heuristic agents that beats them: the fair share, or what a heuristic
    agent itself wins in that seat when it is higher. Where several seats can win one game (Teufel
    Teufel: everyone who leaves the board before daybreak or the last disc) a seat's share when
    every seat plays alike is above 1 / players, and only the heuristic's own rate says what par is."""
    own = row.get("heuristic_vs_heuristic", {}).get("win_rate", 0.0)
    return max(row["fair_share"], own)


def _beats_heuristic(row):
    return row["ppo_vs_heuristic"]["win_rate"] > heuristic_bar(row)


def _bar_source(row):
    return "the heuristic's own rate" if heuristic_bar(row) > row["fair_share"] else "the fair share"


def targets(rows):
    """The issue's targets, met or missed, from the stored runs."""
    competitive = {e: r for e, r in rows.items() if "ppo_vs_random" in r}
    out = []
    for env_id, row in competitive.items():
        fair, vs_random = row["fair_share"], row["ppo_vs_random"]
        bar = (f"a random agent in that seat wins {random_bar(row):.3f}, fair share {fair:.3f}" if "random_vs_random" in row
               else f"fair share {fair:.3f}")
        out.append(f"- {env_id}: against random players {vs_random['win_rate']:.3f} ({bar}; "
                   f"{'beats random' if _beats_random(row) else 'does NOT beat random'}, margin "
                   f"{vs_random['win_rate'] - random_bar(row):+.3f}); against heuristic "
                   f"agents {row['ppo_vs_heuristic']['win_rate']:.3f} "
                   f"({'above' if _beats_heuristic(row) else 'not above'} the bar {heuristic_bar(row):.3f}: "
                   f"{_bar_source(row)}), "
                   f"{row['timesteps']:,} steps in {row['minutes']} minutes{_load_text(row)}{_chosen(row)}.")
    games = {e: r for e, r in competitive.items() if e in envs.ENV_IDS}  # runs at another count are named apart
    beaten = sum(_beats_heuristic(r) for r in games.values())
    out.append(f"- Beats the heuristic in {beaten} of {len(games)} competitive games at their benchmark player "
               f"counts (target: at least 3 of 4): {'met' if beaten >= 3 else 'MISSED'}; above the bar "
               f"with the whole 95% interval in {sum(_beats(r['ppo_vs_heuristic'], heuristic_bar(r)) for r in games.values())}.")
    for env_id, row in rows.items():
        if "team_success_ppo" in row:
            ppo, heuristic = row["team_success_ppo"]["win_rate"], row["team_success_heuristic"]["win_rate"]
            out.append(f"- {env_id}: PPO team {ppo:.3f} against the heuristic team's {heuristic:.3f} "
                       f"(target: at least as good): {'met' if ppo >= heuristic else 'MISSED'}; "
                       f"{row['timesteps']:,} steps in {row['minutes']} minutes{_load_text(row)}{_chosen(row)}.")
    return out


def report(rows):
    """The results page, from every game's stored run (each names its own command and run time)."""
    games = sorted({row["eval_games"] for row in rows.values()})
    lines = ["# Learning: batched MaskablePPO self-play against the baselines", "",
             "Each game was run by `python -m benchmarks.learning --env <env id> ...` (the exact commands, "
             "the machine and the run time are given per game below) and trained on a fixed wall-clock budget with its preset "
             "(training/presets.py); the budget counts rollouts, updates and the periodic evaluations. Then "
             f"{'/'.join(map(str, games))} games per line with the policy sampling from its masked distribution. "
             "A seat wins when its final return is positive and the highest at the table (Secret Hitler: its team "
             "wins); the fair share is a seat's win rate when every seat plays alike (1 / players unless the game "
             "says otherwise). *Random vs random* is a random agent in the policy's seat against random players on the "
             "policy's seeds, the bar for beating random play (below the fair share in Secret Hitler, whose random "
             "team-mates lose for a liberal). *Beats heuristic* asks for more than the fair share and more than a heuristic "
             "agent wins in the same seat against the same opponents (the heuristic vs heuristic column): where "
             "several seats can win one game (Teufel Teufel: all who leave the board in time) the latter is the "
             "real par. 95% Wilson intervals in brackets.", "", "## Competitive games", "",
             "| env | players | steps | minutes | PPO vs random | PPO vs heuristic | heuristic vs random | "
             "heuristic vs heuristic | random vs random | fair share | beats heuristic |",
             "|---|---:|---:|---:|---|---|---|---|---|---:|---|"]
    for env_id, row in rows.items():
        if "ppo_vs_random" not in row:
            continue
        beats = _beats_heuristic(row)
        lines.append(f"| {env_id} | {row['players']} | {_steps(row)} | {row['minutes']} | "
                     f"{_rate(row['ppo_vs_random'])} | {_rate(row['ppo_vs_heuristic'])} | "
                     f"{_rate(row['heuristic_vs_random'])} | "
                     f"{_rate(row['heuristic_vs_heuristic']) if 'heuristic_vs_heuristic' in row else '-'} | "
                     f"{_rate(row['random_vs_random']) if 'random_vs_random' in row else '-'} | "
                     f"{row['fair_share']:.3f} | {'yes' if beats else 'no'} |")
    coop = {e: r for e, r in rows.items() if "team_success_ppo" in r}
    if coop:
        lines += ["", "## The cooperative game", "",
                  "| env | players | steps | minutes | team success, PPO | team success, heuristic |",
                  "|---|---:|---:|---:|---|---|"]
        for env_id, row in coop.items():
            lines.append(f"| {env_id} | {row['players']} | {_steps(row)} | {row['minutes']} | "
                         f"{_rate(row['team_success_ppo'])} | {_rate(row['team_success_heuristic'])} |")
    lines += ["", "## Against the targets (issue 15)", ""] + targets(rows) + ["", *(line.format(pool=" / ".join(map(str, DEFAULT_POOL_WEIGHTS)),
                                                                                warm=" / ".join(map(str, WARM_START["pool_weights"])))
                                                                    for line in TRIED), ""]
    if READING.exists():  # what was tried and what the curves suggest, written by hand after the runs
        lines += [READING.read_text().rstrip(), ""]
    lines += ["", "## Learning curves", ""]
    for env_id, row in rows.items():
        keys = [k for k in row["history"][0] if k.startswith("win_rate")]
        added = row.get("baseline_commands", {})
        if "baseline_command" in row:  # runs whose heuristic line was added before --add-baselines
            added = {"heuristic_vs_heuristic": row["baseline_command"], **added}
        baseline = "".join(f" The {name.replace('_vs_', '-against-').replace('_', ' ')} line was added later by "
                           f"`{command}`." for name, command in added.items())
        warm = row.get("imitation")
        warm = (f" Warm start: {warm['samples']:,} heuristic decisions cloned in {warm['rounds']} rounds "
                f"(agreement with the heuristic {warm['agreement']:.2f}, {warm['minutes']} minutes); step 0 is "
                f"the cloned policy." if warm else "")
        chosen = (f" The policy measured above is the run's best by its evaluations against heuristic agents, "
                  f"the one of step {row['evaluated_timesteps']:,} (final games on other seeds)."
                  if "evaluated_timesteps" in row else " The policy measured above is the run's last.")
        pool = (" Opponent pool (random / heuristic / snapshot odds per seat): "
                f"{' / '.join(map(str, row['pool_weights']))}." if "pool_weights" in row else "")
        pool += (" Policy head: pointer (one shared scorer for the actions that pick a square, space, card or player; "
                 "training/networks.py)." if row.get("policy_head") == "pointer" else "")
        lines += [f"### {env_id}", "",
                  f"`{row['bench_command']}`, which trained with `{row['command']}`.{baseline}{warm}{pool}{chosen}", "",
                  f"Machine: {row['machine']}. Run {row['started']} UTC, {row['total_minutes']} minutes in all "
                  f"(training and {row['eval_games']} evaluation games per line){_load_text(row)}.", "",
                  "| steps | " + " | ".join(k.replace("win_rate_", "").replace("_", " ") for k in keys) + " |",
                  "|---:|" + "---:|" * len(keys)]
        lines += [f"| {h['timesteps']:,} | " + " | ".join(f"{h.get(k, float('nan')):.2f}" for k in keys) + " |"
                  for h in row["history"]]
        lines += ["", f"![learning curve](learning_{env_id}.png)", ""]
    return "\n".join(lines) + "\n"


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=25.0, help="training budget per game")
    parser.add_argument("--games", type=int, default=1000, help="evaluation games per line")
    parser.add_argument("--env", action="append", help="an env id (repeat; default: all)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--players", type=int, help="player count (one --env only; default: PLAYERS)")
    parser.add_argument("--add-baselines", action="store_true",
                        help="only add the lines played without the policy (BASELINES: heuristic against "
                             "heuristic, random against random) that stored runs lack, without training again")
    args = parser.parse_args(argv)
    env_ids = args.env or list(envs.ENV_IDS)
    unknown = [e for e in env_ids if e not in envs.ENV_IDS]
    if unknown or args.minutes <= 0 or args.games < 1:
        parser.error(f"unknown env ids {unknown}" if unknown else "--minutes and --games must be positive")
    if args.players is not None and len(env_ids) != 1:
        parser.error("--players needs exactly one --env")
    for env_id in env_ids:
        players = args.players or default_players(env_id)
        if args.add_baselines:
            add_baselines(env_id, players, args.seed, command_line("benchmarks.learning", argv))
            continue
        started, clock = time.strftime("%Y-%m-%d %H:%M", time.gmtime()), time.perf_counter()
        with LoadSampler() as load:
            row = measure(env_id, players, args.minutes, args.games, args.seed)
        row.update(machine=machine_line(), started=started, eval_games=args.games, load=load.summary(),
                   numba_threads=numba.config.NUMBA_NUM_THREADS,
                   bench_command=f"python -m benchmarks.learning --env {env_id} --minutes {args.minutes:g} "
                                 f"--games {args.games} --seed {args.seed}"
                                 + (f" --players {args.players}" if args.players else ""),
                   total_minutes=round((time.perf_counter() - clock) / 60, 1))
        RUNS.mkdir(parents=True, exist_ok=True)
        name = run_name(env_id, players)
        (RUNS / f"{name}.json").write_text(json.dumps(row, indent=1) + "\n")
        print(json.dumps(flat({name: row})), flush=True)
        write_pages()


def add_baselines(env_id, players, seed, command):
    """The ``BASELINES`` lines a stored run lacks (the command that added them kept per line), on
    the run's own final seeds."""
    path = RUNS / f"{run_name(env_id, players)}.json"
    if not path.exists() or envs.game_of(env_id).simultaneous:
        raise SystemExit(f"no stored run of a competitive game at {path}")
    row = json.loads(path.read_text())
    for name in BASELINES:
        if name not in row:
            # (no observation options: the competitive games' presets set none, and a heuristic or
            # random agent plays the same game whatever its seat observes)
            row[name] = baseline(name, env_id, row["eval_games"], seed + FINAL_SEEDS, {"num_players": players})
            row.setdefault("baseline_commands", {})[name] = command
    path.write_text(json.dumps(row, indent=1) + "\n")
    write_pages()


def write_pages():
    """learning.md and learning.json from every stored run (games can be run one at a time)."""
    # Sorted by name, so a game's other player counts follow its default run.
    rows = {path.stem: json.loads(path.read_text()) for path in sorted(RUNS.glob("*.json"))}
    (RESULTS / "learning.json").write_text(json.dumps(flat(rows), indent=2) + "\n")
    write_result("learning", report(rows))


if __name__ == "__main__":
    main()
