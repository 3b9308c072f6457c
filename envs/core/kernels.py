"""Generic numba kernels over any registered game's records.

They call the engine through the generic entry points of :mod:`envs.core.game`, so each is
compiled (and cached) once per game. The single-game kernels take length-1 record arrays: numba
dispatches arrays faster than loose records. Every decision passes through :func:`apply_step`,
which counts it in ``step_count`` (the adapters' and batches' truncation clock).

Seats read from a record are cast with ``int()`` before they reach an engine: under
``NUMBA_DISABLE_JIT=1`` an ``int8`` seat keeps ``int8`` arithmetic (``OFFSET + seat`` overflows).
"""

import numpy as np
from numba import njit, prange

from .game import game_check_state, game_determinize, game_legal_mask, game_observe, game_reset, game_step
from .rng import choice, derive_seed, seed_rng


@njit(cache=True)
def reset_state(states, i, blank, config, seed):
    """Start game ``i`` afresh: zero the record, seed its generator, let the engine set up."""
    states[i] = blank[0]
    state = states[i]
    seed_rng(state, seed)
    state.num_players = config.num_players
    game_reset(state, config, seed)


@njit(cache=True)
def apply_step(state, action):
    """Apply one decision (an int, or one action per seat for a simultaneous game)."""
    game_step(state, action)
    state.step_count += 1


@njit(cache=True)
def fill_view(state, seat, obs, mask):
    """Write ``seat``'s observation and legal-action mask."""
    obs[:] = 0.0
    mask[:] = 0
    game_observe(state, seat, obs)
    game_legal_mask(state, seat, mask)


@njit(cache=True)
def fill_mask(state, seat, mask):
    mask[:] = 0
    game_legal_mask(state, seat, mask)


# ---- one game (the PettingZoo adapters) ---------------------------------------------------


@njit(cache=True)
def reset_one(states, blank, configs, seed):
    reset_state(states, 0, blank, configs[0], seed)


@njit(cache=True)
def step_one(states, action):
    apply_step(states[0], action)


@njit(cache=True)
def view_one(states, seat, obs, mask):
    fill_view(states[0], seat, obs, mask)


@njit(cache=True)
def mask_one(states, seat, mask):
    fill_mask(states[0], seat, mask)


@njit(cache=True)
def observe_all(states, out):
    """Every seat's observation side by side: the centralised-critic state."""
    state = states[0]
    players = int(state.num_players)
    size = out.shape[0] // players
    out[:] = 0.0
    for seat in range(players):
        game_observe(state, seat, out[seat * size : (seat + 1) * size])


# ---- search (agents.ismcts) -------------------------------------------------------------


@njit(cache=True)
def determinize_one(states, seat, seed):
    """Replace what ``seat`` cannot know by a consistent sample, with a fresh generator."""
    if seat < 0 or seat >= states[0].num_players:
        raise ValueError("determinize_one: seat is not a seat of this game (0..num_players-1), got", seat)
    game_determinize(states[0], seat, seed)


@njit(cache=True)
def random_playout(states, actor_rngs, num_actions, max_decisions, returns):
    """Random legal decisions until the game ends (or ``max_decisions``); adds each seat's
    rewards along the way into ``returns``. Returns the number of decisions made."""
    state = states[0]
    seats = returns.shape[0]
    mask = np.zeros(num_actions, np.int8)
    decisions = 0
    while state.terminal == 0 and decisions < max_decisions:
        fill_mask(state, int(state.current_player), mask)
        apply_step(state, choice(actor_rngs[0], mask))
        for seat in range(seats):
            returns[seat] += state.reward[seat]
        decisions += 1
    return decisions


@njit(cache=True)
def random_playout_joint(states, actor_rngs, num_actions, max_decisions, returns):
    """:func:`random_playout` for a simultaneous game (every seat picks at random each step)."""
    state = states[0]
    seats = returns.shape[0]
    mask = np.zeros(num_actions, np.int8)
    actions = np.zeros(seats, np.int64)
    decisions = 0
    while state.terminal == 0 and decisions < max_decisions:
        for seat in range(seats):
            fill_mask(state, seat, mask)
            actions[seat] = choice(actor_rngs[0], mask)
        apply_step(state, actions)
        for seat in range(seats):
            returns[seat] += state.reward[seat]
        decisions += 1
    return decisions


# ---- validation (envs.core.validate) ---------------------------------------------------

PLAYABLE, NO_LEGAL_ACTION, OBSERVATION_OUT_OF_BOUNDS, ACTIONS_OUT_OF_TURN = 0, 1, 2, 3


@njit(cache=True)
def check_batch(states, codes):
    """The engine's ``check_state`` code of every record (0: valid)."""
    for i in range(states.shape[0]):
        codes[i] = game_check_state(states[i])


@njit(cache=True)
def check_play_batch(states, scratch, low, high, mask, codes, seats):
    """Can each record be played? ``codes[i]`` is :data:`PLAYABLE` or the first problem found
    (``seats[i]``: whose view shows it). Every seat is viewed on ``scratch``, a copy of the record,
    so an engine function that writes into its record changes nothing here."""
    obs = np.empty(low.shape[0], np.float32)
    for i in range(states.shape[0]):
        codes[i] = PLAYABLE
        for seat in range(int(states[i].num_players)):
            scratch[0] = states[i]
            fill_view(scratch[0], seat, obs, mask)
            code = _view_problem(states[i], seat, obs, mask, low, high)
            if code != PLAYABLE:
                codes[i], seats[i] = code, seat
                break


