"""Driver loops for benchmarks/hotpaths.py: numba-compiled, or plain Python under NUMBA_DISABLE_JIT=1.

Each runs the engine's hot-path function ``calls`` times over recorded positions and returns the
number of calls and a checksum of the results (which keeps the compiler from dropping calls whose
results would otherwise be unused), so both modes time exactly the same work.
"""

import numpy as np
from numba import njit

from envs.teufel_teufel.engine import NUM_SQUARES, ON_BOARD, reachable_squares
from envs.voll_auf_die_18.engine import refresh
from envs.volles_fass_voraus.engine import extractable


@njit(cache=True)
def teufel_reachable_loop(positions, calls):
    dest = np.zeros(NUM_SQUARES, np.int8)
    done, i, found = 0, 0, 0
    while done < calls:
        state = positions[i % positions.shape[0]]
        i += 1
        seat = state.current_player
        if seat >= 0 and state.status[seat] == ON_BOARD and state.disc[seat] >= 0:
            dest[:] = 0
            found += reachable_squares(state, seat, dest)
            done += 1
        elif i >= positions.shape[0] and done == 0:
            return 0, 0  # no position with a disc on the board to search from
    return done, found  # the results are returned so the compiler cannot drop the calls


@njit(cache=True)
def fass_extractable_loop(positions, calls):
    done, i, bits = 0, 0, 0
    ships = positions[0].deck.shape[0]
    while done < calls:
        state = positions[(i // ships) % positions.shape[0]]
        bits ^= extractable(state.deck[i % ships])
        i += 1
        done += 1
    return done, bits  # the results are returned so the compiler cannot drop the calls


@njit(cache=True)
def vad18_search_loop(positions, calls):
    # refresh: every seat's argument search (seat_options) for every face-up Nazi, as every step does.
    done, masks = 0, 0
    while done < calls:
        state = positions[done % positions.shape[0]]
        refresh(state)
        masks += state.mask[0, 0]
        done += 1
    return done, masks
