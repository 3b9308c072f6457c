"""Information-set Monte Carlo tree search over any registered engine, compiled with numba.

Single-observer ISMCTS (Cowling, Powley & Whitehouse 2012). Each iteration

1. copies the true record and lets the engine's ``determinize(state, seat, seed)`` resample
   everything the searching seat cannot know, with a fresh generator (so neither hidden cards nor
   the true future randomness reach the planner);
2. descends the tree, keyed by sequences of (seat to act, action), choosing among the actions legal in this
   determinization by UCB1 with availability counts (a child's exploration term counts the
   iterations in which its action was legal, not its parent's visits), given a strategy and a
   ``bias`` plus a progressive bias towards the strategy's own action at that node;
3. expands one untried action (the strategy's first where it is favoured, else uniformly at random);
4. plays on with uniformly random legal actions (or, with ``epsilon`` < 1 in a turn-based game,
   epsilon-greedy ones: see :func:`greedy_action`; or, given a *strategy*, the game's compiled
   heuristic for every seat, each decision random with probability ``epsilon``: see
   :func:`strategy_action`), to the end of the game or, when ``cutoff`` >= 0 and the engine
   registered ``playout_value``, for ``cutoff`` decisions and then takes the engine's estimate of
   each seat's remaining return;
5. credits every node on the path with the return of the seat whose choice led to it.

Simultaneous games are searched as a sequence of seat decisions within each moment (seat 0, then
1, ...); the joint action is applied once every seat has chosen. A kernel tells the two kinds
apart by its ``joint`` argument, resolved at compile time: ``None`` for a turn-based game, else the
moment's actions chosen so far.

Trees live in preallocated arenas of :data:`NODE` records, one row per tree; a node's children are
a linked list (``first_child`` / ``next_sibling``), so a node costs 40 bytes whatever the action
space. Every iteration adds at most one node, so a row of ``iterations + 1`` nodes never fills;
if it does (a caller that did not grow it), the iteration plays on at random from where it stands.

Root parallelism: :func:`grow_forest` grows independent trees in a ``prange`` loop, each with its
own generator, and :func:`root_statistics` merges them at the root by summing visits and returns;
:func:`grow_forest_serial` is the same without a parallel region. Each tree's result depends only
on its own seed, so the merged choice is the same whatever the number of threads.

Everything here calls the engine through the generic entry points of :mod:`envs.core.game`, so
each kernel is compiled and cached once per game. ``agents/ismcts.py`` is the Python face.
"""

import numpy as np
from numba import njit, prange, types
from numba.extending import overload

from .game import DtypeRegistry, game_determinize, game_has_playout_value, game_observe, game_playout_value
from .kernels import apply_step, fill_mask
from .rng import RNG, choice, derive_seed, next_u64, randint, seed_rng, uniform

#: One tree node. ``seat`` chose ``action`` to get here from ``parent``; ``total`` sums that
#: seat's returns over the ``visits`` through this node; ``available`` counts the iterations in
#: which the action was legal at the parent.
NODE = np.dtype((np.record, [
    ("parent", np.int32), ("first_child", np.int32), ("next_sibling", np.int32), ("action", np.int32),
    ("seat", np.int32), ("visits", np.int32), ("available", np.int32), ("_pad", np.int32),
    ("total", np.float64),
]))

_ROOT = np.array((-1, -1, -1, -1, -1, 0, 0, 0, 0.0), NODE)
NO_CUTOFF = -1  # the cutoff of playouts that go to the end of the game


def clear_trees(nodes, sizes):
    """Make every row of ``nodes`` a tree holding only its root."""
    nodes[:, 0] = _ROOT
    sizes[:] = 1


@njit(cache=True)
def _add_child(nodes, size, parent, action, seat):
    child = size[0]
    size[0] += 1
    node = nodes[child]
    node.parent = parent
    node.first_child = -1
    node.next_sibling = nodes[parent].first_child
    node.action = action
    node.seat = seat
    node.visits = 0
    node.available = 1
    node.total = 0.0
    nodes[parent].first_child = child
    return child


