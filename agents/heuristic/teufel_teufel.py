"""A rule-based Teufel, Teufel! player for ``teufel_teufel_v0``.

It reads only its seat's observation (at the game's ``Layout`` offsets) and the mask; it keeps no
memory of its own. The strategy is one compiled function, :func:`choose_rows` (agents/heuristic:
the agent and the batched trainer's opponents both call it); its random choices (between
near-equal squares, and a random legal action where it has no rule) come from a generator record.
The strategy a competent player would recognise:

**What a square is worth.** A face-up letter of your colour you lack is worth 1 (take it). A
face-down card is worth the chance it is one of your missing letters (the observation's belief,
so peeked cards count fully), minus the chance it is a devil times what a devil would cost: with
a devil already in the disc a second one costs two letters; without one a devil still has to be
shed before you may leave. A tower is worth a little (a peek), and much more while you carry a
devil (drop it there). With a devil, a fellow player's space is worth handing it over, more the
more letters that player has (pass the devil to the leader) and more again if they hold a devil
already (it costs them two letters). With six letters and a devil, towers and fellows are where
you must go.

**Moving.** Every legal destination (the engine's reachable search: hall passes and devil
crossings included) is scored by what it is worth now plus a discounted share of the best
targets' worth, discounted by the number of moves from it to them. Move counts come from a 0-1
breadth-first search over the observation: a move goes on through squares it may cross and ends
on the first it must stop on, so each such stop on the way costs another move.

**Pushing its luck.** A face-down card that turns out to be a letter it holds lets the move go
on, so such a card is worth a little more (the chance of that, times ``HALL_PASS``). When it
does, the heuristic weighs going on against stopping: the best next square, scored as above
(for a face-down card the chance it is a missing letter against the chance it is a devil,
both from the observation's beliefs, which leave out every card seen face up), against what
the card it stands on is worth as a place to end the move (a hand-over there, and how close it
lies to the best targets for the next turn). So it pushes on while the unseen cards near it are
more likely its letters than devils, and stops once a devil would cost more (with a devil in
the disc a second one costs two letters).

**Swapping.** A letter of yours you know the place of (face up, or peeked) but cannot reach in
one or two moves is swapped onto a face-down card you can reach now; next turn you take it. The
board does not change between the turn and the swap's two cards, so each of those steps plans
the same swap again from its own observation.

**Other decisions.** Peek at the face-down card most likely yours; always drop a devil in a tower
and always hand it over; take a stolen devil from the player with the fewest letters (a full
disc freed of its devil would leave); lose the letters whose cards lie face up nearest to you
(easiest to fetch again); place the disc near the centre. It never makes a devil move, and off
the board it turns cards over at random (its result is settled).

**Numbers.** It takes exactly the decisions of the Python agent it replaced (numpy per decision;
the same options where that agent chose at random). The square worths are float32 arithmetic on
the observation's float32 beliefs, as numpy did it; the beliefs' dot products add their terms in
the order numpy's matmul did (:func:`belief_sums`), and the best targets among equal worths are
the ones numpy's argsort listed first (:func:`best_targets`): numpy's order on x86 with AVX2, the
machines the Python agent's decisions were pinned on. ``benchmarks/heuristic_speed.py`` times it.
"""

import numpy as np
from numba import njit

from envs.core.rng import choice, uniform
from envs.teufel_teufel import data as D
from envs.teufel_teufel.engine import LAYOUT

from . import CompiledHeuristic, block_argmax

O_PHASE, O_SQUARES, O_CARDS, O_CERTAIN, O_DISCS, O_LETTERS, O_DEVILS, O_HOME = (
    LAYOUT.offset(n) for n in ("phase", "squares", "cards", "certain", "discs", "letters", "devils", "devils_home"))
SQUARE_FEATURES = LAYOUT.shape("squares")[1]  # no card, face down, face up, the devil space
assert LAYOUT.shape("cards") == (D.NUM_SQUARES, D.NUM_TYPES) and LAYOUT.shape("devils") == (D.MAX_PLAYERS,)
assert LAYOUT.shape("discs") == (D.MAX_PLAYERS, D.NUM_SQUARES)
assert LAYOUT.shape("letters") == (D.MAX_PLAYERS, D.NUM_LETTERS)

