"""A rule-based Werner: Volle Socke player for ``volle_socke_v0``.

It reads only its seat's observation (at the game's ``Layout`` offsets) and the table's house rules
(:func:`table_rules`: ``flat_front``, ``own_bike``, ``refill_from_hand``, ``her_choice``, which
every player knows). The strategy is one compiled function, :func:`choose_rows` (agents/heuristic:
the agent and the batched trainer's opponents both call it); its only random choice, a uniformly
random legal action where the rules below name none that is legal, comes from a generator record.

It values cards by the best bike they make: the best front wheel (normal, else a spare part, else a
pumped-up flat or a wooden one), the highest rear gear (a spare part is a 4th gear), every engine, x2
per Turbo, trying each way of using its spare parts.

The game's tension: a card on the bike scores but is exposed to misery cards (TÜV and Bull take
any card, Motor her an engine, Rad her a wheel, a Nail flattens the front tyre, and a bike without
a wheel or an engine scores nothing); a card in hand is safe but scores only once it is on the
bike, one card a turn, and the round ends when everybody passes. In the rulebook's contest (the
default) a hand card only ever replaces a card of the bike (d): nothing is added after laying out
and a slot a misery card emptied stays empty (only a laid-out spare part can move in), so the
player lays out everything and keeps in hand what can replace (a better wheel, a stronger
engine). Where a) adds a hand card to the own bike (``own_bike="add"``) it lays out a bike that
stands and keeps reserves to repair it and to add at the end. It never takes a card off its own
bike (the rulebook's a)): that never raises a bike.

**Building.** Takes the face-up card when it raises the hand's worth (best bike, a share of it
for each joy and misery card, a little for spare wheels); discards the card whose loss costs
least; knocks once its bike is strong (``KNOCK_AT`` HP) or the draw pile runs low.

**Laying out.** By default nothing can be added later, so it lays out everything: the best front
and rear wheel, every engine and Turbo, the spare parts in the roles of its best bike. With
``own_bike="add"``, a bike that stands, no more: the best front and rear wheel and the weakest
engine; the other engines, the Turbos and spare parts stay in hand.

**Contest.** In order: move a spare part where it raises the bike now (moving is free); repair a
broken or flat bike from the hand; play a misery card where it hurts most, aimed at the leader
(the opponent with the highest total plus current bike; damage to others counts less), taking the
card whose loss costs the target most (for Motor her / Rad her the victim picks: it counts the
card the victim would give, and what that card adds to its own bike); with nothing of that to
do, put out the reserve that adds most (any pass may be the round's last, so it never passes while
a reserve would still raise the bike); otherwise pass. Reserves thus come out on turns with
nothing better to do, one a turn.

**As a target.** Weighs a loss by the bike it can still build (:func:`reach`: from its bike and
hand together where a hand card can fill an empty slot, so a reserve in hand makes a lost card
cheap; by default from its bike, with hand cards only in place of cards it has); answers a Nail
with the Air Pump and a TÜV with Fuck for TÜV whenever it would lose something, and spends Da lach
ich doch über when that loss is at least a fifth of what it can build (or it can build little).
It hands over the engine or wheel whose loss costs least; a received spare part takes the role
worth most.

A bike here is three values: ``counts`` (int64 per kind, a spare part on the bike counts 1),
``roles`` (int64 per spare part: its role on the bike, -1 if not on it) and ``flat`` (the front
tyre is flat).
"""

import numpy as np
from numba import njit

from envs.core.rng import choice
from envs.volle_socke import engine as E
from envs.volle_socke.env import GAME
from envs.volle_socke.data import (
    BIKE_KINDS, BULL, ENGINE_10, ENGINE_100, FIXED_ROLE, FLAT_FRONT, FRONT, FUCK_TUV, GEAR, LACH, MISERY_KINDS,
    MOTOR_HER, NAIL, NUM_KINDS, NUM_SPARES, POWER, PUMP, RAD_HER, REAR_1, REGULAR_BIKE_KINDS, ROLE_ENGINE,
    ROLE_FRONT, ROLE_PUMP, ROLE_REAR, SPARE_0, SPARE_GEAR, SPARE_ROLES, TURBO, TUV, WOODEN_FRONT,
)

from . import CompiledHeuristic, block_argmax

KNOCK_AT = 400            # HP of the best bike in hand that is worth knocking for
#: What a hand that makes a bike at all adds to its worth (a knock may come any time: no bike, no score).
STANDS = 100
#: What a hand that still makes a bike after losing a wheel adds to its worth (as a share of that bike).
RESERVE_SHARE = 0.6
#: What a joy or misery card in hand adds to a hand's worth, as a share of its bike (at least 100 HP).
TACTICAL_SHARE = {LACH: 0.3, FUCK_TUV: 0.1, PUMP: 0.05, MOTOR_HER: 0.25, RAD_HER: 0.2, TUV: 0.15, BULL: 0.2,
                  NAIL: 0.1}
