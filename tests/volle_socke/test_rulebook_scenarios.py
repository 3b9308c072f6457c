"""Rulebook scenarios for Werner: Volle Socke, written from shared/rulebooks/volle_socke.txt alone.

Each scenario sets up a position with the shared helpers, plays the rulebook's actions through the
env's public API (every action checked against the action mask of the seat to act), and asserts
what the rulebook says must happen. The game is played at its default configuration throughout.
Each docstring quotes the rulebook sentence it checks.
"""

import numpy as np
import pytest

from envs.volle_socke import engine as E
from envs.volle_socke.data import (
    BULL, ENGINE_10, ENGINE_20, ENGINE_50, ENGINE_100, FRONT, FUCK_TUV, LACH, MOTOR_HER, NAIL, PUMP, RAD_HER,
    REAR_1, ROLE_ENGINE, ROLE_FRONT, ROLE_REAR, SPARE_0, TURBO, TUV, WOODEN_FRONT,
)

from .helpers import contest_position, contest_record, discard, fit, make, misery, record, slot
from .test_layout import FULL, layout_position

REAR_2, REAR_3, REAR_4 = REAR_1 + 1, REAR_1 + 2, REAR_1 + 3
BASIC = [FRONT, ENGINE_20, REAR_1]


# ---- the public API, checked ------------------------------------------------------------------


def to_act(env):
    """The seat whose decision it is (from ``agent_selection``)."""
    return env.agent_name_mapping[env.agent_selection]


def mask(env, seat=None):
    """The set of actions the action mask allows ``seat`` (default: the seat to act)."""
    agent = env.agent_selection if seat is None else f"player_{seat}"
    return set(np.flatnonzero(env.observe(agent)["action_mask"]).tolist())


def act(env, action, seat=None):
    """Play ``action`` for the seat to act (``seat``, if given, must be that seat), only if its mask allows it."""
    if seat is not None:
        assert to_act(env) == seat, f"seat {to_act(env)} is to act, not seat {seat}"
    allowed = mask(env)
    assert action in allowed, (f"{env.action_to_str(action)} is not legal for seat {to_act(env)}; legal: "
                               f"{[env.action_to_str(a) for a in sorted(allowed)]}")
    env.step(action)


def view(env, seat=0):
    """Seat ``seat``'s observation as named blocks (per-seat rows are relative to ``seat``)."""
    return env.observation_layout.views(env.observe(f"player_{seat}")["observation"])


def phase(env):
    return int(np.flatnonzero(view(env, 0)["phase"])[0])


def round_number(env):
    """The round being played (0-based), from the observation."""
    return int(np.flatnonzero(view(env, 0)["round"])[0])


def lay_out_a_bike(env):
    """The seat laying out lays out cards (by the mask) until its bike is complete, then finishes."""
    seat = to_act(env)
    while E.FINISH_LAYOUT not in mask(env):
        fits = sorted(a for a in mask(env) if E.FIT_BASE <= a < E.MOVE_BASE)
        act(env, fits[0], seat)
    act(env, E.FINISH_LAYOUT, seat)


# ---- III. Game setup ----------------------------------------------------------------------------


@pytest.mark.parametrize("num_players,cards", [(2, 10), (3, 10), (4, 8), (6, 8), (8, 8)])
def test_setup_deal_face_up_card_and_draw_pile_seen_through_the_observation(num_players, cards):
    """"Shuffle all 110 cards well, then deal them one at a time, face down and in turn, to each player:
    8 cards each." / "Exception: with 2 or 3 players, each player receives 10 cards." / "Place the
    remaining cards face down on the table as a draw pile. Place the top card of the draw pile face up
    beside the pile." / "The player with the longest nose begins." (seat 0 in the first round)"""
    env = make(num_players, seed=7)
    for seat in range(num_players):
        v = view(env, seat)
        assert v["hand_sizes"][:num_players].tolist() == [cards] * num_players
        assert v["hand"].sum() == cards
        assert v["draw_pile"][0] == 110 - cards * num_players - 1
        assert v["discard_top"].sum() == 1                       # exactly one card face up
        assert v["discard_known"].sum() == 1 and v["discard_unknown"][0] == 0
        assert v["bikes"].sum() == 0 and v["bike_spares"].sum() == 0
    assert to_act(env) == 0 and round_number(env) == 0
    assert mask(env) == {E.DRAW_PILE, E.DRAW_FACE_UP}            # take a card first; no knocking yet


