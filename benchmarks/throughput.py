"""Throughput of random legal-action rollouts: every env id, every API, and peers in the same run.

    python -m benchmarks.throughput [--quick] [--before OLD.json --before-label TEXT]

Rows (decisions per second, median of repeats after a warm-up):
  aec        PettingZoo AEC loop (agent_iter / last / step), actions drawn from the mask in Python
  parallel   the Parallel API (turn-based games through PettingZoo's turn-based conversion)
  engine     one game, the whole loop in numba (mask, random choice, step, observation)
  vec-py B   VectorGame of B games driven from Python: actions drawn from the returned masks
  vec-nb B   VectorGame.random_steps: the whole loop in numba, as Pgx keeps it under jax.jit
Each VectorGame row is measured with 1 thread and with all cores. Peers: PettingZoo classic
games through the same AEC loop; OpenSpiel through pyspiel (legal_actions / apply_action, no
observation tensors); Pgx batched under jax.jit when pgx and jax are installed.
``--before`` adds the rows of an earlier run's throughput.json (e.g. the one committed before a
rules change: ``git show <commit>:benchmarks/results/throughput.json > old.json``) as a column
beside this run's, with the ratio, so a change's cost is read off one page.
Writes benchmarks/results/throughput.md, throughput.json and throughput.png.
"""

import argparse
import json
import time

import numba
import numpy as np

import envs
from envs.core.vector import VectorGame

from .common import LoadSampler, command_line, fmt_rate, machine_line, median_rate, write_result

COMMON_PLAYERS = {"secret_hitler_v0": (5, 7, 10), "voll_auf_die_18_v0": (2, 4), "volles_fass_voraus_v0": (2, 4),
                  "teufel_teufel_v0": (2, 4, 6), "volle_socke_v0": (2, 4, 8)}


# ---- loops ---------------------------------------------------------------------------------


def aec_loop(env, decisions, rng):
    """Random legal play through the AEC API until ``decisions`` actions were taken."""
    done = 0
    while done < decisions:
        env.reset(seed=int(rng.integers(2**31)))
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(legal[rng.integers(legal.size)]))
            done += 1
    return done


def parallel_loop(env, steps, rng):
    done = 0
    while done < steps:
        observations, _ = env.reset(seed=int(rng.integers(2**31)))
        while env.agents and done < steps:
            actions = {}
            for agent in env.agents:
                legal = np.flatnonzero(observations[agent]["action_mask"])
                actions[agent] = int(legal[rng.integers(legal.size)]) if legal.size else 0
            observations, *_ = env.step(actions)
            done += 1
    return done


def vector_python_loop(vg, steps, rng):
    obs, mask, *_ = vg.step(_sample(vg.action_mask, rng))
    for _ in range(steps - 1):
        obs, mask, *_ = vg.step(_sample(mask, rng))
    return steps * vg.num_envs


def _sample(mask, rng):
    # Uniform over the legal actions: the largest of iid uniforms restricted to the mask.
    return (rng.random(mask.shape, np.float32) * mask).argmax(-1)


def pyspiel_loop(game, decisions, rng):
    done = 0
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes, probs = zip(*state.chance_outcomes())
                state.apply_action(outcomes[rng.choice(len(outcomes), p=probs)])
                continue
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
            done += 1
    return done


# ---- measurements --------------------------------------------------------------------------


