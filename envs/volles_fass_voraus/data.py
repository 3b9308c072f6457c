"""The printed material of Volles Fass voraus as tables: harbours, the route, the deck, sailors, maps.

The rulebook describes the components but does not list what the 26 harbour tiles show, nor the
deck's spaces or the treasure-map cards; this module is our design of them, documented in
``docs/rules/volles_fass_voraus.md``: the route lays every tile (``ROUTES``: full, or short as an
option), and a berth is worth more the further east it lies (``berth_value``, the yardstick).
Everything is plain numpy arrays (read by the numba engine as constants) built from a small
readable notation below.

Colours: 0 purple, 1 orange, 2 colourless (10, 15 and 20 barrels). In the notation a barrel is
``P``, ``O`` or ``C``; ``*`` on an unloading berth is the three-coloured barrel ("any colour").
"""

import math

import numpy as np

# ---- barrels ------------------------------------------------------------------------------

COLOURS = ("purple", "orange", "colourless")
COLOUR_LETTERS = "POC"
NUM_COLOURS = 3
BARRELS_PER_COLOUR = np.array([10, 15, 20], np.int8)
TOTAL_BARRELS = int(BARRELS_PER_COLOUR.sum())  # 45

# ---- the deck: barrel spaces on a staggered grid ------------------------------------------
#
# Rows run across the ship; row 0 lies against the rear loading dock, the bow is beyond row 3.
# Rows of 4 and 3 spaces alternate, each row shifted by half a pitch (the staggered packing of
# round barrels). Units: the pitch between neighbouring spaces of a row is 1.0, rows are 0.7
# apart, a barrel is a circle of diameter 0.8. A barrel leaves the deck by being pulled straight
# back (towards smaller y) over the dock; it may not touch any other barrel on the way.
#
#     bow        11    12    13          row 3   y = 2.1
#             7     8     9    10        row 2   y = 1.4
#                4     5     6           row 1   y = 0.7
#             0     1     2     3        row 0   y = 0.0
#     ======= rear loading dock =======

ROW_SIZES = (4, 3, 4, 3)
PITCH = 1.0
ROW_SPACING = 0.7
BARREL_DIAMETER = 0.8


def _deck_spaces():
    xs, ys, rows = [], [], []
    for row, size in enumerate(ROW_SIZES):
        shift = 0.0 if size == 4 else 0.5
        for k in range(size):
            xs.append(shift + k * PITCH)
            ys.append(row * ROW_SPACING)
            rows.append(row)
    return np.array(xs, np.float64), np.array(ys, np.float64), np.array(rows, np.int8)


SPACE_X, SPACE_Y, SPACE_ROW = _deck_spaces()
NUM_SPACES = len(SPACE_X)  # 14
#: One past the last space of each space's row: spaces [0, ROW_END[i]) lie at or behind i's row.
ROW_END = np.array([int(np.flatnonzero(SPACE_ROW <= SPACE_ROW[i])[-1]) + 1 for i in range(NUM_SPACES)], np.int8)

# Two spaces are adjacent (for Barry Fassel / Farry Bassel) when their centres are at most one
# pitch apart: the neighbours in the same row and the diagonal ones in the rows before and after.
_ADJACENT_DISTANCE = PITCH + 1e-9


def _moves():
    src, dst = [], []
    for a in range(NUM_SPACES):
        for b in range(NUM_SPACES):
            if a != b and math.hypot(SPACE_X[a] - SPACE_X[b], SPACE_Y[a] - SPACE_Y[b]) <= _ADJACENT_DISTANCE:
                src.append(a)
                dst.append(b)
    return np.array(src, np.int8), np.array(dst, np.int8)


#: Directed pairs of adjacent spaces: "move the barrel on MOVE_FROM[k] to MOVE_TO[k]" (a slide when
#: the target is free, a swap when it holds a barrel).
MOVE_FROM, MOVE_TO = _moves()
NUM_MOVES = len(MOVE_FROM)  # 56


def _check_layout():
    # Barrels on neighbouring spaces must not overlap or touch, or the geometry would be
    # meaningless; engine.extractable relies on it (a barrel ahead can never be touched), and on
    # the spaces being numbered row by row from the dock.
    assert (np.diff(SPACE_Y) >= 0).all()
    for a in range(NUM_SPACES):
        for b in range(a + 1, NUM_SPACES):
            d = math.hypot(SPACE_X[a] - SPACE_X[b], SPACE_Y[a] - SPACE_Y[b])
            assert d > BARREL_DIAMETER, (a, b, d)


