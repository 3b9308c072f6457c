"""The OpenSpiel bridge on the toy games: parameters, seeds, errors, serialization, the
turn-based form of a simultaneous game, observations, bots. Skipped without open-spiel."""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

import envs  # noqa: E402
from agents import RandomAgent  # noqa: E402
from envs import openspiel  # noqa: E402
from envs.core import IllegalActionError, InvalidStateError  # noqa: E402
from envs.core import openspiel as bridge  # noqa: E402
from envs.testing.toy_games import register_toys  # noqa: E402

register_toys()
SEQUENTIAL, SIMULTANEOUS = pyspiel.GameType.Dynamics.SEQUENTIAL, pyspiel.GameType.Dynamics.SIMULTANEOUS


def play(state, pick):
    """Apply ``pick(state, player)`` until the end (one action per seat at simultaneous nodes)."""
    while not state.is_terminal():
        if state.is_simultaneous_node():
            state.apply_actions([pick(state, p) for p in range(state.num_players())])
        else:
            state.apply_action(pick(state, state.current_player()))
    return state


def first(state, player):
    return state.legal_actions(player)[0]


def test_game_type_and_info_follow_the_description():
    race, tally = openspiel.load("race_v0"), openspiel.load("tally_v0", num_players=3)
    assert race.get_type().short_name == "tabletop_race" and race.get_type().dynamics == SEQUENTIAL
    assert tally.get_type().dynamics == SIMULTANEOUS and tally.num_players() == 3
    for game in (race, tally):
        kind = game.get_type()
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert kind.reward_model == pyspiel.GameType.RewardModel.REWARDS
        assert game.max_chance_outcomes() == 0
        assert (game.min_utility(), game.max_utility()) == (-1.0, 1.0)
    assert race.num_distinct_actions() == 2 and race.max_game_length() == 100  # race's max_cycles
    assert race.information_state_tensor_shape() == [envs.game_of("race_v0").layout.size]
    assert race.observation_tensor_shape() == race.information_state_tensor_shape()
    assert openspiel.load("tally_v0", turn_based=True).max_game_length() == bridge.UNBOUNDED_LENGTH * 2


def test_options_are_parameters_and_load_game_by_name_gives_the_same_game():
    game = openspiel.load("race_v0", num_players=3, target=12, max_cycles=None, seed=5)
    assert game.get_parameters() == {"num_players": 3, "target": 12, "max_cycles": -1, "seed": 5}
    assert game.config["max_cycles"] is None and game.config["target"] == 12
    by_name = pyspiel.load_game(game.to_string())
    assert by_name.config == game.config and by_name.seed == 5
    assert str(by_name.new_initial_state()) == str(game.new_initial_state())


def test_parameter_kinds_cover_every_option_shape():
    from envs.core.game import Option, int_range

    kinds = {
        "flag": Option(True, "", choices=(True, False)),
        "count": Option(3, "", check=int_range(1, 9)),
        "share": Option(0.5, "", check=lambda v: None),
        "word": Option("a", "", choices=("a", "b")),
        "maybe": Option(None, "", check=lambda v: None if v is None else int_range(0, 9)(v)),
        "mixed": Option("auto", "", choices=("auto", True, False)),
    }
    assert {name: bridge._kind(option) for name, option in kinds.items()} == {
        "flag": bool, "count": int, "share": float, "word": str, "maybe": "int|None", "mixed": "json"}
    assert bridge._encode("json", "auto") == "auto" and bridge._decode("json", "auto") == "auto"
    assert bridge._encode("json", True) == "true" and bridge._decode("json", "true") is True
    assert bridge._decode("json", bridge._encode("json", ("x", "y"))) == ["x", "y"]
    assert bridge._decode("json", bridge._encode("json", "null")) == "null"  # a word that looks like JSON
    assert bridge._encode("int|None", None) == -1 and bridge._decode("int|None", -1) is None
    assert bridge._encode(float, 1) == 1.0 and isinstance(bridge._encode(float, 1), float)


def test_bad_parameters_are_refused_with_the_valid_names():
    with pytest.raises(ValueError, match="unknown OpenSpiel parameter.*illegal actions always raise"):
        openspiel.load("race_v0", illegal_action="penalize")
    with pytest.raises(ValueError, match="target"):
        openspiel.load("race_v0", target=99)
    with pytest.raises(ValueError, match="seed"):
        openspiel.load("race_v0", seed=-5)
    with pytest.raises(ValueError, match="does not fit OpenSpiel's int parameters"):
        openspiel.load("race_v0", seed=2**31)
    with pytest.raises(ValueError, match="turn-based already"):
        openspiel.load("race_v0", turn_based=True)
    with pytest.raises(pyspiel.SpielError):  # OpenSpiel's own type check
        pyspiel.load_game("tabletop_race(target=ten)")


