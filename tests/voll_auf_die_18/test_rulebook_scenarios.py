"""Rulebook scenarios for Voll auf die 18 (rulebook: shared/rulebooks/voll_auf_die_18.txt), written
from the rulebook's sentences and worked examples and played through the public Parallel API at the
game's DEFAULT configuration (timing="table", 2 players unless the scenario needs more, the
chapter's own characters), with a legal-mask check before every action.

Positions are laid out with the helpers of tests/voll_auf_die_18/helpers.py (``table`` with
``freeze``: no Nazi arrives unless the scenario asks for it)."""

import numpy as np

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import (EMERGENCY, WAIT, accept, argue, arrange, bib_swap, card, cards, check_invariants, expand, hand,
                      legal, nazi_id, offer, play, put_on_top, rec, table, with_design)
from .test_arguing import pair_with_digit, set_dice


# ---- scaffolding (not rules) -------------------------------------------------------------------


def default_table(**options):
    """A table at the game's defaults: the helpers' ``table`` plays timing="step" unless told, the
    game's default (and the hidden scenarios') is timing="table"."""
    options.setdefault("timing", "table")
    return table(**options)


def act(env, *joint):
    """One step, every non-wait action checked against its seat's legal mask first."""
    for seat, action in enumerate(joint):
        if action != WAIT:
            assert action in legal(env, seat), f"seat {seat}: {env.game.action_name(action, None)} is not legal"
    return play(env, *joint)


def settle(env, limit=20):
    """Wait (everyone) until no seat is busy with its last action any more."""
    for _ in range(limit):
        if all(len(legal(env, s)) > 1 for s in range(len(env.possible_agents))):
            return
        play(env)
    raise AssertionError("a seat stayed busy")


def convinced(env, iq):
    return rec(env)["nazi_at"][nazi_id(iq)] == E.NAZI_CONVINCED


def held(env, seat):
    return [c for c in hand(env, seat) if c >= 0]


def characters(env):
    r = rec(env)
    return [int(c) for c in r["character"][: int(r["num_players"])]]


# ---- setup ---------------------------------------------------------------------------------------


def test_setup_four_cards_two_stacks_all_18_nazis_and_the_first_achtung():
    """"Shuffle the 99 Arguments and split them into 2 roughly equal face-down Argument stacks." /
    "All 18 Nazis are always in play and together form the Nazi stack." / "Everyone now draws 4
    Arguments from the stacks into their hand." / "Whenever you hear an "Achtung!" ... (this
    includes the "Achtung!" directly at the start of the game), you must move the top Nazi card of
    the Nazi stack to a free space" / Chapter 1: "Use the normal side of your character boards.
    Turn all Nazis to their 08/15 side." """
    for seed in range(3):
        env = default_table(freeze=False, seed=seed)
        r = rec(env)
        assert [len(held(env, s)) for s in range(2)] == [4, 4]
        assert r["num_stacks"] == 2 and abs(int(r["stack_len"][0]) - int(r["stack_len"][1])) <= 1
        in_play = int(r["stack_len"].sum()) + 8 + int(r["bib_count"])
        assert in_play == 99 and (r["card_loc"][:99] == E.LOC_DISCARD).sum() == 0
        assert r["convinced"] == 0 and r["nazi_stack_len"] == 17
        assert (r["space"] >= 0).sum() == 1, "the first Achtung! moved one Nazi off the stack"
        assert E.face_up_count(r) == 2, "the moved Nazi and the new top of the stack lie face up"
        assert not r["nasty"].any(), "chapter 1: 08/15 sides only"
        assert r["talent_len"].sum() == 0 and not r["talent_ready"].any(), "normal side: no talents"
        assert characters(env) == [D.KANGAROO, D.KLEINKUENSTLER]
        check_invariants(r)


# ---- arguing: the rulebook's worked examples, at the defaults ------------------------------------


def test_kangaroo_example_1_and_5_of_one_colour_convince_iq_6_alone():
    """"The Kangaroo likes to argue coherently and needs Arguments of the same colour, whose values
    you may simply add up. (Example: Arguments with sum 6: a 1 and a 5 of the same colour; the
    Kangaroo could convince this Nazi alone if he were face up.)" and "immediately put the Nazi
    card and your used Arguments into one of the discard boxes ... After arguing, draw Arguments
    from the Argument stacks until you have 4 cards in hand again." """
    env = default_table()
    red1, red5 = cards("R1", "R5")
    arrange(env, hands={0: [red1, red5, "Y1", "B5"], 1: ["R2", "Y4", "G6", "B6"]}, nazis={0: 23, 1: 6})
    r = rec(env)
    stacked = int(r["stack_len"].sum())
    assert argue(1, (2, 3)) not in legal(env, 0), "yellow 1 + blue 5 is 6 too, but two colours"
    act(env, argue(1, (0, 1)))
    assert convinced(env, 6) and r["space"][0] == -1, "the Nazi card leaves the table"
    assert r["card_loc"][red1] == E.LOC_DISCARD and r["card_loc"][red5] == E.LOC_DISCARD
    assert len(held(env, 0)) == 4 and int(r["stack_len"].sum()) == stacked - 2, "drew 2 from the stacks"
    assert r["bib_count"] == 0, "nothing from the Bib while the stacks hold cards"
    assert not r["terminal"]


