"""The rules of Teufel, Teufel! (Salagames 1992) as numba functions over one record.

Every decision the rulebook leaves open is written in ``docs/rules/teufel_teufel.md``; the
comments here name the rule a line implements. The movement hot path is
:func:`reachable_squares`: a breadth-first search over the board under every movement rule,
giving the squares a disc may end its move on (a move's action is its destination: the path
never changes the state, only where the disc stops does).

State in brief: ``board[square]`` is the card on a square (-1: none) and ``card_square[card]``
its inverse (-1: in the hand of a devil move); ``card_up`` marks face-up cards. A face-down
card's identity is known to a seat only if ``known[seat, card]`` (it peeked at it from a
tower); knowledge travels with the card through swaps and is wiped for everyone when a devil
move shuffles the card. ``group[card]`` is public: 0 for the cards never seen since the deal,
g >= 1 for the cards a devil move shuffled together, so a seat's belief about a face-down card
is uniform over the cards of its group it cannot place exactly.
"""

import numpy as np
from numba import njit

from envs.core import Layout, config_dtype, register_engine, state_dtype
from envs.core.rng import seed_rng, shuffle

from .data import (
    BEGIN_DEVIL_MOVE, BEGIN_SWAP, CARD_COLOUR, CARD_KIND, CARD_LETTER, DEALT_SQUARES, DEVIL_CARD, DEVIL_PICK,
    DEVIL_PLACE, DEVIL_SPACE, DISTANCE, DONE_PICKING, DROP_DEVIL, FLIP, HAND_OVER, HANDOVER, KEEP_DEVIL,
    LOSE_FIRST, LOSE_LETTER, MAX_PLAYERS, NEIGHBOURS, NUM_CARDS, NUM_DEVILS, NUM_LETTERS,
    NUM_PHASES, NUM_SQUARES, NUM_TYPES, OVER, PASS, PERSON, PLACE, SKIP_PEEK, STEAL, STEAL_FIRST, SWAP_FIRST,
    SWAP_SECOND, TOKENS_PER_LETTER, TOWER_CARD, TOWER_DROP, TOWER_PEEK, TURN, TYPE_DEVIL, TYPE_TOWER,
)

ON_BOARD, LEFT, LOST = 0, 1, 2
MAX_PICK = 4  # a devil move takes 2 to 4 face-up cards
MIN_PICK = 2

STATE = state_dtype([
    ("phase", np.int8),
    ("turn_owner", np.int8),               # whose turn it is (current_player may differ: letter loss)
    ("board", np.int8, (NUM_SQUARES,)),     # card on each square, -1 none
    ("card_square", np.int8, (NUM_CARDS,)),  # square of each card, -1 in a devil move's hand
    ("card_up", np.int8, (NUM_CARDS,)),
    ("group", np.int8, (NUM_CARDS,)),       # 0: untouched since the deal; g: shuffled together by a devil move
    ("known", np.int8, (MAX_PLAYERS, NUM_CARDS)),  # seat peeked at this face-down card (and tracked it)
    ("disc", np.int8, (MAX_PLAYERS,)),      # square of each disc, -1 before placement / off the board
    ("status", np.int8, (MAX_PLAYERS,)),    # ON_BOARD, LEFT, LOST
    ("letters", np.int8, (MAX_PLAYERS, NUM_LETTERS)),  # letter tokens in each disc
    ("devils", np.int8, (MAX_PLAYERS,)),    # devil markers in each disc
    ("devils_home", np.int8),               # devil markers on the devil space
    ("supply", np.int8, (NUM_LETTERS,)),    # letter tokens beside the board
    ("picked", np.int8, (MAX_PICK,)),       # squares picked for a devil move
    ("picked_count", np.int8),
    ("held", np.int8, (MAX_PICK,)),         # shuffled devil-move cards still to place: held[:held_count]
    ("held_count", np.int8),
    ("swap_first", np.int8),
    ("handover_target", np.int8),
    ("letters_to_lose", np.int8),
    ("flips_left", np.int8),
    ("departures", np.int8),                # players who have left the board so far
    ("start_distance", np.int8),
    ("ranked", np.int8),
    ("letter_reward", np.float32),
], MAX_PLAYERS)

CONFIG = config_dtype([("start_distance", np.int8), ("ranked", np.int8), ("letter_reward", np.float32)])

