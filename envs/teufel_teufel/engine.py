"""The rules of Teufel, Teufel! (Salagames 1992) as numba functions over one record.

Every decision the rulebook leaves open is written in ``docs/rules/teufel_teufel.md``; the
comments here name the rule a line implements. The movement hot path is
:func:`reachable_squares`: a breadth-first search over the board under every movement rule,
giving the squares a disc may end its move on (a move's action is its destination: the path
never changes the state, only where the disc stops does).

A move is a chain of such legs. A leg that ends on a face-down card turns it over; if the card
is a letter the mover holds (any colour: the rulebook's "hall pass") the move pauses in phase
``GO_ON`` and the mover chooses the next leg (a square, from here, under the same rules) or
``STOP_HERE``. ``move_from`` (the square the move began on) and ``move_turned`` (the squares
whose cards this move turned over) describe the chain while it pauses; both are cleared the
moment the disc stops, so ``move_from >= 0`` exactly in ``GO_ON``.

State in brief: ``board[square]`` is the card on a square (-1: none) and ``card_square[card]``
its inverse (-1: in the hand of a devil move); ``card_up`` marks face-up cards. A face-down
card's identity is known to a seat only if ``known[seat, card]`` (it peeked at it from a
tower); knowledge travels with the card through swaps and is wiped for everyone when a devil
move shuffles the card. ``group[card]`` is public: 0 for the cards never seen since the deal,
g >= 1 for the cards a devil move shuffled together, so a seat's belief about a face-down card
is uniform over the cards of its group it cannot place exactly.

Records from outside pass :func:`check_state` (codes and texts in ``STATE_PROBLEMS``, field
ranges in ``STATE_BOUNDS``): every card on its square or in a devil move's hand exactly once,
36 letter tokens and 4 devil markers conserved, discs where their status says, and each phase
holding what it needs (so the seat to act always has a legal action).

Playout value (:func:`playout_value`, for search agents that cut random playouts short): a seat
still on the board is ranked by its progress, letters held minus devils carried (a devil must
be shed before leaving, and a second one costs two letters). The rewards still to come are the
next departures' (+1 each, or the ranked placings) and one -1 for the last disc; ranked seats
take them best first (ties share), shrunk towards their mean by ``(best - worst progress) / 6``,
so an even table is still open and a runaway leader is nearly sure. Seats off the board (their
reward is paid) and finished games get 0. Daybreak (everyone on the board loses) and the
``letter_reward`` shaping still to come are not estimated.
"""

import numpy as np
from numba import njit

from envs.core import Layout, config_dtype, register_engine, state_dtype
from envs.core.rng import seed_rng, shuffle

from .data import (
    BEGIN_DEVIL_MOVE, BEGIN_SWAP, CARD_COLOUR, CARD_KIND, CARD_LETTER, DEALT_SQUARES, DEVIL_CARD, DEVIL_PICK,
    DEVIL_PLACE, DEVIL_SPACE, DISTANCE, DONE_PICKING, DROP_DEVIL, FLIP, HAND_OVER, HANDOVER, KEEP_DEVIL,
    GO_ON, LOSE_FIRST, LOSE_LETTER, MAX_PLAYERS, NEIGHBOURS, NUM_CARDS, NUM_DEVILS, NUM_LETTERS,
    NUM_PHASES, NUM_SQUARES, NUM_TYPES, OVER, PASS, PERSON, PLACE, SKIP_PEEK, STEAL, STEAL_FIRST, STOP_HERE,
    SWAP_FIRST, SWAP_SECOND, TOKENS_PER_LETTER, TOWER_CARD, TOWER_DROP, TOWER_PEEK, TURN, TYPE_DEVIL, TYPE_TOWER,
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
    ("chain_revisits", np.int8),            # option: a chain may enter again the squares it stopped on
    ("move_from", np.int8),                 # GO_ON: the square this move began on; -1 otherwise
    ("move_turned", np.int8, (NUM_SQUARES,)),  # GO_ON: squares whose card this move turned over
], MAX_PLAYERS)

CONFIG = config_dtype([("start_distance", np.int8), ("ranked", np.int8), ("letter_reward", np.float32),
                       ("chain_revisits", np.int8)])

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
    ("move_from", NUM_SQUARES, 0, 1, "mid-move after a hall pass (phase go_on): the square this move began on"),
    ("move_turned", NUM_SQUARES, 0, 1, "mid-move after a hall pass: the squares whose cards this move turned "
                                       "over so far (the disc stands on the last)"),
)
O_PHASE, O_TURN, O_ACTING, O_SQUARES, O_CARDS, O_CERTAIN, O_PEEKED, O_DISCS, O_LETTERS, O_DEVILS = (
    LAYOUT.offset(n) for n in ("phase", "turn", "acting", "squares", "cards", "certain", "peeked", "discs",
                               "letters", "devils"))