def test_kleinkuenstler_example_straight_2_3_4_5_convinces_iq_14_in_any_colours():
    """"The Kleinkünstler ... needs consecutive number values, from which he builds streets
    (straights). With him the colours of the Arguments do not matter. (Example: Arguments 2, 3, 4, 5
    = sum 14; the Kleinkünstler could convince this Nazi alone if he were face up.)" """
    env = default_table()
    arrange(env, hands={0: ["Y6", "B6", "G6", "R6"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 14})
    assert argue(1, (0, 1, 2, 3)) in legal(env, 1)
    act(env, WAIT, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 14) and len(held(env, 1)) == 4
    # a straight with a gap is no straight: 2, 3, 5 (10) at a 10; 1-2-3-4 is
    arrange(env, hands={1: ["R2", "Y3", "B5", "G1"]}, nazis={0: 23, 1: 10}, convinced=[14])
    settle(env)
    assert argue(1, (0, 1, 2)) not in legal(env, 1)
    assert argue(1, (0, 1, 3)) in legal(env, 1), "1-2-3 = 6 starts a pool"


def test_kangaroo_and_kleinkuenstler_example_6_plus_14_is_20():
    """"Should the Kangaroo and the Kleinkünstler want to argue together, in this example they reach
    an argumentation of strength 20 - they simply add the sums of their Arguments (6 + 14 = 20)." """
    env = default_table()
    k_cards, kk_cards = cards("R1", "R5"), cards("R2", "Y3", "G4", "B5")
    arrange(env, hands={0: k_cards + ["Y2", "Y5"], 1: kk_cards}, nazis={0: 9, 1: 20})
    assert argue(1, (0, 3)) not in legal(env, 0), ("red 1 + yellow 5 is 6 too: \"Do not forget: the individual "
                                                   "rules of your character must also be followed when arguing together.\"")
    act(env, argue(1, (0, 1)), argue(1, (0, 1, 2, 3)))
    r = rec(env)
    assert convinced(env, 20)
    assert all(r["card_loc"][c] == E.LOC_DISCARD for c in k_cards + kk_cards)
    assert [len(held(env, s)) for s in range(2)] == [4, 4], "both draw back up to 4"


def test_a_team_argument_laid_one_after_the_other_adds_up_to_20():
    """"If you argue together with several characters, simply add up the respective sums of your
    Arguments." (the Kangaroo's 6 lies first; the Kleinkünstler's 14 follows a moment later) """
    env = default_table()
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 9, 1: 20})
    act(env, argue(1, (0, 1)))
    assert not convinced(env, 20), "6 of 20"
    act(env, WAIT, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 20)


def test_the_sum_must_hit_the_iq_exactly():
    """"With the sum of your Arguments you must hit exactly the IQ of a face-up Nazi card in order to
    convince this person." (IQ 7: red 5 + red 3 = 8 overshoots, red 1 + red 5 = 6 falls short,
    red 5 + red 2 = 7 convinces) """
    env = default_table()
    arrange(env, hands={0: ["R1", "R5", "R3", "R2"], 1: ["Y6", "B6", "G6", "G5"]}, nazis={0: 23, 1: 7})
    mask = legal(env, 0)
    assert argue(1, (1, 2)) not in mask, "8 is not 7"
    act(env, argue(1, (0, 1)))
    assert not convinced(env, 7), "6 is not 7"
    settle(env)
    act(env, E.A_WITHDRAW + 1)
    settle(env)
    act(env, argue(1, (1, 3)))
    assert convinced(env, 7)


def test_the_nazi_on_top_of_the_stack_can_be_convinced_but_only_makes_the_stack_smaller():
    """"This can also be the person on the Nazi stack, but that "only" makes the stack smaller. It
    may not save you from a pressing situation in time." """
    env = default_table()
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, nazis={0: 6, 1: 9, 2: 20})
    r = rec(env)
    before = int(r["nazi_stack_len"])
    assert E.face_up_count(r) == 3
    act(env, argue(0, (0, 1)))
    assert convinced(env, 6)
    assert r["nazi_stack_len"] == before - 1, "the stack is smaller"
    assert [int(n) for n in r["space"]] == [nazi_id(9), nazi_id(20), -1, -1], "no space was freed"
    top = int(r["nazi_stack"][r["nazi_stack_len"] - 1])
    assert r["nazi_at"][top] == E.NAZI_FACE_UP and E.face_up_count(r) == 3, "the next Nazi lies face up on top"