# (in this order: the hand's worth sums them in it)
TACTICAL_KINDS = np.array(list(TACTICAL_SHARE), np.int64)
TACTICAL_SHARES = np.array(list(TACTICAL_SHARE.values()), np.float64)
NO_ROLE = -1  # a spare part not on the bike; also "any role" for _fit

P = E.MAX_PLAYERS
NUM_REGULAR_BIKE = len(REGULAR_BIKE_KINDS)
_O = {name: E.LAYOUT.offset(name) for name in E.LAYOUT.names}
O_HAND, O_BIKES, O_SPARES, O_FLAT, O_VALUE, O_TOTALS = (
    _O[n] for n in ("hand", "bikes", "bike_spares", "flat_tyre", "bike_value", "totals"))
O_TOP, O_DRAW, O_PHASE, O_TURN_OF = (_O[n] for n in ("discard_top", "draw_pile", "phase", "turn_of"))
O_PMISERY, O_PTARGET, O_PSLOT, O_PCARD = (_O[n] for n in ("pending_misery", "pending_target", "pending_slot",
                                                          "pending_card"))
PHASES, MISERIES, SLOTS = (E.LAYOUT.shape(n)[-1] for n in ("phase", "pending_misery", "pending_slot"))
assert E.LAYOUT.shape("bikes")[-1] == NUM_REGULAR_BIKE and E.LAYOUT.shape("bike_spares")[-2:] == (NUM_SPARES,
                                                                                                    SPARE_ROLES)

# The rules a table's strategy reads (table_rules).
R_PLAYERS, R_FLAT_HALF, R_ADDS, R_VICTIM_PICKS, R_KEEPS_RESERVES, R_REFILLS = range(6)


def table_rules(config, keeps_reserves=True):
    """``[num_players, flat_half, adds, victim_picks, keeps_reserves, refills]`` (int64) of a table of
    ``config`` (options it does not name take the game's defaults): a flat front tyre halves the value
    (``flat_front="half"``), the contest's option a) adds a card to the own bike (``own_bike="add"``),
    the victim picks the card Motor her / Rad her takes (``her_choice="victim"``); whether the player
    keeps reserves in hand while laying out (else it lays out every engine and Turbo); and whether a
    hand card can fill a slot a misery card emptied (``own_bike="add"`` or ``refill_from_hand``)."""
    options = GAME.options

    def option(name):
        return config.get(name, options[name].default)

    adds = option("own_bike") == "add"
    return np.array([config["num_players"], option("flat_front") == "half", adds,
                     option("her_choice") == "victim", bool(keeps_reserves),
                     adds or bool(option("refill_from_hand"))], np.int64)


# ---- bikes -----------------------------------------------------------------------------------------

#: Front wheels in the order a bike counts them (the engine's score), and in the order a hand is
#: built from (best first); the rear wheels, lowest gear first.
BIKE_FRONTS = np.array([FRONT, FLAT_FRONT, WOODEN_FRONT], np.int64)
HAND_FRONTS = np.array([FRONT, WOODEN_FRONT, FLAT_FRONT], np.int64)
REARS = np.arange(REAR_1, REAR_1 + 4)


@njit(cache=True)
def _first_held(cards, kinds):
    """The first of ``kinds`` that ``cards`` (counts) holds; -1 if none."""
    for kind in kinds:
        if cards[kind] != 0:
            return kind
    return -1


@njit(cache=True)
def _top_gear(cards):
    """The highest gear of the rear wheels in ``cards`` (0 without one)."""
    gear = 0
    for kind in REARS:
        if cards[kind] != 0:
            gear = max(gear, int(GEAR[kind]))
    return gear


@njit(cache=True)
def _engine_power(cards):
    """The power of the regular engines in ``cards``."""
    power = 0
    for kind in range(ENGINE_10, ENGINE_100 + 1):
        power += int(POWER[kind]) * int(cards[kind])
    return power


@njit(cache=True)
def _is_spare(kind):
    return SPARE_0 <= kind < SPARE_0 + NUM_SPARES


@njit(cache=True)
def bike_value(counts, roles, flat, flat_half):
    """The rulebook's score of a bike (the engine's formula)."""
    front, gear, power = _first_held(counts, BIKE_FRONTS), _top_gear(counts), _engine_power(counts)
    for s in range(NUM_SPARES):
        if roles[s] == ROLE_FRONT and front < 0:
            front = SPARE_0
        elif roles[s] == ROLE_REAR:
            gear = max(gear, SPARE_GEAR)
        elif roles[s] == ROLE_ENGINE:
            power += int(POWER[SPARE_0 + s])
    if front < 0 or gear == 0 or power == 0:
        return 0
    return int(E.bike_score(power, int(counts[TURBO]), gear, front == WOODEN_FRONT, flat, flat_half))


