"""Rulebook scenarios: each test sets up a position with the scripting helpers, plays what the
rulebook (``shared/rulebooks/secret_hitler.txt``) describes through the env's public API (every
action checked against the legal mask first) and asserts what the rulebook says must happen.

Played at the default configuration (7 players, claims on, the rulebook's term limits and
reshuffle) unless a rule needs another player count. Default roles of ``Script``: seat 0 is
Hitler, seats 1 and 2 the ordinary fascists, seats 3-6 liberals. At 7 players the fascist
track's powers are: -, investigate, special election, execution, execution.
"""

import numpy as np
import pytest

from envs.secret_hitler import engine as E
from envs.secret_hitler.env import raw_env

from .scripting import HITLER, F, L, Script

N = 7  # the default player count
CLAIM_ACTIONS = set(range(E.CLAIM_FASCISTS, E.NUM_ACTIONS))


def seats(actions, base):
    """The seats named by the actions ``base + seat`` among ``actions``."""
    return sorted(a - base for a in actions if base <= a < base + E.MAX_PLAYERS)


def agent(seat):
    return f"player_{seat}"


def selected(s):
    """The seat PettingZoo selects to act."""
    return int(s.env.agent_selection.split("_")[1])


def tracks(s, seat=6):
    """(liberal, fascist) policies enacted, as the public observation of ``seat`` shows them."""
    view = s.view(seat)
    return int(view["liberal_track"].argmax()), int(view["fascist_track"].argmax())


def tracker(s, seat=6):
    return int(s.view(seat)["tracker"].argmax())


def assert_over(s, winners):
    """The game has ended: every agent terminated, nobody may act, and +1 to exactly ``winners``."""
    assert all(s.env.terminations.values())
    for p in range(s.n):
        assert s.env.legal_actions(agent(p)) == []
        assert s.env.rewards[agent(p)] == (1.0 if p in winners else -1.0), p
    assert int(s.view(3)["phase"].argmax()) == E.GAME_OVER


def assert_going_on(s):
    assert not any(s.env.terminations.values())
    assert not s.rewards().any()
    assert s.legal() != []


FASCIST_TEAM = {0, 1, 2}
LIBERAL_TEAM = {3, 4, 5, 6}


# ---- two teams, setup ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(8))
def test_at_the_default_table_the_liberals_are_the_majority_and_there_is_one_hitler(seed):
    """"liberals • Don't know each other but are the majority"; "DRAGON is HITLER, ALL THE REST
    are just members"; "6 BLUE (LIBERAL) policies and 11 BLACK (FASCIST) policies"."""
    env = raw_env()
    env.reset(seed=seed)
    assert env.num_players == N
    roles = []
    for p in range(N):
        view = E.LAYOUT.views(env.observe(agent(p))["observation"])
        roles.append(int(view["role"].argmax()))
        if roles[-1] == L:  # a liberal knows nobody but itself
            known = view["known_roles"][:N]
            assert known.sum() == 1 and known[p, L] == 1
        assert view["deck_size"][0] == 17 and view["discard_size"][0] == 0
        assert view["liberal_track"].argmax() == 0 and view["fascist_track"].argmax() == 0
    assert roles.count(HITLER) == 1
    assert roles.count(L) > N / 2, "the liberals are the majority"
    assert roles.count(F) + roles.count(HITLER) == N - roles.count(L)


def test_fascists_know_hitler_and_each_other_hitler_knows_nobody_at_the_default_table():
    """"Ordinary FASCISTS know each other and HITLER • HITLER doesn't know the other FASCISTS"."""
    s = Script()
    for fascist in (1, 2):
        known = s.view(fascist)["known_roles"][:N]
        assert known[0, HITLER] == 1 and known[1, F] == 1 and known[2, F] == 1
    hitler_known = s.view(0)["known_roles"][:N]
    assert hitler_known.sum() == 1 and hitler_known[0, HITLER] == 1


# ---- A. election ----------------------------------------------------------------------------


