"""ISMCTS (agents/ismcts.py over envs/core/search.py): legal, blind to hidden information,
reproducible, within its time budget, the same with one thread as with one tree; on the toy games
and every real game."""

import pathlib
import time

import numpy as np
import pytest

import envs
from agents import RandomAgent, make_agent
from agents.heuristic import batched_heuristic, heuristic_for, playout_strategy
from agents.ismcts import DEFAULT_CUTOFFS, DEFAULT_EPSILONS, DEFAULT_POLICIES, GAME_DEFAULT, ISMCTSAgent, parse_spec
from envs.core import kernels, search
from envs.core.play import play_game
from envs.core.rng import RNG, seed_rng
from envs.core.search import NO_CUTOFF
from envs.testing.play import choice_positions
from envs.testing.toy_games import register_toys
from tests.plain_python import plain_and_compiled

register_toys()
TOYS = ("race_v0", "tally_v0")
ALL_GAMES = TOYS + tuple(envs.ENV_IDS)


class Checked:
    """Wraps an agent and checks every action it picks against the mask it was given."""

    def __init__(self, agent):
        self.agent, self.actions = agent, []
        self.needs_record = agent.needs_record

    def reset(self, seat, env_id, config):
        self.agent.reset(seat, env_id, config)

    def act(self, observation, action_mask, info=None):
        action = self.agent.act(observation, action_mask, info)
        assert isinstance(action, int) and action_mask[action] == 1, f"illegal action {action}"
        self.actions.append(action)
        return action


def positions(env_id, count, seed=0):
    found = choice_positions(env_id, count, seed)
    assert found, f"{env_id}: no position with a choice"
    return found


def decide(env_id, record, seat, observation, mask, pending, **options):
    agent = ISMCTSAgent(**{"iterations": 60, "seed": 5, **options})
    agent.reset(seat, env_id, {"num_players": int(record["num_players"][0])})
    return agent.act(observation, mask, {"record": record, "pending_actions": pending})


# ---- every game -------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", ALL_GAMES)
def test_ismcts_only_picks_legal_actions(env_id):
    game = envs.game_of(env_id)
    config = {} if env_id in TOYS else {"max_cycles": 40}  # real games: the first 40 decisions
    for g in range(2):
        lineup = [Checked(ISMCTSAgent(iterations=40, seed=g))] + [
            RandomAgent(seed=s) for s in range(1, game.default_players)]
        play_game(env_id, lineup, seed=g, config=config)
        assert lineup[0].actions


@pytest.mark.parametrize("env_id", ALL_GAMES)
def test_same_seed_same_choice_and_parallel_trees_match_serial_ones(env_id):
    for record, seat, observation, mask, pending in positions(env_id, 3):
        first = decide(env_id, record, seat, observation, mask, pending, threads=2)
        assert mask[first] == 1
        assert decide(env_id, record, seat, observation, mask, pending, threads=2) == first
        # Two trees grown in parallel threads give exactly the statistics of the same trees grown serially.
        stats = []
        for parallel in (True, False):
            agent = ISMCTSAgent(iterations=60, threads=2, seed=9)
            agent.reset(seat, env_id, {"num_players": int(record["num_players"][0])})
            agent.forest.parallel = parallel
            stats.append([a.copy() for a in agent.search(record, pending)])
        np.testing.assert_array_equal(stats[0][0], stats[1][0])
        np.testing.assert_allclose(stats[0][1], stats[1][1])
        assert stats[0][0].sum() == 60


@pytest.mark.parametrize("env_id", ALL_GAMES)
def test_choice_ignores_the_true_future_randomness(env_id):
    """The record's generator (dice, draws still to come) is hidden: another one, same choice."""
    for record, seat, observation, mask, pending in positions(env_id, 3, seed=1):
        other = record.copy()
        other["rng"] = record["rng"] ^ np.uint64(0x5DEECE66D)
        assert decide(env_id, other, seat, observation, mask, pending) == decide(
            env_id, record, seat, observation, mask, pending)


