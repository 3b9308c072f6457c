"""The horsepower contest (rulebook V and VI): the four plays and passing, every misery card and
every reaction, handed-over cards, spare parts moving, and the end of the round."""

import pytest

from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    BULL, ENGINE_10, ENGINE_20, ENGINE_50, ENGINE_100, FLAT_FRONT, FRONT, FUCK_TUV, LACH, MOTOR_HER, NAIL, PUMP,
    RAD_HER, REAR_1, ROLE_ENGINE, ROLE_FRONT, ROLE_REAR, SPARE_0, TURBO, TUV, WOODEN_FRONT,
)

from .helpers import (
    contest_position, discard, fit, kind_totals, legal, make, misery, move, record, remove, slot, valid,
)

REAR_2, REAR_3, REAR_4 = REAR_1 + 1, REAR_1 + 2, REAR_1 + 3
BASIC = [FRONT, ENGINE_20, REAR_1]


def top_of_discard(rec):
    i = rec["discard_size"] - 1
    return int(rec["discard"][i]), int(rec["discard_seen"][i])


def conserved(env):
    return (kind_totals(record(env)) == E.COUNTS).all()


# ---- passing and the end of the round ----------------------------------------------------------


def test_the_round_ends_when_every_seat_in_it_has_passed_in_a_row():
    env = contest_position(3, hands={0: [ENGINE_10], 1: [], 2: []}, bikes={s: BASIC for s in range(3)},
                           num_rounds=2)
    rec = record(env)
    env.step(E.PASS)
    env.step(E.PASS)
    assert rec["pass_streak"] == 2 and rec["current_player"] == 2 and rec["round_index"] == 0
    env.step(E.PASS)
    assert rec["round_index"] == 1  # three passes in a row


def test_a_play_between_passes_starts_the_count_again():
    env = contest_position(2, hands={0: [ENGINE_10], 1: [ENGINE_20]}, bikes={0: BASIC, 1: BASIC}, num_rounds=2)
    rec = record(env)
    env.step(E.PASS)                    # seat 0
    env.step(discard(ENGINE_20))        # seat 1 plays: the count restarts
    assert rec["pass_streak"] == 0
    env.step(E.PASS)                    # seat 0
    assert rec["round_index"] == 0
    env.step(E.PASS)                    # seat 1
    assert rec["round_index"] == 1


def test_turns_skip_seats_out_of_the_round():
    env = contest_position(4, bikes={0: BASIC, 2: BASIC, 3: BASIC}, out=(1,), hands={0: [ENGINE_10]})
    rec = record(env)
    seats = []
    for _ in range(3):
        seats.append(int(rec["current_player"]))
        env.step(E.PASS)
    assert seats == [0, 2, 3]


def test_passing_is_always_possible_and_nothing_else_with_nothing_to_play():
    env = contest_position(2, bikes={0: [], 1: BASIC})
    assert legal(env) == {E.PASS}


# ---- a) a card off the own bike (the default, the rulebook's text) --------------------------------
# "Each player must, in turn, play one card, and has 4 options: a) Remove a card from their own
# motorcycle, or b) play a misery card on another player's motorcycle, or c) place a card face down
# on the discard pile, or d) place one of their laid-out motorcycle cards on the discard pile and
# replace it with a card from their hand." A hand card reaches the bike only by d), in place of a
# laid-out card.


def test_the_default_is_the_rulebooks_text():
    config = make(2).config
    assert config["own_bike"] == "remove" and config["refill_from_hand"] is False


def test_a_removes_a_card_from_the_own_bike_face_up_onto_the_discard_pile():
    env = contest_position(2, bikes={0: BASIC + [ENGINE_10, TURBO], 1: BASIC})
    rec = record(env)
    # Any card of the own bike, the Turbo included; none of another bike.
    removable = {a for a in legal(env) if E.REMOVE_BASE <= a < E.SLOT_BASE}
    assert removable == {remove(FRONT), remove(ENGINE_20), remove(ENGINE_10), remove(REAR_1), remove(TURBO)}
    env.step(remove(ENGINE_10))
    assert rec["bike"][0, ENGINE_10] == 0 and top_of_discard(rec) == (ENGINE_10, E.ALL_SEATS)
    assert rec["hand"][0].sum() == 0                     # not into the hand
    assert E.bike_value(rec, 0) == 20 * 2
    # It was the turn's card play: the turn passes and the count of passes starts again.
    assert rec["current_player"] == 1 and rec["pass_streak"] == 0 and conserved(env) and valid(env)


