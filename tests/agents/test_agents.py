"""Agents: legality, determinism, playing and recording games (ISMCTS in detail: test_ismcts.py)."""

import numpy as np
import pytest

from agents import RandomAgent, make_agent
from envs.core.play import play_game
from envs.testing.toy_games import register_toys

register_toys()


class Recorder:
    """Wraps an agent and checks every action it picks against the mask it was given."""

    def __init__(self, agent):
        self.agent, self.actions = agent, []

    def reset(self, seat, env_id, config):
        self.agent.reset(seat, env_id, config)

    @property
    def needs_record(self):
        return getattr(self.agent, "needs_record", False)

    def act(self, observation, action_mask, info=None):
        action = self.agent.act(observation, action_mask, info)
        assert action_mask[action] == 1, f"{self.agent.name} picked illegal action {action}"
        self.actions.append(action)
        return action


@pytest.mark.parametrize("env_id", ["race_v0", "tally_v0"])
@pytest.mark.parametrize("spec", ["random", "ismcts:30"])
def test_agents_only_pick_legal_actions(env_id, spec):
    for game in range(5):
        lineup = [Recorder(make_agent(spec, env_id, seed=game)), Recorder(RandomAgent(seed=game))]
        play_game(env_id, lineup, seed=game)
        assert lineup[0].actions


def test_random_agent_is_reproducible_from_its_seed():
    mask = np.array([1, 0, 1, 1, 0, 1], np.int8)
    a, b = RandomAgent(seed=3), RandomAgent(seed=3)
    picks = [a.act(None, mask) for _ in range(50)]
    assert picks == [b.act(None, mask) for _ in range(50)]
    assert set(picks) == {0, 2, 3, 5}


def test_make_agent_rejects_unknown_specs_and_missing_checkpoints():
    with pytest.raises(ValueError, match="unknown agent"):
        make_agent("genius", "race_v0")
    with pytest.raises(ValueError, match="no checkpoint"):
        make_agent("policy:/nonexistent/model.zip", "race_v0")
    with pytest.raises(ValueError, match="no heuristic"):
        make_agent("heuristic", "race_v0")


def test_unreadable_checkpoint_is_a_clear_error(tmp_path):
    bad = tmp_path / "model.zip"
    bad.write_bytes(b"this is not a zip file")
    with pytest.raises(ValueError, match="not a readable MaskablePPO checkpoint"):
        make_agent(f"policy:{bad}", "race_v0")


def test_terminal_play_answers_bad_input_and_asks_again():
    from agents.play import run

    typed = iter(["hello", "7", "", "0", "0", "0", "0", "0", "0", "0", "0", "0", "0"])
    printed = []
    returns = run("race_v0", seat=0, opponents=["random"], seed=0, num_players=2,
                  input_fn=lambda prompt: next(typed), print_fn=printed.append)
    text = "\n".join(printed)
    assert "no legal action is called 'hello'" in text
    assert "7 is not a legal action now; choose one of [0, 1]" in text
    assert "type the number or the name of an action" in text
    assert "[  0] add 1" in text and "[  1] add 2" in text
    assert sorted(returns.tolist()) == [-1.0, 1.0]
    assert "final:" in printed[-1]


def test_terminal_play_names_every_move_and_takes_names_or_their_unique_beginnings():
    from agents.play import run

    typed = iter(["ADD 2", "add 1", "Add 1", "add 1", "add 1", "add 1", "add 1"])
    printed = []
    run("race_v0", seat=1, opponents=["random"], seed=3, num_players=2, input_fn=lambda prompt: next(typed),
        print_fn=printed.append)
    moves = [line for line in printed if line.startswith(("player_0: ", "you (player_1): "))]
    assert moves[0] in ("player_0: add 1", "player_0: add 2")  # the opponent moves first, by name
    assert moves[1] == "you (player_1): add 2"
    assert len(moves) >= 3 and all(m.endswith(("add 1", "add 2")) for m in moves)


