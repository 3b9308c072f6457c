"""Information-set Monte Carlo tree search for any game: the agent around :mod:`envs.core.search`.

The whole search of a decision (determinization, selection, expansion, playout, backup) runs in
numba; this class only holds the budget and the options, seeds the trees and picks the root
action with the most visits. See ``envs/core/search.py`` for the algorithm.

Specs (``agents.make_agent``)::

    ismcts                    DEFAULT_ITERATIONS iterations per decision
    ismcts:<iterations>       e.g. ismcts:2000
    ismcts:<seconds>s         a time budget per decision, e.g. ismcts:1s, ismcts:0.25s
    ismcts:<budget>:key=value:...   options: threads=<trees>, cutoff=<decisions>|none, c=<exploration>,
                              eps=<share of random playout decisions>, policy=greedy|heuristic,
                              bias=<progressive bias towards the heuristic's move in the tree>
                              (colons, not commas: command lines list agents with commas)

``iterations`` counts all trees together (they are split evenly), so ``ismcts:1000`` costs the
same work on any machine; ``threads`` is the number of independent trees grown in parallel and
merged at the root (default: numba's thread count; ``threads=1`` searches one tree in the calling
thread). With a fixed ``threads`` the same seed gives the same choices. ``cutoff`` stops each
random playout after that many decisions and asks the engine's ``playout_value`` for the rest
(``none``: play to the end; engines without ``playout_value`` always play to the end). Without
it each game gets its own default, :data:`DEFAULT_CUTOFFS` (the trials listed there chose each
game's playouts). ``eps`` makes the playouts of a turn-based game
epsilon-greedy: each decision is uniformly random with probability ``eps`` and otherwise the legal
action whose one step scores best for the seat to act by the engine's ``playout_value``
(``envs.core.search.greedy_action``); ``eps=1`` is the plain random playout. Without it each game
gets :data:`DEFAULT_EPSILONS` (1 where none is listed). ``policy=heuristic`` plays the playouts'
non-random decisions by the game's compiled heuristic (agents/heuristic) for every seat, from that
seat's observation of the determinized record (``envs.core.search.strategy_action``) instead of
greedily; a game whose heuristic agent is Python only (Voll auf die 18: it remembers what it saw)
plays them by its compiled playout player instead, a memoryless port of that agent's decisions
(``agents.heuristic.playout_strategy``; agents/heuristic/voll_auf_die_18_playout.py), not the agent
itself. Games list their default in :data:`DEFAULT_POLICIES` (``greedy`` where none is listed).
With it, ``bias`` > 0 also makes every tree node favour the heuristic's move there: expanded first,
and raised in selection by ``bias / (visits + 1)`` (progressive bias), so a search whose playouts
cannot yet tell the moves apart keeps to the heuristic's (default :data:`DEFAULT_BIASES`, else 0).

The agent receives the true record in ``info["record"]`` (the tournament runner passes it to
agents with ``needs_record = True``) and touches it only through the engine's ``determinize``.
"""

import math
import time

import numba
import numpy as np

import envs
from envs.core.game import engine_function
from envs.core.search import NO_CUTOFF, Forest, register_playout_strategy

from .base import Agent

