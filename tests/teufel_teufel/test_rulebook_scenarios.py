"""Rulebook scenarios for Teufel, Teufel!, written from ``shared/rulebooks/teufel_teufel.txt``.

Each test plays a situation the rulebook describes through the public API (every action is
checked against the seat's ``action_mask`` before ``env.step``; refused actions must raise
``IllegalActionError``) in the default game of four players, and asserts what the quoted
sentence says must happen.

Squares are named a1 (top left) to g7; d4 is the devil space. In the positions built with
``helpers.table`` every square not named holds a face-down card (the last few of row 7 stay
empty). Colours 4 and 5 are not in a four-player game: their face-up letters, held by nobody,
serve as walls.
"""

import pytest

from envs import teufel_teufel_v0
from envs.core.game import IllegalActionError
from envs.teufel_teufel import data as D
from envs.teufel_teufel import engine as E

from .helpers import DEVILS, TOWERS, destinations, legal, names, observation, person, record, sq, table

N = 4  # the default number of players
assert teufel_teufel_v0.GAME.default_players == N

W = {letter: person(5, letter) for letter in "ABCDEF"}  # walls: colour 5's letters (unused colour)
W4 = {letter: person(4, letter) for letter in "ABCDEF"}  # and colour 4's


def play(env, *actions):
    """Step each action after checking that it is legal for the seat to act."""
    for action in actions:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        assert mask[action] == 1, f"{agent}: {D.action_name(action)} should be legal"
        env.step(action)


def refused(env, action):
    """The seat to act may not take ``action``: masked out, and stepping it raises."""
    agent = env.agent_selection
    assert env.observe(agent)["action_mask"][action] == 0, f"{agent}: {D.action_name(action)} should be illegal"
    with pytest.raises(IllegalActionError):
        env.step(action)
    return True


def swap_turn(env, first, second):
    """A whole turn spent swapping two cards (to pass the turn without moving)."""
    play(env, D.BEGIN_SWAP, sq(first), sq(second))


def reachable(env):
    return names(destinations(env))


# ---- setup -------------------------------------------------------------------------------


def test_setup_of_the_default_game():
    """"Shuffle the 42 cards thoroughly and place them face down on the spaces of the board. The
    six specially marked spaces remain empty at the start. Place the four devil markers on the
    devil space in the centre of the board. Place the 36 letter tokens within easy reach.\""""
    env = teufel_teufel_v0.env()
    env.reset(seed=11)
    assert env.possible_agents == [f"player_{i}" for i in range(N)]
    view = observation(env, 0)
    assert view["face_down"][0] == 42
    squares = view["squares"]
    assert squares[:, 1].sum() == 42, "42 face-down cards on the board"
    assert squares[:, 2].sum() == 0, "none face up"
    assert squares[:, 0].sum() == 6, "six spaces without a card besides the devil space"
    assert squares[D.DEVIL_SPACE, 3] == 1
    assert view["devils_home"][0] == 4 and not view["devils"].any()
    assert view["supply"].sum() == 36 and not view["letters"].any()


def test_placement_in_clockwise_order_three_spaces_apart_and_the_oldest_begins():
    """"The oldest player places his empty disc on any space of the board. The other players then
    place their discs in clockwise order. At least three empty spaces must remain between the
    individual discs. The oldest player begins; the other players follow in clockwise order.\""""
    env = teufel_teufel_v0.env()
    env.reset(seed=5)
    assert env.agent_selection == "player_0"
    first = set(legal(env))
    assert sq("a1") in first and sq("b2") in first and sq("c3") in first, "card spaces and marked spaces"
    play(env, sq("a1"))
    assert env.agent_selection == "player_1"
    # a1-e1 has b1, c1, d1 between them; a1-d1 only two spaces.
    assert sq("e1") in legal(env) and sq("a5") in legal(env)
    refused(env, sq("d1"))
    refused(env, sq("b3"))
    refused(env, sq("a1"))
    play(env, sq("g1"))
    assert env.agent_selection == "player_2"
    refused(env, sq("d1"))  # three steps from both a1 and g1
    play(env, sq("a7"))
    assert env.agent_selection == "player_3"
    refused(env, sq("g4"))  # only two spaces (g2, g3) between it and g1
    play(env, sq("g7"))
    state = record(env)
    for a in range(N):
        for b in range(a + 1, N):
            assert D.DISTANCE[state["disc"][a], state["disc"][b]] >= 4
    # The oldest player (player_0) begins; then clockwise 1, 2, 3, and 0 again. A swap of two
    # face-down cards spends a turn without revealing anything.
    order = []
    for first_card, second_card in (("c3", "e3"), ("c5", "e5"), ("b4", "f4"), ("c3", "e5"), ("e3", "c5")):
        order.append(env.agent_selection)
        swap_turn(env, first_card, second_card)
    assert order == ["player_0", "player_1", "player_2", "player_3", "player_0"]