LAYOUT = Layout(
    ("phase", NUM_PHASES, 0, 1, "one-hot phase (see PHASE_NAMES)"),
    ("turn", MAX_PLAYERS, 0, 1, "whose turn it is, by relative seat (0 = you)"),
    ("acting", MAX_PLAYERS, 0, 1, "who decides now, by relative seat (differs from turn when a fellow player "
                                  "chooses the letters two devils take)"),
    ("squares", (NUM_SQUARES, 4), 0, 1, "per square: no card, face-down card, face-up card, the devil space"),
    ("cards", (NUM_SQUARES, NUM_TYPES), 0, 1, "per square: this seat's probability of each card type "
                                              "(relative colour * 6 + letter, devil, tower); one-hot when known"),
    ("certain", NUM_SQUARES, 0, 1, "1 where this seat knows the card exactly (face up, peeked, or by elimination)"),
    ("peeked", (MAX_PLAYERS, NUM_SQUARES), 0, 1, "face-down cards each relative player has looked at from a "
                                                 "tower (that they looked is public, what they saw is not)"),
    ("discs", (MAX_PLAYERS, NUM_SQUARES), 0, 1, "each relative player's disc square"),
    ("letters", (MAX_PLAYERS, NUM_LETTERS), 0, 1, "letter tokens A-F in each relative player's disc"),
    ("devils", MAX_PLAYERS, 0, 1, "devil markers in each relative player's disc"),
    ("players", (MAX_PLAYERS, 3), 0, 1, "each relative player: on the board, left the board, lost "
                                        "(all 0 for seats not in the game)"),
    ("devils_home", 1, 0, NUM_DEVILS, "devil markers on the devil space"),
    ("supply", NUM_LETTERS, 0, TOKENS_PER_LETTER, "letter tokens A-F beside the board"),
    ("face_down", 1, 0, NUM_CARDS, "cards not face up (daybreak ends the game at 0)"),
    ("selected", NUM_SQUARES, 0, 1, "squares picked so far in this swap or devil move"),
    ("shuffled", NUM_TYPES, 0, MAX_PICK, "card types of the devil move being placed, all of them (which "
                                         "are placed already and which still in hand nobody knows)"),
    ("to_place", 1, 0, MAX_PICK, "devil-move cards still to place"),
    ("flips_left", 1, 0, 2, "cards still to turn over this turn (a player off the board)"),
    ("letters_to_lose", 1, 0, 2, "letters the two devils still take"),
)
O_PHASE, O_TURN, O_ACTING, O_SQUARES, O_CARDS, O_CERTAIN, O_PEEKED, O_DISCS, O_LETTERS, O_DEVILS = (
    LAYOUT.offset(n) for n in ("phase", "turn", "acting", "squares", "cards", "certain", "peeked", "discs",
                               "letters", "devils"))
O_PLAYERS = LAYOUT.offset("players")
O_HOME, O_SUPPLY, O_FACE_DOWN, O_SELECTED, O_SHUFFLED, O_TO_PLACE, O_FLIPS, O_TO_LOSE = (
    LAYOUT.offset(n) for n in ("devils_home", "supply", "face_down", "selected", "shuffled", "to_place",
                               "flips_left", "letters_to_lose"))


def make_config(config):
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["start_distance"] = config["start_distance"]
    record["ranked"] = config["rewards"] == "ranked"
    record["letter_reward"] = config["letter_reward"]
    return record


# ---- small queries -----------------------------------------------------------------------


@njit(cache=True)
def discs_on(state, square):
    """Discs standing on ``square`` (every disc still on the board)."""
    count = 0
    for seat in range(state.num_players):
        if state.status[seat] == ON_BOARD and state.disc[seat] == square:
            count += 1
    return count


@njit(cache=True)
def fellow_on(state, square, seat):
    """The other player whose disc stands on ``square``, -1 if none."""
    for other in range(state.num_players):
        if other != seat and state.status[other] == ON_BOARD and state.disc[other] == square:
            return other
    return -1


@njit(cache=True)
def face_down_count(state):
    """Cards not face up: on the board or in a devil move's hand."""
    count = 0
    for card in range(NUM_CARDS):
        count += state.card_up[card] == 0
    return count


