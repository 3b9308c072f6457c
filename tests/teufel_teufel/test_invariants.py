"""Invariants checked at every step of long random play: 36 letter tokens between the supply and
the discs, 4 devils between the devil space and the discs, at most two discs a space, every card
in exactly one place, a legal action for whoever is to act, and a game that ends or truncates."""

import numpy as np
import pytest

from envs import teufel_teufel_v0
from envs.core.vector import VectorGame
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E


def check_invariants(state):
    n = int(state["num_players"])
    letters, supply = state["letters"], state["supply"]
    assert set(np.unique(letters)) <= {0, 1} and not letters[n:].any()
    assert (supply + letters.sum(axis=0) == D.TOKENS_PER_LETTER).all(), "36 letter tokens"
    devils = state["devils"]
    assert state["devils_home"] + devils.sum() == D.NUM_DEVILS, "4 devil markers"
    assert 0 <= state["devils_home"] <= D.NUM_DEVILS and ((devils == 0) | (devils == 1)).all()
    status, disc = state["status"][:n], state["disc"][:n]
    on_board = disc[status == E.ON_BOARD]
    if state["phase"] != D.PLACE:
        assert (on_board >= 0).all()
    assert (np.bincount(on_board[on_board >= 0], minlength=D.NUM_SQUARES) <= 2).all(), "two discs a space"
    assert (disc[status == E.LEFT] == -1).all(), "a disc that left is off the board"
    for seat in np.flatnonzero(status == E.LEFT):
        assert letters[seat].all() and devils[seat] == 0
    board, where = state["board"], state["card_square"]
    assert board[D.DEVIL_SPACE] == -1
    held = list(state["held"][: state["held_count"]])
    for card in range(D.NUM_CARDS):
        if where[card] >= 0:
            assert board[where[card]] == card
        else:
            assert card in held and state["card_up"][card] == 0
    assert sorted(board[board >= 0].tolist() + held) == list(range(D.NUM_CARDS)), "every card once"
    assert state["held_count"] == 0 or state["phase"] == D.DEVIL_PLACE
    if state["terminal"]:
        assert state["current_player"] == -1 and (status != E.ON_BOARD).all()
    else:
        assert (state["card_up"] == 0).any(), "daybreak ends the game"
        assert (status == E.ON_BOARD).sum() >= 2 or state["phase"] == D.PLACE


@pytest.mark.parametrize("num_players", [2, 3, 4, 5, 6])
def test_invariants_hold_at_every_step_of_random_games(num_players):
    env = teufel_teufel_v0.env(num_players=num_players)
    rng = np.random.default_rng(num_players)
    space = env.observation_space("player_0")["observation"]
    steps, games = 0, 0
    while steps < 4000:
        env.reset(seed=int(rng.integers(2**31)))
        games += 1
        for agent in env.agent_iter():
            observation, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert observation["action_mask"].any()
            assert space.contains(observation["observation"])
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(rng.choice(legal)))
            steps += 1
            check_invariants(env.unwrapped.get_state()[0])
    assert games >= 2


def test_invariants_hold_in_a_long_batch_of_random_games():
    """Millions of decisions in numba; every game checked after each chunk of 50."""
    vg = VectorGame("teufel_teufel_v0", 64, seed=1, num_players=4)
    vg.reset()
    for _ in range(200):
        vg.random_steps(50, observe=False)
        for state in vg.get_state():
            check_invariants(state)
    assert vg._episodes.sum() > 64, "games end (or truncate) and start afresh"


def random_game(num_players, seed, rng, **config):
    """A uniformly random game to its end; returns the final record and whether it was truncated."""
    env = teufel_teufel_v0.env(num_players=num_players, **config)
    env.reset(seed=seed)
    truncated = False
    for agent in env.agent_iter():
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(env.legal_actions())))
    return env.unwrapped.get_state()[0], truncated


def test_random_games_end_by_both_endings():
    """Two players: one leaving ends the game (the other is the last disc), or daybreak does."""
    rng = np.random.default_rng(0)
    endings = {"daybreak": 0, "last disc": 0}
    for game in range(30):
        state, _ = random_game(2, game, rng, max_cycles=None)
        endings["daybreak" if (state["card_up"] == 1).all() else "last disc"] += 1
        assert sorted(state["status"][:2].tolist()) in ([E.LEFT, E.LOST], [E.LOST, E.LOST])
    assert endings["daybreak"] > 0 and endings["last disc"] > 0


def test_random_games_of_three_end_well_within_max_cycles():
    rng = np.random.default_rng(0)
    for game in range(30):
        state, truncated = random_game(3, game, rng)
        assert not truncated
        assert sorted(state["status"][:3].tolist()) in ([E.LEFT, E.LEFT, E.LOST], [E.LEFT, E.LOST, E.LOST],
                                                       [E.LOST, E.LOST, E.LOST])
