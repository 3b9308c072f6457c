"""A rule-based Volles Fass voraus player for ``volles_fass_voraus_v0``.

It reads only its seat's observation (at the game's ``Layout`` offsets) and the printed rules
(the deck geometry of :func:`envs.volles_fass_voraus.engine.extractable`); it keeps no memory of
its own. The strategy is one compiled function, :func:`choose_rows` (agents/heuristic: the agent
and the batched trainer's opponents both call it); it is deterministic but for a random legal
action when its choice is not legal (from a generator record). The strategy:

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
asset (typically to free a barrel it wants to sell). A pair the engine offers only with moves
between its two barrels is valued as if the second were free; once the first is off it makes the
best of the moves offered (each keeps the second within reach). Berths are still chosen by what
the deck can deliver without moves.

**Numbers.** The berth scores add the observation's float32 features to float64 worths and
Python-style constants exactly as the plain Python agent before it did, with numpy's (NEP 50)
rounding of each sum to float32 or float64 (see ``_tag``), so its decisions are exactly that
agent's (pinned by ``tests/volles_fass_voraus/test_heuristic.py``); ``benchmarks/heuristic_speed.py``
times them.
"""

import numpy as np
from numba import njit

from envs.core.rng import choice
from envs.volles_fass_voraus import data
from envs.volles_fass_voraus import engine as E

from . import CompiledHeuristic, block_argmax

_O = {name: E.LAYOUT.offset(name) for name in E.LAYOUT.names}
O_PHASE, O_ROUTE, O_BERTHS, O_SHIPS, O_DECKS = (_O[n] for n in ("phase", "route", "berths", "ships", "decks"))
O_DOUBLOONS, O_SAILORS, O_SUPPLY, O_HAND = (_O[n] for n in ("doubloons", "sailors", "supply", "hand"))
O_LOAD_LEFT, O_LOAD_PAID, O_NEED = (_O[n] for n in ("load_left", "load_paid", "need"))
ROUTE_SHAPES = E.LAYOUT.shape("route")[-1]
# Our own rows come first: ships, decks and sailors are relative (0 = us).
assert E.LAYOUT.shape("ships")[1:] == (data.NUM_HARBOURS, data.NUM_BERTHS)
assert E.LAYOUT.shape("decks")[1:] == (data.NUM_SPACES, data.NUM_COLOURS)
assert E.LAYOUT.shape("berths") == (data.NUM_HARBOURS, data.NUM_BERTHS, E.BERTH_FEATURES)

# Berth features (see engine.BERTH_FEATURE_NAMES).
F_LOAD, F_UNLOAD, F_SAILOR, F_MAPS = 0, 1, 2, 3
F_BARRELS, F_NEED, F_COST, F_PAY, F_NUM_MAPS = 4, 7, 11, 12, 13
F_FISH, F_SAIL, F_ROB_BARREL, F_ROB, F_SEASICK, F_STORM, F_REPAIR, F_START = 14, 15, 18, 19, 20, 21, 22, 24

SAILOR_WORTH = 2.0
MAP_WORTH = 2.4
BURIED = 0.5  # a barrel that cannot be pulled off now counts this much of its worth
FUTURE_DISCOUNT = 0.75  # a sale later is less sure than doubloons now (berths get taken, storms)
SELLING_SHAPES = (data.SHAPE_MIXED, data.SHAPE_UNLOAD, data.SHAPE_DEST)
#: The hiring choices in the order they win ties.
HIRE_ACTIONS = np.array([E.A_PASS, E.A_SAILOR_BOTH, E.A_SAILOR_ONLY, E.A_BARREL_ONLY], np.int64)


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

#: BEHIND[space, other]: a barrel on ``space`` crosses the corridor from ``other`` to the dock.
BEHIND = np.array([[other != space and data.SPACE_Y[other] > data.SPACE_Y[space]
                    and abs(data.SPACE_X[other] - data.SPACE_X[space]) <= data.BARREL_DIAMETER
                    for other in range(data.NUM_SPACES)] for space in range(data.NUM_SPACES)], np.int8)