# ---- movement ----------------------------------------------------------------------------


def test_movement_is_orthogonal_never_diagonal():
    """"In principle, devil discs move onto an adjacent space. Movement is only horizontal or
    vertical; diagonal moves are not allowed.\""""
    env = table(N, discs={0: "c3", 1: "g1", 2: "a7", 3: "g7"})
    assert reachable(env) == {"c2", "b3", "d3", "c4"}
    refused(env, sq("b2"))
    refused(env, sq("d2"))
    refused(env, sq("b4"))
    # Across empty spaces the move still turns only at right angles.
    env = table(N, empty=("b2", "c2", "d2", "b3", "d3", "c4"), discs={0: "c3", 1: "g1", 2: "a7", 3: "g7"})
    reach = reachable(env)
    assert {"b2", "c2", "d2", "b3", "d3", "c4", "b4"} <= reach
    assert "c1" in reach and "a3" in reach and "e3" in reach and "c5" in reach
    # f1 or a5 would need a diagonal step or crossing a face-down card.
    assert "f1" not in reach and "a5" not in reach


def test_a_face_down_card_of_your_own_colour_gives_its_token_and_ends_the_move():
    """"On a face-down card, you must interrupt your movement and turn the card over. If it shows a
    letter of your own colour, put the matching letter token into your devil disc and end your
    movement.\""""
    env = table(N, cards={"b1": person(2, "E")}, empty=("a1",), discs={2: "a1", 0: "g1", 1: "a7", 3: "g7"},
                turn=2)
    assert reachable(env) == {"b1", "a2"}, "the face-down cards interrupt the movement"
    play(env, sq("b1"))
    state = record(env)
    assert state["card_up"][person(2, "E")] == 1
    view = observation(env, 2)
    assert view["letters"][0].tolist() == [0, 0, 0, 0, 1, 0]
    assert view["supply"].tolist() == [6, 6, 6, 6, 5, 6]
    assert state["disc"][2] == sq("b1") and env.agent_selection == "player_3"


def test_the_d_example_face_down_and_face_up_ds_of_every_colour_are_hall_passes():
    """"If the card shows a letter that you already have in your devil disc, you have a kind of
    "hall pass" and may move on to the next card. The colour of the letter is irrelevant here. For
    example, if you have your D in the disc, you may move across all other cards with a D.\""""
    cards = {"b1": person(2, "D"), "c1": person(3, "D"), "d1": person(0, "D"), "e1": W4["B"],
             "a2": W["A"], "b2": W["B"]}
    env = table(N, cards=cards, up=("b1", "a2", "b2"), empty=("a1",), letters={1: "D"},
                discs={1: "a1", 0: "g5", 2: "a7", 3: "g7"}, turn=1)
    state = record(env)
    # Across the face-up D at b1 onto the face-down c1 (or stop on the walls or the D).
    assert reachable(env) == {"b1", "c1", "a2", "b2"}
    play(env, sq("c1"))
    assert state["card_up"][person(3, "D")] == 1 and env.agent_selection == "player_1"
    assert D.STOP_HERE in legal(env), "a hall pass lets the mover go on (or stop)"
    play(env, sq("d1"))  # colour 0's D: a hall pass too
    assert state["card_up"][person(0, "D")] == 1 and env.agent_selection == "player_1"
    play(env, sq("e1"))  # a B nobody holds ends the move
    assert state["card_up"][W4["B"]] == 1 and state["disc"][1] == sq("e1")
    assert observation(env, 1)["letters"][0].tolist() == [0, 0, 0, 1, 0, 0], "no token for another colour's D"
    assert env.agent_selection == "player_2"