def test_a_removing_a_wheel_leaves_its_slot_empty():
    env = contest_position(2, hands={0: [REAR_3]}, bikes={0: [FRONT, ENGINE_50, (SPARE_0 + 2, ROLE_REAR)],
                                                          1: BASIC})
    rec = record(env)
    env.step(remove(SPARE_0 + 2))
    assert E.wheel_of(rec, 0, ROLE_REAR) == -1 and E.bike_value(rec, 0) == 0
    assert rec["spare_role"][2] == 0 and top_of_discard(rec) == (SPARE_0 + 2, E.ALL_SEATS)
    env.step(E.PASS)
    assert fit(REAR_3) not in legal(env)                 # nothing to replace: the slot stays empty
    assert valid(env)


def test_a_hand_engine_or_turbo_is_never_added_an_engine_only_replaces():
    env = contest_position(2, hands={0: [ENGINE_100, TURBO]}, bikes={0: BASIC, 1: BASIC})
    assert fit(TURBO) not in legal(env) and E.ADD_ENGINE not in legal(env)
    env.step(fit(ENGINE_100))
    # d): which engine goes; no "none goes".
    assert record(env)["phase"] == E.PH_ENGINE_SLOT and legal(env) == {slot(ENGINE_20)}
    env.step(slot(ENGINE_20))
    rec = record(env)
    assert E.engine_power(rec, 0) == 100 and top_of_discard(rec) == (ENGINE_20, E.ALL_SEATS) and conserved(env)


@pytest.mark.parametrize("bike,card", [
    ([ENGINE_50, REAR_1], FRONT),                   # no front wheel to replace
    ([FRONT, ENGINE_50], REAR_3),                   # no rear wheel to replace
    ([FRONT, REAR_1], ENGINE_100),                  # no engine to replace
])
def test_a_hand_card_never_fills_an_empty_slot(bike, card):
    env = contest_position(2, hands={0: [card, SPARE_0 + 5]}, bikes={0: bike, 1: BASIC})
    can = legal(env)
    assert fit(card) not in can
    empty = [r for r in (ROLE_FRONT, ROLE_REAR) if E.wheel_of(record(env), 0, r) < 0]
    if E.engine_power(record(env), 0) == 0:
        empty.append(ROLE_ENGINE)
    # A spare part from the hand neither goes into the empty slot; in a taken one it replaces (d).
    assert all(fit(SPARE_0 + 5, r) not in can for r in empty)
    assert all(fit(SPARE_0 + 5, r) in can for r in (ROLE_FRONT, ROLE_REAR, ROLE_ENGINE) if r not in empty)


@pytest.mark.parametrize("config", [dict(own_bike="add"), dict(refill_from_hand=True)])
def test_a_lost_card_can_be_replaced_into_the_empty_slot_with_a_refilling_option(config):
    env = contest_position(2, hands={0: [FRONT, ENGINE_50]}, bikes={0: [REAR_1], 1: BASIC}, **config)
    rec = record(env)
    env.step(fit(FRONT))
    env.step(E.PASS)
    env.step(fit(ENGINE_50))              # no engine on the bike: it simply goes in
    assert rec["phase"] == E.PH_TURN and E.bike_value(rec, 0) == 50


def test_refill_from_hand_adds_no_turbo_and_no_further_engine():
    env = contest_position(2, hands={0: [ENGINE_100, TURBO]}, bikes={0: BASIC, 1: BASIC}, refill_from_hand=True)
    assert fit(TURBO) not in legal(env)
    env.step(fit(ENGINE_100))
    assert legal(env) == {slot(ENGINE_20)}


# ---- option own_bike="add": a) a hand card onto the own bike ---------------------------------------
# Issue 18's reading of a) as German "anlegen": every option plays a hand card, so a) lays a hand
# card onto the own bike: a further engine, a Turbo, a missing wheel, a spare part in any role.

ADD = dict(own_bike="add")


def test_add_a_adds_a_hand_engine_and_the_bike_scores_it():
    env = contest_position(2, hands={0: [ENGINE_100]}, bikes={0: BASIC, 1: BASIC}, **ADD)
    rec = record(env)
    assert E.bike_value(rec, 0) == 20
    env.step(fit(ENGINE_100))
    # Engines on the bike: d) could replace one of them; a) keeps them all.
    assert rec["phase"] == E.PH_ENGINE_SLOT and legal(env) == {E.ADD_ENGINE, slot(ENGINE_20)}
    assert valid(env)
    env.step(E.ADD_ENGINE)
    assert rec["bike"][0, ENGINE_20] == 1 and rec["bike"][0, ENGINE_100] == 1 and rec["hand"][0].sum() == 0
    assert E.bike_value(rec, 0) == 120 and rec["phase"] == E.PH_TURN and rec["current_player"] == 1
    assert rec["discard_size"] == 0 and valid(env)     # nothing left the bike


