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
    assert "'hello' is not a number" in text
    assert "7 is not a legal action now; choose one of [0, 1]" in text
    assert "[  0] add 1" in text and "[  1] add 2" in text
    assert sorted(returns.tolist()) == [-1.0, 1.0]
    assert "final:" in printed[-1]


def test_terminal_play_of_a_simultaneous_game():
    from agents.play import run

    typed = iter(["1", "1", "1", "1", "0", "0"])  # the fourth "1" is refused: the tally is full
    printed = []
    returns = run("tally_v0", seat=1, opponents=["random"], seed=0, num_players=2,
                  input_fn=lambda prompt: next(typed), print_fn=printed.append)
    assert "1 is not a legal action now; choose one of [0]" in "\n".join(printed)
    assert next(typed, None) is None  # five moments, five accepted inputs
    assert returns.shape == (2,)


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
