"""The components: what the rulebook counts, and the rules our tile design must respect."""

import numpy as np

from envs.volles_fass_voraus import data
from envs.volles_fass_voraus.env import GAME, action_name


def test_component_counts_from_the_rulebook():
    assert list(data.BARRELS_PER_COLOUR) == [10, 15, 20] and data.TOTAL_BARRELS == 45
    assert data.NUM_HARBOUR_TILES == 26
    assert data.NUM_SAILORS == 20 and data.NUM_MAPS == 16
    assert set(data.TILE_SHAPE[:26]) == {data.SHAPE_LOAD, data.SHAPE_MIXED, data.SHAPE_UNLOAD}  # three shapes


def test_the_full_route_has_a_recess_for_every_tile_and_the_short_one_keeps_the_proportions():
    full, short = data.ROUTES
    for shape in (data.SHAPE_LOAD, data.SHAPE_MIXED, data.SHAPE_UNLOAD):
        assert full.count(shape) == data.SHAPE_COUNT[shape]  # 8, 10, 8: all 26 tiles
        assert 0 < short.count(shape) < data.SHAPE_COUNT[shape]
    assert [short.count(s) for s in range(3)] == [3, 4, 3]
    for route in data.ROUTES:
        assert route[0] == data.SHAPE_START and route[-1] == data.SHAPE_DEST
        assert list(route[1:-1]) == sorted(route[1:-1])  # loading, then mixed, then unloading
    assert data.NUM_HARBOURS == 28 and data.ROUTE_DEST.tolist() == [27, 11]


def test_a_berth_is_worth_more_the_further_east_it_lies():
    # Like the start harbour (3, 4, 5, 6): in every region the mean worth of a berth rises from
    # position 1 to 4, and by at least half a doubloon each step over all 26 tiles.
    for shape in (data.SHAPE_LOAD, data.SHAPE_MIXED, data.SHAPE_UNLOAD):
        first = data.SHAPE_FIRST[shape]
        means = data.BERTH_VALUE[first: first + data.SHAPE_COUNT[shape]].mean(axis=0)
        assert (np.diff(means) > 0).all(), (data.SHAPE_NAMES[shape], means)
    means = data.BERTH_VALUE[: data.NUM_HARBOUR_TILES].mean(axis=0)
    assert (np.diff(means) > 0.5).all(), means
    # Hazards lie west more often than east.
    hazard = (data.BERTH_KIND[:26] == data.KIND_NONE)
    assert hazard[:, 0].sum() > hazard[:, 3].sum()


def test_sailor_and_map_berths_can_empty_both_piles_on_the_full_route():
    # One ship per berth: the piles can run out only if the tiles offer more cards than they hold.
    sailors = int((data.BERTH_KIND[:26] == data.KIND_SAILOR).sum())
    maps = int(data.BERTH_MAPS[:26].sum())
    assert sailors > data.NUM_SAILORS and maps > data.NUM_MAPS


def test_first_region_only_loads_last_region_only_unloads_middle_both():
    kinds = {shape: set() for shape in range(5)}
    for tile in range(data.NUM_TILES):
        for pos in range(4):
            kind = int(data.BERTH_KIND[tile, pos])
            if data.BERTH_LOAD[tile, pos].sum():
                kinds[int(data.TILE_SHAPE[tile])].add("load")
            if kind == data.KIND_UNLOAD:
                kinds[int(data.TILE_SHAPE[tile])].add("unload")
    assert kinds[data.SHAPE_LOAD] == {"load"}
    assert kinds[data.SHAPE_MIXED] == {"load", "unload"}
    assert kinds[data.SHAPE_UNLOAD] == {"unload"} and kinds[data.SHAPE_DEST] == {"unload"}


def test_every_kind_of_berth_and_symbol_appears():
    tiles = slice(0, 26)
    for kind in (data.KIND_LOAD, data.KIND_UNLOAD, data.KIND_SAILOR, data.KIND_MAPS):
        assert (data.BERTH_KIND[tiles] == kind).any()
    for symbol in (data.SYMBOL_FISH, data.SYMBOL_SAIL, data.SYMBOL_PIRATE, data.SYMBOL_STORM):
        assert (data.BERTH_SYMBOL[tiles] == symbol).any()
    for table in (data.BERTH_ROB_BARREL, data.BERTH_ROB, data.BERTH_SEASICK, data.BERTH_STORM, data.BERTH_REPAIR,
                  data.BERTH_CHAOS):
        assert table[tiles].any()
    # Sailor berths with and without a barrel; unloading of one and of two barrels, and of any colour.
    sailor = data.BERTH_KIND == data.KIND_SAILOR
    assert (data.BERTH_LOAD[sailor].sum(axis=1) == 1).any() and (data.BERTH_LOAD[sailor].sum(axis=1) == 0).any()
    unload = data.BERTH_KIND == data.KIND_UNLOAD
    assert set(data.BERTH_NEED[unload].sum(axis=1)) == {1, 2} and data.BERTH_NEED[unload][:, 3].any()


def test_the_rulebooks_examples_are_on_the_tiles():
    t = {data.tile_name(i): i for i in range(data.NUM_TILES)}
    assert data.berth_text(t["start"], 0) == "start with 3"  # Benny
    assert data.berth_text(t["start"], 1) == "start with 4"  # Gina
    assert data.berth_text(t["start"], 3) == "start with 6"  # Gerry
    assert data.berth_text(t["L1"], 1) == "load OC (1)"       # Gina loads colourless + orange for 1
    assert data.berth_text(t["U1"], 1) == "unload P -> 5"      # Benny's purple for 5
    assert data.berth_text(t["U1"], 2) == "unload O -> 3, [fish]"  # Gina's orange for 3 on a fish berth
    assert data.berth_text(t["destination"], 1) == "unload ** -> 3"  # Rita: any two for 3


def test_sailor_cards():
    counts = {
        "fisher": int((data.SAILOR_FISH > 0).sum()), "sail": int((data.SAILOR_SAIL > 0).sum()),
        "plaza": int((data.SAILOR_PLAZA >= 0).sum()), "fassel": int(data.SAILOR_FASSEL.sum()),
    }
    assert counts == {"fisher": 3, "sail": 2, "plaza": 4, "fassel": 2}
    assert list(data.SAILOR_PLAZA[7:11]) == [0, 1, 2, 3]  # Westy, Nexty, Overnexty, Easty
    assert data.SAILOR_COLOUR_BONUS.sum(axis=0).tolist() == [2, 3, 4]  # Isaac; Nolly+Bolly; Kitty+Mitty+Pritty


def test_treasure_map_cards():
    items = data.MAP_ITEM[data.MAP_ITEM >= 0]
    assert len(items) == 10 and set(items) == set(range(5))
    assert ((data.MAP_ITEM < 0) & (data.MAP_CHEST > 0)).sum() == 4
    assert ((data.MAP_ITEM < 0) & (data.MAP_CHEST == 0)).sum() == 2  # blanks
    assert not ((data.MAP_ITEM >= 0) & (data.MAP_CHEST > 0)).any()


def test_every_action_has_a_distinct_name():
    names = [action_name(a) for a in range(GAME.num_actions)]
    assert len(set(names)) == len(names)
    assert names[0] == "berth 1" and names[-1].startswith("Barry/Farry")
    assert np.all([isinstance(n, str) and n for n in names])
