"""The policy network of self-play: hidden layers shared by the policy and the value head.

Our observations are wide (800-3,900 numbers) and the first layer holds almost all of a network's
weights and work: with separate policy and value networks (SB3's default for a list ``net_arch``)
every forward and every PPO epoch pays for that layer twice. :func:`policy_kwargs` puts the first
``shared_layers`` widths of ``net_arch`` into one trunk (a features extractor shared by both
heads), and the remaining widths into each head, which halves the cost of the wide layer.

Our observations mix 0/1 flags with counts and scores (doubloons, points: up to a few thousand in
Volle Socke). Fed raw, the large entries saturate the tanh units of the first layer and drown the
flags, so the trunk can first squash every entry with DreamerV3's symlog, ``sign(x) log(1 + |x|)``:
it leaves 0 at 0, keeps order and sign, and brings 2,430 to 7.8 while a flag of 1 stays 0.69.

Many actions pick one of a row of like things: a square of Teufel Teufel's board, a space on a
Volles Fass deck, a sailor card. A flat policy head learns each such action's logit on its own, so
what it learns about square 17 says nothing about square 18, and a cloned policy memorises its
teacher instead of generalising (benchmarks/results/learning_reading.md). :class:`EntityPolicy`
scores every action of such a group with one shared function (a pointer head, as in pointer
networks and AlphaStar's target selection) of that thing's own rows of the observation, the
layout's named views (:meth:`envs.core.layout.Layout.rows`), and the policy's latent state; a
learned per-position offset keeps what is special about each one. The other actions keep the
flat head's logits. Where the things are places on a board, a group can name each one's
neighbours: the scorer then also reads the mean rows of its neighbours and of their neighbours
(two rings; one round of message passing over the board), so a square is judged with what
surrounds it.
"""

from __future__ import annotations

import warnings
from typing import Any, Sequence

import gymnasium as gym
import numpy as np
import torch
import torch.nn.functional as F
from sb3_contrib.common.maskable.distributions import MaskableCategorical
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy
from stable_baselines3.common.preprocessing import preprocess_obs
from stable_baselines3.common.preprocessing import get_flattened_obs_dim
from stable_baselines3.common.torch_layers import BaseFeaturesExtractor, MlpExtractor
from torch import nn
from torch.distributions import Distribution
from torch.distributions.utils import lazy_property


def symlog(x: torch.Tensor) -> torch.Tensor:
    """``sign(x) log(1 + |x|)``: large magnitudes compressed, 0 kept, order and sign kept.
    (``log1p(|x|)`` given ``x``'s sign: three passes over the batch where ``sign * ...`` took four.)"""
    if x.requires_grad:
        return torch.log1p(torch.abs(x)).copysign(x)
    # in place on the fresh |x|: one new tensor where there were three (observations never need
    # gradients; 12 -> 9 ms over a Teufel Teufel minibatch)
    return torch.abs(x).log1p_().copysign_(x)


class SharedTrunk(BaseFeaturesExtractor):
    """Dense layers of ``widths`` (tanh, as SB3's PPO heads) from the flat observation, squashed
    by :func:`symlog` first when ``squash`` (no widths: the squashed observation itself)."""

    def __init__(self, observation_space: gym.Space, widths: Sequence[int] = (256,), squash: bool = False):
        size = get_flattened_obs_dim(observation_space)
        super().__init__(observation_space, features_dim=int(widths[-1]) if widths else size)
        self.squash = bool(squash)
        layers = [nn.Flatten()]
        for width in widths:
            layers += [nn.Linear(size, int(width)), nn.Tanh()]
            size = int(width)
        self.layers = nn.Sequential(*layers)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        return self._dense_layers(observations, self.squash)

    def _dense_layers(self, observations: torch.Tensor, squash: bool) -> torch.Tensor:
        """``self.layers`` over the observations, squashed first if ``squash``, the first layer
        reading only their nonzero entries where that is cheaper (:func:`sparse_linear`, which
        squashes only what it reads): 85-95% of an observation's entries are zero."""
        modules = tuple(self.layers)  # Flatten, then (Linear, Tanh) per width
        if len(modules) == 1:
            return self.layers(symlog(observations) if squash else observations)
        hidden = sparse_linear(modules[1], observations.flatten(1), squash)
        for module in modules[2:]:
            hidden = module(hidden)
        return hidden


