"""The renderers: text a person can read (and a viewer's text hides what that seat cannot know),
and a picture of the table."""

import numpy as np

from envs.teufel_teufel import data as D
from envs.teufel_teufel import render

from .helpers import person, record, sq, table


def test_ansi_shows_cards_discs_and_players():
    env = table(2, cards={"b1": person(1, "A")}, up=("b1",), discs={0: "a1", 1: "b1"}, letters={0: "AC"},
                devils={1: 1})
    text = render.ansi(record(env), env.unwrapped.config)
    assert "A1 [1]" in text and "@3" in text
    assert "player_0 (red): letters A-C---, devils 0, on the board at a1" in text
    assert "player_1 (blue): letters ------, devils 1, on the board at b1" in text


def test_a_viewer_sees_only_face_up_and_peeked_cards():
    env = table(2, cards={"c3": person(1, "E"), "e5": person(0, "B")}, discs={0: "a1", 1: "g7"})
    state = record(env)
    state["known"][0, person(1, "E")] = 1
    mine = render.ansi(state, env.unwrapped.config, viewer=0).splitlines()
    theirs = render.ansi(state, env.unwrapped.config, viewer=1).splitlines()
    truth = render.ansi(state, env.unwrapped.config).splitlines()
    assert "e1" in mine[3] and "###" in theirs[3] and "e1" in truth[3]  # row 3, the peeked c3
    assert "###" in mine[5] and "###" in theirs[5] and "b0" in truth[5]  # row 5: e5, seen by nobody


def test_rgb_is_an_image_of_the_table_with_card_backs_for_face_down_cards():
    env = table(2, discs={0: "a1", 1: "g7"})
    state = record(env)
    image = render.rgb(state, env.unwrapped.config)
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] >= render.SIDE * render.CELL
    state["card_up"][state["board"][sq("c2")]] = 1
    changed = np.argwhere((render.rgb(state, env.unwrapped.config) != image).any(axis=2))
    x0, y0 = render.MARGIN + 2 * render.CELL, render.MARGIN + 1 * render.CELL  # c2's cell
    board_part = changed[changed[:, 1] < render.MARGIN * 2 + render.SIDE * render.CELL]
    assert len(board_part) and (board_part[:, 0] >= y0).all() and (board_part[:, 0] < y0 + render.CELL).all()
    assert (board_part[:, 1] >= x0).all() and (board_part[:, 1] < x0 + render.CELL).all()


def test_mid_move_the_chain_is_named_and_framed():
    env = table(2, cards={"b1": person(2, "D"), "c1": person(3, "D")}, empty=("a1",), discs={0: "a1", 1: "g7"},
                letters={0: "D"})
    env.step(sq("b1"))
    state = record(env)
    before = render.rgb(state, env.unwrapped.config)
    env.step(sq("c1"))
    text = render.ansi(state, env.unwrapped.config, viewer=1)
    assert "phase go_on" in text
    assert "hall pass: this move began on a1 and turned over b1 (D2), c1 (D3); go on or stop here" in text
    image = render.rgb(state, env.unwrapped.config)
    x0, y0 = render.MARGIN + 2 * render.CELL, render.MARGIN  # c1's cell: turned over and framed now
    cell = (image[y0:y0 + render.CELL, x0:x0 + render.CELL] != before[y0:y0 + render.CELL, x0:x0 + render.CELL])
    assert cell.any()
    corner = image[y0 + 2, x0 + 2]
    assert tuple(corner) == render.COLOURS["yellow"]
    env.step(D.STOP_HERE)
    assert "hall pass" not in render.ansi(state, env.unwrapped.config)