O_PLAYERS = LAYOUT.offset("players")
O_HOME, O_SUPPLY, O_FACE_DOWN, O_SELECTED, O_SHUFFLED, O_TO_PLACE, O_FLIPS, O_TO_LOSE = (
    LAYOUT.offset(n) for n in ("devils_home", "supply", "face_down", "selected", "shuffled", "to_place",
                               "flips_left", "letters_to_lose"))
O_MOVE_FROM, O_MOVE_TURNED = LAYOUT.offset("move_from"), LAYOUT.offset("move_turned")


def make_config(config):
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["start_distance"] = config["start_distance"]
    record["ranked"] = config["rewards"] == "ranked"
    record["letter_reward"] = config["letter_reward"]
    record["chain_revisits"] = config["chain_revisits"]
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
    """A card a devil move may take: any face-up card ("the player may choose from all face-up
    cards"), also one a disc stands on (only a swap spares those); the disc stays on the space,
    now empty."""
    card = state.board[square]
    return card >= 0 and state.card_up[card] != 0


@njit(cache=True)
def is_free_space(state, square):
    """Where a devil move may put a card: no card, no disc, not the devil space. There is always
    one for each card in hand: besides the devil space 6 spaces hold no card plus one for each
    card in hand, and at most 6 discs stand on them."""
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
    Mid-move after a hall pass this is the next leg, from the card just turned; without the
    ``chain_revisits`` option it never re-enters a square this move stopped on.
    """
    scratch = np.zeros((3, NUM_SQUARES), np.int8)  # one allocation for the three work arrays
    fellows, seen, queue = scratch[0], scratch[1], scratch[2]
    if state.move_from >= 0 and state.chain_revisits == 0:
        seen[state.move_from] = 1
        for square in range(NUM_SQUARES):
            seen[square] |= state.move_turned[square]
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
    state.chain_revisits = config.chain_revisits
    state.move_from = -1
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
    elif phase == GO_ON:
        reachable_squares(state, seat, mask)
        mask[STOP_HERE] = 1


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
            state.move_from = state.disc[seat]
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
    elif phase == GO_ON:
        if action == STOP_HERE:
            stop_disc(state, seat, state.disc[seat])
        else:
            move_disc(state, seat, action)


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
    """One leg of a move ends on ``square``. A face-down card there is turned over; if it is a
    hall pass the move pauses for the mover's choice (go on or stop), otherwise the disc stops."""
    state.disc[seat] = square
    card = state.board[square]
    if card >= 0 and state.card_up[card] == 0:
        state.card_up[card] = 1
        state.move_turned[square] = 1
        if hall_pass_after_turning(state, seat, square) and face_down_count(state) > 0:
            state.phase = GO_ON
            return
    stop_disc(state, seat, square)


@njit(cache=True)
def hall_pass_after_turning(state, seat, square):
    """"If the card shows a letter that you already have in your devil disc, you have a kind of
    hall pass and may move on" (any colour). A fellow's disc on the card still stops a mover
    without a devil: discs are never crossed."""
    card = state.board[square]
    if CARD_KIND[card] != PERSON or state.letters[seat, CARD_LETTER[card]] == 0:
        return False
    return state.devils[seat] > 0 or fellow_on(state, square, seat) < 0


@njit(cache=True)
def stop_disc(state, seat, square):
    """The move ends on ``square`` (its card, if any, is face up now): do what the card says."""
    state.move_from = -1
    state.move_turned[:] = 0
    card = state.board[square]
    if card < 0:
        offer_handover_or_end(state, seat, square)
        return
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
    """Take the picked face-up cards, shuffle them face down: nobody knows which is which. A disc
    on a picked card stays where it stood, on a space without a card."""
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
    state.reward[seat] += departure_reward(state, int(state.departures))
    state.departures += 1