@njit(cache=True)
def _view_problem(state, seat, obs, mask, low, high):
    for k in range(obs.shape[0]):
        if not low[k] <= obs[k] <= high[k]:  # NaN fails too
            return OBSERVATION_OUT_OF_BOUNDS
    # A simultaneous game has current_player -1: every seat acts while it runs.
    to_act = state.terminal == 0 and (state.current_player < 0 or state.current_player == seat)
    has_action = False
    for action in range(mask.shape[0]):
        if mask[action] != 0:
            has_action = True
            break
    if to_act and not has_action:
        return NO_LEGAL_ACTION
    if has_action and not to_act:
        return ACTIONS_OUT_OF_TURN
    return PLAYABLE


# ---- batches (VectorGame) -----------------------------------------------------------------


@njit(cache=True)
def _finish_or_continue(states, i, blank, configs, batch_seed, episodes, max_cycles):
    """Reset game ``i`` if it ended or ran out of decisions; returns (terminated, truncated)."""
    state = states[i]
    terminated = state.terminal != 0
    truncated = (not terminated) and max_cycles > 0 and state.step_count >= max_cycles
    if terminated or truncated:
        episodes[i] += 1
        reset_state(states, i, blank, configs[0], derive_seed(batch_seed, i, episodes[i]))
    return terminated, truncated


@njit(cache=True)
def _view_turn(state, obs, mask):
    # Turn-based: the view of the seat to act (seat 0's when nobody is to act).
    seat = int(state.current_player) if state.current_player >= 0 else 0
    fill_view(state, seat, obs, mask)


@njit(cache=True)
def _view_seats(state, obs, masks):
    for seat in range(obs.shape[0]):
        fill_view(state, seat, obs[seat], masks[seat])


@njit(cache=True, parallel=True)
def reset_batch(states, blank, configs, batch_seed, episodes, obs, masks, players):
    for i in prange(states.shape[0]):
        reset_state(states, i, blank, configs[0], derive_seed(batch_seed, i, episodes[i]))
        _view_turn(states[i], obs[i], masks[i])
        players[i] = states[i].current_player


@njit(cache=True, parallel=True)
def view_batch(states, obs, masks, players):
    for i in prange(states.shape[0]):
        _view_turn(states[i], obs[i], masks[i])
        players[i] = states[i].current_player


@njit(cache=True, parallel=True)
def view_batch_joint(states, obs, masks):
    for i in prange(states.shape[0]):
        _view_seats(states[i], obs[i], masks[i])


@njit(cache=True, parallel=True)
def step_batch(states, actions, blank, configs, batch_seed, episodes, max_cycles,
               obs, masks, rewards, terminated, truncated, players):
    for i in prange(states.shape[0]):
        state = states[i]
        apply_step(state, actions[i])
        for seat in range(rewards.shape[1]):
            rewards[i, seat] = state.reward[seat]
        terminated[i], truncated[i] = _finish_or_continue(
            states, i, blank, configs, batch_seed, episodes, max_cycles)
        _view_turn(states[i], obs[i], masks[i])
        players[i] = states[i].current_player


@njit(cache=True, parallel=True)
def random_steps_batch(states, actor_rngs, num_steps, blank, configs, batch_seed, episodes,
                       max_cycles, obs, masks, observe):
    """``num_steps`` uniformly random legal decisions in every game; returns the total made.

    ``masks`` (and ``obs``) hold the view of the seat to act on entry and on return; each
    decision computes the next mask once (with the observation when ``observe``).
    """
    total = 0
    for i in prange(states.shape[0]):
        state = states[i]
        for _ in range(num_steps):
            apply_step(state, choice(actor_rngs[i], masks[i]))
            _finish_or_continue(states, i, blank, configs, batch_seed, episodes, max_cycles)
            if observe:
                _view_turn(state, obs[i], masks[i])
            else:
                fill_mask(state, int(state.current_player), masks[i])
        if not observe:
            _view_turn(state, obs[i], masks[i])
        total += num_steps
    return total


# ---- batches of a simultaneous game: one action per seat, a seat axis after the batch axis --


@njit(cache=True, parallel=True)
def reset_batch_joint(states, blank, configs, batch_seed, episodes, obs, masks):
    for i in prange(states.shape[0]):
        reset_state(states, i, blank, configs[0], derive_seed(batch_seed, i, episodes[i]))
        _view_seats(states[i], obs[i], masks[i])


@njit(cache=True, parallel=True)
def step_batch_joint(states, actions, blank, configs, batch_seed, episodes, max_cycles,
                     obs, masks, rewards, terminated, truncated):
    for i in prange(states.shape[0]):
        state = states[i]
        apply_step(state, actions[i])
        for seat in range(rewards.shape[1]):
            rewards[i, seat] = state.reward[seat]
        terminated[i], truncated[i] = _finish_or_continue(
            states, i, blank, configs, batch_seed, episodes, max_cycles)
        _view_seats(states[i], obs[i], masks[i])


@njit(cache=True, parallel=True)
def random_steps_batch_joint(states, actor_rngs, num_steps, blank, configs, batch_seed, episodes,
                             max_cycles, obs, masks, observe):
    total = 0
    for i in prange(states.shape[0]):
        state = states[i]
        seats = masks.shape[1]
        actions = np.zeros(seats, np.int64)
        for _ in range(num_steps):
            for seat in range(seats):
                actions[seat] = choice(actor_rngs[i], masks[i, seat])
            apply_step(state, actions)
            _finish_or_continue(states, i, blank, configs, batch_seed, episodes, max_cycles)
            if observe:
                _view_seats(state, obs[i], masks[i])
            else:
                for seat in range(seats):
                    fill_mask(state, seat, masks[i, seat])
        if not observe:
            _view_seats(state, obs[i], masks[i])
        total += num_steps
    return total