def test_a_face_up_letter_you_lack_interrupts_the_move():
    """"If you move onto a face-up letter card, you interrupt your movement. If you already have
    the letter of this card in your devil disc, you have effectively a "hall pass" and may move on.\""""
    cards = {"b1": person(1, "C"), "a2": W["A"]}
    kwargs = dict(cards=cards, up=("b1", "a2"), empty=("a1", "c1", "d1"), discs={0: "a1", 1: "g5", 2: "a7", 3: "g7"})
    env = table(N, **kwargs)
    assert reachable(env) == {"b1", "a2"}
    refused(env, sq("c1"))
    play(env, sq("b1"))
    assert record(env)["disc"][0] == sq("b1") and env.agent_selection == "player_1"
    env = table(N, letters={0: "C"}, **kwargs)
    assert {"b1", "c1", "d1", "e1"} <= reachable(env), "with the C: over b1 and the empty c1, d1"


def test_a_face_up_letter_of_your_own_colour_is_taken_and_ends_the_move():
    """"If you move onto a face-up card with a letter of your own colour, you end your movement and
    put the matching letter token into your devil disc.\""""
    cards = {"b1": person(3, "B"), "a2": W["A"]}
    env = table(N, cards=cards, up=("b1", "a2"), empty=("a1", "c1"), discs={3: "a1", 0: "g5", 1: "a7", 2: "g7"},
                turn=3)
    assert reachable(env) == {"b1", "a2"}
    play(env, sq("b1"))
    assert observation(env, 3)["letters"][0].tolist() == [0, 1, 0, 0, 0, 0]
    assert record(env)["supply"][1] == 5 and env.agent_selection == "player_0"


# ---- devils ------------------------------------------------------------------------------


def test_a_devil_card_ends_the_move_and_gives_a_devil_from_the_devil_space():
    """"If you turn over a devil or move onto a face-up devil card, you end your move and put a
    devil marker into your devil disc.\""""
    cards = {"b1": DEVILS[0], "f1": DEVILS[1], "a2": W["A"], "g2": W["B"]}
    env = table(N, cards=cards, up=("a2", "f1", "g2"), empty=("a1", "g1"),
                discs={0: "a1", 1: "g1", 2: "a7", 3: "g7"})
    play(env, sq("b1"))  # face down: turned over
    state = record(env)
    assert state["card_up"][DEVILS[0]] == 1 and state["disc"][0] == sq("b1")
    assert state["devils"][0] == 1 and state["devils_home"] == 3
    assert env.agent_selection == "player_1"
    play(env, sq("f1"))  # face up
    assert state["devils"][1] == 1 and state["devils_home"] == 2
    assert observation(env, 2)["devils"].tolist()[:4] == [0, 0, 1, 1], "seen from player_2: seats 2, 3, 0, 1"
    assert env.agent_selection == "player_2"


def test_a_second_devil_costs_two_letters_of_the_players_choice_which_can_be_won_back():
    """"When you receive your second devil, both devils immediately leave the disc, and each of
    them takes one letter with it. The player decides for himself which two letters he loses. He
    places the two devils on the devil space [...] and returns his letter tokens to the other
    tokens." / "These lost letters can, of course, be acquired again later in the course of the game.\""""
    cards = {"b1": DEVILS[0], "c1": person(0, "A"), "b2": W["B"]}
    env = table(N, cards=cards, up=("c1", "b2"), empty=("a1",), letters={0: "ABCD"}, devils={0: 1},
                discs={0: "a1", 1: "g5", 2: "a7", 3: "g7"})
    play(env, sq("b1"))
    state = record(env)
    assert state["devils"][0] == 0 and state["devils_home"] == 4, "both devils back on the devil space"
    assert env.agent_selection == "player_0"
    assert legal(env) == {D.LOSE_FIRST + i for i in range(4)}, "only letters the player holds"
    refused(env, D.LOSE_FIRST + 4)
    play(env, D.LOSE_FIRST + 0)  # the A
    play(env, D.LOSE_FIRST + 2)  # the C
    assert state["letters"][0].tolist() == [0, 1, 0, 1, 0, 0]
    assert state["supply"].tolist() == [6, 5, 6, 5, 6, 6]
    assert env.agent_selection == "player_1"
    swap_turn(env, "c3", "e3")
    swap_turn(env, "c5", "e5")
    swap_turn(env, "c3", "e5")
    # player_0 steps from b1 onto its own face-up A again: the token comes back.
    play(env, sq("c1"))
    assert state["letters"][0].tolist() == [1, 1, 0, 1, 0, 0] and state["supply"][0] == 5


