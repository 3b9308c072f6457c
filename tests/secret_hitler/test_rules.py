"""Every rule of Secret Hitler (the rulebook by default, the official rules the issue lists where it
is silent and as options), each from a scripted game: chosen roles, deck order and president, then
chosen actions."""

import numpy as np
import pytest

from envs.core import check_records
from envs.secret_hitler import engine as E
from envs.secret_hitler.env import GAME, action_name, raw_env

from .scripting import HITLER, F, L, Script, standard_roles

# ---- setup ------------------------------------------------------------------------------------


@pytest.mark.parametrize("n,liberals,fascists", [(5, 3, 1), (6, 4, 1), (7, 4, 2), (8, 5, 2), (9, 5, 3), (10, 6, 3)])
def test_roles_are_dealt_by_player_count(n, liberals, fascists):
    hitler_seats = set()
    for seed in range(30):
        env = raw_env(num_players=n)
        env.reset(seed=seed)
        roles = list(env._states[0].role[:n])
        assert (roles.count(L), roles.count(F), roles.count(HITLER)) == (liberals, fascists, 1)
        hitler_seats.add(roles.index(HITLER))
    assert len(hitler_seats) > 2, "roles are shuffled"


def test_deck_holds_six_liberal_and_eleven_fascist_policies_and_first_president_is_random():
    presidents = set()
    for seed in range(30):
        env = raw_env(num_players=7)
        env.reset(seed=seed)
        r = env._states[0]
        deck = r.deck[: r.deck_size]
        assert r.deck_size == 17 and (deck == L).sum() == 6 and (deck == F).sum() == 11
        assert r.phase == E.NOMINATION and r.current_player == r.president
        presidents.add(int(r.president))
    assert len(presidents) > 3


def known_roles_only_self(s, seat):
    known = s.view(seat)["known_roles"][: s.n]
    return known[seat].sum() == 1 and known.sum() == 1


@pytest.mark.parametrize("n", range(5, 11))
def test_by_default_hitler_knows_nobody_and_the_fascists_know_everybody_at_every_count(n):
    # "Ordinary FASCISTS know each other and HITLER • HITLER doesn't know the other FASCISTS"
    s = Script(n)
    roles = standard_roles(n)
    assert s.rec.hitler_knows == 0
    assert known_roles_only_self(s, roles.index(HITLER))
    for seat, role in enumerate(roles):
        if role == F:
            np.testing.assert_array_equal(s.view(seat)["known_roles"][:n], np.eye(3)[roles])
        elif role == L:
            assert known_roles_only_self(s, seat)


@pytest.mark.parametrize("n", range(5, 11))
@pytest.mark.parametrize("option", [None, "auto", True, False])
def test_fascists_know_everybody_hitler_only_with_the_option(n, option):
    s = Script(n) if option is None else Script(n, hitler_knows_fascists=option)
    hitler_knows = n <= 6 if option == "auto" else bool(option)
    roles = standard_roles(n)
    everything = np.eye(3)[roles]
    for seat in range(n):
        known = s.view(seat)["known_roles"][:n]
        view = s.view(seat)
        assert view["role"].argmax() == roles[seat]
        assert view["party"].argmax() == (L if roles[seat] == L else F)
        if roles[seat] == F or (roles[seat] == HITLER and hitler_knows):
            np.testing.assert_array_equal(known, everything)
        else:
            only_self = np.zeros_like(everything)
            only_self[seat] = everything[seat]
            np.testing.assert_array_equal(known, only_self)


# ---- nomination and term limits ---------------------------------------------------------------


def nominees(s):
    return sorted(a - E.NOMINATE for a in s.legal())


def test_president_nominates_any_other_living_player_at_first():
    s = Script(7, president=3)
    assert nominees(s) == [0, 1, 2, 4, 5, 6]
    s.rec.alive[5] = 0
    s.rec.living = 6
    assert nominees(s) == [0, 1, 2, 4, 6]


# "The president and chancellor that enacted the last policy CANNOT be nominated (reset after 3
# failures)": by default (term_limits="rulebook") at any number of living players; the official
# rules' last *elected* government and small-table exception are term_limits="official".


@pytest.mark.parametrize("term_limits", [None, "official"])
def test_the_government_that_enacted_the_last_policy_is_term_limited(term_limits):
    options = {} if term_limits is None else {"term_limits": term_limits}
    s = Script(7, deck="LLL" "LLF", president=0, claims=False, **options)
    assert s.rec.term_limits == (E.TERM_LIMITS_OFFICIAL if term_limits else E.TERM_LIMITS_RULEBOOK)
    s.government(1, L, L)  # president 0, chancellor 1 enact a liberal
    assert s.rec.president == 1
    assert nominees(s) == [2, 3, 4, 5, 6]  # not 0 (last president) nor 1 (itself, last chancellor)
    assert list(s.view(2)["term_limited"][:7]) == [1, 1, 0, 0, 0, 0, 0]
    s.fail(2)  # a failed election does not change the limits
    assert s.rec.president == 2 and nominees(s) == [3, 4, 5, 6]


