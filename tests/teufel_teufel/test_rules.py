"""Every rule of Teufel, Teufel!, each in a scripted position (see ``helpers.table``).

Squares are named a1 (top left) to g7; d4 is the devil space. Unless a test says otherwise a
square holds a face-down card, so face-up letters the mover does not hold serve as walls.
"""

import numpy as np
import pytest

from envs import teufel_teufel_v0
from envs.core import check_records
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E

from .helpers import DEVILS, TOWERS, destinations, legal, names, observation, person, record, sq, table

WALL_A, WALL_B, WALL_C = person(2, "A"), person(2, "B"), person(2, "C")  # colour 2's letters: nobody holds them


# ---- setup and placement -----------------------------------------------------------------


def test_setup_deals_42_face_down_cards_around_the_empty_centre_and_marked_spaces():
    env = teufel_teufel_v0.env(num_players=3)
    env.reset(seed=4)
    state = record(env)
    board = state["board"]
    assert board[D.DEVIL_SPACE] == -1
    assert all(board[s] == -1 for s in D.MARKED_SPACES)
    assert sorted(board[board >= 0]) == list(range(D.NUM_CARDS))
    assert not state["card_up"].any()
    assert state["devils_home"] == 4 and not state["devils"].any()
    assert (state["supply"] == 6).all() and not state["letters"].any()
    assert state["phase"] == D.PLACE and env.agent_selection == "player_0"


def test_placement_keeps_three_spaces_between_discs_and_avoids_the_devil_space():
    env = teufel_teufel_v0.env(num_players=3)
    env.reset(seed=0)
    first = legal(env)
    assert first == set(range(D.NUM_SQUARES)) - {D.DEVIL_SPACE}
    env.step(sq("a1"))
    second = legal(env)
    assert second == {s for s in range(D.NUM_SQUARES) if D.DISTANCE[s, 0] >= 4 and s != D.DEVIL_SPACE}
    assert sq("e1") in second and sq("c3") in second and sq("d1") not in second and sq("b3") not in second
    env.step(sq("g7"))
    assert all(D.DISTANCE[s, 0] >= 4 and D.DISTANCE[s, 48] >= 4 for s in legal(env))
    env.step(sq("g1"))
    state = record(env)
    assert list(state["disc"][:3]) == [sq("a1"), sq("g7"), sq("g1")]
    assert state["phase"] == D.TURN and env.agent_selection == "player_0"


def test_placement_relaxes_the_distance_only_when_no_space_keeps_it():
    env = teufel_teufel_v0.env(num_players=3, start_distance=12)
    env.reset(seed=0)
    env.step(sq("a1"))
    assert legal(env) == {sq("g7")}  # the only square 12 steps away
    env.step(sq("g7"))
    # Nobody can be 12 steps from both corners: the farthest from the nearer disc are 6 away.
    assert legal(env) == {s for s in range(D.NUM_SQUARES)
                          if min(D.DISTANCE[s, 0], D.DISTANCE[s, 48]) == 6 and s != D.DEVIL_SPACE}


# ---- movement ------------------------------------------------------------------------------


def test_a_face_down_card_interrupts_the_move_and_is_turned_over():
    env = table(2, cards={"b1": person(1, "A")}, discs={0: "a1", 1: "g7"})
    assert destinations(env) == {sq("b1"), sq("a2")}
    env.step(sq("b1"))
    state = record(env)
    assert state["card_up"][person(1, "A")] == 1 and state["disc"][0] == sq("b1")
    assert not state["letters"][0].any(), "another colour's letter gives no token"
    assert env.agent_selection == "player_1" and state["phase"] == D.TURN


def test_empty_spaces_are_crossed_and_a_move_may_stop_on_them():
    env = table(2, empty=("b1", "c1", "d1", "a2"), discs={0: "a1", 1: "g7"})
    assert names(destinations(env)) == {"b1", "c1", "d1", "e1", "a2", "a3", "b2", "c2", "d2"}
    env.step(sq("c1"))
    assert record(env)["disc"][0] == sq("c1")


def test_a_held_letter_is_a_hall_pass_in_any_colour():
    cards = {"b1": person(1, "B"), "c1": person(1, "C"), "a2": WALL_A}
    env = table(2, cards=cards, up=("b1", "c1", "a2"), discs={0: "a1", 1: "g7"}, letters={0: "B"})
    # B of colour 1 is crossed with player 0's B; C of colour 1 stops (no C held).
    assert names(destinations(env)) == {"b1", "c1", "b2", "a2"}
    env = table(2, cards=cards, up=("b1", "c1", "a2"), discs={0: "a1", 1: "g7"}, letters={0: "BC"})
    assert names(destinations(env)) == {"b1", "c1", "d1", "b2", "c2", "a2"}


def test_a_face_up_letter_stops_you_when_you_lack_it():
    env = table(2, cards={"b1": person(3, "D"), "a2": WALL_A}, up=("b1", "a2"), discs={0: "a1", 1: "g7"})
    assert names(destinations(env)) == {"b1", "a2"}


def test_your_own_letter_is_taken_and_ends_the_move():
    env = table(2, cards={"b1": person(0, "A"), "a2": WALL_A}, up=("b1", "a2"), discs={0: "a1", 1: "g7"})
    assert names(destinations(env)) == {"b1", "a2"}, "an own letter you lack is no hall pass"
    env.step(sq("b1"))
    state = record(env)
    assert state["letters"][0, 0] == 1 and state["supply"][0] == 5
    assert env.agent_selection == "player_1"


