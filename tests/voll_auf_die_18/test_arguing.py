"""Arguing: every character's rule, the rulebook's worked examples with their numbers, every Nazi
type, team pools, and the talents."""

import numpy as np
import pytest

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import (ROLL_ALL, arrange, argue, cards, check_invariants, hand, legal, nazi_id, play, rec, roll,
                      table, withdraw)


def convinced(env, iq):
    return rec(env)["nazi_at"][nazi_id(iq)] == E.NAZI_CONVINCED


def status(kind, fronts):
    """rule_status of a character for cards like ["R1", "R5"] (or Krapotke's dice "R2" = red die showing 2)."""
    colours = np.zeros(4, np.int8)
    values = np.zeros(4, np.int8)
    for i, f in enumerate(fronts):
        colours[i], values[i] = D.COLOUR_LETTERS.index(f[0]), int(f[1])
    return E.rule_status(kind, colours, values, (1 << len(fronts)) - 1)


# ---- the rulebook's examples ----------------------------------------------------------------


def test_kangaroo_convinces_iq_6_alone_with_a_1_and_a_5_of_one_colour():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, nazis={0: 9, 1: 6})
    assert argue(1, (0, 1)) in legal(env, 0)
    play(env, argue(1, (0, 1)))
    assert convinced(env, 6)
    assert len([c for c in hand(env, 0) if c >= 0]) == 4, "drew back up to 4"
    assert all(rec(env)["card_loc"][c] == E.LOC_DISCARD for c in cards("R1", "R5"))


def test_kangaroo_needs_one_colour():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "Y5", "G2", "B3"]}, nazis={0: 9, 1: 6})
    assert argue(1, (0, 1)) not in legal(env, 0)
    assert status(D.KANGAROO, ["R1", "R5"]) == 0
    assert status(D.KANGAROO, ["R1", "Y5", "G2"]) == 2 and status(D.KANGAROO, ["R1", "Y5"]) == 1  # talent: one outsider


def test_kleinkuenstler_convinces_iq_14_with_the_straight_2_3_4_5_in_any_colours():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 9, 1: 14})
    play(env, E.A_WAIT, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 14)
    assert status(D.KLEINKUENSTLER, ["R1", "Y2", "G5", "B6"]) == 2   # a gap
    assert status(D.KLEINKUENSTLER, ["R2", "Y3", "G4", "B6"]) == 1   # one skipped number: talent only
    assert status(D.KLEINKUENSTLER, ["R2", "Y3", "G3"]) == 2         # a repeat


def test_kangaroo_and_kleinkuenstler_together_reach_20():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 9, 1: 20})
    play(env, argue(1, (0, 1)), argue(1, (0, 1, 2, 3)))  # both lay in the same moment: 6 + 14 = 20
    assert convinced(env, 20)


def test_a_team_pool_builds_up_over_steps_and_can_be_withdrawn():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 9, 1: 20})
    play(env, argue(1, (0, 1)))
    r = rec(env)
    assert r["pool_fixed"][nazi_id(20)] == 6 and r["contrib"][nazi_id(20), 0] == 1
    assert hand(env, 0)[:2] == [-1, -1], "laid cards leave the hand; no redraw before the Nazi is convinced"
    check_invariants(r)
    play(env, withdraw(1))
    assert r["pool_count"][nazi_id(20)] == 0 and sorted(hand(env, 0)) == sorted(cards("R1", "R5", "Y2", "B3"))
    play(env, argue(1, (0, 1)))
    play(env, E.A_WAIT, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 20)


def test_a_pool_never_overshoots():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 9, 1: 16})
    play(env, argue(1, (0, 1)))                            # 6 laid, 10 to go
    assert argue(1, (0, 1, 2, 3)) not in legal(env, 1)     # 14 would overshoot
    assert argue(1, (1, 2, 3)) not in legal(env, 1)        # 12 too
    assert argue(1, (0, 1, 2)) in legal(env, 1)            # 2+3+4 = 9 fits (1 still open)


