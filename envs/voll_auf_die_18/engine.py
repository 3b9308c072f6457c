"""Voll auf die 18: the rules as numba functions over one record (see docs/rules/voll_auf_die_18.md).

Everyone acts at once: ``step(state, actions)`` takes one action per seat and is one moment of
``seconds_per_step`` game seconds. Within a step the actions apply in a rotating seat order (the
seat after last step's first goes first); an action whose cards were already moved by an earlier
seat's action in the same step has no effect. Then completed pools convince their Nazis, hands are
refilled, and the clock runs (new Nazis, swap places, time out).

Team arguments form in per-Nazi pools: ARGUE lays one argumentation (2-4 cards, or dice) at a
face-up Nazi; the contributions of several seats add up, and the Nazi is convinced the moment the
pool hits its IQ exactly with every rule met. Until then each seat may WITHDRAW its cards.

The hot path is :func:`argument_search` (with :func:`seat_options` and :func:`team_search`): every
way the seats' hands and Krapotke's dice hit a face-up Nazi's IQ exactly under all character and
Nazi rules. It feeds the masks (legal argumentations), the hints in ``infos`` and the heuristic
agent; :func:`pooled_values` / :func:`can_still_win` are its relaxation over all Arguments left in
the game, the "can no longer convince" check.

Masks are computed once at the end of every step (and at reset) and kept in the record:
``legal_mask`` only copies them. A step in which every seat waited and the clock brought no Nazi,
no seat swap and no end recomputes only the masks of the seats whose wait just ended
(:func:`refresh_seats`). :func:`refresh` recomputes them all after a record was edited by hand.
Hints are computed on demand (:func:`hints`), for the env's ``infos`` only.

The record's contract (end of this module): ``STATE_BOUNDS`` gives every field's range;
:func:`check_state` checks the invariants (every Argument in exactly one place, counts that agree
with their arrays, pools that add up, Nazis each in one place, the clock and the app's signals,
the cached masks) and names the first broken one in ``STATE_PROBLEMS``. :func:`playout_value`
estimates the shared return from a position for search agents that cut playouts short: with ``p``
a chance to win from progress against the clock (Nazis convinced, the Bib goal, minus the share of
the 18 minutes gone, lowered by each Nazi face up beyond the first), every seat gets ``2 p - 1``
(plus ``p`` times the shaping reward still to come with ``reward_shaping``); 0 once it is over.
"""

import numpy as np
from numba import njit

from envs.core import Layout, config_dtype, register_engine, state_dtype
from envs.core.bits import count_bits
from envs.core.rng import randint, randrange, seed_rng, shuffle

from . import data as D

# Small helpers called in the hot loops (masks, observation, option lists) are compiled into their
# callers (inline="always"): a numba call passing arrays costs some 12 ns, more than their work.

# ---- sizes and codes -------------------------------------------------------------------------

MAX_PLAYERS = 5
HAND = D.HAND_SIZE
NUM_SLOTS = 1 + D.NUM_SPACES    # slot 0: the top of the Nazi stack; 1..4: the spaces around it
NUM_ARG = D.NUM_ARGUMENTS
NUM_CARDS = D.NUM_CARDS
MAX_OPTIONS = 48                # argumentations one seat can lay at one Nazi (11 subsets, Maria reads several)
MAX_VALUE = 31                  # value bitmasks are int64 with bit v for value v

# Subsets of the 4 hand slots (or dice) with at least 2 members: pairs, triples, all four.
SUBSETS = np.array([3, 5, 6, 9, 10, 12, 7, 11, 13, 14, 15], np.int8)
NUM_SUBSETS = 11
SUBSET_INDEX = np.full(16, -1, np.int64)
SUBSET_INDEX[SUBSETS] = np.arange(NUM_SUBSETS)
SUBSET_SIZE = np.array([bin(int(b)).count("1") for b in SUBSETS], np.int64)

# Where a card is.
LOC_NONE, LOC_STACK, LOC_HAND, LOC_POOL, LOC_BIB, LOC_TALENT, LOC_DISCARD = 0, 1, 2, 3, 4, 5, 6
# Krapotke's dice.
DIE_FREE, DIE_USED, DIE_BLOCKED, DIE_POOLED = 0, 1, 2, 3
# Nazi whereabouts.
NAZI_STACK, NAZI_FACE_UP, NAZI_CONVINCED = 0, 1, 2
# Why a game ended (``end_reason``; the names in END_REASON_NAMES; the three ways to run out of
# Arguments are told apart, see :func:`lost_reason`).
END_NONE, END_WON, END_FIVE_FACE_UP, END_TIME, END_NO_ARGUMENTS, END_STUCK, END_CARDS_SHARED, END_BIB_GOAL = range(8)
END_REASON_NAMES = (
    "running",
    "won",
    "lost: 5 Nazis face up",
    "lost: time ran out",
    "lost: no Arguments left for a Nazi",
    "lost: stuck (no Nazi can be convinced again)",
    "lost: the Nazis left need the same Arguments",
    "lost: the Bib goal is out of reach",
)
COMM_FULL, COMM_NONE = 0, 1
TIMING_TABLE, TIMING_STEP = 0, 1

# ---- actions (one flat space, the same for every seat) ------------------------------------

A_WAIT = 0
A_ARGUE = 1                                   # + slot * 11 + subset
A_WITHDRAW = A_ARGUE + NUM_SLOTS * NUM_SUBSETS  # + slot
A_OFFER = A_WITHDRAW + NUM_SLOTS              # + (relative seat - 1) * 4 + hand slot
A_ACCEPT = A_OFFER + 4 * HAND                 # + (relative seat - 1) * 4 + my hand slot
A_BIB = A_ACCEPT + 4 * HAND                   # + hand slot * 99 + Bib card
A_EXPAND = A_BIB + HAND * NUM_ARG             # + stack (0..4), or 5 + relative seat (talent space)
A_ROLL = A_EXPAND + 2 * MAX_PLAYERS           # + die
A_ROLL_ALL = A_ROLL + D.NUM_DICE
A_EMERGENCY = A_ROLL_ALL + 1
A_TELL = A_EMERGENCY + 1                      # + relative seat - 1 (Blind Trust: tell them their cards)
NUM_ACTIONS = A_TELL + 4

# ---- the record --------------------------------------------------------------------------

STATE = state_dtype([
    # chapter and options (copied from the config at reset)
    ("chapter", np.int8), ("labels", np.int16), ("nasty_groups", np.int8), ("communication", np.int8),
    ("seconds_per_step", np.int16), ("shaping", np.int8), ("observe_hints", np.int8), ("num_stacks", np.int8),
    ("character", np.int8, (MAX_PLAYERS,)),
    # Arguments (and the two Razupaltuff cards, ids 99 and 100)
    ("card_loc", np.int8, (NUM_CARDS,)), ("card_seat", np.int8, (NUM_CARDS,)),
    ("card_nazi", np.int8, (NUM_CARDS,)), ("from_talent", np.int8, (NUM_ARG,)),
    ("stack", np.int8, (D.RUN_OUT_STACKS, NUM_ARG)), ("stack_len", np.int8, (D.RUN_OUT_STACKS,)),
    ("hand", np.int8, (MAX_PLAYERS, HAND)),
    ("hand_known", np.int8, (MAX_PLAYERS, HAND)),  # the holder knows the card's front (see knows_front)
    ("talent", np.int8, (MAX_PLAYERS, D.HERTA_TALENT_CARDS)), ("talent_len", np.int8, (MAX_PLAYERS,)),
    ("talent_ready", np.int8, (MAX_PLAYERS,)), ("talent_spent", np.int8, (MAX_PLAYERS,)),
    ("bib_count", np.int16), ("bib_talent_count", np.int16),
    # Nazis
    ("nasty", np.int8, (D.NUM_NAZIS,)), ("nazi_at", np.int8, (D.NUM_NAZIS,)),
    ("nazi_stack", np.int8, (D.NUM_NAZIS,)), ("nazi_stack_len", np.int8),
    ("space", np.int8, (D.NUM_SPACES,)), ("convinced", np.int8),
    # pools: per Nazi, what each seat laid there
    ("pool_fixed", np.int8, (D.NUM_NAZIS,)), ("pool_readings", np.int64, (D.NUM_NAZIS,)),
    ("pool_count", np.int8, (D.NUM_NAZIS,)), ("contrib", np.int8, (D.NUM_NAZIS, MAX_PLAYERS)),
    ("contrib_value", np.int8, (D.NUM_NAZIS, MAX_PLAYERS)), ("contrib_talent", np.int8, (D.NUM_NAZIS, MAX_PLAYERS)),
    # Krapotke's dice
    ("die_value", np.int8, (D.NUM_DICE,)), ("die_status", np.int8, (D.NUM_DICE,)), ("die_nazi", np.int8, (D.NUM_DICE,)),
    # swaps between players: seat p offers card offer_card[p] to seat offer_to[p]
    ("offer_to", np.int8, (MAX_PLAYERS,)), ("offer_card", np.int8, (MAX_PLAYERS,)),
    # clock (game seconds)
    ("clock", np.int16), ("next_nazi", np.int16), ("last_nazi", np.int16), ("next_swap", np.int16),
    ("moment", np.int16), ("emergency_used", np.int8), ("end_reason", np.int8),
    ("timing", np.int8), ("action_seconds", np.int16, (len(D.ACTION_SECONDS),)),  # (copied from the config)
    ("busy_until", np.int16, (MAX_PLAYERS,)),  # a seat acts again from busy_until on
    # derived: every seat's legal actions, recomputed after every change (see refresh)
    ("mask", np.int8, (MAX_PLAYERS, NUM_ACTIONS)),
], MAX_PLAYERS)

CONFIG = config_dtype([
    ("chapter", np.int8), ("seconds_per_step", np.int16), ("communication", np.int8),
    ("characters", np.int8, (MAX_PLAYERS,)), ("shaping", np.int8), ("observe_hints", np.int8),
    ("chapter19_seed", np.int64), ("bib_start", np.int8), ("timing", np.int8),
    ("action_seconds", np.int16, (len(D.ACTION_SECONDS),)),
])

# ---- observation layout --------------------------------------------------------------------

F_CARD = 31   # present, front known, Razupaltuff, colour(4), value(6), half digit(7), condition kind(4), counts(7)
F_NAZI = 53
F_SEAT = 12
F_HINT = 2 + 2 * MAX_PLAYERS  # ways, a hint exists, per relative seat: takes part, its cards
HINT_WAYS_BITS = 15.0         # ways are capped at 32767 < 2**15: log2(1 + ways) / 15 lies in [0, 1]
LAYOUT = Layout(
    ("chapter", D.NUM_CHAPTERS, 0, 1, "one-hot chapter 1..19"),
    ("labels", D.NUM_LABELS, 0, 1, "the chapter's labels (flags, order of data.LABEL_NAMES)"),
    ("clock", 4, 0, 1, "time left / 18 min, time since the last Nazi / 45 s (capped), finale, emergency used"),
    ("counts", 5, 0, 1, "Nazis convinced / 18, Nazis in the stack / 18, face-up Nazis / 5, Bib / 99, "
                        "Bib cards from talent spaces / 99"),
    ("nazi_slots", (NUM_SLOTS, F_NAZI), 0, 1,
     "slot 0 = top of the Nazi stack, 1..4 = spaces: present, IQ/23, kind one-hot(5), colours allowed(4), "
     "banned values 1-6 (6), pool sum/23, still needed/23, contributed by relative seat (5), their values/23 (5), "
     "Maria's possible readings 0..23 (24)"),
    ("nazi_status", (D.NUM_NAZIS, 4), 0, 1, "per Nazi (IQ 6..23): in the stack, face up, convinced, super nasty side"),
    ("seats", (MAX_PLAYERS, F_SEAT), 0, 1,
     "per relative seat (0 = me): present, character one-hot(8), talent ready, talent space cards/4, "
     "cards held (hand + laid in pools)/4"),
    ("hands", (MAX_PLAYERS, HAND, F_CARD), 0, 1,
     "per relative seat and hand slot: present, front known, Razupaltuff, colour(4), value 1-6 (6), "
     "back: half-digit segments a-g (7), condition kind (4), condition counts/4 (7); front fields are 0 when hidden"),
    ("offers", (MAX_PLAYERS, 8), 0, 1, "per relative seat: the relative seat it offers a card to (1..4), hand slot"),
    ("offered_to_me", (MAX_PLAYERS, F_CARD), 0, 1, "the card each relative seat offers me (front shown)"),
    ("stacks", (D.RUN_OUT_STACKS, 1 + F_CARD), 0, 1, "per Argument stack: cards/99, the top card's back"),
    ("talent_spaces", (MAX_PLAYERS, 1 + F_CARD), 0, 1,
     "per relative seat: face-down talent cards/4, the top one's back"),
    ("dice", (D.NUM_DICE, 10), 0, 1, "Krapotke's dice (die k has colour k): value one-hot(6), free/used/blocked/laid"),
    ("cards", (NUM_ARG, 4), 0, 1, "per Argument id: face up in the Bib, laid in a pool, discarded, "
                                  "in the Bib from a talent space"),
    ("holder_knows", (MAX_PLAYERS, HAND), 0, 1,
     "per relative seat and hand slot: its holder knows the card's front (Blind Trust: once told)"),
    ("busy", MAX_PLAYERS, 0, 1, "per relative seat: seconds it is still busy with its last action / 30 (capped)"),
    # (last, and all zero without the option: the blocks above keep their offsets and values)
    ("hint_slots", (NUM_SLOTS, F_HINT), 0, 1,
     "``observe_hints`` only (else 0): per Nazi slot, the team argumentation this seat can know of "
     "(engine.hints): log2(1 + ways)/15, a hint exists, per relative seat: takes part (5), its cards/4 (5)"),
    ("hint_argue", NUM_SLOTS * NUM_SUBSETS, 0, 1,
     "``observe_hints`` only (else 0): per argue action 1-55 (slot * 11 + subset), 1 if it lays this "
     "seat's part of the hint at that slot"),
    ("hint_offer", (MAX_PLAYERS - 1) * HAND, -1, 1,
     "``observe_hints`` only (else 0): per legal offer action ((relative seat - 1) * 4 + hand slot), "
     "engine.exchange_gains: face-up Nazis the team can convince exactly after the best 1:1 swap it "
     "offers, minus before, / 5"),
    ("hint_accept", (MAX_PLAYERS - 1) * HAND, -1, 1,
     "``observe_hints`` only (else 0): per legal accept action, the same gain of taking the offered card "
     "for that hand slot"),
    ("hint_bib", HAND * NUM_ARG, -1, 1,
     "``observe_hints`` only (else 0): per legal Bib action (hand slot * 99 + Bib card), the same gain "
     "of that Bib swap or draw"),
)
O_CHAPTER, O_LABELS, O_CLOCK, O_COUNTS = (LAYOUT.offset(n) for n in ("chapter", "labels", "clock", "counts"))
O_NAZI_SLOTS, O_NAZI_STATUS, O_SEATS, O_HANDS = (LAYOUT.offset(n) for n in ("nazi_slots", "nazi_status", "seats",
                                                                               "hands"))
O_OFFERS, O_OFFERED, O_STACKS, O_TALENT = (LAYOUT.offset(n) for n in ("offers", "offered_to_me", "stacks",
                                                                      "talent_spaces"))
O_DICE, O_CARDS, O_HOLDER_KNOWS, O_BUSY = (LAYOUT.offset(n) for n in ("dice", "cards", "holder_knows", "busy"))
O_HINT_SLOTS, O_HINT_ARGUE = LAYOUT.offset("hint_slots"), LAYOUT.offset("hint_argue")
O_HINT_OFFER, O_HINT_ACCEPT, O_HINT_BIB = (LAYOUT.offset(n) for n in ("hint_offer", "hint_accept", "hint_bib"))
LABEL_FLAGS = np.array([flag for flag, _ in D.LABEL_NAMES], np.int64)

# Data tables as module constants (numba freezes them), int64 so that arithmetic on them behaves
# the same compiled and as plain Python (numpy int8 scalars would overflow where numba widens).
CARD_COLOUR = np.concatenate([D.CARD_COLOUR, [0, 0]]).astype(np.int64)
CARD_VALUE = np.concatenate([D.CARD_VALUE, [0, 0]]).astype(np.int64)
CARD_HALF = np.concatenate([D.CARD_HALF, [0, 0]]).astype(np.int64)
CARD_BACK = np.concatenate([D.CARD_BACK, [0, 0]]).astype(np.int64)
HALF_SEGMENTS = D.HALF_SEGMENTS.astype(np.int64)
PAIR_DIGITS = D.PAIR_DIGITS.astype(np.int64)
BACK_COND_KIND = D.BACK_COND_KIND.astype(np.int64)
BACK_COND_COUNT = D.BACK_COND_COUNT.astype(np.int64)
NAZI_IQ = D.NAZI_IQ.astype(np.int64)
NASTY_KIND = D.NASTY_KIND.astype(np.int64)
NASTY_COLOURS = D.NASTY_COLOURS.astype(np.int64)
NASTY_BANNED = D.NASTY_BANNED.astype(np.int64)
CHAPTER_GROUPS = D.CHAPTER_GROUPS.astype(np.int64)
CHAPTER_LABELS = D.CHAPTER_LABELS.astype(np.int64)
CHAPTER_CHARACTERS = D.CHAPTER_CHARACTERS.astype(np.int64)
RANDOM_LABEL_FLAGS = D.RANDOM_LABEL_FLAGS.astype(np.int64)
RANDOM_LABEL_ODDS = D.RANDOM_LABEL_ODDS.astype(np.int64)
GROUP_OF_KIND = np.array([0, D.G_ONE, D.G_TWO, D.G_BAN, D.G_ALL], np.int64)
BIB_START = np.array([0, 0, D.BIB_START[2], D.BIB_START[3], D.BIB_START[4], D.BIB_START[5]], np.int64)
TIMED = tuple(D.ACTION_SECONDS)  # the kinds of action with a time of their own (state.action_seconds)
T_ARGUE, T_WITHDRAW, T_OFFER, T_ACCEPT, T_BIB, T_COMBO, T_TASK, T_ROLL, T_ROLL_ALL, T_EMERGENCY, T_TELL = range(11)
assert TIMED == ("argue", "withdraw", "offer", "accept", "bib", "combo", "task", "roll", "roll_all", "emergency", "tell")




def make_config(config):
    """The CONFIG record for a validated configuration (Python; see env.OPTIONS)."""
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["chapter"] = config["chapter"]
    record["seconds_per_step"] = config["seconds_per_step"]
    record["communication"] = COMM_FULL if config["communication"] == "full" else COMM_NONE
    record["characters"] = -1
    if config["characters"] is not None:
        for seat, name in enumerate(config["characters"]):
            record["characters"][0, seat] = D.CHARACTER_IDS.index(name)
    record["shaping"] = int(config["reward_shaping"])
    record["observe_hints"] = int(config["observe_hints"])
    record["chapter19_seed"] = -1 if config["chapter19_seed"] is None else config["chapter19_seed"]
    record["bib_start"] = -1 if config["bib_start"] is None else config["bib_start"]
    record["timing"] = TIMING_TABLE if config["timing"] == "table" else TIMING_STEP
    record["action_seconds"] = [timed_seconds(config)[name] for name in TIMED]
    return record


def timed_seconds(config):
    """What each kind of action takes in game seconds: ``data.ACTION_SECONDS`` times the pace
    (``pace``, None: ``data.TABLE_PACE`` for the group size), at least 1 s; ``action_seconds``
    entries replace the result as given."""
    pace = D.TABLE_PACE[config["num_players"]] if config["pace"] is None else config["pace"]
    seconds = {name: max(1, round(base * pace)) for name, base in D.ACTION_SECONDS.items()}
    return dict(seconds, **(config["action_seconds"] or {}))


def check_config(config):
    """Cross-option checks: one character name per seat."""
    characters = config["characters"]
    if characters is not None and len(list(characters)) != config["num_players"]:
        raise ValueError(f"characters={characters!r} must name exactly num_players={config['num_players']} "
                         f"characters from {list(D.CHARACTER_IDS)}")


# ==== argumentation rules ======================================================================


@njit(cache=True)
def _most_alike(keys, subset):
    """The size of the largest group of equal ``keys`` among the members of ``subset``."""
    top = 0
    for i in range(4):
        if subset >> i & 1:
            n = 0
            for j in range(4):
                if subset >> j & 1 and keys[j] == keys[i]:
                    n += 1
            top = max(top, n)
    return top


@njit(cache=True)
def _distinct_count(keys, subset):
    n = 0
    for i in range(4):
        if subset >> i & 1:
            first = True
            for j in range(i):
                if subset >> j & 1 and keys[j] == keys[i]:
                    first = False
            n += first
    return n


@njit(cache=True)
def _straight(values, subset):
    """The members of ``subset`` show distinct consecutive values (one member: trivially)."""
    k = count_bits(subset)
    if _distinct_count(values, subset) != k:
        return False
    lo, hi = 99, -1
    for i in range(4):
        if subset >> i & 1:
            lo = min(lo, values[i])
            hi = max(hi, values[i])
    return hi - lo == k - 1


@njit(cache=True)
def rule_status(kind, colours, values, subset):
    """Whether the members of ``subset`` (bits over the 4 hand slots or dice) form an argumentation
    of character ``kind``: 0 by the normal rule, 1 only with the character's talent, 2 not at all.
    Not for Maria (see :func:`maria_readings`)."""
    k = count_bits(subset)
    if k < 2:
        return 2
    if kind == D.GOD:
        return 0 if k == 2 else 1
    if kind == D.KANGAROO or kind == D.OTTO_VON:  # one colour / one value; talent: one outsider
        top = _most_alike(colours if kind == D.KANGAROO else values, subset)
        return 0 if top == k else (1 if top == k - 1 else 2)
    if kind == D.FRIEDRICH_WILHELM:  # all colours different; talent: one colour twice
        distinct = _distinct_count(colours, subset)
        return 0 if distinct == k else (1 if distinct == k - 1 else 2)
    if kind == D.HERTA:  # one parity; talent: one outsider
        odd = 0
        for i in range(4):
            if subset >> i & 1:
                odd += values[i] & 1
        if odd == 0 or odd == k:
            return 0
        return 1 if odd == 1 or odd == k - 1 else 2
    if kind == D.KLEINKUENSTLER:  # a straight; talent: one number skipped inside it
        if _distinct_count(values, subset) != k:
            return 2
        lo, hi = 99, -1
        for i in range(4):
            if subset >> i & 1:
                lo = min(lo, values[i])
                hi = max(hi, values[i])
        return 0 if hi - lo == k - 1 else (1 if hi - lo == k else 2)
    if kind == D.KRAPOTKE:  # a Pasch (all one number) or a straight; talent: one unmatched die
        if _most_alike(values, subset) == k or _straight(values, subset):
            return 0
        for i in range(4):
            if subset >> i & 1:
                rest = subset & ~(1 << i)
                if _most_alike(values, rest) == k - 1 or _straight(values, rest):
                    return 1
        return 2
    return 2


