"""Self-play training with sb3-contrib's MaskablePPO, on batched games by default.

    python -m training.selfplay volle_socke_v0 --timesteps 2000000 --out runs/vs
    python -m training.selfplay volle_socke_v0 --timesteps 4000000 --resume runs/vs
    python -m training.selfplay volle_socke_v0 --backend aec --num-envs 2     # the per-process path

Backends:

- ``vector`` (default): :class:`training.vector_env.LearnerVecEnv`, ``--num-envs`` games (64) in
  one record array stepped by numba. In each game the learner plays one seat (random each
  episode); every other seat is drawn per episode from the opponent pool (``--pool-weights``:
  random players, which move inside numba; the game's heuristic agent; frozen snapshots of the
  learner, taken every ``--snapshot-every`` steps, each acting in one batched forward). The
  cooperative Voll auf die 18 trains one shared policy on every seat of every game
  (:class:`training.vector_env.TeamVecEnv`).
- ``aec``: the earlier path, one :class:`training.wrappers.LearnerSeatEnv` per process
  (``--num-envs`` processes), opponents as Python agents; kept for comparison
  (``python -m benchmarks.training_speed``).

Hyperparameters come from the game's preset (:mod:`training.presets`, listed in the README);
every flag given overrides its preset value. Shaping rewards of the preset apply to training only
(``--no-shaping`` drops them): evaluation always plays the real game. Options of the preset that
change what a seat observes (``Option.observation``, e.g. Voll auf die 18's ``observe_hints``)
apply to training, cloning and evaluation alike: the policy reads the observation it learned on.

Every ``--eval-every`` steps the policy plays ``--eval-games`` games against random players and
against heuristic agents (the cooperative game: the policy in every seat, one team success
rate), sampling from its masked distribution (``--deterministic``: argmax); win rates go beside
the fair share (and per role where the game has roles) to ``<out>/learning.csv``, TensorBoard
(``<out>/tb``) and ``<out>/learning_curve.png``. Checkpoints (model + training state with the
random generators' states) are written atomically to ``<out>/checkpoint.zip`` /
``checkpoint_state.pt`` at the same cadence, and the policy that has scored best in them so far
(against heuristic agents where the game has them) to ``<out>/best.zip``. ``--resume <out>``
continues from them and refuses a different game or player count; an existing ``--out`` is
refused unless ``--overwrite``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import pathlib
import random
import shutil
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numba
import numpy as np
import torch
from stable_baselines3.common.callbacks import BaseCallback, CallbackList

import envs
from agents import RandomAgent
from agents.heuristic import has_heuristic
from agents.policy import PolicyAgent, load_model
from training.evaluate import evaluate
from training.networks import policy_spec
from training.presets import ACTION_ENTITIES, DEFAULT_POOL_WEIGHTS, KNOBS, preset_for
from training.wrappers import make_training_env

if TYPE_CHECKING:
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import VecEnv

    from agents import Agent

BACKENDS = ("vector", "aec")
# knobs that runs saved before them did not record, as those runs had them
LEGACY_DEFAULTS = {"shared_layers": 0, "imitation_samples": 0, "imitation_epochs": 0, "obs_squash": "none",
                   "policy_head": "flat", "anchor_coef": 0.0}
RUN_FILES = ("checkpoint.zip", "checkpoint_state.pt", "args.json", "learning.csv", "learning_curve.png",
             "imitation.json", "best.zip", "best.json", "anchor.zip")


# ---- the opponent pool of the aec backend ----------------------------------------------------


class OpponentPool:
    """Draws an opponent per seat per episode: random, heuristic, or a frozen snapshot.

    Snapshots are read from ``pool_dir`` as they appear (the trainer writes them), so envs in
    subprocesses see new ones without any message passing.
    """

    def __init__(self, env_id: str, pool_dir: str | os.PathLike, seed: int | None,
                 weights: Sequence[float] = DEFAULT_POOL_WEIGHTS) -> None:
        self.env_id = env_id
        self.pool_dir = pathlib.Path(pool_dir)
        self.rng = np.random.default_rng(seed)
        self.weights = weights
        self._loaded = {}
        self.has_heuristic = has_heuristic(env_id)

    def __call__(self) -> Agent:
        snapshots = sorted(self.pool_dir.glob("snapshot_*.zip")) if self.pool_dir.exists() else []
        kinds = ["random", "heuristic", "snapshot"]
        weights = np.array(self.weights, float) * [1, self.has_heuristic, bool(snapshots)]
        kind = kinds[self.rng.choice(3, p=weights / weights.sum())]
        seed = int(self.rng.integers(2**31))
        if kind == "random":
            return RandomAgent(seed=seed)
        if kind == "heuristic":
            from agents.heuristic import heuristic_for

            return heuristic_for(self.env_id, seed=seed)
        path = snapshots[self.rng.integers(len(snapshots))]
        if path not in self._loaded:
            self._loaded[path] = load_model(path)
        return PolicyAgent(self._loaded[path], deterministic=False)


def _make_env_fn(env_id, pool_dir, seed, config, weights):
    def make():
        from stable_baselines3.common.monitor import Monitor

        torch.set_num_threads(1)  # one core per env process; the learner has the rest
        pool = OpponentPool(env_id, pool_dir, seed, weights)
        return Monitor(make_training_env(env_id, pool, config=config, seed=seed))

    return make


def make_vec_env(env_id: str, num_envs: int, pool_dir: str | os.PathLike, seed: int, config: dict[str, Any] | None,
                 weights: Sequence[float] = DEFAULT_POOL_WEIGHTS) -> VecEnv:
    """The aec backend: ``num_envs`` single-game envs (in subprocesses when more than one)."""
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [_make_env_fn(env_id, pool_dir, seed + 1000 * i, config, weights) for i in range(num_envs)]
    return SubprocVecEnv(fns) if num_envs > 1 else DummyVecEnv(fns)


# ---- the vector backend ---------------------------------------------------------------------


def make_batched_env(env_id: str, num_envs: int, seed: int, config: dict[str, Any] | None,
                     weights: Sequence[float]) -> tuple[VecEnv, VecEnv]:
    """The vector backend: the batched env and its VecMonitor (episode returns for SB3's logs)."""
    from stable_baselines3.common.vec_env import VecMonitor

    from training.vector_env import LearnerVecEnv, TeamVecEnv

    if envs.game_of(env_id).simultaneous:
        batch = TeamVecEnv(env_id, num_games=num_envs, seed=seed, config=config)
    else:
        batch = LearnerVecEnv(env_id, num_envs=num_envs, seed=seed, config=config,
                              weights=_available_weights(env_id, weights))
    return batch, VecMonitor(batch)


def _available_weights(env_id, weights):
    """The pool odds, without the heuristic where the game has none."""
    return (weights[0], weights[1] if has_heuristic(env_id) else 0.0, weights[2])


def add_snapshot(model, batch, out):
    """Freeze the current policy into the pool: a file for the record (and for resuming), and
    for the vector backend an in-memory copy the batch acts with."""
    path = out / "pool" / f"snapshot_{model.num_timesteps:010d}.zip"
    model.save(path)
    if batch is not None and hasattr(batch, "add_snapshot"):
        from training.vector_env import SnapshotPolicy

        batch.add_snapshot(SnapshotPolicy(model.policy))


def load_pool(batch, out):
    """Give a resumed vector run the snapshots its pool folder holds."""
    if batch is None or not hasattr(batch, "add_snapshot"):
        return
    from training.vector_env import SnapshotPolicy

    for path in sorted((out / "pool").glob("snapshot_*.zip")):
        batch.add_snapshot(SnapshotPolicy(load_model(path).policy))


# ---- checkpoints -------------------------------------------------------------------------


def save_checkpoint(model, out, history):
    """Model and training state, each written to a temporary file and renamed into place."""
    tmp_model = out / "checkpoint.tmp.zip"
    model.save(tmp_model)
    os.replace(tmp_model, out / "checkpoint.zip")
    state = {
        "num_timesteps": model.num_timesteps,
        "torch_rng": torch.get_rng_state(),
        "numpy_rng": np.random.get_state(),
        "python_rng": random.getstate(),
        "history": history,
    }
    tmp_state = out / "checkpoint_state.tmp.pt"
    torch.save(state, tmp_state)
    os.replace(tmp_state, out / "checkpoint_state.pt")


def load_checkpoint(out, env):
    """The model and training state saved in ``out``, with its anchor if it has one; restores the
    random generators."""
    from training.anchor import AnchoredMaskablePPO

    out = pathlib.Path(out)
    model = load_model(out / "checkpoint.zip", AnchoredMaskablePPO)
    model.set_env(env)
    if model.anchor_coef:
        set_anchor(model, load_model(out / "anchor.zip").policy)
    try:
        state = torch.load(out / "checkpoint_state.pt", weights_only=False)
    except Exception as error:
        raise ValueError(f"{out / 'checkpoint_state.pt'} is not a readable training state: {error}") from error
    torch.set_rng_state(state["torch_rng"])
    np.random.set_state(state["numpy_rng"])
    random.setstate(state["python_rng"])
    return model, state["history"]


# ---- evaluation and the learning curve ---------------------------------------------------


def evaluate_model(model: MaskablePPO, env_id: str, games: int, seed: int, config: dict[str, Any] | None,
                   deterministic: bool = False, progress: bool = False) -> dict[str, float]:
    """One learning-curve row: win rates against random and heuristic opponents (the cooperative
    game: ``win_rate_team``), per role where the game has roles, and the fair share. ``progress``
    shows a bar per opponent kind with its ETA."""
    from training.policy_eval import model_strength

    row = {}
    for name, result in model_strength(model, env_id, games, seed, config, deterministic, progress).items():
        row[f"win_rate_{name}"] = result["win_rate"]
        for role, split in result.get("by_role", {}).items():
            row[f"win_rate_{name}_as_{role}"] = split["win_rate"]
        row["fair_share"] = result["fair_share"]
    return row


def policy_win_rates(env_id: str, make_policy_agent: Callable[[int], Agent], games: int, seed: int,
                     config: dict[str, Any] | None) -> dict[str, float]:
    """Win rates of a policy given as agents (``seed -> Agent``, e.g. an RLlib module), through the
    tournament runner: ``win_rate_vs_random`` and ``win_rate_vs_heuristic`` with the policy in one
    rotating seat and that opponent in all the others; the cooperative game: ``win_rate_team``.
    """
    policy = {"policy": make_policy_agent}
    if envs.game_of(env_id).simultaneous:
        results = evaluate(env_id, ["policy"], games, seed=seed, config=config, progress=False, factories=policy)
        return {"win_rate_team": float(results[0]["win_rate"])}
    opponents = ["random", "heuristic"] if has_heuristic(env_id) else ["random"]
    return {f"win_rate_vs_{opponent}": float(_policy_vs(env_id, opponent, games, seed, config, policy)[0]["win_rate"])
            for opponent in opponents}


def _policy_vs(env_id, opponent, games, seed, config, policy):
    """The policy in one rotating seat, ``opponent`` in all the others."""
    num_players = (config or {}).get("num_players", envs.game_of(env_id).default_players)
    factories = {**policy}
    # Distinct names so the rotation keeps exactly one policy seat per game.
    names = ["policy"] + [f"{opponent}#{i}" for i in range(1, num_players)]
    for name in names[1:]:
        factories[name] = lambda s, opponent=opponent: _agent(opponent, env_id, s)
    return evaluate(env_id, names, games, seed=seed, config=config, progress=False, factories=factories)


def _agent(spec, env_id, seed):
    from agents import make_agent

    return make_agent(spec, env_id, seed=seed)


def write_learning_curve(out, history, env_id):
    if not history:
        return
    keys = [k for k in history[0] if k != "timesteps"]
    with open(out / "learning.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["timesteps", *keys], extrasaction="ignore")
        writer.writeheader()
        writer.writerows(history)
    from matplotlib.figure import Figure  # no pyplot: leaves the caller's backend (notebooks) alone

    fig = Figure(figsize=(6.5, 3.8))
    ax = fig.add_subplot()
    steps = [row["timesteps"] for row in history]
    for key in keys:
        if key.startswith("win_rate"):
            ax.plot(steps, [row.get(key, np.nan) for row in history], marker="o", label=key.replace("_", " "))
    if "fair_share" in keys:
        ax.axhline(history[-1]["fair_share"], color="grey", linestyle="--", label="fair share")
    ax.set_xlabel("training steps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(f"MaskablePPO self-play: {env_id}")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(out / "learning_curve.png", dpi=100)


# ---- the training loop ------------------------------------------------------------------


def make_callback(args, out, history, batch, deadline):
    class SelfPlayCallback(BaseCallback):
        """Progress bar, snapshots for the pool, evaluation, checkpoints."""

        def _on_training_start(self):
            from tqdm import tqdm

            # Under a time budget the step target is only a cap: count steps without a false ETA.
            total = args.timesteps if args.max_minutes is None else None
            self.bar = tqdm(total=total, initial=self.model.num_timesteps, desc=f"self-play {args.env_id}",
                            unit="step", unit_scale=True, mininterval=2.0)
            self.next_snapshot = self.model.num_timesteps + args.snapshot_every
            self.next_eval = self.model.num_timesteps + args.eval_every
            self.deadline = deadline

        def _on_step(self):
            self.bar.update(self.training_env.num_envs)
            return self.deadline is None or time.perf_counter() < self.deadline  # False ends training

        def _on_rollout_start(self):
            # Between PPO updates: the weights are those of num_timesteps, so a checkpoint written
            # now resumes exactly (during a rollout, its update would still be missing).
            steps = self.model.num_timesteps
            if steps >= self.next_snapshot:
                self.next_snapshot += args.snapshot_every * (1 + (steps - self.next_snapshot) // args.snapshot_every)
                add_snapshot(self.model, batch, out)
            if steps >= self.next_eval:
                self.next_eval += args.eval_every * (1 + (steps - self.next_eval) // args.eval_every)
                self.evaluate_and_checkpoint()

        def evaluate_and_checkpoint(self):
            self.bar.set_description(f"self-play {args.env_id} (evaluating {args.eval_games} games)")
            row = record_evaluation(self.model, args, out, history)
            for key, value in row.items():
                self.logger.record(f"eval/{key}", value)
            self.bar.set_description(f"self-play {args.env_id}")
            self.bar.set_postfix({k.replace("win_rate_", ""): f"{v:.2f}" for k, v in row.items()
                                  if k.startswith("win_rate") and "_as_" not in k})
            save_checkpoint(self.model, out, history)

        def _on_training_end(self):
            self.bar.close()

    return SelfPlayCallback()


class UpdateThreads(BaseCallback):
    """Each PPO update runs torch on ``threads``; everything else while training (rollouts,
    evaluations) runs torch and numba on one thread (the vector backend, whose rollout and update
    take turns in one process). Numba's count is restored when training ends.

    A rollout's work comes in small pieces (a kernel over 64 games, the learner's forward, a
    snapshot's forward for the few games waiting on it), where a second thread gains little, and
    a thread that waits at a barrier or spins after its region costs much once the cores are shared.
    Secret Hitler's vector training with one other busy process on the 2 cores: 135-280 learner
    steps/s with two threads throughout (its snapshots' forwards 14-41 s of a 29-61 s update
    cycle), 635-697 with one torch and one numba thread (3.3-3.5 s); quiet, 1,276-1,570 against
    1,424. The update's 1,024-row minibatches do gain from two threads on a quiet machine
    (benchmarks/results/training_speed.md)."""

    def __init__(self, threads: int) -> None:
        super().__init__()
        self.threads = int(threads)

    def _on_training_start(self) -> None:
        self.numba_threads = numba.get_num_threads()
        numba.set_num_threads(1)
        torch.set_num_threads(1)

    def _on_rollout_start(self) -> None:
        torch.set_num_threads(1)

    def _on_rollout_end(self) -> None:
        torch.set_num_threads(self.threads)

    def _on_training_end(self) -> None:
        torch.set_num_threads(1)  # the final evaluation plays small forwards too
        numba.set_num_threads(self.numba_threads)

    def _on_step(self) -> bool:
        return True


def set_anchor(model, policy):
    """Anchor ``model``'s training to a frozen copy of ``policy`` (training/anchor.py)."""
    from training.vector_env import SnapshotPolicy

    model.set_anchor(SnapshotPolicy(policy))


def _new_model(args, env, out):
    from training.anchor import AnchoredMaskablePPO
    from training.buffers import LeanRolloutBuffer

    random.seed(args.seed)
    np.random.seed(args.seed)
    entities = ACTION_ENTITIES[args.env_id] if args.policy_head == "pointer" else ()
    policy, kwargs = policy_spec(args.net_arch, args.shared_layers, args.obs_squash == "symlog",
                                 envs.game_of(args.env_id).layout, entities)
    return AnchoredMaskablePPO(policy, env, n_steps=args.n_steps, batch_size=args.batch_size, n_epochs=args.n_epochs,
                               learning_rate=args.learning_rate, gamma=args.gamma, gae_lambda=args.gae_lambda,
                               ent_coef=args.ent_coef, anchor_coef=args.anchor_coef, policy_kwargs=kwargs,
                               rollout_buffer_class=LeanRolloutBuffer,  # sb3-contrib's minibatches, fewer copies
                               seed=args.seed, tensorboard_log=str(out / "tb"), device="cpu", verbose=0)


def train(args: argparse.Namespace) -> tuple[MaskablePPO, list[dict[str, float]]]:
    """Train as ``args`` (from :func:`parse_args`) say; returns the model and its learning curve."""
    torch.set_num_threads(args.torch_threads)
    deadline = None if args.max_minutes is None else time.perf_counter() + 60 * args.max_minutes
    out = prepare_out(args)
    if args.backend == "vector":
        batch, env = make_batched_env(args.env_id, args.num_envs, args.seed, args.config, args.pool_weights)
    else:
        batch, env = None, make_vec_env(args.env_id, args.num_envs, out / "pool", args.seed, args.config,
                                        _available_weights(args.env_id, args.pool_weights))
    if args.resume:
        model, history = load_checkpoint(out, env)
        load_pool(batch, out)
    else:
        model, history = _new_model(args, env, out), []
        if args.imitation_samples:
            imitate(model, args, out, history)
    write_args(args, out)
    callback = make_callback(args, out, history, batch, deadline)
    threads = [UpdateThreads(args.torch_threads)] if args.backend == "vector" else []
    remaining = args.timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(total_timesteps=remaining, callback=CallbackList([*threads, callback]), reset_num_timesteps=False,
                    tb_log_name="maskable_ppo")
    if not history or history[-1]["timesteps"] != model.num_timesteps:
        callback.evaluate_and_checkpoint()
    env.close()
    return model, history


def imitate(model, args, out, history):
    """Warm-start ``model`` by cloning the heuristic (training/imitation.py); the cloned policy's
    strength is the learning curve's first row (``history``'s), at step 0. What the cloning did
    goes to ``<out>/imitation.json``."""
    from training.imitation import warm_start

    started = time.perf_counter()
    report = warm_start(model, args.env_id, args.imitation_samples, args.imitation_epochs, args.seed, args.config,
                        _available_weights(args.env_id, args.pool_weights), progress=True)
    report["minutes"] = round((time.perf_counter() - started) / 60, 2)
    (out / "imitation.json").write_text(json.dumps(report, indent=2))
    if args.anchor_coef:
        model.save(out / "anchor.zip")  # the clone, for a resumed run's anchor
        set_anchor(model, model.policy)
    print(f"cloned the heuristic: {report['samples']} decisions in {len(report['rounds'])} rounds, agreement "
          f"{report['agreement']:.2f}, {report['minutes']} min")
    record_evaluation(model, args, out, history)


def record_evaluation(model, args, out, history):
    """One evaluation of ``model`` appended to ``history`` (seeded ``--seed`` + its index), the
    best policy kept and the learning curve redrawn; returns the evaluation's row."""
    row = evaluate_model(model, args.env_id, args.eval_games, args.seed + len(history), args.eval_config,
                         args.deterministic, progress=True)
    history.append({"timesteps": int(model.num_timesteps), **row})
    keep_if_best(model, out, history)
    write_learning_curve(out, history, args.env_id)
    return row


def selection_score(row):
    """What picks the best policy of a run: the win rate against heuristic agents (those it must
    beat), else the team's success, else the win rate against random players."""
    for key in ("win_rate_vs_heuristic", "win_rate_team", "win_rate_vs_random"):
        if key in row:
            return row[key]
    raise ValueError(f"no win rate in {sorted(row)}")


def keep_if_best(model, out, history):
    """Save the model as ``<out>/best.zip`` (and ``best.json``) when the latest evaluation is the
    run's best so far, as SB3's EvalCallback keeps its best model: PPO's updates can lose strength
    a warm start had, and the evaluations' games (seeds ``--seed`` + k) say when."""
    scores = [selection_score(row) for row in history]
    if scores[-1] < max(scores):
        return
    tmp = out / "best.tmp.zip"
    model.save(tmp)
    os.replace(tmp, out / "best.zip")
    (out / "best.json").write_text(json.dumps({"timesteps": history[-1]["timesteps"], "score": scores[-1],
                                               "evaluation": len(history) - 1}, indent=2))


def prepare_out(args):
    """The run's folder, emptied of an earlier run's files when ``--overwrite`` was given."""
    out = pathlib.Path(args.out)
    if args.overwrite and not args.resume:
        for name in RUN_FILES:
            (out / name).unlink(missing_ok=True)
        for folder in ("pool", "tb"):
            shutil.rmtree(out / folder, ignore_errors=True)
    (out / "pool").mkdir(parents=True, exist_ok=True)
    return out


def write_args(args, out):
    """The run's arguments with its real folder, for ``--resume`` and for the record."""
    saved = {k: v for k, v in vars(args).items()} | {"out": str(out.resolve())}
    (out / "args.json").write_text(json.dumps(saved, indent=2))


# ---- the command line ----------------------------------------------------------------------


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", help=f"one of {', '.join(envs.ENV_IDS)}")
    parser.add_argument("--backend", choices=BACKENDS, default=None,
                        help="vector: batched games in numba (default); aec: one Python env per process")
    parser.add_argument("--timesteps", type=int, default=1_000_000, help="total learner steps (including resumed)")
    parser.add_argument("--max-minutes", type=float, default=None,
                        help="stop after this much training time (evaluation included), whatever --timesteps says")
    parser.add_argument("--num-envs", type=int, default=None,
                        help="vector: games in the batch (default 64); aec: env processes (default 1)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the games, the opponents and the policy (default 0)")
    parser.add_argument("--out", default=None, help="output folder (default runs/<env_id>)")
    parser.add_argument("--resume", default=None, metavar="DIR", help="continue the run in DIR from its checkpoint")
    parser.add_argument("--overwrite", action="store_true", help="replace the run already in --out")
    parser.add_argument("--snapshot-every", type=int, default=100_000, help="steps between frozen pool snapshots")
    parser.add_argument("--eval-every", type=int, default=200_000, help="steps between evaluations")
    parser.add_argument("--eval-games", type=int, default=200, help="games per opponent kind in each evaluation")
    parser.add_argument("--deterministic", action="store_true", help="evaluate with argmax instead of sampling")
    parser.add_argument("--pool-weights", default=None, metavar="R,H,S",
                        help="odds of a random, heuristic and snapshot opponent per seat (default: the preset's)")
    parser.add_argument("--no-shaping", action="store_true", help="train on the game's own reward only")
    parser.add_argument("--torch-threads", type=int, default=None,
                        help="threads for torch (default: with --backend vector as many as the batch's numba "
                             "threads, since rollout and update take turns in its one process; with --backend aec 1, "
                             "since its env processes run beside the learner)")
    knobs = parser.add_argument_group("hyperparameters (default: the game's preset in training/presets.py)")
    knobs.add_argument("--net-arch", default=None, metavar="W,W", help="hidden layer widths, e.g. 256,256")
    knobs.add_argument("--shared-layers", type=int, default=None, metavar="K",
                       help="the first K hidden layers are shared by policy and value (0: separate networks)")
    for knob, kind in (("n_steps", int), ("batch_size", int), ("n_epochs", int), ("learning_rate", float),
                       ("gamma", float), ("gae_lambda", float), ("ent_coef", float)):
        knobs.add_argument(f"--{knob.replace('_', '-')}", type=kind, default=None,
                           help=f"MaskablePPO's {knob} (default: the preset's)")
    knobs.add_argument("--obs-squash", choices=("symlog", "none"), default=None,
                       help="symlog: squash every observation entry by sign(x) log(1 + |x|) before the network")
    knobs.add_argument("--policy-head", choices=("flat", "pointer"), default=None,
                       help="pointer: one shared scorer for actions that pick a square, space, card or player "
                            f"(training/networks.py; games: {', '.join(ACTION_ENTITIES)})")
    knobs.add_argument("--imitation-samples", type=int, default=None, metavar="N",
                       help="first clone N learner decisions of the heuristic (training/imitation.py; 0: start "
                            "from random weights)")
    knobs.add_argument("--imitation-epochs", type=int, default=None, metavar="E",
                       help="passes of behaviour cloning over those decisions")
    knobs.add_argument("--anchor-coef", type=float, default=None, metavar="C",
                       help="weight of a KL term holding PPO near the cloned policy (training/anchor.py; 0: none)")
    return parser


def parse_args(argv: Sequence[str] | None = None) -> argparse.Namespace:
    """The run's settings, checked before any work starts (bad values are usage errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _check_numbers(parser, args)
    try:
        game = envs.game_of(args.env_id)
    except ValueError as error:
        parser.error(str(error))
    if args.players is not None and args.players not in game.player_counts:
        parser.error(f"--players {args.players}: {args.env_id} seats {list(game.player_counts)}")
    if args.resume:
        _check_resume(parser, args)
    else:
        args.out = args.out or f"runs/{args.env_id}"
        _check_fresh_out(parser, args)
    args.backend = args.backend or "vector"
    if args.num_envs is None:
        args.num_envs = 64 if args.backend == "vector" else 1
    if args.torch_threads is None:  # measured: benchmarks/results/training_speed.md
        args.torch_threads = _default_torch_threads(args.backend)
    if args.pool_weights is not None:
        args.pool_weights = _weights(parser, args.pool_weights)
    _apply_preset(parser, args)
    players = {"num_players": args.players} if args.players else {}
    observing = game.observation_options(args.env_config)  # what the policy reads: evaluated as trained
    args.eval_config = players | observing
    args.config = players | (observing if args.no_shaping else args.env_config)
    try:
        game.validate(dict(args.config))
    except ValueError as error:
        parser.error(str(error))
    return args


def _default_torch_threads(backend):
    """The threads of the vector backend's update (:class:`UpdateThreads`), which runs alone in its
    process: as many as numba has (2 threads made the update-bound rate ~1.1-1.4x on 2 quiet
    cores). The aec backend's env processes need the other cores while the learner acts."""
    return numba.config.NUMBA_NUM_THREADS if backend == "vector" else 1


def _check_numbers(parser, args):
    for name in ("timesteps", "snapshot_every", "eval_every", "eval_games", "torch_threads", "num_envs",
                 "n_steps", "batch_size", "n_epochs"):
        value = getattr(args, name)
        if value is not None and value < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    for name in ("imitation_samples", "imitation_epochs"):
        if getattr(args, name) is not None and getattr(args, name) < 0:
            parser.error(f"--{name.replace('_', '-')} must be at least 0")
    if not 0 <= args.seed < 2**32:
        parser.error(f"--seed {args.seed}: choose an integer from 0 to 2**32 - 1")
    if args.max_minutes is not None and not args.max_minutes > 0:
        parser.error("--max-minutes must be positive")
    for name in ("learning_rate", "gamma", "gae_lambda", "ent_coef"):
        value = getattr(args, name)
        if value is not None and not (0 <= value <= 1 if name != "learning_rate" else 0 < value < 1):
            parser.error(f"--{name.replace('_', '-')} {value} is out of range")


def _weights(parser, text):
    try:
        weights = tuple(float(w) for w in text.split(","))
    except ValueError:
        weights = ()
    if len(weights) != 3 or min(weights) < 0 or weights[0] + weights[1] <= 0:
        parser.error(f"--pool-weights {text!r}: three odds R,H,S >= 0 with R + H > 0")
    return weights


def _apply_preset(parser, args):
    preset = preset_for(args.env_id)
    if args.net_arch is not None:
        try:
            args.net_arch = [int(w) for w in str(args.net_arch).split(",")]
        except ValueError:
            parser.error(f"--net-arch {args.net_arch!r}: comma-separated layer widths, e.g. 256,256")
        if not args.net_arch or min(args.net_arch) < 1:
            parser.error("--net-arch: every width must be at least 1")
    for knob in KNOBS:
        if getattr(args, knob) is None:
            setattr(args, knob, preset[knob])
    if not 0 <= args.shared_layers <= len(args.net_arch):
        parser.error(f"--shared-layers {args.shared_layers}: from 0 to the {len(args.net_arch)} layers of --net-arch")
    if args.policy_head == "pointer" and args.env_id not in ACTION_ENTITIES:
        parser.error(f"--policy-head pointer: {args.env_id} declares no action entities "
                     f"(training/presets.py ACTION_ENTITIES: {', '.join(ACTION_ENTITIES)})")
    args.pool_weights = tuple(args.pool_weights)
    args.env_config = dict(preset["env_config"])
    if args.imitation_samples and not args.resume and not has_heuristic(args.env_id):
        parser.error(f"--imitation-samples: {args.env_id} has no heuristic agent to imitate")
    if args.imitation_samples and not args.imitation_epochs:
        parser.error("--imitation-samples needs --imitation-epochs of at least 1")
    if not args.anchor_coef >= 0:
        parser.error(f"--anchor-coef {args.anchor_coef}: a weight >= 0")
    if args.anchor_coef and not args.imitation_samples and not args.resume:
        parser.error("--anchor-coef holds PPO near the cloned heuristic: it needs --imitation-samples")


def _check_fresh_out(parser, args):
    out = pathlib.Path(args.out)
    if out.exists() and not out.is_dir():
        parser.error(f"--out {out}: a file is in the way")
    taken = out.is_dir() and any((out / name).exists() for name in (*RUN_FILES, "pool"))
    if taken and not args.overwrite:
        parser.error(f"--out {out} already holds a run: --resume {out} to continue it, or --overwrite to replace it")


def _check_resume(parser, args):
    run = pathlib.Path(args.resume)
    if not (run / "checkpoint.zip").is_file():
        parser.error(f"--resume {run}: no checkpoint.zip there")
    if args.out is not None and pathlib.Path(args.out).resolve() != run.resolve():
        parser.error(f"--resume {run} continues in its own folder; drop --out {args.out}")
    try:
        saved = json.loads((run / "args.json").read_text())
    except (OSError, ValueError) as error:
        parser.error(f"--resume {run}: args.json unreadable ({error})")
    if saved.get("env_id") != args.env_id:
        parser.error(f"--resume {run} is a {saved.get('env_id')} run, not {args.env_id}")
    if args.players is not None and args.players != saved.get("players"):
        parser.error(f"--resume {run} was trained with --players {saved.get('players')}, not {args.players}")
    for name in ("backend", "num_envs"):  # SB3 continues a model only on the same number of envs
        if getattr(args, name) is not None and getattr(args, name) != saved.get(name):
            parser.error(f"--resume {run} was trained with --{name.replace('_', '-')} {saved.get(name)}")
    for name in ("players", "backend", "num_envs", "pool_weights", "no_shaping", *KNOBS):
        setattr(args, name, saved.get(name, LEGACY_DEFAULTS.get(name)))  # the model keeps its own hyperparameters
    args.pool_weights = ",".join(str(w) for w in args.pool_weights)  # parsed again like the command line's
    args.net_arch = ",".join(str(w) for w in args.net_arch)
    args.out = str(run)


def main(argv: Sequence[str] | None = None) -> None:
    args = parse_args(argv)
    _, history = train(args)
    last = history[-1]
    rates = ", ".join(f"{k.replace('win_rate_', '')} {v:.2f}" for k, v in last.items() if k.startswith("win_rate"))
    print(f"final after {last['timesteps']} steps: {rates} (fair share {last['fair_share']:.2f}); "
          f"see {pathlib.Path(args.out) / 'learning_curve.png'}")


if __name__ == "__main__":
    main()