def test_add_a_adds_a_turbo_and_the_value_doubles():
    env = contest_position(2, hands={0: [TURBO, TURBO]}, bikes={0: [FRONT, ENGINE_50, REAR_3], 1: BASIC}, **ADD)
    rec = record(env)
    assert fit(TURBO) in legal(env)
    env.step(fit(TURBO))
    assert E.bike_value(rec, 0) == 50 * 2 * 3
    env.step(E.PASS)
    env.step(fit(TURBO))
    assert E.bike_value(rec, 0) == 50 * 4 * 3 and valid(env)


def test_add_a_adds_a_missing_wheel():
    # A bike that lost its rear wheel (say to a TÜV card) scores nothing until one is added.
    env = contest_position(2, hands={0: [REAR_3, FRONT]}, bikes={0: [FRONT, ENGINE_50], 1: BASIC}, **ADD)
    rec = record(env)
    assert E.bike_value(rec, 0) == 0
    env.step(fit(REAR_3))
    assert E.wheel_of(rec, 0, ROLE_REAR) == REAR_3 and E.bike_value(rec, 0) == 150
    assert rec["discard_size"] == 0 and valid(env)


@pytest.mark.parametrize("role,bike,value", [
    (ROLE_FRONT, [ENGINE_50, REAR_1], 50),          # the front wheel the bike lacked
    (ROLE_REAR, [FRONT, ENGINE_50], 50 * 4),        # a 4th-gear rear wheel
    (ROLE_ENGINE, [FRONT, REAR_1], 60),             # the engine it lacked: the 60 HP printed on it
])
def test_add_a_adds_a_spare_part_in_any_role(role, bike, value):
    spare = SPARE_0 + 5
    env = contest_position(2, hands={0: [spare]}, bikes={0: bike, 1: BASIC}, **ADD)
    rec = record(env)
    assert E.bike_value(rec, 0) == 0
    env.step(fit(spare, role))
    assert E.role_of(rec, spare) == role and rec["bike"][0, spare] == 1
    assert E.bike_value(rec, 0) == value and valid(env)


def test_add_a_adds_a_spare_part_as_a_further_engine():
    env = contest_position(2, hands={0: [SPARE_0 + 5]}, bikes={0: BASIC, 1: BASIC}, **ADD)
    rec = record(env)
    env.step(fit(SPARE_0 + 5, ROLE_ENGINE))
    env.step(E.ADD_ENGINE)
    assert E.engine_power(rec, 0) == 20 + 60 and E.bike_value(rec, 0) == 80 and valid(env)


def test_adding_builds_the_rulebooks_180_hp_bike():
    # "Engine power: 50 and 10 HP gives 60 HP. A Turbo card doubles the value to 120 HP. A third gear
    # triples the value, so 360 HP. A wooden front wheel halves the value. Total value: 180 HP."
    env = contest_position(2, hands={0: [ENGINE_10, TURBO]}, bikes={0: [WOODEN_FRONT, ENGINE_50, REAR_3], 1: BASIC},
                           **ADD)
    rec = record(env)
    assert E.bike_value(rec, 0) == 75
    env.step(fit(ENGINE_10))
    env.step(E.ADD_ENGINE)
    assert E.bike_value(rec, 0) == 90
    env.step(E.PASS)
    env.step(fit(TURBO))
    assert E.bike_value(rec, 0) == 180


def test_add_a_never_takes_a_card_off_the_own_bike():
    env = contest_position(2, hands={0: [ENGINE_10]}, bikes={0: BASIC + [TURBO], 1: BASIC}, **ADD)
    assert not any(E.REMOVE_BASE <= a < E.SLOT_BASE for a in legal(env))


# ---- c) discard, d) replace ------------------------------------------------------------------------


def test_discard_a_hand_card_face_down():
    env = contest_position(2, hands={0: [ENGINE_100, FRONT]}, bikes={0: BASIC, 1: BASIC})
    rec = record(env)
    rec["known"][0, ENGINE_100] = 1     # the others know seat 0 holds an Engine 100 (taken face up)
    env.step(discard(FRONT))
    assert top_of_discard(rec) == (FRONT, 1 << 0)
    mine = env.observation_layout.views(env.observe("player_0")["observation"])
    theirs = env.observation_layout.views(env.observe("player_1")["observation"])
    assert mine["discard_known"][FRONT] == 1 and mine["discard_unknown"][0] == 0
    assert theirs["discard_known"][FRONT] == 0 and theirs["discard_unknown"][0] == 1
    assert theirs["discard_top"].sum() == 0  # a face-down top shows nothing
    # The others cannot tell which card went: they no longer know the Engine 100 is still there.
    assert rec["known"][0, ENGINE_100] == 0 and rec["hand"][0, ENGINE_100] == 1


