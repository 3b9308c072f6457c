"""A compiled, memoryless Voll auf die 18 team player for search playouts: :func:`playout_rows`.

**What it is.** The game's heuristic agent (``agents/heuristic/voll_auf_die_18.py``) is Python and
keeps memory between moments (how long it waited at a pool, how many moments it was stuck, the
chapter-6 roles), so it cannot play inside ISMCTS's numba playouts. This module is a numba port of
its decision logic as far as that logic reads only the present observation, with stateless stand-ins
where it remembers. It is **not** the same player as ``HeuristicAgent`` and is not registered as the
game's compiled heuristic (``agents.heuristic.batched_heuristic`` stays None for this game, so the
batched training env does not take it for that agent); ISMCTS's ``policy=heuristic`` uses it for this
game through ``agents.heuristic.playout_strategy``. It follows the compiled-strategy contract of
``agents/heuristic`` (``choose_rows(obs, masks, rules, rngs, streams, out)``; ``rules`` from
:func:`playout_rules`).

**How a team coordinates without memory or talking.** Every seat decodes the cards it sees into one
canonical seat order, the seats sorted by their character (each seat plays a different character,
and everyone sees every character), so team-mates who see the same cards compute the same plans and
lay their parts in the same moment. (The Python agent uses absolute seats, which an observation
does not carry.)

**Decisions, in order** (the first that gives a legal action is taken):

1. *Argue.* Face-up Nazis by urgency: pools under way, then the spaces (higher IQ first), the
   stack's top last. For each, the engine's exact argument search (``engine.argument_search``: the
   subset-sum over every seat's argumentations under the Nazi's colour, ban and all-against-one rules
   and "never alone") finds the team with the fewest new members; the seat lays its own part at the
   first Nazi whose team it belongs to. With team-mates' fronts unseen it starts a pool they may
   complete (the largest argumentation that leaves room for 2 or more).
2. *Clean up.* Withdraw from a pool nobody can complete any more (team-mates' hands unseen: with
   probability ``1 / PATIENCE`` a moment, the stand-in for waiting ``PATIENCE`` moments).
3. *Tell* (Blind Trust): tell a team-mate her cards.
4. *Accept* an offered card when the 1:1 swap lets the team convince more (``engine.exchange_scores``,
   the Nazis weighted by urgency).
5. *Dice* (Krapotke): free blocked 6s, reroll used dice, now and then reroll a free die.
6. *Trade.* The Bib swap (same colour or value) or 1:1 offer to a team-mate that lets the most urgent
   Nazis be convinced; an offer that stands already is waited on. Else draw the highest Bib card into
   an empty slot (never below a "10 in the Bib" goal).
7. *Expand* the Bib (own talent space first, then others' talent spaces, then the stacks).
8. *Emergency redraw* when no face-up Nazi can be convinced by anyone and no exchange helped: at once
   with 4 Nazis face up or in the finale, else with probability ``1 / STUCK_MOMENTS`` a moment (the
   stand-in for the Python agent's count of stuck moments). In chapter "the Arguments run out" only
   when the Bib holds the cards for full new hands (there the new hands come from the Bib).
9. *Blind guess* (no communication and no own front known): now and then an argument at random.
10. *Churn*: swap a random hand card with the Bib to bring new sums into reach: always where a swap
    takes one moment (2 players at the table's pace), never where it keeps the seat busy longer
    (``CHURN_QUICK``, ``CHURN_SLOW``: the Python agent churns 30% of its stuck moments; see there).
11. *Wait.*

In chapter 6 (10 Bib cards from talent spaces) Bib swaps never take a card from a talent space while
the goal is not above 10, as the Python agent's; its chapter-6 talent cycle (plans that spend a
ready talent, talent spaces shared out, combos gathered) and its combo building for the "10 in the
Bib" chapters are not ported: here those chapters get only the plain expansion rule above.
"""

import numpy as np
from numba import njit

from envs.core.rng import choice, randint, uniform
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from . import CompiledHeuristic, block_argmax

PATIENCE = 6          # moments a seat waits for unseen team-mates to complete its pool (on average)
STUCK_MOMENTS = 5     # stuck moments before the team calls the emergency redraw (on average)
# How often a stuck seat swaps a random card with the Bib, by what a swap costs. The Python agent
# churns 30% of its stuck moments at any pace; here, where a swap takes one moment (2 players at the
# table's pace), always churning won most (200 chapters at 2 players: 0.15 0.085, 0.3 0.20, 0.6 0.305,
# 0.8 0.32, 1.0 0.37): a locked hand needs new sums, and waiting brings none. Where a swap keeps the
# seat busy for several moments (3 players: 4 moments) it cannot argue when a Nazi comes it could
# convince, and churning less won more (100 chapters at 3 players: 1.0 0.15, 0.3 0.73, 0.1 0.81, 0 0.83).
CHURN_QUICK = 1.0  # a Bib swap takes one moment
CHURN_SLOW = 0.0   # it takes longer
BLIND_GUESS = 0.15    # how often a seat that knows none of its fronts tries an argument blindly
DICE_REROLL = 0.5     # how often Krapotke, with nothing to argue, rerolls a free die