# ---- reading the observation, and the deck's asset -----------------------------------------------
# The searches over placements, unloadings and Barry / Farry moves score a deck many times per
# decision. ``colour_worth[c]`` is BASE_WORTH[c] plus the player's colour bonus, ``sales`` the
# selling harbours left: they fix a barrel's worth for the decision (see _worth).


@njit(cache=True)
def read_own_ship(obs):
    """From our rows of the observation: the harbour and berth of our ship (-1, -1 before it is
    placed); our deck (colour + 1 per space, 0 empty); ``sales[h + 1]``, the selling harbours
    after harbour ``h``; our sailors' bonus per barrel colour and per unloading berth (plazas)."""
    harbour = berth = -1
    for h in range(data.NUM_HARBOURS):
        for b in range(data.NUM_BERTHS):
            if obs[O_SHIPS + h * data.NUM_BERTHS + b] > 0 and harbour < 0:
                harbour, berth = h, b
    deck = np.zeros(data.NUM_SPACES, np.int8)
    for space in range(data.NUM_SPACES):
        for colour in range(data.NUM_COLOURS):
            if obs[O_DECKS + space * data.NUM_COLOURS + colour] > 0:
                deck[space] = colour + 1
    sales = np.zeros(data.NUM_HARBOURS + 2, np.int64)
    for h in range(data.NUM_HARBOURS - 1, -1, -1):
        selling = 0
        for shape in SELLING_SHAPES:
            if obs[O_ROUTE + h * ROUTE_SHAPES + shape] > 0:
                selling = 1
        sales[h] = sales[h + 1] + selling
    colour_bonus = np.zeros(data.NUM_COLOURS, np.int64)
    plaza_bonus = np.zeros(data.NUM_BERTHS, np.int64)
    for card in range(data.NUM_SAILORS):
        if obs[O_SAILORS + card] > 0:
            colour_bonus += data.SAILOR_COLOUR_BONUS[card]
            if data.SAILOR_PLAZA[card] >= 0:
                plaza_bonus[data.SAILOR_PLAZA[card]] += 1
    return harbour, berth, deck, sales, colour_bonus, plaza_bonus


@njit(cache=True)
def barrel_worth(colour_worth, sales, colour, barrels):
    if sales == 0:
        return 0.0
    scarcity = min(1.0, 1.3 * sales / max(1, barrels))
    return colour_worth[colour] * scarcity * FUTURE_DISCOUNT


@njit(cache=True)
def deck_asset(deck, colour_worth, sales):
    """The barrels' worth, those that cannot be pulled off now counting ``BURIED``."""
    barrels = 0
    for space in range(data.NUM_SPACES):
        if deck[space]:
            barrels += 1
    free = E.extractable(deck)
    total = 0.0
    for space in range(data.NUM_SPACES):
        if deck[space]:
            weight = 1.0 if (free >> space) & 1 else BURIED
            total += weight * barrel_worth(colour_worth, sales, deck[space] - 1, barrels)
    return total


@njit(cache=True)
def blocked_behind(deck, space):
    """Free spaces whose corridor to the dock a barrel on ``space`` would cross."""
    count = 0
    for other in range(data.NUM_SPACES):
        if BEHIND[space, other] and not deck[other]:
            count += 1
    return count


@njit(cache=True)
def best_place(deck, colour, colour_worth, sales):
    """The free space for a barrel of ``colour`` that keeps the asset highest and blocks the fewest
    free spaces behind it; -1 if the deck is full."""
    best, best_score = -1, -np.inf
    for space in range(data.NUM_SPACES):
        if deck[space]:
            continue
        deck[space] = colour + 1
        score = deck_asset(deck, colour_worth, sales) - 0.15 * blocked_behind(deck, space)
        deck[space] = 0
        if score > best_score:
            best, best_score = space, score
    return best


@njit(cache=True)
def fits(deck, free, need, space):
    """A barrel on ``space`` can be pulled off (``free``) and unloaded against ``need``."""
    return (free >> space) & 1 and deck[space] and (need[deck[space] - 1] > 0 or need[3] > 0)


