"""What a seat keeps in mind over the whole game: the per-player track records, its own sessions
and its peek, in scripted games with every number written out."""

import numpy as np

from envs.secret_hitler import engine as E
from envs.secret_hitler import render

from .scripting import HITLER, F, L, Script


def three_governments():
    """7 players; claims on. Player_1 and player_2 are the ordinary fascists, player_0 Hitler.

    1. president 3, chancellor 4 (all ja): 3 draws L F F, passes L F; 4 enacts L. Claims 2 and 1 (true).
    2. president 4, chancellor 1 (ja: 0 1 2 4 5): 4 draws L L F, passes L F; 1 throws the liberal
       away and enacts F. Claims 1 (true) and 2 (a lie: 4 passed one fascist; they conflict).
    3. president 5, chancellor 2 (all ja): 5 draws F F F; 2 enacts F. Claims 3 (true) and 0 (a lie
       the enacted fascist refutes). The second fascist policy: 5 investigates 1 and calls it liberal.
    """
    s = Script(7, roles=[HITLER, F, F, L, L, L, L], deck="LFF" "LLF" "FFF", president=3)
    s.elect(4)
    s.legislate(F, F)
    s.claim(2)
    s.claim(1)
    s.elect(1, ja={0, 1, 2, 4, 5})
    s.legislate(L, L)
    s.claim(1)
    s.claim(2)
    s.elect(2)
    s.legislate(F, F)
    s.claim(3)
    s.claim(0)
    s.target(1)
    s.claim(L)
    assert s.phase == E.NOMINATION and (s.rec.liberal_enacted, s.rec.fascist_enacted) == (1, 2)
    return s


def by_seat(block, n=7):
    return {p: block[p].tolist() for p in range(n) if np.any(block[p])}


def test_public_track_records_count_every_government():
    s = three_governments()
    for seat in range(7):  # public: the same for everybody
        v = s.view(seat)
        assert by_seat(v["sessions"]) == {1: [0, 1], 2: [0, 1], 3: [1, 0], 4: [1, 1], 5: [1, 0]}
        assert by_seat(v["enacted_by"]) == {
            1: [[0, 0], [0, 1]], 2: [[0, 0], [0, 1]], 3: [[1, 0], [0, 0]], 4: [[0, 1], [1, 0]], 5: [[0, 1], [0, 0]]}
        assert v["ja_for"][:7, L].tolist() == [1] * 7
        assert v["ja_for"][:7, F].tolist() == [2, 2, 2, 1, 2, 2, 1]
        assert by_seat(v["claim_conflicts"]) == {1: 1, 4: 1, 2: 1, 5: 1}
        assert by_seat(v["false_claims"]) == {2: 1}
        assert by_seat(v["claimed_party"]) == {1: [1, 0]}


def test_lies_and_discards_a_seat_saw_itself():
    s = three_governments()
    lies = {seat: by_seat(s.view(seat)["lies_seen"]) for seat in range(7)}
    assert lies == {
        0: {},  # Hitler at 7 players knows nobody
        1: {5: 1},  # called liberal while it is a fascist
        2: {5: 1},  # a fascist knows every role
        3: {},  # its chancellor told the truth
        4: {1: 1},  # it passed one fascist, its chancellor claimed two
        5: {2: 1},  # it passed two fascists, its chancellor claimed none
        6: {},
    }
    discards = {seat: by_seat(s.view(seat)["liberal_discards_seen"]) for seat in range(7)}
    assert discards == {0: {}, 1: {}, 2: {}, 3: {}, 4: {1: 1}, 5: {}, 6: {}}


def test_each_seat_sees_the_cards_of_its_own_sessions_in_every_row():
    s = three_governments()
    v = s.view(4)  # rows: 0 = the third government, 1 = the second (its presidency), 2 = the first
    assert v["hist_drawn"][:3].tolist() == [[0, 0], [2, 1], [0, 0]]
    assert v["hist_received"][:3].tolist() == [[0, 0], [1, 1], [1, 1]]
    outsider = s.view(6)
    assert not outsider["hist_drawn"].any() and not outsider["hist_received"].any()
    np.testing.assert_array_equal(s.view(5)["investigation"][1], [0, 1])
    assert not s.view(6)["investigation"].any()


def peeked_then_drawn(president_claim):
    """5 players: fascist president 1 enacts the third fascist policy and peeks L L F, claims 2
    fascists (a lie); liberal president 2 then draws those three and claims ``president_claim``."""
    s = Script(5, roles=[HITLER, F, L, L, L], deck="FFL" "LLF", president=1, fascist=2)
    s.elect(2)
    s.legislate(L, F)
    s.claim(3)
    s.claim(2)
    assert s.phase == E.PEEK_CLAIM
    np.testing.assert_array_equal(s.view(1)["peek"], [[1, 0], [1, 0], [0, 1]])
    s.claim(2)
    s.elect(3)
    s.legislate(F, L)
    s.claim(president_claim)
    s.claim(0)
    return s


def test_the_peek_stays_in_view_after_the_peeked_policies_are_drawn():
    s = peeked_then_drawn(1)
    assert not s.view(1)["peek"].any()
    np.testing.assert_array_equal(s.view(1)["peek_seen"], [[1, 0], [1, 0], [0, 1]])
    assert all(not s.view(p)["peek_seen"].any() for p in (0, 2, 3, 4))
    assert "player_1 peeked: LLF (next first; 0 still on the deck)" in render.ansi(s.rec, s.env.config, viewer=1)
    assert "peeked" not in render.ansi(s.rec, s.env.config, viewer=2)


def test_whoever_drew_the_peeked_policies_catches_a_false_peek_claim():
    s = peeked_then_drawn(1)
    assert by_seat(s.view(2)["lies_seen"], 5) == {1: 1}  # it drew one fascist, the peeker claimed two
    assert by_seat(s.view(3)["lies_seen"], 5) == {1: 1}  # it received two liberals: at most one fascist
    assert by_seat(s.view(4)["lies_seen"], 5) == {} and by_seat(s.view(0)["lies_seen"], 5) == {}
    assert by_seat(s.view(1)["lies_seen"], 5) == {}  # the president's claim fits what it peeked


def test_the_peeker_catches_a_president_who_lies_about_the_peeked_hand():
    s = peeked_then_drawn(0)
    assert by_seat(s.view(1)["lies_seen"], 5) == {2: 1}
    assert by_seat(s.view(3)["lies_seen"], 5) == {1: 1}  # two liberals received: a claim of 0 or 1 fits