@njit(cache=True)
def maria_readings(halves, values, subset):
    """Maria's possible values for the cards of ``subset``: (normal readings, readings needing her
    talent) as bitmasks (bit v: value v). Two backs make one digital number, four backs the sum of
    two; her talent reads one extra card by its front (three cards: one digital number + a front)."""
    members = np.int64(0)  # the member slots packed 3 bits each
    k = 0
    for i in range(4):
        if subset >> i & 1:
            members |= np.int64(i) << (3 * k)
            k += 1
    a, b, c, d = members & 7, members >> 3 & 7, members >> 6 & 7, members >> 9 & 7
    normal, talent = np.int64(0), np.int64(0)
    if k == 2:
        normal = np.int64(PAIR_DIGITS[halves[a], halves[b]])
    elif k == 4:
        for pairing in range(3):  # a with b|c|d, the other two together
            x, y, z = (b, c, d) if pairing == 0 else ((c, b, d) if pairing == 1 else (d, b, c))
            first = np.int64(PAIR_DIGITS[halves[a], halves[x]])
            second = np.int64(PAIR_DIGITS[halves[y], halves[z]])
            for digit in range(10):
                if first >> digit & 1:
                    normal |= second << digit
    elif k == 3:
        talent |= np.int64(PAIR_DIGITS[halves[b], halves[c]]) << values[a]
        talent |= np.int64(PAIR_DIGITS[halves[a], halves[c]]) << values[b]
        talent |= np.int64(PAIR_DIGITS[halves[a], halves[b]]) << values[c]
    normal &= ~np.int64(1)  # an argumentation of strength 0 convinces nobody
    talent &= ~np.int64(1)
    return normal, talent & ~normal


# Arguments as packed counts: adding the codes of 2-4 cards gives how many there are of each colour
# (a nibble a colour), of each value (a nibble a value 1-6), how many are odd, and their sum, so a
# character's rule is read off one integer (:func:`code_status`) instead of loops over the cards.
CODE_VALUES, CODE_ODD, CODE_SUM = 16, 40, 48


def _front_code(colour, value):
    """The packed code of an Argument with this front (plain Python: it also builds CARD_CODE)."""
    return ((np.int64(1) << (4 * colour)) | (np.int64(1) << (CODE_VALUES + 4 * (value - 1)))
            | (np.int64(value & 1) << CODE_ODD) | (np.int64(value) << CODE_SUM))


_value_code = njit(cache=True)(_front_code)
CARD_CODE = np.array([_front_code(int(CARD_COLOUR[c]), int(CARD_VALUE[c])) if c < NUM_ARG else 0
                      for c in range(NUM_CARDS)], np.int64)


# The counts as bit fields: a nibble a colour (bits 0-15) and a nibble a value (bits 16-39); with at
# most 4 Arguments no nibble exceeds 4, so bit-parallel tests on whole fields replace loops over them.
COLOUR_ONES = np.int64(0x1111)
VALUE_ONES = np.int64(0x111111) << CODE_VALUES


def _value_spans():
    """Highest minus lowest value of each set of values 1-6 (bit v-1: value v), 0 for none."""
    spans = np.zeros(64, np.int64)
    for bits in range(1, 64):
        members = [v for v in range(6) if bits >> v & 1]
        spans[bits] = members[-1] - members[0]
    return spans


VALUE_SPAN = _value_spans()


@njit(cache=True, inline="always")
def _occupied(field, ones):
    """The nibbles of ``field`` that are not 0, as their lowest bits (``ones``: every nibble's lowest bit)."""
    return (field | field >> 1 | field >> 2) & ones


@njit(cache=True, inline="always")
def _has_count(field, ones, n):
    """Whether some nibble of ``field`` (the nibbles ``ones`` marks) holds exactly ``n`` (1-4)."""
    return _occupied(field ^ (n * ones), ones) != ones


@njit(cache=True, inline="always")
def _distinct_colours(code):
    return (_occupied(code, COLOUR_ONES) * np.int64(0x1111)) >> 12 & 15


@njit(cache=True, inline="always")
def _distinct_values(code):
    return ((_occupied(code, VALUE_ONES) >> CODE_VALUES) * np.int64(0x111111)) >> 20 & 15


@njit(cache=True, inline="always")
def _value_set(code):
    """The values present (bit v-1: value v): the value nibbles' occupied bits gathered into 6 bits."""
    bits = _occupied(code, VALUE_ONES) >> CODE_VALUES  # bits 0, 4, ..., 20
    bits = (bits | bits >> 3) & 0x030303
    bits = (bits | bits >> 6) & 0x3000F
    return (bits | bits >> 12) & 63


@njit(cache=True, inline="always")
def _alike_status(field, ones, k):
    """0 if all ``k`` counted Arguments share one nibble, 1 if all but one do, else 2."""
    if _has_count(field, ones, k):
        return 0
    return 1 if _has_count(field, ones, k - 1) else 2


@njit(cache=True, inline="always")
def code_status(kind, code, k):
    """:func:`rule_status` of ``k`` Arguments (2-4, not Krapotke's dice, not Maria) from the sum of
    their CARD_CODEs."""
    if kind == D.GOD:
        return 0 if k == 2 else 1
    if kind == D.KANGAROO:  # one colour; talent: one outsider
        return _alike_status(code & (COLOUR_ONES * 15), COLOUR_ONES, k)
    if kind == D.OTTO_VON:  # one value; talent: one outsider
        return _alike_status(code & (VALUE_ONES * 15), VALUE_ONES, k)
    if kind == D.FRIEDRICH_WILHELM:  # all colours different; talent: one colour twice
        distinct = _distinct_colours(code)
        return 0 if distinct == k else (1 if distinct == k - 1 else 2)
    if kind == D.KLEINKUENSTLER:  # a straight; talent: one number skipped inside it
        if _distinct_values(code) != k:
            return 2
        span = VALUE_SPAN[_value_set(code)]
        return 0 if span == k - 1 else (1 if span == k else 2)
    if kind == D.HERTA:  # one parity
        odd = code >> CODE_ODD & 15
        if odd == 0 or odd == k:
            return 0
        return 1 if odd == 1 or odd == k - 1 else 2
    return 2


@njit(cache=True, inline="always")
def code_may_grow(kind, relax, code, k):
    """Whether some 3 or 4 Arguments containing these ``k`` (summed CARD_CODEs ``code``) can argue
    for ``kind`` (not Maria, not Krapotke). False only when none can: each rule's flaw (outsiders,
    repeated colours, mixed parities, repeated values or a wide span) never shrinks as cards join."""
    allowance = 1 if relax else 0
    if kind == D.GOD:
        return relax
    if kind == D.KANGAROO or kind == D.OTTO_VON:
        ones = COLOUR_ONES if kind == D.KANGAROO else VALUE_ONES
        field = code & (ones * 15)
        for top in range(k, k - allowance - 1, -1):  # k - (the largest count) outsiders
            if _has_count(field, ones, top):
                return True
        return False
    if kind == D.FRIEDRICH_WILHELM:
        return k - _distinct_colours(code) <= allowance
    if kind == D.HERTA:
        odd = code >> CODE_ODD & 15
        return min(odd, k - odd) <= allowance
    if kind == D.KLEINKUENSTLER:  # distinct values spanning at most 3 (4 with the talent)
        return _distinct_values(code) == k and VALUE_SPAN[_value_set(code)] <= 3 + allowance
    return True


# ==== the hot path: argument search =============================================================


@njit(cache=True, inline="always")
def subset_readings(kind, colours, values, halves, present, normal, talent):
    """What each of the 11 subsets of a seat's 4 cards (Krapotke: dice) argues for character
    ``kind``, as bitmasks of values (bit v: value v): ``normal[s]`` by the character's rule,
    ``talent[s]`` only with her talent (Maria: the readings of her digital numbers; everyone else:
    the sum, if the rule allows the subset). 0 for a subset with a slot not in ``present``. This
    is the Nazi-independent part of the argument search: masks evaluate it once per seat and then
    filter it per Nazi with bit operations (:func:`cards_accepted`, :func:`fitting_values`)."""
    codes = card_codes(kind, colours, values)
    for s in range(NUM_SUBSETS):
        normal[s] = 0
        talent[s] = 0
        if SUBSETS[s] & present == SUBSETS[s]:
            normal[s], talent[s] = subset_reading(kind, colours, values, halves, codes, s)


@njit(cache=True, inline="always")
def card_codes(kind, colours, values):
    """The 4 cards' packed counts (CARD_CODE) for a character whose rule reads them (not Maria, not
    Krapotke: zeros)."""
    if kind == D.MARIA or kind == D.KRAPOTKE:
        return np.int64(0), np.int64(0), np.int64(0), np.int64(0)
    return (_value_code(colours[0], values[0]), _value_code(colours[1], values[1]),
            _value_code(colours[2], values[2]), _value_code(colours[3], values[3]))


@njit(cache=True, inline="always")
def subset_reading(kind, colours, values, halves, codes, s):
    """(normal, talent) readings of the cards of subset ``SUBSETS[s]`` (see :func:`subset_readings`);
    ``codes``: :func:`card_codes` of the 4 cards."""
    subset = SUBSETS[s]
    if kind == D.MARIA:
        return maria_readings(halves, values, subset)
    if kind != D.KRAPOTKE:  # the rule from the cards' packed counts (as card_options reads it)
        code = ((codes[0] if subset & 1 else 0) + (codes[1] if subset & 2 else 0)
                + (codes[2] if subset & 4 else 0) + (codes[3] if subset & 8 else 0))
        status = code_status(kind, code, SUBSET_SIZE[s])
        value_bit = np.int64(1) << (code >> CODE_SUM)  # (selects, not branches: status varies)
        return (value_bit if status == 0 else np.int64(0)), (value_bit if status == 1 else np.int64(0))
    status = rule_status(kind, colours, values, subset)
    total = 0
    for i in range(4):
        if subset >> i & 1:
            total += values[i]
    value_bit = np.int64(1) << total
    return (value_bit if status == 0 else np.int64(0)), (value_bit if status == 1 else np.int64(0))


@njit(cache=True, inline="always")
def cards_accepted(colours, values, usable, allowed_colours, banned_values):
    """The slots (bitmask) whose card may be used and is accepted by a Nazi with these rules."""
    fits = 0
    for i in range(4):
        if usable[i] and (allowed_colours >> colours[i] & 1) and not (banned_values >> values[i] & 1):
            fits |= 1 << i
    return fits


@njit(cache=True)
def seat_options(kind, relax, colours, values, halves, usable, allowed_colours, banned_values,
                 out_mask, out_value, out_talent):
    """Every argumentation one seat can lay at one Nazi: writes (subset of the 4 slots, value,
    needs the talent) triples and returns how many. ``colours``/``values``/``halves`` describe the
    seat's 4 cards (Krapotke: his 4 dice, die k of colour k); ``usable[i]`` says card i is there
    and may be used (an Argument whose front is known, a free die). ``allowed_colours`` is a colour
    bitmask and ``banned_values`` a bitmask over values 1-6 (the Nazi's rules and "no 6s");
    ``relax`` says the seat's talent is active."""
    normal = np.empty(NUM_SUBSETS, np.int64)
    talent = np.empty(NUM_SUBSETS, np.int64)
    accepted = cards_accepted(colours, values, usable, allowed_colours, banned_values)
    subset_readings(kind, colours, values, halves, accepted, normal, talent)
    return list_options(normal, talent, relax, accepted, out_mask, out_value, out_talent)


@njit(cache=True, inline="always")
def list_options(normal, talent, relax, accepted, out_mask, out_value, out_talent):
    """:func:`seat_options` from the seat's subset readings (:func:`subset_readings` over at least
    the ``accepted`` slots): a subset's reading depends only on its own cards, so readings made
    once for all usable cards serve every Nazi, which only picks the subsets it accepts. Lists
    subsets in order, values ascending, at most ``out_mask.shape[0]`` options."""
    n = 0
    for s in range(NUM_SUBSETS):
        if SUBSETS[s] & accepted != SUBSETS[s]:
            continue
        readings = normal[s] | (talent[s] if relax else np.int64(0))
        if readings == 0:
            continue
        for v in range(1, MAX_VALUE):
            if (readings >> v & 1) and n < out_mask.shape[0]:
                out_mask[n] = SUBSETS[s]
                out_value[n] = v
                out_talent[n] = 0 if (normal[s] >> v & 1) else 1
                n += 1
    return n


@njit(cache=True)
def team_search(targets, min_new, can_join, must_join, opt_value, opt_count, ways, solution_option):
    """Count the teams that hit one of ``targets`` (a bitmask of sums) exactly.

    Each seat with ``can_join`` adds at most one of its options (``opt_value[seat, :opt_count[seat]]``);
    seats with ``must_join`` must add one (all against one); at least ``min_new`` seats join (never
    alone). ``ways`` is scratch of shape (seats + 1, 32, seats + 1) (filled up to the highest target
    sum only, which is all the count and the team read). Returns the number of teams
    (each reading of a target counted once) and writes the team with the fewest members into
    ``solution_option`` (option index per seat, -1: does not join); all -1 if there is none.
    """
    seats = can_join.shape[0]
    highest = -1  # sums above the highest target are never asked for: their cells are not filled
    for total in range(32):
        if targets >> total & 1:
            highest = total
    ways[seats, :, :] = 0
    ways[seats, 0, 0] = 1
    for seat in range(seats - 1, -1, -1):
        for total in range(highest + 1):
            for members in range(seats + 1):
                if members > seats - seat:  # more members than seats left: none
                    ways[seat, total, members] = 0
                    continue
                count = 0
                if not must_join[seat]:
                    count += ways[seat + 1, total, members]
                if can_join[seat] and members > 0:
                    for o in range(opt_count[seat]):
                        v = opt_value[seat, o]
                        if v <= total:
                            count += ways[seat + 1, total - v, members - 1]
                ways[seat, total, members] = min(count, 1 << 40)
    solutions = 0
    best_members, best_total = -1, -1
    for total in range(32):
        if targets >> total & 1:
            for members in range(min_new, seats + 1):
                if ways[0, total, members] > 0:
                    solutions += ways[0, total, members]
                    if best_members < 0 or members < best_members:
                        best_members, best_total = members, total
    for seat in range(seats):
        solution_option[seat] = -1
    if best_members >= 0:
        total, members = best_total, best_members
        for seat in range(seats):
            if not must_join[seat] and ways[seat + 1, total, members] > 0:
                continue
            for o in range(opt_count[seat]):
                v = opt_value[seat, o]
                if members > 0 and v <= total and ways[seat + 1, total - v, members - 1] > 0:
                    solution_option[seat] = o
                    total -= v
                    members -= 1
                    break
    return solutions


@njit(cache=True)
def argument_search(iq, allowed_colours, banned_values, min_team, everyone, kinds, relax,
                    colours, values, halves, usable, pool_fixed, pool_readings, contributed,
                    solution):
    """The named hot path: every way the seats can convince one face-up Nazi exactly.

    ``iq``, ``allowed_colours`` (colour bitmask), ``banned_values`` (bitmask over values 1-6) and
    ``everyone`` (all against one) describe the Nazi; ``min_team`` is 2 in "never alone!" chapters.
    Per seat: ``kinds`` (character), ``relax`` (talent active) and its 4 cards or dice in
    ``colours``/``values``/``halves``/``usable`` (int8 [seats, 4]). The pool so far: the fixed sum
    ``pool_fixed``, Maria's possible readings ``pool_readings`` (bitmask, 0 if she did not lay)
    and ``contributed`` (int8 [seats]) for seats that already laid here.

    Returns the number of ways (teams and their readings) and writes one with the fewest new
    members into ``solution`` (subset of hand slots per seat, 0: no contribution).
    """
    seats = kinds.shape[0]
    options = np.zeros((3, seats, MAX_OPTIONS), np.int64)  # subset, value, needs talent
    per_seat = np.zeros((4, seats), np.int64)               # option count, can join, must join, chosen
    members = 0
    for seat in range(seats):
        members += contributed[seat]
        if not contributed[seat]:
            per_seat[0, seat] = seat_options(kinds[seat], relax[seat], colours[seat], values[seat], halves[seat],
                                             usable[seat], allowed_colours, banned_values,
                                             options[0, seat], options[1, seat], options[2, seat])
            per_seat[1, seat] = 1
            per_seat[2, seat] = everyone
    ways = np.zeros((seats + 1, 32, seats + 1), np.int64)
    count = team_search(_targets(iq, pool_fixed, pool_readings), max(0, min_team - members), per_seat[1],
                        per_seat[2], options[1], per_seat[0], ways, per_seat[3])
    for seat in range(seats):
        solution[seat] = options[0, seat, per_seat[3, seat]] if per_seat[3, seat] >= 0 else 0
    return count


@njit(cache=True)
def exchange_scores(kinds, relax, colours, values, halves, usable, nazis, weights, min_team, changes, scores):
    """For each candidate exchange k (``changes[k]`` = seat a, slot a, colour, value, half, seat b,
    slot b, colour, value, half; seat b = -1 for a Bib swap, seat a = -1 too: no exchange) the summed
    ``weights`` of the Nazis :func:`argument_search` can then convince exactly (the exchanged cards
    count as usable). ``nazis[j]`` = IQ, allowed colours, banned values, all against one, pool sum,
    Maria's readings, then one flag per seat for "already laid here". The heuristic trades with this;
    the observation's exchange hints (:func:`exchange_gains`) score the same with weight 1 a Nazi,
    without a full search per candidate."""
    seats = kinds.shape[0]
    solution = np.zeros(seats, np.int8)
    contributed = np.zeros(seats, np.int8)
    saved = np.zeros((2, 4), np.int64)  # one candidate's exchanged cards, put back after scoring it
    for k in range(changes.shape[0]):
        for side in range(2):
            seat, slot = changes[k, 5 * side], changes[k, 5 * side + 1]
            if seat >= 0:
                saved[side, 0] = colours[seat, slot]
                saved[side, 1] = values[seat, slot]
                saved[side, 2] = halves[seat, slot]
                saved[side, 3] = usable[seat, slot]
                colours[seat, slot] = changes[k, 5 * side + 2]
                values[seat, slot] = changes[k, 5 * side + 3]
                halves[seat, slot] = changes[k, 5 * side + 4]
                usable[seat, slot] = 1
        total = 0.0
        for j in range(nazis.shape[0]):
            for seat in range(seats):
                contributed[seat] = nazis[j, 6 + seat]
            ways = argument_search(nazis[j, 0], nazis[j, 1], nazis[j, 2], min_team, nazis[j, 3], kinds, relax,
                                   colours, values, halves, usable, nazis[j, 4], nazis[j, 5], contributed, solution)
            if ways > 0:
                total += weights[j]
        scores[k] = total
        for side in range(1, -1, -1):
            seat, slot = changes[k, 5 * side], changes[k, 5 * side + 1]
            if seat >= 0:
                colours[seat, slot] = saved[side, 0]
                values[seat, slot] = saved[side, 1]
                halves[seat, slot] = saved[side, 2]
                usable[seat, slot] = saved[side, 3]


@njit(cache=True)
def _targets(iq, pool_fixed, pool_readings):
    """The sums the new contributions must hit: what the pool still needs, for each of Maria's readings."""
    need = iq - pool_fixed
    if pool_readings == 0:
        return np.int64(1) << need if need >= 0 else np.int64(0)
    targets = np.int64(0)
    for v in range(MAX_VALUE):
        if (pool_readings >> v & 1) and need - v >= 0:
            targets |= np.int64(1) << (need - v)
    return targets


# ==== "can no longer convince": the relaxation over every Argument left ========================


@njit(cache=True)
def _shift_by(bits, present):
    """{b + w : b in bits, w in present} (present: bitmask of values 1-6)."""
    out = np.int64(0)
    for w in range(1, 7):
        if present >> w & 1:
            out |= bits << w
    return out & ((np.int64(1) << MAX_VALUE) - 1)


@njit(cache=True)
def _multiset_sums(counts, out):
    """out[k]: bitmask of the sums of k cards (k = 0..4) drawn from counts[v] cards of value v."""
    for k in range(5):
        out[k] = 0
    out[0] = 1
    for v in range(1, 7):
        for k in range(4, 0, -1):
            for t in range(1, min(counts[v], k) + 1):
                out[k] |= out[k - t] << (t * v)
    return out


@njit(cache=True)
def _dice_sums(faces, fewest, most):
    """Krapotke's sums of k dice, fewest <= k <= most, as a bitmask: k equal faces or a straight of
    k faces, each face from ``faces`` (a bitmask of values 1-5)."""
    sums = np.int64(0)
    for k in range(fewest, most + 1):
        for v in range(1, 6):
            if faces >> v & 1:
                sums |= np.int64(1) << (k * v)
        for start in range(1, 6 - k + 2):
            total, ok = 0, True
            for v in range(start, start + k):
                ok = ok and (faces >> v & 1) != 0
                total += v
            if ok:
                sums |= np.int64(1) << total
    return sums


@njit(cache=True)
def pooled_values(kind, talented, counts, half_counts, dice_ok, banned_values):
    """The values character ``kind`` could reach at a Nazi if it could pick any of the Arguments
    left in the game: ``counts[colour, value]`` of the Arguments the Nazi accepts, ``half_counts[h]``
    of their half digits (for Maria), ``dice_ok[k]`` whether die k's colour is accepted. A bitmask
    of values; an over-approximation (a sound relaxation): the true reach is a subset."""
    reach = np.int64(0)
    scratch = np.zeros((4, 8), np.int64)
    sums, totals, layers, part = scratch[0], scratch[1], scratch[2], scratch[3]
    present = 0
    for c in range(D.NUM_COLOURS):
        for v in range(1, 7):
            totals[v] += counts[c, v]
            if counts[c, v] > 0:
                present |= 1 << v
    if kind == D.KANGAROO:
        for c in range(D.NUM_COLOURS):
            _multiset_sums(counts[c], sums)
            reach |= sums[2] | sums[3] | sums[4]
            if talented:
                other = 0
                for v in range(1, 7):
                    if totals[v] - counts[c, v] > 0:
                        other |= 1 << v
                reach |= _shift_by(sums[1] | sums[2] | sums[3], other)
    elif kind == D.KLEINKUENSTLER:
        for start in range(1, 7):
            for length in range(2, 5):
                total, ok = 0, True
                for v in range(start, start + length):
                    ok = ok and v <= 6 and (present >> v & 1) != 0
                    total += v
                if ok:
                    reach |= np.int64(1) << total
                if talented:  # one skipped number inside: start..start+length minus one interior value
                    for gap in range(start + 1, start + length):
                        total, ok = 0, True
                        for v in range(start, start + length + 1):
                            if v != gap:
                                ok = ok and v <= 6 and (present >> v & 1) != 0
                                total += v
                        if ok:
                            reach |= np.int64(1) << total
    elif kind == D.FRIEDRICH_WILHELM:
        layers[0] = 1
        for c in range(D.NUM_COLOURS):
            for k in range(4, 0, -1):
                for v in range(1, 7):
                    if counts[c, v] > 0:
                        layers[k] |= layers[k - 1] << v
        reach |= layers[2] | layers[3] | layers[4]
        if talented:
            reach |= _shift_by(layers[1] | layers[2] | layers[3], present)
    elif kind == D.OTTO_VON:
        for v in range(1, 7):
            for k in range(2, min(4, totals[v]) + 1):
                reach |= np.int64(1) << (k * v)
            if talented:
                others = present & ~(1 << v)
                for k in range(1, min(3, totals[v]) + 1):
                    reach |= _shift_by(np.int64(1) << (k * v), others)
    elif kind == D.GOD:
        _multiset_sums(totals, sums)
        reach |= sums[2]
        if talented:
            reach |= sums[3] | sums[4]
    elif kind == D.HERTA:
        for parity in range(2):
            other = 0
            for v in range(1, 7):
                part[v] = totals[v] if v % 2 == parity else 0
                if v % 2 != parity and totals[v] > 0:
                    other |= 1 << v
            _multiset_sums(part, sums)
            reach |= sums[2] | sums[3] | sums[4]
            if talented:
                reach |= _shift_by(sums[1] | sums[2] | sums[3], other)
    elif kind == D.MARIA:
        digits = np.int64(0)
        for a in range(D.NUM_HALVES):
            for b in range(a, D.NUM_HALVES):
                if half_counts[a] > 0 and half_counts[b] > 0 and (a != b or half_counts[a] > 1):
                    digits |= PAIR_DIGITS[a, b]
        two = np.int64(0)
        for d in range(10):
            if digits >> d & 1:
                two |= digits << d
        reach |= digits | two
        if talented:
            for w in range(1, 7):
                if present >> w & 1:
                    reach |= digits << w
        reach &= ~np.int64(1)
    elif kind == D.KRAPOTKE:
        dice = 0
        for k in range(D.NUM_DICE):
            dice += dice_ok[k]
        faces = 0
        for v in range(1, 6):  # a 6 is blocked, never used
            if not (banned_values >> v & 1):
                faces |= 1 << v
        reach |= _dice_sums(faces, 2, dice)
        if talented and dice >= 3:
            reach |= _shift_by(_dice_sums(faces, 1, dice - 1), faces)
    return reach & ((np.int64(1) << MAX_VALUE) - 1)