@njit(cache=True)
def _index_children(nodes, parent, seat, child_of, value):
    """Set ``child_of[action]`` of every child of ``parent`` that ``seat`` chose to the child
    (``value`` True) or -1.

    A node's children are keyed by the seat to act as well as the action: after the same actions
    the seat to act can differ between determinizations (a face-down card turned over may let the
    mover go on, or pass the turn), and one child shared by two seats would credit one seat's
    choices with the other's returns."""
    child = nodes[parent].first_child
    while child >= 0:
        if nodes[child].seat == seat:
            child_of[nodes[child].action] = child if value else -1
        child = nodes[child].next_sibling


@njit(cache=True)
def _ucb_best(nodes, mask, child_of, exploration, favoured, bias):
    """The legal child with the highest UCB1 value (availability counts), the ``favoured`` action's
    raised by ``bias / (visits + 1)``; ties: the lowest action."""
    best, best_value = -1, -np.inf
    for action in range(mask.shape[0]):
        if mask[action] != 0:
            node = nodes[child_of[action]]
            value = node.total / node.visits + exploration * np.sqrt(np.log(node.available) / node.visits)
            if action == favoured:
                value += bias / (node.visits + 1)
            if value > best_value:
                best, best_value = child_of[action], value
    return best


@njit(cache=True)
def _select_or_expand(nodes, size, parent, seat, mask, child_of, rng, exploration, favoured, bias):
    """The child of ``parent`` to descend to, and whether it is new. -1 when an untried action
    remains but the arena is full (the iteration then plays on at random).

    ``favoured`` (-1: none) is the action the playout strategy would take here: expanded before
    the other untried actions, and favoured in selection by a bias that fades with its visits
    (progressive bias, Chaslot et al. 2008), so the search starts from the strategy's move and
    leaves it only for one its playouts show to be better."""
    _index_children(nodes, parent, seat, child_of, True)
    untried = 0
    for action in range(mask.shape[0]):
        if mask[action] != 0:
            if child_of[action] >= 0:
                nodes[child_of[action]].available += 1
            else:
                untried += 1
    child, expanded = -1, False
    if untried == 0:
        child = _ucb_best(nodes, mask, child_of, exploration, favoured, bias)
    elif size[0] < nodes.shape[0]:
        if favoured >= 0 and mask[favoured] != 0 and child_of[favoured] < 0:
            child = _add_child(nodes, size, parent, favoured, seat)
            expanded = True
        else:
            k = randint(rng, untried)
            for action in range(mask.shape[0]):
                if mask[action] != 0 and child_of[action] < 0:
                    if k == 0:
                        child = _add_child(nodes, size, parent, action, seat)
                        expanded = True
                        break
                    k -= 1
    _index_children(nodes, parent, seat, child_of, False)
    return child, expanded


@njit(cache=True)
def _apply_turn(state, action, joint, chosen, returns):
    apply_step(state, action)
    _add_rewards(state, returns)
    return 0


@njit(cache=True)
def _apply_joint(state, action, joint, chosen, returns):
    joint[chosen] = action
    chosen += 1
    if chosen == state.num_players:
        apply_step(state, joint)
        _add_rewards(state, returns)
        chosen = 0
    return chosen


def _apply(state, action, joint, chosen, returns):
    """Apply one seat's ``action``; in a simultaneous game collect it until the moment is complete.
    Adds the step's rewards to ``returns``; returns the seats that have chosen in this moment."""
    apply = _apply_turn if joint is None else _apply_joint
    return apply(state, action, joint, chosen, returns)


def _row(rows, t):
    """Row ``t`` of a per-tree array, or None for None."""
    return None if rows is None else rows[t]


# numba prunes `if joint is None` only when joint is None, so a branch that calls a simultaneous
# engine's step with one int would still be compiled for it: these two choose by type instead.
@overload(_apply)
def _apply_by_type(state, action, joint, chosen, returns):
    apply = _apply_turn if isinstance(joint, types.NoneType) else _apply_joint
    return lambda state, action, joint, chosen, returns: apply(state, action, joint, chosen, returns)


@overload(_row)
def _row_by_type(rows, t):
    if isinstance(rows, types.NoneType):
        return lambda rows, t: None
    return lambda rows, t: rows[t]


def _strategy_row(strategies, t):
    """Tree ``t``'s part of the playout strategy's arrays (see :func:`grow_forest`), or None."""
    if strategies is None:
        return None
    rules, views, rngs, outs = strategies
    return rules, views[t : t + 1], rngs[t : t + 1], outs[t : t + 1]


