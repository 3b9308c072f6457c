"""Scripted Teufel, Teufel! positions for the rule tests.

:func:`table` lays out a position after placement: the cards a test names go on the squares it
names, the rest of the 42 go face down on the remaining squares (row by row, skipping the devil
space and the squares the test wants empty), so every card is always somewhere.
"""

import numpy as np

from envs import teufel_teufel_v0
from envs.core import check_records
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E

DEVILS = tuple(range(D.FIRST_DEVIL_CARD, D.FIRST_DEVIL_CARD + D.NUM_DEVIL_CARDS))
TOWERS = (D.FIRST_TOWER_CARD, D.FIRST_TOWER_CARD + 1)


def sq(name):
    """Square index of a name like ``c4`` (column a-g, row 1-7 from the top)."""
    return (int(name[1]) - 1) * D.SIDE + "abcdefg".index(name[0])


def person(colour, letter):
    """The card of letter ``letter`` ('A'-'F' or 0-5) in colour ``colour``."""
    letter = D.LETTERS.index(letter) if isinstance(letter, str) else letter
    return colour * D.NUM_LETTERS + letter


def table(n=2, cards=None, up=(), empty=(), discs=None, letters=None, devils=None, turn=0, left=(),
          all_up=False, down=(), unchecked=False, **config):
    """An env (order-enforcing wrapper) at the start of ``turn``'s turn in the given position.

    ``cards``: {square name: card}; ``up``: names of squares whose card is face up (with
    ``all_up`` every card is, except those ``down`` names); ``empty``: squares without a card;
    ``discs``: {seat: square name}; ``letters``: {seat: "ABF"}; ``devils``: {seat: count};
    ``left``: seats that have left the board (their turn is to turn over cards). The position
    must be one the rules can reach (``check_records``), unless ``unchecked``.
    """
    env = teufel_teufel_v0.env(num_players=n, **config)
    env.reset(seed=0)
    record = env.unwrapped.get_state()
    state = record[0]
    cards = {sq(k): v for k, v in (cards or {}).items()}
    empty = {sq(k) for k in empty}
    board = np.full(D.NUM_SQUARES, -1, np.int8)
    for square, card in cards.items():
        board[square] = card
    rest = [c for c in range(D.NUM_CARDS) if c not in cards.values()]
    for square in range(D.NUM_SQUARES):
        if square == D.DEVIL_SPACE or square in empty or square in cards or not rest:
            continue
        board[square] = rest.pop(0)
    assert not rest, "not enough squares for every card"
    state["board"][:] = board
    state["card_square"][:] = -1
    for square in range(D.NUM_SQUARES):
        if board[square] >= 0:
            state["card_square"][board[square]] = square
    state["card_up"][:] = 1 if all_up else 0
    for name in up:
        state["card_up"][board[sq(name)]] = 1
    for name in down:
        state["card_up"][board[sq(name)]] = 0
    state["disc"][:] = -1
    for seat, name in (discs or {}).items():
        state["disc"][seat] = sq(name)
    state["letters"][:] = 0
    for seat, held in (letters or {}).items():
        for letter in held:
            state["letters"][seat, D.LETTERS.index(letter)] = 1
    state["supply"][:] = D.TOKENS_PER_LETTER - state["letters"][:n].sum(axis=0)
    state["devils"][:] = 0
    for seat, count in (devils or {}).items():
        state["devils"][seat] = count
    state["devils_home"] = D.NUM_DEVILS - state["devils"].sum()
    for seat in left:
        state["status"][seat] = E.LEFT
        state["disc"][seat] = -1
    state["departures"] = len(left)
    state["turn_owner"] = turn
    state["current_player"] = turn
    if turn in left:
        state["phase"] = D.FLIP
        state["flips_left"] = min(2, int((state["card_up"] == 0).sum()))
    else:
        state["phase"] = D.TURN
    if not unchecked:
        check_records(teufel_teufel_v0.GAME, record)
    env.unwrapped.set_state(record)
    return env


def record(env):
    """The live game record (a view: reads see every step)."""
    return env.unwrapped._states[0]


def legal(env):
    return set(env.legal_actions())


def destinations(env):
    return {a for a in env.legal_actions() if a < D.NUM_SQUARES}


def names(squares):
    return {D.square_name(s) for s in squares}


def observation(env, seat):
    obs = env.observe(f"player_{seat}")["observation"]
    return E.LAYOUT.views(obs)