def test_used_arguments_never_come_back_even_with_the_emergency_redraw():
    """"Important: Used Arguments are no longer available to you for the rest of the game" and the
    emergency rule: "shuffle all your hand cards back into the Argument stacks and then each draw 4
    new cards" (hand cards only: the used ones stay discarded) """
    env = default_table()
    used = cards("R1", "R5")
    arrange(env, hands={0: used + ["Y2", "B3"]}, nazis={0: 9, 1: 6})
    act(env, argue(1, (0, 1)))
    assert convinced(env, 6)
    act(env, WAIT, EMERGENCY)
    r = rec(env)
    assert r["emergency_used"] == 1
    assert all(r["card_loc"][c] == E.LOC_DISCARD for c in used)
    stacked = {int(c) for s in range(int(r["num_stacks"])) for c in r["stack"][s, : r["stack_len"][s]]}
    assert not stacked & set(used)
    assert [len(held(env, s)) for s in range(2)] == [4, 4]
    check_invariants(r)


def test_the_emergency_rule_is_once_per_chapter_and_everyone_takes_part():
    """"If you absolutely cannot get anywhere with your Arguments, you may once per chapter shuffle
    all your hand cards back into the Argument stacks and then each draw 4 new cards." /
    "Everyone must take part and exchange their cards!" """
    env = default_table(num_players=3)
    r = rec(env)
    before = [set(held(env, s)) for s in range(3)]
    act(env, WAIT, WAIT, EMERGENCY)
    after = [set(held(env, s)) for s in range(3)]
    assert all(len(a) == 4 for a in after)
    assert sum(len(a & b) for a, b in zip(before, after)) < 12, "new hands"
    settle(env, limit=40)
    assert all(EMERGENCY not in legal(env, s) for s in range(3)), "only once per chapter"
    check_invariants(r)


# ---- the simultaneous game ------------------------------------------------------------------------


def test_everyone_acts_at_the_same_time_without_a_turn_order():
    """"You all always play at the same time, and there is no turn order!" and "During the game you
    may perform the following actions in any order and as often as you want or can: ARGUE and
    SWAP." (the Kangaroo swaps with the Bib while the Kleinkünstler argues, in the same moment) """
    env = default_table()
    blue5 = card("B5")
    arrange(env, hands={0: ["B3", "Y1", "Y2", "G6"], 1: ["R2", "Y3", "G4", "B1"]}, bib=[blue5],
            nazis={0: 23, 1: 9})
    act(env, bib_swap(0, blue5), argue(1, (0, 1, 2)))
    assert hand(env, 0)[0] == blue5 and convinced(env, 9)


# ---- swapping ------------------------------------------------------------------------------------


def test_swapping_between_players_is_one_for_one_green_2_for_yellow_5():
    """"You must make sure, however, that you get back as many cards as you gave - swapping is
    always 1:1. After each swap, all involved must therefore again have 4 Arguments in hand. For
    example: you may swap a green 2 for a yellow 5 with someone else." """
    env = default_table()
    green2, yellow5 = cards("G2", "Y5")
    arrange(env, hands={0: [green2, "R1", "R2", "R3"], 1: [yellow5, "B1", "B2", "B3"]}, nazis={0: 9, 1: 23})
    act(env, offer(1, 0))
    settle(env)
    act(env, WAIT, accept(1, 0))
    assert hand(env, 0)[0] == yellow5 and hand(env, 1)[0] == green2
    assert [len(held(env, s)) for s in range(2)] == [4, 4]


def test_bib_swaps_only_same_number_or_same_colour():
    """"you may only swap equal numbers or equal colours with each other. ... For example: you may
    put a blue 3 into the Bib and take a blue 5 into your hand for it, or put down a blue 3 and take
    a red 3 for it." """
    env = default_table()
    blue3, blue5, red3, red5 = cards("B3", "B5", "R3", "R5")
    arrange(env, hands={0: [blue3, "Y1", "Y2", "G6"]}, bib=[blue5, red3, red5], nazis={0: 9, 1: 23})
    mask = legal(env, 0)
    assert bib_swap(0, blue5) in mask and bib_swap(0, red3) in mask and bib_swap(0, red5) not in mask
    act(env, bib_swap(0, red3))
    r = rec(env)
    assert hand(env, 0)[0] == red3 and r["card_loc"][blue3] == E.LOC_BIB and r["bib_count"] == 3
    assert len(held(env, 0)) == 4


# ---- the end -------------------------------------------------------------------------------------