#: Batches of at most this many rows go through the first layer as a sparse (CSR) matrix when no
#: gradient is wanted: a frozen opponent's forward for the few games waiting on it, thousands of
#: times a rollout. Measured on observations of Secret Hitler, Volles Fass voraus and Voll auf die
#: 18 (one core): 4 rows 0.05-0.10 ms against 0.14-0.30 ms dense, 16 rows about even, 64 rows dense
#: faster.
SPARSE_ROWS = 8
# torch says once per process that CSR tensors are a beta feature; the product used here is tested
# against the dense layer (tests/training/test_networks.py)
warnings.filterwarnings("ignore", "Sparse CSR tensor support is in beta state")

#: With gradients (the PPO update), the first layer reads only the observation entries that are
#: nonzero somewhere in the minibatch when they are at most this share of all: 1,024-row minibatches
#: have 39% (Voll auf die 18) to 81% (Teufel Teufel) of their columns nonzero; at 39-45% the
#: forward and weight gradient took 15-25% less time, at 56% none.
COLUMN_SHARE = 0.5


def sparse_linear(linear: nn.Linear, x: torch.Tensor, squash: bool = False) -> torch.Tensor:
    """``linear(symlog(x) if squash else x)`` for a mostly-zero ``x``, the zero entries skipped
    where that is cheaper (see :data:`SPARSE_ROWS`, :data:`COLUMN_SHARE`). The same sums without
    their zero terms: equal to the dense layer within float rounding, and so are the weight's
    gradients (zero for the skipped columns, as a zero input gives them). symlog keeps zeros, so
    a column subset is squashed after it is taken (Voll auf die 18's minibatch: 2.8 ms for all
    2,576 columns)."""
    squashed = symlog if squash else (lambda v: v)
    if torch.is_grad_enabled() and linear.weight.requires_grad:
        # the columns with a nonzero entry: a sum of absolute values is 0 only for a zero column
        # (and keeps NaN and inf columns); 0.3 ms against any(0)'s 1.1 ms over 1,024 x 2,576
        columns = (x.abs().sum(0) != 0).nonzero().squeeze(1)
        if len(columns) > COLUMN_SHARE * x.shape[1]:
            return linear(squashed(x))
        return F.linear(squashed(x.index_select(1, columns)), linear.weight.index_select(1, columns), linear.bias)
    x = squashed(x)
    if len(x) > SPARSE_ROWS:
        return linear(x)
    return torch.addmm(linear.bias, x.to_sparse_csr(), _transposed(linear))


def _transposed(linear: nn.Linear) -> torch.Tensor:
    """``linear.weight.T``, contiguous, kept on the layer until the weight changes (its version
    counter moves with every in-place update: optimiser steps, ``load_state_dict``)."""
    key = (linear.weight.data_ptr(), linear.weight._version)
    cached = linear.__dict__.get("_transposed")
    if cached is None or cached[0] != key:
        with torch.inference_mode(False), torch.no_grad():
            cached = linear.__dict__["_transposed"] = (key, linear.weight.t().contiguous())
    return cached[1]


#: How many rings of neighbours a group that names its neighbours reads (see the module docstring).
NEIGHBOUR_RINGS = 2


