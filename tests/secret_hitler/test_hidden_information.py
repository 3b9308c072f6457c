"""Nothing leaks, nothing is forgotten.

Nothing leaks: a seat's observation (and mask) is unchanged when only what it cannot know changes.
At many points of random games, for every seat, the test rewrites each hidden fact of the record
in a way consistent with the seat's knowledge: the roles of the players it has no knowledge of,
the order of the deck below what it peeked, policies it never saw (others' discards, a hand it
does not hold) swapped with unseen deck cards, ballots not yet revealed, and another seat's peek.
The rewritten record stays a valid game (``check_records`` accepts it).

Nothing is forgotten: at the end of long games every seat's observation still shows every
election from the first on, the cards it saw in each, its investigations and its peek.
"""

import numpy as np
import pytest

from envs.secret_hitler import engine as E
from envs.secret_hitler.env import raw_env

from .test_invariants import check_invariants, random_game


def views_of(env, seat):
    agent = f"player_{seat}"
    obs = env.observe(agent)
    return obs["observation"].copy(), obs["action_mask"].copy()


def knows_all(r, seat):
    return r.role[seat] == E.FASCIST or (r.role[seat] == E.HITLER and r.hitler_knows)


def permute_unknown_roles(r, seat, rng):
    if knows_all(r, seat):
        return False
    free = [p for p in range(r.num_players) if p != seat and r.investigator[p] != seat]
    roles = r.role[free].copy()
    while True:  # public knowledge: a player proven not Hitler stays not Hitler
        rng.shuffle(roles)
        if not any(role == E.HITLER and r.cleared[p] for p, role in zip(free, roles)):
            break
    r.role[free] = roles
    return True


def unseen_deck_positions(r, seat):
    end = int(r.deck_size)
    if r.peeker == seat and E.peek_on_deck(r) > 0:
        end = int(r.peek_base)
    return list(range(end))


def shuffle_unseen_deck(r, seat, rng):
    positions = unseen_deck_positions(r, seat)
    cards = r.deck[positions].copy()
    rng.shuffle(cards)
    r.deck[positions] = cards
    return len(positions) > 1


def knows_hand(r, seat):
    if r.phase == E.PRESIDENT_LEGISLATES:
        return seat == r.president
    if r.phase in (E.CHANCELLOR_LEGISLATES, E.VETO):
        return seat in (r.president, r.chancellor)
    return True  # no hand


def unseen_cards(r, seat):
    """Places of policies ``seat`` never saw, except the deck: ("hand",) or (entry, slot)."""
    places = []
    if not knows_hand(r, seat):
        places.append(("hand",))
    for e in range(r.elections):
        if not r.h_session[e] or r.h_epoch[e] != r.epoch:
            continue
        if r.h_pres_discard[e] >= 0 and seat != r.h_president[e]:
            places.append((e, 0))
        for k in range(2):
            if r.h_chanc_discard[e, k] >= 0 and seat not in (r.h_president[e], r.h_nominee[e]):
                places.append((e, k + 1))
    return places


def swap_unseen_card(r, seat, rng):
    """Exchange an unseen policy outside the deck with an unseen deck policy of the other kind
    (for the peeker, only where the policies it peeked stay in the hand that drew them)."""
    places = unseen_cards(r, seat)
    rng.shuffle(places)
    for place in places:
        saved = r.copy()
        if _swap(r, seat, place, rng) and (seat != r.peeker or E._peek_fits(r)):
            return True
        for name in r.dtype.names:
            r[name] = saved[name]
    return False


