"""How strong is a policy? Batched games against fixed opponents, counted without bias.

:func:`policy_strength` plays a policy (any ``(obs, masks) -> actions`` callable, such as
:class:`training.vector_env.SnapshotPolicy` around a MaskablePPO policy) in one seat of each game
of a :class:`~training.vector_env.LearnerVecEnv` whose other seats are all random players or all
heuristic agents; in the cooperative game it fills every seat of a
:class:`~training.vector_env.TeamVecEnv`. The learner's seat is drawn at random per game.

The policy samples from its masked distribution unless ``deterministic``: a policy that only
looks strong under argmax (or loops under it until the game is cut off) is not reported as
strong. Each game slot counts exactly its first ``k`` episodes, so short games are not
over-represented. A win is the tournament's (:func:`training.evaluate.seat_wins`): the seat's
return positive and the highest. Results carry the fair share (what a seat wins if every seat
plays alike: ``Game.fair_share``) and, for games with roles, a win rate per role.
"""

import math

import numpy as np

import envs
from agents.heuristic import has_heuristic
from agents.policy import trained_observation, trained_players
from training.evaluate import fair_share, wilson_interval
from training.vector_env import LearnerVecEnv, SnapshotPolicy, TeamVecEnv

OPPONENT_WEIGHTS = {"random": (1.0, 0.0, 0.0), "heuristic": (0.0, 1.0, 0.0)}


