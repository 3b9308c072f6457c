"""The observation's exchange hints (``observe_hints``: ``hint_offer``, ``hint_accept``,
``hint_bib``): per legal exchange action of the observing seat, how many more face-up Nazis the team
can convince exactly after it (``engine.exchange_gains``, scored by the same ``exchange_scores`` the
heuristic trades with), over only the cards that seat knows, and all zero without the option."""

import numpy as np
import pytest

from agents.heuristic import voll_auf_die_18 as H
from envs.voll_auf_die_18 import engine as E

from .helpers import arrange, bib_swap, card, cards, legal, rec, table
from .test_hidden_info import exchange_fronts
from .test_observe_hints import hint_views, random_play

EXCHANGE_BLOCKS = ("hint_offer", "hint_accept", "hint_bib")


def swap_position(nazis=None, **options):
    """Kangaroo (2-4 of one colour) and Kleinkünstler (a straight) against a 20 on a space and a 22 on
    the stack: 2-3-4-5 (seat 1) makes 14, seat 0's reds R1 + R4 only 5; swapping R4 (slot 1) for the
    Bib's R5 makes R1 + R5 = 6: 20. R1 for R5 makes 9, and 9 + 12, 9 + 14 miss both."""
    env = table(characters=["kangaroo", "kleinkuenstler"], **options)
    hands = {0: cards("R1", "R4", "Y2", "B3"), 1: cards("R2", "Y3", "G4", "B5", taken=cards("R1", "R4", "Y2", "B3"))}
    taken = hands[0] + hands[1]
    r5, g6 = card("R5", taken), card("G6", taken)
    arrange(env, hands=hands, bib=[r5, g6], nazis=nazis or {0: 22, 1: 20})
    return env, r5


def test_the_one_swap_that_makes_a_nazi_convincible_scores_one_nazi_and_the_others_nothing():
    env, r5 = swap_position(observe_hints=True)
    views = hint_views(env, 0)
    swap = bib_swap(1, r5)
    assert swap in legal(env, 0) and bib_swap(0, r5) in legal(env, 0), "both reds may be swapped for R5"
    assert views["hint_bib"][swap - E.A_BIB] == pytest.approx(1 / E.NUM_SLOTS)
    others = np.delete(views["hint_bib"], swap - E.A_BIB)
    assert not others.any(), "R1 for R5 and every other action convince nobody more"
    assert not views["hint_accept"].any(), "nobody offers seat 0 a card"


def test_without_the_option_the_exchange_blocks_are_zero():
    env, _ = swap_position()
    for seat in range(2):
        views = hint_views(env, seat)
        assert not any(views[b].any() for b in EXCHANGE_BLOCKS)


def test_an_offer_scores_the_best_card_the_team_mate_can_give_back():
    """Seat 1 offers its B5 to seat 0: for R4 the reds make R1 + R5 = 6; but then the straight is
    2-3-4 (9) and 15 is no 20. Against a 15 instead: 6 + 9 = 15, one Nazi more."""
    env, _ = swap_position(observe_hints=True)
    arrange(env, hands={0: cards("R1", "R4", "Y2", "B3"),
                        1: cards("R2", "Y3", "G4", "R5", taken=cards("R1", "R4", "Y2", "B3"))}, nazis={1: 15})
    views = hint_views(env, 1)
    offer_r5 = E.A_OFFER + 0 * E.HAND + 3  # seat 1's slot 3 (R5) to player +1
    assert offer_r5 in legal(env, 1)
    assert views["hint_offer"][offer_r5 - E.A_OFFER] == pytest.approx(1 / E.NUM_SLOTS), "R5 for R4: 6 + 2-3-4 = 15"


def test_without_communication_the_exchange_blocks_ignore_the_hidden_hands():
    """Seat 0 alone: R1 + R5 = 6 after the swap; seat 1's fronts, unseen, may change freely."""
    for seed in range(3):
        env, r5 = swap_position({0: 22, 1: 6}, observe_hints=True, communication="none", seed=seed)
        before = hint_views(env, 0)
        assert before["hint_bib"][bib_swap(1, r5) - E.A_BIB] > 0, "seat 0's own cards make the swap worth it"
        assert exchange_fronts(env, 1) > 0
        after = hint_views(env, 0)
        assert all(np.array_equal(before[b], after[b]) for b in EXCHANGE_BLOCKS)


