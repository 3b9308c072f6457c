"""The OpenSpiel bridge: its speed against our AEC loop, and OpenSpiel's ISMCTS bot against our agents.

    python -m benchmarks.openspiel [--quick] [--games N] [--seconds T]

1. Decisions per second of uniformly random legal play, each game at its default player count:
   our PettingZoo AEC loop (agent_iter / last / step: observation and mask every decision)
   against the same games through OpenSpiel's API (``legal_actions`` / ``apply_action``, and
   again with ``information_state_tensor`` of the seat to act, as an RL loop reads it). A
   decision is one seat's action (a simultaneous step of n seats counts n). Then the cost of
   the calls OpenSpiel's search bots make per node.
2. A short tournament in each competitive (turn-based) game: OpenSpiel's ISMCTS bot
   (``open_spiel.python.algorithms.ismcts``, UCT c=2) in every other seat, against our heuristic
   and against our ISMCTS agent (``agents.make_agent("ismcts:N")``) in the rest, the seats
   swapped between games. OpenSpiel's bot runs twice: with OpenSpiel's ``RandomRolloutEvaluator``
   (rollouts through the Python API) and with :class:`envs.openspiel.PlayoutEvaluator` (rollouts
   inside numba). The search bots get equal time per decision (``--seconds``): after each search
   the simulations of the next are set from the bot's running mean time per simulation, and the
   table reports the time and simulations they actually used.

Writes benchmarks/results/openspiel.md.
"""

import argparse
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms.evaluate_bots import evaluate_bots

import envs
from agents import make_agent
from envs import openspiel

from .common import fmt_rate, machine_line, median_rate, write_result
from .throughput import aec_loop

OPENSPIEL_BOTS = {"OpenSpiel ISMCTS (Python rollouts)": None,
                  "OpenSpiel ISMCTS (numba playouts)": openspiel.PlayoutEvaluator}
OPPONENTS = ("heuristic", "ismcts")


# ---- speed ---------------------------------------------------------------------------------


def bridge_loop(game, decisions, rng, observe=False):
    """Random legal play through OpenSpiel's API until ``decisions`` seat actions were taken."""
    done = 0
    players = game.num_players()
    while done < decisions:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_simultaneous_node():
                joint = []
                for p in range(players):
                    legal = state.legal_actions(p)
                    if observe:
                        state.information_state_tensor(p)
                    joint.append(legal[rng.integers(len(legal))])
                state.apply_actions(joint)
                done += players
            else:
                legal = state.legal_actions()
                if observe:
                    state.information_state_tensor(state.current_player())
                state.apply_action(legal[rng.integers(len(legal))])
                done += 1
    return done


def mid_game_states(game, count, seed):
    """States of random games at varied depths where the seat to act has a choice (sequential games)."""
    rng = np.random.default_rng(seed)
    states = []
    while len(states) < count:
        state = game.new_initial_state()
        stop = int(rng.integers(0, 40))
        for _ in range(stop):
            if state.is_terminal():
                break
            legal = state.legal_actions()
            state.apply_action(legal[rng.integers(len(legal))])
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            states.append(state)
    return states


def call_costs(game, repeats):
    """Microseconds per call of what a search bot does at each node, averaged over states."""
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    states = mid_game_states(game, 5, seed=1) if game.get_type().dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL \
        else [game.new_initial_state()]
    calls = {
        "clone": lambda s: s.clone(),
        "resample_from_infostate": lambda s: s.resample_from_infostate(max(s.current_player(), 0), sampler),
        "information_state_string": lambda s: s.information_state_string(max(s.current_player(), 0)),
        "information_state_tensor": lambda s: s.information_state_tensor(max(s.current_player(), 0)),
        "legal_actions": lambda s: s.legal_actions(max(s.current_player(), 0)),
    }
    costs = {}
    for name, call in calls.items():
        start = time.perf_counter()
        for _ in range(repeats):
            for state in states:
                call(state)
        costs[name] = (time.perf_counter() - start) / (repeats * len(states)) * 1e6
    return costs


def measure_speed(quick):
    rng = np.random.default_rng(0)
    repeats = 3 if quick else 5
    decisions = 2000 if quick else 8000
    rows = []
    for env_id in envs.ENV_IDS:
        game = openspiel.load(env_id)
        rows.append((env_id, game.num_players(),
                     median_rate(lambda: aec_loop(envs.make(env_id), decisions, rng), repeats),
                     median_rate(lambda: bridge_loop(game, decisions, rng), repeats),
                     median_rate(lambda: bridge_loop(game, decisions, rng, observe=True), repeats),
                     call_costs(game, 20 if quick else 100)))
    return rows


# ---- tournament ----------------------------------------------------------------------------


class Budget:
    """Simulations per decision that keep a search bot near ``seconds`` per decision: updated
    after every search from the running mean seconds per simulation (shared by a row's games)."""

    def __init__(self, seconds, simulations):
        self.seconds, self.simulations, self.per_simulation = seconds, simulations, None

    def update(self, elapsed, simulations):
        rate = elapsed / simulations
        self.per_simulation = rate if self.per_simulation is None else 0.7 * self.per_simulation + 0.3 * rate
        self.simulations = max(2, round(self.seconds / self.per_simulation))


