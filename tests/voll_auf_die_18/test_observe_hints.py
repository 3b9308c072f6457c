"""The observation's hint blocks (``observe_hints``): the argument search's hint for the observing
seat, written by numba into the observation (``hint_slots`` per Nazi slot, ``hint_argue`` per argue
action), equal to ``infos["hints"]``, only what the seat can know, and all zero without the option."""

import numpy as np
import pytest

from envs.core.vector import VectorGame
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import argue, arrange, legal, rec, table
from .test_hidden_info import exchange_fronts

HINT_BLOCKS = ("hint_slots", "hint_argue", "hint_offer", "hint_accept", "hint_bib")


def hint_views(env, seat):
    return E.LAYOUT.views(env.observe(env.possible_agents[seat])["observation"])


def expected_blocks(hint, ways):
    """The hint blocks as the layout documents them, from ``infos``' ``hints`` and ``ways``."""
    slots = np.zeros((E.NUM_SLOTS, E.F_HINT), np.float32)
    argues = np.zeros(E.NUM_SLOTS * E.NUM_SUBSETS, np.float32)
    for slot in range(E.NUM_SLOTS):
        if ways[slot] == 0:
            continue
        slots[slot, 0] = np.log2(1.0 + ways[slot]) / 15.0
        for rel, subset in enumerate(int(s) for s in hint[slot]):
            if subset:
                slots[slot, 1] = 1.0
                slots[slot, 2 + rel] = 1.0
                slots[slot, 2 + E.MAX_PLAYERS + rel] = bin(subset).count("1") / 4.0
        if hint[slot, 0]:
            argues[slot * E.NUM_SUBSETS + int(E.SUBSET_INDEX[hint[slot, 0]])] = 1.0
    return slots, argues


def team_position(**options):
    """Kangaroo (one colour) and Kleinkünstler (a straight): 20 = R1 + R5 (seat 0's slots 0 and 1)
    + 2-3-4-5 (all four of seat 1's), the only way; nobody reaches the 23 on the stack."""
    env = table(characters=["kangaroo", "kleinkuenstler"], **options)
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 20})
    return env


def test_the_blocks_point_at_each_seats_part_of_the_only_team_argumentation():
    env = team_position(observe_hints=True)
    for seat, mine, partner in ((0, (0, 1), 0b1111), (1, (0, 1, 2, 3), 0b0011)):
        views = hint_views(env, seat)
        assert np.flatnonzero(views["hint_argue"]).tolist() == [argue(1, mine) - E.A_ARGUE]
        assert argue(1, mine) in legal(env, seat), "the hinted action is one the seat may take"
        cards = [len(mine) / 4, bin(partner).count("1") / 4]
        assert views["hint_slots"][1].tolist() == pytest.approx([1 / 15, 1, 1, 1, 0, 0, 0, *cards, 0, 0, 0])
        assert not views["hint_slots"][[0, 2, 3, 4]].any(), "23 is out of reach; spaces 2-4 are empty"


def test_without_the_option_the_blocks_are_zero_and_the_rest_is_the_same():
    on, off = team_position(observe_hints=True), team_position()
    for seat in range(2):
        with_hints, without = hint_views(on, seat), hint_views(off, seat)
        assert with_hints["hint_argue"].any() and not any(without[b].any() for b in HINT_BLOCKS)
        for name in E.LAYOUT.names:
            if name not in HINT_BLOCKS:
                assert np.array_equal(with_hints[name], without[name]), name


def test_a_bad_option_value_is_refused():
    with pytest.raises(ValueError, match="observe_hints"):
        table(observe_hints=1)


def random_play(env, rng, steps):
    """Yield after every step of random legal play that argues often (so pools fill up)."""
    for _ in range(steps):
        if not env.agents:
            return
        actions = {}
        for agent in env.agents:
            mask = env.observe(agent)["action_mask"]
            legal_actions = np.flatnonzero(mask)
            argues = legal_actions[(legal_actions >= E.A_ARGUE) & (legal_actions < E.A_WITHDRAW)]
            pick = argues if argues.size and rng.random() < 0.5 else legal_actions
            actions[agent] = int(pick[rng.integers(pick.size)])
        env.step(actions)
        yield


@pytest.mark.parametrize("num_players,chapter,communication", [
    (2, 1, "full"), (3, 5, "none"), (4, 10, "full"), (3, 17, "full"), (2, 19, "none"), (5, 3, "full")])
