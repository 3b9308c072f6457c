"""The rules of Werner: Volle Socke (ASS 1990) as numba functions over one game record.

A game is ``num_rounds`` rounds (10). Each round: deal 8 cards (10 with 2-3 players) and turn
one card face up; **building** (take the top of the draw pile or the face-up card, then discard
one face up; knocking is allowed between taking and discarding, after which every other seat
has exactly one more turn); **laying out** (the knocker first, then in seat order, each seat lays
out at least front wheel, engine and rear wheel or is out of the round); the **contest** (the
knocker first, in turn, each seat plays one card: a) takes a card off its own bike (face up onto
the discard pile), b) a misery card on another bike, c) a card face down on the discard pile,
d) a hand card in place of one of its bike cards of that role (the old one face up onto the
discard pile); or it passes. A hand card never goes where no card lies (option
``refill_from_hand``: d) also fills an empty slot); option ``own_bike="add"`` reads a) as laying a
hand card onto the own bike instead (an engine or a Turbo is added, a wheel fills its empty slot,
a spare part takes any role). An Air Pump pumps up the own flat tyre as a play of its own. Before
its play a seat may move each of its laid-out spare parts once into another role.
The target of a misery card answers at once with a fitting joy card or accepts; the card that
Motor her / Rad her takes is chosen by the victim (option ``her_choice="attacker"``: by the
attacker) and goes straight onto the attacker's bike). The round ends when every seat still in it
has passed in a row; each bike scores engine power x 2 per Turbo x rear gear, halved for a wooden
front wheel, 0 with a flat front tyre. A seat's best ``counted_rounds`` (8) rounds count.

Every decision the rulebook leaves open is listed, with its reason, in docs/rules/volle_socke.md.

Cards are kinds (``data.py``): hands and bikes are counts per kind; the draw pile and the discard
pile are stacks of kinds. Each discard entry carries a bitmask of the seats that know it (all
seats for a face-up card or a card that lay on a bike; only its owner for a face-down discard
from the hand), and ``known[q]`` counts the cards in q's hand that every seat knows about (taken
face up, or shown by a seat that could not lay out a bike). ``determinize`` resamples exactly the
rest.

``check_state`` accepts a record only if the 110 cards are all accounted for (draw pile, discard
pile, hands, bikes, the misery card in play and a card in transit), the discard pile agrees with
its per-kind counts, every bike has at most one front and one rear wheel and only cards that can
lie on a bike, and phase, statuses, seats, pending cards, hand sizes and scores fit together
(``STATE_PROBLEMS`` names each check).

``playout_value`` (for search agents that cut playouts short) estimates each seat's final
placement reward: each seat's total is projected to the end of the game (its round scores so far;
the current round at what its bike scores now during the contest, and before it at the best bike
its hand and bike could make, :func:`best_bike_from`, 0 for a seat out of the round; every round
still to come at the table's mean per player-round so far; all summed: the best ``counted_rounds``
of such a projection would drop the current round whenever it falls below the mean and so hide
every change to it, while it is the rounds to come that decide which rounds are dropped). Each
pair of seats is then compared by a logistic of the difference of their projected totals, whose
scale grows with the square root of the rounds still open (``ROUND_SPREAD``, measured in heuristic
play), and a seat's value is 1 - 2 x (expected seats ahead) / (players - 1): +1 for a sure first,
-1 for a sure last, like the final rewards. So a lead counts for little early and for nearly
everything late, and any change of a hand or a bike moves the value a little (a rank alone would
not move for a change that passes nobody). With ``round_rewards`` it adds the current round's
placement by bike values (divided by ``num_rounds``) during the contest.
"""

import numpy as np
from numba import njit

from envs.core import Layout, config_dtype, register_engine, state_dtype
from envs.core.rng import seed_rng, shuffle

from .data import (
    BIKE_KINDS, BULL, COUNTS, DECK_SIZE, ENGINE_10, ENGINE_100, FIXED_ROLE, FLAT_FRONT, FRONT, FUCK_TUV,
    GEAR, LACH, MISERY_KINDS, MOTOR_HER, NAIL, NUM_BIKE_KINDS, NUM_KINDS, NUM_MISERY, NUM_SPARES, POWER,
    PUMP, RAD_HER, REAR_1, REGULAR_BIKE_KINDS, ROLE_ENGINE, ROLE_FRONT, ROLE_PUMP, ROLE_REAR, ROLE_TURBO,
    SPARE_0, SPARE_GEAR, SPARE_ROLES, TUV, TURBO, WOODEN_FRONT,
)

MAX_PLAYERS = 8
MAX_ROUNDS = 10
MAX_HAND = 11            # 10 dealt (2-3 players) + the card just taken
MAX_ON_BIKE_OF_KIND = 12  # no kind that can lie on a bike has more than 12 cards
#: An upper bound of a bike's value: every engine in the deck, two Turbos, 4th gear.
MAX_VALUE = sum(int(POWER[kind]) * int(COUNTS[kind]) for kind in range(NUM_KINDS)) * 4 * 4
ALL_SEATS = np.uint8(255)  # the discard bitmask of a card every seat knows

# ---- phases and seat status ------------------------------------------------------------------

PH_DRAW, PH_DISCARD, PH_LAYOUT, PH_TURN, PH_MISERY_SLOT, PH_REACT, PH_PLACE, PH_ENGINE_SLOT, PH_OVER = range(9)
NUM_PHASES = 9
PHASE_NAMES = ("draw", "discard", "lay out", "contest turn", "choose the card a misery card takes", "react",
               "place received card", "choose engine to replace", "game over")
BUILDING, IN_CONTEST, OUT = 0, 1, 2

# ---- actions: one flat Discrete space --------------------------------------------------------

(DRAW_PILE, DRAW_FACE_UP, KNOCK, FINISH_LAYOUT, PASS, ACCEPT, REACT_LACH, REACT_FUCK_TUV, REACT_PUMP,
 ADD_ENGINE) = range(10)
DISCARD_BASE = 10                                  # + kind: discard a hand card (face up / face down)
#: "Fit" a hand card onto the own bike in a role: lay it out, replace with it, or place a received card.
FIT_KIND = np.array([ENGINE_10, ENGINE_10 + 1, ENGINE_10 + 2, ENGINE_100, FRONT, FLAT_FRONT, WOODEN_FRONT,
                     REAR_1, REAR_1 + 1, REAR_1 + 2, REAR_1 + 3, TURBO, PUMP]
                    + [SPARE_0 + s for s in range(NUM_SPARES) for _ in range(SPARE_ROLES)], np.int8)
FIT_ROLE = np.array([ROLE_ENGINE] * 4 + [ROLE_FRONT] * 3 + [ROLE_REAR] * 4 + [ROLE_TURBO, ROLE_PUMP]
                    + [r for _ in range(NUM_SPARES) for r in range(SPARE_ROLES)], np.int8)
NUM_FITS = len(FIT_KIND)                          # 31
FIT_SPARE_BASE = 13                               # fit index of spare s in role r: 13 + 3 s + r
FIT_BASE = DISCARD_BASE + NUM_KINDS               # 36
MOVE_BASE = FIT_BASE + NUM_FITS                   # 67: + 3 s + r: move own spare part s into role r
REMOVE_BASE = MOVE_BASE + NUM_SPARES * SPARE_ROLES  # 85: + bike index: remove an own bike card
SLOT_BASE = REMOVE_BASE + NUM_BIKE_KINDS          # 103: + bike index: the card a misery / replacement aims at
MISERY_BASE = SLOT_BASE + NUM_BIKE_KINDS          # 121: + 7 m + (k - 1): misery m on the seat k places on
NUM_ACTIONS = MISERY_BASE + NUM_MISERY * (MAX_PLAYERS - 1)  # 156

#: Position of a kind in BIKE_KINDS (-1: the kind never lies on a bike).
BIKE_INDEX = np.full(NUM_KINDS, -1, np.int8)
BIKE_INDEX[BIKE_KINDS] = np.arange(NUM_BIKE_KINDS)
MISERY_INDEX = np.full(NUM_KINDS, -1, np.int8)
MISERY_INDEX[MISERY_KINDS] = np.arange(NUM_MISERY)

# ---- the record --------------------------------------------------------------------------------

