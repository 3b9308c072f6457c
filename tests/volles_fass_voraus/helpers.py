"""Scripted positions for the Volles Fass voraus tests.

Positions are built by playing chosen actions and by setting record fields; the engine's own
functions then carry on from there (records are passed to numba by reference).
"""

import numpy as np

from envs.volles_fass_voraus import data, engine
from envs.volles_fass_voraus.env import raw_env

__all__ = ["raw_env"]  # re-exported for the tests

E = engine
TILE = {data.tile_name(t): t for t in range(data.NUM_TILES)}
SAILOR = {name: card for card, name in enumerate(data.SAILOR_NAMES)}
P, O, C = 1, 2, 3  # barrel codes on a deck (1 + colour)


def new_env(num_players=3, seed=0, **config):
    """A game whose players have taken their start berths: in the three-player game as in the
    rulebook's example (Benny 1 with 3 doubloons, Gina 2 with 4, Gerry 4 with 6; the red ship 3)."""
    env = raw_env(num_players=num_players, **config)
    env.reset(seed=seed)
    berths = [0, 1, 3] if num_players == 3 else list(range(num_players))
    for seat, berth in enumerate(berths):
        if env._states[0].phase == engine.PH_START_BERTH:
            assert env._states[0].current_player == seat
            env.step(engine.A_BERTH + berth)
    return env


def record(env):
    """The live record of ``env`` (a view: changes act on the game)."""
    return env._states[0]


def deck_of(*spaces_and_barrels):
    deck = np.zeros(data.NUM_SPACES, np.int8)
    for space, barrel in spaces_and_barrels:
        deck[space] = barrel
    return deck


def load_deck(state, seat, deck):
    """Put ``deck`` on ``seat``'s ship, taking its barrels from the supply."""
    for space in range(data.NUM_SPACES):
        if state.deck[seat, space]:
            state.supply[state.deck[seat, space] - 1] += 1
        state.deck[seat, space] = 0
    for space, barrel in enumerate(deck):
        if barrel:
            state.supply[barrel - 1] -= 1
            state.deck[seat, space] = barrel


def give_sailors(state, seat, *names):
    """Hand ``seat`` these sailor cards (wherever they were; the pile keeps its order)."""
    for name in names:
        state.sailor_owner[SAILOR[name]] = seat
    _sync_sailor_pile(state)


def _sync_sailor_pile(state):
    # The face-down pile is sailor_deck[sailors_drawn:]: cards taken out of it move to the front.
    pile = [int(c) for c in state.sailor_deck[int(state.sailors_drawn):]
            if state.sailor_owner[c] == engine.OWNER_DECK]
    out = [c for c in range(data.NUM_SAILORS) if state.sailor_owner[c] != engine.OWNER_DECK]
    state.sailor_deck[:] = out + pile
    state.sailors_drawn = len(out)


def give_maps(state, seat, cards):
    for card in cards:
        state.map_owner[card] = seat
    pile = [int(c) for c in state.map_deck[int(state.maps_drawn):] if state.map_owner[c] == engine.OWNER_DECK]
    out = [c for c in range(data.NUM_MAPS) if state.map_owner[c] != engine.OWNER_DECK]
    state.map_deck[:] = out + pile
    state.maps_drawn = len(out)


def berth(description):
    """``(tile name, berth index)`` of the first berth whose ``data.berth_text`` is ``description``,
    so that a test names the berth it needs, not where the design happens to put it."""
    for tile in range(data.NUM_TILES):
        for pos in range(data.NUM_BERTHS):
            if data.berth_text(tile, pos) == description:
                return data.tile_name(tile), pos
    raise LookupError(f"no berth shows {description!r}")


def lay_tile(state, harbour, name):
    """Put tile ``name`` into ``harbour`` (a recess of its shape), swapping it with the tile there."""
    tile = TILE[name]
    assert data.ROUTE_SHAPE[state.route, harbour] == data.TILE_SHAPE[tile], "a tile fits recesses of its shape only"
    where = np.flatnonzero(np.asarray(state.harbour_tile) == tile)
    if len(where):
        state.harbour_tile[where[0]] = state.harbour_tile[harbour]
    state.harbour_tile[harbour] = tile