@njit(cache=True)
def letter_count(state, seat):
    count = 0
    for letter in range(NUM_LETTERS):
        count += state.letters[seat, letter]
    return count


@njit(cache=True)
def on_board_count(state):
    count = 0
    for seat in range(state.num_players):
        count += state.status[seat] == ON_BOARD
    return count


@njit(cache=True)
def relative_colour(colour, seat, num_players):
    # Seats' colours are rotated so that a seat's own is 0; unused colours keep their index.
    if colour >= num_players:
        return colour
    return colour - seat if colour >= seat else colour - seat + num_players


@njit(cache=True)
def card_type(card, seat, num_players):
    """The card as ``seat`` sees it: relative colour * 6 + letter for people, then devil, tower."""
    kind = CARD_KIND[card]
    if kind == DEVIL_CARD:
        return TYPE_DEVIL
    if kind == TOWER_CARD:
        return TYPE_TOWER
    return int(relative_colour(CARD_COLOUR[card], seat, num_players)) * NUM_LETTERS + int(CARD_LETTER[card])


def _seen_types():
    """SEEN_TYPES[num_players, seat, card] = card_type(card, seat, num_players), in plain numpy."""
    table = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS, NUM_CARDS), np.int8)
    for n in range(2, MAX_PLAYERS + 1):
        for seat in range(n):
            colours = np.arange(MAX_PLAYERS)
            relative = np.where(colours < n, (colours - seat) % n, colours)
            table[n, seat, :36] = relative[CARD_COLOUR[:36]] * NUM_LETTERS + CARD_LETTER[:36]
            table[n, seat, 36:] = np.where(CARD_KIND[36:] == DEVIL_CARD, TYPE_DEVIL, TYPE_TOWER)
    return table


#: card_type for every player count, seat and card (a compile-time constant for numba).
SEEN_TYPES = _seen_types()


@njit(cache=True)
def is_swappable(state, seat, square):
    """A card a swap may take: face down, or a face-up letter of the seat's own colour; no disc on it."""
    card = state.board[square]
    if card < 0 or discs_on(state, square) > 0:
        return False
    if state.card_up[card] == 0:
        return True
    return CARD_KIND[card] == PERSON and CARD_COLOUR[card] == seat


@njit(cache=True)
def is_devil_pickable(state, square):
    """A card a devil move may take: any face-up card with no disc on it."""
    card = state.board[square]
    return card >= 0 and state.card_up[card] != 0 and discs_on(state, square) == 0


@njit(cache=True)
def is_free_space(state, square):
    """Where a devil move may put a card: no card, no disc, not the devil space."""
    return square != DEVIL_SPACE and state.board[square] < 0 and discs_on(state, square) == 0


@njit(cache=True)
def is_face_down(state, square):
    card = state.board[square]
    return card >= 0 and state.card_up[card] == 0


# ---- the movement hot path ---------------------------------------------------------------


@njit(cache=True)
def may_continue(board, card_up, held_letters, square, fellows, with_devil):
    """Whether a disc that entered ``square`` may step on from it (it may always stop there).

    ``board`` and ``card_up`` are the record's arrays, ``held_letters`` the mover's letters,
    ``fellows`` the number of other discs on the square, ``with_devil`` whether the mover has one.
    """
    if fellows == 1:
        return with_devil  # a devil crosses one fellow disc, whatever card lies under it
    card = board[square]
    if card < 0:
        return True  # empty spaces (and the empty devil space) are crossed freely
    if card_up[card] == 0:
        return with_devil  # a face-down card stops you, unless a devil carries you over it
    if CARD_KIND[card] != PERSON:
        return False  # face-up devils and towers always stop you
    return held_letters[CARD_LETTER[card]] != 0  # hall pass: you hold that letter (any colour)


