"""Tournament output: games written as they end, Ctrl-C keeps them, tables that explain themselves."""

import csv

import pytest

import envs
from agents import RandomAgent
from envs.core import replay
from envs.testing.toy_games import RACE, register_toys
from training import evaluate as evaluation
from training.evaluate import evaluate, format_table, short_names, summarize, write_outputs

register_toys()
SECOND_RANDOM = {"random#2": lambda seed: RandomAgent(seed=seed)}


def test_results_carry_the_fair_share_and_the_table_shows_it():
    results = evaluate("race_v0", ["random", "random#2"], games=4, config={"num_players": 4}, progress=False,
                       factories=SECOND_RANDOM)
    assert [r["fair_share"] for r in results] == [0.25, 0.25]
    lines = format_table("race_v0", results).splitlines()
    assert "fair share" in lines[1]
    assert all(line.split()[5] == "0.25" for line in lines[2:4])  # agent, seats, rate, [low, high], share


def test_a_game_that_sets_its_fair_share_is_believed(monkeypatch):
    monkeypatch.setattr(RACE, "fair_share", lambda players: 0.5)
    assert evaluation.fair_share("race_v0", 4) == 0.5
    monkeypatch.setattr(RACE, "fair_share", None)
    assert evaluation.fair_share("race_v0", 4) == 0.25


def test_games_with_roles_get_a_win_rate_per_role(monkeypatch, tmp_path):
    # Race seats as two "teams" by parity (a stand-in for liberals and fascists).
    monkeypatch.setattr(RACE, "role_of", lambda record, seat: ("odd", "even")[seat % 2 == 0])
    results = evaluate("race_v0", ["random", "random#2"], games=6, config={"num_players": 3}, progress=False,
                       factories=SECOND_RANDOM)
    for r in results:
        split = r["by_role"]
        assert set(split) == {"even", "odd"}
        assert sum(s["seats"] for s in split.values()) == r["seats_played"]
        assert sum(s["wins"] for s in split.values()) == r["wins"]
        for s in split.values():
            assert s["win_rate"] == s["wins"] / s["seats"]
    table = format_table("race_v0", results)
    assert "as even" in table and "as odd" in table
    header = write_outputs("race_v0", results, tmp_path)[0].read_text().splitlines()[0].split(",")
    assert {"seats_as_even", "win_rate_as_even", "seats_as_odd", "win_rate_as_odd"} <= set(header)


def test_long_policy_names_are_shortened_in_tables_and_told_apart():
    specs = ["random", "policy:/very/long/path/to/runs/socke_a/checkpoint.zip",
             "policy:/very/long/path/to/runs/socke_b/checkpoint.zip"]
    assert short_names(specs) == ["random", "policy:socke_a/checkpoint", "policy:socke_b/checkpoint"]
    same_folder = ["policy:/x/a/pool/snapshot_1.zip", "policy:/x/b/pool/snapshot_1.zip"]
    assert short_names(same_folder) == ["policy:a/pool/snapshot_1", "policy:b/pool/snapshot_1"]
    long = short_names(["ismcts:" + "9" * 40])[0]
    assert len(long) == evaluation.NAME_WIDTH and long.startswith("ismcts:") and "\u2026" in long
    rows = [{"game": 0, "seed": 0, "agents": [0, 1], "returns": [1.0, -1.0], "won": [True, False],
             "roles": [None, None], "replay": None}]
    table = format_table("race_v0", summarize("race_v0", specs[1:], rows))
    assert "policy:socke_a/checkpoint " in table
    assert f"policy:socke_a/checkpoint = {specs[1]}" in table  # the key below the table
    assert max(len(line) for line in table.splitlines()[:4]) < 120


def _main_stopped_after(monkeypatch, games_before_stop, argv):
    """Run evaluate's command line, pressing Ctrl-C when game ``games_before_stop`` starts."""
    played = []
    real = evaluation.play_game

    def play_game(*args, **kwargs):
        if len(played) == games_before_stop:
            raise KeyboardInterrupt
        played.append(1)
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluation, "play_game", play_game)
    evaluation.main(argv)