def test_the_president_nominates_a_chancellor_and_all_living_players_vote():
    """"1. The PRESIDENT nominates a CHANCELLOR" "2. ALL vote simultaneously, with a JA! or NEIN!
    card": after the nomination every one of the 7 players (the president too) votes once."""
    s = Script(president=4)
    assert selected(s) == 4 and seats(s.legal(), E.NOMINATE) == [0, 1, 2, 3, 5, 6]
    for p in range(N):
        if p != 4:
            assert s.env.legal_actions(agent(p)) == []
    s.nominate(6)
    voters = []
    while s.phase == E.ELECTION:
        voter = selected(s)
        assert sorted(s.legal()) == [E.VOTE_JA, E.VOTE_NEIN]
        voters.append(voter)
        s.act(E.VOTE_JA)
    assert sorted(voters) == list(range(N))
    assert s.phase == E.PRESIDENT_LEGISLATES


@pytest.mark.parametrize("ja,elected", [(4, True), (3, False), (7, True), (0, False)])
def test_more_than_fifty_percent_ja_elects_at_the_default_table(ja, elected):
    """"3. If more than 50% JA!, the CHANCELLOR is elected" / "4. If 50% or less voted JA!, the
    election failed: • Next player becomes PRESIDENT" (7 players: 4 ja is a majority, 3 is not)."""
    s = Script(president=2)
    s.elect(5, ja=set(range(ja)))
    view = s.view(6)
    assert view["hist_elected"][0] == int(elected)
    if elected:
        assert s.phase == E.PRESIDENT_LEGISLATES and selected(s) == 2
        assert view["chancellor"].argmax() == 5 and view["chancellor"].sum() == 1
        assert tracker(s) == 0
    else:
        assert s.phase == E.NOMINATION and selected(s) == 3, "the next player becomes president"
        assert view["president"].argmax() == 3
        assert tracker(s) == 1


def test_a_failed_election_passes_the_presidency_to_the_next_player_around_the_table():
    """"If 50% or less voted JA!, the election failed: • Next player becomes PRESIDENT" (from the
    last seat back to the first)."""
    s = Script(president=5)
    s.fail(1)
    assert selected(s) == 6
    s.fail(1)
    assert selected(s) == 0  # around the table
    assert tracker(s) == 2


def test_three_failures_in_a_row_enact_the_top_policy():
    """"3 failures in a row = the top policy is enacted (without actions)": the top card (a
    liberal) goes on the track, and the next player becomes president."""
    s = Script(deck="L", president=0)
    s.fail(1)
    s.fail(2)
    assert tracks(s) == (0, 0) and tracker(s) == 2
    s.fail(4)
    assert tracks(s) == (1, 0) and tracker(s) == 0
    view = s.view(5)
    assert view["hist_chaos"][0] == 1 and list(view["hist_policy"][0]) == [1, 0]
    assert view["deck_size"][0] == 16
    assert s.phase == E.NOMINATION and selected(s) == 3
    assert_going_on(s)


def test_a_forced_third_fascist_policy_gives_no_special_election():
    """"3 failures in a row = the top policy is enacted (without actions)": at 7 players the 3rd
    fascist policy's special election is not used; the next player simply becomes president."""
    s = Script(deck="F", president=0, fascist=2)
    for nominee in (3, 4, 5):
        s.fail(nominee)
    assert tracks(s) == (0, 3)
    assert s.phase == E.NOMINATION and selected(s) == 3
    assert s.view(4)["hist_power"][0].sum() == 0
    assert seats(s.legal(), E.TARGET) == []


def test_a_forced_fourth_fascist_policy_executes_nobody():
    """"3 failures in a row = the top policy is enacted (without actions)": the 4th fascist
    policy's execution is not used."""
    s = Script(deck="F", president=4, fascist=3)
    for nominee in (1, 2, 3):
        s.fail(nominee)
    assert tracks(s) == (0, 4)
    assert s.phase == E.NOMINATION and selected(s) == 0
    assert s.view(3)["alive"][:N].sum() == N