def test_a_fellow_on_a_card_that_turns_out_a_devil_cannot_be_slipped_the_devil():
    """"Attention! If the fellow player is standing on a devil card, one cannot slip him a devil.
    Instead, one receives his second devil oneself!\""""
    env = table(N, cards={"b1": DEVILS[2]}, empty=("a1",), letters={0: "ABC"}, devils={0: 1},
                discs={0: "a1", 1: "b1", 2: "a7", 3: "g7"})
    play(env, sq("b1"))  # the face-down card under player_1 is a devil
    state = record(env)
    assert state["card_up"][DEVILS[2]] == 1
    assert D.HAND_OVER not in legal(env)
    assert state["devils"][:N].tolist() == [0, 0, 0, 0] and state["devils_home"] == 4
    assert state["phase"] == D.LOSE_LETTER and env.agent_selection == "player_0"
    play(env, D.LOSE_FIRST + 1, D.LOSE_FIRST + 2)
    assert state["letters"][0].tolist() == [1, 0, 0, 0, 0, 0] and state["letters"][1].sum() == 0
    assert env.agent_selection == "player_1"


def test_a_handed_over_second_devil_costs_the_receiver_two_letters_and_play_goes_on_after_the_mover():
    """"Whoever moves his disc onto the space of a fellow player and has a devil may place that devil
    into the fellow player's disc. If the fellow player thereby receives his second devil, he
    immediately loses both devils and must hand over two letter markers.\""""
    env = table(N, empty=("a1", "b1"), letters={0: "ABCD"}, devils={2: 1, 0: 1},
                discs={2: "a1", 0: "b1", 1: "a7", 3: "g7"}, turn=2)
    play(env, sq("b1"))
    assert legal(env) == {D.HAND_OVER, D.KEEP_DEVIL}
    play(env, D.HAND_OVER)
    state = record(env)
    assert state["devils"][:N].tolist() == [0, 0, 0, 0] and state["devils_home"] == 4
    assert env.agent_selection == "player_0", "the receiver chooses the two letters"
    assert legal(env) == {D.LOSE_FIRST + i for i in range(4)}
    play(env, D.LOSE_FIRST + 1, D.LOSE_FIRST + 3)
    assert state["letters"][0].tolist() == [1, 0, 1, 0, 0, 0]
    assert state["supply"].tolist() == [5, 6, 5, 6, 6, 6]
    assert env.agent_selection == "player_3", "the turn passes clockwise from the mover (player_2)"


def test_the_hand_over_is_a_choice_and_needs_a_devil():
    """"Whoever moves his disc onto the space of a fellow player and has a devil may place that
    devil into the fellow player's disc.\""""
    env = table(N, empty=("a1", "b1"), devils={0: 1}, discs={0: "a1", 1: "b1", 2: "a7", 3: "g7"})
    play(env, sq("b1"), D.KEEP_DEVIL)
    assert record(env)["devils"][:N].tolist() == [1, 0, 0, 0] and env.agent_selection == "player_1"
    # player_1 has no devil: moving onto player_0's space hands nothing over.
    env = table(N, empty=("a1", "b1"), devils={0: 1}, discs={0: "a1", 1: "b1", 2: "a7", 3: "g7"}, turn=1)
    play(env, sq("a1"))
    assert record(env)["devils"][:N].tolist() == [1, 0, 0, 0] and env.agent_selection == "player_2"


