"""Building scripted Volle Socke positions and naming actions, for the rule tests."""

import numpy as np

from envs.core import check_records
from envs.volle_socke import engine as E
from envs.volle_socke.data import COUNTS, NUM_KINDS, SPARE_0
from envs.volle_socke.env import GAME, raw_env


def make(num_players=4, seed=0, **config):
    env = raw_env(num_players=num_players, **config)
    env.reset(seed=seed)
    return env


# ---- actions by meaning ---------------------------------------------------------------------


def discard(kind):
    return E.DISCARD_BASE + kind


def fit(kind, role=None):
    """Fit ``kind`` onto the own bike; spare parts need a ``role``."""
    for f in range(E.NUM_FITS):
        if E.FIT_KIND[f] == kind and (role is None or E.FIT_ROLE[f] == role):
            return E.FIT_BASE + f
    raise ValueError((kind, role))


def move(kind, role):
    return E.MOVE_BASE + 3 * (kind - SPARE_0) + role


def remove(kind):
    return E.REMOVE_BASE + int(E.BIKE_INDEX[kind])


def slot(kind):
    return E.SLOT_BASE + int(E.BIKE_INDEX[kind])


def misery(kind, places_after):
    return E.MISERY_BASE + 7 * int(E.MISERY_INDEX[kind]) + places_after - 1


# ---- positions ------------------------------------------------------------------------------


def counts_of(cards):
    out = np.zeros(NUM_KINDS, np.int8)
    for kind in cards:
        out[kind] += 1
    return out


def contest_position(num_players=4, hands=None, bikes=None, turn=0, knocker=None, flat=(), out=(),
                     seed=0, check=True, **config):
    """An env in the contest, ``turn`` to play. ``hands[seat]`` lists kinds; ``bikes[seat]`` lists kinds
    or ``(spare kind, role)``; seats in ``out`` are out of the round (and have shown their hands).
    Every other card is in the draw pile, so the 110 cards are all accounted for; with ``check``
    the position must pass the engine's ``check_state`` (a game the rules can reach)."""
    env, rec = contest_record(num_players, hands, bikes, turn, knocker, flat, out, seed, **config)
    env.set_state(rec)
    if check:
        check_records(GAME, env.get_state())
    return env


def contest_record(num_players=4, hands=None, bikes=None, turn=0, knocker=None, flat=(), out=(), seed=0,
                   **config):
    """``(env, record)``: the position of :func:`contest_position` as a record not yet installed, for
    scenarios that change it further (another phase, fuller hands) before ``env.set_state``."""
    env = make(num_players, seed=seed, **config)
    rec = env.get_state()
    r = rec[0]
    r["hand"][:] = 0
    r["known"][:] = 0
    r["bike"][:] = 0
    r["spare_role"][:] = 0
    r["flat_tyre"][:] = 0
    used = np.zeros(NUM_KINDS, np.int64)
    for seat, cards in (hands or {}).items():
        r["hand"][seat] = counts_of(cards)
        used += counts_of(cards)
    for seat, cards in (bikes or {}).items():
        for card in cards:
            kind, role = card if isinstance(card, tuple) else (card, None)
            r["bike"][seat, kind] += 1
            used[kind] += 1
            if role is not None:
                r["spare_role"][kind - SPARE_0] = role
    for seat in flat:
        r["flat_tyre"][seat] = 1
    rest = COUNTS.astype(np.int64) - used
    assert (rest >= 0).all(), "more cards of a kind than the deck has"
    deck = np.repeat(np.arange(NUM_KINDS), rest).astype(np.int8)
    r["deck"][:] = 0
    r["deck"][: deck.size] = deck
    r["deck_size"] = deck.size
    r["discard_size"] = 0
    r["discard_public"][:] = 0
    r["discard_private"][:] = 0
    r["status"][:num_players] = E.IN_CONTEST
    for seat in out:
        r["status"][seat] = E.OUT
        r["known"][seat] = r["hand"][seat]
    r["final_owed"][:] = 0
    r["knocker"] = turn if knocker is None else knocker
    r["phase"] = E.PH_TURN
    r["turn_seat"] = turn
    r["current_player"] = turn
    r["pass_streak"] = 0
    return env, rec


def deal_from_deck(r, seat, size):
    """Move the top ``size`` cards of the draw pile into ``seat``'s hand (in the record ``r``), so a
    building-phase position has the full hands the deal gives."""
    top = int(r["deck_size"])
    for kind in r["deck"][top - size: top]:
        r["hand"][seat, kind] += 1
    r["deck"][top - size: top] = 0
    r["deck_size"] = top - size


def valid(env):
    """The env's record passes every check of ``envs.core.check_records`` (raises otherwise)."""
    check_records(GAME, env.get_state())
    return True


def record(env):
    """The live record of ``env`` (a view: changes reach the env)."""
    return env.unwrapped._states[0]


def kind_totals(rec):
    """Cards of each kind over draw pile, discard pile, hands, bikes and cards in play."""
    totals = np.zeros(NUM_KINDS, np.int64)
    np.add.at(totals, rec["deck"][: rec["deck_size"]], 1)
    np.add.at(totals, rec["discard"][: rec["discard_size"]], 1)
    totals += rec["hand"].sum(axis=0)
    totals += rec["bike"].sum(axis=0)
    for field in ("pending_misery", "pending_card"):
        if rec[field] >= 0:
            totals[rec[field]] += 1
    return totals


def legal(env):
    return set(env.legal_actions())


def give(rec, seat, kind):
    """Move a card of ``kind`` from the draw pile into ``seat``'s hand."""
    size = int(rec["deck_size"])
    i = int(np.flatnonzero(rec["deck"][:size] == kind)[0])
    rec["deck"][i], rec["deck"][size - 1] = rec["deck"][size - 1], rec["deck"][i]
    rec["deck_size"] = size - 1
    rec["hand"][seat, kind] += 1