def test_replace_a_wheel_with_one_from_the_hand():
    env = contest_position(2, hands={0: [REAR_4, WOODEN_FRONT, FLAT_FRONT]}, bikes={0: BASIC, 1: BASIC})
    rec = record(env)
    env.step(fit(REAR_4))
    assert rec["bike"][0, REAR_4] == 1 and rec["bike"][0, REAR_1] == 0
    assert top_of_discard(rec) == (REAR_1, E.ALL_SEATS) and E.bike_value(rec, 0) == 80
    env.step(E.PASS)
    env.step(fit(FLAT_FRONT))             # a flat front wheel: the bike scores nothing
    assert rec["flat_tyre"][0] == 1 and E.bike_value(rec, 0) == 0
    env.step(E.PASS)
    env.step(fit(WOODEN_FRONT))
    assert rec["flat_tyre"][0] == 0 and E.bike_value(rec, 0) == 40 and top_of_discard(rec)[0] == FLAT_FRONT
    assert conserved(env)


@pytest.mark.parametrize("own_bike", ["add", "remove"])
def test_replace_an_engine_choosing_which_one_goes(own_bike):
    env = contest_position(2, hands={0: [ENGINE_100]}, bikes={0: [FRONT, ENGINE_20, ENGINE_10, REAR_1], 1: BASIC},
                           own_bike=own_bike)
    rec = record(env)
    env.step(fit(ENGINE_100))
    assert rec["phase"] == E.PH_ENGINE_SLOT and rec["current_player"] == 0
    assert legal(env) - {E.ADD_ENGINE} == {slot(ENGINE_20), slot(ENGINE_10)}
    assert conserved(env)                 # the new engine is in play meanwhile
    env.step(slot(ENGINE_10))
    assert rec["bike"][0, ENGINE_100] == 1 and rec["bike"][0, ENGINE_10] == 0
    assert E.bike_value(rec, 0) == 120 and top_of_discard(rec) == (ENGINE_10, E.ALL_SEATS)
    assert rec["current_player"] == 1 and conserved(env)


def test_pump_up_the_own_flat_tyre_in_a_turn():
    env = contest_position(2, hands={0: [PUMP]}, bikes={0: [FLAT_FRONT, ENGINE_100, REAR_1], 1: BASIC}, flat=(0,))
    rec = record(env)
    assert E.bike_value(rec, 0) == 0
    env.step(fit(PUMP))
    assert rec["flat_tyre"][0] == 0 and E.bike_value(rec, 0) == 100 and top_of_discard(rec)[0] == PUMP


def test_pump_only_on_a_flat_tyre():
    env = contest_position(2, hands={0: [PUMP]}, bikes={0: BASIC, 1: BASIC})
    assert fit(PUMP) not in legal(env)


# ---- spare parts ---------------------------------------------------------------------------------
# "Spare part cards can generally take on all functions, so even after being laid out they may be
# moved and take on a different property."


def test_a_laid_out_spare_part_moves_and_takes_another_role():
    env = contest_position(2, hands={1: [ENGINE_10]}, bikes={0: [(SPARE_0, ROLE_FRONT), ENGINE_50, REAR_1], 1: BASIC})
    rec = record(env)
    # Into the rear wheel slot (displacing the rear wheel), into the engines; not where it is.
    assert move(SPARE_0, ROLE_REAR) in legal(env) and move(SPARE_0, ROLE_ENGINE) in legal(env)
    assert move(SPARE_0, ROLE_FRONT) not in legal(env)
    env.step(move(SPARE_0, ROLE_REAR))
    assert E.wheel_of(rec, 0, ROLE_REAR) == SPARE_0 and top_of_discard(rec) == (REAR_1, E.ALL_SEATS)
    assert E.wheel_of(rec, 0, ROLE_FRONT) == -1 and E.bike_value(rec, 0) == 0
    # Moving is not the turn's card play: seat 0 still plays (or passes), and the part moved once.
    assert rec["current_player"] == 0 and rec["phase"] == E.PH_TURN
    assert not any(move(SPARE_0, r) in legal(env) for r in range(3))
    assert valid(env)
    env.step(E.PASS)
    env.step(discard(ENGINE_10))
    # The next turn it moves again, into the empty front slot.
    assert move(SPARE_0, ROLE_FRONT) in legal(env)
    env.step(move(SPARE_0, ROLE_FRONT))
    assert E.wheel_of(rec, 0, ROLE_FRONT) == SPARE_0 and conserved(env)


