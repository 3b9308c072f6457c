"""Learner steps per second of MaskablePPO self-play: the batched (vector) and per-process (aec) backends.

    python -m benchmarks.training_speed [--updates 3] [--games teufel_teufel_v0,...]

For every game, both backends train the same network with the same PPO settings (the game's
preset; 8192 samples per update: 64 batched games x 128 steps, or 2 env processes x 4096 steps)
against the same opponent pool, in two mixes: ``pool`` (random, heuristic and one frozen snapshot
at odds 0.3/0.3/0.4, the default) and ``no heuristic`` (random and snapshot, 0.5/0/0.5): a
heuristic written in Python (tens of us to 1 ms a decision) bounds the batched backend, a compiled
one (agents/heuristic: a few us, one call per wave) much less.
After one untimed update (numba and torch warm up), ``--updates`` updates are timed; learner steps
per second count rollout and update together. The time is split into the env's step (for the
vector backend further into the numba engine, the heuristic agents and the batched snapshot
forwards), the policy's forward during the rollout, and the PPO update.

Writes benchmarks/results/training_speed.md and training_speed.json; ``--render`` rebuilds the page
from the JSON without measuring.

The *ceiling* column is the ratio the batched backend would reach if its rollout (engine,
opponents, the learner's forward) cost nothing: the aec backend's time per sample over the
vector backend's PPO update time per sample. Where it is near or below 10x, the target is out of
reach on this machine whatever the env does.
"""

import argparse
import json
import pathlib
import tempfile
import time

import envs
from training.presets import DEFAULT_POOL_WEIGHTS

from .common import RESULTS, LoadSampler, command_line, machine_line, write_result

#: What the latest run in training_speed.json says, written by hand after it (kept apart from the
#: figures so that --render rebuilds the same page).
READING = """
- **The target is met in 2 of 10 rows** (Secret Hitler with the pool 11.7x, Volle Socke with the
  pool 10.2x; Volle Socke without the heuristic 10.0x, just under) and missed in Teufel Teufel
  (6.0-6.7x), Volles Fass voraus (6.8-8.4x) and Voll auf die 18 (4.8-4.9x). The *ceiling* column
  says why: where it is near 10x or below (Voll auf die 18 6.3-6.6x, Teufel 10.7-11.2x, Fass
  10.5x with the pool) the PPO update alone takes a tenth of the aec backend's time a sample or
  more, whatever the batched rollout costs. The update is 51-75% of the vector backend's time.
- **What changed since *before*:** the code, by one thing: Adam's multi-tensor kernels
  (training/networks.py `OPTIMIZER_KWARGS`: one optimiser step of the 256-wide Teufel Teufel
  network 8.1 -> 3.5 ms, 32 steps an update). And the machine: this run's AMD EPYC ran the aec
  backend 1.5-2.3x slower than the *before* run's Intel Xeon, the vector backend 1.2-1.6x slower, so
  most of the ratios' rise is the machine's, not the code's. Steps/s are not comparable across the
  two.
- **Noise:** one timed update (8,192 samples) per game, backend and pool. An earlier run on an AMD
  EPYC machine (before the Adam change) measured Secret Hitler without the heuristic at 11.1x where
  this one has 7.9x; read single rows as +-30%.
- **Where the next factor is:** the update itself. A cProfile of one Teufel Teufel update (32
  minibatches of 1,024, one thread, before the Adam change): backward 30%, the first layer's
  forward over the 2,977-wide observation 18%, the pointer head's forward 17%, the entity rows and
  symlog ~12%, Adam 11%, gradient clipping 3%. Then the snapshots' forwards (14-23% of the vector
  backend's time).
"""

SAMPLES_PER_UPDATE = 8192
SETTINGS = {"vector": {"num_envs": 64}, "aec": {"num_envs": 2}}
POOLS = {"pool": ",".join(map(str, DEFAULT_POOL_WEIGHTS)), "no heuristic": "0.5,0,0.5"}


class _StepTimer:
    """A VecEnv wrapper that adds up the time spent in ``step``."""

    def __new__(cls, venv):
        from stable_baselines3.common.vec_env import VecEnvWrapper

        class Timed(VecEnvWrapper):
            seconds = 0.0

            def reset(self):
                return self.venv.reset()

            def step_wait(self):
                started = time.perf_counter()
                result = self.venv.step_wait()
                Timed.seconds += time.perf_counter() - started
                return result

            def step_async(self, actions):
                started = time.perf_counter()
                self.venv.step_async(actions)
                Timed.seconds += time.perf_counter() - started

        return Timed(venv)