STATE = state_dtype([
    ("deck", np.int8, (DECK_SIZE,)),             # draw pile, top = deck[deck_size - 1]
    ("deck_size", np.int16),
    ("discard", np.int8, (DECK_SIZE,)),          # discard pile, top = discard[discard_size - 1]
    ("discard_seen", np.uint8, (DECK_SIZE,)),    # bit q: seat q knows that discard card
    ("discard_size", np.int16),
    ("discard_top_down", np.int8),               # the top card lies face down though every seat knows it (TÜV, Bull)
    ("discard_public", np.int8, (NUM_KINDS,)),   # discard cards every seat knows, by kind
    ("discard_private", np.int8, (MAX_PLAYERS, NUM_KINDS)),  # each seat's own face-down discards
    ("hand", np.int8, (MAX_PLAYERS, NUM_KINDS)),
    ("known", np.int8, (MAX_PLAYERS, NUM_KINDS)),  # cards of each hand every seat knows about
    ("bike", np.int8, (MAX_PLAYERS, NUM_KINDS)),
    ("spare_role", np.int8, (NUM_SPARES,)),      # role of each spare part lying on a bike
    ("flat_tyre", np.int8, (MAX_PLAYERS,)),      # the bike's front tyre is flat
    ("status", np.int8, (MAX_PLAYERS,)),         # BUILDING, IN_CONTEST, OUT
    ("final_owed", np.int8, (MAX_PLAYERS,)),     # still gets its turn after the knock
    ("phase", np.int8),
    ("turn_seat", np.int8),                      # whose turn it is (the attacker while a misery resolves)
    ("knocker", np.int8),
    ("starter", np.int8),
    ("round_index", np.int8),
    ("pass_streak", np.int8),
    ("pending_misery", np.int8),                 # misery card in play (kind) or -1
    ("pending_target", np.int8),
    ("pending_slot", np.int8),                   # kind of the bike card it aims at
    ("pending_card", np.int8),                   # card in transit: received spare / engine being fitted
    ("moved", np.int8),                          # bit s: spare part s has moved in this turn
    ("round_scores", np.int32, (MAX_PLAYERS, MAX_ROUNDS)),
    ("totals", np.int32, (MAX_PLAYERS,)),        # best counted_rounds of the rounds so far
    ("num_rounds", np.int8),
    ("counted_rounds", np.int8),
    ("flat_half", np.int8),
    ("own_bike_add", np.int8),                   # a) adds a hand card (1) or removes a bike card (0)
    ("refill", np.int8),                         # own_bike="remove": d) also fills an empty slot from the hand
    ("victim_picks", np.int8),                   # the victim picks the card Motor her / Rad her takes
    ("round_rewards", np.int8),
], MAX_PLAYERS)

CONFIG = config_dtype([
    ("num_rounds", np.int8),
    ("counted_rounds", np.int8),
    ("flat_half", np.int8),
    ("own_bike_add", np.int8),
    ("refill", np.int8),
    ("victim_picks", np.int8),
    ("round_rewards", np.int8),
])

# ---- the observation ---------------------------------------------------------------------------

P8 = MAX_PLAYERS
LAYOUT = Layout(
    ("hand", NUM_KINDS, 0, MAX_HAND, "own hand: cards of each kind"),
    ("hand_sizes", P8, 0, MAX_HAND, "cards in each hand; seats relative: 0 = you, 1 = next seat, ..."),
    ("known_hands", (P8, NUM_KINDS), 0, MAX_HAND,
     "cards every seat knows to be in each hand (taken face up, or shown when out of the round)"),
    ("bikes", (P8, len(REGULAR_BIKE_KINDS)), 0, MAX_ON_BIKE_OF_KIND,
     "regular cards on each bike: Turbo, engines 10/20/50/100, front normal/flat/wooden, rear gears 1-4"),
    ("bike_spares", (P8, NUM_SPARES, SPARE_ROLES), 0, 1, "spare parts on each bike, one-hot role front/rear/engine"),
    ("spares_moved", NUM_SPARES, 0, 1, "spare parts moved in this turn (each moves at most once a turn)"),
    ("flat_tyre", P8, 0, 1, "the bike's front tyre is flat"),
    ("bike_value", P8, 0, MAX_VALUE, "what each bike would score now (HP)"),
    ("status", (P8, 3), 0, 1, "one-hot: building / in the contest / out of this round"),
    ("final_turn_owed", P8, 0, 1, "still gets its last building turn after the knock"),
    ("round_scores", (P8, MAX_ROUNDS), 0, MAX_VALUE, "HP scored in each finished round"),
    ("totals", P8, 0, MAX_VALUE * MAX_ROUNDS, "sum of the best counted rounds so far"),
    ("discard_top", NUM_KINDS, 0, 1, "the face-up card on the discard pile (one-hot; none if face down)"),
    ("discard_known", NUM_KINDS, 0, 16, "discard-pile cards you know, by kind"),
    ("discard_unknown", 1, 0, DECK_SIZE, "discard-pile cards you do not know (others' face-down discards)"),
    ("draw_pile", 1, 0, DECK_SIZE, "cards left in the draw pile"),
    ("round", MAX_ROUNDS, 0, 1, "one-hot round number"),
    ("phase", NUM_PHASES, 0, 1, "one-hot: " + ", ".join(PHASE_NAMES)),
    ("to_act", P8, 0, 1, "seat to act (relative, one-hot)"),
    ("turn_of", P8, 0, 1, "seat whose turn it is (differs from to_act while a target reacts)"),
    ("starter", P8, 0, 1, "seat that started this round"),
    ("knocker", P8, 0, 1, "seat that knocked (none before the knock)"),
    ("pass_streak", 1, 0, MAX_PLAYERS, "passes in a row in the contest"),
    ("pending_misery", NUM_MISERY, 0, 1, "misery card in play: Motor her, Rad her, TÜV, Bull, Nail"),
    ("pending_target", P8, 0, 1, "its target seat"),
    ("pending_slot", NUM_BIKE_KINDS, 0, 1, "the target's bike card it aims at (Turbo, spare parts, engines, wheels)"),
    ("pending_card", NUM_KINDS, 0, 1, "card in transit: a received spare part to place, or an engine being fitted"),
    ("seat", P8, 0, 1, "your own seat (absolute, one-hot)"),
)
O = {name: LAYOUT.offset(name) for name in LAYOUT.names}
O_HAND, O_HAND_SIZES, O_KNOWN, O_BIKES, O_SPARES, O_MOVED = (
    O[n] for n in ("hand", "hand_sizes", "known_hands", "bikes", "bike_spares", "spares_moved"))
O_FLAT, O_VALUE, O_STATUS, O_OWED, O_ROUND_SCORES, O_TOTALS = (
    O[n] for n in ("flat_tyre", "bike_value", "status", "final_turn_owed", "round_scores", "totals"))
O_TOP, O_DKNOWN, O_DUNKNOWN, O_DRAW, O_ROUND, O_PHASE = (
    O[n] for n in ("discard_top", "discard_known", "discard_unknown", "draw_pile", "round", "phase"))
O_TO_ACT, O_TURN_OF, O_STARTER, O_KNOCKER, O_STREAK = (
    O[n] for n in ("to_act", "turn_of", "starter", "knocker", "pass_streak"))
O_PMISERY, O_PTARGET, O_PSLOT, O_PCARD, O_SEAT = (
    O[n] for n in ("pending_misery", "pending_target", "pending_slot", "pending_card", "seat"))
NUM_REGULAR_BIKE = len(REGULAR_BIKE_KINDS)


def make_config(config):
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["num_rounds"] = config["num_rounds"]
    record["counted_rounds"] = counted_rounds(config)
    record["flat_half"] = config["flat_front"] == "half"
    record["own_bike_add"] = config["own_bike"] == "add"
    record["refill"] = config["refill_from_hand"]
    record["victim_picks"] = config["her_choice"] == "victim"
    record["round_rewards"] = config["round_rewards"]
    return record


def counted_rounds(config):
    """How many of a seat's best rounds count: the option, or 8 (all rounds if there are fewer)."""
    counted = config["counted_rounds"]
    return min(8, config["num_rounds"]) if counted is None else counted


def check_config(config):
    if config["counted_rounds"] is not None and config["counted_rounds"] > config["num_rounds"]:
        raise ValueError(f"counted_rounds={config['counted_rounds']} is not valid: it must be at most "
                         f"num_rounds={config['num_rounds']}")


# ---- scoring (the rulebook's formula) ----------------------------------------------------------


@njit(cache=True)
def bike_score(power, turbos, gear, wooden, flat, flat_half):
    """HP of a complete bike: engine power x 2 per Turbo x rear gear, halved by a wooden front wheel;
    a flat front tyre scores 0 (or halves, with ``flat_half``)."""
    value = int(power) * (1 << int(turbos)) * int(gear)
    if wooden:
        value //= 2
    if flat:
        value = value // 2 if flat_half else 0
    return value


@njit(cache=True)
def role_of(state, kind):
    """The role a bike card plays: its fixed role, or the role chosen for a spare part."""
    if kind >= SPARE_0 and kind < SPARE_0 + NUM_SPARES:
        return state.spare_role[kind - SPARE_0]
    return FIXED_ROLE[kind]


