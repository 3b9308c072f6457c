"""Voll auf die 18's components as data: Arguments (fronts and backs), Nazis, characters, chapters.

Everything the rulebook fixes is taken from it; what it leaves to the printed cards or to the app
(card backs, banned numbers, which characters a chapter uses, ...) is designed here and listed in
``docs/rules/voll_auf_die_18.md``. The engine reads only the numpy arrays; the names are for
people (renderer, action names, docs).

Arguments
    99 cards, 4 colours x values 1-6: per colour 5x1, 5x2, 6x3 (green only 5x3), 5x4, 2x5, 2x6.
    Card ids run colour by colour (red, yellow, green, blue), values ascending. Each card's back
    shows one of 20 back designs: half of a seven-segment digit (Maria's digital numbers) and a
    Bib-expansion condition. Designs repeat (card ``i`` has design ``(7 * i) % 20``), as backs
    on a printed deck do, so a visible back narrows a card down without naming it.
Razupaltuff
    Card ids 99 and 100: not Arguments; they only block a hand slot.
Nazis
    Ids 0..17 with IQ 6..23. The super nasty side of each: one-colour (6, 8, 10, 12),
    two-colour (7, 9, 11, 15, 16, 19), number ban (13, 14, 17, 18), all against one (20..23).
"""

import numpy as np

# ---- colours, values ----------------------------------------------------------------------

COLOUR_NAMES = ("red", "yellow", "green", "blue")
COLOUR_LETTERS = "RYGB"
NUM_COLOURS = 4
ALL_COLOURS = 0b1111

# ---- Arguments: fronts ----------------------------------------------------------------------

NUM_ARGUMENTS = 99
RAZUPALTUFF = (99, 100)  # card ids of the two Razupaltuff cards
NUM_CARDS = 101


def _fronts():
    colours, values = [], []
    for colour in range(NUM_COLOURS):
        threes = 5 if COLOUR_NAMES[colour] == "green" else 6
        for value, copies in ((1, 5), (2, 5), (3, threes), (4, 5), (5, 2), (6, 2)):
            colours += [colour] * copies
            values += [value] * copies
    return np.array(colours, np.int8), np.array(values, np.int8)


CARD_COLOUR, CARD_VALUE = _fronts()
assert CARD_COLOUR.size == NUM_ARGUMENTS

# ---- Arguments: backs (half digits for Maria, Bib-expansion conditions) ---------------------

# Seven-segment digits, segments a (top), b (upper right), c (lower right), d (bottom),
# e (lower left), f (upper left), g (middle) as bits 0..6.
SEGMENTS = "abcdefg"
DIGIT_SEGMENTS = ("abcdef", "bc", "abdeg", "abcdg", "bcfg", "acdfg", "acdefg", "abc", "abcdefg", "abcdfg")
# Turning a card by 180 degrees ("head to head") maps a<->d, b<->e, c<->f; g stays.
_ROTATED = {"a": "d", "b": "e", "c": "f", "d": "a", "e": "b", "f": "c", "g": "g"}


def _mask(segments):
    return sum(1 << SEGMENTS.index(s) for s in segments)


def _rotate(mask):
    return sum(1 << SEGMENTS.index(_ROTATED[SEGMENTS[i]]) for i in range(7) if mask >> i & 1)


# The half digits printed on backs: upper (U) or lower (L) halves of the digit named.
HALF_DIGITS = (
    ("U0", "abf"), ("L0", "cde"), ("U1", "b"), ("L1", "c"), ("U2", "abg"), ("L2", "deg"),
    ("U4", "bfg"), ("L4", "cg"), ("U5", "afg"), ("L3", "cdg"), ("U7", "ab"), ("U8", "abfg"),
    ("L6", "cdeg"),
)
HALF_NAMES = tuple(name for name, _ in HALF_DIGITS)
HALF_SEGMENTS = np.array([_mask(s) for _, s in HALF_DIGITS], np.int8)
NUM_HALVES = len(HALF_DIGITS)


