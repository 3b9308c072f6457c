"""Hidden information: a seat's observation, mask and hints do not change when only what it cannot
see changes (other hands under communication="none", its own fronts in Blind Trust, the stacks'
order, the app's timing), and do change when it can see it."""

import numpy as np

from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .helpers import check_invariants, offer, play, rec, table


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
