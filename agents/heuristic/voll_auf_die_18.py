"""A rule-based Voll auf die 18 player for ``voll_auf_die_18_v0``.

It reads only its seat's observation (through the game's ``Layout`` views) and the mask, and
plans with the engine's argument search (:func:`envs.voll_auf_die_18.engine.argument_search`)
over the cards it can see. A team of these players coordinates without talking: every seat that
sees the same cards computes the same plan, in absolute seat order, and lays its own part of it
in the same moment.

**Arguing.** Nazis are taken in order of urgency: those with a pool under way first, then the
ones on the spaces (each one convinced frees a space; 5 face up lose), higher IQs before lower
(they get harder as the Arguments run out), the top of the Nazi stack last (it only makes the
stack smaller). For the first Nazi the search can convince exactly, the seat lays its part of the
team with the fewest members; seats not in that team look at the next Nazi.

**Cleaning up.** Cards laid in a pool that nobody can complete any more are withdrawn.

**Trading.** With nothing to argue, the seat looks for the one exchange that lets the most urgent
Nazis be convinced: a Bib swap (same colour or value), or a 1:1 swap with a team-mate it can see
(it offers its card; the team-mate, seeing the same gain, accepts). An offer made to it is
accepted when it helps. When hand cards come from the Bib it draws the highest value, but never
below a "10 in the Bib" goal; short of that goal it swaps with the Bib towards the colour or number
combo on a back in view.

**Everything else.** Krapotke rolls his used dice, frees blocked 6s when two or more are blocked,
and rerolls a die no plan uses. The Bib is expanded whenever possible (talent spaces first: own
talent, then the others'), which also meets the "10 in the Bib" goals; Bib swaps never take a card
the chapter-6 goal counts (one from a talent space) while that goal is not above 10. When no one
can be convinced and no exchange helps, with four Nazis face up, in the finale or for a few moments
in a row, the team calls the emergency redraw (in chapter "the Arguments run out", whose new hands
come from the Bib, only when the Bib holds the cards for full hands); otherwise a stuck seat now and
then swaps a random card with the Bib to bring new sums into reach. Plans use only cards whose
holders know them (they lay them knowingly): in Blind Trust a seat with nothing to argue tells a
team-mate her cards (the next seat on first); without communication a seat that cannot see its
own cards sometimes tries an argument at random: a failed one costs only the moment.

**Chapter 6** ("10 Bib cards from talent spaces"; only chapters with that label play so). The
goal needs the talent cycle: activate a talent space (its card goes to the Bib), spend the talent
in an argumentation that needs it (the space is covered again), activate again. While the goal is
short the plans prefer, Nazi by Nazi, a team in which a seat lays an argumentation that spends its
ready talent; with few Nazis face up (``TALENT_CALM``) only such plans are laid, so that the cards
wait for the talents. Free seats without a part in a plan share the talent spaces out in seat
order and activate them (a group task only when every seat is free, all in the same moment), and
idle seats bring the colour or number combo on a talent card's back into one hand by Bib swaps and
1:1 swaps. With nothing else to do a seat swaps with the Bib towards the most urgent Nazi nobody
can reach (cards of its colours and values) before it churns.
"""

import numpy as np

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .. import base
# The compiled, memoryless player that ISMCTS's playouts use for this game (agents.heuristic.playout_strategy):
# a port of this agent's stateless decisions, not this agent.
from .voll_auf_die_18_playout import playout_rows, playout_rules  # noqa: F401
from .voll_auf_die_18_playout import redraw_refills

HALF_OF_SEGMENTS = {int(seg): h for h, seg in enumerate(D.HALF_SEGMENTS)}
NEVER_ALONE = [name for _, name in D.LABEL_NAMES].index("never alone!")
BLIND_GUESS = 0.15   # how often a blind seat tries an argument it cannot check
CHURN = 0.3          # how often a stuck seat swaps a random card with the Bib
PATIENCE = 6         # moments to wait for unseen team-mates to complete a pool
BIB10 = [name for _, name in D.LABEL_NAMES].index("10 cards in the Bib")
BIB10_TALENT = [name for _, name in D.LABEL_NAMES].index("10 Bib cards from talent spaces")
STUCK_MOMENTS = 5    # moments with nothing to do before the team calls the emergency redraw
SUBSET_INDEX = {int(s): i for i, s in enumerate(E.SUBSETS)}
# chapter 6, while the goal is short: argue only plans that spend a ready talent as long as fewer
# Nazis than this lie face up (the stack's top included), by group size (5 players: as 4)
TALENT_CALM = {2: 4, 3: 2, 4: 2}