def test_a_seed_deals_as_the_env_does_and_no_seed_deals_at_random():
    env = envs.make("race_v0")
    env.reset(seed=11)
    state = openspiel.load("race_v0", seed=11).new_initial_state()
    assert np.array_equal(state.record, env.unwrapped.get_state())
    game = openspiel.load("race_v0", seed=11)
    assert str(game.new_initial_state()) == str(game.new_initial_state())
    unseeded = openspiel.load("race_v0")
    secrets = {tuple(unseeded.new_initial_state().record["secret"][0]) for _ in range(20)}
    assert len(secrets) > 1


def test_state_follows_the_record_and_accumulates_returns():
    game = openspiel.load("race_v0", target=5, seed=0)
    state = game.new_initial_state()
    assert state.current_player() == 0 and state.legal_actions() == [0, 1] and state.legal_actions(1) == []
    state.apply_action(1)  # counter 2
    state.apply_action(1)  # counter 4
    assert state.current_player() == 0 and state.legal_actions() == [0]  # +2 would pass the target
    assert state.action_to_string(0, 0) == "add 1"
    state.apply_action(0)  # seat 0 hits 5
    assert state.is_terminal() and state.current_player() == pyspiel.PlayerId.TERMINAL
    assert state.returns() == [1.0, -1.0] and state.rewards() == [1.0, -1.0]
    assert state.history() == [1, 1, 0] and state.legal_actions(0) == []


def test_illegal_actions_raise_and_change_nothing():
    state = openspiel.load("race_v0", target=5, seed=0).new_initial_state()
    state.apply_action(1)
    state.apply_action(1)
    before = state.serialize()
    for action in (1, 2, 99):
        with pytest.raises(IllegalActionError, match="cannot take action"):
            state.apply_action(action)
    assert state.serialize() == before and state.history() == [1, 1]
    with pytest.raises(IllegalActionError, match="apply_action"):
        state.apply_actions([0, 0])
    state.apply_action(0)
    with pytest.raises(IllegalActionError, match="over"):
        state._apply_action(0)
    tally = openspiel.load("tally_v0", seed=0).new_initial_state()
    with pytest.raises(IllegalActionError, match="one action for each"):
        tally.apply_actions([1])
    with pytest.raises(IllegalActionError, match="apply_actions"):
        tally._apply_action(1)


def test_max_cycles_ends_the_game_with_the_returns_so_far():
    game = openspiel.load("race_v0", target=30, max_cycles=4, seed=0)
    state = play(game.new_initial_state(), first)
    assert state.is_terminal() and len(state.history()) == 4 and state.returns() == [0.0, 0.0]
    assert not state.record["terminal"][0]  # truncated, not ended by the rules


def test_clone_copies_the_record_and_resample_keeps_the_information_state():
    game = openspiel.load("race_v0", num_players=3, seed=2)
    state = game.new_initial_state()
    state.apply_action(0)
    clone = state.clone()
    clone.apply_action(1)
    assert state.history() == [0] and clone.history() == [0, 1]
    sampler = pyspiel.UniformProbabilitySampler(2, 0.0, 1.0)  # seeded: see the turn-based resample test
    changed = False
    for player in range(3):
        for _ in range(10):
            sample = state.resample_from_infostate(player, sampler)
            assert sample.information_state_string(player) == state.information_state_string(player)
            assert sample.information_state_tensor(player) == state.information_state_tensor(player)
            assert sample.record["secret"][0, player] == state.record["secret"][0, player]
            other = (player + 1) % 3
            changed |= sample.information_state_string(other) != state.information_state_string(other)
    assert changed  # the other seats' secrets were redrawn
    assert state.history() == [0]


def test_observation_strings_spell_the_vector_exactly_and_name_the_player():
    layout = envs.game_of("race_v0").layout
    labels = bridge._labels(layout)
    assert labels[0][:4].tolist() == ["counter", "to_go", "seat[0]", "seat[1]"]
    assert bridge.describe(np.zeros(layout.size, np.float32), labels) == ""
    vector = np.zeros(layout.size, np.float32)
    vector[1], vector[3], vector[0] = 7, 1, 1 / 3
    assert bridge.describe(vector, labels) == "counter=0.333333343 to_go=7 seat[1]"
    state = openspiel.load("race_v0", seed=0).new_initial_state()
    for player in range(2):
        text = state.information_state_string(player)
        assert text.startswith(f"player {player}: ") and f"seat[{player}]" in text
        assert text == state.observation_string(player)
        out = np.zeros(layout.size, np.float32)
        state.observe(player, out)
        assert state.information_state_tensor(player) == out.tolist()
    with pytest.raises(ValueError, match="player must be a seat"):
        state.observe(2, out)