_check_layout()

# ---- sailors (20 cards) -------------------------------------------------------------------

SAILOR_NAMES = (
    "Barry Fassel", "Farry Bassel",
    "Freezy Fisher", "Easy Fisher", "Cheesy Fisher",
    "Assecuranza Pit", "Piranha Pirata",
    "Westy Plaza", "Nexty Plaza", "Overnexty Plaza", "Easty Plaza",
    "Sail Sister (1)", "Sail Sister (2)",
    "Isaac Lilaac",
    "Nolly Orange", "Bolly Orange",
    "Kitty Nature", "Mitty Nature", "Pritty Nature",
    "Stormy D.",
)
NUM_SAILORS = len(SAILOR_NAMES)
BARRY, FARRY = 0, 1
PIT, PIRANHA, STORMY = 5, 6, 19
#: Doubloons on arriving at a fish / sail berth.
SAILOR_FISH = np.array([0, 0, 1, 1, 1] + [0] * 15, np.int8)
SAILOR_SAIL = np.array([0] * 11 + [2, 2] + [0] * 7, np.int8)
#: Plaza family: the berth position (0 west .. 3 east) that pays 1 extra per barrel unloaded.
SAILOR_PLAZA = np.array([-1] * 7 + [0, 1, 2, 3] + [-1] * 9, np.int8)
#: Extra doubloons per unloaded barrel of each colour (purple, orange, colourless).
SAILOR_COLOUR_BONUS = np.zeros((NUM_SAILORS, NUM_COLOURS), np.int8)
SAILOR_COLOUR_BONUS[13] = (2, 0, 0)  # Isaac Lilaac
SAILOR_COLOUR_BONUS[14] = (0, 1, 0)  # Nolly Orange
SAILOR_COLOUR_BONUS[15] = (0, 2, 0)  # Bolly Orange
SAILOR_COLOUR_BONUS[16] = (0, 0, 1)  # Kitty Nature
SAILOR_COLOUR_BONUS[17] = (0, 0, 1)  # Mitty Nature
SAILOR_COLOUR_BONUS[18] = (0, 0, 2)  # Pritty Nature
SAILOR_FASSEL = np.zeros(NUM_SAILORS, np.int8)
SAILOR_FASSEL[[BARRY, FARRY]] = 1

# ---- treasure maps (16 cards) -------------------------------------------------------------

ITEM_NAMES = ("compass", "spyglass", "sextant", "parrot", "rum")
NUM_ITEMS = len(ITEM_NAMES)
#: Doubloons for a set of k different items (k = 0..5).
SET_VALUE = np.array([0, 1, 3, 6, 10, 15], np.int16)
# Ten item cards (each item twice), four chests and two blanks.
MAP_ITEM = np.array([0, 0, 1, 1, 2, 2, 3, 3, 4, 4, -1, -1, -1, -1, -1, -1], np.int8)
MAP_CHEST = np.array([0] * 10 + [2, 3, 4, 5, 0, 0], np.int8)
NUM_MAPS = len(MAP_ITEM)
MAX_ITEM_COPIES = int(np.bincount(MAP_ITEM[MAP_ITEM >= 0]).max())


def item_code(counts):
    """Index of a vector of item counts (each 0..MAX_ITEM_COPIES) in BEST_ITEM_SETS."""
    code = 0
    for k in reversed(range(NUM_ITEMS)):
        code = code * (MAX_ITEM_COPIES + 1) + int(counts[k])
    return code