@pytest.mark.parametrize("env_id", ALL_GAMES)
def test_greedy_playouts_pick_legal_actions_and_repeat_for_a_seed(env_id):
    """eps < 1 (epsilon-greedy playouts; simultaneous games keep random ones): legal choices, the
    same for the same seed, in whole games and at fixed positions."""
    game = envs.game_of(env_id)
    config = {} if env_id in TOYS else {"max_cycles": 30}
    lineup = [Checked(ISMCTSAgent(iterations=30, seed=1, epsilon=0.3, cutoff=5))] + [
        RandomAgent(seed=s) for s in range(1, game.default_players)]
    play_game(env_id, lineup, seed=1, config=config)
    assert lineup[0].actions
    for record, seat, observation, mask, pending in positions(env_id, 2):
        first = decide(env_id, record, seat, observation, mask, pending, epsilon=0.0, cutoff=5, threads=1)
        assert mask[first] == 1
        assert decide(env_id, record, seat, observation, mask, pending, epsilon=0.0, cutoff=5, threads=1) == first


@pytest.mark.parametrize("env_id", [e for e in envs.ENV_IDS if not envs.game_of(e).simultaneous])
def test_greedy_action_is_a_best_one_step_by_reward_plus_playout_value(env_id):
    """greedy_action against a plain recomputation: each legal action stepped on a copy, scored by
    the acting seat's reward plus the engine's playout_value; the pick is among the best."""
    game = envs.game_of(env_id)
    rng = np.zeros(1, RNG)
    seed_rng(rng[0], np.uint64(11))
    for record, seat, observation, mask, pending in positions(env_id, 6, seed=2):
        scores = {}
        for action in np.flatnonzero(mask):
            after = record.copy()
            kernels.step_one(after, int(action))
            out = np.zeros(int(record["num_players"][0]), np.float32)
            game.engine.playout_value(after[0], out)
            scores[int(action)] = float(after[0]["reward"][seat]) + float(out[seat])
        best = max(scores.values())
        values = np.zeros(int(record["num_players"][0]), np.float32)
        picked = search.greedy_action(record[0], seat, mask, np.zeros(1, game.engine.STATE), values, rng[0])
        assert scores[picked] >= best - 2 * search.TIE, (scores, picked)


COMPILED_HEURISTIC = [e for e in envs.ENV_IDS
                      if batched_heuristic(e, {"num_players": envs.game_of(e).default_players}) is not None]
# games whose playouts policy=heuristic can play: a compiled heuristic, or a compiled playout player of
# their own (Voll auf die 18)
PLAYOUT_GAMES = [e for e in envs.ENV_IDS
                 if playout_strategy(e, envs.game_of(e).validate({})) is not None]


@pytest.mark.parametrize("env_id", COMPILED_HEURISTIC)
def test_strategy_action_is_the_heuristic_agents_choice(env_id):
    """A heuristic playout decision is what the game's heuristic agent chooses from the same
    observation, mask and generator state."""
    game = envs.game_of(env_id)
    for record, seat, observation, mask, pending in positions(env_id, 8, seed=4):
        config = {"num_players": int(record["num_players"][0])}
        agent = heuristic_for(env_id, seed=seat)
        agent.reset(seat, env_id, config)
        choose_rows, rules = batched_heuristic(env_id, config)
        search.register_playout_strategy(game.engine.STATE, choose_rows)
        strategy = (rules, np.full((1, game.layout.size), 7.0, np.float32), agent._rngs.copy(), np.zeros(1, np.int64))
        picked = search.strategy_action(record[0], seat, mask.copy(), strategy)
        np.testing.assert_array_equal(strategy[1][0], observation)  # the seat's own view, written over the scratch
        assert picked == agent.act(observation, mask)


@pytest.mark.parametrize("env_id", PLAYOUT_GAMES)
def test_heuristic_playouts_pick_legal_actions_and_repeat_for_a_seed(env_id):
    game = envs.game_of(env_id)
    lineup = [Checked(ISMCTSAgent(iterations=30, seed=1, policy="heuristic", epsilon=0.2, cutoff=5))] + [
        RandomAgent(seed=s) for s in range(1, game.default_players)]
    play_game(env_id, lineup, seed=1, config={"max_cycles": 30})
    assert lineup[0].actions
    for record, seat, observation, mask, pending in positions(env_id, 2):
        stats = []
        for _ in range(2):
            agent = ISMCTSAgent(iterations=40, seed=3, threads=2, policy="heuristic", epsilon=0.0, cutoff=NO_CUTOFF)
            agent.reset(seat, env_id, {"num_players": int(record["num_players"][0])})
            stats.append([a.copy() for a in agent.search(record, pending)])
        np.testing.assert_array_equal(stats[0][0], stats[1][0])
        np.testing.assert_array_equal(stats[0][1], stats[1][1])
        assert stats[0][0].sum() == 40


