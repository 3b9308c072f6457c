"""Bad input on the shared machinery: records checked before they are installed, errors that name
the problem and change nothing, a VectorGame that trusts no caller, copies that work, debug mode.

Most tests use the toy games; ``door`` below is a game without STATE_BOUNDS or check_state (as a
game is before its engineer adds them) whose views can be made to break the generic promises.
"""

import copy
import pickle

import numpy as np
import pytest
from numba import njit

import envs
from envs.core import Game, InvalidStateError, Layout, check_records, config_dtype, register_engine, state_dtype
from envs.core import kernels
from envs.core.aec import TabletopAECEnv
from envs.core.game import IllegalActionError
from envs.core.vector import VectorGame
from envs.testing.toy_games import RACE, TALLY, RaceEnv, TallyAECEnv, TallyEnv, register_toys

register_toys()

# ---- door: one decision; `locked` takes the seat's action away, `leak` shows one to seat 1,
# `glow` is observed as it is (the layout allows 0..1) --------------------------------------

DOOR_STATE = state_dtype([("locked", np.int8), ("leak", np.int8), ("glow", np.int8)], 2)
DOOR_CONFIG = config_dtype([])
DOOR_LAYOUT = Layout(("glow", 1, 0, 1))


@njit(cache=True)
def door_reset(state, config, seed):
    state.current_player = 0


@njit(cache=True)
def door_legal_mask(state, seat, mask):
    if state.terminal == 0 and state.locked == 0 and seat == state.current_player:
        mask[0] = 1
    if state.leak != 0 and seat == 1:
        mask[1] = 1


@njit(cache=True)
def door_step(state, action):
    state.reward[:] = 0.0
    state.terminal = 1
    state.current_player = -1


@njit(cache=True)
def door_observe(state, seat, out):
    out[0] = state.glow


register_engine(DOOR_STATE, reset=door_reset, legal_mask=door_legal_mask, step=door_step, observe=door_observe)


class _DoorEngine:
    STATE, CONFIG = DOOR_STATE, DOOR_CONFIG

    @staticmethod
    def make_config(config):
        record = np.zeros(1, DOOR_CONFIG)
        record["num_players"] = config["num_players"]
        return record


DOOR = Game(env_id="door_v0", engine=_DoorEngine, player_counts=(2,), default_players=2, layout=DOOR_LAYOUT,
            num_actions=2, action_name=lambda a, config: ("open", "knock")[a], render=RACE.render)


class DoorEnv(TabletopAECEnv):
    game = DOOR


def _door_record(**fields):
    env = DoorEnv()
    env.reset(seed=1)
    record = env.get_state()
    for name, value in fields.items():
        record[name] = value
    return record


# ---- set_state checks first and changes nothing when it refuses --------------------------


def _race_midgame():
    env = RaceEnv(num_players=3, target=20)
    env.reset(seed=3)
    for action in (1, 0, 1):
        env.step(action)
    return env


def _everything(env):
    """All an env shows: its record and the PettingZoo dicts."""
    return (env.get_state().tobytes(), env.agent_selection, list(env.agents), dict(env.rewards),
            dict(env._cumulative_rewards), dict(env.terminations), dict(env.truncations))


@pytest.mark.parametrize("field,value,message", [
    ("secret", 10, r"secret\[1\]=10 outside \[0, 9\]"),
    ("counter", 25, "counter is past the target"),
    ("current_player", 3, "current_player=3"),
    ("current_player", -1, "current_player=-1"),  # on a live game: nobody would ever be asked to act
    ("terminal", 2, "terminal=2: must be 0 or 1"),
    ("rng", 0, "rng=0"),
    ("step_count", -1, "step_count=-1: must be from 0 to 1073741824"),
    ("step_count", 2**31 - 1, "step_count=2147483647: must be from 0"),  # one more decision would overflow
    ("reward", np.nan, r"reward\[0\]=nan: is not finite"),
])
def test_set_state_rejects_a_corrupt_record_naming_it_and_changes_nothing(field, value, message):
    env = _race_midgame()
    record = env.get_state()
    if field == "secret":
        record["secret"][0, 1] = value
    else:
        record[field] = value
    before = _everything(env)
    with pytest.raises(InvalidStateError, match=f"race_v0 record invalid: {message}"):
        env.set_state(record)
    assert _everything(env) == before


def test_set_state_accepts_a_reachable_record_and_continues_from_it():
    env, other = _race_midgame(), RaceEnv(num_players=3, target=20)
    other.set_state(env.get_state())  # no reset needed
    assert _everything(other) == _everything(env)
    env.step(0)
    other.step(0)
    assert _everything(other) == _everything(env)