def test_your_own_letter_face_down_is_turned_over_and_taken():
    env = table(2, cards={"b1": person(0, "C")}, discs={0: "a1", 1: "g7"})
    env.step(sq("b1"))
    state = record(env)
    assert state["card_up"][person(0, "C")] and state["letters"][0, 2] == 1 and state["supply"][2] == 5


def test_your_own_letter_already_held_is_a_hall_pass():
    cards = {"b1": person(0, "A"), "a2": WALL_B}
    env = table(2, cards=cards, up=("b1", "a2"), discs={0: "a1", 1: "g7"}, letters={0: "A"})
    assert names(destinations(env)) == {"b1", "c1", "b2", "a2"}
    env.step(sq("b1"))  # stopping on it changes nothing
    assert record(env)["supply"][0] == 5


def test_face_up_devil_and_tower_cards_stop_you_even_with_a_devil():
    cards = {"b1": DEVILS[0], "a2": TOWERS[0]}
    env = table(2, cards=cards, up=("b1", "a2"), discs={0: "a1", 1: "g7"}, devils={0: 1})
    assert names(destinations(env)) == {"b1", "a2"}


def test_a_devil_crosses_face_down_cards_without_turning_them():
    env = table(2, cards={"a2": WALL_A}, up=("a2",), discs={0: "a1", 1: "g7"}, devils={0: 1})
    reach = names(destinations(env))
    assert {"b1", "c1", "c2", "d1", "g1"} <= reach
    crossed = record(env)["board"][sq("b1")]
    env.step(sq("c1"))
    state = record(env)
    assert state["card_up"][crossed] == 0, "crossed cards stay face down"
    assert state["card_up"][state["board"][sq("c1")]] == 1, "the card the move ends on is turned over"


def test_a_devil_still_needs_a_hall_pass_for_face_up_letters():
    cards = {"b1": person(1, "E"), "a2": WALL_A}
    env = table(2, cards=cards, up=("b1", "a2"), discs={0: "a1", 1: "g7"}, devils={0: 1})
    assert names(destinations(env)) == {"b1", "a2"}


def test_the_devil_space_is_blocked_while_devils_stand_on_it():
    cards = {"c3": WALL_A, "e3": WALL_B, "d2": WALL_C}
    discs = {0: "d3", 1: "g1", 2: "a7", 3: "g7", 4: "f7"}
    env = table(5, cards=cards, up=("c3", "e3", "d2"), discs=discs)
    assert names(destinations(env)) == {"c3", "e3", "d2"}
    # With every devil in a disc the space is empty: it may be crossed, and stopped on.
    env = table(5, cards=cards, up=("c3", "e3", "d2"), discs=discs, devils={1: 1, 2: 1, 3: 1, 4: 1})
    assert record(env)["devils_home"] == 0
    assert names(destinations(env)) == {"c3", "e3", "d2", "d4", "c4", "e4", "d5"}


def test_discs_are_never_crossed_without_a_devil_but_a_move_may_end_on_one():
    env = table(2, cards={"a2": WALL_A}, up=("a2",), empty=("b1", "c1"), discs={0: "a1", 1: "b1"})
    assert names(destinations(env)) == {"b1", "a2"}
    env = table(2, cards={"a2": WALL_A}, up=("a2",), empty=("b1", "c1"), discs={0: "a1", 1: "b1"},
                devils={0: 1})
    assert {"b1", "c1", "d1", "b2"} <= names(destinations(env)), "a devil crosses one disc"


def test_a_devil_crosses_a_disc_even_on_a_card_it_has_no_hall_pass_for():
    cards = {"b1": person(4, "F"), "a2": WALL_A}
    env = table(2, cards=cards, up=("b1", "a2"), discs={0: "a1", 1: "b1"}, devils={0: 1})
    assert "c1" in names(destinations(env))


def test_at_most_two_discs_share_a_space_and_a_devil_cannot_cross_two():
    cards = {"a2": WALL_A}
    discs = {0: "a1", 1: "b1", 2: "b1"}
    env = table(3, cards=cards, up=("a2",), empty=("b1",), discs=discs)
    assert names(destinations(env)) == {"a2"}
    env = table(3, cards=cards, up=("a2",), empty=("b1",), discs=discs, devils={0: 1})
    assert names(destinations(env)) == {"a2"}


# ---- the hall pass after turning a card over: a move as a chain ------------------------------
# "On a face-down card, you must interrupt your movement and turn the card over. [...] If the
# card shows a letter that you already have in your devil disc, you have a kind of "hall pass"
# and may move on to the next card. The colour of the letter is irrelevant here. For example,
# if you have your D in the disc, you may move across all other cards with a D."

D2, D3, A1 = person(2, "D"), person(3, "D"), person(1, "A")


def chain_table(revisits=True, **kwargs):
    """Player 0 on the empty a1 holds a D; b1 and c1 hide D's of colours 2 and 3, d1 an A of
    colour 1; a2 is a wall (a face-up A nobody holds)."""
    cards = {"b1": D2, "c1": D3, "d1": A1, "a2": WALL_A, **kwargs.pop("cards", {})}
    options = {"letters": {0: "D"}, "discs": {0: "a1", 1: "g7"}, "up": ("a2",), **kwargs}
    return table(2, cards=cards, empty=("a1",), chain_revisits=revisits, **options)


