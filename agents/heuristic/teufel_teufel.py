"""A rule-based Teufel, Teufel! player for ``teufel_teufel_v0``.

It reads only its seat's observation (through the game's ``Layout`` views) and the mask. The
strategy a competent player would recognise:

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
one or two moves is swapped onto a face-down card you can reach now; next turn you take it.

**Other decisions.** Peek at the face-down card most likely yours; always drop a devil in a tower
and always hand it over; take a stolen devil from the player with the fewest letters (a full
disc freed of its devil would leave); lose the letters whose cards lie face up nearest to you
(easiest to fetch again); place the disc near the centre. It never makes a devil move, and off
the board it turns cards over at random (its result is settled).

**Speed.** The search runs once per decision of batched self-play, so its arithmetic lives in
small numba helpers (the square worths, the move counts, the reach); the dot products of the
beliefs stay numpy's. The helpers repeat numpy's float32 arithmetic operation for operation, so
the decisions are exactly those of the plain numpy version before them (pinned by
``tests/teufel_teufel/test_heuristic.py``); ``benchmarks/heuristic_speed.py`` times them.
"""

from functools import cached_property

import numpy as np
from numba import njit

from envs.teufel_teufel import data as D
from envs.teufel_teufel.engine import LAYOUT

from .. import base

OWN_LETTERS = slice(0, D.NUM_LETTERS)  # card types of the observer's own colour: A-F
CENTRE_ROW = CENTRE_COL = D.SIDE // 2
FUTURE = 0.6        # weight of what a destination leads to, against what it gives now
PER_MOVE = 0.6      # discount per further move to a target
TARGETS = 3         # best targets whose move distances are searched
SWAP_BEYOND = 2     # swap a known letter closer when it is more than this many moves away
HALL_PASS = 0.1     # worth of the chance a face-down card lets the move go on
NEIGHBOURS = D.NEIGHBOURS
PERSON_LETTER = np.arange(D.NUM_PEOPLE) % D.NUM_LETTERS  # the letter of each person card type
#: PER_MOVE ** moves for moves 0..NUM_SQUARES, as numpy computes it (the same ufunc loop as a
#: whole array of move counts: the reach below is bit for bit what numpy made of it).
DISCOUNT = PER_MOVE ** np.arange(D.NUM_SQUARES + 1, dtype=np.float64)


class HeuristicAgent(base.Agent):
    name = "heuristic"

    def __init__(self, seed=None):
        super().__init__(seed)
        # Each observation is copied into one buffer whose named views are made once: building
        # the views anew cost more than a decision's arithmetic.
        self._observation = np.zeros(LAYOUT.size, np.float32)
        self._views = LAYOUT.views(self._observation)
        self._handlers = {
            D.PLACE: self.place, D.TURN: self.turn, D.SWAP_FIRST: self.swap_card,
            D.SWAP_SECOND: self.swap_card, D.TOWER_PEEK: self.peek, D.TOWER_DROP: lambda v, m: D.DROP_DEVIL,
            D.HANDOVER: lambda v, m: D.HAND_OVER, D.STEAL: self.steal, D.LOSE_LETTER: self.lose_letter,
            D.GO_ON: self.go_on,
        }

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.swap_plan = None

    def act(self, observation, action_mask, info=None):
        self._observation[:] = observation
        view = Board(self._views)
        handler = self._handlers.get(view.phase)
        action = handler(view, action_mask) if handler is not None else None
        if action is None or not action_mask[action]:
            action = self.rng.choice(np.flatnonzero(action_mask))
        return int(action)

    # ---- phases ------------------------------------------------------------------------------

    def place(self, view, mask):
        squares = np.flatnonzero(mask[: D.NUM_SQUARES])
        rows, cols = np.divmod(squares, D.SIDE)
        spread = np.abs(rows - CENTRE_ROW) + np.abs(cols - CENTRE_COL)
        return squares[np.argmin(spread + self.rng.random(squares.size) * 0.5)]

    def turn(self, view, mask):
        destinations = np.flatnonzero(mask[: D.NUM_SQUARES])
        worth = view.worth()
        if self._plan_swap(view, mask, destinations, worth):
            return D.BEGIN_SWAP
        if destinations.size == 0:
            return None
        score = worth + FUTURE * self._reach(view, worth)
        return destinations[np.argmax(score[destinations] + self.rng.random(destinations.size) * 1e-3)]

    def go_on(self, view, mask):
        """After a hall pass: the best next square if it beats ending the move here."""
        destinations = np.flatnonzero(mask[: D.NUM_SQUARES])
        if destinations.size == 0:
            return D.STOP_HERE
        worth = view.worth()
        reach = self._reach(view, worth)
        score = worth + FUTURE * reach
        best = destinations[np.argmax(score[destinations] + self.rng.random(destinations.size) * 1e-3)]
        return int(best) if score[best] > view.stop_worth() + FUTURE * reach[view.me] else D.STOP_HERE

    def _reach(self, view, worth):
        """The discounted worth of the best targets from each square."""
        return reach(worth, np.argsort(-worth)[:TARGETS], *view.movement)

    def _plan_swap(self, view, mask, destinations, worth):
        """Bring a known letter of ours within reach: swap it onto a face-down card we reach now."""
        self.swap_plan = None
        if not mask[D.BEGIN_SWAP] or view.me < 0 or (destinations.size and worth[destinations].max() >= 0.9):
            return False
        known = np.flatnonzero(view.known_own_missing() & (view.discs == 0))
        if not known.size:
            return False
        moves = view.moves_from(view.me)
        letter_square = known[np.argmin(moves[known])]  # the nearest (the first of equals)
        if moves[letter_square] <= SWAP_BEYOND:
            return False
        partners = destinations[view.face_down[destinations] & (view.discs[destinations] == 0)
                                & (destinations != letter_square)]
        if not partners.size:
            return False
        self.swap_plan = (int(letter_square), int(partners[0]))
        return True

    def swap_card(self, view, mask):
        if self.swap_plan is None:
            return None
        return self.swap_plan[0] if view.phase == D.SWAP_FIRST else self.swap_plan[1]

    def peek(self, view, mask):
        squares = np.flatnonzero(mask[: D.NUM_SQUARES])
        chance = view.p_own[squares] - view.certain[squares]  # nothing to learn where we know
        return squares[np.argmax(chance + self.rng.random(squares.size) * 1e-3)]

    def steal(self, view, mask):
        offsets = [a - D.STEAL_FIRST + 1 for a in np.flatnonzero(mask) if a >= D.STEAL_FIRST]
        fewest = min(offsets, key=lambda k: view.letters[k].sum())
        return D.STEAL_FIRST + fewest - 1

    def lose_letter(self, view, mask):
        held = [a - D.LOSE_FIRST for a in np.flatnonzero(mask) if D.LOSE_FIRST <= a < D.LOSE_FIRST + 6]
        moves = view.moves_from(view.me) if view.me >= 0 else np.zeros(D.NUM_SQUARES)
        face_up = view.face_up_types()

        def cost(letter):  # a letter whose card lies face up near us is easiest to fetch again
            where = np.flatnonzero(face_up == letter)
            return moves[where].min() if where.size else np.inf

        return D.LOSE_FIRST + min(held, key=cost)


