"""Time per decision of the games' heuristic agents (agents/heuristic/<game>.py).

    python -m benchmarks.heuristic_speed [--games 20] [--env teufel_teufel_v0 ...] [--seed 0]

For each game it first plays ``--games`` seeded games (player counts in turn, heuristic agents on
the even seats, random players on the odd ones) and records every heuristic decision: the
observation and mask it was given. Then it replays those decisions back to back, for each
recorded game a fresh agent per heuristic seat with the same seed and the same sequence of calls
as in play (so it takes the same actions), timing each ``act`` call alone. Printed per game:
decisions, mean and median wall-clock microseconds per decision, and the mean thread CPU time
per decision (on a loaded machine the wall clock also counts the time the process waited for a
core; the CPU time does not). Nothing is written: the figures depend on the machine and its load.
"""

import argparse
import statistics
import time

import numpy as np

import envs
from agents.base import RandomAgent
from agents.heuristic import heuristic_for
from envs.core.play import play_game

GAMES_WITH_HEURISTICS = ("secret_hitler_v0", "voll_auf_die_18_v0", "volles_fass_voraus_v0", "teufel_teufel_v0",
                         "volle_socke_v0")


class Recorder:
    """Wraps an agent and keeps every (observation, mask) it is asked about, with its answer."""

    def __init__(self, agent, log, index):
        self.agent, self.log, self.index, self.config = agent, log, index, None

    def reset(self, seat, env_id, config):
        self.config = config
        self.agent.reset(seat, env_id, config)

    def act(self, observation, action_mask, info=None):
        action = self.agent.act(observation, action_mask, info)
        self.log.append((self.index, np.array(observation, copy=True), np.array(action_mask, copy=True), action))
        return action


def heuristic_seats(num_players):
    return [seat for seat in range(num_players) if seat % 2 == 0]


def agent_seed(game_seed, seat):
    return game_seed * 100 + seat


def record_game(env_id, num_players, seed, options=None):
    """Play one seeded game; returns ``(config, seats, decisions)``: the full config the agents
    were given, the heuristic seats and the list of ``(index into seats, observation, mask,
    action)`` in the order the heuristics were asked."""
    seats, decisions = heuristic_seats(num_players), []
    lineup = [RandomAgent(seed=agent_seed(seed, seat)) for seat in range(num_players)]
    for index, seat in enumerate(seats):
        lineup[seat] = Recorder(heuristic_for(env_id, seed=agent_seed(seed, seat)), decisions, index)
    play_game(env_id, lineup, seed=seed, config=dict(options or {}, num_players=num_players))
    return lineup[seats[0]].config, seats, decisions


def replay_game(env_id, seed, config, seats, decisions):
    """Fresh agents (same seeds) asked the recorded decisions in order; returns the actions and
    the wall-clock and thread CPU nanoseconds each ``act`` took."""
    agents = [heuristic_for(env_id, seed=agent_seed(seed, seat)) for seat in seats]
    for agent, seat in zip(agents, seats):
        agent.reset(seat, env_id, config)
    actions, wall, cpu = [], [], []
    for index, observation, mask, _ in decisions:
        start, start_cpu = time.perf_counter_ns(), time.thread_time_ns()
        actions.append(agents[index].act(observation, mask, {}))
        cpu.append(time.thread_time_ns() - start_cpu)
        wall.append(time.perf_counter_ns() - start)
    return actions, wall, cpu


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="recorded games per env (player counts in turn)")
    parser.add_argument("--env", nargs="*", default=GAMES_WITH_HEURISTICS)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    print(f"{'game':24s} {'decisions':>9s} {'mean µs':>9s} {'median µs':>9s} {'mean CPU µs':>11s}")
    for env_id in args.env:
        counts = envs.game_of(env_id).player_counts
        games = []
        for k in range(args.games):
            seed = args.seed + k
            games.append((seed, *record_game(env_id, counts[k % len(counts)], seed)))
        replay_game(env_id, *games[0])  # warm-up: imports, numba compilation
        wall, cpu = [], []
        for seed, config, seats, decisions in games:
            actions, game_wall, game_cpu = replay_game(env_id, seed, config, seats, decisions)
            assert actions == [d[3] for d in decisions], "the replay did not repeat the recorded play"
            wall += game_wall
            cpu += game_cpu
        wall, cpu = np.array(wall) / 1e3, np.array(cpu) / 1e3
        print(f"{env_id:24s} {wall.size:9d} {wall.mean():9.1f} {statistics.median(wall):9.1f} {cpu.mean():11.1f}",
              flush=True)


if __name__ == "__main__":
    main()