def test_the_blocks_say_what_infos_hints_say(num_players, chapter, communication):
    env = table(num_players=num_players, chapter=chapter, seed=chapter, freeze=False, communication=communication,
                observe_hints=True, timing="table")
    rng = np.random.default_rng(chapter)
    hinted = 0
    for _ in random_play(env, rng, 150):
        infos = env._infos()
        for agent in env.agents:
            views = E.LAYOUT.views(env.observe(agent)["observation"])
            slots, argues = expected_blocks(infos[agent]["hints"], infos[agent]["ways"])
            np.testing.assert_allclose(views["hint_slots"], slots, rtol=1e-6)
            assert np.array_equal(views["hint_argue"], argues)
            hinted += int(argues.any())
    assert hinted > 0, "the games reached positions with a hint for the observing seat"


def test_batched_observations_carry_the_same_blocks():
    """VectorGame (what training steps) writes the blocks in its numba kernels, as the env does."""
    vg = VectorGame("voll_auf_die_18_v0", 8, seed=3, num_players=2, observe_hints=True)
    vg.reset()
    rng = np.random.default_rng(0)
    hint = np.zeros((E.NUM_SLOTS, 2), np.int8)
    ways = np.zeros(E.NUM_SLOTS, np.int16)
    hinted = 0
    for _ in range(120):
        masks = vg.action_mask
        actions = np.array([[rng.choice(np.flatnonzero(masks[g, s])) for s in range(2)] for g in range(8)])
        vg.step(actions)
        states = vg.get_state()
        for g in range(8):
            for seat in range(2):
                E.hints(states[g : g + 1], seat, hint, ways)
                slots, argues = expected_blocks(hint, ways)
                views = E.LAYOUT.views(vg.obs[g, seat])
                if states[g]["terminal"]:
                    continue  # (an ended game has been reset: its observation is the new game's)
                np.testing.assert_allclose(views["hint_slots"], slots, rtol=1e-6)
                assert np.array_equal(views["hint_argue"], argues)
                hinted += int(argues.any())
    assert hinted > 0


def test_without_communication_the_blocks_ignore_the_hidden_hands():
    for seed in range(4):
        env = table(num_players=3, chapter=1, seed=seed, communication="none", observe_hints=True,
                    characters=["kangaroo", "kleinkuenstler", "otto_von"])
        arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"], 2: ["G1", "G2", "Y6", "B6"]},
                nazis={1: 6, 2: 14})
        before = [hint_views(env, seat) for seat in (0, 2)]
        assert exchange_fronts(env, 1) > 0
        for seat, seen in zip((0, 2), before, strict=True):
            after = hint_views(env, seat)
            assert all(np.array_equal(seen[b], after[b]) for b in HINT_BLOCKS)
        assert before[0]["hint_argue"].any(), "seat 0 alone has a hint here, from its own cards"


def test_blind_trust_blocks_ignore_the_seats_own_unknown_fronts():
    """Seat 1 does not know its own fronts (R1 + R5 would convince the 6); God (seat 0) sees them."""
    env = table(num_players=2, chapter=10, characters=["god", "kangaroo"], observe_hints=True)
    arrange(env, hands={0: ["Y2", "B3", "G4", "Y6"], 1: ["R1", "R5", "Y3", "B6"]}, nazis={1: 6})
    assert rec(env)["labels"] & D.L_BLIND and not rec(env)["hand_known"][1].any()
    gods = hint_views(env, 0)["hint_slots"][1]
    assert gods[2 + 1] == 1 and gods[2 + E.MAX_PLAYERS + 1] == 0.5, "God's hint: seat 1 lays R1 + R5"
    before = hint_views(env, 1)
    assert before["hint_slots"][1, 1] == 1 and not before["hint_slots"][:, 2].any(), "a hint without her own cards"
    assert exchange_fronts(env, 1) > 0
    after = hint_views(env, 1)
    assert all(np.array_equal(before[b], after[b]) for b in HINT_BLOCKS)


def test_the_writer_runs_the_same_as_plain_python():
    """(What NUMBA_DISABLE_JIT=1 runs: numpy int8/int16 arithmetic where numba widens.)"""
    env = team_position(observe_hints=True)
    for seat in range(2):
        jitted = np.zeros(E.LAYOUT.size, np.float32)
        E._write_hints(rec(env), seat, jitted)
        plain = np.zeros(E.LAYOUT.size, np.float32)
        E._write_hints.py_func(rec(env), seat, plain)
        assert plain.any() and np.array_equal(plain, jitted)