def _pair_digits():
    """PAIR_DIGITS[i, j]: bit d set if half digits i and j, each upright or turned 180 degrees,
    overlap to exactly digit d. Turning by 90 degrees is not allowed."""
    digit_of = {_mask(s): d for d, s in enumerate(DIGIT_SEGMENTS)}
    table = np.zeros((NUM_HALVES, NUM_HALVES), np.int16)
    for i, (_, si) in enumerate(HALF_DIGITS):
        for j, (_, sj) in enumerate(HALF_DIGITS):
            for x in (_mask(si), _rotate(_mask(si))):
                for y in (_mask(sj), _rotate(_mask(sj))):
                    if (x | y) in digit_of:
                        table[i, j] |= 1 << digit_of[x | y]
    return table


PAIR_DIGITS = _pair_digits()

# Condition kinds on backs.
COND_COLOURS, COND_NUMBERS, COND_SOLO_TASK, COND_GROUP_TASK = 0, 1, 2, 3
COND_KIND_NAMES = ("colour combo", "number combo", "solo task", "group task")

# The 20 back designs: (half digit, condition kind, condition). Colour combos list 4 colour
# letters, number combos 4 values: one person must hold exactly these 4 in hand and show them.
# Tasks are done by spending a step: a solo task by the one who expands, a group task by every
# seat choosing the same expansion in the same step.
BACK_DESIGNS = (
    ("U0", COND_COLOURS, "RYGB"),
    ("L0", COND_NUMBERS, "1234"),
    ("U1", COND_SOLO_TASK, "Tell a joke you have not told today."),
    ("L1", COND_COLOURS, "RRYY"),
    ("U2", COND_NUMBERS, "1122"),
    ("L2", COND_COLOURS, "GGBB"),
    ("U4", COND_NUMBERS, "2345"),
    ("L4", COND_GROUP_TASK, "All together: shout 'Razupaltuff!'"),
    ("U5", COND_COLOURS, "RRGB"),
    ("L3", COND_NUMBERS, "3344"),
    ("U7", COND_SOLO_TASK, "Name three songs against the right."),
    ("U8", COND_COLOURS, "RYGB"),
    ("L6", COND_NUMBERS, "1133"),
    ("U8", COND_COLOURS, "YYGB"),
    ("L3", COND_NUMBERS, "2244"),
    ("U2", COND_SOLO_TASK, "Hum the first bars of a protest song."),
    ("L1", COND_COLOURS, "RYBB"),
    ("U5", COND_NUMBERS, "1223"),
    ("L6", COND_GROUP_TASK, "Everyone: high five with both neighbours."),
    ("U0", COND_NUMBERS, "2334"),
)
NUM_BACK_DESIGNS = len(BACK_DESIGNS)
BACK_HALF = np.array([HALF_NAMES.index(h) for h, _, _ in BACK_DESIGNS], np.int8)
BACK_COND_KIND = np.array([kind for _, kind, _ in BACK_DESIGNS], np.int8)
# BACK_COND_COUNT[design, k]: colour combos count colours (k = 0..3), number combos values (k = 1..6).
BACK_COND_COUNT = np.zeros((NUM_BACK_DESIGNS, 7), np.int8)
for _d, (_, _kind, _text) in enumerate(BACK_DESIGNS):
    if _kind == COND_COLOURS:
        for _letter in _text:
            BACK_COND_COUNT[_d, COLOUR_LETTERS.index(_letter)] += 1
    elif _kind == COND_NUMBERS:
        for _digit in _text:
            BACK_COND_COUNT[_d, int(_digit)] += 1

CARD_BACK = np.array([(7 * i) % NUM_BACK_DESIGNS for i in range(NUM_ARGUMENTS)], np.int8)
CARD_HALF = BACK_HALF[CARD_BACK]

# ---- Nazis -----------------------------------------------------------------------------------