def _swap(r, seat, place, rng):
    if place == ("hand",):
        if r.hand_lib == 0 or r.hand_fas == 0:
            old = E.LIBERAL if r.hand_lib else E.FASCIST
        else:
            old = int(rng.integers(2))
    else:
        e, slot = place
        old = int(r.h_pres_discard[e] if slot == 0 else r.h_chanc_discard[e, slot - 1])
    new = 1 - old
    swaps = [p for p in unseen_deck_positions(r, seat) if r.deck[p] == new]
    if not swaps:
        return False
    r.deck[swaps[int(rng.integers(len(swaps)))]] = old
    delta = 1 if new == E.LIBERAL else -1  # change in liberal count at the place
    if place == ("hand",):
        r.hand_lib += delta
        r.hand_fas -= delta
        e = r.elections - 1
        if r.phase == E.PRESIDENT_LEGISLATES:
            r.h_drawn_lib[e] += delta
        else:
            r.h_passed_lib[e] += delta
            r.h_drawn_lib[e] += delta
        return True
    r.discard_lib += delta
    r.discard_fas -= delta
    if slot == 0:
        r.h_pres_discard[e] = new
    else:
        r.h_chanc_discard[e, slot - 1] = new
        r.h_passed_lib[e] += delta
    r.h_drawn_lib[e] += delta
    return True


def flip_pending_ballots(r, seat, rng):
    changed = False
    for p in range(r.num_players):
        if p != seat and r.ballot[p] != E.NO_BALLOT:
            r.ballot[p] = E.JA if rng.integers(2) else E.NEIN
            changed = True
    return changed


def refit_others_peek(r, seat, rng):
    """Another seat's peek: the policies it saw are those now in their places (the ones chaos
    enacted are public); which of a drawn hand were the peeked ones is unknown to ``seat``."""
    if r.peeker < 0 or r.peeker == seat:
        return False
    left = E.peek_on_deck(r)
    for i in range(left):
        r.peek_cards[3 - left + i] = r.deck[r.deck_size - 1 - i]
    if left == 0 and r.peek_rest > 0 and r.peek_session >= 0:
        drawn = int(r.h_drawn_lib[r.peek_session])
        hand = rng.permutation([E.LIBERAL] * drawn + [E.FASCIST] * (3 - drawn))
        rest = int(r.peek_rest)
        r.peek_cards[3 - rest:] = hand[:rest]
    return True


PERTURBATIONS = (permute_unknown_roles, shuffle_unseen_deck, swap_unseen_card, flip_pending_ballots,
                 refit_others_peek)


@pytest.mark.parametrize("n", range(5, 11))
def test_observation_unchanged_when_only_hidden_facts_change(n):
    rng = np.random.default_rng(n)
    applied = dict.fromkeys(PERTURBATIONS, 0)
    for seed in range(24 if n <= 6 else 12):  # the peek exists at 5-6 players only
        env = raw_env(num_players=n)
        env.reset(seed=seed)
        other = raw_env(num_players=n)
        while not env._states[0].terminal:
            if rng.random() < 0.3:
                for seat in range(n):
                    before = views_of(env, seat)
                    other.set_state(env.get_state())
                    r = other._states[0]
                    for perturb in PERTURBATIONS:
                        applied[perturb] += bool(perturb(r, seat, rng))
                    check_invariants(other)
                    after = views_of(other, seat)
                    np.testing.assert_array_equal(before[0], after[0], err_msg=f"seat {seat} saw a hidden change")
                    np.testing.assert_array_equal(before[1], after[1])
            env.step(int(rng.choice(env.legal_actions())))
    assert all(count > 20 for perturb, count in applied.items() if perturb is not refit_others_peek), applied
    if n <= 6:
        assert applied[refit_others_peek] > 20, applied


def test_the_same_changes_are_seen_by_the_seats_who_know_them():
    """The control: the perturbations do change what a knowing seat observes."""
    rng = np.random.default_rng(0)
    seen_by_knower = 0
    for seed in range(20):
        env = raw_env(num_players=7)
        env.reset(seed=seed)
        other = raw_env(num_players=7)
        while not env._states[0].terminal:
            r0 = env._states[0]
            if r0.phase == E.CHANCELLOR_LEGISLATES:
                # A liberal outsider's view hides the hand; the chancellor's shows it.
                outsider = next(p for p in range(7) if p not in (r0.president, r0.chancellor) and r0.role[p] == 0)
                other.set_state(env.get_state())
                if swap_unseen_card(other._states[0], outsider, rng):
                    changed = [not np.array_equal(views_of(env, p)[0], views_of(other, p)[0]) for p in range(7)]
                    assert not changed[outsider]
                    seen_by_knower += any(changed)
            env.step(int(rng.choice(env.legal_actions())))
    assert seen_by_knower > 10