@pytest.mark.parametrize("fields,message", [
    ({"locked": 1}, "player_0 is to act but has no legal action"),
    ({"leak": 1}, "player_1 has legal actions but is not to act"),
    ({"glow": 7}, r"player_0's observation glow\[0\]=7.0 is outside the layout's bounds \[0.0, 1.0\]"),
])
def test_records_whose_views_break_the_contract_are_rejected_even_without_the_games_tables(fields, message):
    env = DoorEnv()
    env.reset(seed=0)
    before = env.get_state().tobytes()
    with pytest.raises(InvalidStateError, match=message):
        env.set_state(_door_record(**fields))
    assert env.get_state().tobytes() == before
    vg = VectorGame(DOOR, 3, seed=0)
    vg.reset()
    records = np.concatenate([vg.get_state()[:2], _door_record(**fields)])
    with pytest.raises(InvalidStateError, match=r"\(record 2\)"):
        vg.set_state(records)


def test_check_records_refuses_what_is_not_a_record_array():
    with pytest.raises(ValueError, match="STATE records"):
        check_records(RACE, np.zeros(3))
    with pytest.raises(ValueError, match="STATE records"):
        check_records(RACE, np.zeros((2, 2), RACE.engine.STATE))


def test_vector_set_state_names_the_bad_record_and_changes_nothing():
    vg = VectorGame(RACE, 4, seed=0, num_players=2, target=12)
    vg.reset()
    vg.random_steps(3)
    records = vg.get_state()
    records["secret"][2, 0] = -1
    before = (vg.get_state().tobytes(), vg.obs.tobytes(), vg.action_mask.tobytes(), vg.current_player.tobytes())
    with pytest.raises(InvalidStateError, match=r"secret\[0\]=-1 outside \[0, 9\] \(record 2\)"):
        vg.set_state(records)
    assert (vg.get_state().tobytes(), vg.obs.tobytes(), vg.action_mask.tobytes(),
            vg.current_player.tobytes()) == before


def test_parallel_set_state_checks_the_record_too():
    env = TallyEnv(num_players=2)
    env.reset(seed=0)
    env.step({"player_0": 1, "player_1": 0})
    record = env.get_state()
    record["tally"][0, 1] = 2  # more than the moments played
    before = env.get_state().tobytes()
    with pytest.raises(InvalidStateError, match="a tally is larger than the moments played"):
        env.set_state(record)
    assert env.get_state().tobytes() == before and env.agents == ["player_0", "player_1"]


# ---- a VectorGame trusts no caller ----------------------------------------------------------


def test_writing_into_the_returned_masks_does_not_make_an_action_legal():
    vg = VectorGame(RACE, 2, seed=0, num_players=2, target=3)
    _, mask, _ = vg.reset()
    vg.step(np.array([1, 1]))  # counter 2: only "add 1" is legal
    before = vg.get_state().tobytes()
    mask[:] = 1
    vg.action_mask[:] = 1
    with pytest.raises(IllegalActionError, match="legal there: \\[0\\]"):
        vg.step(np.array([1, 1]))
    assert vg.get_state().tobytes() == before
    vg.random_steps(5)  # random play draws from the true masks, not the caller's
    assert (vg.get_state()["counter"] <= 3).all()


def test_the_views_cannot_be_replaced():
    vg = VectorGame(RACE, 2, seed=0)
    with pytest.raises(AttributeError):
        vg.obs = np.zeros(1, np.float32)  # a kernel would write past its end
    with pytest.raises(AttributeError):
        vg.action_mask = np.ones((2, 2), np.int8)


@pytest.mark.parametrize("bad", [-1, 1.7, "3", True, np.bool_(True), None, 2**63])
def test_random_steps_takes_only_a_non_negative_integer(bad):
    vg = VectorGame(RACE, 2, seed=0)
    vg.reset()
    before = vg.get_state().tobytes()
    with pytest.raises(ValueError, match="num_steps"):
        vg.random_steps(bad)
    assert vg.get_state().tobytes() == before
    with pytest.raises(ValueError, match="observe"):
        vg.random_steps(1, observe="yes")
    assert vg.random_steps(np.int64(0)) == 0 and vg.random_steps(2) == 4


# ---- copies ----------------------------------------------------------------------------------


def _continue(env, actions):
    seen = []
    for action in actions:
        if any(env.terminations.values()):
            break
        env.step(action)
        seen.append((env.get_state().tobytes(), env.agent_selection, dict(env.rewards)))
    return seen


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda env: pickle.loads(pickle.dumps(env))],
                         ids=["deepcopy", "pickle"])
@pytest.mark.parametrize("make", [RaceEnv, envs.make], ids=["raw", "wrapped"])
def test_copies_of_a_mid_game_env_continue_like_the_original(duplicate, make):
    env = make("race_v0", num_players=3, target=20) if make is envs.make else make(num_players=3, target=20)
    env.reset(seed=5)
    for action in (1, 0, 1, 1):
        env.step(action)
    twin = duplicate(env)
    assert twin.unwrapped._states is not env.unwrapped._states
    actions = [0, 1] * 20
    assert _continue(twin, actions) == _continue(env, actions)
    assert any(twin.terminations.values())