def test_the_rulebooks_d_example_one_move_turns_several_cards():
    env = chain_table()
    state = record(env)
    assert names(destinations(env)) == {"b1", "a2"}, "a face-down card interrupts the movement"
    env.step(sq("b1"))
    assert state["card_up"][D2] and state["phase"] == D.GO_ON and env.agent_selection == "player_0"
    assert state["move_from"] == sq("a1") and names(np.flatnonzero(state["move_turned"])) == {"b1"}
    env.step(sq("c1"))  # the D of another colour is a hall pass: go on, turn the next card
    assert state["card_up"][D3] and state["phase"] == D.GO_ON and env.agent_selection == "player_0"
    assert names(np.flatnonzero(state["move_turned"])) == {"b1", "c1"}
    env.step(sq("d1"))  # an A the mover does not hold ends the move there
    assert state["card_up"][A1] and state["disc"][0] == sq("d1")
    assert not state["letters"][0, 0], "another colour's letter gives no token"
    assert env.agent_selection == "player_1" and state["phase"] == D.TURN
    assert state["move_from"] == -1 and not state["move_turned"].any()


def test_the_rulebooks_a_example_face_up_and_turned_as_are_hall_passes():
    """The rulebook: "if you have the A in your devil disc, you may move across all cards with an A"."""
    cards = {"b1": person(1, "A"), "c1": person(3, "A"), "d1": person(4, "A"), "e1": person(5, "C"),
             "a2": WALL_B, "b2": WALL_C, "d2": person(2, "E")}
    env = table(2, cards=cards, up=("b1", "d1", "a2", "b2", "d2"), discs={0: "a1", 1: "g7"}, letters={0: "A"})
    assert names(destinations(env)) == {"b1", "c1", "a2", "b2"}, "across the face-up A, onto the hidden one"
    env.step(sq("c1"))
    state = record(env)
    assert state["phase"] == D.GO_ON and state["card_up"][person(3, "A")]
    # Back across the A at b1 onto a1 (the card the move began on, still face down), or on
    # across the face-up A at d1 to e1.
    assert names(destinations(env)) == {"a1", "b1", "b2", "c2", "d1", "e1", "d2"}
    env.step(sq("e1"))
    assert env.agent_selection == "player_1" and state["card_up"][person(5, "C")]


def test_going_on_is_a_move_from_the_turned_card_under_every_movement_rule():
    env = chain_table(devils={0: 1}, cards={"b2": WALL_C}, up=("a2", "b2"))
    env.step(sq("b1"))
    # From b1: back over the empty a1 (to the wall a2), and on with the devil across the hidden
    # c1, d1, ... (a devil carries the disc over face-down cards); no swap, devil move or pass.
    reach = names(destinations(env))
    assert {"a1", "a2", "c1", "d1", "g1", "c2"} <= reach and "b1" not in reach
    assert legal(env) - set(destinations(env)) == {D.STOP_HERE}
    assert record(env)["card_up"][D3] == 0


def test_stop_here_ends_the_move_on_the_turned_card():
    env = chain_table()
    env.step(sq("b1"))
    assert env.unwrapped.action_to_str(D.STOP_HERE) == "stop here (end the move)"
    env.step(D.STOP_HERE)
    state = record(env)
    assert state["disc"][0] == sq("b1") and env.agent_selection == "player_1" and state["phase"] == D.TURN
    assert state["move_from"] == -1 and not state["move_turned"].any()


def test_a_chain_ends_on_a_devil():
    env = chain_table(cards={"c1": DEVILS[1]})
    env.step(sq("b1"))
    env.step(sq("c1"))
    state = record(env)
    assert state["devils"][0] == 1 and state["devils_home"] == 3 and state["disc"][0] == sq("c1")
    assert env.agent_selection == "player_1"


def test_a_chain_ends_on_a_tower():
    env = chain_table(cards={"c1": TOWERS[0]})
    env.step(sq("b1"))
    env.step(sq("c1"))
    assert record(env)["phase"] == D.TOWER_PEEK and env.agent_selection == "player_0"
    env.step(D.SKIP_PEEK)
    assert env.agent_selection == "player_1"


def test_a_chain_ends_on_a_letter_of_your_own_colour_and_takes_it():
    env = chain_table(cards={"c1": person(0, "B")})
    env.step(sq("b1"))
    env.step(sq("c1"))
    state = record(env)
    assert state["letters"][0, 1] == 1 and state["supply"][1] == 5 and env.agent_selection == "player_1"


def test_a_letter_of_your_own_colour_you_hold_already_is_a_hall_pass_too():
    """The rulebook: "the colour of the letter is irrelevant". Your own card of a letter you hold
    (face down again after a devil move) lets you go on, as it does face up."""
    env = chain_table(cards={"b1": person(0, "D")})
    env.step(sq("b1"))
    state = record(env)
    assert state["phase"] == D.GO_ON and state["supply"][3] == 5, "no second D token"


def test_a_chain_ends_on_a_letter_the_mover_does_not_hold():
    env = chain_table(cards={"c1": person(4, "E")})
    env.step(sq("b1"))
    env.step(sq("c1"))
    state = record(env)
    assert state["card_up"][person(4, "E")] and state["disc"][0] == sq("c1")
    assert not state["letters"][0, 4] and env.agent_selection == "player_1" and state["phase"] == D.TURN


def test_a_fellow_on_the_turned_card_stops_a_mover_without_a_devil():
    env = chain_table(discs={0: "a1", 1: "b1"})
    env.step(sq("b1"))
    state = record(env)
    assert state["card_up"][D2] and state["disc"][0] == sq("b1") and env.agent_selection == "player_1"