@pytest.mark.parametrize("env_id", COMPILED_HEURISTIC)
def test_bias_expands_the_heuristics_move_first(env_id):
    """With a progressive bias the root's first child is the heuristic's move (at positions where
    the heuristic agent's choice does not depend on its seed); without one, any legal move."""
    checked = 0
    for record, seat, observation, mask, pending in positions(env_id, 12, seed=6):
        config = {"num_players": int(record["num_players"][0])}
        choices = set()
        for seed in range(8):
            agent = heuristic_for(env_id, seed=seed)
            agent.reset(seat, env_id, config)
            choices.add(agent.act(observation, mask))
        if len(choices) > 1:
            continue
        search_agent = ISMCTSAgent(iterations=1, threads=1, seed=2, policy="heuristic", bias=1.0)
        search_agent.reset(seat, env_id, config)
        visits, _ = search_agent.search(record, pending)
        assert np.flatnonzero(visits).tolist() == [choices.pop()]
        checked += 1
    assert checked >= 3


def test_every_game_has_playouts_for_policy_heuristic():
    assert set(PLAYOUT_GAMES) == set(envs.ENV_IDS)
    assert "voll_auf_die_18_v0" not in COMPILED_HEURISTIC  # its playout player is not its heuristic


def test_heuristic_playouts_need_a_compiled_heuristic():
    for env_id in [e for e in ALL_GAMES if e not in PLAYOUT_GAMES]:
        with pytest.raises(ValueError, match="not compiled|no heuristic agent"):
            ISMCTSAgent(iterations=5, policy="heuristic").reset(0, env_id, {"num_players": 2})
    with pytest.raises(ValueError, match="no playout strategy registered"):
        search.Forest(envs.game_of("race_v0").engine.STATE, 2, 2, False, trees=1, capacity=2,
                      strategy_rules=np.zeros(1, np.int64), observation_size=4)
    with pytest.raises(ValueError, match="policy must be one of"):
        ISMCTSAgent(iterations=5, policy="expert")
    with pytest.raises(ValueError, match="needs policy=heuristic"):
        ISMCTSAgent(iterations=5, policy="greedy", bias=1.0)
    with pytest.raises(ValueError, match="needs policy=heuristic"):  # the game's own policy is greedy
        ISMCTSAgent(iterations=5, bias=1.0).reset(0, "race_v0", {"num_players": 2})


def test_default_policy_is_the_games_own_and_an_explicit_one_wins(monkeypatch):
    env_id = COMPILED_HEURISTIC[0]
    monkeypatch.setitem(DEFAULT_POLICIES, env_id, "heuristic")
    for policy, resolved in ((GAME_DEFAULT, "heuristic"), ("greedy", "greedy")):
        agent = ISMCTSAgent(iterations=5, threads=1, policy=policy)
        agent.reset(0, env_id, {"num_players": envs.game_of(env_id).default_players})
        assert agent.policy == resolved
        assert (agent.forest.strategies is not None) == (resolved == "heuristic")


# The search reads the true record only through the engine's determinize, so its choice for a
# fixed seed ignores hidden information exactly when determinize(record, seat, seed) depends on
# what the seat knows alone: every engine puts the hidden items in a fixed order before it deals
# them from the seed.


def indistinguishable_records(env_id, count):
    """(record, another record its seat cannot tell from it, seat, observation, mask, pending)."""
    game = envs.game_of(env_id)
    for record, seat, observation, mask, pending in positions(env_id, count, seed=1):
        other = record.copy()
        kernels.determinize_one(other, seat, np.uint64(777))  # everything hidden resampled
        obs, other_mask = np.zeros(game.layout.size, np.float32), np.zeros(game.num_actions, np.int8)
        kernels.view_one(other, seat, obs, other_mask)
        np.testing.assert_array_equal(obs, observation)
        np.testing.assert_array_equal(other_mask, mask)
        yield record, other, seat, observation, mask, pending


@pytest.mark.parametrize("env_id", ALL_GAMES)
def test_determinize_depends_only_on_what_the_seat_knows(env_id):
    for record, other, seat, *_ in indistinguishable_records(env_id, 5):
        for r in (record, other):
            kernels.determinize_one(r, seat, np.uint64(5))
        for name in record.dtype.names:
            np.testing.assert_array_equal(record[name], other[name], err_msg=name)


@pytest.mark.parametrize("env_id", ALL_GAMES)
def test_choice_ignores_what_the_seat_cannot_know(env_id):
    """Two records the seat cannot tell apart, the same seed: the same choice."""
    for record, other, seat, observation, mask, pending in indistinguishable_records(env_id, 3):
        assert decide(env_id, other, seat, observation, mask, pending) == decide(
            env_id, record, seat, observation, mask, pending)