def test_a_spare_part_moves_into_the_slot_rad_her_emptied():
    # The victim hands over its front wheel; on its turn its spare part engine becomes the front wheel.
    bikes = {0: BASIC, 1: [FRONT, ENGINE_50, REAR_3, (SPARE_0 + 2, ROLE_ENGINE)]}
    env = contest_position(2, hands={0: [RAD_HER]}, bikes=bikes)
    rec = record(env)
    env.step(misery(RAD_HER, 1))
    env.step(E.ACCEPT)
    env.step(slot(FRONT))
    assert E.wheel_of(rec, 1, ROLE_FRONT) == -1 and E.bike_value(rec, 1) == 0
    assert rec["current_player"] == 1 and move(SPARE_0 + 2, ROLE_FRONT) in legal(env)
    env.step(move(SPARE_0 + 2, ROLE_FRONT))
    assert E.wheel_of(rec, 1, ROLE_FRONT) == SPARE_0 + 2 and E.bike_value(rec, 1) == 50 * 3
    env.step(E.PASS)
    assert valid(env)


@pytest.mark.parametrize("own_bike", ["remove", "add"])
def test_a_spare_part_moves_into_the_slot_motor_her_emptied(own_bike):
    # The victim's only engine goes; its spare rear wheel becomes the engine. With own_bike="add" a
    # rear wheel from the hand then fills the rear slot in the same turn (a): a bike again; by
    # default nothing lies in the rear slot for a hand wheel to replace.
    bikes = {0: BASIC, 1: [FRONT, ENGINE_100, (SPARE_0 + 3, ROLE_REAR)]}
    env = contest_position(2, hands={0: [MOTOR_HER], 1: [REAR_2]}, bikes=bikes, own_bike=own_bike)
    rec = record(env)
    env.step(misery(MOTOR_HER, 1))
    env.step(E.ACCEPT)
    assert legal(env) == {slot(ENGINE_100)}
    env.step(slot(ENGINE_100))
    assert E.engine_power(rec, 1) == 0 and E.bike_value(rec, 1) == 0 and E.bike_value(rec, 0) == 120
    env.step(move(SPARE_0 + 3, ROLE_ENGINE))
    assert E.wheel_of(rec, 1, ROLE_REAR) == -1 and E.engine_power(rec, 1) == 40
    if own_bike == "remove":
        assert fit(REAR_2) not in legal(env)
        return
    env.step(fit(REAR_2))
    assert E.bike_value(rec, 1) == 40 * 2 and rec["current_player"] == 0 and valid(env)


def test_moving_does_not_count_as_a_play_for_the_end_of_the_round():
    env = contest_position(2, bikes={0: BASIC, 1: [FRONT, ENGINE_50, (SPARE_0, ROLE_ENGINE)]}, num_rounds=2)
    rec = record(env)
    env.step(E.PASS)                      # seat 0 passes
    env.step(move(SPARE_0, ROLE_REAR))    # seat 1 moves its spare part into the empty rear slot ...
    assert rec["pass_streak"] == 1 and rec["current_player"] == 1
    env.step(E.PASS)                      # ... and passes: nobody wants to play a card any more
    assert rec["round_index"] == 1 and rec["round_scores"][1, 0] == 200


def test_a_spare_part_with_a_flat_tyre_stays_the_front_wheel():
    env = contest_position(2, hands={0: [PUMP]}, bikes={0: [(SPARE_0, ROLE_FRONT), ENGINE_50, REAR_1], 1: BASIC},
                           flat=(0,))
    assert not any(move(SPARE_0, r) in legal(env) for r in range(3))
    env.step(fit(PUMP))
    env.step(E.PASS)
    assert move(SPARE_0, ROLE_ENGINE) in legal(env)


def test_spare_part_from_the_hand_in_any_role():
    env = contest_position(2, hands={0: [SPARE_0 + 5]}, bikes={0: BASIC, 1: BASIC})
    assert {fit(SPARE_0 + 5, r) for r in (ROLE_FRONT, ROLE_REAR, ROLE_ENGINE)} <= legal(env)
    env.step(fit(SPARE_0 + 5, ROLE_REAR))
    assert E.bike_value(record(env), 0) == 20 * 4


# ---- misery cards and reactions -------------------------------------------------------------------


def test_misery_cards_need_a_fitting_card_on_a_bike_in_the_contest():
    hands = {0: [MOTOR_HER, RAD_HER, TUV, BULL, NAIL]}
    env = contest_position(4, hands=hands, bikes={0: BASIC, 1: [WOODEN_FRONT, REAR_1], 2: [TURBO], 3: BASIC},
                           out=())
    can = legal(env)
    assert misery(MOTOR_HER, 1) not in can and misery(MOTOR_HER, 2) not in can and misery(MOTOR_HER, 3) in can
    assert misery(RAD_HER, 1) in can and misery(RAD_HER, 2) not in can
    assert misery(TUV, 2) in can and misery(BULL, 2) in can          # TÜV and Bull take any card
    assert misery(NAIL, 1) not in can and misery(NAIL, 3) in can     # no tyre on a wooden wheel
    assert not any(E.MISERY_BASE + 7 * m + 3 in can for m in range(5))  # no seat 4 places on with 4 players