_LABELS = [name for _, name in D.LABEL_NAMES]
NEVER_ALONE = _LABELS.index("never alone!")
BIB10 = _LABELS.index("10 cards in the Bib")
BIB10_TALENT = _LABELS.index("10 Bib cards from talent spaces")
RUN_OUT = _LABELS.index("the Arguments run out")

# The table as one seat sees it, in canonical seat order: per seat and hand slot (Krapotke: die)
# these planes of an int64[PLANES, seats, 4] array (int64: the engine's readings run faster on it
# than on int8) ...
COLOUR, VALUE, HALF, USABLE, PRESENT, KNOWN, RAZUPALTUFF = range(7)
PLANES = 7
# ... and per seat these rows of an int64[SEAT_ROWS, seats] array.
KIND, RELAX, BUSY, REL = range(4)
SEAT_ROWS = 4
# A face-up Nazi's row for the engine's searches: IQ, allowed colours, banned values, all against one,
# pool sum, Maria's readings, then one flag per (canonical) seat that laid there.
NAZI_FIXED = 6

HALF_OF_SEGMENTS = np.full(128, 0, np.int64)  # a half digit's seven-segment bits -> its index
for _h, _segments in enumerate(D.HALF_SEGMENTS):
    HALF_OF_SEGMENTS[int(_segments)] = _h
CARD_COLOUR, CARD_VALUE, CARD_HALF = E.CARD_COLOUR, E.CARD_VALUE, E.CARD_HALF
SUBSET_INDEX = E.SUBSET_INDEX


