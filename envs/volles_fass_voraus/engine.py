"""Volles Fass voraus: the rules as numba functions over one record.

Four ships sail from the start harbour through 26 harbours (8 loading, 10 mixed, 8 unloading:
every harbour tile, laid at random into the recesses of its shape and face up from the start) to
the destination; option ``route="short"`` lays only 3 + 4 + 3 of them (records and observations
are sized for the full route; a short route leaves the harbours past its destination empty). In
each harbour the ships move west to east by berth: the mover picks a free berth in the next
harbour and carries out its actions at once (ships without a player take the easternmost free
berth and do nothing). Barrels are loaded onto a deck of 14 spaces and may only be unloaded if
they can be pulled straight back over the rear loading dock without touching another barrel
(:func:`extractable`, the geometric hot path). Treasure maps are scored at the destination; the
most doubloons wins, ties to the ship further west at the destination.

A player's turn runs through *stages* (arrival bonuses, pirates, seasickness, storm, the berth's
main action, a last chance for Barry Fassel / Farry Bassel); a stage that needs a choice sets a
*phase* and waits for the player's action. A decision with exactly one legal action is taken
automatically (see :func:`settle`), so the agent only sees real choices. Data tables (harbours,
deck geometry, sailors, maps) are in :mod:`envs.volles_fass_voraus.data`; the decisions the
rulebook leaves open are in ``docs/rules/volles_fass_voraus.md``.

Validation (:func:`check_state`, ``STATE_BOUNDS``, ``STATE_PROBLEMS``): the route's tiles (each
recess a tile of its shape, none twice, face up where the ships have been or are heading), the
45 barrels conserved over supply, decks and hand, ships and berths agreeing with the leg and the
turn order, both card piles consistent with their owners, doubloons within what the harbours
sailed can have paid, treasure scored only at the end, and the pending decision fitting the berth
the ship lies on (stage, hazards still to suffer, barrels owed, storm-chaos cards).

``playout_value(state, values)``: each player's *projected* doubloons are his doubloons, plus what
his treasure maps are worth now, plus half the mean sale price (``data.BARREL_PRICE``) of every
barrel aboard (the sale half of the tile design's yardstick, ``data.berth_value``). Each other
player finishes ahead of him with probability ``1 / (1 + exp(-(theirs - his) / spread))``, with
``spread = 2 + 1 per leg still to sail`` doubloons; his value is the expected placing reward
``1 - 2 * E[players ahead] / (n - 1)`` (the values of all players sum to 0, like the rewards),
plus, with ``doubloon_shaping = s``, ``s`` times the projected gain still to come. Zero once the
game is over.
"""

import numpy as np
from numba import njit

from envs.core import Layout, config_dtype, register_engine, state_dtype
from envs.core.bits import count_bits
from envs.core.rng import seed_rng, shuffle

from .data import (
    BARRELS_PER_COLOUR, BARREL_DIAMETER, BARREL_PRICE, BARRY, BERTH_CHAOS, BERTH_COST, BERTH_KIND, BERTH_LOAD,
    BERTH_MAPS, BERTH_NEED, BERTH_PAY, BERTH_REPAIR, BERTH_ROB, BERTH_ROB_BARREL, BERTH_SEASICK, BERTH_START,
    BERTH_STORM, BERTH_SYMBOL, BEST_ITEM_SETS, DEST_TILE_ID, DOUBLOON_BOUND, FARRY, KIND_LOAD, KIND_MAPS,
    KIND_SAILOR, KIND_UNLOAD, MAP_CHEST, MAP_ITEM, MAX_DOUBLOONS, MAX_ITEM_COPIES, MAX_TREASURE, MOVE_FROM,
    MOVE_TO, NUM_BERTHS, NUM_COLOURS, NUM_HARBOURS, NUM_ITEMS, NUM_MAPS, NUM_MOVES, NUM_SAILORS, NUM_SPACES,
    NUM_TILES, PIRANHA, PIT, ROUTE_DEST, ROUTE_NAMES, ROUTE_SHAPE, ROW_END, SAILOR_COLOUR_BONUS, SAILOR_FISH,
    SAILOR_PLAZA, SAILOR_SAIL, SHAPE_COUNT, SHAPE_FIRST, SPACE_X, START_HARBOUR, START_TILE_ID, STORMY,
    SYMBOL_FISH, SYMBOL_SAIL, TILE_SHAPE,
)

MAX_PLAYERS = 4
NUM_SHIPS = 4

# ---- actions: one flat space ----------------------------------------------------------------
A_BERTH = 0                          # 4: choose berth 1..4 (west to east)
A_SPACE = A_BERTH + NUM_BERTHS       # 14: a deck space (place / unload / lose the barrel there)
A_COLOUR = A_SPACE + NUM_SPACES      # 3: load a barrel of this colour
A_SAILOR = A_COLOUR + NUM_COLOURS    # 20: a sailor card (give up / take / give)
A_SAILOR_BOTH = A_SAILOR + NUM_SAILORS   # hire the sailor and take the barrel
A_SAILOR_ONLY = A_SAILOR_BOTH + 1        # hire the sailor, leave the barrel
A_BARREL_ONLY = A_SAILOR_BOTH + 2        # take the barrel, leave the sailor
A_TAKE_MAPS = A_SAILOR_BOTH + 3          # draw (and pay for) the treasure maps
A_PASS = A_SAILOR_BOTH + 4               # decline / done / end the turn
A_MOVE = A_PASS + 1                  # 56: Barry Fassel / Farry Bassel: barrel on MOVE_FROM -> MOVE_TO
NUM_ACTIONS = A_MOVE + NUM_MOVES     # 102

# ---- phases: the decision being asked -------------------------------------------------------
PH_START_BERTH = 0   # choose a starting berth
PH_CHOOSE_BERTH = 1  # choose a berth in the next harbour
PH_ROB_BARREL = 2    # pirates: choose the barrel they take
PH_SEASICK = 3       # choose a sailor to give up
PH_STORM_BARREL = 4  # storm: choose a barrel to throw overboard
PH_CHAOS_TAKE = 5    # storm chaos: choose another player's sailor to take (pass only with Stormy D.)
PH_CHAOS_GIVE = 6    # storm chaos: choose the sailor to give in exchange
PH_LOAD_PICK = 7     # choose a barrel colour to load, or stop
PH_LOAD_PLACE = 8    # choose the free deck space for the barrel in hand
PH_UNLOAD = 9        # choose a barrel to unload (or do not unload)
PH_SAILOR = 10       # hire the sailor and / or take the barrel, or pass
PH_MAPS = 11         # take the treasure maps, or pass
PH_END_TURN = 12     # last Barry / Farry moves, then end the turn
PH_OVER = 13
NUM_PHASES = 14
PHASE_NAMES = ("start berth", "choose berth", "pirates take a barrel", "seasick sailor", "storm: barrel overboard",
               "storm chaos: take", "storm chaos: give", "load: pick", "load: place", "unload", "hire sailor",
               "treasure maps", "end turn", "game over")

# ---- stages of a turn after the ship has docked ---------------------------------------------
ST_ARRIVE, ST_ROB_BARREL, ST_ROB_DOUBLOONS, ST_SEASICK, ST_STORM_BARRELS, ST_STORM_REPAIR, ST_CHAOS, ST_MAIN, \
    ST_END, ST_DONE = range(10)

EMPTY = 0            # deck spaces hold 0 (empty) or 1 + colour
OWNER_DECK = -1      # sailor / map still in its face-down pile
OWNER_BOX = -2       # sailor given up to seasickness: out of the game
FREE = -1            # a berth without a ship

STATE = state_dtype([
    ("phase", np.int8),
    ("stage", np.int8),
    ("leg", np.int8),                                   # harbour the ships are leaving
    ("mover", np.int8),                                 # index into move_order of the ship moving
    ("move_order", np.int8, (NUM_SHIPS,)),              # ships of this leg, west to east
    ("route", np.int8),                                 # data.ROUTE_FULL or ROUTE_SHORT
    ("harbour_tile", np.int8, (NUM_HARBOURS,)),         # tile id in each recess (start/destination fixed; -1 off route)
    ("revealed", np.int8, (NUM_HARBOURS,)),
    ("berth_ship", np.int8, (NUM_HARBOURS, NUM_BERTHS)),  # ship on each berth, FREE if none
    ("ship_harbour", np.int8, (NUM_SHIPS,)),
    ("ship_berth", np.int8, (NUM_SHIPS,)),
    ("deck", np.int8, (MAX_PLAYERS, NUM_SPACES)),
    ("supply", np.int8, (NUM_COLOURS,)),
    ("hand", np.int8),                                  # 1 + colour of a barrel taken but not yet placed
    ("doubloons", np.int16, (MAX_PLAYERS,)),
    ("treasure", np.int16, (MAX_PLAYERS,)),             # treasure-map doubloons, filled in at the end
    ("sailor_owner", np.int8, (NUM_SAILORS,)),          # seat, OWNER_DECK or OWNER_BOX
    ("sailor_deck", np.int8, (NUM_SAILORS,)),           # pile order; [sailors_drawn:] still face down
    ("sailors_drawn", np.int8),
    ("sailor_uses", np.int8, (NUM_SAILORS,)),           # Barry / Farry moves made this turn
    ("map_owner", np.int8, (NUM_MAPS,)),                # seat or OWNER_DECK
    ("map_deck", np.int8, (NUM_MAPS,)),                 # pile order; [maps_drawn:] still face down
    ("maps_drawn", np.int8),
    ("load_left", np.int8, (NUM_COLOURS,)),             # barrels still offered at this loading berth
    ("load_paid", np.int8),
    ("need", np.int8, (NUM_COLOURS + 1,)),              # barrels still to unload: purple, orange, colourless, any
    ("unloaded", np.int8),                              # barrels unloaded at this berth
    ("to_give_up", np.int8),                            # barrels / sailors still to lose in this hazard
    ("chaos_take", np.int8),                            # card chosen in storm chaos (-1 none)
    ("chaos_given", np.int8),                           # card given away this turn: still usable this turn
    ("fassel_limit", np.int8),                          # moves per Barry / Farry card per turn
    ("hire_bonus_here", np.int8),                       # a newly hired fisher / sail sister pays at once
    ("shaping", np.float32),                            # reward per doubloon gained (0: off)
    ("scratch", np.int8, (NUM_ACTIONS,)),               # work space of settle(); never observed
], MAX_PLAYERS)

CONFIG = config_dtype([
    ("route", np.int8),
    ("reveal_all", np.int8),
    ("fassel_limit", np.int8),
    ("hire_bonus_here", np.int8),
    ("shaping", np.float32),
])