def test_by_default_both_members_of_the_last_government_are_term_limited_with_five_living():
    s = Script(5, deck="LLL", president=0, claims=False)
    s.government(1, L, L)
    s.fail(2)  # president 1 nominated 2 (rejected); president 2 now
    assert s.rec.president == 2
    assert nominees(s) == [3, 4], "no small-table exception in the rulebook"
    assert list(s.view(3)["term_limited"][:5]) == [1, 1, 0, 0, 0]


def test_official_with_five_living_players_only_the_last_chancellor_is_term_limited():
    s = Script(5, deck="LLL", president=0, claims=False, term_limits="official")
    s.government(1, L, L)
    s.fail(2)  # president 1 nominated 2 (rejected); president 2 now
    assert s.rec.president == 2
    assert nominees(s) == [0, 3, 4]  # the last president (0) may serve; the last chancellor (1) not
    assert list(s.view(3)["term_limited"][:5]) == [0, 1, 0, 0, 0]


def test_an_elected_government_is_not_term_limited_before_it_enacts():
    s = Script(7, deck="LLF" "LLF", president=0, claims=False)
    s.government(1, F, L)  # 0 and 1 enact
    s.elect(3)  # 1 and 3 are elected and hold the cards: the limits are still 0 and 1's
    assert s.phase == E.PRESIDENT_LEGISLATES and (s.rec.last_president, s.rec.last_chancellor) == (0, 1)
    assert list(s.view(5)["term_limited"][:7]) == [1, 1, 0, 0, 0, 0, 0]
    s.legislate(F, L)
    assert (s.rec.last_president, s.rec.last_chancellor) == (1, 3)
    assert nominees(s) == [0, 4, 5, 6], "president 2 may not nominate 1 or 3"


def vetoed_after_an_enactment(**options):
    """7 players, 4 fascist policies on the track. President 0 and chancellor 1 enact the 5th
    (execution: 0 executes 6); president 1 and chancellor 2 then veto their hand."""
    s = Script(7, roles=[L, L, L, HITLER, F, F, L], deck="FFF" "LFF", president=0, fascist=4, claims=False,
               **options)
    s.government(1, F, F)
    assert s.phase == E.EXECUTION
    s.target(6)
    assert s.rec.president == 1 and nominees(s) == [2, 3, 4, 5]
    s.elect(2)
    s.act(E.PRESIDENT_DISCARD + F)
    s.act(E.PROPOSE_VETO)
    s.act(E.CONSENT_VETO)
    assert s.rec.tracker == 1 and s.rec.president == 2 and s.phase == E.NOMINATION
    return s


def test_a_vetoed_government_enacted_nothing_the_limits_stay_with_the_one_before():
    s = vetoed_after_an_enactment()
    assert (s.rec.last_president, s.rec.last_chancellor) == (0, 1)
    assert nominees(s) == [3, 4, 5], "0 and 1 enacted the last policy; the vetoing 1 and 2 did not"
    assert list(s.view(4)["term_limited"][:7]) == [1, 1, 0, 0, 0, 0, 0]


def test_official_a_vetoed_government_was_elected_and_is_term_limited():
    s = vetoed_after_an_enactment(term_limits="official")
    assert (s.rec.last_president, s.rec.last_chancellor) == (1, 2)
    assert nominees(s) == [0, 3, 4, 5]


def test_term_limits_that_leave_no_nominee_are_lifted_for_that_nomination():
    """5 players, a whole game from the deal (check_records replays it): five fascist policies,
    the 4th and 5th execute; president 4 and chancellor 1 enact the last, and president 0 is left
    with only them to nominate. The limits are lifted for that nomination (the rulebook is silent;
    the table would not stop the game)."""
    s = Script(5, deck="FFL" * 5 + "LF", president=0, claims=False)  # seat 0 is Hitler, seat 1 the fascist
    s.government(1, L, F)  # 1st fascist policy
    s.government(2, L, F)  # 2nd
    s.government(3, L, F)  # 3rd: the peek
    s.government(4, L, F)  # 4th: president 3 executes 2
    s.target(2)
    assert s.rec.president == 4 and nominees(s) == [0, 1]  # not 3 or 4 (itself)
    s.government(1, L, F)  # 5th: president 4 executes 3
    s.target(3)
    assert s.living() == [0, 1, 4] and s.rec.president == 0
    assert (s.rec.last_president, s.rec.last_chancellor) == (4, 1)
    assert [E.barred_by_limits(E.TERM_LIMITS_RULEBOOK, 3, 4, 1, p) for p in (1, 4)] == [True, True]
    assert nominees(s) == [1, 4], "both are barred, so the limits are lifted"
    assert s.view(0)["term_limited"].sum() == 0
    check_records(GAME, s.env.get_state())
    s.elect(4)  # the last president may serve; the game goes on under the replay check
    assert s.phase == E.PRESIDENT_LEGISLATES
    check_records(GAME, s.env.get_state())


