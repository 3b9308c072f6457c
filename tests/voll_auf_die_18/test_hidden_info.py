"""Hidden information: a seat's observation, mask and hints do not change when only what it cannot
see changes (other hands under communication="none", its own fronts in Blind Trust, the stacks'
order, the app's timing), and do change when it can see it."""

import numpy as np

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import (WAIT, accept, argue, arrange, bib_swap, check_invariants, legal, nazi_id, offer, play, rec, table,
                      tell)


def view(env, seat):
    agent = env.possible_agents[seat]
    o = env.observe(agent)
    info = env._infos()[agent]
    return o["observation"].copy(), o["action_mask"].copy(), info["hints"].copy(), info["ways"].copy()


def same_view(a, b):
    return all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))


def exchange_fronts(env, seat):
    """Swap each hand card of ``seat`` with a card below a stack's top that has the same back but
    another front: everything about the cards' backs stays, only the fronts change."""
    r = rec(env)
    changed = 0
    for i in range(4):
        mine = int(r["hand"][seat, i])
        if mine < 0 or mine >= D.NUM_ARGUMENTS:
            continue
        for s in range(int(r["num_stacks"])):
            for j in range(int(r["stack_len"][s]) - 1):  # never the top: its back is in view
                other = int(r["stack"][s, j])
                if D.CARD_BACK[other] == D.CARD_BACK[mine] and (D.CARD_COLOUR[other], D.CARD_VALUE[other]) != (
                        D.CARD_COLOUR[mine], D.CARD_VALUE[mine]):
                    r["hand"][seat, i], r["stack"][s, j] = other, mine
                    r["card_loc"][other], r["card_loc"][mine] = E.LOC_HAND, E.LOC_STACK
                    r["card_seat"][other], r["card_seat"][mine] = seat, -1
                    changed += 1
                    break
            else:
                continue
            break
    E.refresh(r)
    check_invariants(r)
    return changed


def test_communication_none_hides_other_hands():
    for seed in range(5):
        env = table(num_players=3, chapter=5, seed=seed, communication="none")
        before = [view(env, s) for s in (0, 2)]
        assert exchange_fronts(env, 1) > 0
        after = [view(env, s) for s in (0, 2)]
        assert all(same_view(b, a) for b, a in zip(before, after, strict=True))
        full = table(num_players=3, chapter=5, seed=seed)
        before = view(full, 0)
        exchange_fronts(full, 1)
        assert not np.array_equal(before[0], view(full, 0)[0]), "with full communication the change shows"


def test_own_fronts_are_seen_without_communication():
    env = table(num_players=2, chapter=1, seed=2, communication="none")
    before = view(env, 1)
    exchange_fronts(env, 1)
    assert not np.array_equal(before[0], view(env, 1)[0])


def test_blind_trust_hides_own_fronts_except_gods():
    env = table(num_players=3, chapter=10, seed=4)
    r = rec(env)
    assert r["character"][0] == D.GOD and r["character"][1] != D.GOD
    before_self, before_other = view(env, 1), view(env, 0)
    exchange_fronts(env, 1)
    assert same_view(before_self, view(env, 1)), "a seat does not see its own fronts in Blind Trust"
    assert not np.array_equal(before_other[0], view(env, 0)[0]), "the others do"
    before_god = view(env, 0)
    exchange_fronts(env, 0)
    assert not np.array_equal(before_god[0], view(env, 0)[0]), "God sees her own fronts"


def test_blind_trust_with_no_communication_still_shows_the_others_fronts():
    env = table(num_players=2, chapter=18, seed=1, communication="none")
    r = rec(env)
    blind = 1 if r["character"][0] == D.GOD else 0
    before = view(env, 1 - blind)
    exchange_fronts(env, blind)
    assert not np.array_equal(before[0], view(env, 1 - blind)[0]), "fronts face the others"


def test_playing_open_shows_every_hand_even_without_communication():
    env = table(num_players=2, chapter=4, seed=3, communication="none")
    before = view(env, 0)
    exchange_fronts(env, 1)
    assert not np.array_equal(before[0], view(env, 0)[0])


