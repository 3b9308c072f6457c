"""`make demo`: the main job, sized to finish in under 10 minutes on 2 cores.

1. Every registered game played to the end by random agents: decisions per game, AEC and
   VectorGame throughput.
2. A tournament of random, heuristic and ISMCTS agents in every game (seats rotated), with win
   rates, 95% intervals and openskill ratings.
3. A short MaskablePPO self-play run (Volles Fass voraus, 2 players by default), ending with its
   win rates against random and heuristic agents.
4. The tables again, together, and a GIF replay of the trained policy.

    python -m training.demo [--games 50] [--tournament-games 12] [--ismcts ismcts:0.02s] [--train-steps 30000]
                            [--out runs/demo]
"""

import argparse
import pathlib
import time

import numpy as np

import envs
from agents.ismcts import parse_spec
from envs.core.game import engine_function
from envs.core.vector import VectorGame
from envs.testing.play import play_aec, play_parallel

TRAIN_GAME, TRAIN_PLAYERS = "volles_fass_voraus_v0", 2
# Tournament ISMCTS: the numba search (agents/ismcts.py) with a small time budget per decision.
ISMCTS_SPEC = "ismcts:0.02s"


# ---- 1. random play ------------------------------------------------------------------------


def random_play(env_id, games, seed):
    game = envs.game_of(env_id)
    env = envs.make_parallel(env_id) if game.simultaneous else envs.make(env_id)
    play = play_parallel if game.simultaneous else play_aec
    play(env, seed)  # first game outside the clock: numba loads or compiles here
    rng = np.random.default_rng(seed)
    lengths = []
    start = time.perf_counter()
    for g in range(games):
        decisions, _ = play(env, seed + g, rng)
        lengths.append(decisions)
    aec_rate = sum(lengths) / (time.perf_counter() - start)
    vg = VectorGame(env_id, 1024, seed=seed)
    vg.reset()
    vg.random_steps(5)
    start = time.perf_counter()
    vector_rate = vg.random_steps(100) / (time.perf_counter() - start)
    return {"env_id": env_id, "players": game.default_players, "games": games,
            "length": float(np.mean(lengths)), "aec_rate": aec_rate, "vector_rate": vector_rate}


def random_table(rows):
    lines = [f"{'game':<24}{'seats':>6}{'games':>7}{'decisions/game':>16}{'AEC steps/s':>14}{'VectorGame steps/s':>20}"]
    for r in rows:
        lines.append(f"{r['env_id']:<24}{r['players']:>6}{r['games']:>7}{r['length']:>16.1f}"
                     f"{r['aec_rate']:>14,.0f}{r['vector_rate']:>20,.0f}")
    return "\n".join(lines)


# ---- 2. tournament ------------------------------------------------------------------------


def tournament(env_id, games, seed, ismcts):
    from agents.heuristic import heuristic_for
    from training.evaluate import evaluate

    specs = ["random"]
    try:
        heuristic_for(env_id)
        specs.append("heuristic")
    except ValueError:
        pass
    if engine_function(envs.game_of(env_id).engine.STATE, "determinize") is not None:
        specs.append(ismcts)
    return evaluate(env_id, specs, games, seed=seed, progress=True)


# ---- 3. self-play -------------------------------------------------------------------------