CENTRE_ROW = CENTRE_COL = D.SIDE // 2
FUTURE = 0.6        # weight of what a destination leads to, against what it gives now
PER_MOVE = 0.6      # discount per further move to a target
TARGETS = 3         # best targets whose move distances are searched
SWAP_BEYOND = 2     # swap a known letter closer when it is more than this many moves away
HALL_PASS = 0.1     # worth of the chance a face-down card lets the move go on
TIE_NOISE = 1e-3    # destinations and peeks scoring within this of the best are chosen at random
PLACE_NOISE = 0.5   # placements: a random pick among the squares nearest the centre
# numpy compared the float32 worths and beliefs with these thresholds in float32 (NEP 50).
SWAP_UNLESS = np.float32(0.9)  # no swap while a destination is worth this much (a letter in reach)
SURE = np.float32(0.999)       # a belief this high is a known card
NEIGHBOURS = D.NEIGHBOURS
PERSON_LETTER = np.arange(D.NUM_PEOPLE) % D.NUM_LETTERS  # the letter of each person card type
#: PER_MOVE ** moves for moves 0..NUM_SQUARES, as numpy computes it (the same ufunc loop as a
#: whole array of move counts: the reach below is bit for bit what numpy made of it).
DISCOUNT = PER_MOVE ** np.arange(D.NUM_SQUARES + 1, dtype=np.float64)


# ---- the observation's beliefs, summed as numpy did -------------------------------------------


@njit(cache=True)
def belief_sums(cards, weights):
    """Per square, the float32 sum of ``cards[square, k] * weights[k]`` over the first
    ``weights.size`` card types, added in the order numpy's matmul (OpenBLAS's sgemv on AVX2) added
    them for the Python agent: whole fours in eight running lanes (an odd four first, in lanes
    0-3), the lanes folded (j with j + 4, then in pairs), and the last one to three terms summed
    apart and added at the end. Another order rounds some sums differently, and then squares the
    agent valued equally would differ."""
    types = weights.shape[0]
    body = types - types % 4
    lead = body % 8
    sums = np.empty(D.NUM_SQUARES, np.float32)
    lanes = np.empty(8, np.float32)
    for square in range(D.NUM_SQUARES):
        lanes[:] = 0
        for k in range(lead):
            lanes[k] += cards[square, k] * weights[k]
        for start in range(lead, body, 8):
            for lane in range(8):
                lanes[lane] += cards[square, start + lane] * weights[start + lane]
        total = ((lanes[0] + lanes[4]) + (lanes[1] + lanes[5])) + ((lanes[2] + lanes[6]) + (lanes[3] + lanes[7]))
        if body < types:
            rest = cards[square, body] * weights[body]
            for k in range(body + 1, types):
                rest += cards[square, k] * weights[k]
            total += rest
        sums[square] = total
    return sums


@njit(cache=True)
def own_letter_chances(cards, my_letters):
    """Chance each square's card is a letter of ours we still lack."""
    missing = np.zeros(D.NUM_LETTERS, np.float32)
    for letter in range(D.NUM_LETTERS):
        missing[letter] = my_letters[letter] == 0
    return belief_sums(cards, missing)


@njit(cache=True)
def hall_pass_chances(cards, my_letters):
    """Chance each square's card is a letter we hold (any colour): a flip there lets us go on."""
    held = np.zeros(D.NUM_PEOPLE, np.float32)
    for card_type in range(D.NUM_PEOPLE):
        held[card_type] = my_letters[PERSON_LETTER[card_type]] > 0
    return belief_sums(cards, held)


# ---- the square worths, the move counts and the reach ---------------------------------------------
# The worth of the squares is float32 arithmetic on the observation's float32 beliefs, written
# here operation for operation as numpy did it on arrays (a Python float constant meeting a
# float32 array is rounded to float32 first): the same bits, so the same decisions.


@njit(cache=True)
def read_discs(discs):
    """``(me, others, owner)``: the observer's square (-1 off the board), the other discs on each
    square, and on a square with one other disc whose it is (relative seat; else -1)."""
    me = -1
    others = np.zeros(D.NUM_SQUARES, np.int64)
    owner = np.full(D.NUM_SQUARES, -1, np.int64)
    for square in range(D.NUM_SQUARES):
        if discs[0, square] > 0 and me < 0:
            me = square
        for player in range(1, discs.shape[0]):
            if discs[player, square] > 0:
                others[square] += 1
                owner[square] = player
    return me, others, owner