# ---- IV. Building the motorbike --------------------------------------------------------------------


def test_building_take_either_card_then_place_one_face_up_hands_stay_at_eight():
    """"The player whose turn it is takes a card. They may either take the top card of the face-down
    draw pile or take the card lying face up." / "The player then checks which cards they want to keep,
    and places one card face up beside the face-down draw pile. Then the next player takes a turn." /
    "During this phase only the face-up card and the face-down draw pile lie on the table. Each player
    keeps their 8 cards in hand.\""""
    env = make(4, seed=11)
    for turn in range(12):
        seat = to_act(env)
        assert seat == turn % 4
        before = view(env, seat)
        face_up = int(np.flatnonzero(before["discard_top"])[0])
        pile = int(before["draw_pile"][0])
        if turn % 2:                                             # the face-up card
            act(env, E.DRAW_FACE_UP, seat)
            after = view(env, seat)
            assert after["hand"][face_up] == before["hand"][face_up] + 1
            assert after["draw_pile"][0] == pile
        else:                                                    # the top of the draw pile
            act(env, E.DRAW_PILE, seat)
            after = view(env, seat)
            assert after["draw_pile"][0] == pile - 1
        assert after["hand"].sum() == 9
        kind = int(np.flatnonzero(after["hand"])[-1])
        act(env, discard(kind), seat)
        # The placed card is the face-up card now, seen by everybody; the hands are back at 8.
        for observer in range(4):
            v = view(env, observer)
            assert np.flatnonzero(v["discard_top"]).tolist() == [kind]
            assert v["hand_sizes"][:4].tolist() == [8, 8, 8, 8]
            assert v["bikes"].sum() == 0 and v["bike_spares"].sum() == 0
        assert to_act(env) == (seat + 1) % 4


def _building_record(hands, face_up):
    """A building-phase record at the round's start: full 8-card ``hands``, ``face_up`` beside the pile."""
    env, rec = contest_record(4, hands=hands, bikes={})
    r = rec[0]
    size = int(r["deck_size"])
    i = int(np.flatnonzero(r["deck"][:size] == face_up)[0])
    r["deck"][i], r["deck"][size - 1] = r["deck"][size - 1], r["deck"][i]
    r["deck"][size - 1] = 0
    r["deck_size"] = size - 1
    r["discard"][0] = face_up
    r["discard_seen"][0] = E.ALL_SEATS
    r["discard_size"] = 1
    r["discard_public"][face_up] = 1
    r["status"][:4] = E.BUILDING
    r["knocker"] = -1
    r["phase"] = E.PH_DRAW
    r["turn_seat"] = 0
    r["current_player"] = 0
    env.set_state(rec)
    return env


def test_knocking_the_last_turns_laying_out_from_the_knocker_and_the_knocker_plays_first():
    """"This process repeats until a player wants to end the phase ("Schluss" machen). That player knocks
    on the table, and each of the remaining players may then take one card and place one card, once
    each." / "Knocking is only allowed after taking a card and before placing a card on the pile." /
    "The player who called the last round by knocking ("Klopfen") begins by laying out their
    motorcycle." / "In turn, each other player then lays out their motorcycle." / "The knocker who ended
    the first round of play plays the first card.\""""
    hands = {
        0: [FRONT, ENGINE_50, REAR_1, ENGINE_10, TUV, BULL, NAIL, LACH],
        1: [FRONT, ENGINE_100, REAR_2, ENGINE_10, TUV, BULL, PUMP, FUCK_TUV],
        2: [FRONT, ENGINE_20, REAR_3, ENGINE_10, TUV, BULL, PUMP, MOTOR_HER],
        3: [FRONT, ENGINE_20, REAR_1, ENGINE_10, TUV, BULL, PUMP, RAD_HER],
    }
    env = _building_record(hands, face_up=ENGINE_10)
    assert E.KNOCK not in mask(env)                         # not before taking a card
    act(env, E.DRAW_PILE, 0)
    act(env, discard(TUV), 0)
    assert to_act(env) == 1 and E.KNOCK not in mask(env)    # seat 1 has not taken a card yet
    act(env, E.DRAW_PILE, 1)
    assert E.KNOCK in mask(env)                             # after taking, before placing
    act(env, E.KNOCK, 1)
    assert view(env, 0)["knocker"][1] == 1
    assert E.KNOCK not in mask(env) and all(E.DISCARD_BASE <= a < E.FIT_BASE for a in mask(env))
    act(env, discard(TUV), 1)                               # the knocker still places its card
    # Each of the remaining players: one take and one place, once each, in turn after the knocker.
    for seat in (2, 3, 0):
        assert phase(env) == E.PH_DRAW and to_act(env) == seat
        act(env, E.DRAW_FACE_UP, seat)
        assert E.KNOCK not in mask(env)
        act(env, discard(BULL), seat)
    # Now the knocker lays out first, then the others in turn.
    order = []
    while phase(env) == E.PH_LAYOUT:
        order.append(to_act(env))
        lay_out_a_bike(env)
    assert order == [1, 2, 3, 0]
    assert phase(env) == E.PH_TURN and to_act(env) == 1     # the knocker plays the first card
    assert view(env, 0)["status"][:4, 1].tolist() == [1, 1, 1, 1]


