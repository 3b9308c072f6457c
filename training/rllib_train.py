"""Multi-agent PPO on Ray RLlib (new API stack), on this machine or on a Ray cluster.

    python -m training.rllib_train teufel_teufel_v0 --iterations 50 --num-env-runners 2
    python -m training.rllib_train secret_hitler_v0 --policies team --address auto
    python -m training.rllib_train teufel_teufel_v0 --resume runs/rllib/teufel_teufel_v0

Without ``--address`` a local Ray instance is started on this machine; with ``--address``
(``auto`` or ``ray://head:10001``) the same code joins a running cluster (``ray start --head`` on
one machine, ``ray start --address=<head>:6379`` on the others; see README).

The envs reach RLlib through its PettingZoo wrappers (``PettingZooEnv`` for turn-based games,
``ParallelPettingZooEnv`` for the simultaneous one). Action masking happens inside the RL
module (RLlib's ``ActionMaskingTorchRLModule``): illegal actions get ``-inf`` logits and are never
sampled; the env keeps ``illegal_action="raise"``, so an illegal action would stop the run.

``--policies shared`` (default) trains one policy for every seat; ``--policies team`` (Secret
Hitler) trains one for the liberals and one for the fascists. RLlib needs the same agent ids in
every episode, so with team policies the agents are named by team slot rather than by seat
(``liberal_0`` ... ``liberal_3``, ``fascist_0`` ... in a 7-player game; the seat is in the
observation); only the trainer reads the name, to pick the policy.

Every ``--checkpoint-every`` iterations: a checkpoint in ``<out>/checkpoint``, and the shared (or
liberal) policy's win rate against random and heuristic agents through training.evaluate, logged
to TensorBoard (``<out>/tb``) and printed in a table.
"""

import argparse
import pathlib
import time

import gymnasium
import numpy as np
from pettingzoo.utils import BaseWrapper

import envs

TEAMS = ("liberal", "fascist")


class RLlibObservations(BaseWrapper):
    """Renames the observation keys to what RLlib's action-masking module reads
    (``observations``, ``action_mask`` as float32) and, for team policies, names each agent by
    its team for the episode."""

    def __init__(self, env, team_of=None):
        super().__init__(env)
        inner = env.observation_space(env.possible_agents[0])
        self._space = gymnasium.spaces.Dict({
            "observations": inner["observation"],
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
        })
        self._team_of = team_of
        self._names = {agent: agent for agent in env.possible_agents}
        self._inverse = dict(self._names)
        if team_of is not None:
            env.reset(seed=0)
            self._name_by_team()
            self.possible_agents = sorted(self._inverse)

    def observation_space(self, agent):
        return self._space

    def action_space(self, agent):
        return self.env.action_space(self._inner(agent))

    def reset(self, seed=None, options=None):
        self.env.reset(seed=seed, options=options)
        if self._team_of is not None:
            self._name_by_team()

    def _name_by_team(self):
        """Name each seat by its team and its rank within the team (in seat order)."""
        record = self.env.unwrapped.get_state()[0]
        counts = dict.fromkeys(TEAMS, 0)
        for seat, agent in enumerate(self.env.possible_agents):
            team = self._team_of(record, seat)
            self._names[agent] = f"{team}_{counts[team]}"
            counts[team] += 1
        self._inverse = {name: agent for agent, name in self._names.items()}

    def observe(self, agent):
        obs = self.env.observe(self._inner(agent))
        return {"observations": obs["observation"], "action_mask": obs["action_mask"].astype(np.float32)}

    def _inner(self, agent):
        return self._inverse.get(agent, agent)

    # PettingZooEnv reads these through the wrapper: translate agent names both ways.
    @property
    def agent_selection(self):
        return self._names[self.env.agent_selection]

    @property
    def agents(self):
        return [self._names[a] for a in self.env.agents]

    @property
    def rewards(self):
        return {self._names[a]: r for a, r in self.env.rewards.items()}

    @property
    def terminations(self):
        return {self._names[a]: t for a, t in self.env.terminations.items()}

    @property
    def truncations(self):
        return {self._names[a]: t for a, t in self.env.truncations.items()}

    @property
    def infos(self):
        return {self._names[a]: i for a, i in self.env.infos.items()}

    def last(self, observe=True):
        agent = self.env.agent_selection
        _, reward, terminated, truncated, info = self.env.last(observe=False)
        return (self.observe(self._names[agent]) if observe else None), reward, terminated, truncated, info


