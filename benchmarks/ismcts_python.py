"""The first ISMCTS agent, with its tree in Python dicts: kept as the baseline of benchmarks/search.py.

The agent in ``agents/ismcts.py`` replaced it (the whole search in numba, see ``envs/core/search.py``);
this copy is unchanged apart from its name, so the benchmark compares against what was shipped.

Information-set Monte Carlo tree search (single-observer ISMCTS, Cowling et al. 2012) for any game.

Each iteration draws a *determinization*: a full game record sampled by the engine's
``determinize(state, seat, seed)`` from what the searching seat can know, with a fresh random
generator, so neither hidden cards nor the true future randomness reach the planner. The search
then descends a tree keyed by action sequences, choosing among the actions legal in this
determinization by UCB1 with availability counts, expands one new action, finishes the game with
random legal moves inside numba, and credits every node with the return of the seat that chose it.

Simultaneous games are searched as a sequence of seat decisions within each moment (seat 0,
then 1, ...); the joint action is applied once every seat has chosen.

The agent receives the true record in ``info["record"]`` (the tournament runner passes it to
agents with ``needs_record = True``) and touches it only through ``determinize``.
"""

import math

import numpy as np

import envs
from envs.core import kernels
from envs.core.game import engine_function
from envs.core.rng import RNG, seed_rng

from agents.base import Agent


class _Node:
    __slots__ = ("children", "visits", "total", "available", "seat")

    def __init__(self, seat):
        self.children = {}
        self.visits = 0
        self.total = 0.0  # return of `seat`, the seat whose choice led here
        self.available = 0
        self.seat = seat


class PythonISMCTSAgent(Agent):
    name = "ismcts-python"
    needs_record = True

    def __init__(self, iterations=200, exploration=0.7, max_playout=5000, seed=None):
        self.iterations = iterations
        self.exploration = exploration
        self.max_playout = max_playout
        self.rng = np.random.default_rng(seed)

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.game = envs.game_of(env_id) if isinstance(env_id, str) else env_id
        if engine_function(self.game.engine.STATE, "determinize") is None:
            raise ValueError(f"{self.game.env_id} has no determinize: ISMCTS cannot search it")
        self.num_players = config["num_players"]
        self._mask = np.zeros(self.game.num_actions, np.int8)
        self._actor = np.zeros(1, RNG)
        self._returns = np.zeros(self.num_players, np.float32)

    def act(self, observation, action_mask, info=None):
        if info is None or "record" not in info:
            raise ValueError("ISMCTSAgent needs the game record in info['record'] (it only determinizes it)")
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        root = _Node(seat=-1)
        pending = info.get("pending_actions")  # simultaneous: seats before us this moment
        for _ in range(self.iterations):
            self._iterate(root, info["record"], pending)
        best = max(root.children.items(), key=lambda item: (item[1].visits, item[1].total))
        return int(best[0])

    # ---- one iteration ------------------------------------------------------------------

    def _iterate(self, root, record, pending):
        state = record.copy()
        kernels.determinize_one(state, self.seat, np.uint64(self.rng.integers(2**63)))
        seed_rng(self._actor[0], np.uint64(self.rng.integers(2**63)))
        self._returns[:] = 0.0
        joint = np.zeros(self.num_players, np.int64)
        chosen = 0
        if pending is not None:
            joint[: len(pending)] = pending
            chosen = len(pending)
        node, path = root, []
        while not state["terminal"][0]:
            seat = chosen if self.game.simultaneous else int(state["current_player"][0])
            kernels.mask_one(state, seat, self._mask)
            legal = np.flatnonzero(self._mask)
            for action in legal:
                child = node.children.get(int(action))
                if child is not None:
                    child.available += 1
            untried = [int(a) for a in legal if int(a) not in node.children]
            if untried:
                action = untried[self.rng.integers(len(untried))]
                node.children[action] = child = _Node(seat)
                child.available = 1
                expanded = True
            else:
                action = self._select(node, legal)
                child = node.children[action]
                expanded = False
            path.append(child)
            chosen = self._apply(state, action, joint, chosen)
            node = child
            if expanded:
                break
        if not state["terminal"][0]:
            self._playout(state, joint, chosen)
        for child in path:
            child.visits += 1
            child.total += float(self._returns[child.seat])

    def _select(self, node, legal):
        c = self.exploration
        best, best_value = None, -math.inf
        for action in legal:
            child = node.children[int(action)]
            value = child.total / child.visits + c * math.sqrt(math.log(child.available) / child.visits)
            if value > best_value:
                best, best_value = int(action), value
        return best

    def _apply(self, state, action, joint, chosen):
        """Apply ``action``; for a simultaneous game collect it until every seat has chosen."""
        if not self.game.simultaneous:
            kernels.step_one(state, action)
            self._returns += state["reward"][0, : self.num_players]
            return 0
        joint[chosen] = action
        chosen += 1
        if chosen == self.num_players:
            kernels.step_one(state, joint)
            self._returns += state["reward"][0, : self.num_players]
            chosen = 0
        return chosen

    def _playout(self, state, joint, chosen):
        if self.game.simultaneous:
            # Finish the current moment at random, then play on.
            for seat in range(chosen, self.num_players):
                kernels.mask_one(state, seat, self._mask)
                legal = np.flatnonzero(self._mask)
                joint[seat] = legal[self.rng.integers(legal.size)]
            if chosen:
                kernels.step_one(state, joint)
                self._returns += state["reward"][0, : self.num_players]
            kernels.random_playout_joint(state, self._actor, self.game.num_actions, self.max_playout, self._returns)
        else:
            kernels.random_playout(state, self._actor, self.game.num_actions, self.max_playout, self._returns)