def back_combo(back):
    """The condition on an Argument's back (an observation card's features from the back on):
    (condition kind, counts per colour or number that its combo needs)."""
    return int(np.argmax(back[20:24])), np.rint(back[24:31] * 4).astype(int)


def combo_progress(cards, combos):
    """Of ``cards`` ((colour, value) pairs): the most cards any one of ``combos`` ((kind, needed
    counts) pairs, colour or number combos) finds among them."""
    return max(int(np.minimum(np.bincount([c[0] if kind == D.COND_COLOURS else c[1] for c in cards], minlength=7)[:7],
                              need).sum()) for kind, need in combos)


class Table:
    """The observation of one seat, decoded into absolute seat order for the search."""

    def __init__(self, views, seat, num):
        self.num, self.seat = num, seat
        order = [(rel, (seat + rel) % num) for rel in range(num)]
        seats = views["seats"]
        hands = views["hands"]
        self.kinds = np.zeros(num, np.int8)
        self.relax = np.zeros(num, np.int8)
        self.colours = np.zeros((num, 4), np.int8)
        self.values = np.zeros((num, 4), np.int8)
        self.halves = np.zeros((num, 4), np.int8)
        self.usable = np.zeros((num, 4), np.int8)
        self.present = np.zeros((num, 4), np.int8)
        self.known = np.zeros((num, 4), np.int8)
        self.razupaltuff = np.zeros((num, 4), np.int8)
        self.dice = views["dice"]
        holder_knows = views["holder_knows"]
        self.busy = np.zeros(num, bool)
        for rel, who in order:
            self.busy[who] = views["busy"][rel] > 0  # busy with an action: she cannot lay anything now
            self.kinds[who] = int(np.argmax(seats[rel, 1:9]))
            self.relax[who] = int(seats[rel, 9] > 0.5)
            if self.kinds[who] == D.KRAPOTKE:
                for k in range(D.NUM_DICE):
                    value = int(np.argmax(self.dice[k, :6])) + 1
                    self.colours[who, k], self.values[who, k] = k, value
                    self.usable[who, k] = int(self.dice[k, 6] > 0.5 and value != 6 and not self.busy[who])
                continue
            for i in range(4):
                card = hands[rel, i]
                if card[0] < 0.5:
                    continue
                self.present[who, i] = 1
                self.razupaltuff[who, i] = int(card[2] > 0.5)
                if self.razupaltuff[who, i]:
                    continue
                self.known[who, i] = int(card[1] > 0.5)
                segments = sum(1 << s for s in range(7) if card[13 + s] > 0.5)
                self.halves[who, i] = HALF_OF_SEGMENTS[segments]
                if self.known[who, i]:
                    self.colours[who, i] = int(np.argmax(card[3:7]))
                    self.values[who, i] = int(np.argmax(card[7:13])) + 1
                    # a card counts for plans only if its holder knows it too (she lays it knowingly)
                    # and is free to lay it now
                    self.usable[who, i] = int(holder_knows[rel, i] > 0.5 and not self.busy[who])
        self.min_team = 2 if views["labels"][NEVER_ALONE] > 0.5 else 1
        self.nazis, self.slots, self.weights = self._nazis(views["nazi_slots"], order)

    def _nazis(self, slots_view, order):
        rows, slots, weights = [], [], []
        for slot in range(E.NUM_SLOTS):
            nazi = slots_view[slot]
            if nazi[0] < 0.5:
                continue
            iq = int(round(nazi[1] * 23))
            allowed = sum(1 << c for c in range(4) if nazi[7 + c] > 0.5)
            banned = sum(1 << v for v in range(1, 7) if nazi[11 + v - 1] > 0.5)
            everyone = int(nazi[6] > 0.5)
            fixed = int(round(nazi[17] * 23))
            readings = sum(1 << v for v in range(24) if nazi[29 + v] > 0.5)
            laid = [0] * self.num
            for rel, who in order:
                laid[who] = int(nazi[19 + rel] > 0.5)
            underway = any(laid)
            # urgency: pools under way, then the spaces by IQ, the stack's top last
            weight = (4.0 if underway else 0.0) + (2.0 if slot > 0 else 0.0) + iq / 23.0
            rows.append([iq, allowed, banned, everyone, fixed, readings] + laid)
            slots.append(slot)
            weights.append(weight)
        order_by = np.argsort(-np.array(weights)) if weights else []
        nazis = np.array([rows[i] for i in order_by], np.int64).reshape(len(rows), 6 + self.num)
        return nazis, [slots[i] for i in order_by], np.array([weights[i] for i in order_by], np.float64)

    def unseen_teammates(self, seat):
        """Whether some team-mate holds cards whose fronts this seat does not see."""
        others = [who for who in range(self.num) if who != seat]
        return any(self.present[who, i] and not self.known[who, i] and not self.razupaltuff[who, i]
                   for who in others for i in range(4))

    def search(self, j, usable=None):
        """(ways, solution) for the j-th most urgent Nazi."""
        row = self.nazis[j]
        solution = np.zeros(self.num, np.int8)
        ways = E.argument_search(int(row[0]), int(row[1]), int(row[2]), self.min_team, int(row[3]), self.kinds,
                                 self.relax, self.colours, self.values, self.halves,
                                 self.usable if usable is None else usable, int(row[4]), int(row[5]),
                                 row[6:].astype(np.int8), solution)
        return ways, solution