# ---- the toy games: hidden information, budgets, threads, playouts ----------------------


def race_position(counter_steps=(1, 1, 0), num_players=2, target=10):
    env = envs.make("race_v0", num_players=num_players, target=target)
    env.reset(seed=0)
    for action in counter_steps:
        env.step(action)
    return env


def test_race_choice_ignores_the_other_seats_secrets():
    env = race_position((), num_players=3)
    record = env.unwrapped.get_state()
    altered = record.copy()
    altered["secret"][0, 1] = (altered["secret"][0, 1] + 5) % 10
    altered["secret"][0, 2] = (altered["secret"][0, 2] + 3) % 10
    altered["rng"] = 99  # the true future randomness is hidden too
    observation = env.observe("player_0")
    choices = [decide("race_v0", r, 0, observation["observation"], observation["action_mask"], None,
                      iterations=50, seed=7) for r in (record, altered)]
    assert choices[0] == choices[1]


def test_one_thread_is_one_tree_grown_in_the_calling_thread():
    """threads=1: the agent's statistics are those of a single tree grown by grow_tree itself."""
    env = race_position()
    record = env.unwrapped.get_state()
    agent = ISMCTSAgent(iterations=200, threads=1, seed=3)
    agent.reset(1, "race_v0", env.unwrapped.config)
    assert agent.forest.parallel is False
    visits, totals = (a.copy() for a in agent.search(record))

    seed = np.random.default_rng(3).integers(2**63, size=1)[0]  # the agent's first tree seed
    game = envs.game_of("race_v0")
    nodes, size = np.zeros(201, search.NODE), np.ones(1, np.int64)
    search.clear_trees(nodes[None], size)
    rngs = np.zeros(1, RNG)
    seed_rng(rngs[0], np.uint64(seed))
    search.grow_tree(nodes, size, record, 1, np.zeros(0, np.int64), np.zeros(1, game.engine.STATE), rngs[0],
                     np.zeros(2, np.int8), np.full(2, -1, np.int32), np.zeros(2), np.zeros(2, np.float32), None,
                     200, agent.exploration, agent.cutoff, agent.max_playout, agent.epsilon,
                     np.zeros(1, game.engine.STATE), None, 0.0)
    single_visits, single_totals = np.zeros(2, np.int64), np.zeros(2)
    search.root_statistics(nodes[None], single_visits, single_totals)
    np.testing.assert_array_equal(visits, single_visits)
    np.testing.assert_allclose(totals, single_totals)