def test_with_a_devil_the_chain_crosses_the_fellow_and_stopping_there_offers_the_hand_over():
    env = chain_table(discs={0: "a1", 1: "b1"}, devils={0: 1})
    env.step(sq("b1"))
    state = record(env)
    assert state["phase"] == D.GO_ON and sq("c1") in destinations(env)
    env.step(D.STOP_HERE)
    assert state["phase"] == D.HANDOVER and legal(env) == {D.HAND_OVER, D.KEEP_DEVIL}


def test_a_devil_holder_crosses_face_down_cards_unturned_and_chains_on_the_one_it_stops_on():
    env = chain_table(devils={0: 1}, cards={"b1": A1, "d1": D2})
    env.step(sq("d1"))  # across b1 and c1 without turning them
    state = record(env)
    assert state["card_up"][A1] == 0 and state["card_up"][D3] == 0 and state["card_up"][D2] == 1
    assert state["phase"] == D.GO_ON and names(np.flatnonzero(state["move_turned"])) == {"d1"}


def test_a_chain_may_go_back_over_its_squares_unless_the_table_forbids_it():
    env = chain_table()
    env.step(sq("b1"))
    env.step(sq("c1"))
    assert names(destinations(env)) == {"a1", "a2", "b1", "b2", "c2", "d1"}, "back over b1 and a1"
    env.step(sq("a1"))  # the move may even end where it began
    assert record(env)["disc"][0] == sq("a1") and env.agent_selection == "player_1"
    env = chain_table(revisits=False)
    env.step(sq("b1"))
    assert names(destinations(env)) == {"b2", "c1"}, "neither the start a1 nor beyond it"
    env.step(sq("c1"))
    assert names(destinations(env)) == {"c2", "d1"}


def test_daybreak_on_a_hall_pass_ends_the_game_at_once():
    env = table(2, cards={"b1": D2}, all_up=True, down=("b1",), discs={0: "a1", 1: "g7"}, letters={0: "D"})
    env.step(sq("b1"))
    assert all(env.terminations.values()) and env.rewards == {"player_0": -1.0, "player_1": -1.0}


# ---- devils --------------------------------------------------------------------------------


def test_a_devil_card_gives_a_devil_from_the_devil_space():
    env = table(2, cards={"b1": DEVILS[2]}, discs={0: "a1", 1: "g7"})
    env.step(sq("b1"))
    state = record(env)
    assert state["devils"][0] == 1 and state["devils_home"] == 3 and state["card_up"][DEVILS[2]]
    assert env.agent_selection == "player_1"


def test_a_face_up_devil_card_gives_a_devil_too():
    env = table(2, cards={"b1": DEVILS[0]}, up=("b1",), discs={0: "a1", 1: "g7"})
    env.step(sq("b1"))
    assert record(env)["devils"][0] == 1


def test_with_every_devil_in_discs_you_take_one_from_a_fellow_player_of_your_choice():
    discs = {0: "a1", 1: "g1", 2: "a7", 3: "g7", 4: "e7"}
    env = table(5, cards={"b1": DEVILS[0]}, discs=discs, devils={1: 1, 2: 1, 3: 1, 4: 1})
    env.step(sq("b1"))
    state = record(env)
    assert state["phase"] == D.STEAL and env.agent_selection == "player_0"
    assert legal(env) == {D.STEAL_FIRST + k for k in range(4)}
    assert D.action_name(D.STEAL_FIRST + 1) == "take a devil from the player 2 seats after you"
    env.step(D.STEAL_FIRST + 1)
    assert list(state["devils"][:5]) == [1, 1, 0, 1, 1] and state["devils_home"] == 0
    assert env.agent_selection == "player_1"


def test_taking_a_fellow_players_devil_as_your_second_is_teufel_teufel():
    discs = {0: "a1", 1: "g1", 2: "a7", 3: "g7"}
    env = table(4, cards={"b1": DEVILS[0]}, discs=discs, devils={0: 1, 1: 1, 2: 1, 3: 1}, letters={0: "A"})
    env.step(sq("b1"))
    assert legal(env) == {D.STEAL_FIRST + k for k in range(3)}
    env.step(D.STEAL_FIRST + 2)  # from seat 3
    state = record(env)
    assert list(state["devils"][:4]) == [0, 1, 1, 0] and state["devils_home"] == 2
    assert not state["letters"][0].any() and state["supply"][0] == 6


def test_a_second_devil_sends_both_home_taking_two_letters_of_the_holders_choice():
    env = table(2, cards={"b1": DEVILS[1]}, discs={0: "a1", 1: "g7"}, devils={0: 1}, letters={0: "ABC"})
    env.step(sq("b1"))
    state = record(env)
    assert state["devils"][0] == 0 and state["devils_home"] == 4
    assert state["phase"] == D.LOSE_LETTER and env.agent_selection == "player_0"
    assert legal(env) == {D.LOSE_FIRST + i for i in range(3)}
    env.step(D.LOSE_FIRST + 0)
    assert legal(env) == {D.LOSE_FIRST + 1, D.LOSE_FIRST + 2}
    env.step(D.LOSE_FIRST + 2)
    assert list(state["letters"][0]) == [0, 1, 0, 0, 0, 0]
    assert list(state["supply"]) == [6, 5, 6, 6, 6, 6]
    assert env.agent_selection == "player_1" and state["phase"] == D.TURN


