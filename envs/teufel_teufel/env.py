"""Teufel, Teufel! (Steiner and Witt, Salagames 1992) as a turn-based PettingZoo environment.

::

    from envs import teufel_teufel_v0
    env = teufel_teufel_v0.env(num_players=4)

2-6 players search a 7x7 underworld of 42 face-down cards (36 people: letters A-F in six
colours, 4 devils, 2 towers) for the six letters of their colour, then leave the board. Devils
help you cross cards and discs and let you reshuffle cards, but a second devil takes two of
your letters. Whoever is still on the board when only one disc is left, or at daybreak (every
card face up), loses. Every rule and every decision where the rulebook is silent:
``docs/rules/teufel_teufel.md``.

Agents
    ``player_0`` ... ``player_{{n-1}}``; seat ``i`` plays colour ``i``. Seat 0 places its disc
    first and begins; turns go round in seat order. A player off the board keeps taking turns,
    turning over two face-down cards each.

Actions: ``Discrete(69)``, the same in every phase; the legal ones are in ``action_mask``.

=========  ================================================================================
0-48       a square (``7 * row + col``, named ``a1`` top left to ``g7``): where to put the
           disc (placement), where the move ends (a turn), where it goes on to after a hall
           pass (``go_on``), a card to swap, a face-up card for a devil move, a free space for
           the next devil-move card, a card to peek at (tower), a card to turn over (off the
           board)
49         begin a swap of two cards
50         begin a devil move (holding a devil)
51         done picking devil-move cards (after 2 or 3; the 4th ends picking by itself)
52         skip the tower peek
53 / 55    drop the devil in the tower / keep it (55 also declines a hand-over)
54         hand the devil over to the fellow player on this space
56         pass (legal only when nothing else is)
57-62      lose letter A-F ("Teufel, Teufel!": the two devils take two letters)
63-67      take a devil from the player 1-5 seats after you (every devil is in a disc)
68         stop here: end the move on the card just turned over (``go_on``)
=========  ================================================================================

A move's action is its destination: :func:`envs.teufel_teufel.engine.reachable_squares` finds
every square the disc may end on (breadth-first search under all movement rules); a move may
stop on any square it enters, also where it could go on. A face-down card it ends on is turned
over; if it shows a letter the mover holds (any colour: a "hall pass") the move goes on in
phase ``go_on``: the mover picks the next square the same way, from there, or stops (68). So one
move can turn over several cards; the ``move_from`` and ``move_turned`` blocks show the chain.

Observation: ``float32[{size}]``, a :class:`envs.core.Layout` (``env.observation_layout``),
written from the observing seat's point of view: players are listed by relative seat (0 = you,
1 = the next seat, ...) and colours likewise (your colour is 0). It holds only what this seat
can know: face-up cards, the face-down cards it peeked at from a tower (tracked through swaps),
and for every other face-down card the uniform mix of the cards it may be (the cards of its
group: those never seen since the deal, or those one devil move shuffled together, minus the
ones this seat can place). Which squares each player has peeked at is public and shown too.

{layout}

Rewards
    +1 to a player the moment the disc leaves the board, -1 to each player still on the board
    when the game ends. With ``rewards="ranked"`` the k-th player to leave gets
    ``1 - 2 (k - 1) / (n - 1)`` instead. ``letter_reward`` adds that much for each letter token
    gained and takes it away for each lost (0 by default: no shaping).

Options
{options}

``max_cycles`` defaults to 5000 decisions: swaps and devil moves can make a game go round for
ever. Uniformly random players end a game in about 1100 decisions on average; of 1000 random
games of 2-6 players 99% ended within 4100 decisions (99.6% within 5000) and the longest took 5700.
"""

from envs.core import Game, Option, int_range
from envs.core.aec import TabletopAECEnv, make_env_functions

from . import engine, render
from .data import NUM_ACTIONS, action_name


def _letter_reward(value):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0.0 <= value <= 1.0:
        return "expected a number from 0 to 1"
    return None


OPTIONS = {
    "start_distance": Option(4, "placement: orthogonal steps between any two discs at least this (4: three "
                                "spaces between); relaxed to the largest possible when no space allows it",
                             check=int_range(1, 12)),
    "rewards": Option("escape", "'escape': +1 on leaving, -1 on losing; 'ranked': placings spread from +1 "
                                "(first out) to -1", choices=("escape", "ranked")),
    "letter_reward": Option(0.0, "shaping: reward per letter token gained (minus per letter lost)",
                            check=_letter_reward),
    "chain_revisits": Option(True, "after a hall pass the move may enter again the squares it stopped on "
                                   "(its start, the cards it turned); False: never (the rulebook is silent)",
                             choices=(True, False)),
}

GAME = Game(
    env_id="teufel_teufel_v0",
    engine=engine,
    player_counts=(2, 3, 4, 5, 6),
    default_players=4,
    layout=engine.LAYOUT,
    num_actions=NUM_ACTIONS,
    action_name=action_name,
    render=render,
    options=OPTIONS,
    default_max_cycles=5000,
    description="Teufel, Teufel!: collect your six letters in the underworld and leave it.",
)

__doc__ = __doc__.format(
    size=engine.LAYOUT.size,
    layout=engine.LAYOUT.table(),
    options="\n".join(f"    ``{name}`` (default ``{option.default!r}``): {option.doc}"
                      for name, option in GAME.all_options().items()),
)


class raw_env(TabletopAECEnv):  # noqa: N801 (PettingZoo's name)
    """Teufel, Teufel! (see the module docstring)."""

    game = GAME


env, raw_env, parallel_env = make_env_functions(raw_env)