def test_pushing_the_last_nazi_off_the_stack_shows_the_finale_and_four_face_up_do_not_lose():
    """"As soon as you have pushed the last Nazi off the stack and the Finale card thereby becomes
    visible, press the "Finale" button" and "You lose the chapter run - if at any time 5 Nazis
    (including the Nazi card on top of the stack) lie face up." (4 spaces and an empty stack: 4) """
    env = default_table()
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 6, 2: 7, 3: 8},
            convinced=[iq for iq in range(6, 24) if iq not in (6, 7, 8, 23)])
    r = rec(env)
    assert r["nazi_stack_len"] == 1
    r["next_nazi"] = r["clock"] + 1
    rewards = play(env)
    assert r["nazi_stack_len"] == 0 and (r["space"] >= 0).sum() == 4
    assert not r["terminal"] and rewards["player_0"] == 0.0, "4 Nazis face up, the Finale card is no Nazi"
    views = env.observation_layout.views(env.observe("player_0")["observation"])
    assert views["clock"][2] == 1.0, "the Finale card is visible"
    for _ in range(20):                     # 60 more seconds: no Achtung! can bring a fifth
        play(env)
    assert not r["terminal"] and (r["space"] >= 0).sum() == 4


def test_convincing_the_last_nazi_in_time_wins():
    """"The app now shows how much time you have left to convince all (yes, really all) remaining
    Nazis. If you manage it within the time, you have completed this chapter successfully." """
    env = default_table()
    arrange(env, hands={0: ["R1", "R5", "R6", "R4"], 1: ["R1", "Y2", "G3", "B4"]}, nazis={1: 6, 2: 20},
            convinced=[iq for iq in range(6, 24) if iq not in (6, 20)])
    rewards = act(env, argue(1, (0, 1)))
    r = rec(env)
    assert convinced(env, 6) and not r["terminal"] and rewards["player_0"] == 0.0, "the 20 is still there"
    settle(env)
    rewards = act(env, argue(2, (2, 3)), argue(2, (0, 1, 2, 3)))   # red 6 + 4 (10) and 1-2-3-4 (10)
    assert r["terminal"] and r["end_reason"] == E.END_WON
    assert rewards == {"player_0": 1.0, "player_1": 1.0}


# ---- chapter 2: expanding the Bib ----------------------------------------------------------------


def test_chapter_2_combo_cards_are_shown_not_discarded_and_the_bib_may_grow():
    """"Colour combos: One of you must have these 4 colours in hand and briefly show them to all
    people at the table - they do not have to be discarded." / "Any number of Arguments may lie in
    the Library." """
    env = default_table(chapter=2)
    shown = cards("R1", "Y1", "G2", "B2")
    arrange(env, hands={0: list(shown), 1: ["R1", "R2", "G3", "B3"]}, bib=cards("G6", "B6", "R6", "Y6", "Y5",
                                                                                   "B5", "R5", "G5", "G4", "B4",
                                                                                   taken=shown),
            nazis={0: 9, 1: 23})
    top = with_design(D.COND_COLOURS, "RYGB", env=env)
    put_on_top(env, 0, top)
    assert expand(0) in legal(env, 0) and expand(0) not in legal(env, 1)
    act(env, expand(0))
    r = rec(env)
    assert r["card_loc"][top] == E.LOC_BIB and r["bib_count"] == 11
    assert sorted(held(env, 0)) == sorted(shown)


# ---- chapter 3: Never alone, Krapotke and Maria ---------------------------------------------------


def test_chapter_3_never_alone_krapotkes_pair_of_2s_and_marias_3_make_7():
    """Chapter 3: "You may not convince any Nazi alone in this chapter! That means you must always
    argue at least in pairs." / Krapotke "can form either pairs or straights ... (Illustrated
    examples: a pair of 2s = 4; a straight 2-3-4 = 9.)" / Maria "may play single digital numbers
    (consisting of 2 cards)". """
    env = default_table(chapter=3)
    assert characters(env) == [D.KRAPOTKE, D.MARIA]
    three = pair_with_digit(3)
    arrange(env, hands={1: three + cards("R6", "B6", taken=three)}, nazis={0: 9, 1: 7})
    set_dice(env, [2, 2, 3, 4])
    mask = legal(env, 0)
    assert argue(0, (0, 2, 3)) not in mask, "2-3-4 = 9 would convince the 9 alone"
    assert argue(1, (0, 1)) in mask, "the pair of 2s (4) starts a pool at the 7"
    act(env, argue(1, (0, 1)), argue(1, (0, 1)))
    assert convinced(env, 7)
    assert rec(env)["hand"][0].max() == -1, "Krapotke receives no hand cards"