class RLlibParallelObservations:
    """The Parallel counterpart of :class:`RLlibObservations` (shared policy only)."""

    def __init__(self, env):
        self.env = env
        inner = env.observation_space(env.possible_agents[0])
        self._space = gymnasium.spaces.Dict({
            "observations": inner["observation"],
            "action_mask": gymnasium.spaces.Box(0.0, 1.0, inner["action_mask"].shape, np.float32),
        })
        self.possible_agents = env.possible_agents
        self.metadata = env.metadata
        self.render_mode = None

    @property
    def agents(self):
        return self.env.agents

    def observation_space(self, agent):
        return self._space

    def action_space(self, agent):
        return self.env.action_space(agent)

    @staticmethod
    def _convert(observations):
        return {a: {"observations": o["observation"], "action_mask": o["action_mask"].astype(np.float32)}
                for a, o in observations.items()}

    def reset(self, seed=None, options=None):
        observations, infos = self.env.reset(seed=seed, options=options)
        return self._convert(observations), infos

    def step(self, actions):
        observations, rewards, terminations, truncations, infos = self.env.step(actions)
        return self._convert(observations), rewards, terminations, truncations, infos

    def close(self):
        self.env.close()


def secret_hitler_team(record, seat):
    """The team of ``seat`` in a Secret Hitler record (Hitler plays for the fascists)."""
    from envs.secret_hitler import engine

    return "liberal" if int(record.role[seat]) == engine.LIBERAL else "fascist"


TEAM_FUNCTIONS = {"secret_hitler_v0": secret_hitler_team}


def make_rllib_env(env_config):
    """RLlib's env creator: the registered env behind RLlib's PettingZoo wrapper."""
    from ray.rllib.env.wrappers.pettingzoo_env import ParallelPettingZooEnv, PettingZooEnv

    env_id = env_config["env_id"]
    game_config = dict(env_config.get("game_config", {}))
    if envs.game_of(env_id).simultaneous:
        return ParallelPettingZooEnv(RLlibParallelObservations(envs.make_parallel(env_id, **game_config)))
    team_of = TEAM_FUNCTIONS[env_id] if env_config.get("policies") == "team" else None
    return PettingZooEnv(RLlibObservations(envs.make(env_id, **game_config), team_of=team_of))


def policy_ids(args):
    return list(TEAMS) if args.policies == "team" else ["shared"]


def build_config(args):
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule
    from ray.tune.registry import register_env

    register_env("tabletop", make_rllib_env)
    ids = policy_ids(args)
    if args.policies == "team":
        mapping = lambda agent_id, episode, **kwargs: agent_id.split("_")[0]  # noqa: E731
    else:
        mapping = lambda agent_id, episode, **kwargs: "shared"  # noqa: E731
    module = RLModuleSpec(module_class=ActionMaskingTorchRLModule,
                          model_config={"fcnet_hiddens": [args.hidden, args.hidden], "head_fcnet_hiddens": [args.hidden]})
    return (
        PPOConfig()
        # RLlib's env checker steps unmasked random actions, which our envs rightly reject.
        .environment("tabletop", env_config={"env_id": args.env_id, "game_config": args.game_config,
                                             "policies": args.policies}, disable_env_checking=True)
        .framework("torch")
        .env_runners(num_env_runners=args.num_env_runners, num_envs_per_env_runner=1,
                     rollout_fragment_length="auto")
        .multi_agent(policies=set(ids), policy_mapping_fn=mapping, policies_to_train=ids)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={pid: module for pid in ids}))
        .training(train_batch_size_per_learner=args.batch_size, minibatch_size=min(128, args.batch_size),
                  num_epochs=args.epochs, lr=args.learning_rate, gamma=0.995)
        .debugging(seed=args.seed)
    )


# ---- evaluation through training.evaluate ---------------------------------------------------


class RLlibPolicyAgent:
    """Plays with an RLlib RL module: masked logits, the most likely legal action."""

    name = "rllib"

    def __init__(self, module):
        self.module = module

    def reset(self, seat, env_id, config):
        self.seat = seat

    def act(self, observation, action_mask, info=None):
        import torch
        from ray.rllib.core.columns import Columns

        batch = {Columns.OBS: {"observations": torch.as_tensor(observation[None]),
                               "action_mask": torch.as_tensor(action_mask[None].astype(np.float32))}}
        with torch.no_grad():
            logits = self.module.forward_inference(batch)[Columns.ACTION_DIST_INPUTS][0].numpy()
        logits = np.where(action_mask > 0, logits, -np.inf)
        return int(np.argmax(logits))


def evaluate_module(module, env_id, games, seed, game_config):
    """The policy's win rates (see ``training.selfplay.policy_win_rates``) and the fair share."""
    from training.evaluate import fair_share
    from training.selfplay import policy_win_rates

    players = game_config.get("num_players", envs.game_of(env_id).default_players)
    rates = policy_win_rates(env_id, lambda s: RLlibPolicyAgent(module), games, seed, game_config)
    return {**rates, "fair_share": fair_share(env_id, players)}


# ---- the loop ------------------------------------------------------------------------------


