"""Every registered game through the OpenSpiel bridge: OpenSpiel's own random simulation test,
the same game as our AEC env for the same seed and actions, serialization, resampling from an
information state, and OpenSpiel's ISMCTS bot in ``evaluate_bots``. Skipped without open-spiel.

Each game runs at its default player count. OpenSpiel's ``random_sim_test`` clones, renders
and checks every state, so it plays games truncated at ``SIM_CYCLES`` decisions (the bridge's
``max_cycles``) to keep CI time modest, and so does the ISMCTS game whose rollouts step through
the Python API; the other tests play whole games.
"""

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms.evaluate_bots import evaluate_bots  # noqa: E402

import envs  # noqa: E402
from agents import RandomAgent  # noqa: E402
from envs import openspiel  # noqa: E402
from envs.core import check_records  # noqa: E402
from envs.testing.play import play_aec  # noqa: E402

SIM_CYCLES = 150
SHORT_CYCLES = 30  # a game whose rollouts step through the Python API (Teufel's random games are long)


def _random_actions(state, rng):
    """One uniformly random legal action per seat at a simultaneous node, else for the seat to act."""
    if state.is_simultaneous_node():
        return [_pick(state.legal_actions(p), rng) for p in range(state.num_players())]
    return _pick(state.legal_actions(), rng)


def _pick(legal, rng):
    return legal[rng.integers(len(legal))]


def _apply(state, action):
    if isinstance(action, list):
        state.apply_actions(action)
    else:
        state.apply_action(action)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_openspiel_random_simulation_test_passes(env_id):
    # serialize=False: see test_bridge.test_openspiel_cannot_serialize_the_game_rng_...; our
    # serialization is tested below instead.
    pyspiel.random_sim_test(openspiel.load(env_id, max_cycles=SIM_CYCLES, seed=1), num_sims=1, serialize=False,
                            verbose=False)
    if envs.game_of(env_id).simultaneous:
        game = openspiel.load(env_id, max_cycles=SIM_CYCLES // 2, seed=1, turn_based=True)
        pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_same_seed_and_actions_give_the_same_game_as_our_aec_env(env_id):
    seed = 3
    env = envs.make(env_id)
    decisions = []  # (seat, action, every seat's observation after it)

    def record(env, agent, action):
        observations = {a: env.observe(a)["observation"] for a in env.possible_agents}
        decisions.append((int(agent.rsplit("_", 1)[1]), action, observations))

    _, returns = play_aec(env, seed, np.random.default_rng(seed), on_step=record)

    state = openspiel.load(env_id, seed=seed).new_initial_state()
    fresh = envs.make(env_id)
    fresh.reset(seed=seed)
    assert np.array_equal(state.record, fresh.unwrapped.get_state())
    players = state.num_players()
    simultaneous = state.is_simultaneous_node()
    step = players if simultaneous else 1  # the AEC form of a simultaneous game: every seat in turn
    for start in range(0, len(decisions), step):
        moment = decisions[start:start + step]
        if simultaneous:
            assert [seat for seat, _, _ in moment] == list(range(players))
            state.apply_actions([action for _, action, _ in moment])
        else:
            assert state.current_player() == moment[0][0]
            state.apply_action(moment[0][1])
        for seat in range(players):
            assert np.array_equal(state.observation_tensor(seat), moment[-1][2][f"player_{seat}"])
    assert state.is_terminal()
    assert state.returns() == pytest.approx([returns[agent] for agent in env.possible_agents], abs=1e-6)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_serialized_states_continue_as_the_original(env_id):
    game = openspiel.load(env_id, seed=5)
    state = game.new_initial_state()
    rng = np.random.default_rng(5)
    copies, actions = [], []
    while not state.is_terminal():
        if len(actions) < 10 or len(actions) & (len(actions) - 1) == 0:  # as random_sim_test does
            for text in (state.serialize(), pyspiel.State.serialize(state)):
                copy = game.deserialize_state(text)
                assert str(copy) == str(state) and copy.returns() == state.returns()
                assert copy.information_state_string(0) == state.information_state_string(0)
                copies.append((copy, len(actions)))
        action = _random_actions(state, rng)
        actions.append(action)
        _apply(state, action)
    for copy, done in copies[-4:]:  # the latest copies replay the rest of the game to the same end
        for action in actions[done:]:
            _apply(copy, action)
        assert copy.is_terminal() and copy.returns() == state.returns()
        assert np.array_equal(copy.record, state.record)


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_resample_from_infostate_keeps_the_players_information_state(env_id):
    game = openspiel.load(env_id, seed=7)
    description = envs.game_of(env_id)
    state = game.new_initial_state()
    rng = np.random.default_rng(7)
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # (seed, min, max): (min, max) seeds at random
    decisions = 0
    while not state.is_terminal():
        if decisions % 7 == 0:
            for player in range(state.num_players()):
                sample = state.resample_from_infostate(player, sampler)
                check_records(description, sample.record)
                assert sample.information_state_string(player) == state.information_state_string(player)
                assert sample.information_state_tensor(player) == state.information_state_tensor(player)
                assert sample.current_player() == state.current_player()
                assert sample.legal_actions(player) == state.legal_actions(player)
                assert sample.returns() == state.returns() and sample.history() == state.history()
        _apply(state, _random_actions(state, rng))
        decisions += 1
        if decisions > 400:
            break


@pytest.mark.parametrize("env_id", envs.ENV_IDS)
def test_openspiel_ismcts_bot_completes_a_game_in_evaluate_bots(env_id):
    # A whole game with the rollouts inside numba (PlayoutEvaluator), then a short one with
    # OpenSpiel's own RandomRolloutEvaluator, whose rollouts step through the Python API.
    simultaneous = envs.game_of(env_id).simultaneous
    for evaluator, config in ((openspiel.PlayoutEvaluator(seed=0), {}), (None, {"max_cycles": SHORT_CYCLES})):
        game = openspiel.load(env_id, seed=11, turn_based=simultaneous, **config)
        players = game.num_players()
        bots = [openspiel.ismcts_bot(game, max_simulations=8, seed=0, evaluator=evaluator)]
        bots += [openspiel.AgentBot(RandomAgent(seed=p), p) for p in range(1, players)]
        state = game.new_initial_state()
        returns = evaluate_bots(state, bots, np.random.RandomState(0))
        assert len(returns) == players and all(-1.0 <= r <= 1.0 for r in returns)
    if simultaneous:  # evaluate_bots on the simultaneous form itself (OpenSpiel's ISMCTS is sequential only)
        game = openspiel.load(env_id, seed=11)
        bots = [pyspiel.make_uniform_random_bot(p, p) for p in range(players)]
        assert len(evaluate_bots(game.new_initial_state(), bots, np.random.RandomState(0))) == players