def measure(env_id, backend, updates, pool, seed=0, torch_threads=None):
    """Learner steps/s and where the time went, for one game and backend (torch's threads: the
    backend's training.selfplay default unless given)."""
    from stable_baselines3.common.callbacks import BaseCallback

    from training import selfplay

    num_envs = SETTINGS[backend]["num_envs"]
    with tempfile.TemporaryDirectory() as folder:
        out = pathlib.Path(folder) / "run"
        args = selfplay.parse_args([env_id, "--backend", backend, "--num-envs", str(num_envs), "--out", str(out),
                                    "--n-steps", str(SAMPLES_PER_UPDATE // num_envs), "--seed", str(seed),
                                    "--pool-weights", POOLS[pool]]
                                   + (["--torch-threads", str(torch_threads)] if torch_threads else []))
        import torch

        torch.set_num_threads(args.torch_threads)
        (out / "pool").mkdir(parents=True)
        if backend == "vector":
            batch, env = selfplay.make_batched_env(env_id, num_envs, seed, args.config, args.pool_weights)
        else:
            batch = None
            env = selfplay.make_vec_env(env_id, num_envs, out / "pool", seed, args.config,
                                        selfplay._available_weights(env_id, args.pool_weights))
        env = _StepTimer(env)
        model = selfplay._new_model(args, env, out)
        selfplay.add_snapshot(model, batch, out)  # the pool holds one frozen opponent, as in a real run

        class Phases(BaseCallback):
            rollout = 0.0

            def _on_rollout_start(self):
                self.started = time.perf_counter()

            def _on_rollout_end(self):
                Phases.rollout += time.perf_counter() - self.started

            def _on_step(self):
                return True

        threads = [selfplay.UpdateThreads(args.torch_threads)] if backend == "vector" else []  # as training does
        model.learn(SAMPLES_PER_UPDATE, callback=threads, reset_num_timesteps=False)  # warm-up: compile, first forward
        type(env).seconds = 0.0
        if batch is not None:
            batch.timings = dict.fromkeys(batch.timings, 0.0)
        before = model.num_timesteps
        started, cpu_started = time.perf_counter(), time.process_time()
        model.learn(updates * SAMPLES_PER_UPDATE, callback=[*threads, Phases()], reset_num_timesteps=False)
        total = time.perf_counter() - started
        cpu = time.process_time() - cpu_started  # this process only: the aec env processes are not in it
        steps = model.num_timesteps - before
        env.close()
    env_seconds = type(env).seconds
    split = {"env": env_seconds, "forward": Phases.rollout - env_seconds, "update": total - Phases.rollout}
    if batch is not None:
        split |= {f"env.{k}": v for k, v in batch.timings.items()}
    return {"steps_per_s": steps / total, "steps": steps, "seconds": total, "cpu_seconds": cpu,
            "torch_threads": args.torch_threads, "share": {k: v / total for k, v in split.items()}}


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--updates", type=int, default=3, help="timed PPO updates per game and backend")
    parser.add_argument("--games", default=",".join(envs.ENV_IDS), help="comma-separated env ids")
    parser.add_argument("--render", action="store_true", help="rebuild the page from training_speed.json only")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="torch threads for both backends (default: each backend's training.selfplay default)")
    parser.add_argument("--before", type=pathlib.Path, default=None,
                        help="an earlier run's training_speed.json: its figures become the page's 'before' columns")
    args = parser.parse_args(argv)
    if args.render:
        saved = json.loads((RESULTS / "training_speed.json").read_text())
        write_result("training_speed", report(saved["results"], saved["command"], saved["minutes"], saved["load"],
                                              saved.get("before"), saved["machine"]))
        return
    before = json.loads(args.before.read_text()) if args.before else None
    if before is not None:
        before.pop("before", None)  # one generation back only
    if args.updates < 1:
        parser.error("--updates must be at least 1")
    env_ids = [e for e in args.games.split(",") if e]
    unknown = [e for e in env_ids if e not in envs.ENV_IDS]
    if unknown:
        parser.error(f"unknown env ids {unknown}; valid: {list(envs.ENV_IDS)}")
    started = time.perf_counter()
    results = {}
    with LoadSampler() as load:
        for env_id in env_ids:
            for pool in POOLS:
                r = results.setdefault(env_id, {})[pool] = {
                    backend: measure(env_id, backend, args.updates, pool, torch_threads=args.torch_threads)
                    for backend in ("aec", "vector")}
                r["ratio"] = r["vector"]["steps_per_s"] / r["aec"]["steps_per_s"]
                print(f"{env_id} ({pool}): aec {r['aec']['steps_per_s']:.0f}/s, "
                      f"vector {r['vector']['steps_per_s']:.0f}/s, x{r['ratio']:.1f}", flush=True)
    minutes = (time.perf_counter() - started) / 60
    command = command_line("benchmarks.training_speed", argv)
    (RESULTS / "training_speed.json").write_text(json.dumps(
        {"command": command, "machine": machine_line(), "minutes": minutes, "load": load.summary(),
         "results": results, "before": before}, indent=2))
    write_result("training_speed", report(results, command, minutes, load.summary(), before))


def _threads_text(results):
    """Torch's threads per backend, as the run used them (runs stored before they were kept: 1 each)."""
    used = {backend: sorted({r[backend].get("torch_threads", 1) for by_pool in results.values()
                             for r in by_pool.values()}) for backend in ("aec", "vector")}
    return (" Torch threads: aec " + "/".join(map(str, used["aec"])) + ", vector " + "/".join(map(str, used["vector"]))
            + " in the update (training.selfplay's defaults unless the command sets `--torch-threads`); the vector"
            " backend's rollouts run on one (training.selfplay.UpdateThreads).")