def test_official_six_living_players_keep_both_limits_five_living_of_seven_only_one():
    s = Script(7, president=2, term_limits="official")
    s.rec.last_president, s.rec.last_chancellor = 0, 1
    assert nominees(s) == [3, 4, 5, 6]
    s.rec.alive[6] = 0
    s.rec.living = 6
    assert nominees(s) == [3, 4, 5]
    s.rec.alive[5] = 0
    s.rec.living = 5
    assert nominees(s) == [0, 3, 4]


def test_by_default_five_living_of_seven_keep_both_limits():
    s = Script(7, president=2)
    s.rec.last_president, s.rec.last_chancellor = 0, 1
    s.rec.alive[5] = s.rec.alive[6] = 0
    s.rec.living = 5
    assert nominees(s) == [3, 4]


# ---- elections --------------------------------------------------------------------------------


def test_ballots_are_secret_until_every_living_player_has_voted_then_public():
    s = Script(7, president=2)
    s.rec.alive[4] = 0
    s.rec.living = 6
    s.nominate(5)
    ja = {2, 3, 5}
    order = []
    while s.phase == E.ELECTION:
        before = [s.obs(p).copy() for p in range(7)]
        voter = s.to_act
        order.append(voter)
        s.act(E.VOTE_JA if voter in ja else E.VOTE_NEIN)
        if s.phase != E.ELECTION:
            break
        to_act = range(E.O_TO_ACT, E.O_TO_ACT + 10)
        own_ballot = range(E.O_MY_BALLOT, E.O_MY_BALLOT + 2)
        for p in range(7):
            changed = np.flatnonzero(before[p] != s.obs(p))
            assert all(i in to_act or (p == voter and i in own_ballot) for i in changed), (
                f"after player_{voter} voted, player_{p}'s observation changed outside `to_act`")
        assert list(s.view(voter)["my_ballot"]) == ([1, 0] if voter in ja else [0, 1])
    assert order == [2, 3, 5, 6, 0, 1], "from the president to the left, skipping the executed"
    for p in range(7):
        view = s.view(p)
        assert list(view["hist_ja"][0, :7]) == [0, 0, 1, 1, 0, 1, 0]
        assert list(view["hist_nein"][0, :7]) == [1, 1, 0, 0, 0, 0, 1]
    assert s.rec.tracker == 1 and s.phase == E.NOMINATION  # 3 ja of 6 living is not a majority


@pytest.mark.parametrize("n,living,ja,elected", [
    (6, 6, 3, False), (6, 6, 4, True), (5, 5, 3, True), (5, 5, 2, False),
    (7, 5, 3, True), (7, 6, 3, False), (10, 10, 5, False), (10, 10, 6, True)])
def test_more_than_half_of_the_living_must_vote_ja(n, living, ja, elected):
    s = Script(n, president=0)
    for p in range(living, n):
        s.rec.alive[p] = 0
    s.rec.living = living
    s.elect(1, ja=set(range(ja)))
    assert (s.phase == E.PRESIDENT_LEGISLATES) == elected
    assert s.rec.tracker == (0 if elected else 1)
    assert s.view(0)["hist_elected"][0] == int(elected)


def test_failed_election_moves_tracker_and_passes_presidency_left_skipping_the_dead():
    s = Script(7, president=5)
    s.rec.alive[6] = 0
    s.rec.living = 6
    s.fail(1)
    assert s.rec.tracker == 1 and s.rec.president == 0 and s.to_act == 0 and s.phase == E.NOMINATION
    assert s.view(3)["tracker"].argmax() == 1
    s.fail(1)
    assert s.rec.tracker == 2 and s.rec.president == 1


def test_three_failed_elections_enact_the_top_policy_ignore_its_power_and_reset_limits():
    # 7 players: the 2nd fascist policy would give an investigation; chaos ignores it.
    s = Script(7, deck="F", president=0, fascist=1)
    s.rec.last_president, s.rec.last_chancellor = 5, 6
    s.fail(1)
    s.fail(2)
    assert s.rec.tracker == 2
    s.fail(3)
    assert s.rec.fascist_enacted == 2 and s.rec.tracker == 0 and s.rec.deck_size == 15
    assert s.phase == E.NOMINATION and s.rec.president == 3, "no power: the next president nominates"
    assert s.rec.last_president == -1 and s.rec.last_chancellor == -1
    assert nominees(s) == [0, 1, 2, 4, 5, 6], "term limits are forgotten"
    view = s.view(4)
    assert view["hist_chaos"][0] == 1 and list(view["hist_policy"][0]) == [0, 1]
    assert view["hist_power"][0].sum() == 0


def test_chaos_can_win_the_game():
    s = Script(7, deck="L", president=0, liberal=4)
    for k in range(3):
        s.fail(k + 1)
    assert s.rec.terminal and s.rec.winner == L and s.rec.win_reason == E.LIBERAL_POLICIES


# ---- Hitler as chancellor -----------------------------------------------------------------------


def test_electing_hitler_chancellor_after_three_fascist_policies_wins_for_the_fascists():
    s = Script(7, president=3, fascist=3)
    s.elect(0)  # seat 0 is Hitler
    assert s.rec.terminal and s.rec.winner == F and s.rec.win_reason == E.HITLER_ELECTED
    assert list(s.rewards()) == [1, 1, 1, -1, -1, -1, -1]
    assert s.to_act == -1 and s.legal(3) == []