@njit(cache=True)
def reachable_squares(state, seat, dest):
    """Set ``dest[square] = 1`` for every square ``seat``'s disc may end a move on; returns how many.

    Breadth-first search in orthogonal steps from the disc. A square can be entered unless it
    holds two other discs or is the devil space with devils on it; what lies on it decides
    whether the disc may go on (:func:`may_continue`). A move may stop on any square it enters.
    """
    scratch = np.zeros((3, NUM_SQUARES), np.int8)  # one allocation for the three work arrays
    fellows, seen, queue = scratch[0], scratch[1], scratch[2]
    for other in range(state.num_players):
        if other != seat and state.status[other] == ON_BOARD and state.disc[other] >= 0:
            fellows[state.disc[other]] += 1
    board, card_up, held_letters = state.board, state.card_up, state.letters[seat]
    with_devil = state.devils[seat] > 0
    devil_space_blocked = state.devils_home > 0
    start = state.disc[seat]
    seen[start] = 1
    queue[0] = start
    head, tail, count = 0, 1, 0
    while head < tail:
        square = queue[head]
        head += 1
        for k in range(4):
            nxt = NEIGHBOURS[square, k]
            if nxt < 0 or seen[nxt]:
                continue
            seen[nxt] = 1  # entering and going on do not depend on the direction: one visit suffices
            if fellows[nxt] >= 2 or (nxt == DEVIL_SPACE and devil_space_blocked):
                continue
            dest[nxt] = 1
            count += 1
            if may_continue(board, card_up, held_letters, nxt, fellows[nxt], with_devil):
                queue[tail] = nxt
                tail += 1
    return count


# ---- setup -------------------------------------------------------------------------------


@njit(cache=True)
def reset(state, config, seed):
    state.start_distance = config.start_distance
    state.ranked = config.ranked
    state.letter_reward = config.letter_reward
    cards = np.arange(NUM_CARDS).astype(np.int8)
    shuffle(state, cards, NUM_CARDS)
    state.board[:] = -1
    for i in range(NUM_CARDS):
        state.board[DEALT_SQUARES[i]] = cards[i]
        state.card_square[cards[i]] = DEALT_SQUARES[i]
    state.devils_home = NUM_DEVILS
    state.supply[:] = TOKENS_PER_LETTER
    state.disc[:] = -1
    state.swap_first = -1
    state.handover_target = -1
    state.phase = PLACE
    state.turn_owner = 0
    state.current_player = 0


@njit(cache=True)
def placement_squares(state, mask):
    """Mark the squares the current player may put the disc on: every space except the devil
    space at least ``start_distance`` orthogonal steps from each placed disc; if there is none,
    the spaces farthest from the nearest disc."""
    nearest = np.full(NUM_SQUARES, 127, np.int8)
    for other in range(state.num_players):
        if state.disc[other] >= 0:
            for square in range(NUM_SQUARES):
                nearest[square] = min(nearest[square], DISTANCE[square, state.disc[other]])
    nearest[DEVIL_SPACE] = 0  # never on the devil space (nor on another disc: distance 0)
    required = min(state.start_distance, nearest.max())  # relax only when nobody can keep it
    for square in range(NUM_SQUARES):
        if nearest[square] >= required and nearest[square] > 0:
            mask[square] = 1


# ---- legal actions -----------------------------------------------------------------------


@njit(cache=True)
def legal_mask(state, seat, mask):
    if state.terminal or seat != state.current_player:
        return
    phase = state.phase
    if phase == PLACE:
        placement_squares(state, mask)
    elif phase == TURN:
        turn_actions(state, seat, mask)
    elif phase == SWAP_FIRST or phase == SWAP_SECOND:
        for square in range(NUM_SQUARES):
            if square != state.swap_first and is_swappable(state, seat, square):
                mask[square] = 1
    elif phase == DEVIL_PICK:
        if state.picked_count < MAX_PICK:
            for square in range(NUM_SQUARES):
                if is_devil_pickable(state, square) and not was_picked(state, square):
                    mask[square] = 1
        if state.picked_count >= MIN_PICK:
            mask[DONE_PICKING] = 1
    elif phase == DEVIL_PLACE:
        for square in range(NUM_SQUARES):
            if is_free_space(state, square):
                mask[square] = 1
    elif phase == TOWER_PEEK:
        for square in range(NUM_SQUARES):
            if is_face_down(state, square):
                mask[square] = 1
        mask[SKIP_PEEK] = 1
    elif phase == TOWER_DROP:
        mask[DROP_DEVIL] = 1
        mask[KEEP_DEVIL] = 1
    elif phase == HANDOVER:
        mask[HAND_OVER] = 1
        mask[KEEP_DEVIL] = 1
    elif phase == STEAL:
        for other in range(state.num_players):
            if steal_candidate(state, seat, other):
                mask[STEAL_FIRST + (other - int(seat) + int(state.num_players)) % int(state.num_players) - 1] = 1
    elif phase == LOSE_LETTER:
        for letter in range(NUM_LETTERS):
            if state.letters[seat, letter]:
                mask[LOSE_FIRST + letter] = 1
    elif phase == FLIP:
        for square in range(NUM_SQUARES):
            if is_face_down(state, square):
                mask[square] = 1


