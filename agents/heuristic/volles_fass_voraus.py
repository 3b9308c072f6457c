"""A rule-based Volles Fass voraus player for ``volles_fass_voraus_v0``.

It reads only its seat's observation (through the game's ``Layout`` views) and the printed rules
(the deck geometry of :func:`envs.volles_fass_voraus.engine.extractable`). The strategy:

**What a barrel is worth.** A barrel is worth what it will fetch when unloaded: the average
payout per barrel of its colour over all unloading berths, plus the player's colour sailors
(Isaac, Nolly / Bolly, the Natures), discounted by a quarter because a later sale is not sure
(the right berth may be taken, storms and pirates strike). That worth shrinks when there are
more barrels on deck than unloading harbours left to sell them in (counted on the route the
observation shows: full or short), and is zero after the last one. A barrel that cannot be
pulled off the deck now counts half (it may be freed later, or never): the deck's *asset* is the
sum of its barrels' worth weighted so. Burying barrels costs asset; freeing them gains it.

**Choosing a berth.** Every free berth is scored by its immediate net doubloons plus the change
of the deck's asset: arrival bonuses of its fishers / sail sisters; loading = worth of the barrels
it would take minus the price; unloading = the best feasible barrels' payout and sailor bonuses
minus the worth they leave with (pairs are checked with the geometry, in both orders); a sailor
about 2 doubloons (plus its barrel); a treasure map about 2.4; pirates, seasickness and storms
their expected losses unless a sailor protects. Western berths get a small bonus (they move first
next time and win ties at the destination).

**On the berth.** Loads the most valuable barrels while they are worth the price, and places each
where the deck's asset stays highest and it blocks the fewest free spaces behind it (don't bury
what you need). Unloads the barrel that earns most now and frees most afterwards; gives pirates
and storms the barrel it will miss least; gives up the least useful sailor, and in storm chaos
takes the most useful one. Barry Fassel / Farry Bassel move a barrel whenever that raises the
asset (typically to free a barrel it wants to sell).
"""

import numpy as np

from envs.volles_fass_voraus import data
from envs.volles_fass_voraus import engine as E

from .. import base

# Berth features (see engine.BERTH_FEATURE_NAMES).
F_LOAD, F_UNLOAD, F_SAILOR, F_MAPS = 0, 1, 2, 3
F_BARRELS, F_NEED, F_COST, F_PAY, F_NUM_MAPS = 4, 7, 11, 12, 13
F_FISH, F_SAIL, F_ROB_BARREL, F_ROB, F_SEASICK, F_STORM, F_REPAIR, F_START = 14, 15, 18, 19, 20, 21, 22, 24

SAILOR_WORTH = 2.0
MAP_WORTH = 2.4
BURIED = 0.5  # a barrel that cannot be pulled off now counts this much of its worth
FUTURE_DISCOUNT = 0.75  # a sale later is less sure than doubloons now (berths get taken, storms)
SELLING_SHAPES = (data.SHAPE_MIXED, data.SHAPE_UNLOAD, data.SHAPE_DEST)


def _average_payout_per_barrel():
    """Per colour: the mean payout per barrel over every unloading berth that takes that colour."""
    totals, counts = np.zeros(3), np.zeros(3)
    for tile in range(data.NUM_TILES):
        for pos in range(data.NUM_BERTHS):
            need = data.BERTH_NEED[tile, pos]
            if data.BERTH_KIND[tile, pos] != data.KIND_UNLOAD:
                continue
            per_barrel = data.BERTH_PAY[tile, pos] / need.sum()
            for colour in range(3):
                if need[colour] or need[3]:
                    totals[colour] += per_barrel
                    counts[colour] += 1
    return totals / counts


BASE_WORTH = _average_payout_per_barrel()


