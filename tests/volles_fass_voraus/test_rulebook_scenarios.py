"""Rulebook scenarios: situations taken from the rulebook's sentences and examples, played through
the env's public API (every action checked against the action mask before ``env.step``) at the
default configuration. Each test quotes the sentence it checks.

Seats as in the rulebook's three-player example: Benny Blue 0, Gina Green 1, Gerry Gray 2; the red
ship (3) belongs to nobody. These complement test_rules.py / test_scoring.py / test_geometry.py:
where a rule is already checked there, a scenario here takes another angle (the public API, a
combination of rules, or a worked example's exact numbers at the end of a real game).
"""

import numpy as np
import pytest

from envs.core.game import IllegalActionError
from envs.volles_fass_voraus import data
from envs.volles_fass_voraus.env import action_name, raw_env

from .helpers import (
    C, E, O, P, SAILOR, TILE, barry_moves, berth, deck_of, finish_turn, first_to_move, give_maps, give_sailors, legal,
    load_deck, mask_bits, move_action, new_env, put_on_top_of_pile, record, space_actions,
)

BENNY, GINA, GERRY, RED = 0, 1, 2, 3
FULL = [int(n) for n in data.BARRELS_PER_COLOUR]  # the supply: 10 purple, 15 orange, 20 colourless


def play(env, *actions):
    """Step each action after checking the mask of the agent to act says it is legal."""
    for action in actions:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        assert mask[action] == 1, f"{agent}: {action_name(action)} should be legal, legal: {legal(env)}"
        env.step(int(action))
    return record(env)


def refused(env, action):
    """``action`` is masked out for the agent to act, and stepping it is rejected."""
    mask = env.observe(env.agent_selection)["action_mask"]
    assert mask[action] == 0, f"{action_name(action)} should be illegal"
    with pytest.raises(IllegalActionError):
        env.step(int(action))


def sailors_of(state, seat):
    return sorted(data.SAILOR_NAMES[c] for c in range(data.NUM_SAILORS) if state.sailor_owner[c] == seat)


def move_actions(env):
    return [a for a in legal(env) if a >= E.A_MOVE]


# ---- starting positions, one ship per berth, the order of play ---------------------------------


def test_start_berths_in_turn_money_bags_and_one_ship_per_berth_everywhere():
    """"The player who last was on a ship places his ship on a berth of his choice at the starting
    harbor. After that, the other players, in turn, also choose a free berth there. Ships that don't
    belong to any player [...] are now placed on yet-empty berths until all 4 have been occupied."
    "Each player places his money bag on the doubloon space indicated on his berth at the starting
    harbor." "Each berth may hold only one ship. This applies during the entire game – everywhere
    and anytime." "The ship on the westernmost berth (bollard #1) is the first to move." "On your
    turn, you move your ship along the shipping route to the next harbor\""""
    env = raw_env(num_players=3)
    env.reset(seed=7)
    state = record(env)
    assert env.agent_selection == "player_0"
    play(env, E.A_BERTH + 1)            # Benny: berth 2 (4 doubloons)
    assert env.agent_selection == "player_1"
    refused(env, E.A_BERTH + 1)         # taken by Benny
    play(env, E.A_BERTH + 0)            # Gina: berth 1 (3 doubloons)
    assert env.agent_selection == "player_2"
    refused(env, E.A_BERTH + 0)
    play(env, E.A_BERTH + 3)            # Gerry: berth 4 (6 doubloons); the red ship fills berth 3
    assert list(state.berth_ship[0]) == [GINA, BENNY, RED, GERRY]
    assert list(state.doubloons[:3]) == [4, 3, 6]
    # Westernmost first: Gina casts off first, into harbour 1.
    assert env.agent_selection == "player_1"
    play(env, E.A_BERTH + 2)
    assert state.ship_harbour[GINA] == 1 and state.berth_ship[1, 2] == GINA
    finish_turn(env, GINA)
    assert env.agent_selection == "player_0"  # then Benny, from the next berth east
    refused(env, E.A_BERTH + 2)               # Gina lies there
    assert sorted(a for a in legal(env) if a < E.A_SPACE) == [0, 1, 3]