def test_a_tower_peek_at_one_face_down_card_then_the_devil_may_be_dropped():
    """"Whoever turns over a tower card, or moves onto a face-up tower card, ends his move there and
    may immediately carry out the following two actions: He may look at any one face-down card, and
    then return that card face down to its space. In a tower, he may voluntarily lose a devil,
    returning the devil marker to the devil space.\""""
    env = table(N, cards={"b1": TOWERS[1], "g3": person(0, "F")}, empty=("a1",), devils={3: 1},
                discs={3: "a1", 0: "g5", 1: "a7", 2: "g7"}, turn=3)
    play(env, sq("b1"))
    state = record(env)
    assert state["card_up"][TOWERS[1]] == 1 and state["disc"][3] == sq("b1")
    face_down = {s for s in range(D.NUM_SQUARES) if E.is_face_down(state, s)}
    assert legal(env) == face_down | {D.SKIP_PEEK}, "any one face-down card"
    play(env, sq("g3"))
    assert state["card_up"][person(0, "F")] == 0, "returned face down"
    assert observation(env, 3)["certain"][sq("g3")] == 1 and observation(env, 0)["certain"][sq("g3")] == 0
    assert legal(env) == {D.DROP_DEVIL, D.KEEP_DEVIL}, "one card only; then the devil"
    play(env, D.DROP_DEVIL)
    assert state["devils"][3] == 0 and state["devils_home"] == 4 and env.agent_selection == "player_0"


def test_a_face_up_tower_ends_the_move_and_the_devil_may_be_kept():
    """"Whoever turns over a tower card, or moves onto a face-up tower card, ends his move there\""""
    cards = {"b1": TOWERS[0], "a2": W["A"]}
    env = table(N, cards=cards, up=("b1", "a2"), empty=("a1", "c1"), devils={0: 1},
                discs={0: "a1", 1: "g5", 2: "a7", 3: "g7"})
    assert reachable(env) == {"b1", "a2"}, "a tower is not crossed, even with a devil"
    play(env, sq("b1"), D.SKIP_PEEK, D.KEEP_DEVIL)
    state = record(env)
    assert state["devils"][0] == 1 and state["devils_home"] == 3 and env.agent_selection == "player_1"


def test_the_devil_space_can_be_crossed_only_while_it_is_empty():
    """"If devils are standing on their space, it may not be crossed. If the space is empty, one may
    move across it." / "Whoever loses a devil during the game returns it to the devil space.\""""
    cards = {"c3": W["A"], "e3": W["B"], "d2": TOWERS[0], "c5": W["C"], "e5": W["D"], "d6": W["E"]}
    up = tuple(cards)
    discs = {0: "d3", 1: "d5", 2: "a7", 3: "g7"}
    env = table(N, cards=cards, up=up, discs=discs, devils={0: 1, 1: 1, 2: 1, 3: 1})
    state = record(env)
    assert state["devils_home"] == 0
    assert "d4" in reachable(env), "every devil is in a disc: the centre is open"
    # player_0 drops its devil in the tower at d2: a devil stands on the devil space again.
    play(env, sq("d2"), D.SKIP_PEEK, D.DROP_DEVIL)
    assert state["devils_home"] == 1 and env.agent_selection == "player_1"
    assert reachable(env) == {"c5", "e5", "d6"}, "d4 is blocked once more"
    refused(env, sq("d4"))


def test_discs_are_not_crossed_but_a_move_may_end_on_one_and_never_three_on_a_card():
    """"One may not move across other devil discs. [...] No more than two discs may stand on any one
    card. Thus a player can move his disc onto the card where another player's disc stands.\""""
    cards = {"b1": person(2, "B"), "a2": W["A"]}
    discs = {0: "a1", 1: "b1", 2: "a7", 3: "g7"}
    env = table(N, cards=cards, up=("b1", "a2"), empty=("a1", "c1"), letters={0: "B"}, discs=discs)
    assert reachable(env) == {"b1", "a2"}, "the B is a hall pass, but player_1's disc is not crossed"
    play(env, sq("b1"))
    assert record(env)["disc"][0] == record(env)["disc"][1] == sq("b1")
    # Two discs on b1: player_3 on c1 cannot enter it, even with a devil and the B.
    discs = {0: "b1", 1: "b1", 2: "a7", 3: "c1"}
    env = table(N, cards={"b1": person(2, "B"), "c2": W["C"], "d1": W["D"]}, up=("b1", "c2", "d1"),
                empty=("a1", "c1"), letters={3: "B"}, discs=discs, turn=3, devils={3: 1})
    assert reachable(env) == {"c2", "d1"}
    refused(env, sq("b1"))