@njit(cache=True)
def best_bike_from(cards, flat_half):
    """The most a bike built from ``cards`` (counts) scores, and the spare roles that get it (int64
    per spare part, -1: not used as a wheel or an engine)."""
    best = 0
    best_roles = np.full(NUM_SPARES, NO_ROLE, np.int64)
    spares = np.zeros(NUM_SPARES, np.int64)  # the spare parts at hand, weakest first
    num_spares = 0
    for s in range(NUM_SPARES):
        if cards[SPARE_0 + s] != 0:
            spares[num_spares] = s
            num_spares += 1
    front = _first_held(cards, HAND_FRONTS)  # the best front wheel: normal, wooden, flat
    rear, power = _top_gear(cards), _engine_power(cards)
    turbo = 1 << int(cards[TURBO])
    for spare_front in range(2):
        for spare_rear in range(2):
            wheels = spare_front + spare_rear
            if wheels > num_spares:
                continue
            # The weakest spare parts become wheels; the rest are engines.
            if spare_front:
                front_factor = 1.0
            elif front < 0:
                continue
            elif front == FRONT or (front == FLAT_FRONT and cards[PUMP] != 0):
                front_factor = 1.0
            elif front == WOODEN_FRONT:
                front_factor = 0.5
            else:
                front_factor = 0.5 if flat_half else 0.0
            gear = SPARE_GEAR if spare_rear else rear
            total = power
            for i in range(wheels, num_spares):
                total += int(POWER[SPARE_0 + spares[i]])
            value = int(total * turbo * gear * front_factor)
            if value > best:
                best = value
                best_roles[:] = NO_ROLE
                if spare_front:
                    best_roles[spares[0]] = ROLE_FRONT
                if spare_rear:
                    best_roles[spares[wheels - 1]] = ROLE_REAR
                for i in range(wheels, num_spares):
                    best_roles[spares[i]] = ROLE_ENGINE
    return best, best_roles


@njit(cache=True)
def _without_wheel(cards, roles, role, flat_half):
    """The best bike once the wheel the best bike uses in ``role`` is lost: what reserves are worth."""
    used = -1
    for s in range(NUM_SPARES):
        if roles[s] == role:
            used = SPARE_0 + s
            break
    if used < 0:
        if role == ROLE_FRONT:
            used = _first_held(cards, HAND_FRONTS)
        else:
            for kind in range(REAR_1 + 3, REAR_1 - 1, -1):
                if cards[kind] != 0:
                    used = kind
                    break
    if used < 0:
        return 0
    rest = cards.copy()
    rest[used] -= 1
    return best_bike_from(rest, flat_half)[0]


@njit(cache=True)
def hand_worth(cards, flat_half):
    """What a hand is worth: its best bike, what it still makes without a wheel, its joy and misery cards."""
    value, roles = best_bike_from(cards, flat_half)
    base_value = max(value, 100)
    without = _without_wheel(cards, roles, ROLE_FRONT, flat_half) + _without_wheel(cards, roles, ROLE_REAR, flat_half)
    worth = float(value) + (STANDS if value else 0) + RESERVE_SHARE * without / 2
    for t in range(TACTICAL_KINDS.shape[0]):
        share = TACTICAL_SHARES[t]
        for copy in range(int(cards[TACTICAL_KINDS[t]])):
            worth += share * base_value / (1 + copy)
    if cards[TURBO] != 0 and value == 0:
        worth += 20
    return worth


@njit(cache=True)
def _has(counts, roles, role):
    """Whether the bike has a wheel in ``role`` (ROLE_FRONT or ROLE_REAR)."""
    if _first_held(counts, BIKE_FRONTS if role == ROLE_FRONT else REARS) >= 0:
        return True
    for s in range(NUM_SPARES):
        if roles[s] == role:
            return True
    return False


@njit(cache=True)
def _fit(kind, role):
    """The action fitting ``kind`` in ``role`` (NO_ROLE: the first fit of ``kind``)."""
    for f in range(E.NUM_FITS):
        if E.FIT_KIND[f] == kind and (role == NO_ROLE or E.FIT_ROLE[f] == role):
            return E.FIT_BASE + f
    return -1


@njit(cache=True)
def _take(counts, roles, kind):
    counts[kind] -= 1
    if _is_spare(kind):
        roles[kind - SPARE_0] = NO_ROLE


@njit(cache=True)
def _take_wheel(counts, roles, role):
    """Take the bike's wheel in ``role`` off (a regular one first); the kind taken, -1 if none."""
    kind = _first_held(counts, BIKE_FRONTS if role == ROLE_FRONT else REARS)
    if kind >= 0:
        counts[kind] -= 1
        return kind
    for s in range(NUM_SPARES):
        if roles[s] == role:
            _take(counts, roles, SPARE_0 + s)
            return SPARE_0 + s
    return -1


@njit(cache=True)
def _weakest_engine(counts, roles):
    """The weakest engine on the bike (a regular engine before a spare part of the same power); -1 if none."""
    best, best_power = -1, 0
    for kind in range(ENGINE_10, ENGINE_100 + 1):
        if counts[kind] != 0:
            power = int(POWER[kind])
            if best < 0 or power < best_power:
                best, best_power = kind, power
    for s in range(NUM_SPARES):
        if roles[s] == ROLE_ENGINE:
            power = int(POWER[SPARE_0 + s])
            if best < 0 or power < best_power:  # (a regular engine of the same power comes first)
                best, best_power = SPARE_0 + s, power
    return best