def test_failures_that_are_not_in_a_row_do_not_enact_a_policy():
    """"3 failures in a row = the top policy is enacted": two failures, an elected government that
    enacts a policy, then two more failures: no forced policy."""
    s = Script(deck="LLL" "FFF", president=0)
    s.fail(3)
    s.fail(3)
    assert tracker(s) == 2
    s.government(4, L, L)  # president 2 and chancellor 4 enact a liberal
    assert tracks(s) == (1, 0) and tracker(s) == 0
    s.fail(5)
    s.fail(6)
    assert tracks(s) == (1, 0) and tracker(s) == 2
    assert s.view(0)["deck_size"][0] == 14, "no card was taken from the deck"


def test_the_government_that_enacted_the_last_policy_cannot_be_nominated():
    """"The president and chancellor that enacted the last policy CANNOT be nominated": after
    president 0 and chancellor 1 enact a policy, the next presidents may not nominate either of
    them; once another government enacts, the limits move to it."""
    s = Script(deck="LLL" "LLL", president=0)
    s.government(1, L, L)
    assert selected(s) == 1
    assert seats(s.legal(), E.NOMINATE) == [2, 3, 4, 5, 6]
    s.fail(2)
    assert selected(s) == 2
    assert seats(s.legal(), E.NOMINATE) == [3, 4, 5, 6]
    with pytest.raises(Exception):
        s.env.step(E.NOMINATE + 1)  # the illegal nomination is refused
    s.government(5, L, L)  # president 2 and chancellor 5 enact
    assert selected(s) == 3
    assert seats(s.legal(), E.NOMINATE) == [0, 1, 4, 6]


def test_three_failures_reset_the_term_limits():
    """"The president and chancellor that enacted the last policy CANNOT be nominated (reset after
    3 failures)"."""
    s = Script(deck="LLL", president=0)
    s.government(1, L, L)  # 0 and 1 are term-limited
    s.fail(2)  # president 1 (may not nominate 0)
    assert selected(s) == 2 and seats(s.legal(), E.NOMINATE) == [3, 4, 5, 6]
    s.fail(3)
    assert selected(s) == 3 and seats(s.legal(), E.NOMINATE) == [2, 4, 5, 6]
    s.fail(4)  # the third failure in a row: the top policy (a fascist) is enacted
    assert tracks(s) == (1, 1)
    assert selected(s) == 4
    assert seats(s.legal(), E.NOMINATE) == [0, 1, 2, 3, 5, 6], "the limits are reset"
    assert s.view(6)["term_limited"].sum() == 0


# ---- Hitler elected chancellor -----------------------------------------------------------------


@pytest.mark.parametrize("fascist", [3, 4, 5])
def test_hitler_elected_chancellor_with_three_or_more_fascist_policies_wins_for_the_fascists(fascist):
    """"If 3 (or more) FASCIST policies have been enacted check if Hitler is elected. If yes,
    FASCISTS win!" (with 3, 4 and 5 fascist policies)."""
    s = Script(president=4, fascist=fascist)
    s.elect(0)  # seat 0 is Hitler
    assert_over(s, FASCIST_TEAM)


def test_hitler_elected_chancellor_with_two_fascist_policies_does_not_win_even_when_his_government_enacts_the_third():
    """"If 3 (or more) FASCIST policies have been enacted check if Hitler is elected": the check is
    made at the election. Hitler elected with 2 fascist policies enacts the 3rd: the game goes on
    (to the 3rd policy's special election at 7 players)."""
    s = Script(deck="FFF", president=3, fascist=2)
    s.elect(0)
    assert_going_on(s)
    s.legislate(F, F)
    assert tracks(s) == (0, 3)
    assert_going_on(s)
    s.skip_claims()
    assert s.phase == E.SPECIAL_ELECTION and selected(s) == 3


def test_hitler_elected_president_is_no_win():
    """"3 (or more) FASCIST policies are enacted AND HITLER is elected CHANCELLOR": Hitler as
    president with another chancellor wins nothing."""
    s = Script(president=0, fascist=3)
    s.elect(4)
    assert_going_on(s)
    assert s.phase == E.PRESIDENT_LEGISLATES


def test_hitler_nominated_but_rejected_is_no_win():
    """"If more than 50% JA!, the CHANCELLOR is elected • If 3 (or more) FASCIST policies have been
    enacted check if Hitler is elected": a rejected Hitler is not elected (3 ja of 7)."""
    s = Script(president=3, fascist=3)
    s.elect(0, ja={0, 1, 2})
    assert_going_on(s)
    assert tracker(s) == 1 and selected(s) == 4