def test_no_misery_on_a_seat_out_of_the_round():
    env = contest_position(3, hands={0: [TUV]}, bikes={0: BASIC, 2: BASIC}, out=(1,))
    assert misery(TUV, 1) not in legal(env) and misery(TUV, 2) in legal(env)


def test_tuv_sends_the_challenged_card_face_down_to_the_discard_pile():
    env = contest_position(3, hands={0: [TUV]}, bikes={0: BASIC, 1: BASIC + [TURBO], 2: BASIC})
    rec = record(env)
    env.step(misery(TUV, 1))
    assert rec["phase"] == E.PH_MISERY_SLOT and rec["current_player"] == 0
    assert legal(env) == {slot(FRONT), slot(ENGINE_20), slot(REAR_1), slot(TURBO)}
    env.step(slot(TURBO))
    assert rec["phase"] == E.PH_REACT and rec["current_player"] == 1
    assert legal(env) == {E.ACCEPT}
    assert conserved(env)
    env.step(E.ACCEPT)
    assert rec["bike"][1, TURBO] == 0
    assert [int(k) for k in rec["discard"][:2]] == [TUV, TURBO]
    assert not E.discard_top_face_up(rec)                  # known to all, yet face down
    env.render_mode = "ansi"
    assert "top: face down" in env.render()
    assert rec["current_player"] == 1 and rec["turn_seat"] == 1  # seat 1's own turn follows
    assert conserved(env)


@pytest.mark.parametrize("joy,reaction", [(FUCK_TUV, E.REACT_FUCK_TUV), (LACH, E.REACT_LACH)])
def test_tuv_is_answered_by_fuck_for_tuv_or_da_lach_ich_doch_ueber(joy, reaction):
    env = contest_position(2, hands={0: [TUV], 1: [joy]}, bikes={0: BASIC, 1: BASIC})
    rec = record(env)
    env.step(misery(TUV, 1))
    env.step(slot(ENGINE_20))
    assert legal(env) == {E.ACCEPT, reaction}
    env.step(reaction)
    assert rec["bike"][1, ENGINE_20] == 1 and rec["hand"][1, joy] == 0
    assert sorted(int(k) for k in rec["discard"][:2]) == sorted([TUV, joy])
    # The reaction was not seat 1's turn: it is seat 1's turn now, and it must play (or pass).
    assert rec["current_player"] == 1 and rec["phase"] == E.PH_TURN and conserved(env)


def test_bull_is_answered_only_by_da_lach_ich_doch_ueber():
    env = contest_position(2, hands={0: [BULL], 1: [FUCK_TUV, LACH]}, bikes={0: BASIC, 1: BASIC})
    rec = record(env)
    env.step(misery(BULL, 1))
    env.step(slot(FRONT))
    assert legal(env) == {E.ACCEPT, E.REACT_LACH}
    env.step(E.ACCEPT)
    assert E.wheel_of(rec, 1, ROLE_FRONT) == -1 and E.bike_value(rec, 1) == 0
    assert top_of_discard(rec) == (FRONT, E.ALL_SEATS)


def test_nail_makes_the_front_tyre_flat_unless_pumped_or_laughed_off():
    env = contest_position(2, hands={0: [NAIL, NAIL], 1: [PUMP, LACH]}, bikes={0: BASIC, 1: BASIC})
    rec = record(env)
    env.step(misery(NAIL, 1))             # the front tyre is the only target: no slot to choose
    assert rec["phase"] == E.PH_REACT and rec["pending_slot"] == FRONT
    assert legal(env) == {E.ACCEPT, E.REACT_LACH, E.REACT_PUMP}
    env.step(E.REACT_PUMP)
    assert rec["flat_tyre"][1] == 0 and rec["hand"][1, PUMP] == 0
    env.step(E.PASS)                      # seat 1's turn
    env.step(misery(NAIL, 1))
    env.step(E.ACCEPT)
    assert rec["flat_tyre"][1] == 1 and E.bike_value(rec, 1) == 0
    assert conserved(env)


def test_a_nailed_tyre_is_pumped_up_later_and_a_replaced_wheel_is_whole():
    env = contest_position(2, hands={1: [PUMP, FRONT]}, bikes={0: BASIC, 1: BASIC}, flat=(1,), turn=1)
    rec = record(env)
    assert misery(NAIL, 1) not in legal(env)
    env.step(fit(PUMP))
    assert rec["flat_tyre"][1] == 0
    rec["flat_tyre"][1] = 1
    env.step(E.PASS)
    env.step(fit(FRONT))
    assert rec["flat_tyre"][1] == 0 and E.bike_value(rec, 1) == 20


# "Motor her": "the player hands over an engine card to the player who played this card": the
# attacked player picks which (option her_choice="attacker": the attacker picks).