# ---- swap and devil move -----------------------------------------------------------------


def test_a_swap_of_face_down_cards_and_own_letters_is_the_whole_turn():
    """"Instead of moving his devil disc, a player may swap two cards. Only letter cards of the
    player's own colour and face-down cards may be swapped. [...] Face-down cards may not be looked
    at, and must be returned face down. Cards on which devil discs stand cannot be swapped. Whoever
    swaps two cards may not move his devil disc again in this round.\""""
    cards = {"b1": person(2, "A"), "c1": person(1, "A"), "d1": DEVILS[0], "e1": TOWERS[0], "f1": person(2, "B"),
             "g1": person(0, "C")}
    env = table(N, cards=cards, up=("b1", "c1", "d1", "e1", "f1"), discs={2: "a1", 3: "f1", 0: "a7", 1: "g7"},
                turn=2)
    state = record(env)
    play(env, D.BEGIN_SWAP)
    for name in ("c1", "d1", "e1", "f1", "a1"):  # other colour, devil, tower, under a disc (x2)
        assert sq(name) not in legal(env), name
    refused(env, sq("c1"))
    play(env, sq("b1"))
    refused(env, sq("f1"))
    play(env, sq("g1"))
    assert state["board"][sq("g1")] == person(2, "A") and state["card_up"][person(2, "A")] == 1
    assert state["board"][sq("b1")] == person(0, "C") and state["card_up"][person(0, "C")] == 0
    assert observation(env, 2)["certain"][sq("b1")] == 0, "the face-down card was not looked at"
    assert state["disc"][2] == sq("a1") and env.agent_selection == "player_3"


def test_a_devil_move_lays_two_to_four_face_up_cards_face_down_on_free_spaces():
    """"As long as a player has a devil in his disc, he may perform the "devil move": Instead of
    moving his devil disc, the player may take 2 to 4 face-up cards, shuffle them, and place them
    face down again on any free spaces of the game board. The player may choose from all face-up
    cards, including devils, towers and letters of other colours. A card may never be placed on the
    devil space in the centre of the board.\""""
    cards = {"b1": person(1, "C"), "c1": DEVILS[0], "d1": TOWERS[0], "e1": person(3, "F")}
    up = ("b1", "c1", "d1", "e1")
    discs = {1: "a1", 0: "g7", 2: "a7", 3: "f7"}
    env = table(N, cards=cards, up=up, discs=discs, turn=1)
    assert D.BEGIN_DEVIL_MOVE not in legal(env), "no devil, no devil move"
    env = table(N, cards=cards, up=up, discs=discs, turn=1, devils={1: 1})
    state = record(env)
    play(env, D.BEGIN_DEVIL_MOVE)
    assert legal(env) == {sq(n) for n in up}, "only face-up cards"
    play(env, sq("b1"))
    assert D.DONE_PICKING not in legal(env), "at least two cards"
    play(env, sq("c1"), sq("d1"), D.DONE_PICKING)
    refused(env, D.DEVIL_SPACE)
    for name in ("f7", "g7", "e1", "a2"):  # discs, a card
        assert sq(name) not in legal(env)
    play(env, sq("b1"), sq("b7"), sq("d1"))
    placed = {state["board"][sq(n)] for n in ("b1", "b7", "d1")}
    assert placed == {person(1, "C"), DEVILS[0], TOWERS[0]}
    assert all(state["card_up"][c] == 0 for c in placed), "face down"
    assert state["board"][sq("c1")] == -1 and state["board"][D.DEVIL_SPACE] == -1
    assert state["devils"][1] == 1 and state["disc"][1] == sq("a1")
    assert env.agent_selection == "player_2"