@njit(cache=True)
def wheel_of(state, seat, role):
    """The kind of the card in ``seat``'s front (or rear) wheel slot, or -1 if it is empty."""
    bike = state.bike[seat]
    if role == ROLE_FRONT:
        for kind in range(FRONT, WOODEN_FRONT + 1):
            if bike[kind] > 0:
                return kind
    else:
        for kind in range(REAR_1, REAR_1 + 4):
            if bike[kind] > 0:
                return kind
    for s in range(NUM_SPARES):
        if bike[SPARE_0 + s] > 0 and state.spare_role[s] == role:
            return SPARE_0 + s
    return -1


@njit(cache=True)
def engine_power(state, seat):
    """Summed power of the engines (and spare parts used as engines) on ``seat``'s bike."""
    bike = state.bike[seat]
    power = 0
    for kind in range(ENGINE_10, ENGINE_100 + 1):
        power += POWER[kind] * bike[kind]
    for s in range(NUM_SPARES):
        if bike[SPARE_0 + s] > 0 and state.spare_role[s] == ROLE_ENGINE:
            power += POWER[SPARE_0 + s]
    return power


@njit(cache=True)
def bike_value(state, seat):
    """What ``seat``'s bike scores now; 0 unless it has a front wheel, a rear wheel and an engine."""
    front = wheel_of(state, seat, ROLE_FRONT)
    rear = wheel_of(state, seat, ROLE_REAR)
    power = engine_power(state, seat)
    if front < 0 or rear < 0 or power == 0:
        return 0
    gear = SPARE_GEAR if rear >= SPARE_0 and rear < SPARE_0 + NUM_SPARES else GEAR[rear]
    return bike_score(power, state.bike[seat, TURBO], gear, front == WOODEN_FRONT, state.flat_tyre[seat],
                      state.flat_half)


@njit(cache=True)
def best_rounds_total(scores, played, counted):
    """Sum of the ``counted`` best of the first ``played`` round scores."""
    best = np.sort(scores[:played])
    total = 0
    for i in range(max(0, played - counted), played):
        total += best[i]
    return total


# ---- moving cards --------------------------------------------------------------------------------


@njit(cache=True)
def _push_discard(state, kind, seen):
    """Put a card on the discard pile; ``seen``: ALL_SEATS, or the bit of the seat discarding it face down."""
    state.discard[state.discard_size] = kind
    state.discard_seen[state.discard_size] = seen
    state.discard_size += 1
    state.discard_top_down = 0
    if seen == ALL_SEATS:
        state.discard_public[kind] += 1
    else:
        state.discard_private[_lowest_bit(seen), kind] += 1


@njit(cache=True)
def discard_top_face_up(state):
    """The discard pile's top card lies face up: every seat knows it, and it was not put there face
    down (TÜV and Bull turn the challenged card down, though the whole table saw it on the bike)."""
    top = state.discard_size - 1
    return top >= 0 and state.discard_seen[top] == ALL_SEATS and not state.discard_top_down


@njit(cache=True)
def _lowest_bit(mask):
    seat = 0
    while not (mask >> seat) & 1:
        seat += 1
    return seat


@njit(cache=True)
def _play_public(state, seat, kind):
    """``seat`` plays a hand card everybody sees: whatever was known of its hand, one fewer of it."""
    state.hand[seat, kind] -= 1
    if state.known[seat, kind] > 0:
        state.known[seat, kind] -= 1


@njit(cache=True)
def _discard_face_down(state, seat, kind):
    # The others do not see which card went, so each card they knew of may be the one gone.
    state.hand[seat, kind] -= 1
    for k in range(NUM_KINDS):
        if state.known[seat, k] > 0:
            state.known[seat, k] -= 1
    _push_discard(state, kind, np.uint8(1 << int(seat)))


@njit(cache=True)
def _take_off(state, seat, kind):
    """Take a card off ``seat``'s bike (the caller says where it goes)."""
    if role_of(state, kind) == ROLE_FRONT:
        state.flat_tyre[seat] = 0
    if kind >= SPARE_0 and kind < SPARE_0 + NUM_SPARES:
        state.spare_role[kind - SPARE_0] = 0
    state.bike[seat, kind] -= 1


@njit(cache=True)
def _mount(state, seat, kind, role, flat):
    """Put a card on ``seat``'s bike in ``role``; a wheel already in that slot goes to the discard pile."""
    if role == ROLE_FRONT or role == ROLE_REAR:
        old = wheel_of(state, seat, role)
        if old >= 0:
            _take_off(state, seat, old)
            _push_discard(state, old, ALL_SEATS)
    state.bike[seat, kind] += 1
    if kind >= SPARE_0 and kind < SPARE_0 + NUM_SPARES:
        state.spare_role[kind - SPARE_0] = role
    if role == ROLE_FRONT:
        state.flat_tyre[seat] = flat


@njit(cache=True)
def _fit_from_hand(state, seat, kind, role):
    """Lay a hand card onto the own bike (lay-out, a replacement, or an addition)."""
    _play_public(state, seat, kind)
    if role == ROLE_PUMP:
        state.flat_tyre[seat] = 0
        _push_discard(state, PUMP, ALL_SEATS)
    else:
        _mount(state, seat, kind, role, 1 if kind == FLAT_FRONT else 0)


# ---- rules queries ------------------------------------------------------------------------------


@njit(cache=True)
def _engines_on(state, seat):
    count = 0
    for kind in range(ENGINE_10, ENGINE_100 + 1):
        count += state.bike[seat, kind]
    for s in range(NUM_SPARES):
        if state.bike[seat, SPARE_0 + s] > 0 and state.spare_role[s] == ROLE_ENGINE:
            count += 1
    return count


@njit(cache=True)
def _can_complete(state, seat, kind, role):
    """Whether ``seat``'s bike can still get a front wheel, a rear wheel and an engine from its hand
    after laying ``kind`` in ``role`` (kind -1: lay nothing)."""
    hand = state.hand[seat]
    fronts = hand[FRONT] + hand[FLAT_FRONT] + hand[WOODEN_FRONT]
    rears = hand[REAR_1] + hand[REAR_1 + 1] + hand[REAR_1 + 2] + hand[REAR_1 + 3]
    engines = hand[ENGINE_10] + hand[ENGINE_10 + 1] + hand[ENGINE_10 + 2] + hand[ENGINE_100]
    spares = 0
    for s in range(NUM_SPARES):
        spares += hand[SPARE_0 + s]
    if kind >= 0:
        if kind >= SPARE_0 and kind < SPARE_0 + NUM_SPARES:
            spares -= 1
        elif FIXED_ROLE[kind] == ROLE_FRONT:
            fronts -= 1
        elif FIXED_ROLE[kind] == ROLE_REAR:
            rears -= 1
        elif FIXED_ROLE[kind] == ROLE_ENGINE:
            engines -= 1
    missing = 0
    if wheel_of(state, seat, ROLE_FRONT) < 0 and role != ROLE_FRONT and fronts == 0:
        missing += 1
    if wheel_of(state, seat, ROLE_REAR) < 0 and role != ROLE_REAR and rears == 0:
        missing += 1
    if _engines_on(state, seat) == 0 and role != ROLE_ENGINE and engines == 0:
        missing += 1
    return missing <= spares


@njit(cache=True)
def is_complete(state, seat):
    """Front wheel, rear wheel and at least one engine."""
    return (wheel_of(state, seat, ROLE_FRONT) >= 0 and wheel_of(state, seat, ROLE_REAR) >= 0
            and _engines_on(state, seat) > 0)


@njit(cache=True)
def _misery_fits(state, misery, target, kind):
    """Whether ``misery`` may aim at the ``kind`` card on ``target``'s bike."""
    if state.bike[target, kind] <= 0:
        return False
    role = role_of(state, kind)
    if misery == MOTOR_HER:
        return role == ROLE_ENGINE
    if misery == RAD_HER:
        return role == ROLE_FRONT or role == ROLE_REAR
    if misery == NAIL:  # a wooden wheel has no tyre; a flat one cannot go flatter
        return role == ROLE_FRONT and kind != WOODEN_FRONT and state.flat_tyre[target] == 0
    return True  # TÜV and Bull challenge any card


@njit(cache=True)
def _has_misery_target(state, misery, target):
    for b in range(NUM_BIKE_KINDS):
        if _misery_fits(state, misery, target, BIKE_KINDS[b]):
            return True
    return False


@njit(cache=True)
def _count_in_contest(state):
    count = 0
    for q in range(state.num_players):
        if state.status[q] == IN_CONTEST:
            count += 1
    return count


# ---- legal actions ------------------------------------------------------------------------------