@overload(_strategy_row)
def _strategy_row_by_type(strategies, t):
    if isinstance(strategies, types.NoneType):
        return lambda strategies, t: None
    return lambda strategies, t: (strategies[0], strategies[1][t : t + 1], strategies[2][t : t + 1],
                                  strategies[3][t : t + 1])


@njit(cache=True)
def _add_rewards(state, returns):
    for seat in range(returns.shape[0]):
        returns[seat] += state.reward[seat]


@njit(cache=True)
def _seat_to_act(state, joint, chosen):
    if joint is None:
        return int(state.current_player)
    return chosen


TIE = 1e-6  # one-step values this close are equal: the greedy playout picks among them at random


@njit(cache=True)
def greedy_action(state, seat, mask, probe, values, rng):
    """The legal action of ``seat`` whose one step gives it the most: the step's reward plus the
    engine's ``playout_value`` of the state after it (just the reward in an engine without one).
    Ties (within :data:`TIE`) are broken uniformly at random, so equal-looking moves still vary.

    Why: random playouts in long games (a Teufel Teufel game has hundreds of decisions) carry
    almost no signal about the move at the root; a playout in which every seat grabs what the
    engine's own evaluation rewards at once is a cheap stand-in for competent play, and needs no
    game-specific code beyond ``playout_value``. ``probe`` is a length-1 scratch array of the
    game's records (each candidate step is tried on a copy)."""
    best, best_value, ties = -1, -np.inf, 0
    for action in range(mask.shape[0]):
        if mask[action] != 0:
            probe[0] = state
            after = probe[0]
            apply_step(after, action)
            values[:] = 0.0
            game_playout_value(after, values)
            value = after.reward[seat] + values[seat]
            if value > best_value + TIE:
                best, best_value, ties = action, value, 1
            elif value >= best_value - TIE:
                ties += 1
                if randint(rng, ties) == 0:
                    best = action
    return best


# ---- the game's own strategy as the playout policy ---------------------------------------

_STRATEGIES = DtypeRegistry()  # choose_rows per state dtype
_FIRST_STREAM = np.zeros(1, np.int64)  # choose_rows draws row 0's randomness from rngs[0]


def register_playout_strategy(state_dtype, choose_rows):
    """Let playouts over records of ``state_dtype`` be played by ``choose_rows``, a compiled
    strategy over observations with the contract of ``agents/heuristic`` (``choose_rows(obs, masks,
    rules, rngs, streams, out)``). Kernels given a strategy resolve it at compile time by the
    record's dtype, as the engine's own functions (envs/core/game.py); the numba cache of this
    module is keyed on ``agents/`` too (envs/core/cache.py), where the strategies live."""
    _STRATEGIES.put(state_dtype, choose_rows)


def playout_strategy(state_dtype):
    """The strategy registered for records of ``state_dtype`` (None if there is none)."""
    return _STRATEGIES.get(state_dtype)


def _strategy_rows(state, obs, masks, rules, rngs, out):
    playout_strategy(state.dtype)(obs, masks, rules, rngs, _FIRST_STREAM, out)


@overload(_strategy_rows)
def _strategy_rows_by_dtype(state, obs, masks, rules, rngs, out):
    if isinstance(state, types.Record):
        choose_rows = playout_strategy(state.dtype)
        if choose_rows is None:
            raise TypeError(f"no playout strategy registered for records {state}")
        return lambda state, obs, masks, rules, rngs, out: choose_rows(obs, masks, rules, rngs, _FIRST_STREAM, out)


@njit(cache=True)
def strategy_action(state, seat, mask, strategy):
    """The action the game's registered strategy takes for ``seat`` (``mask`` filled): it reads
    the seat's observation of this (determinized) record, as the heuristic agent reads its own.

    Why: a playout in which every seat plays as the heuristic does estimates a move's worth
    against competent play, and the search then improves on the heuristic at the root (the
    classic use of a default policy in Monte Carlo search). ``strategy`` is one tree's
    ``(rules, view, rngs, out)``: the table's rules, a float32[1, observation] scratch row, the
    strategy's own generator (RNG[1]) and an int64[1] result."""
    rules, view, rngs, out = strategy
    view[0, :] = 0.0
    game_observe(state, seat, view[0])
    _strategy_rows(state, view, mask.reshape((1, mask.shape[0])), rules, rngs, out)
    return out[0]


