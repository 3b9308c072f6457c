"""A rule-based Werner: Volle Socke player for ``volle_socke_v0``.

It reads only its seat's observation (through the game's ``Layout`` views) and values cards by
the best bike they make: the best front wheel (normal, else a spare part, else a pumped-up flat
or a wooden one), the highest rear gear (a spare part is a 4th gear), every engine, x2 per Turbo,
trying each way of using its spare parts.

The game's tension: a card on the bike scores but is exposed to misery cards (TÜV and Bull take
any card, Motor her an engine, Rad her a wheel, a Nail flattens the front tyre, and a bike without
a wheel or an engine scores nothing); a card in hand is safe but scores only once it is on the
bike, one card a turn, and the round ends when everybody passes. So the player lays out a bike
that stands and keeps reserves to repair it and to add at the end.

**Building.** Takes the face-up card when it raises the hand's worth (best bike, a share of it
for each joy and misery card, a little for spare wheels); discards the card whose loss costs
least; knocks once its bike is strong (``KNOCK_AT`` HP) or the draw pile runs low.

**Laying out.** A bike that stands, no more: the best front and rear wheel and the weakest
engine; the other engines, the Turbos and spare parts stay in hand. (With ``own_bike="remove"``
nothing can be added later, so it lays out everything.)

**Contest.** In order: move a spare part where it raises the bike now (moving is free); repair a
broken or flat bike from the hand; play a misery card where it hurts most, aimed at the leader
(the opponent with the highest total plus current bike; damage to others counts less), taking the
card whose loss costs the target most (for Motor her / Rad her the victim picks: it counts the
card the victim would give, and what that card adds to its own bike); when its pass would end the
round (everybody else has passed), put out the reserve that adds most; otherwise pass. Reserves
thus come out at the end, one per round of passes, once the others have stopped playing.

**As a target.** Weighs a loss by the bike it can still build from its bike and hand together
(a reserve in hand makes a lost card cheap); answers a Nail with the Air Pump and a TÜV with Fuck
for TÜV whenever it would lose something, and spends Da lach ich doch über when that loss is at
least a fifth of what it can build (or it can build little). It hands over the engine or wheel
whose loss costs least; a received spare part takes the role worth most.
"""

import numpy as np

from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    BULL, ENGINE_10, ENGINE_100, FIXED_ROLE, FLAT_FRONT, FRONT, FUCK_TUV, GEAR, LACH, MOTOR_HER, NAIL, NUM_KINDS,
    NUM_SPARES, POWER, PUMP, RAD_HER, REAR_1, REGULAR_BIKE_KINDS, ROLE_ENGINE, ROLE_FRONT, ROLE_PUMP, ROLE_REAR,
    SPARE_0, SPARE_GEAR, TURBO, TUV, WOODEN_FRONT,
)

from .. import base

KNOCK_AT = 400            # HP of the best bike in hand that is worth knocking for
#: What a hand that makes a bike at all adds to its worth (a knock may come any time: no bike, no score).
STANDS = 100
#: What a hand that still makes a bike after losing a wheel adds to its worth (as a share of that bike).
RESERVE_SHARE = 0.6
#: What a joy or misery card in hand adds to a hand's worth, as a share of its bike (at least 100 HP).
TACTICAL_SHARE = {LACH: 0.3, FUCK_TUV: 0.1, PUMP: 0.05, MOTOR_HER: 0.25, RAD_HER: 0.2, TUV: 0.15, BULL: 0.2,
                  NAIL: 0.1}
SPARES = range(SPARE_0, SPARE_0 + NUM_SPARES)
ENGINES = range(ENGINE_10, ENGINE_100 + 1)
REARS = range(REAR_1, REAR_1 + 4)


# ---- bikes -----------------------------------------------------------------------------------------
# A bike is (counts over the 26 kinds, spare-part roles (-1: not on the bike), flat tyre).


