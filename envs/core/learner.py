"""numba kernels for batched self-play: one learner seat per game, opponents moved in place.

:class:`training.vector_env.LearnerVecEnv` keeps ``N`` games of one env id in a record array and
lets a learner play one seat of each. The learner's action is applied, then the other seats move
until it is the learner's turn again: seats played by random opponents move right here, inside
numba; a seat played by an opponent that lives in Python (the game's heuristic, or a frozen
snapshot of the learner that acts in one batched torch forward) stops the game with
``waiting[i] = seat`` until Python hands its action to :func:`opponent_steps`. The reward the
learner receives for a step is its own seat's reward summed over that whole span.

Episodes end and restart inside the kernels: episode ``k`` of game ``i`` starts from
``derive_seed(batch_seed, i, k)`` (as in :class:`envs.core.vector.VectorGame`), the learner's seat
and the opponent of every other seat are drawn from the game's own action stream
(``actor_rngs[i]``), with the kind weights of the opponent pool.

Opponent codes in ``kinds[i, seat]``: :data:`LEARNER`, :data:`RANDOM`, :data:`HEURISTIC`, or
``SNAPSHOT + k`` for the ``k``-th frozen snapshot.

The simultaneous (cooperative) game has its own pair of kernels at the end: every seat of every
game is a learner sub-environment sharing one policy, so one policy forward covers every seat's
choice of a moment.
"""

import numpy as np
from numba import njit, prange

from .kernels import apply_step, fill_mask, fill_view, reset_state
from .rng import choice, derive_seed, randint, uniform

LEARNER, RANDOM, HEURISTIC, SNAPSHOT = -1, 0, 1, 2
NOT_WAITING = -1
ONGOING, TERMINATED, TRUNCATED = 0, 1, 2  # a slot's ``outcome`` after a step


def slot_dtype(max_players):
    """One game's bookkeeping beside its record (``rng`` is the game's action stream: the learner
    seat, the opponents and the random opponents' moves are drawn from it, never from the game's
    own generator)."""
    return np.dtype((np.record, [
        ("rng", np.uint64),
        ("episode", np.int64),          # episodes of this game started so far - 1
        ("learner", np.int8),           # the learner's seat this episode
        ("acted", np.int8),             # 1 once the learner has acted this episode
        ("waiting", np.int8),           # the seat a Python opponent must move for, or NOT_WAITING
        ("outcome", np.int8),           # ONGOING, TERMINATED or TRUNCATED (the episode just finished)
        ("won", np.int8),               # the finished episode was a win for the learner's seat
        ("final_learner", np.int8),     # the learner's seat in the episode that just finished
        ("span_reward", np.float32),    # the learner's reward since its last action
        ("kinds", np.int16, (max_players,)),           # opponent code per seat
        ("returns", np.float32, (max_players,)),       # every seat's return so far this episode
        ("final_returns", np.float32, (max_players,)), # ... of the episode that just finished
    ]))


@njit(cache=True)
def _draw_kind(slot, weights, num_snapshots):
    """An opponent code drawn with ``weights`` = (random, heuristic, snapshot), normalised here."""
    w_snapshot = weights[2] if num_snapshots > 0 else 0.0
    u = uniform(slot) * (weights[0] + weights[1] + w_snapshot)
    if u < weights[0]:
        return RANDOM
    if u < weights[0] + weights[1]:
        return HEURISTIC
    return SNAPSHOT + randint(slot, num_snapshots)


@njit(cache=True)
def _new_episode(states, slots, i, blank, configs, batch_seed, weights, num_snapshots, fixed_learner):
    reset_state(states, i, blank, configs[0], derive_seed(batch_seed, i, slots[i].episode))
    slot = slots[i]
    players = states[i].num_players
    slot.learner = fixed_learner if fixed_learner >= 0 else randint(slot, players)
    for seat in range(players):
        slot.kinds[seat] = LEARNER if seat == slot.learner else _draw_kind(slot, weights, num_snapshots)
        slot.returns[seat] = 0.0
    slot.acted = 0


@njit(cache=True)
def _collect(state, slot):
    """Add the last step's rewards: every seat's episode return, the learner's span reward."""
    for seat in range(state.num_players):
        slot.returns[seat] += state.reward[seat]
    slot.span_reward += state.reward[slot.learner]


@njit(cache=True)
def _won(slot, players, seat):
    """The tournament's notion of a win (training.evaluate.seat_wins): positive and the highest."""
    best = slot.returns[0]
    for other in range(1, players):
        best = max(best, slot.returns[other])
    mine = slot.returns[seat]
    return mine > 0.0 and mine >= best - 1e-6


@njit(cache=True)
def _finish(state, slot, truncated, final_states, i, final_obs, mask):
    """Write the outcome of the learner's episode that just ended."""
    slot.outcome = TRUNCATED if truncated else TERMINATED
    slot.won = 1 if not truncated and _won(slot, state.num_players, slot.learner) else 0
    slot.final_learner = slot.learner
    slot.final_returns[:] = slot.returns[:]
    final_states[i] = state
    if truncated:  # PPO bootstraps a cut-off episode from the value of its last observation
        fill_view(state, slot.learner, final_obs, mask)


