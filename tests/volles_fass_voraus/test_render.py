"""Rendering: text and picture; a viewer's text shows only what that seat may know."""

import numpy as np

from envs.volles_fass_voraus import data, render

from .helpers import first_to_move, give_maps, new_env


def test_ansi_hides_face_down_harbours_and_other_players_maps_from_a_viewer():
    env = new_env(3)
    state = first_to_move(env, 0, next_tile="L1")
    give_maps(state, 1, [13])  # a chest of 5 for Gina
    hidden = render.ansi(state, env.config, viewer=0)
    assert "1 face down" in hidden and "chest of 5" not in hidden
    assert "face down" in hidden.split("\n")[4]  # harbour 3 is not turned up yet
    full = render.ansi(state, env.config)
    assert "chest of 5" in full and "load OC (1)" in full


def test_rgb_is_a_picture():
    env = new_env(4, render_mode="rgb_array")
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 200 and image.shape[1] > data.NUM_HARBOURS * 50
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 4
