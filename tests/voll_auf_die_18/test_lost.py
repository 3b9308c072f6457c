"""Lost positions ("You lose the chapter run [...] if you no longer have enough Arguments available
to convince the remaining Nazis"): each way the engine recognises, the moment it is certain, and
hard positions that are still winnable and must not be ended. The exact search behind them is
checked against brute force."""

import itertools

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import (WAIT, accept, argue, arrange, card, cards, nazi_id, offer, play, put_on_top, rec, table,
                      with_design)
from .test_search import oracle_values

EVERY_IQ = list(range(6, 24))


def everything_but(kept):
    """Every Argument id not in ``kept``: what a test discards to empty the stacks."""
    return [c for c in range(D.NUM_ARGUMENTS) if c not in set(kept)]


def stack_nazis(env, order):
    """The Nazi stack from the bottom up as IQs (its last entry is the face-up top)."""
    r = rec(env)
    r["nazi_stack"][:] = -1
    for i, iq in enumerate(order):
        r["nazi_stack"][i] = nazi_id(iq)
        r["nazi_at"][nazi_id(iq)] = E.NAZI_STACK
    r["nazi_stack_len"] = len(order)
    r["nazi_at"][nazi_id(order[-1])] = E.NAZI_FACE_UP
    E.refresh(r)


# ---- stuck: the emergency redraw is used and no Nazi can be convinced any more ------------------------


def stuck_table(depth_of_the_six):
    """Chapter 1, Kangaroo and Kleinkünstler with the emergency redraw used. The only team
    argument the hands and the Bib allow is the Kangaroo's red 1 + 5 = 6, and the Nazi 6 lies
    ``depth_of_the_six`` below the top of the Nazi stack; one space and the top are face up (IQ 23
    and 22), so the next two below the top still come face up before a fifth would."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "G1", "B1"], 1: ["R2", "Y2", "G2", "B2"]}, bib=["Y1"], nazis={1: 23})
    r = rec(env)
    rest = [iq for iq in EVERY_IQ if iq not in (23, 22, 6)]
    cut = len(rest) - (depth_of_the_six - 1)
    order = rest[:cut] + [6] + rest[cut:] + [22]
    stack_nazis(env, order)
    r["emergency_used"] = 1
    return env


def test_stuck_when_nothing_left_can_hit_a_nazi_that_still_comes_face_up():
    env = stuck_table(depth_of_the_six=3)   # the 6 would come face up as the fifth: too late
    assert E.lost_reason(rec(env)) == E.END_STUCK
    assert E.can_still_win(rec(env)), "the relaxation over every Argument left sees no problem"


def test_not_stuck_while_a_nazi_in_reach_still_comes_face_up():
    for depth in (1, 2):
        assert E.lost_reason(rec(stuck_table(depth))) == E.END_NONE


def test_not_stuck_while_the_emergency_redraw_is_unused():
    env = stuck_table(depth_of_the_six=3)
    rec(env)["emergency_used"] = 0
    assert E.lost_reason(rec(env)) == E.END_NONE, "the redraw brings new cards"


def test_where_the_arguments_run_out_the_unused_redraw_deals_no_stack_card():
    """The stuck table under "the Arguments run out": the redraw would send the hands into the
    stacks and deal nothing from them (new hands come from the Bib), so, unused, it keeps nothing
    open; the stacks reach a hand only through the Bib, once it can be expanded from them."""
    env = stuck_table(depth_of_the_six=3)
    r = rec(env)
    r["emergency_used"] = 0
    r["labels"] |= D.L_RUN_OUT
    assert E.lost_reason(r) == E.END_STUCK
    r["labels"] |= D.L_EXPANSION
    assert E.lost_reason(r) == E.END_NONE


def test_not_stuck_while_the_bib_can_be_expanded_from_the_stacks():
    env = stuck_table(depth_of_the_six=3)
    rec(env)["labels"] |= D.L_EXPANSION
    assert E.lost_reason(rec(env)) == E.END_NONE


def test_a_step_that_convinces_a_nazi_ends_a_chapter_it_leaves_stuck():
    """The emergency redraw is used. The Kangaroo convinces the 6 on top of the Nazi stack (red
    1 + 5) and draws a green and a blue 1 from the stacks: afterwards nothing the hands and the Bib
    hold reaches 20-23, the Nazis that lie or come face up, so the chapter ends in that step."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "G1", "B1"], 1: ["R2", "Y2", "G2", "B2"]}, bib=["Y1"], nazis={1: 23, 2: 22})
    stack_nazis(env, [iq for iq in EVERY_IQ if iq not in (6, 20, 21, 22, 23)] + [20, 21, 6])
    r = rec(env)
    r["emergency_used"] = 1
    for s, front in enumerate(("G1", "B1")):
        put_on_top(env, s, card(front, taken=[c for c in range(D.NUM_ARGUMENTS) if r["card_loc"][c] != E.LOC_STACK]))
    assert E.lost_reason(r) == E.END_NONE
    rewards = play(env, argue(0, (0, 1)))
    assert r["convinced"] == 1 and r["terminal"] and r["end_reason"] == E.END_STUCK
    assert rewards["player_1"] == -1.0