# ---- V. Laying out --------------------------------------------------------------------------------


def test_a_player_who_cannot_lay_out_is_eliminated_and_takes_part_again_next_round():
    """"A motorcycle consists of at least 3 cards: front wheel, engine and rear wheel." / "Players who
    cannot lay out a motorcycle are eliminated and may only take part again in the next round.\""""
    hands = {0: FULL + [ENGINE_10], 1: [FRONT, ENGINE_100, ENGINE_50, LACH, TUV], 2: FULL + [ENGINE_10]}
    env = layout_position(hands, knocker=0)                 # seat 2 places its TÜV: laying out begins
    assert to_act(env) == 0
    lay_out_a_bike(env)
    # Seat 1 has no rear wheel: never asked to lay out, out of the round, never a target, never a turn.
    assert to_act(env) == 2 and view(env, 0)["status"][1].tolist() == [0, 0, 1]
    lay_out_a_bike(env)
    assert phase(env) == E.PH_TURN and to_act(env) == 0
    seen = []
    while round_number(env) == 0:
        seen.append(to_act(env))
        act(env, E.PASS)
    assert 1 not in seen and seen == [0, 2]
    assert view(env, 0)["round_scores"][1, 0] == 0
    assert view(env, 0)["round_scores"][0, 0] == 60 and view(env, 0)["round_scores"][2, 0] == 50
    # The next round: seat 1 is dealt in again and builds like everybody (it even starts this round).
    v = view(env, 1)
    assert v["status"][:3, 0].tolist() == [1, 1, 1]
    assert v["hand_sizes"][:3].tolist() == [10, 10, 10]
    assert to_act(env) == 1 and mask(env) == {E.DRAW_PILE, E.DRAW_FACE_UP}


def test_a_spare_part_serves_only_one_of_its_three_uses():
    """"These cards can be used as jokers. Each spare part card offers three possible uses, of which only
    one may be used: a) Rear wheel (4th gear) b) Normal front wheel c) Engine with the power stated on
    the spare part card\""""
    spare_a = SPARE_0 + 4
    hands = {0: FULL + [ENGINE_10],
             1: [spare_a, ENGINE_50, LACH, TUV],             # one spare part cannot be both wheels
             2: [SPARE_0, SPARE_0 + 1, ENGINE_50, TUV]}      # two spare parts can
    env = layout_position(hands, knocker=0)
    lay_out_a_bike(env)
    assert to_act(env) == 2 and view(env, 0)["status"][1].tolist() == [0, 0, 1]
    act(env, fit(SPARE_0, ROLE_FRONT), 2)
    assert fit(SPARE_0 + 1, ROLE_FRONT) not in mask(env)    # one front wheel
    act(env, fit(SPARE_0 + 1, ROLE_REAR), 2)
    act(env, fit(ENGINE_50), 2)
    # The spare parts are wheels here: no power of theirs counts, the rear one is a 4th gear.
    assert view(env, 2)["bike_value"][0] == 50 * 4
    act(env, E.FINISH_LAYOUT, 2)
    assert phase(env) == E.PH_TURN and view(env, 0)["bike_spares"][2, :2].sum() == 2


# ---- V. The horsepower contest ----------------------------------------------------------------------


