"""Replays: a saved game plays back to the identical record, in every game; bad files are refused."""

import copy
import json

import numpy as np
import pytest

import envs
from envs.core import replay
from envs.core.replay import ReplayError
from envs.testing.play import play_aec, play_parallel
from envs.testing.toy_games import register_toys

register_toys()

# every registered game at its fewest, default and most players (each a different deal and table)
CASES = [(env_id, players) for env_id in (*envs.ENV_IDS, "race_v0", "tally_v0")
         for players in sorted({min(envs.game_of(env_id).player_counts), envs.game_of(env_id).default_players,
                                max(envs.game_of(env_id).player_counts)})]


def _env(env_id, **config):
    game = envs.game_of(env_id)
    return envs.make_parallel(env_id, **config) if game.simultaneous else envs.make(env_id, **config)


def _play_recording(env, seed):
    """A random game; returns the record after the reset and after every decision."""
    records = []
    play = play_parallel if envs.game_of(env.unwrapped.game.env_id).simultaneous else play_aec
    original_reset = env.reset

    def reset(*args, **kwargs):
        result = original_reset(*args, **kwargs)
        records.append(env.unwrapped.get_state())
        return result

    env.reset = reset
    play(env, seed, on_step=lambda env, *_: records.append(env.unwrapped.get_state()))
    return records


@pytest.mark.parametrize("env_id,players", CASES)
def test_a_saved_random_game_replays_to_the_identical_record_at_every_step(env_id, players, tmp_path):
    env = _env(env_id, num_players=players)
    records = _play_recording(env, seed=players * 7 + 1)
    loaded = replay.load(replay.save(env, tmp_path / "game.json"))
    assert loaded.decisions == len(records) - 1 > 0
    replayed = [position.env.unwrapped.get_state().tobytes() for position in replay.positions(loaded)]
    assert replayed == [record.tobytes() for record in records]
    middle = len(records) // 2
    live = replay.replay_env(loaded, step=middle)
    assert live.unwrapped.get_state().tobytes() == records[middle].tobytes()


def test_the_file_is_small_json_naming_the_game_its_options_seed_and_actions(tmp_path):
    env = envs.make("race_v0", target=7)
    env.reset(seed=5)
    for action in (1, 0, 1):
        env.step(action)
    data = json.loads(replay.save(env, tmp_path / "race.json").read_text())
    assert data["env_id"] == "race_v0" and data["seed"] == 5 and data["start_state"] is None
    assert data["config"] == {"num_players": 2, "max_cycles": 100, "illegal_action": "raise", "target": 7}
    assert data["actions"] == [1, 0, 1]
    assert (tmp_path / "race.json").stat().st_size < 600


def test_a_reset_without_a_seed_records_the_seed_it_drew(tmp_path):
    env = envs.make("race_v0")
    for _ in range(2):  # the second reset continues a derived stream
        env.reset()
        env.step(0)
        again = replay.replay_env(replay.load(replay.save(env, tmp_path / "r.json")))
        assert again.unwrapped.get_state().tobytes() == env.unwrapped.get_state().tobytes()
        assert replay.replay_of(env).actions == [0]


def test_a_game_continued_from_set_state_replays_from_that_record():
    start = _env("teufel_teufel_v0")
    start.reset(seed=11)
    for _ in range(5):
        start.step(start.unwrapped.legal_actions()[0])
    midgame = start.unwrapped.get_state()
    env = _env("teufel_teufel_v0")
    env.set_state(midgame)
    for _ in range(4):
        env.step(env.unwrapped.legal_actions()[-1])
    saved = replay.replay_of(env)
    assert saved.seed is None and saved.decisions == 4
    again = replay.replay_env(replay.from_json(json.loads(json.dumps(replay.to_json(saved)))))
    assert again.unwrapped.get_state().tobytes() == env.unwrapped.get_state().tobytes()


def test_refused_actions_are_not_recorded_and_penalized_ones_replay_the_forfeit():
    env = envs.make("race_v0")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(5)
    env.step(1)
    assert replay.replay_of(env).actions == [1]
    penalized = envs.make("race_v0", illegal_action="penalize")
    penalized.reset(seed=0)
    penalized.step(0)
    penalized.step("two")
    saved = replay.replay_of(penalized)
    assert saved.actions == [0, None]
    again = replay.replay_env(saved)
    assert again.unwrapped.get_state().tobytes() == penalized.unwrapped.get_state().tobytes()
    assert again.rewards == {"player_0": 0.0, "player_1": -1.0}


def test_copies_keep_their_own_history():
    env = envs.make("race_v0")
    env.reset(seed=2)
    env.step(0)
    twin = copy.deepcopy(env)
    twin.step(1)
    env.step(0)
    assert replay.replay_of(env).actions == [0, 0] and replay.replay_of(twin).actions == [0, 1]


def test_positions_name_each_move_and_its_seat():
    env = envs.make("race_v0")
    env.reset(seed=4)
    env.step(1)
    env.step(0)
    steps = list(replay.positions(replay.replay_of(env)))
    assert [p.step for p in steps] == [0, 1, 2]
    assert steps[1].names == ["player_0: add 2"] and steps[2].names == ["player_1: add 1"]
    tally = envs.make_parallel("tally_v0")
    tally.reset(seed=0)
    tally.step({"player_0": 1, "player_1": 0})
    moved = list(replay.positions(replay.replay_of(tally)))[1]
    assert moved.names == ["player_0: add 1", "player_1: hold"] and moved.actions == [1, 0]


def _saved(tmp_path, **changes):
    env = envs.make("race_v0")
    env.reset(seed=1)
    env.step(0)
    env.step(1)
    data = replay.to_json(replay.replay_of(env))
    data.update(changes)
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    return path


@pytest.mark.parametrize("changes,message", [
    ({"format": "something else"}, "not a tabletop-marl replay"),
    ({"version": 99}, "replay version 99"),
    ({"env_id": "chess_v9"}, "unknown env id"),
    ({"config": {"target": 99}}, "target=99 is not valid"),
    ({"seed": None}, "either a seed or a start_state"),
    ({"seed": -3}, "seed must be an integer"),
    ({"seed": None, "start_state": "AAAA"}, "start_state is not a race_v0 record"),
    ({"actions": [0, "add 1"]}, "actions must be a list"),
    ({"actions": 3}, "actions must be a list"),
])
def test_bad_replay_files_are_refused_with_what_is_wrong(tmp_path, changes, message):
    with pytest.raises(ReplayError, match=message):
        replay.load(_saved(tmp_path, **changes))


def test_actions_that_do_not_fit_the_game_or_a_changed_ending_are_reported(tmp_path):
    bad = replay.load(_saved(tmp_path, actions=[0, 7]))
    with pytest.raises(ReplayError, match="decision 2 of the replay does not fit the game"):
        replay.replay_env(bad)
    changed = replay.load(_saved(tmp_path, actions=[0, 0]))
    with pytest.raises(ReplayError, match="did not reach the record it was saved from"):
        replay.replay_env(changed)
    with pytest.raises(ReplayError, match="step must be an integer from 0 to 2"):
        replay.replay_env(changed, step=3)
    (tmp_path / "junk.json").write_text("{not json")
    with pytest.raises(ReplayError, match="not a readable replay file"):
        replay.load(tmp_path / "junk.json")
