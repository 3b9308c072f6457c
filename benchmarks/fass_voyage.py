"""Volles Fass voraus over many games: what a voyage holds, and how fast it runs.

    python -m benchmarks.fass_voyage stats --games 1000 [--players 4] [--random-opponents] [--option k=v ...]
    python -m benchmarks.fass_voyage speed [--seconds 20]

``stats`` plays whole games with the heuristic agent in every seat (or one heuristic seat, rotating,
against random players with ``--random-opponents``) and prints per game: the decisions the agents
take, the barrels loaded and unloaded (a forced decision the engine takes by itself counts too), the
barrels lost to pirates and storms, sailors and treasure maps drawn, how often a pile ran out, and the
final doubloons. The play loop runs on the record (engine.apply_action plus the engine's own
one-legal-action rule, replayed here so that every action is seen). ``speed`` measures random play
in decisions per second through the AEC API and through a VectorGame of 64 games. Neither writes a
result file (issue 19's numbers are quoted in ``docs/rules/volles_fass_voraus.md``).
"""

import argparse
import ast
import time

import numpy as np

from agents.base import RandomAgent
from agents.heuristic.volles_fass_voraus import HeuristicAgent
from envs.core import kernels
from envs.volles_fass_voraus import engine as E
from envs.volles_fass_voraus.env import GAME, env as make_env


class Tally:
    def __init__(self):
        self.decisions = self.loaded = self.unloaded = 0

    def count(self, state, action):
        if state.phase == E.PH_LOAD_PLACE:
            self.loaded += 1
        elif state.phase == E.PH_UNLOAD and E.A_SPACE <= action < E.A_COLOUR:
            self.unloaded += 1


def apply_traced(state, action, tally, mask):
    """engine.step without rewards: the action, then every forced one, each counted."""
    tally.count(state, action)
    E.apply_action(state, action)
    while not state.terminal:
        mask[:] = 0
        if E.fill_legal(state, mask) != 1:
            return
        forced = int(np.flatnonzero(mask)[0])
        tally.count(state, forced)
        E.apply_action(state, forced)


def play(config, agents, seed):
    n = config["num_players"]
    records = np.zeros(1, E.STATE)
    kernels.reset_one(records, np.zeros(1, E.STATE), GAME.make_config(config), seed)
    state = records[0]
    for seat, agent in enumerate(agents):
        agent.reset(seat, GAME.env_id, config)
    obs = np.zeros(E.LAYOUT.size, np.float32)
    mask = np.zeros(E.NUM_ACTIONS, np.int8)
    scratch = np.zeros(E.NUM_ACTIONS, np.int8)
    tally = Tally()
    while not state.terminal:
        seat = int(state.current_player)
        kernels.view_one(records, seat, obs, mask)
        tally.decisions += 1
        apply_traced(state, agents[seat].act(obs, mask), tally, scratch)
    on_decks = int((np.asarray(state.deck)[:n] > 0).sum())
    return dict(
        decisions=tally.decisions, loaded=tally.loaded, unloaded=tally.unloaded,
        lost=tally.loaded - tally.unloaded - on_decks, left_aboard=on_decks,
        sailors=int(state.sailors_drawn), maps=int(state.maps_drawn),
        sailor_pile_empty=int(state.sailors_drawn) == len(state.sailor_deck),
        map_pile_empty=int(state.maps_drawn) == len(state.map_deck),
        doubloons=[int(d) for d in state.doubloons[:n]], treasure=[int(t) for t in state.treasure[:n]],
        winner=int(np.argmax(state.reward[:n])),
    )


def stats(args):
    config = GAME.validate({"num_players": args.players, **dict(args.option)})
    n = args.players
    games, heuristic_wins, heuristic_doubloons = [], 0, []
    for game in range(args.games):
        seat = game % n
        if args.random_opponents:
            agents = [HeuristicAgent(game) if s == seat else RandomAgent(game * 10 + s) for s in range(n)]
        else:
            agents = [HeuristicAgent(game * 10 + s) for s in range(n)]
        result = play(config, agents, 1000 + game)
        games.append(result)
        if args.random_opponents:
            heuristic_wins += result["winner"] == seat
            heuristic_doubloons.append(result["doubloons"][seat])
    print(f"{args.games} games, {n} players, {'1 heuristic vs random' if args.random_opponents else 'heuristic'},"
          f" options {dict(args.option)}")
    for key in ("decisions", "loaded", "unloaded", "lost", "left_aboard", "sailors", "maps"):
        values = np.array([g[key] for g in games], float)
        print(f"  {key:12s} mean {values.mean():7.2f}  sd {values.std():6.2f}  min {values.min():4.0f}"
              f"  max {values.max():4.0f}")
    for key in ("sailor_pile_empty", "map_pile_empty"):
        print(f"  {key:17s} in {np.mean([g[key] for g in games]):6.1%} of games")
    doubloons = np.array([g["doubloons"] for g in games], float)
    treasure = np.array([g["treasure"] for g in games], float)
    winners = np.array([max(g["doubloons"]) for g in games], float)
    print(f"  final doubloons per player mean {doubloons.mean():.1f} (sd {doubloons.std():.1f}),"
          f" of which treasure {treasure.mean():.1f}; winner mean {winners.mean():.1f}")
    print("  mean final doubloons by seat: " + ", ".join(f"{m:.1f}" for m in doubloons.mean(axis=0)))
    if args.random_opponents:
        print(f"  heuristic seat wins {heuristic_wins / args.games:.1%} (a random seat would win {1 / n:.0%}),"
              f" its mean doubloons {np.mean(heuristic_doubloons):.1f}")


def speed(args):
    """Random play, decisions per second: AEC, and a VectorGame of 64 games driven from Python."""
    from envs.core.vector import VectorGame

    from .throughput import aec_loop, vector_python_loop

    rng = np.random.default_rng(0)
    env = make_env(num_players=args.players)
    vg = VectorGame(GAME.env_id, 64, seed=0, num_players=args.players)
    vg.reset()
    aec_loop(env, 2000, rng)  # warm up: compile or load every kernel, games ending and restarting
    vector_python_loop(vg, 500, rng)
    rates = {}
    for name, run in (("AEC", lambda: aec_loop(env, 2000, rng)),
                      ("VectorGame(64) from Python", lambda: vector_python_loop(vg, 100, rng))):
        done, start = 0, time.perf_counter()
        while time.perf_counter() - start < args.seconds:
            done += run()
        rates[name] = done / (time.perf_counter() - start)
    print(f"{args.players} players: " + "; ".join(f"{name} {rate:,.0f} decisions/s" for name, rate in rates.items()))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("mode", choices=("stats", "speed"))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--random-opponents", action="store_true")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--option", action="append", default=[], type=lambda text: (
        text.split("=", 1)[0], _value(text.split("=", 1)[1])), help="a game option, e.g. route=short")
    args = parser.parse_args()
    stats(args) if args.mode == "stats" else speed(args)


def _value(text):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


if __name__ == "__main__":
    main()