# ---- observation ----------------------------------------------------------------------------
BERTH_FEATURES = 25
BERTH_FEATURE_NAMES = (
    "load", "unload", "sailor", "maps",                     # main action (one-hot; none: all zero)
    "barrels purple", "barrels orange", "barrels colourless",  # shown to load (sailor berth: its barrel)
    "unload purple", "unload orange", "unload colourless", "unload any",
    "cost", "payout", "maps drawn",
    "fish", "sail", "pirate", "storm",                      # symbol
    "rob barrel", "rob doubloons", "seasick", "storm barrels", "repair", "storm chaos", "start doubloons",
)


def _tile_features():
    """Each tile's berths as the observation shows them: (tiles, berths * BERTH_FEATURES), float32."""
    table = np.zeros((NUM_TILES, NUM_BERTHS, BERTH_FEATURES), np.float32)
    for tile in range(NUM_TILES):
        for pos in range(NUM_BERTHS):
            f = table[tile, pos]
            kind = BERTH_KIND[tile, pos]
            if kind > 0:
                f[kind - 1] = 1.0
            f[4:7] = BERTH_LOAD[tile, pos]
            f[7:11] = BERTH_NEED[tile, pos]
            f[11], f[12], f[13] = BERTH_COST[tile, pos], BERTH_PAY[tile, pos], BERTH_MAPS[tile, pos]
            if BERTH_SYMBOL[tile, pos] > 0:
                f[13 + BERTH_SYMBOL[tile, pos]] = 1.0
            f[18:25] = (BERTH_ROB_BARREL[tile, pos], BERTH_ROB[tile, pos], BERTH_SEASICK[tile, pos],
                        BERTH_STORM[tile, pos], BERTH_REPAIR[tile, pos], BERTH_CHAOS[tile, pos],
                        BERTH_START[tile, pos])
    return table.reshape(NUM_TILES, NUM_BERTHS * BERTH_FEATURES)


TILE_FEATURES = _tile_features()
_FEATURE_HIGH = float(TILE_FEATURES.max())  # the largest number on any berth (a payout of 10)

# The harbour ahead, berth by berth: the berths a berth action (0-3) chooses from, as fixed rows
# (the ``berths`` block holds every harbour, so the one ahead moves from leg to leg).
AHEAD_FEATURE_NAMES = BERTH_FEATURE_NAMES + (
    "free",                                                 # no ship lies there
    "ship you", "ship 1", "ship 2", "ship 3",               # the (relative) ship lying there, one-hot
    "affordable",                                           # your doubloons cover its cost (face up only)
    "unloadable",                                           # your deck can deliver its barrels now (face up only)
    "arrival pay",                                          # doubloons your fishers / sail sisters pay here
    "sheltered",                                            # its pirates / storm your sailors cancel (count)
    "plaza pay",                                            # your plaza sailors' pay per barrel unloaded here
    "loadable",                                             # barrels it could put on your deck (supply, room)
    "face up",                                              # the harbour's tile is face up
)
AHEAD_FEATURES = len(AHEAD_FEATURE_NAMES)
AF_FREE, AF_SHIP, AF_AFFORD, AF_UNLOAD = BERTH_FEATURES, BERTH_FEATURES + 1, BERTH_FEATURES + 5, BERTH_FEATURES + 6
AF_ARRIVAL, AF_SHELTERED, AF_PLAZA, AF_LOADABLE, AF_FACE_UP = range(BERTH_FEATURES + 7, BERTH_FEATURES + 12)
assert AHEAD_FEATURES == AF_FACE_UP + 1
assert BERTH_NEED.sum(axis=-1).max() <= 2  # may_unload looks two barrels deep

# The geometry of the seat's own deck, space by space (rows of the deck-space actions 4-17):
# quantities of engine.extractable's corridors that a network reads badly from one-hot decks.
DECK_GEOMETRY_NAMES = (
    "frees",     # a barrel here: your barrels that come free once it leaves (it alone is in their way)
    "buries",    # an empty space: your free barrels a barrel put here would be in the way of
    "blocked",   # an empty space: a barrel put here could not be pulled off now
    "shadows",   # an empty space: the empty spaces whose way to the dock a barrel put here would cross
)
DECK_GEOMETRY_FEATURES = len(DECK_GEOMETRY_NAMES)
GF_FREES, GF_BURIES, GF_BLOCKED, GF_SHADOWS = range(DECK_GEOMETRY_FEATURES)

LAYOUT = Layout(
    ("phase", NUM_PHASES, 0, 1, "the decision being asked (one-hot)"),
    ("route", (NUM_HARBOURS, 5), 0, 1,
     "each harbour's recess shape, one-hot: loading, mixed, unloading, start, destination (zero past the route)"),
    ("harbour_visible", NUM_HARBOURS, 0, 1, "1 if the harbour's tile is face up (start and destination always)"),
    ("berths", (NUM_HARBOURS, NUM_BERTHS, BERTH_FEATURES), 0, _FEATURE_HIGH,
     "each visible berth, west to east: see BERTH_FEATURE_NAMES (zero while face down)"),
    ("ships", (NUM_SHIPS, NUM_HARBOURS, NUM_BERTHS), 0, 1,
     "where each ship is (one-hot); ships relative: 0 = you, then the next seats, then ships without a player"),
    ("ship_is_player", NUM_SHIPS, 0, 1, "1 if that (relative) ship belongs to a player"),
    ("to_move", NUM_SHIPS, 0, 1, "the (relative) ship whose turn it is"),
    ("decks", (NUM_SHIPS, NUM_SPACES, NUM_COLOURS), 0, 1, "barrel colour on each deck space (one-hot)"),
    ("extractable", (NUM_SHIPS, NUM_SPACES), 0, 1, "1 if that barrel can be pulled off the deck now"),
    ("doubloons", NUM_SHIPS, 0, MAX_DOUBLOONS, "each player's doubloons"),
    ("sailors", (NUM_SHIPS, NUM_SAILORS), 0, 1, "sailor cards in front of each player (face up)"),
    ("sailors_boxed", NUM_SAILORS, 0, 1, "sailors given up to seasickness"),
    ("sailors_in_pile", 1, 0, NUM_SAILORS, "face-down sailor cards left"),
    ("sailor_uses", NUM_SAILORS, 0, 3, "Barry Fassel / Farry Bassel moves made this turn"),
    ("own_maps", NUM_MAPS, 0, 1, "your treasure-map cards (card ids: see data.MAP_ITEM / MAP_CHEST)"),
    ("own_treasure", 1, 0, 64, "what your treasure maps are worth now"),
    ("map_counts", NUM_SHIPS, 0, NUM_MAPS, "how many treasure maps each player holds"),
    ("maps_in_pile", 1, 0, NUM_MAPS, "face-down treasure maps left"),
    ("supply", NUM_COLOURS, 0, 20, "barrels of each colour in the supply"),
    ("hand", NUM_COLOURS, 0, 1, "colour of the barrel being loaded (one-hot)"),
    ("load_left", NUM_COLOURS, 0, 3, "barrels still offered at this loading berth"),
    ("load_paid", 1, 0, 1, "1 once this berth's price is paid"),
    ("need", NUM_COLOURS + 1, 0, 2, "barrels still to unload here: purple, orange, colourless, any"),
    ("unloaded", 1, 0, 2, "barrels unloaded at this berth"),
    ("to_give_up", 1, 0, 3, "barrels or sailors still to lose to the current hazard"),
    ("chaos_take", NUM_SAILORS, 0, 1, "storm chaos: the sailor chosen to take"),
    ("chaos_given", NUM_SAILORS, 0, 1, "storm chaos: the sailor given away this turn (usable this turn)"),
    ("ahead", (NUM_BERTHS, AHEAD_FEATURES), 0, _FEATURE_HIGH,
     "the harbour the ships of this leg head for (the start harbour while start berths are chosen), berth by "
     "berth west to east: its BERTH_FEATURE_NAMES (zero while face down), then free, the ship there (relative, "
     "one-hot), affordable, unloadable (your deck delivers its barrels now, without Barry / Farry), your sailors' "
     "arrival pay, hazards they cancel and plaza pay there, barrels it could load on your deck, face up: "
     "AHEAD_FEATURE_NAMES"),
    ("deck_geometry", (NUM_SPACES, DECK_GEOMETRY_FEATURES), 0, NUM_SPACES,
     "your deck space by space: barrels a barrel there alone keeps stuck (frees); for an empty space, your free "
     "barrels a barrel put there would block (buries), whether it would be stuck itself (blocked), and the empty "
     "spaces whose way out it would cross (shadows): DECK_GEOMETRY_NAMES"),
)
_O = {name: LAYOUT.offset(name) for name in LAYOUT.names}
O_PHASE, O_ROUTE, O_VISIBLE, O_BERTHS = _O["phase"], _O["route"], _O["harbour_visible"], _O["berths"]
O_SHIPS = _O["ships"]
O_IS_PLAYER, O_TO_MOVE, O_DECKS, O_EXTRACT = _O["ship_is_player"], _O["to_move"], _O["decks"], _O["extractable"]
O_DOUBLOONS, O_SAILORS, O_BOXED, O_SAILOR_PILE = _O["doubloons"], _O["sailors"], _O["sailors_boxed"], \
    _O["sailors_in_pile"]
O_USES, O_OWN_MAPS, O_TREASURE, O_MAP_COUNTS = _O["sailor_uses"], _O["own_maps"], _O["own_treasure"], _O["map_counts"]
O_MAP_PILE, O_SUPPLY, O_HAND, O_LOAD_LEFT = _O["maps_in_pile"], _O["supply"], _O["hand"], _O["load_left"]
O_LOAD_PAID, O_NEED, O_UNLOADED, O_GIVE_UP = _O["load_paid"], _O["need"], _O["unloaded"], _O["to_give_up"]
O_CHAOS_TAKE, O_CHAOS_GIVEN, O_AHEAD = _O["chaos_take"], _O["chaos_given"], _O["ahead"]
O_GEOMETRY = _O["deck_geometry"]


def make_config(config):
    record = np.zeros(1, CONFIG)
    record["num_players"] = config["num_players"]
    record["route"] = ROUTE_NAMES.index(config["route"])
    record["reveal_all"] = config["harbour_reveal"] == "all_at_start"
    record["fassel_limit"] = config["fassel_moves_per_turn"]
    record["hire_bonus_here"] = bool(config["hired_sailor_pays_at_once"])
    record["shaping"] = config["doubloon_shaping"]
    return record


# =============================================================================================
# The hot path: which barrels can leave the deck
# =============================================================================================


def _corridor_blockers():
    """BLOCKERS[i]: bit mask of the spaces whose barrel stands in the way of pulling barrel ``i`` off.

    Barrels are circles of diameter ``D = BARREL_DIAMETER`` centred on their spaces. Pulling barrel
    ``i`` back sweeps its circle along the corridor from its centre towards the dock (decreasing
    y). A barrel ``j`` at or behind ``i``'s row (towards the dock) is touched on the way when
    ``|x_j - x_i| <= D`` (the corridor's half-width plus ``j``'s radius). A barrel ahead of ``i``
    is nearest at the start, where it cannot touch: ``data`` checks at import that no two spaces
    are within ``D`` of each other. Spaces are numbered row by row from the dock, so the barrels
    that can be in the way are those numbered below ``ROW_END[i]``.
    """
    table = np.zeros(NUM_SPACES, np.int64)
    for i in range(NUM_SPACES):
        for j in range(ROW_END[i]):
            if j != i and abs(SPACE_X[j] - SPACE_X[i]) <= BARREL_DIAMETER:
                table[i] |= 1 << j
    return table