def test_the_command_line_writes_games_as_they_end_and_ctrl_c_keeps_them(monkeypatch, tmp_path, capsys):
    out, replays = tmp_path / "out", tmp_path / "replays"
    _main_stopped_after(monkeypatch, 3, ["secret_hitler_v0", "--agents", "random", "--games", "10",
                                         "--out", str(out), "--replays", str(replays)])
    printed = capsys.readouterr().out
    assert "stopped: 3 of 10 games played" in printed
    lines = printed.splitlines()
    header, row = lines[lines.index("secret_hitler_v0") + 1:][:2]
    assert header.split()[6:10] == ["fair", "share", "as", "fascist"] and "as liberal" in header
    assert row.split()[5] == "0.50"  # Secret Hitler's fair share: one of two teams wins each game
    with open(out / "secret_hitler_v0_games.csv") as handle:
        games = list(csv.DictReader(handle))
    assert [int(g["game"]) for g in games] == [0, 1, 2]
    assert all(g["agent_0"] == "random" and g["won_0"] in ("0", "1") for g in games)
    assert {g[f"role_{seat}"] for g in games for seat in range(7)} == {"liberal", "fascist"}
    summary = list(csv.DictReader(open(out / "secret_hitler_v0_evaluation.csv")))
    assert summary[0]["seats_played"] == str(3 * envs.game_of("secret_hitler_v0").default_players)
    saved = replay.load(games[1]["replay"])
    assert saved.seed == 1 and saved.env_id == "secret_hitler_v0"
    assert replay.replay_env(saved).unwrapped.get_state()["terminal"][0] == 1


def test_a_run_stopped_before_any_game_ended_says_so(monkeypatch, tmp_path, capsys):
    _main_stopped_after(monkeypatch, 0, ["secret_hitler_v0", "--agents", "random", "--out", str(tmp_path)])
    assert "no game finished" in capsys.readouterr().out
    assert (tmp_path / "secret_hitler_v0_games.csv").read_text().startswith("game,seed,agent_0")


def test_every_game_row_is_on_disk_before_the_next_game_starts(monkeypatch, tmp_path):
    seen = []
    real = evaluation.play_game
    path = tmp_path / "secret_hitler_v0_games.csv"

    def play_game(*args, **kwargs):
        seen.append(len(path.read_text().splitlines()) - 1)  # rows already written
        return real(*args, **kwargs)

    monkeypatch.setattr(evaluation, "play_game", play_game)
    evaluation.main(["secret_hitler_v0", "--agents", "random", "--games", "3", "--out", str(tmp_path)])
    assert seen == [0, 1, 2]


@pytest.mark.parametrize("argv,message", [
    (["secret_hitler_v0", "--players", "12"], "--players 12"),
    (["secret_hitler_v0", "--replays", "/proc/no/such/dir"], "--replays /proc/no/such/dir: cannot make"),
])
def test_more_bad_arguments_are_usage_errors(argv, message, capsys, monkeypatch):
    monkeypatch.setattr(evaluation, "play_games", lambda *a, **k: pytest.fail("a game was played"))
    with pytest.raises(SystemExit) as stopped:
        evaluation.main(argv)
    assert stopped.value.code == 2 and message in capsys.readouterr().err


def test_in_training_evaluation_shows_a_progress_bar_with_its_eta(capsys):
    from training.policy_eval import policy_strength

    result = policy_strength("random", "race_v0", "random", games=8, num_envs=4, progress=True)
    bar = capsys.readouterr().err
    assert "evaluating vs random" in bar and "/8 [" in bar and "?game/s" in bar  # count, elapsed<remaining, rate
    assert result["games"] == 8
    policy_strength("random", "race_v0", "random", games=8, num_envs=4)
    assert capsys.readouterr().err == ""  # quiet unless asked


def test_the_interval_holds_the_win_rate_even_at_zero_and_one(tmp_path):
    for n in range(1, 300):
        assert evaluation.wilson_interval(0, n)[0] == 0.0 and evaluation.wilson_interval(n, n)[1] == 1.0
    rows = [{"game": g, "seed": g, "agents": [0, 1], "returns": [1.0, -1.0], "won": [True, False],
             "roles": [None, None], "replay": None} for g in range(11)]
    results = summarize("race_v0", ["always", "never"], rows)
    assert write_outputs("race_v0", results, tmp_path)[1].stat().st_size > 1000  # drew the error bars