def _favoured(state, seat, mask, strategy, bias):
    """The strategy's action for ``seat`` here when the tree favours it (``bias`` > 0), else -1."""
    if strategy is None or bias <= 0.0:
        return -1
    return strategy_action(state, seat, mask, strategy)


@overload(_favoured)
def _favoured_by_type(state, seat, mask, strategy, bias):
    if isinstance(strategy, types.NoneType):
        return lambda state, seat, mask, strategy, bias: -1

    def favoured(state, seat, mask, strategy, bias):
        if bias <= 0.0:
            return -1
        return strategy_action(state, seat, mask, strategy)
    return favoured


def _playout_action(state, joint, chosen, rng, mask, probe, values, epsilon, strategy):
    """A playout's next action for the seat to act (``mask`` filled): the strategy's (random with
    probability ``epsilon``) where one is given, else epsilon-greedy in a turn-based game and
    uniformly random in a simultaneous one (one seat's step is not a whole move)."""
    if strategy is not None:
        if epsilon < 1.0 and uniform(rng) >= epsilon:
            return strategy_action(state, _seat_to_act(state, joint, chosen), mask, strategy)
        return choice(rng, mask)
    if joint is None and epsilon < 1.0 and uniform(rng) >= epsilon:
        return greedy_action(state, int(state.current_player), mask, probe, values, rng)
    return choice(rng, mask)


@overload(_playout_action)
def _playout_action_by_type(state, joint, chosen, rng, mask, probe, values, epsilon, strategy):
    if not isinstance(strategy, types.NoneType):
        def by_strategy(state, joint, chosen, rng, mask, probe, values, epsilon, strategy):
            if epsilon < 1.0 and uniform(rng) >= epsilon:
                return strategy_action(state, _seat_to_act(state, joint, chosen), mask, strategy)
            return choice(rng, mask)
        return by_strategy
    if isinstance(joint, types.NoneType):
        def turn(state, joint, chosen, rng, mask, probe, values, epsilon, strategy):
            if epsilon < 1.0 and uniform(rng) >= epsilon:
                return greedy_action(state, int(state.current_player), mask, probe, values, rng)
            return choice(rng, mask)
        return turn
    return lambda state, joint, chosen, rng, mask, probe, values, epsilon, strategy: choice(rng, mask)


@njit(cache=True)
def playout(state, joint, chosen, rng, mask, returns, values, cutoff, max_decisions, epsilon, probe, strategy):
    """Legal play from here; adds each seat's rewards to ``returns``.

    Each decision is uniformly random, or with ``epsilon`` < 1 in a turn-based game greedy
    (:func:`greedy_action`, with ``probe`` as its scratch record) with probability 1 - epsilon;
    given a ``strategy`` (one tree's, see :func:`strategy_action`), the strategy's with
    probability 1 - epsilon.
    A moment of a simultaneous game that the tree left half-chosen is completed first. Then, with
    ``cutoff`` >= 0 and an engine that registered ``playout_value``, play stops after ``cutoff``
    decisions and the engine's estimate of the rest is added; without one, play goes to the end
    (or ``max_decisions``, a guard against endless games). Returns the decisions made.
    """
    if joint is not None:
        while chosen > 0:
            fill_mask(state, chosen, mask)
            chosen = _apply(state, choice(rng, mask), joint, chosen, returns)
    estimate = cutoff >= 0 and game_has_playout_value(state)
    limit = cutoff if estimate else max_decisions
    decisions = 0
    while state.terminal == 0 and decisions < limit:
        fill_mask(state, _seat_to_act(state, joint, chosen), mask)
        action = _playout_action(state, joint, chosen, rng, mask, probe, values, epsilon, strategy)
        chosen = _apply(state, action, joint, chosen, returns)
        if chosen == 0:  # a whole decision (every seat's, in a simultaneous game) is applied
            decisions += 1
    if estimate and state.terminal == 0:
        values[:] = 0.0
        game_playout_value(state, values)
        for seat in range(returns.shape[0]):
            returns[seat] += values[seat]
    return decisions


@njit(cache=True)
def _backup(nodes, node, returns):
    while node >= 0:
        visited = nodes[node]
        visited.visits += 1
        if visited.seat >= 0:
            visited.total += returns[visited.seat]
        node = visited.parent