@njit(cache=True)
def legal_mask(state, seat, mask):
    if state.terminal or seat != state.current_player:
        return
    phase = state.phase
    if phase == PH_DRAW:
        if state.deck_size > 0:
            mask[DRAW_PILE] = 1
        if discard_top_face_up(state):
            mask[DRAW_FACE_UP] = 1
    elif phase == PH_DISCARD:
        if state.knocker < 0:
            mask[KNOCK] = 1
            if state.deck_size == 0:
                return  # the draw pile is used up: whoever took its last card must knock first
        for kind in range(NUM_KINDS):
            if state.hand[seat, kind] > 0:
                mask[DISCARD_BASE + kind] = 1
    elif phase == PH_LAYOUT:
        _layout_mask(state, seat, mask)
    elif phase == PH_TURN:
        _turn_mask(state, seat, mask)
    elif phase == PH_MISERY_SLOT:  # the attacker aims, or the victim picks what it hands over
        for b in range(NUM_BIKE_KINDS):
            if _misery_fits(state, state.pending_misery, state.pending_target, BIKE_KINDS[b]):
                mask[SLOT_BASE + b] = 1
    elif phase == PH_REACT:
        mask[ACCEPT] = 1
        if state.hand[seat, LACH] > 0:
            mask[REACT_LACH] = 1
        if state.pending_misery == TUV and state.hand[seat, FUCK_TUV] > 0:
            mask[REACT_FUCK_TUV] = 1
        if state.pending_misery == NAIL and state.hand[seat, PUMP] > 0:
            mask[REACT_PUMP] = 1
    elif phase == PH_PLACE:
        spare = int(state.pending_card) - SPARE_0
        for role in range(SPARE_ROLES):
            mask[FIT_BASE + FIT_SPARE_BASE + 3 * spare + role] = 1
    elif phase == PH_ENGINE_SLOT:  # d) the engine the new one replaces, or a): it joins them
        for b in range(NUM_BIKE_KINDS):
            kind = BIKE_KINDS[b]
            if state.bike[seat, kind] > 0 and role_of(state, kind) == ROLE_ENGINE:
                mask[SLOT_BASE + b] = 1
        if state.own_bike_add:
            mask[ADD_ENGINE] = 1


@njit(cache=True)
def _layout_mask(state, seat, mask):
    # Lay out any card that still leaves a complete bike possible; finish once it is complete.
    for f in range(NUM_FITS):
        kind, role = FIT_KIND[f], FIT_ROLE[f]
        if state.hand[seat, kind] == 0:
            continue
        if (role == ROLE_FRONT or role == ROLE_REAR) and wheel_of(state, seat, role) >= 0:
            continue
        if role == ROLE_PUMP and state.flat_tyre[seat] == 0:
            continue
        if _can_complete(state, seat, kind, role):
            mask[FIT_BASE + f] = 1
    if is_complete(state, seat):
        mask[FINISH_LAYOUT] = 1


@njit(cache=True)
def _turn_mask(state, seat, mask):
    mask[PASS] = 1
    hand = state.hand[seat]
    for kind in range(NUM_KINDS):               # c) a hand card face down on the discard pile
        if hand[kind] > 0:
            mask[DISCARD_BASE + kind] = 1
    # d) a hand card in place of a bike card of its role; with own_bike="add", a) a hand card onto
    # the own bike (a wheel into its empty slot, an engine beside the others, a Turbo); with
    # own_bike="remove" a hand card never goes where no card lies (refill_from_hand: a wheel into
    # its empty slot, an engine when none is left).
    fills = state.own_bike_add != 0 or state.refill != 0
    has_engine = _engines_on(state, seat) > 0
    has_front = wheel_of(state, seat, ROLE_FRONT) >= 0
    has_rear = wheel_of(state, seat, ROLE_REAR) >= 0
    for f in range(NUM_FITS):
        kind, role = FIT_KIND[f], FIT_ROLE[f]
        if hand[kind] == 0:
            continue
        if role == ROLE_TURBO:
            ok = state.own_bike_add != 0        # a Turbo is only ever added (a)
        elif role == ROLE_PUMP:
            ok = state.flat_tyre[seat] != 0     # the Air Pump's own use
        elif fills:
            ok = True  # a wheel fills its slot or takes it over; an engine joins the engines or replaces one
        elif role == ROLE_ENGINE:
            ok = has_engine                     # d) in place of an engine (which one: PH_ENGINE_SLOT)
        elif role == ROLE_FRONT:
            ok = has_front                      # d) in place of the front wheel
        else:
            ok = has_rear                       # d) in place of the rear wheel
        if ok:
            mask[FIT_BASE + f] = 1
    if not state.own_bike_add:                  # a) read literally: a card off the own bike
        for b in range(NUM_BIKE_KINDS):
            if state.bike[seat, BIKE_KINDS[b]] > 0:
                mask[REMOVE_BASE + b] = 1
    for s in range(NUM_SPARES):
        if _may_move(state, seat, s):
            for role in range(SPARE_ROLES):
                if role != state.spare_role[s]:
                    mask[MOVE_BASE + 3 * s + role] = 1
    n = state.num_players
    for m in range(NUM_MISERY):                 # b) a misery card on another bike
        misery = MISERY_KINDS[m]
        if hand[misery] == 0:
            continue
        for k in range(1, n):
            target = (seat + k) % n
            if state.status[target] == IN_CONTEST and _has_misery_target(state, misery, target):
                mask[MISERY_BASE + (MAX_PLAYERS - 1) * m + k - 1] = 1


@njit(cache=True)
def _may_move(state, seat, s):
    """Whether ``seat`` may move its laid-out spare part ``s`` now: once a turn, and not with a flat
    tyre (it would come back whole as a front wheel: a repair the rulebook gives only the Air Pump)."""
    if state.bike[seat, SPARE_0 + s] == 0 or (int(state.moved) >> s) & 1:
        return False
    return not (state.spare_role[s] == ROLE_FRONT and state.flat_tyre[seat])


# ---- one decision --------------------------------------------------------------------------------


@njit(cache=True)
def step(state, action):
    state.reward[:] = 0.0
    phase = state.phase
    if phase == PH_DRAW or phase == PH_DISCARD:
        _building_step(state, action)
    elif phase == PH_LAYOUT:
        _layout_step(state, action)
    elif phase == PH_TURN:
        _turn_step(state, action)
    elif phase == PH_MISERY_SLOT:
        state.pending_slot = BIKE_KINDS[action - SLOT_BASE]
        if state.current_player == state.pending_target:  # the victim picked the card it hands over
            _resolve_misery(state)
        else:                                              # the attacker aimed: the target may react
            state.phase = PH_REACT
            state.current_player = state.pending_target
    elif phase == PH_REACT:
        _react_step(state, action)
    elif phase == PH_PLACE:
        f = action - FIT_BASE
        _mount(state, state.turn_seat, FIT_KIND[f], FIT_ROLE[f], 0)
        _next_turn(state)
    elif phase == PH_ENGINE_SLOT:
        seat = state.turn_seat
        if action != ADD_ENGINE:                           # d) the chosen engine goes
            old = BIKE_KINDS[action - SLOT_BASE]
            _take_off(state, seat, old)
            _push_discard(state, old, ALL_SEATS)
        _mount(state, seat, state.pending_card, ROLE_ENGINE, 0)
        _next_turn(state)


@njit(cache=True)
def _building_step(state, action):
    seat = state.current_player
    if state.phase == PH_DRAW:
        if action == DRAW_PILE:
            state.deck_size -= 1
            state.hand[seat, state.deck[state.deck_size]] += 1
        else:
            state.discard_size -= 1
            kind = state.discard[state.discard_size]
            state.discard_public[kind] -= 1
            state.hand[seat, kind] += 1
            state.known[seat, kind] += 1
        state.phase = PH_DISCARD
    elif action == KNOCK:
        state.knocker = seat
        for q in range(state.num_players):
            state.final_owed[q] = 1 if q != seat else 0
    else:
        kind = action - DISCARD_BASE
        _play_public(state, seat, kind)
        _push_discard(state, kind, ALL_SEATS)
        _next_builder(state, seat)


@njit(cache=True)
def _next_builder(state, seat):
    n = state.num_players
    state.phase = PH_DRAW
    if state.knocker < 0:
        state.current_player = (seat + 1) % n
        state.turn_seat = state.current_player
        return
    state.final_owed[seat] = 0
    for i in range(1, n):
        q = (seat + i) % n
        if state.final_owed[q]:
            state.current_player = q
            state.turn_seat = q
            return
    _lay_out_from(state, 0)