class EntityTrunk(SharedTrunk):
    """:class:`SharedTrunk`, followed by the (squashed) observation rows of every action group,
    passed through for :class:`PointerHead`: ``[trunk | group 0 rows | group 1 rows | ...]``.

    ``groups``: ``(first_action, rows)`` pairs, ``rows`` a ``(count, k)`` table of flat observation
    offsets: action ``first_action + i`` is scored from observation entries ``rows[i]``. A group
    given as ``(first_action, rows, neighbours)`` (``neighbours[i]``: the indices of thing ``i``'s
    neighbours) passes on each thing's rows followed by the mean rows of its neighbours, then of
    theirs, for ``rings`` rings: ``k * (1 + rings)`` numbers a thing.
    """

    def __init__(self, observation_space: gym.Space, widths: Sequence[int] = (256,), squash: bool = False,
                 groups: Sequence[tuple] = (), rings: int = NEIGHBOUR_RINGS):
        super().__init__(observation_space, widths, squash)
        self.rings = int(rings)
        tables = [np.asarray(group[1], np.int64) for group in groups]
        if not tables or any(t.ndim != 2 or t.size == 0 for t in tables):
            raise ValueError("EntityTrunk needs at least one group of (count, k) observation rows")
        size = get_flattened_obs_dim(observation_space)
        if any(t.min() < 0 or t.max() >= size for t in tables):
            raise ValueError(f"entity rows point outside the observation (size {size})")
        self.trunk_dim = self._features_dim
        self.register_buffer("gather", torch.as_tensor(np.concatenate([t.ravel() for t in tables])), persistent=False)
        self.spreads = []  # per group: whether it reads its neighbours (its matrix: buffer spread_<g>)
        for g, (group, table) in enumerate(zip(groups, tables)):
            spread = neighbour_mean_matrix(group[2], len(table)) if len(group) > 2 else None
            if spread is not None:
                self.register_buffer(f"spread_{g}", spread, persistent=False)
            self.spreads.append(spread is not None)
        widths = [t.shape[1] * (1 + self.rings * spread) for t, spread in zip(tables, self.spreads)]
        self.groups = [(int(group[0]), len(t), k) for group, t, k in zip(groups, tables, widths)]  # (first, count, k)
        self._features_dim = self.trunk_dim + sum(count * k for _, count, k in self.groups)

    def forward(self, observations: torch.Tensor) -> torch.Tensor:
        trunk, tables = self.parts(observations)
        return torch.cat([trunk, *(torch.cat(rings, dim=2).flatten(1) for rings in tables)], dim=1)

    def parts(self, observations: torch.Tensor) -> tuple[torch.Tensor, list[list[torch.Tensor]]]:
        """The trunk's output and the entity rows, apart: per group, its things' own rows
        ``(B, count, k)`` followed, for a group with neighbours, by each ring's mean rows. The rows
        are a function of the observation alone (no parameter), so they are made without autograd
        and never concatenated: :class:`EntityPolicy` hands them to the pointer head directly, which
        picks the legal things' rows, and backpropagation never copies or scatters them (Teufel
        Teufel's ~6,000 row entries a position cost more than the trunk in the update)."""
        # Squash the entity rows and what the first layer reads, not the whole observation
        # (symlog(0) is 0), unless the rows hold more entries than it (Teufel Teufel's squares).
        squash_first = self.squash and self.gather.numel() > observations.shape[1]
        x = symlog(observations) if squash_first else observations
        with torch.no_grad():
            rows = x.index_select(1, self.gather)  # 2.9 ms over Teufel Teufel's rows where x[:, gather] took 8
            if self.squash and not squash_first:
                rows = symlog(rows)
            tables, done = [], 0
            for g, ((_, count, k), spread) in enumerate(zip(self.groups, self.spreads)):
                own = k // (1 + self.rings) if spread else k
                rings = [rows[:, done : done + count * own].reshape(-1, count, own)]
                done += count * own
                for _ in range(self.rings if spread else 0):
                    rings.append(torch.matmul(getattr(self, f"spread_{g}"), rings[-1]))
                tables.append(rings)
        return self._dense_layers(x, self.squash and not squash_first), tables


def neighbour_mean_matrix(neighbours: Sequence[Sequence[int]], count: int) -> torch.Tensor:
    """``M`` with ``(M @ rows)[i]`` the mean of the rows of ``neighbours[i]`` (zero if it has none)."""
    if len(neighbours) != count:
        raise ValueError(f"neighbours name {len(neighbours)} things' neighbours, the group has {count}")
    matrix = torch.zeros(count, count)
    for i, around in enumerate(neighbours):
        if any(not 0 <= j < count or j == i for j in around) or len(set(around)) < len(around):
            raise ValueError(f"thing {i}'s neighbours {list(around)} must be other things of the group, once each")
        for j in around:
            matrix[i, j] = 1 / len(around)
    return matrix