class TimedBot(pyspiel.Bot):
    """Wraps a bot: records the seconds (and simulations) of each decision with a choice; a
    search bot gets its simulations from ``budget`` before each search (``set_simulations``)."""

    def __init__(self, bot, player, budget=None, set_simulations=None):
        pyspiel.Bot.__init__(self)
        self.bot, self.player, self.budget, self.set_simulations = bot, player, budget, set_simulations
        self.seconds, self.simulations = [], []

    def restart_at(self, state):
        self.bot.restart_at(state)

    def step(self, state):
        choice = len(state.legal_actions(self.player)) > 1
        simulations = self.budget.simulations if self.budget else 0
        if self.budget:
            self.set_simulations(simulations)
        start = time.perf_counter()
        action = self.bot.step(state)
        elapsed = time.perf_counter() - start
        if choice:
            self.seconds.append(elapsed)
            if self.budget:
                self.simulations.append(simulations)
                self.budget.update(elapsed, simulations)
        return action


def openspiel_bot(game, evaluator, seed, player, budget):
    bot = openspiel.ismcts_bot(game, max_simulations=budget.simulations, seed=seed,
                               evaluator=evaluator(seed=seed) if evaluator else None)
    return TimedBot(bot, player, budget, lambda n: setattr(bot, "_max_simulations", n))


def our_bot(env_id, spec, seed, player, budget=None):
    agent = make_agent(spec, env_id, seed=seed)
    bot = openspiel.AgentBot(agent, player)
    if spec != "ismcts":
        return TimedBot(bot, player)
    if not hasattr(agent, "iterations"):
        raise RuntimeError("agents.ismcts no longer has `iterations`: update the time budgeting here")
    return TimedBot(bot, player, budget, lambda n: setattr(agent, "iterations", n))


def starting_budgets(env_id, game, seconds):
    """A first guess of each search bot's simulations per decision, from a few sample positions."""
    states = mid_game_states(game, 3, seed=2)
    budgets = {}
    makers = {name: (lambda b, p, e=evaluator: openspiel_bot(game, e, 0, p, b))
              for name, evaluator in OPENSPIEL_BOTS.items()}
    makers["ismcts"] = lambda b, p: our_bot(env_id, "ismcts", 0, p, b)
    for name, make in makers.items():
        budget = Budget(seconds, 8)
        for state in states:
            bot = make(budget, state.current_player())
            bot.restart_at(state)
            bot.step(state.clone())
        budgets[name] = budget.simulations
    return budgets


def play_game(env_id, seed, evaluator, opponent, budgets, swap):
    """One game: OpenSpiel's bot in the even seats (odd when ``swap``), ``opponent`` in the rest.
    Returns the returns per seat, which seats are ours, and the bots."""
    game = openspiel.load(env_id, seed=seed)
    bots, ours = [], []
    for player in range(game.num_players()):
        mine = (player % 2 == 1) != swap
        bot_seed = seed * 100 + player
        bots.append(our_bot(env_id, opponent, bot_seed, player, budgets["ismcts"]) if mine
                    else openspiel_bot(game, evaluator, bot_seed, player, budgets["openspiel"]))
        ours.append(mine)
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(seed))
    return returns, ours, bots


def run_tournament(games, seconds):
    results = []
    for env_id in envs.ENV_IDS:
        if envs.game_of(env_id).simultaneous:
            continue  # the cooperative game has no opponents to beat
        start = starting_budgets(env_id, openspiel.load(env_id), seconds)
        print(f"{env_id}: starting simulations per decision {start}", flush=True)
        for name, evaluator in OPENSPIEL_BOTS.items():
            for opponent in OPPONENTS:
                budgets = {"openspiel": Budget(seconds, start[name]), "ismcts": Budget(seconds, start["ismcts"])}
                row = dict(env_id=env_id, openspiel=name, opponent=opponent, games=games,
                           openspiel_return=[], opponent_return=[])
                timing = {False: ([], []), True: ([], [])}  # ours? -> (seconds, simulations)
                for g in range(games):
                    returns, ours, bots = play_game(env_id, 1000 + g, evaluator, opponent, budgets, swap=g % 2 == 1)
                    row["openspiel_return"].append(np.mean([r for r, o in zip(returns, ours) if not o]))
                    row["opponent_return"].append(np.mean([r for r, o in zip(returns, ours) if o]))
                    for bot, mine in zip(bots, ours):
                        timing[mine][0].extend(bot.seconds)
                        timing[mine][1].extend(bot.simulations)
                for mine, key in ((False, "openspiel"), (True, "opponent")):
                    row[f"{key}_seconds"] = statistics.mean(timing[mine][0]) if timing[mine][0] else 0.0
                    row[f"{key}_simulations"] = statistics.mean(timing[mine][1]) if timing[mine][1] else None
                results.append(row)
                print(f"  {name} vs {opponent}: {np.mean(row['openspiel_return']):+.2f} vs "
                      f"{np.mean(row['opponent_return']):+.2f} ({row['openspiel_seconds']:.3f} s, "
                      f"{row['openspiel_simulations']:.0f} sims vs {row['opponent_seconds']:.3f} s per decision)",
                      flush=True)
    return results