def test_a_second_devil_takes_every_letter_without_a_choice_when_there_are_two_or_fewer():
    env = table(2, cards={"b1": DEVILS[1]}, discs={0: "a1", 1: "g7"}, devils={0: 1}, letters={0: "DF"})
    env.step(sq("b1"))
    state = record(env)
    assert not state["letters"][0].any() and state["supply"][3] == 6 and state["supply"][5] == 6
    assert env.agent_selection == "player_1"


def test_ending_a_move_on_a_fellow_disc_with_a_devil_offers_the_hand_over():
    for give in (True, False):
        env = table(2, cards={"b1": person(1, "A")}, up=("b1",), discs={0: "a1", 1: "b1"}, devils={0: 1})
        env.step(sq("b1"))
        assert record(env)["phase"] == D.HANDOVER and legal(env) == {D.HAND_OVER, D.KEEP_DEVIL}
        env.step(D.HAND_OVER if give else D.KEEP_DEVIL)
        state = record(env)
        assert list(state["devils"][:2]) == ([0, 1] if give else [1, 0])
        assert env.agent_selection == "player_1"


def test_crossing_a_fellow_disc_hands_nothing_over():
    env = table(2, empty=("b1", "c1"), discs={0: "a1", 1: "b1"}, devils={0: 1})
    env.step(sq("c1"))
    assert list(record(env)["devils"][:2]) == [1, 0] and env.agent_selection == "player_1"


def test_no_hand_over_without_a_devil():
    env = table(2, empty=("b1",), discs={0: "a1", 1: "b1"}, devils={1: 1})
    env.step(sq("b1"))
    assert list(record(env)["devils"][:2]) == [0, 1] and env.agent_selection == "player_1"


def test_a_fellow_on_a_devil_card_cannot_be_given_a_devil_you_take_your_second_instead():
    env = table(2, cards={"b1": DEVILS[0]}, up=("b1",), discs={0: "a1", 1: "b1"}, devils={0: 1},
                letters={0: "AB"})
    env.step(sq("b1"))
    state = record(env)
    assert list(state["devils"][:2]) == [0, 0] and state["devils_home"] == 4
    assert not state["letters"][0].any()
    assert env.agent_selection == "player_1"


def test_a_devil_cannot_be_handed_over_on_a_tower():
    env = table(2, cards={"b1": TOWERS[0]}, up=("b1",), discs={0: "a1", 1: "b1"}, devils={0: 1})
    env.step(sq("b1"))
    assert record(env)["phase"] == D.TOWER_PEEK and D.HAND_OVER not in legal(env)
    env.step(D.SKIP_PEEK)
    assert legal(env) == {D.DROP_DEVIL, D.KEEP_DEVIL}
    env.step(D.KEEP_DEVIL)
    assert list(record(env)["devils"][:2]) == [1, 0] and env.agent_selection == "player_1"


def test_a_handed_over_second_devil_costs_the_receiver_two_letters_of_their_choice():
    env = table(3, empty=("b1",), discs={0: "a1", 1: "b1", 2: "g7"}, devils={0: 1, 1: 1}, letters={1: "ABCD"})
    env.step(sq("b1"))
    env.step(D.HAND_OVER)
    state = record(env)
    assert list(state["devils"][:3]) == [0, 0, 0] and state["devils_home"] == 4
    assert env.agent_selection == "player_1" and state["phase"] == D.LOSE_LETTER
    assert state["turn_owner"] == 0
    env.step(D.LOSE_FIRST + 3)
    env.step(D.LOSE_FIRST + 0)
    assert list(state["letters"][1]) == [0, 1, 1, 0, 0, 0]
    assert env.agent_selection == "player_1" and state["phase"] == D.TURN and state["turn_owner"] == 1


# ---- towers --------------------------------------------------------------------------------


def test_a_tower_lets_you_peek_at_one_face_down_card_only_you_then_know():
    env = table(2, cards={"b1": TOWERS[1], "g1": person(1, "D")}, discs={0: "a1", 1: "g7"})
    env.step(sq("b1"))
    state = record(env)
    assert state["phase"] == D.TOWER_PEEK
    assert legal(env) == {s for s in range(D.NUM_SQUARES) if E.is_face_down(state, s)} | {D.SKIP_PEEK}
    before = observation(env, 1)["cards"].copy()
    env.step(sq("g1"))
    assert state["card_up"][person(1, "D")] == 0, "the card goes back face down"
    mine = observation(env, 0)
    assert mine["cards"][sq("g1")].argmax() == 1 * 6 + 3 and mine["certain"][sq("g1")] == 1
    theirs = observation(env, 1)
    assert theirs["certain"][sq("g1")] == 0
    np.testing.assert_array_equal(theirs["cards"], before)
    assert env.agent_selection == "player_1", "no devil: nothing to drop, the turn ends"


def test_a_devil_may_be_dropped_in_a_tower():
    env = table(2, cards={"b1": TOWERS[0]}, discs={0: "a1", 1: "g7"}, devils={0: 1})
    env.step(sq("b1"))
    env.step(D.SKIP_PEEK)
    assert record(env)["phase"] == D.TOWER_DROP
    env.step(D.DROP_DEVIL)
    state = record(env)
    assert state["devils"][0] == 0 and state["devils_home"] == 4 and env.agent_selection == "player_1"


# ---- leaving the board ---------------------------------------------------------------------


def test_six_letters_and_no_devil_leave_the_board():
    env = table(3, cards={"b1": person(0, "F")}, up=("b1",), discs={0: "a1", 1: "g7", 2: "g1"},
                letters={0: "ABCDE"})
    env.step(sq("b1"))
    state = record(env)
    assert state["status"][0] == E.LEFT and state["disc"][0] == -1
    assert env.rewards == {"player_0": 1.0, "player_1": 0.0, "player_2": 0.0}
    assert not state["terminal"] and env.agent_selection == "player_1"


