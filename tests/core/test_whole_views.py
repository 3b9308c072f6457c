"""Engines registered with ``whole_views=True`` write every entry of the observation and the mask
(the kernels then skip zeroing them), and ``observe_seats`` writes what ``observe`` writes seat by
seat. A stale entry would show a seat what an earlier state or another seat saw, so: after random
play, for every seat, a view written over garbage equals one written over zeros."""

import numpy as np
import pytest

import envs
from envs.core import kernels
from envs.core.game import writes_whole_views
from envs.core.vector import VectorGame

WHOLE = [env_id for env_id in envs.ENV_IDS if writes_whole_views(envs.game_of(env_id).engine.STATE)]

# Voll auf die 18's configurations: chapters with hidden fronts, Krapotke's dice, Maria, talent spaces.
CONFIGS = {"voll_auf_die_18_v0": [dict(num_players=p, chapter=c, communication=comm)
                                  for p, c, comm in ((2, 1, "full"), (3, 5, "none"), (4, 10, "full"), (5, 19, "none"),
                                                     (2, 18, "none"), (3, 12, "full"), (4, 7, "none"),
                                                     (5, 3, "full"))]}


def test_voll_auf_die_18_writes_whole_views():
    assert "voll_auf_die_18_v0" in WHOLE


def _views_over(fill, state, seats, size, actions):
    obs = np.full((seats, size), fill, np.float32)
    masks = np.full((seats, actions), 7, np.int8)
    for seat in range(seats):
        kernels.view_one(state, seat, obs[seat], masks[seat])
    return obs, masks


@pytest.mark.parametrize("env_id", WHOLE)
def test_views_over_garbage_equal_views_over_zeros(env_id):
    game = envs.game_of(env_id)
    size, actions = game.layout.size, game.num_actions
    checked = 0
    for k, config in enumerate(CONFIGS.get(env_id, [{}])):
        vg = VectorGame(env_id, 6, seed=100 + k, **config)
        vg.reset()
        seats = vg.num_players
        for _ in range(40):
            vg.random_steps(3)
            for record in vg.get_state():
                state = np.array([record])
                zero_obs, zero_masks = _views_over(0.0, state, seats, size, actions)
                nan_obs, nan_masks = _views_over(np.nan, state, seats, size, actions)
                big_obs, big_masks = _views_over(9.0, state, seats, size, actions)
                assert np.array_equal(zero_obs, nan_obs) and np.array_equal(zero_obs, big_obs)
                assert np.array_equal(zero_masks, nan_masks) and np.array_equal(zero_masks, big_masks)
                # every seat's view from observe_seats (through the batch kernel) is observe's
                if game.simultaneous:
                    obs = np.full((1, seats, size), np.nan, np.float32)
                    masks = np.full((1, seats, actions), 7, np.int8)
                    kernels.view_batch_joint(state, obs, masks)
                    assert np.array_equal(obs[0], zero_obs) and np.array_equal(masks[0], zero_masks)
                # a view written over another seat's view (as the batches reuse their rows)
                for seat in range(seats):
                    other = (seat + 1) % seats
                    obs, mask = zero_obs[other].copy(), zero_masks[other].copy()
                    kernels.view_one(state, seat, obs, mask)
                    assert np.array_equal(obs, zero_obs[seat]) and np.array_equal(mask, zero_masks[seat])
                checked += 1
    assert checked > 100