class EntityExtractor(nn.Module):
    """SB3's policy / value heads over the trunk part of the features; the actor's latent carries
    the entity rows on to :class:`PointerHead` (the value head never sees them twice)."""

    def __init__(self, trunk_dim: int, entity_dim: int, net_arch: Any, activation_fn: type[nn.Module], device: Any):
        super().__init__()
        self.trunk_dim = trunk_dim
        self.heads = MlpExtractor(trunk_dim, net_arch=net_arch, activation_fn=activation_fn, device=device)
        self.latent_dim_pi = self.heads.latent_dim_pi + entity_dim
        self.latent_dim_vf = self.heads.latent_dim_vf

    def forward(self, features: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.forward_actor(features), self.forward_critic(features)

    def forward_actor(self, features: torch.Tensor) -> torch.Tensor:
        trunk, rows = features[:, : self.trunk_dim], features[:, self.trunk_dim :]
        return torch.cat([self.heads.forward_actor(trunk), rows], dim=1)

    def forward_critic(self, features: torch.Tensor) -> torch.Tensor:
        return self.heads.forward_critic(features[:, : self.trunk_dim])


class PointerHead(nn.Module):
    """Action logits: a linear head over the policy latent for every action, plus, for each group,
    one shared scorer of ``tanh(W_e row_i + W_c latent + offset_i)`` added to its actions' logits."""

    def __init__(self, latent_dim: int, groups: Sequence[tuple[int, int, int]], num_actions: int, hidden: int = 64):
        super().__init__()
        self.latent_dim = latent_dim
        self.groups = [tuple(g) for g in groups]
        ends = [0] + [first + count for first, count, _ in self.groups]
        if any(first < end for (first, _, _), end in zip(self.groups, ends)) or ends[-1] > num_actions:
            raise ValueError(f"entity groups must be disjoint, in action order and within the {num_actions} actions")
        # the action each score is added to, group after group
        actions = torch.cat([torch.arange(first, first + count) for first, count, _ in self.groups])
        self.register_buffer("actions", actions, persistent=False)
        self.base = nn.Linear(latent_dim, num_actions)
        self.entity = nn.ModuleList(nn.Linear(k, hidden) for _, _, k in self.groups)
        self.context = nn.ModuleList(nn.Linear(latent_dim, hidden) for _ in self.groups)
        self.offset = nn.ParameterList(nn.Parameter(torch.zeros(count, hidden)) for _, count, _ in self.groups)
        self.score = nn.ModuleList(nn.Linear(hidden, 1) for _ in self.groups)
        for layer in (self.base, *self.score):  # SB3's small initial logits: a near-uniform first policy
            nn.init.orthogonal_(layer.weight, gain=0.01)
            nn.init.zeros_(layer.bias)

    def forward(self, latent_and_rows: torch.Tensor, masks: torch.Tensor | None = None) -> torch.Tensor:
        """Logits ``(B, num_actions)``. Given ``masks`` (bool, ``(B, num_actions)``: the legal
        actions), a group's scorer runs on the legal actions only and the illegal ones keep the flat
        head's logit: every reader masks them off (sb3-contrib's masked distribution, the
        snapshots), so log-probs, entropies and gradients are those of scoring every action, at a
        fraction of the work where most of a group's actions are illegal (Voll auf die 18: 330
        argue actions, a handful legal)."""
        latent, rows = latent_and_rows[:, : self.latent_dim], latent_and_rows[:, self.latent_dim :]
        tables, done = [], 0
        for _, count, k in self.groups:
            tables.append([rows[:, done : done + count * k].reshape(-1, count, k)])
            done += count * k
        return self.logits(latent, tables, masks)

    def logits(self, latent: torch.Tensor, tables: Sequence[Sequence[torch.Tensor]],
               masks: torch.Tensor | None = None) -> torch.Tensor:
        """:meth:`forward` with the policy latent and the entity rows given apart, as
        :meth:`EntityTrunk.parts` makes them: per group, ``(B, count, k_r)`` tables whose rows side
        by side (``k`` entries a thing) are that group's rows."""
        if masks is None:
            return self._dense(latent, tables)
        logits = self.base(latent)
        targets, scores = [], []
        for g, ((first, count, _), rings) in enumerate(zip(self.groups, tables)):
            game, thing = masks[:, first : first + count].nonzero(as_tuple=True)
            # the legal things' rows, by one index_select of the flattened tables (half the time of
            # ring[game, thing] over Teufel Teufel's 16,000 legal squares a minibatch)
            legal = game * count + thing
            picked = [ring.reshape(-1, ring.shape[2]).index_select(0, legal) for ring in rings]
            table = torch.cat(picked, dim=1) if len(picked) > 1 else picked[0]
            hidden = torch.tanh(self.entity[g](table) + self.context[g](latent)[game]
                                + self.offset[g][thing])
            scores.append(self.score[g](hidden).squeeze(-1))
            targets.append(game * logits.shape[1] + first + thing)
        return logits.flatten().index_add(0, torch.cat(targets), torch.cat(scores)).view_as(logits)

    def _dense(self, latent: torch.Tensor, tables: Sequence[Sequence[torch.Tensor]]) -> torch.Tensor:
        """Logits with every action of every group scored (no masks known: ``predict`` without them)."""
        scores = []
        for g, rings in enumerate(tables):
            table = torch.cat(list(rings), dim=2) if len(rings) > 1 else rings[0]
            hidden = torch.tanh(self.entity[g](table) + self.context[g](latent)[:, None, :] + self.offset[g])
            scores.append(self.score[g](hidden).squeeze(-1))
        return self.base(latent).index_add(1, self.actions, torch.cat(scores, dim=1))


class EntityPolicy(MaskableActorCriticPolicy):
    """MaskablePPO's actor-critic with a :class:`PointerHead`; its features extractor must be an
    :class:`EntityTrunk` shared by both heads (:func:`policy_spec` builds the kwargs)."""

    def _build_mlp_extractor(self) -> None:
        trunk = self.features_extractor
        if not isinstance(trunk, EntityTrunk) or not self.share_features_extractor:
            raise ValueError("EntityPolicy needs a shared EntityTrunk as its features extractor")
        self.mlp_extractor = EntityExtractor(trunk.trunk_dim, trunk.features_dim - trunk.trunk_dim, self.net_arch,
                                             self.activation_fn, self.device)

    def _build(self, lr_schedule) -> None:
        super()._build(lr_schedule)
        self.action_net = PointerHead(self.mlp_extractor.heads.latent_dim_pi, self.features_extractor.groups,
                                      int(self.action_space.n))
        # The optimizer SB3 made holds the replaced head's parameters: make it again over these.
        self.optimizer = self.optimizer_class(self.parameters(), lr=lr_schedule(1), **self.optimizer_kwargs)

    # sb3-contrib's forward, evaluate_actions and get_distribution, computing the same: the entity
    # rows go from the trunk straight to the pointer head (EntityTrunk.parts) instead of through the
    # features and the actor's latent, and the head is given the masks (PointerHead.logits: it then
    # scores the legal actions only).

    def forward(self, obs: torch.Tensor, deterministic: bool = False, action_masks: Any = None):
        features, rows = self._parts(obs)
        heads = self.mlp_extractor.heads
        distribution = self._masked_distribution(heads.forward_actor(features), rows, action_masks)
        actions = distribution.get_actions(deterministic=deterministic)
        log_prob = distribution.log_prob(actions)
        return actions.reshape((-1, *self.action_space.shape)), self.value_net(heads.forward_critic(features)), log_prob

    def evaluate_actions(self, obs: torch.Tensor, actions: torch.Tensor, action_masks: Any = None):
        features, rows = self._parts(obs)
        heads = self.mlp_extractor.heads
        distribution = self._masked_distribution(heads.forward_actor(features), rows, action_masks)
        values = self.value_net(heads.forward_critic(features))
        return values, distribution.log_prob(actions), distribution.entropy()

    def get_distribution(self, obs: Any, action_masks: Any = None):
        features, rows = self._parts(obs)
        return self._masked_distribution(self.mlp_extractor.heads.forward_actor(features), rows, action_masks)

    def action_logits(self, obs: torch.Tensor, masks: torch.Tensor | None = None) -> torch.Tensor:
        """The head's logits before masking (a snapshot's forward: no distribution object); given
        ``masks``, the illegal actions' logits are not the policy's (PointerHead.logits)."""
        features, rows = self._parts(obs)
        return self.action_net.logits(self.mlp_extractor.heads.forward_actor(features), rows, masks)

    def _parts(self, obs: Any) -> tuple[torch.Tensor, list[list[torch.Tensor]]]:
        return self.features_extractor.parts(preprocess_obs(obs, self.observation_space, self.normalize_images))

    def _masked_distribution(self, latent_pi: torch.Tensor, rows: Any, action_masks: Any):
        """The masked action distribution; the masks become one bool tensor, read by the head and
        the distribution alike."""
        if action_masks is None:
            return self.action_dist.proba_distribution(action_logits=self.action_net.logits(latent_pi, rows))
        masks = torch.as_tensor(action_masks, dtype=torch.bool, device=latent_pi.device).reshape(len(latent_pi), -1)
        self.action_dist.distribution = MaskedCategorical(self.action_net.logits(latent_pi, rows, masks), masks)
        return self.action_dist


class MaskedCategorical(MaskableCategorical):
    """sb3-contrib's ``MaskableCategorical`` made in one pass: theirs normalises the raw logits,
    then masks them and normalises again, and validates its arguments each time (three
    log-sum-exps a minibatch and a check, over 509 actions in Voll auf die 18); this masks the
    raw logits once and reads log-probabilities and probabilities from them with ``log_softmax``
    and ``softmax``. Same probabilities, log-probs and entropy; forward and backward of log-prob
    and entropy over 1,024 x 509 took 9.6 ms theirs, 4.1 ms this way (``exp`` of the
    log-probabilities instead of the softmax: 7.9 ms, as torch's exp takes a slow path for the
    masked entries' -1e8, 5 ms over that batch)."""

    def __init__(self, logits: torch.Tensor, masks: torch.Tensor) -> None:
        self.masks = masks
        self._original_logits = logits
        self._masked = torch.where(masks, logits, torch.tensor(-1e8, dtype=logits.dtype))
        normalized = self._masked.log_softmax(-1)
        # Categorical.__init__ without its normalisation: the logits are log-probabilities already
        self.logits = self._param = normalized
        self._num_events = normalized.shape[-1]
        Distribution.__init__(self, normalized.shape[:-1], validate_args=False)

    @lazy_property
    def probs(self) -> torch.Tensor:
        return self._masked.softmax(-1)

    def entropy(self) -> torch.Tensor:
        # an illegal action's probability is exactly 0 in float32 (its logit is -1e8), so its term
        # is 0 without the mask sb3-contrib applies
        return -(self.probs * self.logits).sum(-1)


def entity_rows(layout: Any, views: Sequence[str | tuple[str, int]]) -> np.ndarray:
    """One ``(count, k)`` table of flat offsets from several layout views: a view named alone is
    split along its first axis, ``(name, axis)`` along ``axis``; every view must split into the
    same ``count`` rows, which are concatenated side by side."""
    tables = [layout.rows(*((view, 0) if isinstance(view, str) else view)) for view in views]
    counts = {len(t) for t in tables}
    if len(counts) != 1:
        raise ValueError(f"views {list(views)} split into different numbers of rows: {sorted(counts)}")
    return np.concatenate(tables, axis=1)


#: The policies' Adam: SB3's PPO epsilon, and torch's multi-tensor ("foreach") kernels, where the
#: default on CPU loops over the parameters tensor by tensor (the same update; an optimiser step
#: of a 256-wide Teufel Teufel network took 8.1 ms, foreach 3.5 ms). Not ``fused``, faster still:
#: its step leaves the parameters' version counters alone, which :func:`_transposed` keys on.
OPTIMIZER_KWARGS = {"eps": 1e-5, "foreach": True}


def policy_spec(net_arch: Sequence[int], shared_layers: int, squash: bool = False, layout: Any = None,
                entities: Sequence[tuple[int, Sequence]] = ()) -> tuple[Any, dict[str, Any]]:
    """MaskablePPO's policy (``"MlpPolicy"`` or :class:`EntityPolicy`) and its ``policy_kwargs``:
    hidden ``net_arch`` whose first ``shared_layers`` are shared, the observation squashed by
    :func:`symlog` when ``squash``, and a pointer head over the ``entities`` (``(first_action,
    views)`` pairs read through ``layout``, or ``(first_action, views, neighbours)``; none: the
    flat head). Both optimise with :data:`OPTIMIZER_KWARGS`."""
    if not entities:
        return "MlpPolicy", policy_kwargs(net_arch, shared_layers, squash) | {"optimizer_kwargs": dict(OPTIMIZER_KWARGS)}
    groups = [(int(first), entity_rows(layout, views).tolist(), *neighbours) for first, views, *neighbours in entities]
    options = {"squash": bool(squash), "groups": groups}
    if any(len(group) > 2 for group in groups):
        options["rings"] = NEIGHBOUR_RINGS  # saved with the model, whatever the default becomes
    kwargs = _trunk_kwargs(EntityTrunk, net_arch, shared_layers, options)
    return EntityPolicy, kwargs | {"optimizer_kwargs": dict(OPTIMIZER_KWARGS)}


def preset_policy(env_id: str, seed: int = 0) -> MaskableActorCriticPolicy:
    """A fresh policy with ``env_id``'s preset network (training/presets.py), weights drawn after
    ``torch.manual_seed(seed)``: the real network, without a model or an env around it."""
    import envs
    from stable_baselines3.common.utils import ConstantSchedule

    from training.presets import ACTION_ENTITIES, preset_for

    preset, game = preset_for(env_id), envs.game_of(env_id)
    entities = ACTION_ENTITIES.get(env_id, ()) if preset["policy_head"] == "pointer" else ()
    policy_class, kwargs = policy_spec(preset["net_arch"], preset["shared_layers"], preset["obs_squash"] == "symlog",
                                       game.layout, entities)
    if policy_class == "MlpPolicy":
        policy_class = MaskableActorCriticPolicy
    torch.manual_seed(seed)
    return policy_class(game.layout.space(), gym.spaces.Discrete(game.num_actions), ConstantSchedule(1e-3), **kwargs)


def policy_kwargs(net_arch: Sequence[int], shared_layers: int, squash: bool = False) -> dict[str, Any]:
    """MaskablePPO's ``policy_kwargs`` for hidden ``net_arch`` whose first ``shared_layers`` are
    shared, the observation squashed by :func:`symlog` when ``squash``."""
    if not shared_layers and not squash:
        return {"net_arch": list(net_arch)}
    return _trunk_kwargs(SharedTrunk, net_arch, shared_layers, {"squash": True} if squash else {})


def _trunk_kwargs(trunk: type, net_arch: Sequence[int], shared_layers: int, options: dict[str, Any]) -> dict[str, Any]:
    """``policy_kwargs`` whose features extractor ``trunk`` (with ``options``) holds the first
    ``shared_layers`` widths of ``net_arch``, shared by both heads, and each head the rest."""
    shared, heads = list(net_arch[:shared_layers]), list(net_arch[shared_layers:])
    return {"features_extractor_class": trunk, "features_extractor_kwargs": {"widths": shared, **options},
            "share_features_extractor": True, "net_arch": {"pi": heads, "vf": heads}}