def bike_value(counts, roles, flat, flat_half):
    """The rulebook's score of a bike (the engine's formula, in Python)."""
    front = next((k for k in (FRONT, FLAT_FRONT, WOODEN_FRONT) if counts[k]), None)
    if front is None and any(roles[s] == ROLE_FRONT for s in range(NUM_SPARES)):
        front = SPARE_0
    gears = [GEAR[k] for k in REARS if counts[k]] + [SPARE_GEAR for s in range(NUM_SPARES) if roles[s] == ROLE_REAR]
    power = sum(POWER[k] * counts[k] for k in ENGINES)
    power += sum(POWER[SPARE_0 + s] for s in range(NUM_SPARES) if roles[s] == ROLE_ENGINE)
    if front is None or not gears or power == 0:
        return 0
    return int(E.bike_score(power, counts[TURBO], max(gears), front == WOODEN_FRONT, flat, flat_half))


def best_bike_from(cards, flat_half):
    """The most a bike built from ``cards`` (counts) scores, and the spare roles that get it."""
    best, best_roles = 0, {}
    spares = [k for k in SPARES if cards[k]]
    fronts = [k for k in (FRONT, WOODEN_FRONT, FLAT_FRONT) if cards[k]]
    rear = max((GEAR[k] for k in REARS if cards[k]), default=0)
    power = sum(POWER[k] * cards[k] for k in ENGINES)
    for spare_front in (False, True):
        for spare_rear in (False, True):
            if spare_front + spare_rear > len(spares):
                continue
            # The weakest spare parts become wheels; the rest are engines.
            wheels, engines = spares[:spare_front + spare_rear], spares[spare_front + spare_rear:]
            if spare_front:
                front_factor = 1.0
            elif not fronts:
                continue
            elif fronts[0] == FRONT or (fronts[0] == FLAT_FRONT and cards[PUMP]):
                front_factor = 1.0
            elif fronts[0] == WOODEN_FRONT:
                front_factor = 0.5
            else:
                front_factor = 0.5 if flat_half else 0.0
            gear = SPARE_GEAR if spare_rear else rear
            total = power + sum(POWER[k] for k in engines)
            value = int(total * (1 << int(cards[TURBO])) * gear * front_factor)
            if value > best:
                roles = {}
                if spare_front:
                    roles[wheels[0]] = ROLE_FRONT
                if spare_rear:
                    roles[wheels[-1]] = ROLE_REAR
                for k in engines:
                    roles[k] = ROLE_ENGINE
                best, best_roles = value, roles
    return best, best_roles


def hand_worth(cards, flat_half):
    value, roles = best_bike_from(cards, flat_half)
    base_value = max(value, 100)
    worth = float(value) + (STANDS if value else 0) + RESERVE_SHARE * (_without_wheel(cards, roles, ROLE_FRONT, flat_half)
                                            + _without_wheel(cards, roles, ROLE_REAR, flat_half)) / 2
    for kind, share in TACTICAL_SHARE.items():
        for copy in range(int(cards[kind])):
            worth += share * base_value / (1 + copy)
    if cards[TURBO] and value == 0:
        worth += 20
    return worth


def _without_wheel(cards, roles, role, flat_half):
    """The best bike once the wheel the best bike uses in ``role`` is lost: what reserves are worth."""
    used = next((k for k, r in roles.items() if r == role), None)
    if used is None:
        kinds = (FRONT, WOODEN_FRONT, FLAT_FRONT) if role == ROLE_FRONT else tuple(reversed(REARS))
        used = next((k for k in kinds if cards[k]), None)
    if used is None:
        return 0
    rest = cards.copy()
    rest[used] -= 1
    return best_bike_from(rest, flat_half)[0]