def test_six_letters_with_a_devil_stay_until_the_devil_is_dropped():
    cards = {"b1": person(0, "F"), "c1": TOWERS[0]}
    env = table(3, cards=cards, up=("b1", "c1"), discs={0: "a1", 1: "g7", 2: "g1"}, letters={0: "ABCDE"},
                devils={0: 1})
    env.step(sq("b1"))
    state = record(env)
    assert state["status"][0] == E.ON_BOARD and state["letters"][0].all()
    env.step(sq("f7"))  # player 1
    env.step(sq("f1"))  # player 2
    env.step(sq("c1"))  # a hall pass for F carries player 0 to the tower
    env.step(D.SKIP_PEEK)
    env.step(D.DROP_DEVIL)
    assert state["status"][0] == E.LEFT and env.rewards["player_0"] == 1.0


def test_handing_over_the_last_devil_with_six_letters_leaves_the_board():
    env = table(3, empty=("b1",), discs={0: "a1", 1: "b1", 2: "g7"}, letters={0: "ABCDEF"}, devils={0: 1})
    env.step(sq("b1"))
    env.step(D.HAND_OVER)
    state = record(env)
    assert state["status"][0] == E.LEFT and state["devils"][1] == 1 and env.rewards["player_0"] == 1.0


def test_a_player_off_the_board_turns_over_two_face_down_cards_a_turn():
    env = table(3, discs={1: "g7", 2: "g1"}, left=(0,), letters={0: "ABCDEF"})
    state = record(env)
    assert state["phase"] == D.FLIP
    assert legal(env) == {s for s in range(D.NUM_SQUARES) if E.is_face_down(state, s)}
    first, second = state["board"][sq("a1")], state["board"][sq("c5")]
    env.step(sq("a1"))
    assert env.agent_selection == "player_0" and sq("a1") not in legal(env)
    env.step(sq("c5"))
    assert state["card_up"][first] and state["card_up"][second]
    assert env.agent_selection == "player_1" and state["phase"] == D.TURN


# ---- swaps and devil moves -----------------------------------------------------------------


def test_a_swap_takes_face_down_cards_and_own_face_up_letters_without_discs():
    cards = {"b1": person(0, "B"), "c1": person(1, "B"), "d1": DEVILS[0], "e1": TOWERS[0]}
    env = table(2, cards=cards, up=("b1", "c1", "d1", "e1"), discs={0: "a1", 1: "g1"})
    assert D.BEGIN_SWAP in legal(env)
    env.step(D.BEGIN_SWAP)
    state = record(env)
    expected = {s for s in range(D.NUM_SQUARES) if E.is_face_down(state, s)} - {sq("a1"), sq("g1")} | {sq("b1")}
    assert legal(env) == expected
    env.step(sq("b1"))
    assert legal(env) == expected - {sq("b1")}
    moved = state["board"][sq("f1")]
    env.step(sq("f1"))
    assert state["board"][sq("f1")] == person(0, "B") and state["card_up"][person(0, "B")]
    assert state["board"][sq("b1")] == moved and state["card_up"][moved] == 0
    assert state["disc"][0] == sq("a1") and env.agent_selection == "player_1", "a swap is the whole turn"


def test_a_peeked_card_stays_known_when_it_is_swapped():
    env = table(2, cards={"c3": person(1, "E")}, discs={0: "a1", 1: "g7"})
    state = record(env)
    state["known"][0, person(1, "E")] = 1
    env.step(D.BEGIN_SWAP)
    env.step(sq("c3"))
    env.step(sq("e5"))
    assert observation(env, 0)["cards"][sq("e5")].argmax() == 6 + 4
    assert observation(env, 0)["certain"][sq("e5")] == 1 and observation(env, 0)["certain"][sq("c3")] == 0


def test_a_devil_move_needs_a_devil():
    cards = {"b1": person(1, "A"), "c1": person(1, "B")}
    env = table(2, cards=cards, up=("b1", "c1"), discs={0: "a1", 1: "g7"})
    assert D.BEGIN_DEVIL_MOVE not in legal(env)
    env = table(2, cards=cards, up=("b1", "c1"), discs={0: "a1", 1: "g7"}, devils={0: 1})
    assert D.BEGIN_DEVIL_MOVE in legal(env)


def test_a_devil_move_reshuffles_two_to_four_face_up_cards_onto_free_spaces():
    cards = {"b1": person(1, "A"), "c1": DEVILS[0], "d1": TOWERS[0], "e1": person(2, "F")}
    env = table(2, cards=cards, up=("b1", "c1", "d1", "e1"), empty=("b2", "c2"), discs={0: "a1", 1: "e1"},
                devils={0: 1})
    env.step(D.BEGIN_DEVIL_MOVE)
    assert legal(env) == {sq("b1"), sq("c1"), sq("d1"), sq("e1")}, "any face-up card, also one under a disc"
    env.step(sq("b1"))
    assert D.DONE_PICKING not in legal(env), "at least two cards"
    env.step(sq("c1"))
    env.step(D.DONE_PICKING)
    state = record(env)
    assert state["phase"] == D.DEVIL_PLACE and state["held_count"] == 2
    free = {sq(n) for n in ("b1", "c1", "b2", "c2")} | {s for s in range(D.NUM_SQUARES)
                                                         if state["board"][s] < 0 and s != D.DEVIL_SPACE}
    assert legal(env) == free - {sq("a1"), sq("e1")} and D.DEVIL_SPACE not in legal(env)
    env.step(sq("b2"))
    env.step(sq("g7"))
    assert {state["board"][sq("b2")], state["board"][sq("g7")]} == {person(1, "A"), DEVILS[0]}
    assert state["board"][sq("b1")] == -1 and state["board"][sq("c1")] == -1
    assert state["card_up"][person(1, "A")] == 0 and state["card_up"][DEVILS[0]] == 0
    assert env.agent_selection == "player_1" and state["devils"][0] == 1, "the devil stays in the disc"
    for seat in (0, 1):  # nobody knows which is which: half a devil, half an A of colour 1
        view = observation(env, seat)["cards"]
        for square in (sq("b2"), sq("g7")):
            assert view[square, D.TYPE_DEVIL] == pytest.approx(0.5)
            assert view[square, E.card_type(person(1, "A"), seat, 2)] == pytest.approx(0.5)