@njit(cache=True)
def iterate(nodes, size, root, seat, pending, work, rng, mask, child_of, returns, values, joint,
            exploration, cutoff, max_playout, epsilon, probe, strategy, bias):
    """One ISMCTS iteration on one tree (see the module docstring)."""
    work[0] = root[0]
    state = work[0]
    game_determinize(state, seat, next_u64(rng) >> np.uint64(1))
    returns[:] = 0.0
    chosen = 0
    if joint is not None:
        chosen = pending.shape[0]
        joint[:chosen] = pending
    node = 0
    while state.terminal == 0:
        actor = _seat_to_act(state, joint, chosen)
        fill_mask(state, actor, mask)
        favoured = _favoured(state, actor, mask, strategy, bias)
        child, expanded = _select_or_expand(nodes, size, node, actor, mask, child_of, rng, exploration, favoured, bias)
        if child < 0:
            break
        chosen = _apply(state, int(nodes[child].action), joint, chosen, returns)  # int64 like the playouts: one step compiled
        node = child
        if expanded:
            break
    if state.terminal == 0:
        playout(state, joint, chosen, rng, mask, returns, values, cutoff, max_playout, epsilon, probe, strategy)
    _backup(nodes, node, returns)


@njit(cache=True)
def grow_tree(nodes, size, root, seat, pending, work, rng, mask, child_of, returns, values, joint,
              iterations, exploration, cutoff, max_playout, epsilon, probe, strategy, bias):
    """``iterations`` more iterations on one tree (``nodes[:size[0]]`` in use)."""
    for _ in range(iterations):
        iterate(nodes, size, root, seat, pending, work, rng, mask, child_of, returns, values, joint,
                exploration, cutoff, max_playout, epsilon, probe, strategy, bias)


@njit(cache=True)
def _grow(t, root, seat, pending, nodes, sizes, work, rngs, masks, child_of, returns, values, joints,
          iterations, exploration, cutoff, max_playout, epsilon, probes, strategies, bias):
    # One tree of a forest: row t of every per-tree array.
    grow_tree(nodes[t], sizes[t : t + 1], root, seat, pending, work[t : t + 1], rngs[t], masks[t], child_of[t],
              returns[t], values[t], _row(joints, t), iterations[t], exploration, cutoff, max_playout, epsilon,
              probes[t : t + 1], _strategy_row(strategies, t), bias)


@njit(cache=True, parallel=True)
def grow_forest(root, seat, pending, nodes, sizes, work, rngs, masks, child_of, returns, values, joints,
                iterations, exploration, cutoff, max_playout, epsilon, probes, strategies, bias):
    """Grow tree ``t`` by ``iterations[t]`` iterations, the trees in parallel threads.

    Per-tree arrays have the tree on their first axis: ``nodes`` NODE[trees, capacity], ``sizes``
    int64[trees], ``work`` the game's STATE[trees], ``rngs`` RNG[trees], ``masks`` int8[trees,
    actions], ``child_of`` int32[trees, actions] (all -1), ``returns`` float64[trees, seats],
    ``values`` float32[trees, seats], ``joints`` int64[trees, seats] (None: turn-based game),
    ``probes`` the game's STATE[trees] (scratch of the greedy playouts, ``epsilon`` < 1),
    ``strategies`` None or the playout strategy's ``(rules, views float32[trees, observation],
    rngs RNG[trees], outs int64[trees])`` (see :func:`strategy_action`); with a strategy and
    ``bias`` > 0 each tree node favours the strategy's action (:func:`_select_or_expand`).
    ``root`` is the true record (length-1 array), ``pending`` the actions already chosen by the
    seats before ``seat`` in this moment of a simultaneous game.
    """
    for t in prange(nodes.shape[0]):
        _grow(t, root, seat, pending, nodes, sizes, work, rngs, masks, child_of, returns, values, joints,
              iterations, exploration, cutoff, max_playout, epsilon, probes, strategies, bias)


@njit(cache=True)
def grow_forest_serial(root, seat, pending, nodes, sizes, work, rngs, masks, child_of, returns, values, joints,
                       iterations, exploration, cutoff, max_playout, epsilon, probes, strategies, bias):
    """:func:`grow_forest` in the calling thread, one tree after another."""
    for t in range(nodes.shape[0]):
        _grow(t, root, seat, pending, nodes, sizes, work, rngs, masks, child_of, returns, values, joints,
              iterations, exploration, cutoff, max_playout, epsilon, probes, strategies, bias)