# ---- the stacks are empty: every Nazi left needs its own cards -------------------------------------------


def shared_table(second_five):
    """Chapter 1, stacks empty, only the Nazis 6, 7 and 11 left. The Kangaroo has red 1, 2, 5 (6 =
    1 + 5, 7 = 2 + 5) and the Kleinkünstler makes 11 (5-6). With one red 5 both Nazis need it."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    hands = {0: ["R1", "R5", "R2", "B6"], 1: ["Y6", "G6", second_five, "Y5"]}
    arrange(env, hands=hands)
    kept = [int(c) for c in rec(env)["hand"][:2].ravel()]
    arrange(env, hands={0: kept[:4], 1: kept[4:]}, discard=everything_but(kept), nazis={1: 6, 2: 7, 0: 11},
            convinced=[iq for iq in EVERY_IQ if iq not in (6, 7, 11)])
    return env


def test_lost_when_the_nazis_left_need_the_same_arguments():
    env = shared_table(second_five="B5")
    r = rec(env)
    assert E.can_still_win(r), "each Nazi alone is within reach"
    assert E.lost_reason(r) == E.END_CARDS_SHARED
    rewards = play(env, WAIT, argue(0, (1, 3)))       # the Kleinkünstler convinces 11 with 5-6: the check runs
    assert r["convinced"] == 16 and r["terminal"] and r["end_reason"] == E.END_CARDS_SHARED
    assert rewards["player_1"] == -1.0


def test_not_lost_when_the_nazis_left_can_share_out_the_arguments():
    env = shared_table(second_five="R5")             # 6 = 1 + 5, 7 = 2 + the other 5
    r = rec(env)
    assert E.lost_reason(r) == E.END_NONE
    play(env, argue(1, (0, 1)), argue(0, (0, 3)))     # red 1 + 5 = 6 and the straight 5-6 = 11
    assert r["convinced"] == 17 and not r["terminal"]
    play(env, WAIT, offer(1, 2))                      # the Kleinkünstler holds out the other red 5 ...
    play(env, accept(1, 3))                           # ... the Kangaroo takes it for the blue 6
    play(env, argue(2, (2, 3)))                       # red 2 + 5 = 7
    assert r["terminal"] and r["end_reason"] == E.END_WON


def test_lost_when_one_team_would_need_the_same_card_twice():
    """Nazi 23 alone: the Kangaroo's 5 + 6 (11) and the Kleinkünstler's 3-4-5 (12) make 23, and 5
    plus the straight 3-4-5-6 (18) too, but there is one 5 and one 4: every such team needs a card
    twice. The relaxation (any card to any character) misses it; the exact search does not."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R6", "R5", "Y1", "Y2"], 1: ["G3", "B4", "G1", "B1"]})
    kept = [int(c) for c in rec(env)["hand"][:2].ravel()]
    arrange(env, hands={0: kept[:4], 1: kept[4:]}, discard=everything_but(kept), nazis={0: 23},
            convinced=EVERY_IQ[:-1])
    r = rec(env)
    assert E.can_still_win(r)
    assert E.lost_reason(r) == E.END_NO_ARGUMENTS