def harbour_before(state, name):
    """The harbour just west of the first recess that tile ``name`` fits."""
    return int(np.flatnonzero(data.ROUTE_SHAPE[state.route] == data.TILE_SHAPE[TILE[name]])[0]) - 1


def voyage_to(env, harbour, berths, next_tile=None):
    """Put every ship in ``harbour`` (ship k on ``berths[k]``) and start the leg to the next harbour.

    ``next_tile`` (a name such as ``"U1"``) is laid into the harbour ahead (swapped with the tile
    there). The ship on the westernmost berth moves first. The position must be a valid record
    (checked). Returns the live record.
    """
    state = record(env)
    state.berth_ship[:, :] = engine.FREE
    for ship, berth_index in enumerate(berths):
        state.berth_ship[harbour, berth_index] = ship
        state.ship_harbour[ship] = harbour
        state.ship_berth[ship] = berth_index
    state.leg = harbour
    state.phase = engine.PH_CHOOSE_BERTH
    if next_tile is not None:
        lay_tile(state, harbour + 1, next_tile)
    engine.begin_leg(state)
    engine.next_ship(state)
    engine.settle(state)
    env.set_state(env.get_state())  # checked: a position the rules can reach
    return state


def first_to_move(env, seat, harbour=None, next_tile=None):
    """``seat``'s ship lies on the westernmost berth of ``harbour``: it moves first into the next one.

    Without ``harbour``: the harbour before the first recess ``next_tile`` fits (the start harbour
    for a loading tile)."""
    if harbour is None:
        harbour = harbour_before(record(env), next_tile) if next_tile is not None else 1
    others = [s for s in range(engine.NUM_SHIPS) if s != seat]
    berths = [0] * engine.NUM_SHIPS
    for berth_index, ship in enumerate([seat] + others):
        berths[ship] = berth_index
    state = voyage_to(env, harbour, berths, next_tile)
    assert state.current_player == seat and state.phase == engine.PH_CHOOSE_BERTH
    return state


def put_on_top_of_pile(state, name):
    """Make ``name`` the next sailor card drawn."""
    card = SAILOR[name]
    assert state.sailor_owner[card] == engine.OWNER_DECK
    pile = list(state.sailor_deck[int(state.sailors_drawn):])
    pile.remove(card)
    state.sailor_deck[int(state.sailors_drawn):] = [card] + pile


def finish_turn(env, seat=None):
    """Let the player to act end the turn as quietly as possible (passing wherever allowed); with
    ``seat``, only if that seat is still to act (its berth may have asked nothing)."""
    state = record(env)
    if seat is not None and state.current_player != seat:
        return
    turn = (int(state.current_player), int(state.leg), int(state.mover))
    while (int(state.current_player), int(state.leg), int(state.mover)) == turn and not state.terminal:
        actions = env.legal_actions()
        env.step(engine.A_PASS if engine.A_PASS in actions else actions[0])


def act(env, *actions):
    for action in actions:
        env.step(int(action))
    return record(env)


def legal(env):
    return env.legal_actions()


def space_actions(env):
    """The deck spaces currently legal as actions."""
    return sorted(a - engine.A_SPACE for a in env.legal_actions() if engine.A_SPACE <= a < engine.A_COLOUR)


def mask_bits(mask):
    return sorted(i for i in range(data.NUM_SPACES) if (mask >> i) & 1)


def barrels_total(state):
    on_decks = int((np.asarray(state.deck) > 0).sum())
    return on_decks + int(np.asarray(state.supply).sum()) + (1 if state.hand else 0)


def barry_moves(env):
    """The Barry / Farry moves legal now, as sorted (from space, to space) pairs."""
    return sorted((int(data.MOVE_FROM[a - E.A_MOVE]), int(data.MOVE_TO[a - E.A_MOVE]))
                  for a in legal(env) if a >= E.A_MOVE)


def move_action(a, b):
    """The action moving the barrel on space ``a`` to the adjacent space ``b``."""
    for k in range(data.NUM_MOVES):
        if data.MOVE_FROM[k] == a and data.MOVE_TO[k] == b:
            return E.A_MOVE + k
    raise AssertionError(f"{a} and {b} are not adjacent")