def test_serialize_round_trips_through_the_record_bytes_and_openspiel_format():
    game = openspiel.load("race_v0", num_players=3, seed=4)
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    while not state.is_terminal():
        for text in (state.serialize(), pyspiel.State.serialize(state)):
            copy = game.deserialize_state(text)
            assert str(copy) == str(state) and copy.returns() == state.returns()
            assert np.array_equal(copy.record, state.record)
            assert copy.current_player() == state.current_player()
        legal = state.legal_actions()
        state.apply_action(legal[rng.integers(len(legal))])
    assert game.deserialize_state(state.serialize()).is_terminal()


def test_deserialize_refuses_bad_text_and_names_the_problem():
    game = openspiel.load("race_v0", seed=4)
    state = game.new_initial_state()
    good = state.serialize()
    record, returns = (line.partition("=")[2] for line in good.splitlines())
    with pytest.raises(ValueError, match="lines"):
        game.deserialize_state("record=abc")
    with pytest.raises(ValueError, match="unreadable"):
        game.deserialize_state(f"record=@@@\nreturns={returns}")
    with pytest.raises(ValueError, match="bytes"):
        game.deserialize_state(f"record={record[:-8]}\nreturns={returns}")
    with pytest.raises(ValueError, match="2 finite numbers"):
        game.deserialize_state(f"record={record}\nreturns=0.0,nan")
    three = openspiel.load("race_v0", num_players=3, seed=4).new_initial_state().serialize()
    with pytest.raises(ValueError, match="3-player game"):
        game.deserialize_state(three.replace("returns=0.0,0.0,0.0", "returns=0.0,0.0"))
    corrupt = state.record
    corrupt["counter"] = 20  # past the target of 10: check_state refuses it
    import base64

    with pytest.raises(InvalidStateError, match="counter is past the target"):
        game.deserialize_state(f"record={base64.b64encode(corrupt.tobytes()).decode()}\nreturns={returns}")


def test_openspiel_cannot_serialize_the_game_rng_of_python_sampled_stochastic_games():
    # Why random_sim_test runs with serialize=False: OpenSpiel serializes a sampled-stochastic
    # game with its RNG state (Game::GetRNGState), which pyspiel does not let a Python game
    # implement. If this starts passing, turn serialization on in test_games.py.
    game = openspiel.load("race_v0", seed=1)
    with pytest.raises(pyspiel.SpielError, match="GetRNGState"):
        pyspiel.serialize_game_and_state(game, game.new_initial_state())


def test_random_sim_test_passes_for_both_dynamics_and_the_turn_based_form():
    for game in (openspiel.load("race_v0", num_players=4), openspiel.load("tally_v0", num_players=3),
                 openspiel.load("tally_v0", num_players=3, turn_based=True)):
        pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_turn_based_form_hides_the_choices_of_the_step_and_applies_them_together():
    game = openspiel.load("tally_v0", num_players=3, rounds=2, seed=0, turn_based=True)
    assert game.get_type().short_name == "tabletop_tally_turn_based" and game.get_type().dynamics == SEQUENTIAL
    state = game.new_initial_state()
    seen = state.information_state_string(1)
    state.apply_action(1)  # seat 0 adds 1
    assert state.current_player() == 1 and state.information_state_string(1) == seen
    assert state.rewards() == [0.0, 0.0, 0.0] and state.record["moment"][0] == 0
    state.apply_action(0)
    state.apply_action(0)  # the step is applied now
    assert state.current_player() == 0 and list(state.record["tally"][0]) == [1, 0, 0]
    simultaneous = openspiel.load("tally_v0", num_players=3, rounds=2, seed=0).new_initial_state()
    simultaneous.apply_actions([1, 0, 0])
    assert np.array_equal(simultaneous.record, state.record)
    for action in (1, 0, 0):
        state.apply_action(action)
    assert state.is_terminal() and state.returns() == [1.0, -1.0, -1.0] and state.rewards() == [1.0, -1.0, -1.0]


