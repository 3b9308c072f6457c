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
"""

from collections import deque

import numpy as np

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
NEIGHBOURS = [[int(x) for x in row if x >= 0] for row in D.NEIGHBOURS]


class HeuristicAgent(base.Agent):
    name = "heuristic"

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.swap_plan = None

    def act(self, observation, action_mask, info=None):
        view = Board(LAYOUT.views(np.asarray(observation)))
        handler = {
            D.PLACE: self.place, D.TURN: self.turn, D.SWAP_FIRST: self.swap_card,
            D.SWAP_SECOND: self.swap_card, D.TOWER_PEEK: self.peek, D.TOWER_DROP: lambda v, m: D.DROP_DEVIL,
            D.HANDOVER: lambda v, m: D.HAND_OVER, D.STEAL: self.steal, D.LOSE_LETTER: self.lose_letter,
            D.GO_ON: self.go_on,
        }.get(view.phase)
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
        reach = np.zeros(D.NUM_SQUARES)
        for target in np.argsort(-worth)[:TARGETS]:
            if worth[target] > 0:
                reach = np.maximum(reach, worth[target] * PER_MOVE ** view.moves_from(target))
        return reach

    def _plan_swap(self, view, mask, destinations, worth):
        """Bring a known letter of ours within reach: swap it onto a face-down card we reach now."""
        self.swap_plan = None
        if not mask[D.BEGIN_SWAP] or view.me < 0 or (destinations.size and worth[destinations].max() >= 0.9):
            return False
        known = [s for s in np.flatnonzero(view.known_own_missing()) if view.discs[s] == 0]
        if not known:
            return False
        moves = view.moves_from(view.me)
        letter_square = min(known, key=lambda s: moves[s])
        if moves[letter_square] <= SWAP_BEYOND:
            return False
        partners = [s for s in destinations if view.face_down[s] and view.discs[s] == 0 and s != letter_square]
        if not partners:
            return False
        self.swap_plan = (int(letter_square), int(partners[0]))
        return True

    def swap_card(self, view, mask):
        if self.swap_plan is None:
            return None
        return self.swap_plan[0] if view.phase == D.SWAP_FIRST else self.swap_plan[1]

    def peek(self, view, mask):
        squares = np.flatnonzero(mask[: D.NUM_SQUARES])
        chance = view.p_own()[squares] - view.certain[squares]  # nothing to learn where we know
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
    """What one observation says about the board, from the observer's point of view."""

    def __init__(self, views):
        self.phase = int(np.argmax(views["phase"]))
        self.letters = views["letters"]
        self.my_letters = views["letters"][0]
        self.devils = views["devils"]
        self.with_devil = views["devils"][0] > 0
        mine = np.flatnonzero(views["discs"][0])
        self.me = int(mine[0]) if mine.size else -1
        self.discs = views["discs"][1:].sum(axis=0)  # other discs per square
        self.owner = np.full(D.NUM_SQUARES, -1)
        for k in range(1, views["discs"].shape[0]):
            self.owner[views["discs"][k] > 0] = k
        squares = views["squares"]
        self.no_card, self.face_down, self.face_up = squares[:, 0] > 0, squares[:, 1] > 0, squares[:, 2] > 0
        self.devil_space_blocked = views["devils_home"][0] > 0
        self.cards = views["cards"]
        self.certain = views["certain"]

    def p_own(self):
        """Chance each square's card is a letter of ours we still lack."""
        missing = self.my_letters == 0
        return self.cards[:, OWN_LETTERS] @ missing.astype(np.float32)

    def face_up_types(self):
        types = np.full(D.NUM_SQUARES, -1)
        types[self.face_up] = self.cards[self.face_up].argmax(axis=1)
        return types

    def known_own_missing(self):
        """Squares certainly holding a letter of ours we lack (face up or peeked)."""
        return (self.p_own() > 0.999) & (self.certain > 0)

    def p_hall_pass(self):
        """Chance each square's card is a letter we hold (any colour): a flip there lets us go on."""
        held = np.tile(self.my_letters > 0, D.NUM_PEOPLE // D.NUM_LETTERS).astype(np.float32)
        return self.cards[:, : D.NUM_PEOPLE] @ held

    def worth(self):
        """What ending a move on each square is worth to us (see the module docstring)."""
        held = int(self.my_letters.sum())
        p_devil, p_tower = self.cards[:, D.TYPE_DEVIL], self.cards[:, D.TYPE_TOWER]
        full = held == D.NUM_LETTERS
        devil_cost = 0.5 * min(2, held) + 0.1 if self.with_devil else 0.2
        tower = (2.0 if full else 0.8) if self.with_devil else 0.05
        worth = self.p_own() - devil_cost * p_devil + tower * p_tower
        worth[self.face_down] += HALL_PASS * self.p_hall_pass()[self.face_down]
        worth += self.gifts(p_devil + p_tower)
        worth[self.no_card] = 0.0
        if self.me >= 0:
            worth[self.me] = 0.0
        return worth

    def gifts(self, p_no_hand_over):
        """With a devil: the worth of handing it to the fellow on each square (one fellow there)."""
        gift = np.zeros(D.NUM_SQUARES)
        if self.with_devil:
            full = self.my_letters.sum() == D.NUM_LETTERS
            for square in np.flatnonzero(self.discs == 1):
                other = self.owner[square]
                gift[square] = ((2.0 if full else 0.3) + 0.1 * self.letters[other].sum() + 0.5 * self.devils[other]) * (
                    1.0 - p_no_hand_over[square])
        return gift

    def stop_worth(self):
        """Ending the move where the disc stands (a face-up letter we hold): a hand-over, if any."""
        return self.gifts(np.zeros(D.NUM_SQUARES))[self.me]

    def passable(self):
        """Squares a move may go on from (the engine's may_continue, read off the observation)."""
        types = self.face_up_types()
        person = (types >= 0) & (types < 36)
        hall_pass = np.zeros(D.NUM_SQUARES, bool)
        hall_pass[person] = self.my_letters[types[person] % D.NUM_LETTERS] > 0
        can = self.no_card | hall_pass | (self.face_down & self.with_devil)
        can[self.discs == 1] = self.with_devil
        return can

    def enterable(self):
        can = self.discs < 2
        can[D.DEVIL_SPACE] &= not self.devil_space_blocked
        return can

    def moves_from(self, start):
        """Moves needed to end on each square from ``start`` (0-1 BFS: each forced stop on the way
        costs a move); inf where it cannot be reached."""
        passable, enterable = self.passable(), self.enterable()
        stops_before = np.full(D.NUM_SQUARES, np.inf)
        stops_before[start] = 0
        queue = deque([start])
        while queue:
            square = queue.popleft()
            extra = 0 if square == start or passable[square] else 1
            for nxt in NEIGHBOURS[square]:
                cost = stops_before[square] + extra
                if enterable[nxt] and cost < stops_before[nxt]:
                    stops_before[nxt] = cost
                    if extra:
                        queue.append(nxt)
                    else:
                        queue.appendleft(nxt)
        return stops_before + 1