@njit(cache=True)
def _role(roles, kind):
    """The role of a card of ``kind`` on a bike with spare roles ``roles``."""
    if _is_spare(kind):
        return int(roles[kind - SPARE_0])
    return int(FIXED_ROLE[kind])


# ---- reading the observation ------------------------------------------------------------------------


@njit(cache=True)
def read_bike(obs, r):
    """The bike of the seat ``r`` places after us: ``(counts, roles, flat)``."""
    counts = np.zeros(NUM_KINDS, np.int64)
    roles = np.full(NUM_SPARES, NO_ROLE, np.int64)
    row = O_BIKES + r * NUM_REGULAR_BIKE
    for j in range(NUM_REGULAR_BIKE):
        counts[REGULAR_BIKE_KINDS[j]] = int(obs[row + j])
    for s in range(NUM_SPARES):
        row = O_SPARES + (r * NUM_SPARES + s) * SPARE_ROLES
        for role in range(SPARE_ROLES):
            if obs[row + role] != 0:
                roles[s] = role
                counts[SPARE_0 + s] = 1
                break
    return counts, roles, obs[O_FLAT + r] != 0


@njit(cache=True)
def potential(counts, flat, hand, flat_half):
    """The best bike our bike and hand make together (what we can still score this round)."""
    cards = counts + hand
    if flat and counts[FRONT] != 0:  # a nailed tyre: a flat front wheel until pumped up
        cards[FRONT] -= 1
        cards[FLAT_FRONT] += 1
    return best_bike_from(cards, flat_half)[0]


@njit(cache=True)
def reach(counts, roles, flat, hand, flat_half, refills):
    """The best bike we can still make this round. Where a hand card can fill an empty slot
    (``refills``): the best bike of bike and hand together (:func:`potential`). Where it cannot
    (the rulebook's contest: a hand card only ever replaces a bike card, d), the best of the bike's
    own cards (spare parts may move) and of the bike with each slot it has upgraded from the hand:
    the best front wheel (or the Air Pump on a flat tyre), the highest gear, the strongest engines in
    place of the weakest, as many as it has (the Turbos stay as they are)."""
    if refills:
        return potential(counts, flat, hand, flat_half)
    best = potential(counts, flat, np.zeros_like(hand), flat_half)
    front = _first_held(counts, BIKE_FRONTS)
    spare_front = False
    for s in range(NUM_SPARES):
        if roles[s] == ROLE_FRONT:
            spare_front = True
    gear = _top_gear(counts)
    for s in range(NUM_SPARES):
        if roles[s] == ROLE_REAR:
            gear = SPARE_GEAR
    engines = _weakest_engine(counts, roles) >= 0
    if (front < 0 and not spare_front) or gear == 0 or not engines:
        return best  # an empty slot stays empty (unless a spare part of the bike moves in)
    flat_factor = 1.0 if hand[PUMP] != 0 else (0.5 if flat_half else 0.0)
    if front == WOODEN_FRONT:
        factor = 0.5
    else:
        factor = flat_factor if flat or front == FLAT_FRONT else 1.0
    hand_spares = 0
    for s in range(NUM_SPARES):
        hand_spares += int(hand[SPARE_0 + s])
    if hand[FRONT] != 0 or hand_spares > 0:
        factor = 1.0
    elif hand[WOODEN_FRONT] != 0:
        factor = max(factor, 0.5)
    elif hand[FLAT_FRONT] != 0:
        factor = max(factor, flat_factor)
    gear = max(gear, _top_gear(hand))
    if hand_spares > 0:
        gear = SPARE_GEAR
    # The engines: as many as the bike has, the strongest of bike and hand.
    powers = np.zeros(64, np.int64)
    k, on_bike = 0, 0
    for kind in range(ENGINE_10, ENGINE_100 + 1):
        for _ in range(int(counts[kind])):
            powers[k] = POWER[kind]
            k += 1
        for _ in range(int(hand[kind])):
            powers[k] = POWER[kind]
            k += 1
        on_bike += int(counts[kind])
    for s in range(NUM_SPARES):
        if roles[s] == ROLE_ENGINE:
            powers[k] = POWER[SPARE_0 + s]
            k += 1
            on_bike += 1
        elif hand[SPARE_0 + s] != 0:
            powers[k] = POWER[SPARE_0 + s]
            k += 1
    ordered = np.sort(powers[:k])
    power = 0
    for i in range(k - on_bike, k):
        power += int(ordered[i])
    value = int(power * (1 << int(counts[TURBO])) * gear * factor)
    return max(best, value)


# ---- building -----------------------------------------------------------------------------------


