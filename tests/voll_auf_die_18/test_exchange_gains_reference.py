"""The exchange hints (``engine.exchange_gains``) against the computation they replaced: one
candidate exchange per legal offer/accept/Bib action, every candidate scored by a full
``exchange_scores`` (an argument search per face-up Nazi) and the gains read off the scores. The
engine reuses the searches (each seat's subset readings once, a candidate only recomputes the seats
it changes and only the Nazis whose options it changes); its blocks must stay identical on many
positions of random play at 2-5 players."""

import numpy as np
import pytest

from envs.core.vector import VectorGame
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E


def face_up_rows(r, num):
    """The face-up Nazis as ``exchange_scores`` takes them: IQ, allowed colours, banned values, all
    against one, pool sum, Maria's readings, then one "already laid here" flag per seat."""
    rows = []
    for slot in range(E.NUM_SLOTS):
        nazi = E.nazi_in_slot(r, slot)
        if nazi >= 0:
            allowed, banned, everyone = E.nazi_rules(r, nazi)
            rows.append([E.NAZI_IQ[nazi], allowed, banned, everyone, r["pool_fixed"][nazi], r["pool_readings"][nazi],
                         *r["contrib"][nazi, :num]])
    return np.array(rows, np.int64).reshape(len(rows), 6 + num)


def face_up(r):
    """The Nazis in the hint slots (the stack's top and the spaces)."""
    return [E.nazi_in_slot(r, slot) for slot in range(E.NUM_SLOTS) if E.nazi_in_slot(r, slot) >= 0]


def reference_exchange_gains(r, viewer):
    """The blocks as the first ``exchange_gains`` computed them (plain Python around the jitted
    ``exchange_scores``): (offer gains, accept gains, Bib gains), each candidate scored in full."""
    n = (E.MAX_PLAYERS - 1) * E.HAND
    offers, accepts, bib = np.zeros(n), np.zeros(n), np.zeros(E.HAND * E.NUM_ARG)
    if r["terminal"]:
        return offers, accepts, bib
    num = int(r["num_players"])
    nazis = face_up_rows(r, num)
    if nazis.shape[0] == 0:
        return offers, accepts, bib
    cards = np.zeros((4, num, 4), np.int8)
    for seat in range(num):
        E._seat_cards(r, seat, viewer, cards[0, seat], cards[1, seat], cards[2, seat], cards[3, seat])
    colours, values, halves, usable = cards
    mask = r["mask"][viewer]
    changes, targets = [[-1] * 10], [-1]  # row 0: no exchange
    for rel in range(1, num):
        other = (viewer + rel) % num
        mine = [[int(colours[viewer, i]), int(values[viewer, i]), int(halves[viewer, i])] for i in range(E.HAND)]
        for i in range(E.HAND):
            a = E.A_OFFER + (rel - 1) * E.HAND + i
            if mask[a] and usable[viewer, i]:
                for j in range(E.HAND):
                    if usable[other, j]:
                        theirs = [int(colours[other, j]), int(values[other, j]), int(halves[other, j])]
                        changes.append([viewer, i, *theirs, other, j, *mine[i]])
                        targets.append(a)
        offered = int(r["offer_card"][other])
        if r["offer_to"][other] == viewer and 0 <= offered < E.NUM_ARG:
            for j in range(E.HAND):
                if r["hand"][other, j] == offered:
                    row = [int(E.CARD_COLOUR[offered]), int(E.CARD_VALUE[offered]), int(E.CARD_HALF[offered])]
                    for i in range(E.HAND):
                        a = E.A_ACCEPT + (rel - 1) * E.HAND + i
                        if mask[a] and usable[viewer, i]:
                            changes.append([viewer, i, *row, other, j, *mine[i]])
                            targets.append(a)
    halves_matter = any(r["character"][seat] == D.MARIA for seat in range(num))
    bib_key = {}
    for i in range(E.HAND):
        keyed = {}
        for card in range(E.NUM_ARG):
            a = E.A_BIB + i * E.NUM_ARG + card
            if not mask[a]:
                continue
            key = (E.CARD_COLOUR[card], E.CARD_VALUE[card], E.CARD_HALF[card] if halves_matter else 0)
            if key not in keyed:
                changes.append([viewer, i, int(E.CARD_COLOUR[card]), int(E.CARD_VALUE[card]), int(E.CARD_HALF[card]),
                                -1, -1, -1, -1, -1])
                targets.append(a)
                keyed[key] = len(changes) - 1
            bib_key[i * E.NUM_ARG + card] = keyed[key]
    if len(changes) == 1:
        return offers, accepts, bib
    scores = np.zeros(len(changes))
    E.exchange_scores(r["character"][:num].astype(np.int8), r["talent_ready"][:num].astype(np.int8), colours, values,
                      halves, usable, nazis, np.ones(nazis.shape[0]), E.min_team(r), np.array(changes, np.int64), scores)
    seen = set()
    for k in range(1, len(changes)):
        gain = (scores[k] - scores[0]) / E.NUM_SLOTS
        a = targets[k]
        if a < E.A_ACCEPT:  # an offer: the best of the team-mate's cards it may get back
            o = a - E.A_OFFER
            offers[o] = gain if o not in seen else max(offers[o], gain)
            seen.add(o)
        elif a < E.A_BIB:
            accepts[a - E.A_ACCEPT] = gain
    for b, k in bib_key.items():
        bib[b] = (scores[k] - scores[0]) / E.NUM_SLOTS
    return offers, accepts, bib