@njit(cache=True)
def _lay_out_from(state, first):
    """Let the seats lay out in turn from the ``first``-th after the knocker (0: the knocker)."""
    state.phase = PH_LAYOUT
    n = state.num_players
    for i in range(first, n):
        q = (state.knocker + i) % n
        if _can_complete(state, q, -1, -1):
            state.turn_seat = q
            state.current_player = q
            return
        state.status[q] = OUT
        for kind in range(NUM_KINDS):  # a seat that cannot lay out shows its hand to prove it
            state.known[q, kind] = state.hand[q, kind]
    _start_contest(state)


@njit(cache=True)
def _layout_step(state, action):
    seat = state.current_player
    if action == FINISH_LAYOUT:
        state.status[seat] = IN_CONTEST
        _lay_out_from(state, (seat - state.knocker) % state.num_players + 1)
    else:
        f = action - FIT_BASE
        _fit_from_hand(state, seat, FIT_KIND[f], FIT_ROLE[f])


@njit(cache=True)
def _start_contest(state):
    state.phase = PH_TURN
    state.pass_streak = 0
    n = state.num_players
    for i in range(n):
        q = (state.knocker + i) % n
        if state.status[q] == IN_CONTEST:
            state.turn_seat = q
            state.current_player = q
            return
    _end_round(state)  # nobody could lay out a bike


@njit(cache=True)
def _next_turn(state):
    """The turn passes to the next seat still in the contest; nothing is pending any more."""
    state.pending_misery = -1
    state.pending_target = -1
    state.pending_slot = -1
    state.pending_card = -1
    state.moved = 0
    state.phase = PH_TURN
    n = state.num_players
    for i in range(1, n + 1):
        q = (state.turn_seat + i) % n
        if state.status[q] == IN_CONTEST:
            state.turn_seat = q
            state.current_player = q
            return


@njit(cache=True)
def _turn_step(state, action):
    seat = state.current_player
    if action >= MOVE_BASE and action < REMOVE_BASE:
        # Moving a spare part is no card play: the turn goes on, and the pass count stands.
        s, role = (action - MOVE_BASE) // 3, (action - MOVE_BASE) % 3
        _move_spare(state, seat, s, role)
        state.moved |= 1 << s
        return
    state.moved = 0
    if action == PASS:
        state.pass_streak += 1
        if state.pass_streak >= _count_in_contest(state):
            _end_round(state)
        else:
            _next_turn(state)
        return
    state.pass_streak = 0
    if action < FIT_BASE:                       # c) discard a hand card face down
        _discard_face_down(state, seat, action - DISCARD_BASE)
    elif action < MOVE_BASE:                    # a) / d) a hand card onto the own bike
        f = action - FIT_BASE
        kind, role = FIT_KIND[f], FIT_ROLE[f]
        if role == ROLE_ENGINE and _engines_on(state, seat) > 0:
            _play_public(state, seat, kind)
            state.pending_card = kind
            state.phase = PH_ENGINE_SLOT        # which engine goes, or (a) none
            return
        _fit_from_hand(state, seat, kind, role)
    elif action < SLOT_BASE:                    # a) read literally: remove an own bike card
        kind = BIKE_KINDS[action - REMOVE_BASE]
        _take_off(state, seat, kind)
        _push_discard(state, kind, ALL_SEATS)
    else:                                       # b) a misery card on another bike
        m, k = (action - MISERY_BASE) // (MAX_PLAYERS - 1), (action - MISERY_BASE) % (MAX_PLAYERS - 1) + 1
        misery = MISERY_KINDS[m]
        _play_public(state, seat, misery)
        state.pending_misery = misery
        state.pending_target = (seat + k) % state.num_players
        if misery == NAIL:                      # the front tyre is its only possible target
            state.pending_slot = wheel_of(state, state.pending_target, ROLE_FRONT)
            state.phase = PH_REACT
            state.current_player = state.pending_target
        elif state.victim_picks and (misery == MOTOR_HER or misery == RAD_HER):
            state.phase = PH_REACT              # the victim picks the card once it accepts
            state.current_player = state.pending_target
        else:
            state.phase = PH_MISERY_SLOT        # the attacker aims
        return
    _next_turn(state)


@njit(cache=True)
def _move_spare(state, seat, s, role):
    """Move ``seat``'s laid-out spare part ``s`` into ``role``; a wheel in that slot goes to the discard pile."""
    if state.spare_role[s] == ROLE_FRONT:
        state.flat_tyre[seat] = 0               # (never flat: see _may_move)
    if role != ROLE_ENGINE:
        old = wheel_of(state, seat, role)
        if old >= 0:
            _take_off(state, seat, old)
            _push_discard(state, old, ALL_SEATS)
    state.spare_role[s] = role


@njit(cache=True)
def _react_step(state, action):
    if action != ACCEPT:                        # a fitting joy card makes the misery worthless
        target = state.current_player
        joy = LACH if action == REACT_LACH else (FUCK_TUV if action == REACT_FUCK_TUV else PUMP)
        _push_discard(state, state.pending_misery, ALL_SEATS)
        _play_public(state, target, joy)
        _push_discard(state, joy, ALL_SEATS)
        _next_turn(state)
    elif state.pending_slot < 0:                # Motor her / Rad her: the victim picks what it hands over
        state.phase = PH_MISERY_SLOT
    else:
        _resolve_misery(state)


@njit(cache=True)
def _resolve_misery(state):
    """The accepted misery card takes effect on the card ``pending_slot`` of the target's bike."""
    target = state.pending_target
    misery = state.pending_misery
    kind = state.pending_slot
    _push_discard(state, misery, ALL_SEATS)
    if misery == NAIL:
        state.flat_tyre[target] = 1
    elif misery == TUV or misery == BULL:
        _take_off(state, target, kind)
        _push_discard(state, kind, ALL_SEATS)   # "placed face down on the discard pile"
        state.discard_top_down = 1
    else:                                       # Motor her / Rad her: the card goes to the attacker's bike
        attacker = state.turn_seat
        flat = state.flat_tyre[target] if role_of(state, kind) == ROLE_FRONT else 0
        _take_off(state, target, kind)
        if kind >= SPARE_0 and kind < SPARE_0 + NUM_SPARES:
            state.pending_misery = -1           # the receiver chooses the spare part's role
            state.pending_target = -1
            state.pending_slot = -1
            state.pending_card = kind
            state.phase = PH_PLACE
            state.current_player = attacker
            return
        _mount(state, attacker, kind, FIXED_ROLE[kind], flat)
    _next_turn(state)


# ---- rounds ----------------------------------------------------------------------------------------


@njit(cache=True)
def _start_round(state):
    n = state.num_players
    state.hand[:] = 0
    state.known[:] = 0
    state.bike[:] = 0
    state.spare_role[:] = 0
    state.flat_tyre[:] = 0
    state.status[:] = BUILDING
    state.final_owed[:] = 0
    state.pending_misery = -1
    state.pending_target = -1
    state.pending_slot = -1
    state.pending_card = -1
    state.moved = 0
    i = 0
    for kind in range(NUM_KINDS):
        for _ in range(COUNTS[kind]):
            state.deck[i] = kind
            i += 1
    shuffle(state, state.deck, DECK_SIZE)
    state.deck_size = DECK_SIZE
    cards = 10 if n <= 3 else 8
    for _ in range(cards):
        for q in range(n):
            state.deck_size -= 1
            state.hand[q, state.deck[state.deck_size]] += 1
    state.discard_size = 0
    state.discard_public[:] = 0
    state.discard_private[:] = 0
    state.deck_size -= 1
    _push_discard(state, state.deck[state.deck_size], ALL_SEATS)
    state.starter = state.round_index % n
    state.knocker = -1
    state.pass_streak = 0
    state.phase = PH_DRAW
    state.turn_seat = state.starter
    state.current_player = state.starter


@njit(cache=True)
def _add_placements(values, n, scale, out):
    """Add ``scale`` x each seat's placement by ``values`` to ``out``: +1 for the best, -1 for the
    worst, evenly between; tied seats share their places' rewards."""
    for q in range(n):
        better, tied = 0, 0
        for o in range(n):
            if values[o] > values[q]:
                better += 1
            elif values[o] == values[q]:
                tied += 1
        place = better + (tied - 1) / 2.0
        out[q] += scale * (1.0 - 2.0 * place / (n - 1))


@njit(cache=True)
def _end_round(state):
    n = state.num_players
    r = state.round_index
    values = np.zeros(n, np.int64)
    for q in range(n):
        values[q] = bike_value(state, q) if state.status[q] == IN_CONTEST else 0
        state.round_scores[q, r] = values[q]
        state.totals[q] = best_rounds_total(state.round_scores[q], r + 1, state.counted_rounds)
    if state.round_rewards:
        _add_placements(values, n, 1.0 / state.num_rounds, state.reward)
    state.round_index += 1
    if state.round_index < state.num_rounds:
        _start_round(state)
        return
    for q in range(n):
        values[q] = state.totals[q]
    _add_placements(values, n, 1.0, state.reward)
    state.phase = PH_OVER
    state.terminal = 1
    state.current_player = -1