def test_turn_based_resample_redraws_the_hidden_choices_and_serializes_them():
    game = openspiel.load("tally_v0", num_players=3, seed=0, turn_based=True)
    state = game.new_initial_state()
    state.apply_action(1)
    state.apply_action(1)
    # pyspiel's UniformProbabilitySampler(min, max) seeds itself at random: with it, 40 uniform draws
    # missed one of the 4 pairs in about 1 run in 25,000. The seeded one draws the same every run.
    sampler = pyspiel.UniformProbabilitySampler(0, 0.0, 1.0)
    draws = {state.resample_from_infostate(2, sampler)._chosen for _ in range(40)}
    assert draws == {(a, b) for a in (0, 1) for b in (0, 1)}
    assert {state.resample_from_infostate(1, sampler)._chosen[1] for _ in range(20)} == {1}  # its own choice
    copy = game.deserialize_state(state.serialize())
    assert copy._chosen == (1, 1) and copy.current_player() == 2 and str(copy) == str(state)
    with pytest.raises(ValueError, match="at most 2"):
        game.deserialize_state(state.serialize().replace("chosen=1,1", "chosen=1,1,1"))
    with pytest.raises(IllegalActionError):
        game.deserialize_state(state.serialize().replace("chosen=1,1", "chosen=1,7"))


def test_openspiel_ismcts_bot_and_our_agents_play_through_evaluate_bots():
    game = openspiel.load("race_v0", num_players=3, seed=3)
    bots = [openspiel.ismcts_bot(game, max_simulations=20, seed=0),
            openspiel.AgentBot(RandomAgent(seed=1), player=1),
            openspiel.AgentBot(RandomAgent(seed=2), player=2)]
    returns = evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))
    assert sorted(returns) == [-1.0, -1.0, 1.0]
    turn_based = openspiel.load("tally_v0", seed=3, turn_based=True)
    bots = [openspiel.ismcts_bot(turn_based, max_simulations=20, seed=p) for p in range(2)]
    returns = evaluate_bots(turn_based.new_initial_state(), bots, np.random.RandomState(0))
    assert returns in ([0.0, 0.0], [1.0, -1.0], [-1.0, 1.0])


def test_playout_evaluator_plays_to_the_end_inside_numba():
    game = openspiel.load("race_v0", num_players=3, seed=3)
    evaluator = openspiel.PlayoutEvaluator(seed=0)
    state = game.new_initial_state()
    values = evaluator.evaluate(state)
    assert sorted(values.tolist()) == [-1.0, -1.0, 1.0]  # a whole game: one winner
    assert evaluator.prior(state) == [(0, 0.5), (1, 0.5)]
    assert state.history() == [] and not state.is_terminal()  # played on a copy
    cut = openspiel.load("race_v0", target=30, max_cycles=3, seed=3).new_initial_state()
    assert evaluator.evaluate(cut).tolist() == [0.0, 0.0]  # stops at max_cycles, as the game does
    turn_based = openspiel.load("tally_v0", rounds=1, seed=0, turn_based=True).new_initial_state()
    turn_based.apply_action(1)
    outcomes = {tuple(evaluator.evaluate(turn_based).tolist()) for _ in range(30)}
    assert outcomes == {(1.0, -1.0), (0.0, 0.0)}  # seat 1's choice is drawn, seat 0's kept
    bots = [openspiel.ismcts_bot(game, max_simulations=20, seed=p, evaluator=evaluator) for p in range(3)]
    assert sorted(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))) == [-1.0, -1.0, 1.0]


def test_sampling_algorithms_run_and_tree_enumerating_ones_do_not():
    # What the module docstring promises: rl_environment and sampling MCCFR work, tabular CFR
    # (which enumerates the tree from one initial state, without chance nodes) does not.
    from open_spiel.python import rl_environment
    from open_spiel.python.algorithms import cfr, external_sampling_mccfr, outcome_sampling_mccfr

    for game in (openspiel.load("race_v0"), openspiel.load("tally_v0")):
        env = rl_environment.Environment(game)
        rng = np.random.default_rng(0)
        step = env.reset()
        assert len(step.observations["info_state"][0]) == game.information_state_tensor_size()
        while not step.last():
            players = [step.observations["current_player"]] if env.is_turn_based else range(game.num_players())
            step = env.step([rng.choice(step.observations["legal_actions"][p]) for p in players])
        assert len(step.rewards) == game.num_players()
    game = openspiel.load("race_v0", target=5)
    for solver in (outcome_sampling_mccfr.OutcomeSamplingSolver(game),
                   external_sampling_mccfr.ExternalSamplingSolver(game)):
        for _ in range(20):
            solver.iteration()
        probabilities = solver.average_policy().action_probabilities(game.new_initial_state())
        assert sum(probabilities.values()) == pytest.approx(1.0)
    # CFR deals twice (its root, and TabularPolicy's enumeration); two equal deals (5 of 300
    # random loads) let it run, so the deal stream is fixed to one whose two deals differ.
    game._seeds = np.random.default_rng(0)
    with pytest.raises(KeyError):
        cfr.CFRSolver(game).evaluate_and_update_policy()
