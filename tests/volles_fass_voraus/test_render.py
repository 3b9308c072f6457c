"""Rendering: text and picture; a viewer's text shows only what that seat may know."""

import numpy as np

from envs.volles_fass_voraus import data, render

from .helpers import first_to_move, give_maps, new_env


def test_ansi_shows_the_whole_voyage_and_hides_other_players_maps_from_a_viewer():
    env = new_env(3)
    state = first_to_move(env, 0, next_tile="L1")
    give_maps(state, 1, [13])  # a chest of 5 for Gina
    hidden = render.ansi(state, env.config, viewer=0)
    assert "1 face down" in hidden and "chest of 5" not in hidden
    route = hidden.split("\n")[1: data.NUM_HARBOURS + 1]
    for harbour, line in enumerate(route):  # every harbour face up, every berth readable
        tile = int(state.harbour_tile[harbour])
        assert data.tile_name(tile) in line and all(data.berth_text(tile, pos) in line for pos in range(4))
    assert route[-1].split(":")[0].strip().endswith("destination")
    full = render.ansi(state, env.config)
    assert "chest of 5" in full and "load OC (1)" in full


def test_ansi_hides_face_down_harbours_from_a_viewer():
    env = new_env(3, harbour_reveal="on_approach")
    state = first_to_move(env, 0, harbour=1)
    hidden = render.ansi(state, env.config, viewer=0)
    assert "face down" in hidden.split("\n")[4]  # harbour 3 is not turned up yet
    assert "face down" not in render.ansi(state, env.config).split("\n")[4]


def test_rgb_is_a_picture():
    env = new_env(4, render_mode="rgb_array")
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 4 * render.HARBOUR_H and image.shape[1] >= render.HARBOURS_PER_ROW * render.HARBOUR_W
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 4