def test_no_new_cards_are_taken_in_the_contest_and_a_received_card_never_goes_into_the_hand():
    """"No new cards may be taken from the draw pile." / "If the affected player must hand over a card to
    a fellow player, that player must use the card received immediately, i.e. they may not take it
    into their hand.\""""
    env = contest_position(3, hands={0: [MOTOR_HER, ENGINE_10], 1: [ENGINE_20, TUV], 2: [FRONT]},
                           bikes={0: BASIC, 1: [FRONT, ENGINE_100, REAR_4], 2: BASIC})
    pile = int(view(env, 0)["draw_pile"][0])
    act(env, misery(MOTOR_HER, 1), 0)
    act(env, E.ACCEPT, 1)
    act(env, slot(ENGINE_100), 1)                           # the victim hands over its 100 HP engine
    v = view(env, 0)
    assert v["hand"].tolist() == np.eye(len(v["hand"]), dtype=int)[ENGINE_10].tolist()  # not into the hand
    assert v["bikes"][0, 4] == 1 and v["bike_value"][0] == 120   # used at once: onto the bike
    # The rest of the round: every seat plays its hand cards face down (c), then passes.
    sizes = view(env, 0)["hand_sizes"][:3].copy()
    while round_number(env) == 0:
        assert E.DRAW_PILE not in mask(env) and E.DRAW_FACE_UP not in mask(env)
        seat = to_act(env)
        hand = view(env, seat)["hand"]
        act(env, discard(int(np.flatnonzero(hand)[0])) if hand.sum() else E.PASS, seat)
        if round_number(env) == 0:
            now = view(env, 0)["hand_sizes"][:3]
            assert (now <= sizes).all() and view(env, 0)["draw_pile"][0] == pile
            sizes = now.copy()
    assert sizes.sum() == 0


@pytest.mark.parametrize("miserable", [MOTOR_HER, RAD_HER, TUV, BULL, NAIL])
def test_each_joy_card_answers_only_the_misery_it_names(miserable):
    """"2 "Fuck for TÜV" cards: make a TÜV card worthless." / "2 "Da lach ich doch über" ("I'm laughing at
    that") cards: make every misery card worthless." / "4 Air Pump cards: pump up a flat tyre." /
    "When a misery card is played against a fellow player, the affected player must react immediately
    with a joy card.\""""
    env = contest_position(2, hands={0: [miserable], 1: [FUCK_TUV, LACH, PUMP]},
                           bikes={0: BASIC, 1: [FRONT, ENGINE_50, REAR_3]})
    act(env, misery(miserable, 1), 0)
    if to_act(env) == 0:                                    # TÜV and Bull: the attacker challenges a card
        act(env, slot(ENGINE_50), 0)
    assert to_act(env) == 1                                 # the affected player reacts at once
    expected = {E.ACCEPT, E.REACT_LACH}
    if miserable == TUV:
        expected.add(E.REACT_FUCK_TUV)
    if miserable == NAIL:
        expected.add(E.REACT_PUMP)
    assert mask(env) == expected
    # The specific joy card (Da lach ich doch über where there is none) makes the misery worthless.
    reaction = {TUV: E.REACT_FUCK_TUV, NAIL: E.REACT_PUMP}.get(miserable, E.REACT_LACH)
    act(env, reaction, 1)
    v = view(env, 0)
    assert v["bike_value"][1] == 150 and v["bike_value"][0] == 20 and v["flat_tyre"][1] == 0
    assert v["discard_known"][miserable] == 1
    assert phase(env) == E.PH_TURN and to_act(env) == 1


def test_rulebook_example_rad_her_answered_with_da_lach_ich_doch_ueber():
    """"Example: A player shows their fellow player the card "Rad her". If the fellow player does not want
    to give up the wheel, they can play the card "Da lach ich doch über" (provided they have this
    card).\""""
    env = contest_position(3, hands={0: [RAD_HER, ENGINE_10], 1: [LACH, ENGINE_20]},
                           bikes={0: BASIC, 1: [FRONT, ENGINE_50, REAR_4], 2: BASIC})
    act(env, misery(RAD_HER, 1), 0)
    assert to_act(env) == 1 and E.REACT_LACH in mask(env)
    act(env, E.REACT_LACH, 1)
    v = view(env, 0)
    assert v["bikes"][1].sum() == 3 and v["bike_value"][1] == 200   # it keeps both wheels
    assert v["bikes"][0].sum() == 3 and v["bike_value"][0] == 20    # the attacker gets nothing
    assert v["discard_known"][RAD_HER] == 1 and v["discard_known"][LACH] == 1
    assert view(env, 1)["hand"][LACH] == 0 and v["hand"][RAD_HER] == 0