@njit(cache=True)
def turn_actions(state, seat, mask):
    """A disc on the board: a move (its destination), a swap, a devil move; pass only if none."""
    options = reachable_squares(state, seat, mask)
    if count_where_swappable(state, seat) >= 2:
        mask[BEGIN_SWAP] = 1
        options += 1
    if state.devils[seat] > 0 and count_devil_pickable(state) >= MIN_PICK:
        mask[BEGIN_DEVIL_MOVE] = 1
        options += 1
    if options == 0:
        mask[PASS] = 1


@njit(cache=True)
def count_where_swappable(state, seat):
    count = 0
    for square in range(NUM_SQUARES):
        if is_swappable(state, seat, square):
            count += 1
            if count >= 2:
                break
    return count


@njit(cache=True)
def count_devil_pickable(state):
    count = 0
    for square in range(NUM_SQUARES):
        if is_devil_pickable(state, square):
            count += 1
            if count >= MIN_PICK:
                break
    return count


@njit(cache=True)
def was_picked(state, square):
    for i in range(state.picked_count):
        if state.picked[i] == square:
            return True
    return False


@njit(cache=True)
def steal_candidate(state, seat, other):
    return other != seat and state.status[other] == ON_BOARD and state.devils[other] > 0


# ---- step --------------------------------------------------------------------------------


@njit(cache=True)
def step(state, action):
    state.reward[:] = 0.0
    seat = int(state.current_player)
    phase = state.phase
    if phase == PLACE:
        place_disc(state, seat, action)
    elif phase == TURN:
        if action < NUM_SQUARES:
            move_disc(state, seat, action)
        elif action == BEGIN_SWAP:
            state.phase = SWAP_FIRST
        elif action == BEGIN_DEVIL_MOVE:
            state.phase = DEVIL_PICK
            state.picked_count = 0
        else:  # PASS
            end_turn(state)
    elif phase == SWAP_FIRST:
        state.swap_first = action
        state.phase = SWAP_SECOND
    elif phase == SWAP_SECOND:
        swap_cards(state, state.swap_first, action)
        state.swap_first = -1
        end_turn(state)
    elif phase == DEVIL_PICK:
        if action == DONE_PICKING:
            lift_devil_move_cards(state)
        else:
            state.picked[state.picked_count] = action
            state.picked_count += 1
            if state.picked_count == MAX_PICK:
                lift_devil_move_cards(state)
    elif phase == DEVIL_PLACE:
        put_devil_move_card(state, action)
    elif phase == TOWER_PEEK:
        if action != SKIP_PEEK:
            state.known[seat, state.board[action]] = 1
        if state.devils[seat] > 0:
            state.phase = TOWER_DROP  # "in a tower, he may voluntarily lose a devil"
        else:
            end_turn(state)
    elif phase == TOWER_DROP:
        if action == DROP_DEVIL:
            state.devils[seat] -= 1
            state.devils_home += 1
        end_turn(state)
    elif phase == HANDOVER:
        if action == HAND_OVER:
            target = state.handover_target
            state.devils[seat] -= 1
            state.devils[target] += 1
            state.handover_target = -1
            if state.devils[target] >= 2:
                teufel_teufel(state, target)
                return
        state.handover_target = -1
        end_turn(state)
    elif phase == STEAL:
        victim = (seat + action - STEAL_FIRST + 1) % state.num_players
        take_devil(state, seat, victim)
    elif phase == LOSE_LETTER:
        lose_letter(state, seat, action - LOSE_FIRST)
        state.letters_to_lose -= 1
        if state.letters_to_lose == 0:
            end_turn(state)
    elif phase == FLIP:
        state.card_up[state.board[action]] = 1
        state.flips_left -= 1
        if face_down_count(state) == 0:
            game_over(state)
        elif state.flips_left == 0:
            end_turn(state)