def test_electing_hitler_with_fewer_than_three_fascist_policies_is_an_ordinary_government():
    s = Script(7, president=3, fascist=2)
    s.elect(0)
    assert not s.rec.terminal and s.phase == E.PRESIDENT_LEGISLATES
    assert s.view(4)["not_hitler"][0] == 0


def test_a_chancellor_elected_after_three_fascist_policies_is_publicly_not_hitler():
    s = Script(7, president=3, fascist=3)
    s.elect(5)
    assert s.phase == E.PRESIDENT_LEGISLATES
    for p in range(7):
        assert list(s.view(p)["not_hitler"][:7]) == [0, 0, 0, 0, 0, 1, 0]


# ---- the legislative session --------------------------------------------------------------------


def test_session_president_draws_three_discards_one_chancellor_enacts_one_of_two():
    s = Script(7, deck="LFF" "LLL", president=2)
    s.elect(4)
    assert s.phase == E.PRESIDENT_LEGISLATES and s.to_act == 2 and s.rec.deck_size == 14
    assert list(s.view(2)["hand"]) == [1, 2] and list(s.view(2)["drawn"]) == [1, 2]
    assert all(s.view(p)["hand"].sum() == 0 for p in range(7) if p != 2)
    assert sorted(s.legal()) == [E.PRESIDENT_DISCARD + L, E.PRESIDENT_DISCARD + F]
    s.act(E.PRESIDENT_DISCARD + F)
    assert s.phase == E.CHANCELLOR_LEGISLATES and s.to_act == 4
    assert list(s.view(4)["hand"]) == [1, 1] and list(s.view(4)["passed"]) == [1, 1]
    assert list(s.view(2)["passed"]) == [1, 1] and s.view(2)["hand"].sum() == 0
    assert E.PROPOSE_VETO not in s.legal()
    s.act(E.CHANCELLOR_DISCARD + F)
    assert s.rec.liberal_enacted == 1 and s.rec.fascist_enacted == 0
    assert (s.rec.discard_lib, s.rec.discard_fas) == (0, 2)
    assert s.view(6)["discard_size"][0] == 2 and s.view(6)["deck_size"][0] == 14
    assert list(s.view(6)["hist_policy"][0]) == [1, 0]
    assert s.view(6)["drawn"].sum() == 0 and s.view(6)["passed"].sum() == 0


def test_president_with_a_single_kind_has_only_that_discard():
    s = Script(7, deck="FFF", president=0)
    s.elect(1)
    assert s.legal() == [E.PRESIDENT_DISCARD + F]


# ---- veto ---------------------------------------------------------------------------------------


def test_no_veto_before_five_fascist_policies():
    s = Script(7, deck="LFF", president=0, fascist=4)
    s.elect(1)
    s.act(E.PRESIDENT_DISCARD + F)
    assert E.PROPOSE_VETO not in s.legal()


def test_veto_accepted_discards_both_and_moves_the_tracker():
    s = Script(7, deck="LFF", president=0, fascist=5, roles=[L, L, L, HITLER, F, F, L])
    s.elect(1)
    assert s.view(0)["veto_unlocked"][0] == 1
    s.act(E.PRESIDENT_DISCARD + F)
    assert E.PROPOSE_VETO in s.legal()
    s.act(E.PROPOSE_VETO)
    assert s.phase == E.VETO and s.to_act == 0
    assert sorted(s.legal()) == [E.CONSENT_VETO, E.REFUSE_VETO]
    s.act(E.CONSENT_VETO)
    assert (s.rec.liberal_enacted, s.rec.fascist_enacted) == (0, 5)
    assert (s.rec.discard_lib, s.rec.discard_fas) == (1, 2) and s.rec.tracker == 1
    assert s.phase == E.PRESIDENT_CLAIM, "the session's claims are still made"
    s.skip_claims()
    assert s.phase == E.NOMINATION and s.rec.president == 1
    assert list(s.view(5)["hist_veto"][0]) == [1, 0] and s.view(5)["hist_policy"][0].sum() == 0
    assert nominees(s) == [0, 2, 3, 4, 5, 6], "the vetoing government enacted nothing: no term limits"


def test_veto_refused_forces_the_chancellor_to_enact():
    s = Script(7, deck="LFF", president=0, fascist=5, roles=[L, L, L, HITLER, F, F, L])
    s.elect(1)
    s.act(E.PRESIDENT_DISCARD + F)
    s.act(E.PROPOSE_VETO)
    s.act(E.REFUSE_VETO)
    assert s.phase == E.CHANCELLOR_LEGISLATES and s.to_act == 1
    assert sorted(s.legal()) == [E.CHANCELLOR_DISCARD + L, E.CHANCELLOR_DISCARD + F], "no second veto"
    s.act(E.CHANCELLOR_DISCARD + F)
    assert s.rec.liberal_enacted == 1 and s.rec.tracker == 0
    assert list(s.view(5)["hist_veto"][0]) == [0, 1]


