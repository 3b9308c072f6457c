"""Invariants checked at every step of long random play, and hidden information."""

import numpy as np
import pytest

from envs.core import check_records
from envs.volles_fass_voraus import data, engine
from envs.volles_fass_voraus.env import GAME

from .helpers import E, new_env, raw_env, record

BLOCKS = {  # the actions each phase may offer (Barry / Farry moves come on top in every phase but the first)
    E.PH_START_BERTH: range(E.A_BERTH, E.A_SPACE),
    E.PH_CHOOSE_BERTH: range(E.A_BERTH, E.A_SPACE),
    E.PH_ROB_BARREL: range(E.A_SPACE, E.A_COLOUR),
    E.PH_STORM_BARREL: range(E.A_SPACE, E.A_COLOUR),
    E.PH_LOAD_PLACE: range(E.A_SPACE, E.A_COLOUR),
    E.PH_UNLOAD: list(range(E.A_SPACE, E.A_COLOUR)) + [E.A_PASS],
    E.PH_LOAD_PICK: list(range(E.A_COLOUR, E.A_SAILOR)) + [E.A_PASS],
    E.PH_SEASICK: range(E.A_SAILOR, E.A_SAILOR_BOTH),
    E.PH_CHAOS_GIVE: range(E.A_SAILOR, E.A_SAILOR_BOTH),
    E.PH_CHAOS_TAKE: list(range(E.A_SAILOR, E.A_SAILOR_BOTH)) + [E.A_PASS],
    E.PH_SAILOR: [E.A_SAILOR_BOTH, E.A_SAILOR_ONLY, E.A_BARREL_ONLY, E.A_PASS],
    E.PH_MAPS: [E.A_TAKE_MAPS, E.A_PASS],
    E.PH_END_TURN: [E.A_PASS],
}


def check_invariants(state, env):
    check_records(GAME, env._states)  # the engine's own check_state, after every step
    n = int(state.num_players)
    deck = np.asarray(state.deck)
    # 45 barrels, each colour conserved between the supply, the decks and the barrel in hand.
    for colour in range(3):
        held = int((deck == colour + 1).sum()) + int(state.hand == colour + 1)
        assert int(state.supply[colour]) + held == data.BARRELS_PER_COLOUR[colour]
        assert state.supply[colour] >= 0
    assert not deck[n:].any(), "ships without a player carry nothing"
    # Money never negative, never beyond the observation's bound.
    assert (state.doubloons[:n] >= 0).all() and (state.doubloons[:n] <= data.MAX_DOUBLOONS).all()
    # One ship per berth, everywhere; every ship where the berth table says.
    for ship in range(4):
        h, b = int(state.ship_harbour[ship]), int(state.ship_berth[ship])
        if h >= 0:
            assert state.berth_ship[h, b] == ship
    placed = np.asarray(state.berth_ship)[np.asarray(state.berth_ship) >= 0]
    assert len(placed) == len(set(placed.tolist())) == int((state.ship_harbour >= 0).sum())
    if state.phase != E.PH_START_BERTH:
        assert len(placed) == 4
        assert set(np.asarray(state.ship_harbour).tolist()) <= {int(state.leg), int(state.leg) + 1}
    # Sailors and maps: permutations; the face-down piles hold exactly the undrawn cards.
    assert sorted(state.sailor_deck) == list(range(20)) and sorted(state.map_deck) == list(range(16))
    for card in state.sailor_deck[int(state.sailors_drawn):]:
        assert state.sailor_owner[card] == E.OWNER_DECK
    assert (np.asarray(state.sailor_owner) != E.OWNER_DECK).sum() == state.sailors_drawn
    assert set(np.asarray(state.sailor_owner).tolist()) <= {-2, -1, *range(n)}
    for card in state.map_deck[: int(state.maps_drawn)]:
        assert 0 <= state.map_owner[card] < n
    for card in state.map_deck[int(state.maps_drawn):]:
        assert state.map_owner[card] == E.OWNER_DECK
    if state.terminal:
        assert state.current_player == -1 and (state.ship_harbour == data.ROUTE_DEST[state.route]).all()
        return
    # The seat to act has a real choice (forced moves are made for it), in the phase's block.
    seat = int(state.current_player)
    assert 0 <= seat < n
    legal = env.legal_actions()
    assert len(legal) >= 2, (engine.PHASE_NAMES[state.phase], legal)
    allowed = set(BLOCKS[int(state.phase)])
    assert all(a in allowed or a >= E.A_MOVE for a in legal)
    if any(a >= E.A_MOVE for a in legal):
        assert engine.fassel_card_ready(state, seat) >= 0
    for other in range(n):
        if other != seat:
            assert env.legal_actions(f"player_{other}") == []


@pytest.mark.parametrize("num_players,config", [
    (2, {}), (3, {}), (4, {}), (3, {"route": "short"}),
    (4, {"harbour_reveal": "on_approach", "fassel_moves_per_turn": 3, "hired_sailor_pays_at_once": False}),
])
def test_invariants_hold_at_every_step_of_random_play(num_players, config):
    env = raw_env(num_players=num_players, **config)
    space = env.observation_space("player_0")["observation"]
    rng = np.random.default_rng(num_players)
    steps = game = 0
    while steps < 4000:
        game += 1
        env.reset(seed=1000 * num_players + game)
        state = record(env)
        check_invariants(state, env)
        while not state.terminal:
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
            steps += 1
            check_invariants(state, env)
            if steps % 7 == 0:
                for seat in range(num_players):
                    assert space.contains(env.observe(f"player_{seat}")["observation"])
        rewards = sorted(env.rewards[a] for a in env.possible_agents)
        assert rewards == pytest.approx(np.linspace(-1, 1, num_players))