@njit(cache=True)
def place_disc(state, seat, square):
    state.disc[seat] = square
    if seat + 1 < state.num_players:
        state.turn_owner = seat + 1
        state.current_player = seat + 1
    else:  # every disc is placed: the first player begins
        state.turn_owner = 0
        state.current_player = 0
        state.phase = TURN


@njit(cache=True)
def move_disc(state, seat, square):
    """The disc ends its move on ``square``: turn the card over and do what it says."""
    state.disc[seat] = square
    card = state.board[square]
    if card < 0:
        offer_handover_or_end(state, seat, square)
        return
    state.card_up[card] = 1
    kind = CARD_KIND[card]
    if kind == PERSON and CARD_COLOUR[card] == seat and state.letters[seat, CARD_LETTER[card]] == 0:
        gain_letter(state, seat, CARD_LETTER[card])
    if face_down_count(state) == 0:
        game_over(state)  # daybreak, the moment the last card turns (after a letter it gave)
        return
    if kind == DEVIL_CARD:
        gain_devil(state, seat)  # no hand-over on a devil card: you take a devil yourself
    elif kind == TOWER_CARD:
        state.phase = TOWER_PEEK  # no hand-over on a tower either
    else:
        offer_handover_or_end(state, seat, square)


@njit(cache=True)
def offer_handover_or_end(state, seat, square):
    fellow = fellow_on(state, square, seat)
    if fellow >= 0 and state.devils[seat] > 0:
        state.handover_target = fellow
        state.phase = HANDOVER
    else:
        end_turn(state)


@njit(cache=True)
def gain_letter(state, seat, letter):
    state.letters[seat, letter] = 1
    state.supply[letter] -= 1
    state.reward[seat] += state.letter_reward


@njit(cache=True)
def lose_letter(state, seat, letter):
    state.letters[seat, letter] = 0
    state.supply[letter] += 1
    state.reward[seat] -= state.letter_reward


@njit(cache=True)
def gain_devil(state, seat):
    """Take a devil from the devil space; if none is there, from a fellow player's disc."""
    if state.devils_home > 0:
        state.devils_home -= 1
        state.devils[seat] += 1
        after_devil_gained(state, seat)
        return
    victim, candidates = -1, 0
    for other in range(state.num_players):
        if steal_candidate(state, seat, other):
            victim = other
            candidates += 1
    if candidates == 1:
        take_devil(state, seat, victim)
    else:
        state.phase = STEAL


@njit(cache=True)
def take_devil(state, seat, victim):
    state.devils[victim] -= 1
    state.devils[seat] += 1
    after_devil_gained(state, seat)


@njit(cache=True)
def after_devil_gained(state, seat):
    if state.devils[seat] >= 2:
        teufel_teufel(state, seat)
    else:
        end_turn(state)


@njit(cache=True)
def teufel_teufel(state, seat):
    """A second devil: both go back to the devil space and take two letters of ``seat``'s choice."""
    state.devils_home += state.devils[seat]
    state.devils[seat] = 0
    held = letter_count(state, seat)
    if held <= 2:  # nothing to choose
        for letter in range(NUM_LETTERS):
            if state.letters[seat, letter]:
                lose_letter(state, seat, letter)
        end_turn(state)
    else:
        state.letters_to_lose = 2
        state.phase = LOSE_LETTER
        state.current_player = seat


@njit(cache=True)
def swap_cards(state, first, second):
    """Exchange two cards; they keep their faces (knowledge of a face-down card travels with it)."""
    a, b = state.board[first], state.board[second]
    state.board[first], state.board[second] = b, a
    state.card_square[a], state.card_square[b] = second, first


@njit(cache=True)
def lift_devil_move_cards(state):
    """Take the picked face-up cards, shuffle them face down: nobody knows which is which."""
    group = free_group_id(state)
    for i in range(state.picked_count):
        square = state.picked[i]
        card = state.board[square]
        state.board[square] = -1
        state.card_square[card] = -1
        state.card_up[card] = 0
        state.group[card] = group
        for other in range(MAX_PLAYERS):
            state.known[other, card] = 0
        state.held[i] = card
    state.held_count = state.picked_count
    state.picked_count = 0
    shuffle(state, state.held, state.held_count)
    state.phase = DEVIL_PLACE