def test_a_devil_move_of_four_cards_ends_picking_by_itself():
    cards = {"b1": person(1, "A"), "c1": person(1, "B"), "d1": person(1, "C"), "e1": person(1, "D"),
             "f1": person(1, "E")}
    env = table(2, cards=cards, up=tuple(cards), discs={0: "a1", 1: "g7"}, devils={0: 1})
    env.step(D.BEGIN_DEVIL_MOVE)
    for name in ("b1", "c1", "d1", "e1"):
        env.step(sq(name))
    assert record(env)["phase"] == D.DEVIL_PLACE and record(env)["held_count"] == 4


def test_a_devil_move_wipes_what_a_seat_had_peeked():
    env = table(2, cards={"b1": person(1, "A"), "c1": person(1, "B")}, up=("b1", "c1"),
                discs={0: "a1", 1: "g7"}, devils={0: 1})
    state = record(env)
    state["known"][:, person(1, "A")] = 1  # stale knowledge from before it was face up
    env.step(D.BEGIN_DEVIL_MOVE)
    env.step(sq("b1"))
    env.step(sq("c1"))
    env.step(D.DONE_PICKING)
    env.step(sq("b1"))
    env.step(sq("c1"))
    assert not state["known"][:, person(1, "A")].any()
    assert observation(env, 0)["certain"][sq("b1")] == 0


# "The player may choose from all face-up cards, including devils, towers and letters of other
# colours": unlike a swap ("Cards on which devil discs stand cannot be swapped") a devil move may
# take a card a disc stands on. The disc stays on its space, now without a card: not a free
# space for the hand, an ordinary space for moving.


def steps(env, *actions):
    """Play ``actions``; the record passes ``check_records`` after each."""
    for action in actions:
        env.step(action)
        check_records(teufel_teufel_v0.GAME, env.unwrapped.get_state())


def test_a_devil_move_takes_the_card_under_a_fellows_disc_which_stays_on_the_empty_space():
    cards = {"b1": person(1, "C"), "c1": DEVILS[0], "d1": WALL_B, "a2": WALL_A, "b2": person(1, "B"),
             "c2": WALL_C}
    env = table(2, cards=cards, up=("b1", "c1", "d1", "a2", "c2"), discs={0: "a1", 1: "b1"}, devils={0: 1})
    state = record(env)
    steps(env, D.BEGIN_DEVIL_MOVE)
    assert {sq("b1"), sq("c1")} <= legal(env), "the face-up card under player_1's disc may be taken"
    steps(env, sq("b1"), sq("c1"), D.DONE_PICKING)
    assert state["disc"][1] == sq("b1") and state["board"][sq("b1")] == -1, "the disc stays on the empty space"
    free = {s for s in range(D.NUM_SQUARES) if state["board"][s] < 0 and s != D.DEVIL_SPACE} - {sq("b1")}
    assert sq("c1") in free and legal(env) == free, "the space under the disc is not free; the other one is"
    steps(env, sq("c7"), sq("d7"))
    assert state["board"][sq("b1")] == -1 and state["board"][sq("c1")] == -1 and state["disc"][1] == sq("b1")
    assert {state["board"][sq("c7")], state["board"][sq("d7")]} == {person(1, "C"), DEVILS[0]}
    assert not state["card_up"][person(1, "C")] and not state["card_up"][DEVILS[0]]
    assert state["devils"][0] == 1 and env.agent_selection == "player_1"
    view = observation(env, 1)
    assert list(view["squares"][sq("b1")]) == [1, 0, 0, 0] and view["discs"][0, sq("b1")] == 1
    assert view["cards"][sq("c7"), D.TYPE_DEVIL] == pytest.approx(0.5)
    # player_1 moves off the empty space as from any: over the emptied c1 to the walls d1 and c2,
    # onto a1 (player_0's disc, not crossed) or the face-down b2.
    assert names(destinations(env)) == {"a1", "b2", "c1", "c2", "d1"}
    steps(env, sq("b2"))
    assert state["disc"][1] == sq("b2") and state["letters"][1, D.LETTERS.index("B")] == 1
    # player_0 moves over both emptied spaces (no disc on them now) to the wall d1.
    assert {"b1", "c1", "d1"} <= names(destinations(env))
    steps(env, sq("d1"))
    assert state["disc"][0] == sq("d1") and env.agent_selection == "player_1"