@njit(cache=True)
def team_reaches(iq, seat_reach, min_team, everyone, num):
    """Whether some team (each seat at most one value from ``seat_reach[seat]``, at least
    ``min_team`` members, every seat if ``everyone``) can sum to ``iq`` exactly."""
    return (team_sums(seat_reach, min_team, everyone, num) >> iq & 1) != 0


@njit(cache=True)
def team_sums(seat_reach, min_team, everyone, num):
    """The sums (bitmask) some team can reach: each seat at most one value from ``seat_reach[seat]``,
    at least ``min_team`` members, every seat if ``everyone``."""
    layers = np.zeros((2, num + 1), np.int64)  # layers[., m]: sums reachable with m members
    layers[0, 0] = 1
    for seat in range(num):
        old, new = seat % 2, 1 - seat % 2
        for m in range(num + 1):
            layers[new, m] = 0 if everyone else layers[old, m]
            if m > 0:
                for v in range(1, MAX_VALUE):
                    if seat_reach[seat] >> v & 1:
                        layers[new, m] |= layers[old, m - 1] << v
    sums = np.int64(0)
    for m in range(min_team, num + 1):
        sums |= layers[num % 2, m]
    return sums


@njit(cache=True)
def can_still_win(state):
    """False when the Arguments left can no longer convince the Nazis left (the third way to lose).

    Sound and cheap: (1) for each Nazi not yet convinced, even if every Argument still in the game
    (hands, pools, stacks, Bib, talent spaces) could be handed to any character, no team of the
    characters in play reaches its IQ under its rules (:func:`pooled_values`); or (2) without Maria
    and Krapotke (whose numbers are not the face values), the face values left (without 6s in
    "no 6s") sum to less than the IQs left.
    """
    num = int(state.num_players)
    talented = (state.labels & D.L_TALENTS) != 0
    no_sixes = (state.labels & D.L_NO_SIXES) != 0
    counts = np.zeros((D.NUM_COLOURS, 7), np.int64)
    half_counts = np.zeros(D.NUM_HALVES, np.int64)
    dice_ok = np.zeros(D.NUM_DICE, np.int64)
    seat_reach = np.zeros(num, np.int64)
    # Nazis with the same rules share the seats' reach (most lie 08/15 side up): one entry per rules.
    rules_allowed = np.zeros(D.NUM_NAZIS, np.int64)
    rules_banned = np.zeros(D.NUM_NAZIS, np.int64)
    rules_everyone = np.zeros(D.NUM_NAZIS, np.int64)
    rules_sums = np.zeros(D.NUM_NAZIS, np.int64)
    rules_count = 0
    face_values_left = 0
    iq_left = 0
    flexible = False
    for seat in range(num):
        flexible = flexible or state.character[seat] == D.MARIA or state.character[seat] == D.KRAPOTKE
    for card in range(NUM_ARG):
        if state.card_loc[card] != LOC_DISCARD and not (no_sixes and CARD_VALUE[card] == 6):
            face_values_left += CARD_VALUE[card]
    for nazi in range(D.NUM_NAZIS):
        if state.nazi_at[nazi] == NAZI_CONVINCED:
            continue
        iq_left += NAZI_IQ[nazi]
        allowed, banned, everyone = nazi_rules(state, nazi)
        r = 0
        while r < rules_count and not (rules_allowed[r] == allowed and rules_banned[r] == banned
                                       and rules_everyone[r] == everyone):
            r += 1
        if r == rules_count:
            counts[:] = 0
            half_counts[:] = 0
            for card in range(NUM_ARG):
                if (state.card_loc[card] != LOC_DISCARD and (allowed >> CARD_COLOUR[card] & 1)
                        and not (banned >> CARD_VALUE[card] & 1)):
                    counts[CARD_COLOUR[card], CARD_VALUE[card]] += 1
                    half_counts[CARD_HALF[card]] += 1
            for k in range(D.NUM_DICE):
                dice_ok[k] = (allowed >> k) & 1
            for seat in range(num):
                seat_reach[seat] = pooled_values(state.character[seat], talented, counts, half_counts, dice_ok,
                                                 banned)
            rules_allowed[r], rules_banned[r], rules_everyone[r] = allowed, banned, everyone
            rules_sums[r] = team_sums(seat_reach, min_team(state), everyone, num)
            rules_count += 1
        if not (rules_sums[r] >> NAZI_IQ[nazi] & 1):
            return False
    return flexible or face_values_left >= iq_left


# ==== lost positions: exact searches over the Arguments that can still reach a hand ============
#
# The relaxation above lets every character pick from every Argument left. Late in a chapter the
# Arguments that can still reach a hand are few, and the exact question becomes cheap: can teams
# lay disjoint sets of those very cards (and Krapotke's dice, which may show anything) so as to hit
# the IQs? :func:`lost_reason` asks it where its answer decides the chapter (see there).

MAX_CLOSED = 22           # exact searches run over at most this many Arguments a Nazi accepts
MAX_CARD_OPTIONS = 65536  # argumentations of all characters at all Nazis of one search
FIRST_OPTIONS = 2048      # the full search lists them into this many first (rarely more: then again)
SEARCH_BUDGET = 200_000   # steps of one search; past it the position counts as winnable
QUICK_BUDGET = 2_000      # steps of the quick search over pairs (past it the full search decides)
QUICK_OPTIONS = 2048      # its argumentations (more: the full search decides)
MAX_PACKED = 6            # the packing search takes at most this many Nazis together


@njit(cache=True)
def _stack_cards(state):
    total = 0
    for s in range(state.num_stacks):
        total += state.stack_len[s]
    return total


@njit(cache=True)
def closed_cards(state, out):
    """The Arguments that can still reach a hand before the next Nazi is convinced, when no stack
    card can: those in hands, pools, the Bib and, when the Bib can be expanded, on talent spaces.
    Writes their ids into ``out`` and returns how many; -1 when stack cards still can.

    Before a Nazi is convinced a stack card reaches a hand only through the Bib (expanded from the
    stacks, then drawn or swapped) or through the emergency redraw while it is unused and deals
    from the stacks (not in chapter "the Arguments run out": there the new hands come from the Bib,
    and the redraw only adds the hands' own cards to the stacks)."""
    expansion = (state.labels & D.L_EXPANSION) != 0
    from_stacks = expansion and not (state.labels & D.L_BIB10_TALENT)
    redraw_deals = not state.emergency_used and hands_from_stacks(state)
    if _stack_cards(state) > 0 and (from_stacks or redraw_deals):
        return -1
    n = 0
    for card in range(NUM_ARG):
        loc = state.card_loc[card]
        if loc == LOC_HAND or loc == LOC_POOL or loc == LOC_BIB or (loc == LOC_TALENT and expansion):
            out[n] = card
            n += 1
    return n


@njit(cache=True, inline="always")
def _append_option(opt_bits, opt_value, count, bits, value):
    """Append one argumentation (its cards ``bits``, its ``value``) at ``count``; the new count, or
    -1 when the arrays are full."""
    if count >= opt_bits.shape[0]:
        return -1
    opt_bits[count] = bits
    opt_value[count] = value
    return count + 1


@njit(cache=True)
def _add_maria_option(relax, members, k, bits, opt_bits, opt_value, count, colours, values, halves):
    """Append Maria's argumentations (one per reading) of the ``k`` Arguments ``members``; returns the
    new count, or -1 when the arrays are full (or were: ``count`` -1). ``colours``/``values``/``halves``:
    scratch of 4."""
    if count < 0:
        return -1
    for i in range(4):
        colours[i] = CARD_COLOUR[members[i]] if i < k else 0
        values[i] = CARD_VALUE[members[i]] if i < k else 0
        halves[i] = CARD_HALF[members[i]] if i < k else 0
    normal, talent = maria_readings(halves, values, (1 << k) - 1)
    readings = normal | (talent if relax else np.int64(0))
    readings &= ((np.int64(1) << MAX_VALUE) - 1) & ~np.int64(1)  # values 1..MAX_VALUE-1
    while readings:  # one entry per value, ascending
        v = _lowest_bit(readings)
        readings &= readings - 1
        count = _append_option(opt_bits, opt_value, count, bits, v)
        if count < 0:
            return -1
    return count


@njit(cache=True)
def card_options(kind, relax, cards, n, allowed, banned, opt_bits, opt_value, start):
    """Every argumentation character ``kind`` (``relax``: with its talent) can form from the
    Arguments ``cards[:n]`` at a Nazi with these rules, appended from ``start``: which cards (bit
    i: ``cards[i]``) and the value, one entry per value. Krapotke's dice, which are no cards, may
    show any values 1-5 (:func:`pooled_values`). Returns the new end, or -1 when the arrays are full
    or more than MAX_CLOSED cards fit the Nazi (the caller then knows nothing)."""
    return card_options_upto(kind, relax, cards, n, allowed, banned, opt_bits, opt_value, start, 4)


@njit(cache=True)
def card_options_upto(kind, relax, cards, n, allowed, banned, opt_bits, opt_value, start, largest):
    """:func:`card_options` limited to argumentations of at most ``largest`` Arguments (Krapotke's
    dice: all of them): a subset of the options, for a quick first search."""
    count = start
    if kind == D.KRAPOTKE:
        dice_ok = np.zeros(D.NUM_DICE, np.int64)
        for k in range(D.NUM_DICE):
            dice_ok[k] = (allowed >> k) & 1
        reach = pooled_values(kind, relax, np.zeros((D.NUM_COLOURS, 7), np.int64), np.zeros(D.NUM_HALVES, np.int64),
                              dice_ok, banned)
        for v in range(1, MAX_VALUE):
            if reach >> v & 1:
                count = _append_option(opt_bits, opt_value, count, 0, v)
                if count < 0:
                    return -1
        return count
    fit = np.zeros(MAX_CLOSED, np.int64)  # positions in cards[] of the Arguments the Nazi accepts
    m = 0
    for i in range(n):
        if (allowed >> CARD_COLOUR[cards[i]] & 1) and not (banned >> CARD_VALUE[cards[i]] & 1):
            if m == MAX_CLOSED:
                return -1
            fit[m] = i
            m += 1
    members = np.zeros(4, np.int64)
    scratch = np.zeros((3, 4), np.int64)  # colours, values, halves of the members
    colours, values, halves = scratch[0], scratch[1], scratch[2]
    if kind == D.MARIA:  # her readings need the cards' backs
        for a in range(m):
            members[0] = cards[fit[a]]
            for b in range(a + 1, m):
                members[1] = cards[fit[b]]
                two = (np.int64(1) << fit[a]) | (np.int64(1) << fit[b])
                count = _add_maria_option(relax, members, 2, two, opt_bits, opt_value, count, colours, values, halves)
                for c in range(b + 1, m if largest >= 3 else b + 1):
                    members[2] = cards[fit[c]]
                    three = two | (np.int64(1) << fit[c])
                    if relax:  # three backs read only with her talent
                        count = _add_maria_option(relax, members, 3, three, opt_bits, opt_value, count, colours,
                                                  values, halves)
                    for d in range(c + 1, m if largest >= 4 else c + 1):
                        members[3] = cards[fit[d]]
                        count = _add_maria_option(relax, members, 4, three | (np.int64(1) << fit[d]), opt_bits,
                                                  opt_value, count, colours, values, halves)
            if count < 0:
                return -1
        return count
    # Everyone else: the rule read off the members' summed codes, the value their sum. (Scalar code in
    # the loops: a call per set of cards with arrays as arguments costs more than the rule.) Sets that
    # no larger set containing them can argue with are not grown (the entries are the same).
    for a in range(m):
        code_one = CARD_CODE[cards[fit[a]]]
        for b in range(a + 1, m):
            two = (np.int64(1) << fit[a]) | (np.int64(1) << fit[b])
            code_two = code_one + CARD_CODE[cards[fit[b]]]
            if _code_fits(kind, relax, code_two, 2):
                count = _append_option(opt_bits, opt_value, count, two, code_two >> CODE_SUM)
                if count < 0:
                    return -1
            if largest < 3 or not code_may_grow(kind, relax, code_two, 2):
                continue
            for c in range(b + 1, m):
                three = two | (np.int64(1) << fit[c])
                code_three = code_two + CARD_CODE[cards[fit[c]]]
                if _code_fits(kind, relax, code_three, 3):
                    count = _append_option(opt_bits, opt_value, count, three, code_three >> CODE_SUM)
                    if count < 0:
                        return -1
                if not code_may_grow(kind, relax, code_three, 3):
                    continue
                for d in range(c + 1, m if largest >= 4 else c + 1):
                    code_four = code_three + CARD_CODE[cards[fit[d]]]
                    if _code_fits(kind, relax, code_four, 4):
                        count = _append_option(opt_bits, opt_value, count, three | (np.int64(1) << fit[d]),
                                               code_four >> CODE_SUM)
                        if count < 0:
                            return -1
    return count


@njit(cache=True, inline="always")
def _code_fits(kind, relax, code, k):
    """Whether ``k`` Arguments with summed CARD_CODEs ``code`` argue for ``kind`` (``relax``: talent)."""
    status = code_status(kind, code, k)
    return status == 0 or (status == 1 and relax)


@njit(cache=True)
def _sort_by_value(opt_bits, opt_value, start, end):
    """Sort entries start..end-1 by value (a counting sort: values are below MAX_VALUE)."""
    size = end - start
    bits = opt_bits[start:end].copy()
    values = opt_value[start:end].copy()
    first = np.zeros(MAX_VALUE + 1, np.int64)
    for i in range(size):
        first[values[i] + 1] += 1
    for v in range(MAX_VALUE):
        first[v + 1] += first[v]
    for i in range(size):
        k = start + first[values[i]]
        first[values[i]] += 1
        opt_bits[k] = bits[i]
        opt_value[k] = values[i]


@njit(cache=True)
def teams_fit(iqs, everyone, min_members, seats, opt_start, opt_bits, opt_value, budget):
    """Whether one team per Nazi can hit each of ``iqs`` exactly, no card used twice: for Nazi j
    and seat s the options are entries ``opt_start[j * seats + s]`` up to the next start (sorted by
    value; bits: the cards they use). Each seat adds at most one option per Nazi (every seat when
    ``everyone[j]``), each team has at least ``min_members``. A depth-first search over (Nazi,
    seat), pruned by the sums the later seats could reach at all. Returns 1 (found), 0 (none) or
    -1 (``budget`` steps were not enough)."""
    nazis = iqs.shape[0]
    levels = nazis * seats
    reach = np.zeros(levels + 1, np.int64)  # reach[j * seats + s]: sums seats s.. can add for Nazi j
    for j in range(nazis):
        for s in range(seats - 1, -1, -1):
            level = j * seats + s
            after = np.int64(1) if s == seats - 1 else reach[level + 1]
            values = np.int64(0)
            for o in range(opt_start[level], opt_start[level + 1]):
                values |= np.int64(1) << opt_value[o]
            reach[level] = 0 if everyone[j] else after
            reach[level] |= _shift_all(after, values)
    cursor = np.full(levels + 1, -2, np.int64)  # -2: not begun; -1: this seat stays out; o: option o
    need = np.zeros(levels + 1, np.int64)
    used = np.zeros(levels + 1, np.int64)
    members = np.zeros(levels + 1, np.int64)
    need[0] = iqs[0]
    level = 0
    steps = 0
    while level >= 0:
        steps += 1
        if steps > budget:
            return -1
        j, s = level // seats, level % seats
        after = np.int64(1) if s == seats - 1 else reach[level + 1]
        candidate = cursor[level] + 1
        if candidate == -1:
            candidate = 0 if everyone[j] else -1
        chosen = -2
        while chosen == -2 and candidate < opt_start[level + 1] - opt_start[level]:
            if candidate == -1:
                if after >> need[level] & 1:
                    chosen = -1
            else:
                o = opt_start[level] + candidate
                left = need[level] - opt_value[o]
                if left < 0:
                    break  # sorted by value: the rest overshoot too
                if not (after >> left & 1):  # the later seats cannot add the rest: skip to a value they can
                    value = _next_completed_value(after, need[level], opt_value[o])
                    if value < 0:
                        break
                    candidate = _first_at_least(opt_value, o + 1, opt_start[level + 1], value) - opt_start[level]
                    continue
                if (opt_bits[o] & used[level]) == 0:
                    chosen = candidate
            if chosen == -2:
                candidate += 1
        if chosen == -2:
            cursor[level] = -2
            level -= 1
            continue
        cursor[level] = chosen
        joins = chosen >= 0
        o = opt_start[level] + max(chosen, 0)
        left = need[level] - (opt_value[o] if joins else 0)
        cards = used[level] | (opt_bits[o] if joins else 0)
        count = members[level] + joins
        if s == seats - 1:  # the team for Nazi j is complete (left is 0: the reach pruning saw to it)
            if count < min_members:
                continue
            if j == nazis - 1:
                return 1
            need[level + 1] = iqs[j + 1]
            members[level + 1] = 0
        else:
            need[level + 1] = left
            members[level + 1] = count
        used[level + 1] = cards
        cursor[level + 1] = -2
        level += 1
    return 0


@njit(cache=True)
def _next_completed_value(after, need, value):
    """The smallest value above ``value`` (up to ``need``) whose rest ``need - value`` the sums
    ``after`` contain, or -1."""
    for v in range(value + 1, need + 1):
        if after >> (need - v) & 1:
            return v
    return -1


@njit(cache=True)
def _first_at_least(values, lo, hi, value):
    """The first index in lo..hi-1 of the ascending ``values`` holding at least ``value`` (hi: none)."""
    while lo < hi:
        mid = (lo + hi) // 2
        if values[mid] < value:
            lo = mid + 1
        else:
            hi = mid
    return lo


@njit(cache=True)
def _shift_all(bits, values):
    """{b + v : b in bits, v in values} below MAX_VALUE (values: bitmask)."""
    out = np.int64(0)
    for v in range(1, MAX_VALUE):
        if values >> v & 1:
            out |= bits << v
    return out & ((np.int64(1) << MAX_VALUE) - 1)


@njit(cache=True)
def nazis_fit(state, nazis, count, cards, n):
    """Whether the teams of the characters in play can convince the ``count`` Nazis ``nazis``
    (each by its rules) with disjoint Arguments from ``cards[:n]`` (talents counted as available
    in talented chapters). 1 yes, 0 no, -1 not known (too many cards or options, or the budget).

    A quick search over pairs of Arguments (and dice) comes first: the pairs are few, and teams of
    them usually reach an IQ; a team it finds is a team of the full search (which is then skipped:
    its answer would be 1, or -1, which callers read alike); else the full search decides."""
    if quick_fit(state, nazis, count, cards, n):
        return 1
    return full_fit(state, nazis, count, cards, n)


@njit(cache=True)
def quick_fit(state, nazis, count, cards, n):
    """:func:`nazis_fit`'s quick search over pairs: True when it finds teams (then nazis_fit is 1)."""
    opt_bits = np.empty(QUICK_OPTIONS, np.int64)
    opt_value = np.empty(QUICK_OPTIONS, np.int64)
    return _teams_of_at_most(state, nazis, count, cards, n, opt_bits, opt_value, 2, QUICK_BUDGET) == 1


@njit(cache=True)
def full_fit(state, nazis, count, cards, n):
    """:func:`nazis_fit`'s full search (what it answers when the quick search finds nothing)."""
    options = np.empty((2, FIRST_OPTIONS), np.int64)
    found = _teams_of_at_most(state, nazis, count, cards, n, options[0], options[1], 4, SEARCH_BUDGET)
    if found == -1:  # the options overflowed the small arrays (or too many cards fit: -1 again)
        options = np.empty((2, MAX_CARD_OPTIONS), np.int64)
        found = _teams_of_at_most(state, nazis, count, cards, n, options[0], options[1], 4, SEARCH_BUDGET)
    return -1 if found == -2 else found


@njit(cache=True)
def _teams_of_at_most(state, nazis, count, cards, n, opt_bits, opt_value, largest, budget):
    """:func:`nazis_fit` with argumentations of at most ``largest`` Arguments and a search budget:
    1, 0, -1 (more than MAX_CLOSED cards fit, or the options overflow), -2 (the budget ran out)."""
    seats = int(state.num_players)
    iqs = np.zeros(count, np.int64)
    everyone = np.zeros(count, np.int64)
    opt_start = np.zeros(count * seats + 1, np.int64)
    end = 0
    for j in range(count):
        nazi = nazis[j]
        allowed, banned, everyone[j] = nazi_rules(state, nazi)
        iqs[j] = NAZI_IQ[nazi]
        end = _list_seat_options(state, cards, n, allowed, banned, opt_bits, opt_value, end, opt_start, j * seats,
                                 largest)
        if end < 0:
            return -1
    found = teams_fit(iqs, everyone, min_team(state), seats, opt_start, opt_bits, opt_value, budget)
    return -2 if found == -1 else found


@njit(cache=True)
def _list_seat_options(state, cards, n, allowed, banned, opt_bits, opt_value, end, opt_start, first, largest):
    """Every seat's argumentations of at most ``largest`` of ``cards[:n]`` at a Nazi with these rules
    (:func:`card_options_upto`, talents as in :func:`nazis_fit`), appended from ``end``, each seat's
    sorted by value and ending at ``opt_start[first + seat + 1]``; returns the new end, or -1 as
    card_options_upto does."""
    relax = (state.labels & D.L_TALENTS) != 0
    for s in range(int(state.num_players)):
        start = end
        end = card_options_upto(state.character[s], relax, cards, n, allowed, banned, opt_bits, opt_value, start,
                                largest)
        if end < 0:
            return -1
        _sort_by_value(opt_bits, opt_value, start, end)
        opt_start[first + s + 1] = end
    return end


@njit(cache=True)
def quick_fit_any(state, nazis, count, cards, n):
    """Whether :func:`quick_fit` holds for one of ``nazis[:count]`` alone (see :func:`_fit_any`)."""
    return _fit_any(state, nazis, count, cards, n, 2, QUICK_BUDGET, QUICK_OPTIONS, 0, False)


@njit(cache=True)
def full_fit_any(state, nazis, count, cards, n):
    """Whether :func:`full_fit` is nonzero for one of ``nazis[:count]`` alone (see :func:`_fit_any`;
    with full_fit's second, larger listing when the first overflows)."""
    return _fit_any(state, nazis, count, cards, n, 4, SEARCH_BUDGET, FIRST_OPTIONS, MAX_CARD_OPTIONS, True)


