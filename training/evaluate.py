"""Tournaments: lineups of agents with seats rotated, win rates with 95% intervals, ratings.

    python -m training.evaluate secret_hitler_v0 --agents random,heuristic,ismcts --games 200

Game ``g`` seats agent ``(seat + g) mod k`` of the ``k`` listed agents, so every agent plays
every seat equally often. A seat *wins* when its final return is positive and the highest at the
table (team games: every member of the winning team; the cooperative game: every seat when the
team wins). Win rates carry Wilson 95% intervals and stand beside the fair share (a seat's win
rate when every seat plays alike, ``Game.fair_share``); games with roles (``Game.role_of``, e.g.
Secret Hitler's liberals and fascists) also get a win rate per role. Ratings are openskill
(Plackett-Luce) with the agents of one game ranked by their seats' mean return.

Writes ``<out>/<env_id>_games.csv`` as it goes (a row per game the moment it ends: a stopped run
keeps its games; Ctrl-C prints the table of the games played and writes the rest), then
``<out>/<env_id>_evaluation.csv`` and ``.png``. ``--replays DIR`` saves every game as a replay
file (``python -m agents.replay DIR/<file>`` shows it). A progress bar gives the ETA.
"""

from __future__ import annotations

import argparse
import csv
import math
import os
import pathlib
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

import envs
from agents import Agent, make_agent
from agents.policy import observation_config
from envs.core import replay
from envs.core.play import play_game

NAME_WIDTH = 28  # agent names longer than this are shortened in tables

#: One game of a tournament (:func:`play_games`): ``game``, ``seed``, ``agents`` (the spec index of
#: each seat), ``returns``, ``won`` and ``roles`` per seat, ``replay`` (its file, or None).
GameRow = dict[str, Any]
#: One agent's results (:func:`summarize`): ``agent`` (its spec), ``seats_played``, ``wins``,
#: ``win_rate``, ``ci_low``, ``ci_high``, ``fair_share``, ``mean_return``, ``rating_mu``,
#: ``rating_sigma``, ``rating`` and ``by_role`` (role -> seats, wins, win_rate).
Result = dict[str, Any]
#: Builds an agent from a seed (for agents that are not made from a spec string).
AgentFactory = Callable[[int], Agent]


def wilson_interval(wins: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (95% for z=1.96)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # The interval holds p; at p = 0 or 1 rounding could put its end a hair past p.
    return max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half))


def seat_wins(returns: Sequence[float] | np.ndarray) -> np.ndarray:
    """Which seats won a game with these final returns."""
    returns = np.asarray(returns, float)
    return (returns > 0) & np.isclose(returns, returns.max())


def lineup_for(game_index: int, num_players: int, num_agents: int) -> list[int]:
    """Agent index for each seat in game ``game_index`` (rotated so seats even out)."""
    return [(seat + game_index) % num_agents for seat in range(num_players)]


def fair_share(env_id: str, num_players: int) -> float:
    """A seat's win rate when every seat plays alike (1 / players unless the game says otherwise)."""
    game = envs.game_of(env_id)
    return game.fair_share(num_players) if game.fair_share is not None else 1.0 / num_players


def evaluate(env_id: str, specs: Sequence[str], games: int, seed: int = 0, config: dict[str, Any] | None = None,
             progress: bool = True, factories: dict[str, AgentFactory] | None = None,
             max_seconds: float | None = None, on_game: Callable[[GameRow], None] | None = None,
             replay_dir: str | os.PathLike | None = None, first_game: int = 0) -> list[Result]:
    """Play ``games`` games; returns one result dict per agent spec (see :func:`summarize`).

    ``factories`` (optional) maps a spec to a function ``seed -> agent`` for agents that are not
    built from a spec string (an in-memory policy during training). With ``max_seconds`` no new
    game starts once that much time has passed (the results count the games actually played).
    ``on_game(row)`` receives each game's row as it ends (:func:`play_games`); with
    ``replay_dir`` every game is also saved there as a replay file. ``first_game``: the index of the
    first game (its seed and seating), so that processes can share the games of one tournament.
    """
    rows = []
    for row in play_games(env_id, specs, games, seed, config, progress, factories, max_seconds, replay_dir,
                          first_game):
        rows.append(row)
        if on_game is not None:
            on_game(row)
    return summarize(env_id, specs, rows)