def _best_item_sets_table():
    """The best score of every vector of item counts, split into sets of different items.

    Exact, not greedy: a dynamic programme in which the best value of a vector is the best, over
    every set of distinct kinds present, of that set's value plus the best value of the rest.
    (For these triangular set values taking all kinds each time happens to be optimal too; the
    programme does not rely on it.)
    """
    radix = MAX_ITEM_COPIES + 1
    best = np.zeros(radix**NUM_ITEMS, np.int16)
    for code in range(1, len(best)):
        counts = [(code // radix**k) % radix for k in range(NUM_ITEMS)]
        top = 0
        for subset in range(1, 1 << NUM_ITEMS):
            kinds = [k for k in range(NUM_ITEMS) if subset >> k & 1]
            if all(counts[k] > 0 for k in kinds):
                rest = code - sum(radix**k for k in kinds)
                top = max(top, int(SET_VALUE[len(kinds)]) + int(best[rest]))
        best[code] = top
    return best


BEST_ITEM_SETS = _best_item_sets_table()


def map_name(card):
    if MAP_ITEM[card] >= 0:
        return f"{ITEM_NAMES[MAP_ITEM[card]]} (item)"
    if MAP_CHEST[card] > 0:
        return f"chest of {MAP_CHEST[card]}"
    return "blank"


# ---- harbours -----------------------------------------------------------------------------

KIND_NONE, KIND_LOAD, KIND_UNLOAD, KIND_SAILOR, KIND_MAPS = range(5)
KIND_NAMES = ("-", "load", "unload", "sailor", "maps")
SYMBOL_NONE, SYMBOL_FISH, SYMBOL_SAIL, SYMBOL_PIRATE, SYMBOL_STORM = range(5)
SYMBOL_NAMES = ("", "fish", "sail", "pirate", "storm")
SHAPE_LOAD, SHAPE_MIXED, SHAPE_UNLOAD, SHAPE_START, SHAPE_DEST = range(5)
SHAPE_NAMES = ("loading", "mixed", "unloading", "start", "destination")
NUM_BERTHS = 4


def B(action="", cost=0, pay=0, sym="", rob_barrel=0, rob=0, seasick=0, storm=0, repair=0, chaos=0, start=0):
    """One berth in our notation.

    ``action``: ``"load CO"`` (barrels shown), ``"unload P"`` / ``"unload **"`` (barrels to unload,
    ``*`` any colour), ``"sailor"`` / ``"sailor +C"`` (with a barrel), ``"maps 2"``, or ``""``.
    ``cost`` doubloons to load / hire / draw; ``pay`` doubloons for unloading. Hazards: pirates rob
    ``rob_barrel`` barrels and ``rob`` doubloons; ``seasick`` sailors go back to the box; a storm
    throws ``storm`` barrels overboard, costs ``repair`` doubloons and, with ``chaos``, forces a
    sailor exchange. ``sym``: "fish" or "sail" (pirate and storm symbols follow from the hazards).
    """
    return dict(action=action, cost=cost, pay=pay, sym=sym, rob_barrel=rob_barrel, rob=rob, seasick=seasick,
                storm=storm, repair=repair, chaos=chaos, start=start)


# Each tile lists its berths from west (position 1) to east (position 4). Like the start harbour
# (3, 4, 5, 6 doubloons) a berth is worth more the further east it lies (see berth_value and the
# table in docs/rules): the westernmost berth leaves first next time, the easternmost last.
LOADING_TILES = [
    [B("load C"), B("load CO", cost=1), B("sailor", cost=1, sym="fish"), B("load PO", cost=1)],
    [B(rob=1), B("load C", sym="sail"), B("maps 1"), B("sailor +P", cost=2)],
    [B(seasick=1), B("sailor", cost=2, sym="fish"), B("load OC"), B("sailor +C", cost=1)],
    [B("sailor", cost=2), B(storm=1), B("load OC", sym="sail"), B("maps 2", cost=1)],
    [B("load C", sym="fish"), B(rob_barrel=1), B("sailor", cost=1), B("load PP", cost=2)],
    [B("sailor", cost=2), B("load OC", cost=1), B("load CC", sym="fish"), B("load POC", cost=2)],
    [B(rob=2), B("maps 1", cost=1), B("load OO", cost=1, sym="sail"), B("sailor +O", cost=1)],
    [B("maps 1", chaos=1), B("load OC", cost=1), B("load OCC", cost=1, sym="fish"), B("sailor", sym="sail")],
]
MIXED_TILES = [
    [B("sailor", cost=2), B("load OC", cost=1), B("unload O", pay=3, sym="fish"), B("unload P", pay=6)],
    [B(storm=1), B("load P", cost=1, sym="sail"), B("sailor", cost=1), B("unload OC", pay=6)],
    [B("load C"), B("unload C", pay=2, sym="fish"), B("sailor", cost=1), B("unload **", pay=6)],
    [B("unload C", pay=2), B("sailor", cost=2), B("load CC", sym="sail"), B("sailor +O", cost=1)],
    [B(rob=1), B("maps 2", cost=1, sym="fish"), B("unload P", pay=5), B("load POC", cost=1)],
    [B("maps 1", cost=1), B("unload *", pay=2), B("unload CC", pay=4, sym="sail"), B("unload PO", pay=9)],
    [B("sailor", cost=2), B(storm=2, chaos=1), B("unload O", pay=4, sym="fish"), B("maps 2", cost=1)],
    [B("unload *", pay=2, sym="sail"), B("load PC", cost=1), B("unload P", pay=5, sym="fish"), B("sailor +P", cost=2)],
    [B(rob_barrel=1), B("sailor +C", cost=1, sym="fish"), B("unload OO", pay=7), B("unload P", pay=7)],
    [B(repair=2, chaos=1), B("load O", sym="fish"), B("unload CC", pay=4), B("maps 2", cost=1)],
]
UNLOADING_TILES = [
    [B("sailor", cost=2), B("unload P", pay=5), B("unload O", pay=3, sym="fish"), B("unload **", pay=6)],
    [B(rob=2), B("unload O", pay=3, sym="sail"), B("sailor", cost=1), B("unload PO", pay=8, sym="fish")],
    [B(seasick=2), B("unload C", pay=2, sym="fish"), B("unload P", pay=6), B("maps 2", cost=1)],
    [B(storm=1, chaos=1), B("sailor", cost=2), B("maps 1", sym="sail"), B("unload PP", pay=10)],
    [B("sailor", cost=1), B(rob_barrel=1), B("unload CC", pay=5, sym="fish"), B("unload P", pay=7)],
    [B(rob=2), B("sailor", cost=1), B("unload *", pay=3, sym="fish"), B("unload OO", pay=7)],
    [B("sailor", cost=2), B(storm=1, repair=1), B("maps 1", sym="fish"), B("unload PC", pay=8, sym="sail")],
    [B("unload *", pay=2), B("maps 2", cost=1), B("sailor", cost=1, sym="sail"), B("unload PC", pay=8)],
]
#: The printed start: each berth shows the starting doubloons (rulebook: 3, 4, ... 6).
START_TILE = [B(start=3), B(start=4), B(start=5), B(start=6)]
#: The printed destination: unload any barrels (rulebook: berth 2 pays 3 for any two).
DEST_TILE = [B("unload *", pay=2), B("unload **", pay=3), B("unload **", pay=4), B("unload *", pay=4)]

_ALL_TILES = LOADING_TILES + MIXED_TILES + UNLOADING_TILES + [START_TILE, DEST_TILE]
NUM_HARBOUR_TILES = len(LOADING_TILES) + len(MIXED_TILES) + len(UNLOADING_TILES)  # 26
NUM_TILES = len(_ALL_TILES)
START_TILE_ID, DEST_TILE_ID = NUM_TILES - 2, NUM_TILES - 1
TILE_SHAPE = np.array([SHAPE_LOAD] * len(LOADING_TILES) + [SHAPE_MIXED] * len(MIXED_TILES)
                      + [SHAPE_UNLOAD] * len(UNLOADING_TILES) + [SHAPE_START, SHAPE_DEST], np.int8)
#: Tiles of each shape: ids SHAPE_FIRST[s] .. SHAPE_FIRST[s] + SHAPE_COUNT[s] - 1.
SHAPE_FIRST = np.array([0, len(LOADING_TILES), len(LOADING_TILES) + len(MIXED_TILES), START_TILE_ID, DEST_TILE_ID],
                       np.int8)
SHAPE_COUNT = np.array([len(LOADING_TILES), len(MIXED_TILES), len(UNLOADING_TILES), 1, 1], np.int8)

# ---- the route ----------------------------------------------------------------------------
#
# The board has a recess for every tile ("fill each recess of the gameboard"): start harbour,
# 8 loading, 10 mixed and 8 unloading harbours, destination - 28 harbours, 27 legs. The short
# route (option route="short", for quick experiments) keeps the regions' proportions with
# 3 + 4 + 3 of the tiles. Records and observations are sized for the full route; past a short
# route's destination a harbour does not exist (shape -1, no tile).

ROUTE_NAMES = ("full", "short")
ROUTE_FULL, ROUTE_SHORT = 0, 1
NO_HARBOUR = -1


def _route(loading, mixed, unloading):
    return (SHAPE_START,) + (SHAPE_LOAD,) * loading + (SHAPE_MIXED,) * mixed + (SHAPE_UNLOAD,) * unloading + (
        SHAPE_DEST,)


ROUTES = (_route(*(int(c) for c in SHAPE_COUNT[:3])), _route(3, 4, 3))
ROUTE_SHAPES = ROUTES[ROUTE_FULL]
NUM_HARBOURS = len(ROUTE_SHAPES)  # 28: the longest route
START_HARBOUR = 0
DEST_HARBOUR = NUM_HARBOURS - 1  # on the full route; a record's own is ROUTE_DEST[route]
#: Shape of each harbour of each route (NO_HARBOUR past its destination).
ROUTE_SHAPE = np.full((len(ROUTES), NUM_HARBOURS), NO_HARBOUR, np.int8)
for _r, _shapes in enumerate(ROUTES):
    ROUTE_SHAPE[_r, : len(_shapes)] = _shapes
    assert all(_shapes.count(s) <= SHAPE_COUNT[s] for s in range(3)), "more recesses than tiles of a shape"
ROUTE_DEST = np.array([len(shapes) - 1 for shapes in ROUTES], np.int8)


def tile_name(tile):
    shape = TILE_SHAPE[tile]
    if shape == SHAPE_START:
        return "start"
    if shape == SHAPE_DEST:
        return "destination"
    return f"{'LMU'[shape]}{tile - SHAPE_FIRST[shape] + 1}"


def _compile():
    shape = (NUM_TILES, NUM_BERTHS)
    t = {name: np.zeros(shape, np.int8) for name in (
        "kind", "cost", "pay", "symbol", "maps", "rob_barrel", "rob", "seasick", "storm", "repair", "chaos", "start")}
    load = np.zeros(shape + (NUM_COLOURS,), np.int8)       # barrels shown to load (sailor berths: its barrel)
    need = np.zeros(shape + (NUM_COLOURS + 1,), np.int8)   # barrels to unload: purple, orange, colourless, any
    for tile, berths in enumerate(_ALL_TILES):
        assert len(berths) == NUM_BERTHS
        for pos, b in enumerate(berths):
            words = b["action"].split()
            kind = {"": KIND_NONE, "load": KIND_LOAD, "unload": KIND_UNLOAD, "sailor": KIND_SAILOR,
                    "maps": KIND_MAPS}[words[0] if words else ""]
            t["kind"][tile, pos] = kind
            if kind == KIND_LOAD:
                for letter in words[1]:
                    load[tile, pos, COLOUR_LETTERS.index(letter)] += 1
            elif kind == KIND_UNLOAD:
                assert 1 <= len(words[1]) <= 2, "unloading berths show one or two barrels"
                for letter in words[1]:
                    need[tile, pos, 3 if letter == "*" else COLOUR_LETTERS.index(letter)] += 1
            elif kind == KIND_SAILOR and len(words) > 1:
                load[tile, pos, COLOUR_LETTERS.index(words[1][1])] = 1
            elif kind == KIND_MAPS:
                t["maps"][tile, pos] = int(words[1])
                # "If the berth shows 1 doubloon, you pay this doubloon [...] If the berth shows no
                # doubloons, you may take the treasure-map card for free."
                assert b["cost"] <= 1, "a treasure-map berth shows 1 doubloon or none"
            for key in ("cost", "pay", "rob_barrel", "rob", "seasick", "storm", "repair", "chaos", "start"):
                t[key][tile, pos] = b[key]
            pirate = b["rob_barrel"] or b["rob"]
            storm = b["storm"] or b["repair"] or b["chaos"]
            assert not (pirate and storm) and not ((pirate or storm) and b["sym"]), "one symbol per berth"
            t["symbol"][tile, pos] = (SYMBOL_PIRATE if pirate else SYMBOL_STORM if storm
                                      else SYMBOL_NAMES.index(b["sym"]) if b["sym"] else SYMBOL_NONE)
            if TILE_SHAPE[tile] == SHAPE_LOAD:
                assert kind != KIND_UNLOAD, "the first sea region only loads"
            if TILE_SHAPE[tile] in (SHAPE_UNLOAD, SHAPE_DEST):
                assert kind != KIND_LOAD and load[tile, pos].sum() == 0, "the last sea region only unloads"
    return t, load, need


_TABLES, BERTH_LOAD, BERTH_NEED = _compile()
BERTH_KIND = _TABLES["kind"]
BERTH_COST = _TABLES["cost"]
BERTH_PAY = _TABLES["pay"]
BERTH_SYMBOL = _TABLES["symbol"]
BERTH_MAPS = _TABLES["maps"]
BERTH_ROB_BARREL = _TABLES["rob_barrel"]
BERTH_ROB = _TABLES["rob"]
BERTH_SEASICK = _TABLES["seasick"]
BERTH_STORM = _TABLES["storm"]
BERTH_REPAIR = _TABLES["repair"]
BERTH_CHAOS = _TABLES["chaos"]
BERTH_START = _TABLES["start"]


def berth_text(tile, pos):
    """A short description of a berth, e.g. ``"load CO (1)"`` or ``"unload ** -> 3 [fish]"``."""
    kind = BERTH_KIND[tile, pos]
    parts = []
    if kind == KIND_LOAD:
        parts.append("load " + "".join(COLOUR_LETTERS[c] * BERTH_LOAD[tile, pos, c] for c in range(3))
                     + (f" ({BERTH_COST[tile, pos]})" if BERTH_COST[tile, pos] else " (free)"))
    elif kind == KIND_UNLOAD:
        need = BERTH_NEED[tile, pos]
        parts.append("unload " + "".join((COLOUR_LETTERS + "*")[c] * need[c] for c in range(4))
                     + f" -> {BERTH_PAY[tile, pos]}")
    elif kind == KIND_SAILOR:
        barrel = "".join(COLOUR_LETTERS[c] for c in range(3) if BERTH_LOAD[tile, pos, c])
        parts.append("sailor" + (f"+{barrel}" if barrel else "")
                     + (f" ({BERTH_COST[tile, pos]})" if BERTH_COST[tile, pos] else " (free)"))
    elif kind == KIND_MAPS:
        parts.append(f"{BERTH_MAPS[tile, pos]} map" + ("s" if BERTH_MAPS[tile, pos] > 1 else "")
                     + (f" ({BERTH_COST[tile, pos]})" if BERTH_COST[tile, pos] else " (free)"))
    if BERTH_ROB_BARREL[tile, pos]:
        parts.append("pirates rob a barrel")
    if BERTH_ROB[tile, pos]:
        parts.append(f"pirates rob {BERTH_ROB[tile, pos]}")
    if BERTH_SEASICK[tile, pos]:
        parts.append(f"{BERTH_SEASICK[tile, pos]} seasick")
    if BERTH_STORM[tile, pos]:
        parts.append(f"storm: {BERTH_STORM[tile, pos]} overboard")
    if BERTH_REPAIR[tile, pos]:
        parts.append(f"repair {BERTH_REPAIR[tile, pos]}")
    if BERTH_CHAOS[tile, pos]:
        parts.append("storm chaos")
    if BERTH_START[tile, pos]:
        parts.append(f"start with {BERTH_START[tile, pos]}")
    symbol = BERTH_SYMBOL[tile, pos]
    if symbol in (SYMBOL_FISH, SYMBOL_SAIL):
        parts.append(f"[{SYMBOL_NAMES[symbol]}]")
    return ", ".join(parts) if parts else "-"


# ---- what a berth is worth: the yardstick of the tile design ------------------------------
#
# One number per berth, in doubloons, so that the design can be checked and shown ("east pays
# more", docs/rules/volles_fass_voraus.md). A barrel's sale price (BARREL_PRICE: the mean payout
# per barrel at the berths that ask for its colour) is credited half to the berth that loads it
# and half to the one that sells it, so a barrel bought at an average berth and sold at one earns
# its price once. Sailors and maps are worth rough constants; hazards cost what they take (a lost
# barrel the sale half still to come, a lost sailor half a sailor: many players hold none).
# Berth actions are optional, so a main action is never worth less than 0.

SAILOR_VALUE = 3.0  # a sailor card over the rest of a voyage (a fisher on ~4 fish berths, ...)
MAP_VALUE = 2.5     # a treasure-map card: chests (14) and two complete item sets (30) over 16 cards is 2.75
SYMBOL_VALUE = 0.5  # a fish or a sail: it pays only players holding the matching sailors


def _barrel_prices():
    totals, counts = np.zeros(NUM_COLOURS), np.zeros(NUM_COLOURS)
    for tile in range(NUM_TILES):
        for pos in range(NUM_BERTHS):
            if BERTH_KIND[tile, pos] != KIND_UNLOAD:
                continue
            need = BERTH_NEED[tile, pos]
            per_barrel = BERTH_PAY[tile, pos] / need.sum()
            for colour in range(NUM_COLOURS):
                if need[colour]:
                    totals[colour] += per_barrel
                    counts[colour] += 1
    return totals / counts


#: Mean payout per barrel of each colour over the unloading berths that ask for that colour.
BARREL_PRICE = _barrel_prices()
#: The mean over the 45 barrels.
MEAN_BARREL_PRICE = float((BARREL_PRICE * BARRELS_PER_COLOUR).sum() / TOTAL_BARRELS)


def berth_value(tile, pos):
    """What berth ``pos`` of ``tile`` is worth to the player who takes it, by the yardstick above."""
    half = 0.5 * BARREL_PRICE
    kind = BERTH_KIND[tile, pos]
    offered = float((BERTH_LOAD[tile, pos] * half).sum())
    main = 0.0
    if kind == KIND_LOAD:
        main = offered - BERTH_COST[tile, pos]
    elif kind == KIND_SAILOR:
        main = SAILOR_VALUE + offered - BERTH_COST[tile, pos]
    elif kind == KIND_MAPS:
        main = MAP_VALUE * BERTH_MAPS[tile, pos] - BERTH_COST[tile, pos]
    elif kind == KIND_UNLOAD:
        need = BERTH_NEED[tile, pos]
        given = float((need[:NUM_COLOURS] * half).sum()) + need[NUM_COLOURS] * float(half.min())  # "any": the cheapest
        main = BERTH_PAY[tile, pos] - given
    value = max(0.0, main) + BERTH_START[tile, pos]
    value -= (BERTH_ROB_BARREL[tile, pos] + BERTH_STORM[tile, pos]) * 0.5 * MEAN_BARREL_PRICE
    value -= BERTH_ROB[tile, pos] + BERTH_REPAIR[tile, pos] + BERTH_SEASICK[tile, pos] * 0.5 * SAILOR_VALUE
    if BERTH_SYMBOL[tile, pos] in (SYMBOL_FISH, SYMBOL_SAIL):
        value += SYMBOL_VALUE
    return value


#: berth_value of every berth of every tile.
BERTH_VALUE = np.array([[berth_value(t, p) for p in range(NUM_BERTHS)] for t in range(NUM_TILES)])


def _doubloon_bounds():
    """Most doubloons a player can hold once his ship lies in each harbour of each route (before
    the treasure maps): the best start berth plus, harbour by harbour, the best that any tile of
    the recess's shape can pay (payout, sailor bonuses per barrel, arrival bonuses). Additive, so a
    record within it stays within it: check_state's bound and the observation's."""
    best_colour_bonus = int(SAILOR_COLOUR_BONUS.sum(axis=0).max())
    arrival = max(int(SAILOR_FISH.sum()), int(SAILOR_SAIL.sum()))

    def best_gain(shape):
        first, count = int(SHAPE_FIRST[shape]), int(SHAPE_COUNT[shape])
        return max(int(BERTH_PAY[t, p]) + int(BERTH_NEED[t, p].sum()) * (1 + best_colour_bonus) + arrival
                   for t in range(first, first + count) for p in range(NUM_BERTHS))

    bounds = np.zeros((len(ROUTES), NUM_HARBOURS), np.int16)
    for route, shapes in enumerate(ROUTES):
        total = int(BERTH_START.max())
        for harbour, shape in enumerate(shapes):
            if harbour > 0:
                total += best_gain(shape)
            bounds[route, harbour] = total
        bounds[route, len(shapes):] = total
    return bounds


#: Doubloons a player may hold with his ship in harbour h of route r: DOUBLOON_BOUND[r, h].
DOUBLOON_BOUND = _doubloon_bounds()
#: The most treasure maps can be worth to one player: every chest and two complete item sets.
MAX_TREASURE = int(MAP_CHEST.sum()) + int(SET_VALUE[NUM_ITEMS]) * MAX_ITEM_COPIES
#: An upper bound on any player's doubloons: the observation's honest high bound.
MAX_DOUBLOONS = int(DOUBLOON_BOUND.max()) + MAX_TREASURE