def test_a_forced_third_fascist_policy_also_opens_the_hitler_win():
    """"3 (or more) FASCIST policies are enacted AND HITLER is elected CHANCELLOR": the third
    fascist policy put there by three failed elections counts."""
    s = Script(deck="F", president=4, fascist=2)
    for nominee in (1, 2, 3):
        s.fail(nominee)
    assert tracks(s) == (0, 3)
    assert selected(s) == 0  # Hitler is president; the next one nominates him
    s.fail(5)
    assert selected(s) == 1
    s.elect(0)
    assert_over(s, FASCIST_TEAM)


# ---- B. legislative session ---------------------------------------------------------------------


def test_the_president_takes_the_first_three_policies_and_the_chancellor_enacts_the_other():
    """"2. PRESIDENT takes the first THREE POLICIES" "3. PRESIDENT discards (secretly) 1, gives rest
    to CHANCELLOR" "4. CHANCELLOR discards (secretly) 1 and the other is enacted"."""
    s = Script(deck="FLF" "LLL", president=1)
    s.elect(3)
    assert list(s.view(1)["hand"]) == [1, 2] and s.view(1)["deck_size"][0] == 14
    assert seats(s.legal(), E.PRESIDENT_DISCARD) == [L, F]
    s.act(E.PRESIDENT_DISCARD + L)
    assert selected(s) == 3 and list(s.view(3)["hand"]) == [0, 2]
    assert seats(s.legal(), E.CHANCELLOR_DISCARD) == [F]
    s.act(E.CHANCELLOR_DISCARD + F)
    assert tracks(s) == (0, 1)
    assert s.view(5)["discard_size"][0] == 2 and s.view(5)["deck_size"][0] == 14
    assert s.view(1)["hand"].sum() == 0 and s.view(3)["hand"].sum() == 0


def test_the_discards_are_secret():
    """"PRESIDENT discards (secretly) 1 ... CHANCELLOR discards (secretly) 1": two sessions that
    enact the same liberal policy from different hands (LFF: the president and the chancellor
    each throw away a fascist; LLF: the president throws away a liberal) look the same to every
    other player, the chancellor included; only the president's view tells them apart."""
    a = Script(deck="LFF", president=2, seed=7)
    b = Script(deck="LLF", president=2, seed=7)
    for s, discard in ((a, F), (b, L)):
        s.elect(4)
        s.act(E.PRESIDENT_DISCARD + discard)
    assert list(a.view(4)["hand"]) == [1, 1] and list(b.view(4)["hand"]) == [1, 1]
    for p in range(N):
        if p != 2:
            np.testing.assert_array_equal(a.obs(p), b.obs(p), err_msg=f"player_{p} sees the discard")
    for s in (a, b):
        s.act(E.CHANCELLOR_DISCARD + F)
        assert tracks(s) == (1, 0)
    for p in range(N):
        if p != 2:
            np.testing.assert_array_equal(a.obs(p), b.obs(p), err_msg=f"player_{p} sees a discard")
    assert not np.array_equal(a.obs(2), b.obs(2))


def test_president_and_chancellor_cannot_speak_before_a_policy_is_enacted():
    """"1. president and chancellor are not allowed to speak before a policy has been enacted!":
    no claim is legal while they hold the policies; the claims come after the enactment."""
    s = Script(deck="LFF")
    s.elect(1)
    assert not set(s.legal()) & CLAIM_ACTIONS
    s.act(E.PRESIDENT_DISCARD + F)
    assert not set(s.legal()) & CLAIM_ACTIONS
    s.act(E.CHANCELLOR_DISCARD + F)
    assert tracks(s) == (1, 0)
    assert s.phase == E.PRESIDENT_CLAIM and set(s.legal()) <= CLAIM_ACTIONS