BLOCKERS = _corridor_blockers()


def _space_steps():
    """SPACE_STEPS[i, j]: the fewest Barry / Farry moves that take a barrel from space ``i`` to
    space ``j`` (one step per move, between adjacent spaces; data.MOVE_FROM / MOVE_TO)."""
    steps = np.full((NUM_SPACES, NUM_SPACES), NUM_SPACES, np.int64)
    for i in range(NUM_SPACES):
        steps[i, i] = 0
        frontier = [i]
        while frontier:
            reached = []
            for a in frontier:
                for k in range(NUM_MOVES):
                    b = MOVE_TO[k]
                    if MOVE_FROM[k] == a and steps[i, b] > steps[i, a] + 1:
                        steps[i, b] = steps[i, a] + 1
                        reached.append(b)
            frontier = reached
    return steps


SPACE_STEPS = _space_steps()
#: PLAZA_CARDS[pos]: bit mask of the sailor cards paying a doubloon per barrel unloaded at berth ``pos``.
PLAZA_CARDS = np.array([sum(1 << card for card in range(NUM_SAILORS) if SAILOR_PLAZA[card] == pos)
                        for pos in range(NUM_BERTHS)], np.int64)
#: CROSSES[j]: bit mask of the spaces whose corridor a barrel on ``j`` stands in (BLOCKERS transposed).
CROSSES = np.array([sum(1 << i for i in range(NUM_SPACES) if (BLOCKERS[i] >> j) & 1) for j in range(NUM_SPACES)],
                   np.int64)


@njit(cache=True)
def extractable(deck):
    """Bit mask of the deck spaces whose barrel can be pulled straight back over the loading dock
    (nothing of BLOCKERS in the way)."""
    return free_barrels(occupied(deck))


@njit(cache=True, inline="always")
def occupied(deck):
    """Bit mask of the deck spaces holding a barrel."""
    occ = 0
    for i in range(NUM_SPACES):
        if deck[i] != EMPTY:
            occ |= 1 << i
    return occ


@njit(cache=True, inline="always")
def free_barrels(occ):
    """Bit mask of the barrels of the deck ``occ`` (see occupied) with no barrel in their corridor."""
    mask = 0
    for i in range(NUM_SPACES):
        if (occ >> i) & 1 and occ & BLOCKERS[i] == 0:
            mask |= 1 << i
    return mask


# =============================================================================================
# Small queries
# =============================================================================================


@njit(cache=True)
def dest_harbour(state):
    return ROUTE_DEST[state.route]


@njit(cache=True)
def is_player_ship(state, ship):
    return ship < state.num_players


@njit(cache=True)
def has_sailor(state, seat, card):
    """``seat`` may use ``card`` now: it holds it, or gave it away in storm chaos this turn."""
    if state.sailor_owner[card] == seat:
        return True
    return state.chaos_given == card and seat == state.current_player


@njit(cache=True)
def count_barrels(deck):
    n = 0
    for i in range(NUM_SPACES):
        if deck[i] != EMPTY:
            n += 1
    return n


@njit(cache=True)
def count_sailors(state, seat):
    n = 0
    for card in range(NUM_SAILORS):
        if state.sailor_owner[card] == seat:
            n += 1
    return n


@njit(cache=True)
def count_maps(state, seat):
    n = 0
    for card in range(NUM_MAPS):
        if state.map_owner[card] == seat:
            n += 1
    return n


@njit(cache=True)
def current_tile_and_berth(state, seat):
    harbour = state.ship_harbour[seat]
    return state.harbour_tile[harbour], state.ship_berth[seat]


@njit(cache=True)
def pay(state, seat, amount):
    """Take ``amount`` doubloons; never below zero (robbery and repairs stop at 0)."""
    left = state.doubloons[seat] - amount
    state.doubloons[seat] = left if left > 0 else 0


@njit(cache=True)
def best_item_sets(counts):
    """The most doubloons ``counts[k]`` items of each kind score when split into sets of different
    items: a look-up in the exact table of every count vector (data.BEST_ITEM_SETS)."""
    code = 0
    place = 1
    for k in range(NUM_ITEMS):
        code += counts[k] * place
        place *= MAX_ITEM_COPIES + 1
    return BEST_ITEM_SETS[code]


@njit(cache=True)
def treasure_value(state, seat):
    """Doubloons ``seat``'s treasure maps are worth: chests plus the best item sets (blanks 0)."""
    counts = np.zeros(NUM_ITEMS, np.int64)
    chests = 0
    for card in range(NUM_MAPS):
        if state.map_owner[card] == seat:
            chests += int(MAP_CHEST[card])
            if MAP_ITEM[card] >= 0:
                counts[MAP_ITEM[card]] += 1
    return chests + int(best_item_sets(counts))


# =============================================================================================
# Unloading: which barrels may be picked so that the berth's barrels can all come off
# =============================================================================================
#
# A berth owes one or two barrels (checked at import). Two barrels are "both - in any order", and
# Barry Fassel / Farry Bassel may be used "at any time during your turn", between the two barrels
# too ("you might be able to unload a barrel (right now or later) that you couldn't get off the
# deck before"). So the first barrel of a pair may be picked if, once it is off, the Barry / Farry
# moves the player still has this turn can make a matching second barrel extractable
# (:func:`can_complete`); while the second is owed only the moves that keep this so are offered,
# and check_state asks the same of a started pair. One predicate, :func:`can_complete`, for all
# three: the player can never be left with half a pair.


@njit(cache=True, inline="always")
def need_slot(need, colour):
    """The slot of ``need`` (purple, orange, colourless, any) a barrel of ``colour`` fills: its own
    colour's before an any-colour slot, never worse for the barrels still owed."""
    return colour if need[colour] > 0 else NUM_COLOURS


@njit(cache=True, inline="always")
def fits_after(need, taken, colour):
    """Whether a barrel of ``colour`` is still owed by ``need`` once a barrel of colour ``taken``
    (-1: none) has filled its slot. Counts; ``need`` is left as it is (it may be a data table)."""
    left = need[colour]
    left_any = need[NUM_COLOURS]
    if taken >= 0:
        slot = need_slot(need, taken)
        if slot == colour:
            left -= 1
        elif slot == NUM_COLOURS:
            left_any -= 1
    return left > 0 or left_any > 0


@njit(cache=True, inline="always")
def barrels_owed(need):
    return need[0] + need[1] + need[2] + need[3]


@njit(cache=True, inline="always")
def owed_barrels(deck, need, occ, taken):
    """Bit mask of the barrels of ``occ`` (spaces of ``deck``) that ``need`` still owes once a
    barrel of colour ``taken`` (-1: none) has filled its slot (see fits_after)."""
    fit = 0
    for i in range(NUM_SPACES):
        if (occ >> i) & 1 and fits_after(need, taken, deck[i] - 1):
            fit |= 1 << i
    return fit


@njit(cache=True, inline="always")
def any_free(occ, fit):
    """Whether a barrel of ``fit`` (a subset of the deck ``occ``) can be pulled off now."""
    for i in range(NUM_SPACES):
        if (fit >> i) & 1 and occ & BLOCKERS[i] == 0:
            return True
    return False


@njit(cache=True, inline="always")
def moves_at_least(occ, fit):
    """A lower bound on the Barry / Farry moves that make a barrel of ``fit`` extractable.

    For the barrel on ``i`` to be pulled off from space ``p`` it needs SPACE_STEPS[i, p] moves (a
    move takes it one step at most), and the other barrels in p's corridor must all have left it
    (a move takes one of them out at most: a slide moves one barrel, a swap leaves the corridor as
    full as before unless it swaps that barrel itself). So at least the larger of the two.
    """
    best = NUM_SPACES
    for i in range(NUM_SPACES):
        if (fit >> i) & 1:
            others = occ & ~(1 << i)
            for p in range(NUM_SPACES):
                need = max(SPACE_STEPS[i, p], count_bits(others & BLOCKERS[p]))
                if need < best:
                    best = need
    return best


@njit(cache=True)
def can_complete(occ, fit, moves):
    """Whether at most ``moves`` Barry / Farry moves can make a barrel of ``fit`` extractable on the
    deck ``occ`` (bit masks; ``fit`` the barrels still owed): :func:`any_free` now, or after some
    sequence of moves. A depth-first search over the moves, cut where :func:`moves_at_least` says
    the moves left cannot do it. A move is seen through what it does to ``occ`` and ``fit``: a slide
    onto a free adjacent space, or a swap of an owed barrel with one not owed (a legal swap: their
    colours differ); other swaps change neither mask, and doing nothing is always allowed.
    """
    if any_free(occ, fit):
        return True
    if moves <= 0 or fit == 0 or moves_at_least(occ, fit) > moves:
        return False
    occs = np.empty(moves, np.int64)
    fits = np.empty(moves, np.int64)
    next_move = np.zeros(moves, np.int64)
    occs[0] = occ
    fits[0] = fit
    depth = 0  # moves made to reach occs[depth], fits[depth]
    while depth >= 0:
        move = next_move[depth]
        if move == NUM_MOVES:
            depth -= 1
            continue
        next_move[depth] = move + 1
        o = occs[depth]
        f = fits[depth]
        a = int(MOVE_FROM[move])  # int: 1 << an int8 space would be an int8 in plain Python (NEP 50)
        b = int(MOVE_TO[move])
        if not (o >> a) & 1:
            continue
        both = (1 << a) | (1 << b)
        if (o >> b) & 1:
            if a > b or ((f >> a) & 1) == ((f >> b) & 1):
                continue
            f ^= both
        else:
            o ^= both
            if (f >> a) & 1:
                f ^= both
        if any_free(o, f):
            return True
        left = moves - depth - 1
        if left > 0 and moves_at_least(o, f) <= left:
            depth += 1
            occs[depth] = o
            fits[depth] = f
            next_move[depth] = 0
    return False


@njit(cache=True, inline="always")
def may_unload(deck, need, space, free, moves):
    """May the barrel on ``space`` go towards ``need`` now (``free`` = extractable(deck)), with
    ``moves`` Barry / Farry moves left this turn?

    Only extractable barrels of a colour still owed; if another barrel is owed afterwards, the
    berth's all-or-none rule asks that the moves left can then bring a matching one within reach
    (:func:`can_complete`; with none, that one is extractable once this barrel is off). A berth
    owes at most two barrels (checked at import), so one look past this barrel settles it.
    """
    if not (free >> space) & 1:
        return False
    colour = deck[space] - 1
    if not fits_after(need, -1, colour):
        return False
    if barrels_owed(need) == 1:
        return True
    occ = occupied(deck) & ~(1 << space)
    return can_complete(occ, owed_barrels(deck, need, occ, colour), moves)