@njit(cache=True)
def hand_over_worth(letters, devils, fellow, p_no_hand_over):
    """With a devil: the worth of handing it to ``fellow`` (more the more letters they have, more
    again with a devil of their own), unless the card there is a devil or a tower."""
    full = letters[0].sum() == D.NUM_LETTERS
    fellow_letters = np.float32(0.0)
    for letter in range(D.NUM_LETTERS):
        fellow_letters += letters[fellow, letter]
    base = np.float32(2.0 if full else 0.3)
    return (base + np.float32(0.1) * fellow_letters + np.float32(0.5) * devils[fellow]) * (
        np.float32(1.0) - p_no_hand_over)


@njit(cache=True)
def square_worth(p_own, p_hall_pass, squares, cards, letters, devils, other_discs, owner, me):
    """What ending a move on each square is worth to us (float32; see the module docstring)."""
    held = 0
    for letter in range(D.NUM_LETTERS):
        held += int(letters[0, letter] > 0)
    with_devil = devils[0] > 0
    full = held == D.NUM_LETTERS
    devil_cost = np.float32(0.5 * min(2, held) + 0.1 if with_devil else 0.2)
    tower = np.float32((2.0 if full else 0.8) if with_devil else 0.05)
    worth = np.empty(D.NUM_SQUARES, np.float32)
    for square in range(D.NUM_SQUARES):
        p_devil, p_tower = cards[square, D.TYPE_DEVIL], cards[square, D.TYPE_TOWER]
        value = p_own[square] - devil_cost * p_devil + tower * p_tower
        if squares[square, 1] > 0:  # face down: it may let the move go on
            value += np.float32(HALL_PASS) * p_hall_pass[square]
        if with_devil and other_discs[square] == 1:  # numpy added the float64 gift to float32
            gift = hand_over_worth(letters, devils, owner[square], p_devil + p_tower)
            value = np.float32(np.float64(value) + np.float64(gift))
        if squares[square, 0] > 0:  # no card
            value = np.float32(0.0)
        worth[square] = value
    if me >= 0:
        worth[me] = 0.0
    return worth