def test_stack_order_below_the_top_is_never_seen():
    for chapter in (1, 17):
        env = table(num_players=3, chapter=chapter, seed=chapter)
        r = rec(env)
        before = [view(env, s) for s in range(3)]
        rng = np.random.default_rng(0)
        for s in range(int(r["num_stacks"])):
            n = int(r["stack_len"][s])
            below = r["stack"][s, : n - 1].copy()
            rng.shuffle(below)
            r["stack"][s, : n - 1] = below
        E.refresh(r)
        assert all(same_view(b, view(env, s)) for s, b in enumerate(before))


def test_the_apps_timing_is_not_seen():
    env = table(num_players=2, chapter=9, seed=6)
    before = [view(env, s) for s in range(2)]
    r = rec(env)
    r["next_nazi"] = 40
    r["next_swap"] = 100
    assert all(same_view(b, view(env, s)) for s, b in enumerate(before))


def test_an_offered_card_is_shown_to_its_receiver():
    env = table(num_players=3, chapter=1, seed=8, communication="none")
    play(env, offer(1, 0))
    views = env.observation_layout.views(env.observe("player_1")["observation"])
    offered = int(rec(env)["offer_card"][0])
    colour, value = int(D.CARD_COLOUR[offered]), int(D.CARD_VALUE[offered])
    shown = views["offered_to_me"][2]  # seat 0 is 2 seats on from seat 1 (of 3)
    assert shown[3 + colour] == 1 and shown[7 + value - 1] == 1
    hidden = env.observation_layout.views(env.observe("player_2")["observation"])["offered_to_me"]
    assert not hidden.any(), "a third seat only sees that an offer was made"


# ---- who holds the fronts towards whom: Blind Trust, God and Maria ------------------------------------------


def fronts_seen(env, viewer, holder):
    """Which of ``holder``'s hand slots show their fronts in ``viewer``'s observation."""
    views = env.observation_layout.views(env.observe(env.possible_agents[viewer])["observation"])
    rel = (holder - viewer) % env.num_players
    return [bool(views["hands"][rel, i, 1] > 0.5) for i in range(4) if views["hands"][rel, i, 0] > 0.5]


def test_without_communication_gods_fronts_face_only_god_in_blind_trust():
    env = table(num_players=3, chapter=10, seed=2, communication="none")
    r = rec(env)
    god = int(np.flatnonzero(r["character"][:3] == D.GOD)[0])
    others = [s for s in range(3) if s != god]
    assert all(fronts_seen(env, god, god)), "God holds her cards so that she sees the fronts"
    assert not any(fronts_seen(env, others[0], god)), "... so the others see her backs"
    assert all(fronts_seen(env, god, others[0])) and not any(fronts_seen(env, others[0], others[0]))
    before = view(env, others[0])
    assert exchange_fronts(env, god) > 0
    assert same_view(before, view(env, others[0]))


def test_without_communication_maria_sees_her_backs_and_the_others_her_fronts():
    env = table(num_players=3, chapter=3, seed=2, communication="none")
    r = rec(env)
    maria = int(np.flatnonzero(r["character"][:3] == D.MARIA)[0])
    other = [s for s in range(3) if r["character"][s] not in (D.MARIA, D.KRAPOTKE)][0]
    assert not any(fronts_seen(env, maria, maria)), "Maria holds the cards the wrong way round"
    assert all(fronts_seen(env, other, maria))
    assert not any(fronts_seen(env, maria, other)), "no communication: the others' hands are hidden as usual"
    before = view(env, maria)
    assert exchange_fronts(env, maria) > 0
    assert same_view(before, view(env, maria)), "her own fronts are hidden from her"
    full = table(num_players=3, chapter=3, seed=2)
    assert all(fronts_seen(full, maria, maria)), "with full communication the others tell her"


def test_a_tell_shows_a_blind_seat_her_own_cards():
    env = table(num_players=2, chapter=10, seed=3, characters=["kangaroo", "kleinkuenstler"])
    r = rec(env)
    assert not any(fronts_seen(env, 0, 0)) and all(fronts_seen(env, 1, 0))
    assert tell(1) in legal(env, 1) and tell(1) in legal(env, 0)
    views = env.observation_layout.views(env.observe("player_1")["observation"])
    assert not views["holder_knows"][1].any(), "everyone sees that seat 0 does not know her cards"
    play(env, WAIT, tell(1))                         # seat 1 spends its moment telling seat 0
    assert all(fronts_seen(env, 0, 0)) and not any(fronts_seen(env, 1, 1))
    assert tell(1) not in legal(env, 1), "nothing left to tell her"
    views = env.observation_layout.views(env.observe("player_1")["observation"])
    assert views["holder_knows"][1].all() and not views["holder_knows"][0].any()
    assert r["clock"] == 3, "a tell takes the teller's moment like any action"


