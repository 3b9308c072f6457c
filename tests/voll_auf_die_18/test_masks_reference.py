"""The cached legal masks (``refresh`` writes every seat's mask into the record once a step) against
a plain per-seat recomputation of the rules, at every step of a seeded game in every chapter and
group size: a change to how refresh saves work (incremental masks, shared tables) must change no
mask."""

import numpy as np
import pytest

from envs import voll_auf_die_18_v0
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

from .test_equivalence import _choose


def reference_mask(r, seat):
    """``seat``'s legal actions recomputed from the rules, one action kind after another, without
    any of refresh's shared tables."""
    num = int(r["num_players"])
    mask = np.zeros(E.NUM_ACTIONS, np.int8)
    if r["terminal"]:
        return mask
    mask[E.A_WAIT] = 1
    if E.is_busy(r, seat):
        return mask
    hand = r["hand"][seat]
    unknown = E.unknown_slots(r, seat)
    for slot in range(E.NUM_SLOTS):
        nazi = E.nazi_in_slot(r, slot)
        if nazi >= 0 and r["contrib"][nazi, seat]:
            mask[E.A_WITHDRAW + slot] = 1
    if E.has_hand(r, seat):
        for rel in range(1, num):
            other = (seat + rel) % num
            if not E.has_hand(r, other):
                continue
            offered = r["offer_card"][other]
            offered_to_me = (r["offer_to"][other] == seat and offered >= 0 and r["card_loc"][offered] == E.LOC_HAND
                             and r["card_seat"][offered] == other)
            for i in range(E.HAND):
                if hand[i] >= 0:
                    mask[E.A_OFFER + (rel - 1) * E.HAND + i] = 1
                    if offered_to_me:
                        mask[E.A_ACCEPT + (rel - 1) * E.HAND + i] = 1
        laid = sum(1 for c in range(E.NUM_ARG) if r["card_loc"][c] == E.LOC_POOL and r["card_seat"][c] == seat)
        owed = laid + int((hand >= 0).sum()) < E.HAND and E.may_draw_from_bib(r)
        bib = [c for c in range(E.NUM_ARG) if r["card_loc"][c] == E.LOC_BIB]
        for i in range(E.HAND):
            mine = int(hand[i])
            if mine >= E.NUM_ARG or (mine < 0 and not owed):
                continue
            for c in bib:
                if (mine < 0 or unknown >> i & 1 or E.CARD_COLOUR[c] == E.CARD_COLOUR[mine]
                        or E.CARD_VALUE[c] == E.CARD_VALUE[mine]):
                    mask[E.A_BIB + i * E.NUM_ARG + c] = 1
    E._fill_expand_mask(r, seat, mask, unknown)  # (untouched by refresh's tables)
    if r["character"][seat] == D.KRAPOTKE:
        for k in range(D.NUM_DICE):
            if r["die_status"][k] in (E.DIE_FREE, E.DIE_USED):
                mask[E.A_ROLL + k] = 1
        if (r["die_status"][:D.NUM_DICE] != E.DIE_POOLED).all():
            mask[E.A_ROLL_ALL] = 1
    if not r["emergency_used"]:
        mask[E.A_EMERGENCY] = 1
    for rel in range(1, num):
        if E.may_tell(r, (seat + rel) % num):
            mask[E.A_TELL + rel - 1] = 1
    _reference_argue(r, seat, mask, unknown)
    return mask


def _reference_argue(r, seat, mask, unknown):
    """Argue actions: per face-up Nazi and subset, the seat's readings that fit (or, with a card
    whose front she does not know, any 2-4 of her Arguments)."""
    colours, values, halves, usable = (np.zeros(4, np.int64) for _ in range(4))
    E._seat_cards(r, seat, -1, colours, values, halves, usable)
    present = sum(int(usable[i]) << i for i in range(4))
    normal, talent = np.zeros(E.NUM_SUBSETS, np.int64), np.zeros(E.NUM_SUBSETS, np.int64)
    character = int(r["character"][seat])
    E.subset_readings(character, colours, values, halves, present, normal, talent)
    arguments = sum(1 << i for i in range(E.HAND) if 0 <= r["hand"][seat, i] < E.NUM_ARG)
    for slot in range(E.NUM_SLOTS):
        nazi = E.nazi_in_slot(r, slot)
        if nazi < 0 or r["contrib"][nazi, seat]:
            continue
        allowed, banned, _ = E.nazi_rules(r, nazi)
        accepted = E.cards_accepted(colours, values, usable, allowed, banned)
        room = E.fitting_values(r, nazi, character == D.MARIA)
        for s in range(E.NUM_SUBSETS):
            subset = int(E.SUBSETS[s])
            readings = int(normal[s]) | (int(talent[s]) if r["talent_ready"][seat] else 0)
            if subset & unknown:
                legal = subset & arguments == subset
            else:
                legal = subset & accepted == subset and readings & room != 0
            if legal:
                mask[E.A_ARGUE + slot * E.NUM_SUBSETS + s] = 1


def configs():
    out = []
    for chapter in range(1, 20):
        for players in (2, 3, 4, 5):
            communication = "none" if (chapter + players) % 2 else "full"
            out.append(dict(num_players=players, chapter=chapter, communication=communication, timing="step",
                            seconds_per_step=2))
    return out


def _name(config):
    return f"ch{config['chapter']}-{config['num_players']}p-{config['communication']}"


@pytest.mark.parametrize("config", configs(), ids=_name)
def test_cached_masks_equal_a_plain_recomputation_at_every_step(config):
    env = voll_auf_die_18_v0.parallel_env(**config)
    seen = np.zeros(E.NUM_ACTIONS, np.int64)
    observations, infos = env.reset(seed=0)  # one game a configuration: 76 games, about a minute
    rng = np.random.default_rng(0)
    for _ in range(400):
        r = env._states[0]
        for seat in range(config["num_players"]):
            expected = reference_mask(r, seat)
            assert np.array_equal(r["mask"][seat], expected), (
                f"seat {seat} at moment {r['moment']}: refresh differs at actions "
                f"{np.flatnonzero(r['mask'][seat] != expected).tolist()}")
            seen += expected
        if not env.agents:
            break
        actions = {agent: _choose(rng, observations[agent]["action_mask"], infos[agent]["hints"])
                   for agent in env.agents}
        observations, _, _, _, infos = env.step(actions)
    # the games reached argue and Bib actions (else the comparison would prove little)
    assert seen[E.A_ARGUE:E.A_WITHDRAW].sum() > 0 and seen[E.A_BIB:E.A_EXPAND].sum() > 0