def test_simultaneous_solo_solutions_convince_once_in_a_rotating_seat_order():
    env = table(characters=["kangaroo", "otto_von"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R3", "Y3", "G2", "B5"]}, nazis={0: 9, 1: 6})
    before = hand(env, 1)
    play(env, argue(1, (0, 1)), argue(1, (0, 1)))       # moment 0: seat 0 acts first
    assert convinced(env, 6) and rec(env)["convinced"] == 1
    assert hand(env, 1) == before, "the later seat's cards would overshoot: they stay in hand"
    check_invariants(rec(env))
    arrange(env, hands={0: ["R3", "R5", "Y2", "B3"], 1: ["Y4", "B4", "G2", "B5"]}, nazis={0: 9, 1: 8},
            convinced=[6])
    before = hand(env, 0)
    play(env, argue(1, (0, 1)), argue(1, (0, 1)))       # moment 1: seat 1 acts first
    assert convinced(env, 8) and hand(env, 0) == before


def test_number_ban_iq_18_cannot_use_1s_or_2s():
    env = table(characters=["kangaroo", "otto_von"])
    arrange(env, hands={0: ["R6", "R6", "R3", "R3"], 1: ["B6", "B6", "B4", "B2"]}, nazis={0: 9, 1: 18})
    rec(env)["nasty"][nazi_id(18)] = 1
    E.refresh(rec(env))
    assert D.NASTY_BANNED[nazi_id(18)] == (1 << 1) | (1 << 2)
    assert argue(1, (0, 1, 2, 3)) in legal(env, 0)             # 6+6+3+3 = 18
    assert not any(argue(1, s) in legal(env, 1) for s in [(0, 1, 2, 3), (2, 3), (0, 3), (1, 3)])
    play(env, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 18)


def test_number_ban_with_a_1_or_2_fails_even_as_a_team():
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R6", "R6", "Y1", "B1"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 9, 1: 18})
    rec(env)["nasty"][nazi_id(18)] = 1
    E.refresh(rec(env))
    assert argue(1, (0, 1)) in legal(env, 0)          # 12, no banned number
    assert argue(1, (0, 1, 2)) not in legal(env, 1)    # 2-3-4 holds a 2
    assert argue(1, (1, 2)) in legal(env, 1)           # 3-4 is fine


# ---- Krapotke ------------------------------------------------------------------------------


def set_dice(env, values, statuses=None):
    r = rec(env)
    r["die_value"][:] = values
    r["die_status"][:] = statuses if statuses is not None else [E.DIE_BLOCKED if v == 6 else E.DIE_FREE
                                                                  for v in values]
    E.refresh(r)


def test_krapotke_pair_of_2s_is_4_and_straight_2_3_4_is_9():
    values = np.array([2, 2, 3, 4], np.int8)
    colours = np.arange(4, dtype=np.int8)
    assert E.rule_status(D.KRAPOTKE, colours, values, 0b0011) == 0                   # pair of 2s
    assert E.rule_status(D.KRAPOTKE, colours, values, 0b1101) == 0                   # 2-3-4
    assert E.rule_status(D.KRAPOTKE, colours, values, 0b1111) == 1                   # a pair AND a straight: no
    mask, value, talent = np.zeros(48, np.int64), np.zeros(48, np.int64), np.zeros(48, np.int64)
    n = E.seat_options(D.KRAPOTKE, 0, colours, values, values, np.ones(4, np.int8), 15, 0, mask, value, talent)
    found = {int(mask[i]): int(value[i]) for i in range(n)}
    assert found[0b0011] == 4 and found[0b1101] == 9
    env = table(characters=["krapotke", "kangaroo"])
    arrange(env, hands={1: ["R1", "R1", "Y2", "B3"]}, nazis={0: 6, 1: 9})
    set_dice(env, [2, 2, 3, 4])
    play(env, argue(1, (0, 2, 3)))                    # the straight 2-3-4 convinces IQ 9
    assert convinced(env, 9)
    assert list(rec(env)["die_status"]) == [E.DIE_USED, E.DIE_FREE, E.DIE_USED, E.DIE_USED]
    mask = legal(env, 0)
    assert argue(0, (0, 1)) not in mask, "used dice must be rolled again"
    assert roll(0) in mask and roll(1) in mask
    play(env, roll(0))
    assert rec(env)["die_status"][0] in (E.DIE_FREE, E.DIE_BLOCKED)


def test_krapotke_pair_joins_a_team():
    env = table(characters=["krapotke", "kangaroo"])
    arrange(env, hands={1: ["R1", "R1", "Y2", "B3"]}, nazis={0: 9, 1: 6})
    set_dice(env, [2, 2, 5, 1])
    play(env, argue(1, (0, 1)), argue(1, (0, 1)))     # pair of 2s (4) + red 1 + red 1 (2) = 6
    assert convinced(env, 6)


def test_a_team_mates_withdrawal_leaves_krapotkes_dice_in_the_pool():
    env = table(characters=["krapotke", "kangaroo"])
    arrange(env, hands={1: ["R1", "R2", "Y2", "B3"]}, nazis={0: 9, 1: 20})
    set_dice(env, [2, 2, 5, 1])
    play(env, argue(1, (0, 1)), argue(1, (0, 1)))     # pair of 2s (4) + red 1 + red 2 (3): 7 of 20
    play(env, E.A_WAIT, withdraw(1))                  # the Kangaroo takes her cards back
    r = rec(env)
    assert list(r["die_status"][:2]) == [E.DIE_POOLED, E.DIE_POOLED] and r["pool_fixed"][nazi_id(20)] == 4
    check_invariants(r)
    play(env, withdraw(1))
    assert list(rec(env)["die_status"][:2]) == [E.DIE_FREE, E.DIE_FREE]


def test_krapotke_sixes_are_blocked_until_all_dice_are_rolled():
    env = table(characters=["krapotke", "kangaroo"])
    set_dice(env, [6, 6, 3, 3])
    mask = legal(env, 0)
    assert roll(0) not in mask and roll(1) not in mask and roll(2) in mask and ROLL_ALL in mask
    assert not any(argue(s, (0, 1)) in mask for s in range(5))
    for _ in range(30):
        play(env, ROLL_ALL)
        r = rec(env)
        assert all((r["die_status"][k] == E.DIE_BLOCKED) == (r["die_value"][k] == 6) for k in range(4))
    assert E.rule_status(D.KRAPOTKE, np.arange(4, dtype=np.int8), np.array([3, 3, 3, 1], np.int8), 0b0111) == 0


def test_krapotke_dice_have_colours_for_colour_nazis():
    env = table(characters=["krapotke", "kangaroo"])
    arrange(env, hands={1: ["G1", "G1", "Y2", "B3"]}, nazis={0: 9, 1: 7})
    rec(env)["nasty"][nazi_id(7)] = 1          # two-colour: red and yellow only
    set_dice(env, [3, 4, 3, 4])                # red 3, yellow 4, green 3, blue 4
    mask = legal(env, 0)
    assert argue(1, (0, 1)) in mask            # red 3 + yellow 4 = 7
    assert argue(1, (2, 3)) not in mask        # green/blue dice


# ---- Maria -----------------------------------------------------------------------------------


def pair_with_digit(digit, taken=()):
    """Two Argument ids whose backs make ``digit``."""
    for a in range(D.NUM_ARGUMENTS):
        for b in range(a + 1, D.NUM_ARGUMENTS):
            if a in taken or b in taken:
                continue
            if D.PAIR_DIGITS[D.CARD_HALF[a], D.CARD_HALF[b]] >> digit & 1:
                return [a, b]
    raise ValueError(digit)


def test_maria_reads_digital_numbers_from_two_backs():
    half = {name: i for i, name in enumerate(D.HALF_NAMES)}
    assert D.PAIR_DIGITS[half["U8"], half["L6"]] >> 8 & 1          # upper and lower half of an 8
    assert D.PAIR_DIGITS[half["U8"], half["U8"]] >> 8 & 1          # head to head: the second turned round
    assert D.PAIR_DIGITS[half["U2"], half["L3"]] >> 3 & 1          # a 3
    assert not D.PAIR_DIGITS[half["U1"], half["L0"]]               # no digit at all
    three, eight = pair_with_digit(3), None
    eight = pair_with_digit(8, taken=three)
    env = table(characters=["maria", "kangaroo"])
    arrange(env, hands={0: three + eight}, nazis={0: 9, 1: 11})
    normal, _ = E.maria_readings(D.CARD_HALF[np.array(three + eight)].astype(np.int8),
                                 D.CARD_VALUE[np.array(three + eight)], 0b1111)
    assert normal >> 11 & 1, "3 + 8 = 11 from four backs"
    assert argue(1, (0, 1, 2, 3)) in legal(env, 0)
    play(env, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 11)


def test_maria_needs_two_backs_per_number():
    three = pair_with_digit(3)
    halves = D.CARD_HALF[np.array(three + three)].astype(np.int8)
    assert E.maria_readings(halves, D.CARD_VALUE[np.array(three + three)], 0b0001) == (0, 0)
    normal, talent = E.maria_readings(halves, D.CARD_VALUE[np.array(three + three)], 0b0111)
    assert normal == 0, "three cards make no digital number without her talent"


def test_maria_reading_stays_open_in_a_team_pool():
    """Maria's cards can read as several numbers (a 6 turned round is a 9): the pool keeps them all."""
    half = {name: i for i, name in enumerate(D.HALF_NAMES)}
    assert D.PAIR_DIGITS[half["U5"], half["U8"]] == (1 << 6) | (1 << 9)
    u5 = [c for c in range(D.NUM_ARGUMENTS) if D.HALF_NAMES[D.CARD_HALF[c]] == "U5"][0]
    u8 = [c for c in range(D.NUM_ARGUMENTS) if D.HALF_NAMES[D.CARD_HALF[c]] == "U8"][0]
    env = table(characters=["maria", "otto_von"])
    other = cards("R4", "Y4", "B1", "G6", taken=[u5, u8])
    arrange(env, hands={0: [u5, u8] + cards("R1", "Y1", taken=[u5, u8] + other), 1: other}, nazis={0: 9, 1: 17})
    play(env, argue(1, (0, 1)))
    assert rec(env)["pool_readings"][nazi_id(17)] == (1 << 6) | (1 << 9)
    play(env, E.A_WAIT, argue(1, (0, 1)))          # 4 + 4 = 8, and 9 + 8 = 17
    assert convinced(env, 17)


# ---- the other characters ----------------------------------------------------------------------


@pytest.mark.parametrize("kind,good,bad", [
    (D.FRIEDRICH_WILHELM, ["R1", "Y2", "G3"], ["R1", "R2"]),
    (D.OTTO_VON, ["R3", "Y3", "B3"], ["R3", "Y4"]),
    (D.GOD, ["R6", "B6"], ["R1", "R2", "R3"]),
    (D.HERTA, ["R1", "Y3", "B5"], ["R1", "R2"]),
    (D.KANGAROO, ["B1", "B2", "B6"], ["B1", "Y2"]),
    (D.KLEINKUENSTLER, ["R4", "Y5", "G6"], ["R4", "Y6"]),
])
def test_character_rules(kind, good, bad):
    assert status(kind, good) == 0
    assert status(kind, bad) != 0


def test_every_argumentation_needs_at_least_two_cards():
    for kind in range(D.NUM_CHARACTERS):
        if kind != D.MARIA:
            assert status(kind, ["R3"]) == 2
    assert all(bin(int(s)).count("1") >= 2 for s in E.SUBSETS)


@pytest.mark.parametrize("kind,needs_talent", [
    (D.KANGAROO, ["R1", "R2", "Y3"]), (D.KLEINKUENSTLER, ["R1", "Y2", "G4"]),
    (D.FRIEDRICH_WILHELM, ["R1", "R2", "Y3"]), (D.OTTO_VON, ["R2", "Y2", "G3"]),
    (D.GOD, ["R1", "R2", "R3"]), (D.HERTA, ["R1", "Y3", "G2"]), (D.KRAPOTKE, ["R1", "Y1", "G5"]),
])
def test_talents_allow_one_exception(kind, needs_talent):
    assert status(kind, needs_talent) == 1


def test_talent_is_used_by_an_argument_that_needs_it_and_refunded_on_withdraw():
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    r["nasty"][:] = 0
    arrange(env, hands={0: ["R1", "R2", "Y3", "B6"]}, nazis={0: 9, 1: 6})
    assert argue(1, (0, 1, 2)) not in legal(env, 0), "a mixed colour needs the talent"
    r["talent_ready"][0] = 1
    E.refresh(r)
    assert argue(1, (0, 1, 2)) in legal(env, 0)
    play(env, argue(1, (0, 1, 2)))
    assert convinced(env, 6)
    assert r["talent_ready"][0] == 0 and r["talent_spent"][0] == 1
    assert r["talent_len"][0] == 1, "a used talent space is covered again from a stack"
    # withdrawing a pool that used the talent gives it back
    arrange(env, hands={0: ["R1", "R2", "Y3", "B6"]}, nazis={0: 9, 1: 20})
    r["talent_ready"][0] = 1
    E.refresh(r)
    play(env, argue(1, (0, 1, 2)))
    assert r["talent_ready"][0] == 0 and r["contrib_talent"][nazi_id(20), 0] == 1
    play(env, withdraw(1))
    assert r["talent_ready"][0] == 1


# ---- Nazi types -----------------------------------------------------------------------------------


def test_one_colour_nazi_takes_only_its_colour():
    env = table(characters=["kangaroo", "otto_von"])
    arrange(env, hands={0: ["R1", "R5", "B1", "B5"], 1: ["R3", "Y3", "R2", "Y2"]}, nazis={0: 9, 1: 6})
    rec(env)["nasty"][nazi_id(6)] = 1            # IQ 6: red only
    E.refresh(rec(env))
    assert argue(1, (0, 1)) in legal(env, 0) and argue(1, (2, 3)) not in legal(env, 0)
    assert argue(1, (0, 1)) not in legal(env, 1)  # red 3 + yellow 3


def test_two_colour_nazi_takes_one_or_both_of_its_colours():
    env = table(characters=["friedrich_wilhelm", "otto_von"])
    arrange(env, hands={0: ["R1", "Y6", "B6", "G1"], 1: ["R3", "R4", "Y3", "B4"]}, nazis={0: 9, 1: 7})
    rec(env)["nasty"][nazi_id(7)] = 1            # IQ 7: red and yellow
    E.refresh(rec(env))
    mask = legal(env, 0)
    assert argue(1, (0, 1)) in mask              # red 1 + yellow 6
    assert argue(1, (0, 2)) not in mask          # blue is not accepted
    assert argue(1, (3, 1)) not in mask          # green neither


def aao_table():
    env = table(num_players=3, characters=["kangaroo", "kleinkuenstler", "otto_von"])
    arrange(env, hands={0: ["R6", "R4", "Y1", "B1"], 1: ["R1", "Y2", "G3", "B4"],
                        2: ["R2", "Y2", "G1", "B6"]}, nazis={0: 9, 1: 20})
    rec(env)["nasty"][nazi_id(20)] = 1               # all against one
    E.refresh(rec(env))
    return env


def test_all_against_one_is_convinced_by_all_three_together():
    env = aao_table()
    play(env, argue(1, (0, 1)), argue(1, (0, 1, 2)), argue(1, (0, 1)))   # 10 + 6 + 4 = 20
    assert convinced(env, 20)


def test_all_against_one_cannot_be_completed_without_every_seat():
    env = aao_table()
    play(env, argue(1, (0, 1)))                      # 10 laid
    mask = legal(env, 1)
    assert argue(1, (0, 1, 2, 3)) not in mask, "1-2-3-4 = 10 would complete it without Otto-Von"
    assert argue(1, (0, 1, 2)) in mask               # 6: leaves 4 for Otto-Von
    play(env, E.A_WAIT, argue(1, (0, 1, 2)))
    assert not convinced(env, 20)
    play(env, E.A_WAIT, E.A_WAIT, argue(1, (0, 1)))  # Otto-Von: 2 + 2
    assert convinced(env, 20)


def test_never_alone_forbids_solo_convincing():
    env = table(chapter=3, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "R3", "B3"], 1: ["R2", "Y3", "G1", "B6"]}, nazis={0: 12, 1: 6})
    assert argue(1, (0, 1)) not in legal(env, 0), "alone, 1 + 5 would fill the pool"
    arrange(env, hands={0: ["R1", "R5", "R3", "B3"], 1: ["R2", "Y3", "G1", "B6"]}, nazis={0: 12, 1: 9})
    assert argue(1, (0, 2)) in legal(env, 0)         # 1 + 3 = 4 only starts a pool
    play(env, argue(1, (0, 2)))
    play(env, E.A_WAIT, argue(1, (0, 1)))             # 2-3 = 5: 4 + 5 = 9 by two
    assert convinced(env, 9)


