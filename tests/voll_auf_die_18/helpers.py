"""Scripted positions for the Voll auf die 18 tests: build a table, lay out chosen cards and Nazis,
name actions, and check the record's invariants."""

import numpy as np

from envs import voll_auf_die_18_v0
from envs.voll_auf_die_18 import data as D
from envs.voll_auf_die_18 import engine as E

FAR = 30000  # a clock time that never comes: freezes new Nazis and seat swaps


def table(num_players=2, chapter=1, seed=0, freeze=True, **options):
    """A fresh Parallel env after reset; with ``freeze`` no Nazi arrives and nobody swaps places.
    Scripted rule tests take one action per seat per step: timing="step" unless given."""
    options.setdefault("timing", "step")
    env = voll_auf_die_18_v0.parallel_env(num_players=num_players, chapter=chapter, **options)
    env.reset(seed=seed)
    if freeze:
        rec(env)["next_nazi"] = FAR
        rec(env)["next_swap"] = FAR
    return env


def rec(env):
    """The game record (a view: writing to it changes the game)."""
    return env._states[0]


def card(front, taken=()):
    """The id of an Argument with ``front`` such as "B3" (blue 3), avoiding ids in ``taken``."""
    colour, value = D.COLOUR_LETTERS.index(front[0]), int(front[1])
    for c in range(D.NUM_ARGUMENTS):
        if D.CARD_COLOUR[c] == colour and D.CARD_VALUE[c] == value and c not in taken:
            return c
    raise ValueError(f"no more {front}")


def cards(*fronts, taken=()):
    """Distinct Argument ids for the fronts given (e.g. cards("R1", "R5"))."""
    chosen = list(taken)
    for front in fronts:
        chosen.append(card(front, chosen))
    return chosen[len(taken):]


def arrange(env, hands=None, bib=(), discard=(), nazis=None, convinced=(), talent=None):
    """Lay out a position: ``hands`` {seat: card ids} (Razupaltuff ids allowed), ``bib`` and
    ``discard`` card ids, ``talent`` {seat: card ids} (None: keep the talent spaces), ``nazis``
    {slot: IQ} (slot 0: the stack's top, 1..4: spaces; None: keep them) and ``convinced`` IQs.
    Every other Argument goes into the stacks; pools are emptied."""
    r = rec(env)
    num = int(r["num_players"])
    if talent is None:
        talent = {seat: [int(c) for c in r["talent"][seat, : r["talent_len"][seat]]] for seat in range(num)}
    hands, bib, discard = _resolve(hands or {}, list(bib), list(discard), talent)
    r["hand"][:] = -1
    r["hand_known"][:] = 0
    r["card_seat"][:] = -1
    r["card_nazi"][:] = -1
    r["card_loc"][:] = E.LOC_NONE
    r["from_talent"][:] = 0
    r["offer_to"][:] = -1
    r["offer_card"][:] = -1
    for name in ("pool_fixed", "pool_readings", "pool_count", "contrib", "contrib_value", "contrib_talent"):
        r[name][:] = 0
    r["die_nazi"][:] = -1
    r["die_status"][r["die_status"] == E.DIE_POOLED] = E.DIE_FREE
    placed = set()
    r["talent"][:] = -1
    r["talent_len"][:] = 0
    for seat, ids in talent.items():
        for i, c in enumerate(ids):
            r["talent"][seat, i] = c
            r["card_loc"][c] = E.LOC_TALENT
            r["card_seat"][c] = seat
            placed.add(c)
        r["talent_len"][seat] = len(ids)
    for seat, ids in hands.items():
        for i, c in enumerate(ids):
            assert c not in placed, f"card {c} used twice"
            r["hand"][seat, i] = c
            r["card_loc"][c] = E.LOC_HAND
            r["card_seat"][c] = seat
            placed.add(c)
    for c in bib:
        assert c not in placed
        r["card_loc"][c] = E.LOC_BIB
        placed.add(c)
    r["bib_count"] = len(bib)
    r["bib_talent_count"] = 0
    for c in discard:
        assert c not in placed
        r["card_loc"][c] = E.LOC_DISCARD
        placed.add(c)
    rest = [c for c in range(D.NUM_ARGUMENTS) if c not in placed]
    stacks = int(r["num_stacks"])
    r["stack"][:] = -1
    r["stack_len"][:] = 0
    for i, c in enumerate(rest):
        s = i % stacks
        r["stack"][s, r["stack_len"][s]] = c
        r["stack_len"][s] += 1
        r["card_loc"][c] = E.LOC_STACK
    if nazis is not None:
        place_nazis(env, nazis, convinced)
    E.refresh(r)