@njit(cache=True)
def can_deliver(deck, need):
    """Whether ``deck`` can deliver every barrel ``need`` asks (purple, orange, colourless, any) now,
    each pulled straight off (no Barry / Farry moves before or between): the unloading rule for a
    berth not yet started, for a player without moves. Neither argument is changed."""
    return can_deliver_from(deck, need, extractable(deck))


@njit(cache=True, inline="always")
def can_deliver_from(deck, need, free):
    """:func:`can_deliver` with ``free`` = extractable(deck) already known."""
    if barrels_owed(need) == 0:
        return False
    for space in range(NUM_SPACES):
        if may_unload(deck, need, space, free, 0):
            return True
    return False


@njit(cache=True)
def ahead_harbour(state):
    """The harbour the ships of this leg head for: the start harbour while start berths are chosen."""
    if state.phase == PH_START_BERTH:
        return START_HARBOUR
    return state.leg + 1


@njit(cache=True)
def can_finish_unloading(state, deck, moves):
    """With one barrel still owed at this berth: can ``moves`` Barry / Farry moves (or none) bring a
    matching barrel within reach?"""
    occ = occupied(deck)
    return can_complete(occ, owed_barrels(deck, state.need, occ, -1), moves)


@njit(cache=True)
def take_need(state, colour):
    state.need[need_slot(state.need, colour)] -= 1


# =============================================================================================
# Barry Fassel / Farry Bassel
# =============================================================================================


@njit(cache=True)
def fassel_card_ready(state, seat):
    """The Barry / Farry card ``seat`` would use for a move now, or -1."""
    for card in (BARRY, FARRY):
        if has_sailor(state, seat, card) and state.sailor_uses[card] < state.fassel_limit:
            return card
    return -1


@njit(cache=True)
def fassel_moves_left(state, seat):
    """The Barry / Farry moves ``seat`` may still make this turn (fassel_limit per card it may use)."""
    left = 0
    for card in (BARRY, FARRY):
        if has_sailor(state, seat, card) and state.sailor_uses[card] < state.fassel_limit:
            left += state.fassel_limit - state.sailor_uses[card]
    return left


@njit(cache=True)
def apply_move(deck, move):
    a = MOVE_FROM[move]
    b = MOVE_TO[move]
    barrel = deck[a]
    deck[a] = deck[b]
    deck[b] = barrel


@njit(cache=True)
def move_allowed(state, deck, move, moves_after):
    """A slide onto a free adjacent space, or a swap of two different adjacent barrels (each pair
    once). With a pair's second barrel owed (``moves_after`` >= 0: the moves left after this one;
    -1 otherwise), only a move after which those moves can still bring it within reach."""
    a = MOVE_FROM[move]
    b = MOVE_TO[move]
    if deck[a] == EMPTY:
        return False
    if deck[b] != EMPTY and (a > b or deck[a] == deck[b]):
        return False
    if moves_after >= 0:
        apply_move(deck, move)
        ok = can_finish_unloading(state, deck, moves_after)
        apply_move(deck, move)  # a move undoes itself
        return ok
    return True


@njit(cache=True)
def add_fassel_moves(state, seat, mask):
    """Mark the legal Barry / Farry moves in ``mask``; returns how many there are."""
    if state.phase == PH_START_BERTH or state.phase == PH_OVER or fassel_card_ready(state, seat) < 0:
        return 0
    deck = state.deck[seat]
    moves_after = -1
    if state.phase == PH_UNLOAD and state.unloaded > 0:  # a pair started: its second barrel is owed
        moves_after = fassel_moves_left(state, seat) - 1
    n = 0
    for move in range(NUM_MOVES):
        if move_allowed(state, deck, move, moves_after):
            mask[A_MOVE + move] = 1
            n += 1
    return n


# =============================================================================================
# Legal actions
# =============================================================================================


@njit(cache=True)
def fill_legal(state, mask):
    """Set ``mask`` for the player to act (mask arrives zeroed); returns the number of legal actions."""
    seat = state.current_player
    phase = state.phase
    deck = state.deck[seat]
    n = 0
    if phase == PH_START_BERTH or phase == PH_CHOOSE_BERTH:
        harbour = START_HARBOUR if phase == PH_START_BERTH else state.leg + 1
        for berth in range(NUM_BERTHS):
            if state.berth_ship[harbour, berth] == FREE:
                mask[A_BERTH + berth] = 1
                n += 1
    elif phase == PH_ROB_BARREL or phase == PH_STORM_BARREL:
        for i in range(NUM_SPACES):
            if deck[i] != EMPTY:
                mask[A_SPACE + i] = 1
                n += 1
    elif phase == PH_SEASICK or phase == PH_CHAOS_GIVE:
        for card in range(NUM_SAILORS):
            if state.sailor_owner[card] == seat:
                mask[A_SAILOR + card] = 1
                n += 1
    elif phase == PH_CHAOS_TAKE:
        for card in range(NUM_SAILORS):
            owner = state.sailor_owner[card]
            if owner >= 0 and owner != seat:
                mask[A_SAILOR + card] = 1
                n += 1
        if has_sailor(state, seat, STORMY):
            mask[A_PASS] = 1
            n += 1
    elif phase == PH_LOAD_PICK:
        if count_barrels(deck) < NUM_SPACES:
            tile, pos = current_tile_and_berth(state, seat)
            affordable = state.load_paid or state.doubloons[seat] >= BERTH_COST[tile, pos]
            for colour in range(NUM_COLOURS):
                if affordable and state.load_left[colour] > 0 and state.supply[colour] > 0:
                    mask[A_COLOUR + colour] = 1
                    n += 1
        mask[A_PASS] = 1
        n += 1
    elif phase == PH_LOAD_PLACE:
        for i in range(NUM_SPACES):
            if deck[i] == EMPTY:
                mask[A_SPACE + i] = 1
                n += 1
    elif phase == PH_UNLOAD:
        free = extractable(deck)
        moves = fassel_moves_left(state, seat)
        for i in range(NUM_SPACES):
            if deck[i] != EMPTY and may_unload(deck, state.need, i, free, moves):
                mask[A_SPACE + i] = 1
                n += 1
        if state.unloaded == 0:
            mask[A_PASS] = 1
            n += 1
    elif phase == PH_SAILOR:
        tile, pos = current_tile_and_berth(state, seat)
        if state.doubloons[seat] >= BERTH_COST[tile, pos]:
            sailor = state.sailors_drawn < NUM_SAILORS
            barrel = barrel_on_offer(state, tile, pos) >= 0 and count_barrels(deck) < NUM_SPACES
            if sailor and barrel:
                mask[A_SAILOR_BOTH] = 1
                n += 1
            if sailor:
                mask[A_SAILOR_ONLY] = 1
                n += 1
            if barrel:
                mask[A_BARREL_ONLY] = 1
                n += 1
        mask[A_PASS] = 1
        n += 1
    elif phase == PH_MAPS:
        tile, pos = current_tile_and_berth(state, seat)
        if state.maps_drawn < NUM_MAPS and state.doubloons[seat] >= BERTH_COST[tile, pos]:
            mask[A_TAKE_MAPS] = 1
            n += 1
        mask[A_PASS] = 1
        n += 1
    elif phase == PH_END_TURN:
        mask[A_PASS] = 1
        n += 1
    return n + add_fassel_moves(state, seat, mask)


@njit(cache=True)
def barrel_on_offer(state, tile, pos):
    """Colour of the barrel shown with the sailor at this berth if the supply has one, else -1."""
    for colour in range(NUM_COLOURS):
        if BERTH_LOAD[tile, pos, colour] > 0 and state.supply[colour] > 0:
            return colour
    return -1


@njit(cache=True)
def legal_mask(state, seat, mask):
    if state.terminal or seat != state.current_player:
        return
    fill_legal(state, mask)


# =============================================================================================
# The course of the game
# =============================================================================================


@njit(cache=True)
def reset(state, config, seed):
    state.fassel_limit = config.fassel_limit
    state.hire_bonus_here = config.hire_bonus_here
    state.shaping = config.shaping
    state.route = config.route
    for colour in range(NUM_COLOURS):
        state.supply[colour] = BARRELS_PER_COLOUR[colour]
    state.berth_ship[:, :] = FREE
    state.ship_harbour[:] = -1
    state.ship_berth[:] = -1
    deal_harbours(state)
    state.revealed[START_HARBOUR] = 1
    state.revealed[dest_harbour(state)] = 1
    if config.reveal_all:  # each tile is turned face up as it is laid (the rulebook's setup)
        state.revealed[: dest_harbour(state) + 1] = 1
    for card in range(NUM_SAILORS):
        state.sailor_deck[card] = card
        state.sailor_owner[card] = OWNER_DECK
    shuffle(state, state.sailor_deck, NUM_SAILORS)
    for card in range(NUM_MAPS):
        state.map_deck[card] = card
        state.map_owner[card] = OWNER_DECK
    shuffle(state, state.map_deck, NUM_MAPS)
    state.chaos_take = -1
    state.chaos_given = -1
    state.phase = PH_START_BERTH
    state.current_player = 0
    settle(state)


@njit(cache=True)
def deal_harbours(state):
    """Lay a random tile of the matching shape into every recess of the route (-1 past its end)."""
    state.harbour_tile[:] = -1
    for shape in range(3):
        first = SHAPE_FIRST[shape]
        count = SHAPE_COUNT[shape]
        tiles = np.empty(count, np.int8)
        for k in range(count):
            tiles[k] = first + k
        shuffle(state, tiles, count)
        used = 0
        for harbour in range(NUM_HARBOURS):
            if ROUTE_SHAPE[state.route, harbour] == shape:
                state.harbour_tile[harbour] = tiles[used]
                used += 1
    state.harbour_tile[START_HARBOUR] = START_TILE_ID
    state.harbour_tile[dest_harbour(state)] = DEST_TILE_ID


@njit(cache=True)
def dock(state, ship, harbour, berth):
    old = state.ship_harbour[ship]
    if old >= 0:
        state.berth_ship[old, state.ship_berth[ship]] = FREE
    state.berth_ship[harbour, berth] = ship
    state.ship_harbour[ship] = harbour
    state.ship_berth[ship] = berth


@njit(cache=True)
def begin_leg(state):
    """All ships lie in harbour ``leg``: fix the west-to-east order and turn up the next harbour."""
    k = 0
    for berth in range(NUM_BERTHS):
        ship = state.berth_ship[state.leg, berth]
        if ship != FREE:
            state.move_order[k] = ship
            k += 1
    state.revealed[state.leg + 1] = 1
    state.mover = -1