@njit(cache=True)
def _advance(states, slots, i, blank, configs, batch_seed, max_cycles, weights, num_snapshots, fixed_learner,
             final_states, final_obs, mask):
    """Move game ``i`` on until its learner is to act, or a Python opponent is (``waiting``).

    A game that ends restarts at once. An episode that ends before the learner ever acted is not
    the learner's and is dropped without an outcome.
    """
    state = states[i]
    slot = slots[i]
    while True:
        terminated = state.terminal != 0
        truncated = (not terminated) and max_cycles > 0 and state.step_count >= max_cycles
        if terminated or truncated:
            if slot.acted:
                _finish(state, slot, truncated, final_states, i, final_obs[i], mask)
            slot.episode += 1
            _new_episode(states, slots, i, blank, configs, batch_seed, weights, num_snapshots, fixed_learner)
            continue
        seat = state.current_player
        kind = slot.kinds[seat]
        if kind == LEARNER:
            slot.waiting = NOT_WAITING
            return
        if kind != RANDOM:
            slot.waiting = seat
            return
        fill_mask(state, seat, mask)
        apply_step(state, choice(slot, mask))
        _collect(state, slot)


@njit(cache=True)
def _advance_and_view(states, slots, i, blank, configs, batch_seed, max_cycles, weights, num_snapshots,
                      fixed_learner, final_states, final_obs, obs, masks, their_obs, their_masks):
    """:func:`_advance`, then the view of whoever game ``i`` now waits for: the learner's into
    ``obs[i]``/``masks[i]``, a Python opponent's into ``their_obs[i]``/``their_masks[i]``."""
    _advance(states, slots, i, blank, configs, batch_seed, max_cycles, weights, num_snapshots, fixed_learner,
             final_states, final_obs, masks[i])
    slot = slots[i]
    if slot.waiting == NOT_WAITING:
        fill_view(states[i], slot.learner, obs[i], masks[i])
    else:
        fill_view(states[i], slot.waiting, their_obs[i], their_masks[i])


@njit(cache=True, parallel=True)
def learner_reset(states, slots, blank, configs, batch_seed, max_cycles, weights, num_snapshots, fixed_learner,
                  final_states, final_obs, obs, masks, their_obs, their_masks):
    """Start episode ``slots[i].episode`` of every game and move it to its first wait."""
    for i in prange(states.shape[0]):
        slots[i].outcome = ONGOING
        slots[i].span_reward = 0.0
        _new_episode(states, slots, i, blank, configs, batch_seed, weights, num_snapshots, fixed_learner)
        _advance_and_view(states, slots, i, blank, configs, batch_seed, max_cycles, weights, num_snapshots,
                          fixed_learner, final_states, final_obs, obs, masks, their_obs, their_masks)


@njit(cache=True, parallel=True)
def learner_step(states, slots, actions, blank, configs, batch_seed, max_cycles, weights, num_snapshots,
                 fixed_learner, final_states, final_obs, obs, masks, their_obs, their_masks):
    """Apply each game's learner action (legal: checked by the caller), then move it on."""
    for i in prange(states.shape[0]):
        slot = slots[i]
        slot.outcome = ONGOING
        slot.span_reward = 0.0
        slot.acted = 1
        apply_step(states[i], actions[i])
        _collect(states[i], slot)
        _advance_and_view(states, slots, i, blank, configs, batch_seed, max_cycles, weights, num_snapshots,
                          fixed_learner, final_states, final_obs, obs, masks, their_obs, their_masks)


@njit(cache=True, parallel=True)
def opponent_steps(states, slots, games, actions, blank, configs, batch_seed, max_cycles, weights, num_snapshots,
                   fixed_learner, final_states, final_obs, obs, masks, their_obs, their_masks):
    """Apply the actions (``actions[i]``) of the Python opponents games ``games`` wait for, then move them on."""
    for k in prange(games.shape[0]):
        i = games[k]
        apply_step(states[i], actions[i])
        _collect(states[i], slots[i])
        _advance_and_view(states, slots, i, blank, configs, batch_seed, max_cycles, weights, num_snapshots,
                          fixed_learner, final_states, final_obs, obs, masks, their_obs, their_masks)


# ---- the cooperative simultaneous game: every seat a learner sub-environment --------------


@njit(cache=True)
def _team_view(state, obs, masks):
    for seat in range(obs.shape[0]):
        fill_view(state, seat, obs[seat], masks[seat])


@njit(cache=True, parallel=True)
def team_reset(states, slots, blank, configs, batch_seed, obs, masks):
    for i in prange(states.shape[0]):
        reset_state(states, i, blank, configs[0], derive_seed(batch_seed, i, slots[i].episode))
        slots[i].returns[:] = 0.0
        slots[i].outcome = ONGOING
        _team_view(states[i], obs[i], masks[i])


@njit(cache=True, parallel=True)
def team_step(states, slots, actions, blank, configs, batch_seed, max_cycles, rewards, final_obs, obs, masks):
    """One joint step of every game (``actions`` (N, P)); each seat's reward in ``rewards`` (N, P).

    A finished game writes its outcome (``won``: the team's return is positive), its last views
    into ``final_obs`` when truncated, and restarts.
    """
    for i in prange(states.shape[0]):
        state = states[i]
        slot = slots[i]
        slot.outcome = ONGOING
        apply_step(state, actions[i])
        for seat in range(state.num_players):
            rewards[i, seat] = state.reward[seat]
            slot.returns[seat] += state.reward[seat]
        terminated = state.terminal != 0
        truncated = (not terminated) and max_cycles > 0 and state.step_count >= max_cycles
        if terminated or truncated:
            slot.outcome = TRUNCATED if truncated else TERMINATED
            slot.won = 1 if terminated and _won(slot, state.num_players, 0) else 0
            slot.final_returns[:] = slot.returns[:]
            if truncated:
                _team_view(state, final_obs[i], masks[i])
            slot.episode += 1
            reset_state(states, i, blank, configs[0], derive_seed(batch_seed, i, slot.episode))
            slot.returns[:] = 0.0
        _team_view(states[i], obs[i], masks[i])