def _resolve(hands, bib, discard, talent):
    """Replace fronts like "R3" by distinct ids not named explicitly anywhere."""
    explicit = {c for ids in list(hands.values()) + [bib, discard] + list((talent or {}).values())
                for c in ids if not isinstance(c, str)}
    taken = set(explicit)

    def ids(items):
        out = []
        for item in items:
            if isinstance(item, str):
                item = card(item, taken)
                taken.add(item)
            out.append(int(item))
        return out

    return {seat: ids(h) for seat, h in hands.items()}, ids(bib), ids(discard)


def nazi_id(iq):
    return int(iq) - 6


def place_nazis(env, nazis, convinced=()):
    """Nazis {slot: IQ} face up, ``convinced`` IQs gone, the rest in the stack under slot 0's."""
    r = rec(env)
    top = nazis.get(0)
    r["space"][:] = -1
    for slot, iq in nazis.items():
        if slot > 0:
            r["space"][slot - 1] = nazi_id(iq)
            r["nazi_at"][nazi_id(iq)] = E.NAZI_FACE_UP
    for iq in convinced:
        r["nazi_at"][nazi_id(iq)] = E.NAZI_CONVINCED
    r["convinced"] = len(convinced)
    below = [nz for nz in range(D.NUM_NAZIS)
             if nz + 6 not in nazis.values() and nz + 6 not in convinced]
    stack = below + ([nazi_id(top)] if top is not None else [])
    r["nazi_stack"][:] = -1
    r["nazi_stack"][: len(stack)] = stack
    r["nazi_stack_len"] = len(stack)
    for nz in below:
        r["nazi_at"][nz] = E.NAZI_STACK
    if top is not None:
        r["nazi_at"][nazi_id(top)] = E.NAZI_FACE_UP
    elif below:
        r["nazi_at"][below[-1]] = E.NAZI_FACE_UP  # the stack's top always lies face up
    E.refresh(r)


# ---- actions -------------------------------------------------------------------------------

WAIT = E.A_WAIT


def argue(slot, members):
    """Lay hand slots (or dice) ``members`` (e.g. (0, 1)) at Nazi ``slot``."""
    subset = sum(1 << i for i in members)
    return E.A_ARGUE + slot * E.NUM_SUBSETS + list(E.SUBSETS).index(subset)


def withdraw(slot):
    return E.A_WITHDRAW + slot


def offer(rel, i):
    return E.A_OFFER + (rel - 1) * E.HAND + i


def accept(rel, i):
    return E.A_ACCEPT + (rel - 1) * E.HAND + i


def bib_swap(i, c):
    return E.A_BIB + i * E.NUM_ARG + c


def expand(target):
    """Expand from stack ``target`` (0..4) or, as ``("talent", rel)``, a talent space."""
    if isinstance(target, tuple):
        return E.A_EXPAND + D.RUN_OUT_STACKS + target[1]
    return E.A_EXPAND + target


def roll(k):
    return E.A_ROLL + k


ROLL_ALL = E.A_ROLL_ALL
EMERGENCY = E.A_EMERGENCY


def tell(rel):
    return E.A_TELL + rel - 1


def legal(env, seat):
    return set(np.flatnonzero(env.observe(env.possible_agents[seat])["action_mask"]).tolist())


def play(env, *joint):
    """Step once with one action per seat (others wait); returns the rewards dict."""
    actions = {agent: WAIT for agent in env.agents}
    for seat, action in enumerate(joint):
        actions[env.possible_agents[seat]] = action
    _, rewards, _, _, infos = env.step(actions)
    return rewards


def hand(env, seat):
    return [int(c) for c in rec(env)["hand"][seat]]


# ---- invariants ------------------------------------------------------------------------------