def test_a_ship_without_a_player_takes_the_easternmost_free_berth_and_does_nothing_there():
    """"On a turn of a ship that doesn't belong to anybody, you place it on the easternmost
    unoccupied berth of the harbor you've headed for. In this case, the action(s) of this berth are
    not carried out." (L8's easternmost berth offers a free sailor.)"""
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile="L8")  # order: Benny, Gina, Gerry, the red ship
    assert state.harbour_tile[state.leg + 1] == TILE["L8"] and data.berth_text(TILE["L8"], 3) == "sailor (free), [sail]"
    drawn = int(state.sailors_drawn)
    play(env, E.A_BERTH + 0)
    finish_turn(env, BENNY)
    play(env, E.A_BERTH + 1)
    finish_turn(env, GINA)
    play(env, E.A_BERTH + 2)
    finish_turn(env, GERRY)
    harbour = int(state.ship_harbour[BENNY])
    assert state.berth_ship[harbour, 3] == RED
    assert state.sailors_drawn == drawn and (state.sailor_owner == RED).sum() == 0


def test_two_players_all_four_ships_sail_and_the_ownerless_ones_go_east():
    """"In the two- or three-player game, any surplus decks and money bags are not used. However,
    all ships are always in play." "On a turn of a ship that doesn't belong to anybody, you place it
    on the easternmost unoccupied berth of the harbor you've headed for.\""""
    env = new_env(2)
    state = record(env)
    assert env.possible_agents == ["player_0", "player_1"]
    assert list(state.berth_ship[0]) == [0, 1, 2, 3]
    assert list(state.doubloons[:2]) == [3, 4]
    play(env, E.A_BERTH + 3)  # seat 0 sails to the easternmost berth
    finish_turn(env, 0)
    play(env, E.A_BERTH + 2)  # seat 1 next to it
    finish_turn(env, 1)
    # Ship 2 took the easternmost free berth (2nd), ship 3 the only one left (1st): harbour 1 is
    # left from west to east by ship 3, ship 2, seat 1, seat 0.
    assert state.leg == 1 and list(state.move_order) == [3, 2, 1, 0]
    # The two ships without a player cast off first and take the two eastern berths of harbour 2.
    assert state.berth_ship[2, 3] == 3 and state.berth_ship[2, 2] == 2
    assert env.agent_selection == "player_1" and sorted(a for a in legal(env) if a < E.A_SPACE) == [0, 1]


# ---- loading ----------------------------------------------------------------------------------


def test_loading_puts_barrels_from_the_supply_on_unoccupied_spaces_and_unloads_nothing():
    """"Place one barrel in each color shown from the supply onto any unoccupied space of your deck."
    "This is how the berths look where you can load barrels. You cannot unload barrels at such
    berths." (Gina's berth: "the colorless one and the orange one" for 1 doubloon.)"""
    env = new_env(3)
    state = first_to_move(env, GINA, next_tile="L1")
    load_deck(state, GINA, deck_of((0, P), (5, C)))
    play(env, E.A_BERTH + 1)
    # Only the two colours shown, or stopping: no deck space (no unloading) at a loading berth.
    assert sorted(legal(env)) == [E.A_COLOUR + 1, E.A_COLOUR + 2, E.A_PASS]
    refused(env, E.A_COLOUR + 0)  # purple is not shown
    play(env, E.A_COLOUR + 1)
    assert space_actions(env) == [s for s in range(14) if s not in (0, 5)]
    refused(env, E.A_SPACE + 0)   # occupied
    play(env, E.A_SPACE + 1)
    assert sorted(legal(env)) == [E.A_COLOUR + 2, E.A_PASS]  # the orange is taken: one of each colour
    play(env, E.A_COLOUR + 2)
    refused(env, E.A_SPACE + 5)
    play(env, E.A_SPACE + 2)
    assert list(state.deck[GINA, :3]) == [P, O, C] and state.deck[GINA, 5] == C
    assert list(state.supply) == [FULL[0] - 1, FULL[1] - 1, FULL[2] - 2]
    assert state.doubloons[GINA] == 4 - 1 and env.agent_selection != "player_1"