@njit(cache=True)
def reset(state, config, seed):
    state.num_rounds = config.num_rounds
    state.counted_rounds = config.counted_rounds
    state.flat_half = config.flat_half
    state.own_bike_add = config.own_bike_add
    state.refill = config.refill
    state.victim_picks = config.victim_picks
    state.round_rewards = config.round_rewards
    state.round_index = 0
    _start_round(state)


# ---- what a seat sees ------------------------------------------------------------------------------


@njit(cache=True)
def observe(state, viewer, out):
    seat = int(viewer)  # ints, also as plain Python (numpy int8 arithmetic would wrap)
    n = int(state.num_players)
    hand, known, bike = state.hand, state.known, state.bike  # hoisted: record field access is not free
    for kind in range(NUM_KINDS):
        out[O_HAND + kind] = hand[seat, kind]
    played = min(state.round_index, MAX_ROUNDS)
    for r in range(n):
        q = seat + r if seat + r < n else seat + r - n
        size = 0
        row = O_KNOWN + r * NUM_KINDS
        for kind in range(NUM_KINDS):
            size += hand[q, kind]
            out[row + kind] = known[q, kind]
        out[O_HAND_SIZES + r] = size
        row = O_BIKES + r * NUM_REGULAR_BIKE
        cards = 0
        for j in range(NUM_REGULAR_BIKE):
            count = bike[q, REGULAR_BIKE_KINDS[j]]
            out[row + j] = count
            cards += count
        for s in range(NUM_SPARES):
            if bike[q, SPARE_0 + s] > 0:
                out[O_SPARES + (r * NUM_SPARES + s) * SPARE_ROLES + int(state.spare_role[s])] = 1.0
                cards += 1
        out[O_FLAT + r] = state.flat_tyre[q]
        if cards >= 3:  # fewer cards are no bike (and while building every bike is empty)
            out[O_VALUE + r] = bike_value(state, q)
        out[O_STATUS + 3 * r + int(state.status[q])] = 1.0
        out[O_OWED + r] = state.final_owed[q]
        row = O_ROUND_SCORES + r * MAX_ROUNDS
        for i in range(played):
            out[row + i] = state.round_scores[q, i]
        out[O_TOTALS + r] = state.totals[q]
    if discard_top_face_up(state):
        out[O_TOP + int(state.discard[state.discard_size - 1])] = 1.0
    seen = 0
    public, private = state.discard_public, state.discard_private
    for kind in range(NUM_KINDS):
        count = int(public[kind]) + int(private[seat, kind])
        out[O_DKNOWN + kind] = count
        seen += count
    out[O_DUNKNOWN] = state.discard_size - seen
    out[O_DRAW] = state.deck_size
    if state.round_index < state.num_rounds:  # none once the game is over
        out[O_ROUND + int(state.round_index)] = 1.0
    out[O_PHASE + int(state.phase)] = 1.0
    if state.current_player >= 0:
        out[O_TO_ACT + (int(state.current_player) - seat) % n] = 1.0
        out[O_TURN_OF + (int(state.turn_seat) - seat) % n] = 1.0
    out[O_STARTER + (int(state.starter) - seat) % n] = 1.0
    if state.knocker >= 0:
        out[O_KNOCKER + (int(state.knocker) - seat) % n] = 1.0
    out[O_STREAK] = state.pass_streak
    for s in range(NUM_SPARES):
        out[O_MOVED + s] = (int(state.moved) >> s) & 1
    if state.pending_misery >= 0:
        out[O_PMISERY + int(MISERY_INDEX[state.pending_misery])] = 1.0
        out[O_PTARGET + (int(state.pending_target) - seat) % n] = 1.0
    if state.pending_slot >= 0:
        out[O_PSLOT + int(BIKE_INDEX[state.pending_slot])] = 1.0
    if state.pending_card >= 0:
        out[O_PCARD + int(state.pending_card)] = 1.0
    out[O_SEAT + seat] = 1.0


# ---- for search agents --------------------------------------------------------------------------


#: Attempts to deal hidden cards so the seat laying out can still build its bike (see determinize).
DETERMINIZE_TRIES = 10_000


@njit(cache=True)
def determinize(state, seat, seed):
    """Deal anew, uniformly, every card ``seat`` cannot know: the unknown part of the other hands,
    the draw pile and the others' face-down discards; then reseed the generator from ``seed``.

    One public fact constrains the deal: a seat asked to lay out can build a bike (a seat that
    cannot is out at once and shows its hand). Deals that break it are rejected, which keeps the
    result uniform among the consistent deals; after DETERMINIZE_TRIES rejections in a row (never
    seen in practice) the hidden cards stay where they are.
    """
    n = state.num_players
    pool = np.empty(DECK_SIZE, np.int8)
    unknown = np.zeros(MAX_PLAYERS, np.int64)
    size = 0
    for q in range(n):
        if q == seat:
            continue
        for kind in range(NUM_KINDS):
            for _ in range(state.hand[q, kind] - state.known[q, kind]):
                pool[size] = kind
                size += 1
                unknown[q] += 1
    for_hands = size
    for i in range(state.deck_size):
        pool[size] = state.deck[i]
        size += 1
    bit = 1 << int(seat)
    for i in range(state.discard_size):
        if not state.discard_seen[i] & bit:
            pool[size] = state.discard[i]
            size += 1
    # The hidden cards in a fixed order before the deal: the seat knows which cards are hidden, not
    # where they lie, so the deal must not depend on the true arrangement (only on the seed).
    pool[:size].sort()
    seed_rng(state, seed)
    original = state.hand.copy()
    layer = state.current_player if state.phase == PH_LAYOUT and state.current_player != seat else -1
    dealt = False
    for _ in range(DETERMINIZE_TRIES):
        shuffle(state, pool, size)
        k = 0
        for q in range(n):
            if q == seat:
                continue
            for kind in range(NUM_KINDS):
                state.hand[q, kind] = state.known[q, kind]
            for _ in range(unknown[q]):
                state.hand[q, pool[k]] += 1
                k += 1
        if layer < 0 or _can_complete(state, layer, -1, -1):
            dealt = True
            break
    if not dealt:
        state.hand[:] = original
        return
    k = for_hands
    for i in range(state.deck_size):
        state.deck[i] = pool[k]
        k += 1
    for i in range(state.discard_size):
        if not state.discard_seen[i] & bit:
            owner = _lowest_bit(state.discard_seen[i])
            state.discard_private[owner, state.discard[i]] -= 1
            state.discard[i] = pool[k]
            state.discard_private[owner, state.discard[i]] += 1
            k += 1


# ---- validation ------------------------------------------------------------------------------------

MAX_OF_KIND = int(COUNTS.max())  # 16 normal front wheels

STATE_BOUNDS = {
    "deck": (0, NUM_KINDS - 1),
    "deck_size": (0, DECK_SIZE),
    "discard": (0, NUM_KINDS - 1),
    "discard_seen": (0, int(ALL_SEATS)),
    "discard_size": (0, DECK_SIZE),
    "discard_top_down": (0, 1),
    "discard_public": (0, MAX_OF_KIND),
    "discard_private": (0, MAX_OF_KIND),
    "hand": (0, MAX_HAND),
    "known": (0, MAX_HAND),
    "bike": (0, MAX_ON_BIKE_OF_KIND),
    "spare_role": (0, SPARE_ROLES - 1),
    "flat_tyre": (0, 1),
    "status": (BUILDING, OUT),
    "final_owed": (0, 1),
    "phase": (0, NUM_PHASES - 1),
    "turn_seat": (0, MAX_PLAYERS - 1),
    "knocker": (-1, MAX_PLAYERS - 1),
    "starter": (0, MAX_PLAYERS - 1),
    "round_index": (0, MAX_ROUNDS),
    "pass_streak": (0, MAX_PLAYERS),         # all of them pass at the end of the game
    "pending_misery": (-1, NAIL),
    "pending_target": (-1, MAX_PLAYERS - 1),
    "pending_slot": (-1, NUM_KINDS - 1),
    "pending_card": (-1, NUM_KINDS - 1),
    "moved": (0, (1 << NUM_SPARES) - 1),
    "round_scores": (0, MAX_VALUE),
    "totals": (0, MAX_VALUE * MAX_ROUNDS),
    "num_rounds": (1, MAX_ROUNDS),
    "counted_rounds": (1, MAX_ROUNDS),
    "flat_half": (0, 1),
    "own_bike_add": (0, 1),
    "refill": (0, 1),
    "victim_picks": (0, 1),
    "round_rewards": (0, 1),
}

