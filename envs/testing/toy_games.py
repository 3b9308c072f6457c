"""Two toy games that exercise every path of envs/core without any real game's rules.

``race``: turn-based, 2-4 seats. Seats take turns adding 1 or 2 to a shared counter; whoever
makes it exactly ``target`` wins (+1, the others -1). Each seat is dealt a secret card 0..9 at
reset (drawn from the record's generator) that only it observes; it never affects play, so
hidden-information and determinism tests have something to hide.

``tally``: simultaneous, 2-3 seats. Every step each seat adds 0 or 1 to its own tally (1 only
while its tally is below 3); after ``rounds`` steps the highest tally wins (+1), the others -1,
a tie at the top gives everybody 0.
"""

import numpy as np
from numba import njit

from envs.core import Game, Layout, Option, config_dtype, int_range, register_engine, state_dtype
from envs.core.aec import TabletopAECEnv, TabletopSimultaneousAECEnv, make_env_functions
from envs.core.parallel import TabletopParallelEnv
from envs.core.rng import randint, seed_rng

# ---- race ---------------------------------------------------------------------------------

RACE_STATE = state_dtype([("counter", np.int16), ("target", np.int16), ("secret", np.int8, (4,))], 4)
RACE_CONFIG = config_dtype([("target", np.int16)])
RACE_LAYOUT = Layout(("counter", 1, 0, 30), ("to_go", 1, 0, 30), ("seat", 4), ("secret", 10), ("secrets_seen", 4))
_COUNTER, _TO_GO, _SEAT, _SECRET = (RACE_LAYOUT.offset(n) for n in ("counter", "to_go", "seat", "secret"))


@njit(cache=True)
def race_reset(state, config, seed):
    state.target = config.target
    for seat in range(state.num_players):
        state.secret[seat] = randint(state, 10)
    state.current_player = 0


@njit(cache=True)
def race_legal_mask(state, seat, mask):
    if state.terminal or seat != state.current_player:
        return
    mask[0] = 1
    if state.counter + 2 <= state.target:
        mask[1] = 1


@njit(cache=True)
def race_step(state, action):
    state.reward[:] = 0.0
    state.counter += action + 1
    if state.counter == state.target:
        for seat in range(state.num_players):
            state.reward[seat] = 1.0 if seat == state.current_player else -1.0
        state.terminal = 1
        state.current_player = -1
    else:
        state.current_player = (state.current_player + 1) % state.num_players


@njit(cache=True)
def race_observe(state, seat, out):
    out[_COUNTER] = state.counter
    out[_TO_GO] = state.target - state.counter
    out[_SEAT + seat] = 1.0
    out[_SECRET + state.secret[seat]] = 1.0


@njit(cache=True)
def race_determinize(state, seat, seed):
    # Only the other seats' secrets are hidden from `seat`.
    seed_rng(state, seed)
    for other in range(state.num_players):
        if other != seat:
            state.secret[other] = randint(state, 10)


RACE_BOUNDS = {"counter": (0, 30), "target": (3, 30), "secret": (0, 9)}
RACE_PROBLEMS = ("ok", "counter is past the target", "the game ended before the target was hit")


@njit(cache=True)
def race_check_state(state):
    if state.counter > state.target:
        return 1
    if state.terminal and state.counter != state.target:
        return 2
    return 0


@njit(cache=True)
def race_playout_value(state, values):
    pass  # nothing to tell: who hits the target depends on the rest of the play


register_engine(RACE_STATE, reset=race_reset, legal_mask=race_legal_mask, step=race_step, observe=race_observe,
                determinize=race_determinize, check_state=race_check_state, playout_value=race_playout_value)


class _RaceEngine:
    STATE, CONFIG = RACE_STATE, RACE_CONFIG
    STATE_BOUNDS, STATE_PROBLEMS = RACE_BOUNDS, RACE_PROBLEMS

    @staticmethod
    def make_config(config):
        record = np.zeros(1, RACE_CONFIG)
        record["num_players"] = config["num_players"]
        record["target"] = config["target"]
        return record


class _Render:
    @staticmethod
    def ansi(state, config, viewer=None):
        return f"step {state.step_count}, to act: {state.current_player}, terminal: {state.terminal}"

    @staticmethod
    def rgb(state, config):
        image = np.zeros((8, 32, 3), np.uint8)
        image[:, : min(int(state.step_count), 32)] = 255
        return image


