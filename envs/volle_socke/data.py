"""The 110 cards of Werner: Volle Socke as tables: kinds, counts, engine powers, gears, roles.

A card is identified by its *kind* (0..25); cards of one kind are interchangeable, so hands and
bikes are counts per kind. The six spare parts are six kinds of one card each, because each has
its own engine power printed on it. The rulebook gives no spare-part powers; we print
10, 20, 30, 40, 50 and 60 HP on them (``SPARE_POWERS``): as an engine they are no better than
the deck's own engines, their worth is flexibility (a spare part is also a normal front wheel
or a 4th-gear rear wheel).
"""

import numpy as np

# ---- kinds ---------------------------------------------------------------------------------

TURBO, FUCK_TUV, LACH, PUMP = 0, 1, 2, 3                      # joy cards
MOTOR_HER, RAD_HER, TUV, BULL, NAIL = 4, 5, 6, 7, 8           # misery cards
SPARE_0 = 9                                                   # spare parts 9..14
NUM_SPARES = 6
ENGINE_10, ENGINE_20, ENGINE_50, ENGINE_100 = 15, 16, 17, 18  # Okinal Horex engines
FRONT, FLAT_FRONT, WOODEN_FRONT = 19, 20, 21                  # front wheels
REAR_1 = 22                                                   # rear wheels, gears 1..4: 22..25
NUM_KINDS = 26

SPARE_POWERS = (10, 20, 30, 40, 50, 60)

COUNTS = np.array(
    [2, 2, 2, 4,            # Turbo, Fuck for TÜV, Da lach ich doch über, Air Pump
     2, 2, 4, 4, 2,         # Motor her, Rad her, TÜV, Bull, Nail
     1, 1, 1, 1, 1, 1,      # the six spare parts
     12, 12, 8, 8,          # engines 10, 20, 50, 100 HP
     16, 4, 4,              # normal, flat, wooden front wheels
     4, 4, 4, 4],           # rear wheels, gears 1-4
    np.int8)
DECK_SIZE = int(COUNTS.sum())  # 110

#: Engine power of a kind used as an engine (engines and spare parts), else 0.
POWER = np.zeros(NUM_KINDS, np.int32)
POWER[ENGINE_10:ENGINE_100 + 1] = (10, 20, 50, 100)
POWER[SPARE_0:SPARE_0 + NUM_SPARES] = SPARE_POWERS

#: Gear of a rear wheel (a spare part used as a rear wheel is in 4th gear), else 0.
GEAR = np.zeros(NUM_KINDS, np.int32)
GEAR[REAR_1:REAR_1 + 4] = (1, 2, 3, 4)
SPARE_GEAR = 4

# ---- roles a card plays on a bike -----------------------------------------------------------

ROLE_FRONT, ROLE_REAR, ROLE_ENGINE, ROLE_TURBO, ROLE_PUMP = 0, 1, 2, 3, 4
SPARE_ROLES = 3  # a spare part is a front wheel, a rear wheel or an engine
ROLE_NAMES = ("front wheel", "rear wheel", "engine", "turbo", "air pump")

#: The fixed role of a regular card (-1: spare parts choose one, other cards never sit on a bike).
FIXED_ROLE = np.full(NUM_KINDS, -1, np.int8)
FIXED_ROLE[ENGINE_10:ENGINE_100 + 1] = ROLE_ENGINE
FIXED_ROLE[FRONT:WOODEN_FRONT + 1] = ROLE_FRONT
FIXED_ROLE[REAR_1:REAR_1 + 4] = ROLE_REAR
FIXED_ROLE[TURBO] = ROLE_TURBO

#: Kinds that can lie on a bike (Turbo, spare parts, engines, wheels), in observation order.
BIKE_KINDS = np.array([TURBO] + list(range(SPARE_0, NUM_KINDS)), np.int8)
NUM_BIKE_KINDS = len(BIKE_KINDS)  # 18
#: The regular (non-spare) bike kinds: the columns of the ``bikes`` observation block.
REGULAR_BIKE_KINDS = np.array([TURBO] + list(range(ENGINE_10, NUM_KINDS)), np.int8)

MISERY_KINDS = np.array([MOTOR_HER, RAD_HER, TUV, BULL, NAIL], np.int8)
NUM_MISERY = 5

# ---- names -----------------------------------------------------------------------------------

NAMES = (
    ["Turbo", "Fuck for TÜV", "Da lach ich doch über", "Air Pump",
     "Motor her", "Rad her", "TÜV", "Bull", "Nail"]
    + [f"Spare part {p} HP" for p in SPARE_POWERS]
    + ["Engine 10 HP", "Engine 20 HP", "Engine 50 HP", "Engine 100 HP",
       "Front wheel", "Flat front wheel", "Wooden front wheel"]
    + [f"Rear wheel gear {g}" for g in (1, 2, 3, 4)]
)
SHORT = (
    ["TRB", "FfT", "LCH", "PMP", "MOT", "RAD", "TUV", "BUL", "NAL"]
    + [f"S{p}" for p in SPARE_POWERS]
    + ["E10", "E20", "E50", "E100", "FW", "FLT", "WOD", "R1", "R2", "R3", "R4"]
)
CATEGORY = (["joy"] * 4 + ["misery"] * 5 + ["spare"] * 6 + ["engine"] * 4 + ["front"] * 3 + ["rear"] * 4)

assert DECK_SIZE == 110 and len(NAMES) == len(SHORT) == len(CATEGORY) == NUM_KINDS
