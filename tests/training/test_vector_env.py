"""The batched self-play envs against the single-game AEC env they stand for (toy games)."""

import numpy as np
import pytest

import envs
from envs.core import learner as K
from envs.core.game import IllegalActionError
from envs.core.rng import choice, derive_seed, randint
from envs.testing.toy_games import register_toys
from training.policy_eval import policy_strength
from training.vector_env import LearnerVecEnv, TeamVecEnv

register_toys()


def first_legal(obs, masks):
    """A scripted 'snapshot': the first legal action of each row."""
    return masks.argmax(axis=1).astype(np.int64)


class Mirror:
    """Game ``i`` of a LearnerVecEnv replayed through the AEC env, drawing the learner's seat, the
    opponents and the random opponents' moves from a copy of the game's own action stream."""

    def __init__(self, vec, i, weights, snapshot=None):
        self.vec, self.i, self.weights, self.snapshot = vec, i, np.asarray(weights, float), snapshot
        self.slot = vec._slots[i : i + 1].copy()  # before reset(): the stream as the batch starts it
        self.env = envs.make(vec.env_id, **{k: v for k, v in vec.config.items() if k != "max_cycles"}).unwrapped
        self.episode = 0
        self._start()

    def _start(self):
        self.env.reset(seed=int(derive_seed(self.vec.seed_value, self.i, self.episode)))
        players = self.env.num_players
        self.learner = int(randint(self.slot[0], players))
        n_snap = 1 if self.snapshot is not None else 0
        self.kinds = [K.LEARNER if s == self.learner else int(K._draw_kind(self.slot[0], self.weights, n_snap))
                      for s in range(players)]
        self.returns = np.zeros(players)
        self.acted = False
        self.span = 0.0
        self.finished = None
        self._advance()

    def _apply(self, action):
        self.env.step(int(action))
        self.returns += [self.env.rewards[a] for a in self.env.possible_agents]
        self.span += self.env.rewards[self.env.possible_agents[self.learner]]

    def _advance(self):
        while True:
            if any(self.env.terminations.values()):
                if self.acted:
                    self.finished = self.returns.copy()
                self.episode += 1
                finished, span = self.finished, self.span
                self._start()
                self.finished, self.span = finished, span
                continue
            seat = self.env.agent_name_mapping[self.env.agent_selection]
            if self.kinds[seat] == K.LEARNER:
                return
            mask = self.env.observe(self.env.agent_selection)["action_mask"]
            if self.kinds[seat] == K.RANDOM:
                self._apply(choice(self.slot[0], mask))
            else:
                self._apply(self.snapshot(None, mask[None].astype(bool))[0])

    def learner_view(self):
        return self.env.observe(self.env.possible_agents[self.learner])

    def step(self, action):
        self.span, self.finished, self.acted = 0.0, None, True
        self._apply(action)
        self._advance()
        return self.span, self.finished


@pytest.mark.parametrize("players,weights,with_snapshot", [(2, (1, 0, 0), False), (3, (1, 0, 0), False),
                                                           (3, (0.5, 0, 1), True)])
def test_batched_games_follow_the_aec_env_move_for_move(players, weights, with_snapshot):
    vec = LearnerVecEnv("race_v0", num_envs=5, seed=11, config={"num_players": players, "target": 12},
                        weights=weights)
    if with_snapshot:
        vec.add_snapshot(first_legal)
    mirrors = [Mirror(vec, i, weights, first_legal if with_snapshot else None) for i in range(vec.num_envs)]
    obs = vec.reset()
    rng = np.random.default_rng(0)
    episodes = 0
    for _ in range(200):
        masks = vec.action_masks()
        for i, mirror in enumerate(mirrors):
            view = mirror.learner_view()
            np.testing.assert_array_equal(obs[i], view["observation"])
            np.testing.assert_array_equal(masks[i], view["action_mask"].astype(bool))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        obs, rewards, dones, infos = vec.step(actions)
        for i, mirror in enumerate(mirrors):
            span, finished = mirror.step(actions[i])
            assert rewards[i] == pytest.approx(span)
            assert dones[i] == (finished is not None)
            if dones[i]:
                episodes += 1
                np.testing.assert_allclose(infos[i]["returns"], finished)
    assert episodes > 20