def self_play(env_id, players, steps, out, seed):
    from training import selfplay

    args = selfplay.parse_args([env_id, "--players", str(players), "--timesteps", str(steps), "--out", str(out),
                                "--seed", str(seed),
                                "--eval-every", str(max(steps // 3, 1)), "--snapshot-every", str(max(steps // 3, 1)),
                                "--eval-games", "100", "--overwrite",
                                # a warm start the size of the demo: a third of the steps' worth of heuristic play
                                "--imitation-samples", str(max(steps // 3, 1)), "--imitation-epochs", "3"])
    _, history = selfplay.train(args)
    return history


def check_arguments(parser, args):
    """Every argument checked before any work starts (a usage error otherwise)."""
    for name in ("games", "tournament_games", "train_steps"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    kind, _, budget = args.ismcts.partition(":")
    try:
        if kind != "ismcts":
            raise ValueError(f"--ismcts takes an ISMCTS spec such as {ISMCTS_SPEC}, not {args.ismcts!r}")
        parse_spec(budget)
    except ValueError as error:
        parser.error(str(error))
    counts = envs.game_of(args.train_game).player_counts
    if args.train_players not in counts:
        parser.error(f"--train-players {args.train_players}: {args.train_game} is played by {list(counts)} players")
    if not 0 <= args.seed < 2**32:
        parser.error(f"--seed {args.seed}: choose an integer from 0 to 2**32 - 1")


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=30, help="random games per env id")
    parser.add_argument("--tournament-games", type=int, default=12, help="tournament games per env id")
    parser.add_argument("--ismcts", default=ISMCTS_SPEC, help="the ISMCTS agent's spec, e.g. ismcts:0.02s or ismcts:200 "
                        "(agents/ismcts.py)")
    parser.add_argument("--train-game", default=TRAIN_GAME, choices=list(envs.ENV_IDS), help="the game self-play trains on")
    parser.add_argument("--train-players", type=int, default=TRAIN_PLAYERS, help="seats in the self-play game")
    parser.add_argument("--train-steps", type=int, default=30_000, help="self-play training steps")
    parser.add_argument("--skip-training", action="store_true", help="stop after the tournament")
    parser.add_argument("--seed", type=int, default=0, help="seed of every game and of the training run")
    parser.add_argument("--out", default="runs/demo", help="output folder (default runs/demo)")
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    check_arguments(parser, args)
    if not envs.ENV_IDS:
        raise SystemExit("no games are registered yet")
    out = pathlib.Path(args.out)
    started = time.perf_counter()

    print("== 1. random play in every game", flush=True)
    rows = []
    for env_id in envs.ENV_IDS:
        rows.append(random_play(env_id, args.games, args.seed))
        print(f"   {env_id}: {rows[-1]['length']:.0f} decisions per game", flush=True)
    print(random_table(rows))

    print("\n== 2. tournament: random vs heuristic vs ISMCTS", flush=True)
    from training.evaluate import format_table, write_outputs

    tables = []
    for env_id in envs.ENV_IDS:
        results = tournament(env_id, args.tournament_games, args.seed, args.ismcts)
        write_outputs(env_id, results, out / "tournament")
        tables.append(format_table(env_id, results))
        print(tables[-1], flush=True)

    training_summary = "self-play skipped (--skip-training)"
    if not args.skip_training:
        print(f"\n== 3. self-play MaskablePPO on {args.train_game} ({args.train_steps} steps)", flush=True)
        history = self_play(args.train_game, args.train_players, args.train_steps, out / "selfplay", args.seed)
        first, last = history[0], history[-1]
        rates = ", ".join(f"{k.replace('win_rate_', '')} {last[k]:.2f}" for k in last if k.startswith("win_rate"))
        training_summary = (f"{args.train_game}: after {last['timesteps']} steps the policy wins {rates} "
                            f"(fair share {last['fair_share']:.2f}) "
                            f"(at {first['timesteps']} steps: "
                            f"{', '.join(f'{first[k]:.2f}' for k in first if k.startswith('win_rate'))}); "
                            f"curve in {out / 'selfplay' / 'learning_curve.png'}")
        from agents import RandomAgent
        from agents.policy import PolicyAgent, trained_observation
        from envs.core.play import record_gif

        checkpoint = out / "selfplay" / "checkpoint.zip"
        lineup = [PolicyAgent(checkpoint)] + [RandomAgent(seed=s) for s in range(1, args.train_players)]
        record_gif(args.train_game, lineup, out / "trained_policy.gif", seed=args.seed,
                   config={"num_players": args.train_players, **trained_observation(checkpoint, args.train_game)})

    print("\n== results")
    print(random_table(rows))
    print()
    print("\n\n".join(tables))
    print()
    print(training_summary)
    print(f"\nfinished in {time.perf_counter() - started:.0f} s; outputs in {out}/")


if __name__ == "__main__":
    main()