def test_a_card_drawn_later_is_unknown_to_its_blind_holder_again():
    env = table(num_players=2, chapter=10, seed=3, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 6})
    play(env, WAIT, tell(1))
    before = view(env, 0)
    play(env, argue(1, (0, 1)))                      # red 1 + 5: she draws two unknown cards
    assert fronts_seen(env, 0, 0) == [False, False, True, True]
    assert tell(1) in legal(env, 1)
    check_invariants(rec(env))
    assert not same_view(before, view(env, 0))


def test_a_blind_seats_mask_is_exact_for_the_cards_she_knows():
    """Told her red 1, red 5 and yellow 2, she may lay red 1 + 5 at the 6 but not red 1 + yellow 2
    (not one colour); a pair with her unknown fourth card she may always try (the rules are checked
    when it is laid), and its front stays hidden from her view and mask."""
    env = table(num_players=2, chapter=10, seed=3, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, nazis={0: 23, 1: 6})
    r = rec(env)
    r["hand_known"][0, :3] = 1
    E.refresh(r)
    mask = legal(env, 0)
    assert argue(1, (0, 1)) in mask and argue(1, (0, 2)) not in mask
    assert argue(1, (0, 3)) in mask and argue(1, (2, 3)) in mask
    before = view(env, 0)
    mine = int(r["hand"][0, 3])
    s_, j = [(s_, j) for s_ in range(2) for j in range(int(r["stack_len"][s_]) - 1)  # below the tops
              if D.CARD_BACK[r["stack"][s_, j]] == D.CARD_BACK[mine]
              and D.CARD_COLOUR[r["stack"][s_, j]] != D.CARD_COLOUR[mine]][0]
    other = int(r["stack"][s_, j])
    r["hand"][0, 3], r["stack"][s_, j] = other, mine
    r["card_loc"][other], r["card_loc"][mine] = E.LOC_HAND, E.LOC_STACK
    r["card_seat"][other], r["card_seat"][mine] = 0, -1
    E.refresh(r)
    assert same_view(before, view(env, 0))


def test_no_tell_without_communication_or_outside_blind_trust():
    for chapter, communication in ((10, "none"), (1, "full"), (3, "none")):
        env = table(num_players=3, chapter=chapter, seed=1, communication=communication)
        assert not any(tell(rel) in legal(env, s) for s in range(3) for rel in (1, 2))


def test_cards_taken_from_the_bib_an_offer_or_a_pool_are_known_to_a_blind_holder():
    env = table(num_players=2, chapter=10, seed=3, characters=["kangaroo", "kleinkuenstler"])
    arrange(env, hands={0: ["R1", "R5", "Y2", "B3"], 1: ["R2", "Y3", "G4", "B5"]}, bib=["R4"], nazis={0: 23, 1: 20})
    bib_card = [c for c in range(D.NUM_ARGUMENTS) if rec(env)["card_loc"][c] == E.LOC_BIB][0]
    play(env, bib_swap(0, bib_card))                 # red 1 for the open red 4
    assert fronts_seen(env, 0, 0) == [True, False, False, False]
    play(env, WAIT, offer(1, 0))                     # seat 1 holds out her red 2 (seat 1 is blind too)
    play(env, accept(1, 1))                          # seat 0 takes it for her red 5
    assert fronts_seen(env, 0, 0)[1], "an offered card's front is shown to its receiver"
    assert fronts_seen(env, 1, 1)[0], "and seat 1 saw the red 5 in seat 0's hand"
    play(env, argue(1, (2, 3)))                      # yellow 2 + blue 3: not a Kangaroo argument
    assert not rec(env)["contrib"][nazi_id(20), 0], "a blind try the rules do not allow has no effect"