@pytest.mark.parametrize("duplicate", [copy.deepcopy, lambda vg: pickle.loads(pickle.dumps(vg))],
                         ids=["deepcopy", "pickle"])
def test_a_vector_game_copies_and_pickles(duplicate):
    vg = VectorGame("race_v0", 3, seed=2, num_players=2)
    vg.reset()
    vg.random_steps(4)
    twin = duplicate(vg)
    assert twin.game is vg.game
    for _ in range(3):
        assert vg.random_steps(7) == twin.random_steps(7)
        assert vg.get_state().tobytes() == twin.get_state().tobytes()
        np.testing.assert_array_equal(vg.obs, twin.obs)
        np.testing.assert_array_equal(vg.action_mask, twin.action_mask)


def test_a_game_is_shared_by_copies_and_pickled_by_its_id():
    assert copy.deepcopy(RACE) is RACE and copy.copy(RACE) is RACE
    assert pickle.loads(pickle.dumps(RACE)) is RACE


# ---- small unclear errors ----------------------------------------------------------------


@pytest.mark.parametrize("call", ["observe", "step", "state", "last", "render", "legal_actions", "get_state",
                                  "agent_iter"])
@pytest.mark.parametrize("env_class", [RaceEnv, TallyAECEnv])
def test_a_raw_env_before_reset_says_so(call, env_class):
    env = env_class(render_mode="ansi")
    arguments = {"observe": ("player_0",), "step": (0,)}.get(call, ())
    with pytest.raises(RuntimeError, match=env.game.env_id + r": call reset\(\) \(or set_state\(\)\) before"):
        getattr(env, call)(*arguments)


@pytest.mark.parametrize("call", ["observe", "step", "state", "render", "legal_actions", "get_state"])
def test_a_parallel_env_before_reset_says_so(call):
    env = TallyEnv(render_mode="ansi")
    arguments = {"observe": ("player_0",), "step": ({"player_0": 0, "player_1": 0},),
                 "legal_actions": ("player_0",)}.get(call, ())
    with pytest.raises(RuntimeError, match=r"call reset\(\)"):
        getattr(env, call)(*arguments)


def test_unknown_agents_are_named():
    env = RaceEnv()
    env.reset(seed=0)
    for bad in ("player_7", 0, ["player_0"]):
        with pytest.raises(ValueError, match=r"unknown agent .*the agents are \['player_0', 'player_1'\]"):
            env.observe(bad)
        with pytest.raises(ValueError, match="unknown agent"):
            env.legal_actions(bad)


@pytest.mark.parametrize("bad", [-1, 2, 1.0, "1", True, None])
def test_action_to_str_names_the_range(bad):
    env = RaceEnv()
    with pytest.raises(ValueError, match=r"race_v0: an action is an integer in \[0, 2\)"):
        env.action_to_str(bad)
    assert env.action_to_str(np.int64(1)) == "add 2" and env.action_to_str(np.array(0)) == "add 1"


@pytest.mark.parametrize("bad", [5, None, 1.5, ("race_v0",), b"race_v0"])
def test_a_non_string_env_id_is_a_value_error_naming_the_ids(bad):
    with pytest.raises(ValueError, match="valid ids are"):
        envs.make(bad)
    with pytest.raises(ValueError, match="valid ids are"):
        VectorGame(bad, 2)


@pytest.mark.parametrize("bad", [3.0, np.float64(3), "3", True])
def test_a_player_count_must_be_an_integer(bad):
    with pytest.raises(ValueError, match=r"num_players=.* is not valid; choose one of \[2, 3, 4\]"):
        RaceEnv(num_players=bad)
    assert RaceEnv(num_players=np.int64(3)).num_players == 3


def test_determinize_refuses_a_seat_that_is_not_at_the_table():
    env = _race_midgame()
    record = env.get_state()
    for seat in (-1, 3, 100):
        with pytest.raises(ValueError, match="seat"):
            kernels.determinize_one(record, seat, np.uint64(1))
    assert record.tobytes() == env.get_state().tobytes()
    kernels.determinize_one(record, 2, np.uint64(1))
    assert record["secret"][0, 2] == env.get_state()["secret"][0, 2]



def test_a_wrapped_env_plays_on_from_a_record_without_a_reset():
    saved = _race_midgame().get_state()
    env = envs.make("race_v0", num_players=3, target=20)
    env.set_state(saved)
    env.step(0)
    assert env.unwrapped.get_state()["counter"][0] == saved["counter"][0] + 1


def test_render_viewer_must_be_a_seat():
    env = RaceEnv(render_mode="ansi")
    env.reset(seed=0)
    for bad in (2, -1, "0", 1.0):
        env.render_viewer = bad
        with pytest.raises(ValueError, match="render_viewer"):
            env.render()
    env.render_viewer = 1
    assert "to act" in env.render()