@njit(cache=True)
def _after_best_discard(cards, flat_half):
    """(kind to discard, worth of the hand without it); (-1, -1.0) for no cards."""
    best_kind, best_worth = -1, -1.0
    for kind in range(NUM_KINDS):
        if cards[kind] == 0:
            continue
        rest = cards.copy()
        rest[kind] -= 1
        worth = hand_worth(rest, flat_half)
        if worth > best_worth:
            best_kind, best_worth = kind, worth
    return best_kind, best_worth


@njit(cache=True)
def _draw(obs, mask, hand, flat_half):
    top = -1
    for kind in range(NUM_KINDS):
        if obs[O_TOP + kind] != 0:
            top = kind
            break
    if top >= 0:
        before = hand_worth(hand, flat_half)
        with_top = hand.copy()
        with_top[top] += 1
        if _after_best_discard(with_top, flat_half)[1] > before + 10:
            return E.DRAW_FACE_UP
    return E.DRAW_PILE if mask[E.DRAW_PILE] != 0 else E.DRAW_FACE_UP


@njit(cache=True)
def _discard(obs, mask, hand, n, flat_half):
    kind = _after_best_discard(hand, flat_half)[0]
    if kind < 0:
        return -1
    if mask[E.KNOCK] != 0:
        rest = hand.copy()
        rest[kind] -= 1
        strong = best_bike_from(rest, flat_half)[0] >= KNOCK_AT
        if strong or obs[O_DRAW] <= 2 * n:
            return E.KNOCK
    return E.DISCARD_BASE + kind


# ---- laying out ----------------------------------------------------------------------------------


@njit(cache=True)
def _want_spares(want, w, plan, hand, role):
    """Append to ``want`` (filled up to ``w``) the fits of the spare parts in hand that ``plan``
    puts in ``role``; the new fill."""
    for s in range(NUM_SPARES):
        if plan[s] == role and hand[SPARE_0 + s] != 0:
            want[w] = _fit(SPARE_0 + s, role)
            w += 1
    return w


@njit(cache=True)
def _lay_out(obs, mask, hand, flat_half, adds, keeps_reserves):
    counts, roles, flat = read_bike(obs, 0)
    fixed = counts.copy()
    for kind in range(NUM_KINDS):
        if FIXED_ROLE[kind] < 0:
            fixed[kind] = 0
    plan = best_bike_from(hand + fixed, flat_half)[1]
    want = np.full(64, -1, np.int64)  # the lay-outs wanted, best first
    w = 0
    if not _has(counts, roles, ROLE_FRONT):
        w = _want_spares(want, w, plan, hand, ROLE_FRONT)
        want[w] = _fit(FRONT, NO_ROLE)
        w += 1
        if hand[PUMP] != 0:  # a flat wheel pumped up
            want[w] = _fit(FLAT_FRONT, NO_ROLE)
            w += 1
        want[w] = _fit(WOODEN_FRONT, NO_ROLE)
        want[w + 1] = _fit(FLAT_FRONT, NO_ROLE)
        w += 2
    if not _has(counts, roles, ROLE_REAR):
        w = _want_spares(want, w, plan, hand, ROLE_REAR)
        for kind in range(REAR_1 + 3, REAR_1 - 1, -1):
            want[w] = _fit(kind, NO_ROLE)
            w += 1
    if flat:
        want[w] = _fit(PUMP, NO_ROLE)
        w += 1
    if adds and keeps_reserves:  # one engine, the weakest: the rest are reserves
        if _weakest_engine(counts, roles) < 0:
            for kind in range(ENGINE_10, ENGINE_100 + 1):
                want[w] = _fit(kind, NO_ROLE)
                w += 1
            w = _want_spares(want, w, plan, hand, ROLE_ENGINE)
    else:  # nothing can be added later: everything goes out
        for kind in range(ENGINE_100, ENGINE_10 - 1, -1):
            want[w] = _fit(kind, NO_ROLE)
            w += 1
        w = _want_spares(want, w, plan, hand, ROLE_ENGINE)
        want[w] = _fit(TURBO, NO_ROLE)
        w += 1
    for i in range(w):
        if want[i] >= 0 and mask[want[i]] != 0:
            return want[i]
    return E.FINISH_LAYOUT


# ---- the contest -----------------------------------------------------------------------------------


@njit(cache=True)
def _filled(counts, roles):
    """How many of the front wheel, rear wheel and engine slots are filled."""
    return int(_has(counts, roles, ROLE_FRONT)) + int(_has(counts, roles, ROLE_REAR)) + int(
        _weakest_engine(counts, roles) >= 0)