def start_ray(address, num_env_runners):
    import ray

    if ray.is_initialized():
        return
    if address:
        ray.init(address=address)
    else:  # a local instance; logical CPUs for the driver, the learner and each env runner
        ray.init(num_cpus=num_env_runners + 2, include_dashboard=False, log_to_driver=False)


def train(args):
    from ray.rllib.algorithms.algorithm import Algorithm
    from torch.utils.tensorboard import SummaryWriter

    out = pathlib.Path(args.resume or args.out)
    out.mkdir(parents=True, exist_ok=True)
    start_ray(args.address, args.num_env_runners)
    if args.resume:
        algo = Algorithm.from_checkpoint(str((out / "checkpoint").resolve()))
    else:
        algo = build_config(args).build_algo()
    writer = SummaryWriter(str(out / "tb"))
    rows = []
    first = algo.iteration
    for i in range(first, first + args.iterations):
        started = time.perf_counter()
        result = algo.train()
        runners = result.get("env_runners", {})
        row = {"iteration": i + 1, "env_steps": int(runners.get("num_env_steps_sampled_lifetime", 0)),
               "episode_return_mean": float(runners.get("episode_return_mean", float("nan"))),
               "seconds": time.perf_counter() - started}
        if (i + 1) % args.checkpoint_every == 0 or i + 1 == first + args.iterations:
            algo.save_to_path(str((out / "checkpoint").resolve()))
            module = algo.get_module(policy_ids(args)[0])
            row.update(evaluate_module(module, args.env_id, args.eval_games, args.seed + i, args.game_config))
        for key, value in row.items():
            if key != "iteration":
                writer.add_scalar(key, value, row["env_steps"])
        rows.append(row)
        print(format_row(row), flush=True)
    writer.close()
    algo.stop()
    return rows


def format_row(row):
    parts = [f"iteration {row['iteration']:>4}", f"env steps {row['env_steps']:>9}",
             f"return {row['episode_return_mean']:+.3f}", f"{row['seconds']:.1f}s"]
    parts += [f"{k.replace('win_rate_', '')} {v:.2f}" for k, v in row.items() if k.startswith("win_rate")]
    if "fair_share" in row:
        parts.append(f"(fair share {row['fair_share']:.2f})")
    return "  ".join(parts)


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", choices=list(envs.ENV_IDS), help="the game to train on")
    parser.add_argument("--address", default=None, help="a Ray cluster: 'auto' or ray://host:10001 (default: local)")
    parser.add_argument("--num-env-runners", type=int, default=2, help="RLlib env runner processes (default 2)")
    parser.add_argument("--iterations", type=int, default=20, help="training iterations to run (default 20)")
    parser.add_argument("--policies", choices=("shared", "team"), default="shared",
                        help="shared: one policy for every seat (default); team: one per team (Secret Hitler)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument("--out", default=None, help="output folder (default runs/rllib/<env_id>)")
    parser.add_argument("--resume", default=None, metavar="DIR", help="continue from DIR/checkpoint")
    parser.add_argument("--checkpoint-every", type=int, default=5,
                        help="iterations between checkpoints and evaluations (default 5)")
    parser.add_argument("--eval-games", type=int, default=50, help="games per opponent kind in each evaluation")
    parser.add_argument("--batch-size", type=int, default=4000, help="env steps per training batch (default 4000)")
    parser.add_argument("--epochs", type=int, default=5, help="passes over each batch (default 5)")
    parser.add_argument("--hidden", type=int, default=128, help="width of the two hidden layers (default 128)")
    parser.add_argument("--learning-rate", type=float, default=3e-4, help="Adam learning rate (default 3e-4)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the envs, the policy and the evaluations")
    return parser


def parse_args(argv=None):
    """The run's settings, checked before any work starts (bad values are usage errors)."""
    parser = build_parser()
    args = parser.parse_args(argv)
    game = envs.game_of(args.env_id)
    if args.players is not None and args.players not in game.player_counts:
        parser.error(f"--players {args.players}: {args.env_id} is played by {list(game.player_counts)} players")
    if args.policies == "team" and args.env_id not in TEAM_FUNCTIONS:
        parser.error(f"--policies team needs a team game; {args.env_id} has none (choose shared)")
    for name in ("num_env_runners", "iterations", "checkpoint_every", "eval_games", "batch_size", "epochs"):
        if getattr(args, name) < (0 if name == "num_env_runners" else 1):
            parser.error(f"--{name.replace('_', '-')} is too small")
    if args.resume and not (pathlib.Path(args.resume) / "checkpoint").is_dir():
        parser.error(f"--resume {args.resume}: no checkpoint folder there")
    args.out = args.out or f"runs/rllib/{args.env_id}"
    args.game_config = {"num_players": args.players} if args.players else {}
    return args


def main(argv=None):
    args = parse_args(argv)
    train(args)


if __name__ == "__main__":
    main()