STATE_PROBLEMS = (
    "ok",
    "counted_rounds is more than num_rounds",
    "the end of the game does not fit: terminal, phase 'game over' and round_index == num_rounds go together",
    "a seat beyond num_players has cards, a status, scores or face-down discards",
    "turn_seat, starter, knocker or pending_target is not a seat of this game (or the starter is not this "
    "round's: round_index mod num_players)",
    "a round not yet played has a score",
    "totals are not each seat's best counted_rounds round scores",
    "a misery card, target, aimed-at card or card in transit does not fit the phase",
    "the 110 cards are not all accounted for exactly once (draw pile, discard pile, hands, bikes, the misery "
    "card in play, the card in transit)",
    "the discard pile disagrees with discard_public / discard_private, or a discard is known to no seat of "
    "this game",
    "a seat knows of more cards in a hand than it holds",
    "a hand has more cards than the phase allows (8 or 10 dealt, one more while discarding)",
    "a bike holds a card that never lies on a bike, or more than one front or one rear wheel",
    "a spare part that lies on no bike has a role",
    "a flat tyre on a bike without a front wheel that has a tyre",
    "the statuses do not fit the phase (building, laying out in turn from the knocker, the contest)",
    "a seat out of the round has a bike, or a hand the table has not seen",
    "the knock and the last turns after it do not fit (final_owed, the seat to act)",
    "the seat laying out cannot complete a bike",
    "the seat to act is not the one the phase calls for",
    "pass_streak is not below the number of seats in the contest (or not 0 before it)",
    "spare parts marked as moved outside a contest turn",
)

(_OK, _ROUNDS, _END, _ABSENT, _SEATS, _FUTURE_SCORE, _TOTALS, _PENDING, _CARDS, _DISCARD, _KNOWN, _HAND_SIZE,
 _BIKE_CARDS, _SPARE_ROLE, _FLAT, _STATUS, _OUT_SEAT, _KNOCK, _CANNOT_LAY_OUT, _ACTOR, _STREAK,
 _MOVED) = range(len(STATE_PROBLEMS))


@njit(cache=True)
def check_state(state):
    """0 if ``state`` is a game the rules can reach, else the code of its first problem (STATE_PROBLEMS).

    Assumes STATE_BOUNDS hold. The checks run from the simple to those that rely on earlier ones
    (the card count trusts the pending fields, the bike checks trust the card count)."""
    n = int(state.num_players)
    phase = int(state.phase)
    if state.counted_rounds > state.num_rounds:
        return _ROUNDS
    over = state.round_index == state.num_rounds
    if over != (state.terminal == 1) or over != (phase == PH_OVER) or state.round_index > state.num_rounds:
        return _END
    if _absent_seat_problem(state, n):
        return _ABSENT
    if state.turn_seat >= n or state.starter >= n or state.knocker >= n or state.pending_target >= n:
        return _SEATS
    if not over and state.starter != state.round_index % n:
        return _SEATS
    for q in range(n):
        for r in range(state.round_index, MAX_ROUNDS):
            if state.round_scores[q, r] != 0:
                return _FUTURE_SCORE
        if state.totals[q] != best_rounds_total(state.round_scores[q], state.round_index, state.counted_rounds):
            return _TOTALS
    if not _pending_fits(state, n, phase):
        return _PENDING
    if not _cards_conserved(state, n):
        return _CARDS
    if not _discard_pile_consistent(state, n):
        return _DISCARD
    for q in range(n):
        for kind in range(NUM_KINDS):
            if state.known[q, kind] > state.hand[q, kind]:
                return _KNOWN
    if not _hand_sizes_fit(state, n, phase):
        return _HAND_SIZE
    return _table_problem(state, n, phase)


@njit(cache=True)
def _absent_seat_problem(state, n):
    for q in range(n, MAX_PLAYERS):
        if state.flat_tyre[q] or state.status[q] or state.final_owed[q] or state.totals[q]:
            return True
        for kind in range(NUM_KINDS):
            if state.hand[q, kind] or state.known[q, kind] or state.bike[q, kind] or state.discard_private[q, kind]:
                return True
        for r in range(MAX_ROUNDS):
            if state.round_scores[q, r]:
                return True
    return False


@njit(cache=True)
def _is_misery(kind):
    return kind >= 0 and MISERY_INDEX[kind] >= 0


@njit(cache=True)
def _victim_picks_for(state, misery):
    return state.victim_picks != 0 and (misery == MOTOR_HER or misery == RAD_HER)


@njit(cache=True)
def _pending_fits(state, n, phase):
    """The misery card in play, its target and aimed-at card, and the card in transit fit the phase."""
    misery, target, slot, card = state.pending_misery, state.pending_target, state.pending_slot, state.pending_card
    if phase == PH_MISERY_SLOT or phase == PH_REACT:
        if not _is_misery(misery) or target < 0 or target == state.turn_seat or card >= 0:
            return False
        if state.status[target] != IN_CONTEST or not _has_misery_target(state, misery, target):
            return False
        if phase == PH_MISERY_SLOT:  # the card is not chosen yet; a Nail never waits for a choice
            return slot < 0 and misery != NAIL
        if misery == NAIL:
            return slot >= 0 and slot == wheel_of(state, target, ROLE_FRONT) and _misery_fits(state, misery, target,
                                                                                             slot)
        if _victim_picks_for(state, misery):
            return slot < 0
        return slot >= 0 and _misery_fits(state, misery, target, slot)
    if misery >= 0 or target >= 0 or slot >= 0:
        return False
    if phase == PH_PLACE:
        return card >= SPARE_0 and card < SPARE_0 + NUM_SPARES
    if phase == PH_ENGINE_SLOT:
        return card >= 0 and (FIXED_ROLE[card] == ROLE_ENGINE or (card >= SPARE_0 and card < SPARE_0 + NUM_SPARES))
    return card < 0


@njit(cache=True)
def _cards_conserved(state, n):
    if state.deck_size + state.discard_size > DECK_SIZE:
        return False
    count = np.zeros(NUM_KINDS, np.int64)
    for i in range(state.deck_size):
        count[state.deck[i]] += 1
    for i in range(state.discard_size):
        count[state.discard[i]] += 1
    for q in range(n):
        for kind in range(NUM_KINDS):
            count[kind] += state.hand[q, kind] + state.bike[q, kind]
    if state.pending_misery >= 0:
        count[state.pending_misery] += 1
    if state.pending_card >= 0:
        count[state.pending_card] += 1
    for kind in range(NUM_KINDS):
        if count[kind] != COUNTS[kind]:
            return False
    return True


@njit(cache=True)
def _discard_pile_consistent(state, n):
    if state.discard_top_down and (state.discard_size == 0 or state.discard_seen[state.discard_size - 1] != ALL_SEATS):
        return False  # only a card the whole table saw is turned down (TÜV, Bull)
    public = np.zeros(NUM_KINDS, np.int64)
    private = np.zeros((MAX_PLAYERS, NUM_KINDS), np.int64)
    for i in range(state.discard_size):
        seen = int(state.discard_seen[i])
        kind = state.discard[i]
        if seen == ALL_SEATS:
            public[kind] += 1
            continue
        owner = -1
        for q in range(n):
            if seen == 1 << q:
                owner = q
        if owner < 0:
            return False
        private[owner, kind] += 1
    for kind in range(NUM_KINDS):
        if public[kind] != state.discard_public[kind]:
            return False
        for q in range(MAX_PLAYERS):
            if private[q, kind] != state.discard_private[q, kind]:
                return False
    return True


@njit(cache=True)
def _hand_sizes_fit(state, n, phase):
    dealt = 10 if n <= 3 else 8
    for q in range(n):
        size = 0
        for kind in range(NUM_KINDS):
            size += state.hand[q, kind]
        if phase == PH_DRAW or phase == PH_DISCARD:
            if size != dealt + (1 if phase == PH_DISCARD and q == state.current_player else 0):
                return False
        elif size > dealt:
            return False
    return True


@njit(cache=True)
def _bike_problem(state, n):
    for q in range(n):
        fronts, rears = 0, 0
        for kind in range(NUM_KINDS):
            count = state.bike[q, kind]
            if count == 0:
                continue
            if BIKE_INDEX[kind] < 0:
                return _BIKE_CARDS
            role = role_of(state, kind)
            if role == ROLE_FRONT:
                fronts += count
            elif role == ROLE_REAR:
                rears += count
        if fronts > 1 or rears > 1:
            return _BIKE_CARDS
        front = wheel_of(state, q, ROLE_FRONT)
        if state.flat_tyre[q] and (front < 0 or front == WOODEN_FRONT):
            return _FLAT
    for s in range(NUM_SPARES):
        on_a_bike = False
        for q in range(n):
            if state.bike[q, SPARE_0 + s] > 0:
                on_a_bike = True
        if not on_a_bike and state.spare_role[s] != 0:
            return _SPARE_ROLE
    return _OK