def test_veto_on_a_tracker_at_two_throws_the_country_into_chaos():
    s = Script(7, deck="LFF" "L", president=0, fascist=5, roles=[L, L, L, HITLER, F, F, L])
    s.rec.tracker = 2
    s.elect(1)
    s.act(E.PRESIDENT_DISCARD + F)
    s.act(E.PROPOSE_VETO)
    s.act(E.CONSENT_VETO)
    assert s.rec.liberal_enacted == 1 and s.rec.tracker == 0 and s.rec.last_chancellor == -1
    view = s.view(2)
    assert list(view["hist_veto"][0]) == [1, 0] and view["hist_chaos"][0] == 1
    assert list(view["hist_policy"][0]) == [1, 0]


# ---- presidential powers -----------------------------------------------------------------------

POWER_PHASES = {None: E.NOMINATION, "peek": E.PEEK_CLAIM, "investigate": E.INVESTIGATION,
                "special": E.SPECIAL_ELECTION, "execute": E.EXECUTION}
TABLE = {  # the power of the 1st..5th fascist policy by player-count band
    (5, 6): [None, None, "peek", "execute", "execute"],
    (7, 8): [None, "investigate", "special", "execute", "execute"],
    (9, 10): ["investigate", "investigate", "special", "execute", "execute"],
}
POWER_CASES = [(n, k, power) for counts, powers in TABLE.items() for n in counts for k, power in enumerate(powers)]


@pytest.mark.parametrize("n,already,power", POWER_CASES)
def test_each_fascist_policy_gives_the_power_of_its_band(n, already, power):
    s = Script(n, deck="FFF" "LLL", president=1, fascist=already)
    s.elect(2)
    s.legislate(F, F)
    assert s.rec.fascist_enacted == already + 1
    assert s.phase == E.PRESIDENT_CLAIM
    s.claim(3)
    s.claim(2)
    assert s.phase == POWER_PHASES[power]
    if power is None:
        assert s.rec.president == 2
    else:
        assert s.to_act == 1, "the president uses the power"


def test_a_liberal_policy_gives_no_power():
    s = Script(9, deck="LLL", president=1, claims=False)
    s.government(2, L, L)
    assert s.phase == E.NOMINATION and s.rec.president == 2


def test_policy_peek_shows_the_next_three_to_the_president_only_in_order():
    s = Script(5, deck="FFF" "LFL" "FF", president=1, fascist=2)
    s.government(2, F, F)
    assert s.phase == E.PEEK_CLAIM and s.to_act == 1
    assert s.top(3) == "LFL", "the deck is not changed"
    np.testing.assert_array_equal(s.view(1)["peek"], [[1, 0], [0, 1], [1, 0]])
    for p in (0, 2, 3, 4):
        assert s.view(p)["peek"].sum() == 0
    assert sorted(s.legal()) == [E.CLAIM_FASCISTS + k for k in range(4)] + [E.NO_CLAIM]
    s.claim(2)  # a lie: it saw one
    for p in range(5):
        view = s.view(p)
        assert list(view["hist_power"][0]) == [0, 0, 1, 0] and list(view["hist_peek_claim"][0]) == [0, 0, 1, 0, 0]
    assert s.phase == E.NOMINATION and s.rec.president == 2
    s.elect(3)  # the next president draws the peeked cards: the peek is spent
    assert s.view(1)["peek"].sum() == 0
    assert list(s.view(2)["hand"]) == [2, 1]


def test_investigation_shows_party_not_role_and_nobody_is_investigated_twice():
    roles = [L, L, F, L, HITLER, F, L, L, L]
    s = Script(9, roles=roles, deck="FFF" "FFF", president=1)
    s.government(2, F, F)
    assert s.phase == E.INVESTIGATION and s.to_act == 1
    assert sorted(a - E.TARGET for a in s.legal()) == [0, 2, 3, 4, 5, 6, 7, 8]
    s.target(4)  # Hitler shows only a fascist party membership
    assert list(s.view(1)["investigation"][4]) == [0, 1]
    assert s.view(1)["known_roles"][4].sum() == 0
    for p in range(9):
        assert s.view(p)["investigated"][4] == 1
        if p != 1:
            assert s.view(p)["investigation"].sum() == 0
    assert s.phase == E.INVESTIGATION_CLAIM
    assert sorted(s.legal()) == [E.CLAIM_PARTY + L, E.CLAIM_PARTY + F, E.NO_CLAIM]
    s.claim(L)  # a lie
    assert list(s.view(7)["hist_investigation_claim"][0]) == [1, 0, 0]
    assert list(s.view(7)["hist_target"][0, :9]) == [0, 0, 0, 0, 1, 0, 0, 0, 0]
    assert s.rec.president == 2
    s.government(3, F, F)  # the second fascist policy: another investigation
    assert s.phase == E.INVESTIGATION and s.to_act == 2
    assert E.TARGET + 4 not in s.legal() and E.TARGET + 1 in s.legal()