def test_a_free_loading_berth_can_be_used_with_no_doubloons():
    """"It costs ZERO if it doesn't show any doubloons." "You can't go into debt.\""""
    env = new_env(3)
    tile, pos = berth("load CC (free), [fish]")
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 0
    play(env, E.A_BERTH + pos, E.A_COLOUR + 2, E.A_SPACE + 3, E.A_COLOUR + 2, E.A_SPACE + 0)
    assert state.doubloons[BENNY] == 0 and list(state.deck[BENNY, [0, 3]]) == [C, C]
    # ... whereas a loading berth with a price offers nothing to a player who cannot pay it.
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile="L1")
    state.doubloons[BENNY] = 0
    play(env, E.A_BERTH + 3)  # load PO (1)
    assert state.doubloons[BENNY] == 0 and state.deck[BENNY].sum() == 0 and env.agent_selection != "player_0"


def test_barry_may_be_used_between_two_barrels_being_loaded():
    """Barry Fassel / Farry Bassel: "You may use an ability of Barry and Farry – at any time during
    your turn.\""""
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile="L1")
    give_sailors(state, BENNY, "Barry Fassel")
    play(env, E.A_BERTH + 1, E.A_COLOUR + 1, E.A_SPACE + 0)  # the orange onto 0
    assert state.phase == E.PH_LOAD_PICK and (0, 4) in barry_moves(env)
    play(env, move_action(0, 4))  # slide it diagonally forward, then load the colourless one on 0
    assert state.deck[BENNY, 4] == O and state.deck[BENNY, 0] == 0
    play(env, E.A_COLOUR + 2, E.A_SPACE + 0)
    assert state.deck[BENNY, 0] == C and state.deck[BENNY, 4] == O and state.doubloons[BENNY] == 3 - 1


# ---- unloading --------------------------------------------------------------------------------


def test_an_unloading_berth_loads_nothing():
    """"This is how the berths look where you can unload barrels. You cannot load barrels at such
    berths." "You don't have to load or unload any barrel if you don't want to.\""""
    env = new_env(3)
    tile, pos = berth("unload P -> 6")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, P),))
    play(env, E.A_BERTH + pos)
    assert sorted(legal(env)) == [E.A_SPACE + 0, E.A_PASS]
    for colour in range(3):
        refused(env, E.A_COLOUR + colour)
    play(env, E.A_PASS)
    assert state.deck[BENNY, 0] == P and state.doubloons[BENNY] == 3 and list(state.supply) == [9, 15, 20]


def test_a_two_colour_berth_takes_one_barrel_of_each_both_in_any_order_back_to_the_supply():
    """"Unload one barrel in each color shown from your deck." "If 2 barrels are depicted, you may
    not unload just a single barrel, but must unload BOTH – in any order." "Whenever you unload
    barrels, you immediately collect the doubloons indicated at the berth. Put every unloaded
    barrel back into the supply.\""""
    tile, pos = berth("unload PO -> 9")
    # Two purples and no orange: the berth cannot be served at all.
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, P), (1, P)))
    play(env, E.A_BERTH + pos)
    assert env.agent_selection != "player_0" and state.doubloons[BENNY] == 3 and (state.deck[BENNY] > 0).sum() == 2
    # Two purples and an orange: the orange first, then either purple; no way back after the first.
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, P), (1, P), (2, O)))
    play(env, E.A_BERTH + pos)
    assert space_actions(env) == [0, 1, 2] and E.A_PASS in legal(env)
    play(env, E.A_SPACE + 2)
    assert space_actions(env) == [0, 1] and E.A_PASS not in legal(env)
    refused(env, E.A_PASS)
    assert state.doubloons[BENNY] == 3  # nothing yet: the berth pays for both
    play(env, E.A_SPACE + 1)
    assert state.doubloons[BENNY] == 3 + 9
    assert list(state.deck[BENNY, :3]) == [P, 0, 0]
    assert list(state.supply) == [FULL[0] - 1, FULL[1], FULL[2]]


# ---- hiring sailors ---------------------------------------------------------------------------