class HeuristicAgent(base.Agent):
    name = "heuristic"

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.num = config["num_players"]
        self.talking = config["communication"] == "full"
        self.waiting = {}  # IQ of a Nazi I laid at -> moments waited
        self.stuck = 0     # moments in a row with nothing to do (see emergency)
        self.roles = [None] * self.num  # chapter 6: each seat's part in this moment's plans

    def act(self, observation, action_mask, info=None):
        if np.count_nonzero(action_mask) == 1:  # busy with my last action: only waiting is left
            return int(np.flatnonzero(action_mask)[0])
        self.observation = np.asarray(observation)
        views = E.LAYOUT.views(self.observation)
        table = Table(views, self.seat, self.num)
        mask = self.bib_mask(views, np.asarray(action_mask))
        plans = (self.argue, self.clean_up, self.tell, self.accept, self.dice, self.trade, self.expand,
                 self.emergency, self.build_combo, self.blind_guess, self.churn)
        if views["labels"][BIB10_TALENT] > 0.5:  # chapter 6: the Bib goal comes from the talent spaces
            plans = (self.group_task, self.argue_talents, self.clean_up, self.tell, self.accept, self.dice,
                     self.activate, self.trade, self.accept_combo, self.emergency, self.talent_combo, self.gather, self.blind_guess, self.churn)
        for plan in plans:
            action = plan(table, views, mask)
            if action is not None and mask[action]:
                if plan not in (self.emergency, self.build_combo, self.talent_combo, self.gather, self.blind_guess,
                                self.churn):
                    self.stuck = 0
                return int(action)
        return E.A_WAIT if mask[E.A_WAIT] else int(self.rng.choice(np.flatnonzero(mask)))

    # ---- arguing ------------------------------------------------------------------------------------

    def argue(self, table, views, mask):
        for j, slot in enumerate(table.slots):
            ways, solution = table.search(j)
            if ways == 0:
                continue
            mine = int(solution[self.seat])
            if mine:
                return E.A_ARGUE + slot * E.NUM_SUBSETS + SUBSET_INDEX[mine]
        if table.unseen_teammates(self.seat):
            return self.start_pool(table, mask)
        return None

    def start_pool(self, table, mask):
        """Team-mates' hands unseen: lay the largest argumentation that leaves room (2 or more)
        at the most urgent Nazi without a pool, for the others to complete."""
        out = np.zeros((3, E.MAX_OPTIONS), np.int64)
        for j, slot in enumerate(table.slots):
            row = table.nazis[j]
            if row[6:].any() or row[3]:
                continue
            count = E.seat_options(table.kinds[self.seat], table.relax[self.seat], table.colours[self.seat],
                                   table.values[self.seat], table.halves[self.seat], table.usable[self.seat],
                                   int(row[1]), int(row[2]), out[0], out[1], out[2])
            room = [o for o in range(count) if row[0] - row[4] - out[1, o] >= 2 and not out[2, o]]
            if room:
                best = max(room, key=lambda o: out[1, o])
                action = E.A_ARGUE + slot * E.NUM_SUBSETS + SUBSET_INDEX[int(out[0, best])]
                if mask[action]:
                    return action
        return None

    def clean_up(self, table, views, mask):
        """Withdraw from a pool the search can no longer complete (with team-mates' hands unseen:
        after waiting a few moments for them)."""
        for j, slot in enumerate(table.slots):
            nazi = int(table.nazis[j, 0])
            if table.nazis[j, 6 + self.seat] and mask[E.A_WITHDRAW + slot]:
                self.waiting[nazi] = self.waiting.get(nazi, 0) + 1
                ways, _ = table.search(j)
                if ways == 0 and (not table.unseen_teammates(self.seat) or self.waiting[nazi] > PATIENCE):
                    self.waiting.pop(nazi)
                    return E.A_WITHDRAW + slot
            else:
                self.waiting.pop(nazi, None)
        return None

    # ---- trading ------------------------------------------------------------------------------------

    def _scores(self, table, changes):
        if not changes or not len(table.nazis):
            return np.zeros(len(changes))
        scores = np.zeros(len(changes))
        E.exchange_scores(table.kinds, table.relax, table.colours.copy(), table.values.copy(), table.halves.copy(),
                        table.usable.copy(), table.nazis, table.weights, table.min_team,
                        np.array(changes, np.int64), scores)
        return scores

    def _baseline(self, table):
        return self._scores(table, [[-1] * 10])[0]

    @staticmethod
    def offer_to_me(views, rel):
        """The card the seat ``rel`` places on (relative) offers me, if it offers one I can see:
        (its hand slot, colour, value, half), else None."""
        offered = views["offered_to_me"][rel]
        if offered[0] < 0.5 or offered[2] > 0.5:
            return None
        slot = int(np.argmax(views["offers"][rel, 4:8]))
        colour, value = int(np.argmax(offered[3:7])), int(np.argmax(offered[7:13])) + 1
        return slot, colour, value, HALF_OF_SEGMENTS[sum(1 << s for s in range(7) if offered[13 + s] > 0.5)]

    def accept(self, table, views, mask):
        """Take an offered card when the exchange lets the team convince more."""
        candidates, actions = [], []
        for rel in range(1, self.num):
            who = (self.seat + rel) % self.num
            offer = self.offer_to_me(views, rel)
            if offer is None:
                continue
            slot, colour, value, half = offer
            for i in range(4):
                action = E.A_ACCEPT + (rel - 1) * E.HAND + i
                if not mask[action] or table.razupaltuff[self.seat, i]:
                    continue
                mine = [table.colours[self.seat, i], table.values[self.seat, i], table.halves[self.seat, i]]
                candidates.append([self.seat, i, colour, value, half, who, slot] + mine)
                actions.append(action)
        return self._best(table, candidates, actions)

    def trade(self, table, views, mask):
        candidates, actions = [], []
        for i in range(4):
            if not table.present[self.seat, i] or table.razupaltuff[self.seat, i]:
                continue
            base = E.A_BIB + i * E.NUM_ARG
            for card in np.flatnonzero(mask[base: base + E.NUM_ARG]):
                candidates.append([self.seat, i, D.CARD_COLOUR[card], D.CARD_VALUE[card], D.CARD_HALF[card]]
                                  + [-1] * 5)
                actions.append(base + int(card))
        for rel in range(1, self.num):
            who = (self.seat + rel) % self.num
            for i in range(4):
                action = E.A_OFFER + (rel - 1) * E.HAND + i
                if not mask[action] or not table.usable[self.seat, i]:
                    continue
                for j in range(4):
                    if table.usable[who, j]:
                        candidates.append([self.seat, i, table.colours[who, j], table.values[who, j],
                                           table.halves[who, j], who, j, table.colours[self.seat, i],
                                           table.values[self.seat, i], table.halves[self.seat, i]])
                        actions.append(action)
        action = self._best(table, candidates, actions)
        short = views["labels"][BIB10] > 0.5 and views["counts"][3] * D.NUM_ARGUMENTS <= D.BIB_GOAL + 0.5
        if action is None and not short:  # draw a Bib card into an empty slot (never below the Bib goal)
            for i in range(4):
                if not table.present[self.seat, i]:
                    base = E.A_BIB + i * E.NUM_ARG
                    cards = np.flatnonzero(mask[base: base + E.NUM_ARG])
                    if cards.size:
                        return base + int(cards[np.argmax(D.CARD_VALUE[cards])])
        return action

    def bib_mask(self, views, mask):
        """The mask without the Bib swaps and draws that would take a card the chapter's goal needs:
        in chapter 6 ("10 Bib cards from talent spaces"), while the goal is not above 10, the cards
        that came from talent spaces (every other card keeps the count when swapped)."""
        counted = views["counts"][4] * D.NUM_ARGUMENTS
        if views["labels"][BIB10_TALENT] < 0.5 or counted > D.BIB_GOAL + 0.5:
            return mask
        protected = np.flatnonzero(views["cards"][:, 3] > 0.5)
        if not protected.size:
            return mask
        mask = mask.copy()
        for i in range(4):
            mask[E.A_BIB + i * E.NUM_ARG + protected] = 0
        return mask

    def _best(self, table, candidates, actions):
        if not candidates:
            return None
        scores = self._scores(table, candidates)
        best = int(np.argmax(scores))
        if scores[best] > self._baseline(table):
            return actions[best]
        return None

    # ---- the rest -----------------------------------------------------------------------------------

    def dice(self, table, views, mask):
        if table.kinds[self.seat] != D.KRAPOTKE:
            return None
        status = views["dice"][:, 6:10]
        if (status[:, 2] > 0.5).sum() >= 2 and mask[E.A_ROLL_ALL]:
            return E.A_ROLL_ALL
        for k in range(D.NUM_DICE):
            if status[k, 1] > 0.5 and mask[E.A_ROLL + k]:
                return E.A_ROLL + k
        free = [k for k in range(D.NUM_DICE) if mask[E.A_ROLL + k]]
        if free and self.rng.random() < 0.5:
            return E.A_ROLL + int(self.rng.choice(free))
        return None

    def expand(self, table, views, mask):
        own_talent = E.A_EXPAND + D.RUN_OUT_STACKS
        if mask[own_talent]:
            return own_talent
        options = np.flatnonzero(mask[E.A_EXPAND: E.A_ROLL])
        if options.size:
            talents = options[options >= D.RUN_OUT_STACKS]
            return E.A_EXPAND + int(talents[0] if talents.size else options[0])
        return None

    def emergency(self, table, views, mask):
        """Nothing to argue and no exchange helps: with 4 Nazis face up, in the finale (no Nazi
        comes any more, so a locked hand only waits for the clock) or after STUCK_MOMENTS such
        moments in a row, the team calls the emergency redraw; in chapter "the Arguments run out"
        only when the Bib holds the cards for full new hands (``redraw_refills``)."""
        self.stuck += 1
        if not mask[E.A_EMERGENCY] or any(table.search(j)[0] for j in range(len(table.slots))):
            return None
        if not redraw_refills(self.observation, self.num):
            return None
        face_up = views["counts"][2] * D.LOSE_FACE_UP
        finale = views["clock"][2] > 0.5
        if face_up >= 3.5 or finale or self.stuck >= STUCK_MOMENTS:
            return E.A_EMERGENCY
        return None

    def build_combo(self, table, views, mask):
        """Short of the Bib goal: swap with the Bib towards the colour or number combo on a back in
        view (a stack's or talent space's top), one card closer at a time."""
        if views["labels"][BIB10] < 0.5 or views["counts"][3] * D.NUM_ARGUMENTS >= D.BIB_GOAL:
            return None
        wanted = []
        for top in list(views["stacks"][:, 1:]) + list(views["talent_spaces"][:, 1:]):
            if top[0] > 0.5:
                kind, need = back_combo(top)
                if kind in (D.COND_COLOURS, D.COND_NUMBERS):
                    wanted.append((kind, need))
        if not wanted:
            return None
        mine = [(int(table.colours[self.seat, i]), int(table.values[self.seat, i])) for i in range(4)
                if table.usable[self.seat, i]]

        def match(cards):
            return combo_progress(cards, wanted)

        now, best, choice = match(mine), None, None
        for i in range(4):
            if not table.usable[self.seat, i]:
                continue
            base = E.A_BIB + i * E.NUM_ARG
            for card in np.flatnonzero(mask[base: base + E.NUM_ARG]):
                trial = [c for k, c in enumerate(mine) if k != list(np.flatnonzero(table.usable[self.seat])).index(i)]
                gain = match(trial + [(int(D.CARD_COLOUR[card]), int(D.CARD_VALUE[card]))]) - now
                if gain > 0 and (best is None or gain > best):
                    best, choice = gain, base + int(card)
        return choice

    def churn(self, table, views, mask):
        """Stuck (nothing to argue, no exchange helps): swap a random card with the Bib now and
        then, so that new sums come into reach."""
        if self.rng.random() > CHURN:
            return None
        held = np.flatnonzero(table.present[self.seat] & ~table.razupaltuff[self.seat].astype(bool))
        swaps = [E.A_BIB + int(i) * E.NUM_ARG + int(c) for i in held
                 for c in np.flatnonzero(mask[E.A_BIB + i * E.NUM_ARG: E.A_BIB + (i + 1) * E.NUM_ARG])]
        return int(self.rng.choice(swaps)) if swaps else None

    def tell(self, table, views, mask):
        """Blind Trust: tell a team-mate the cards she cannot see, the next seat on first (team-mates
        then tell different seats in the same moment)."""
        for rel in range(1, self.num):
            if mask[E.A_TELL + rel - 1]:
                return E.A_TELL + rel - 1
        return None

    def blind_guess(self, table, views, mask):
        """Nobody may tell me my cards (no communication): now and then try an argument blindly."""
        if self.talking or table.known[self.seat].any() or not table.present[self.seat].any() or self.rng.random() > BLIND_GUESS:
            return None
        argues = np.flatnonzero(mask[E.A_ARGUE: E.A_WITHDRAW])
        return E.A_ARGUE + int(self.rng.choice(argues)) if argues.size else None

    # ---- chapter 6: ten Bib cards from the talent spaces -------------------------------------------

    @staticmethod
    def talent_short(views):
        """How many Bib cards from talent spaces the chapter-6 goal still needs."""
        return max(0, D.BIB_GOAL - int(round(views["counts"][4] * D.NUM_ARGUMENTS)))

    def talent_spaces(self, table, views):
        """The talent spaces that can be activated, in absolute seat order of their owners:
        (owner, condition kind, counts the combo needs)."""
        out = []
        for owner in range(table.num):
            rel = (owner - self.seat) % table.num
            top = views["talent_spaces"][rel, 1:]
            if views["talent_spaces"][rel, 0] < 0.01 or top[0] < 0.5 or views["seats"][rel, 9] > 0.5:
                continue
            out.append((owner, *back_combo(top)))
        return out

    def _meets(self, table, who, kind, need):
        """Whether ``who``'s hand (as this seat sees it) holds the combo ``need``."""
        return bool(combo_progress(list(self._hand(table, who).values()), [(kind, need)]) == need.sum())

    def _talent_target(self, owner):
        return E.A_EXPAND + D.RUN_OUT_STACKS + (owner - self.seat) % self.num

    def group_task(self, table, views, mask):
        """A group task on a talent space needs every seat in the same moment: when every seat is
        free and the goal is short, all of them (seeing the same) carry it out together."""
        if not self.talent_short(views) or table.busy.any():
            return None
        for owner, kind, _ in self.talent_spaces(table, views):
            if kind == D.COND_GROUP_TASK:
                return self._talent_target(owner)
        return None

    def talent_solution(self, table, j):
        """(members, solution) of a team for the j-th most urgent Nazi in which a seat whose talent
        is ready lays an argumentation that needs it (the talent is then spent and its space covered
        again, to be activated once more), with the fewest members; None if there is none."""
        row = table.nazis[j]
        contributed = row[6:].astype(np.int8)
        out = np.zeros((3, E.MAX_OPTIONS), np.int64)
        best = None
        for t in range(table.num):
            if not table.relax[t] or contributed[t]:
                continue
            count = E.seat_options(table.kinds[t], 1, table.colours[t], table.values[t], table.halves[t],
                                   table.usable[t], int(row[1]), int(row[2]), out[0], out[1], out[2])
            for o in range(count):
                if not out[2, o] or (not row[5] and row[4] + out[1, o] > row[0]):
                    continue
                joined = contributed.copy()
                joined[t] = 1
                solution = np.zeros(table.num, np.int8)
                ways = E.argument_search(int(row[0]), int(row[1]), int(row[2]), table.min_team, int(row[3]),
                                         table.kinds, table.relax, table.colours, table.values, table.halves,
                                         table.usable, int(row[4] + out[1, o]), int(row[5]), joined, solution)
                if ways:
                    solution[t] = out[0, o]
                    members = int(np.count_nonzero(solution))
                    if best is None or members < best[0]:
                        best = (members, solution)
        return best

    def team_plans(self, table, views):
        """Per seat the (slot, subset) it lays now, or None: the first Nazi (by urgency) whose plan
        has it as a member. While the goal is short a plan that spends a ready talent is preferred."""
        short = self.talent_short(views) > 0
        calm = short and views["counts"][2] * D.LOSE_FACE_UP < TALENT_CALM[min(table.num, 4)] - 0.5
        roles = [None] * table.num
        for j, slot in enumerate(table.slots):
            ways, solution = table.search(j)
            if ways == 0:
                continue
            found = self.talent_solution(table, j) if short and table.relax.any() else None
            if found is not None:
                solution = found[1]
            elif calm:
                continue
            for who in range(table.num):
                if roles[who] is None and solution[who]:
                    roles[who] = (slot, int(solution[who]))
        return roles

    def argue_talents(self, table, views, mask):
        self.roles = self.team_plans(table, views)
        mine = self.roles[self.seat]
        if mine is not None:
            return E.A_ARGUE + mine[0] * E.NUM_SUBSETS + SUBSET_INDEX[mine[1]]
        if table.unseen_teammates(self.seat):
            return self.start_pool(table, mask)
        return None

    def activate(self, table, views, mask):
        """Activate a talent space. Free seats without a part in this moment's plans share the spaces
        out, in their owners' seat order: the owner takes her own space if she meets its condition,
        else the first such seat, so that no two seats spend a moment on the same card."""
        idle = [who for who in range(table.num) if not table.busy[who] and self.roles[who] is None]
        taken = set()
        for owner, kind, need in self.talent_spaces(table, views):
            if kind == D.COND_GROUP_TASK:
                continue
            able = [who for who in idle if who not in taken
                    and (kind == D.COND_SOLO_TASK or self._meets(table, who, kind, need))]
            if not able:
                continue
            who = owner if owner in able else able[0]
            taken.add(who)
            if who == self.seat:
                target = self._talent_target(owner)
                return target if mask[target] else None
        return None

    def _combos(self, views, table):
        """The colour and number combos on the talent spaces that can be activated."""
        if not self.talent_short(views):
            return []
        return [(kind, need) for _, kind, need in self.talent_spaces(table, views)
                if kind in (D.COND_COLOURS, D.COND_NUMBERS)]

    @staticmethod
    def _combo_score(hands, combos):
        """How close the hands ({slot: (colour, value)} each) are to the combos: per hand 2 ** (cards
        of the best combo it holds), summed (convex: completing one combo in one hand counts most)."""
        return sum(2 ** combo_progress(list(cards.values()), combos) for cards in hands)

    @staticmethod
    def _hand(table, who):
        """The cards of ``who`` the search may move: {hand slot: (colour, value)}."""
        return {i: (int(table.colours[who, i]), int(table.values[who, i])) for i in range(4)
                if table.present[who, i] and table.known[who, i] and not table.razupaltuff[who, i]}

    def _combo_state(self, views, table):
        """Short of the chapter-6 goal with combos to gather: (the combos, every seat's movable
        cards, their score now); else None."""
        combos = self._combos(views, table)
        if not combos:
            return None
        hands = [self._hand(table, who) for who in range(table.num)]
        return combos, hands, self._combo_score(hands, combos)

    def _combo_gain(self, hands, combos, now, changes):
        """The score's gain when the hand slots in ``changes`` ((seat, slot, card) triples) change."""
        trial = [dict(cards) for cards in hands]
        for who, i, card in changes:
            trial[who][i] = card
        return self._combo_score(trial, combos) - now

    def talent_combo(self, table, views, mask):
        """Short of the chapter-6 goal: bring the colour or number combo on a talent space's back
        into one hand, by a Bib swap or a 1:1 swap with a team-mate (it offers; the team-mate,
        seeing the same gain, accepts), one card closer at a time."""
        state = self._combo_state(views, table)
        if state is None:
            return None
        combos, hands, now = state
        me = self.seat
        best, choice = 0, None
        for i in hands[me]:
            base = E.A_BIB + i * E.NUM_ARG
            for card in np.flatnonzero(mask[base: base + E.NUM_ARG]):
                gain = self._combo_gain(hands, combos, now,
                                        [(me, i, (int(D.CARD_COLOUR[card]), int(D.CARD_VALUE[card])))])
                if gain > best:
                    best, choice = gain, base + int(card)
        for rel in range(1, self.num):
            who = (me + rel) % self.num
            for i in hands[me]:
                action = E.A_OFFER + (rel - 1) * E.HAND + i
                if not mask[action]:
                    continue
                for j in hands[who]:
                    gain = self._combo_gain(hands, combos, now, [(me, i, hands[who][j]), (who, j, hands[me][i])])
                    if gain > best:
                        best, choice = gain, action
        if choice is not None and E.A_OFFER <= choice < E.A_ACCEPT:
            rel, i = divmod(choice - E.A_OFFER, E.HAND)
            if views["offers"][0, rel] > 0.5 and views["offers"][0, 4 + i] > 0.5:
                return None  # that offer stands already
        return choice

    def accept_combo(self, table, views, mask):
        """Chapter 6: take an offered card when the swap brings a talent space's combo closer."""
        state = self._combo_state(views, table)
        if state is None:
            return None
        combos, hands, now = state
        me = self.seat
        best, choice = 0, None
        for rel in range(1, self.num):
            who = (me + rel) % self.num
            offer = self.offer_to_me(views, rel)
            if offer is None:
                continue
            slot, card = offer[0], offer[1:3]
            for i in hands[me]:
                action = E.A_ACCEPT + (rel - 1) * E.HAND + i
                if not mask[action]:
                    continue
                gain = self._combo_gain(hands, combos, now, [(me, i, card), (who, slot, hands[me][i])])
                if gain > best:
                    best, choice = gain, action
        return choice

    def gather(self, table, views, mask):
        """Nothing to argue and no single exchange helps: swap with the Bib towards the most urgent
        Nazi nobody can reach, a card it does not accept (colour, banned value) for one of the same
        value that it does, or one it accepts for a higher one of the same colour."""
        me = self.seat
        for j in range(len(table.slots)):
            if table.search(j)[0]:
                continue
            allowed, banned = int(table.nazis[j, 1]), int(table.nazis[j, 2])

            def worth(colour, value):
                return value if (allowed >> colour & 1) and not (banned >> value & 1) else 0

            best, choice = 0, None
            for i in range(4):
                if not table.usable[me, i]:
                    continue
                mine = worth(table.colours[me, i], table.values[me, i])
                base = E.A_BIB + i * E.NUM_ARG
                for card in np.flatnonzero(mask[base: base + E.NUM_ARG]):
                    gain = worth(D.CARD_COLOUR[card], D.CARD_VALUE[card]) - mine
                    if gain > best:
                        best, choice = gain, base + int(card)
            return choice
        return None