def _share(result, key):
    return f"{100 * result['share'].get(key, 0.0):.0f}%"


def ceiling(r):
    """vector / aec if the vector rollout were free: aec seconds per sample / vector update seconds per sample."""
    aec_per_sample = r["aec"]["seconds"] / r["aec"]["steps"]
    update_per_sample = r["vector"]["share"]["update"] * r["vector"]["seconds"] / r["vector"]["steps"]
    return aec_per_sample / update_per_sample


def _before_cells(before, env_id, pool):
    """The earlier run's vector steps/s and ratio for this row ('-' where it has none)."""
    old = (before or {}).get("results", {}).get(env_id, {}).get(pool)
    if old is None:
        return ["-", "-"]
    return [f"{old['vector']['steps_per_s']:,.0f}", f"{old['ratio']:.1f}x"]


def report(results, command, minutes, load, before=None, machine=None):
    """The page; ``machine``: the one the results were measured on (default: this one)."""
    lines = ["# Training speed: batched (vector) against per-process (aec) self-play", "",
             f"Machine: {machine or machine_line()}. Command: `{command}`; took {minutes:.1f} minutes, load average "
             f"{load['mean']} (max {load['max']}; the aec backend itself runs 2 env processes).", "",
             f"Same network and PPO settings per game (its preset, {SAMPLES_PER_UPDATE} samples per update: "
             "64 batched games x 128 steps against 2 env processes x 4096 steps), same opponents for both "
             "backends: *pool* is random / heuristic / one frozen snapshot at odds 0.3 / 0.3 / 0.4, *no "
             "heuristic* is random / snapshot at 0.5 / 0.5. Learner steps per second include the rollout and "
             "the PPO update. Target: vector >= 10x aec in every game. *Ceiling*: the ratio if the batched "
             "rollout cost nothing (aec time per sample / the vector backend's PPO update time per sample): "
             "the update alone bounds the ratio there. *Vector CPU*: the vector process's CPU time over its "
             "wall time (below 100%: other load took part of its core; the aec backend's 3 processes get a "
             "larger share of a loaded machine than the vector backend's one)." + _threads_text(results), ""]
    if before:
        lines += [f"*Before*: the same benchmark before this change (`{before['command']}` on {before['machine']}, "
                  f"{before['minutes']:.1f} minutes, load average {before['load']['mean']} (max "
                  f"{before['load']['max']})): the vector backend's steps/s and its ratio to that run's aec backend "
                  "(steps/s compare only on the same machine, the ratios only roughly: the two backends need "
                  "not slow down alike on another machine).", ""]
    lines += ["| env | opponents | aec steps/s | vector steps/s | vector / aec | ceiling | vector CPU | target met "
              "| before: vector steps/s | before: vector / aec |",
              "|---|---|---:|---:|---:|---:|---:|---|---:|---:|"]
    for env_id, by_pool in results.items():
        for pool, r in by_pool.items():
            vector = r["vector"]
            cpu = f"{100 * vector['cpu_seconds'] / vector['seconds']:.0f}%" if "cpu_seconds" in vector else "-"
            lines.append(f"| {env_id} | {pool} | {r['aec']['steps_per_s']:,.0f} | {vector['steps_per_s']:,.0f} | "
                         f"{r['ratio']:.1f}x | {ceiling(r):.1f}x | {cpu} | {'yes' if r['ratio'] >= 10 else 'no'} | "
                         f"{' | '.join(_before_cells(before, env_id, pool))} |")
    lines += ["", "## Where the time goes", "",
              "Shares of the timed run. *env*: the VecEnv's step (opponents included); for the vector backend "
              "split into the numba engine (learner and random-opponent moves, views), the heuristic agents "
              "(one compiled call per wave where the game's strategy is compiled, else a Python call a decision) "
              "and the snapshots' batched forwards. *forward*: the learner policy during the rollout "
              "(plus SB3's rollout bookkeeping). *update*: PPO's gradient epochs.", "",
              "| env | opponents | backend | env | engine | heuristic | snapshot | forward | update |",
              "|---|---|---|---:|---:|---:|---:|---:|---:|"]
    for env_id, by_pool in results.items():
        for pool, r in by_pool.items():
            for backend in ("aec", "vector"):
                x = r[backend]
                detail = [_share(x, f"env.{k}") if backend == "vector" else "-"
                          for k in ("engine", "heuristic", "snapshot")]
                lines.append(f"| {env_id} | {pool} | {backend} | {_share(x, 'env')} | {' | '.join(detail)} | "
                             f"{_share(x, 'forward')} | {_share(x, 'update')} |")
    return "\n".join(lines + ["", "## Reading", "", READING.strip()]) + "\n"


if __name__ == "__main__":
    main()