def test_special_election_any_other_living_player_then_rotation_resumes_left_of_the_caller():
    s = Script(7, deck="FFF" "LLL" "LLL", president=0, fascist=2, claims=False)
    s.rec.alive[5] = 0
    s.rec.living = 6
    s.government(1, F, F)
    assert s.phase == E.SPECIAL_ELECTION and s.to_act == 0
    # Term limits do not apply: even the chancellor just elected may be made president.
    assert sorted(a - E.TARGET for a in s.legal()) == [1, 2, 3, 4, 6]
    assert s.view(3)["next_president"].argmax() == 1
    s.target(4)
    assert s.rec.president == 4 and s.phase == E.NOMINATION
    assert s.view(3)["next_president"].argmax() == 1, "after the special president, left of the caller"
    s.fail(2)
    assert s.rec.president == 1
    s.fail(2)
    assert s.rec.president == 2


def test_special_election_of_the_next_player_gives_two_presidencies_in_a_row():
    s = Script(7, deck="FFF" "LLL", president=0, fascist=2, claims=False)
    s.government(2, F, F)
    s.target(1)
    assert s.rec.president == 1
    s.fail(3)
    assert s.rec.president == 1


def test_execution_removes_a_player_from_votes_offices_and_targets_and_keeps_the_role_hidden():
    roles = [HITLER, F, L, L, L]
    s = Script(5, roles=roles, deck="FFF" "FFF" "LLL", president=1, fascist=3, claims=False)
    s.government(2, F, F)
    assert s.phase == E.EXECUTION and s.to_act == 1
    assert sorted(a - E.TARGET for a in s.legal()) == [0, 2, 3, 4]
    s.target(3)
    assert not s.rec.terminal and s.rec.alive[3] == 0 and s.rec.living == 4
    for p in range(5):
        view = s.view(p)
        assert view["alive"][3] == 0 and view["not_hitler"][3] == 1
        if roles[p] == L and p != 3:
            assert view["known_roles"][3].sum() == 0, "an executed player's role stays hidden"
    assert s.rec.president == 2
    assert 3 not in nominees(s)
    s.nominate(4)
    voters = []
    while s.phase == E.ELECTION:
        voters.append(s.to_act)
        s.act(E.VOTE_JA)
    assert sorted(voters) == [0, 1, 2, 4]
    s.legislate(F, F)  # 5th fascist: another execution
    assert s.phase == E.EXECUTION and E.TARGET + 3 not in s.legal()
    s.target(1)
    for _ in range(6):  # the rotation never gives the dead the presidency
        assert s.rec.alive[s.rec.president]
        s.fail(next(p for p in nominees(s)))
        if s.rec.terminal:
            break


def test_executing_hitler_wins_for_the_liberals():
    s = Script(5, roles=[L, F, L, HITLER, L], deck="FFF", president=1, fascist=3, claims=False)
    s.government(2, F, F)
    s.target(3)
    assert s.rec.terminal and s.rec.winner == L and s.rec.win_reason == E.HITLER_EXECUTED
    assert list(s.rewards()) == [1, -1, 1, -1, 1], "every member of the winning team, dead or alive"


# ---- winning ------------------------------------------------------------------------------------


def test_five_liberal_policies_win_for_the_liberals():
    s = Script(6, deck="LLF", president=0, liberal=4)
    s.elect(1)
    s.legislate(F, L)
    assert s.rec.terminal and s.rec.winner == L and s.rec.win_reason == E.LIBERAL_POLICIES
    assert list(s.rewards()) == [-1, -1, 1, 1, 1, 1]
    assert s.view(2)["liberal_track"].argmax() == 5 and s.view(2)["phase"].argmax() == E.GAME_OVER


def test_six_fascist_policies_win_for_the_fascists():
    s = Script(6, deck="FFF", president=2, fascist=5)
    s.elect(3)
    s.legislate(F, F)
    assert s.rec.terminal and s.rec.winner == F and s.rec.win_reason == E.FASCIST_POLICIES
    assert list(s.rewards()) == [1, 1, -1, -1, -1, -1]


def test_rewards_are_zero_until_the_end():
    s = Script(7, deck="LLF", president=0)
    s.elect(1)
    assert not s.rewards().any()


# ---- the deck ----------------------------------------------------------------------------------


# "PRESIDENT takes the first THREE POLICIES • If less than three policies remain, shuffle in the
# discarded." By default (reshuffle="at_draw") the discards are shuffled in when the president
# draws; the official rules' reshuffle after every session is reshuffle="after_session".


def test_fewer_than_three_policies_stay_until_the_president_draws_then_the_discards_are_shuffled_in():
    s = Script(7, president=0, claims=False, seed=3)
    s.set_piles("LFF" "FL", discards=(4, 8))
    s.government(1, F, F)  # draws LFF, enacts L: F L are left; the pile holds 4 L + 10 F
    assert s.rec.deck_size == 2 and s.top(3) == "FL" and (s.rec.discard_lib, s.rec.discard_fas) == (4, 10)
    assert s.rec.epoch == 0
    assert s.view(4)["deck_size"][0] == 2 and s.view(4)["discard_size"][0] == 14
    s.elect(2)  # president 1 draws: the 2 left and the 14 discards are shuffled together first
    assert s.rec.epoch == 1 and (s.rec.discard_lib, s.rec.discard_fas) == (0, 0)
    assert s.rec.deck_size == 16 - 3 and s.rec.hand_lib + s.rec.hand_fas == 3
    assert s.cards()[:3] == ((5 - s.rec.hand_lib, 11 - s.rec.hand_fas), (0, 0), (s.rec.hand_lib, s.rec.hand_fas))
    assert s.view(4)["deck_size"][0] == 13 and s.view(4)["discard_size"][0] == 0
    assert list(s.view(1)["hand"]) == [s.rec.hand_lib, s.rec.hand_fas]