def test_with_a_devil_one_crosses_face_down_cards_and_a_fellows_disc_but_not_unheld_face_up_letters():
    """"With a devil in his disc, a player may move across face-down cards without turning them
    over. Face-up cards may still only be crossed if one has the matching letter." / "One may move
    across cards on which a fellow player's disc is standing. For this, one needs no hall pass [...]
    A devil also cannot move across two discs on one card.\""""
    row2 = {f"{c}2": W[letter] for c, letter in zip("abcdef", "ABCDEF")} | {"g2": W4["A"]}
    cards = {"c1": W4["F"], "d1": W4["E"], **row2}
    up = ("c1", "d1", *row2)
    discs = {0: "a1", 1: "c1", 2: "a7", 3: "g7"}
    env = table(N, cards=cards, up=up, empty=("a1",), devils={0: 1}, discs=discs)
    state = record(env)
    hidden_b1 = state["board"][sq("b1")]
    assert reachable(env) == {"b1", "c1", "d1", "a2", "b2", "c2"}, "over b1 and player_1; d1 stops"
    play(env, sq("d1"))
    assert state["card_up"][hidden_b1] == 0, "crossed without turning it over"
    assert state["devils"][:N].tolist() == [1, 0, 0, 0], "crossing a disc hands nothing over"
    # Holding the E the devil goes on over d1 to the face-down e1, which it turns over on stopping.
    env = table(N, cards=cards, up=up, empty=("a1",), devils={0: 1}, discs=discs, letters={0: "E"})
    assert {"e1", "f1", "g1"} <= reachable(env)
    # Two discs on c1: not even a devil crosses them.
    env = table(N, cards=cards, up=up, empty=("a1",), devils={0: 1}, discs={0: "a1", 1: "c1", 2: "c1", 3: "g7"})
    assert reachable(env) == {"b1", "a2", "b2"}


# ---- leaving and the end -----------------------------------------------------------------


def test_six_letters_with_a_devil_stay_on_the_board():
    """"The game board may only be left when a player has all six letters and NO devil remains in
    his disc.\""""
    cards = {"b1": person(0, "F"), "a2": W["A"]}
    env = table(N, cards=cards, up=("b1", "a2"), empty=("a1",), letters={0: "ABCDE"}, devils={0: 1},
                discs={0: "a1", 1: "g5", 2: "a7", 3: "g7"})
    play(env, sq("b1"))
    state = record(env)
    assert state["letters"][0].all() and state["status"][0] == E.ON_BOARD and state["disc"][0] == sq("b1")
    assert env.rewards["player_0"] == 0.0 and env.agent_selection == "player_1"


def test_three_discs_leave_one_by_one_and_the_last_one_on_the_board_loses():
    """"Whoever receives his sixth letter and no longer has a devil in his disc immediately takes his
    devil disc off the game board. Every player who has taken his disc off the board remains in the
    game: each time it is his turn, he turns over two of the face-down cards." / "Only one player
    still has his devil disc on the game board. This poor devil has lost the game\""""
    cards = {"b1": person(0, "F"), "f1": person(1, "F"), "b7": person(2, "F")}
    env = table(N, cards=cards, up=tuple(cards), letters={0: "ABCDE", 1: "ABCDE", 2: "ABCDE"},
                discs={0: "a1", 1: "g1", 2: "a7", 3: "g4"})
    state = record(env)
    total = dict.fromkeys(env.possible_agents, 0.0)

    def step(*actions):
        for action in actions:
            play(env, action)
            for agent, reward in env.rewards.items():
                total[agent] += reward

    step(sq("b1"))
    assert state["status"][0] == E.LEFT and total["player_0"] == 1.0
    assert observation(env, 1)["discs"][3].sum() == 0, "player_0's disc is off the board"
    assert env.agent_selection == "player_1" and not any(env.terminations.values())
    step(D.BEGIN_SWAP, sq("c3"), sq("e3"))
    step(D.BEGIN_SWAP, sq("c5"), sq("e5"))
    step(D.BEGIN_SWAP, sq("c3"), sq("e5"))
    assert env.agent_selection == "player_0", "off the board, still in the game"
    assert legal(env) == {s for s in range(D.NUM_SQUARES) if E.is_face_down(state, s)}
    before = observation(env, 0)["face_down"][0]
    step(sq("c3"))
    assert env.agent_selection == "player_0", "two cards a turn"
    step(sq("e5"))
    assert observation(env, 0)["face_down"][0] == before - 2
    assert env.agent_selection == "player_1"
    step(sq("f1"))
    assert state["status"][1] == E.LEFT and not any(env.terminations.values())
    assert env.agent_selection == "player_2"
    step(sq("b7"))
    assert all(env.terminations.values())
    assert total == {"player_0": 1.0, "player_1": 1.0, "player_2": 1.0, "player_3": -1.0}
    assert state["status"][:N].tolist() == [E.LEFT, E.LEFT, E.LEFT, E.LOST]