def test_a_hired_barry_can_be_used_on_the_same_turn():
    """"If you choose a berth showing the head of a sailor, draw a sailor card and place it face up
    in front of you. With immediate effect, you can use this sailor's ability.\""""
    env = new_env(3)
    tile, pos = berth("sailor (1)")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, P),))
    put_on_top_of_pile(state, "Barry Fassel")
    assert move_actions(env) == []
    play(env, E.A_BERTH + pos, E.A_SAILOR_ONLY)
    assert sailors_of(state, BENNY) == ["Barry Fassel"] and state.doubloons[BENNY] == 3 - 1
    assert env.agent_selection == "player_0" and (0, 4) in barry_moves(env)
    play(env, move_action(0, 4))
    assert state.deck[BENNY, 4] == P and state.deck[BENNY, 0] == 0 and env.agent_selection != "player_0"


# ---- seasick sailors, storm, storm chaos ---------------------------------------------------------


def test_two_seasick_sailors_of_the_players_choice_go_into_the_box():
    """"Give up as many sailors as indicated at the berth, and put them back into the box.\""""
    env = new_env(3)
    tile, pos = berth("2 seasick")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Isaac Lilaac", "Nolly Orange", "Assecuranza Pit")
    drawn = int(state.sailors_drawn)
    play(env, E.A_BERTH + pos)
    assert sorted(legal(env)) == sorted(E.A_SAILOR + SAILOR[n] for n in ("Isaac Lilaac", "Nolly Orange",
                                                                        "Assecuranza Pit"))
    play(env, E.A_SAILOR + SAILOR["Isaac Lilaac"])
    assert env.agent_selection == "player_0"  # a second one is owed
    assert sorted(legal(env)) == sorted(E.A_SAILOR + SAILOR[n] for n in ("Nolly Orange", "Assecuranza Pit"))
    play(env, E.A_SAILOR + SAILOR["Assecuranza Pit"])
    assert sailors_of(state, BENNY) == ["Nolly Orange"]
    for name in ("Isaac Lilaac", "Assecuranza Pit"):
        assert state.sailor_owner[SAILOR[name]] == E.OWNER_BOX  # not back onto the pile
        assert SAILOR[name] not in list(state.sailor_deck[int(state.sailors_drawn):])
    assert state.sailors_drawn == drawn


def test_seasickness_without_sailors_asks_nothing():
    """"If you have no sailor, you do not have to concern yourself with this action.\""""
    env = new_env(3)
    tile, pos = berth("2 seasick")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, GINA, "Isaac Lilaac")
    play(env, E.A_BERTH + pos)
    assert env.agent_selection != "player_0"
    assert state.sailor_owner[SAILOR["Isaac Lilaac"]] == GINA and state.doubloons[BENNY] == 3


def test_storm_throws_the_shown_number_of_barrels_of_choice_overboard_even_stuck_ones():
    """"Barrel over board! Put the shown number of barrels of your choice from your deck back into
    the supply. This can also refer to barrels that you would not have been able to get off the
    deck.\""""
    env = new_env(3)
    tile, pos = berth("storm: 2 overboard, storm chaos")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, O), (4, P), (8, C)))
    assert mask_bits(E.extractable(state.deck[BENNY])) == [0]  # the purple and the colourless are stuck
    play(env, E.A_BERTH + pos)
    assert space_actions(env) == [0, 4, 8]
    play(env, E.A_SPACE + 8)
    assert env.agent_selection == "player_0" and space_actions(env) == [0, 4]
    play(env, E.A_SPACE + 4)
    assert list(np.flatnonzero(state.deck[BENNY])) == [0] and state.deck[BENNY, 0] == O
    assert list(state.supply) == FULL[:1] + [FULL[1] - 1] + FULL[2:]
    assert state.doubloons[BENNY] == 3 and env.agent_selection != "player_0"