@njit(cache=True)
def take(need, colour):
    if need[colour] > 0:
        need[colour] -= 1
    else:
        need[3] -= 1


@njit(cache=True)
def unload_value(deck, need, pay, bonus, colour_worth, sales, any_second):
    """``(possible, value)``: the net gain of the best way to unload ``need`` now: ``pay`` plus each
    barrel's ``bonus[colour]``, minus the asset they leave with (pairs in both orders). With
    ``any_second`` a pair's second barrel may be any matching one, extractable or not (the engine
    has found Barry / Farry moves between the two barrels that reach it)."""
    deck = deck.copy()
    before = deck_asset(deck, colour_worth, sales)
    possible, best = False, 0.0
    free = E.extractable(deck)
    for first in range(data.NUM_SPACES):
        if not fits(deck, free, need, first):
            continue
        rest = need.copy()
        take(rest, deck[first] - 1)
        gain1 = bonus[deck[first] - 1]
        colour1, deck[first] = deck[first], 0
        if rest.sum() == 0:
            value = pay + gain1 + deck_asset(deck, colour_worth, sales) - before
            best = value if not possible or value > best else best
            possible = True
        else:
            free_after = E.occupied(deck) if any_second else E.extractable(deck)
            for second in range(data.NUM_SPACES):
                if not fits(deck, free_after, rest, second):
                    continue
                gain2 = bonus[deck[second] - 1]
                colour2, deck[second] = deck[second], 0
                value = pay + gain1 + gain2 + deck_asset(deck, colour_worth, sales) - before
                best = value if not possible or value > best else best
                possible = True
                deck[second] = colour2
        deck[first] = colour1
    return possible, best


@njit(cache=True)
def best_move(deck, mask, colour_worth, sales, threshold):
    """The legal Barry / Farry move action (of ``mask``) raising the asset most, by more than
    ``threshold`` (the first of equals); -1 if none does."""
    now = deck_asset(deck, colour_worth, sales)
    best, gain = -1, threshold
    moved = deck.copy()
    for action in range(E.A_MOVE, mask.shape[0]):
        if not mask[action]:
            continue
        moved[:] = deck
        E.apply_move(moved, action - E.A_MOVE)
        better = deck_asset(moved, colour_worth, sales) - now
        if better > gain:
            best, gain = action, better
    return best


# ---- the numeric types of the Python agent's sums ------------------------------------------------
# The Python agent scored berths by adding the observation's np.float32 features, np.float64 worths
# and Python floats, and numpy (NEP 50) rounds such a sum to float32 whenever an np.float32 meets
# only Python numbers ("weak" ones: the Python number is rounded to float32 first), to float64 when
# it meets an np.float64. A score is therefore a float64 value with the tag of the type it would
# have had, and these helpers add, subtract and compare as numpy did, so every berth comparison
# comes out as it did.
WEAK, FLOAT32, FLOAT64 = 0, 1, 2


@njit(cache=True)
def _tag(ta, tb):
    if ta == WEAK:
        return tb
    if tb == WEAK:
        return ta
    return FLOAT32 if ta == FLOAT32 and tb == FLOAT32 else FLOAT64


@njit(cache=True)
def _add(a, ta, b, tb):
    t = _tag(ta, tb)
    if t == FLOAT32:
        return np.float64(np.float32(a) + np.float32(b)), t
    return a + b, t


@njit(cache=True)
def _sub(a, ta, b, tb):
    t = _tag(ta, tb)
    if t == FLOAT32:
        return np.float64(np.float32(a) - np.float32(b)), t
    return a - b, t


@njit(cache=True)
def _greater(a, ta, b, tb):
    """``a > b`` as numpy compared them: in float32 when a float32 meets a Python float."""
    if (ta == FLOAT32 and tb == WEAK) or (ta == WEAK and tb == FLOAT32):
        return np.float32(a) > np.float32(b)
    return a > b


