"""determinize(state, seat, seed): resample what the seat cannot know, keep everything it knows."""

import collections

import numpy as np

from envs.volles_fass_voraus import data, engine

from .helpers import E, give_maps, new_env, raw_env, record
from .test_invariants import check_invariants, observation, random_positions


def determinized(rec, seat, seed):
    out = rec.copy()
    engine.determinize(out[0], seat, seed)
    return out


def test_the_seat_sees_the_same_game_after_determinizing():
    for num_players in (2, 3, 4):
        for rec in random_positions(num_players, 15, seed=10 + num_players, harbour_reveal="on_approach"):
            for seat in range(num_players):
                for seed in range(3):
                    other = determinized(rec, seat, seed)
                    np.testing.assert_array_equal(observation(rec, seat), observation(other, seat))
                    mask_a = np.zeros(E.NUM_ACTIONS, np.int8)
                    mask_b = np.zeros(E.NUM_ACTIONS, np.int8)
                    engine.legal_mask(rec[0], seat, mask_a)
                    engine.legal_mask(other[0], seat, mask_b)
                    np.testing.assert_array_equal(mask_a, mask_b)


def test_determinized_states_keep_the_invariants_and_play_on():
    env = raw_env(num_players=4)
    rng = np.random.default_rng(0)
    for rec in random_positions(4, 10, seed=3):
        env.set_state(determinized(rec, int(rec[0].current_player), 99))
        state = record(env)
        check_invariants(state, env)
        while not state.terminal:
            legal = env.legal_actions()
            env.step(legal[rng.integers(len(legal))])
            check_invariants(state, env)


def test_no_tile_is_hidden_by_default():
    rec = random_positions(4, 1, seed=8)[0]
    for seed in range(10):
        assert (determinized(rec, 0, seed)[0].harbour_tile == rec[0].harbour_tile).all()


def test_hidden_things_change_and_known_ones_do_not():
    env = new_env(4, harbour_reveal="on_approach")
    state = record(env)
    give_maps(state, 1, [0, 5, 12])
    give_maps(state, 2, [3])
    give_maps(state, 0, [7, 15])
    rec = env.get_state()
    tiles, others_maps, piles = set(), set(), set()
    for seed in range(30):
        other = determinized(rec, 0, seed)[0]
        # Seat 0 keeps its own cards; the others keep how many they hold.
        assert set(np.flatnonzero(other.map_owner == 0)) == {7, 15}
        assert (other.map_owner == 1).sum() == 3 and (other.map_owner == 2).sum() == 1
        assert (other.map_owner == 3).sum() == 0 and other.maps_drawn == rec[0].maps_drawn
        for h in range(data.NUM_HARBOURS):
            if rec[0].revealed[h]:
                assert other.harbour_tile[h] == rec[0].harbour_tile[h]
        tiles.add(tuple(other.harbour_tile))
        others_maps.add(tuple(other.map_owner))
        piles.add(tuple(other.sailor_deck))
        assert (other.sailor_owner == rec[0].sailor_owner).all()
    assert len(tiles) > 20 and len(others_maps) > 20 and len(piles) > 20


def test_same_seed_same_sample_and_no_leak_from_the_true_generator():
    rec = random_positions(3, 1, seed=5)[0]
    a = determinized(rec, 1, 42)
    b = determinized(rec, 1, 42)
    assert a.tobytes() == b.tobytes()
    shifted = rec.copy()
    shifted[0].rng = 12345  # a different true future
    assert determinized(shifted, 1, 42).tobytes() == a.tobytes()
    assert determinized(rec, 1, 43).tobytes() != a.tobytes()


def test_resampling_is_uniform():
    env = new_env(3, harbour_reveal="on_approach")
    state = record(env)
    give_maps(state, 1, [0])  # seat 1 holds one card seat 0 cannot see
    rec = env.get_state()
    harbour = 12  # a face-down mixed-region recess
    assert not rec[0].revealed[harbour]
    tile_counts, card_counts = collections.Counter(), collections.Counter()
    runs = 3000
    for seed in range(runs):
        other = determinized(rec, 0, seed)[0]
        tile_counts[int(other.harbour_tile[harbour])] += 1
        card_counts[int(np.flatnonzero(other.map_owner == 1)[0])] += 1
    # All 10 mixed tiles are face down: each equally likely; seat 1's card is any of the 16.
    assert sorted(tile_counts) == list(range(data.SHAPE_FIRST[1], data.SHAPE_FIRST[1] + 10))
    assert sorted(card_counts) == list(range(16))
    # Chi-square against uniform; the limits are the 99.99% quantiles for 9 and 15 degrees of freedom.
    for counts, k, limit in ((tile_counts, 10, 33.7), (card_counts, 16, 44.3)):
        expected = runs / k
        chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
        assert chi2 < limit, counts