@njit(cache=True)
def departure_reward(state, departures):
    """The reward of the player leaving after ``departures`` others: +1, or with ranked rewards
    the placings spread from +1 (first out) to -1."""
    if state.ranked and state.num_players > 1:
        return 1.0 - 2.0 * departures / (state.num_players - 1)
    return 1.0


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
    if state.move_from >= 0:  # the chain so far is public: everybody watched the disc and the cards
        out[O_MOVE_FROM + int(state.move_from)] = 1.0
        for square in range(NUM_SQUARES):
            out[O_MOVE_TURNED + square] = state.move_turned[square]


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
        # The places in a fixed order, each with its peek marks: the seat knows which places hide
        # which group's cards, not which card lies where, so the deal must not depend on it.
        order = np.argsort(places[:count])
        places[:count] = places[:count][order]
        saved[:, :count] = saved[:, :count][:, order]
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


# ---- what a record may hold (for envs.core.validate.check_records) ------------------------

STATE_BOUNDS = {
    "phase": (0, NUM_PHASES - 1), "turn_owner": (0, MAX_PLAYERS - 1),
    "board": (-1, NUM_CARDS - 1), "card_square": (-1, NUM_SQUARES - 1), "card_up": (0, 1),
    "group": (0, NUM_CARDS), "known": (0, 1),
    "disc": (-1, NUM_SQUARES - 1), "status": (ON_BOARD, LOST), "letters": (0, 1),
    "devils": (0, 1),  # a second devil goes home at once, with two letters
    "devils_home": (0, NUM_DEVILS), "supply": (0, TOKENS_PER_LETTER),
    "picked": (-1, NUM_SQUARES - 1), "picked_count": (0, MAX_PICK - 1),  # the 4th pick lifts the cards
    "held": (-1, NUM_CARDS - 1), "held_count": (0, MAX_PICK),
    "swap_first": (-1, NUM_SQUARES - 1), "handover_target": (-1, MAX_PLAYERS - 1),
    "letters_to_lose": (0, 2), "flips_left": (0, 2), "departures": (0, MAX_PLAYERS),
    "start_distance": (1, 12), "ranked": (0, 1), "letter_reward": (0.0, 1.0), "chain_revisits": (0, 1),
    "move_from": (-1, NUM_SQUARES - 1), "move_turned": (0, 1),
}

STATE_PROBLEMS = (
    "ok",
    "a seat beyond num_players holds a disc, a status, letters, devils or peeks",
    "board and card_square disagree: a card is not on the square recorded for it",
    "a card lies on the devil space",
    "a card off the board is not exactly once in the hand of a devil move (held[:held_count])",
    "a card in a devil move's hand is face up",
    "letter tokens not conserved: supply plus discs is not 6 for every letter",
    "devil markers not conserved: devil space plus discs is not 4",
    "a player who left the board still has a disc on it, a devil, or fewer than six letters",
    "departures does not count the players who left the board",
    "more than two discs on one space",
    "a player on the board has no disc on it after placement",
    "phase 'over' while the game runs",
    "a player lost while the game runs",
    "the game runs with fewer than two discs on the board or no face-down card (it has ended)",
    "turn_owner is not a seat in the game",
    "current_player is not the turn owner (only a player choosing the letters two devils take may be)",
    "the player to act cannot act in this phase (off the board but not flipping, or flipping on the board)",
    "placement: the discs placed are not exactly those of the seats before the one to place",
    "swap: swap_first set outside its second card, or fewer than two cards a swap may take",
    "devil move: picked cards outside picking, repeated, not pickable, or too few left to pick",
    "devil move: a hand outside placing, none while placing, not one shuffled group, or too few free spaces",
    "a devil move by a player without a devil",
    "tower: the mover is not on a face-up tower, or drops a devil it does not have",
    "hand-over: no devil to hand over, or the target is not a fellow on the mover's space off devils and towers",
    "steal: devils stand on the devil space, fewer than two fellows hold one, or the mover is off a devil card",
    "letters to lose outside 'lose_letter', or the player choosing has a devil or too few letters",
    "flips_left set outside 'flip', or more than the face-down cards",
    "a mid-move record (move_from, move_turned) outside 'go_on'",
    "go_on: the disc is not on a card this move turned, a turned card is not a face-up letter the mover "
    "holds, or a fellow's disc stops a mover without a devil",
)