def test_a_hard_but_winnable_endgame_is_not_ended():
    """Stacks empty, Nazis 20 and 21 left, ten cards: only one way through, 20 = red 6 + 4 with the
    straight 1-2-3-4 (10), 21 = blue 6 + 5 with 1-2-3-4 again (the two straights share no card)."""
    env = table(characters=["kangaroo", "kleinkuenstler"])
    hands = {0: ["R6", "R4", "B6", "B5"], 1: ["Y1", "Y2", "Y3", "G4"]}
    arrange(env, hands=hands, bib=["G1", "G2", "G3", "Y4"])
    kept = [int(c) for c in rec(env)["hand"][:2].ravel()] + [c for c in range(D.NUM_ARGUMENTS)
                                                             if rec(env)["card_loc"][c] == E.LOC_BIB]
    arrange(env, hands={0: kept[:4], 1: kept[4:8]}, bib=kept[8:], discard=everything_but(kept),
            nazis={1: 20, 0: 21}, convinced=EVERY_IQ[:-4] + [22, 23])
    assert E.lost_reason(rec(env)) == E.END_NONE


# ---- the Bib goal (chapters 2, 4, 11) ------------------------------------------------------------------


def bib_goal_table(tasks_in_the_stacks):
    """Chapter 2, every Nazi convinced but the 6 (the Kangaroo holds red 1 + 5), 7 cards in the Bib,
    and in the stacks only cards whose backs ask for a task (always doable)."""
    env = table(chapter=2, characters=["kangaroo", "kleinkuenstler"])
    tasks = [c for c in range(D.NUM_ARGUMENTS)
             if D.BACK_COND_KIND[D.CARD_BACK[c]] == D.COND_SOLO_TASK and D.CARD_VALUE[c] > 1]
    stacks = tasks[:tasks_in_the_stacks]
    bib = tasks[tasks_in_the_stacks:tasks_in_the_stacks + 7]
    hands = cards("R1", "R5", "G1", "B1", "Y1", "Y2", "G2", "B2", taken=stacks + bib)
    kept = stacks + bib + hands
    arrange(env, hands={0: hands[:4], 1: hands[4:]}, bib=bib, discard=everything_but(kept), nazis={1: 6},
            convinced=EVERY_IQ[1:])
    return env


def test_lost_when_every_nazi_is_convinced_but_the_bib_goal_is_out_of_reach():
    env = bib_goal_table(tasks_in_the_stacks=3)     # the Kangaroo draws 2 of them: 7 + 1 < 10
    r = rec(env)
    rewards = play(env, argue(1, (0, 1)))
    assert r["convinced"] == 18 and r["terminal"] and r["end_reason"] == E.END_BIB_GOAL
    assert rewards["player_0"] == -1.0


def test_not_lost_while_expansions_can_still_meet_the_bib_goal():
    env = bib_goal_table(tasks_in_the_stacks=3)     # 7 + 3 = 10: three solo tasks to go
    r = rec(env)
    r["nazi_at"][nazi_id(6)] = E.NAZI_CONVINCED     # (convinced without drawing from the stacks)
    r["convinced"] = 18
    r["space"][:] = -1
    play(env)
    assert not r["terminal"], "the question is asked every step now, and the answer is: not lost"
    for _ in range(3):
        top = [s for s in range(int(r["num_stacks"])) if r["stack_len"][s] > 0][0]
        play(env, E.A_EXPAND + top)
    assert r["terminal"] and r["end_reason"] == E.END_WON and r["bib_count"] == 10