def test_with_fewer_than_three_policies_the_discards_are_shuffled_in():
    """"PRESIDENT takes the first THREE POLICIES • If less than three policies remain, shuffle in
    the discarded": 2 left and 15 discarded, the president draws 3 of the 17 and leaves 14."""
    s = Script(president=0)
    s.set_piles("LF", discards=(5, 10))
    assert s.view(3)["deck_size"][0] == 2 and s.view(3)["discard_size"][0] == 15
    s.elect(3)
    view = s.view(3)
    assert view["discard_size"][0] == 0 and view["deck_size"][0] == 14
    assert s.view(0)["hand"].sum() == 3
    deck, discard, hand, _ = s.cards()
    assert discard == (0, 0) and deck[0] + hand[0] == 6 and deck[1] + hand[1] == 11


# ---- veto -----------------------------------------------------------------------------------------


def test_no_veto_with_four_fascist_policies():
    """"If 5 FASCIST policies have already been enacted, CHANCELLOR can agree with PRESIDENT to
    veto": not with 4."""
    s = Script(deck="LFF", president=3, fascist=4)
    s.elect(4)
    s.act(E.PRESIDENT_DISCARD + F)
    assert E.PROPOSE_VETO not in s.legal()
    assert s.view(4)["veto_unlocked"][0] == 0


def test_a_veto_counts_as_a_failed_election():
    """"If 5 FASCIST policies have already been enacted, CHANCELLOR can agree with PRESIDENT to
    veto. In that case run another election (counts as failed election)": nothing is enacted, the
    next player becomes president and the tracker advances."""
    s = Script(deck="LFF", president=3, fascist=5)
    s.elect(4)
    assert s.view(6)["veto_unlocked"][0] == 1
    s.act(E.PRESIDENT_DISCARD + F)
    assert E.PROPOSE_VETO in s.legal()
    s.act(E.PROPOSE_VETO)
    assert selected(s) == 3 and E.CONSENT_VETO in s.legal(), "the president must agree"
    s.act(E.CONSENT_VETO)
    assert tracks(s) == (0, 5) and tracker(s) == 1
    s.skip_claims()
    assert s.phase == E.NOMINATION and selected(s) == 4
    assert s.view(6)["discard_size"][0] == 3
    assert_going_on(s)


def test_a_veto_after_two_failed_elections_is_the_third_failure_in_a_row():
    """"veto. In that case run another election (counts as failed election)" with "3 failures in a
    row = the top policy is enacted (without actions)"."""
    s = Script(deck="LFF" "L", president=1, fascist=5)
    s.fail(3)  # president 1
    s.fail(3)  # president 2
    assert tracker(s) == 2 and selected(s) == 3
    s.elect(4)
    s.act(E.PRESIDENT_DISCARD + F)
    s.act(E.PROPOSE_VETO)
    s.act(E.CONSENT_VETO)
    assert tracks(s) == (1, 5) and tracker(s) == 0
    assert s.view(5)["hist_chaos"][0] == 1
    s.skip_claims()
    assert s.phase == E.NOMINATION and selected(s) == 4


def test_the_president_may_refuse_the_veto_then_the_chancellor_enacts():
    """"CHANCELLOR can agree with PRESIDENT to veto": the veto needs both; refused, the chancellor
    discards one and the other is enacted."""
    s = Script(deck="FFF", president=3, fascist=5)
    s.elect(4)
    s.act(E.PRESIDENT_DISCARD + F)
    s.act(E.PROPOSE_VETO)
    s.act(E.REFUSE_VETO)
    assert selected(s) == 4 and E.PROPOSE_VETO not in s.legal()
    s.act(E.CHANCELLOR_DISCARD + F)
    assert_over(s, FASCIST_TEAM)  # the 6th fascist policy


def test_a_fifth_fascist_policy_enacted_by_three_failures_unlocks_the_veto():
    """"If 5 FASCIST policies have already been enacted, CHANCELLOR can agree with PRESIDENT to
    veto": the 5th may come from the top of the deck."""
    s = Script(deck="F" "LFF", president=0, fascist=4)
    for nominee in (3, 4, 5):
        s.fail(nominee)
    assert tracks(s) == (0, 5)
    assert selected(s) == 3
    s.elect(4)
    s.act(E.PRESIDENT_DISCARD + F)
    assert E.PROPOSE_VETO in s.legal()