DEFAULT_ITERATIONS = 1000
DEFAULT_EXPLORATION = 0.7
#: The shipped playouts per game (what a spec without these options gets), chosen in trials of one
#: ISMCTS seat at a fixed number of iterations against heuristic agents in every other seat, seats
#: rotated (python -m benchmarks.search_trials; fair share in brackets, wins of 60-200 games):
#:
#: - Secret Hitler: heuristic playouts to the end, eps 0.1: 0.530 at 300 iterations (0.48), where
#:   plain random playouts won 0.425 and greedy cut-off ones 0.415.
#: - Volles Fass voraus: heuristic playouts to the end, eps 0.1: 0.650 at 300 iterations (0.25);
#:   cut off after 10 decisions they won 0.15, greedy cut-off ones 0.21, random ones 0.13.
#: - Volle Socke: heuristic playouts, eps 0.1, cut off after 40 decisions: 0.333 at 400 iterations,
#:   0.438 at 1,000 (0.25); cut off after 15: 0.150; to the end they are 12x slower (~300 it/s).
#: - Teufel Teufel: heuristic playouts to the end, eps 0.05, progressive bias 30: 0.630 at 300
#:   iterations (0.55); with eps 0.1: bias 30 0.620 (0.54), bias 100 0.570 (0.57), bias 10 0.470
#:   (0.58), bias 4 0.420 (0.58), bias 1 0.360, no bias 0.310; cut off after 30: 0.380, greedy
#:   cut-off playouts 0.29-0.31, random ones 0.10.
#: - Voll auf die 18 (cooperative: every seat the spec, 60 chapters at 2 players, the team's wins per
#:   seat; the all-heuristic team won 0.283): playouts by its compiled playout player (its Python
#:   heuristic remembers what it saw; agents/heuristic/voll_auf_die_18_playout.py), eps 0.1,
#:   progressive bias 30, cut off after 10 moments: 0.567 at 100 iterations (34 of 60 chapters);
#:   without bias 1 of the first 19 chapters (stopped there), bias 10 4 of the first 7 (stopped for
#:   time); the playout player's own team 0.383; random playouts, to the end or cut off after 10 or
#:   30, 0.000.
#:
#: Playout cut-off per game (decisions, in a simultaneous game moments; games not listed play to the end).
DEFAULT_CUTOFFS = {"volle_socke_v0": 40, "voll_auf_die_18_v0": 10}
#: Share of uniformly random decisions in the playouts per game (the rest are played by the policy
#: below); games not listed play uniformly random playouts.
DEFAULT_EPSILONS = {"secret_hitler_v0": 0.1, "teufel_teufel_v0": 0.05, "volles_fass_voraus_v0": 0.1,
                    "volle_socke_v0": 0.1, "voll_auf_die_18_v0": 0.1}
#: Who plays the playouts' non-random decisions per game: ``greedy`` (envs.core.search.greedy_action)
#: or ``heuristic`` (the game's compiled heuristic, or its compiled playout player where the heuristic
#: is Python only; every seat); ``greedy`` where none is listed.
DEFAULT_POLICIES = {"secret_hitler_v0": "heuristic", "teufel_teufel_v0": "heuristic",
                    "volles_fass_voraus_v0": "heuristic", "volle_socke_v0": "heuristic",
                    "voll_auf_die_18_v0": "heuristic"}
POLICIES = ("greedy", "heuristic")
#: Progressive bias towards the heuristic's move per game (policy=heuristic only; 0 where none is listed).
DEFAULT_BIASES = {"teufel_teufel_v0": 30.0, "voll_auf_die_18_v0": 30.0}
GAME_DEFAULT = "game"  # the cutoff argument that asks for the game's entry in DEFAULT_CUTOFFS
MAX_PLAYOUT = 5000  # decisions: a guard against endless random games
# A time budget is spent in chunks (one kernel call each, the clock read between them). A chunk
# aims at this share of the budget, but at least CHUNK_OVERHEADS times the cost of a call (starting
# the threads can take tens of milliseconds on a busy machine), and grows at most CHUNK_GROWTH-fold.
CHUNK_SHARE = 0.05
CHUNK_OVERHEADS = 20
CHUNK_GROWTH = 8