@njit(cache=True)
def _fit_any(state, nazis, count, cards, n, largest, budget, first_size, retry_size, unknown_fits):
    """Whether a search with argumentations of at most ``largest`` Arguments finds teams for one of
    ``nazis[:count]`` alone. A Nazi with the rules of the one before searches the argumentations
    listed for it (they depend on the rules, not on the IQ, and listing them is most of a search's
    time). A listing that overflows ``first_size`` options is redone into ``retry_size`` (0: not);
    an answer not known (the listing overflows, the budget runs out) counts as a fit when
    ``unknown_fits`` (the full search: the position counts as winnable), else as none."""
    seats = int(state.num_players)
    first = np.empty((2, first_size), np.int64)
    retry = np.empty((2, 0), np.int64)  # (allocated when a listing overflows the first arrays)
    options = first
    opt_start = np.zeros(seats + 1, np.int64)
    iqs = np.zeros(1, np.int64)
    everyone = np.zeros(1, np.int64)
    listed, last = False, (-1, -1, -1)
    for j in range(count):
        rules = nazi_rules(state, nazis[j])
        if rules != last:
            allowed, banned, everyone[0] = rules
            options = first
            listed = _list_seat_options(state, cards, n, allowed, banned, first[0], first[1], 0, opt_start, 0,
                                        largest) >= 0
            if not listed and retry_size > 0:
                if retry.shape[1] == 0:
                    retry = np.empty((2, retry_size), np.int64)
                options = retry
                listed = _list_seat_options(state, cards, n, allowed, banned, retry[0], retry[1], 0, opt_start, 0,
                                            largest) >= 0
            if not listed and unknown_fits:
                return True
            last = rules
        if listed:
            iqs[0] = NAZI_IQ[nazis[j]]
            found = teams_fit(iqs, everyone, min_team(state), seats, opt_start, options[0], options[1], budget)
            if found == 1 or (found == -1 and unknown_fits):
                return True
    return False


@njit(cache=True)
def coming_face_up(state, out):
    """The Nazis that lie face up before a fifth would, if nobody is convinced first: the face-up
    ones and the next below the stack's top (each "Achtung!" uncovers one). Returns how many."""
    n = 0
    for i in range(D.NUM_SPACES):
        if state.space[i] >= 0:
            out[n] = state.space[i]
            n += 1
    length = int(state.nazi_stack_len)
    uncovered = min(length, D.LOSE_FACE_UP - face_up_count(state))  # the top and the next ones
    for depth in range(uncovered):
        out[n] = state.nazi_stack[length - 1 - depth]
        n += 1
    return n


@njit(cache=True)
def _combo_within(card, colour_count, value_count):
    """Whether the condition on ``card``'s back can be met by four of the counted Arguments."""
    design = CARD_BACK[card]
    kind = BACK_COND_KIND[design]
    if kind == D.COND_SOLO_TASK or kind == D.COND_GROUP_TASK:
        return True
    for k in range(7):
        if kind == D.COND_COLOURS:
            have = colour_count[k] if k < D.NUM_COLOURS else 0
        else:
            have = value_count[k]
        if have < BACK_COND_COUNT[design, k]:
            return False
    return True


@njit(cache=True)
def bib_goal_reachable(state):
    """With every Nazi convinced only expansions can still fill the Bib: can the ones still
    possible reach the chapter's goal? Every stack's cards from the top down and every talent space
    whose talent is not waiting to be used (one card: it is covered again only when the talent is
    spent, on convincing) count while their conditions can be met, a combo as met when the
    Arguments in hands and the Bib (and those expanded meanwhile) hold its colours or numbers, as
    if any four could be gathered in one hand (sound: never more pessimistic than the table).
    While the emergency redraw is unused the stacks' order is not fixed (it reshuffles them), so
    then every stack card counts (:func:`_redraw_stack_bound`)."""
    colour_count = np.zeros(D.NUM_COLOURS, np.int64)
    value_count = np.zeros(7, np.int64)
    for card in range(NUM_ARG):
        if state.card_loc[card] == LOC_HAND or state.card_loc[card] == LOC_BIB or state.card_loc[card] == LOC_POOL:
            colour_count[CARD_COLOUR[card]] += 1
            value_count[CARD_VALUE[card]] += 1
    from_stacks = (state.labels & D.L_EXPANSION) != 0 and not (state.labels & D.L_BIB10_TALENT)
    depth = np.zeros(D.RUN_OUT_STACKS, np.int64)
    for s in range(state.num_stacks):
        depth[s] = state.stack_len[s]
    taken = np.zeros(MAX_PLAYERS, np.int64)
    gained, gained_talent = 0, 0
    if from_stacks and not state.emergency_used:
        gained = _redraw_stack_bound(state, colour_count, value_count)
        depth[:] = 0
    progress = True
    while progress:
        progress = False
        for s in range(state.num_stacks):
            while from_stacks and depth[s] > 0 and _combo_within(state.stack[s, depth[s] - 1], colour_count,
                                                                 value_count):
                card = state.stack[s, depth[s] - 1]
                colour_count[CARD_COLOUR[card]] += 1
                value_count[CARD_VALUE[card]] += 1
                depth[s] -= 1
                gained += 1
                progress = True
        for p in range(state.num_players):
            length = state.talent_len[p]
            if (state.labels & D.L_EXPANSION and length > 0 and not taken[p] and not state.talent_ready[p]
                    and _combo_within(state.talent[p, length - 1], colour_count, value_count)):
                card = state.talent[p, length - 1]
                colour_count[CARD_COLOUR[card]] += 1
                value_count[CARD_VALUE[card]] += 1
                taken[p] = 1
                gained += 1
                gained_talent += 1
                progress = True
    if state.labels & D.L_BIB10 and state.bib_count + gained < D.BIB_GOAL:
        return False
    if state.labels & D.L_BIB10_TALENT and state.bib_talent_count + gained_talent < D.BIB_GOAL:
        return False
    return True


@njit(cache=True)
def _redraw_stack_bound(state, colour_count, value_count):
    """Bib goal, emergency redraw unused: the most cards expansions from the stacks can still bring,
    adding them to the counts. The redraw reshuffles the stacks, so any stack card may come to a top
    (and into a hand), and every one counts. It returns the hands' Arguments to the stacks: where
    new hands come from the stacks they take at least as many out again, but in chapter "the
    Arguments run out" they stay there, and count too (they are in the counts already)."""
    gained = 0
    for s in range(state.num_stacks):
        for j in range(state.stack_len[s]):
            card = state.stack[s, j]
            colour_count[CARD_COLOUR[card]] += 1
            value_count[CARD_VALUE[card]] += 1
            gained += 1
    if not hands_from_stacks(state):
        for card in range(NUM_ARG):
            if state.card_loc[card] == LOC_HAND or state.card_loc[card] == LOC_POOL:
                gained += 1
    return gained


@njit(cache=True)
def talent_goal_reachable(state):
    """Chapter 6 at any moment: can the Bib still hold 10 cards from talent spaces? Only expanding a
    talent space adds one (a card that leaves the Bib loses its origin), so at most every card on
    a talent space now can come, plus one per space covered again later: a seat's spent talent is
    covered from a stack when its Nazi is convinced, so at most one per seat and Nazi left, and
    after the emergency redraw (the only way cards go back into the stacks) at most one per stack
    card left. Cheap enough to ask every step; sound, as the bound can only overestimate."""
    if not state.labels & D.L_BIB10_TALENT:
        return True
    on_spaces = 0
    for p in range(state.num_players):
        on_spaces += state.talent_len[p]
    covers = (D.NUM_NAZIS - state.convinced) * state.num_players
    if state.emergency_used:
        covers = min(covers, _stack_cards(state))
    return state.bib_talent_count + on_spaces + covers >= D.BIB_GOAL


@njit(cache=True)
def lost_reason(state):
    """Why the chapter can no longer be won ("if you no longer have enough Arguments available to
    convince the remaining Nazis"), as an END_ code, or END_NONE while it may still be won.

    Sound (a chapter that can still be won is never ended), in order:

    * END_BIB_GOAL: every Nazi is convinced but the expansions still possible cannot bring the Bib
      to its goal (:func:`bib_goal_reachable`), or, in chapter 6 at any moment, not even every
      talent card still to come could (:func:`talent_goal_reachable`);
    * END_NO_ARGUMENTS: some Nazi left is out of reach of every team even if every Argument left
      could go to any character (:func:`can_still_win`), or, once the stacks are empty (so no
      Argument will ever reach a hand that cannot now), of every team laying disjoint cards from
      those left (:func:`nazis_fit`);
    * END_CARDS_SHARED: the stacks are empty and the Nazis left can each be reached, but not all of
      them with disjoint cards (up to MAX_PACKED Nazis left);
    * END_STUCK: no stack card can reach a hand before a Nazi is convinced (the Bib cannot be
      expanded from the stacks, and the emergency redraw is used or, in chapter "the Arguments run
      out", deals nothing from them: :func:`closed_cards`), and with the Arguments that can no team
      reaches any Nazi that comes face up before a fifth would: nobody will ever be convinced again.
      (A team laying from the seats' own hands, :func:`hand_teams_fit`, is looked for first: it is
      one of the searches' teams and much cheaper to find.)

    The exact searches (:func:`nazis_fit`) give up (and the chapter goes on) past MAX_CLOSED cards
    a Nazi accepts or SEARCH_BUDGET steps.
    """
    if state.convinced == D.NUM_NAZIS:
        return END_NONE if bib_goal_reachable(state) else END_BIB_GOAL
    if not talent_goal_reachable(state):
        return END_BIB_GOAL
    if not can_still_win(state):
        return END_NO_ARGUMENTS
    cards = np.zeros(NUM_ARG, np.int64)
    n = closed_cards(state, cards)
    if n < 0:
        return END_NONE
    nazis = np.zeros(D.NUM_NAZIS, np.int64)
    if _stack_cards(state) == 0:
        count = 0
        for nazi in range(D.NUM_NAZIS - 1, -1, -1):  # the highest IQs first: they fail soonest
            if state.nazi_at[nazi] != NAZI_CONVINCED:
                nazis[count] = nazi
                count += 1
                if nazis_fit(state, nazis[count - 1:count], 1, cards, n) == 0:
                    return END_NO_ARGUMENTS
        if count <= MAX_PACKED and nazis_fit(state, nazis, count, cards, n) == 0:
            return END_CARDS_SHARED
        return END_NONE
    count = coming_face_up(state, nazis)
    # Stuck unless nazis_fit is nonzero for one of them, whichever it is. A team laying from the
    # seats' own hands is one of its teams (sound where its card bits are exact: up to 64 cards) and
    # cheap to find; then the quick searches, as a quick team for any Nazi settles it without a full
    # search for the Nazis before it.
    if n <= 64 and hand_teams_fit(state, nazis, count):
        return END_NONE
    if quick_fit_any(state, nazis, count, cards, n) or full_fit_any(state, nazis, count, cards, n):
        return END_NONE
    return END_STUCK


@njit(cache=True)
def hand_teams_fit(state, nazis, count):
    """Whether a team can convince one of ``nazis[:count]`` with each seat laying from its own hand
    (or Krapotke's dice). Such a team is one of the stuck search's (:func:`full_fit` for that Nazi
    finds one or runs out of budget): hand cards are Arguments it may use, the hands are disjoint,
    and card_options lists a hand's argumentations as it does among all cards (the hand's ids
    ascending, as there). So each seat's values are a bitmask and :func:`team_sums` decides; Nazis
    with the rules of the one before (most: 08/15 side up) share its sums."""
    seats = int(state.num_players)
    relax = (state.labels & D.L_TALENTS) != 0
    held = np.empty((seats, HAND), np.int64)  # each seat's hand, ascending ids
    size = np.zeros(seats, np.int64)
    for seat in range(seats):
        for i in range(HAND):
            card = state.hand[seat, i]
            if 0 <= card < NUM_ARG and state.card_loc[card] == LOC_HAND:
                j = size[seat]  # insertion sort
                while j > 0 and held[seat, j - 1] > card:
                    held[seat, j] = held[seat, j - 1]
                    j -= 1
                held[seat, j] = card
                size[seat] += 1
    opt_bits = np.empty(2 * MAX_OPTIONS, np.int64)
    opt_value = np.empty(2 * MAX_OPTIONS, np.int64)
    seat_reach = np.zeros(seats, np.int64)
    sums, last = np.int64(0), (-1, -1, -1)
    for j in range(count):
        rules = nazi_rules(state, nazis[j])
        if rules != last:
            allowed, banned, everyone = rules
            for seat in range(seats):
                end = card_options_upto(state.character[seat], relax, held[seat], size[seat], allowed, banned,
                                        opt_bits, opt_value, 0, 4)
                if end < 0:  # (more options than the scratch holds: the searches decide)
                    return False
                seat_reach[seat] = 0
                for o in range(end):
                    seat_reach[seat] |= np.int64(1) << opt_value[o]
            sums = team_sums(seat_reach, min_team(state), everyone, seats)
            last = rules
        if sums >> NAZI_IQ[nazis[j]] & 1:
            return True
    return False


# ==== small queries ==========================================================================


@njit(cache=True)
def nazi_rules(state, nazi):
    """(allowed colours, banned values incl. "no 6s", all against one) of a Nazi as it lies."""
    allowed, banned, everyone = D.ALL_COLOURS, 0, 0
    if state.nasty[nazi]:
        allowed = NASTY_COLOURS[nazi]
        banned = NASTY_BANNED[nazi]
        everyone = 1 if NASTY_KIND[nazi] == D.ALL_AGAINST_ONE else 0
    if state.labels & D.L_NO_SIXES:
        banned |= 1 << 6
    return allowed, banned, everyone


@njit(cache=True)
def min_team(state):
    return 2 if state.labels & D.L_NEVER_ALONE else 1


@njit(cache=True)
def _seat_after(seat, rel, num):
    """(seat + rel) % num for 0 <= seat < num and 0 <= rel <= num, without the division (slow, and
    the observation asks it for every other seat and face-up Nazi)."""
    other = seat + rel
    return other - num if other >= num else other


@njit(cache=True, inline="always")
def nazi_in_slot(state, slot):
    """The Nazi face up in ``slot`` (0: top of the stack, 1..4: spaces), or -1."""
    if slot == 0:
        return state.nazi_stack[state.nazi_stack_len - 1] if state.nazi_stack_len > 0 else -1
    return state.space[slot - 1]


@njit(cache=True)
def face_up_count(state):
    count = 1 if state.nazi_stack_len > 0 else 0
    for i in range(D.NUM_SPACES):
        count += state.space[i] >= 0
    return count


@njit(cache=True, inline="always")
def has_hand(state, seat):
    return state.character[seat] != D.KRAPOTKE


@njit(cache=True, inline="always")
def fronts_face_holder(state, holder):
    """How ``holder`` holds her cards: fronts towards herself, or towards the others. Maria "holds
    the cards the wrong way round"; in Blind Trust everyone does, except God ("she sees the fronts")."""
    if state.character[holder] == D.MARIA:
        return False
    if state.labels & D.L_BLIND:
        return state.character[holder] == D.GOD
    return True


ALL_SLOTS = (1 << HAND) - 1


@njit(cache=True)
def knows_front(state, viewer, holder, slot):
    """Whether ``viewer`` knows the front of the card in ``holder``'s hand ``slot`` (see :func:`fronts_known`)."""
    return (fronts_known(state, viewer, holder) >> slot & 1) != 0


@njit(cache=True, inline="always")
def fronts_known(state, viewer, holder):
    """The slots of ``holder``'s hand (bits) whose fronts ``viewer`` knows: it faces the viewer,
    the hands lie open, or someone who sees it shares it (full communication). A holder whose
    fronts face the others knows a card of hers only if ``hand_known`` says so (she saw it before
    she took it, or, in Blind Trust, a team-mate told her: there full communication reaches her
    own hand only through the tell action)."""
    if state.labels & D.L_OPEN:
        return ALL_SLOTS
    faces_holder = fronts_face_holder(state, holder)
    if viewer != holder:
        return ALL_SLOTS if not faces_holder or state.communication == COMM_FULL else 0
    if faces_holder or (state.communication == COMM_FULL and not (state.labels & D.L_BLIND)):
        return ALL_SLOTS
    bits = 0
    for i in range(HAND):
        if state.hand_known[holder, i]:
            bits |= 1 << i
    return bits


@njit(cache=True)
def unknown_slots(state, seat):
    """The hand slots (bitmask) holding an Argument whose front ``seat`` does not know."""
    known = fronts_known(state, seat, seat)
    if known == ALL_SLOTS:
        return 0
    bits = 0
    for i in range(HAND):
        card = state.hand[seat, i]
        if card >= 0 and card < NUM_ARG and not known >> i & 1:
            bits |= 1 << i
    return bits


@njit(cache=True)
def cards_held(state, seat):
    """Hand cards plus cards laid in pools (what "draw back up to 4" counts)."""
    count = 0
    for i in range(HAND):
        count += state.hand[seat, i] >= 0
    for card in range(NUM_ARG):  # (branch-free: the compiler vectorises it)
        count += (state.card_loc[card] == LOC_POOL) & (state.card_seat[card] == seat)
    return count


@njit(cache=True)
def _hand_count(state, seat):
    count = 0
    for i in range(HAND):
        count += state.hand[seat, i] >= 0
    return count


@njit(cache=True, inline="always")
def hands_from_stacks(state):
    """Whether hand cards are drawn from the stacks during play: not in chapter "the Arguments run
    out" ("you may only take cards that are already in the Bib"; its setup deals from the stacks)."""
    return not (state.labels & D.L_RUN_OUT)


@njit(cache=True)
def may_draw_from_bib(state):
    """Hand cards come from the Bib only when every stack is empty, or always in chapter "run out"."""
    if not hands_from_stacks(state):
        return True
    for s in range(state.num_stacks):
        if state.stack_len[s] > 0:
            return False
    return True


# ==== moving cards =========================================================================


@njit(cache=True)
def _largest_stack(state):
    best = -1
    for s in range(state.num_stacks):
        if state.stack_len[s] > 0 and (best < 0 or state.stack_len[s] > state.stack_len[best]):
            best = s
    return best


@njit(cache=True)
def _pop_stack(state, s):
    state.stack_len[s] -= 1
    card = state.stack[s, state.stack_len[s]]
    state.stack[s, state.stack_len[s]] = -1
    return card


@njit(cache=True)
def _put_in_hand(state, seat, card, known):
    """Put ``card`` into the first free slot; ``known``: the seat saw its front on the way (from
    the Bib, a pool, an offer), not so when drawn from a stack."""
    for i in range(HAND):
        if state.hand[seat, i] < 0:
            _set_slot(state, seat, i, card, known)
            return i
    return -1


@njit(cache=True)
def _set_slot(state, seat, i, card, known):
    state.hand[seat, i] = card
    state.hand_known[seat, i] = known
    state.card_loc[card] = LOC_HAND
    state.card_seat[card] = seat


@njit(cache=True)
def _to_bib(state, card, from_talent):
    state.card_loc[card] = LOC_BIB
    state.card_seat[card] = -1
    state.bib_count += 1
    if from_talent:
        state.from_talent[card] = 1
        state.bib_talent_count += 1


@njit(cache=True)
def _from_bib(state, card):
    state.bib_count -= 1
    if state.from_talent[card]:
        state.from_talent[card] = 0
        state.bib_talent_count -= 1


@njit(cache=True)
def _draw_up(state, seat):
    """Draw from the stacks (the fullest first) until the seat holds 4 cards."""
    if not has_hand(state, seat) or not hands_from_stacks(state) or _hand_count(state, seat) == HAND:
        return  # (a full hand: no pool scan)
    held = cards_held(state, seat)
    while held < HAND:
        s = _largest_stack(state)
        if s < 0:
            return
        _put_in_hand(state, seat, _pop_stack(state, s), 0)
        held += 1


@njit(cache=True)
def _cover_talent(state, seat):
    """Lay a face-down Argument from a stack on an empty talent space (Herta never gets more)."""
    if state.character[seat] == D.HERTA or state.talent_len[seat] > 0:
        return
    s = _largest_stack(state)
    if s >= 0:
        card = _pop_stack(state, s)
        state.talent[seat, 0] = card
        state.talent_len[seat] = 1
        state.card_loc[card] = LOC_TALENT
        state.card_seat[card] = seat


# ==== reset =================================================================================


@njit(cache=True)
def _chapter19(state, config):
    """A random chapter from the same elements (seeded by chapter19_seed, else by the game)."""
    saved = state.rng
    if config.chapter19_seed >= 0:
        seed_rng(state, config.chapter19_seed)
    groups = 0
    for g in range(4):
        if randint(state, 2):
            groups |= 1 << g
    labels = D.L_EXPANSION | D.L_TALENTS | D.L_RANDOM_CHARS
    for i in range(RANDOM_LABEL_FLAGS.shape[0]):
        if randint(state, 100) < RANDOM_LABEL_ODDS[i]:
            labels |= RANDOM_LABEL_FLAGS[i]
    view = randint(state, 4)  # half the time neither, else open cards or Blind Trust
    if view == 2:
        labels |= D.L_OPEN
    elif view == 3:
        labels |= D.L_BLIND
    state.nasty_groups = groups
    state.labels = labels
    _random_characters(state)
    if config.chapter19_seed >= 0:
        state.rng = saved


@njit(cache=True)
def _random_characters(state):
    """Random characters for the seats. With "no 6s" the Arguments left (249) cannot cover the
    IQs (261), so the draw is repeated until Krapotke or Maria (whose numbers are not face
    values) is among them."""
    characters = np.arange(D.NUM_CHARACTERS)
    while True:
        shuffle(state, characters, D.NUM_CHARACTERS)
        flexible = False
        for seat in range(state.num_players):
            state.character[seat] = characters[seat]
            flexible = flexible or characters[seat] == D.KRAPOTKE or characters[seat] == D.MARIA
        if flexible or not (state.labels & D.L_NO_SIXES):
            return


@njit(cache=True)
def _deal_characters(state, config):
    num = int(state.num_players)
    if config.characters[0] >= 0:
        for seat in range(num):
            state.character[seat] = config.characters[seat]
    elif state.chapter == 19:
        pass  # _chapter19 dealt them
    elif state.labels & D.L_RANDOM_CHARS:
        _random_characters(state)
    else:
        for seat in range(num):
            state.character[seat] = CHAPTER_CHARACTERS[state.chapter, seat]
    for seat in range(num, MAX_PLAYERS):
        state.character[seat] = -1


@njit(cache=True)
def reset(state, config, seed):
    num = int(state.num_players)
    state.chapter = config.chapter
    state.communication = config.communication
    state.seconds_per_step = config.seconds_per_step
    state.timing = config.timing
    state.action_seconds[:] = config.action_seconds
    state.shaping = config.shaping
    state.observe_hints = config.observe_hints
    if state.chapter == 19:
        _chapter19(state, config)
    else:
        state.nasty_groups = CHAPTER_GROUPS[state.chapter]
        state.labels = CHAPTER_LABELS[state.chapter]
    _deal_characters(state, config)
    state.current_player = -1
    state.hand[:] = -1
    state.talent[:] = -1
    state.stack[:] = -1
    state.space[:] = -1
    state.nazi_stack[:] = -1
    state.offer_to[:] = -1
    state.offer_card[:] = -1
    state.card_seat[:] = -1
    state.card_nazi[:] = -1
    state.die_nazi[:] = -1
    # Nazis: the chapter's groups super nasty side up, shuffled onto the Finale card.
    for nazi in range(D.NUM_NAZIS):
        state.nasty[nazi] = 1 if state.nasty_groups & GROUP_OF_KIND[NASTY_KIND[nazi]] else 0
        state.nazi_stack[nazi] = nazi
        state.nazi_at[nazi] = NAZI_STACK
    state.nazi_stack_len = D.NUM_NAZIS
    shuffle(state, state.nazi_stack, D.NUM_NAZIS)
    # Arguments: shuffled into 2 stacks (5 when the Arguments run out).
    state.num_stacks = D.RUN_OUT_STACKS if state.labels & D.L_RUN_OUT else D.STACKS
    order = np.arange(NUM_ARG).astype(np.int8)
    shuffle(state, order, NUM_ARG)
    for i in range(NUM_ARG):
        s = i % state.num_stacks
        state.stack[s, state.stack_len[s]] = order[i]
        state.stack_len[s] += 1
        state.card_loc[order[i]] = LOC_STACK
    # The open Bib.
    bib = config.bib_start if config.bib_start >= 0 else BIB_START[num]
    for _ in range(bib):
        _to_bib(state, _pop_stack(state, _largest_stack(state)), False)
    # Talent spaces (Herta: 4 cards).
    if state.labels & D.L_TALENTS:
        for seat in range(num):
            cards = D.HERTA_TALENT_CARDS if state.character[seat] == D.HERTA else 1
            for i in range(cards):
                card = _pop_stack(state, _largest_stack(state))
                state.talent[seat, i] = card
                state.card_loc[card] = LOC_TALENT
                state.card_seat[card] = seat
            state.talent_len[seat] = cards
    # Razupaltuff: 1 card with 2-3 players, 2 with 4-5; one each to the first seats with a hand.
    for card in D.RAZUPALTUFF:
        state.card_loc[card] = LOC_NONE
    if state.labels & D.L_RAZUPALTUFF:
        wanted = 1 if num <= 3 else 2
        given = 0
        for seat in range(num):
            if given < wanted and has_hand(state, seat):
                _put_in_hand(state, seat, D.RAZUPALTUFF[given], 1)
                given += 1
    for seat in range(num):
        _draw_up(state, seat)
        if not hands_from_stacks(state) and has_hand(state, seat):  # (ours) the setup deals from the stacks
            while cards_held(state, seat) < HAND:
                _put_in_hand(state, seat, _pop_stack(state, _largest_stack(state)), 0)
    # Krapotke rolls his dice.
    for k in range(D.NUM_DICE):
        _roll(state, k)
    # "Achtung!" at the start: the first Nazi moves off the stack.
    _reveal_nazi(state)
    state.next_nazi = randrange(state, D.NAZI_EVERY[0], D.NAZI_EVERY[1])
    state.next_swap = randrange(state, D.SWAP_EVERY[0], D.SWAP_EVERY[1])
    refresh(state)