@njit(cache=True)
def next_ship(state):
    """Hand the turn to the next ship of this leg (ships without a player dock by themselves)."""
    while True:
        state.mover += 1
        if state.mover >= NUM_SHIPS:
            if state.leg + 1 == dest_harbour(state):
                finish_game(state)
                return
            state.leg += 1
            begin_leg(state)
            continue
        ship = state.move_order[state.mover]
        target = state.leg + 1
        if not is_player_ship(state, ship):
            for berth in range(NUM_BERTHS - 1, -1, -1):  # easternmost free berth, no actions
                if state.berth_ship[target, berth] == FREE:
                    dock(state, ship, target, berth)
                    break
            continue
        state.current_player = ship
        state.phase = PH_CHOOSE_BERTH
        state.sailor_uses[:] = 0
        state.chaos_given = -1
        state.chaos_take = -1
        return


@njit(cache=True)
def finish_game(state):
    """Score the treasure maps and hand out placings (ties: the ship further west wins)."""
    n = state.num_players
    for seat in range(n):
        state.treasure[seat] = treasure_value(state, seat)
        state.doubloons[seat] += state.treasure[seat]
    for seat in range(n):
        rank = 0
        for other in range(n):
            if other == seat:
                continue
            if state.doubloons[other] > state.doubloons[seat] or (
                    state.doubloons[other] == state.doubloons[seat] and state.ship_berth[other] < state.ship_berth[seat]):
                rank += 1
        state.reward[seat] += 1.0 - 2.0 * rank / (n - 1)
    state.terminal = 1
    state.current_player = -1
    state.phase = PH_OVER


@njit(cache=True)
def start_berths_done(state):
    """Every player has picked a start berth: the other ships fill the rest, then the voyage begins."""
    for ship in range(state.num_players, NUM_SHIPS):
        for berth in range(NUM_BERTHS):
            if state.berth_ship[START_HARBOUR, berth] == FREE:
                dock(state, ship, START_HARBOUR, berth)
                break
    state.leg = 0
    begin_leg(state)
    next_ship(state)


# ---- the stages of a turn -------------------------------------------------------------------


@njit(cache=True)
def lose_whole_deck(state, seat):
    deck = state.deck[seat]
    for i in range(NUM_SPACES):
        if deck[i] != EMPTY:
            state.supply[deck[i] - 1] += 1
            deck[i] = EMPTY


@njit(cache=True)
def run_stages(state):
    """Carry out the docked ship's berth from ``state.stage`` on, until a decision is needed."""
    seat = state.current_player
    tile, pos = current_tile_and_berth(state, seat)
    while True:
        stage = state.stage
        state.stage = stage + 1  # a decision below resumes at the following stage
        if stage == ST_ARRIVE:
            arrival_bonus(state, seat, BERTH_SYMBOL[tile, pos])
        elif stage == ST_ROB_BARREL:
            if BERTH_ROB_BARREL[tile, pos] > 0 and not has_sailor(state, seat, PIT):
                if lose_barrels(state, seat, BERTH_ROB_BARREL[tile, pos], PH_ROB_BARREL):
                    return
        elif stage == ST_ROB_DOUBLOONS:
            if BERTH_ROB[tile, pos] > 0 and not has_sailor(state, seat, PIRANHA):
                pay(state, seat, BERTH_ROB[tile, pos])
        elif stage == ST_SEASICK:
            if BERTH_SEASICK[tile, pos] > 0:
                if count_sailors(state, seat) <= BERTH_SEASICK[tile, pos]:
                    for card in range(NUM_SAILORS):
                        if state.sailor_owner[card] == seat:
                            state.sailor_owner[card] = OWNER_BOX
                else:
                    state.to_give_up = BERTH_SEASICK[tile, pos]
                    state.phase = PH_SEASICK
                    return
        elif stage == ST_STORM_BARRELS:
            if BERTH_STORM[tile, pos] > 0 and not has_sailor(state, seat, STORMY):
                if lose_barrels(state, seat, BERTH_STORM[tile, pos], PH_STORM_BARREL):
                    return
        elif stage == ST_STORM_REPAIR:
            if BERTH_REPAIR[tile, pos] > 0 and not has_sailor(state, seat, STORMY):
                pay(state, seat, BERTH_REPAIR[tile, pos])
        elif stage == ST_CHAOS:
            if BERTH_CHAOS[tile, pos] > 0 and count_sailors(state, seat) > 0 and others_have_sailors(state, seat):
                state.phase = PH_CHAOS_TAKE
                return
        elif stage == ST_MAIN:
            kind = BERTH_KIND[tile, pos]
            if kind == KIND_LOAD:
                for colour in range(NUM_COLOURS):
                    state.load_left[colour] = BERTH_LOAD[tile, pos, colour]
                state.load_paid = 0
                state.phase = PH_LOAD_PICK
                return
            if kind == KIND_UNLOAD:
                for k in range(NUM_COLOURS + 1):
                    state.need[k] = BERTH_NEED[tile, pos, k]
                state.unloaded = 0
                state.phase = PH_UNLOAD
                return
            if kind == KIND_SAILOR:
                state.phase = PH_SAILOR
                return
            if kind == KIND_MAPS:
                state.phase = PH_MAPS
                return
        elif stage == ST_END:
            if fassel_card_ready(state, seat) >= 0:
                state.phase = PH_END_TURN
                return
        else:
            clear_berth_state(state)
            next_ship(state)
            return


@njit(cache=True)
def clear_berth_state(state):
    state.load_left[:] = 0
    state.load_paid = 0
    state.need[:] = 0
    state.unloaded = 0
    state.to_give_up = 0
    state.chaos_take = -1


@njit(cache=True)
def arrival_bonus(state, seat, symbol):
    if symbol == SYMBOL_FISH or symbol == SYMBOL_SAIL:
        for card in range(NUM_SAILORS):
            if state.sailor_owner[card] == seat:
                state.doubloons[seat] += SAILOR_FISH[card] if symbol == SYMBOL_FISH else SAILOR_SAIL[card]


@njit(cache=True)
def lose_barrels(state, seat, count, phase):
    """Lose ``count`` barrels of the player's choice; True if a choice is needed (phase set)."""
    barrels = count_barrels(state.deck[seat])
    if barrels == 0:
        return False
    if barrels <= count:
        lose_whole_deck(state, seat)
        return False
    state.to_give_up = count
    state.phase = phase
    return True


@njit(cache=True)
def others_have_sailors(state, seat):
    for card in range(NUM_SAILORS):
        owner = state.sailor_owner[card]
        if owner >= 0 and owner != seat:
            return True
    return False


@njit(cache=True)
def draw_sailor(state, seat, tile, pos):
    card = state.sailor_deck[state.sailors_drawn]
    state.sailors_drawn += 1
    state.sailor_owner[card] = seat
    if state.hire_bonus_here:  # "with immediate effect": a fisher / sail sister pays on this berth too
        symbol = BERTH_SYMBOL[tile, pos]
        if symbol == SYMBOL_FISH:
            state.doubloons[seat] += SAILOR_FISH[card]
        elif symbol == SYMBOL_SAIL:
            state.doubloons[seat] += SAILOR_SAIL[card]


@njit(cache=True)
def unload_barrel(state, seat, space, pos):
    """Pull the barrel off, pay its sailor bonuses; when the berth's barrels are all off, its payout."""
    deck = state.deck[seat]
    colour = deck[space] - 1
    deck[space] = EMPTY
    state.supply[colour] += 1
    take_need(state, colour)
    state.unloaded += 1
    bonus = 0
    for card in range(NUM_SAILORS):
        if has_sailor(state, seat, card):
            bonus += int(SAILOR_COLOUR_BONUS[card, colour])
            if SAILOR_PLAZA[card] == pos:
                bonus += 1
    state.doubloons[seat] += bonus
    return barrels_owed(state.need) == 0


# ---- applying one action --------------------------------------------------------------------


@njit(cache=True)
def apply_action(state, action):
    seat = state.current_player
    phase = state.phase
    if action >= A_MOVE:
        card = fassel_card_ready(state, seat)
        state.sailor_uses[card] += 1
        apply_move(state.deck[seat], action - A_MOVE)
        return
    deck = state.deck[seat]
    if phase == PH_START_BERTH:
        berth = action - A_BERTH
        dock(state, seat, START_HARBOUR, berth)
        state.doubloons[seat] = BERTH_START[START_TILE_ID, berth]
        if seat + 1 < state.num_players:
            state.current_player = seat + 1
        else:
            start_berths_done(state)
        return
    if phase == PH_CHOOSE_BERTH:
        dock(state, seat, state.leg + 1, action - A_BERTH)
        state.stage = ST_ARRIVE
        run_stages(state)
        return
    tile, pos = current_tile_and_berth(state, seat)
    if phase == PH_ROB_BARREL or phase == PH_STORM_BARREL:
        space = action - A_SPACE
        state.supply[deck[space] - 1] += 1
        deck[space] = EMPTY
        state.to_give_up -= 1
        if state.to_give_up == 0:
            run_stages(state)
    elif phase == PH_SEASICK:
        state.sailor_owner[action - A_SAILOR] = OWNER_BOX
        state.to_give_up -= 1
        if state.to_give_up == 0:
            run_stages(state)
    elif phase == PH_CHAOS_TAKE:
        if action == A_PASS:
            run_stages(state)
        else:
            state.chaos_take = action - A_SAILOR
            state.phase = PH_CHAOS_GIVE
    elif phase == PH_CHAOS_GIVE:
        give = action - A_SAILOR
        take = state.chaos_take
        state.sailor_owner[give] = state.sailor_owner[take]
        state.sailor_owner[take] = seat
        state.chaos_given = give
        state.chaos_take = -1
        run_stages(state)
    elif phase == PH_LOAD_PICK:
        if action == A_PASS:
            run_stages(state)
            return
        colour = action - A_COLOUR
        if not state.load_paid:
            pay(state, seat, BERTH_COST[tile, pos])  # the full price, however many barrels follow
            state.load_paid = 1
        state.load_left[colour] -= 1
        take_from_supply(state, colour)
    elif phase == PH_LOAD_PLACE:
        deck[action - A_SPACE] = state.hand
        state.hand = 0
        if BERTH_KIND[tile, pos] == KIND_LOAD:
            state.phase = PH_LOAD_PICK
        else:
            run_stages(state)
    elif phase == PH_UNLOAD:
        if action == A_PASS:
            run_stages(state)
            return
        if unload_barrel(state, seat, action - A_SPACE, pos):
            state.doubloons[seat] += BERTH_PAY[tile, pos]
            run_stages(state)
    elif phase == PH_SAILOR:
        if action == A_PASS:
            run_stages(state)
            return
        pay(state, seat, BERTH_COST[tile, pos])
        if action == A_SAILOR_BOTH or action == A_SAILOR_ONLY:
            draw_sailor(state, seat, tile, pos)
        if action == A_SAILOR_BOTH or action == A_BARREL_ONLY:
            take_from_supply(state, barrel_on_offer(state, tile, pos))
        else:
            run_stages(state)
    elif phase == PH_MAPS:
        if action == A_TAKE_MAPS:
            pay(state, seat, BERTH_COST[tile, pos])
            for _ in range(BERTH_MAPS[tile, pos]):
                if state.maps_drawn < NUM_MAPS:
                    state.map_owner[state.map_deck[state.maps_drawn]] = seat
                    state.maps_drawn += 1
        run_stages(state)
    elif phase == PH_END_TURN:
        run_stages(state)