@njit(cache=True)
def check_state(state):
    """0 if the record is a position the rules can reach, else the index of its problem in
    ``STATE_PROBLEMS``. Assumes the ranges of ``STATE_BOUNDS``; checks conservation first, then
    who is where, then what the phase needs (so every engine function is safe on a record that
    passes, and the seat to act has a legal action)."""
    n = int(state.num_players)
    for seat in range(n, MAX_PLAYERS):
        if state.disc[seat] != -1 or state.status[seat] != ON_BOARD or state.devils[seat] != 0:
            return 1
        for letter in range(NUM_LETTERS):
            if state.letters[seat, letter]:
                return 1
        for card in range(NUM_CARDS):
            if state.known[seat, card]:
                return 1
    code = check_cards(state)
    if code:
        return code
    code = check_tokens_and_discs(state)
    if code:
        return code
    return check_phase(state)


@njit(cache=True)
def check_cards(state):
    """Every card exactly once: on the square recorded for it, or in a devil move's hand."""
    for square in range(NUM_SQUARES):
        card = state.board[square]
        if card >= 0 and state.card_square[card] != square:
            return 2
    off_board = 0
    for card in range(NUM_CARDS):
        square = state.card_square[card]
        if square < 0:
            off_board += 1
        elif state.board[square] != card:
            return 2
    if state.board[DEVIL_SPACE] >= 0:
        return 3
    for i in range(state.held_count):
        card = state.held[i]
        if card < 0 or state.card_square[card] != -1:
            return 4
        for j in range(i):
            if state.held[j] == card:
                return 4
        if state.card_up[card]:
            return 5
    return 4 if off_board != state.held_count else 0


@njit(cache=True)
def check_tokens_and_discs(state):
    n = int(state.num_players)
    for letter in range(NUM_LETTERS):
        total = state.supply[letter]
        for seat in range(n):
            total += state.letters[seat, letter]
        if total != TOKENS_PER_LETTER:
            return 6
    devils = int(state.devils_home)
    for seat in range(n):
        devils += state.devils[seat]
    if devils != NUM_DEVILS:
        return 7
    left = 0
    for seat in range(n):
        if state.status[seat] == LEFT:
            left += 1
            if state.disc[seat] != -1 or state.devils[seat] or letter_count(state, seat) != NUM_LETTERS:
                return 8
    if state.departures != left:
        return 9
    for seat in range(n):
        if state.status[seat] == ON_BOARD and state.disc[seat] >= 0 and discs_on(state, state.disc[seat]) > 2:
            return 10
        if state.status[seat] == ON_BOARD and state.disc[seat] < 0 and state.phase != PLACE:
            return 11
    return 0


@njit(cache=True)
def check_phase(state):
    n = int(state.num_players)
    phase = state.phase
    if state.terminal:
        return 0  # also a game ended by a forfeit (illegal_action="penalize"), whatever its phase
    if phase == OVER:
        return 12
    for seat in range(n):
        if state.status[seat] == LOST:
            return 13
    if phase != PLACE and (on_board_count(state) < 2 or face_down_count(state) == 0):
        return 14
    owner, actor = int(state.turn_owner), int(state.current_player)
    if owner >= n:
        return 15
    if actor != owner and phase != LOSE_LETTER:
        return 16
    if (state.status[owner] == LEFT) != (phase == FLIP) or state.status[actor] == LEFT and phase != FLIP:
        return 17
    if phase == PLACE:
        for seat in range(n):
            if (state.disc[seat] >= 0) != (seat < owner) or state.status[seat] != ON_BOARD:
                return 18
    if (state.swap_first >= 0) != (phase == SWAP_SECOND):
        return 19
    if phase == SWAP_FIRST or phase == SWAP_SECOND:
        if count_where_swappable(state, owner) < 2 or (
                phase == SWAP_SECOND and not is_swappable(state, owner, state.swap_first)):
            return 19
    if check_picking(state):
        return 20
    if check_hand(state):
        return 21
    if (phase == DEVIL_PICK or phase == DEVIL_PLACE) and state.devils[owner] == 0:
        return 22
    return check_move_follow_ups(state, owner, actor)


@njit(cache=True)
def check_picking(state):
    """A devil move's picks: only while picking, distinct pickable squares, enough left to pick."""
    if state.phase != DEVIL_PICK:
        return state.picked_count != 0
    for i in range(state.picked_count):
        square = state.picked[i]
        if square < 0 or not is_devil_pickable(state, square):
            return True
        for j in range(i):
            if state.picked[j] == square:
                return True
    more = 0
    for square in range(NUM_SQUARES):
        if is_devil_pickable(state, square) and not was_picked(state, square):
            more += 1
    return state.picked_count + more < MIN_PICK