@njit(cache=True)
def _roll(state, k):
    state.die_value[k] = randrange(state, 1, 6)
    state.die_status[k] = DIE_BLOCKED if state.die_value[k] == 6 else DIE_FREE


@njit(cache=True)
def _reveal_nazi(state):
    """The top Nazi moves to the first free space around the stack (an "Achtung!")."""
    if state.nazi_stack_len == 0:
        return
    for i in range(D.NUM_SPACES):
        if state.space[i] < 0:
            state.nazi_stack_len -= 1
            nazi = state.nazi_stack[state.nazi_stack_len]
            state.nazi_stack[state.nazi_stack_len] = -1
            state.space[i] = nazi
            state.nazi_at[nazi] = NAZI_FACE_UP
            if state.nazi_stack_len > 0:
                state.nazi_at[state.nazi_stack[state.nazi_stack_len - 1]] = NAZI_FACE_UP
            state.last_nazi = state.clock
            return
    # (no free space: five are face up and the game is lost already)


# ==== masks and hints (recomputed after every change) =======================================


@njit(cache=True, inline="always")
def _seat_cards(state, seat, viewer, colours, values, halves, usable):
    """Seat's 4 cards (Krapotke: dice) as ``seat_options`` takes them; cards whose fronts
    ``viewer`` does not know are unusable (viewer -1: the truth)."""
    if state.character[seat] == D.KRAPOTKE:
        for k in range(D.NUM_DICE):
            colours[k] = k
            values[k] = state.die_value[k]
            halves[k] = 0
            usable[k] = 1 if state.die_status[k] == DIE_FREE and state.die_value[k] != 6 else 0
        return
    known = ALL_SLOTS if viewer < 0 else fronts_known(state, viewer, seat)
    for i in range(HAND):
        card = state.hand[seat, i]
        if card >= 0 and card < NUM_ARG:
            colours[i] = CARD_COLOUR[card]
            values[i] = CARD_VALUE[card]
            halves[i] = CARD_HALF[card]
            usable[i] = known >> i & 1
        else:
            colours[i] = 0
            values[i] = 0
            halves[i] = 0
            usable[i] = 0


@njit(cache=True, inline="always")
def _seat_card_tuples(state, seat):
    """:func:`_seat_cards` for a viewer who knows every front, as four 4-tuples (colours, values,
    halves, usable): the masks and the step read a seat's cards without scratch arrays."""
    if state.character[seat] == D.KRAPOTKE:
        a, b, c, d = _die(state, 0), _die(state, 1), _die(state, 2), _die(state, 3)
    else:
        a, b, c = _hand_card(state.hand[seat, 0]), _hand_card(state.hand[seat, 1]), _hand_card(state.hand[seat, 2])
        d = _hand_card(state.hand[seat, 3])
    return (a[0], b[0], c[0], d[0]), (a[1], b[1], c[1], d[1]), (a[2], b[2], c[2], d[2]), (a[3], b[3], c[3], d[3])


@njit(cache=True, inline="always")
def _hand_card(card):
    """(colour, value, half digit, usable) of a hand slot holding ``card``: zeros unless an Argument."""
    if card >= 0 and card < NUM_ARG:
        return CARD_COLOUR[card], CARD_VALUE[card], CARD_HALF[card], np.int64(1)
    return np.int64(0), np.int64(0), np.int64(0), np.int64(0)


@njit(cache=True, inline="always")
def _die(state, k):
    """(colour, value, half digit, usable) of Krapotke's die ``k``: free and not a 6 to be used."""
    value = np.int64(state.die_value[k])
    return np.int64(k), value, np.int64(0), np.int64(state.die_status[k] == DIE_FREE and value != 6)


@njit(cache=True)
def fitting_values(state, nazi, is_maria):
    """The values (bitmask, bit v: value v >= 1) a new contribution may have at ``nazi`` now: 1 up
    to :func:`room_at`."""
    return (np.int64(2) << room_at(state, nazi, is_maria)) - 2


@njit(cache=True)
def room_at(state, nazi, is_maria):
    """The highest value a new contribution may have at ``nazi`` now (0: none): the pool's smallest
    reading stays below the IQ (no overshoot), or hits it exactly when the team rules would then
    hold (:func:`_team_may_complete`). Maria's reading replaces the pool's open one."""
    most = NAZI_IQ[nazi] - state.pool_fixed[nazi]
    if not is_maria and state.pool_readings[nazi] != 0:
        most -= _lowest_bit(state.pool_readings[nazi])
    if not _team_may_complete(state, nazi):
        most -= 1
    return max(most, 0)


@njit(cache=True)
def _team_may_complete(state, nazi):
    """Whether the pool at ``nazi`` with one more member may be exactly full: team size and,
    against an all-against-one Nazi, every seat."""
    members = state.pool_count[nazi] + 1
    everyone = state.nasty[nazi] and NASTY_KIND[nazi] == D.ALL_AGAINST_ONE
    return members >= min_team(state) and (not everyone or members == state.num_players)


@njit(cache=True)
def _lowest_bit(bits):
    for v in range(64):
        if bits >> v & 1:
            return v
    return 0


@njit(cache=True, inline="always")
def _fill_argue_part(state, seat, mask):
    """The argue and withdraw entries of an idle seat (into a cleared row). A subset's readings
    depend on its cards alone (:func:`subset_reading`): each subset is read once and then filtered
    for every slot she may argue at with bit operations (:func:`_slot_filters`). Any 2-4 of her
    Arguments with a card whose front she does not know among them may be laid too (she cannot see
    what she lays: the rules are checked when it is laid)."""
    for slot in range(NUM_SLOTS):
        nazi = nazi_in_slot(state, slot)
        if nazi >= 0 and state.contrib[nazi, seat]:
            mask[A_WITHDRAW + slot] = 1
    kind = state.character[seat]
    colours, values, halves, usable = _seat_card_tuples(state, seat)
    filters = _slot_filters(state, seat, colours, values, usable, kind == D.MARIA)
    if filters == 0:  # (no Nazi she may argue at)
        return
    present = usable[0] | usable[1] << 1 | usable[2] << 2 | usable[3] << 3
    arguments = 0  # the hand slots holding an Argument
    for i in range(HAND):
        card = state.hand[seat, i]
        arguments |= int(card >= 0 and card < NUM_ARG) << i
    unknown = unknown_slots(state, seat)
    codes = card_codes(kind, colours, values)
    talent_ok = np.int64(-1) if state.talent_ready[seat] else np.int64(0)  # (all bits or none)
    for s in range(NUM_SUBSETS):  # (without branches past the reading: the conditions vary)
        subset = SUBSETS[s]
        normal, talent = (subset_reading(kind, colours, values, halves, codes, s) if subset & present == subset
                          else (np.int64(0), np.int64(0)))
        readings = normal | (talent & talent_ok)
        blind = (subset & unknown) != 0
        laid_blind = blind & ((subset & arguments) == subset)
        for slot in range(NUM_SLOTS):
            f = filters >> (SLOT_FILTER_BITS * slot)
            if f & SLOT_OPEN:
                fits = ((subset & f & 15) == subset) & ((readings & ((np.int64(2) << (f >> 4 & 31)) - 2)) != 0)
                mask[A_ARGUE + slot * NUM_SUBSETS + s] = laid_blind | (fits & (not blind))


SLOT_FILTER_BITS, SLOT_OPEN = 10, 512


@njit(cache=True, inline="always")
def _slot_filters(state, seat, colours, values, usable, is_maria):
    """Where the seat may argue, SLOT_FILTER_BITS a slot (0: the top of the stack, 1-4: spaces):
    bit 9 the slot holds a Nazi she has not contributed to, bits 4-8 its :func:`room_at`, bits 0-3
    the hand slots it accepts (:func:`cards_accepted`); 0 for the other slots."""
    filters = np.int64(0)
    for slot in range(NUM_SLOTS):
        nazi = nazi_in_slot(state, slot)
        if nazi >= 0 and not state.contrib[nazi, seat]:
            allowed, banned, _ = nazi_rules(state, nazi)
            accepted = cards_accepted(colours, values, usable, allowed, banned)
            filters |= (SLOT_OPEN | room_at(state, nazi, is_maria) << 4 | accepted) << (SLOT_FILTER_BITS * slot)
    return filters


@njit(cache=True, inline="always")
def _fill_other_masks(state, seat, mask, bib_low, bib_high, held, unknown):
    """Every action but arguing and withdrawing (``held``: the cards the seat holds, in hand and
    laid in pools; ``bib_low``/``bib_high``: the Bib's cards, :func:`_card_word`)."""
    num = int(state.num_players)
    mask[A_WAIT] = 1
    if has_hand(state, seat):
        for rel in range(1, num):
            other = (seat + rel) % num
            if not has_hand(state, other):
                continue
            for i in range(HAND):
                if state.hand[seat, i] >= 0:
                    mask[A_OFFER + (rel - 1) * HAND + i] = 1
            offered = state.offer_card[other]
            if state.offer_to[other] == seat and offered >= 0 and state.card_loc[offered] == LOC_HAND \
                    and state.card_seat[offered] == other:
                for i in range(HAND):
                    if state.hand[seat, i] >= 0:
                        mask[A_ACCEPT + (rel - 1) * HAND + i] = 1
        _fill_bib_mask(state, seat, mask, unknown, bib_low, bib_high, held < HAND and may_draw_from_bib(state))
    _fill_expand_mask(state, seat, mask, unknown)
    if state.character[seat] == D.KRAPOTKE:
        all_home = True
        for k in range(D.NUM_DICE):
            if state.die_status[k] == DIE_FREE or state.die_status[k] == DIE_USED:
                mask[A_ROLL + k] = 1
            all_home = all_home and state.die_status[k] != DIE_POOLED
        if all_home:
            mask[A_ROLL_ALL] = 1
    if not state.emergency_used:
        mask[A_EMERGENCY] = 1
    for rel in range(1, num):
        if may_tell(state, (seat + rel) % num):
            mask[A_TELL + rel - 1] = 1


@njit(cache=True)
def may_tell(state, target):
    """Blind Trust with full communication: a team-mate may tell ``target`` the fronts of her hand
    while she holds an Argument she does not know."""
    return (state.labels & D.L_BLIND) != 0 and state.communication == COMM_FULL and unknown_slots(state, target) != 0


@njit(cache=True, inline="always")
def _fill_bib_mask(state, seat, mask, unknown, bib_low, bib_high, owed):
    """Bib swaps (same colour or value; for a card whose front she does not know, any: the Bib
    checks) and, into an empty slot, draws (when ``owed``: the seat holds fewer than 4 and hand
    cards may come from the Bib). The Bib's cards come as bits (:func:`_card_word`); a card's
    partners are those bits ANDed with the cards of its colour or value (COLOUR_CARDS,
    VALUE_CARDS), so only the legal entries are visited."""
    for i in range(HAND):
        mine = state.hand[seat, i]
        if mine >= NUM_ARG:  # Razupaltuff never goes into the Bib
            continue
        if mine < 0 and not owed:
            continue
        low, high = bib_low, bib_high
        if mine >= 0 and not unknown >> i & 1:
            colour, value = CARD_COLOUR[mine], CARD_VALUE[mine]
            low &= COLOUR_CARDS[colour, 0] | VALUE_CARDS[value, 0]
            high &= COLOUR_CARDS[colour, 1] | VALUE_CARDS[value, 1]
        base = A_BIB + i * NUM_ARG  # (this region of the mask is only written here: 0 stays 0)
        _set_bits(mask, base, low, 1)
        _set_bits(mask, base + CARD_WORD, high, 1)


@njit(cache=True, inline="always")
def _set_bits(out, base, bits, stride):
    """out[base + stride * k] = 1 for every bit k of ``bits``."""
    while bits:
        low = bits & -bits
        out[base + stride * count_bits(low - 1)] = 1  # (the popcount below a lone bit is its index)
        bits ^= low


@njit(cache=True)
def _condition_met(state, seat, card):
    """Whether ``seat`` can fulfil the condition on ``card``'s back now (tasks: always)."""
    design = CARD_BACK[card]
    kind = BACK_COND_KIND[design]
    if kind == D.COND_SOLO_TASK or kind == D.COND_GROUP_TASK:
        return True
    if not has_hand(state, seat):
        return False
    for k in range(7):
        have = 0
        for i in range(HAND):
            mine = state.hand[seat, i]
            if mine >= 0 and mine < NUM_ARG:
                have += (CARD_COLOUR[mine] if kind == D.COND_COLOURS else CARD_VALUE[mine]) == k
        if have < BACK_COND_COUNT[design, k]:
            return False
    return True


@njit(cache=True)
def expansion_source(state, seat, target):
    """The card expansion ``target`` would place (stack 0..4, or 5 + relative seat's talent space), or -1."""
    if not (state.labels & D.L_EXPANSION):
        return -1
    if target < D.RUN_OUT_STACKS:
        if target >= state.num_stacks or state.stack_len[target] == 0 or state.labels & D.L_BIB10_TALENT:
            return -1
        return state.stack[target, state.stack_len[target] - 1]
    rel = target - D.RUN_OUT_STACKS
    if rel >= state.num_players:
        return -1
    owner = (seat + rel) % int(state.num_players)
    if state.talent_len[owner] == 0 or state.talent_ready[owner]:
        return -1
    return state.talent[owner, state.talent_len[owner] - 1]


@njit(cache=True, inline="always")
def _fill_expand_mask(state, seat, mask, unknown):
    """Expansions whose conditions the seat meets; a combo also whenever she holds a card whose
    front she does not know (she cannot tell; the condition is checked when she expands)."""
    if not (state.labels & D.L_EXPANSION):  # (no expansions in this chapter: every source is -1)
        return
    for target in range(2 * MAX_PLAYERS):
        card = expansion_source(state, seat, target)
        if card < 0:
            continue
        kind = BACK_COND_KIND[CARD_BACK[card]]
        combo = kind == D.COND_COLOURS or kind == D.COND_NUMBERS
        if combo and unknown:
            mask[A_EXPAND + target] = 1
        elif _condition_met(state, seat, card):
            mask[A_EXPAND + target] = 1


@njit(cache=True)
def is_busy(state, seat):
    """The seat is still busy with its last action: it can only wait."""
    return state.clock < state.busy_until[seat]


@njit(cache=True)
def action_seconds(state, action, card):
    """How long ``action`` keeps its seat busy, in game seconds (``state.action_seconds``, from
    data.ACTION_SECONDS; 0 with timing="step"); ``card``: the card an expansion places (its
    condition decides)."""
    if state.timing == TIMING_STEP or action == A_WAIT:
        return 0
    return state.action_seconds[_timed_kind(action, card)]


@njit(cache=True)
def _timed_kind(action, card):
    if action < A_WITHDRAW:
        return T_ARGUE
    if action < A_OFFER:
        return T_WITHDRAW
    if action < A_ACCEPT:
        return T_OFFER
    if action < A_BIB:
        return T_ACCEPT
    if action < A_EXPAND:
        return T_BIB
    if action < A_ROLL:
        kind = BACK_COND_KIND[CARD_BACK[card]] if card >= 0 else D.COND_SOLO_TASK
        return T_COMBO if kind == D.COND_COLOURS or kind == D.COND_NUMBERS else T_TASK
    if action < A_ROLL_ALL:
        return T_ROLL
    if action == A_ROLL_ALL:
        return T_ROLL_ALL
    if action == A_EMERGENCY:
        return T_EMERGENCY
    return T_TELL


# Sets of Arguments as bits of two words (ids 0-49 and 50-98): 50 bits a word keep the arithmetic on
# positive int64, the same compiled and as plain Python.
CARD_WORD = 50


def _card_sets():
    """The Arguments of each colour and of each value (0-6), as pairs of card words."""
    colour = np.zeros((D.NUM_COLOURS, 2), np.int64)
    value = np.zeros((7, 2), np.int64)
    for card in range(NUM_ARG):
        word, bit = divmod(card, CARD_WORD)
        colour[CARD_COLOUR[card], word] |= 1 << bit
        value[CARD_VALUE[card], word] |= 1 << bit
    return colour, value


COLOUR_CARDS, VALUE_CARDS = _card_sets()


@njit(cache=True, inline="always")
def _card_word(field, value, start):
    """The Arguments start..start + CARD_WORD - 1 (up to the last) whose ``field`` (a per-card array:
    card_loc, from_talent) is ``value``, as bits (bit k: card start + k): a loop without branches or
    stores, which the compiler vectorises."""
    bits = np.int64(0)
    for card in range(start, min(start + CARD_WORD, NUM_ARG)):
        bits |= np.int64(field[card] == value) << (card - start)
    return bits


@njit(cache=True, inline="always")
def _location_words(card_loc, start):
    """(Bib, pools, discarded): the Arguments start..start + CARD_WORD - 1 (up to the last) in each
    place, as card words (:func:`_card_word`) made in one pass, which reads each card once."""
    bib, pool, discard = np.int64(0), np.int64(0), np.int64(0)
    for card in range(start, min(start + CARD_WORD, NUM_ARG)):
        loc, k = card_loc[card], card - start
        bib |= np.int64(loc == LOC_BIB) << k
        pool |= np.int64(loc == LOC_POOL) << k
        discard |= np.int64(loc == LOC_DISCARD) << k
    return bib, pool, discard


@njit(cache=True, inline="always")
def _pooled_counts(state, pool, start):
    """How many of the pooled cards ``pool`` (a card word from ``start``) each seat laid, packed 8
    bits a seat: pools hold a few cards, so their bits are visited instead of every card (``& 7``
    keeps the shift defined for a seat of -1, which no pooled card of a valid record has)."""
    counts = np.int64(0)
    while pool:
        low = pool & -pool
        counts += np.int64(1) << (8 * (int(state.card_seat[start + count_bits(low - 1)]) & 7))
        pool ^= low
    return counts


ALL_SEATS = (1 << MAX_PLAYERS) - 1


@njit(cache=True)
def refresh(state):
    """Recompute what the record caches: every seat's legal mask (:func:`refresh_seats`)."""
    refresh_seats(state, ALL_SEATS)


@njit(cache=True)
def refresh_seats(state, seats):
    """Recompute the legal masks of ``seats`` (bits) only; the others' stay as cached. No scratch
    arrays: a seat's cards and readings are tuples and words (an allocation, and the views of a
    scratch row, cost more than the work they held)."""
    num = int(state.num_players)
    idle = 0  # the seats not busy (bits): only they get more than "wait"
    for seat in range(num):  # (rows of absent seats are never written)
        if not seats >> seat & 1:
            continue
        _clear_row(state, seat)
        if state.terminal:
            continue
        if is_busy(state, seat):
            state.mask[seat, A_WAIT] = 1
        else:
            idle |= 1 << seat
    if idle == 0:
        return
    # The Bib's cards as bits and the cards each seat laid in pools (8 bits a seat, _pooled_counts):
    # loops without branches or stores vectorise (a list of the Bib's cards would not).
    bib_low, pool_low, _ = _location_words(state.card_loc, 0)
    bib_high, pool_high, _ = _location_words(state.card_loc, CARD_WORD)
    pooled = _pooled_counts(state, pool_low, 0) + _pooled_counts(state, pool_high, CARD_WORD)
    for seat in range(num):
        if idle >> seat & 1:
            mask = state.mask[seat]
            held = pooled >> (8 * seat) & 0xFF
            for i in range(HAND):
                held += state.hand[seat, i] >= 0
            _fill_other_masks(state, seat, mask, bib_low, bib_high, held, unknown_slots(state, seat))
            _fill_argue_part(state, seat, mask)


@njit(cache=True, inline="always")
def _clear_row(state, seat):
    """Zero ``seat``'s mask (a loop, not a slice: no array view to count references of)."""
    for a in range(NUM_ACTIONS):
        state.mask[seat, a] = 0


# Existence tables: whether a team can convince a Nazi depends only on the set of values each seat
# can add there (team_search counts the teams; "is there one" needs no counts), so bitmasks of the
# reachable sums answer it, and a seat's subset readings do not depend on the Nazi
# (:func:`subset_readings`). team_hints skips the count where they show no team; exchange_gains
# scores with them alone.
VALUE_BITS = ((np.int64(1) << MAX_VALUE) - 1) & ~np.int64(1)  # the values seat_options lists: 1-30
SUM_BITS = (np.int64(1) << 32) - 1                             # the sums team_search's table holds: 0-31


@njit(cache=True, inline="always")
def _present(usable):
    """The slots (bitmask) whose card may be used."""
    bits = 0
    for i in range(4):
        if usable[i]:
            bits |= 1 << i
    return bits


@njit(cache=True)
def _option_values(normal, talent, relax, accepted, several):
    """The values (bitmask) of the options :func:`seat_options` lists for a seat whose subsets read
    ``normal``/``talent`` (:func:`subset_readings` over all its usable cards) at a Nazi that accepts
    the slots ``accepted``: a subset's reading depends only on its own cards, so the Nazi just picks
    the subsets. Cut after MAX_OPTIONS options, lowest subset and value first, as seat_options cuts;
    only a seat whose subsets may read ``several`` values each (Maria) can reach the cut."""
    values = np.int64(0)
    n = 0
    for s in range(NUM_SUBSETS):
        subset = SUBSETS[s]
        if subset & accepted != subset:
            continue
        readings = (normal[s] | (talent[s] if relax else np.int64(0))) & VALUE_BITS
        if not several:
            values |= readings
            continue
        count = count_bits(readings)
        if n + count <= MAX_OPTIONS:
            values |= readings
            n += count
            continue
        for v in range(1, MAX_VALUE):
            if (readings >> v & 1) and n < MAX_OPTIONS:
                values |= np.int64(1) << v
                n += 1
        break
    return values


@njit(cache=True, inline="always")
def _join(reach, values, must, seats):
    """Add one seat to ``reach`` (``reach[m]``: bitmask of the sums 0-31 that m joining seats can
    lay): it joins with one of its option ``values`` or, unless it ``must`` (all against one), stays
    out. :func:`team_search`'s table with "how many teams" replaced by "is there one". (Multiplying
    by a value's lone bit shifts by the value: one step a value, no bit index needed.)"""
    for m in range(seats, 0, -1):
        grown = np.int64(0)
        before = reach[m - 1]
        if before:
            bits = values
            while bits:
                low = bits & -bits
                grown |= before * low
                bits ^= low
        reach[m] = ((np.int64(0) if must else reach[m]) | grown) & SUM_BITS
    if must:
        reach[0] = 0