class ISMCTSAgent(Agent):
    name = "ismcts"
    needs_record = True

    def __init__(self, iterations=None, seconds=None, exploration=DEFAULT_EXPLORATION, cutoff=GAME_DEFAULT,
                 threads=None, max_playout=MAX_PLAYOUT, seed=None, epsilon=GAME_DEFAULT, policy=GAME_DEFAULT,
                 bias=GAME_DEFAULT):
        super().__init__(seed)
        if iterations is None and seconds is None:
            iterations = DEFAULT_ITERATIONS
        if (iterations is None) == (seconds is None):
            raise ValueError("give ISMCTSAgent either iterations or seconds, not both")
        self.iterations = _positive(iterations, "iterations", int) if iterations is not None else None
        self.seconds = _positive(seconds, "seconds", float) if seconds is not None else None
        self.exploration = _positive(exploration, "exploration", float, allow_zero=True)
        if isinstance(cutoff, str) and cutoff == GAME_DEFAULT:
            self.cutoff_option = GAME_DEFAULT  # resolved in reset, once the game is known
        elif cutoff is None or cutoff == NO_CUTOFF:
            self.cutoff_option = NO_CUTOFF
        else:
            self.cutoff_option = _positive(cutoff, "cutoff", int, allow_zero=True)
        if isinstance(epsilon, str) and epsilon == GAME_DEFAULT:
            self.epsilon_option = GAME_DEFAULT
        else:
            self.epsilon_option = _positive(epsilon, "epsilon", float, allow_zero=True)
            if self.epsilon_option > 1:
                raise ValueError(f"ISMCTS epsilon must be at most 1, got {epsilon!r}")
        if policy != GAME_DEFAULT and policy not in POLICIES:
            raise ValueError(f"ISMCTS policy must be one of {list(POLICIES)}, got {policy!r}")
        self.policy_option = policy
        self.bias_option = bias if isinstance(bias, str) and bias == GAME_DEFAULT else _positive(
            bias, "bias", float, allow_zero=True)
        if policy not in (GAME_DEFAULT, "heuristic") and bias != GAME_DEFAULT and self.bias_option > 0:
            raise ValueError(_BIAS_NEEDS_HEURISTIC)
        self.threads = numba.get_num_threads() if threads is None else _positive(threads, "threads", int)
        self.max_playout = _positive(max_playout, "max_playout", int)
        self.last_iterations = 0  # iterations spent on the last decision

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.game = envs.game_of(env_id) if isinstance(env_id, str) else env_id
        env_id = self.game.env_id
        self.cutoff = _game_default(self.cutoff_option, DEFAULT_CUTOFFS, env_id, NO_CUTOFF)  # playout cut-off
        self.epsilon = _game_default(self.epsilon_option, DEFAULT_EPSILONS, env_id, 1.0)  # share of random moves
        self.policy = _game_default(self.policy_option, DEFAULT_POLICIES, env_id, "greedy")  # plays the rest
        # tree nodes' progressive bias towards the heuristic's move
        self.bias = _game_default(self.bias_option, DEFAULT_BIASES if self.policy == "heuristic" else {}, env_id, 0.0)
        if self.bias > 0 and self.policy != "heuristic":
            raise ValueError(_BIAS_NEEDS_HEURISTIC)
        state = self.game.engine.STATE
        if engine_function(state, "determinize") is None:
            raise ValueError(f"{self.game.env_id} has no determinize: ISMCTS cannot search it")
        capacity = math.ceil(self.iterations / self.threads) + 1 if self.iterations else 4096
        self.forest = Forest(state, self.game.num_actions, config["num_players"], self.game.simultaneous,
                             self.threads, capacity, parallel=self.threads > 1,
                             **self._strategy(config) if self.policy == "heuristic" else {})
        # Compile (or load) the search now, so that no decision's time budget pays for it; then time
        # what a call costs besides its iterations.
        blank, nothing = np.zeros(1, state), np.zeros(self.threads, np.int64)
        self._grow(blank, _NO_PENDING, nothing)
        self._call_seconds = min(_timed(self._grow, blank, _NO_PENDING, nothing) for _ in range(3))

    def _strategy(self, config):
        """The Forest options that make the game's compiled playout player play the playouts: its
        compiled heuristic, or where that is Python only, its compiled playout player
        (``agents.heuristic.playout_strategy``)."""
        from agents.heuristic import playout_strategy

        compiled = playout_strategy(self.game.env_id, config)
        if compiled is None:
            raise ValueError(f"{self.game.env_id}'s heuristic is not compiled: ISMCTS policy=heuristic needs "
                             "a compiled strategy (agents/heuristic)")
        choose_rows, rules = compiled
        register_playout_strategy(self.game.engine.STATE, choose_rows)
        return {"strategy_rules": rules, "observation_size": self.game.layout.size}

    def act(self, observation, action_mask, info=None):
        if info is None or "record" not in info:
            raise ValueError("ISMCTSAgent needs the game record in info['record'] (it only determinizes it)")
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            self.last_iterations = 0
            return int(legal[0])
        visits, totals = self.search(info["record"], info.get("pending_actions"))
        # Most visits among the legal actions; ties go to the higher summed return, then the lower action.
        best = legal[np.lexsort((-legal, totals[legal], visits[legal]))[-1]]
        if visits[best] == 0:  # nothing searched (no budget reached the root): any legal action
            best = legal[self.rng.integers(legal.size)]
        return int(best)

    def search(self, record, pending=None):
        """Search from the true ``record`` (length-1 array); returns the root's visits and summed
        returns per action, over all trees. ``pending``: in a simultaneous game, the actions already
        chosen this moment by the seats before this one."""
        pending = _NO_PENDING if pending is None else np.asarray(pending, np.int64)
        self.forest.start(self.rng.integers(2**63, size=self.threads))
        if self.iterations is not None:
            self.last_iterations = self._grow(record, pending, _split(self.iterations, self.threads))
        else:
            self.last_iterations = self._search_for(record, pending, self.seconds)
        return self.forest.root_statistics()

    def _grow(self, record, pending, per_tree):
        return self.forest.grow(record, self.seat, pending, per_tree, self.exploration, self.cutoff,
                                self.max_playout, self.epsilon, self.bias)

    def _search_for(self, record, pending, seconds):
        """Grow in chunks until ``seconds`` have passed; each chunk is sized from the rate so far."""
        start = time.perf_counter()
        deadline = start + seconds
        done, working, per_tree = 0, 0.0, 1
        while True:
            called = time.perf_counter()
            done += self._grow(record, pending, np.full(self.threads, per_tree, np.int64))
            now = time.perf_counter()
            working += max(now - called - self._call_seconds, 1e-6)
            if now + self._call_seconds >= deadline:
                return done
            rate = done / self.threads / working  # iterations per second and tree, calls' cost aside
            # Half the time left at most: a rate misjudged by up to 2x still ends by the deadline.
            chunk = min((deadline - now - self._call_seconds) / 2,
                        max(CHUNK_SHARE * seconds, CHUNK_OVERHEADS * self._call_seconds))
            per_tree = max(1, min(int(rate * chunk), CHUNK_GROWTH * per_tree))