# ---- report --------------------------------------------------------------------------------


def _mean_se(values):
    values = np.asarray(values, float)
    se = values.std(ddof=1) / np.sqrt(values.size) if values.size > 1 else 0.0
    return f"{values.mean():+.2f} ± {se:.2f}"


def report(speed, tournament, games, seconds, quick):
    lines = [
        "# OpenSpiel bridge",
        "",
        "`python -m benchmarks.openspiel" + (" --quick" if quick else "") + f" --games {games} --seconds {seconds}`"
        f" on {machine_line()}. **The machine was shared with other engineers' jobs while this ran**:",
        "absolute numbers are low and noisy; compare rows of one table, which ran back to back.",
        "",
        "## Decisions per second, random legal play",
        "",
        "A decision is one seat's action (a simultaneous step of n seats counts n). The AEC loop",
        "computes the observation and mask of every decision; the bridge rows are OpenSpiel's API",
        "(`legal_actions` / `apply_action`), without and with `information_state_tensor` of the seat",
        "to act. Median of repeats. OpenSpiel hands tensors over as Python lists (up to 2878 floats",
        "here), which costs more than the step; `state.observe(player, out)` fills a numpy array instead.",
        "",
        "| env (players) | AEC loop | OpenSpiel API | OpenSpiel API + tensor | API / AEC |",
        "|---|---:|---:|---:|---:|",
    ]
    for env_id, players, aec, api, api_obs, _ in speed:
        lines.append(f"| {env_id} ({players}p) | {fmt_rate(aec)} | {fmt_rate(api)} | {fmt_rate(api_obs)} "
                     f"| {api / aec:.2f} |")
    lines += [
        "",
        "Microseconds per call at mid-game states (what OpenSpiel's search bots call at every node;",
        "`clone` rebuilds a state through the Python game, `resample_from_infostate` is a clone plus",
        "the engine's `determinize`, the strings spell out the observation vector):",
        "",
        "| env | " + " | ".join(speed[0][5]) + " |",
        "|---|" + "---:|" * len(speed[0][5]),
    ]
    for env_id, _, _, _, _, costs in speed:
        lines.append(f"| {env_id} | " + " | ".join(f"{c:.0f}" for c in costs.values()) + " |")
    lines += [
        "",
        "## Tournament: OpenSpiel's ISMCTS bot against our agents",
        "",
        f"Each row: {games} games at the default player count, OpenSpiel's bot in the even seats and",
        "the opponent in the odd ones, swapped every other game. Mean return per seat and game of",
        "each side (± standard error over games; returns are -1..+1, team games count each member).",
        "Voll auf die 18 is cooperative (one shared reward), so it has no tournament.",
        f"Search bots aim at {seconds} s per decision: after every search their simulations for the next",
        "are set from their running mean time per simulation. The last columns give the time each side",
        "actually took per decision with a choice, and the mean simulations (our ISMCTS: iterations).",
        "",
        "| env | OpenSpiel bot | opponent | OpenSpiel side | opponent side | s/decision (simulations) OpenSpiel "
        "| s/decision (simulations) opponent |",
        "|---|---|---|---:|---:|---:|---:|",
    ]
    for r in tournament:
        theirs = f"{r['openspiel_seconds']:.3f} ({r['openspiel_simulations']:.0f})"
        mine = f"{r['opponent_seconds']:.3f}"
        if r["opponent_simulations"]:
            mine += f" ({r['opponent_simulations']:.0f})"
        lines.append(f"| {r['env_id']} | {r['openspiel']} | {r['opponent']} | {_mean_se(r['openspiel_return'])} "
                     f"| {_mean_se(r['opponent_return'])} | {theirs} | {mine} |")
    lines += [
        "",
        "Reading it: OpenSpiel's ISMCTS with its own `RandomRolloutEvaluator` rolls every simulation",
        "out through the Python API, so at equal time it manages far fewer simulations than our",
        "ISMCTS, whose playouts run inside numba; `PlayoutEvaluator` gives OpenSpiel's search the",
        "same numba playouts. With this few games per row the differences are indicative only, and in",
        "Secret Hitler a side's return follows the teams its seats were dealt as much as its play.",
        "",
    ]
    return "\n".join(lines)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--games", type=int, default=4, help="games per tournament row")
    parser.add_argument("--seconds", type=float, default=0.2, help="time per decision of the search bots")
    args = parser.parse_args(argv)
    speed = measure_speed(args.quick)
    print("speed done", flush=True)
    tournament = run_tournament(args.games, args.seconds)
    path = write_result("openspiel", report(speed, tournament, args.games, args.seconds, args.quick))
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