def test_the_victim_picks_the_engine_motor_her_takes():
    env = contest_position(3, hands={0: [MOTOR_HER]}, bikes={0: BASIC, 1: [FRONT, ENGINE_100, ENGINE_10, REAR_1],
                                                             2: BASIC})
    rec = record(env)
    env.step(misery(MOTOR_HER, 1))
    # First the victim reacts (here it has no joy card); nothing is aimed at yet.
    assert rec["phase"] == E.PH_REACT and rec["current_player"] == 1 and rec["pending_slot"] == -1
    assert legal(env) == {E.ACCEPT}
    env.step(E.ACCEPT)
    assert rec["phase"] == E.PH_MISERY_SLOT and rec["current_player"] == 1
    assert legal(env) == {slot(ENGINE_100), slot(ENGINE_10)}  # only its engines
    assert valid(env)
    hand_before = rec["hand"][0].copy()
    env.step(slot(ENGINE_10))             # it hands over the weaker one
    # Used at once: onto the receiver's bike, never into its hand.
    assert rec["bike"][0, ENGINE_10] == 1 and rec["bike"][1, ENGINE_10] == 0 and rec["bike"][1, ENGINE_100] == 1
    assert (rec["hand"][0] == hand_before).all()
    assert E.bike_value(rec, 0) == 30 and E.bike_value(rec, 1) == 100
    assert top_of_discard(rec) == (MOTOR_HER, E.ALL_SEATS)
    assert rec["current_player"] == 1 and rec["phase"] == E.PH_TURN and conserved(env)


def test_the_victim_picks_the_wheel_rad_her_takes():
    env = contest_position(2, hands={0: [RAD_HER]}, bikes={0: BASIC, 1: [FRONT, ENGINE_10, REAR_4]})
    rec = record(env)
    env.step(misery(RAD_HER, 1))
    env.step(E.ACCEPT)
    assert rec["current_player"] == 1 and legal(env) == {slot(FRONT), slot(REAR_4)}
    env.step(slot(FRONT))                 # it keeps the 4th gear
    assert E.wheel_of(rec, 0, ROLE_FRONT) == FRONT and E.wheel_of(rec, 1, ROLE_FRONT) == -1
    assert E.wheel_of(rec, 1, ROLE_REAR) == REAR_4 and conserved(env)


def test_with_her_choice_attacker_the_attacker_picks_before_the_reaction():
    env = contest_position(3, hands={0: [MOTOR_HER]}, bikes={0: BASIC, 1: [FRONT, ENGINE_100, ENGINE_10, REAR_1],
                                                             2: BASIC}, her_choice="attacker")
    rec = record(env)
    env.step(misery(MOTOR_HER, 1))
    assert rec["phase"] == E.PH_MISERY_SLOT and rec["current_player"] == 0
    assert legal(env) == {slot(ENGINE_100), slot(ENGINE_10)}
    env.step(slot(ENGINE_100))
    assert rec["phase"] == E.PH_REACT and rec["current_player"] == 1 and legal(env) == {E.ACCEPT}
    env.step(E.ACCEPT)
    assert rec["bike"][0, ENGINE_100] == 1 and rec["bike"][1, ENGINE_100] == 0
    assert E.bike_value(rec, 0) == 120 and E.bike_value(rec, 1) == 10
    assert rec["current_player"] == 1 and conserved(env)


@pytest.mark.parametrize("her_choice", ["victim", "attacker"])
def test_motor_her_is_laughed_off(her_choice):
    env = contest_position(2, hands={0: [MOTOR_HER], 1: [LACH, FUCK_TUV]}, bikes={0: BASIC, 1: BASIC},
                           her_choice=her_choice)
    rec = record(env)
    env.step(misery(MOTOR_HER, 1))
    if her_choice == "attacker":
        env.step(slot(ENGINE_20))
    assert legal(env) == {E.ACCEPT, E.REACT_LACH}
    env.step(E.REACT_LACH)
    assert rec["bike"][1, ENGINE_20] == 1 and rec["bike"][0, ENGINE_20] == 1
    assert rec["phase"] == E.PH_TURN and rec["current_player"] == 1 and conserved(env)


def test_rad_her_takes_a_front_wheel_flat_tyre_and_all():
    env = contest_position(2, hands={0: [RAD_HER]}, bikes={0: [WOODEN_FRONT, ENGINE_20, REAR_1],
                                                         1: [FRONT, ENGINE_10, REAR_4]}, flat=(1,))
    rec = record(env)
    env.step(misery(RAD_HER, 1))
    env.step(E.ACCEPT)
    env.step(slot(FRONT))
    # The received wheel replaces the attacker's front wheel, which goes to the discard pile.
    assert E.wheel_of(rec, 0, ROLE_FRONT) == FRONT and rec["flat_tyre"][0] == 1
    assert top_of_discard(rec) == (WOODEN_FRONT, E.ALL_SEATS)
    assert E.wheel_of(rec, 1, ROLE_FRONT) == -1 and rec["flat_tyre"][1] == 0
    assert conserved(env)