NUM_NAZIS = 18
NAZI_IQ = np.arange(6, 24, dtype=np.int8)
# Super nasty kinds (the 08/15 side has no requirement).
PLAIN, ONE_COLOUR, TWO_COLOUR, NUMBER_BAN, ALL_AGAINST_ONE = 0, 1, 2, 3, 4
NAZI_KIND_NAMES = ("08/15", "one-colour", "two-colour", "number ban", "all against one")
_R, _Y, _G, _B = 1, 2, 4, 8
_NASTY = {  # IQ: (kind, colours allowed, banned values)
    6: (ONE_COLOUR, _R, ()), 8: (ONE_COLOUR, _Y, ()), 10: (ONE_COLOUR, _G, ()), 12: (ONE_COLOUR, _B, ()),
    7: (TWO_COLOUR, _R | _Y, ()), 9: (TWO_COLOUR, _G | _B, ()), 11: (TWO_COLOUR, _R | _G, ()),
    15: (TWO_COLOUR, _Y | _B, ()), 16: (TWO_COLOUR, _R | _B, ()), 19: (TWO_COLOUR, _Y | _G, ()),
    13: (NUMBER_BAN, ALL_COLOURS, (3, 4)), 14: (NUMBER_BAN, ALL_COLOURS, (5, 6)),
    17: (NUMBER_BAN, ALL_COLOURS, (1, 6)), 18: (NUMBER_BAN, ALL_COLOURS, (1, 2)),
    20: (ALL_AGAINST_ONE, ALL_COLOURS, ()), 21: (ALL_AGAINST_ONE, ALL_COLOURS, ()),
    22: (ALL_AGAINST_ONE, ALL_COLOURS, ()), 23: (ALL_AGAINST_ONE, ALL_COLOURS, ()),
}
NASTY_KIND = np.array([_NASTY[iq][0] for iq in NAZI_IQ], np.int8)
NASTY_COLOURS = np.array([_NASTY[iq][1] for iq in NAZI_IQ], np.int8)
NASTY_BANNED = np.array([sum(1 << v for v in _NASTY[iq][2]) for iq in NAZI_IQ], np.int8)  # bit v: value v

# ---- characters ----------------------------------------------------------------------------

KANGAROO, KLEINKUENSTLER, FRIEDRICH_WILHELM, OTTO_VON, MARIA, KRAPOTKE, GOD, HERTA = range(8)
NUM_CHARACTERS = 8
CHARACTER_IDS = ("kangaroo", "kleinkuenstler", "friedrich_wilhelm", "otto_von", "maria", "krapotke", "god", "herta")
CHARACTER_NAMES = ("Kangaroo", "Kleinkünstler", "Friedrich-Wilhelm", "Otto-Von", "Maria", "Krapotke", "God",
                   "Herta")
CHARACTER_RULES = (
    "2-4 Arguments of one colour",
    "2-4 Arguments with consecutive values (a straight), any colours",
    "2-4 Arguments of pairwise different colours",
    "2-4 Arguments of one value, any colours",
    "one digital number (2 card backs) or the sum of two (4 card backs)",
    "no hand: 2-4 of his 4 dice showing one number (Pasch) or a straight",
    "exactly 2 Arguments, anything goes",
    "2-4 Arguments whose values are all odd or all even",
)
CHARACTER_TALENTS = (
    "one argumentation may hold one card of another colour",
    "one argumentation's straight may skip one number",
    "one argumentation may repeat one colour",
    "one argumentation may hold one card of another value",
    "one argumentation may add one card read by its front value (3 cards)",
    "one argumentation may add one unmatched die",
    "one argumentation may have 3 or 4 Arguments",
    "one argumentation may hold one card of the other parity (at most 4 uses)",
)
HERTA_TALENT_CARDS = 4

# ---- chapters --------------------------------------------------------------------------------

# Which Nazi groups lie super nasty side up.
G_ONE, G_TWO, G_BAN, G_ALL = 1, 2, 4, 8
GROUP_OF_KIND = {ONE_COLOUR: G_ONE, TWO_COLOUR: G_TWO, NUMBER_BAN: G_BAN, ALL_AGAINST_ONE: G_ALL}
G_EVERY = G_ONE | G_TWO | G_BAN | G_ALL