@njit(cache=True, inline="always")
def _completed_by(reach, values, targets, min_new, seats):
    """Whether one more joining seat with one of these option ``values`` completes a team in
    ``reach`` that hits one of ``targets`` with at least ``min_new`` joining seats."""
    bits = values
    while bits:
        low = bits & -bits
        for m in range(max(min_new, 1), seats + 1):
            if (reach[m - 1] * low) & targets:
                return True
        bits ^= low
    return False


@njit(cache=True, inline="always")
def _hits(reach, targets, min_new, seats):
    """Whether some team in ``reach`` of at least ``min_new`` joining seats hits one of ``targets``."""
    for m in range(min_new, seats + 1):
        if reach[m] & targets:
            return True
    return False


@njit(cache=True, inline="always")
def _completing(reach, targets, min_new, seats):
    """The values (bitmask) one more joining seat may add to a team in ``reach`` so that it hits one
    of ``targets`` with at least ``min_new`` joining seats: a candidate's seat is then checked with
    one AND instead of a search."""
    need = np.int64(0)
    for m in range(max(min_new, 1), seats + 1):
        before, t = reach[m - 1], 0
        while before:
            if before & 1:
                need |= targets >> t
            before >>= 1
            t += 1
    return need & VALUE_BITS


@njit(cache=True)
def hints(states, viewer, out_hint, out_ways):
    """:func:`team_hints` of the record in the length-1 array ``states`` (numba takes an array
    from Python cheaply): for the env's ``infos``."""
    team_hints(states[0], viewer, out_hint, out_ways)


@njit(cache=True)
def team_hints(state, viewer, out_hint, out_ways):
    """For ``viewer``: per Nazi slot one exact team argumentation among the hands whose fronts it
    knows, with the fewest new members (``out_hint[slot, relative seat]``: the hand-slot subset that
    seat lays, 0: none; ``out_hint`` has at least ``num_players`` columns), and how many there are
    (``out_ways[slot]``, capped at 32767). The env's ``infos`` and the observation's hint blocks
    (``observe_hints``) both come from here."""
    num = int(state.num_players)
    for slot in range(NUM_SLOTS):
        out_ways[slot] = 0
        for rel in range(out_hint.shape[1]):
            out_hint[slot, rel] = 0
    if state.terminal:
        return
    cards = np.zeros((4, num, 4), np.int8)
    readings = np.zeros((2, num, NUM_SUBSETS), np.int64)  # normal, talent: once a seat, for every Nazi
    options = np.zeros((3, num, MAX_OPTIONS), np.int64)
    per_seat = np.zeros((4, num), np.int64)  # options, can join, must join, chosen
    ways = np.zeros((num + 1, 32, num + 1), np.int64)
    reach = np.zeros(MAX_PLAYERS + 1, np.int64)
    for seat in range(num):
        _seat_cards(state, seat, viewer, cards[0, seat], cards[1, seat], cards[2, seat], cards[3, seat])
        subset_readings(state.character[seat], cards[0, seat], cards[1, seat], cards[2, seat],
                        _present(cards[3, seat]), readings[0, seat], readings[1, seat])
    for slot in range(NUM_SLOTS):
        nazi = nazi_in_slot(state, slot)
        if nazi < 0:
            continue
        allowed, banned, everyone = nazi_rules(state, nazi)
        members = 0
        reach[:] = 0
        reach[0] = 1
        for seat in range(num):
            laid = state.contrib[nazi, seat]
            members += laid
            per_seat[0, seat] = 0
            if not laid:
                n = list_options(readings[0, seat], readings[1, seat], state.talent_ready[seat],
                                 cards_accepted(cards[0, seat], cards[1, seat], cards[3, seat], allowed, banned),
                                 options[0, seat], options[1, seat], options[2, seat])
                per_seat[0, seat] = n
                values = np.int64(0)
                for o in range(n):
                    values |= np.int64(1) << options[1, seat, o]
                _join(reach, values, everyone != 0, num)
            per_seat[1, seat] = 0 if laid else 1
            per_seat[2, seat] = everyone if not laid else 0
        targets = _targets(NAZI_IQ[nazi], state.pool_fixed[nazi], state.pool_readings[nazi])
        fewest = max(0, min_team(state) - members)
        if not _hits(reach, targets & SUM_BITS, fewest, num):
            continue  # nobody can convince it (the bit table says so at a fraction of the count's cost)
        count = team_search(targets, fewest, per_seat[1], per_seat[2], options[1], per_seat[0], ways, per_seat[3])
        out_ways[slot] = min(count, 32767)
        for seat in range(num):
            chosen = per_seat[3, seat]
            out_hint[slot, (seat - viewer) % num] = options[0, seat, chosen] if chosen >= 0 else 0


# The exchange hints score every legal exchange of the viewer by whether each face-up Nazi can then
# be convinced exactly: with the existence tables above, each seat's readings are computed once a
# view, a candidate recomputes only the one or two seats it changes, and a Nazi whose value sets it
# leaves as they were keeps the verdict it had without the exchange.
NUM_HALVES = int(D.HALF_SEGMENTS.shape[0])
BIB_KEYS = 4 * 7 * NUM_HALVES  # colour, value, half digit: Bib cards alike in these score alike
# exchange_gains' facts per face-up Nazi: which, all against one, the sums the new members must hit
# (0-31), how many must join at least, its colour and value rules; whether the team can convince it
# without an exchange, whether the others can without the viewer, and the values the viewer would
# have to add (:func:`_completing`)
X_NAZI, X_EVERYONE, X_TARGETS, X_MIN_NEW, X_ALLOWED, X_BANNED, X_VERDICT, X_ALONE, X_NEED = range(9)
X_ROWS = 9


@njit(cache=True, inline="always")
def _readings_after(kind, cards, seat, slot, card_row, moved, normal, talent):
    """:func:`subset_readings` of ``seat``'s cards with ``slot`` holding the card (colour, value, half)
    ``card_row`` (usable: the exchange shows it); ``moved`` (int8 [4, 4]) keeps those cards."""
    for f in range(4):
        for i in range(4):
            moved[f, i] = cards[f, seat, i]
    moved[0, slot], moved[1, slot], moved[2, slot], moved[3, slot] = card_row[0], card_row[1], card_row[2], 1
    subset_readings(kind, moved[0], moved[1], moved[2], _present(moved[3]), normal, talent)


@njit(cache=True)
def _rest_reach(state, nazis, count, skip_a, skip_b, num, vals, out):
    """Per face-up Nazi row j < ``count``: the :func:`_join` table of every seat but ``skip_a`` and
    ``skip_b`` (-1: none) with their values ``vals[j]`` (seats that laid there stay out of it)."""
    for j in range(count):
        for m in range(num + 1):
            out[j, m] = 0
        out[j, 0] = 1
        nazi = nazis[X_NAZI, j]
        for seat in range(num):
            if seat != skip_a and seat != skip_b and not state.contrib[nazi, seat]:
                _join(out[j], vals[j, seat], nazis[X_EVERYONE, j] != 0, num)


@njit(cache=True, inline="always")
def _any_exchange(mask):
    """Whether the mask row allows any offer, accept or Bib action (else every gain is 0)."""
    for a in range(A_OFFER, A_EXPAND):
        if mask[a]:
            return True
    return False


@njit(cache=True)
def exchange_gains(state, viewer, out_offer, out_accept, out_bib):
    """Per exchange action legal for ``viewer`` now (its mask row): how many more face-up Nazis the
    team can convince exactly after it than before (what :func:`exchange_scores` scores with weight
    1 a Nazi; negative: fewer), over the cards whose fronts ``viewer`` knows (as :func:`team_hints`).
    ``out_offer``/``out_accept`` [(relative seat - 1) * 4 + hand slot]: an offer counts the best swap
    for one of the team-mate's cards it knows, an accept the offered card for that slot;
    ``out_bib`` [hand slot * 99 + card]: the Bib swap or draw. Exchanges moving a card of the viewer's
    hand it does not know stay 0 (it cannot judge them); so do the others not legal. Computed as the
    comment above these functions says; tests/voll_auf_die_18/test_exchange_gains_reference.py holds
    the candidate-by-candidate search it must equal."""
    out_offer[:] = 0.0
    out_accept[:] = 0.0
    out_bib[:] = 0.0
    if state.terminal or not _any_exchange(state.mask[viewer]):
        return
    num = int(state.num_players)
    nazis = np.empty((X_ROWS, NUM_SLOTS), np.int64)  # a column per face-up Nazi (rows: X_...)
    count = 0
    for slot in range(NUM_SLOTS):
        nazi = nazi_in_slot(state, slot)
        if nazi < 0:
            continue
        allowed, banned, everyone = nazi_rules(state, nazi)
        members = 0
        for seat in range(num):
            members += state.contrib[nazi, seat]
        nazis[X_NAZI, count] = nazi
        nazis[X_EVERYONE, count] = everyone
        nazis[X_TARGETS, count] = _targets(NAZI_IQ[nazi], state.pool_fixed[nazi], state.pool_readings[nazi]) & SUM_BITS
        nazis[X_MIN_NEW, count] = max(0, min_team(state) - members)
        nazis[X_ALLOWED, count] = allowed
        nazis[X_BANNED, count] = banned
        count += 1
    if count == 0:
        return
    cards = np.zeros((4, num, 4), np.int8)
    readings = np.zeros((2, num + 2, NUM_SUBSETS), np.int64)  # normal, talent; rows num, num + 1: a candidate's
    vals = np.zeros((NUM_SLOTS, num), np.int64)   # per Nazi and seat: the option values without an exchange
    accepted = np.zeros((NUM_SLOTS, num), np.int64)
    # _join tables per Nazi row: of all seats; all but the viewer; all but the viewer and one other;
    # reach[3, 0]: a candidate's
    reach = np.zeros((4, NUM_SLOTS, MAX_PLAYERS + 1), np.int64)
    moved = np.zeros((4, 4), np.int8)
    for seat in range(num):
        _seat_cards(state, seat, viewer, cards[0, seat], cards[1, seat], cards[2, seat], cards[3, seat])
        subset_readings(state.character[seat], cards[0, seat], cards[1, seat], cards[2, seat],
                        _present(cards[3, seat]), readings[0, seat], readings[1, seat])
    for seat in range(num):
        for j in range(count):
            accepted[j, seat] = cards_accepted(cards[0, seat], cards[1, seat], cards[3, seat],
                                               nazis[X_ALLOWED, j], nazis[X_BANNED, j])
            if j > 0 and accepted[j, seat] == accepted[j - 1, seat]:  # (the same cards: the same values)
                vals[j, seat] = vals[j - 1, seat]
            else:
                vals[j, seat] = _option_values(readings[0, seat], readings[1, seat], state.talent_ready[seat],
                                               accepted[j, seat], state.character[seat] == D.MARIA)
    _rest_reach(state, nazis, count, viewer, -1, num, vals, reach[1])
    base = 0
    for j in range(count):
        reach[0, j, :] = reach[1, j, :]
        if not state.contrib[nazis[X_NAZI, j], viewer]:
            _join(reach[0, j], vals[j, viewer], nazis[X_EVERYONE, j] != 0, num)
        nazis[X_VERDICT, j] = 1 if _hits(reach[0, j], nazis[X_TARGETS, j], nazis[X_MIN_NEW, j], num) else 0
        base += nazis[X_VERDICT, j]
        nazis[X_ALONE, j] = 1 if _hits(reach[1, j], nazis[X_TARGETS, j], nazis[X_MIN_NEW, j], num) else 0
        nazis[X_NEED, j] = _completing(reach[1, j], nazis[X_TARGETS, j], nazis[X_MIN_NEW, j], num)
    mask = state.mask[viewer]
    row, other_row = np.zeros(3, np.int64), np.zeros(3, np.int64)
    for rel in range(1, num):
        other = (viewer + rel) % num
        rest_done = False  # reach[2] for this other: built for its first candidate
        for i in range(HAND):
            a = A_OFFER + (rel - 1) * HAND + i
            if mask[a] and cards[3, viewer, i]:
                if not rest_done:
                    _rest_reach(state, nazis, count, viewer, other, num, vals, reach[2])
                    rest_done = True
                best, scored = 0.0, False
                other_row[0], other_row[1], other_row[2] = cards[0, viewer, i], cards[1, viewer, i], cards[2, viewer, i]
                for j in range(HAND):
                    if cards[3, other, j]:
                        row[0], row[1], row[2] = cards[0, other, j], cards[1, other, j], cards[2, other, j]
                        score = _swap_score(state, nazis, count, viewer, i, row, other, j, other_row, cards, readings,
                                            vals, accepted, reach, moved, num)
                        gain = (score - base) / NUM_SLOTS
                        best = gain if not scored else max(best, gain)
                        scored = True
                if scored:
                    out_offer[a - A_OFFER] = best
        offered = state.offer_card[other]
        if state.offer_to[other] == viewer and 0 <= offered < NUM_ARG:
            for j in range(HAND):
                if state.hand[other, j] == offered:
                    row[0], row[1], row[2] = CARD_COLOUR[offered], CARD_VALUE[offered], CARD_HALF[offered]
                    for i in range(HAND):
                        a = A_ACCEPT + (rel - 1) * HAND + i
                        if mask[a] and cards[3, viewer, i]:
                            if not rest_done:
                                _rest_reach(state, nazis, count, viewer, other, num, vals, reach[2])
                                rest_done = True
                            other_row[0], other_row[1], other_row[2] = cards[0, viewer, i], cards[1, viewer, i], \
                                cards[2, viewer, i]
                            score = _swap_score(state, nazis, count, viewer, i, row, other, j, other_row, cards,
                                                readings, vals, accepted, reach, moved, num)
                            out_accept[a - A_ACCEPT] = (score - base) / NUM_SLOTS
    halves_matter = 0  # only Maria reads the half digits on the backs: else alike fronts score alike
    for seat in range(num):
        if state.character[seat] == D.MARIA:
            halves_matter = 1
    keyed = np.empty(BIB_KEYS, np.int64)  # a key's score, once a Bib card with it is scored
    for i in range(HAND):
        keyed[:] = -1
        for card in range(NUM_ARG):
            a = A_BIB + i * NUM_ARG + card
            if not mask[a]:
                continue
            key = (CARD_COLOUR[card] * 7 + CARD_VALUE[card]) * NUM_HALVES + (CARD_HALF[card] if halves_matter else 0)
            if keyed[key] < 0:
                row[0], row[1], row[2] = CARD_COLOUR[card], CARD_VALUE[card], CARD_HALF[card]
                keyed[key] = _swap_score(state, nazis, count, viewer, i, row, -1, -1, other_row, cards, readings,
                                         vals, accepted, reach, moved, num)
            out_bib[i * NUM_ARG + card] = (keyed[key] - base) / NUM_SLOTS


@njit(cache=True)
def _swap_score(state, nazis, count, viewer, i, row, other, j, other_row, cards, readings, vals, accepted, reach,
                moved, num):
    """How many face-up Nazis the team can convince exactly once ``viewer``'s slot ``i`` holds the card
    ``row`` and (other >= 0) ``other``'s slot ``j`` the card ``other_row``. Only the changed seats'
    readings are recomputed; a Nazi where neither changed seat's option values change (it laid
    there already, or the Nazi's rules take neither card) keeps the verdict without the exchange,
    and otherwise the seats not changed come from the precomputed ``reach`` tables."""
    table = reach[3, 0]
    score = 0
    fresh_mine, fresh_theirs = False, False  # the changed seats' readings, computed once a Nazi takes the card
    fits_mine, fits_theirs = -1, -1           # the accepted slots the values below were computed for
    mine_then, theirs_then = np.int64(0), np.int64(0)
    for k in range(count):
        nazi, everyone = nazis[X_NAZI, k], nazis[X_EVERYONE, k] != 0
        targets, min_new = nazis[X_TARGETS, k], nazis[X_MIN_NEW, k]
        allowed, banned = nazis[X_ALLOWED, k], nazis[X_BANNED, k]
        mine, theirs = vals[k, viewer], vals[k, other] if other >= 0 else np.int64(0)
        mine_laid = state.contrib[nazi, viewer] != 0
        theirs_laid = other < 0 or state.contrib[nazi, other] != 0
        if not mine_laid:
            takes = (allowed >> row[0] & 1) and not (banned >> row[1] & 1)
            if takes and not fresh_mine:
                _readings_after(state.character[viewer], cards, viewer, i, row, moved, readings[0, num],
                                readings[1, num])
                fresh_mine = True
            fits = (accepted[k, viewer] & ~(1 << i)) | ((1 << i) if takes else 0)
            if fits != fits_mine:  # (Nazis with the same rules take the same cards: computed once)
                fits_mine = fits
                mine_then = _option_values(readings[0, num] if takes else readings[0, viewer],
                                           readings[1, num] if takes else readings[1, viewer],
                                           state.talent_ready[viewer], fits, state.character[viewer] == D.MARIA)
            mine = mine_then
        if not theirs_laid:
            takes = (allowed >> other_row[0] & 1) and not (banned >> other_row[1] & 1)
            if takes and not fresh_theirs:
                _readings_after(state.character[other], cards, other, j, other_row, moved, readings[0, num + 1],
                                readings[1, num + 1])
                fresh_theirs = True
            fits = (accepted[k, other] & ~(1 << j)) | ((1 << j) if takes else 0)
            if fits != fits_theirs:
                fits_theirs = fits
                theirs_then = _option_values(readings[0, num + 1] if takes else readings[0, other],
                                             readings[1, num + 1] if takes else readings[1, other],
                                             state.talent_ready[other], fits, state.character[other] == D.MARIA)
            theirs = theirs_then
        if mine == vals[k, viewer] and (other < 0 or theirs == vals[k, other]):
            score += nazis[X_VERDICT, k]
            continue
        if other < 0:  # a Bib swap: the other seats' table is the same for every card
            alone, need = nazis[X_ALONE, k] != 0, nazis[X_NEED, k]
        else:
            table[:] = reach[2, k]
            if not theirs_laid:
                _join(table, theirs, everyone, num)
            alone = _hits(table, targets, min_new, num)  # the team without the viewer's new card
            if mine_laid or (alone and not everyone):
                score += 1 if alone else 0
            elif _completed_by(table, mine, targets, min_new, num):
                score += 1
            continue
        if mine_laid:
            score += 1 if alone else 0
        elif (alone and not everyone) or (mine & need) != 0:
            score += 1
    return score


@njit(cache=True)
def legal_mask(state, seat, mask):
    if state.terminal or seat >= state.num_players:
        return
    for a in range(NUM_ACTIONS):
        mask[a] = state.mask[seat, a]


# ==== step ==================================================================================