def test_a_devil_move_takes_the_card_under_the_movers_own_disc():
    cards = {"b1": person(1, "A"), "c1": TOWERS[0], "d1": WALL_B, "a2": WALL_A, "b2": person(0, "B"),
             "c2": WALL_C}
    env = table(2, cards=cards, up=("b1", "c1", "d1", "a2", "c2"), discs={0: "b1", 1: "a1"}, devils={0: 1})
    state = record(env)
    steps(env, D.BEGIN_DEVIL_MOVE)
    assert {sq("b1"), sq("c1")} <= legal(env), "the face-up card under the mover's own disc may be taken"
    steps(env, sq("b1"), sq("c1"), D.DONE_PICKING)
    assert sq("b1") not in legal(env) and sq("c1") in legal(env)
    steps(env, sq("c7"), sq("d7"))
    assert state["disc"][0] == sq("b1") and state["board"][sq("b1")] == -1
    assert {state["board"][sq("c7")], state["board"][sq("d7")]} == {person(1, "A"), TOWERS[0]}
    assert not state["card_up"][person(1, "A")] and not state["card_up"][TOWERS[0]]
    # player_1 (no devil) may end on player_0's disc on the empty space but not cross it.
    assert names(destinations(env)) == {"a2", "b1"}
    steps(env, sq("b1"))
    assert state["disc"][0] == state["disc"][1] == sq("b1") and env.agent_selection == "player_0"
    # player_0 moves off its empty space (shared now) onto the face-down B of its colour.
    assert {"a1", "b2", "c1"} <= names(destinations(env))
    steps(env, sq("b2"))
    assert state["disc"][0] == sq("b2") and state["letters"][0, D.LETTERS.index("B")] == 1
    # player_1 moves off too, over the emptied c1 to the walls; player_0's disc on b2 is not crossed.
    assert names(destinations(env)) == {"a1", "b2", "c1", "c2", "d1"}
    steps(env, sq("d1"))
    assert state["disc"][1] == sq("d1") and env.agent_selection == "player_0"


# ---- the end -------------------------------------------------------------------------------


def test_the_last_disc_on_the_board_loses():
    env = table(2, cards={"b1": person(0, "F")}, up=("b1",), discs={0: "a1", 1: "g7"}, letters={0: "ABCDE"})
    env.step(sq("b1"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}
    assert list(record(env)["status"][:2]) == [E.LEFT, E.LOST]


def test_the_last_disc_loses_after_others_left_in_a_bigger_game():
    env = table(3, cards={"b1": person(0, "F")}, up=("b1",), discs={0: "a1", 2: "g7"},
                letters={0: "ABCDE", 1: "ABCDEF"}, left=(1,))
    env.step(sq("b1"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 1.0, "player_1": 0.0, "player_2": -1.0}


def test_daybreak_when_the_last_card_turns_everyone_on_the_board_loses():
    env = table(3, discs={0: "a1", 1: "g7", 2: "g1"}, all_up=True, down=("b1",),
                cards={"b1": person(2, "C")})
    env.step(sq("b1"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": -1.0, "player_1": -1.0, "player_2": -1.0}


def test_a_disc_completed_by_the_last_card_still_leaves_at_daybreak():
    env = table(3, discs={0: "a1", 1: "g7", 2: "g1"}, all_up=True, down=("b1",),
                cards={"b1": person(0, "F")}, letters={0: "ABCDE"})
    env.step(sq("b1"))
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0, "player_2": -1.0}


def test_daybreak_by_a_player_off_the_board():
    env = table(3, discs={1: "g7", 2: "g1"}, left=(0,), letters={0: "ABCDEF"}, all_up=True, down=("c3",))
    assert record(env)["flips_left"] == 1
    env.step(sq("c3"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": -1.0}


def test_ranked_rewards_spread_the_placings():
    env = table(3, cards={"b1": person(0, "F")}, up=("b1",), discs={0: "a1", 2: "g7"},
                letters={0: "ABCDE", 1: "ABCDEF"}, left=(1,), rewards="ranked")
    env.step(sq("b1"))
    assert env.rewards == {"player_0": 0.0, "player_1": 0.0, "player_2": -1.0}, "second out of three: 0"


def test_letter_reward_shapes_gains_and_losses():
    env = table(2, cards={"b1": person(0, "A")}, up=("b1",), discs={0: "a1", 1: "g7"}, letter_reward=0.1)
    env.step(sq("b1"))
    assert env.rewards["player_0"] == pytest.approx(0.1)
    env = table(2, cards={"b1": DEVILS[0]}, discs={0: "a1", 1: "g7"}, devils={0: 1}, letters={0: "AB"},
                letter_reward=0.1)
    env.step(sq("b1"))
    assert env.rewards["player_0"] == pytest.approx(-0.2)


def test_pass_only_when_nothing_else_is_possible():
    """Unreachable in a real game (some own letter card is always free to swap): the safety net
    that keeps a legal action for the seat to act."""
    discs = {0: "a1", 1: "b1", 2: "b1", 3: "a2", 4: "a2", 5: "c1"}
    own = {name: person(0, i) for i, name in enumerate(("a1", "b1", "a2", "c1"))}
    env = table(6, cards=own, discs=discs, all_up=True, down=tuple(own))
    state = record(env)
    for card in (person(0, "E"), person(0, "F")):  # out of reach: in a devil move's hand
        state["board"][state["card_square"][card]] = -1
        state["card_square"][card] = -1
    assert legal(env) == {D.PASS}
    env.step(D.PASS)
    assert env.agent_selection == "player_1"
    normal = table(2, discs={0: "a1", 1: "g7"})
    assert D.PASS not in legal(normal)