def test_a_combo_counts_only_when_the_cards_in_play_hold_it():
    """A stack whose top asks for red, yellow, green and blue: expandable while hands and Bib hold
    the four colours, which lets the task card below it count too."""
    env = bib_goal_table(tasks_in_the_stacks=2)
    r = rec(env)
    combo = with_design(D.COND_COLOURS, "RYGB", taken=[c for c in range(D.NUM_ARGUMENTS)
                                                        if r["card_loc"][c] != E.LOC_DISCARD])
    r["card_loc"][combo] = E.LOC_STACK
    s = int(np.argmin(r["stack_len"][:2]))
    r["stack"][s, r["stack_len"][s]] = combo
    r["stack_len"][s] += 1
    r["nazi_at"][nazi_id(6)] = E.NAZI_CONVINCED
    r["convinced"] = 18
    r["space"][:] = -1
    r["emergency_used"] = 1                         # (the stacks' order is fixed)
    assert E.bib_goal_reachable(r), "R1 Y1 G1 B1 are in the hands: 7 + 3"
    for c in range(D.NUM_ARGUMENTS):
        if D.CARD_COLOUR[c] == 3 and r["card_loc"][c] in (E.LOC_HAND, E.LOC_BIB):
            r["card_loc"][c] = E.LOC_DISCARD
            r["hand"][r["hand"] == c] = -1
    assert not E.bib_goal_reachable(r), "no blue left: the combo on top blocks its stack"
    r["emergency_used"] = 0
    assert E.bib_goal_reachable(r), "the unused redraw reshuffles the stacks: the tasks may come to the top"


def tasks_only_table():
    """Chapter 2, every Nazi convinced, the stacks empty, 7 cards in the Bib and 8 in the hands,
    all with a task on the back (always doable)."""
    env = table(chapter=2, characters=["kangaroo", "kleinkuenstler"])
    tasks = [c for c in range(D.NUM_ARGUMENTS)
             if D.BACK_COND_KIND[D.CARD_BACK[c]] in (D.COND_SOLO_TASK, D.COND_GROUP_TASK)][:15]
    arrange(env, hands={0: tasks[:4], 1: tasks[4:8]}, bib=tasks[8:], discard=everything_but(tasks), nazis={},
            convinced=EVERY_IQ)
    return env


def test_where_the_arguments_run_out_the_redraw_brings_the_hands_within_reach_of_the_bib():
    """A Bib goal under "the Arguments run out" (chapter 19 may draw both): the unused redraw puts
    the hands' 8 cards into the stacks and deals none of them out again, and from there they can be
    expanded: 7 + 3 = 10, won. Where new hands come from the stacks it takes them out again: lost."""
    env = tasks_only_table()
    r = rec(env)
    assert not E.bib_goal_reachable(r), "7 in the Bib, nothing to expand"
    r["labels"] |= D.L_RUN_OUT
    E.refresh(r)
    assert E.bib_goal_reachable(r)
    play(env, E.A_EMERGENCY)
    assert not r["terminal"] and int(r["stack_len"].sum()) == 8 and (r["hand"] == -1).all()
    for _ in range(3):
        top = [s for s in range(int(r["num_stacks"])) if r["stack_len"][s] > 0][0]
        play(env, E.A_EXPAND + top, E.A_EXPAND + top)  # (a group task needs both)
    assert r["terminal"] and r["end_reason"] == E.END_WON and r["bib_count"] == 10


def test_the_talent_goal_counts_talent_spaces_only():
    """Chapter 6: the goal counts Bib cards from talent spaces, and the stacks may not be expanded.
    With every Nazi convinced each talent space can give one more card (it is covered again only
    when its talent is spent), and none while its talent waits to be used."""
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    tasks = [c for c in range(D.NUM_ARGUMENTS) if D.BACK_COND_KIND[D.CARD_BACK[c]] == D.COND_SOLO_TASK]
    arrange(env, hands={0: ["R1", "R5", "G1", "B1"], 1: ["Y1", "Y2", "G2", "B2"]}, talent={0: tasks[:1], 1: tasks[1:2]},
            nazis={}, convinced=EVERY_IQ)
    r = rec(env)
    r["bib_talent_count"] = 8
    assert E.bib_goal_reachable(r), "8 + one from each talent space"
    r["talent_ready"][0] = 1
    assert not E.bib_goal_reachable(r), "a talent that waits to be used blocks its space"
    r["talent_ready"][0] = 0
    r["bib_talent_count"] = 7
    assert not E.bib_goal_reachable(r)
    r["bib_count"] = 40
    assert not E.bib_goal_reachable(r), "the Bib's other cards do not count"