@njit(cache=True)
def check_hand(state):
    """A devil move's hand: only while placing, one shuffled group, a free space for each card."""
    if state.phase != DEVIL_PLACE:
        return state.held_count != 0
    if state.held_count == 0:
        return True
    group = state.group[state.held[0]]
    for i in range(state.held_count):
        if state.held[i] < 0 or group == 0 or state.group[state.held[i]] != group:
            return True
    free = 0
    for square in range(NUM_SQUARES):
        free += is_free_space(state, square)
    return free < state.held_count


@njit(cache=True)
def check_move_follow_ups(state, owner, actor):
    """What a move leads to: the chain after a hall pass, tower, hand-over, steal, lost letters, flips."""
    phase = state.phase
    square = state.disc[owner]
    card = state.board[square] if square >= 0 else -1
    if phase == TOWER_PEEK or phase == TOWER_DROP:
        if card < 0 or CARD_KIND[card] != TOWER_CARD or state.card_up[card] == 0 or (
                phase == TOWER_DROP and state.devils[owner] == 0):
            return 23
    target = state.handover_target
    if (target >= 0) != (phase == HANDOVER):
        return 24
    if phase == HANDOVER:
        if state.devils[owner] == 0 or target == owner or target >= state.num_players or (
                state.status[target] != ON_BOARD or state.disc[target] != square) or (
                card >= 0 and CARD_KIND[card] != PERSON):
            return 24
    if phase == STEAL:
        holders = 0
        for other in range(state.num_players):
            holders += steal_candidate(state, owner, other)
        if state.devils_home != 0 or holders < 2 or card < 0 or CARD_KIND[card] != DEVIL_CARD:
            return 25
    if (state.letters_to_lose > 0) != (phase == LOSE_LETTER):
        return 26
    if phase == LOSE_LETTER and (state.devils[actor] != 0 or letter_count(state, actor) <= state.letters_to_lose):
        return 26
    if (state.flips_left > 0) != (phase == FLIP) or state.flips_left > face_down_count(state):
        return 27
    turned = 0
    for s in range(NUM_SQUARES):
        turned += state.move_turned[s]
    if (state.move_from >= 0 or turned > 0) != (phase == GO_ON):
        return 28
    if phase == GO_ON:
        return 29 if not chain_is_hall_passes(state, owner) else 0
    return 0


@njit(cache=True)
def chain_is_hall_passes(state, seat):
    """Mid-move: every card this move turned is a face-up letter ``seat`` holds, the disc stands
    on one of them, and it may leave it (a fellow's disc there needs a devil to cross)."""
    if state.move_from < 0 or state.move_turned[state.disc[seat]] == 0:
        return False
    for square in range(NUM_SQUARES):
        if state.move_turned[square]:
            card = state.board[square]
            if card < 0 or state.card_up[card] == 0 or CARD_KIND[card] != PERSON or (
                    state.letters[seat, CARD_LETTER[card]] == 0):
                return False
    return state.devils[seat] > 0 or fellow_on(state, state.disc[seat], seat) < 0


# ---- an estimate of each seat's return (search agents cut playouts short with it) ---------


@njit(cache=True)
def playout_value(state, values):
    """Each seat's estimated return from here to the end of the game (see the module docstring)."""
    n = int(state.num_players)
    progress = np.zeros(MAX_PLAYERS, np.float32)
    lowest, highest, remaining = 127.0, -127.0, 0
    for seat in range(n):
        if state.status[seat] == ON_BOARD:
            progress[seat] = letter_count(state, seat) - state.devils[seat]
            lowest, highest = min(lowest, progress[seat]), max(highest, progress[seat])
            remaining += 1
    if state.terminal or remaining == 0:
        return
    # The rewards still to come, best first: the next departures, then the last disc's -1.
    outcomes = np.zeros(MAX_PLAYERS, np.float32)
    for k in range(remaining - 1):
        outcomes[k] = departure_reward(state, int(state.departures) + k)
    outcomes[remaining - 1] = -1.0
    mean = outcomes[:remaining].sum() / remaining
    confidence = (highest - lowest) / NUM_LETTERS
    for seat in range(n):
        if state.status[seat] != ON_BOARD:
            continue
        ahead, level = 0, 0
        for other in range(n):
            if state.status[other] == ON_BOARD:
                ahead += progress[other] > progress[seat]
                level += progress[other] == progress[seat]
        share = outcomes[ahead : ahead + level].sum() / level  # ties share their places
        values[seat] = mean + confidence * (share - mean)


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize,
                check_state=check_state, playout_value=playout_value)