def play_games(env_id: str, specs: Sequence[str], games: int, seed: int = 0, config: dict[str, Any] | None = None,
               progress: bool = True, factories: dict[str, AgentFactory] | None = None,
               max_seconds: float | None = None, replay_dir: str | os.PathLike | None = None,
               first_game: int = 0) -> Iterator[GameRow]:
    """The games ``first_game`` to ``first_game + games - 1`` of a tournament, one row each as it
    ends: ``game``, ``seed``, the ``agents`` (spec
    index per seat), ``returns``, ``won`` (bools) and ``roles`` per seat (None in games without
    roles), and ``replay`` (its file, or None). Trained policies (``policy:<path>``) are played as
    they were trained: the env observes with their run's observation options unless ``config``
    says otherwise (then the policy refuses it)."""
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    config = {**observation_config(specs, env_id), **(config or {})}
    game = envs.game_of(env_id)
    num_players = config.setdefault("num_players", game.default_players)
    factories = factories or {}
    build = [factories.get(spec, lambda s, spec=spec: make_agent(spec, env_id, seed=s)) for spec in specs]
    iterator = range(first_game, first_game + games)
    if progress:
        from tqdm import tqdm

        iterator = tqdm(iterator, desc=f"{env_id}: {' vs '.join(short_names(specs))}", unit="game",
                        leave=False, dynamic_ncols=True)
    for g in iterator:
        if deadline is not None and time.perf_counter() > deadline:
            break
        seats = lineup_for(g, num_players, len(specs))
        lineup = [build[i](seed * 1_000_003 + g * 101 + seat) for seat, i in enumerate(seats)]
        game_seed = seed * 1_000_003 + g
        ended = {}

        def at_end(env, g=g):
            table = env.unwrapped
            record = table.get_state()[0]
            ended["roles"] = [game.role_of(record, s) if game.role_of else None for s in range(num_players)]
            if replay_dir is not None:
                ended["replay"] = str(replay.save(table, pathlib.Path(replay_dir) / f"{env_id}_game{g:05d}.json"))

        final = play_game(env_id, lineup, seed=game_seed, config=config, on_end=at_end)
        yield {"game": g, "seed": game_seed, "agents": seats, "returns": [float(r) for r in final],
               "won": seat_wins(final).tolist(), "roles": ended["roles"], "replay": ended.get("replay")}


def summarize(env_id: str, specs: Sequence[str], rows: Sequence[GameRow]) -> list[Result]:
    """One result dict per agent spec from the games' rows: seats played, wins, win rate with its
    Wilson 95% interval, the fair share, mean return, openskill rating, and ``by_role`` (role ->
    seats, wins, win rate) in games with roles."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    ratings = [model.rating(name=spec) for spec in specs]
    appearances, wins, returns = np.zeros(len(specs)), np.zeros(len(specs)), np.zeros(len(specs))
    by_role = [{} for _ in specs]
    for row in rows:
        seats, final = row["agents"], row["returns"]
        for seat, i in enumerate(seats):
            appearances[i] += 1
            wins[i] += row["won"][seat]
            returns[i] += final[seat]
            role = row["roles"][seat]
            if role is not None:
                split = by_role[i].setdefault(role, {"seats": 0, "wins": 0})
                split["seats"] += 1
                split["wins"] += int(row["won"][seat])
        present = sorted(set(seats))
        if len(present) > 1:
            scores = [float(np.mean([final[s] for s, i in enumerate(seats) if i == a])) for a in present]
            updated = model.rate([[ratings[a]] for a in present], scores=scores)
            for a, team in zip(present, updated):
                ratings[a] = team[0]
    num_players = len(rows[0]["agents"]) if rows else envs.game_of(env_id).default_players
    share = fair_share(env_id, num_players)
    results = []
    for i, spec in enumerate(specs):
        low, high = wilson_interval(wins[i], appearances[i])
        for split in by_role[i].values():
            split["win_rate"] = split["wins"] / split["seats"]
        results.append({
            "agent": spec, "seats_played": int(appearances[i]), "wins": int(wins[i]),
            "win_rate": wins[i] / max(appearances[i], 1), "ci_low": low, "ci_high": high, "fair_share": share,
            "mean_return": returns[i] / max(appearances[i], 1),
            "rating_mu": ratings[i].mu, "rating_sigma": ratings[i].sigma, "rating": ratings[i].ordinal(),
            "by_role": dict(sorted(by_role[i].items())),
        })
    return results


def short_names(specs: Sequence[str], width: int = NAME_WIDTH) -> list[str]:
    """Names that fit a table column: a policy's checkpoint path shortened to its last folder and
    file (more folders where that is needed to tell two apart), anything longer than ``width``
    cut in the middle, and names a cut made equal numbered ``#1``, ``#2``, ..."""
    policies = {pathlib.PurePath(spec[len("policy:"):]) for spec in specs if spec.startswith("policy:")}
    keep = 2
    while keep < max((len(p.parts) for p in policies), default=0) and \
            len({_tail(p, keep) for p in policies}) < len(policies):
        keep += 1
    names = [f"policy:{_tail(pathlib.PurePath(spec[len('policy:'):]), keep)}" if spec.startswith("policy:") else spec
             for spec in specs]
    names = [_cut(name, width) for name in names]
    owners = {}  # short name -> the specs it stands for, in order
    for name, spec in zip(names, specs):
        if spec not in owners.setdefault(name, []):
            owners[name].append(spec)
    for i, (name, spec) in enumerate(zip(names, specs)):
        if len(owners[name]) > 1:
            number = f"#{owners[name].index(spec) + 1}"
            names[i] = _cut(name, width - len(number)) + number
    return names


