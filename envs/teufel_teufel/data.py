"""Fixed tables of Teufel, Teufel!: the board, the cards, the phases and the flat action space.

The board is 7x7, squares numbered row by row from the top left (``square = 7 * row + col``)
and named like a chess board read from the top: columns ``a``-``g``, rows ``1``-``7``
(``a1`` is the top-left corner, ``d4`` the devil space in the centre).

Every module-level array here is read by the numba engine as a compile-time constant.
"""

import numpy as np

SIDE = 7
NUM_SQUARES = SIDE * SIDE
DEVIL_SPACE = 24  # d4, the centre

#: The six specially marked spaces that start without a card. The rulebook gives no positions
#: and they have no later meaning; we fix a symmetric set: b2, f2, b6, f6 and the middles of
#: the top and bottom rows (d1, d7).
MARKED_SPACES = np.array([8, 12, 36, 40, 3, 45], np.int8)

MAX_PLAYERS = 6
NUM_LETTERS = 6  # A-F
LETTERS = "ABCDEF"

# ---- cards -------------------------------------------------------------------------------
# 36 people (card = colour * 6 + letter), 4 devils, 2 towers: 42 cards for the 42 squares that
# are neither the devil space nor marked.
NUM_PEOPLE = 36
FIRST_DEVIL_CARD = 36
NUM_DEVIL_CARDS = 4
FIRST_TOWER_CARD = 40
NUM_TOWER_CARDS = 2
NUM_CARDS = 42

PERSON, DEVIL_CARD, TOWER_CARD = 0, 1, 2
CARD_KIND = np.array([PERSON] * NUM_PEOPLE + [DEVIL_CARD] * NUM_DEVIL_CARDS + [TOWER_CARD] * NUM_TOWER_CARDS,
                     np.int8)
CARD_COLOUR = np.array([c // NUM_LETTERS for c in range(NUM_PEOPLE)] + [-1] * 6, np.int8)
CARD_LETTER = np.array([c % NUM_LETTERS for c in range(NUM_PEOPLE)] + [-1] * 6, np.int8)

#: Card types as a seat sees them: 36 people (relative colour * 6 + letter), devil, tower.
NUM_TYPES = 38
TYPE_DEVIL, TYPE_TOWER = 36, 37

NUM_DEVILS = 4  # devil markers
TOKENS_PER_LETTER = 6  # 36 letter tokens: one A-F for each colour

# ---- the board ---------------------------------------------------------------------------


def _neighbours():
    table = np.full((NUM_SQUARES, 4), -1, np.int8)
    for square in range(NUM_SQUARES):
        row, col = divmod(square, SIDE)
        for k, (dr, dc) in enumerate(((-1, 0), (0, 1), (1, 0), (0, -1))):
            r, c = row + dr, col + dc
            if 0 <= r < SIDE and 0 <= c < SIDE:
                table[square, k] = r * SIDE + c
    return table


#: The orthogonal neighbours of each square (up, right, down, left; -1 off the board).
NEIGHBOURS = _neighbours()

#: Manhattan (orthogonal-step) distance between two squares.
DISTANCE = np.array([[abs(a // SIDE - b // SIDE) + abs(a % SIDE - b % SIDE) for b in range(NUM_SQUARES)]
                     for a in range(NUM_SQUARES)], np.int8)

#: The squares that get a card at setup, in order.
DEALT_SQUARES = np.array([s for s in range(NUM_SQUARES) if s != DEVIL_SPACE and s not in MARKED_SPACES], np.int8)
assert DEALT_SQUARES.size == NUM_CARDS


def square_name(square):
    row, col = divmod(int(square), SIDE)
    return f"{'abcdefg'[col]}{row + 1}"


def card_name(card):
    """``A3`` (letter A of colour 3), ``DEVIL`` or ``TOWER``."""
    card = int(card)
    if card < NUM_PEOPLE:
        return f"{LETTERS[CARD_LETTER[card]]}{CARD_COLOUR[card]}"
    return "DEVIL" if card < FIRST_TOWER_CARD else "TOWER"


# ---- phases ------------------------------------------------------------------------------
PLACE = 0          # put the disc on the board
TURN = 1           # move (choose where the move ends), begin a swap, begin a devil move, or pass
SWAP_FIRST = 2     # the first card of a swap
SWAP_SECOND = 3    # the second card of a swap
DEVIL_PICK = 4     # the 2-4 face-up cards of a devil move
DEVIL_PLACE = 5    # a free space for the next (shuffled, face-down) card of the devil move
TOWER_PEEK = 6     # a face-down card to look at, or skip
TOWER_DROP = 7     # drop the devil in the tower, or keep it
HANDOVER = 8       # put the devil into the disc of the fellow player on this space, or keep it
STEAL = 9          # every devil is in a disc: take one from which fellow player
LOSE_LETTER = 10   # "Teufel, Teufel!": a letter token the two devils take away
FLIP = 11          # a player off the board turns over a face-down card (two a turn)
GO_ON = 12         # mid-move: the card just turned over is a hall pass; go on (where to) or stop here
OVER = 13
NUM_PHASES = 14
PHASE_NAMES = ("place", "turn", "swap_first", "swap_second", "devil_pick", "devil_place", "tower_peek",
               "tower_drop", "handover", "steal", "lose_letter", "flip", "go_on", "over")

# ---- actions -----------------------------------------------------------------------------
# 0..48: a square (its meaning is the phase's: place, where the move (or its next leg after a hall
# pass) ends, card to swap/pick/peek/flip, free space for a devil-move card).
BEGIN_SWAP = 49
BEGIN_DEVIL_MOVE = 50
DONE_PICKING = 51
SKIP_PEEK = 52
DROP_DEVIL = 53
HAND_OVER = 54
KEEP_DEVIL = 55
PASS = 56
LOSE_FIRST = 57        # 57..62: lose letter A..F
STEAL_FIRST = 63       # 63..67: take a devil from the player 1..5 seats after you
STOP_HERE = 68         # mid-move after a hall pass: end the move on this card
NUM_ACTIONS = 69

_NAMED = {BEGIN_SWAP: "begin a swap", BEGIN_DEVIL_MOVE: "begin a devil move", DONE_PICKING: "done picking cards",
          SKIP_PEEK: "skip the tower peek", DROP_DEVIL: "drop the devil in the tower",
          HAND_OVER: "hand the devil over", KEEP_DEVIL: "keep the devil", PASS: "pass (no legal move)",
          STOP_HERE: "stop here (end the move)"}


def action_name(action, config=None):
    action = int(action)
    if 0 <= action < NUM_SQUARES:
        return f"square {square_name(action)}"
    if action in _NAMED:
        return _NAMED[action]
    if LOSE_FIRST <= action < LOSE_FIRST + NUM_LETTERS:
        return f"lose letter {LETTERS[action - LOSE_FIRST]}"
    if STEAL_FIRST <= action < STEAL_FIRST + MAX_PLAYERS - 1:
        offset = action - STEAL_FIRST + 1
        return f"take a devil from the player {offset} seat{'s' if offset > 1 else ''} after you"
    raise ValueError(f"action {action} is out of range [0, {NUM_ACTIONS})")