# Chapter labels (flags).
L_TALENTS = 1          # talented side of the character boards
L_BIB10 = 2            # extra victory condition: at least 10 Arguments in the Bib at the end
L_BIB10_TALENT = 4     # ... and they must come from talent spaces; no expansion from the stacks
L_NEVER_ALONE = 8      # no Nazi may be convinced alone
L_RAZUPALTUFF = 16     # 1 Razupaltuff card (2-3 players) or 2 (4-5 players)
L_SWAP_PLACES = 32     # on the app's signal everyone moves one seat on
L_OPEN = 64            # playing open and talking forbidden: every hand's fronts are public
L_BLIND = 128          # cards the other way round (Blind Trust): own fronts hidden, except God's
L_RANDOM_CHARS = 256   # the app names random characters, dealt randomly to the seats
L_NO_SIXES = 512       # 6-Arguments may not be used for arguing
L_RUN_OUT = 1024       # 5 stacks; hand cards may be drawn from the Bib only
L_EXPANSION = 2048     # expanding the Bib is available (chapter 2 on)
LABEL_NAMES = (
    (L_TALENTS, "talents"), (L_BIB10, "10 cards in the Bib"), (L_BIB10_TALENT, "10 Bib cards from talent spaces"),
    (L_NEVER_ALONE, "never alone!"), (L_RAZUPALTUFF, "Razupaltuff"), (L_SWAP_PLACES, "swap places"),
    (L_OPEN, "playing open, talking forbidden"), (L_BLIND, "cards the other way round"),
    (L_RANDOM_CHARS, "random characters"), (L_NO_SIXES, "no 6s"), (L_RUN_OUT, "the Arguments run out"),
    (L_EXPANSION, "expanding the Bib"),
)
NUM_LABELS = len(LABEL_NAMES)

_K, _KK, _FW, _OV, _MA, _KR, _GO, _HE = range(8)
_T, _X = L_TALENTS, L_EXPANSION
# chapter: (super nasty groups, labels, characters in seat order for 2..5 players, title)
CHAPTERS = {
    1: (0, 0, (_K, _KK, _FW, _OV, _HE), "Train Your Arguing"),
    2: (0, _X | L_BIB10, (_K, _KK, _FW, _OV, _HE), "Get Smart"),
    3: (0, _X | L_NEVER_ALONE, (_KR, _MA, _K, _KK, _FW), "Reinforcements"),
    4: (0, _X | L_OPEN | L_BIB10, (_K, _KK, _FW, _OV, _HE), "Without Words"),
    5: (G_TWO, _X, (_FW, _OV, _K, _KK, _HE), "Neon Nazis"),
    6: (G_TWO, _X | _T | L_BIB10_TALENT, (_HE, _K, _KK, _FW, _OV), "Talents"),
    7: (G_ALL, _X | _T | L_NEVER_ALONE | L_RAZUPALTUFF, (_K, _KK, _KR, _MA, _OV), "All Against One"),
    8: (G_BAN | G_ALL, _X | _T, (_KK, _K, _OV, _FW, _MA), "Forbidden Numbers"),
    9: (G_ONE | G_BAN, _X | _T | L_SWAP_PLACES, (_K, _KK, _FW, _OV, _KR), "Monotone"),
    10: (0, _X | _T | L_BLIND, (_GO, _K, _KK, _FW, _OV), "Blind Trust"),
    11: (G_ONE | G_TWO, _X | _T | L_RAZUPALTUFF | L_BIB10, (_K, _KK, _MA, _KR, _HE), "Razupaltuff"),
    12: (G_EVERY, _X | _T | L_RANDOM_CHARS, (_K, _KK, _FW, _OV, _MA), "All Super Nasty"),
    13: (0, _X | _T | L_OPEN | L_NEVER_ALONE | L_SWAP_PLACES, (_K, _KK, _FW, _OV, _HE),
         "Without Words, but Never Alone"),
    14: (G_ALL | G_TWO, _X | _T | L_RANDOM_CHARS | L_NO_SIXES, (_K, _KK, _FW, _OV, _MA), "No 6s for the Nazis"),
    15: (G_EVERY, _X | _T | L_NEVER_ALONE | L_SWAP_PLACES, (_K, _KK, _FW, _OV, _MA), "Team Building"),
    16: (G_EVERY, _X | _T | L_OPEN, (_K, _KK, _KR, _MA, _FW), "Mute vs. Super Nasty"),
    17: (0, _X | _T | L_RUN_OUT, (_K, _KK, _FW, _OV, _HE), "The Arguments Run Out"),
    18: (G_EVERY, _X | _T | L_BLIND, (_GO, _K, _KK, _MA, _OV), "Blind Trust X-treme"),
    19: (0, _X | _T | L_RANDOM_CHARS, (_K, _KK, _FW, _OV, _HE), "??? (random chapter)"),
}
NUM_CHAPTERS = 19
CHAPTER_GROUPS = np.array([0] + [CHAPTERS[c][0] for c in range(1, 20)], np.int8)
CHAPTER_LABELS = np.array([0] + [CHAPTERS[c][1] for c in range(1, 20)], np.int16)
CHAPTER_CHARACTERS = np.array([(0,) * 5] + [CHAPTERS[c][2] for c in range(1, 20)], np.int8)
CHAPTER_TITLES = ("",) + tuple(CHAPTERS[c][3] for c in range(1, 20))