def test_a_reaction_is_not_a_play_and_the_target_next_in_turn_still_plays():
    """"If a player receives a misery card and can react with a joy card, this does not count as playing
    a card from hand. If that player is next in turn, they must play a card from their hand.\""""
    env = contest_position(3, hands={0: [NAIL, ENGINE_10], 1: [PUMP, ENGINE_20], 2: []},
                           bikes={s: BASIC for s in range(3)}, turn=1)
    act(env, E.PASS, 1)
    act(env, E.PASS, 2)
    act(env, misery(NAIL, 1), 0)                            # seat 1 is next in turn
    act(env, E.REACT_PUMP, 1)
    assert view(env, 0)["flat_tyre"][1] == 0
    # The reaction was not seat 1's turn: seat 1 now plays a card from its hand.
    assert phase(env) == E.PH_TURN and to_act(env) == 1 and discard(ENGINE_20) in mask(env)
    act(env, discard(ENGINE_20), 1)
    assert view(env, 1)["hand"].sum() == 0 and to_act(env) == 2


def test_a_spare_part_taken_away_is_used_as_the_taker_chooses():
    """"If a spare part card is taken away by another player, that player may use it again as a joker, in
    any way they choose.\""""
    spare = SPARE_0 + 5
    env = contest_position(2, hands={0: [RAD_HER]}, bikes={0: [FRONT, ENGINE_20], 1: [(spare, ROLE_FRONT),
                                                                                        ENGINE_50, REAR_3]})
    act(env, misery(RAD_HER, 1), 0)
    act(env, E.ACCEPT, 1)
    act(env, slot(spare), 1)                                # it was seat 1's front wheel
    assert to_act(env) == 0
    assert mask(env) == {fit(spare, role) for role in (ROLE_FRONT, ROLE_REAR, ROLE_ENGINE)}
    act(env, fit(spare, ROLE_REAR), 0)                      # seat 0 uses it as a 4th-gear rear wheel
    assert view(env, 0)["bike_value"][0] == 20 * 4 and view(env, 0)["bike_value"][1] == 0


def test_a_nail_flattens_a_spare_part_front_wheel_and_an_air_pump_pumps_it_up():
    """"2 Nail cards: turn a normal tyre into a flat tyre." / "4 Air Pump cards: pump up a flat tyre." /
    "Each spare part card offers three possible uses [...] b) Normal front wheel\""""
    spare = SPARE_0 + 2
    env = contest_position(2, hands={0: [NAIL, ENGINE_10], 1: [PUMP, ENGINE_20]},
                           bikes={0: BASIC, 1: [(spare, ROLE_FRONT), ENGINE_50, REAR_2]})
    assert view(env, 0)["bike_value"][1] == 100
    act(env, misery(NAIL, 1), 0)
    assert mask(env) == {E.ACCEPT, E.REACT_PUMP}
    act(env, E.ACCEPT, 1)                                   # it keeps the pump for later
    v = view(env, 0)
    assert v["flat_tyre"][1] == 1 and v["bike_value"][1] < 100
    assert to_act(env) == 1 and fit(PUMP) in mask(env)      # its own turn: pump up the flat tyre
    act(env, fit(PUMP), 1)
    v = view(env, 0)
    assert v["flat_tyre"][1] == 0 and v["bike_value"][1] == 100 and v["discard_known"][PUMP] == 1
    assert to_act(env) == 0


@pytest.mark.parametrize("challenger", [TUV, BULL])
def test_tuv_and_bull_put_the_challenged_card_face_down_on_the_discard_pile(challenger):
    """"4 TÜV cards: the challenged card is placed face down on the discard pile." / "4 Bull cards
    (Bullenkarten): the challenged card is placed face down on the discard pile.\""""
    env = contest_position(2, hands={0: [challenger]}, bikes={0: BASIC, 1: [FRONT, ENGINE_50, ENGINE_100, REAR_3]})
    act(env, misery(challenger, 1), 0)
    act(env, slot(ENGINE_100), 0)
    act(env, E.ACCEPT, 1)
    for seat in (0, 1):
        v = view(env, seat)
        assert v["bikes"][(1 - seat) % 2, 4] == 0           # the 100 HP engine left seat 1's bike
        assert v["discard_top"].sum() == 0, f"seat {seat} sees a face-up card on the pile"
        assert v["discard_known"][ENGINE_100] == 1                # the whole table saw it go
    assert view(env, 0)["bike_value"][1] == 150


