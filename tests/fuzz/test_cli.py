"""Bad command lines are usage errors (exit status 2, a message naming the argument) before any
game is played or any file is written."""

import pytest

from agents import play
from training import evaluate


def _usage_error(main, argv, capsys):
    with pytest.raises(SystemExit) as stopped:
        main(argv)
    assert stopped.value.code == 2
    return capsys.readouterr().err


@pytest.fixture
def no_games(monkeypatch):
    """Any game played fails the test: the arguments must be refused first."""

    def played(*args, **kwargs):
        raise AssertionError("a game was played before the arguments were checked")

    monkeypatch.setattr(play, "run", played)
    monkeypatch.setattr(evaluate, "evaluate", played)


@pytest.mark.parametrize("argv,message", [
    (["race_v0"], "invalid choice"),
    (["teufel_teufel_v0", "--opponents", ""], "--opponents needs at least one agent"),
    (["teufel_teufel_v0", "--opponents", " , "], "--opponents needs at least one agent"),
    (["teufel_teufel_v0", "--opponents", "wizard"], "--opponents: "),
    (["teufel_teufel_v0", "--seat", "7"], "--seat 7"),
    (["teufel_teufel_v0", "--seat", "-1"], "--seat -1"),
    (["teufel_teufel_v0", "--players", "0"], "--players 0"),
    (["teufel_teufel_v0", "--players", "12"], "--players 12"),
    (["teufel_teufel_v0", "--seed", "-5"], "--seed -5"),
    (["teufel_teufel_v0", "--players", "2.5"], "invalid int value"),
])
def test_play_refuses_bad_arguments_before_the_game(argv, message, capsys, no_games):
    assert message in _usage_error(play.main, argv, capsys)


@pytest.mark.parametrize("argv,message", [
    (["teufel_teufel_v0", "--agents", ""], "--agents needs at least one agent"),
    (["teufel_teufel_v0", "--agents", "random,wizard"], "--agents: "),
    (["teufel_teufel_v0", "--games", "0"], "--games must be at least 1"),
    (["teufel_teufel_v0", "--players", "1"], "--players 1"),
    (["teufel_teufel_v0", "--seed", "-1"], "--seed -1"),
])
def test_evaluate_refuses_bad_arguments_before_the_games(argv, message, capsys, no_games):
    assert message in _usage_error(evaluate.main, argv, capsys)


def test_evaluate_refuses_an_out_directory_it_cannot_make(tmp_path, capsys, no_games):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a directory")
    for out in (blocker, blocker / "below"):
        error = _usage_error(evaluate.main, ["teufel_teufel_v0", "--games", "1", "--out", str(out)], capsys)
        assert f"--out {out}: cannot make that directory" in error