class AgentsAsPolicy:
    """Per-game agents (``agents.Agent``, e.g. the heuristic) acting as one batched policy.

    Row ``i`` of a step is game ``i`` of ``env``; its agent is built by ``make(seed)`` and reset
    for the learner's seat whenever that game starts a new episode. Agents that search
    (``needs_record``) get the game's record, as the tournament runner gives it.
    """

    def __init__(self, env, make):
        self.env, self.make = env, make
        self.agents, self.episodes = {}, {}

    def __call__(self, obs, masks):
        env = self.env
        slots = env._slots
        players = env.num_players if env.game.simultaneous else 1
        actions = np.empty(len(obs), np.int64)
        for k in range(len(obs)):
            game, seat = (k // players, k % players) if players > 1 else (k, int(slots[k]["learner"]))
            episode = int(slots[game]["episode"])
            if self.episodes.get(k) != episode:
                self.agents[k] = agent = self.make(episode * 100_003 + k)
                agent.reset(seat, env.env_id, env.config)
                self.episodes[k] = episode
            agent = self.agents[k]
            info = {"record": env._states[game : game + 1].copy()} if getattr(agent, "needs_record", False) else {}
            actions[k] = agent.act(obs[k], masks[k], info)
        return actions


def policy_strength(policy, env_id, opponent, games, seed=0, config=None, num_envs=64, progress=False):
    """Win rate of ``policy`` against ``opponent`` ("random" or "heuristic"; ignored in the
    cooperative game, where it is the team's success rate) over ``games`` games.

    ``policy`` is a batched ``(obs, masks) -> actions`` callable, or an agent spec such as
    ``"heuristic"`` (see ``agents.make_agent``) played through :class:`AgentsAsPolicy`.
    ``progress`` shows a bar of the games counted, with an ETA."""
    if opponent not in OPPONENT_WEIGHTS:
        raise ValueError(f"opponent must be one of {list(OPPONENT_WEIGHTS)}, got {opponent!r}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive integer, got {games!r}")
    game = envs.game_of(env_id)
    slots = min(games, num_envs)
    if game.simultaneous:
        env = TeamVecEnv(env_id, num_games=slots, seed=seed, config=config)
        seats = env.num_players
    else:
        env = LearnerVecEnv(env_id, num_envs=slots, seed=seed, config=config, weights=OPPONENT_WEIGHTS[opponent])
        seats = 1
    if isinstance(policy, str):
        from agents import make_agent

        spec = policy
        policy = AgentsAsPolicy(env, lambda s: make_agent(spec, env_id, seed=s))
    quota = math.ceil(games / slots)
    counted = np.zeros(slots, np.int64)
    wins, roles = [], []
    bar = _progress_bar(progress, slots * quota, f"evaluating vs {opponent}" if seats == 1 else "evaluating the team")
    obs = env.reset()
    while counted.sum() < slots * quota:
        obs, _, dones, infos = env.step(policy(obs, env.action_masks()))
        for k in np.flatnonzero(dones):
            slot = k // seats
            if k % seats or counted[slot] >= quota:
                continue  # one count per game; every slot plays the same number of games
            counted[slot] += 1
            bar.update(1)
            wins.append(infos[k]["won"])
            roles.append(infos[k].get("role"))
    bar.close()
    wins = np.asarray(wins[:games] if len(wins) > games else wins, bool)
    return _summary(env_id, env.num_players, wins, roles[: len(wins)])


def _progress_bar(shown, total, description):
    from tqdm import tqdm

    return tqdm(total=total, desc=description, unit="game", leave=False, disable=not shown, dynamic_ncols=True)


def _summary(env_id, num_players, wins, roles):
    low, high = wilson_interval(int(wins.sum()), wins.size)
    result = {"games": int(wins.size), "wins": int(wins.sum()), "win_rate": float(wins.mean()),
              "ci_low": low, "ci_high": high, "fair_share": fair_share(env_id, num_players)}
    named = sorted({r for r in roles if r is not None})
    if named:
        result["by_role"] = {}
        for role in named:
            mine = wins[[r == role for r in roles]]
            result["by_role"][role] = {"games": int(mine.size), "win_rate": float(mine.mean())}
    return result


def model_strength(model, env_id, games, seed=0, config=None, deterministic=False, progress=False):
    """:func:`policy_strength` of a MaskablePPO model against random and heuristic opponents (the
    cooperative game: one team success rate). Keys ``vs_random``, ``vs_heuristic`` or ``team``."""
    policy = SnapshotPolicy(model.policy, deterministic=deterministic)
    game = envs.game_of(env_id)
    if game.simultaneous:
        return {"team": policy_strength(policy, env_id, "random", games, seed, config, progress=progress)}
    opponents = ["random", "heuristic"] if has_heuristic(env_id) else ["random"]
    return {f"vs_{opponent}": policy_strength(policy, env_id, opponent, games, seed, config, progress=progress)
            for opponent in opponents}


#: Lines played without a learned policy, to set beside it: name -> (the agent in the policy's seat,
#: its opponents; in the cooperative game the agent plays every seat and the opponents are ignored).
BASELINE_LINES = {"heuristic_vs_random": ("heuristic", "random"),
                  "heuristic_vs_heuristic": ("heuristic", "heuristic"),
                  "random_vs_random": ("random", "random")}


def baseline_line(name, env_id, games, seed=0, config=None, progress=False):
    """One of :data:`BASELINE_LINES`, by :func:`policy_strength`."""
    agent, opponent = BASELINE_LINES[name]
    return policy_strength(agent, env_id, opponent, games, seed, config, progress=progress)


def baseline_strength(env_id, lines, games, seed=0, config=None):
    """What other players make of the policy's place, on the same seeds as the policy's ``lines``
    (keys of :func:`model_strength`): the heuristic agent in its seat against the same opponents
    (the cooperative game: the heuristic team), and a random agent in its seat against random
    players, the bar for beating random play (in a team game below the fair share: random team-mates)."""
    played = {}  # the label printed -> the BASELINE_LINES name
    if has_heuristic(env_id):
        for line in lines:  # "vs_<opponents>", or "team" (the cooperative game)
            name = "heuristic_vs_random" if line == "team" else f"heuristic_{line}"
            played[f"heuristic {line.replace('_', ' ')}"] = name
    if "vs_random" in lines:
        played["random vs random"] = "random_vs_random"
    return {label: baseline_line(name, env_id, games, seed, config, progress=True) for label, name in played.items()}


def format_strength(env_id, results):
    """A small table: win rate, its interval and the fair share; per role where the game has roles."""
    width = max(12, *(len(name) + 2 for name in results))
    cooperative = envs.game_of(env_id).simultaneous  # one team: a success rate, no share of wins
    lines = [f"{'opponents':<{width}}{'games':>7}{'win rate':>10}{'95% CI':>16}{'fair share':>12}"]
    for name, r in results.items():
        ci = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
        fair = f"{'-':>12}" if cooperative else f"{r['fair_share']:>12.3f}"
        lines.append(f"{name:<{width}}{r['games']:>7}{r['win_rate']:>10.3f}{ci:>16}{fair}")
        for role, split in r.get("by_role", {}).items():
            lines.append(f"{'  as ' + role:<{width}}{split['games']:>7}{split['win_rate']:>10.3f}")
    return "\n".join(lines)


def main(argv=None):
    """``python -m training.policy_eval <env_id> <model.zip>``: a saved policy's batched win rates
    against random and heuristic opponents (the numbers training.selfplay's evaluations and
    benchmarks.learning report), on seeds of your choice."""
    import argparse

    import torch

    from agents.policy import check_fits, load_model

    parser = argparse.ArgumentParser(description=main.__doc__)
    parser.add_argument("env_id", help=f"one of {', '.join(envs.ENV_IDS)}")
    parser.add_argument("model", help="a MaskablePPO checkpoint (.zip), e.g. runs/<run>/best.zip")
    parser.add_argument("--players", type=int,
                        help="player count (default: the run's, from args.json beside the model, else the env's)")
    parser.add_argument("--games", type=int, default=400, help="games per opponent kind (default 400)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game (default 0)")
    parser.add_argument("--deterministic", action="store_true", help="argmax instead of sampling the policy")
    parser.add_argument("--baseline", action="store_true",
                        help="also the heuristic agent (the cooperative game: the heuristic team) and a random agent "
                             "in the same seat on the same seeds, for comparison")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error(f"--games must be at least 1, got {args.games}")
    try:
        envs.game_of(args.env_id)
    except ValueError as error:
        parser.error(str(error))
    players = args.players or trained_players(args.model, args.env_id) or envs.game_of(args.env_id).default_players
    config = {"num_players": players, **trained_observation(args.model, args.env_id)}
    try:
        model = load_model(args.model)
        check_fits(model, args.env_id)
    except (OSError, ValueError) as error:
        parser.error(f"{args.model}: {error}")
    torch.manual_seed(args.seed)  # the policy samples its actions: the same seed, the same games
    results = model_strength(model, args.env_id, args.games, args.seed, config, args.deterministic, progress=True)
    if args.baseline:
        results.update(baseline_strength(args.env_id, list(results), args.games, args.seed, config))
    print(f"{args.env_id}, {players} players")
    print(format_strength(args.env_id, results))


if __name__ == "__main__":
    main()