# ---- VI. End of the game, VII. Determining the points ------------------------------------------------


def test_rulebook_scoring_example_played_out_and_noted_for_the_first_round():
    """"The motor power is added up and adjusted by the value of the front and rear wheels. A Turbo card
    doubles the entire horsepower." / "Engine power: 50 and 10 HP gives 60 HP. A Turbo card doubles the
    value to 120 HP. A third gear triples the value, so 360 HP. A wooden front wheel halves the value.
    Total value: 180 HP." / "This value is noted on the score pad for the first round." / "The game
    (round) is over when no player wants to play a card any more.\""""
    hands = {0: [FRONT, ENGINE_50, ENGINE_10, REAR_1, TURBO, REAR_3, WOODEN_FRONT], 1: FULL + [ENGINE_10]}
    env = layout_position(hands, knocker=0)
    for card in (FRONT, ENGINE_50, ENGINE_10, REAR_1):
        act(env, fit(card), 0)
    assert view(env, 1)["bike_value"][1] == 60              # 50 and 10 HP gives 60 HP (gear 1, normal wheel)
    act(env, fit(TURBO), 0)
    assert view(env, 1)["bike_value"][1] == 120             # a Turbo doubles it
    act(env, E.FINISH_LAYOUT, 0)
    lay_out_a_bike(env)                                     # seat 1: 50 HP
    act(env, fit(REAR_3), 0)                                # d) the 3rd gear in place of the 1st
    assert view(env, 1)["bike_value"][1] == 360
    act(env, E.PASS, 1)
    act(env, fit(WOODEN_FRONT), 0)                          # d) a wooden front wheel in place of the normal one
    assert view(env, 1)["bike_value"][1] == 180
    act(env, E.PASS, 1)
    assert round_number(env) == 0
    act(env, E.PASS, 0)                                     # nobody wants to play a card any more
    assert round_number(env) == 1
    v = view(env, 0)
    assert v["round_scores"][0, 0] == 180 and v["round_scores"][1, 0] == 50
    assert v["totals"][0] == 180 and v["totals"][1] == 50


def _play_a_default_game(seed):
    """A whole default game through the public API: take from the draw pile, knock at once, place the
    lowest card, lay out a bike by the mask, pass in the contest. Returns the env at the end and the
    value of every bike as the table saw it when each round ended."""
    env = make(4, seed=seed)
    assert env.config["num_rounds"] == 10
    seen = []
    steps = 0
    while not all(env.terminations.values()):
        steps += 1
        assert steps < 20_000
        allowed = mask(env)
        ph = phase(env)
        if ph == E.PH_DRAW:
            act(env, E.DRAW_PILE if E.DRAW_PILE in allowed else E.DRAW_FACE_UP)
        elif ph == E.PH_DISCARD:
            act(env, E.KNOCK if E.KNOCK in allowed else min(allowed))
        elif ph == E.PH_LAYOUT:
            lay_out_a_bike(env)
        else:
            assert ph == E.PH_TURN
            r = round_number(env)
            values = view(env, 0)["bike_value"][:4].copy()
            status = view(env, 0)["status"][:4, 1].copy()
            act(env, E.PASS)
            if all(env.terminations.values()) or round_number(env) != r:
                seen.append((r, values * status))
    return env, seen


def test_a_default_game_is_ten_rounds_and_counts_each_players_best_eight():
    """"A total of 10 rounds are ridden. Each player's horsepower figures are noted on the score pad for
    each round and added up after 10 rounds. Only the 8 best rounds are counted in the scoring." / "It
    is a real motorcycle race, and the player with the strongest machine wins.\""""
    env, ends = _play_a_default_game(seed=5)
    assert [r for r, _ in ends] == list(range(10))
    v = view(env, 0)
    scores = v["round_scores"][:4]
    for r, values in ends:
        assert scores[:, r].tolist() == values.tolist()     # each round's bikes noted on the pad
    best8 = np.sort(scores, axis=1)[:, 2:].sum(axis=1)
    assert v["totals"][:4].tolist() == best8.tolist()
    assert (np.sort(scores, axis=1)[:, :2].sum(axis=1) > 0).any()  # the dropped rounds matter here
    rewards = [env.rewards[f"player_{s}"] for s in range(4)]
    winner = int(np.argmax(best8))
    assert (best8 == best8[winner]).sum() == 1
    assert rewards[winner] == max(rewards) and rewards.count(max(rewards)) == 1
