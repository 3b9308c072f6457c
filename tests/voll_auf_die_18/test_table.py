"""The table: drawing, the Bib (swaps, expansion), swaps between players, talents, the emergency
rule, swapping places, and each chapter's setup."""

import numpy as np
import pytest

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import (EMERGENCY, WAIT, accept, argue, arrange, bib_swap, card, cards, check_invariants, expand, hand,
                      legal, nazi_id, offer, play, put_on_top, rec, table, with_design)


# ---- the Bib -------------------------------------------------------------------------------------


def test_bib_swaps_need_the_same_colour_or_the_same_value():
    """The rulebook: a blue 3 may go for a blue 5 or a red 3."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    blue3, blue5, red3, red5 = cards("B3", "B5", "R3", "R5")
    arrange(env, hands={0: [blue3, "Y1", "Y2", "G6"]}, bib=[blue5, red3, red5], nazis={0: 9, 1: 23})
    mask = legal(env, 0)
    assert bib_swap(0, blue5) in mask and bib_swap(0, red3) in mask
    assert bib_swap(0, red5) not in mask
    play(env, bib_swap(0, blue5))
    r = rec(env)
    assert hand(env, 0)[0] == blue5 and r["card_loc"][blue3] == E.LOC_BIB and r["bib_count"] == 3
    play(env, bib_swap(0, red5))  # blue 5 for red 5: same value
    assert hand(env, 0)[0] == red5
    check_invariants(r)


def test_two_seats_wanting_one_bib_card_the_first_gets_it():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    blue5 = card("B5")
    arrange(env, hands={0: ["B3", "Y1", "Y2", "G6"], 1: ["B1", "Y3", "G2", "R6"]}, bib=[blue5], nazis={0: 9, 1: 23})
    play(env, bib_swap(0, blue5), bib_swap(0, blue5))
    assert hand(env, 0)[0] == blue5 and hand(env, 1)[0] == card("B1")
    check_invariants(rec(env))


def test_drawing_from_the_bib_only_when_the_stacks_are_empty():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    everything = [c for c in range(D.NUM_ARGUMENTS)]
    red1, red5, bib_card = cards("R1", "R5", "G4")
    hand1 = cards("Y1", "Y2", "Y3", "Y4", taken=[red1, red5, bib_card])
    kk = cards("B2", "B3", "B4", "B6", taken=[red1, red5, bib_card] + hand1)
    rest = [c for c in everything if c not in [red1, red5, bib_card] + hand1 + kk]
    arrange(env, hands={0: [red1, red5] + hand1[:2], 1: kk}, bib=[bib_card], discard=rest + hand1[2:],
            nazis={0: 9, 1: 6}, convinced=[iq for iq in range(6, 24) if iq not in (6, 9)])
    assert rec(env)["stack_len"].sum() == 0
    play(env, argue(1, (0, 1)))
    assert hand(env, 0)[:2] == [-1, -1], "nothing to draw from the stacks"
    mask = legal(env, 0)
    assert bib_swap(0, bib_card) in mask, "with the stacks empty, draw from the Bib"
    play(env, bib_swap(0, bib_card))
    assert hand(env, 0)[0] == bib_card


def test_empty_slot_does_not_draw_from_the_bib_while_stacks_hold_cards():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    green = card("G4")
    arrange(env, hands={0: ["R1", "R3", "Y2", "B3"]}, bib=[green], nazis={0: 9, 1: 20})
    play(env, argue(1, (0, 1)))                    # a pending pool leaves two slots empty
    assert bib_swap(0, green) not in legal(env, 0)


def test_the_arguments_run_out_chapter_draws_only_from_the_bib():
    env = table(chapter=17, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    assert r["num_stacks"] == 5
    bib_card = card("G4")
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, bib=[bib_card], nazis={0: 9, 1: 6})
    play(env, argue(1, (0, 1)))
    assert hand(env, 0)[:2] == [-1, -1] and r["stack_len"].sum() > 0, "never from the stacks"
    assert bib_swap(0, bib_card) in legal(env, 0)


# ---- expanding the Bib -----------------------------------------------------------------------------


def test_no_expansion_in_chapter_1():
    env = table(chapter=1)
    assert not any(E.A_EXPAND <= a < E.A_ROLL for a in legal(env, 0) | legal(env, 1))


def test_colour_combo_condition():
    env = table(chapter=2, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "Y1", "G2", "B2"], 1: ["R1", "R2", "G3", "B3"]}, nazis={0: 9, 1: 23})
    top = with_design(D.COND_COLOURS, "RYGB", env=env)
    put_on_top(env, 0, top)
    assert expand(0) in legal(env, 0), "red, yellow, green and blue in hand"
    assert expand(0) not in legal(env, 1)
    play(env, expand(0))
    r = rec(env)
    assert r["card_loc"][top] == E.LOC_BIB and r["bib_count"] == 1
    assert len([c for c in hand(env, 0) if c >= 0]) == 4, "the shown cards stay in hand"


def test_number_combo_condition():
    env = table(chapter=2, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "Y2", "G3", "B4"], 1: ["R1", "R2", "G3", "B3"]}, nazis={0: 9, 1: 23})
    top = with_design(D.COND_NUMBERS, "1234", env=env)
    put_on_top(env, 1, top)
    assert expand(1) in legal(env, 0) and expand(1) not in legal(env, 1)


def test_solo_task_any_seat_and_group_task_needs_everyone():
    env = table(num_players=3, chapter=2)
    arrange(env, hands={0: ["R1", "R2", "R3", "R4"], 1: ["Y1", "Y2", "Y3", "Y4"], 2: ["B1", "B2", "B3", "B4"]},
            nazis={0: 9, 1: 23})
    solo, group = with_design(D.COND_SOLO_TASK, env=env), with_design(D.COND_GROUP_TASK, env=env)
    put_on_top(env, 0, solo)
    put_on_top(env, 1, group)
    assert all(expand(0) in legal(env, s) and expand(1) in legal(env, s) for s in range(3))
    play(env, WAIT, expand(0))
    assert rec(env)["card_loc"][solo] == E.LOC_BIB
    play(env, expand(1), expand(1))                 # two of three: the group task is not done
    assert rec(env)["card_loc"][group] == E.LOC_STACK
    play(env, expand(1), expand(1), expand(1))
    assert rec(env)["card_loc"][group] == E.LOC_BIB


def solo_on_top(env, s=0, depth=1):
    """Put a card whose back asks for a solo task ``depth`` (1-3) from the top of stack ``s`` (one
    that lies deeper in some stack)."""
    r = rec(env)
    high = {int(c) for t in range(int(r["num_stacks"])) for c in r["stack"][t, max(0, r["stack_len"][t] - 3):]}
    solo = [c for c in range(D.NUM_ARGUMENTS) if r["card_loc"][c] == E.LOC_STACK and c not in high
            and D.BACK_COND_KIND[D.CARD_BACK[c]] == D.COND_SOLO_TASK][0]
    for t in range(int(r["num_stacks"])):
        where = np.flatnonzero(r["stack"][t, : r["stack_len"][t]] == solo)
        if where.size:
            there = r["stack_len"][s] - depth
            r["stack"][t, where[0]], r["stack"][s, there] = r["stack"][s, there], solo
    E.refresh(r)


def test_bib_of_10_is_an_extra_victory_condition():
    env = table(chapter=2, characters=["kangaroo", "kleinkuenstler"])
    bib = cards("G1", "G2", "G3", "G4", "G5", "G6", "Y1", "Y2")
    arrange(env, hands={0: ["R1", "R5", "Y3", "B3"]}, bib=bib, nazis={1: 6}, convinced=list(range(7, 24)))
    for s, depth in ((0, 1), (0, 2), (0, 3), (1, 1)):  # the Kangaroo draws two from stack 0: tasks stay on top
        solo_on_top(env, s, depth)
    rewards = play(env, argue(1, (0, 1)))
    r = rec(env)
    assert r["convinced"] == 18 and not r["terminal"], "all convinced, but only 8 Arguments in the Bib"
    assert rewards["player_0"] == 0.0
    solo_on_top(env)
    play(env, expand(0))                            # 9
    assert not r["terminal"]
    solo_on_top(env)
    rewards = play(env, expand(0))                  # 10
    assert r["terminal"] and r["end_reason"] == E.END_WON and rewards == {"player_0": 1.0, "player_1": 1.0}


# ---- talents -------------------------------------------------------------------------------------------


def test_talents_start_face_down_herta_gets_four():
    env = table(chapter=6, characters=["herta", "kangaroo"])
    r = rec(env)
    assert list(r["talent_len"][:2]) == [4, 1]
    assert not r["talent_ready"][:2].any()
    assert rec(table(chapter=5))["talent_len"].sum() == 0, "chapters 1-5: normal side, no talents"


def test_activating_a_talent_puts_its_card_into_the_bib_and_anyone_may_activate():
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    solo = with_design(D.COND_SOLO_TASK)
    arrange(env, talent={0: [solo], 1: [card("R6", [solo])]}, nazis={0: 9, 1: 23})
    assert expand(("talent", 1)) in legal(env, 1), "seat 1 activates seat 0's talent (1 seat on)"
    play(env, WAIT, expand(("talent", 1)))
    r = rec(env)
    assert r["talent_ready"][0] == 1 and r["talent_len"][0] == 0
    assert r["card_loc"][solo] == E.LOC_BIB and r["bib_talent_count"] == 1


def test_chapter_6_bib_must_come_from_talent_spaces():
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    solo = with_design(D.COND_SOLO_TASK)
    arrange(env, nazis={0: 9, 1: 23})
    put_on_top(env, 0, solo)
    assert expand(0) not in legal(env, 0), "no expansion from the stacks in chapter 6"


HERTA_USES = [(7, ["R1", "R3", "Y2", "B1"]), (9, ["R1", "R3", "Y2", "B3"]), (11, ["R1", "R3", "Y2", "B5"]),
              (13, ["R1", "R3", "G5", "Y4"])]  # three odd values and one even: only with her talent


def test_herta_uses_her_talent_at_most_four_times():
    env = table(chapter=6, characters=["herta", "kangaroo"])
    r = rec(env)
    r["nasty"][:] = 0
    solos = [c for c in range(D.NUM_ARGUMENTS) if D.BACK_COND_KIND[D.CARD_BACK[c]] == D.COND_SOLO_TASK][:4]
    done = []
    for use, (iq, fronts) in enumerate(HERTA_USES):
        arrange(env, hands={0: fronts}, talent={0: solos[use:]}, nazis={0: 23, 1: iq}, convinced=done)
        assert argue(1, (0, 1, 2, 3)) not in legal(env, 0)
        play(env, expand(("talent", 0)))
        assert r["talent_ready"][0] == 1 and r["talent_len"][0] == 3 - use
        assert argue(1, (0, 1, 2, 3)) in legal(env, 0)
        play(env, argue(1, (0, 1, 2, 3)))
        assert r["nazi_at"][nazi_id(iq)] == E.NAZI_CONVINCED
        assert r["talent_len"][0] == 3 - use, "Herta's space is never covered again"
        done.append(iq)
    assert r["talent_len"][0] == 0 and r["talent_spent"][0] == 4
    assert not any(E.A_EXPAND + D.RUN_OUT_STACKS <= a < E.A_ROLL for a in legal(env, 0))


# ---- swaps between players ---------------------------------------------------------------------------


def test_swap_is_one_for_one_and_needs_both():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    green2, yellow5 = cards("G2", "Y5")
    arrange(env, hands={0: [green2, "R1", "R2", "R3"], 1: [yellow5, "B1", "B2", "B3"]}, nazis={0: 9, 1: 23})
    assert not any(E.A_ACCEPT <= a < E.A_BIB for a in legal(env, 1)), "nothing offered yet"
    play(env, offer(1, 0))
    assert accept(1, 0) in legal(env, 1)
    play(env, WAIT, accept(1, 0))
    assert hand(env, 0)[0] == yellow5 and hand(env, 1)[0] == green2
    assert rec(env)["offer_to"][0] == -1
    check_invariants(rec(env))


def test_razupaltuff_can_be_swapped_between_players():
    env = table(chapter=7, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    slot = [int(c) for c in r["hand"][0]].index(D.RAZUPALTUFF[0])
    play(env, offer(1, slot))
    play(env, WAIT, accept(1, 3))
    assert D.RAZUPALTUFF[0] in hand(env, 1)
    check_invariants(r)


# ---- emergency, swap places -----------------------------------------------------------------------------


def test_emergency_redraw_once_for_everyone():
    env = table(chapter=7, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    before = {seat: hand(env, seat) for seat in range(2)}
    assert EMERGENCY in legal(env, 1)
    play(env, WAIT, EMERGENCY)
    after = {seat: hand(env, seat) for seat in range(2)}
    assert after != before and r["emergency_used"]
    assert D.RAZUPALTUFF[0] in after[0], "Razupaltuff is no Argument: it stays in hand"
    assert all(len([c for c in after[s] if c >= 0]) == 4 for s in range(2))
    assert EMERGENCY not in legal(env, 0) | legal(env, 1)
    check_invariants(r)


def held_arguments(r, seats):
    """The Arguments the seats hold, in hand and laid in pools."""
    loc, seat_of = r["card_loc"][: E.NUM_ARG], r["card_seat"][: E.NUM_ARG]
    return {c for c in range(E.NUM_ARG) if loc[c] in (E.LOC_HAND, E.LOC_POOL) and seat_of[c] in seats}


def test_the_emergency_redraw_deals_4_from_the_stacks_outside_chapter_17():
    env = table(chapter=1, characters=["kangaroo", "kleinkuenstler"], freeze=False)  # (check_state: real clocks)
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, bib=["G6"], nazis={0: 23, 1: 20})
    r = rec(env)
    play(env, argue(1, (0, 1)))                     # R1 + R5 lie in a pool at the 20
    stacked, before = int(r["stack_len"].sum()), held_arguments(r, (0, 1))
    play(env, EMERGENCY)
    assert r["pool_count"][nazi_id(20)] == 0 and all(r["card_loc"][c] != E.LOC_POOL for c in range(E.NUM_ARG))
    for seat in range(2):
        assert all(0 <= c < E.NUM_ARG for c in hand(env, seat)), "4 new cards each"
        assert not r["hand_known"][seat].any(), "drawn face down from the stacks"
    assert int(r["stack_len"].sum()) == stacked, "8 cards in, 8 out"
    assert held_arguments(r, (0, 1)) != before and r["bib_count"] == 1
    check_invariants(r)
    assert E.check_state(r) == 0


def test_chapter_17_emergency_sends_the_hands_to_the_stacks_and_new_hands_come_from_the_bib():
    """Chapter 17: "when drawing your hand cards you may only take cards that are already in the
    Bib". The redraw shuffles every hand, and the cards laid in pools, into the stacks; nobody
    draws from them, and the empty slots are then filled from the Bib, face up."""
    env = table(chapter=17, characters=["kangaroo", "kleinkuenstler"], freeze=False)  # (check_state: real clocks)
    red4 = card("R4")
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]},
            bib=[red4, "G1", "G2", "Y5", "B6", "Y1", "B2", "G3"], nazis={0: 23, 1: 20})
    r = rec(env)
    play(env, argue(1, (0, 1)), bib_swap(0, red4))  # a pool at the 20; a red 2 for the red 4, face up
    assert r["hand_known"][1, 0] == 1 and hand(env, 0)[:2] == [-1, -1], "nothing drawn from the stacks"
    stacked, held = int(r["stack_len"].sum()), held_arguments(r, (0, 1))
    bib = set(np.flatnonzero(r["card_loc"][: E.NUM_ARG] == E.LOC_BIB).tolist())
    assert len(held) == 8 and len(bib) == 8
    play(env, WAIT, EMERGENCY)
    assert r["emergency_used"] and (r["hand"][:2] == -1).all(), "no hand gets a stack card"
    assert not r["hand_known"].any(), "an empty slot is known to nobody"
    assert int(r["stack_len"].sum()) == stacked + 8, "the stacks grow by exactly the hand cards"
    assert all(r["card_loc"][c] == E.LOC_STACK for c in held) and r["pool_count"][nazi_id(20)] == 0
    assert set(np.flatnonzero(r["card_loc"][: E.NUM_ARG] == E.LOC_BIB).tolist()) == bib
    check_invariants(r)
    assert E.check_state(r) == 0
    for seat in range(2):
        assert {bib_swap(i, c) for i in range(4) for c in bib} <= legal(env, seat), "draw any Bib card"
    first, second = sorted(bib)[:2]
    play(env, bib_swap(0, first), bib_swap(2, second))
    assert hand(env, 0)[0] == first and hand(env, 1)[2] == second
    assert r["hand_known"][0, 0] == 1 and r["hand_known"][1, 2] == 1, "taken face up from the Bib"
    assert r["bib_count"] == 6 and int(r["stack_len"].sum()) == stacked + 8
    play(env)
    assert int(r["stack_len"].sum()) == stacked + 8 and r["bib_count"] == 6, "and never from the stacks"
    check_invariants(r)
    assert E.check_state(r) == 0


def test_swap_places_moves_everyone_one_seat_on():
    env = table(num_players=3, chapter=9)
    r = rec(env)
    characters = list(r["character"][:3])
    hands = [hand(env, s) for s in range(3)]
    r["next_swap"] = r["clock"] + 1
    play(env, WAIT)
    assert list(r["character"][:3]) == characters[1:] + characters[:1]
    assert [hand(env, s) for s in range(3)] == hands[1:] + hands[:1]
    check_invariants(r)


def test_swapping_places_in_blind_trust_a_player_knows_the_hand_she_saw():
    """Blind hands face the others: moving on, a player takes over a hand she could see."""
    env = table(num_players=3, chapter=10)
    r = rec(env)
    r["labels"] |= D.L_SWAP_PLACES
    r["hand_known"][:] = 0
    r["next_swap"] = r["clock"] + 1
    play(env, WAIT)
    for seat in range(3):
        held = r["hand"][seat] >= 0
        assert (r["hand_known"][seat][held] == 1).all()
    check_invariants(r)


# ---- chapters ---------------------------------------------------------------------------------------------------

RULEBOOK_LABELS = {  # the labels the rulebook lists per chapter (ours: data.LABEL_NAMES)
    1: set(), 2: {"10 cards in the Bib"}, 3: {"never alone!"},
    4: {"playing open, talking forbidden", "10 cards in the Bib"},
    5: set(), 6: {"10 Bib cards from talent spaces"}, 7: {"never alone!", "Razupaltuff"}, 8: set(),
    9: {"swap places"}, 10: {"cards the other way round"}, 11: {"Razupaltuff", "10 cards in the Bib"},
    12: {"random characters"}, 13: {"playing open, talking forbidden", "never alone!", "swap places"},
    14: {"random characters", "no 6s"}, 15: {"never alone!", "swap places"},
    16: {"playing open, talking forbidden"}, 17: {"the Arguments run out"}, 18: {"cards the other way round"},
}
RULEBOOK_NASTY = {  # which Nazi groups are super nasty
    1: 0, 2: 0, 3: 0, 4: 0, 5: D.G_TWO, 6: D.G_TWO, 7: D.G_ALL, 8: D.G_BAN | D.G_ALL, 9: D.G_ONE | D.G_BAN,
    10: 0, 11: D.G_ONE | D.G_TWO, 12: D.G_EVERY, 13: 0, 14: D.G_ALL | D.G_TWO, 15: D.G_EVERY, 16: D.G_EVERY,
    17: 0, 18: D.G_EVERY,
}


@pytest.mark.parametrize("chapter", range(1, 19))
def test_chapter_labels_and_nazi_sides_follow_the_rulebook(chapter):
    groups, labels, _, _ = D.CHAPTERS[chapter]
    names = {name for flag, name in D.LABEL_NAMES if labels & flag} - {"talents", "expanding the Bib"}
    assert names == RULEBOOK_LABELS[chapter]
    assert groups == RULEBOOK_NASTY[chapter]
    assert bool(labels & D.L_TALENTS) == (chapter >= 6), "talented side from chapter 6 on"
    assert bool(labels & D.L_EXPANSION) == (chapter >= 2), "expanding the Bib from chapter 2 on"
    env = table(num_players=3, chapter=chapter, seed=chapter)
    r = rec(env)
    for nazi in range(D.NUM_NAZIS):
        kind = D.NASTY_KIND[nazi]
        assert r["nasty"][nazi] == bool(groups & D.GROUP_OF_KIND[kind])
    check_invariants(r)


def test_super_nasty_groups_have_the_rulebook_iqs():
    iqs = {kind: sorted(int(D.NAZI_IQ[n]) for n in range(18) if D.NASTY_KIND[n] == kind)
           for kind in (D.ONE_COLOUR, D.TWO_COLOUR, D.NUMBER_BAN, D.ALL_AGAINST_ONE)}
    assert iqs == {D.ONE_COLOUR: [6, 8, 10, 12], D.TWO_COLOUR: [7, 9, 11, 15, 16, 19],
                   D.NUMBER_BAN: [13, 14, 17, 18], D.ALL_AGAINST_ONE: [20, 21, 22, 23]}
    for n in range(18):
        colours = bin(int(D.NASTY_COLOURS[n])).count("1")
        assert colours == {D.ONE_COLOUR: 1, D.TWO_COLOUR: 2}.get(int(D.NASTY_KIND[n]), 4)
        assert bin(int(D.NASTY_BANNED[n])).count("1") == (2 if D.NASTY_KIND[n] == D.NUMBER_BAN else 0)
    assert D.NASTY_COLOURS[nazi_id(7)] == 0b0011, "the rulebook's woman: yellow and red"


def test_the_arguments():
    assert D.NUM_ARGUMENTS == 99 and D.CARD_VALUE.sum() == 297
    for colour in range(4):
        values = D.CARD_VALUE[D.CARD_COLOUR == colour]
        expected = [5, 5, 5 if D.COLOUR_NAMES[colour] == "green" else 6, 5, 2, 2]
        assert [int((values == v).sum()) for v in range(1, 7)] == expected
    assert np.bincount(D.CARD_BACK, minlength=D.NUM_BACK_DESIGNS).min() >= 4, "backs repeat"


def test_razupaltuff_count_and_stacks_and_bib_by_group_size():
    for n, raz in ((2, 1), (3, 1), (4, 2), (5, 2)):
        env = table(num_players=n, chapter=11)
        held = set(int(c) for c in rec(env)["hand"].ravel())
        assert len(held & set(D.RAZUPALTUFF)) == raz
        assert rec(env)["bib_count"] == D.BIB_START[n] == {2: 8, 3: 3, 4: 2, 5: 1}[n], "open Bib cards (ours, calibrated)"
    assert rec(table(chapter=1))["num_stacks"] == 2 and rec(table(chapter=17))["num_stacks"] == 5


def test_random_characters_and_the_characters_option():
    seen = set()
    for seed in range(12):
        env = table(num_players=3, chapter=12, seed=seed)
        chars = tuple(int(c) for c in rec(env)["character"][:3])
        assert len(set(chars)) == 3
        seen.add(chars)
    assert len(seen) > 3
    env = table(num_players=2, chapter=12, characters=["god", "maria"])
    assert list(rec(env)["character"][:2]) == [D.GOD, D.MARIA]
    with pytest.raises(ValueError):
        table(num_players=2, characters=["god"])
    with pytest.raises(ValueError):
        table(num_players=2, characters=["god", "god"])
    with pytest.raises(ValueError):
        table(num_players=2, characters=["god", "zeus"])


def test_chapter_3_brings_krapotke_and_maria():
    chars = set(int(c) for c in rec(table(chapter=3))["character"][:2])
    assert chars == {D.KRAPOTKE, D.MARIA}
    r = rec(table(chapter=3))
    seat = list(r["character"]).index(D.KRAPOTKE)
    assert (r["hand"][seat] == -1).all(), "Krapotke receives no hand cards"


def test_chapter_19_is_random_but_reproducible():
    labels = set()
    for seed in range(20):
        r = rec(table(chapter=19, seed=seed))
        labels.add((int(r["labels"]), int(r["nasty_groups"])))
        assert not (r["labels"] & D.L_OPEN and r["labels"] & D.L_BLIND)
        check_invariants(r)
    assert len(labels) > 5
    fixed = {(int(rec(table(chapter=19, seed=s, chapter19_seed=7))["labels"]),
              int(rec(table(chapter=19, seed=s, chapter19_seed=7))["nasty_groups"])) for s in range(5)}
    assert len(fixed) == 1


def test_chapter_6_goal_counts_bib_cards_from_talent_spaces():
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    solo = with_design(D.COND_SOLO_TASK)
    arrange(env, bib=cards("G1", "G2", "G3", "G4", "G5", "G6", "Y1", "Y2", "Y3", "Y4", taken=[solo]),
            talent={0: [solo], 1: []}, nazis={}, convinced=list(range(6, 24)))
    r["from_talent"][[c for c in range(D.NUM_ARGUMENTS) if r["card_loc"][c] == E.LOC_BIB][:9]] = 1
    r["bib_talent_count"] = 9
    E.refresh(r)
    play(env)
    assert not r["terminal"], "10 Bib cards, but only 9 from talent spaces"
    rewards = play(env, expand(("talent", 0)))
    assert r["terminal"] and r["end_reason"] == E.END_WON and rewards["player_0"] == 1.0