def test_stormy_d_keeps_the_barrels_and_may_then_give_himself_away_in_the_storm_chaos():
    """Stormy D.: "You are not affected by any "storm" action that would make you lose doubloons or
    barrels. Keep all your doubloons and barrels! You may carry out the "storm chaos – shipwrecked
    sailors" action (if possible), but you don't have to." "If you do, and you exchange Stormy D.,
    his recipient may already use him on this game turn\""""
    env = new_env(3)
    tile, pos = berth("storm: 2 overboard, storm chaos")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, O), (4, P), (8, C)))
    give_sailors(state, BENNY, "Stormy D.", "Isaac Lilaac")
    give_sailors(state, GERRY, "Piranha Pirata")
    play(env, E.A_BERTH + pos)
    # No barrel goes overboard; the storm chaos is offered, and may be skipped.
    assert sorted(legal(env)) == [E.A_SAILOR + SAILOR["Piranha Pirata"], E.A_PASS]
    play(env, E.A_SAILOR + SAILOR["Piranha Pirata"])
    assert sorted(legal(env)) == sorted(E.A_SAILOR + SAILOR[n] for n in ("Stormy D.", "Isaac Lilaac"))
    play(env, E.A_SAILOR + SAILOR["Stormy D."])
    assert sailors_of(state, BENNY) == ["Isaac Lilaac", "Piranha Pirata"]
    assert sailors_of(state, GERRY) == ["Stormy D."]
    assert (state.deck[BENNY] > 0).sum() == 3 and state.doubloons[BENNY] == 3


def test_storm_chaos_needs_another_player_with_a_sailor():
    """"There is no sailor exchange if you or all the other players don't have any sailor card.\""""
    env = new_env(3)
    tile, pos = berth("1 map (free), storm chaos")
    state = first_to_move(env, BENNY, next_tile=tile)
    give_sailors(state, BENNY, "Isaac Lilaac", "Westy Plaza")
    play(env, E.A_BERTH + pos)
    assert state.phase == E.PH_MAPS and sorted(legal(env)) == [E.A_TAKE_MAPS, E.A_PASS]
    assert sailors_of(state, BENNY) == ["Isaac Lilaac", "Westy Plaza"]


def test_a_sailor_received_in_storm_chaos_works_for_the_recipient_later_in_the_same_round():
    """"Place every sailor you get visibly in front of you. With immediate effect, you may use this
    sailor's ability on each of your game turns, if possible." Storm chaos: "If you do, and you
    exchange Stormy D., his recipient may already use him on this game turn, if he moves into the
    storm after you." (Here Benny's only sailor, Freezy Fisher, goes to Gina, who then docks on a
    fish berth of the same harbour.)"""
    env = new_env(3)
    tile, pos = berth("1 map (free), storm chaos")
    state = first_to_move(env, BENNY, next_tile=tile)  # Benny moves first, Gina second
    give_sailors(state, BENNY, "Freezy Fisher")
    give_sailors(state, GINA, "Isaac Lilaac")
    play(env, E.A_BERTH + pos)  # one card each: the exchange is forced
    assert sailors_of(state, BENNY) == ["Isaac Lilaac"] and sailors_of(state, GINA) == ["Freezy Fisher"]
    play(env, E.A_PASS)  # no map
    assert env.agent_selection == "player_1"
    harbour_tile = state.harbour_tile[state.leg + 1]
    fish = [b for b in range(4) if data.BERTH_SYMBOL[harbour_tile, b] == data.SYMBOL_FISH
            and state.berth_ship[state.leg + 1, b] == E.FREE]
    assert fish, "the harbour has a free fish berth"
    play(env, E.A_BERTH + fish[0])
    assert state.doubloons[GINA] == 4 + 1


# ---- treasure maps and the end of the game ------------------------------------------------------


def cards(item_copies=(), chests=(), blanks=0):
    """Map cards: ``item_copies`` lists (item, copy) pairs; chests by value; blanks by count."""
    chosen = []
    for item, copy in item_copies:
        chosen.append(int(np.flatnonzero(data.MAP_ITEM == item)[copy]))
    for value in chests:
        chosen.append(int(np.flatnonzero(data.MAP_CHEST == value)[0]))
    blank = np.flatnonzero((data.MAP_ITEM < 0) & (data.MAP_CHEST == 0))
    chosen.extend(int(b) for b in blank[:blanks])
    return chosen


