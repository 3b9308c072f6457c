"""Self-play training with sb3-contrib's MaskablePPO.

    python -m training.selfplay volle_socke_v0 --timesteps 200000 --num-envs 2 --out runs/vs
    python -m training.selfplay volle_socke_v0 --timesteps 400000 --resume runs/vs

Turn-based games: the learner plays one seat (random each episode) of
:class:`training.wrappers.LearnerSeatEnv`; the other seats come from an opponent pool of random
agents, the game's heuristic agent, and frozen snapshots of the learner written to ``<out>/pool``
every ``--snapshot-every`` steps. The cooperative simultaneous game trains one shared policy for
every seat (:class:`training.wrappers.SharedPolicyEnv`).

Every ``--eval-every`` steps the policy plays ``--eval-games`` games against random agents and
against heuristic agents (the cooperative game: the policy in every seat, one team success rate);
the win rates go to ``<out>/learning.csv``, TensorBoard
(``<out>/tb``) and ``<out>/learning_curve.png``. Checkpoints (model + training state with the
random generators' states) are written atomically to ``<out>/checkpoint.zip`` /
``checkpoint_state.pt`` at the same cadence; ``--resume <out>`` continues from them.
"""

import argparse
import csv
import json
import os
import pathlib
import random

import numpy as np

import envs
from agents import RandomAgent
from agents.policy import PolicyAgent, load_model
from training.evaluate import evaluate
from training.wrappers import make_training_env


# ---- the opponent pool -------------------------------------------------------------------


class OpponentPool:
    """Draws an opponent per seat per episode: random, heuristic, or a frozen snapshot.

    Snapshots are read from ``pool_dir`` as they appear (the trainer writes them), so envs in
    subprocesses see new ones without any message passing.
    """

    def __init__(self, env_id, pool_dir, seed, weights=(0.3, 0.3, 0.4)):
        self.env_id = env_id
        self.pool_dir = pathlib.Path(pool_dir)
        self.rng = np.random.default_rng(seed)
        self.weights = weights
        self._loaded = {}
        try:
            from agents.heuristic import heuristic_for

            heuristic_for(env_id)
            self.has_heuristic = True
        except ValueError:
            self.has_heuristic = False

    def __call__(self):
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


def _make_env_fn(env_id, pool_dir, seed, config):
    def make():
        import torch
        from stable_baselines3.common.monitor import Monitor

        torch.set_num_threads(1)  # one core per env process; the learner has the rest
        pool = OpponentPool(env_id, pool_dir, seed)
        return Monitor(make_training_env(env_id, pool, config=config, seed=seed))

    return make


def make_vec_env(env_id, num_envs, pool_dir, seed, config):
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    fns = [_make_env_fn(env_id, pool_dir, seed + 1000 * i, config) for i in range(num_envs)]
    return SubprocVecEnv(fns) if num_envs > 1 else DummyVecEnv(fns)


# ---- checkpoints -------------------------------------------------------------------------


def save_checkpoint(model, out, history):
    """Model and training state, each written to a temporary file and renamed into place."""
    import torch

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
    """The model and training state saved in ``out``; restores the random generators."""
    import torch

    out = pathlib.Path(out)
    model = load_model(out / "checkpoint.zip")
    model.set_env(env)
    try:
        state = torch.load(out / "checkpoint_state.pt", weights_only=False)
    except Exception as error:
        raise ValueError(f"{out / 'checkpoint_state.pt'} is not a readable training state: {error}") from error
    torch.set_rng_state(state["torch_rng"])
    np.random.set_state(state["numpy_rng"])
    random.setstate(state["python_rng"])
    return model, state["history"]


# ---- evaluation and the learning curve ---------------------------------------------------


def evaluate_policy(model, env_id, games, seed, config):
    """Win rates of a MaskablePPO model (see :func:`policy_win_rates`)."""
    return policy_win_rates(env_id, lambda s: PolicyAgent(model), games, seed, config)


def policy_win_rates(env_id, make_policy_agent, games, seed, config):
    """Win rates of a policy: ``win_rate_vs_random`` and ``win_rate_vs_heuristic`` with the policy in
    one rotating seat and that opponent in all the others; for the cooperative game, where the
    policy fills every seat and there are no opponents, one ``win_rate_team``.
    """
    policy = {"policy": make_policy_agent}
    if envs.game_of(env_id).simultaneous:
        results = evaluate(env_id, ["policy"], games, seed=seed, config=config, progress=False, factories=policy)
        return {"win_rate_team": float(results[0]["win_rate"])}
    opponents = ["random", "heuristic"] if _has_heuristic(env_id) else ["random"]
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


def _has_heuristic(env_id):
    from agents.heuristic import heuristic_for

    try:
        heuristic_for(env_id)
        return True
    except ValueError:
        return False