def check_invariants(r):
    """Everything that must hold in every reachable record."""
    num = int(r["num_players"])
    loc = r["card_loc"]
    seen = np.zeros(D.NUM_CARDS, int)
    for s in range(int(r["num_stacks"])):
        for c in r["stack"][s, : r["stack_len"][s]]:
            seen[c] += 1
            assert loc[c] == E.LOC_STACK
        assert (r["stack"][s, r["stack_len"][s]:] == -1).all()
    for seat in range(num):
        held = 0
        assert (r["hand_known"][seat][r["hand"][seat] < 0] == 0).all(), "an empty slot is known to nobody"
        for c in r["hand"][seat]:
            if c >= 0:
                seen[c] += 1
                held += 1
                assert loc[c] == E.LOC_HAND and r["card_seat"][c] == seat
        pending = int(((loc[: D.NUM_ARGUMENTS] == E.LOC_POOL) & (r["card_seat"][: D.NUM_ARGUMENTS] == seat)).sum())
        if r["character"][seat] == D.KRAPOTKE:
            assert held == 0 and pending == 0
        else:
            assert held + pending <= D.HAND_SIZE
        for c in r["talent"][seat, : r["talent_len"][seat]]:
            seen[c] += 1
            assert loc[c] == E.LOC_TALENT and r["card_seat"][c] == seat
    for c in range(D.NUM_ARGUMENTS):
        if loc[c] in (E.LOC_BIB, E.LOC_POOL, E.LOC_DISCARD):
            seen[c] += 1
    assert (seen[: D.NUM_ARGUMENTS] == 1).all(), "every Argument lies in exactly one place"
    assert seen[D.NUM_ARGUMENTS:].max() <= 1
    for c in D.RAZUPALTUFF:
        assert loc[c] in (E.LOC_NONE, E.LOC_HAND)
    assert r["bib_count"] == (loc[: D.NUM_ARGUMENTS] == E.LOC_BIB).sum()
    assert r["bib_talent_count"] == r["from_talent"][loc[: D.NUM_ARGUMENTS] == E.LOC_BIB].sum()
    # Nazis: 18, each in one place; the stack's top lies face up.
    stack = list(r["nazi_stack"][: r["nazi_stack_len"]])
    spaces = [int(n) for n in r["space"] if n >= 0]
    gone = [n for n in range(D.NUM_NAZIS) if r["nazi_at"][n] == E.NAZI_CONVINCED]
    assert sorted(stack + spaces + gone) == list(range(D.NUM_NAZIS))
    assert r["convinced"] == len(gone)
    for n in spaces:
        assert r["nazi_at"][n] == E.NAZI_FACE_UP
    for i, n in enumerate(stack):
        assert r["nazi_at"][n] == (E.NAZI_FACE_UP if i == len(stack) - 1 else E.NAZI_STACK)
    if not r["terminal"]:
        assert len(spaces) + (1 if stack else 0) < D.LOSE_FACE_UP
        assert r["clock"] < D.CHAPTER_SECONDS
    # Pools: what lies there adds up, only at face-up Nazis.
    for n in range(D.NUM_NAZIS):
        members = int(r["contrib"][n, :num].sum())
        assert r["pool_count"][n] == members
        laid = [c for c in range(D.NUM_ARGUMENTS) if loc[c] == E.LOC_POOL and r["card_nazi"][c] == n]
        dice = [k for k in range(D.NUM_DICE) if r["die_status"][k] == E.DIE_POOLED and r["die_nazi"][k] == n]
        if members:
            assert r["nazi_at"][n] == E.NAZI_FACE_UP
        else:
            assert not laid and not dice and r["pool_fixed"][n] == 0 and r["pool_readings"][n] == 0
        fixed = sum(int(r["contrib_value"][n, s]) for s in range(num)
                    if r["contrib"][n, s] and r["character"][s] != D.MARIA)
        assert r["pool_fixed"][n] == fixed
        if not r["terminal"] and members:
            readings = int(r["pool_readings"][n])
            lowest = (readings & -readings).bit_length() - 1 if readings else 0
            assert fixed + lowest < D.NAZI_IQ[n], "a pool never sits full: it convinces or cannot be laid"
    for k in range(D.NUM_DICE):
        assert 1 <= r["die_value"][k] <= 6
        assert (r["die_status"][k] == E.DIE_BLOCKED) == (r["die_value"][k] == 6)
    # Masks: while the game runs every seat can act (at least wait).
    if not r["terminal"]:
        assert r["mask"][:num, E.A_WAIT].all()


def put_on_top(env, s, c):
    """Move Argument ``c`` (lying in some stack) to the top of stack ``s``."""
    r = rec(env)
    for t in range(int(r["num_stacks"])):
        row = r["stack"][t]
        where = np.flatnonzero(row[: r["stack_len"][t]] == c)
        if where.size:
            top_t = r["stack_len"][s] - 1
            row[where[0]], r["stack"][s, top_t] = r["stack"][s, top_t], row[where[0]]
            E.refresh(r)
            return
    raise ValueError(f"card {c} is in no stack")


def with_design(kind, text=None, taken=(), env=None):
    """An Argument id whose back shows a condition of ``kind`` (and ``text``, if given); with
    ``env``, one lying in a stack there."""
    for c in range(D.NUM_ARGUMENTS):
        design = D.BACK_DESIGNS[D.CARD_BACK[c]]
        if design[1] == kind and (text is None or design[2] == text) and c not in taken:
            if env is None or rec(env)["card_loc"][c] == E.LOC_STACK:
                return c
    raise ValueError("no such back")