def test_never_alone_team_of_two():
    env = table(chapter=3, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R2", "Y2", "B3"], 1: ["R2", "Y4", "G1", "B5"]}, nazis={0: 9, 1: 6})
    play(env, argue(1, (0, 1)), argue(1, (0, 2)))       # red 1+2 = 3, and 1-2 straight = 3
    assert convinced(env, 6)


def test_no_sixes_chapter_bans_6s_from_arguing_but_not_from_the_bib():
    env = table(chapter=14, characters=["otto_von", "kangaroo"])
    r = rec(env)
    r["nasty"][:] = 0
    bib = cards("Y6")
    arrange(env, hands={0: cards("R6", "B6", "R3", "B3", taken=bib)}, bib=bib, nazis={0: 9, 1: 12})
    mask = legal(env, 0)
    assert argue(1, (0, 1)) not in mask
    assert E.A_BIB + 0 * E.NUM_ARG + bib[0] in mask


def test_razupaltuff_blocks_a_slot_and_never_argues():
    env = table(chapter=7, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    held = [int(c) for c in r["hand"][0]]
    assert D.RAZUPALTUFF[0] in held and D.RAZUPALTUFF[1] not in held, "2 players: one Razupaltuff"
    slot = held.index(D.RAZUPALTUFF[0])
    mask = legal(env, 0)
    for a in mask:
        if E.A_ARGUE <= a < E.A_WITHDRAW:
            assert not E.SUBSETS[(a - E.A_ARGUE) % E.NUM_SUBSETS] >> slot & 1
        if E.A_BIB <= a < E.A_EXPAND:
            assert (a - E.A_BIB) // E.NUM_ARG != slot
    env4 = table(num_players=4, chapter=7)
    held = [int(c) for c in rec(env4)["hand"].ravel()]
    assert D.RAZUPALTUFF[0] in held and D.RAZUPALTUFF[1] in held, "4-5 players: both"


@pytest.mark.parametrize("chapter", [1, 3, 5, 7, 8, 9, 11, 12, 14, 16, 18, 19])
def test_the_argue_mask_is_exactly_what_laying_accepts(chapter):
    """Over positions of random play: an argue action is in a seat's mask exactly when laying it
    (alone, now) would put the cards into the pool, for every seat that knows its cards."""
    from envs.testing.play import random_action

    from .helpers import table

    checked = 0
    for seed in range(3):
        env = table(num_players=3, chapter=chapter, seed=seed, freeze=False)
        r = rec(env)
        rng = np.random.default_rng(seed)
        observations = {a: env.observe(a) for a in env.agents}
        for _ in range(40):
            if not env.agents:
                break
            for seat in range(3):
                if E.is_busy(r, seat) or E.unknown_slots(r, seat):
                    continue
                for action in range(E.A_ARGUE, E.A_WITHDRAW):
                    slot, s = divmod(action - E.A_ARGUE, E.NUM_SUBSETS)
                    nazi = E.nazi_in_slot(r, slot)
                    if nazi < 0:
                        assert not r["mask"][seat, action]
                        continue
                    trial = np.array([r])
                    E._argue(trial[0], seat, slot, E.SUBSETS[s], (0, 0))  # (no card moved yet this step)
                    laid = trial[0]["pool_count"][nazi] > r["pool_count"][nazi]
                    assert laid == bool(r["mask"][seat, action]), (seat, action)
                    checked += 1
            observations, *_ = env.step({a: random_action(observations[a], rng) for a in env.agents})
    assert checked > 100