def test_chapter_3_krapotke_pairs_or_straights_not_both_and_blocked_sixes():
    """Chapter 3: Krapotke "can form either pairs or straights (not both at once)" / "Important:
    Dice showing a 6 may not be used by him, and he must immediately place them on his character
    board. These dice are blocked. To get them back, he must roll all his dice again." """
    env = default_table(chapter=3)
    arrange(env, nazis={0: 9, 1: 20})
    set_dice(env, [2, 2, 3, 4])
    mask = legal(env, 0)
    assert argue(1, (0, 1, 2, 3)) not in mask, "2-2-3-4: a pair and a straight at once"
    assert argue(1, (0, 2, 3)) in mask and argue(1, (0, 1)) in mask, "2-3-4 (9) or 2-2 (4) start a pool"
    set_dice(env, [6, 2, 2, 3])
    r = rec(env)
    assert r["die_status"][0] == E.DIE_BLOCKED
    mask = legal(env, 0)
    assert E.A_ROLL + 0 not in mask, "a blocked 6 is not rolled alone"
    assert not any(E.A_ARGUE <= a < E.A_WITHDRAW and E.SUBSETS[(a - E.A_ARGUE) % E.NUM_SUBSETS] & 1 for a in mask)
    assert E.A_ROLL_ALL in mask
    for _ in range(12):
        settle(env)
        act(env, E.A_ROLL_ALL)
        assert all((r["die_status"][k] == E.DIE_BLOCKED) == (r["die_value"][k] == 6) for k in range(4))


def test_chapter_3_maria_adds_two_digital_numbers_3_plus_8_and_krapotke_adds_2_3_4():
    """Chapter 3: Maria "may play single digital numbers (consisting of 2 cards) or add together 2
    digital numbers." and "A digital number must always be formed from 2 card backs." (3 + 8 = 11
    from four backs, with Krapotke's straight 2-3-4 = 9: 20; three backs make no argumentation) """
    env = default_table(chapter=3)
    three = pair_with_digit(3)
    eight = pair_with_digit(8, taken=three)
    arrange(env, hands={1: three + eight}, nazis={0: 9, 1: 20})
    set_dice(env, [2, 5, 3, 4])
    assert argue(1, (0, 1, 2)) not in legal(env, 1), "three backs"
    assert argue(1, (0, 1, 2, 3)) in legal(env, 1)
    act(env, argue(1, (0, 2, 3)), argue(1, (0, 1, 2, 3)))
    assert convinced(env, 20)


# ---- chapter 5: Two-Colour Nazis -----------------------------------------------------------------


def test_chapter_5_the_red_and_yellow_woman_convinced_by_friedrich_wilhelm_and_otto_von():
    """Chapter 5: "Two-Colour Nazis must be convinced with Arguments of matching colours. All
    rule-conforming combinations are allowed as long as they consist of one or both of the
    prescribed colours. This woman here, for example, accepts only yellow and red Arguments.
    Friedrich-Wilhelm and Otto-Von could therefore convince her" (our woman: IQ 7) """
    env = default_table(chapter=5)
    assert characters(env) == [D.FRIEDRICH_WILHELM, D.OTTO_VON]
    r = rec(env)
    assert r["nasty"][nazi_id(7)] == 1 and D.NASTY_COLOURS[nazi_id(7)] == 0b0011
    arrange(env, hands={0: ["R1", "Y2", "B1", "G1"], 1: ["R2", "Y2", "B2", "G2"]}, nazis={0: 23, 1: 7})
    assert argue(1, (0, 2)) not in legal(env, 0), "red 1 + blue 1: blue is not accepted"
    assert argue(1, (2, 3)) not in legal(env, 1), "blue 2 + green 2"
    act(env, argue(1, (0, 1)), argue(1, (0, 1)))        # red 1 + yellow 2 (3) and red 2 + yellow 2 (4)
    assert convinced(env, 7)


# ---- chapter 6: talents ---------------------------------------------------------------------------


def test_chapter_6_others_may_activate_your_talent_but_only_you_use_it():
    """Chapter 6: "By the way: you may also activate the talents of the others if you meet the
    requirements on the respective cards. However, you may only use your own talent, not that of
    another person." and "Your talent is now activated for exactly one use." """
    env = default_table(chapter=6)
    assert characters(env) == [D.HERTA, D.KANGAROO]
    solo = with_design(D.COND_SOLO_TASK)
    herta_space = cards("R4", "Y4", "B4", taken=[solo]) + [solo]          # the task card on top
    kangaroo_space = cards("G4", taken=herta_space)
    arrange(env, hands={0: ["R1", "Y3", "G2", "B5"], 1: ["R1", "R2", "Y3", "B6"]},
            talent={0: herta_space, 1: kangaroo_space}, nazis={0: 23, 1: 6})
    r = rec(env)
    assert argue(1, (0, 1, 2)) not in legal(env, 0), "1 + 3 + 2: odd and even, Herta needs her talent"
    assert argue(1, (0, 1, 2)) not in legal(env, 1), "red, red, yellow: the Kangaroo needs hers"
    act(env, WAIT, expand(("talent", 1)))                 # the Kangaroo activates Herta's talent
    assert r["card_loc"][solo] == E.LOC_BIB and r["talent_ready"][0] == 1 and r["talent_ready"][1] == 0
    settle(env)
    assert argue(1, (0, 1, 2)) not in legal(env, 1), "the Kangaroo cannot use Herta's talent"
    act(env, argue(1, (0, 1, 2)))
    assert convinced(env, 6) and r["talent_ready"][0] == 0, "exactly one use"