@njit(cache=True)
def root_statistics(nodes, visits, totals):
    """Sum every tree's root children into ``visits[action]`` and ``totals[action]`` (zeroed first)."""
    visits[:] = 0
    totals[:] = 0.0
    for t in range(nodes.shape[0]):
        child = nodes[t, 0].first_child
        while child >= 0:
            node = nodes[t, child]
            visits[node.action] += node.visits
            totals[node.action] += node.total
            child = node.next_sibling


class Forest:
    """The arenas and scratch space of ``trees`` search trees for one game, reused decision after
    decision; a row grows (doubling) when a call asks for more iterations than it can hold.

    ``parallel=False`` grows the trees one after another in the calling thread (no parallel region).
    ``strategy_rules`` (int64 array: the table's rules, as ``agents.heuristic.table_rules`` gives
    them) makes the playouts the registered strategy's (:func:`register_playout_strategy`); each
    tree then has an ``observation_size`` scratch view and a generator of the strategy's own.
    """

    def __init__(self, state_dtype, num_actions, num_players, simultaneous, trees, capacity, parallel=True,
                 strategy_rules=None, observation_size=0):
        self.trees, self.parallel = trees, parallel
        self.strategies = None
        if strategy_rules is not None:
            if playout_strategy(state_dtype) is None:
                raise ValueError(f"no playout strategy registered for records {state_dtype}")
            self.strategies = (np.ascontiguousarray(strategy_rules, np.int64),
                               np.zeros((trees, observation_size), np.float32), np.zeros(trees, RNG),
                               np.zeros(trees, np.int64))
        self.nodes = np.zeros((trees, max(capacity, 2)), NODE)
        self.sizes = np.ones(trees, np.int64)
        self.work = np.zeros(trees, state_dtype)
        self.probes = np.zeros(trees, state_dtype)
        self.rngs = np.zeros(trees, RNG)
        self.masks = np.zeros((trees, num_actions), np.int8)
        self.child_of = np.full((trees, num_actions), -1, np.int32)
        self.returns = np.zeros((trees, num_players), np.float64)
        self.values = np.zeros((trees, num_players), np.float32)
        self.joints = np.zeros((trees, num_players), np.int64) if simultaneous else None
        self.visits = np.zeros(num_actions, np.int64)
        self.totals = np.zeros(num_actions, np.float64)

    def start(self, seeds):
        """Empty every tree and seed tree ``t``'s generator (and its strategy's) from ``seeds[t]``."""
        clear_trees(self.nodes, self.sizes)
        for t, seed in enumerate(seeds):
            seed_rng(self.rngs[t], np.uint64(seed))
            if self.strategies is not None:
                seed_rng(self.strategies[2][t], derive_seed(np.uint64(seed), t, 1))

    def grow(self, root, seat, pending, iterations, exploration, cutoff, max_playout, epsilon=1.0, bias=0.0):
        """``iterations[t]`` more iterations on tree ``t`` (int64[trees]); returns their sum.
        ``epsilon``: share of random decisions in the playouts (1: all, the plain random playout);
        ``bias``: how strongly tree nodes favour the playout strategy's action (0: not at all)."""
        self._reserve(int(iterations.max()))
        kernel = grow_forest if self.parallel else grow_forest_serial
        kernel(root, seat, pending, self.nodes, self.sizes, self.work, self.rngs, self.masks, self.child_of,
               self.returns, self.values, self.joints, iterations, exploration, cutoff, max_playout,
               float(epsilon), self.probes, self.strategies, float(bias))
        return int(iterations.sum())

    def root_statistics(self):
        """Visits and summed returns of each root action, over all trees."""
        root_statistics(self.nodes, self.visits, self.totals)
        return self.visits, self.totals

    def _reserve(self, iterations):
        # Every iteration adds at most one node.
        needed = int(self.sizes.max()) + iterations
        capacity = self.nodes.shape[1]
        if needed > capacity:
            grown = np.zeros((self.trees, max(needed, 2 * capacity)), NODE)
            grown[:, :capacity] = self.nodes
            self.nodes = grown