class Board:
    """What one observation says about the board, from the observer's point of view (each
    derived array is computed once per decision, when first needed)."""

    def __init__(self, views):
        self.views = views
        self.phase = int(np.argmax(views["phase"]))
        self.letters = views["letters"]
        self.my_letters = views["letters"][0]
        self.devils = views["devils"]
        self.cards = views["cards"]
        self.certain = views["certain"]
        self.me, self.discs, self.owner = read_discs(views["discs"])  # discs: other discs per square

    @cached_property
    def face_down(self):
        return self.views["squares"][:, 1] > 0

    @cached_property
    def p_own(self):
        """Chance each square's card is a letter of ours we still lack."""
        missing = self.my_letters == 0
        return self.cards[:, OWN_LETTERS] @ missing.astype(np.float32)

    def face_up_types(self):
        types = np.full(D.NUM_SQUARES, -1)
        face_up = self.views["squares"][:, 2] > 0
        types[face_up] = self.cards[face_up].argmax(axis=1)
        return types

    def known_own_missing(self):
        """Squares certainly holding a letter of ours we lack (face up or peeked)."""
        return (self.p_own > 0.999) & (self.certain > 0)

    def p_hall_pass(self):
        """Chance each square's card is a letter we hold (any colour): a flip there lets us go on."""
        held = (self.my_letters > 0)[PERSON_LETTER].astype(np.float32)
        return self.cards[:, : D.NUM_PEOPLE] @ held

    def worth(self):
        """What ending a move on each square is worth to us (see :func:`square_worth`)."""
        return square_worth(self.p_own, self.p_hall_pass(), self.views["squares"], self.cards, self.letters,
                            self.devils, self.discs, self.owner, self.me)

    def stop_worth(self):
        """Ending the move where the disc stands (a face-up letter we hold): a hand-over, if any."""
        if self.devils[0] > 0 and self.discs[self.me] == 1:
            return hand_over_worth(self.letters, self.devils, self.owner[self.me], np.float32(0.0))
        return 0.0

    @cached_property
    def movement(self):
        """``(passable, enterable)`` of :func:`movement_rules`, for :func:`moves_from`."""
        return movement_rules(self.views["squares"], self.cards, self.my_letters, self.discs, self.devils[0] > 0,
                              self.views["devils_home"][0] > 0)

    def moves_from(self, start):
        """Moves needed to end on each square from ``start`` (see :func:`moves_from`)."""
        return moves_from(start, *self.movement)


# ---- the arithmetic of a decision, in numba ------------------------------------------------------
# The worth of the squares is float32 arithmetic on the observation's float32 beliefs, written
# here operation for operation as numpy did it on arrays (a Python float constant meeting a
# float32 array is rounded to float32 first): the same bits, so the same decisions as the
# numpy version it replaced. The beliefs' dot products stay in numpy (p_own, p_hall_pass): their
# summation order is numpy's (BLAS) to keep.


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
    """Per square, read off the observation: may a move go on from it (the engine's may_continue),
    and may it enter it at all. Both int8 (1: yes)."""
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