class HeuristicAgent(base.Agent):
    name = "heuristic"

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self.n = config["num_players"]

    # ---- reading the observation -------------------------------------------------------------

    def act(self, observation, action_mask, info=None):
        v = E.LAYOUT.views(observation)
        self.v, self.mask = v, action_mask
        here = np.argwhere(v["ships"][0] > 0)
        self.harbour, self.berth = (int(here[0][0]), int(here[0][1])) if len(here) else (-1, -1)
        self.deck = np.zeros(data.NUM_SPACES, np.int8)
        for space, colour in np.argwhere(v["decks"][0] > 0):
            self.deck[space] = colour + 1
        self.route = [int(shape.argmax()) if shape.any() else -1 for shape in v["route"]]
        self.sailors = v["sailors"][0] > 0
        self.money = int(v["doubloons"][0])
        phase = int(v["phase"].argmax())
        action = self._choose(phase)
        if action is None or not action_mask[action]:
            legal = np.flatnonzero(action_mask)
            action = int(legal[self.rng.integers(legal.size)])
        return int(action)

    def _legal(self, first, stop):
        return [a for a in range(first, stop) if self.mask[a]]

    def _has(self, card):
        return bool(self.sailors[card])

    # ---- worth of barrels and decks ------------------------------------------------------------

    def _sales_left(self, after):
        """Harbours after ``after`` where barrels can still be sold (the route is in the observation)."""
        return sum(1 for shape in self.route[after + 1:] if shape in SELLING_SHAPES)

    def _colour_bonus(self, colour):
        return float(data.SAILOR_COLOUR_BONUS[self.sailors, colour].sum())

    def _worth(self, colour, after, barrels):
        """Expected doubloons from a barrel of ``colour`` kept beyond harbour ``after``."""
        sales = self._sales_left(after)
        if sales == 0:
            return 0.0
        scarcity = min(1.0, 1.3 * sales / max(1, barrels))
        return (BASE_WORTH[colour] + self._colour_bonus(colour)) * scarcity * FUTURE_DISCOUNT

    def _asset(self, deck, after):
        barrels = int((deck > 0).sum())
        free = E.extractable(deck)
        total = 0.0
        for space in range(data.NUM_SPACES):
            if deck[space]:
                weight = 1.0 if (free >> space) & 1 else BURIED
                total += weight * self._worth(deck[space] - 1, after, barrels)
        return total

    def _blocked_behind(self, deck, space):
        """Free spaces whose corridor to the dock a barrel on ``space`` would cross."""
        count = 0
        for other in range(data.NUM_SPACES):
            if other != space and not deck[other] and data.SPACE_Y[other] > data.SPACE_Y[space] and \
                    abs(data.SPACE_X[other] - data.SPACE_X[space]) <= data.BARREL_DIAMETER:
                count += 1
        return count

    def _best_place(self, deck, colour, after):
        best, best_score = None, -np.inf
        for space in range(data.NUM_SPACES):
            if deck[space]:
                continue
            deck[space] = colour + 1
            score = self._asset(deck, after) - 0.15 * self._blocked_behind(deck, space)
            deck[space] = 0
            if score > best_score:
                best, best_score = space, score
        return best, best_score

    # ---- sailors ------------------------------------------------------------------------------

    def _usefulness(self, card):
        on_deck = [int((self.deck == c + 1).sum()) for c in range(3)]
        if data.SAILOR_FASSEL[card]:
            return 1.5
        if data.SAILOR_FISH[card] or data.SAILOR_PLAZA[card] >= 0:
            return 1.0
        if data.SAILOR_SAIL[card]:
            return 1.5
        bonus = data.SAILOR_COLOUR_BONUS[card]
        if bonus.any():
            return float(sum(bonus[c] * (on_deck[c] + 0.5) for c in range(3))) * 0.6
        return 0.8  # Pit, Piranha, Stormy D.

    # ---- unloading ----------------------------------------------------------------------------

    def _unload_bonus(self, colour, pos):
        plaza = sum(1 for card in range(data.NUM_SAILORS) if self.sailors[card] and data.SAILOR_PLAZA[card] == pos)
        return self._colour_bonus(colour) + plaza

    def _unload_value(self, need, pay, pos, after):
        """Net gain of the best way to unload ``need`` now (pay + bonuses - worth given up); None if impossible."""
        deck = self.deck.copy()
        before = self._asset(deck, after)
        best = None
        for first in self._fitting(deck, need):
            rest = need.copy()
            self._take(rest, deck[first] - 1)
            gain1 = self._unload_bonus(deck[first] - 1, pos)
            colour1, deck[first] = deck[first], 0
            if rest.sum() == 0:
                value = pay + gain1 + self._asset(deck, after) - before
                best = value if best is None else max(best, value)
            else:
                for second in self._fitting(deck, rest):
                    gain2 = self._unload_bonus(deck[second] - 1, pos)
                    colour2, deck[second] = deck[second], 0
                    value = pay + gain1 + gain2 + self._asset(deck, after) - before
                    best = value if best is None else max(best, value)
                    deck[second] = colour2
            deck[first] = colour1
        return best

    @staticmethod
    def _take(need, colour):
        if need[colour] > 0:
            need[colour] -= 1
        else:
            need[3] -= 1

    @staticmethod
    def _fitting(deck, need):
        free = E.extractable(deck)
        return [s for s in range(data.NUM_SPACES)
                if (free >> s) & 1 and deck[s] and (need[deck[s] - 1] > 0 or need[3] > 0)]

    # ---- choosing a berth ---------------------------------------------------------------------

    def _berth_score(self, harbour, pos):
        f = self.v["berths"][harbour, pos]
        after = harbour
        barrels = int((self.deck > 0).sum())
        score = 0.0
        if f[F_FISH]:
            score += float(data.SAILOR_FISH[self.sailors].sum())
        if f[F_SAIL]:
            score += float(data.SAILOR_SAIL[self.sailors].sum())
        worths = sorted(self._worth(self.deck[s] - 1, after, barrels) for s in range(data.NUM_SPACES) if self.deck[s])
        if f[F_ROB_BARREL] and worths and not self._has(data.PIT):
            score -= worths[0]
        if f[F_ROB] and not self._has(data.PIRANHA):
            score -= min(self.money, f[F_ROB])
        if f[F_SEASICK]:
            score -= 1.5 * min(f[F_SEASICK], self.sailors.sum())
        if not self._has(data.STORMY):
            score -= sum(worths[: int(f[F_STORM])]) + min(self.money, f[F_REPAIR])
        cost = float(f[F_COST])
        affordable = self.money >= cost
        space = data.NUM_SPACES - barrels
        supply = self.v["supply"]
        if f[F_LOAD] and affordable:
            gains = []
            for colour in range(3):
                for _ in range(int(min(f[F_BARRELS + colour], supply[colour]))):
                    gains.append(0.8 * self._worth(colour, after, barrels + len(gains) + 1))
            gains = sorted(gains, reverse=True)[:space]
            score += max(0.0, sum(gains) - cost)
        elif f[F_UNLOAD]:
            need = np.array(f[F_NEED:F_NEED + 4], np.int64)
            value = self._unload_value(need, float(f[F_PAY]), pos, after)
            score += max(0.0, value) if value is not None else 0.0
        elif f[F_SAILOR] and affordable:
            barrel = [c for c in range(3) if f[F_BARRELS + c] and supply[c]]
            extra = 0.8 * self._worth(barrel[0], after, barrels + 1) if barrel and space else 0.0
            score += max(0.0, SAILOR_WORTH + extra - cost)
        elif f[F_MAPS] and affordable:
            score += max(0.0, MAP_WORTH * f[F_NUM_MAPS] - cost)
        return score + 0.3 * (data.NUM_BERTHS - 1 - pos) / (data.NUM_BERTHS - 1)

    # ---- the decisions ------------------------------------------------------------------------

    def _choose(self, phase):
        after = max(self.harbour, 0)
        if phase not in (E.PH_START_BERTH, E.PH_LOAD_PLACE):
            move = self._best_move(after, threshold=0.05 if phase == E.PH_END_TURN else 0.3)
            if move is not None:
                return move
        if phase == E.PH_START_BERTH:
            berths = self._legal(E.A_BERTH, E.A_SPACE)
            return max(berths, key=lambda a: self.v["berths"][0, a - E.A_BERTH, F_START])
        if phase == E.PH_CHOOSE_BERTH:
            berths = self._legal(E.A_BERTH, E.A_SPACE)
            return max(berths, key=lambda a: self._berth_score(self.harbour + 1, a - E.A_BERTH))
        if phase == E.PH_LOAD_PICK:
            return self._load_pick(after)
        if phase == E.PH_LOAD_PLACE:
            colour = int(self.v["hand"].argmax())
            space, _ = self._best_place(self.deck.copy(), colour, after)
            return E.A_SPACE + space
        if phase == E.PH_UNLOAD:
            return self._unload_pick(after)
        if phase in (E.PH_ROB_BARREL, E.PH_STORM_BARREL):
            return max(self._legal(E.A_SPACE, E.A_COLOUR), key=lambda a: self._asset_without(a - E.A_SPACE, after))
        if phase in (E.PH_SEASICK, E.PH_CHAOS_GIVE):
            return min(self._legal(E.A_SAILOR, E.A_SAILOR_BOTH), key=lambda a: self._usefulness(a - E.A_SAILOR))
        if phase == E.PH_CHAOS_TAKE:
            cards = self._legal(E.A_SAILOR, E.A_SAILOR_BOTH)
            take = max(cards, key=lambda a: self._usefulness(a - E.A_SAILOR))
            own = [c for c in range(data.NUM_SAILORS) if self.sailors[c]]
            if self.mask[E.A_PASS] and self._usefulness(take - E.A_SAILOR) <= min(map(self._usefulness, own)):
                return E.A_PASS
            return take
        if phase == E.PH_SAILOR:
            return self._hire(after)
        if phase == E.PH_MAPS:
            tile_features = self.v["berths"][self.harbour, self.berth]
            worth = MAP_WORTH * tile_features[F_NUM_MAPS] - tile_features[F_COST]
            return E.A_TAKE_MAPS if self.mask[E.A_TAKE_MAPS] and worth > 0 else E.A_PASS
        return E.A_PASS

    def _asset_without(self, space, after):
        deck = self.deck.copy()
        deck[space] = 0
        return self._asset(deck, after)

    def _load_pick(self, after):
        f = self.v["berths"][self.harbour, self.berth]
        barrels = int((self.deck > 0).sum())
        colours = [a - E.A_COLOUR for a in self._legal(E.A_COLOUR, E.A_SAILOR)]
        if not colours:
            return E.A_PASS
        worth = {c: 0.8 * self._worth(c, after, barrels + 1) for c in colours}
        best = max(colours, key=worth.get)
        if self.v["load_paid"][0]:
            return E.A_COLOUR + best if worth[best] > 0.2 else E.A_PASS
        offered = sum(worth[c] * self.v["load_left"][c] for c in colours)
        return E.A_COLOUR + best if offered > f[F_COST] else E.A_PASS

    def _unload_pick(self, after):
        spaces = [a - E.A_SPACE for a in self._legal(E.A_SPACE, E.A_COLOUR)]
        if not spaces:
            return E.A_PASS
        pos = self.berth
        f = self.v["berths"][self.harbour, pos]
        if self.mask[E.A_PASS]:  # nothing unloaded yet: is it worth it at all?
            need = np.array(self.v["need"], np.int64)
            value = self._unload_value(need, float(f[F_PAY]), pos, after)
            if value is None or value < 0:
                return E.A_PASS

        def score(space):
            return self._unload_bonus(self.deck[space] - 1, pos) + self._asset_without(space, after)

        return E.A_SPACE + max(spaces, key=score)

    def _hire(self, after):
        f = self.v["berths"][self.harbour, self.berth]
        barrels = int((self.deck > 0).sum())
        colour = next((c for c in range(3) if f[F_BARRELS + c]), None)
        barrel = 0.8 * self._worth(colour, after, barrels + 1) if colour is not None else 0.0
        cost = float(f[F_COST])
        options = {E.A_PASS: 0.0, E.A_SAILOR_BOTH: SAILOR_WORTH + barrel - cost,
                   E.A_SAILOR_ONLY: SAILOR_WORTH - cost, E.A_BARREL_ONLY: barrel - cost}
        return max((a for a in options if self.mask[a]), key=options.get)

    def _best_move(self, after, threshold):
        moves = self._legal(E.A_MOVE, E.NUM_ACTIONS)
        if not moves:
            return None
        now = self._asset(self.deck, after)
        best, gain = None, threshold
        for action in moves:
            deck = self.deck.copy()
            E.apply_move(deck, action - E.A_MOVE)
            better = self._asset(deck, after) - now
            if better > gain:
                best, gain = action, better
        return best