def test_the_learner_is_rewarded_for_its_own_seat_over_the_whole_span():
    vec = LearnerVecEnv("race_v0", num_envs=8, seed=3, config={"num_players": 3, "target": 5}, weights=(1, 0, 0))
    vec.reset()
    totals = np.zeros(vec.num_envs)
    rng = np.random.default_rng(1)
    checked = 0
    for _ in range(300):
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in vec.action_masks()])
        _, rewards, dones, infos = vec.step(actions)
        totals += rewards
        for i in np.flatnonzero(dones):
            seat = infos[i]["learner_seat"]
            assert totals[i] == infos[i]["returns"][seat] and totals[i] in (1.0, -1.0)
            assert infos[i]["won"] == (totals[i] > 0)
            totals[i] = 0.0
            checked += 1
    assert checked > 50


def test_learner_seats_are_drawn_per_episode_and_can_be_fixed():
    seats = set()
    vec = LearnerVecEnv("race_v0", num_envs=16, seed=0, config={"num_players": 4}, weights=(1, 0, 0))
    vec.reset()
    seats.update(vec._slots["learner"].tolist())
    assert seats == {0, 1, 2, 3}
    fixed = LearnerVecEnv("race_v0", num_envs=16, seed=0, config={"num_players": 4}, learner_seat=2,
                          weights=(1, 0, 0))
    fixed.reset()
    assert set(fixed._slots["learner"].tolist()) == {2}


def test_illegal_and_malformed_actions_are_refused_and_change_nothing():
    vec = LearnerVecEnv("race_v0", num_envs=4, seed=0, config={"num_players": 2, "target": 3}, weights=(1, 0, 0))
    vec.reset()
    vec.step(np.zeros(4, np.int64))  # counter 1 or more: adding 2 may now be illegal somewhere
    before = vec.get_state()
    masks = vec.action_masks()
    bad = np.argmax(~masks[:, 1]) if (~masks[:, 1]).any() else None
    attempts = [np.full(4, 5), np.zeros(3, np.int64), np.zeros(4, np.float32), np.full(4, -1)]
    if bad is not None:
        attempts.append(np.where(np.arange(4) == bad, 1, 0))
    for actions in attempts:
        with pytest.raises(IllegalActionError):
            vec.step(actions)
        assert vec.get_state().tobytes() == before.tobytes()


def test_writing_into_returned_arrays_does_not_make_illegal_actions_legal():
    vec = LearnerVecEnv("race_v0", num_envs=4, seed=0, config={"num_players": 2, "target": 3}, weights=(1, 0, 0))
    obs = vec.reset()
    masks = vec.action_masks()
    masks[:] = True
    obs[:] = 0
    vec.step(np.zeros(4, np.int64))
    vec.step(np.zeros(4, np.int64))
    illegal = ~vec.action_masks()
    if illegal.any():
        i, action = map(int, np.argwhere(illegal)[0])
        vec.action_masks()[i, action] = True  # a copy: the env keeps its own
        with pytest.raises(IllegalActionError):
            vec.step(np.where(np.arange(4) == i, action, np.flatnonzero(vec.action_masks()[0])[0]))


def test_team_env_gives_every_seat_the_team_reward_and_ends_together():
    vec = TeamVecEnv("tally_v0", num_games=6, seed=2, config={"num_players": 3, "rounds": 3})
    assert vec.num_envs == 18
    obs = vec.reset()
    assert obs.shape == (18, envs.game_of("tally_v0").layout.size)
    finished = 0
    for _ in range(9):
        actions = np.ones(18, np.int64)
        actions[::3] = 0  # seat 0 of every game holds: seats 1 and 2 tie at the top
        obs, rewards, dones, infos = vec.step(actions)
        per_game = rewards.reshape(6, 3)
        assert (per_game == per_game[:, :1]).all()
        assert (dones.reshape(6, 3) == dones.reshape(6, 3)[:, :1]).all()
        finished += dones.reshape(6, 3)[:, 0].sum()
    assert finished == 18  # every game ends each third step


def test_policy_strength_counts_exactly_the_games_asked_for():
    result = policy_strength(first_legal, "race_v0", "random", games=37, seed=0, config={"num_players": 2},
                             num_envs=8)
    assert result["games"] == 37 and 0 <= result["win_rate"] <= 1
    assert result["fair_share"] == 0.5
    with pytest.raises(ValueError, match="opponent"):
        policy_strength(first_legal, "race_v0", "nobody", games=3)