def test_rad_her_takes_a_rear_wheel():
    env = contest_position(2, hands={0: [RAD_HER]}, bikes={0: BASIC, 1: [FRONT, ENGINE_10, REAR_4]},
                           her_choice="attacker")
    rec = record(env)
    env.step(misery(RAD_HER, 1))
    env.step(slot(REAR_4))
    env.step(E.ACCEPT)
    assert E.wheel_of(rec, 0, ROLE_REAR) == REAR_4 and E.bike_value(rec, 0) == 80
    assert E.wheel_of(rec, 1, ROLE_REAR) == -1


def test_a_spare_part_handed_over_takes_any_role_the_receiver_chooses():
    env = contest_position(2, hands={0: [MOTOR_HER]}, bikes={0: BASIC, 1: [FRONT, (SPARE_0 + 3, ROLE_ENGINE),
                                                                          REAR_1]})
    rec = record(env)
    env.step(misery(MOTOR_HER, 1))
    env.step(E.ACCEPT)
    env.step(slot(SPARE_0 + 3))
    assert rec["phase"] == E.PH_PLACE and rec["current_player"] == 0
    assert legal(env) == {fit(SPARE_0 + 3, r) for r in (ROLE_FRONT, ROLE_REAR, ROLE_ENGINE)}
    assert conserved(env) and valid(env)
    env.step(fit(SPARE_0 + 3, ROLE_REAR))  # the engine becomes a 4th-gear rear wheel
    assert E.wheel_of(rec, 0, ROLE_REAR) == SPARE_0 + 3 and E.bike_value(rec, 0) == 80
    assert rec["current_player"] == 1 and rec["phase"] == E.PH_TURN and conserved(env)


def test_the_target_next_in_turn_still_plays_its_own_turn_after_reacting():
    env = contest_position(3, hands={0: [TUV], 1: [LACH, ENGINE_10]}, bikes={s: BASIC for s in range(3)})
    rec = record(env)
    env.step(misery(TUV, 1))
    env.step(slot(ENGINE_20))
    env.step(E.REACT_LACH)
    assert rec["turn_seat"] == 1 and rec["current_player"] == 1 and rec["phase"] == E.PH_TURN
    env.step(discard(ENGINE_10))
    assert rec["current_player"] == 2


def test_misery_on_a_seat_further_round_the_table():
    env = contest_position(4, hands={2: [BULL]}, bikes={s: BASIC for s in range(4)}, turn=2)
    rec = record(env)
    env.step(misery(BULL, 3))             # three seats after seat 2: seat 1
    assert rec["pending_target"] == 1
    env.step(slot(REAR_1))
    assert rec["current_player"] == 1
    env.step(E.ACCEPT)
    assert rec["current_player"] == 3     # the turn goes on after the attacker


def test_observers_see_the_misery_in_play():
    env = contest_position(3, hands={0: [RAD_HER]}, bikes={s: BASIC for s in range(3)}, her_choice="attacker")
    env.step(misery(RAD_HER, 2))
    env.step(slot(REAR_1))
    views = env.observation_layout.views(env.observe("player_1")["observation"])
    assert views["pending_misery"].tolist() == [0, 1, 0, 0, 0]
    assert views["pending_target"][1] == 1     # seat 2 is one place after seat 1
    assert views["pending_slot"][E.BIKE_INDEX[REAR_1]] == 1
    assert views["to_act"][1] == 1 and views["turn_of"][2] == 1  # seat 2 reacts; seat 0's turn
    assert views["phase"][E.PH_REACT] == 1


def test_observers_see_the_victim_pick_and_the_spares_moved():
    env = contest_position(3, hands={0: [RAD_HER]}, bikes={0: [FRONT, ENGINE_20, (SPARE_0, ROLE_ENGINE)],
                                                           1: BASIC, 2: BASIC})
    env.step(move(SPARE_0, ROLE_REAR))
    views = env.observation_layout.views(env.observe("player_2")["observation"])
    assert views["spares_moved"].tolist() == [1, 0, 0, 0, 0, 0]
    assert views["bike_spares"][1, 0].tolist() == [0, 1, 0]  # seat 0 is one place after seat 2
    env.step(misery(RAD_HER, 2))
    env.step(E.ACCEPT)
    views = env.observation_layout.views(env.observe("player_1")["observation"])
    assert views["spares_moved"].sum() == 0
    assert views["phase"][E.PH_MISERY_SLOT] == 1 and views["to_act"][1] == 1 and views["turn_of"][2] == 1
    assert views["pending_slot"].sum() == 0      # not picked yet