@njit(cache=True)
def take_from_supply(state, colour):
    state.supply[colour] -= 1
    state.hand = colour + 1
    state.phase = PH_LOAD_PLACE


@njit(cache=True)
def settle(state):
    """Take every decision that has exactly one legal action (a forced move is no decision)."""
    while not state.terminal:
        mask = state.scratch
        mask[:] = 0
        if fill_legal(state, mask) != 1:
            return
        for action in range(NUM_ACTIONS):
            if mask[action]:
                apply_action(state, action)
                break


@njit(cache=True)
def step(state, action):
    state.reward[:] = 0.0
    if state.shaping == 0.0:
        apply_action(state, action)
        settle(state)
        return
    before = state.doubloons.copy()
    apply_action(state, action)
    settle(state)
    for seat in range(state.num_players):  # shaping: doubloons gained or lost this step
        state.reward[seat] += state.shaping * (state.doubloons[seat] - before[seat])


# =============================================================================================
# Observation
# =============================================================================================


@njit(cache=True)
def relative(state, ship, seat):
    """Ships as the observer sees them: itself first, then the next seats, then ships without a player."""
    n = int(state.num_players)
    if ship < n:
        return (int(ship) - int(seat) + n) % n
    return int(ship)


@njit(cache=True)
def observe(state, seat, out):
    n = state.num_players
    own_free = 0  # the extractable barrels of the seat's own deck, for the ``ahead`` block
    out[O_PHASE + int(state.phase)] = 1.0
    for harbour in range(dest_harbour(state) + 1):
        out[O_ROUTE + harbour * 5 + int(ROUTE_SHAPE[state.route, harbour])] = 1.0
        if state.revealed[harbour]:
            out[O_VISIBLE + harbour] = 1.0
            write_berth_features(out, O_BERTHS + harbour * NUM_BERTHS * BERTH_FEATURES, BERTH_FEATURES,
                                 state.harbour_tile[harbour])
    for ship in range(NUM_SHIPS):
        rel = relative(state, ship, seat)
        harbour = int(state.ship_harbour[ship])
        if harbour >= 0:
            out[O_SHIPS + (rel * NUM_HARBOURS + harbour) * NUM_BERTHS + int(state.ship_berth[ship])] = 1.0
        if ship < n:
            out[O_IS_PLAYER + rel] = 1.0
            deck = state.deck[ship]
            free = extractable(deck)
            if ship == seat:
                own_free = free
            for i in range(NUM_SPACES):
                if deck[i] != EMPTY:
                    out[O_DECKS + (rel * NUM_SPACES + i) * NUM_COLOURS + int(deck[i]) - 1] = 1.0
                    if (free >> i) & 1:
                        out[O_EXTRACT + rel * NUM_SPACES + i] = 1.0
            out[O_DOUBLOONS + rel] = state.doubloons[ship]
            out[O_MAP_COUNTS + rel] = count_maps(state, ship)
    if state.current_player >= 0:
        out[O_TO_MOVE + relative(state, state.current_player, seat)] = 1.0
    for card in range(NUM_SAILORS):
        owner = state.sailor_owner[card]
        if owner >= 0:
            out[O_SAILORS + relative(state, owner, seat) * NUM_SAILORS + card] = 1.0
        elif owner == OWNER_BOX:
            out[O_BOXED + card] = 1.0
        out[O_USES + card] = state.sailor_uses[card]
    out[O_SAILOR_PILE] = NUM_SAILORS - state.sailors_drawn
    for card in range(NUM_MAPS):
        if state.map_owner[card] == seat:
            out[O_OWN_MAPS + card] = 1.0
    if seat < n:
        out[O_TREASURE] = treasure_value(state, seat)
    out[O_MAP_PILE] = NUM_MAPS - state.maps_drawn
    for colour in range(NUM_COLOURS):
        out[O_SUPPLY + colour] = state.supply[colour]
        out[O_LOAD_LEFT + colour] = state.load_left[colour]
    if state.hand > 0:
        out[O_HAND + int(state.hand) - 1] = 1.0
    out[O_LOAD_PAID] = state.load_paid
    for k in range(NUM_COLOURS + 1):
        out[O_NEED + k] = state.need[k]
    out[O_UNLOADED] = state.unloaded
    out[O_GIVE_UP] = state.to_give_up
    if state.chaos_take >= 0:
        out[O_CHAOS_TAKE + int(state.chaos_take)] = 1.0
    if state.chaos_given >= 0 and state.current_player >= 0:
        out[O_CHAOS_GIVEN + int(state.chaos_given)] = 1.0
    observe_ahead(state, seat, out, own_free)
    if seat < n:
        observe_deck_geometry(state.deck[seat], own_free, out)


@njit(cache=True, inline="always")
def write_berth_features(out, base, stride, tile):
    """A face-up tile's berths, west to east, as rows of BERTH_FEATURE_NAMES at ``out[base:]``, one
    every ``stride`` floats: a harbour of the ``berths`` block or the ``ahead`` block."""
    features = TILE_FEATURES[tile]
    for pos in range(NUM_BERTHS):
        row = base + pos * stride
        first = pos * BERTH_FEATURES
        for k in range(BERTH_FEATURES):
            out[row + k] = features[first + k]


@njit(cache=True)
def observe_ahead(state, seat, out, free):
    """The ``ahead`` block: the berths of the harbour the ships of this leg head for (``free`` =
    extractable(the seat's deck), already known to :func:`observe`)."""
    harbour = ahead_harbour(state)
    visible = state.revealed[harbour] != 0
    tile = state.harbour_tile[harbour]
    own_ship = seat < state.num_players
    money = state.doubloons[seat] if own_ship else 0
    deck = state.deck[seat if own_ship else 0]  # read only for the seat's own ship
    sailors = own_sailors(state, seat)
    room = NUM_SPACES - count_barrels(deck)
    if visible:
        write_berth_features(out, O_AHEAD, AHEAD_FEATURES, tile)
    for pos in range(NUM_BERTHS):
        base = O_AHEAD + pos * AHEAD_FEATURES
        ship = state.berth_ship[harbour, pos]
        if ship == FREE:
            out[base + AF_FREE] = 1.0
        else:
            out[base + AF_SHIP + relative(state, ship, seat)] = 1.0
        if not visible:
            continue
        out[base + AF_FACE_UP] = 1.0
        if money >= BERTH_COST[tile, pos]:
            out[base + AF_AFFORD] = 1.0
        if own_ship:
            if can_deliver_from(deck, BERTH_NEED[tile, pos], free):
                out[base + AF_UNLOAD] = 1.0
            write_own_berth_terms(out, base, tile, pos, sailors, room, state.supply)


@njit(cache=True, inline="always")
def own_sailors(state, seat):
    """The seat's sailor cards as a bit mask, and what its fishers and sail sisters pay on arrival."""
    owned = 0
    fish = 0
    sail = 0
    for card in range(NUM_SAILORS):
        if state.sailor_owner[card] == seat:
            owned |= 1 << card
            fish += SAILOR_FISH[card]
            sail += SAILOR_SAIL[card]
    return owned, fish, sail


@njit(cache=True, inline="always")
def write_own_berth_terms(out, base, tile, pos, sailors, room, supply):
    """The ``ahead`` row's terms of the seat's own sailors (``sailors`` = own_sailors) and deck
    (``room`` free spaces): see AHEAD_FEATURE_NAMES."""
    owned, fish, sail = sailors
    symbol = BERTH_SYMBOL[tile, pos]
    if symbol == SYMBOL_FISH:
        out[base + AF_ARRIVAL] = fish
    elif symbol == SYMBOL_SAIL:
        out[base + AF_ARRIVAL] = sail
    sheltered = 0
    if (owned >> PIT) & 1 and BERTH_ROB_BARREL[tile, pos] > 0:
        sheltered += 1
    if (owned >> PIRANHA) & 1 and BERTH_ROB[tile, pos] > 0:
        sheltered += 1
    if (owned >> STORMY) & 1 and (BERTH_STORM[tile, pos] > 0 or BERTH_REPAIR[tile, pos] > 0):
        sheltered += 1
    out[base + AF_SHELTERED] = sheltered
    if BERTH_KIND[tile, pos] == KIND_UNLOAD:
        out[base + AF_PLAZA] = count_bits(owned & PLAZA_CARDS[pos])
    offered = 0
    for colour in range(NUM_COLOURS):
        offered += min(BERTH_LOAD[tile, pos, colour], supply[colour])
    out[base + AF_LOADABLE] = min(offered, room)


@njit(cache=True)
def observe_deck_geometry(deck, free, out):
    """The ``deck_geometry`` block of ``deck`` (``free`` = extractable(deck))."""
    occ = occupied(deck)
    for i in range(NUM_SPACES):
        in_way = occ & BLOCKERS[i]
        if (occ >> i) & 1:
            if in_way != 0 and in_way & (in_way - 1) == 0:  # a single barrel keeps barrel i stuck
                holder = count_bits(in_way - 1)  # that barrel's space
                out[O_GEOMETRY + holder * DECK_GEOMETRY_FEATURES + GF_FREES] += 1.0
        else:
            base = O_GEOMETRY + i * DECK_GEOMETRY_FEATURES
            out[base + GF_BURIES] = count_bits(free & CROSSES[i])
            if in_way != 0:
                out[base + GF_BLOCKED] = 1.0
            out[base + GF_SHADOWS] = count_bits(~occ & CROSSES[i])


# =============================================================================================
# Determinization (for search agents)
# =============================================================================================


@njit(cache=True)
def determinize(state, seat, seed):
    """Resample what ``seat`` cannot know: face-down harbour tiles, the other players' treasure maps,
    the order of both face-down piles; then reseed the generator from ``seed``."""
    seed_rng(state, seed)
    redeal_hidden_tiles(state)
    redeal_maps(state, seat)
    rest = NUM_SAILORS - state.sailors_drawn
    if rest > 1:
        # sorted first: the seat knows which sailor cards are still in the pile, not their order,
        # so the new order must not depend on the true one (only on the seed)
        state.sailor_deck[state.sailors_drawn:].sort()
        shuffle(state, state.sailor_deck[state.sailors_drawn:], rest)