@njit(cache=True)
def step(state, actions):
    num = int(state.num_players)
    state.reward[:] = 0.0
    moved = (np.int64(0), np.int64(0))  # the cards an earlier action of this step moved (_moved)
    first = state.moment % num
    stacked = _stack_cards(state)
    busy_before = _busy_seats(state)
    nazis_stacked, next_swap = state.nazi_stack_len, state.next_swap
    # Tells, withdrawals and dice first: they move no card another seat may want.
    for seat in range(num):
        a = actions[seat]
        if a >= A_TELL:
            _tell(state, (seat + a - A_TELL + 1) % num)
        elif A_WITHDRAW <= a < A_OFFER:
            _withdraw(state, seat, nazi_in_slot(state, a - A_WITHDRAW))
        elif A_ROLL <= a < A_ROLL_ALL:
            _roll(state, a - A_ROLL)
        elif a == A_ROLL_ALL:
            for k in range(D.NUM_DICE):
                _roll(state, k)
    # Expansions refer to the card each seat saw; a group task needs every seat on the same card.
    intended = np.int64(0)  # (each seat's card + 1, 8 bits a seat: _intended)
    for seat in range(num):
        if A_EXPAND <= actions[seat] < A_ROLL:
            intended |= (int(expansion_source(state, seat, actions[seat] - A_EXPAND)) + 1) << (8 * seat)
    group_card = _intended(intended, 0)
    for seat in range(num):
        if _intended(intended, seat) != group_card:
            group_card = -1
    if group_card >= 0 and BACK_COND_KIND[CARD_BACK[group_card]] == D.COND_GROUP_TASK:
        moved = _expand(state, 0, actions[0] - A_EXPAND, moved, group_card)
    # Then the rest in the rotating seat order.
    for i in range(num):
        seat = _seat_after(first, i, num)
        a = actions[seat]
        if A_ARGUE <= a < A_WITHDRAW:
            moved = _argue(state, seat, (a - A_ARGUE) // NUM_SUBSETS, SUBSETS[(a - A_ARGUE) % NUM_SUBSETS], moved)
        elif A_OFFER <= a < A_ACCEPT:
            _offer(state, seat, 1 + (a - A_OFFER) // HAND, (a - A_OFFER) % HAND)
        elif A_ACCEPT <= a < A_BIB:
            moved = _accept(state, seat, 1 + (a - A_ACCEPT) // HAND, (a - A_ACCEPT) % HAND, moved)
        elif A_BIB <= a < A_EXPAND:
            moved = _bib_swap(state, seat, (a - A_BIB) // NUM_ARG, (a - A_BIB) % NUM_ARG, moved)
        elif A_EXPAND <= a < A_ROLL and _intended(intended, seat) >= 0:
            card = _intended(intended, seat)
            if BACK_COND_KIND[CARD_BACK[card]] != D.COND_GROUP_TASK:
                moved = _expand(state, seat, a - A_EXPAND, moved, card)
    convinced = _resolve_pools(state)
    emergency = False
    for seat in range(num):
        emergency = emergency or actions[seat] == A_EMERGENCY
    emergency = emergency and not state.emergency_used
    if emergency:
        _emergency(state)
    for i in range(num):
        seat = _seat_after(first, i, num)
        _draw_up(state, seat)
    if convinced > 0 and state.shaping:
        for seat in range(num):
            state.reward[seat] += convinced / D.NUM_NAZIS
    for seat in range(num):  # what each action takes at the table (everyone takes part in the redraw)
        if actions[seat] != A_WAIT:
            state.busy_until[seat] = state.clock + action_seconds(state, actions[seat], _intended(intended, seat))
        if emergency:
            state.busy_until[seat] = max(state.busy_until[seat], state.clock + action_seconds(state, A_EMERGENCY, -1))
    state.moment += 1
    _run_clock(state, convinced > 0 or emergency or (stacked > 0 and _stack_cards(state) == 0))
    _clear_stale_offers(state)
    # A step in which every seat waited and the clock brought no Nazi, no seat swap and no end moved
    # nothing a mask depends on, except whose wait is over: only those seats' masks change.
    quiet = (not _anyone_acted(actions, num) and not state.terminal and state.nazi_stack_len == nazis_stacked
             and state.next_swap == next_swap and _stack_cards(state) == stacked)
    refresh_seats(state, busy_before & ~_busy_seats(state) if quiet else ALL_SEATS)


@njit(cache=True, inline="always")
def _intended(intended, seat):
    """The card ``seat``'s expansion refers to (-1: none), from step's 8 bits a seat."""
    return (intended >> (8 * seat) & 0xFF) - 1


# The cards an earlier action of the step moved (a later action on one of them has no effect), as
# bits of two words: cards 0-49 and 50-100.


@njit(cache=True, inline="always")
def _moved(moved, card):
    """Whether ``card`` is in ``moved``."""
    card = int(card)
    return ((moved[0] >> card if card < CARD_WORD else moved[1] >> (card - CARD_WORD)) & 1) != 0


@njit(cache=True, inline="always")
def _move(moved, card):
    """``moved`` with ``card`` in it."""
    card = int(card)
    if card < CARD_WORD:
        return moved[0] | np.int64(1) << card, moved[1]
    return moved[0], moved[1] | np.int64(1) << (card - CARD_WORD)


@njit(cache=True)
def _anyone_acted(actions, num):
    for seat in range(num):
        if actions[seat] != A_WAIT:
            return True
    return False


@njit(cache=True)
def _busy_seats(state):
    """The seats (bits) still busy with their last action (:func:`is_busy`)."""
    bits = 0
    for seat in range(state.num_players):
        if is_busy(state, seat):
            bits |= 1 << seat
    return bits


@njit(cache=True)
def _tell(state, target):
    """A team-mate tells ``target`` the fronts of the cards in her hand (Blind Trust)."""
    for i in range(HAND):
        if state.hand[target, i] >= 0:
            state.hand_known[target, i] = 1


@njit(cache=True)
def _withdraw(state, seat, nazi):
    if nazi < 0 or not state.contrib[nazi, seat]:
        return
    for card in range(NUM_ARG):
        if state.card_loc[card] == LOC_POOL and state.card_nazi[card] == nazi and state.card_seat[card] == seat:
            state.card_nazi[card] = -1
            _put_in_hand(state, seat, card, 1)  # it lay open in the pool
    for k in range(D.NUM_DICE):  # (only Krapotke's own withdrawal takes his dice back)
        if state.character[seat] == D.KRAPOTKE and state.die_status[k] == DIE_POOLED and state.die_nazi[k] == nazi:
            state.die_status[k] = DIE_FREE
            state.die_nazi[k] = -1
    if state.contrib_talent[nazi, seat]:
        state.talent_ready[seat] = 1
    if state.character[seat] == D.MARIA:
        state.pool_readings[nazi] = 0
    else:
        state.pool_fixed[nazi] -= state.contrib_value[nazi, seat]
    state.pool_count[nazi] -= 1
    state.contrib[nazi, seat] = 0
    state.contrib_value[nazi, seat] = 0
    state.contrib_talent[nazi, seat] = 0


@njit(cache=True)
def _argue(state, seat, slot, subset, moved):
    """Lay the cards (dice) of ``subset`` at the Nazi in ``slot``; no effect if it is not a valid
    argumentation there any more (cards moved this step, rules broken, the pool would overshoot).
    Returns ``moved`` with the cards laid."""
    nazi = nazi_in_slot(state, slot)
    if nazi < 0 or state.contrib[nazi, seat]:
        return moved
    kind = state.character[seat]
    krapotke = kind == D.KRAPOTKE
    if not krapotke:
        for i in range(HAND):
            if subset >> i & 1:
                card = state.hand[seat, i]
                if card < 0 or card >= NUM_ARG or _moved(moved, card):
                    return moved
    colours, values, halves, usable = _seat_card_tuples(state, seat)
    allowed, banned, _ = nazi_rules(state, nazi)
    if subset & cards_accepted(colours, values, usable, allowed, banned) != subset:
        return moved
    normal, talent = subset_reading(kind, colours, values, halves, card_codes(kind, colours, values),
                                    SUBSET_INDEX[subset])
    is_maria = kind == D.MARIA
    fitting = fitting_values(state, nazi, is_maria)
    readings = normal & fitting
    uses_talent = 0
    if readings == 0 and state.talent_ready[seat]:
        readings = talent & fitting
        uses_talent = 1
    if readings == 0:
        return moved
    for i in range(4):
        if subset >> i & 1:
            if krapotke:
                state.die_status[i] = DIE_POOLED
                state.die_nazi[i] = nazi
            else:
                card = state.hand[seat, i]
                state.hand[seat, i] = -1
                state.hand_known[seat, i] = 0
                state.card_loc[card] = LOC_POOL
                state.card_nazi[card] = nazi
                moved = _move(moved, card)
    state.contrib[nazi, seat] = 1
    state.contrib_talent[nazi, seat] = uses_talent
    if uses_talent:
        state.talent_ready[seat] = 0
    state.pool_count[nazi] += 1
    if is_maria:
        state.pool_readings[nazi] = readings
        state.contrib_value[nazi, seat] = _lowest_bit(readings)
    else:
        value = _lowest_bit(readings)
        state.pool_fixed[nazi] += value
        state.contrib_value[nazi, seat] = value
    return moved


@njit(cache=True)
def _offer(state, seat, rel, i):
    other = (seat + rel) % int(state.num_players)
    card = state.hand[seat, i]
    if card >= 0 and has_hand(state, other):
        state.offer_to[seat] = other
        state.offer_card[seat] = card


@njit(cache=True)
def _accept(state, seat, rel, i, moved):
    """Take the card ``rel`` offers and give my slot ``i`` for it (1:1 swap); returns ``moved``
    with both cards."""
    other = (seat + rel) % int(state.num_players)
    theirs = state.offer_card[other]
    mine = state.hand[seat, i]
    if state.offer_to[other] != seat or theirs < 0 or mine < 0 or _moved(moved, theirs) or _moved(moved, mine):
        return moved
    if state.card_loc[theirs] != LOC_HAND or state.card_seat[theirs] != other:
        return moved
    for j in range(HAND):
        if state.hand[other, j] == theirs:  # the offerer knows my card if she could see it in my hand
            _set_slot(state, other, j, mine, knows_front(state, other, seat, i))
    _set_slot(state, seat, i, theirs, 1)    # an offered card's front is shown to its receiver
    state.offer_to[other] = -1
    state.offer_card[other] = -1
    return _move(_move(moved, theirs), mine)


@njit(cache=True)
def _bib_swap(state, seat, i, card, moved):
    """Swap hand slot ``i`` for Bib ``card`` (same colour or same value), or take it into an empty
    slot when hand cards may be drawn from the Bib; returns ``moved`` with the cards it moved."""
    if state.card_loc[card] != LOC_BIB or _moved(moved, card):
        return moved
    mine = state.hand[seat, i]
    if mine < 0:
        if not (may_draw_from_bib(state) and cards_held(state, seat) < HAND):
            return moved
    else:
        if mine >= NUM_ARG or _moved(moved, mine):
            return moved
        if CARD_COLOUR[card] != CARD_COLOUR[mine] and CARD_VALUE[card] != CARD_VALUE[mine]:
            return moved  # (a blind seat tried a swap the Bib does not allow)
        _to_bib(state, mine, False)
        moved = _move(moved, mine)
    _from_bib(state, card)
    _set_slot(state, seat, i, card, 1)  # the Bib lies open
    return _move(moved, card)


@njit(cache=True)
def _expand(state, seat, target, moved, intended):
    """Place the card of ``target`` face up into the Bib if it is still the ``intended`` card and
    its back's condition is met (group tasks: the caller checked every seat chose it); returns
    ``moved`` with it."""
    card = expansion_source(state, seat, target)
    if card < 0 or card != intended or _moved(moved, card):
        return moved
    if not _condition_met(state, seat, card):
        return moved
    if target < D.RUN_OUT_STACKS:
        _pop_stack(state, target)
        _to_bib(state, card, False)
        return _move(moved, card)
    owner = (seat + target - D.RUN_OUT_STACKS) % int(state.num_players)
    state.talent_len[owner] -= 1
    state.talent[owner, state.talent_len[owner]] = -1
    state.talent_ready[owner] = 1
    _to_bib(state, card, True)
    return _move(moved, card)


@njit(cache=True)
def _resolve_pools(state):
    """Convince every face-up Nazi whose pool hits its IQ exactly; returns how many."""
    convinced = 0
    for slot in range(NUM_SLOTS - 1, -1, -1):  # spaces first: convincing the stack top uncovers the next
        nazi = nazi_in_slot(state, slot)
        if nazi < 0 or state.pool_count[nazi] == 0:
            continue
        need = NAZI_IQ[nazi] - state.pool_fixed[nazi]
        pool = state.pool_readings[nazi]
        exact = need == 0 if pool == 0 else (need >= 0 and (pool >> need & 1) != 0)
        everyone = state.nasty[nazi] and NASTY_KIND[nazi] == D.ALL_AGAINST_ONE
        members = state.pool_count[nazi]
        if exact and members >= min_team(state) and (not everyone or members == state.num_players):
            _convince(state, nazi, slot)
            convinced += 1
    return convinced


@njit(cache=True)
def _convince(state, nazi, slot):
    for card in range(NUM_ARG):
        if state.card_loc[card] == LOC_POOL and state.card_nazi[card] == nazi:
            state.card_loc[card] = LOC_DISCARD
            state.card_nazi[card] = -1
            state.card_seat[card] = -1
    for k in range(D.NUM_DICE):
        if state.die_status[k] == DIE_POOLED and state.die_nazi[k] == nazi:
            state.die_status[k] = DIE_USED  # must be rolled again before it argues again
            state.die_nazi[k] = -1
    for seat in range(state.num_players):
        if state.contrib_talent[nazi, seat]:
            state.talent_spent[seat] += 1
            _cover_talent(state, seat)
        state.contrib[nazi, seat] = 0
        state.contrib_value[nazi, seat] = 0
        state.contrib_talent[nazi, seat] = 0
    state.pool_fixed[nazi] = 0
    state.pool_readings[nazi] = 0
    state.pool_count[nazi] = 0
    state.nazi_at[nazi] = NAZI_CONVINCED
    state.convinced += 1
    if slot == 0:
        state.nazi_stack_len -= 1
        state.nazi_stack[state.nazi_stack_len] = -1
        if state.nazi_stack_len > 0:
            state.nazi_at[state.nazi_stack[state.nazi_stack_len - 1]] = NAZI_FACE_UP
    else:
        state.space[slot - 1] = -1


@njit(cache=True)
def _emergency(state):
    """Once per chapter: every hand (and every card laid in a pool) goes back into the stacks,
    which are shuffled; everyone then draws 4 anew (``step``'s :func:`_draw_up`), except in
    chapter "the Arguments run out", whose hands may only be drawn from the Bib (the seats take
    Bib cards into their empty slots, the Bib action). Razupaltuff cards stay in their hands."""
    num = int(state.num_players)
    state.emergency_used = 1
    for nazi in range(D.NUM_NAZIS):
        for seat in range(num):
            if state.contrib[nazi, seat]:
                _withdraw(state, seat, nazi)
    pile = np.zeros(NUM_ARG, np.int8)
    n = 0
    for s in range(state.num_stacks):
        while state.stack_len[s] > 0:
            pile[n] = _pop_stack(state, s)
            n += 1
    for seat in range(num):
        for i in range(HAND):
            card = state.hand[seat, i]
            if card >= 0 and card < NUM_ARG:
                pile[n] = card
                n += 1
                state.hand[seat, i] = -1
                state.hand_known[seat, i] = 0  # nobody knows an empty slot
    shuffle(state, pile, n)
    for i in range(n):
        s = i % state.num_stacks
        state.stack[s, state.stack_len[s]] = pile[i]
        state.stack_len[s] += 1
        state.card_loc[pile[i]] = LOC_STACK
        state.card_seat[pile[i]] = -1
    for seat in range(MAX_PLAYERS):
        state.offer_to[seat] = -1
        state.offer_card[seat] = -1


@njit(cache=True)
def _swap_places(state):
    """Everyone moves one seat on (to the left): player p takes over seat p+1's character, hand,
    talent space and laid cards. She knows the fronts of her new hand that she saw from her old seat."""
    num = int(state.num_players)
    known = np.zeros((MAX_PLAYERS, HAND), np.int8)
    for seat in range(num):
        for i in range(HAND):
            known[seat, i] = state.hand[(seat + 1) % num, i] >= 0 and knows_front(state, seat, (seat + 1) % num, i)
    for seat in range(num - 1):  # num - 1 neighbour exchanges rotate everything by one seat
        _exchange_seats(state, seat, seat + 1)
    state.hand_known[:] = known
    for card in range(NUM_CARDS):
        if state.card_seat[card] >= 0:
            state.card_seat[card] = (state.card_seat[card] - 1) % num
    for seat in range(MAX_PLAYERS):
        state.offer_to[seat] = -1
        state.offer_card[seat] = -1


@njit(cache=True)
def _exchange_seats(state, a, b):
    state.character[a], state.character[b] = state.character[b], state.character[a]
    state.talent_len[a], state.talent_len[b] = state.talent_len[b], state.talent_len[a]
    state.talent_ready[a], state.talent_ready[b] = state.talent_ready[b], state.talent_ready[a]
    state.talent_spent[a], state.talent_spent[b] = state.talent_spent[b], state.talent_spent[a]
    for i in range(HAND):
        state.hand[a, i], state.hand[b, i] = state.hand[b, i], state.hand[a, i]
    for i in range(D.HERTA_TALENT_CARDS):
        state.talent[a, i], state.talent[b, i] = state.talent[b, i], state.talent[a, i]
    for nazi in range(D.NUM_NAZIS):
        state.contrib[nazi, a], state.contrib[nazi, b] = state.contrib[nazi, b], state.contrib[nazi, a]
        state.contrib_value[nazi, a], state.contrib_value[nazi, b] = (state.contrib_value[nazi, b],
                                                                      state.contrib_value[nazi, a])
        state.contrib_talent[nazi, a], state.contrib_talent[nazi, b] = (state.contrib_talent[nazi, b],
                                                                        state.contrib_talent[nazi, a])


@njit(cache=True)
def _run_clock(state, changed):
    """The moment's seconds pass: new Nazis, swap places, and the ends of the game. Whether the
    chapter is lost for want of Arguments is asked when the step ``changed`` what that depends on
    (a Nazi convinced, the emergency redraw, the stacks emptied) and, while only the Bib goal is
    missing or a chapter-6 talent card may have left the Bib or a stack, every step."""
    if state.convinced == D.NUM_NAZIS and _extra_goals_met(state):
        _end(state, END_WON)
        return
    if changed or state.convinced == D.NUM_NAZIS or not talent_goal_reachable(state):
        reason = lost_reason(state)
        if reason != END_NONE:
            _end(state, reason)
            return
    state.clock += state.seconds_per_step
    while state.nazi_stack_len > 0 and state.clock >= state.next_nazi:
        _reveal_nazi(state)
        state.next_nazi += randrange(state, D.NAZI_EVERY[0], D.NAZI_EVERY[1])
        if face_up_count(state) >= D.LOSE_FACE_UP:
            _end(state, END_FIVE_FACE_UP)
            return
    if state.labels & D.L_SWAP_PLACES and state.clock >= state.next_swap:
        _swap_places(state)
        state.next_swap += randrange(state, D.SWAP_EVERY[0], D.SWAP_EVERY[1])
    if state.clock >= D.CHAPTER_SECONDS:
        _end(state, END_TIME)


@njit(cache=True)
def _extra_goals_met(state):
    if state.labels & D.L_BIB10 and state.bib_count < D.BIB_GOAL:
        return False
    if state.labels & D.L_BIB10_TALENT and state.bib_talent_count < D.BIB_GOAL:
        return False
    return True


@njit(cache=True)
def _end(state, reason):
    state.terminal = 1
    state.current_player = -1
    state.end_reason = reason
    result = 1.0 if reason == END_WON else -1.0
    for seat in range(state.num_players):
        state.reward[seat] += result


@njit(cache=True)
def _clear_stale_offers(state):
    for seat in range(state.num_players):
        card = state.offer_card[seat]
        if card >= 0 and (state.card_loc[card] != LOC_HAND or state.card_seat[card] != seat):
            state.offer_to[seat] = -1
            state.offer_card[seat] = -1


# ==== observe ================================================================================


def _card_rows():
    """Each card's F_CARD observation features, with its front (row 0) and with its back only (row 1)."""
    rows = np.zeros((2, NUM_CARDS, F_CARD), np.float32)
    for card in range(NUM_CARDS):
        for hidden in range(2):
            row = rows[hidden, card]
            row[0] = 1.0
            if card >= NUM_ARG:  # Razupaltuff: known to everyone
                row[1] = 1.0
                row[2] = 1.0
                continue
            if not hidden:
                row[1] = 1.0
                row[3 + CARD_COLOUR[card]] = 1.0
                row[7 + CARD_VALUE[card] - 1] = 1.0
            segments = HALF_SEGMENTS[CARD_HALF[card]]
            for s in range(7):
                if segments >> s & 1:
                    row[13 + s] = 1.0
            design = CARD_BACK[card]
            row[20 + BACK_COND_KIND[design]] = 1.0
            for k in range(7):
                row[24 + k] = BACK_COND_COUNT[design, k] / 4.0
    return rows


CARD_ROWS = _card_rows()  # (a table: the observation copies a card's features instead of building them)


@njit(cache=True, inline="always")
def _write_card(out, o, card, front):
    """A card's features at out[o:o + F_CARD]; its front only if ``front``."""
    row = CARD_ROWS[0 if front else 1, card]
    for k in range(F_CARD):
        out[o + k] = row[k]


@njit(cache=True)
def observe(state, seat, out):
    num = int(state.num_players)
    out[O_CHAPTER + int(state.chapter) - 1] = 1.0
    for i in range(LABEL_FLAGS.shape[0]):
        if state.labels & LABEL_FLAGS[i]:
            out[O_LABELS + i] = 1.0
    out[O_CLOCK] = max(0, D.CHAPTER_SECONDS - state.clock) / D.CHAPTER_SECONDS
    out[O_CLOCK + 1] = min(1.0, (state.clock - state.last_nazi) / D.NAZI_EVERY[1])
    out[O_CLOCK + 2] = 1.0 if state.nazi_stack_len == 0 else 0.0
    out[O_CLOCK + 3] = state.emergency_used
    out[O_COUNTS] = state.convinced / D.NUM_NAZIS
    out[O_COUNTS + 1] = state.nazi_stack_len / D.NUM_NAZIS
    out[O_COUNTS + 2] = min(face_up_count(state), D.LOSE_FACE_UP) / D.LOSE_FACE_UP
    out[O_COUNTS + 3] = state.bib_count / NUM_ARG
    out[O_COUNTS + 4] = state.bib_talent_count / NUM_ARG
    for slot in range(NUM_SLOTS):
        nazi = nazi_in_slot(state, slot)
        if nazi >= 0:
            _write_nazi(state, seat, nazi, out, O_NAZI_SLOTS + slot * F_NAZI)
    for nazi in range(D.NUM_NAZIS):
        o = O_NAZI_STATUS + nazi * 4
        out[o + int(state.nazi_at[nazi])] = 1.0
        out[o + 3] = state.nasty[nazi]
    pooled = _write_cards(state, out)
    for rel in range(num):
        other = _seat_after(seat, rel, num)
        _write_seat(state, seat, other, rel, out, pooled >> (8 * other) & 0xFF)
    for s in range(state.num_stacks):
        o = O_STACKS + s * (1 + F_CARD)
        out[o] = state.stack_len[s] / NUM_ARG
        if state.stack_len[s] > 0:
            _write_card(out, o + 1, state.stack[s, state.stack_len[s] - 1], False)
    for k in range(D.NUM_DICE):
        o = O_DICE + k * 10
        out[o + int(state.die_value[k]) - 1] = 1.0
        out[o + 6 + int(state.die_status[k])] = 1.0
    if state.observe_hints:
        _write_hints(state, seat, out)


@njit(cache=True)
def _write_hints(state, seat, out):
    """The hint blocks: :func:`team_hints` for ``seat`` (so only what it can know), per slot and,
    for its own part, as the argue action that lays it, where a pointer head can read it per action."""
    num = int(state.num_players)
    hint = np.zeros((NUM_SLOTS, MAX_PLAYERS), np.int8)
    ways = np.zeros(NUM_SLOTS, np.int16)
    team_hints(state, seat, hint, ways)
    for slot in range(NUM_SLOTS):
        if ways[slot] == 0:
            continue
        o = O_HINT_SLOTS + slot * F_HINT
        out[o] = np.log2(1.0 + ways[slot]) / HINT_WAYS_BITS
        for rel in range(num):
            subset = int(hint[slot, rel])
            if subset:
                out[o + 1] = 1.0
                out[o + 2 + rel] = 1.0
                out[o + 2 + MAX_PLAYERS + rel] = count_bits(subset) / HAND
        mine = int(hint[slot, 0])
        if mine:
            out[O_HINT_ARGUE + slot * NUM_SUBSETS + int(SUBSET_INDEX[mine])] = 1.0
    exchange_gains(state, seat, out[O_HINT_OFFER:O_HINT_OFFER + (MAX_PLAYERS - 1) * HAND],
                   out[O_HINT_ACCEPT:O_HINT_ACCEPT + (MAX_PLAYERS - 1) * HAND], out[O_HINT_BIB:O_HINT_BIB + HAND * NUM_ARG])


@njit(cache=True, inline="always")
def _write_cards(state, out):
    """Every Argument's public whereabouts into the cleared view: the cards in the Bib, in pools and
    discarded come as bits of card words (:func:`_location_words`) and only their 1s are written, a
    few dozen stores instead of 4 a card. Returns the cards each seat has laid in pools, packed 8
    bits a seat (the seats' "cards held" need them)."""
    pooled = np.int64(0)
    for start in range(0, NUM_ARG, CARD_WORD):
        o = O_CARDS + 4 * start
        bib, pool, discard = _location_words(state.card_loc, start)
        _set_bits(out, o, bib, 4)
        _set_bits(out, o + 1, pool, 4)
        _set_bits(out, o + 2, discard, 4)
        if state.bib_talent_count:  # (cards from talent spaces only in the chapters with talent spaces)
            _set_bits(out, o + 3, bib & _card_word(state.from_talent, 1, start), 4)
        pooled += _pooled_counts(state, pool, start)
    return pooled


@njit(cache=True, inline="always")
def _write_nazi(state, seat, nazi, out, o):
    num = int(state.num_players)
    iq = NAZI_IQ[nazi]
    allowed, banned, _ = nazi_rules(state, nazi)
    out[o] = 1.0
    out[o + 1] = iq / 23.0
    out[o + 2 + (NASTY_KIND[nazi] if state.nasty[nazi] else 0)] = 1.0
    for c in range(D.NUM_COLOURS):
        out[o + 7 + c] = (allowed >> c) & 1
    for v in range(1, 7):
        out[o + 11 + v - 1] = (banned >> v) & 1
    out[o + 17] = state.pool_fixed[nazi] / 23.0
    out[o + 18] = max(0, iq - state.pool_fixed[nazi]) / 23.0
    for rel in range(num):
        other = _seat_after(seat, rel, num)
        out[o + 19 + rel] = state.contrib[nazi, other]
        out[o + 24 + rel] = state.contrib_value[nazi, other] / 23.0
    if state.pool_readings[nazi]:  # (Maria laid here)
        for v in range(24):
            out[o + 29 + v] = (state.pool_readings[nazi] >> v) & 1


@njit(cache=True, inline="always")
def _write_seat(state, seat, other, rel, out, pooled):
    """``other``'s seat, hand, offer and talent space as ``seat`` sees them (``pooled``: the cards
    ``other`` has laid in pools)."""
    out[O_BUSY + rel] = min(1.0, max(0, state.busy_until[other] - state.clock) / 30.0)
    o = O_SEATS + rel * F_SEAT
    out[o] = 1.0
    out[o + 1 + int(state.character[other])] = 1.0
    out[o + 9] = state.talent_ready[other]
    out[o + 10] = state.talent_len[other] / D.HERTA_TALENT_CARDS
    if has_hand(state, other):
        held = pooled
        for i in range(HAND):
            held += state.hand[other, i] >= 0
        out[o + 11] = held / HAND
    shown = fronts_known(state, seat, other)
    holder_knows = fronts_known(state, other, other)
    for i in range(HAND):
        card = state.hand[other, i]
        if card >= 0:
            _write_card(out, O_HANDS + (rel * HAND + i) * F_CARD, card, shown >> i & 1)
            out[O_HOLDER_KNOWS + rel * HAND + i] = holder_knows >> i & 1
    target = state.offer_to[other]
    if target >= 0:
        o = O_OFFERS + rel * 8
        out[o + _seat_after(int(target), int(state.num_players) - other, int(state.num_players)) - 1] = 1.0
        for i in range(HAND):
            if state.hand[other, i] == state.offer_card[other]:
                out[o + 4 + i] = 1.0
        if target == seat:
            _write_card(out, O_OFFERED + rel * F_CARD, state.offer_card[other], True)
    o = O_TALENT + rel * (1 + F_CARD)
    out[o] = state.talent_len[other] / D.HERTA_TALENT_CARDS
    if state.talent_len[other] > 0:
        _write_card(out, o + 1, state.talent[other, state.talent_len[other] - 1], False)


# ==== determinize (for search agents) ==========================================================


@njit(cache=True)
def determinize(state, seat, seed):
    """Resample what ``seat`` cannot know, uniformly among the states consistent with its view:
    which Arguments lie where among the stacks, the talent spaces and the hands whose fronts it
    does not see (every back in view keeps its design: stack and talent-space tops, hand cards),
    the Nazi stack below its top, and when the app's next signals come; then reseed the generator
    so that no true future randomness (rolls, arrivals) leaks."""
    seed_rng(state, seed)
    num = int(state.num_players)
    # Unknown positions: (kind 0 stack / 1 hand / 2 talent, row, index) and the back design shown (-1: none).
    kind = np.zeros(NUM_ARG, np.int64)
    row = np.zeros(NUM_ARG, np.int64)
    index = np.zeros(NUM_ARG, np.int64)
    shown = np.zeros(NUM_ARG, np.int64)
    pile = np.zeros(NUM_ARG, np.int64)
    n = 0
    for s in range(state.num_stacks):
        length = int(state.stack_len[s])
        for j in range(length):
            kind[n], row[n], index[n] = 0, s, j
            pile[n] = state.stack[s, j]
            shown[n] = CARD_BACK[pile[n]] if j == length - 1 else -1
            n += 1
    for p in range(num):
        length = int(state.talent_len[p])
        for j in range(length):
            kind[n], row[n], index[n] = 2, p, j
            pile[n] = state.talent[p, j]
            shown[n] = CARD_BACK[pile[n]] if j == length - 1 else -1
            n += 1
        for i in range(HAND):
            card = state.hand[p, i]
            shown_to_me = state.offer_to[p] == seat and state.offer_card[p] == card
            if card >= 0 and card < NUM_ARG and not shown_to_me and not knows_front(state, seat, p, i):
                kind[n], row[n], index[n] = 1, p, i
                pile[n] = card
                shown[n] = CARD_BACK[card]
                n += 1
    # A uniform consistent assignment: shuffle the unknown cards, give each position that shows a
    # back the first unused card of that design, and the rest to the other positions in order.
    # Sorted first: the seat knows which cards are unknown, not where they lie, so the deal must
    # not depend on the true arrangement (only on the seed).
    pile[:n].sort()
    shuffle(state, pile, n)
    used = np.zeros(n, np.int8)
    chosen = np.full(n, -1, np.int64)
    for k in range(n):
        if shown[k] >= 0:
            for c in range(n):
                if not used[c] and CARD_BACK[pile[c]] == shown[k]:
                    used[c] = 1
                    chosen[k] = pile[c]
                    break
    c = 0
    for k in range(n):
        if shown[k] < 0:
            while used[c]:
                c += 1
            used[c] = 1
            chosen[k] = pile[c]
    offered_slot = np.full(MAX_PLAYERS, -1, np.int64)  # an offer is of the card in that slot
    for p in range(num):
        for i in range(HAND):
            if state.offer_card[p] >= 0 and state.hand[p, i] == state.offer_card[p]:
                offered_slot[p] = i
    for k in range(n):
        card = chosen[k]
        if kind[k] == 0:
            state.stack[row[k], index[k]] = card
            state.card_loc[card] = LOC_STACK
            state.card_seat[card] = -1
        elif kind[k] == 1:
            state.hand[row[k], index[k]] = card
            state.card_loc[card] = LOC_HAND
            state.card_seat[card] = row[k]
        else:
            state.talent[row[k], index[k]] = card
            state.card_loc[card] = LOC_TALENT
            state.card_seat[card] = row[k]
    for p in range(num):
        if offered_slot[p] >= 0:
            state.offer_card[p] = state.hand[p, offered_slot[p]]
    if state.nazi_stack_len > 1:
        state.nazi_stack[: state.nazi_stack_len - 1].sort()
        shuffle(state, state.nazi_stack, int(state.nazi_stack_len) - 1)
    _resample_signals(state)
    refresh(state)


@njit(cache=True)
def _resample_signals(state):
    """When the next "Achtung!" and "Swap places now!" come. Seen: the time since the last Nazi
    came. The next is scheduled 33-45 s after the last one's scheduled time (which lies within the
    step it came in) and is still to come; swap signals are not tracked in view, so the next one
    is anywhere in the coming 150 s."""
    clock = int(state.clock)
    if state.nazi_stack_len > 0:
        last = int(state.last_nazi)
        earliest = last if last == 0 else last - int(state.seconds_per_step) + 1
        found = False
        for _ in range(64):
            scheduled = randrange(state, earliest, last) + randrange(state, D.NAZI_EVERY[0], D.NAZI_EVERY[1])
            if scheduled > clock:
                state.next_nazi = scheduled
                found = True
                break
        if not found:
            state.next_nazi = clock + 1 + randint(state, D.NAZI_EVERY[1] - D.NAZI_EVERY[0] + 1)
    if state.labels & D.L_SWAP_PLACES:
        state.next_swap = clock + randrange(state, 1, D.SWAP_EVERY[1])


# ==== the record's contract: field ranges, invariants, a value for cut playouts ================

STATE_BOUNDS = {
    "chapter": (1, D.NUM_CHAPTERS), "labels": (0, (1 << D.NUM_LABELS) - 1), "nasty_groups": (0, D.G_EVERY),
    "communication": (COMM_FULL, COMM_NONE), "seconds_per_step": (1, 60), "shaping": (0, 1),
    "observe_hints": (0, 1),
    "num_stacks": (D.STACKS, D.RUN_OUT_STACKS), "character": (-1, D.NUM_CHARACTERS - 1),
    "card_loc": (LOC_NONE, LOC_DISCARD), "card_seat": (-1, MAX_PLAYERS - 1), "card_nazi": (-1, D.NUM_NAZIS - 1),
    "from_talent": (0, 1), "stack": (-1, NUM_ARG - 1), "stack_len": (0, NUM_ARG), "hand": (-1, NUM_CARDS - 1),
    "hand_known": (0, 1), "talent": (-1, NUM_ARG - 1), "talent_len": (0, D.HERTA_TALENT_CARDS),
    "talent_ready": (0, 1), "talent_spent": (0, D.NUM_NAZIS), "bib_count": (0, NUM_ARG),
    "bib_talent_count": (0, NUM_ARG), "nasty": (0, 1), "nazi_at": (NAZI_STACK, NAZI_CONVINCED),
    "nazi_stack": (-1, D.NUM_NAZIS - 1), "nazi_stack_len": (0, D.NUM_NAZIS), "space": (-1, D.NUM_NAZIS - 1),
    "convinced": (0, D.NUM_NAZIS), "pool_fixed": (0, int(NAZI_IQ[-1])), "pool_readings": (0, (1 << MAX_VALUE) - 2),
    "pool_count": (0, MAX_PLAYERS), "contrib": (0, 1), "contrib_value": (0, MAX_VALUE - 1), "contrib_talent": (0, 1),
    "die_value": (1, 6), "die_status": (DIE_FREE, DIE_POOLED), "die_nazi": (-1, D.NUM_NAZIS - 1),
    "offer_to": (-1, MAX_PLAYERS - 1), "offer_card": (-1, NUM_CARDS - 1),
    # the clock: a step may pass the 18 minutes by less than a step; signals lie at most one interval ahead
    "clock": (0, D.CHAPTER_SECONDS + 59), "next_nazi": (0, D.CHAPTER_SECONDS + 59 + D.NAZI_EVERY[1]),
    "last_nazi": (0, D.CHAPTER_SECONDS + 59), "next_swap": (0, D.CHAPTER_SECONDS + 59 + D.SWAP_EVERY[1]),
    "moment": (0, D.CHAPTER_SECONDS), "emergency_used": (0, 1), "end_reason": (END_NONE, END_BIB_GOAL),
    "timing": (TIMING_TABLE, TIMING_STEP), "action_seconds": (0, 600), "busy_until": (0, D.CHAPTER_SECONDS + 59 + 600),
    "mask": (0, 1),
}

STATE_PROBLEMS = (
    "ok",
    "the labels or the super nasty groups are not the chapter's",
    "the number of Argument stacks does not fit the chapter",
    "every seat needs a character of its own, and absent seats none",
    "an Argument stack lists a card that is not an Argument, or entries past its length",
    "a hand slot holds a card that card_loc/card_seat place elsewhere, or an absent seat holds cards",
    "a talent space holds too many cards, entries past its length, or exists in a chapter without talents",
    "an Argument is not accounted for exactly once (card_loc disagrees with the stacks, hands, talent spaces)",
    "a Razupaltuff card is out of place",
    "bib_count or bib_talent_count disagree with the cards in the Bib",
    "a seat holds more than 4 cards (hand and pools), or Krapotke holds cards",
    "hand_known is set for an empty hand slot",
    "the Nazis are not each in exactly one place, or nazi_at, the stack's length or convinced disagree",
    "a Nazi lies on a side the chapter does not prescribe",
    "the game runs on although it is over (5 Nazis face up, or time up)",
    "a pool is inconsistent (members, laid cards or dice, the sum, Maria's readings)",
    "a pool sits full (a pool convinces the moment it is full)",
    "Krapotke's dice are inconsistent (a 6 not blocked, a laid die without its pool)",
    "an offer is inconsistent",
    "end_reason disagrees with terminal, or the game is won with Nazis left",
    "a talent is inconsistent (ready without talents, Herta over 4 uses, a seat busy without timing)",
    "the clock disagrees with the moments played or the app's next signals",
    "the cached masks are not what the rules give",
)


@njit(cache=True)
def check_state(state):
    """0 if the record is a position the rules can reach, else the code of its first problem
    (texts in STATE_PROBLEMS). Assumes STATE_BOUNDS hold and never indexes out of bounds: the
    checks run in order, and each may rely on the ones before it (e.g. the card counts on the
    stacks', hands' and talent spaces' lengths)."""
    num = int(state.num_players)
    for check in range(1, len(STATE_PROBLEMS)):
        if not _holds(state, num, check):
            return check
    return 0


@njit(cache=True)
def _holds(state, num, check):
    if check == 1:
        return _chapter_ok(state)
    if check == 2:
        return state.num_stacks == (D.RUN_OUT_STACKS if state.labels & D.L_RUN_OUT else D.STACKS)
    if check == 3:
        return _characters_ok(state, num)
    if check == 4:
        return _stacks_ok(state)
    if check == 5:
        return _hands_ok(state, num)
    if check == 6:
        return _talent_spaces_ok(state, num)
    if check == 7:
        return _arguments_placed_once(state, num)
    if check == 8:
        return _razupaltuff_ok(state, num)
    if check == 9:
        return _bib_counts_ok(state)
    if check == 10:
        return _holdings_ok(state, num)
    if check == 11:
        for seat in range(MAX_PLAYERS):
            for i in range(HAND):
                if state.hand[seat, i] < 0 and state.hand_known[seat, i]:
                    return False
        return True
    if check == 12:
        return _nazis_placed_once(state)
    if check == 13:
        for nazi in range(D.NUM_NAZIS):
            if state.nasty[nazi] != (1 if state.nasty_groups & GROUP_OF_KIND[NASTY_KIND[nazi]] else 0):
                return False
        return True
    if check == 14:
        return state.terminal or (face_up_count(state) < D.LOSE_FACE_UP and state.clock < D.CHAPTER_SECONDS)
    if check == 15:
        return _pools_ok(state, num)
    if check == 16:
        for nazi in range(D.NUM_NAZIS):
            if not state.terminal and state.pool_count[nazi] > 0 \
                    and state.pool_fixed[nazi] + _lowest_bit(state.pool_readings[nazi]) >= NAZI_IQ[nazi]:
                return False
        return True
    if check == 17:
        return _dice_ok(state, num)
    if check == 18:
        return _offers_ok(state, num)
    if check == 19:
        if (state.terminal != 0) != (state.end_reason != END_NONE):
            return False
        return state.end_reason != END_WON or state.convinced == D.NUM_NAZIS
    if check == 20:
        return _talents_and_timing_ok(state, num)
    if check == 21:
        return _clock_ok(state)
    return _masks_ok(state, num)


@njit(cache=True)
def _chapter_ok(state):
    if state.chapter < D.NUM_CHAPTERS:
        return state.labels == CHAPTER_LABELS[state.chapter] and state.nasty_groups == CHAPTER_GROUPS[state.chapter]
    always = D.L_EXPANSION | D.L_TALENTS | D.L_RANDOM_CHARS
    optional = 0
    for i in range(RANDOM_LABEL_FLAGS.shape[0]):
        optional |= RANDOM_LABEL_FLAGS[i]
    both_views = D.L_OPEN | D.L_BLIND
    return (state.labels & always) == always and (state.labels & ~(always | optional | both_views)) == 0 \
        and (state.labels & both_views) != both_views


@njit(cache=True)
def _characters_ok(state, num):
    seen = 0
    for seat in range(MAX_PLAYERS):
        kind = state.character[seat]
        if seat >= num:
            if kind != -1:
                return False
        elif kind < 0 or seen >> kind & 1:
            return False
        else:
            seen |= 1 << kind
    return True


@njit(cache=True)
def _stacks_ok(state):
    for s in range(D.RUN_OUT_STACKS):
        length = state.stack_len[s] if s < state.num_stacks else 0
        for j in range(NUM_ARG):
            card = state.stack[s, j]
            if (j < length) != (card >= 0):
                return False
            if card >= 0 and state.card_loc[card] != LOC_STACK:
                return False
    return True


@njit(cache=True)
def _hands_ok(state, num):
    for seat in range(MAX_PLAYERS):
        for i in range(HAND):
            card = state.hand[seat, i]
            if card < 0:
                continue
            if seat >= num or state.card_loc[card] != LOC_HAND or state.card_seat[card] != seat:
                return False
            for j in range(i):
                if state.hand[seat, j] == card:
                    return False
    return True


@njit(cache=True)
def _talent_spaces_ok(state, num):
    for seat in range(MAX_PLAYERS):
        length = state.talent_len[seat]
        most = 0
        if seat < num and state.labels & D.L_TALENTS:
            most = D.HERTA_TALENT_CARDS if state.character[seat] == D.HERTA else 1
        if length > most:
            return False
        for j in range(D.HERTA_TALENT_CARDS):
            card = state.talent[seat, j]
            if (j < length) != (card >= 0):
                return False
            if card >= 0 and (state.card_loc[card] != LOC_TALENT or state.card_seat[card] != seat):
                return False
    return True


@njit(cache=True)
def _arguments_placed_once(state, num):
    listed = np.zeros(NUM_CARDS, np.int64)  # how often each card appears in a stack, hand or talent space
    for s in range(state.num_stacks):
        for j in range(state.stack_len[s]):
            listed[state.stack[s, j]] += 1
    for seat in range(num):
        for i in range(HAND):
            if state.hand[seat, i] >= 0:
                listed[state.hand[seat, i]] += 1
        for j in range(state.talent_len[seat]):
            listed[state.talent[seat, j]] += 1
    for card in range(NUM_ARG):
        loc = state.card_loc[card]
        in_arrays = loc == LOC_STACK or loc == LOC_HAND or loc == LOC_TALENT
        if loc == LOC_NONE or listed[card] != (1 if in_arrays else 0):
            return False
        seated = loc == LOC_HAND or loc == LOC_TALENT or loc == LOC_POOL
        if seated != (state.card_seat[card] >= 0) or state.card_seat[card] >= num:
            return False
        if (loc == LOC_POOL) != (state.card_nazi[card] >= 0):
            return False
    return True


@njit(cache=True)
def _razupaltuff_ok(state, num):
    wanted = 0
    if state.labels & D.L_RAZUPALTUFF:
        wanted = 1 if num <= 3 else 2
    held = 0
    for card in range(NUM_ARG, NUM_CARDS):
        loc = state.card_loc[card]
        if state.card_nazi[card] != -1:
            return False
        if loc == LOC_HAND:
            seat = state.card_seat[card]
            if seat < 0 or seat >= num:
                return False
            found = 0
            for i in range(HAND):
                found += state.hand[seat, i] == card
            if found != 1:
                return False
            held += 1
        elif loc != LOC_NONE or state.card_seat[card] != -1:
            return False
        else:
            for seat in range(MAX_PLAYERS):
                for i in range(HAND):
                    if state.hand[seat, i] == card:
                        return False
    return held == wanted


@njit(cache=True)
def _bib_counts_ok(state):
    count, from_talent = 0, 0
    for card in range(NUM_ARG):
        if state.card_loc[card] == LOC_BIB:
            count += 1
            from_talent += state.from_talent[card]
        elif state.from_talent[card]:
            return False
    return count == state.bib_count and from_talent == state.bib_talent_count


@njit(cache=True)
def _holdings_ok(state, num):
    for seat in range(num):
        held = cards_held(state, seat)
        if state.character[seat] == D.KRAPOTKE and held > 0:
            return False
        if held > HAND:
            return False
    return True


@njit(cache=True)
def _nazis_placed_once(state):
    where = np.zeros(D.NUM_NAZIS, np.int64)  # 1: stack top or a space (face up), 2: below the top, 3: gone
    length = int(state.nazi_stack_len)
    for j in range(D.NUM_NAZIS):
        nazi = state.nazi_stack[j]
        if (j < length) != (nazi >= 0):
            return False
        if nazi >= 0:
            if where[nazi]:
                return False
            where[nazi] = 1 if j == length - 1 else 2
    for i in range(D.NUM_SPACES):
        nazi = state.space[i]
        if nazi >= 0:
            if where[nazi]:
                return False
            where[nazi] = 1
    gone = 0
    for nazi in range(D.NUM_NAZIS):
        if where[nazi] == 0:
            where[nazi] = 3
            gone += 1
        expected = NAZI_FACE_UP if where[nazi] == 1 else (NAZI_STACK if where[nazi] == 2 else NAZI_CONVINCED)
        if state.nazi_at[nazi] != expected:
            return False
    return gone == state.convinced


@njit(cache=True)
def _pools_ok(state, num):
    cards = np.zeros((D.NUM_NAZIS, MAX_PLAYERS), np.int64)  # cards (dice) laid by each seat at each Nazi
    for card in range(NUM_ARG):
        if state.card_loc[card] == LOC_POOL:
            nazi, seat = state.card_nazi[card], state.card_seat[card]
            if not state.contrib[nazi, seat] or state.character[seat] == D.KRAPOTKE:
                return False
            cards[nazi, seat] += 1
    for k in range(D.NUM_DICE):
        nazi = state.die_nazi[k]
        if nazi >= 0:
            laid_by = -1
            for seat in range(num):
                if state.character[seat] == D.KRAPOTKE:
                    laid_by = seat
            if laid_by < 0 or not state.contrib[nazi, laid_by]:
                return False
            cards[nazi, laid_by] += 1
    for nazi in range(D.NUM_NAZIS):
        members, fixed, maria = 0, 0, False
        for seat in range(MAX_PLAYERS):
            laid = state.contrib[nazi, seat] != 0
            if not laid:
                if cards[nazi, seat] or state.contrib_value[nazi, seat] or state.contrib_talent[nazi, seat]:
                    return False
                continue
            if seat >= num or cards[nazi, seat] < 2 or state.contrib_value[nazi, seat] < 1:
                return False
            members += 1
            if state.character[seat] == D.MARIA:
                maria = True
                if state.contrib_value[nazi, seat] != _lowest_bit(state.pool_readings[nazi]):
                    return False
            else:
                fixed += state.contrib_value[nazi, seat]
        if members != state.pool_count[nazi] or fixed != state.pool_fixed[nazi]:
            return False
        if maria != (state.pool_readings[nazi] != 0) or (members and state.nazi_at[nazi] != NAZI_FACE_UP):
            return False
    return True


@njit(cache=True)
def _dice_ok(state, num):
    for k in range(D.NUM_DICE):
        if (state.die_status[k] == DIE_BLOCKED) != (state.die_value[k] == 6):
            return False
        if (state.die_status[k] == DIE_POOLED) != (state.die_nazi[k] >= 0):
            return False
    return True


@njit(cache=True)
def _offers_ok(state, num):
    for seat in range(MAX_PLAYERS):
        target, card = state.offer_to[seat], state.offer_card[seat]
        if (target < 0) != (card < 0):
            return False
        if target < 0:
            continue
        if seat >= num or target >= num or target == seat or not has_hand(state, target):
            return False
        if state.card_loc[card] != LOC_HAND or state.card_seat[card] != seat:
            return False
    return True


@njit(cache=True)
def _talents_and_timing_ok(state, num):
    talented = (state.labels & D.L_TALENTS) != 0
    for seat in range(MAX_PLAYERS):
        if state.talent_ready[seat] and (seat >= num or not talented):
            return False
        if seat < num and state.character[seat] == D.HERTA and state.talent_spent[seat] > D.HERTA_TALENT_CARDS:
            return False
        if state.timing == TIMING_STEP and state.busy_until[seat] > state.clock:
            return False
    return True


@njit(cache=True)
def _clock_ok(state):
    played = state.moment * state.seconds_per_step
    if not (state.clock == played or (state.terminal and state.clock == played - state.seconds_per_step)):
        return False
    if state.terminal:
        return True
    if state.last_nazi > state.clock or (state.nazi_stack_len > 0 and state.next_nazi <= state.clock):
        return False
    return not (state.labels & D.L_SWAP_PLACES) or state.next_swap > state.clock


@njit(cache=True)
def _masks_ok(state, num):
    """The masks are exactly what :func:`refresh` computes (on a copy of the record)."""
    copy = np.empty(1, STATE)
    copy[0] = state
    refresh(copy[0])
    for seat in range(MAX_PLAYERS):
        for a in range(NUM_ACTIONS):
            if state.mask[seat, a] != (copy[0].mask[seat, a] if seat < num else 0):
                return False
    return True


@njit(cache=True)
def playout_value(state, values):
    """Each seat's estimated return from here to the end (the team shares it): an estimate of the
    chance ``p`` to win, as ``2 p - 1`` on the +1/-1 scale, plus, with reward shaping, ``p`` times
    the 1/18 still to come per Nazi left. ``p`` weighs progress against the clock: the share of
    Nazis convinced (in chapters with a Bib goal 80% of it, and 20% the Bib's share of its goal)
    minus the share of the 18 minutes gone, shifted to 1/2 for a team on pace, and lowered by the
    Nazis lying face up (each beyond the first takes a tenth: 5 lose). 0 once the game is over."""
    num = int(state.num_players)
    if state.terminal:
        return
    progress = state.convinced / D.NUM_NAZIS
    if state.labels & (D.L_BIB10 | D.L_BIB10_TALENT):
        count = state.bib_talent_count if state.labels & D.L_BIB10_TALENT else state.bib_count
        progress = 0.8 * progress + 0.2 * min(1.0, count / D.BIB_GOAL)
    elapsed = state.clock / D.CHAPTER_SECONDS
    p = 0.5 + (progress - elapsed) - 0.1 * max(0, face_up_count(state) - 1)
    p = min(1.0, max(0.0, p))
    value = 2.0 * p - 1.0
    if state.shaping:
        value += p * (D.NUM_NAZIS - state.convinced) / D.NUM_NAZIS
    for seat in range(num):
        values[seat] = value


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize,
                check_state=check_state, playout_value=playout_value)
