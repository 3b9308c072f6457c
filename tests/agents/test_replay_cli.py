"""python -m agents.replay: a saved game shown as text (moves by name, the table) or as a GIF."""

import pytest
from PIL import Image

import envs
from agents import replay as cli
from envs.core import replay
from envs.testing.toy_games import register_toys

register_toys()


@pytest.fixture
def saved_race(tmp_path):
    env = envs.make("race_v0", render_mode="ansi")
    env.reset(seed=9)
    for action in (1, 1, 0, 1, 0):
        env.step(action)
    return replay.save(env, tmp_path / "race.json")


def test_text_lists_every_move_by_name_then_the_final_table(saved_race, capsys):
    assert cli.main([str(saved_race)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "race_v0, 2 players, seed 9, 5 decisions"
    assert lines[1:6] == ["    1. player_0: add 2", "    2. player_1: add 2", "    3. player_0: add 1",
                          "    4. player_1: add 2", "    5. player_0: add 1"]
    assert lines[6] == "step 5, to act: 1, terminal: 0"


def test_step_stops_there_and_tables_draws_every_position(saved_race, capsys):
    cli.main([str(saved_race), "--step", "2", "--tables"])
    lines = capsys.readouterr().out.splitlines()
    assert lines[1:] == ["step 0, to act: 0, terminal: 0", "    1. player_0: add 2", "step 1, to act: 1, terminal: 0",
                         "    2. player_1: add 2", "step 2, to act: 0, terminal: 0"]


def test_gif_has_a_frame_for_the_start_and_each_decision(saved_race, tmp_path, capsys):
    out = tmp_path / "race.gif"
    assert cli.main([str(saved_race), "--gif", str(out), "--step", "4"]) == 0
    assert "(5 frames)" in capsys.readouterr().out
    with Image.open(out) as gif:
        assert gif.n_frames == 5


def test_a_real_game_replays_to_text_and_gif(tmp_path, capsys):
    env = envs.make("volles_fass_voraus_v0")
    env.reset(seed=2)
    for _ in range(6):
        env.step(env.unwrapped.legal_actions()[0])
    path = replay.save(env, tmp_path / "fass.json")
    cli.main([str(path), "--viewer", "1"])
    text = capsys.readouterr().out
    assert "    6. player_" in text and "Player" in text
    assert cli.main([str(path), "--gif", str(tmp_path / "fass.gif")]) == 0
    with Image.open(tmp_path / "fass.gif") as gif:
        assert gif.n_frames == 7


@pytest.mark.parametrize("extra,message", [
    (["--step", "6"], "--step 6: the replay has decisions 0 to 5"),
    (["--viewer", "2"], "--viewer 2: choose a seat from 0 to 1"),
    (["--frame-ms", "0"], "--frame-ms must be at least 1"),
])
def test_bad_arguments_are_usage_errors(saved_race, extra, message, capsys):
    with pytest.raises(SystemExit) as stopped:
        cli.main([str(saved_race), *extra])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_a_file_that_is_not_a_replay_is_a_usage_error(tmp_path, capsys):
    path = tmp_path / "notes.json"
    path.write_text('{"hello": 1}')
    with pytest.raises(SystemExit):
        cli.main([str(path)])
    assert "not a tabletop-marl replay file" in capsys.readouterr().err