_NO_PENDING = np.zeros(0, np.int64)
_BIAS_NEEDS_HEURISTIC = "ISMCTS bias favours the heuristic's move: it needs policy=heuristic"


def _game_default(option, defaults, env_id, fallback):
    """An option as given, or for GAME_DEFAULT the game's entry in ``defaults`` (``fallback`` if none)."""
    if isinstance(option, str) and option == GAME_DEFAULT:
        return defaults.get(env_id, fallback)
    return option


def _timed(function, *args):
    started = time.perf_counter()
    function(*args)
    return time.perf_counter() - started


def _split(total, parts):
    """``total`` iterations over ``parts`` trees, as evenly as possible."""
    per_tree = np.full(parts, total // parts, np.int64)
    per_tree[: total % parts] += 1
    return per_tree


def _positive(value, name, kind, allow_zero=False):
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise ValueError(f"ISMCTS {name} must be a number, got {value!r}")
    if kind is int and value != int(value):
        raise ValueError(f"ISMCTS {name} must be a whole number, got {value!r}")
    if not math.isfinite(value) or value < 0 or (value == 0 and not allow_zero):
        raise ValueError(f"ISMCTS {name} must be {'>= 0' if allow_zero else '> 0'}, got {value!r}")
    return kind(value)


def parse_spec(argument):
    """The ISMCTSAgent keyword arguments of the part of a spec after ``ismcts:`` (see the module
    docstring); ValueError naming the problem for anything else."""
    budget, *options = [part.strip() for part in argument.split(":")] if argument else [""]
    kwargs = {}
    if budget:
        try:
            if budget.endswith("s"):
                kwargs["seconds"] = float(budget[:-1])
            else:
                kwargs["iterations"] = int(budget)
        except ValueError:
            raise ValueError(f"ismcts budget {budget!r} is neither a number of iterations (ismcts:1000) "
                             f"nor seconds (ismcts:1s)") from None
    names = {"threads": ("threads", int), "cutoff": ("cutoff", int), "c": ("exploration", float),
             "eps": ("epsilon", float), "policy": ("policy", str), "bias": ("bias", float)}
    for option in options:
        key, equals, text = option.partition("=")
        if key not in names or not equals:
            raise ValueError(f"ismcts option {option!r} is not key=value with key one of {sorted(names)}")
        name, kind = names[key]
        if key == "cutoff" and text.lower() == "none":
            kwargs[name] = None
            continue
        try:
            kwargs[name] = kind(text)
        except ValueError:
            raise ValueError(f"ismcts option {key}={text!r} is not a valid {kind.__name__}") from None
    ISMCTSAgent(**kwargs)  # range checks now, not at the first decision
    return kwargs