def write_learning_curve(out, history, env_id):
    if not history:
        return
    keys = [k for k in history[0] if k.startswith("win_rate")]
    with open(out / "learning.csv", "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=["timesteps", *keys])
        writer.writeheader()
        writer.writerows(history)
    from matplotlib.figure import Figure  # no pyplot: leaves the caller's backend (notebooks) alone

    fig = Figure(figsize=(6, 3.5))
    ax = fig.add_subplot()
    steps = [row["timesteps"] for row in history]
    for key in keys:
        ax.plot(steps, [row[key] for row in history], marker="o", label=key.replace("_", " "))
    ax.set_xlabel("training steps")
    ax.set_ylabel("win rate")
    ax.set_ylim(0, 1)
    ax.set_title(f"MaskablePPO self-play: {env_id}")
    ax.legend()
    fig.tight_layout()
    fig.savefig(out / "learning_curve.png", dpi=100)


# ---- the training loop ------------------------------------------------------------------


def make_callback(args, out, history):
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Progress bar, snapshots for the pool, evaluation, checkpoints."""

        def _on_training_start(self):
            from tqdm import tqdm

            self.bar = tqdm(total=args.timesteps, initial=self.model.num_timesteps, desc="self-play", unit="step",
                            mininterval=2.0)
            self.next_snapshot = self.model.num_timesteps + args.snapshot_every
            self.next_eval = self.model.num_timesteps + args.eval_every

        def _on_step(self):
            self.bar.update(self.training_env.num_envs)
            steps = self.model.num_timesteps
            if steps >= self.next_snapshot:
                self.next_snapshot += args.snapshot_every
                self.model.save(out / "pool" / f"snapshot_{steps:010d}.zip")
            if steps >= self.next_eval:
                self.next_eval += args.eval_every
                self.evaluate_and_checkpoint()
            return True

        def evaluate_and_checkpoint(self):
            rates = evaluate_policy(self.model, args.env_id, args.eval_games, args.seed + len(history), args.config)
            history.append({"timesteps": int(self.model.num_timesteps), **rates})
            for key, value in rates.items():
                self.logger.record(f"eval/{key}", value)
            self.bar.set_postfix({k.replace("win_rate_", ""): f"{v:.2f}" for k, v in rates.items()})
            write_learning_curve(out, history, args.env_id)
            save_checkpoint(self.model, out, history)

        def _on_training_end(self):
            self.bar.close()

    return SelfPlayCallback()


def train(args):
    from sb3_contrib import MaskablePPO

    out = pathlib.Path(args.resume or args.out)
    (out / "pool").mkdir(parents=True, exist_ok=True)
    env = make_vec_env(args.env_id, args.num_envs, out / "pool", args.seed, args.config)
    if args.resume:
        model, history = load_checkpoint(out, env)
    else:
        random.seed(args.seed)
        np.random.seed(args.seed)
        history = []
        model = MaskablePPO("MlpPolicy", env, n_steps=args.n_steps, batch_size=args.batch_size,
                            learning_rate=args.learning_rate, gamma=args.gamma, ent_coef=args.ent_coef,
                            seed=args.seed, tensorboard_log=str(out / "tb"), device="cpu", verbose=0)
    (out / "args.json").write_text(json.dumps({k: v for k, v in vars(args).items() if k != "config"} |
                                              {"config": args.config}, indent=2))
    callback = make_callback(args, out, history)
    remaining = args.timesteps - model.num_timesteps
    if remaining > 0:
        model.learn(total_timesteps=remaining, callback=callback, reset_num_timesteps=False,
                    tb_log_name="maskable_ppo")
    if not history or history[-1]["timesteps"] != model.num_timesteps:
        callback.evaluate_and_checkpoint()
    env.close()
    return model, history


def parse_args(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", choices=list(envs.ENV_IDS))
    parser.add_argument("--timesteps", type=int, default=100_000, help="total training steps (including resumed)")
    parser.add_argument("--num-envs", type=int, default=1, help="env processes (SubprocVecEnv when > 1)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default=None, help="output folder (default runs/<env_id>)")
    parser.add_argument("--resume", default=None, help="continue the run in this folder from its checkpoint")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--snapshot-every", type=int, default=20_000)
    parser.add_argument("--eval-every", type=int, default=20_000)
    parser.add_argument("--eval-games", type=int, default=100)
    parser.add_argument("--n-steps", type=int, default=1024)
    parser.add_argument("--batch-size", type=int, default=256)
    parser.add_argument("--learning-rate", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=0.995)
    parser.add_argument("--ent-coef", type=float, default=0.01)
    args = parser.parse_args(argv)
    for name in ("timesteps", "num_envs", "snapshot_every", "eval_every", "eval_games", "n_steps", "batch_size"):
        if getattr(args, name) < 1:
            parser.error(f"--{name.replace('_', '-')} must be at least 1")
    if args.resume and not (pathlib.Path(args.resume) / "checkpoint.zip").is_file():
        parser.error(f"--resume {args.resume}: no checkpoint.zip there")
    args.out = args.out or f"runs/{args.env_id}"
    args.config = {"num_players": args.players} if args.players else {}
    return args


def main(argv=None):
    args = parse_args(argv)
    _, history = train(args)
    last = history[-1]
    print("final:", ", ".join(f"{k} {v:.2f}" for k, v in last.items() if k != "timesteps"),
          f"after {last['timesteps']} steps; see {pathlib.Path(args.resume or args.out) / 'learning_curve.png'}")


if __name__ == "__main__":
    main()