@njit(cache=True)
def _positive(value, tag):
    """``max(0.0, value)`` with its type: the value if it is positive, else a Python 0.0."""
    if value > 0.0:
        return value, tag
    return 0.0, WEAK


# ---- the strategy --------------------------------------------------------------------------------


@njit(cache=True)
def _berth_offset(harbour, pos):
    """Where berth ``pos`` of ``harbour`` starts in the observation (negative indices counting from
    the end, as numpy's)."""
    if harbour < 0:
        harbour += data.NUM_HARBOURS
    if pos < 0:
        pos += data.NUM_BERTHS
    return O_BERTHS + (harbour * data.NUM_BERTHS + pos) * E.BERTH_FEATURES


@njit(cache=True)
def _usefulness(card, on_deck):
    if data.SAILOR_FASSEL[card]:
        return 1.5
    if data.SAILOR_FISH[card] or data.SAILOR_PLAZA[card] >= 0:
        return 1.0
    if data.SAILOR_SAIL[card]:
        return 1.5
    any_bonus = False
    total = 0.0
    for c in range(data.NUM_COLOURS):
        bonus = data.SAILOR_COLOUR_BONUS[card, c]
        if bonus != 0:
            any_bonus = True
        total += bonus * (on_deck[c] + 0.5)
    if any_bonus:
        return total * 0.6
    return 0.8  # Pit, Piranha, Stormy D.


@njit(cache=True)
def _asset_without(deck, space, colour_worth, sales):
    without = deck.copy()
    without[space] = 0
    return deck_asset(without, colour_worth, sales)


@njit(cache=True)
def _kept_worths(deck, colour_worth, sales, barrels):
    """The worth of each barrel on deck kept beyond a harbour with ``sales`` selling harbours after
    it, cheapest first."""
    per_colour = np.zeros(data.NUM_COLOURS)
    for colour in range(data.NUM_COLOURS):
        per_colour[colour] = barrel_worth(colour_worth, sales, colour, barrels)
    worths = np.zeros(barrels)
    k = 0
    for space in range(data.NUM_SPACES):
        if deck[space]:
            worths[k] = per_colour[deck[space] - 1]
            k += 1
    return np.sort(worths)