def test_official_fewer_than_three_policies_after_a_session_are_shuffled_with_the_discards():
    s = Script(7, president=0, claims=False, seed=3, reshuffle="after_session")
    s.set_piles("LFF" "FL", discards=(4, 8))
    s.government(1, F, F)  # draws LFF, enacts L: 2 left; the pile holds 4 L + 10 F
    assert s.rec.deck_size == 2 + 4 + 10 and (s.rec.discard_lib, s.rec.discard_fas) == (0, 0)
    deck = s.rec.deck[: s.rec.deck_size]
    assert (deck == L).sum() == 5 and (deck == F).sum() == 11
    assert s.rec.epoch == 1
    assert s.view(4)["discard_size"][0] == 0 and s.view(4)["deck_size"][0] == 16


@pytest.mark.parametrize("reshuffle", ["at_draw", "after_session"])
def test_three_policies_left_are_not_reshuffled(reshuffle):
    s = Script(7, president=0, claims=False, reshuffle=reshuffle)
    s.set_piles("LFF" "FLF", discards=(4, 7))
    s.government(1, F, F)
    assert s.rec.deck_size == 3 and s.top(3) == "FLF" and s.rec.epoch == 0
    s.elect(2)  # the next president draws exactly those three
    assert s.rec.deck_size == 0 and (s.rec.hand_lib, s.rec.hand_fas) == (1, 2) and s.rec.epoch == 0


@pytest.mark.parametrize("reshuffle", ["at_draw", "after_session"])
@pytest.mark.parametrize("top", ["", "L", "FL"])
def test_a_draw_from_fewer_than_three_policies_shuffles_the_discards_in_first(reshuffle, top):
    """Whatever the option, a president never draws from fewer than three: even a record edited
    to hold fewer between sessions draws safely (the discards are shuffled in first)."""
    s = Script(7, president=0, claims=False, seed=1, reshuffle=reshuffle)
    s.set_piles(top, discards=(6 - top.count("L"), 11 - top.count("F")))
    s.elect(1)
    assert s.phase == E.PRESIDENT_LEGISLATES and s.rec.hand_lib + s.rec.hand_fas == 3
    assert s.rec.deck_size == 14 and s.rec.epoch == 1 and s.rec.epoch_remainder[0] == len(top)
    deck, discard, hand, _ = s.cards()
    assert discard == (0, 0) and (deck[0] + hand[0], deck[1] + hand[1]) == (6, 11)


def test_a_forced_enactment_takes_the_top_policy_without_a_reshuffle():
    s = Script(7, president=0, seed=5)
    s.set_piles("LF", discards=(5, 10))
    for k in range(3):
        s.fail(k + 1)
    assert s.rec.liberal_enacted == 1 and s.view(3)["hist_chaos"][0] == 1
    assert s.rec.deck_size == 1 and s.top(1) == "F" and s.rec.epoch == 0
    assert (s.rec.discard_lib, s.rec.discard_fas) == (5, 10)


def test_a_forced_enactment_from_an_empty_deck_shuffles_the_discards_in_first():
    s = Script(7, president=0, seed=5)
    s.set_piles("", discards=(6, 11))
    for k in range(3):
        s.fail(k + 1)
    assert s.rec.liberal_enacted + s.rec.fascist_enacted == 1 and s.rec.epoch == 1
    assert s.rec.deck_size == 16 and s.rec.discard_lib + s.rec.discard_fas == 0


def test_official_reshuffle_after_a_forced_enactment():
    s = Script(7, president=0, seed=5, reshuffle="after_session")
    s.set_piles("LLF", discards=(4, 10))
    for k in range(3):
        s.fail(k + 1)
    assert s.rec.liberal_enacted == 1
    assert s.rec.deck_size == 16 and s.rec.discard_lib + s.rec.discard_fas == 0


@pytest.mark.parametrize("reshuffle", ["at_draw", "after_session"])
def test_a_peek_with_fewer_than_three_left_shuffles_first_and_shows_the_next_presidents_draw(reshuffle):
    s = Script(5, president=1, fascist=2, claims=False, seed=2, reshuffle=reshuffle)
    s.set_piles("FFF" "L", discards=(5, 6))
    s.government(2, F, F)  # the 3rd fascist policy: the peek, with one policy left
    assert s.rec.epoch == 1 and s.rec.deck_size == 14 and s.rec.discard_lib + s.rec.discard_fas == 0
    peeked = s.view(1)["peek"]
    assert peeked.sum() == 3
    assert "".join("LF"[int(card.argmax())] for card in peeked) == s.top(3)
    s.elect(3)  # president 2 draws exactly the peeked policies
    assert [s.rec.hand_lib, s.rec.hand_fas] == list(peeked.sum(axis=0))
    assert s.rec.epoch == 1