def _cut(name, width):
    if len(name) <= width:
        return name
    head = (width - 1) // 2
    return name[:head] + "\u2026" + name[len(name) - (width - 1 - head):]


def _tail(path, parts):
    tail = pathlib.PurePath(*path.parts[-parts:]) if path.parts else path
    return str(tail.with_suffix("") if tail.suffix == ".zip" else tail)


def format_table(env_id: str, results: Sequence[Result]) -> str:
    """The tournament's results as text: one line per agent with its win rate beside the fair share
    (what a seat wins when every seat plays alike), the win rate in each role of games with roles,
    mean return and rating; long agent names shortened, with a key below the table."""
    roles = sorted({role for r in results for role in r.get("by_role", {})})
    names = short_names([r["agent"] for r in results])
    head = (f"{'agent':<{NAME_WIDTH + 2}}{'seats':>7}{'win rate':>10}{'95% CI':>15}{'fair share':>12}"
            + "".join(f"{'as ' + role:>{_role_width(role)}}" for role in roles) + f"{'mean return':>13}{'rating':>9}")
    lines = [env_id, head]
    for name, r in zip(names, results):
        ci = f"[{r['ci_low']:.2f}, {r['ci_high']:.2f}]"
        split = r.get("by_role", {})
        role_rates = "".join(f"{_role_rate(split.get(role)):>{_role_width(role)}}" for role in roles)
        lines.append(f"{name:<{NAME_WIDTH + 2}}{r['seats_played']:>7}{r['win_rate']:>10.2f}{ci:>15}"
                     f"{r.get('fair_share', float('nan')):>12.2f}{role_rates}{r['mean_return']:>+13.2f}{r['rating']:>9.2f}")
    lines.extend(f"  {name} = {r['agent']}" for name, r in zip(names, results) if name != r["agent"])
    return "\n".join(lines)


def _role_width(role):
    return max(len(role) + 5, 10)


def _role_rate(split):
    return "-" if not split else f"{split['win_rate']:.2f} ({split['seats']})"