@njit(cache=True)
def _after_own_play(counts, roles, flat, action, adds):
    """The own bike after the move or fit ``action``: ``(counts, roles, flat)``, new arrays."""
    counts, roles = counts.copy(), roles.copy()
    if action >= E.MOVE_BASE:  # a spare part into another role
        s, role = (action - E.MOVE_BASE) // SPARE_ROLES, (action - E.MOVE_BASE) % SPARE_ROLES
        if roles[s] == ROLE_FRONT:
            flat = False
        if role != ROLE_ENGINE:
            _take_wheel(counts, roles, role)
            if role == ROLE_FRONT:
                flat = False
        roles[s] = role
        return counts, roles, flat
    f = action - E.FIT_BASE
    kind, role = int(E.FIT_KIND[f]), int(E.FIT_ROLE[f])
    if role == ROLE_PUMP:
        return counts, roles, False
    if role == ROLE_FRONT or role == ROLE_REAR:
        _take_wheel(counts, roles, role)
        if role == ROLE_FRONT:
            flat = kind == FLAT_FRONT
    elif role == ROLE_ENGINE and not adds:  # it must replace an engine: the weakest
        weakest = _weakest_engine(counts, roles)
        if weakest >= 0:
            _take(counts, roles, weakest)
    counts[kind] += 1
    if _is_spare(kind):
        roles[kind - SPARE_0] = role
    return counts, roles, flat


@njit(cache=True)
def _best_own_play(counts, roles, flat, mask, low, high, keep_potential, hand, flat_half, adds, refills):
    """The legal play in ``[low, high)`` on our own bike that raises it most now (its value, else the
    number of its front wheel, rear wheel and engine slots filled); -1 if none does. (Taking a card
    off the own bike, a) of the rulebook, never raises it: it is not among the plays tried.)"""
    best_value, best_filled, best_action = bike_value(counts, roles, flat, flat_half), _filled(counts, roles), -1
    before = reach(counts, roles, flat, hand, flat_half, refills) if keep_potential else 0
    for action in range(low, high):
        if mask[action] == 0:
            continue
        after_counts, after_roles, after_flat = _after_own_play(counts, roles, flat, action, adds)
        if keep_potential and reach(after_counts, after_roles, after_flat, hand, flat_half, refills) < before:
            continue  # (a move that throws away a wheel we need)
        value = bike_value(after_counts, after_roles, after_flat, flat_half)
        filled = _filled(after_counts, after_roles)
        if value > best_value or (value == best_value and filled > best_filled):
            best_value, best_filled, best_action = value, filled, action
    return best_action


@njit(cache=True)
def _leader_weight(obs, r, n):
    """Misery is aimed at the leader: full weight for the best-placed opponent, less for others."""
    top = -np.inf
    for q in range(1, n):
        top = max(top, float(obs[O_TOTALS + q]) + float(obs[O_VALUE + q]))
    return 1.0 if float(obs[O_TOTALS + r]) + float(obs[O_VALUE + r]) >= top else 0.5


@njit(cache=True)
def _gain_from(counts, roles, flat, own_before, kind, role, flat_half):
    """What receiving ``kind`` (Motor her / Rad her) adds to our bike, in its best role."""
    best = 0
    spare = _is_spare(kind)
    for place in range(SPARE_ROLES if spare else 1):
        where = place if spare else role  # a spare part in each role (front, rear, engine), else its own
        after_counts, after_roles, after_flat = counts.copy(), roles.copy(), flat
        if where == ROLE_FRONT or where == ROLE_REAR:
            _take_wheel(after_counts, after_roles, where)
            if where == ROLE_FRONT:
                after_flat = False
        after_counts[kind] += 1
        if spare:
            after_roles[kind - SPARE_0] = where
        best = max(best, bike_value(after_counts, after_roles, after_flat, flat_half) - own_before)
    return best