def test_a_forced_enactment_spends_the_top_peeked_policy():
    s = Script(5, president=1, fascist=2, claims=False)
    s.set_piles("FFF" "LFL" "F", discards=(4, 4))
    s.government(2, F, F)
    np.testing.assert_array_equal(s.view(1)["peek"], [[1, 0], [0, 1], [1, 0]])
    for k in range(3):
        s.fail(3 + k if 3 + k < 5 else 0)
    assert s.rec.liberal_enacted == 1 and s.rec.deck_size == 3
    np.testing.assert_array_equal(s.view(1)["peek"], [[0, 1], [1, 0], [0, 0]])


def test_a_reshuffle_takes_the_peeked_policies_off_the_top_but_the_peeker_remembers_them():
    s = Script(5, president=1, fascist=2, claims=False)
    s.set_piles("FFF" "LFL", discards=(4, 5))
    s.government(2, F, F)
    assert s.view(1)["peek"].sum() == 3
    for k in range(3):
        s.fail(3 + k if 3 + k < 5 else 0)
    assert s.rec.liberal_enacted == 1 and s.rec.epoch == 0 and s.rec.deck_size == 2
    np.testing.assert_array_equal(s.view(1)["peek"], [[0, 1], [1, 0], [0, 0]])  # still on top
    s.elect(1)  # chaos lifted the limits; the draw from 2 shuffles them back in
    assert s.rec.epoch == 1 and s.rec.deck_size > 3
    assert s.view(1)["peek"].sum() == 0
    np.testing.assert_array_equal(s.view(1)["peek_seen"], [[1, 0], [0, 1], [1, 0]])


@pytest.mark.parametrize("reshuffle", ["at_draw", "after_session"])
def test_reshuffles_keep_the_record_a_valid_game(reshuffle):
    """A scripted game from the deal through a reshuffle (the engine's check replays it)."""
    s = Script(7, roles=[L, L, HITLER, F, F, L, L], deck="LFF" * 4 + "FFF" + "LL", president=0, reshuffle=reshuffle)
    for k in range(4):
        s.government(k + 2, F, F)  # president k, chancellor k + 2 enact a liberal
        check_records(GAME, s.env.get_state())
    s.government(6, F, F)  # president 4 enacts the first fascist policy (no power): L L are left
    check_records(GAME, s.env.get_state())
    assert (s.rec.liberal_enacted, s.rec.fascist_enacted) == (4, 1)
    assert s.rec.epoch == (0 if reshuffle == "at_draw" else 1)
    assert s.rec.deck_size == (2 if reshuffle == "at_draw" else 12)
    s.elect(0)  # president 5 draws
    assert s.rec.epoch == 1 and s.rec.deck_size == 9
    check_records(GAME, s.env.get_state())


# ---- claims -------------------------------------------------------------------------------------


def test_claims_president_then_chancellor_public_before_the_power():
    s = Script(7, deck="FFL" "LLL", president=0, fascist=1)
    s.elect(1)
    s.legislate(L, F)  # enacts F: the 2nd fascist, an investigation at 7 players
    assert s.phase == E.PRESIDENT_CLAIM and s.to_act == 0
    assert sorted(s.legal()) == [E.CLAIM_FASCISTS + k for k in range(4)] + [E.NO_CLAIM]
    s.claim(3)  # a lie: it drew 2 fascists
    assert s.phase == E.CHANCELLOR_CLAIM and s.to_act == 1
    assert sorted(s.legal()) == [E.CLAIM_FASCISTS + k for k in range(3)] + [E.NO_CLAIM]
    s.claim(None)
    assert s.phase == E.INVESTIGATION
    for p in range(7):
        view = s.view(p)
        assert list(view["hist_president_claim"][0]) == [0, 0, 0, 1, 0]
        assert list(view["hist_chancellor_claim"][0]) == [0, 0, 0, 1]


def test_without_claims_there_are_no_claim_phases():
    s = Script(7, deck="FFF" "FFF" "FFF", president=0, fascist=1, claims=False)
    seen = set()
    s.elect(1)
    s.legislate(F, F)
    seen.add(s.phase)
    s.target(3)
    seen.add(s.phase)
    assert seen == {E.INVESTIGATION, E.NOMINATION}
    assert s.view(2)["hist_president_claim"].sum() == 0 and s.view(2)["hist_investigation_claim"].sum() == 0


# ---- the action space ----------------------------------------------------------------------------


def test_every_action_has_a_distinct_name():
    names = [action_name(a) for a in range(GAME.num_actions)]
    assert len(set(names)) == GAME.num_actions == 36
    assert action_name(E.VOTE_JA) == "vote ja" and action_name(E.TARGET + 3).startswith("choose player_3")


def test_only_the_seat_to_act_has_legal_actions():
    s = Script(7, president=4)
    for p in range(7):
        assert (s.legal(p) != []) == (p == 4)