# Chapter 19's generator: the probability (in percent) of each optional label.
RANDOM_LABEL_PERCENT = ((L_BIB10, 30), (L_NEVER_ALONE, 30), (L_RAZUPALTUFF, 30), (L_SWAP_PLACES, 30),
                        (L_NO_SIXES, 20), (L_RUN_OUT, 15))
RANDOM_LABEL_FLAGS = np.array([flag for flag, _ in RANDOM_LABEL_PERCENT], np.int16)
RANDOM_LABEL_ODDS = np.array([percent for _, percent in RANDOM_LABEL_PERCENT], np.int16)

# ---- table and clock ---------------------------------------------------------------------------

HAND_SIZE = 4
NUM_DICE = 4                     # Krapotke's dice; die k has colour k
CHAPTER_SECONDS = 18 * 60        # a chapter lasts 18 minutes
NAZI_EVERY = (33, 45)            # a new Nazi every 33-45 s (uniform, whole seconds)
SWAP_EVERY = (90, 150)           # "Swap places now!" every 90-150 s (our choice)
# The app is told the group size and sets the chapter up for it; these two are our calibration of
# that (docs/rules/voll_auf_die_18.md, "Calibration"): heuristic teams win the base chapter about
# a quarter of the time with 2 players (who hold only 8 cards) and two thirds with 3-5.
BIB_START = {2: 8, 3: 3, 4: 2, 5: 1}  # open Bib cards at setup by group size (our choice)
# How long an action takes at a table of this size, as a factor on ACTION_SECONDS (our choice): a
# larger team agrees on who lays what more slowly, and without it 3-5 players convince the 18
# Nazis in under 5 of the 18 minutes, so the clock never binds.
TABLE_PACE = {2: 0.5, 3: 2.0, 4: 3.0, 5: 4.0}
# What an action takes at the table, in game seconds (our choice, see the rules page): the seat is
# busy (can only wait) until that much time has passed since the step it acted in. Waiting takes
# one step. With timing="step" every action takes one step.
ACTION_SECONDS = {  # at a pace of 1 (TABLE_PACE scales them by group size)
    "argue": 12,        # pick 2-4 cards, add them up, lay them (and, once convinced, draw)
    "withdraw": 3,
    "offer": 3,         # hold a card out
    "accept": 6,        # take it and hand one back
    "bib": 6,           # swap with the Bib (or draw from it)
    "combo": 6,         # show four cards for an expansion
    "task": 12,         # a joke, a song, a high five: an expansion by a task
    "roll": 3,          # Krapotke rolls one die
    "roll_all": 6,
    "emergency": 21,    # everyone shuffles their hands into the stacks and draws 4 anew (ch. 17: from the Bib)
    "tell": 6,          # Blind Trust: tell a team-mate her four cards
}
BIB_GOAL = 10
STACKS = 2
RUN_OUT_STACKS = 5
NUM_SPACES = 4                   # free spaces left, right, above and below the Nazi stack
LOSE_FACE_UP = 5                 # lost when 5 Nazis lie face up (the stack's top included)