def talent_table(in_the_bib, emergency_used=True, stacks_empty=True):
    """Chapter 6, Kangaroo and Kleinkünstler, 16 Nazis convinced: ``in_the_bib`` Bib cards came from
    talent spaces, one card lies on each talent space, and the stacks are empty (every other
    Argument discarded) or not."""
    env = table(chapter=6, characters=["kangaroo", "kleinkuenstler"])
    tasks = [c for c in range(D.NUM_ARGUMENTS) if D.BACK_COND_KIND[D.CARD_BACK[c]] == D.COND_SOLO_TASK]
    talent = {0: tasks[:1], 1: tasks[1:2]}
    bib = tasks[2:2 + in_the_bib]
    held = cards("R1", "R5", "G1", "B1", "Y1", "Y2", "G2", "B2", taken=tasks[:2 + in_the_bib])
    hands = {0: held[:4], 1: held[4:]}
    kept = held + tasks[:2 + in_the_bib]
    arrange(env, hands=hands, talent=talent, bib=bib, discard=everything_but(kept) if stacks_empty else (),
            nazis={1: 23}, convinced=EVERY_IQ[:16])
    r = rec(env)
    r["from_talent"][bib] = 1
    r["bib_talent_count"] = in_the_bib
    r["emergency_used"] = int(emergency_used)
    return env


def test_chapter_6_is_lost_once_the_talent_cards_still_to_come_cannot_fill_the_bib():
    """7 in the Bib and one card on each of the two talent spaces, the stacks empty after the
    emergency redraw: no space can be covered again, 7 + 2 < 10, with two Nazis still to go."""
    env = talent_table(in_the_bib=7)
    r = rec(env)
    assert not E.talent_goal_reachable(r) and E.lost_reason(r) == E.END_BIB_GOAL
    rewards = play(env)
    assert r["terminal"] and r["end_reason"] == E.END_BIB_GOAL and r["convinced"] == 16
    assert rewards["player_0"] == -1.0


def test_chapter_6_goes_on_while_the_talent_cards_can_still_fill_the_bib():
    r = rec(talent_table(in_the_bib=8))          # 8 + 2 = 10: both spaces must still be expanded
    assert E.talent_goal_reachable(r) and E.lost_reason(r) != E.END_BIB_GOAL
    r = rec(talent_table(in_the_bib=7, emergency_used=False))  # the redraw can refill the stacks
    assert E.talent_goal_reachable(r), "two Nazis left x two seats: up to 4 covers to come"
    r = rec(talent_table(in_the_bib=5, stacks_empty=False))    # stacks to cover the spaces from
    assert E.talent_goal_reachable(r) and E.lost_reason(r) != E.END_BIB_GOAL


def test_the_talent_bound_is_asked_only_in_chapter_6():
    """The lost position above, without the chapter-6 goal on the chapter's labels: no bound."""
    r = rec(talent_table(in_the_bib=7))
    assert not E.talent_goal_reachable(r)
    r["labels"] &= ~D.L_BIB10_TALENT
    assert E.talent_goal_reachable(r)


# ---- the exact search against brute force ----------------------------------------------------------------