def heuristic_gains(views, seat, num, mask):
    """The same gains from the heuristic's decoded Table and the engine's exchange_scores (weight 1 a Nazi)."""
    t = H.Table(views, seat, num)
    offers, accepts, bib = (np.zeros(len(views[b])) for b in EXCHANGE_BLOCKS)
    if not len(t.nazis):
        return offers, accepts, bib
    candidates, targets = [[-1] * 10], [None]
    for i in range(4):
        for c in np.flatnonzero(mask[E.A_BIB + i * E.NUM_ARG: E.A_BIB + (i + 1) * E.NUM_ARG]):
            candidates.append([seat, i, E.CARD_COLOUR[c], E.CARD_VALUE[c], E.CARD_HALF[c]] + [-1] * 5)
            targets.append(("bib", i * E.NUM_ARG + c))
    for rel in range(1, num):
        who = (seat + rel) % num
        offer = H.HeuristicAgent.offer_to_me(views, rel)
        for i in range(4):
            mine = [t.colours[seat, i], t.values[seat, i], t.halves[seat, i]]
            a = (rel - 1) * E.HAND + i
            if not t.usable[seat, i]:
                continue
            if mask[E.A_OFFER + a]:
                for j in range(4):
                    if t.usable[who, j]:
                        candidates.append([seat, i, t.colours[who, j], t.values[who, j], t.halves[who, j], who, j] + mine)
                        targets.append(("offer", a))
            if mask[E.A_ACCEPT + a] and offer is not None:
                slot, colour, value, half = offer
                candidates.append([seat, i, colour, value, half, who, slot] + mine)
                targets.append(("accept", a))
    scores = np.zeros(len(candidates))
    E.exchange_scores(t.kinds, t.relax, t.colours.copy(), t.values.copy(), t.halves.copy(), t.usable.copy(), t.nazis,
                      np.ones(len(t.nazis)), t.min_team, np.array(candidates, np.int64), scores)
    out = {"offer": offers, "accept": accepts, "bib": bib}
    seen = set()
    for (kind, a), score in zip(targets[1:], scores[1:], strict=True):
        gain = (score - scores[0]) / E.NUM_SLOTS
        out[kind][a] = gain if (kind, a) not in seen else max(out[kind][a], gain)
        seen.add((kind, a))
    return offers, accepts, bib


@pytest.mark.parametrize("num_players,chapter", [(2, 1), (3, 5), (4, 2)])
def test_the_blocks_agree_with_the_heuristics_exchange_scores(num_players, chapter):
    """Positions from random play (timing "step": nobody busy, whom the Table leaves out)."""
    env = table(num_players=num_players, chapter=chapter, seed=chapter, freeze=False, observe_hints=True)
    rng = np.random.default_rng(chapter)
    compared = 0
    for _ in random_play(env, rng, 120):
        for seat, agent in enumerate(env.agents):
            observed = env.observe(agent)
            views = E.LAYOUT.views(observed["observation"])
            if views["busy"].any():
                continue
            expected = heuristic_gains(views, seat, num_players, observed["action_mask"])
            for name, gains in zip(EXCHANGE_BLOCKS, expected, strict=True):
                np.testing.assert_allclose(views[name], gains, atol=1e-6, err_msg=name)
            compared += int(views["hint_bib"].any() or views["hint_offer"].any())
    assert compared > 0, "some positions had an exchange that changes what the team can convince"


def test_the_exchange_writer_runs_the_same_as_plain_python():
    env, _ = swap_position(observe_hints=True)
    n = (E.MAX_PLAYERS - 1) * E.HAND
    jitted = [np.zeros(n), np.zeros(n), np.zeros(E.HAND * E.NUM_ARG)]
    plain = [np.zeros(n), np.zeros(n), np.zeros(E.HAND * E.NUM_ARG)]
    E.exchange_gains(rec(env), 0, *jitted)
    E.exchange_gains.py_func(rec(env), 0, *plain)
    assert plain[2].any() and all(np.array_equal(p, j) for p, j in zip(plain, jitted, strict=True))