def _bitonic_pairs(size):
    """The compare-exchange pairs ``(low, high)`` of a bitonic sort of ``size`` slots (a power of
    two), in order: for runs of 2, 4, ... slots, each run's mirror pairs, then half-cleaners down
    to neighbours."""
    pairs = []
    run = 2
    while run <= size:
        pairs += [(start + i, start + run - 1 - i) for start in range(0, size, run) for i in range(run // 2)]
        gap = run // 4
        while gap >= 1:
            pairs += [(start + i, start + i + gap) for start in range(0, size, 2 * gap) for i in range(gap)]
            gap //= 2
        run *= 2
    return pairs


def _argsort_head_pairs(keys, head):
    """The pairs by which numpy's argsort of ``keys`` float32 keys (33 to 64) on x86 with AVX2
    (x86-simd-sort) puts its first ``head`` entries in place: a bitonic network over 64 slots (16
    registers of 4 keys, padded with +inf) that exchanges two keys only when they are out of order.
    A pair with a pad above a key never exchanges, and the pairs that cannot reach the first
    ``head`` slots any more change nothing there: both are left out."""
    pairs = [(low, high) for low, high in _bitonic_pairs(64) if high < keys]
    needed, live = [], set(range(head))
    for low, high in reversed(pairs):
        if low in live or high in live:
            live |= {low, high}
            needed.append((low, high))
    return np.array(needed[::-1], np.int64)


ARGSORT_PAIRS = _argsort_head_pairs(D.NUM_SQUARES, TARGETS)


@njit(cache=True)
def best_targets(worth):
    """The ``TARGETS`` squares of highest worth, as the Python agent's ``np.argsort(-worth)`` listed
    them. Equal worths are the rule (every unseen card of a group is worth the same), and which of
    them become targets steers the move; numpy's network sort leaves equal keys in its own order,
    which the same network here reproduces."""
    keys = -worth
    order = np.arange(D.NUM_SQUARES)
    for k in range(ARGSORT_PAIRS.shape[0]):
        low, high = ARGSORT_PAIRS[k, 0], ARGSORT_PAIRS[k, 1]
        a, b, i, j = keys[low], keys[high], order[low], order[high]
        swap = a > b  # selects, not a branch: which way it goes is data, and hard to predict
        keys[low], keys[high] = (b if swap else a), (a if swap else b)
        order[low], order[high] = (j if swap else i), (i if swap else j)
    return order[:TARGETS].copy()


@njit(cache=True)
def reach(worth, targets, passable, enterable):
    """The discounted worth of the best ``targets`` (those worth something) from each square:
    ``worth[target] * PER_MOVE ** moves``, the most of them (float64)."""
    best = np.zeros(D.NUM_SQUARES)
    for target in targets:
        if worth[target] > 0:
            moves = moves_from(target, passable, enterable)
            for square in range(D.NUM_SQUARES):
                discount = DISCOUNT[int(moves[square])] if moves[square] < np.inf else 0.0
                best[square] = max(best[square], np.float64(worth[target]) * discount)
    return best


@njit(cache=True)
def movement_rules(squares, cards, my_letters, other_discs, with_devil, devil_space_blocked):
    """Per square, read off the observation: may a move go on from it (the engine's may_continue,
    but for the empty devil space, taken for a stop), and may it enter it at all. Both int8 (1: yes)."""
    passable = np.zeros(D.NUM_SQUARES, np.int8)
    enterable = np.zeros(D.NUM_SQUARES, np.int8)
    for square in range(D.NUM_SQUARES):
        can = squares[square, 0] > 0 or (squares[square, 1] > 0 and with_devil)  # no card; a devil crossing
        if squares[square, 2] > 0:  # face up: a person card whose letter we hold is a hall pass
            card_type = np.argmax(cards[square])
            can = can or (card_type < D.NUM_PEOPLE and my_letters[card_type % D.NUM_LETTERS] > 0)
        if other_discs[square] == 1:  # a fellow's disc: only with a devil to hand over
            can = with_devil
        passable[square] = can
        enterable[square] = other_discs[square] < 2
    if devil_space_blocked:
        enterable[D.DEVIL_SPACE] = 0
    return passable, enterable


@njit(cache=True)
def moves_from(start, passable, enterable):
    """Moves needed to end on each square from ``start`` (float64, inf where it cannot be reached):
    a 0-1 breadth-first search, each forced stop on the way costing a move.

    The deque lives in one array, ``start`` in its middle. Each square enters it at most twice
    (0-1 BFS keeps the deque within two consecutive distances, so a square's distance drops at
    most once after it is first reached), so ``2 * NUM_SQUARES`` entries each way suffice."""
    stops_before = np.full(D.NUM_SQUARES, np.inf)
    stops_before[start] = 0
    queue = np.empty(4 * D.NUM_SQUARES + 1, np.int64)
    head = tail = 2 * D.NUM_SQUARES
    queue[tail] = start
    tail += 1
    while head < tail:
        square = queue[head]
        head += 1
        extra = 0 if square == start or passable[square] else 1
        for nxt in NEIGHBOURS[square]:
            if nxt < 0:
                continue
            cost = stops_before[square] + extra
            if enterable[nxt] and cost < stops_before[nxt]:
                stops_before[nxt] = cost
                if extra:
                    queue[tail] = nxt
                    tail += 1
                else:
                    head -= 1
                    queue[head] = nxt
    return stops_before + 1


@njit(cache=True)
def one_move_squares(me, passable, enterable, other_discs):
    """The squares a move from ``me`` may end on, as the turn's mask lists them (the engine's
    reachable squares): those the move counts reach without a stop, once the empty devil space
    is crossed as the engine crosses it (the move counts take it for a stop)."""
    crossing = passable.copy()
    if other_discs[D.DEVIL_SPACE] == 0:
        crossing[D.DEVIL_SPACE] = 1  # not enterable while devils stand on it
    ends = moves_from(me, crossing, enterable) == 1
    ends[me] = False
    return ends


# ---- a decision ------------------------------------------------------------------------------


@njit(cache=True)
def blocks(obs):
    """The observation's blocks the strategy reads, as views: ``(squares, cards, letters, devils,
    discs)``, players by relative seat (0: us)."""
    squares = obs[O_SQUARES:O_SQUARES + D.NUM_SQUARES * SQUARE_FEATURES].reshape((D.NUM_SQUARES, SQUARE_FEATURES))
    cards = obs[O_CARDS:O_CARDS + D.NUM_SQUARES * D.NUM_TYPES].reshape((D.NUM_SQUARES, D.NUM_TYPES))
    letters = obs[O_LETTERS:O_LETTERS + D.MAX_PLAYERS * D.NUM_LETTERS].reshape((D.MAX_PLAYERS, D.NUM_LETTERS))
    devils = obs[O_DEVILS:O_DEVILS + D.MAX_PLAYERS]
    discs = obs[O_DISCS:O_DISCS + D.MAX_PLAYERS * D.NUM_SQUARES].reshape((D.MAX_PLAYERS, D.NUM_SQUARES))
    return squares, cards, letters, devils, discs


@njit(cache=True)
def read_board(obs):
    """What the moving decisions read off the observation: ``(me, others, owner, p_own, worth,
    passable, enterable)`` (see :func:`read_discs`, :func:`square_worth`, :func:`movement_rules`)."""
    squares, cards, letters, devils, discs = blocks(obs)
    me, others, owner = read_discs(discs)
    p_own = own_letter_chances(cards, letters[0])
    worth = square_worth(p_own, hall_pass_chances(cards, letters[0]), squares, cards, letters, devils, others, owner,
                         me)
    passable, enterable = movement_rules(squares, cards, letters[0], others, devils[0] > 0, obs[O_HOME] > 0)
    return me, others, owner, p_own, worth, passable, enterable


@njit(cache=True)
def planned_swap(obs, mask, phase, board):
    """``(square, partner)``: a known letter of ours out of reach and the face-down card we reach now
    to swap it onto; ``(-1, -1)`` for no swap. In the turn the reachable squares are the mask's;
    on the swap's two steps the same squares from the board, which has not changed since."""
    me, others, _, p_own, worth, passable, enterable = board
    if me < 0:
        return -1, -1
    if phase == D.TURN:
        if not mask[D.BEGIN_SWAP]:
            return -1, -1
        destinations = mask[:D.NUM_SQUARES] != 0
    else:
        destinations = one_move_squares(me, passable, enterable, others)
    for square in range(D.NUM_SQUARES):
        if destinations[square] and worth[square] >= SWAP_UNLESS:
            return -1, -1  # as good as a letter of ours is in reach now
    known = np.zeros(D.NUM_SQUARES, np.bool_)
    for square in range(D.NUM_SQUARES):
        known[square] = p_own[square] > SURE and obs[O_CERTAIN + square] > 0 and others[square] == 0
    if not known.any():
        return -1, -1
    moves = moves_from(me, passable, enterable)
    letter_square = -1
    for square in range(D.NUM_SQUARES):  # the nearest (the first of equals)
        if known[square] and (letter_square < 0 or moves[square] < moves[letter_square]):
            letter_square = square
    if moves[letter_square] <= SWAP_BEYOND:
        return -1, -1
    for square in range(D.NUM_SQUARES):
        face_down = obs[O_SQUARES + SQUARE_FEATURES * square + 1] > 0
        if destinations[square] and face_down and others[square] == 0 and square != letter_square:
            return letter_square, square
    return -1, -1


@njit(cache=True)
def best_destination(destinations, worth, reach_worth, rng):
    """The destination whose worth plus ``FUTURE`` times its reach is highest (float64; those
    within ``TIE_NOISE`` of it at random); -1 if there is none."""
    best, best_value = -1, -np.inf
    for square in range(D.NUM_SQUARES):
        if destinations[square]:
            value = (worth[square] + FUTURE * reach_worth[square]) + uniform(rng) * TIE_NOISE
            if value > best_value:
                best, best_value = square, value
    return best


@njit(cache=True)
def place(mask, rng):
    """The legal square nearest the centre (steps along rows and columns; equals at random)."""
    best, best_value = -1, np.inf
    for square in range(D.NUM_SQUARES):
        if mask[square]:
            row, col = square // D.SIDE, square % D.SIDE
            value = (abs(row - CENTRE_ROW) + abs(col - CENTRE_COL)) + uniform(rng) * PLACE_NOISE
            if value < best_value:
                best, best_value = square, value
    return best


@njit(cache=True)
def turn(obs, mask, rng):
    """Begin a planned swap, else move to the best destination; -1 if there is none."""
    board = read_board(obs)
    _, _, _, _, worth, passable, enterable = board
    if planned_swap(obs, mask, D.TURN, board)[0] >= 0:
        return D.BEGIN_SWAP
    destinations = mask[:D.NUM_SQUARES] != 0
    if not destinations.any():
        return -1
    return best_destination(destinations, worth, reach(worth, best_targets(worth), passable, enterable), rng)


@njit(cache=True)
def go_on(obs, mask, rng):
    """After a hall pass: the best next square if it beats ending the move here."""
    destinations = mask[:D.NUM_SQUARES] != 0
    if not destinations.any():
        return D.STOP_HERE
    me, others, owner, _, worth, passable, enterable = read_board(obs)
    reach_worth = reach(worth, best_targets(worth), passable, enterable)
    best = best_destination(destinations, worth, reach_worth, rng)
    _, _, letters, devils, _ = blocks(obs)
    stop = 0.0  # ending the move here (a face-up letter we hold): a hand-over, if any
    if devils[0] > 0 and others[me] == 1:
        stop = hand_over_worth(letters, devils, owner[me], np.float32(0.0))
    if worth[best] + FUTURE * reach_worth[best] > stop + FUTURE * reach_worth[me]:
        return best
    return D.STOP_HERE


@njit(cache=True)
def peek(obs, mask, rng):
    """The face-down card most likely a letter of ours we do not know yet."""
    _, cards, letters, _, _ = blocks(obs)
    p_own = own_letter_chances(cards, letters[0])
    best, best_value = -1, -np.inf
    for square in range(D.NUM_SQUARES):
        if mask[square]:
            chance = p_own[square] - obs[O_CERTAIN + square]  # nothing to learn where we know
            value = chance + uniform(rng) * TIE_NOISE
            if value > best_value:
                best, best_value = square, value
    return best


@njit(cache=True)
def steal(obs, mask):
    """Take the devil from the player with the fewest letters (the first of equals)."""
    letters = blocks(obs)[2]
    best, fewest = -1, np.inf
    for offset in range(1, D.MAX_PLAYERS):
        if mask[D.STEAL_FIRST + offset - 1] and letters[offset].sum() < fewest:
            best, fewest = offset, letters[offset].sum()
    return D.STEAL_FIRST + best - 1 if best > 0 else -1


@njit(cache=True)
def lose_letter(obs, mask):
    """Lose the letter whose card of our colour lies face up nearest (easiest to fetch again; the
    first of equals)."""
    squares, cards, _, _, _ = blocks(obs)
    me, _, _, _, _, passable, enterable = read_board(obs)
    moves = moves_from(me, passable, enterable) if me >= 0 else np.zeros(D.NUM_SQUARES)
    best, best_cost = -1, np.inf
    for letter in range(D.NUM_LETTERS):
        if not mask[D.LOSE_FIRST + letter]:
            continue
        cost = np.inf
        for square in range(D.NUM_SQUARES):  # a face-up card's type is its belief's one entry
            if squares[square, 2] > 0 and np.argmax(cards[square]) == letter:
                cost = min(cost, moves[square])
        if best < 0 or cost < best_cost:
            best, best_cost = letter, cost
    return D.LOSE_FIRST + best if best >= 0 else -1


@njit(cache=True)
def choose(obs, mask, rng):
    """The heuristic's action for one observation (see the module doc)."""
    phase = block_argmax(obs, O_PHASE, D.NUM_PHASES)
    action = -1
    if phase == D.PLACE:
        action = place(mask, rng)
    elif phase == D.TURN:
        action = turn(obs, mask, rng)
    elif phase == D.SWAP_FIRST or phase == D.SWAP_SECOND:
        square, partner = planned_swap(obs, mask, phase, read_board(obs))
        action = square if phase == D.SWAP_FIRST else partner
    elif phase == D.TOWER_PEEK:
        action = peek(obs, mask, rng)
    elif phase == D.TOWER_DROP:
        action = D.DROP_DEVIL
    elif phase == D.HANDOVER:
        action = D.HAND_OVER
    elif phase == D.STEAL:
        action = steal(obs, mask)
    elif phase == D.LOSE_LETTER:
        action = lose_letter(obs, mask)
    elif phase == D.GO_ON:
        action = go_on(obs, mask, rng)
    if action < 0 or action >= mask.shape[0] or not mask[action]:
        action = choice(rng, mask)  # devil moves, turning cards over off the board, no plan
    return action


@njit(cache=True)
def choose_rows(obs, masks, rules, rngs, streams, out):
    """:func:`choose` for each row, drawing from generator ``rngs[streams[k]]`` (agents/heuristic;
    the strategy reads no rules: everything it weighs is in the observation)."""
    for k in range(obs.shape[0]):
        out[k] = choose(obs[k], masks[k], rngs[streams[k]])


class HeuristicAgent(CompiledHeuristic):
    """The strategy of the module doc, as an :class:`agents.base.Agent`."""

    choose_rows = staticmethod(choose_rows)

    def swap_plan(self, observation, action_mask):
        """The swap this seat plans at a turn or swap step, ``(square of its letter, square of the
        card it goes onto)``; None for no swap."""
        obs = np.ascontiguousarray(observation, np.float32)
        mask = np.ascontiguousarray(action_mask, np.int8)
        phase = block_argmax(obs, O_PHASE, D.NUM_PHASES)
        square, partner = planned_swap(obs, mask, phase, read_board(obs))
        return None if square < 0 else (int(square), int(partner))