@njit(cache=True)
def free_group_id(state):
    """The smallest group id no face-down card carries."""
    for group in range(1, NUM_CARDS + 1):
        used = False
        for card in range(NUM_CARDS):
            if state.card_up[card] == 0 and state.group[card] == group:
                used = True
                break
        if not used:
            return group
    return NUM_CARDS  # unreachable: at most 42 face-down cards


@njit(cache=True)
def put_devil_move_card(state, square):
    state.held_count -= 1
    card = state.held[state.held_count]
    state.held[state.held_count] = -1
    state.board[square] = card
    state.card_square[card] = square
    if state.held_count == 0:
        end_turn(state)


# ---- turn order and the end --------------------------------------------------------------


@njit(cache=True)
def end_turn(state):
    """Discs that are full leave, the game may end, otherwise the next seat's turn begins."""
    for seat in range(state.num_players):
        if state.status[seat] == ON_BOARD and state.devils[seat] == 0 and letter_count(state, seat) == NUM_LETTERS:
            leave_board(state, seat)
    if on_board_count(state) <= 1 or face_down_count(state) == 0:
        game_over(state)
        return
    seat = (state.turn_owner + 1) % state.num_players
    state.turn_owner = seat
    state.current_player = seat
    if state.status[seat] == LEFT:
        state.phase = FLIP  # off the board: turn over two face-down cards
        state.flips_left = min(2, face_down_count(state))
    else:
        state.phase = TURN


@njit(cache=True)
def leave_board(state, seat):
    state.status[seat] = LEFT
    state.disc[seat] = -1
    if state.ranked and state.num_players > 1:  # placings spread from +1 (first out) to -1
        state.reward[seat] += 1.0 - 2.0 * state.departures / (state.num_players - 1)
    else:
        state.reward[seat] += 1.0
    state.departures += 1


@njit(cache=True)
def game_over(state):
    """Last disc on the board, or daybreak: every disc still on the board loses."""
    for seat in range(state.num_players):
        if state.status[seat] == ON_BOARD and state.disc[seat] >= 0:
            if state.devils[seat] == 0 and letter_count(state, seat) == NUM_LETTERS:
                leave_board(state, seat)  # the letter that completed a disc at daybreak still counts
            else:
                state.status[seat] = LOST
                state.reward[seat] -= 1.0
    state.phase = OVER
    state.terminal = 1
    state.current_player = -1


# ---- observation -------------------------------------------------------------------------


@njit(cache=True)
def observe(state, seat, out):
    # Record fields are int8: cast before adding them to offsets (plain Python keeps int8 arithmetic).
    n = int(state.num_players)
    phase = int(state.phase)
    out[O_PHASE + phase] = 1.0
    if not state.terminal:
        out[O_TURN + (int(state.turn_owner) - seat + n) % n] = 1.0
        out[O_ACTING + (int(state.current_player) - seat + n) % n] = 1.0
    observe_cards(state, seat, out)
    for k in range(n):
        other = seat + k if seat + k < n else seat + k - n
        if state.status[other] == ON_BOARD and state.disc[other] >= 0:
            out[O_DISCS + k * NUM_SQUARES + int(state.disc[other])] = 1.0
        for letter in range(NUM_LETTERS):
            out[O_LETTERS + k * NUM_LETTERS + letter] = state.letters[other, letter]
        out[O_DEVILS + k] = state.devils[other]
        out[O_PLAYERS + 3 * k + int(state.status[other])] = 1.0
    out[O_HOME] = state.devils_home
    for letter in range(NUM_LETTERS):
        out[O_SUPPLY + letter] = state.supply[letter]
    out[O_FACE_DOWN] = face_down_count(state)
    if phase == SWAP_SECOND:
        out[O_SELECTED + int(state.swap_first)] = 1.0
    for i in range(state.picked_count):
        out[O_SELECTED + int(state.picked[i])] = 1.0
    if state.held_count > 0:  # the whole shuffled set: its placed cards are as unknown as the rest
        group = state.group[state.held[0]]
        for card in range(NUM_CARDS):
            if state.group[card] == group and state.card_up[card] == 0:
                out[O_SHUFFLED + card_type(card, seat, n)] += 1.0
    out[O_TO_PLACE] = state.held_count
    out[O_FLIPS] = state.flips_left
    out[O_TO_LOSE] = state.letters_to_lose


@njit(cache=True)
def unknown_to(state, seat, card):
    return state.card_up[card] == 0 and state.known[seat, card] == 0