def random_positions(num_players, chapter, communication, seed, games=12, rounds=8, steps=6):
    """Records of random play: ``games`` games, looked at every ``steps`` joint steps for ``rounds``
    rounds (the live ones), over the chapter's rules and group size."""
    vg = VectorGame("voll_auf_die_18_v0", games, seed=seed, num_players=num_players, chapter=chapter,
                    communication=communication)
    vg.reset()
    for _ in range(rounds):
        vg.random_steps(steps)
        states = vg.get_state()
        for g in range(games):
            if not states[g]["terminal"]:
                yield states[g : g + 1]


# (players, chapter, communication, seed): plain Nazis, Blind Trust (10), hidden hands, random
# chapters (19), and the super nasty sides, All Against One (7, 8, 14) among them
CASES = [(2, 1, "full", 1), (2, 10, "none", 2), (3, 5, "full", 3), (3, 17, "none", 4), (4, 2, "full", 5),
         (4, 19, "full", 6), (5, 3, "full", 7), (5, 12, "none", 8), (2, 7, "full", 9), (3, 8, "full", 10),
         (4, 7, "none", 11), (5, 14, "full", 12)]


def test_the_blocks_equal_the_full_search_of_every_candidate():
    """Every seat of every position of every case; then that the positions reached every kind of
    gain (offers, accepts, Bib swaps, losses, Maria's and Krapotke's tables, All Against One
    Nazis), so none went untested."""
    n = (E.MAX_PLAYERS - 1) * E.HAND
    got = [np.zeros(n), np.zeros(n), np.zeros(E.HAND * E.NUM_ARG)]
    seen = dict.fromkeys(("views", "offer", "accept", "bib", "negative", "maria", "krapotke", "everyone"), 0)
    for case in CASES:
        num_players = case[0]
        for states in random_positions(*case):
            r = states[0]
            characters = r["character"][:num_players]
            for seat in range(num_players):
                expected = reference_exchange_gains(r, seat)
                E.exchange_gains(r, seat, *got)
                for name, want, have in zip(("offer", "accept", "bib"), expected, got, strict=True):
                    assert np.array_equal(want, have), (case, seat, name, np.flatnonzero(want != have))
                    seen[name] += int(want.any())
                some = any(block.any() for block in expected)
                seen["views"] += 1
                seen["negative"] += int(any((block < 0).any() for block in expected))
                seen["maria"] += int(some and (characters == D.MARIA).any())
                seen["krapotke"] += int(some and (characters == D.KRAPOTKE).any())
                seen["everyone"] += int(some and any(E.nazi_rules(r, nazi)[2] for nazi in face_up(r)))
    assert all(seen.values()), f"kinds of positions compared: {seen}"
