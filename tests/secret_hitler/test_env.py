"""The adapter around the rules: options, documentation, rendering."""

import numpy as np
import pytest

import envs
from envs.secret_hitler import engine as E
from envs.secret_hitler import env as sh_env
from envs.secret_hitler import render

from .scripting import HITLER, F, L, Script


def test_module_docstring_documents_the_observation_layout():
    assert E.LAYOUT.table() in sh_env.__doc__
    assert f"Box(0, {E.LAYOUT.high.max():g}, ({E.LAYOUT.size},), float32)" in sh_env.__doc__
    assert f"Discrete({E.NUM_ACTIONS})" in sh_env.__doc__


def test_options_are_validated():
    for bad in ({"claims": 1}, {"claims": "yes"}, {"hitler_knows_fascists": "sometimes"},
                {"hitler_knows_fascists": 0}, {"num_players": 4}, {"num_players": 11}):
        with pytest.raises(ValueError):
            envs.make("secret_hitler_v0", **bad)
    assert envs.make("secret_hitler_v0").unwrapped.num_players == 7


def test_observation_bounds_hold_for_the_record_extremes():
    layout = E.LAYOUT
    assert layout.high[layout.offset("deck_size")] == 17 and layout.high[layout.offset("hand")] == 3


def test_ansi_shows_a_viewer_only_what_it_knows():
    s = Script(7, roles=[L, F, HITLER, L, F, L, L], deck="LFF", president=3, render_mode="ansi")
    s.elect(5)
    text = render.ansi(s.rec, s.env.config, viewer=0)
    rows = [line for line in text.splitlines() if line.strip().startswith("player_")]
    assert "liberal" in rows[0] and all("?" in row for row in rows[1:])
    assert "Hitler" not in "\n".join(rows) and "Deck from the top" not in text and "holds" not in text
    president_view = render.ansi(s.rec, s.env.config, viewer=3)
    assert "player_3 holds 1 liberal, 2 fascist" in president_view
    fascist_view = render.ansi(s.rec, s.env.config, viewer=1)
    assert "Hitler" in next(line for line in fascist_view.splitlines() if line.strip().startswith("player_2"))
    full = render.ansi(s.rec, s.env.config)
    assert "Deck from the top: " in full and "PRESIDENT" in full and "CHANCELLOR" in full
    s.env.render_viewer = 0
    assert s.env.render() == text


def term_limited_rows(s):
    text = render.ansi(s.rec, s.env.config)
    return [int(line.split()[0].split("_")[1]) for line in text.splitlines()
            if line.strip().startswith("player_") and "term-limited" in line]


@pytest.mark.parametrize("term_limits", ["rulebook", "official"])
def test_ansi_marks_the_term_limited_by_the_engines_rule(term_limits):
    s = Script(5, deck="LLL", president=0, claims=False, term_limits=term_limits)
    s.government(1, L, L)
    s.fail(2)
    flagged = [p for p in range(5) if s.view(3)["term_limited"][p]]
    assert term_limited_rows(s) == flagged == ([0, 1] if term_limits == "rulebook" else [1])


def test_rgb_is_an_image_for_every_player_count():
    for n in range(5, 11):
        s = Script(n, deck="LFF")
        image = render.rgb(s.rec, s.env.config)
        assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