def test_no_seat_sees_another_role_it_should_not():
    for n in range(5, 11):
        env = raw_env(num_players=n)
        env.reset(seed=n)
        r = env._states[0]
        for seat in range(n):
            known = E.LAYOUT.views(views_of(env, seat)[0])["known_roles"][:n].sum(axis=1)
            expected = np.ones(n) if knows_all(r, seat) else np.eye(n)[seat]
            np.testing.assert_array_equal(known, expected)


# ---- nothing is forgotten ---------------------------------------------------------------------


def long_games(n, elections, count):
    """Random games (their envs at the end) that lasted at least ``elections`` elections."""
    found = []
    for seed in range(1000):
        env, _ = random_game(n, seed, check=lambda env: None)
        if env._states[0].elections >= elections:
            found.append(env)
            if len(found) == count:
                break
    return found


def expected_row(r, seat, e, n):
    """Election ``e`` as ``seat`` saw it, written out from the record."""
    one_hot = lambda k, size: np.eye(size)[k] if k >= 0 else np.zeros(size)  # noqa: E731
    drawn, passed = int(r.h_drawn_lib[e]), int(r.h_passed_lib[e])
    in_government = seat in (r.h_president[e], r.h_nominee[e])
    return {
        "hist_president": one_hot(r.h_president[e], 10), "hist_nominee": one_hot(r.h_nominee[e], 10),
        "hist_ja": np.pad(r.h_ballot[e, :n] == E.JA, (0, 10 - n)),
        "hist_nein": np.pad(r.h_ballot[e, :n] == E.NEIN, (0, 10 - n)),
        "hist_elected": r.h_elected[e], "hist_policy": one_hot(r.h_policy[e], 2), "hist_chaos": r.h_chaos[e],
        "hist_president_claim": one_hot(r.h_pres_claim[e], 5), "hist_chancellor_claim": one_hot(r.h_chanc_claim[e], 4),
        "hist_veto": one_hot(r.h_veto[e] - 1, 2),
        "hist_power": one_hot(r.h_power[e], 4), "hist_target": one_hot(r.h_target[e], 10),
        "hist_investigation_claim": one_hot(r.h_power_claim[e] if r.h_power[e] == E.INVESTIGATE else -1, 3),
        "hist_peek_claim": one_hot(r.h_power_claim[e] if r.h_power[e] == E.PEEK else -1, 5),
        "hist_drawn": [drawn, 3 - drawn] if r.h_session[e] and seat == r.h_president[e] else [0, 0],
        "hist_received": [passed, 2 - passed] if r.h_session[e] and passed >= 0 and in_government else [0, 0],
    }


@pytest.mark.parametrize("n", (5, 7, 10))
def test_every_election_and_what_the_seat_saw_in_it_stay_to_the_end_of_long_games(n):
    games = long_games(n, 18, 3)
    assert len(games) == 3
    for env in games:
        r = env._states[0]
        elections = int(r.elections)
        for seat in range(n):
            view = E.LAYOUT.views(views_of(env, seat)[0])
            assert view["hist_valid"].sum() == elections
            for e in range(elections):  # row elections-1 is the first election of the game
                for name, want in expected_row(r, seat, e, n).items():
                    np.testing.assert_array_equal(view[name][elections - 1 - e], want, err_msg=f"{name} of election {e}")
            for p in range(n):
                want = np.eye(2)[int(r.role[p] != E.LIBERAL)] if r.investigator[p] == seat else np.zeros(2)
                np.testing.assert_array_equal(view["investigation"][p], want)
            want = np.eye(2)[r.peek_cards] if seat == r.peeker else np.zeros((3, 2))
            np.testing.assert_array_equal(view["peek_seen"], want)
            # The track records add up to the history.
            assert view["sessions"].sum() == 2 * r.h_session[:elections].sum()
            by_government = (r.h_policy[:elections] >= 0) & (r.h_chaos[:elections] == 0)
            assert view["enacted_by"].sum() == 2 * by_government.sum()