def playout_rules(config):
    """The int64 rules :func:`playout_rows` reads: the number of players, whether the team talks
    (``communication="full"``), and how many moments a Bib swap keeps a seat busy (what every player
    at the table knows of its pace; options not given take the env's defaults)."""
    num = config["num_players"]
    seconds = E.timed_seconds({"num_players": num, "pace": config.get("pace"),
                               "action_seconds": config.get("action_seconds")})["bib"]
    moments = 1 if config.get("timing", "table") == "step" else -(-seconds // config.get("seconds_per_step", 3))
    talking = 1 if config.get("communication", "full") == "full" else 0
    return np.array([num, talking, max(1, moments)], np.int64)


# ---- reading the observation -----------------------------------------------------------------------


@njit(cache=True)
def canonical_order(obs, num, rel_of):
    """Fill ``rel_of[c]`` with the relative seat of canonical seat ``c`` (seats sorted by character);
    return the observer's canonical index. Every seat of the table gets the same order."""
    kind = np.zeros(num, np.int64)
    for rel in range(num):
        kind[rel] = block_argmax(obs, E.O_SEATS + rel * E.F_SEAT + 1, D.NUM_CHARACTERS)
        rel_of[rel] = rel
    for a in range(1, num):  # insertion sort by character (distinct at a table)
        b = a
        while b > 0 and kind[rel_of[b - 1]] > kind[rel_of[b]]:
            rel_of[b - 1], rel_of[b] = rel_of[b], rel_of[b - 1]
            b -= 1
    for c in range(num):
        if rel_of[c] == 0:
            return c
    return 0


@njit(cache=True)
def _card_half(obs, o):
    segments = 0
    for s in range(7):
        if obs[o + 13 + s] > 0.5:
            segments |= 1 << s
    return HALF_OF_SEGMENTS[segments]


@njit(cache=True)
def read_seats(obs, num, rel_of, cards, seats):
    """Fill the card planes and seat rows (see the module constants) from the observation.

    A card is usable for plans only if its front is known to the observer and to its holder (she
    lays it knowingly) and its holder is not busy; Krapotke's dice are usable when free and not 6."""
    for c in range(num):
        rel = rel_of[c]
        seats[REL, c] = rel
        seats[KIND, c] = block_argmax(obs, E.O_SEATS + rel * E.F_SEAT + 1, D.NUM_CHARACTERS)
        seats[RELAX, c] = 1 if obs[E.O_SEATS + rel * E.F_SEAT + 9] > 0.5 else 0
        busy = obs[E.O_BUSY + rel] > 0.0
        seats[BUSY, c] = 1 if busy else 0
        if seats[KIND, c] == D.KRAPOTKE:
            for k in range(D.NUM_DICE):
                o = E.O_DICE + k * 10
                value = block_argmax(obs, o, 6) + 1
                cards[COLOUR, c, k] = k
                cards[VALUE, c, k] = value
                free = obs[o + 6] > 0.5
                cards[USABLE, c, k] = 1 if free and value != 6 and not busy else 0
            continue
        for i in range(E.HAND):
            o = E.O_HANDS + (rel * E.HAND + i) * E.F_CARD
            if obs[o] < 0.5:
                continue
            cards[PRESENT, c, i] = 1
            if obs[o + 2] > 0.5:
                cards[RAZUPALTUFF, c, i] = 1
                continue
            cards[HALF, c, i] = _card_half(obs, o)
            if obs[o + 1] > 0.5:
                cards[KNOWN, c, i] = 1
                cards[COLOUR, c, i] = block_argmax(obs, o + 3, 4)
                cards[VALUE, c, i] = block_argmax(obs, o + 7, 6) + 1
                holder_knows = obs[E.O_HOLDER_KNOWS + rel * E.HAND + i] > 0.5
                cards[USABLE, c, i] = 1 if holder_knows and not busy else 0


@njit(cache=True)
def read_nazis(obs, num, rel_of, nazis, laid, slots, weights):
    """Fill one row per face-up Nazi, most urgent first (pools under way, then the spaces by IQ, the
    stack's top last); returns how many. ``laid[j, c]``: canonical seat ``c`` laid at Nazi ``j``."""
    count = 0
    for slot in range(E.NUM_SLOTS):
        o = E.O_NAZI_SLOTS + slot * E.F_NAZI
        if obs[o] < 0.5:
            continue
        row = nazis[count]
        row[:] = 0
        row[0] = int(round(obs[o + 1] * 23))
        for colour in range(4):
            if obs[o + 7 + colour] > 0.5:
                row[1] |= 1 << colour
        for value in range(1, 7):
            if obs[o + 11 + value - 1] > 0.5:
                row[2] |= 1 << value
        row[3] = 1 if obs[o + 6] > 0.5 else 0
        row[4] = int(round(obs[o + 17] * 23))
        for value in range(24):
            if obs[o + 29 + value] > 0.5:
                row[5] |= 1 << value
        underway = False
        for c in range(num):
            flag = 1 if obs[o + 19 + rel_of[c]] > 0.5 else 0
            row[NAZI_FIXED + c] = flag
            laid[count, c] = flag
            underway = underway or flag == 1
        slots[count] = slot
        weights[count] = (4.0 if underway else 0.0) + (2.0 if slot > 0 else 0.0) + row[0] / 23.0
        count += 1
    for a in range(1, count):  # insertion sort, most urgent first
        b = a
        while b > 0 and weights[b - 1] < weights[b]:
            _swap_rows(nazis, laid, slots, weights, b - 1, b)
            b -= 1
    return count


@njit(cache=True)
def _swap_rows(nazis, laid, slots, weights, a, b):
    for k in range(nazis.shape[1]):
        nazis[a, k], nazis[b, k] = nazis[b, k], nazis[a, k]
    for k in range(laid.shape[1]):
        laid[a, k], laid[b, k] = laid[b, k], laid[a, k]
    slots[a], slots[b] = slots[b], slots[a]
    weights[a], weights[b] = weights[b], weights[a]


@njit(cache=True)
def unseen_teammates(cards, me):
    """Whether a team-mate holds an Argument whose front the observer does not see."""
    for c in range(cards.shape[1]):
        if c != me:
            for i in range(E.HAND):
                if cards[PRESENT, c, i] and not cards[KNOWN, c, i] and not cards[RAZUPALTUFF, c, i]:
                    return True
    return False


# ---- which Nazis a team can convince: bit tables of sums ------------------------------------------
#
# A playout asks this for every face-up Nazi and every candidate exchange at every moment, so it must
# be cheap: each seat's argumentations are read once a decision as bitmasks of the values they argue
# for (engine.subset_readings, the part that does not depend on the Nazi), filtered per Nazi by the
# cards it accepts, and a team is a sum over seats of those bitmasks (shift-or), by members. A
# candidate exchange rereads only the one or two seats it changes. The answer is the engine's
# argument_search's (ways > 0); that search, which also names the team, runs only where one exists.

SUM_BITS = E.SUM_BITS  # the sums the engine's team search holds: 0-31 (IQs are at most 23)


@njit(cache=True)
def seat_readings(cards, seats, c, normal, talent):
    """Every subset's readings of canonical seat ``c``'s usable cards (engine.subset_readings)."""
    usable = 0
    for i in range(E.HAND):
        if cards[USABLE, c, i]:
            usable |= 1 << i
    E.subset_readings(seats[KIND, c], cards[COLOUR, c], cards[VALUE, c], cards[HALF, c], usable, normal, talent)


@njit(cache=True)
def option_bits(cards, seats, c, normal, talent, allowed, banned):
    """The values seat ``c`` can argue for at a Nazi with these rules (bit v: value v)."""
    accepted = E.cards_accepted(cards[COLOUR, c], cards[VALUE, c], cards[USABLE, c], allowed, banned)
    bits = np.int64(0)
    for s in range(E.NUM_SUBSETS):
        subset = E.SUBSETS[s]
        if subset & accepted == subset:
            bits |= normal[s]
            if seats[RELAX, c]:
                bits |= talent[s]
    return bits


@njit(cache=True)
def _add_values(sums, values):
    """Every sum of one of ``sums`` and one of ``values`` (bitmasks), up to 31."""
    out = np.int64(0)
    for v in range(1, 32):
        if values >> v & 1:
            out |= sums << v
    return out & SUM_BITS


@njit(cache=True)
def team_hits(targets, bits, laid, everyone, min_new, reach):
    """Whether the seats not yet in the pool can add up to one of ``targets`` (bitmask of sums), each
    seat at most one argumentation (``bits[c]``: its values), all of them for an all-against-one
    Nazi, at least ``min_new`` of them. ``reach`` is int64 scratch of seats + 2 entries."""
    num = bits.shape[0]
    reach[:] = 0
    reach[0] = 1  # sum 0 with no members
    for c in range(num):
        if laid[c]:
            continue
        for m in range(num - 1, -1, -1):  # fewer members first would let a seat join twice
            joined = _add_values(reach[m], bits[c]) if reach[m] else np.int64(0)
            if everyone:
                reach[m + 1] = joined  # must join: the sums without this seat drop out
            else:
                reach[m + 1] |= joined
        if everyone:
            reach[0] = 0
    for m in range(min_new, num + 1):
        if reach[m] & targets:
            return True
    return False


@njit(cache=True)
def nazi_targets(nazis, laid, count, min_team, targets, min_new):
    """Per Nazi the sums the new contributions must hit and how many new members it needs at least."""
    for j in range(count):
        targets[j] = E._targets(nazis[j, 0], nazis[j, 4], nazis[j, 5])
        members = 0
        for c in range(laid.shape[1]):
            members += laid[j, c]
        min_new[j] = max(0, min_team - members)


@njit(cache=True)
def table_bits(nazis, count, cards, seats, normal, talent, bits):
    """``bits[j, c]``: the values seat ``c`` can argue for at Nazi ``j``."""
    for c in range(cards.shape[1]):
        seat_readings(cards, seats, c, normal[c], talent[c])
    for j in range(count):
        for c in range(cards.shape[1]):
            bits[j, c] = option_bits(cards, seats, c, normal[c], talent[c], nazis[j, 1], nazis[j, 2])


@njit(cache=True)
def convincible(j, nazis, laid, targets, min_new, bits, reach):
    return team_hits(targets[j], bits[j], laid[j], nazis[j, 3], min_new[j], reach)


@njit(cache=True)
def exchange_score(nazis, laid, weights, count, targets, min_new, bits, cards, seats, reach, row_bits,
                   normal, talent, seat_a, slot_a, card_a, seat_b, slot_b, card_b):
    """The summed urgency of the Nazis the team could convince exactly if seat ``seat_a``'s hand slot
    ``slot_a`` held the card (colour, value, half) ``card_a`` and, for a 1:1 swap (``seat_b`` >= 0),
    ``seat_b``'s slot ``slot_b`` held ``card_b``; the exchanged cards count as usable (as in
    engine.exchange_scores, which the Python agent trades with)."""
    saved = np.zeros((2, 4), np.int64)
    for side in range(2):
        seat, slot = (seat_a, slot_a) if side == 0 else (seat_b, slot_b)
        if seat < 0:
            continue
        card = card_a if side == 0 else card_b
        saved[side, 0], saved[side, 1] = cards[COLOUR, seat, slot], cards[VALUE, seat, slot]
        saved[side, 2], saved[side, 3] = cards[HALF, seat, slot], cards[USABLE, seat, slot]
        cards[COLOUR, seat, slot], cards[VALUE, seat, slot], cards[HALF, seat, slot] = card[0], card[1], card[2]
        cards[USABLE, seat, slot] = 1
        seat_readings(cards, seats, seat, normal[side], talent[side])
    total = 0.0
    for j in range(count):
        row_bits[:] = bits[j]
        for side in range(2):
            seat = seat_a if side == 0 else seat_b
            if seat >= 0:
                row_bits[seat] = option_bits(cards, seats, seat, normal[side], talent[side], nazis[j, 1], nazis[j, 2])
        if team_hits(targets[j], row_bits, laid[j], nazis[j, 3], min_new[j], reach):
            total += weights[j]
    for side in range(1, -1, -1):
        seat, slot = (seat_a, slot_a) if side == 0 else (seat_b, slot_b)
        if seat >= 0:
            cards[COLOUR, seat, slot], cards[VALUE, seat, slot] = saved[side, 0], saved[side, 1]
            cards[HALF, seat, slot], cards[USABLE, seat, slot] = saved[side, 2], saved[side, 3]
    return total


@njit(cache=True)
def baseline_score(nazis, laid, weights, count, targets, min_new, bits, reach):
    """The summed urgency of the Nazis the team can convince exactly now."""
    total = 0.0
    for j in range(count):
        if convincible(j, nazis, laid, targets, min_new, bits, reach):
            total += weights[j]
    return total


# ---- arguing -----------------------------------------------------------------------------------------


@njit(cache=True)
def search_nazi(nazis, laid, j, min_team, cards, seats, solution):
    """The engine's exact search at the j-th Nazi: the number of ways, one team with the fewest new
    members in ``solution`` (hand-slot subset per canonical seat)."""
    row = nazis[j]
    return E.argument_search(row[0], row[1], row[2], min_team, row[3], seats[KIND], seats[RELAX], cards[COLOUR],
                             cards[VALUE], cards[HALF], cards[USABLE], row[4], row[5], laid[j], solution)


@njit(cache=True)
def argue_action(nazis, laid, slots, count, min_team, targets, min_new, bits, reach, cards, seats, me, mask,
                 solution):
    """Lay my part of the team at the most urgent Nazi whose team I belong to; -1 if none."""
    for j in range(count):
        if bits[j, me] == 0 or not convincible(j, nazis, laid, targets, min_new, bits, reach):
            continue
        if search_nazi(nazis, laid, j, min_team, cards, seats, solution) == 0:
            continue
        mine = int(solution[me])
        if mine:
            action = E.A_ARGUE + int(slots[j]) * E.NUM_SUBSETS + int(SUBSET_INDEX[mine])
            if mask[action]:
                return action
    return -1


@njit(cache=True)
def start_pool_action(nazis, slots, count, cards, seats, me, mask):
    """Team-mates' hands unseen: lay the largest argumentation that leaves room (2 or more) at the
    most urgent Nazi without a pool, for the others to complete; -1 if none."""
    out = np.zeros((3, E.MAX_OPTIONS), np.int64)
    for j in range(count):
        row = nazis[j]
        if row[3]:
            continue
        underway = False
        for c in range(cards.shape[1]):
            underway = underway or row[NAZI_FIXED + c] != 0
        if underway:
            continue
        options = E.seat_options(seats[KIND, me], seats[RELAX, me], cards[COLOUR, me], cards[VALUE, me],
                                 cards[HALF, me], cards[USABLE, me], row[1], row[2], out[0], out[1], out[2])
        best = -1
        for o in range(options):
            if row[0] - row[4] - out[1, o] >= 2 and not out[2, o] and (best < 0 or out[1, o] > out[1, best]):
                best = o
        if best >= 0:
            action = E.A_ARGUE + int(slots[j]) * E.NUM_SUBSETS + int(SUBSET_INDEX[out[0, best]])
            if mask[action]:
                return action
    return -1


@njit(cache=True)
def clean_up_action(nazis, laid, slots, count, targets, min_new, bits, reach, cards, me, mask, rng):
    """Withdraw from a pool nobody can complete any more; -1 if none."""
    for j in range(count):
        action = E.A_WITHDRAW + int(slots[j])
        if not laid[j, me] or not mask[action]:
            continue
        if convincible(j, nazis, laid, targets, min_new, bits, reach):
            continue
        # unseen team-mates may still complete it: wait PATIENCE moments on average
        if not unseen_teammates(cards, me) or uniform(rng) < 1.0 / PATIENCE:
            return action
    return -1


@njit(cache=True)
def anyone_can_argue(nazis, laid, count, targets, min_new, bits, reach):
    for j in range(count):
        if convincible(j, nazis, laid, targets, min_new, bits, reach):
            return True
    return False


# ---- trading -----------------------------------------------------------------------------------------


@njit(cache=True)
def offered_to_me(obs, rel):
    """The hand slot of the card relative seat ``rel`` offers me, if I see a (non-Razupaltuff) one; -1."""
    o = E.O_OFFERED + rel * E.F_CARD
    if obs[o] < 0.5 or obs[o + 2] > 0.5:
        return -1
    return block_argmax(obs, E.O_OFFERS + rel * 8 + 4, 4)


@njit(cache=True)
def accept_action(obs, nazis, laid, weights, count, targets, min_new, bits, cards, seats, me, mask, reach,
                  row_bits, normal, talent):
    """Take an offered card for the hand slot that lets the team convince the most; -1 if none helps."""
    best, best_score = -1, baseline_score(nazis, laid, weights, count, targets, min_new, bits, reach)
    offered = np.zeros(3, np.int64)
    mine = np.zeros(3, np.int64)
    for who in range(cards.shape[1]):
        rel = int(seats[REL, who])
        slot = offered_to_me(obs, rel) if who != me else -1
        if slot < 0:
            continue
        o = E.O_OFFERED + rel * E.F_CARD
        offered[0], offered[1] = block_argmax(obs, o + 3, 4), block_argmax(obs, o + 7, 6) + 1
        offered[2] = _card_half(obs, o)
        for i in range(E.HAND):
            action = E.A_ACCEPT + (rel - 1) * E.HAND + i
            if not mask[action] or cards[RAZUPALTUFF, me, i]:
                continue
            mine[0], mine[1], mine[2] = cards[COLOUR, me, i], cards[VALUE, me, i], cards[HALF, me, i]
            score = exchange_score(nazis, laid, weights, count, targets, min_new, bits, cards, seats, reach,
                                   row_bits, normal, talent, me, i, offered, who, slot, mine)
            if score > best_score:
                best, best_score = action, score
    return best


@njit(cache=True)
def bib_card_protected(obs, card):
    """Chapter 6 while its goal is not above 10: a Bib card that came from a talent space stays."""
    if obs[E.O_LABELS + BIB10_TALENT] < 0.5 or obs[E.O_COUNTS + 4] * E.NUM_ARG > D.BIB_GOAL + 0.5:
        return False
    return obs[E.O_CARDS + card * 4 + 3] > 0.5


@njit(cache=True)
def bib_goal_short(obs):
    """A "10 in the Bib" chapter whose Bib is not above its goal (a draw from it would lose ground)."""
    return obs[E.O_LABELS + BIB10] > 0.5 and obs[E.O_COUNTS + 3] * E.NUM_ARG <= D.BIB_GOAL + 0.5


@njit(cache=True)
def offer_stands(obs, rel, i):
    """Whether my offer of hand slot ``i`` to relative seat ``rel`` is already on the table."""
    return obs[E.O_OFFERS + rel - 1] > 0.5 and obs[E.O_OFFERS + 4 + i] > 0.5


@njit(cache=True)
def bib_swap_allowed(obs, cards, me, mask, i, card):
    return (cards[PRESENT, me, i] and not cards[RAZUPALTUFF, me, i] and mask[E.A_BIB + i * E.NUM_ARG + card] != 0
            and not bib_card_protected(obs, card))


@njit(cache=True)
def offer_allowed(cards, seats, me, mask, who, i):
    return who != me and cards[USABLE, me, i] and mask[E.A_OFFER + (int(seats[REL, who]) - 1) * E.HAND + i] != 0


@njit(cache=True)
def trade_action(obs, nazis, laid, weights, count, targets, min_new, bits, cards, seats, me, mask, reach,
                 row_bits, normal, talent):
    """The Bib swap or 1:1 offer that lets the team convince the most (an offer already standing is
    waited on); else the highest Bib card drawn into an empty slot; -1 if none."""
    best, best_score = -1, baseline_score(nazis, laid, weights, count, targets, min_new, bits, reach)
    if count == 0:
        return draw_action(obs, cards, me, mask) if not bib_goal_short(obs) else -1
    new, mine, theirs = np.zeros(3, np.int64), np.zeros(3, np.int64), np.zeros(3, np.int64)
    for i in range(E.HAND):
        base = E.A_BIB + i * E.NUM_ARG
        for card in range(E.NUM_ARG):
            if bib_swap_allowed(obs, cards, me, mask, i, card):
                new[0], new[1], new[2] = CARD_COLOUR[card], CARD_VALUE[card], CARD_HALF[card]
                score = exchange_score(nazis, laid, weights, count, targets, min_new, bits, cards, seats, reach,
                                       row_bits, normal, talent, me, i, new, -1, -1, new)
                if score > best_score:
                    best, best_score = base + card, score
    for who in range(cards.shape[1]):
        rel = int(seats[REL, who])
        for i in range(E.HAND):
            action = E.A_OFFER + (rel - 1) * E.HAND + i
            if not offer_allowed(cards, seats, me, mask, who, i):
                continue
            mine[0], mine[1], mine[2] = cards[COLOUR, me, i], cards[VALUE, me, i], cards[HALF, me, i]
            for j in range(E.HAND):
                if cards[USABLE, who, j]:
                    theirs[0], theirs[1], theirs[2] = cards[COLOUR, who, j], cards[VALUE, who, j], cards[HALF, who, j]
                    score = exchange_score(nazis, laid, weights, count, targets, min_new, bits, cards, seats, reach,
                                           row_bits, normal, talent, me, i, theirs, who, j, mine)
                    if score > best_score:
                        best, best_score = action, score
    if E.A_OFFER <= best < E.A_ACCEPT:
        rel, i = divmod(best - E.A_OFFER, E.HAND)
        if offer_stands(obs, rel + 1, i):
            return E.A_WAIT  # the team-mate sees the same gain: give her the moment to accept
    if best >= 0 or bib_goal_short(obs):
        return best
    return draw_action(obs, cards, me, mask)


@njit(cache=True)
def draw_action(obs, cards, me, mask):
    """The highest legal Bib card into an empty hand slot; -1 if none."""
    for i in range(E.HAND):
        if cards[PRESENT, me, i]:
            continue
        base, best = E.A_BIB + i * E.NUM_ARG, -1
        for card in range(E.NUM_ARG):
            if mask[base + card] and not bib_card_protected(obs, card) and (
                    best < 0 or CARD_VALUE[card] > CARD_VALUE[best]):
                best = card
        if best >= 0:
            return base + best
    return -1


# ---- the rest ----------------------------------------------------------------------------------------


@njit(cache=True)
def tell_action(mask):
    """Blind Trust: tell a team-mate her cards, the next seat on first."""
    for rel in range(1, E.MAX_PLAYERS):
        if mask[E.A_TELL + rel - 1]:
            return E.A_TELL + rel - 1
    return -1


@njit(cache=True)
def dice_action(obs, seats, me, mask, rng):
    """Krapotke: free blocked 6s when two or more are blocked, reroll used dice, now and then a free one."""
    if seats[KIND, me] != D.KRAPOTKE:
        return -1
    blocked = 0
    for k in range(D.NUM_DICE):
        if obs[E.O_DICE + k * 10 + 6 + E.DIE_BLOCKED] > 0.5:
            blocked += 1
    if blocked >= 2 and mask[E.A_ROLL_ALL]:
        return E.A_ROLL_ALL
    for k in range(D.NUM_DICE):
        if obs[E.O_DICE + k * 10 + 6 + E.DIE_USED] > 0.5 and mask[E.A_ROLL + k]:
            return E.A_ROLL + k
    if uniform(rng) < DICE_REROLL:
        return _random_in(mask, E.A_ROLL, E.A_ROLL + D.NUM_DICE, rng)
    return -1


@njit(cache=True)
def _random_in(mask, low, high, rng):
    """A uniformly chosen legal action in ``[low, high)``; -1 if none."""
    count = 0
    for action in range(low, high):
        count += mask[action] != 0
    if count == 0:
        return -1
    k = randint(rng, count)
    for action in range(low, high):
        if mask[action]:
            if k == 0:
                return action
            k -= 1
    return -1


@njit(cache=True)
def expand_action(mask):
    """Expand the Bib: my own talent space first, then the others', then a stack."""
    own = E.A_EXPAND + D.RUN_OUT_STACKS
    if mask[own]:
        return own
    for action in range(own + 1, E.A_ROLL):
        if mask[action]:
            return action
    for action in range(E.A_EXPAND, own):
        if mask[action]:
            return action
    return -1


@njit(cache=True)
def redraw_refills(obs, num):
    """Whether the emergency redraw gives the team full new hands: always where they are drawn from
    the stacks; in chapter "the Arguments run out" (hand cards come from the Bib only) when the Bib
    holds every card the hands would need (4 a seat with a hand, less its Razupaltuff cards, which
    stay), as otherwise the redraw empties hands for nothing. (The Python heuristic asks it too.)"""
    if obs[E.O_LABELS + RUN_OUT] < 0.5:
        return True
    need = 0
    for rel in range(num):
        if block_argmax(obs, E.O_SEATS + rel * E.F_SEAT + 1, D.NUM_CHARACTERS) == D.KRAPOTKE:
            continue
        for i in range(E.HAND):
            if obs[E.O_HANDS + (rel * E.HAND + i) * E.F_CARD + 2] < 0.5:  # (a Razupaltuff card stays)
                need += 1
    return obs[E.O_COUNTS + 3] * E.NUM_ARG > need - 0.5


@njit(cache=True)
def emergency_action(obs, mask, num, rng):
    """Nobody can convince anyone and no exchange helped: redraw at once with 4 Nazis face up or in
    the finale (no Nazi comes any more), else with probability 1 / STUCK_MOMENTS; never when it
    would leave the hands short (:func:`redraw_refills`)."""
    if not mask[E.A_EMERGENCY] or not redraw_refills(obs, num):
        return -1
    face_up = obs[E.O_COUNTS + 2] * D.LOSE_FACE_UP
    finale = obs[E.O_CLOCK + 2] > 0.5
    if face_up >= 3.5 or finale or uniform(rng) < 1.0 / STUCK_MOMENTS:
        return E.A_EMERGENCY
    return -1


@njit(cache=True)
def blind_guess_action(cards, me, talking, mask, rng):
    """No communication and none of my fronts known: now and then an argument at random."""
    if talking or uniform(rng) >= BLIND_GUESS:
        return -1
    held = False
    for i in range(E.HAND):
        if cards[KNOWN, me, i]:
            return -1
        held = held or cards[PRESENT, me, i] != 0
    return _random_in(mask, E.A_ARGUE, E.A_WITHDRAW, rng) if held else -1


@njit(cache=True)
def churn_action(obs, cards, me, mask, swap_moments, rng):
    """Stuck: swap a random hand card with the Bib, so that new sums come into reach (always where a
    swap takes one moment, else with probability CHURN_SLOW)."""
    if uniform(rng) >= (CHURN_QUICK if swap_moments <= 1 else CHURN_SLOW):
        return -1
    count = 0
    for i in range(E.HAND):
        if cards[PRESENT, me, i] and not cards[RAZUPALTUFF, me, i]:
            for card in range(E.NUM_ARG):
                if mask[E.A_BIB + i * E.NUM_ARG + card] != 0 and not bib_card_protected(obs, card):
                    count += 1
    if count == 0:
        return -1
    k = randint(rng, count)
    for i in range(E.HAND):
        if cards[PRESENT, me, i] and not cards[RAZUPALTUFF, me, i]:
            for card in range(E.NUM_ARG):
                if mask[E.A_BIB + i * E.NUM_ARG + card] != 0 and not bib_card_protected(obs, card):
                    if k == 0:
                        return E.A_BIB + i * E.NUM_ARG + card
                    k -= 1
    return -1


# ---- the decision ------------------------------------------------------------------------------------


@njit(cache=True)
def choose(obs, mask, rules, rng):
    """One seat's action from its observation ``obs`` and legal ``mask`` (see the module doc)."""
    only = -1
    legal = 0
    for action in range(mask.shape[0]):
        if mask[action]:
            legal += 1
            only = action
    if legal <= 1:
        return only  # busy with its last action: only waiting is left
    num, talking = int(rules[0]), rules[1] != 0
    rel_of = np.zeros(num, np.int64)
    me = canonical_order(obs, num, rel_of)
    cards = np.zeros((PLANES, num, E.HAND), np.int64)
    seats = np.zeros((SEAT_ROWS, num), np.int64)
    read_seats(obs, num, rel_of, cards, seats)
    nazis = np.zeros((E.NUM_SLOTS, NAZI_FIXED + num), np.int64)
    laid = np.zeros((E.NUM_SLOTS, num), np.int8)
    slots = np.zeros(E.NUM_SLOTS, np.int64)
    weights = np.zeros(E.NUM_SLOTS, np.float64)
    count = read_nazis(obs, num, rel_of, nazis, laid, slots, weights)
    min_team = 2 if obs[E.O_LABELS + NEVER_ALONE] > 0.5 else 1
    targets = np.zeros(E.NUM_SLOTS, np.int64)
    min_new = np.zeros(E.NUM_SLOTS, np.int64)
    nazi_targets(nazis, laid, count, min_team, targets, min_new)
    normal = np.zeros((num, E.NUM_SUBSETS), np.int64)
    talent = np.zeros((num, E.NUM_SUBSETS), np.int64)
    bits = np.zeros((E.NUM_SLOTS, num), np.int64)
    table_bits(nazis, count, cards, seats, normal, talent, bits)
    reach = np.zeros(num + 2, np.int64)
    row_bits = np.zeros(num, np.int64)
    exchanged_normal = np.zeros((2, E.NUM_SUBSETS), np.int64)  # readings of the seats an exchange changes
    exchanged_talent = np.zeros((2, E.NUM_SUBSETS), np.int64)
    solution = np.zeros(num, np.int8)

    action = argue_action(nazis, laid, slots, count, min_team, targets, min_new, bits, reach, cards, seats, me,
                          mask, solution)
    if action < 0 and unseen_teammates(cards, me):
        action = start_pool_action(nazis, slots, count, cards, seats, me, mask)
    if action < 0:
        action = clean_up_action(nazis, laid, slots, count, targets, min_new, bits, reach, cards, me, mask, rng)
    if action < 0:
        action = tell_action(mask)
    if action < 0:
        action = accept_action(obs, nazis, laid, weights, count, targets, min_new, bits, cards, seats, me, mask,
                               reach, row_bits, exchanged_normal, exchanged_talent)
    if action < 0:
        action = dice_action(obs, seats, me, mask, rng)
    if action < 0:
        action = trade_action(obs, nazis, laid, weights, count, targets, min_new, bits, cards, seats, me, mask,
                              reach, row_bits, exchanged_normal, exchanged_talent)
    if action < 0:
        action = expand_action(mask)
    if action < 0 and not anyone_can_argue(nazis, laid, count, targets, min_new, bits, reach):
        action = emergency_action(obs, mask, num, rng)
    if action < 0:
        action = blind_guess_action(cards, me, talking, mask, rng)
    if action < 0:
        action = churn_action(obs, cards, me, mask, rules[2], rng)
    if action < 0 or not mask[action]:
        action = E.A_WAIT if mask[E.A_WAIT] else choice(rng, mask)
    return action


@njit(cache=True)
def playout_rows(obs, masks, rules, rngs, streams, out):
    """:func:`choose` for each row, drawing from generator ``rngs[streams[k]]`` (the compiled-strategy
    contract of agents/heuristic; ``rules`` from :func:`playout_rules`)."""
    for k in range(obs.shape[0]):
        out[k] = choose(obs[k], masks[k], rules, rngs[streams[k]])


class PlayoutAgent(CompiledHeuristic):
    """The playout player as an :class:`agents.base.Agent` (to measure it at the table, e.g. a team
    of it against a team of ``HeuristicAgent``); not the game's heuristic agent."""

    name = "voll_auf_die_18_playout"
    choose_rows = staticmethod(playout_rows)
    table_rules = staticmethod(playout_rules)