@njit(cache=True)
def _table_problem(state, n, phase):
    """Bikes, statuses, the knock, the seat to act and the pass count against the phase."""
    problem = _bike_problem(state, n)
    if problem != _OK:
        return problem
    building = phase == PH_DRAW or phase == PH_DISCARD
    contest = phase >= PH_TURN and phase != PH_OVER
    for q in range(n):
        if state.status[q] == OUT:
            for kind in range(NUM_KINDS):
                if state.bike[q, kind] or state.known[q, kind] != state.hand[q, kind]:
                    return _OUT_SEAT
    if building:
        problem = _building_problem(state, n, phase)
    elif phase == PH_LAYOUT:
        problem = _layout_problem(state, n)
    elif contest:
        problem = _contest_problem(state, n, phase)
    if problem != _OK:
        return problem
    if contest and state.pass_streak >= _count_in_contest(state):
        return _STREAK
    if state.pass_streak != 0 and (building or phase == PH_LAYOUT):  # (the game's end keeps the last count)
        return _STREAK
    if state.moved != 0 and phase != PH_TURN:
        return _MOVED
    return _OK


@njit(cache=True)
def _building_problem(state, n, phase):
    for q in range(n):
        if state.status[q] != BUILDING:
            return _STATUS
        for kind in range(NUM_KINDS):
            if state.bike[q, kind]:
                return _STATUS
            if state.discard_private[q, kind]:  # nothing goes face down before the contest
                return _STATUS
    current = state.current_player
    if current != state.turn_seat:
        return _ACTOR
    if state.knocker < 0:
        for q in range(n):
            if state.final_owed[q]:
                return _KNOCK
    elif state.final_owed[state.knocker]:
        return _KNOCK
    elif not state.final_owed[current] and not (phase == PH_DISCARD and current == state.knocker):
        return _KNOCK
    # (Something to take is left: the hands hold at most 80 cards, the rest is in the two piles.)
    return _OK


@njit(cache=True)
def _layout_problem(state, n):
    if state.knocker < 0:
        return _STATUS
    for q in range(n):
        if state.final_owed[q]:
            return _KNOCK
    current = state.current_player
    if current != state.turn_seat:
        return _ACTOR
    here = (current - state.knocker) % n
    for q in range(n):
        place = (q - state.knocker) % n
        status = state.status[q]
        if place < here and status == BUILDING:
            return _STATUS
        if place < here and status == IN_CONTEST and not is_complete(state, q):
            return _STATUS
        if place >= here and status != BUILDING:
            return _STATUS
        if place > here:
            for kind in range(NUM_KINDS):
                if state.bike[q, kind]:
                    return _STATUS
    if not _can_complete(state, current, -1, -1):
        return _CANNOT_LAY_OUT
    return _OK


@njit(cache=True)
def _contest_problem(state, n, phase):
    if state.knocker < 0:
        return _STATUS
    for q in range(n):
        if state.status[q] == BUILDING:
            return _STATUS
        if state.final_owed[q]:
            return _KNOCK
    if state.status[state.turn_seat] != IN_CONTEST:
        return _STATUS
    current = state.current_player
    if phase == PH_REACT:
        actor = state.pending_target
    elif phase == PH_MISERY_SLOT and _victim_picks_for(state, state.pending_misery):
        actor = state.pending_target
    else:
        actor = state.turn_seat
    if current != actor:
        return _ACTOR
    if phase == PH_ENGINE_SLOT and _engines_on(state, current) == 0:
        return _PENDING
    return _OK


# ---- search cut-offs -------------------------------------------------------------------------------


#: Spread of a round's score between seats, in HP (std of one seat's round score in heuristic
#: play, 4 players: 276 HP; a seat's total over a game: 446 HP within a game). The logistic below
#: turns a projected lead into a placement with its scale at LOGISTIC_SCALE x this x sqrt(2 x rounds
#: still open): the std of the difference of two seats' remaining scores, as a logistic's scale.
ROUND_SPREAD = 275.0
LOGISTIC_SCALE = 0.55  # sqrt(3) / pi: a logistic with this scale has the unit normal's spread


@njit(cache=True)
def best_bike_from(cards, flat_half):
    """HP of the best bike that the cards ``cards`` (counts per kind) can make: the best front
    wheel (a normal one, else a wooden one, else a flat one: whole with an Air Pump at hand, half
    with ``flat_half``; or a spare part), the highest rear gear (a spare part is a 4th gear),
    every engine, x2 per Turbo; the weakest spare parts become wheels, the rest engines.

    What a hand is worth to its seat this round: a seat still building is judged by what it could
    lay out, not by the empty bike it has, so a search sees a good draw or a bad discard at once.
    The rules of thumb are the heuristic agent's ``best_bike_from`` (agents/heuristic/volle_socke.py)."""
    spares = 0
    for s in range(NUM_SPARES):
        spares += cards[SPARE_0 + s] > 0
    rear = 0
    for kind in range(REAR_1, REAR_1 + 4):
        if cards[kind] > 0:
            rear = GEAR[kind]
    power = 0
    for kind in range(ENGINE_10, ENGINE_100 + 1):
        power += POWER[kind] * cards[kind]
    if cards[FRONT] > 0:
        front = 1.0
    elif cards[WOODEN_FRONT] > 0:
        front = 0.5
    elif cards[FLAT_FRONT] > 0:
        front = 1.0 if cards[PUMP] > 0 else (0.5 if flat_half else 0.0)
    else:
        front = 0.0
    best = 0
    for spare_front in range(2):
        for spare_rear in range(2):
            wheels = spare_front + spare_rear
            if wheels > spares or (spare_front == 0 and front == 0.0):
                continue
            total = power
            skipped = 0
            for s in range(NUM_SPARES):  # spare parts by rising power: the weakest are the wheels
                if cards[SPARE_0 + s] > 0:
                    if skipped < wheels:
                        skipped += 1
                    else:
                        total += POWER[SPARE_0 + s]
            gear = SPARE_GEAR if spare_rear else rear
            factor = 1.0 if spare_front else front
            value = int(total * (1 << int(cards[TURBO])) * gear * factor)
            best = max(best, value)
    return best


@njit(cache=True)
def playout_value(state, values):
    """Each seat's estimated return from here: its chance to place above each other seat by
    projected totals (see the module docstring); plus, with round_rewards, this round's placement
    by the bikes during the contest."""
    if state.terminal:
        return
    n = int(state.num_players)
    rounds = int(state.num_rounds)
    played = int(state.round_index)
    contest = state.phase >= PH_TURN and state.phase != PH_OVER
    hp = 0
    for q in range(n):
        for r in range(played):
            hp += state.round_scores[q, r]
    mean = hp // (n * played) if played > 0 else 0
    bikes = np.zeros(n, np.int64)
    projected = np.zeros(n, np.float64)
    scores = np.zeros(MAX_ROUNDS, np.int64)
    cards = np.zeros(NUM_KINDS, np.int64)
    for q in range(n):
        if contest and state.status[q] == IN_CONTEST:
            bikes[q] = bike_value(state, q)
        for r in range(rounds):
            scores[r] = state.round_scores[q, r] if r < played else mean
        if contest:
            scores[played] = bikes[q]
        elif state.status[q] != OUT:
            for kind in range(NUM_KINDS):
                cards[kind] = state.hand[q, kind] + state.bike[q, kind]
            scores[played] = best_bike_from(cards, state.flat_half)
        else:
            scores[played] = 0
        # All rounds summed, not the best counted_rounds: with the rounds to come at the mean, the best
        # of would drop this round whenever it falls below the mean and hide every change to it, while
        # it is the rounds to come that decide which rounds are dropped.
        projected[q] = scores[:rounds].sum()
    # Rounds still open: those not begun, and this one half open during the contest (a bike can
    # still grow or be wrecked), wholly before it.
    open_rounds = rounds - played - (0.5 if contest else 0.0)
    scale = LOGISTIC_SCALE * ROUND_SPREAD * np.sqrt(2.0 * max(open_rounds, 0.25))
    for q in range(n):
        behind = 0.0  # expected number of seats that finish ahead of q
        for o in range(n):
            if o != q:
                behind += 1.0 / (1.0 + np.exp((projected[q] - projected[o]) / scale))
        values[q] += 1.0 - 2.0 * behind / (n - 1)
    if state.round_rewards and contest:
        _add_placements(bikes, n, 1.0 / rounds, values)


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize,
                check_state=check_state, playout_value=playout_value)