def sail_to_the_end(env):
    """Every player passes wherever he may until the game is over; returns the doubloons seen while
    the last leg was still under way."""
    state = record(env)
    seen = []
    while not state.terminal:
        seen.append([int(d) for d in state.doubloons[: state.num_players]])
        actions = legal(env)
        play(env, E.A_PASS if E.A_PASS in actions else actions[0])
    return seen


@pytest.mark.parametrize("hand,worth", [
    # Gina's example: set A of 4 different items (10), set B of 2 different items (3), a chest of 3,
    # a blank: 16.
    (cards([(0, 0), (1, 0), (2, 0), (3, 0), (0, 1), (1, 1)], chests=[3], blanks=1), 16),
    (cards([(k, 0) for k in range(5)]), 15),                       # 5 different items
    (cards([(k, 0) for k in range(5)] + [(0, 1)]), 16),            # ... and one item left over
    (cards([(0, 0), (1, 0), (2, 0)]), 6),                          # 3 different items
    (cards([(3, 0), (3, 1)]), 2),                                  # the same item twice: two singles
    (cards(chests=[2, 5], blanks=2), 7),                           # chests; blanks give nothing
])
def test_treasure_maps_are_scored_when_all_ships_have_reached_the_destination(hand, worth):
    """"As soon as all ships have reached the destination harbor [...], everybody reveals the
    treasure-map cards he has collected, and gets the doubloons for them." "5 different items ➙ 15
    doubloons, 4 different items ➙ 10 doubloons, 3 different items ➙ 6 doubloons, 2 different items
    ➙ 3 doubloons. Every single item that is not part of a set is worth 1 doubloon." "Example: Gina
    [...] In total, Gina's treasures advance her money bag 16 doubloon spaces." "A treasure-map card
    with a blank doesn't give you anything.\""""
    env = new_env(3)
    state = first_to_move(env, GINA, harbour=data.DEST_HARBOUR - 1)
    give_maps(state, GINA, hand)
    before = int(state.doubloons[GINA])
    seen = sail_to_the_end(env)
    assert all(d[GINA] == before for d in seen)  # nothing for the maps before the end
    assert state.terminal and (state.ship_harbour == data.DEST_HARBOUR).all()
    assert state.doubloons[GINA] == before + worth


def test_most_doubloons_wins_and_a_tie_goes_to_the_ship_further_west_at_the_destination():
    """"After all players have reached the destination harbor and received the money from their
    treasure-map cards, the game ends. Has your money bag reached a more valuable doubloon space
    than any other player? [...] you win! Has somebody else reached the same doubloon space? [...]
    The player who is standing further west at the destination harbor resolves such a tie in his
    favor.\""""
    env = new_env(3)
    state = first_to_move(env, BENNY, harbour=data.DEST_HARBOUR - 1)  # Benny, Gina, Gerry, the red ship
    state.doubloons[:3] = [10, 10, 9]
    give_maps(state, GERRY, cards([(0, 0), (1, 0)]))  # 3 doubloons at the end: Gerry 12
    play(env, E.A_BERTH + 3)  # Benny: easternmost berth of the destination
    assert not any(env.terminations.values())
    play(env, E.A_BERTH + 0)  # Gina: westernmost
    assert not any(env.terminations.values())
    play(env, E.A_BERTH + 1)  # Gerry; the red ship takes berth 3 and the game is over
    assert all(env.terminations.values()) and state.berth_ship[data.DEST_HARBOUR, 2] == RED
    assert list(state.doubloons[:3]) == [10, 10, 12]
    # Gerry wins; Gina (west) beats Benny (east) on the tie.
    assert env.rewards == {"player_0": -1.0, "player_1": 0.0, "player_2": 1.0}


def test_a_tie_for_first_place_has_one_winner_the_western_ship():
    """"Nevertheless, there can be only one winner. The player who is standing further west at the
    destination harbor resolves such a tie in his favor." (Two players, tied.)"""
    env = new_env(2)
    state = first_to_move(env, 1, harbour=data.DEST_HARBOUR - 1)  # seat 1 moves first, then seat 0
    state.doubloons[:2] = [15, 15]
    play(env, E.A_BERTH + 2)  # seat 1: third berth
    play(env, E.A_BERTH + 1)  # seat 0: further west
    assert state.terminal and list(state.doubloons[:2]) == [15, 15]
    assert env.rewards == {"player_0": 1.0, "player_1": -1.0}