@njit(cache=True)
def redeal_hidden_tiles(state):
    for shape in range(3):
        first = SHAPE_FIRST[shape]
        count = SHAPE_COUNT[shape]
        pool = np.empty(count, np.int8)
        size = 0
        for tile in range(first, first + count):
            shown = False
            for harbour in range(NUM_HARBOURS):
                if state.revealed[harbour] and state.harbour_tile[harbour] == tile:
                    shown = True
            if not shown:
                pool[size] = tile
                size += 1
        shuffle(state, pool, size)
        used = 0
        for harbour in range(NUM_HARBOURS):
            if ROUTE_SHAPE[state.route, harbour] == shape and not state.revealed[harbour]:
                state.harbour_tile[harbour] = pool[used]
                used += 1


@njit(cache=True)
def redeal_maps(state, seat):
    """Deal the maps ``seat`` does not hold afresh: each other player keeps his count, the rest is the pile."""
    counts = np.zeros(MAX_PLAYERS, np.int64)
    pool = np.empty(NUM_MAPS, np.int8)
    size = 0
    for card in range(NUM_MAPS):
        owner = state.map_owner[card]
        if owner != seat:
            pool[size] = card
            size += 1
            if owner >= 0:
                counts[owner] += 1
    shuffle(state, pool, size)
    k = 0
    drawn = 0
    for card in range(NUM_MAPS):  # the pile's drawn part: any order of the held cards
        if state.map_owner[card] == seat:
            state.map_deck[drawn] = card
            drawn += 1
    for other in range(state.num_players):
        if other == seat:
            continue
        for _ in range(counts[other]):
            card = pool[k]
            k += 1
            state.map_owner[card] = other
            state.map_deck[drawn] = card
            drawn += 1
    while k < size:
        card = pool[k]
        k += 1
        state.map_owner[card] = OWNER_DECK
        state.map_deck[drawn] = card
        drawn += 1


# =============================================================================================
# Is a record a game the rules can reach? (envs.core.validate.check_records)
# =============================================================================================

STATE_BOUNDS = {
    "phase": (0, NUM_PHASES - 1),
    "stage": (0, ST_DONE + 1),  # ST_DONE + 1 once a turn is over (reset when the next ship docks)
    "leg": (0, NUM_HARBOURS - 2),
    "mover": (-1, NUM_SHIPS),  # -1 between legs, NUM_SHIPS once the last ship has moved
    "move_order": (0, NUM_SHIPS - 1),
    "route": (0, len(ROUTE_NAMES) - 1),
    "harbour_tile": (-1, NUM_TILES - 1),
    "revealed": (0, 1),
    "berth_ship": (FREE, NUM_SHIPS - 1),
    "ship_harbour": (-1, NUM_HARBOURS - 1),
    "ship_berth": (-1, NUM_BERTHS - 1),
    "deck": (EMPTY, NUM_COLOURS),
    "supply": (0, int(BARRELS_PER_COLOUR.max())),
    "hand": (0, NUM_COLOURS),
    "doubloons": (0, MAX_DOUBLOONS),
    "treasure": (0, MAX_TREASURE),
    "sailor_owner": (OWNER_BOX, MAX_PLAYERS - 1),
    "sailor_deck": (0, NUM_SAILORS - 1),
    "sailors_drawn": (0, NUM_SAILORS),
    "sailor_uses": (0, 3),
    "map_owner": (OWNER_DECK, MAX_PLAYERS - 1),
    "map_deck": (0, NUM_MAPS - 1),
    "maps_drawn": (0, NUM_MAPS),
    "load_left": (0, int(BERTH_LOAD.max())),
    "load_paid": (0, 1),
    "need": (0, int(BERTH_NEED.sum(axis=2).max())),
    "unloaded": (0, int(BERTH_NEED.sum(axis=2).max())),
    "to_give_up": (0, int(max(BERTH_ROB_BARREL.max(), BERTH_STORM.max(), BERTH_SEASICK.max()))),
    "chaos_take": (-1, NUM_SAILORS - 1),
    "chaos_given": (-1, NUM_SAILORS - 1),
    "fassel_limit": (1, 3),
    "hire_bonus_here": (0, 1),
    "shaping": (0.0, 1.0),
    "scratch": (0, 1),
}

(BAD_TILES, BAD_REVEALED, BAD_BARRELS, BAD_EMPTY_SEAT, BAD_BERTHS, BAD_LEG, BAD_POSITIONS, BAD_MOVE_ORDER,
 BAD_CURRENT, BAD_SAILOR_PILE, BAD_MAP_PILE, BAD_TREASURE, BAD_TERMINAL, BAD_START, BAD_DOUBLOONS, BAD_BERTH_PHASE,
 BAD_STAGE, BAD_PENDING, BAD_HAND, BAD_LOADING, BAD_UNLOADING, BAD_GIVE_UP, BAD_CHAOS, BAD_CHAOS_GIVEN,
 BAD_FASSEL) = range(1, 26)
STATE_PROBLEMS = (
    "ok",
    "the harbour tiles do not fit the route: a recess without a tile of its shape, a tile past the destination, "
    "or a tile laid twice",
    "a harbour is face down although the ships have reached it or set off for it (or the start or destination), "
    "or one past the route's end is face up",
    "barrels are not conserved: supply, decks and the barrel in hand must hold 10 purple, 15 orange, 20 colourless",
    "a seat without a player holds barrels, doubloons, treasure, sailors or treasure maps",
    "ships and berths disagree: a ship not on the berth it records, a berth naming a ship lying elsewhere, "
    "or a ship past the destination",
    "leg is past the route's last leg",
    "the ships' harbours do not fit the leg and the turn order (ships that moved lie in the next harbour, "
    "the others in this one; all at the destination once the game is over)",
    "move_order is not the ships of this leg from west to east",
    "current_player is not the player whose ship is moving",
    "the sailor pile is inconsistent: sailor_deck is not a permutation, or its drawn / face-down parts "
    "disagree with the owners and sailors_drawn",
    "the treasure-map pile is inconsistent: map_deck is not a permutation, or its drawn / face-down parts "
    "disagree with the owners and maps_drawn",
    "treasure is scored only at the end, and then is what each player's treasure maps are worth",
    "phase and terminal disagree: the phase is 'game over' exactly when the game has ended",
    "choosing start berths: exactly the seats before the one to act lie in the start harbour with their "
    "berth's doubloons, and nothing has been loaded, hired or drawn yet",
    "a player holds more doubloons than the harbours sailed so far can have paid",
    "the decision asked does not fit the berth the ship lies on (e.g. unloading at a loading berth)",
    "stage does not follow the phase: the turn would resume at the wrong step",
    "a field of the pending berth (hand, load_left, load_paid, need, unloaded, to_give_up, chaos_take) is set "
    "outside its decision",
    "a barrel in hand with no free deck space to place it",
    "loading: the barrels left to take do not fit the berth (all of them until the price is paid, fewer after)",
    "unloading: the barrels owed and those unloaded do not add up to the berth's, or a started pair cannot "
    "be finished (not even with the Barry / Farry moves left)",
    "pirates / storm / seasickness: nothing to choose (to_give_up must be at least 1 and less than what the "
    "player holds), or the player is protected by Assecuranza Pit / Stormy D.",
    "storm chaos: the player or the others hold no sailor, or the card chosen to take is not another player's",
    "chaos_given is not a card the player to act gave away in storm chaos this turn",
    "Barry Fassel / Farry Bassel: moves counted on another card, or more than fassel_limit",
)
assert len(STATE_PROBLEMS) == BAD_FASSEL + 1

#: The stage a decision resumes at (-1: a phase not asked while docked).
RESUME_STAGE = np.full(NUM_PHASES, -1, np.int8)
RESUME_STAGE[[PH_ROB_BARREL, PH_SEASICK, PH_STORM_BARREL, PH_CHAOS_TAKE, PH_CHAOS_GIVE]] = (
    ST_ROB_BARREL + 1, ST_SEASICK + 1, ST_STORM_BARRELS + 1, ST_CHAOS + 1, ST_CHAOS + 1)
RESUME_STAGE[[PH_LOAD_PICK, PH_LOAD_PLACE, PH_UNLOAD, PH_SAILOR, PH_MAPS, PH_END_TURN]] = ST_MAIN + 1
RESUME_STAGE[PH_END_TURN] = ST_END + 1


@njit(cache=True)
def check_state(state):
    """0 if the record is a game the rules can reach, else the code of its first problem (STATE_PROBLEMS)."""
    code = check_route(state)
    if code == 0:
        code = check_barrels_and_empty_seats(state)
    if code == 0:
        code = check_ships(state)  # from here on the ship to act lies on a real berth
    if code == 0:
        code = check_piles(state)
    if code == 0:
        code = check_money(state)
    if code == 0:
        code = check_start_berths(state)
    if code == 0:
        code = check_berth_decision(state)
    if code == 0:
        code = check_pending_fields(state)
    return code


@njit(cache=True)
def check_route(state):
    dest = dest_harbour(state)
    if state.leg > dest - 1:
        return BAD_LEG
    laid = np.zeros(NUM_TILES, np.int8)
    for harbour in range(NUM_HARBOURS):
        shape = ROUTE_SHAPE[state.route, harbour]
        tile = state.harbour_tile[harbour]
        if shape < 0:
            if tile != -1 or state.revealed[harbour]:
                return BAD_TILES if tile != -1 else BAD_REVEALED
            continue
        if tile < 0 or TILE_SHAPE[tile] != shape or laid[tile]:
            return BAD_TILES
        laid[tile] = 1
    if not state.revealed[START_HARBOUR] or not state.revealed[dest]:
        return BAD_REVEALED
    if state.phase != PH_START_BERTH:
        for harbour in range(state.leg + 2):
            if not state.revealed[harbour]:
                return BAD_REVEALED
    return 0


@njit(cache=True)
def check_barrels_and_empty_seats(state):
    for colour in range(NUM_COLOURS):
        total = state.supply[colour] + (1 if state.hand == colour + 1 else 0)
        for seat in range(MAX_PLAYERS):
            for i in range(NUM_SPACES):
                if state.deck[seat, i] == colour + 1:
                    total += 1
        if total != BARRELS_PER_COLOUR[colour]:
            return BAD_BARRELS
    n = state.num_players
    for seat in range(n, MAX_PLAYERS):
        if count_barrels(state.deck[seat]) or state.doubloons[seat] or state.treasure[seat]:
            return BAD_EMPTY_SEAT
    for card in range(NUM_SAILORS):
        if state.sailor_owner[card] >= n:
            return BAD_EMPTY_SEAT
    for card in range(NUM_MAPS):
        if state.map_owner[card] >= n:
            return BAD_EMPTY_SEAT
    return 0