# ---- hidden information -------------------------------------------------------------------


def random_positions(num_players, count, seed, **config):
    """Records from random games at random moments (each a copy)."""
    env = raw_env(num_players=num_players, **config)
    rng = np.random.default_rng(seed)
    out = []
    game = 0
    while len(out) < count:
        env.reset(seed=seed * 100 + game)
        game += 1
        stop = rng.integers(1, 200)
        state = record(env)
        for _ in range(stop):
            if state.terminal:
                break
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
        if not state.terminal:
            out.append(env.get_state())
    return out


def observation(rec, seat):
    out = np.zeros(engine.LAYOUT.size, np.float32)
    engine.observe(rec[0], seat, out)
    return out


def hide_and_shuffle(rec, seat, rng):
    """Change only what ``seat`` cannot see: others' maps (counts kept), the piles' order, face-down tiles."""
    state = rec[0]
    others = [c for c in range(16) if state.map_owner[c] != seat]
    owners = [int(state.map_owner[c]) for c in others]
    rng.shuffle(owners)
    for card, owner in zip(others, owners):
        state.map_owner[card] = owner
    drawn = [c for c in range(16) if state.map_owner[c] != E.OWNER_DECK]
    pile = [c for c in range(16) if state.map_owner[c] == E.OWNER_DECK]
    rng.shuffle(pile)
    state.map_deck[:] = drawn + pile
    k = int(state.sailors_drawn)
    rest = list(state.sailor_deck[k:])
    rng.shuffle(rest)
    state.sailor_deck[k:] = rest
    for shape in range(3):
        hidden = [h for h in range(data.NUM_HARBOURS) if data.ROUTE_SHAPE[state.route, h] == shape
                  and not state.revealed[h]]
        shown = {int(state.harbour_tile[h]) for h in range(data.NUM_HARBOURS) if state.revealed[h]}
        pool = [t for t in range(data.SHAPE_FIRST[shape], data.SHAPE_FIRST[shape] + data.SHAPE_COUNT[shape])
                if t not in shown]
        choice = rng.permutation(pool)[: len(hidden)]
        for h, tile in zip(hidden, choice):
            state.harbour_tile[h] = tile
    state.rng = rng.integers(1, 2**63)


@pytest.mark.parametrize("num_players,reveal", [(2, "on_approach"), (4, "on_approach"), (4, "all_at_start")])
def test_observation_ignores_what_the_seat_cannot_see(num_players, reveal):
    rng = np.random.default_rng(7)
    changed_something = 0
    for rec in random_positions(num_players, 40, seed=num_players, harbour_reveal=reveal):
        for seat in range(num_players):
            other = rec.copy()
            hide_and_shuffle(other, seat, rng)
            changed_something += other.tobytes() != rec.tobytes()
            np.testing.assert_array_equal(observation(rec, seat), observation(other, seat))
            mask_a = np.zeros(E.NUM_ACTIONS, np.int8)
            mask_b = np.zeros(E.NUM_ACTIONS, np.int8)
            engine.legal_mask(rec[0], seat, mask_a)
            engine.legal_mask(other[0], seat, mask_b)
            np.testing.assert_array_equal(mask_a, mask_b)
    assert changed_something > 40


def test_observation_shows_what_the_seat_can_see():
    rec = random_positions(3, 1, seed=3)[0]
    state = rec[0]
    before = observation(rec, 0)
    pile = [c for c in range(16) if state.map_owner[c] == E.OWNER_DECK]
    state.map_owner[pile[0]] = 0  # seat 0 gains a map: its own view changes, seat 1 sees a count
    assert not np.array_equal(before, observation(rec, 0))
    view = engine.LAYOUT.views(observation(rec, 1))
    assert view["map_counts"][2] == (state.map_owner == 0).sum()  # seat 0 is two seats after seat 1
    assert view["own_maps"].sum() == (state.map_owner == 1).sum()


def test_face_down_harbours_read_zero():
    env = new_env(4, harbour_reveal="on_approach")
    view = engine.LAYOUT.views(env.observe("player_1")["observation"])
    state = record(env)
    assert not state.revealed[2:-1].any()
    for h in range(data.NUM_HARBOURS):
        assert view["harbour_visible"][h] == state.revealed[h]
        if not state.revealed[h]:
            assert not view["berths"][h].any()
        else:
            assert view["berths"][h].any()


@pytest.mark.parametrize("route", ["full", "short"])
def test_the_observation_shows_the_route(route):
    env = new_env(3, route=route)
    view = engine.LAYOUT.views(env.observe("player_0")["observation"])
    state = record(env)
    dest = int(data.ROUTE_DEST[state.route])
    shapes = [int(v.argmax()) if v.any() else -1 for v in view["route"]]
    assert shapes == list(data.ROUTE_SHAPE[state.route])
    assert shapes[dest] == data.SHAPE_DEST and (route == "short") == (dest < data.NUM_HARBOURS - 1)
    assert view["harbour_visible"][: dest + 1].all() and not view["berths"][dest + 1:].any()