@njit(cache=True)
def _berth_score(obs, harbour, pos, worths, deck, barrels, sales, colour_worth, colour_bonus, plaza_bonus, money,
                 held):
    """What berth ``pos`` of ``harbour`` is worth to us (``worths``: _kept_worths beyond ``harbour``;
    ``held[card]``: we hold it), and the tag of its type."""
    f = _berth_offset(harbour, pos)
    s = sales[harbour + 1]
    wtag = FLOAT64 if s else WEAK
    fish = sail = sailors = 0
    for card in range(data.NUM_SAILORS):
        if held[card]:
            fish += data.SAILOR_FISH[card]
            sail += data.SAILOR_SAIL[card]
            sailors += 1
    score, tag = 0.0, WEAK
    if obs[f + F_FISH] != 0:
        score += float(fish)
    if obs[f + F_SAIL] != 0:
        score += float(sail)
    if obs[f + F_ROB_BARREL] != 0 and worths.shape[0] > 0 and not held[data.PIT]:
        score, tag = _sub(score, tag, worths[0], wtag)
    rob = np.float64(obs[f + F_ROB])
    if rob != 0 and not held[data.PIRANHA]:  # min(money, rob): the int money unless rob is less
        if money <= rob:
            score, tag = _sub(score, tag, float(money), WEAK)
        else:
            score, tag = _sub(score, tag, rob, FLOAT32)
    seasick = np.float64(obs[f + F_SEASICK])
    if seasick != 0:  # 1.5 * min(seasick, sailors): float32, or float64 for the np.int64 count
        if sailors < seasick:
            score, tag = _sub(score, tag, 1.5 * sailors, FLOAT64)
        else:
            score, tag = _sub(score, tag, np.float64(np.float32(1.5) * np.float32(seasick)), FLOAT32)
    if not held[data.STORMY]:
        storm = int(obs[f + F_STORM])
        lost, lost_tag = 0.0, WEAK  # sum(worths[:storm]): the int 0 when empty
        if storm > 0 and worths.shape[0] > 0:
            lost_tag = wtag
            for k in range(min(storm, worths.shape[0])):
                lost += worths[k]
        repair = np.float64(obs[f + F_REPAIR])
        if money <= repair:
            lost, lost_tag = _add(lost, lost_tag, float(money), WEAK)
        else:
            lost, lost_tag = _add(lost, lost_tag, repair, FLOAT32)
        score, tag = _sub(score, tag, lost, lost_tag)
    cost = np.float64(obs[f + F_COST])
    affordable = money >= cost
    space = data.NUM_SPACES - barrels
    if obs[f + F_LOAD] != 0 and affordable:
        count = 0
        for colour in range(data.NUM_COLOURS):
            count += int(min(obs[f + F_BARRELS + colour], obs[O_SUPPLY + colour]))
        gains = np.zeros(count)
        k = 0
        for colour in range(data.NUM_COLOURS):
            for _ in range(int(min(obs[f + F_BARRELS + colour], obs[O_SUPPLY + colour]))):
                gains[k] = 0.8 * barrel_worth(colour_worth, s, colour, barrels + k + 1)
                k += 1
        gains = np.sort(gains)
        total = 0.0
        for k in range(count - 1, max(count - space, 0) - 1, -1):  # the best ``space`` of them, best first
            total += gains[k]
        value, value_tag = _positive(total - cost, wtag)
        score, tag = _add(score, tag, value, value_tag)
    elif obs[f + F_UNLOAD] != 0:
        need = np.zeros(4, np.int64)
        for k in range(4):
            need[k] = int(obs[f + F_NEED + k])
        bonus = colour_bonus + np.float64(plaza_bonus[pos])
        possible, value = unload_value(deck, need, np.float64(obs[f + F_PAY]), bonus, colour_worth, s, False)
        if possible:
            value, value_tag = _positive(value, wtag)
            score, tag = _add(score, tag, value, value_tag)
    elif obs[f + F_SAILOR] != 0 and affordable:
        barrel = -1  # the sailor's barrel, if the supply has it
        for c in range(data.NUM_COLOURS):
            if obs[f + F_BARRELS + c] != 0 and obs[O_SUPPLY + c] != 0:
                barrel = c
                break
        extra, extra_tag = 0.0, WEAK
        if barrel >= 0 and space:
            extra, extra_tag = 0.8 * barrel_worth(colour_worth, s, barrel, barrels + 1), wtag
        value, value_tag = _positive(SAILOR_WORTH + extra - cost, extra_tag)
        score, tag = _add(score, tag, value, value_tag)
    elif obs[f + F_MAPS] != 0 and affordable:
        value = np.float32(np.float32(MAP_WORTH) * obs[f + F_NUM_MAPS]) - np.float32(cost)
        value, value_tag = _positive(np.float64(value), FLOAT32)
        score, tag = _add(score, tag, value, value_tag)
    return _add(score, tag, 0.3 * (data.NUM_BERTHS - 1 - pos) / (data.NUM_BERTHS - 1), WEAK)


@njit(cache=True)
def _load_pick(obs, mask, f, deck, barrels, colour_worth, s):
    worth = np.zeros(data.NUM_COLOURS)
    best = -1
    for c in range(data.NUM_COLOURS):
        if mask[E.A_COLOUR + c]:
            worth[c] = 0.8 * barrel_worth(colour_worth, s, c, barrels + 1)
            if best < 0 or worth[c] > worth[best]:
                best = c
    if best < 0:
        return E.A_PASS
    if obs[O_LOAD_PAID] != 0:
        return E.A_COLOUR + best if worth[best] > 0.2 else E.A_PASS
    offered = 0.0
    for c in range(data.NUM_COLOURS):
        if mask[E.A_COLOUR + c]:
            offered += worth[c] * np.float64(obs[O_LOAD_LEFT + c])
    return E.A_COLOUR + best if offered > np.float64(obs[f + F_COST]) else E.A_PASS


