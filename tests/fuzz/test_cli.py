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


def _parsers():
    from agents import replay as replay_cli
    from training import demo, rllib_train, selfplay

    return {"agents.play": play.build_parser(), "agents.replay": replay_cli.build_parser(),
            "training.evaluate": evaluate.build_parser(), "training.selfplay": selfplay.build_parser(),
            "training.rllib_train": rllib_train.build_parser(), "training.demo": demo.build_parser()}


def test_every_option_of_every_command_has_a_help_text():
    for command, parser in _parsers().items():
        for action in parser._actions:
            assert action.help, f"python -m {command}: {action.option_strings or action.dest} has no help text"


@pytest.mark.parametrize("argv,message", [
    (["teufel_teufel_v0", "--save-replay", "/no/such/folder/game.json"], "--save-replay /no/such/folder/game.json"),
    (["secret_hitler_v0", "--players", "12"], "--players 12: secret_hitler_v0 is played by [5, 6, 7, 8, 9, 10]"),
])
def test_play_refuses_more_bad_arguments(argv, message, capsys, no_games):
    assert message in _usage_error(play.main, argv, capsys)


@pytest.mark.parametrize("module,argv,message", [
    ("rllib_train", ["teufel_teufel_v0", "--players", "9"], "--players 9: teufel_teufel_v0 is played by"),
    ("selfplay", ["volle_socke_v0", "--players", "9"], "--players 9: volle_socke_v0 seats"),
    ("selfplay", ["volle_socke_v0", "--seed", "-1"], "--seed -1"),
    ("demo", ["--train-players", "9"], "--train-players 9: volles_fass_voraus_v0 is played by [2, 3, 4]"),
    ("demo", ["--games", "0"], "--games must be at least 1"),
])
def test_training_commands_refuse_bad_arguments_before_any_work(module, argv, message, capsys, tmp_path):
    import importlib

    trainer = importlib.import_module(f"training.{module}")
    parse = getattr(trainer, "parse_args", None) or trainer.main  # demo checks inside main, before any work
    with pytest.raises(SystemExit) as stopped:
        parse(argv + (["--out", str(tmp_path / "run")] if module != "demo" else []))
    assert stopped.value.code == 2 and message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