def test_chapter_6_a_used_talent_space_is_covered_again_from_a_stack():
    """Chapter 6: "Your talent is now activated for exactly one use. ... Once you have used it, you
    cover the talent space again with a face-down Argument from a stack. You can activate and use
    the talent again and again in the way just described." """
    env = default_table(chapter=6)
    solo = with_design(D.COND_SOLO_TASK)
    arrange(env, hands={0: ["R2", "Y4", "G6", "B6"], 1: ["R1", "R2", "Y3", "B5"]},
            talent={0: cards("R4", "Y4", "B4", "G4", taken=[solo]), 1: [solo]}, nazis={0: 23, 1: 6})
    r = rec(env)
    act(env, expand(("talent", 1)))                       # Herta activates the Kangaroo's talent
    assert r["talent_ready"][1] == 1 and r["talent_len"][1] == 0
    settle(env)
    stacked = int(r["stack_len"].sum())
    next_task = with_design(D.COND_SOLO_TASK, env=env)
    put_on_top(env, int(np.argmax(r["stack_len"][: r["num_stacks"]])), next_task)   # the fullest stack's top
    act(env, WAIT, argue(1, (0, 1, 2)))                   # red 1 + red 2 + yellow 3: one other colour
    assert convinced(env, 6)
    assert r["talent_ready"][1] == 0 and r["talent_len"][1] == 1, "covered again"
    assert int(r["talent"][1, 0]) == next_task and r["card_loc"][next_task] == E.LOC_TALENT
    assert int(r["stack_len"].sum()) == stacked - 1 - 3, "one cover and three drawn cards from the stacks"
    settle(env)
    act(env, WAIT, expand(("talent", 0)))                 # and again: the Kangaroo activates her own
    assert r["talent_ready"][1] == 1 and r["card_loc"][next_task] == E.LOC_BIB


def test_chapter_6_two_colour_nazi_takes_one_of_its_colours_alone():
    """Chapter 5/6: "Two-Colour Nazis must be convinced with Arguments of matching colours. All
    rule-conforming combinations are allowed as long as they consist of one or both of the
    prescribed colours." (the Kangaroo's red 2 + red 5 at the red-and-yellow 7) """
    env = default_table(chapter=6)
    assert rec(env)["nasty"][nazi_id(7)] == 1
    arrange(env, hands={1: ["R2", "R5", "B2", "B5"]}, nazis={0: 23, 1: 7})
    assert argue(1, (2, 3)) not in legal(env, 1), "blue 2 + blue 5"
    act(env, WAIT, argue(1, (0, 1)))
    assert convinced(env, 7)


# ---- chapter 7: All against one, Razupaltuff -----------------------------------------------------


def test_chapter_7_razupaltuff_blocks_a_slot_and_counts_towards_the_4_cards():
    """Chapter 7: "They exist simply to make your life even harder, because they block a card slot
    in your hand. ... never put them into the Bib! Razupaltuff is not an Argument!" / "you then all
    draw cards from the Argument stacks until you have 4 cards in hand - including the Razupaltuff
    cards." / "you may not convince any Nazi alone" """
    env = default_table(chapter=7)
    assert characters(env) == [D.KANGAROO, D.KLEINKUENSTLER]
    raz = D.RAZUPALTUFF[0]
    assert raz in hand(env, 0) and len(held(env, 0)) == 4, "setup: 4 cards including Razupaltuff"
    y5 = card("Y5")
    arrange(env, hands={0: [raz, "R1", "R2", "R3"], 1: ["Y1", "B2", "G6", "G6"]}, bib=[y5], nazis={0: 23, 1: 6})
    mask = legal(env, 0)
    assert bib_swap(0, y5) not in mask and not any(E.A_BIB <= a < E.A_BIB + E.NUM_ARG for a in mask)
    assert not any(E.A_ARGUE <= a < E.A_WITHDRAW and E.SUBSETS[(a - E.A_ARGUE) % E.NUM_SUBSETS] & 1 for a in mask)
    assert argue(1, (1, 2, 3)) not in mask, "red 1 + 2 + 3 = 6 alone: never alone"
    assert argue(1, (1, 2)) in mask, "red 1 + 2 = 3 only starts a pool"
    act(env, argue(1, (1, 2)), argue(1, (0, 1)))         # red 1 + 2 (3) and the straight 1-2 (3)
    assert convinced(env, 6)
    assert raz in hand(env, 0) and len(held(env, 0)) == 4, "drew 2: Razupaltuff and 3 Arguments"