def test_growing_in_chunks_from_a_tiny_arena_is_growing_at_once():
    env = race_position((), target=20)
    record = env.unwrapped.get_state()
    game = envs.game_of("race_v0")
    results = []
    for chunks in (1, 10):
        forest = search.Forest(game.engine.STATE, 2, 2, False, trees=2, capacity=2)
        forest.start([11, 12])
        for _ in range(chunks):
            forest.grow(record, 0, np.zeros(0, np.int64), np.full(2, 300 // chunks, np.int64), 0.7, -1, 5000)
        results.append([a.copy() for a in forest.root_statistics()])
        assert forest.nodes.shape[1] >= forest.sizes.max()
    np.testing.assert_array_equal(results[0][0], results[1][0])
    np.testing.assert_allclose(results[0][1], results[1][1])


def test_ismcts_finds_the_winning_move_of_race():
    """Race to 10 adding 1 or 2: whoever leaves the counter at 1, 4 or 7 wins. From 5, +2."""
    env = race_position()
    observation = env.observe("player_1")
    for threads in (1, 2):
        assert decide("race_v0", env.unwrapped.get_state(), 1, observation["observation"],
                      observation["action_mask"], None, iterations=300, threads=threads) == 1


def test_ismcts_beats_random_at_race_and_never_loses_tally():
    race_wins, tally_returns = 0, []
    for game in range(20):
        for env_id, config in (("race_v0", {"target": 20}), ("tally_v0", {})):
            ismcts, rnd = ISMCTSAgent(iterations=200, seed=game), RandomAgent(seed=game)
            lineup, seat = ([ismcts, rnd], 0) if game % 2 == 0 else ([rnd, ismcts], 1)
            result = play_game(env_id, lineup, seed=game, config=config)[seat]
            if env_id == "race_v0":
                race_wins += result > 0
            else:
                tally_returns.append(result)
    assert race_wins >= 17  # a correct search wins almost always; random play about half
    assert min(tally_returns) >= 0  # adding 1 three times can only tie or win


def test_time_budget_is_respected_loosely():
    env = race_position((), target=30)
    observation = env.observe("player_0")
    agent = ISMCTSAgent(seconds=0.2, seed=0)
    agent.reset(0, "race_v0", env.unwrapped.config)  # compiles outside the budget
    for _ in range(3):
        started = time.perf_counter()
        action = agent.act(observation["observation"], observation["action_mask"],
                           {"record": env.unwrapped.get_state()})
        elapsed = time.perf_counter() - started
        assert observation["action_mask"][action] == 1
        assert agent.last_iterations > 0
        # Loose: it stops when less than a kernel call is left, and the machine may be busy.
        assert 0.1 <= elapsed < 0.2 * 3 + 0.5, elapsed


def test_cutoff_uses_playout_value_only_where_the_engine_has_one():
    """race registers a playout_value (that knows nothing: zeros); tally has none. With cutoff=0 a
    race playout stops at once with the estimate, a tally playout still plays to the end."""
    for env_id, ends in (("race_v0", False), ("tally_v0", True)):
        game = envs.game_of(env_id)
        states = np.zeros(1, game.engine.STATE)
        config = game.make_config(game.validate({}))
        kernels.reset_one(states, np.zeros(1, game.engine.STATE), config, 3)
        rng = np.zeros(1, RNG)
        seed_rng(rng[0], np.uint64(1))
        returns, values = np.zeros(2), np.zeros(2, np.float32)
        joint = np.zeros(2, np.int64) if game.simultaneous else None
        decisions = search.playout(states[0], joint, 0, rng[0], np.zeros(game.num_actions, np.int8), returns,
                                   values, 0, 5000, 1.0, np.zeros(1, game.engine.STATE), None)
        assert bool(states[0].terminal) == ends
        assert (decisions > 0) == ends
        if not ends:
            np.testing.assert_array_equal(returns, 0.0)


def test_default_cutoff_is_the_games_own_and_an_explicit_one_wins(monkeypatch):
    monkeypatch.setitem(DEFAULT_CUTOFFS, "race_v0", 7)
    expected = {("race_v0", GAME_DEFAULT): 7, ("tally_v0", GAME_DEFAULT): NO_CUTOFF,
                ("race_v0", None): NO_CUTOFF, ("race_v0", 3): 3, ("tally_v0", 3): 3}
    for (env_id, cutoff), resolved in expected.items():
        agent = ISMCTSAgent(iterations=5, threads=1, cutoff=cutoff)
        agent.reset(0, env_id, {"num_players": 2})
        assert agent.cutoff == resolved, (env_id, cutoff)
    assert ISMCTSAgent(**parse_spec("5:cutoff=none")).cutoff_option == NO_CUTOFF


def test_default_epsilon_is_the_games_own_and_an_explicit_one_wins(monkeypatch):
    monkeypatch.setitem(DEFAULT_EPSILONS, "race_v0", 0.25)
    for env_id, epsilon, resolved in (("race_v0", GAME_DEFAULT, 0.25), ("tally_v0", GAME_DEFAULT, 1.0),
                                      ("race_v0", 0.5, 0.5)):
        agent = ISMCTSAgent(iterations=5, threads=1, epsilon=epsilon)
        agent.reset(0, env_id, {"num_players": 2})
        assert agent.epsilon == resolved, (env_id, epsilon)


def test_simultaneous_search_completes_the_moment_with_pending_actions():
    """tally, 3 seats, last moment: seat 2 searches after seats 0 and 1 chose; adding wins or ties."""
    env = envs.make_parallel("tally_v0", num_players=3, rounds=2)
    env.reset(seed=0)
    observations, *_ = env.step({"player_0": 1, "player_1": 0, "player_2": 1})
    view = observations["player_2"]
    np.testing.assert_array_equal(view["action_mask"], [1, 1])
    assert decide("tally_v0", env.get_state(), 2, view["observation"], view["action_mask"], [1, 1],
                  iterations=100) == 1


def test_ismcts_requires_the_record():
    agent = ISMCTSAgent(iterations=5)
    agent.reset(0, "race_v0", {"num_players": 2})
    with pytest.raises(ValueError, match="record"):
        agent.act(np.zeros(20, np.float32), np.array([1, 1], np.int8), {})


# ---- specs ------------------------------------------------------------------------------


def test_specs_parse_budgets_and_options():
    assert parse_spec("") == {}
    assert parse_spec("2000") == {"iterations": 2000}
    assert parse_spec("1s") == {"seconds": 1.0}
    assert parse_spec("0.25s:threads=1:cutoff=30:c=1.2") == {
        "seconds": 0.25, "threads": 1, "cutoff": 30, "exploration": 1.2}
    assert parse_spec("500:cutoff=none") == {"iterations": 500, "cutoff": None}
    assert parse_spec("300:eps=0.2") == {"iterations": 300, "epsilon": 0.2}
    assert parse_spec("300:policy=heuristic:bias=0.5") == {"iterations": 300, "policy": "heuristic", "bias": 0.5}
    agent = make_agent("ismcts:0.5s:threads=1", "race_v0", seed=0)
    assert (agent.seconds, agent.iterations, agent.threads) == (0.5, None, 1)
    assert make_agent("ismcts", "race_v0").iterations == 1000


@pytest.mark.parametrize("spec,message", [
    ("ismcts:0", "iterations must be > 0"),
    ("ismcts:-1", "iterations must be > 0"),
    ("ismcts:abc", "neither a number of iterations"),
    ("ismcts:1.5", "neither a number of iterations"),
    ("ismcts:0s", "seconds must be > 0"),
    ("ismcts:-2s", "seconds must be > 0"),
    ("ismcts:nans", "seconds must be > 0"),
    ("ismcts:xs", "neither a number of iterations"),
    ("ismcts:100:threads=0", "threads must be > 0"),
    ("ismcts:100:threads=two", "threads='two' is not a valid int"),
    ("ismcts:100:cutoff=-3", "cutoff must be >= 0"),
    ("ismcts:100:c=-1", "exploration must be >= 0"),
    ("ismcts:100:eps=-0.1", "epsilon must be >= 0"),
    ("ismcts:100:eps=1.5", "epsilon must be at most 1"),
    ("ismcts:100:depth=3", "key one of"),
    ("ismcts:100:policy=expert", "policy must be one of"),
    ("ismcts:100:bias=-1", "bias must be >= 0"),
    ("ismcts:100:policy=greedy:bias=1", "needs policy=heuristic"),
    ("ismcts:100:threads", "key one of"),
])
def test_bad_specs_are_rejected_when_parsed(spec, message):
    with pytest.raises(ValueError, match=message):
        make_agent(spec, "race_v0")


def test_both_budgets_at_once_are_rejected():
    with pytest.raises(ValueError, match="either iterations or seconds"):
        ISMCTSAgent(iterations=10, seconds=1.0)


# ---- plain Python -----------------------------------------------------------------------

_SEARCH_SCRIPT = """
import json, sys
sys.path.insert(0, {root!r})
import numpy as np
import envs
from envs.testing.toy_games import register_toys
from envs.testing.play import choice_positions
from agents.ismcts import ISMCTSAgent
register_toys()
out = []
for env_id in ("race_v0", "tally_v0"):
    for record, seat, observation, mask, pending in choice_positions(env_id, 2, seed=3, num_players=3):
        agent = ISMCTSAgent(iterations=40, threads=2, seed=1)
        agent.reset(seat, env_id, {{"num_players": 3}})
        visits, totals = agent.search(record, pending)
        out.append([visits.tolist(), totals.round(6).tolist()])
# heuristic playouts (a short cut-off keeps plain Python quick)
for record, seat, observation, mask, pending in choice_positions({heuristic_game!r}, 2, seed=3):
    agent = ISMCTSAgent(iterations=40, threads=2, seed=1, policy="heuristic", epsilon=0.1, cutoff=8, bias=0.5)
    agent.reset(seat, {heuristic_game!r}, {{"num_players": int(record["num_players"][0])}})
    visits, totals = agent.search(record, pending)
    out.append([visits.tolist(), totals.round(5).tolist()])
print(json.dumps(out))
"""


def test_plain_python_searches_the_same_trees():
    """NUMBA_DISABLE_JIT=1 runs the same search (prange as range, the overloads as their Python twins),
    heuristic playouts included."""
    script = _SEARCH_SCRIPT.format(root=str(pathlib.Path(__file__).resolve().parents[2]),
                                   heuristic_game=COMPILED_HEURISTIC[0])
    digests = plain_and_compiled(script)
    assert digests[0] == digests[1]
    assert all(sum(visits) == 40 for visits, _ in digests[0])