@njit(cache=True)
def _unload_pick(obs, mask, f, pos, deck, colour_worth, s, colour_bonus, plaza_bonus):
    any_space = False
    for space in range(data.NUM_SPACES):
        if mask[E.A_SPACE + space]:
            any_space = True
    if not any_space:
        if mask[E.A_PASS]:
            return E.A_PASS
        # A pair's second barrel is owed but out of reach: the engine offers only the Barry / Farry
        # moves that keep it within reach, and the best of them is one of those.
        return best_move(deck, mask, colour_worth, s, -np.inf)
    if mask[E.A_PASS]:  # nothing unloaded yet: is it worth it at all?
        need = np.zeros(4, np.int64)
        for k in range(4):
            need[k] = int(obs[O_NEED + k])
        bonus = colour_bonus + np.float64(plaza_bonus[pos])
        pay = np.float64(obs[f + F_PAY])
        possible, value = unload_value(deck, need, pay, bonus, colour_worth, s, False)
        if not possible:  # offered all the same: Barry / Farry moves between the barrels reach the second
            possible, value = unload_value(deck, need, pay, bonus, colour_worth, s, True)
        if not possible or value < 0:
            return E.A_PASS
    best, best_score = -1, 0.0
    for space in range(data.NUM_SPACES):
        if not mask[E.A_SPACE + space]:
            continue
        colour = deck[space] - 1
        if colour < 0:
            colour += data.NUM_COLOURS  # numpy's index -1 (no barrel there: never offered)
        score = (colour_bonus[colour] + np.float64(plaza_bonus[pos])) + _asset_without(deck, space, colour_worth, s)
        if best < 0 or score > best_score:
            best, best_score = space, score
    return E.A_SPACE + best


@njit(cache=True)
def _hire(obs, mask, f, barrels, colour_worth, s):
    barrel = 0.0
    for c in range(data.NUM_COLOURS):
        if obs[f + F_BARRELS + c] != 0:
            barrel = 0.8 * barrel_worth(colour_worth, s, c, barrels + 1)
            break
    cost = np.float64(obs[f + F_COST])
    options = np.array([0.0, SAILOR_WORTH + barrel - cost, SAILOR_WORTH - cost, barrel - cost])
    best = -1
    for k in range(4):  # ties: pass, sailor and barrel, sailor only, barrel only
        if mask[HIRE_ACTIONS[k]] and (best < 0 or options[k] > options[best]):
            best = k
    return HIRE_ACTIONS[best] if best >= 0 else -1


@njit(cache=True)
def _best_of_sailors(mask, on_deck, largest):
    """The legal sailor action of the most (``largest``) or least useful card; -1 if none."""
    best, best_value = -1, 0.0
    for card in range(data.NUM_SAILORS):
        if mask[E.A_SAILOR + card]:
            value = _usefulness(card, on_deck)
            if best < 0 or (value > best_value if largest else value < best_value):
                best, best_value = card, value
    return E.A_SAILOR + best if best >= 0 else -1