@njit(cache=True)
def check_ships(state):
    """Berth table and ship positions agree; the ships fit the leg, the turn order and the player to act."""
    dest = dest_harbour(state)
    for ship in range(NUM_SHIPS):
        harbour = state.ship_harbour[ship]
        berth = state.ship_berth[ship]
        if (harbour < 0) != (berth < 0) or harbour > dest:
            return BAD_BERTHS
        if harbour >= 0 and state.berth_ship[harbour, berth] != ship:
            return BAD_BERTHS
    for harbour in range(NUM_HARBOURS):
        for berth in range(NUM_BERTHS):
            ship = state.berth_ship[harbour, berth]
            if ship != FREE and (state.ship_harbour[ship] != harbour or state.ship_berth[ship] != berth):
                return BAD_BERTHS
    if state.phase == PH_START_BERTH:
        return 0  # check_start_berths
    if state.terminal:
        for ship in range(NUM_SHIPS):
            if state.ship_harbour[ship] != dest or state.leg != dest - 1:
                return BAD_POSITIONS
        return 0
    seen = np.zeros(NUM_SHIPS, np.int8)
    for k in range(NUM_SHIPS):
        seen[state.move_order[k]] = 1
    if seen.sum() != NUM_SHIPS:
        return BAD_MOVE_ORDER
    if state.mover < 0 or state.mover >= NUM_SHIPS:
        return BAD_POSITIONS
    west = -1
    for k in range(NUM_SHIPS):
        ship = state.move_order[k]
        moved = k < state.mover or (k == state.mover and state.phase != PH_CHOOSE_BERTH)
        if state.ship_harbour[ship] != state.leg + (1 if moved else 0):
            return BAD_POSITIONS
        if not moved:  # the ships still to leave lie west to east in the order they leave
            if state.ship_berth[ship] <= west:
                return BAD_MOVE_ORDER
            west = state.ship_berth[ship]
    if state.current_player != state.move_order[state.mover]:
        return BAD_CURRENT
    return 0


@njit(cache=True)
def check_piles(state):
    for pile in range(2):
        size = NUM_SAILORS if pile == 0 else NUM_MAPS
        drawn = state.sailors_drawn if pile == 0 else state.maps_drawn
        seen = np.zeros(size, np.int8)
        for k in range(size):
            card = state.sailor_deck[k] if pile == 0 else state.map_deck[k]
            seen[card] += 1
            owner = state.sailor_owner[card] if pile == 0 else state.map_owner[card]
            if seen[card] > 1 or (owner == OWNER_DECK) != (k >= drawn):
                return BAD_SAILOR_PILE if pile == 0 else BAD_MAP_PILE
    return 0


@njit(cache=True)
def check_money(state):
    if state.terminal != (state.phase == PH_OVER):
        return BAD_TERMINAL
    for seat in range(state.num_players):
        if state.terminal:
            if state.treasure[seat] != treasure_value(state, seat):
                return BAD_TREASURE
        elif state.treasure[seat] != 0:
            return BAD_TREASURE
        harbour = state.ship_harbour[seat]
        bound = DOUBLOON_BOUND[state.route, harbour if harbour >= 0 else 0] + state.treasure[seat]
        if state.doubloons[seat] > bound or state.doubloons[seat] < state.treasure[seat]:
            return BAD_DOUBLOONS
    return 0


@njit(cache=True)
def check_start_berths(state):
    """While the players choose start berths: seats before the one to act lie in the start harbour."""
    if state.phase != PH_START_BERTH:
        return 0
    if state.leg != 0 or state.sailors_drawn or state.maps_drawn or state.hand:
        return BAD_START
    for colour in range(NUM_COLOURS):
        if state.supply[colour] != BARRELS_PER_COLOUR[colour]:
            return BAD_START
    for ship in range(NUM_SHIPS):
        placed = ship < state.current_player
        if state.ship_harbour[ship] != (START_HARBOUR if placed else -1):
            return BAD_START
        money = BERTH_START[START_TILE_ID, state.ship_berth[ship]] if placed else 0
        if ship < state.num_players and state.doubloons[ship] != money:
            return BAD_START
    for card in range(NUM_SAILORS):
        if state.sailor_uses[card]:
            return BAD_START
    return 0


@njit(cache=True)
def check_berth_decision(state):
    """A decision asked while docked fits the berth, resumes at the right stage, and has a choice."""
    phase = state.phase
    if state.terminal or phase == PH_START_BERTH or phase == PH_CHOOSE_BERTH:
        return 0
    seat = state.current_player
    tile, pos = current_tile_and_berth(state, seat)
    if state.stage != RESUME_STAGE[phase]:
        return BAD_STAGE
    kind = BERTH_KIND[tile, pos]
    deck = state.deck[seat]
    if phase == PH_ROB_BARREL or phase == PH_STORM_BARREL:
        shown = BERTH_ROB_BARREL[tile, pos] if phase == PH_ROB_BARREL else BERTH_STORM[tile, pos]
        if shown == 0:
            return BAD_BERTH_PHASE
        protector = PIT if phase == PH_ROB_BARREL else STORMY
        if not 1 <= state.to_give_up <= shown or count_barrels(deck) <= state.to_give_up or has_sailor(
                state, seat, protector):
            return BAD_GIVE_UP
    elif phase == PH_SEASICK:
        if BERTH_SEASICK[tile, pos] == 0:
            return BAD_BERTH_PHASE
        if not 1 <= state.to_give_up <= BERTH_SEASICK[tile, pos] or count_sailors(state, seat) <= state.to_give_up:
            return BAD_GIVE_UP
    elif phase == PH_CHAOS_TAKE or phase == PH_CHAOS_GIVE:
        if BERTH_CHAOS[tile, pos] == 0:
            return BAD_BERTH_PHASE
        if count_sailors(state, seat) == 0 or not others_have_sailors(state, seat):
            return BAD_CHAOS
        if phase == PH_CHAOS_GIVE:
            take = state.chaos_take
            if take < 0 or state.sailor_owner[take] < 0 or state.sailor_owner[take] == seat:
                return BAD_CHAOS
    elif phase == PH_LOAD_PICK and kind != KIND_LOAD:
        return BAD_BERTH_PHASE
    elif phase == PH_LOAD_PLACE:
        if kind != KIND_LOAD and not (kind == KIND_SAILOR and BERTH_LOAD[tile, pos].sum() > 0):
            return BAD_BERTH_PHASE
        if count_barrels(deck) == NUM_SPACES:
            return BAD_HAND
    elif phase == PH_UNLOAD and kind != KIND_UNLOAD:
        return BAD_BERTH_PHASE
    elif phase == PH_SAILOR and kind != KIND_SAILOR:
        return BAD_BERTH_PHASE
    elif phase == PH_MAPS and kind != KIND_MAPS:
        return BAD_BERTH_PHASE
    return 0


@njit(cache=True)
def check_pending_fields(state):
    """The fields of a berth in progress are set only during its decisions, and consistently."""
    phase = state.phase
    if (state.hand > 0) != (phase == PH_LOAD_PLACE):
        return BAD_PENDING
    if (state.to_give_up > 0) != (phase == PH_ROB_BARREL or phase == PH_STORM_BARREL or phase == PH_SEASICK):
        return BAD_PENDING
    if (state.chaos_take >= 0) != (phase == PH_CHAOS_GIVE):
        return BAD_PENDING
    docked = not state.terminal and phase != PH_START_BERTH and phase != PH_CHOOSE_BERTH
    kind = -1
    tile = 0
    pos = 0
    if docked:
        tile, pos = current_tile_and_berth(state, state.current_player)
        kind = BERTH_KIND[tile, pos]
    loading = state.load_paid > 0
    for colour in range(NUM_COLOURS):
        loading = loading or state.load_left[colour] > 0
    at_loading = kind == KIND_LOAD and (phase == PH_LOAD_PICK or phase == PH_LOAD_PLACE or phase == PH_END_TURN)
    if loading and not at_loading:
        return BAD_PENDING
    if at_loading:
        untouched = True
        for colour in range(NUM_COLOURS):
            if state.load_left[colour] > BERTH_LOAD[tile, pos, colour]:
                return BAD_LOADING
            untouched = untouched and state.load_left[colour] == BERTH_LOAD[tile, pos, colour]
        if untouched == (state.load_paid > 0):
            return BAD_LOADING
    at_unloading = kind == KIND_UNLOAD and (phase == PH_UNLOAD or phase == PH_END_TURN)
    if (barrels_owed(state.need) > 0 or state.unloaded > 0) and not at_unloading:
        return BAD_PENDING
    if at_unloading:
        shown = 0
        for k in range(NUM_COLOURS + 1):
            shown += BERTH_NEED[tile, pos, k]
            if state.need[k] > BERTH_NEED[tile, pos, k]:
                return BAD_UNLOADING
        owed = barrels_owed(state.need)
        if owed + state.unloaded != shown:
            return BAD_UNLOADING
        seat = state.current_player
        if phase == PH_UNLOAD and (owed == 0 or (state.unloaded > 0 and not can_finish_unloading(
                state, state.deck[seat], fassel_moves_left(state, seat)))):
            return BAD_UNLOADING
        if phase == PH_END_TURN and state.unloaded > 0 and owed > 0:
            return BAD_UNLOADING
    if state.chaos_given >= 0 and not state.terminal:
        owner = state.sailor_owner[state.chaos_given]
        if not docked or state.stage <= ST_CHAOS or owner < 0 or owner == state.current_player:
            return BAD_CHAOS_GIVEN
        if BERTH_CHAOS[tile, pos] == 0:
            return BAD_CHAOS_GIVEN
    for card in range(NUM_SAILORS):
        uses = state.sailor_uses[card]
        if uses > state.fassel_limit or (uses > 0 and card != BARRY and card != FARRY):
            return BAD_FASSEL
    return 0


# =============================================================================================
# Cutting playouts short (search agents)
# =============================================================================================

#: Spread (in doubloons) of the final-score uncertainty per leg still to sail (playout_value).
SPREAD_PER_LEG = 1.0
SPREAD_AT_LEAST = 2.0


@njit(cache=True)
def projected_doubloons(state, seat):
    """Doubloons now, plus the treasure maps held, plus the sale half of every barrel aboard."""
    total = float(state.doubloons[seat]) + treasure_value(state, seat)
    for i in range(NUM_SPACES):
        barrel = state.deck[seat, i]
        if barrel != EMPTY:
            total += 0.5 * BARREL_PRICE[barrel - 1]
    return total


@njit(cache=True)
def playout_value(state, values):
    """Each seat's expected reward from here on: see the module docstring."""
    n = state.num_players
    if state.terminal:
        return
    projected = np.zeros(MAX_PLAYERS)
    for seat in range(n):
        projected[seat] = projected_doubloons(state, seat)
    spread = SPREAD_AT_LEAST + SPREAD_PER_LEG * (dest_harbour(state) - state.leg)
    for seat in range(n):
        behind = 0.0  # expected number of players finishing ahead
        for other in range(n):
            if other != seat:
                behind += 1.0 / (1.0 + np.exp((projected[seat] - projected[other]) / spread))
        values[seat] = 1.0 - 2.0 * behind / (n - 1) + state.shaping * (projected[seat] - state.doubloons[seat])


register_engine(STATE, reset=reset, legal_mask=legal_mask, step=step, observe=observe, determinize=determinize,
                check_state=check_state, playout_value=playout_value)