# ---- C. executive actions ------------------------------------------------------------------------


def test_a_liberal_policy_gives_the_president_no_action():
    """"If passed policy was FASCIST, PRESIDENT may have to do an action": a liberal policy with
    4 fascist policies on the track (the next fascist would execute) gives none."""
    s = Script(deck="LLL", president=3, fascist=4)
    s.government(4, L, L)
    assert tracks(s) == (1, 4)
    assert s.phase == E.NOMINATION and selected(s) == 4
    assert s.view(5)["hist_power"][0].sum() == 0


@pytest.mark.parametrize("target,party", [(0, F), (1, F), (5, L)])
def test_investigate_shows_the_party_card_to_the_president_only(target, party):
    """"investigate • PRESIDENT looks (secretly) at the card of a player" (the party card: RED
    means LIBERAL, BLACK means FASCIST; Hitler's is black). At 7 players the 2nd fascist policy
    investigates."""
    s = Script(deck="FFF", president=3, fascist=1)
    s.government(4, F, F)
    assert s.phase == E.INVESTIGATION and selected(s) == 3
    assert seats(s.legal(), E.TARGET) == [0, 1, 2, 4, 5, 6]
    s.target(target)
    seen = s.view(3)["investigation"][:N]
    assert seen.sum() == 1 and seen[target, party] == 1
    assert s.view(3)["known_roles"][target].sum() == 0, "the party, not the role"
    for p in range(N):
        if p != 3:
            assert s.view(p)["investigation"].sum() == 0
    s.skip_claims()
    assert s.phase == E.NOMINATION and selected(s) == 4


def test_special_election_the_chosen_player_becomes_president_then_normal_order_resumes():
    """"special election • PRESIDENT picks a player and they become PRESIDENT • Afterwards, normal
    order is resumed": at 7 players the 3rd fascist policy. President 1 picks player 5, whose
    government enacts a policy; then player 2 (next after 1) is president, not player 6."""
    s = Script(deck="FFF" "LLL", president=1, fascist=2)
    s.government(2, F, F)
    assert s.phase == E.SPECIAL_ELECTION and selected(s) == 1
    s.target(5)
    assert s.phase == E.NOMINATION and selected(s) == 5
    assert s.view(3)["president"].argmax() == 5
    s.government(6, L, L)
    assert tracks(s) == (1, 3)
    assert s.phase == E.NOMINATION and selected(s) == 2
    assert seats(s.legal(), E.NOMINATE) == [0, 1, 3, 4], "5 and 6 enacted the last policy"
    s.fail(3)
    assert selected(s) == 3


@pytest.mark.parametrize("fascist", [3, 4])
def test_execute_a_player_who_is_not_hitler_the_game_goes_on_without_him(fascist):
    """"EXECUTE • PRESIDENT executes a player": at 7 players the 4th and 5th fascist policies. The
    executed player never acts again: no vote, no presidency, no nomination; the game goes on."""
    s = Script(deck="FFF", president=3, fascist=fascist)
    s.government(5, F, F)
    assert s.phase == E.EXECUTION and selected(s) == 3
    assert seats(s.legal(), E.TARGET) == [0, 1, 2, 4, 5, 6]
    s.target(4)  # the next president in the rotation
    assert_going_on(s)
    assert s.view(6)["alive"][4] == 0
    assert selected(s) == 5, "the presidency skips the executed player"
    assert 4 not in seats(s.legal(), E.NOMINATE)
    s.nominate(6)
    voters = []
    while s.phase == E.ELECTION:
        voters.append(selected(s))
        assert s.env.legal_actions(agent(4)) == []
        s.act(E.VOTE_NEIN)
    assert sorted(voters) == [0, 1, 2, 3, 5, 6]
    assert selected(s) == 6


@pytest.mark.parametrize("fascist", [3, 4])
def test_executing_hitler_wins_for_the_liberals(fascist):
    """"PRESIDENT executes a player. If he is HITLER, LIBERALS win!"."""
    s = Script(deck="FFF", president=3, fascist=fascist)
    s.government(5, F, F)
    s.target(0)
    assert_over(s, LIBERAL_TEAM)