@njit(cache=True)
def observe_cards(state, seat, out):
    """Each square's card as ``seat`` may know it: face-up and peeked cards exactly; any other
    face-down card as the uniform mix of the cards of its group this seat cannot place."""
    n = int(state.num_players)
    # Local views of the record's arrays: numba re-derives a field on every access otherwise.
    board, card_up, card_square, group_of = state.board, state.card_up, state.card_square, state.group
    mine = state.known[seat]
    for square in range(NUM_SQUARES):
        card = board[square]
        if square == DEVIL_SPACE:
            out[O_SQUARES + 4 * square + 3] = 1.0
        elif card < 0:
            out[O_SQUARES + 4 * square] = 1.0
        else:
            out[O_SQUARES + 4 * square + (2 if card_up[card] else 1)] = 1.0
    for k in range(n):  # who peeked at which face-down card is public
        peeks = state.known[seat + k if seat + k < n else seat + k - n]
        for card in range(NUM_CARDS):
            if peeks[card] and card_up[card] == 0 and card_square[card] >= 0:
                out[O_PEEKED + k * NUM_SQUARES + int(card_square[card])] = 1.0
    types = SEEN_TYPES[n, seat]
    unknown = np.zeros(NUM_CARDS + 1, np.int8)  # cards of each group this seat cannot place
    last_group = 0
    for card in range(NUM_CARDS):
        if card_up[card] == 0 and mine[card] == 0:
            unknown[group_of[card]] += 1
            last_group = max(last_group, group_of[card])
        elif card_square[card] >= 0:
            square = int(card_square[card])
            out[O_CARDS + NUM_TYPES * square + int(types[card])] = 1.0
            out[O_CERTAIN + square] = 1.0
    # Each group's unknown cards: the mix of their types, then copied to each of their squares.
    mix = np.zeros((last_group + 1, NUM_TYPES), np.float32)
    for card in range(NUM_CARDS):
        if card_up[card] == 0 and mine[card] == 0:
            mix[group_of[card], types[card]] += 1.0
    distinct = np.zeros(last_group + 1, np.int8)
    for group in range(last_group + 1):
        if unknown[group] > 0:
            row = mix[group]
            for t in range(NUM_TYPES):
                distinct[group] += row[t] > 0
                row[t] /= unknown[group]
    beliefs = out[O_CARDS : O_CARDS + NUM_SQUARES * NUM_TYPES].reshape((NUM_SQUARES, NUM_TYPES))
    for card in range(NUM_CARDS):
        if card_up[card] == 0 and mine[card] == 0 and card_square[card] >= 0:
            square, group = int(card_square[card]), group_of[card]
            row, source = beliefs[square], mix[group]
            for t in range(NUM_TYPES):
                row[t] = source[t]
            if distinct[group] == 1:
                out[O_CERTAIN + square] = 1.0


# ---- determinization (for search agents) -------------------------------------------------


@njit(cache=True)
def determinize(state, seat, seed):
    """Reshuffle every face-down card ``seat`` cannot place within its group (the cards of a
    devil move's hand included), then reseed the generator. What other seats peeked at stays
    attached to the square (that they looked there is public; what they saw is not)."""
    seed_rng(state, seed)
    cards = np.empty(NUM_CARDS, np.int8)
    places = np.empty(NUM_CARDS, np.int8)  # square, or -1 - i for held[i]
    saved = np.empty((MAX_PLAYERS, NUM_CARDS), np.int8)
    for group in range(NUM_CARDS + 1):
        count = 0
        for card in range(NUM_CARDS):
            if state.group[card] == group and unknown_to(state, seat, card):
                cards[count] = card
                square = state.card_square[card]
                if square < 0:
                    for i in range(state.held_count):
                        if state.held[i] == card:
                            square = -1 - i
                places[count] = square
                for other in range(MAX_PLAYERS):
                    saved[other, count] = state.known[other, card]
                count += 1
        if count < 2:
            continue
        shuffle(state, cards, count)
        for i in range(count):
            card, place = cards[i], places[i]
            state.card_square[card] = max(place, -1)
            if place >= 0:
                state.board[place] = card
            else:
                state.held[-1 - place] = card
            for other in range(MAX_PLAYERS):
                state.known[other, card] = saved[other, i]


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize)