def test_choices_parse_by_number_whole_name_or_unique_prefix():
    from agents.play import parse_choice

    names = ["wait", "argue at space 1", "argue at space 2", "accept the offer", "argue"]
    legal = {0, 1, 2, 3, 4}
    assert parse_choice("3", legal, names) == (3, None)
    assert parse_choice("  WAIT ", legal, names) == (0, None)
    assert parse_choice("acc", legal, names) == (3, None)
    assert parse_choice("argue", legal, names) == (4, None)  # a whole name beats the longer ones it begins
    assert parse_choice("argue at space 2", legal, names) == (2, None)
    action, problem = parse_choice("argue at", legal, names)
    assert action is None and "fits 2 actions (1 argue at space 1; 2 argue at space 2)" in problem
    action, problem = parse_choice("a", {1, 2}, names)  # only legal actions count
    assert action is None and "fits 2 actions" in problem
    assert parse_choice("acc", {0, 1}, names)[0] is None
    assert "not a legal action now" in parse_choice("9", legal, names)[1]


def test_long_lists_of_choices_are_laid_out_in_columns():
    from agents.play import show_choices

    names = [f"action number {a}" for a in range(48)]
    printed = []
    show_choices(list(range(48)), names, printed.append)
    assert len(printed) < 48 / 2 and all(len(line) <= 100 for line in printed)
    assert "".join(printed).count("[") == 48
    short = []
    show_choices([0, 1], names, short.append)
    assert short == ["  [  0] action number 0", "  [  1] action number 1"]


def test_terminal_play_of_a_simultaneous_game():
    from agents.play import run

    typed = iter(["1", "1", "1", "1", "0", "0"])  # the fourth "1" is refused: the tally is full
    printed = []
    returns = run("tally_v0", seat=1, opponents=["random"], seed=0, num_players=2,
                  input_fn=lambda prompt: next(typed), print_fn=printed.append)
    assert "1 is not a legal action now; choose one of [0]" in "\n".join(printed)
    assert next(typed, None) is None  # five moments, five accepted inputs
    assert returns.shape == (2,)
    moves = [line for line in printed if line.startswith("player_0: ")]
    assert len(moves) == 5 and moves[0].endswith("; you: add 1")


def test_the_end_reveals_the_whole_table_and_why_it_ended(tmp_path):
    from agents.play import run
    from envs.core import replay

    printed = []
    path = tmp_path / "game.json"
    run("race_v0", seat=0, opponents=["random"], seed=0, num_players=2, input_fn=lambda prompt: "0",
        print_fn=printed.append, replay_path=path)
    end = printed.index(next(line for line in printed if "game over: everything revealed" in line))
    assert "terminal: 1" in printed[end + 1]  # the table, drawn for no one seat
    assert printed[end + 2].startswith("the game ended by its rules after ")
    assert printed[-1].startswith("replay saved to")
    again = replay.replay_env(replay.load(path))
    assert again.unwrapped.get_state()["terminal"][0] == 1


def test_an_abandoned_game_keeps_its_replay(tmp_path):
    from agents.play import run
    from envs.core import replay

    typed = iter(["1", "q"])
    path = tmp_path / "left.json"
    with pytest.raises(KeyboardInterrupt):
        run("race_v0", seat=0, opponents=["random"], seed=0, num_players=2, input_fn=lambda prompt: next(typed),
            print_fn=lambda text: None, replay_path=path)
    saved = replay.load(path)
    assert saved.actions[0] == 1 and saved.decisions == 2  # my move and the opponent's


def test_record_gif_writes_one_frame_per_decision(tmp_path):
    from PIL import Image

    from envs.core.play import record_gif

    path = tmp_path / "race.gif"
    returns = record_gif("race_v0", [RandomAgent(seed=0), RandomAgent(seed=1)], path, seed=0,
                         config={"target": 5})
    with Image.open(path) as gif:
        frames = gif.n_frames
    assert sorted(returns.tolist()) == [-1.0, 1.0]
    assert 4 <= frames <= 6  # the start plus one per decision: 5 reached in 3 to 5 additions