def measure_env(env_id, players, quick, rows):
    rng = np.random.default_rng(0)
    repeats = 3 if quick else 5
    scale = 1 if quick else 4
    game = envs.game_of(env_id)
    label = f"{env_id} ({players}p)"
    if game.simultaneous:
        par = envs.make_parallel(env_id, num_players=players)
        rows.append((label, "parallel", median_rate(lambda: parallel_loop(par, 3000 * scale, rng), repeats)))
        aec = envs.make(env_id, num_players=players)
        rows.append((label, "aec", median_rate(lambda: aec_loop(aec, 3000 * scale, rng), repeats)))
    else:
        aec = envs.make(env_id, num_players=players)
        rows.append((label, "aec", median_rate(lambda: aec_loop(aec, 5000 * scale, rng), repeats)))
        par = envs.make_parallel(env_id, num_players=players)
        rows.append((label, "parallel", median_rate(lambda: parallel_loop(par, 3000 * scale, rng), repeats)))
    single = VectorGame(env_id, 1, seed=0, num_players=players)
    single.reset()
    numba.set_num_threads(1)
    rows.append((label, "engine", median_rate(lambda: single.random_steps(20_000 * scale), repeats)))
    sizes = (1, 1024, 16384, 65536)
    for threads in (1, numba.config.NUMBA_NUM_THREADS):
        numba.set_num_threads(threads)
        for size in sizes:
            vg = VectorGame(env_id, size, seed=0, num_players=players)
            vg.reset()
            steps = max(2, (200_000 * scale) // size)
            rows.append((label, f"vec-nb {size} x{threads}t", median_rate(lambda: vg.random_steps(steps), repeats)))
            py_steps = max(2, (50_000 * scale) // size)
            rows.append((label, f"vec-py {size} x{threads}t",
                         median_rate(lambda: vector_python_loop(vg, py_steps, rng), repeats)))
    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)


def measure_peers(quick, rows):
    rng = np.random.default_rng(0)
    repeats = 3 if quick else 5
    scale = 1 if quick else 4
    try:
        from pettingzoo.classic import connect_four_v3, leduc_holdem_v4, texas_holdem_v4, tictactoe_v3

        for module in (tictactoe_v3, connect_four_v3, leduc_holdem_v4, texas_holdem_v4):
            env = module.env()
            name = module.__name__.rsplit(".", 1)[1]
            rows.append((f"PettingZoo {name}", "aec", median_rate(lambda: aec_loop(env, 3000 * scale, rng), repeats)))
    except ImportError as error:
        rows.append(("PettingZoo classic", f"not installed ({error.name})", None))
    try:
        import pyspiel

        for name in ("leduc_poker", "liars_dice", "connect_four", "tic_tac_toe"):
            game = pyspiel.load_game(name)
            rows.append((f"OpenSpiel {name}", "pyspiel",
                         median_rate(lambda: pyspiel_loop(game, 20_000 * scale, rng), repeats)))
    except ImportError:
        rows.append(("OpenSpiel", "not installed (pip install open-spiel)", None))
    measure_pgx(quick, rows)


def measure_pgx(quick, rows):
    try:
        import jax
        import jax.numpy as jnp
        import pgx
    except ImportError:
        rows.append(("Pgx", "not installed (pip install pgx jax)", None))
        return
    batch, steps = 1024, 50 if quick else 200
    for name in ("leduc_holdem", "connect_four"):
        env = pgx.make(name)

        def rollout(state, key):
            def body(_, carry):
                state, key = carry
                key, sub, reset_key = jax.random.split(key, 3)
                logits = jnp.where(state.legal_action_mask, 0.0, -jnp.inf)
                actions = jax.random.categorical(sub, logits, axis=-1)
                state = jax.vmap(env.step)(state, actions)
                fresh = jax.vmap(env.init)(jax.random.split(reset_key, batch))
                done = state.terminated | state.truncated
                state = jax.tree_util.tree_map(
                    lambda a, b: jnp.where(done.reshape((-1,) + (1,) * (a.ndim - 1)), b, a), state, fresh)
                return state, key

            return jax.lax.fori_loop(0, steps, body, (state, key))

        rollout = jax.jit(rollout)
        key = jax.random.PRNGKey(0)
        state = jax.vmap(env.init)(jax.random.split(key, batch))

        def run():
            out, _ = rollout(state, key)
            jax.block_until_ready(out)
            return batch * steps

        rows.append((f"Pgx {name}", f"jit batch {batch}", median_rate(run, 3)))


# ---- report --------------------------------------------------------------------------------


def report(rows, quick, elapsed, command, load, before=None, before_label=""):
    lines = ["# Throughput: random legal-action rollouts", "",
             f"Machine: {machine_line()}. Mode: {'quick' if quick else 'full'}; "
             f"run took {elapsed:.0f} s, load average {load['mean']} (max {load['max']}). Command: `{command}`.", "",
             "Decisions per second (median of repeats after a warm-up). `xNt`: numba threads.", ""]
    if before is None:
        lines += ["| env | path | decisions/s |", "|---|---|---:|"]
        lines += [f"| {env} | {path} | {fmt_rate(rate)} |" for env, path, rate in rows]
    else:
        old = {(env, path): rate for env, path, rate in before}
        lines += [f"*before*: {before_label}.", "", "| env | path | decisions/s | before | now / before |",
                  "|---|---|---:|---:|---:|"]
        for env, path, rate in rows:
            was = old.get((env, path))
            ratio = f"{rate / was:.2f}" if rate and was else "-"
            lines.append(f"| {env} | {path} | {fmt_rate(rate)} | {fmt_rate(was)} | {ratio} |")
        measured = {env for env, _, _ in rows}
        lines += [f"| {env} | {path} | not measured in this run | {fmt_rate(was)} | - |"
                  for (env, path), was in old.items() if env not in measured]
    lines += ["", "## Against the targets", "",
              "Where a target is missed, benchmarks/results/profile.md (`python -m benchmarks.profile`) shows where "
              "a decision's time goes.", ""] + targets(rows)
    return "\n".join(lines) + "\n"


def targets(rows):
    rate = {(env, path): r for env, path, r in rows if r is not None}
    tictactoe = rate.get(("PettingZoo tictactoe_v3", "aec"))
    leduc = rate.get(("OpenSpiel leduc_poker", "pyspiel"))
    pgx_best = max([r for (env, path), r in rate.items() if env.startswith("Pgx")], default=None)
    out = []
    for env in sorted({env for env, _, _ in rows if "(" in env}):
        aec = rate.get((env, "aec"))
        engine = rate.get((env, "engine"))
        vector = max([r for (e, path), r in rate.items() if e == env and path.startswith("vec-nb")], default=None)
        checks = []
        if aec and tictactoe:
            checks.append(f"AEC {aec / tictactoe:.2f}x PettingZoo tictactoe ({'met' if aec >= tictactoe else 'MISSED'})")
        if engine and leduc:
            checks.append(f"engine {engine / leduc:.2f}x OpenSpiel leduc ({'met' if engine > leduc else 'MISSED'})")
        if vector and aec:
            checks.append(f"best VectorGame {vector / aec:.0f}x own AEC ({'met' if vector >= 100 * aec else 'MISSED'}), "
                          f"{fmt_rate(vector)}/s vs 2 M target ({'met' if vector > 2e6 else 'MISSED'})")
        if vector and pgx_best:
            checks.append(f"{vector / pgx_best:.2f}x best Pgx row")
        out.append(f"- {env}: " + "; ".join(checks))
    return out


def plot(rows, path):
    from matplotlib.figure import Figure  # no pyplot: leaves the caller's backend (notebooks) alone

    shown = [(f"{env} {p}", r) for env, p, r in rows if r and (p in ("aec", "engine", "pyspiel") or "65536 x2t" in p
                                                                or "jit" in p)]
    fig = Figure(figsize=(9, 0.28 * len(shown) + 1.2))
    ax = fig.add_subplot()
    ax.barh([name for name, _ in shown], [r for _, r in shown], color="#4a78c2")
    ax.set_xscale("log")
    ax.set_xlabel("decisions per second (log)")
    ax.invert_yaxis()
    ax.tick_params(axis="y", labelsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="shorter runs, fewer repeats")
    parser.add_argument("--env", action="append", help="only these env ids (repeatable)")
    parser.add_argument("--no-peers", action="store_true")
    parser.add_argument("--before", type=argparse.FileType("r"), help="an earlier run's throughput.json to compare")
    parser.add_argument("--before-label", default="an earlier run", help="what the earlier run was, for the page")
    args = parser.parse_args(argv)
    try:
        before = json.load(args.before) if args.before else None
    except ValueError as error:
        parser.error(f"--before: not a throughput.json ({error})")
    start = time.perf_counter()
    rows = []
    with LoadSampler() as load:
        for env_id in args.env or envs.ENV_IDS:
            for players in COMMON_PLAYERS.get(env_id, (envs.game_of(env_id).default_players,)):
                print(f"measuring {env_id} with {players} players", flush=True)
                measure_env(env_id, players, args.quick, rows)
        if not args.no_peers:
            print("measuring peers", flush=True)
            measure_peers(args.quick, rows)
    command = command_line("benchmarks.throughput", argv)
    path = write_result("throughput", report(rows, args.quick, time.perf_counter() - start, command, load.summary(),
                                             before, args.before_label))
    path.with_suffix(".json").write_text(json.dumps(rows, indent=1))
    plot(rows, path.with_suffix(".png"))
    print(path.read_text())


if __name__ == "__main__":
    main()