# ---- each protecting sailor against its own hazard only -------------------------------------------


def test_each_protecting_sailor_shelters_from_his_own_hazard_only():
    """"If you have no barrel on deck or if you have the sailor Assecuranza Pit, this barrel robbery
    doesn't affect you." "If you have the sailor Piranha Pirata, this doubloon robbery doesn't
    affect you." Stormy D.: "You are not affected by any "storm" action" (pirates are no storm)."""
    rob_barrel = berth("pirates rob a barrel")
    rob_doubloons = berth("pirates rob 2")
    # Piranha Pirata and Stormy D. do not keep a barrel from the pirates.
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=rob_barrel[0])
    load_deck(state, BENNY, deck_of((0, C), (1, O)))
    give_sailors(state, BENNY, "Piranha Pirata", "Stormy D.")
    play(env, E.A_BERTH + rob_barrel[1])
    assert space_actions(env) == [0, 1]
    play(env, E.A_SPACE + 1)
    assert list(state.deck[BENNY, :2]) == [C, 0] and state.doubloons[BENNY] == 3
    # Assecuranza Pit and Stormy D. do not keep doubloons from the pirates.
    env = new_env(3)
    state = first_to_move(env, BENNY, next_tile=rob_doubloons[0])
    give_sailors(state, BENNY, "Assecuranza Pit", "Stormy D.")
    play(env, E.A_BERTH + rob_doubloons[1])
    assert state.doubloons[BENNY] == 3 - 2
    # Assecuranza Pit and Piranha Pirata do not keep barrels from the storm.
    env = new_env(3)
    tile, pos = berth("storm: 1 overboard, repair 1")
    state = first_to_move(env, BENNY, next_tile=tile)
    load_deck(state, BENNY, deck_of((0, C),))
    give_sailors(state, BENNY, "Assecuranza Pit", "Piranha Pirata")
    play(env, E.A_BERTH + pos)
    assert state.deck[BENNY].sum() == 0 and state.doubloons[BENNY] == 3 - 1


def test_fishers_pay_on_fish_berths_and_sail_sisters_on_sail_berths_only():
    """"Freezy Fisher [...]: If you place your ship on a berth that shows a fish, you immediately
    collect 1 doubloon." "Sail Sisters: If you place your ship on a berth that shows a sail, you
    immediately collect 2 doubloons.\""""
    for text, expected in (("load C (free), [fish]", 3 + 1), ("load C (free), [sail]", 3 + 2)):
        env = new_env(3)
        tile, pos = berth(text)
        state = first_to_move(env, BENNY, next_tile=tile)
        give_sailors(state, BENNY, "Freezy Fisher", "Sail Sister (1)")
        play(env, E.A_BERTH + pos)
        assert state.doubloons[BENNY] == expected, text  # paid on docking, before any loading
        play(env, E.A_PASS)
        assert state.doubloons[BENNY] == expected


def test_free_sailors_and_free_maps_need_no_doubloons():
    """Hiring: "The hiring of sailors costs: nothing, if there is no doubloon depicted." Maps: "If the
    berth shows no doubloons, you may take the treasure-map card for free.\""""
    env = new_env(3)
    tile, pos = berth("sailor (free), [sail]")
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 0
    put_on_top_of_pile(state, "Isaac Lilaac")
    play(env, E.A_BERTH + pos, E.A_SAILOR_ONLY)
    assert sailors_of(state, BENNY) == ["Isaac Lilaac"] and state.doubloons[BENNY] == 0
    env = new_env(3)
    tile, pos = berth("1 map (free)")
    state = first_to_move(env, BENNY, next_tile=tile)
    state.doubloons[BENNY] = 0
    play(env, E.A_BERTH + pos, E.A_TAKE_MAPS)
    assert (state.map_owner == BENNY).sum() == 1 and state.doubloons[BENNY] == 0