def write_outputs(env_id: str, results: Sequence[Result],
                  out_dir: str | os.PathLike) -> tuple[pathlib.Path, pathlib.Path]:
    """The results as ``<out>/<env_id>_evaluation.csv`` (one row per agent; per role columns in
    games with roles) and a bar chart ``.png``; returns both paths."""
    out_dir = pathlib.Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    csv_path = out_dir / f"{env_id}_evaluation.csv"
    rows = [_flat(r) for r in results]
    fields = list(dict.fromkeys(key for row in rows for key in row))
    with open(csv_path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    from matplotlib.figure import Figure  # no pyplot: leaves the caller's backend (notebooks) alone

    fig = Figure(figsize=(1.6 * len(results) + 2, 3.2))
    ax = fig.add_subplot()
    rates = [r["win_rate"] for r in results]
    errors = [[r["win_rate"] - r["ci_low"] for r in results], [r["ci_high"] - r["win_rate"] for r in results]]
    ax.bar(short_names([r["agent"] for r in results], width=16), rates, yerr=errors, capsize=4, color="#4a78c2")
    if "fair_share" in results[0]:
        ax.axhline(results[0]["fair_share"], color="grey", linestyle="--", label="fair share")
        ax.legend(fontsize=7)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_ylim(0, 1)
    ax.set_title(env_id)
    fig.tight_layout()
    png_path = out_dir / f"{env_id}_evaluation.png"
    fig.savefig(png_path, dpi=100)
    return csv_path, png_path


def _flat(result):
    row = {key: value for key, value in result.items() if key != "by_role"}
    for role, split in result.get("by_role", {}).items():
        row[f"seats_as_{role}"] = split["seats"]
        row[f"win_rate_as_{role}"] = split["win_rate"]
    return row


class GameLog:
    """``<out>/<env_id>_games.csv``, one row per game written the moment the game ends: a stopped
    run keeps every game it finished."""

    def __init__(self, path, env_id, specs, num_players, replays=False):
        self.specs = specs
        self.roles = envs.game_of(env_id).role_of is not None
        fields = ["game", "seed"]
        for seat in range(num_players):
            fields += [f"agent_{seat}", f"return_{seat}", f"won_{seat}"] + ([f"role_{seat}"] if self.roles else [])
        fields += ["replay"] if replays else []
        self.handle = open(path, "w", newline="")
        self.writer = csv.DictWriter(self.handle, fieldnames=fields, extrasaction="ignore")
        self.writer.writeheader()
        self.handle.flush()

    def write(self, row):
        line = {"game": row["game"], "seed": row["seed"], "replay": row["replay"]}
        for seat, agent in enumerate(row["agents"]):
            line[f"agent_{seat}"] = self.specs[agent]
            line[f"return_{seat}"] = row["returns"][seat]
            line[f"won_{seat}"] = int(row["won"][seat])
            line[f"role_{seat}"] = row["roles"][seat]
        self.writer.writerow(line)
        self.handle.flush()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.handle.close()


def build_parser():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("env_id", choices=list(envs.ENV_IDS), help="the game")
    parser.add_argument("--agents", default="random,heuristic",
                        help="comma-separated: random, heuristic, ismcts[:iterations], policy:<path.zip> "
                             "(default random,heuristic)")
    parser.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    parser.add_argument("--players", type=int, default=None, help="seats (default: the game's default)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game; game g plays seed*1000003+g")
    parser.add_argument("--out", default="runs/evaluation",
                        help="folder for <env_id>_games.csv (written as games end), _evaluation.csv and .png "
                             "(default runs/evaluation)")
    parser.add_argument("--replays", default=None, metavar="DIR",
                        help="also save every game as a replay file in DIR (see python -m agents.replay)")
    return parser


def main(argv: Sequence[str] | None = None) -> None:
    parser = build_parser()
    args = parser.parse_args(argv)
    specs, config = check_arguments(parser, args)
    out = pathlib.Path(args.out)
    num_players = config.get("num_players", envs.game_of(args.env_id).default_players)
    rows = []
    games_path = out / f"{args.env_id}_games.csv"
    with GameLog(games_path, args.env_id, specs, num_players, replays=args.replays is not None) as log:
        try:
            for row in play_games(args.env_id, specs, args.games, args.seed, config, replay_dir=args.replays):
                rows.append(row)
                log.write(row)
        except KeyboardInterrupt:
            print(f"\nstopped: {len(rows)} of {args.games} games played")
    if not rows:
        print(f"no game finished; {games_path} holds the header only")
        return
    results = summarize(args.env_id, specs, rows)
    print(format_table(args.env_id, results))
    csv_path, png_path = write_outputs(args.env_id, results, out)
    print(f"wrote {games_path}, {csv_path} and {png_path}")


def check_arguments(parser, args):
    """Every argument checked before any game is played (a usage error otherwise); the agent specs
    and the env config. Creates the ``--out`` directory, so an unusable path fails now."""
    specs = [s.strip() for s in args.agents.split(",") if s.strip()]
    if not specs:
        parser.error("--agents needs at least one agent")
    if args.games < 1:
        parser.error("--games must be at least 1")
    if not 0 <= args.seed < 2**32:
        parser.error(f"--seed {args.seed}: choose an integer from 0 to 2**32 - 1")
    game = envs.game_of(args.env_id)
    if args.players is not None and args.players not in game.player_counts:
        parser.error(f"--players {args.players}: {args.env_id} is played by {list(game.player_counts)} players")
    config = {} if args.players is None else {"num_players": args.players}
    for spec in specs:
        try:
            make_agent(spec, args.env_id, seed=0)
        except ValueError as error:
            parser.error(f"--agents: {error}")
    out = pathlib.Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:  # a file in the way, no permission, ...
        parser.error(f"--out {args.out}: cannot make that directory ({error.strerror or error})")
    if not os.access(out, os.W_OK):
        parser.error(f"--out {args.out}: the directory is not writable")
    if args.replays is not None:
        try:
            pathlib.Path(args.replays).mkdir(parents=True, exist_ok=True)
        except OSError as error:
            parser.error(f"--replays {args.replays}: cannot make that directory ({error.strerror or error})")
    return specs, config


if __name__ == "__main__":
    main()