def brute_options(kind, relax, pool, allowed, banned):
    """{(frozenset of pool indices, value)} every argumentation of ``kind`` from ``pool`` (card ids)."""
    fit = [i for i in range(len(pool))
           if allowed >> int(D.CARD_COLOUR[pool[i]]) & 1 and not banned >> int(D.CARD_VALUE[pool[i]]) & 1]
    out = set()
    if kind == D.KRAPOTKE:  # dice of the allowed colours showing any of 1-5 not banned
        faces = [v for v in range(1, 6) if not banned >> v & 1]
        dice = [k for k in range(4) if allowed >> k & 1]
        for k in (2, 3, 4):
            for chosen in itertools.combinations(dice, k):
                for shown in itertools.product(faces, repeat=k):
                    out |= {(frozenset(), v) for v, _ in oracle_values(kind, relax, [(c, s, 0) for c, s in
                                                                                      zip(chosen, shown)])}
        return out
    for k in (2, 3, 4):
        for idx in itertools.combinations(fit, k):
            chosen = [(int(D.CARD_COLOUR[pool[i]]), int(D.CARD_VALUE[pool[i]]), int(D.CARD_HALF[pool[i]]))
                      for i in idx]
            out |= {(frozenset(idx), v) for v, _ in oracle_values(kind, relax, chosen)}
    return out


def brute_fit(kinds, relax, pool, nazis, min_team):
    per = [[brute_options(k, relax, pool, allowed, banned) for k in kinds] for _, allowed, banned, _ in nazis]

    def teams(j, used):
        iq, _, _, everyone = nazis[j]
        choices = [([] if everyone else [None]) + sorted(per[j][s], key=lambda o: (sorted(o[0]), o[1]))
                   for s in range(len(kinds))]
        for combo in itertools.product(*choices):
            chosen = [c for c in combo if c is not None]
            cards_used = [i for c in chosen for i in c[0]]
            if (sum(v for _, v in chosen) == iq and len(chosen) >= min_team and len(set(cards_used)) == len(cards_used)
                    and not set(cards_used) & used):
                if j == len(nazis) - 1 or teams(j + 1, used | set(cards_used)):
                    return True
        return False

    return teams(0, set())


nazi_st = st.tuples(st.integers(6, 23), st.sampled_from([15, 15, 1, 3, 12]), st.sampled_from([0, 0, 0b110, 1 << 6]),
                    st.booleans())


@settings(max_examples=80, deadline=None)
@given(kinds=st.lists(st.sampled_from(range(D.NUM_CHARACTERS)), min_size=2, max_size=3, unique=True),
       relax=st.booleans(), pool=st.lists(st.integers(0, D.NUM_ARGUMENTS - 1), min_size=0, max_size=7, unique=True),
       nazis=st.lists(nazi_st, min_size=1, max_size=2), min_team=st.sampled_from([1, 2]))
def test_teams_fit_matches_brute_force(kinds, relax, pool, nazis, min_team):
    seats = len(kinds)
    cards_in = np.array(pool + [0] * (D.NUM_ARGUMENTS - len(pool)), np.int64)
    opt_bits = np.empty(E.MAX_CARD_OPTIONS, np.int64)
    opt_value = np.empty(E.MAX_CARD_OPTIONS, np.int64)
    opt_start = np.zeros(len(nazis) * seats + 1, np.int64)
    end = 0
    for j, (_, allowed, banned, _) in enumerate(nazis):
        for s, kind in enumerate(kinds):
            start = end
            end = E.card_options(kind, relax, cards_in, len(pool), allowed, banned, opt_bits, opt_value, start)
            got = {(frozenset(i for i in range(len(pool)) if opt_bits[o] >> i & 1), int(opt_value[o]))
                   for o in range(start, end)}
            assert got == brute_options(kind, relax, pool, allowed, banned)
            E._sort_by_value(opt_bits, opt_value, start, end)
            opt_start[j * seats + s + 1] = end
    iqs = np.array([n[0] for n in nazis], np.int64)
    everyone = np.array([int(n[3]) for n in nazis], np.int64)
    found = E.teams_fit(iqs, everyone, min_team, seats, opt_start, opt_bits, opt_value, 10**7)
    assert found == int(brute_fit(kinds, relax, pool, nazis, min_team))