def test_daybreak_when_a_player_off_the_board_turns_the_last_cards():
    """"As soon as all cards are face up, daybreak immediately ends the game." / "Once all cards are
    face up, daybreak automatically ends the game. All players who are then still in the underworld
    (= the game board) lose the game together.\""""
    env = table(N, discs={1: "g7", 2: "g1", 3: "a7"}, left=(0,), letters={0: "ABCDEF", 2: "ABCDE"},
                all_up=True, down=("c3", "e5"))
    assert observation(env, 0)["face_down"][0] == 2
    play(env, sq("c3"))
    assert not any(env.terminations.values()) and env.agent_selection == "player_0"
    play(env, sq("e5"))
    assert all(env.terminations.values())
    assert env.rewards == {"player_0": 0.0, "player_1": -1.0, "player_2": -1.0, "player_3": -1.0}


def test_daybreak_when_a_move_turns_the_last_card():
    """"As soon as all cards are face up, daybreak immediately ends the game.\""""
    env = table(N, cards={"b1": person(3, "A")}, discs={0: "a1", 1: "g7", 2: "g1", 3: "a7"}, all_up=True,
                down=("b1",), letters={3: "BCDEF"})
    play(env, sq("b1"))  # player_0 turns over the last card (player_3's A: nobody takes it)
    assert all(env.terminations.values())
    assert env.rewards == dict.fromkeys(env.possible_agents, -1.0)
    assert record(env)["letters"][3].sum() == 5


def test_handing_over_the_last_devil_with_six_letters_leaves_while_the_receiver_pays_two_letters():
    """"A player gets rid of his devil under the following circumstances: [...] He moves onto the
    card of a fellow player: he places his devil into that player's disc. If this gives that player
    his second devil, proceed as described under "Teufel, Teufel!" above." / "Whoever has all of
    his letters together and has also been able to get rid of his devil may leave the underworld.\""""
    env = table(N, empty=("a1", "b1"), letters={1: "ABCDEF", 3: "CDE"}, devils={1: 1, 3: 1},
                discs={1: "a1", 3: "b1", 0: "a7", 2: "g7"}, turn=1)
    play(env, sq("b1"), D.HAND_OVER)
    state = record(env)
    assert env.agent_selection == "player_3" and legal(env) == {D.LOSE_FIRST + i for i in (2, 3, 4)}
    play(env, D.LOSE_FIRST + 2, D.LOSE_FIRST + 4)
    assert state["letters"][3].tolist() == [0, 0, 0, 1, 0, 0]
    assert state["devils"][:N].tolist() == [0, 0, 0, 0] and state["devils_home"] == 4
    assert state["status"][1] == E.LEFT and state["disc"][1] == -1
    assert env.rewards == {"player_0": 0.0, "player_1": 1.0, "player_2": 0.0, "player_3": 0.0}
    assert env.agent_selection == "player_2", "the turn goes on after the mover"


def test_a_player_off_the_board_only_turns_cards_over():
    """"Every player who has taken his disc off the board remains in the game: each time it is his
    turn, he turns over two of the face-down cards.\""""
    env = table(N, cards={"c3": DEVILS[0], "e5": TOWERS[0]}, discs={1: "g7", 2: "g1", 3: "a7"}, left=(0,),
                letters={0: "ABCDEF"})
    state = record(env)
    assert D.BEGIN_SWAP not in legal(env) and D.PASS not in legal(env)
    assert legal(env) == {s for s in range(D.NUM_SQUARES) if E.is_face_down(state, s)}
    play(env, sq("c3"), sq("e5"))  # a devil and a tower: nothing happens to the player off the board
    assert state["card_up"][DEVILS[0]] == 1 and state["card_up"][TOWERS[0]] == 1
    assert state["devils"][0] == 0 and state["devils_home"] == 4
    assert env.agent_selection == "player_1" and state["phase"] == D.TURN