@njit(cache=True)
def choose(obs, mask, rng):
    """The heuristic's action for one observation (see the module doc)."""
    harbour, berth, deck, sales, colour_bonus_int, plaza_bonus = read_own_ship(obs)
    barrels = 0
    on_deck = np.zeros(data.NUM_COLOURS, np.int64)
    for space in range(data.NUM_SPACES):
        if deck[space]:
            barrels += 1
            on_deck[deck[space] - 1] += 1
    held = np.zeros(data.NUM_SAILORS, np.bool_)
    for card in range(data.NUM_SAILORS):
        held[card] = obs[O_SAILORS + card] > 0
    colour_bonus = colour_bonus_int.astype(np.float64)
    colour_worth = BASE_WORTH + colour_bonus
    money = int(obs[O_DOUBLOONS])
    phase = block_argmax(obs, O_PHASE, E.NUM_PHASES)
    after = max(harbour, 0)
    s = sales[after + 1]
    action = -1
    if phase != E.PH_START_BERTH and phase != E.PH_LOAD_PLACE:
        action = best_move(deck, mask, colour_worth, s, 0.05 if phase == E.PH_END_TURN else 0.3)
    if action >= 0:
        pass
    elif phase == E.PH_START_BERTH:
        best = -1
        for b in range(data.NUM_BERTHS):
            if mask[E.A_BERTH + b] and (best < 0 or obs[_berth_offset(0, b) + F_START]
                                        > obs[_berth_offset(0, best) + F_START]):
                best = b
        action = E.A_BERTH + best if best >= 0 else -1
    elif phase == E.PH_CHOOSE_BERTH:
        ahead = harbour + 1
        worths = _kept_worths(deck, colour_worth, sales[ahead + 1], barrels)
        best, best_score, best_tag = -1, 0.0, WEAK
        for b in range(data.NUM_BERTHS):
            if not mask[E.A_BERTH + b]:
                continue
            score, tag = _berth_score(obs, ahead, b, worths, deck, barrels, sales, colour_worth, colour_bonus,
                                      plaza_bonus, money, held)
            if best < 0 or _greater(score, tag, best_score, best_tag):
                best, best_score, best_tag = b, score, tag
        action = E.A_BERTH + best if best >= 0 else -1
    elif phase == E.PH_LOAD_PICK:
        action = _load_pick(obs, mask, _berth_offset(harbour, berth), deck, barrels, colour_worth, s)
    elif phase == E.PH_LOAD_PLACE:
        colour = block_argmax(obs, O_HAND, data.NUM_COLOURS)
        space = best_place(deck.copy(), colour, colour_worth, s)
        action = E.A_SPACE + space if space >= 0 else -1
    elif phase == E.PH_UNLOAD:
        action = _unload_pick(obs, mask, _berth_offset(harbour, berth), berth, deck, colour_worth, s, colour_bonus,
                              plaza_bonus)
    elif phase == E.PH_ROB_BARREL or phase == E.PH_STORM_BARREL:
        best, best_asset = -1, 0.0
        for space in range(data.NUM_SPACES):
            if mask[E.A_SPACE + space]:
                asset = _asset_without(deck, space, colour_worth, s)
                if best < 0 or asset > best_asset:
                    best, best_asset = space, asset
        action = E.A_SPACE + best if best >= 0 else -1
    elif phase == E.PH_SEASICK or phase == E.PH_CHAOS_GIVE:
        action = _best_of_sailors(mask, on_deck, False)
    elif phase == E.PH_CHAOS_TAKE:
        action = _best_of_sailors(mask, on_deck, True)
        if action >= 0 and mask[E.A_PASS]:
            least_own = np.inf
            for card in range(data.NUM_SAILORS):
                if held[card]:
                    least_own = min(least_own, _usefulness(card, on_deck))
            if _usefulness(action - E.A_SAILOR, on_deck) <= least_own:
                action = E.A_PASS
    elif phase == E.PH_SAILOR:
        action = _hire(obs, mask, _berth_offset(harbour, berth), barrels, colour_worth, s)
    elif phase == E.PH_MAPS:
        f = _berth_offset(harbour, berth)
        worth = np.float32(np.float32(MAP_WORTH) * obs[f + F_NUM_MAPS]) - obs[f + F_COST]
        action = E.A_TAKE_MAPS if mask[E.A_TAKE_MAPS] and worth > 0 else E.A_PASS
    else:
        action = E.A_PASS
    if action < 0 or action >= mask.shape[0] or not mask[action]:
        action = choice(rng, mask)
    return action


@njit(cache=True)
def choose_rows(obs, masks, rules, rngs, streams, out):
    """:func:`choose` for each row, drawing from generator ``rngs[streams[k]]`` (agents/heuristic;
    the strategy reads no rules: the route and every harbour are in the observation)."""
    for k in range(obs.shape[0]):
        out[k] = choose(obs[k], masks[k], rngs[streams[k]])


class HeuristicAgent(CompiledHeuristic):
    """The strategy of the module doc, as an :class:`agents.base.Agent`."""

    choose_rows = staticmethod(choose_rows)