def test_chapter_7_all_against_one_needs_everyone():
    """Chapter 7: "All-Against-One Nazis must ALWAYS be convinced by all of you together. This means
    that all of you must contribute rule-conforming argumentations." (3 players: 20 = 6 + 9 + 5) """
    env = default_table(chapter=7, num_players=3)
    assert characters(env) == [D.KANGAROO, D.KLEINKUENSTLER, D.KRAPOTKE]
    r = rec(env)
    assert r["nasty"][nazi_id(20)] == 1
    raz = D.RAZUPALTUFF[0]
    arrange(env, hands={0: [raz, "R1", "R5", "R4"], 1: ["Y2", "B3", "G4", "G5"]}, nazis={0: 9, 1: 20})
    set_dice(env, [1, 1, 2, 3])
    act(env, argue(1, (1, 2)))                           # the Kangaroo's red 1 + 5: 6
    settle(env)
    assert argue(1, (0, 1, 2, 3)) not in legal(env, 1), "2-3-4-5 (14) would make 20 without Krapotke"
    act(env, WAIT, argue(1, (1, 2, 3)))                  # 3-4-5 (12): 18 laid, 2 to go
    assert not convinced(env, 20)
    settle(env)
    assert argue(1, (0, 1)) in legal(env, 2)             # Krapotke's pair of 1s: 2
    act(env, WAIT, WAIT, argue(1, (0, 1)))
    assert convinced(env, 20)


# ---- chapter 8: Number-Ban and All-Against-One Nazis ------------------------------------------------


def test_chapter_8_number_ban_example_iq_18_without_1s_and_2s():
    """Chapter 8: "Example: To convince this Nazi (IQ 18, banned numbers 1 and 2), you need
    (individually or together) argumentations with the sum 18. You may not use cards with the
    values 1 or 2 to form this sum." """
    env = default_table(chapter=8)
    assert characters(env) == [D.KLEINKUENSTLER, D.KANGAROO]
    r = rec(env)
    assert r["nasty"][nazi_id(18)] == 1 and D.NASTY_BANNED[nazi_id(18)] == 0b110
    arrange(env, hands={0: ["B1", "R2", "Y3", "G4"], 1: ["B6", "B6", "R1", "R5"]}, nazis={0: 23, 1: 18})
    assert argue(1, (0, 1, 2)) not in legal(env, 0), "1-2-3 (6) with blue 6 + 6 would be 18: a 1 and a 2"
    assert argue(1, (2, 3)) in legal(env, 0), "3-4 (7) holds neither"
    assert argue(1, (2, 3)) not in legal(env, 1), "red 1 + red 5"
    arrange(env, hands={0: ["R3", "Y4", "G5", "Y6"], 1: ["B1", "B5", "R2", "R4"]}, nazis={0: 23, 1: 18})
    act(env, argue(1, (0, 1, 2, 3)))                   # 3-4-5-6 = 18
    assert convinced(env, 18)


def test_chapter_8_all_against_one_20_needs_both_players():
    """Chapter 8 turns "the All-Against-One Nazis with the values 20, 21, 22 and 23 to their super
    nasty side" and "All-Against-One Nazis must ALWAYS be convinced by all of you together." """
    env = default_table(chapter=8)
    arrange(env, hands={0: ["R3", "Y4", "Y5", "G6"], 1: ["B6", "B6", "B5", "B3"]}, nazis={0: 9, 1: 20})
    assert argue(1, (0, 1, 2, 3)) not in legal(env, 1), "blue 6 + 6 + 5 + 3 = 20 alone"
    act(env, argue(1, (2, 3)), argue(1, (0, 3)))        # 5-6 (11) and blue 6 + 3 (9)
    assert convinced(env, 20)


# ---- chapter 9: One-Colour Nazis -------------------------------------------------------------------


def test_chapter_9_one_colour_nazi_takes_only_its_colour():
    """Chapter 9: "One-Colour Nazis must be convinced with Arguments of matching colour. All
    rule-conforming combinations are allowed as long as they consist of the prescribed colour.
    (Illustrated examples: OKAY! - Arguments all of the one colour; NOT OKAY! - mixed colours.)"
    (our IQ 10: green) """
    env = default_table(chapter=9)
    assert characters(env) == [D.KANGAROO, D.KLEINKUENSTLER]
    assert rec(env)["nasty"][nazi_id(10)] == 1
    arrange(env, hands={0: ["Y4", "Y6", "R4", "R6"], 1: ["G1", "G2", "G3", "Y4"]}, nazis={0: 23, 1: 10})
    assert argue(1, (0, 1, 2, 3)) not in legal(env, 1), "1-2-3-4 = 10 but one yellow"
    assert argue(1, (0, 1)) not in legal(env, 0), "yellow 4 + 6 = 10: yellow"
    arrange(env, hands={0: ["Y4", "Y6", "R4", "R6"], 1: ["G1", "G2", "G3", "G4"]}, nazis={0: 23, 1: 10})
    act(env, WAIT, argue(1, (0, 1, 2, 3)))
    assert convinced(env, 10)


