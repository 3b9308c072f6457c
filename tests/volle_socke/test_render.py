"""The text and picture renderings (a viewer sees only its own hand) and the action names."""

import numpy as np

from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    ENGINE_50, FRONT, LACH, MOTOR_HER, REAR_1, ROLE_ENGINE, ROLE_REAR, SPARE_0, TURBO, WOODEN_FRONT,
)
from envs.volle_socke.env import raw_env

from .helpers import contest_position, fit, misery, move, record


def test_ansi_shows_bikes_and_values_and_hides_other_hands_from_a_viewer():
    env = contest_position(3, hands={0: [LACH], 1: [TURBO, TURBO]},
                           bikes={0: [WOODEN_FRONT, ENGINE_50, REAR_1 + 2], 1: [FRONT, ENGINE_50, REAR_1]})
    record(env)["known"][1, TURBO] = 1
    env.render_mode = "ansi"
    everything = env.render()
    assert "bike: E50 WOD R3 = 75 HP" in everything and "hand: TRB TRB" in everything
    env.render_viewer = 0
    seen_by_0 = env.render()
    assert "hand: LCH" in seen_by_0 and "hand: TRB TRB" not in seen_by_0
    assert "hand: 2 cards, known: TRB" in seen_by_0


def test_rgb_is_a_picture_of_the_table():
    env = raw_env(num_players=5, render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert image.shape[0] > 300 and len(np.unique(image.reshape(-1, 3), axis=0)) > 5


def test_every_action_has_its_own_readable_name():
    env = raw_env(num_players=4)
    names = [env.action_to_str(a) for a in range(env.game.num_actions)]
    assert len(set(names)) == len(names)
    assert env.action_to_str(E.MISERY_BASE + 7 * 3 + 1) == "play Bull on the player 2 seats after you"
    assert env.action_to_str(fit(ENGINE_50)) == "fit Engine 50 HP as engine"


def test_ansi_shows_who_picks_the_card_and_the_moved_spare_parts():
    env = contest_position(2, hands={0: [MOTOR_HER]}, bikes={0: [FRONT, ENGINE_50, (SPARE_0, ROLE_ENGINE)],
                                                           1: [FRONT, ENGINE_50, REAR_1]})
    env.render_mode = "ansi"
    env.step(move(SPARE_0, ROLE_REAR))
    assert "S10=rear (moved)" in env.render()
    env.step(misery(MOTOR_HER, 1))
    env.step(E.ACCEPT)
    assert "in play: Motor her by player_0 on player_1 (accepted: player_1 picks the card it hands over)" in env.render()