def test_policy_peek_shows_the_next_three_policies_to_the_president_only():
    """"POLICY PEEK • PRESIDENT secretly looks at the next three policies" (the 3rd fascist policy
    at 5 players); they are the three the next president takes."""
    s = Script(5, deck="FFF" "FLL", president=2, fascist=2)
    s.government(3, F, F)
    assert s.phase == E.PEEK_CLAIM and selected(s) == 2
    np.testing.assert_array_equal(s.view(2)["peek"], [[0, 1], [1, 0], [1, 0]])
    for p in (0, 1, 3, 4):
        assert s.view(p)["peek"].sum() == 0
    s.skip_claims()
    assert selected(s) == 3
    s.elect(1)
    assert list(s.view(3)["hand"]) == [2, 1]


# ---- winning ----------------------------------------------------------------------------------------


def test_five_liberal_policies_win_for_the_liberals():
    """"liberals • Win when... • 5 LIBERAL POLICIES are enacted"."""
    s = Script(deck="LLF", president=0, liberal=4)
    s.elect(1)
    s.legislate(F, L)
    assert tracks(s) == (5, 0)
    assert_over(s, LIBERAL_TEAM)


def test_six_fascist_policies_win_for_the_fascists_hitler_included():
    """"FASCISTS • Win when... • 6 FASCIST POLICIES are enacted"."""
    s = Script(deck="FFL", president=3, fascist=5)
    s.elect(4)
    s.legislate(L, F)
    assert tracks(s) == (0, 6)
    assert_over(s, FASCIST_TEAM)


def test_a_sixth_fascist_policy_from_the_top_of_the_deck_wins_for_the_fascists():
    """"6 FASCIST POLICIES are enacted" with "3 failures in a row = the top policy is enacted"."""
    s = Script(deck="F", president=3, fascist=5)
    for nominee in (4, 5, 6):
        s.fail(nominee)
    assert_over(s, FASCIST_TEAM)


def test_four_liberal_policies_do_not_win():
    """"5 LIBERAL POLICIES are enacted": four are not enough."""
    s = Script(deck="LLF", president=0, liberal=3)
    s.government(1, F, L)
    assert tracks(s) == (4, 0)
    assert_going_on(s)


# ---- whole games from the deal ------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_random_games_from_the_deal_end_only_as_the_rulebook_says(seed):
    """"liberals • Win when... • 5 LIBERAL POLICIES are enacted OR • HITLER is EXECUTED";
    "FASCISTS • Win when... • 6 FASCIST POLICIES are enacted OR • 3 (or more) FASCIST POLICIES are
    enacted AND HITLER is elected CHANCELLOR": games at the default table, random legal actions,
    end exactly when one of the four happens, and the rewards go to that team."""
    env = raw_env()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    hitler = int(np.flatnonzero(env._states[0].role[:N] == HITLER)[0])
    for _ in range(2000):
        if all(env.terminations.values()):
            break
        view = E.LAYOUT.views(env.observe(agent(0))["observation"])
        liberal, fascist = int(view["liberal_track"].argmax()), int(view["fascist_track"].argmax())
        assert liberal < 5 and fascist < 6 and view["alive"][hitler] == 1
        legal = env.legal_actions(env.agent_selection)
        env.step(int(rng.choice(legal)))
    assert all(env.terminations.values())
    view = E.LAYOUT.views(env.observe(agent(0))["observation"])
    liberal, fascist = int(view["liberal_track"].argmax()), int(view["fascist_track"].argmax())
    hitler_chancellor = bool(view["hist_elected"][0]) and view["hist_nominee"][0].argmax() == hitler
    conditions = {
        L: [liberal == 5, view["alive"][hitler] == 0],
        F: [fascist == 6, fascist >= 3 and hitler_chancellor],
    }
    winner = L if any(conditions[L]) else F
    assert sum(conditions[L]) + sum(conditions[F]) == 1, conditions
    roles = env._states[0].role[:N]
    for p in range(N):
        team = L if roles[p] == L else F
        assert env.rewards[agent(p)] == (1.0 if team == winner else -1.0)