def test_chapter_12_nazis_keep_their_super_nasty_side_when_they_come_face_up():
    """"you must move the top Nazi card of the Nazi stack to a free space left, right, above or below
    the stack. Do not turn the Nazis over while doing so!" / Chapter 12: "Turn all Nazis to their
    super nasty side." """
    env = default_table(chapter=12, freeze=False, seed=4)
    r = rec(env)
    assert r["nasty"].all()
    arrivals = 0
    while not r["terminal"]:
        before = int(r["nazi_stack_len"])
        play(env)
        arrivals += int(r["nazi_stack_len"] < before)
        assert r["nasty"].all()
        views = env.observation_layout.views(env.observe("player_0")["observation"])
        assert (views["nazi_status"][:, 3] == 1).all(), "everyone sees the super nasty sides"
    assert arrivals == 3 and r["end_reason"] == E.END_FIVE_FACE_UP


# ---- chapter 14: no 6s ----------------------------------------------------------------------------


def test_chapter_14_sixes_not_for_arguing_but_for_swapping_and_expanding():
    """Chapter 14: "In this chapter you may not use 6 Arguments for arguing. They may however be used
    regularly for swapping (also with the Bib) or for expanding the Bib." """
    env = default_table(chapter=14)
    seat = [s for s, c in enumerate(characters(env)) if c != D.KRAPOTKE][0]
    r = rec(env)
    r["nasty"][:] = 0
    shown = cards("R6", "Y1", "G2", "B3")
    bib = cards("R5", taken=shown)
    arrange(env, hands={seat: list(shown)}, bib=bib, nazis={0: 23, 1: 9, 2: 11, 3: 12}, talent={0: [], 1: []})
    top = with_design(D.COND_COLOURS, "RYGB", env=env)
    put_on_top(env, 0, top)
    joint = [WAIT, WAIT]
    mask = legal(env, seat)
    assert not any(E.A_ARGUE <= a < E.A_WITHDRAW and E.SUBSETS[(a - E.A_ARGUE) % E.NUM_SUBSETS] & 1 for a in mask), \
        "no argumentation holds the red 6"
    assert bib_swap(0, bib[0]) in mask, "red 6 for red 5 with the Bib"
    joint[seat] = expand(0)
    act(env, *joint)
    assert r["card_loc"][top] == E.LOC_BIB, "red, yellow, green, blue shown: the red 6 counts"
    settle(env)
    joint[seat] = bib_swap(0, bib[0])
    act(env, *joint)
    assert hand(env, seat)[0] == bib[0] and r["card_loc"][shown[0]] == E.LOC_BIB


# ---- chapter 17: the Arguments run out --------------------------------------------------------------


def test_chapter_17_five_stacks_and_hand_cards_only_from_the_bib():
    """Chapter 17: "split them into 5 roughly equal face-down Argument stacks." / "In this chapter,
    when drawing your hand cards you may only take cards that are already in the Bib!!! If it is
    empty, you therefore cannot draw any hand cards. You may not draw from the Argument stacks!" """
    env = default_table(chapter=17)
    r = rec(env)
    assert r["num_stacks"] == 5 and r["stack_len"][:5].max() - r["stack_len"][:5].min() <= 1
    green4 = card("G4")
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"]}, bib=[green4], nazis={0: 9, 1: 6})
    stacked = int(r["stack_len"].sum())
    act(env, argue(1, (0, 1)))
    assert convinced(env, 6) and len(held(env, 0)) == 2 and int(r["stack_len"].sum()) == stacked
    settle(env)
    act(env, bib_swap(0, green4))
    assert green4 in hand(env, 0) and r["bib_count"] == 0
    settle(env)
    assert not any(E.A_BIB <= a < E.A_EXPAND for a in legal(env, 0)), "the Bib is empty: no hand cards"


def test_chapter_17_emergency_redraw_puts_the_hands_into_the_stacks_and_nobody_draws_from_them():
    """Chapter 17 ("You may not draw from the Argument stacks!") with the emergency rule ("shuffle
    all your hand cards back into the Argument stacks and then each draw 4 new cards"): the hands go
    into the stacks, and new hand cards can only come from the Bib."""
    env = default_table(chapter=17)
    r = rec(env)
    hands_before = {c for s in range(2) for c in held(env, s)}
    bib_before = {c for c in range(D.NUM_ARGUMENTS) if r["card_loc"][c] == E.LOC_BIB}
    stacked = int(r["stack_len"].sum())
    act(env, EMERGENCY)
    after = {c for s in range(2) for c in held(env, s)}
    assert after <= bib_before, "new hand cards may only come from the Bib"
    assert int(r["stack_len"].sum()) == stacked + len(hands_before), "the hands went into the stacks"