@njit(cache=True)
def _best_slot(obs, misery, r, flat_half, victim_picks_her):
    """(what ``misery`` on seat ``r`` is worth to us, the card to aim at, -1 for none): the card whose
    loss costs the target most, or for Motor her / Rad her when the victim picks, the card it would give."""
    counts, roles, flat = read_bike(obs, r)
    before = bike_value(counts, roles, flat, flat_half)
    if misery == NAIL:  # the front tyre goes flat: 0, or half the value
        return float(before - (before // 2 if flat_half else 0)), -1
    her = misery == MOTOR_HER or misery == RAD_HER
    own_counts, own_roles, own_flat = read_bike(obs, 0)
    own_before = bike_value(own_counts, own_roles, own_flat, flat_half)
    victim_picks = her and victim_picks_her
    best_kind, best_loss, best_gain = -1, 0, 0
    for kind in range(NUM_KINDS):
        if counts[kind] == 0:
            continue
        role = _role(roles, kind)
        if misery == MOTOR_HER and role != ROLE_ENGINE:
            continue
        if misery == RAD_HER and role != ROLE_FRONT and role != ROLE_REAR:
            continue
        after_counts, after_roles = counts.copy(), roles.copy()
        _take(after_counts, after_roles, kind)
        loss = before - bike_value(after_counts, after_roles, flat and role != ROLE_FRONT, flat_half)
        gain = _gain_from(own_counts, own_roles, own_flat, own_before, kind, role, flat_half) if her else 0
        if best_kind < 0:
            better = True
        elif victim_picks:  # the victim gives what costs it least
            better = loss < best_loss or (loss == best_loss and gain < best_gain)
        else:
            better = loss + gain > best_loss + best_gain
        if better:
            best_kind, best_loss, best_gain = kind, loss, gain
    if best_kind < 0:
        return 0.0, -1
    return float(best_loss + best_gain), best_kind


@njit(cache=True)
def _best_misery(obs, mask, n, flat_half, victim_picks_her):
    best_gain, best_action = 0.0, -1
    for action in range(E.MISERY_BASE, mask.shape[0]):
        if mask[action] == 0:
            continue
        m, r = (action - E.MISERY_BASE) // (P - 1), (action - E.MISERY_BASE) % (P - 1) + 1
        damage = _best_slot(obs, int(MISERY_KINDS[m]), r, flat_half, victim_picks_her)[0]
        # A misery card spent is a misery card gone: play it only where it costs the target something.
        gain = damage * _leader_weight(obs, r, n)
        if gain > best_gain:
            best_gain, best_action = gain, action
    return best_action


@njit(cache=True)
def _turn(obs, mask, hand, n, flat_half, adds, victim_picks_her, refills):
    counts, roles, flat = read_bike(obs, 0)
    move = _best_own_play(counts, roles, flat, mask, E.MOVE_BASE, E.REMOVE_BASE, True, hand, flat_half, adds,
                          refills)
    if move >= 0:
        return move
    if bike_value(counts, roles, flat, flat_half) == 0 or flat:  # a broken or flat bike first
        fix = _best_own_play(counts, roles, flat, mask, E.FIT_BASE, E.MOVE_BASE, False, hand, flat_half, adds,
                             refills)
        if fix >= 0:
            return fix
    attack = _best_misery(obs, mask, n, flat_half, victim_picks_her)
    if attack >= 0:
        return attack
    # A pass may be the last of the round (everybody else may pass after it): never pass while a
    # reserve would still raise the bike.
    fit = _best_own_play(counts, roles, flat, mask, E.FIT_BASE, E.MOVE_BASE, False, hand, flat_half, adds,
                         refills)
    return fit if fit >= 0 else E.PASS


@njit(cache=True)
def _keeps(counts, roles, flat, kind, hand, flat_half, refills):
    """(what we can still build, what the bike scores now) after losing ``kind``: to hand over the
    card whose loss costs least."""
    if _role(roles, kind) == ROLE_FRONT:
        flat = False
    counts, roles = counts.copy(), roles.copy()
    _take(counts, roles, kind)
    return reach(counts, roles, flat, hand, flat_half, refills), bike_value(counts, roles, flat, flat_half)


@njit(cache=True)
def _pick(obs, mask, hand, flat_half, victim_picks_her, refills):
    """A bike card: the attacker aims its misery card, or, as the victim, the card we hand over."""
    if obs[O_TURN_OF] != 0:
        misery = int(MISERY_KINDS[block_argmax(obs, O_PMISERY, MISERIES)])
        kind = _best_slot(obs, misery, block_argmax(obs, O_PTARGET, P), flat_half, victim_picks_her)[1]
        return -1 if kind < 0 else E.SLOT_BASE + int(E.BIKE_INDEX[kind])
    counts, roles, flat = read_bike(obs, 0)
    best, best_potential, best_value = -1, 0, 0
    for action in range(E.SLOT_BASE, E.SLOT_BASE + SLOTS):
        if mask[action] == 0:
            continue
        kept_potential, kept_value = _keeps(counts, roles, flat, int(BIKE_KINDS[action - E.SLOT_BASE]), hand,
                                            flat_half, refills)
        if best < 0 or kept_potential > best_potential or (kept_potential == best_potential
                                                            and kept_value > best_value):
            best, best_potential, best_value = action, kept_potential, kept_value
    return best


@njit(cache=True)
def _engine_slot(obs, mask):
    if mask[E.ADD_ENGINE] != 0:
        return E.ADD_ENGINE
    counts, roles, _ = read_bike(obs, 0)
    weakest = _weakest_engine(counts, roles)
    return -1 if weakest < 0 else E.SLOT_BASE + int(E.BIKE_INDEX[weakest])


@njit(cache=True)
def _place(obs, flat_half):
    counts, roles, flat = read_bike(obs, 0)
    kind = block_argmax(obs, O_PCARD, NUM_KINDS)
    if not _is_spare(kind):
        return -1
    best_value, best = -1, -1
    for role in range(SPARE_ROLES):  # front, rear, engine
        after_counts, after_roles, after_flat = counts.copy(), roles.copy(), flat
        if role != ROLE_ENGINE:
            _take_wheel(after_counts, after_roles, role)
            if role == ROLE_FRONT:
                after_flat = False
        after_counts[kind] += 1
        after_roles[kind - SPARE_0] = role
        value = bike_value(after_counts, after_roles, after_flat, flat_half)
        if value > best_value:
            best_value, best = value, _fit(kind, role)
    return best


# ---- reactions --------------------------------------------------------------------------------------


@njit(cache=True)
def _answer(mask, misery, own_value, own_potential, value_after, potential_after):
    if own_value - value_after <= 0:
        return E.ACCEPT  # it costs nothing now
    if misery == NAIL and mask[E.REACT_PUMP] != 0:
        return E.REACT_PUMP
    if misery == TUV and mask[E.REACT_FUCK_TUV] != 0:
        return E.REACT_FUCK_TUV
    loss = own_potential - potential_after
    if mask[E.REACT_LACH] != 0 and loss > 0 and (loss >= own_potential / 5 or own_potential <= 100):
        return E.REACT_LACH
    return E.ACCEPT


@njit(cache=True)
def _react(obs, mask, hand, flat_half, refills):
    misery = int(MISERY_KINDS[block_argmax(obs, O_PMISERY, MISERIES)])
    slot = -1
    for b in range(SLOTS):
        if obs[O_PSLOT + b] != 0:
            slot = b
            break
    counts, roles, flat = read_bike(obs, 0)
    own_value = bike_value(counts, roles, flat, flat_half)
    own_potential = reach(counts, roles, flat, hand, flat_half, refills)
    if misery == NAIL:
        return _answer(mask, misery, own_value, own_potential, bike_value(counts, roles, True, flat_half),
                       reach(counts, roles, True, hand, flat_half, refills))
    if slot >= 0:
        kept_potential, kept_value = _keeps(counts, roles, flat, int(BIKE_KINDS[slot]), hand, flat_half, refills)
        return _answer(mask, misery, own_value, own_potential, kept_value, kept_potential)
    # Motor her / Rad her: we will pick the card, the cheapest
    found, kept_potential, kept_value = False, own_potential, own_value
    for kind in range(NUM_KINDS):
        if counts[kind] == 0:
            continue
        role = _role(roles, kind)
        if (role == ROLE_FRONT or role == ROLE_REAR) if misery == RAD_HER else role == ROLE_ENGINE:
            keeps_potential, keeps_value = _keeps(counts, roles, flat, kind, hand, flat_half, refills)
            if not found or keeps_potential > kept_potential or (keeps_potential == kept_potential
                                                                  and keeps_value > kept_value):
                found, kept_potential, kept_value = True, keeps_potential, keeps_value
    return _answer(mask, misery, own_value, own_potential, kept_value, kept_potential)


# ---- the strategy ----------------------------------------------------------------------------------


@njit(cache=True)
def choose(obs, mask, rules, rng):
    """The heuristic's action for one observation (see the module doc)."""
    legal, only = 0, -1
    for a in range(mask.shape[0]):
        if mask[a] != 0:
            legal += 1
            only = a
    if legal == 1:
        return only
    n = int(rules[R_PLAYERS])
    flat_half, adds = rules[R_FLAT_HALF] != 0, rules[R_ADDS] != 0
    victim_picks_her, keeps_reserves = rules[R_VICTIM_PICKS] != 0, rules[R_KEEPS_RESERVES] != 0
    refills = rules[R_REFILLS] != 0
    hand = np.zeros(NUM_KINDS, np.int64)
    for kind in range(NUM_KINDS):
        hand[kind] = int(obs[O_HAND + kind])
    phase = block_argmax(obs, O_PHASE, PHASES)
    action = -1
    if phase == E.PH_DRAW:
        action = _draw(obs, mask, hand, flat_half)
    elif phase == E.PH_DISCARD:
        action = _discard(obs, mask, hand, n, flat_half)
    elif phase == E.PH_LAYOUT:
        action = _lay_out(obs, mask, hand, flat_half, adds, keeps_reserves)
    elif phase == E.PH_TURN:
        action = _turn(obs, mask, hand, n, flat_half, adds, victim_picks_her, refills)
    elif phase == E.PH_MISERY_SLOT:
        action = _pick(obs, mask, hand, flat_half, victim_picks_her, refills)
    elif phase == E.PH_REACT:
        action = _react(obs, mask, hand, flat_half, refills)
    elif phase == E.PH_PLACE:
        action = _place(obs, flat_half)
    elif phase == E.PH_ENGINE_SLOT:
        action = _engine_slot(obs, mask)
    if action < 0 or action >= mask.shape[0] or mask[action] == 0:
        action = choice(rng, mask)
    return action


@njit(cache=True)
def choose_rows(obs, masks, rules, rngs, streams, out):
    """:func:`choose` for each row, drawing from generator ``rngs[streams[k]]`` (agents/heuristic:
    ``rules`` is :func:`table_rules`)."""
    for k in range(obs.shape[0]):
        out[k] = choose(obs[k], masks[k], rules, rngs[streams[k]])


class HeuristicAgent(CompiledHeuristic):
    """The strategy of the module doc, as an :class:`agents.base.Agent`."""

    choose_rows = staticmethod(choose_rows)
    table_rules = staticmethod(table_rules)
    keeps_reserves = True  # lay out one engine and keep the others (False: lay out every engine and Turbo)

    def reset(self, seat, env_id, config):
        super().reset(seat, env_id, config)
        self._rules = table_rules(config, self.keeps_reserves)