RACE = Game(
    env_id="race_v0", engine=_RaceEngine, player_counts=(2, 3, 4), default_players=2,
    layout=RACE_LAYOUT, num_actions=2, action_name=lambda a, config: f"add {a + 1}", render=_Render,
    options={"target": Option(10, "the number to hit exactly", check=int_range(3, 30))},
    default_max_cycles=100)

# ---- tally --------------------------------------------------------------------------------

TALLY_STATE = state_dtype([("moment", np.int8), ("rounds", np.int8), ("tally", np.int8, (3,))], 3)
TALLY_CONFIG = config_dtype([("rounds", np.int8)])
TALLY_LAYOUT = Layout(("moment", 1, 0, 10), ("tallies", 3, 0, 10), ("seat", 3))


@njit(cache=True)
def tally_reset(state, config, seed):
    state.rounds = config.rounds
    state.current_player = -1


@njit(cache=True)
def tally_legal_mask(state, seat, mask):
    if state.terminal:
        return
    mask[0] = 1
    if state.tally[seat] < 3:
        mask[1] = 1


@njit(cache=True)
def tally_step(state, actions):
    state.reward[:] = 0.0
    for seat in range(state.num_players):
        state.tally[seat] += actions[seat]
    state.moment += 1
    if state.moment == state.rounds:
        state.terminal = 1
        best = state.tally[: state.num_players].max()
        winners = 0
        for seat in range(state.num_players):
            winners += state.tally[seat] == best
        for seat in range(state.num_players):
            if winners == 1:
                state.reward[seat] = 1.0 if state.tally[seat] == best else -1.0


@njit(cache=True)
def tally_observe(state, seat, out):
    out[0] = state.moment
    for other in range(state.num_players):
        out[1 + other] = state.tally[other]
    out[4 + seat] = 1.0


@njit(cache=True)
def tally_determinize(state, seat, seed):
    seed_rng(state, seed)  # nothing is hidden; only the future randomness is replaced


TALLY_BOUNDS = {"moment": (0, 10), "rounds": (1, 10), "tally": (0, 3)}
TALLY_PROBLEMS = ("ok", "moment is past the last round", "a tally is larger than the moments played")


@njit(cache=True)
def tally_check_state(state):
    if state.moment > state.rounds:
        return 1
    for seat in range(state.num_players):
        if state.tally[seat] > state.moment:
            return 2
    return 0


register_engine(TALLY_STATE, reset=tally_reset, legal_mask=tally_legal_mask, step=tally_step, observe=tally_observe,
                determinize=tally_determinize, check_state=tally_check_state)


class _TallyEngine:
    STATE, CONFIG = TALLY_STATE, TALLY_CONFIG
    STATE_BOUNDS, STATE_PROBLEMS = TALLY_BOUNDS, TALLY_PROBLEMS

    @staticmethod
    def make_config(config):
        record = np.zeros(1, TALLY_CONFIG)
        record["num_players"] = config["num_players"]
        record["rounds"] = config["rounds"]
        return record


TALLY = Game(
    env_id="tally_v0", engine=_TallyEngine, player_counts=(2, 3), default_players=2,
    layout=TALLY_LAYOUT, num_actions=2, action_name=lambda a, config: ("hold", "add 1")[a], render=_Render,
    options={"rounds": Option(5, "steps in a game", check=int_range(1, 10))},
    simultaneous=True, default_max_cycles=None)


class RaceEnv(TabletopAECEnv):
    game = RACE


class TallyAECEnv(TabletopSimultaneousAECEnv):
    game = TALLY


class TallyEnv(TabletopParallelEnv):
    game = TALLY


def as_module(env_class, parallel_class=None):
    """A PettingZoo-style module object for a toy AEC env class (and, for a simultaneous game, its
    Parallel class), for ``envs.register``."""
    import types

    env, raw_env, parallel_env = make_env_functions(env_class, parallel_class)
    return types.SimpleNamespace(env=env, raw_env=raw_env, parallel_env=parallel_env, GAME=env_class.game)


def register_toys():
    """Register race_v0 and tally_v0 with ``envs`` (idempotent); returns their modules."""
    import envs

    modules = {}
    for classes in ((RaceEnv,), (TallyAECEnv, TallyEnv)):
        modules[classes[0].game.env_id] = module = as_module(*classes)
        envs.register(module)
    return modules