class HeuristicAgent(base.Agent):
    name = "heuristic"
    keeps_reserves = True  # lay out one engine and keep the others (False: lay out every engine and Turbo)

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.n = config["num_players"]
        self.flat_half = config.get("flat_front", "zero") == "half"
        self.adds = config.get("own_bike", "add") == "add"

    # ---- reading the observation ----------------------------------------------------------------

    def act(self, observation, action_mask, info=None):
        self.v = v = E.LAYOUT.views(observation)
        self.mask = action_mask
        legal = np.flatnonzero(action_mask)
        if legal.size == 1:
            return int(legal[0])
        self.hand = v["hand"].astype(np.int64)
        phase = int(v["phase"].argmax())
        handler = {E.PH_DRAW: self._draw, E.PH_DISCARD: self._discard, E.PH_LAYOUT: self._lay_out,
                   E.PH_TURN: self._turn, E.PH_MISERY_SLOT: self._pick, E.PH_REACT: self._react,
                   E.PH_PLACE: self._place, E.PH_ENGINE_SLOT: self._engine_slot}[phase]
        action = handler()
        if action is None or not action_mask[action]:
            action = int(legal[self.rng.integers(legal.size)])
        return int(action)

    def bike(self, r):
        """Seat ``r`` places after us: its bike from the observation."""
        counts = np.zeros(NUM_KINDS, np.int64)
        counts[REGULAR_BIKE_KINDS] = self.v["bikes"][r]
        roles = np.full(NUM_SPARES, -1)
        for s in range(NUM_SPARES):
            on = np.flatnonzero(self.v["bike_spares"][r, s])
            if on.size:
                roles[s] = on[0]
                counts[SPARE_0 + s] = 1
        return counts, roles, bool(self.v["flat_tyre"][r])

    def value(self, bike):
        return bike_value(*bike, self.flat_half)

    def potential(self, bike):
        """The best bike our bike and hand make together (what we can still score this round)."""
        counts, _, flat = bike
        cards = counts + self.hand
        if flat and counts[FRONT]:             # a nailed tyre: a flat front wheel until pumped up
            cards[FRONT] -= 1
            cards[FLAT_FRONT] += 1
        return best_bike_from(cards, self.flat_half)[0]

    def _last_to_pass(self):
        """Whether our pass would end the round (every other seat in the contest has passed)."""
        in_contest = int(self.v["status"][: self.n, 1].sum())
        return int(self.v["pass_streak"][0]) + 1 >= in_contest

    # ---- building -----------------------------------------------------------------------------------

    def _draw(self):
        top = np.flatnonzero(self.v["discard_top"])
        if top.size:
            before = hand_worth(self.hand, self.flat_half)
            with_top = self.hand.copy()
            with_top[top[0]] += 1
            if self._after_best_discard(with_top)[1] > before + 10:
                return E.DRAW_FACE_UP
        return E.DRAW_PILE if self.mask[E.DRAW_PILE] else E.DRAW_FACE_UP

    def _after_best_discard(self, cards):
        """(kind to discard, worth of the hand without it)."""
        best = (None, -1.0)
        for kind in np.flatnonzero(cards):
            rest = cards.copy()
            rest[kind] -= 1
            worth = hand_worth(rest, self.flat_half)
            if worth > best[1]:
                best = (int(kind), worth)
        return best

    def _discard(self):
        kind, _ = self._after_best_discard(self.hand)
        if self.mask[E.KNOCK]:
            rest = self.hand.copy()
            rest[kind] -= 1
            strong = best_bike_from(rest, self.flat_half)[0] >= KNOCK_AT
            if strong or self.v["draw_pile"][0] <= 2 * self.n:
                return E.KNOCK
        return E.DISCARD_BASE + kind

    # ---- laying out ----------------------------------------------------------------------------------

    def _lay_out(self):
        counts, roles, flat = self.bike(0)
        _, plan = best_bike_from(self.hand + counts * (FIXED_ROLE >= 0), self.flat_half)
        want = []
        if not self._has(counts, roles, ROLE_FRONT):
            want += [self._fit(k, ROLE_FRONT) for k, r in plan.items() if r == ROLE_FRONT and self.hand[k]]
            pumped = (FLAT_FRONT,) if self.hand[PUMP] else ()
            want += [self._fit(k) for k in (FRONT,) + pumped + (WOODEN_FRONT, FLAT_FRONT)]
        if not self._has(counts, roles, ROLE_REAR):
            want += [self._fit(k, ROLE_REAR) for k, r in plan.items() if r == ROLE_REAR and self.hand[k]]
            want += [self._fit(k) for k in reversed(REARS)]
        if flat:
            want.append(self._fit(PUMP))
        spare_engines = [self._fit(k, ROLE_ENGINE) for k, r in plan.items() if r == ROLE_ENGINE and self.hand[k]]
        if self.adds and self.keeps_reserves:   # one engine, the weakest: the rest are reserves
            if self._weakest_engine(counts, roles) is None:
                want += [self._fit(k) for k in ENGINES] + sorted(spare_engines)
        else:           # nothing can be added later: everything goes out
            want += [self._fit(k) for k in reversed(ENGINES)] + spare_engines + [self._fit(TURBO)]
        for action in want:
            if self.mask[action]:
                return action
        return E.FINISH_LAYOUT

    @staticmethod
    def _has(counts, roles, role):
        kinds = (FRONT, FLAT_FRONT, WOODEN_FRONT) if role == ROLE_FRONT else REARS
        return any(counts[k] for k in kinds) or any(r == role for r in roles)

    @staticmethod
    def _fit(kind, role=None):
        for f in range(E.NUM_FITS):
            if E.FIT_KIND[f] == kind and (role is None or E.FIT_ROLE[f] == role):
                return E.FIT_BASE + f
        raise ValueError(kind)

    # ---- the contest -----------------------------------------------------------------------------------

    def _turn(self):
        own = self.bike(0)
        legal = np.flatnonzero(self.mask)
        moves = [int(a) for a in legal if E.MOVE_BASE <= a < E.REMOVE_BASE]
        fits = [int(a) for a in legal if E.FIT_BASE <= a < E.MOVE_BASE]
        move = self._best_own_play(own, moves, keep_potential=True)
        if move is not None:
            return move
        if self.value(own) == 0 or own[2]:           # a broken or flat bike first
            fix = self._best_own_play(own, fits)
            if fix is not None:
                return fix
        attack = self._best_misery(legal)
        if attack is not None:
            return attack
        # A pass may be the last of the round (everybody else may pass after it): never pass while a
        # reserve would still raise the bike.
        return self._best_own_play(own, fits) or E.PASS

    def _best_own_play(self, own, actions, keep_potential=False):
        """The play on our own bike that raises it most now (its value, else the number of its front
        wheel, rear wheel and engine slots filled); None if none does."""
        best, best_action = self._standing(own), None
        before = self.potential(own) if keep_potential else 0
        for action in actions:
            after = self._after_own_play(own, action)
            if keep_potential and self.potential(after) < before:
                continue                              # (a move that throws away a wheel we need)
            standing = self._standing(after)
            if standing > best:
                best, best_action = standing, action
        return best_action

    def _standing(self, bike):
        counts, roles, _ = bike
        filled = (self._has(counts, roles, ROLE_FRONT) + self._has(counts, roles, ROLE_REAR)
                  + (self._weakest_engine(counts, roles) is not None))
        return self.value(bike), filled

    def _after_own_play(self, bike, action):
        counts, roles, flat = bike[0].copy(), bike[1].copy(), bike[2]
        if action >= E.MOVE_BASE:                        # a spare part into another role
            s, role = divmod(action - E.MOVE_BASE, 3)
            if roles[s] == ROLE_FRONT:
                flat = False
            if role != ROLE_ENGINE:
                self._take_wheel(counts, roles, role)
                flat = False if role == ROLE_FRONT else flat
            roles[s] = role
            return counts, roles, flat
        f = action - E.FIT_BASE
        kind, role = int(E.FIT_KIND[f]), int(E.FIT_ROLE[f])
        if role == ROLE_PUMP:
            return counts, roles, False
        if role in (ROLE_FRONT, ROLE_REAR):
            self._take_wheel(counts, roles, role)
            if role == ROLE_FRONT:
                flat = kind == FLAT_FRONT
        elif role == ROLE_ENGINE and not self.adds:     # it must replace an engine: the weakest
            weakest = self._weakest_engine(counts, roles)
            if weakest is not None:
                self._take(counts, roles, weakest)
        counts[kind] += 1
        if kind in SPARES:
            roles[kind - SPARE_0] = role
        return counts, roles, flat

    @staticmethod
    def _take(counts, roles, kind):
        counts[kind] -= 1
        if kind in SPARES:
            roles[kind - SPARE_0] = -1

    def _take_wheel(self, counts, roles, role):
        kinds = (FRONT, FLAT_FRONT, WOODEN_FRONT) if role == ROLE_FRONT else REARS
        for k in kinds:
            if counts[k]:
                counts[k] -= 1
                return k
        for s in range(NUM_SPARES):
            if roles[s] == role:
                self._take(counts, roles, SPARE_0 + s)
                return SPARE_0 + s
        return None

    @staticmethod
    def _weakest_engine(counts, roles):
        engines = [(POWER[k], 0, k) for k in ENGINES if counts[k]]
        engines += [(POWER[SPARE_0 + s], 1, SPARE_0 + s) for s in range(NUM_SPARES) if roles[s] == ROLE_ENGINE]
        return min(engines)[2] if engines else None

    def _leader_weight(self, r):
        """Misery is aimed at the leader: full weight for the best-placed opponent, less for others."""
        estimate = self.v["totals"][: self.n] + self.v["bike_value"][: self.n]
        opponents = estimate[1:]
        return 1.0 if estimate[r] >= opponents.max() else 0.5

    def _best_misery(self, legal):
        best_gain, best_action = 0.0, None
        for action in legal:
            if action < E.MISERY_BASE:
                continue
            m, k = divmod(int(action) - E.MISERY_BASE, E.MAX_PLAYERS - 1)
            misery, r = int(E.MISERY_KINDS[m]), k + 1
            damage, _ = self._best_slot(misery, r)
            # A misery card spent is a misery card gone: play it only where it costs the target something.
            gain = damage * self._leader_weight(r)
            if gain > best_gain:
                best_gain, best_action = gain, int(action)
        return best_action

    def _best_slot(self, misery, r):
        """(what ``misery`` on seat ``r`` is worth to us, the card to aim at): the card whose loss costs
        the target most, or for Motor her / Rad her when the victim picks, the card it would give."""
        target = self.bike(r)
        before = self.value(target)
        if misery == NAIL:                      # the front tyre goes flat: 0, or half the value
            return float(before - (before // 2 if self.flat_half else 0)), None
        own = self.bike(0)
        own_before = self.value(own)
        victim_picks = misery in (MOTOR_HER, RAD_HER) and self.config.get("her_choice", "victim") == "victim"
        options = []
        for kind in np.flatnonzero(target[0]):
            role = self._role(target, kind)
            if misery == MOTOR_HER and role != ROLE_ENGINE:
                continue
            if misery == RAD_HER and role not in (ROLE_FRONT, ROLE_REAR):
                continue
            counts, roles = target[0].copy(), target[1].copy()
            self._take(counts, roles, kind)
            flat = target[2] and role != ROLE_FRONT
            loss = before - self.value((counts, roles, flat))
            gain = self._gain_from(own, own_before, kind, role) if misery in (MOTOR_HER, RAD_HER) else 0
            options.append((loss, gain, int(kind)))
        if not options:
            return 0.0, None
        if victim_picks:                        # the victim gives what costs it least
            loss, gain, kind = min(options, key=lambda o: (o[0], o[1]))
        else:
            loss, gain, kind = max(options, key=lambda o: o[0] + o[1])
        return float(loss + gain), kind

    @staticmethod
    def _role(bike, kind):
        return bike[1][kind - SPARE_0] if kind in SPARES else FIXED_ROLE[kind]

    def _gain_from(self, own, own_before, kind, role):
        """What receiving ``kind`` (Motor her / Rad her) adds to our bike, in its best role."""
        best = 0
        for place in ((ROLE_FRONT, ROLE_REAR, ROLE_ENGINE) if kind in SPARES else (role,)):
            counts, roles, flat = own[0].copy(), own[1].copy(), own[2]
            if place in (ROLE_FRONT, ROLE_REAR):
                self._take_wheel(counts, roles, place)
                if place == ROLE_FRONT:
                    flat = False
            counts[kind] += 1
            if kind in SPARES:
                roles[kind - SPARE_0] = place
            best = max(best, self.value((counts, roles, flat)) - own_before)
        return best

    def _pick(self):
        """A bike card: the attacker aims its misery card, or, as the victim, the card we hand over."""
        if self.v["turn_of"][0]:
            misery = int(E.MISERY_KINDS[int(self.v["pending_misery"].argmax())])
            _, kind = self._best_slot(misery, int(self.v["pending_target"].argmax()))
            return None if kind is None else E.SLOT_BASE + int(E.BIKE_INDEX[kind])
        own = self.bike(0)
        options = [int(a) for a in np.flatnonzero(self.mask)]
        return max(options, key=lambda a: self._keeps(own, int(E.BIKE_KINDS[a - E.SLOT_BASE])))

    def _keeps(self, own, kind):
        """(what we can still build, what the bike scores now) after losing ``kind``: to hand over the
        card whose loss costs least."""
        counts, roles, flat = own[0].copy(), own[1].copy(), own[2]
        if self._role(own, kind) == ROLE_FRONT:
            flat = False
        self._take(counts, roles, kind)
        after = (counts, roles, flat)
        return self.potential(after), self.value(after)

    def _engine_slot(self):
        if self.mask[E.ADD_ENGINE]:
            return E.ADD_ENGINE
        counts, roles, _ = self.bike(0)
        weakest = self._weakest_engine(counts, roles)
        return E.SLOT_BASE + int(E.BIKE_INDEX[weakest])

    def _place(self):
        own = self.bike(0)
        kind = int(self.v["pending_card"].argmax())
        best = (-1, None)
        for role in (ROLE_FRONT, ROLE_REAR, ROLE_ENGINE):
            counts, roles, flat = own[0].copy(), own[1].copy(), own[2]
            if role != ROLE_ENGINE:
                self._take_wheel(counts, roles, role)
                if role == ROLE_FRONT:
                    flat = False
            counts[kind] += 1
            roles[kind - SPARE_0] = role
            value = self.value((counts, roles, flat))
            if value > best[0]:
                best = (value, self._fit(kind, role))
        return best[1]

    # ---- reactions --------------------------------------------------------------------------------------

    def _react(self):
        misery = int(E.MISERY_KINDS[int(self.v["pending_misery"].argmax())])
        slot = np.flatnonzero(self.v["pending_slot"])
        own = self.bike(0)
        counts, roles, flat = own[0].copy(), own[1].copy(), own[2]
        if misery == NAIL:
            after = (counts, roles, True)
        elif slot.size:
            kind = int(E.BIKE_KINDS[slot[0]])
            if self._role(own, kind) == ROLE_FRONT:
                flat = False
            self._take(counts, roles, kind)
            after = (counts, roles, flat)
        else:                                   # Motor her / Rad her: we will pick the card, the cheapest
            fits = (ROLE_FRONT, ROLE_REAR) if misery == RAD_HER else (ROLE_ENGINE,)
            kinds = [k for k in np.flatnonzero(own[0]) if self._role(own, k) in fits]
            kept = max((self._keeps(own, int(k)) for k in kinds), default=(self.potential(own), self.value(own)))
            return self._answer(misery, own, kept[1], kept[0])
        return self._answer(misery, own, self.value(after), self.potential(after))

    def _answer(self, misery, own, value_after, potential_after):
        if self.value(own) - value_after <= 0:
            return E.ACCEPT                     # it costs nothing now
        if misery == NAIL and self.mask[E.REACT_PUMP]:
            return E.REACT_PUMP
        if misery == TUV and self.mask[E.REACT_FUCK_TUV]:
            return E.REACT_FUCK_TUV
        before = self.potential(own)
        loss = before - potential_after
        if self.mask[E.REACT_LACH] and loss > 0 and (loss >= before / 5 or before <= 100):
            return E.REACT_LACH
        return E.ACCEPT
