"""Any game described by a :class:`envs.core.Game` as an OpenSpiel game (``pyspiel.Game``).

:func:`game_class` builds, from the description alone, a Python ``pyspiel.Game`` subclass that
:mod:`envs.openspiel` registers with ``pyspiel.register_game``. Its states wrap one game record
and call the engine through the generic kernels, so the rules are the very code the PettingZoo
envs run: same seed and same actions, same game.

Game type
    Turn-based games are ``SEQUENTIAL`` (``current_player()`` is the record's), the
    simultaneous ones ``SIMULTANEOUS`` (``current_player()`` is ``SIMULTANEOUS`` while the game
    runs; ``apply_actions`` takes one action per seat). Every game is ``IMPERFECT_INFORMATION``,
    ``GENERAL_SUM`` (the weakest claim that is always true) with the ``REWARDS`` model:
    ``rewards()`` is each seat's reward of the last step, ``returns()`` their sum so far.
    ``min_utility``/``max_utility`` are -1 and +1, the scale of every game's final rewards;
    shaping options (``letter_reward``, ``doubloon_shaping``, ...) add per-step amounts that
    can leave it.

Chance: sampled inside the engine
    The engines draw cards, dice and shuffles from the generator held in the record itself, so
    the game type declares ``SAMPLED_STOCHASTIC`` chance: there are no chance nodes
    (``is_chance_node()`` is never true, ``max_chance_outcomes()`` is 0) and a state's future
    randomness is part of the state (a clone draws the same cards). Algorithms that only sample
    trajectories and search over determinizations apply: ISMCTS (through
    :meth:`BridgeState.resample_from_infostate`), MCTS with random rollouts, outcome-sampling
    and external-sampling MCCFR in their sampled form, NFSP, policy-gradient and DQN agents via
    ``rl_environment``, PSRO, ``evaluate_bots``. Algorithms that enumerate chance outcomes or the
    whole tree do not: tabular CFR/CFR+, exploitability and best response, sequence-form LP,
    value iteration, anything built on ``get_all_states`` or on ``chance_outcomes()``; the
    games are far too large for them in any case. A plain (perfect-information) MCTS bot would
    see hidden cards and the future draws of the record; use ISMCTS.

Observation and information state
    Our observation vector (the game's :class:`envs.core.layout.Layout`) is by design a seat's
    information state: everything the seat knows and the rules let it remember (its hand, what
    it peeked at, public piles and tracks, beliefs over the cards it cannot see), not a raw
    per-step signal. So ``information_state_tensor(p)`` and ``observation_tensor(p)`` are both
    that vector, with the layout's blocks as the tensor's named pieces, and the strings spell it
    out (``"player 2: phase[3] cards[4,1]=0.25 ..."``, every non-zero entry, exact). It is not
    perfect recall in OpenSpiel's strict sense where a layout keeps a bounded memory (Secret
    Hitler shows the last 10 elections): histories a seat could tell apart may then share an
    information state, and tabular methods see that abstraction.

Options and seeds
    Every game option is a game parameter of the same name where OpenSpiel's parameter types
    (bool, int, double, string) express it: an int option that may also be None (``max_cycles``,
    ...) takes -1 for None; an option with values of several types (Secret Hitler's
    ``hitler_knows_fascists``: "auto", True, False; Voll auf die 18's ``characters``) is a string
    holding the value as JSON, which :func:`envs.openspiel.load` writes from Python values
    (OpenSpiel's game-string parser cannot read back JSON with commas, ``true`` or numbers, so
    such values do not survive ``pyspiel.load_game(game.to_string())``). ``illegal_action`` is not
    one: illegal actions always raise :class:`envs.core.IllegalActionError` and change nothing.
    ``max_cycles`` ends the game (terminal, the returns so far) after that many decisions, as the
    envs truncate. The parameter ``seed`` (default -1) picks the deal: -1 deals every
    ``new_initial_state()`` from a fresh random seed; s >= 0 deals every one as
    ``env.reset(seed=s)`` does (OpenSpiel's C++ side builds a new initial state inside every
    ``Clone`` and deserialization, so a seed stream that advanced per call would not be
    reproducible).

Serialization
    ``state.serialize()`` is the record's bytes (base64) and the returns so far;
    ``game.deserialize_state(text)`` checks the record (``envs.core.check_records``: bounds and
    the engine's invariants) and names the first problem of a bad one. OpenSpiel's C++ helpers
    (``pyspiel.serialize_game_and_state``, ``random_sim_test``) use OpenSpiel's own format for
    Python games (the action history and the pickled record and returns, trusted as they are);
    ``deserialize_state`` accepts both. A state rebuilt from our format has an empty
    ``history()``: the record is the whole game state.
"""

import base64
import functools
import json
import os

import numpy as np
import pyspiel

from . import kernels
from .game import IllegalActionError
from .state import new_states
from .validate import check_records

MIN_UTILITY, MAX_UTILITY = -1.0, 1.0
#: OpenSpiel needs a bound on the game length; for ``max_cycles=None`` this nominal one stands in
#: (the engines end every game by their rules).
UNBOUNDED_LENGTH = 1_000_000
SEED_PARAMETER = "seed"
NONE_INT = -1  # an int parameter's value for None
MAX_SEED = 2**63


# ---- parameters ----------------------------------------------------------------------------


def _accepts(option, value):
    try:
        option.validate("probe", value)
    except ValueError:
        return False
    return True


def _spiel_type(value):
    for kind in (bool, int, float, str):  # bool first: True is an int too
        if isinstance(value, kind):
            return kind
    return None


def _kind(option):
    """How an option travels as an OpenSpiel parameter: bool, int, float, str, "int|None" or "json"."""
    values = option.choices if option.choices is not None else (option.default,)
    kinds = {_spiel_type(v) for v in values}
    if len(kinds) == 1 and None not in kinds:
        (kind,) = kinds
        if kind is int and _accepts(option, None):
            return "int|None" if not _accepts(option, NONE_INT) else "json"
        return kind
    if option.default is None and option.choices is None and _accepts(option, 1) and not _accepts(option, NONE_INT):
        return "int|None"
    return "json"


def _to_text(value):
    if isinstance(value, str):
        try:
            json.loads(value)
        except ValueError:
            return value  # a plain word stays readable: auto, full, ...
    return json.dumps(list(value) if isinstance(value, tuple) else value)


def _from_text(text):
    try:
        return json.loads(text)
    except ValueError:
        return text


def _encode(kind, value):
    if kind == "int|None":
        return NONE_INT if value is None else value
    if kind == "json":
        return _to_text(value)
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        return float(value)
    return value


def _decode(kind, value):
    if kind == "int|None":
        return None if value == NONE_INT else value
    if kind == "json":
        return _from_text(value) if isinstance(value, str) else value
    return value


def parameter_kinds(game):
    """``{option name: kind}`` of every option that is an OpenSpiel parameter (see :func:`_kind`)."""
    kinds = {name: _kind(option) for name, option in game.all_options().items() if name != "illegal_action"}
    if SEED_PARAMETER in kinds:
        raise ValueError(f"{game.env_id}: an option named {SEED_PARAMETER!r} clashes with the bridge's seed")
    return kinds


def parameters(game, config):
    """OpenSpiel parameters for ``config`` (Python option values; unset ones keep their defaults)."""
    kinds = parameter_kinds(game)
    unknown = sorted(set(config) - set(kinds) - {SEED_PARAMETER})
    if unknown:
        raise ValueError(f"{game.env_id}: unknown OpenSpiel parameter(s) {unknown}; valid ones are "
                         f"{sorted([*kinds, SEED_PARAMETER])} (illegal actions always raise)")
    params = {name: _encode(kinds[name], value) for name, value in config.items() if name != SEED_PARAMETER}
    if SEED_PARAMETER in config:
        params[SEED_PARAMETER] = config[SEED_PARAMETER]
    return params


def _parameter_specification(game):
    options = game.all_options()
    spec = {name: _encode(kind, options[name].default) for name, kind in parameter_kinds(game).items()}
    spec[SEED_PARAMETER] = NONE_INT
    return spec


def _config_and_seed(game, params):
    """The validated config and the seed (None: random) of OpenSpiel parameters."""
    params = dict(params)
    seed = params.pop(SEED_PARAMETER, NONE_INT)
    if isinstance(seed, bool) or not isinstance(seed, int) or not (seed == NONE_INT or 0 <= seed < MAX_SEED):
        raise ValueError(f"{game.env_id}: seed must be -1 (random) or an integer in [0, 2**63), got {seed!r}")
    kinds = parameter_kinds(game)
    unknown = sorted(set(params) - set(kinds))
    if unknown:
        raise ValueError(f"{game.env_id}: unknown OpenSpiel parameter(s) {unknown}; valid ones are "
                         f"{sorted([*kinds, SEED_PARAMETER])}")
    config = game.validate({name: _decode(kinds[name], value) for name, value in params.items()})
    return config, (None if seed == NONE_INT else seed)


def short_name(env_id):
    """The OpenSpiel name of ``env_id``: ``tabletop_`` and the id without a ``_v0`` suffix."""
    return "tabletop_" + env_id.removesuffix("_v0")


def game_type(game):
    """The ``pyspiel.GameType`` of ``game``."""
    Type = pyspiel.GameType
    return Type(
        short_name=short_name(game.env_id),
        long_name=game.description or game.env_id,
        dynamics=Type.Dynamics.SIMULTANEOUS if game.simultaneous else Type.Dynamics.SEQUENTIAL,
        chance_mode=Type.ChanceMode.SAMPLED_STOCHASTIC,
        information=Type.Information.IMPERFECT_INFORMATION,
        utility=Type.Utility.GENERAL_SUM,
        reward_model=Type.RewardModel.REWARDS,
        max_num_players=max(game.player_counts),
        min_num_players=min(game.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_specification(game),
    )


# ---- the game ------------------------------------------------------------------------------


def game_class(game):
    """A ``pyspiel.Game`` subclass for ``game``; register it with ``pyspiel.register_game(cls.game_type, cls)``."""
    name = "".join(part.title() for part in game.env_id.split("_")) + "OpenSpielGame"
    return type(name, (BridgeGame,), {"description": game, "game_type": game_type(game)})


class BridgeGame(pyspiel.Game):
    """One configured game; ``description`` and ``game_type`` are set by :func:`game_class`."""

    description = None
    game_type = None

    def __init__(self, params=None):
        game = self.description
        self.config, self.seed = _config_and_seed(game, params or {})
        max_cycles = self.config["max_cycles"]
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=self.config["num_players"],
            min_utility=MIN_UTILITY,
            max_utility=MAX_UTILITY,
            max_game_length=max_cycles or UNBOUNDED_LENGTH,
        )
        super().__init__(self.game_type, info, params or {})
        self._seeds = np.random.default_rng(int.from_bytes(os.urandom(8), "little"))
        # The state class of this configuration: OpenSpiel's C++ Clone deep-copies a Python
        # state's attributes, so everything shared lives on the class, and each state's
        # __dict__ holds only its record and returns.
        self._state_class = type("State", (BridgeState,), {"table": _Table(game, self.config)})

    def new_initial_state(self):
        seed = self.seed if self.seed is not None else int(self._seeds.integers(MAX_SEED))
        return self._state_class(self, seed)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Both observation types give the seat's observation vector (see the module docstring)."""
        return BridgeObserver(self.description.layout, params)

    def deserialize_state(self, text):
        """A state from :meth:`BridgeState.serialize` (checked) or from OpenSpiel's own format."""
        if text.startswith("history="):
            return super().deserialize_state(text)
        record, returns = self._parse(text)
        state = self._state_class(self, 0)
        state._record[:] = record
        state._returns[:] = returns
        return state

    def _parse(self, text):
        fields = dict(line.partition("=")[::2] for line in text.strip().splitlines())
        game, n = self.description, self.config["num_players"]
        if set(fields) != {"record", "returns"}:
            raise ValueError(f"{game.env_id}: a serialized state has the lines record=... and returns=...")
        try:
            raw = base64.b64decode(fields["record"], validate=True)
            returns = np.array([float(r) for r in fields["returns"].split(",")])
        except ValueError as error:
            raise ValueError(f"{game.env_id}: unreadable serialized state ({error})") from None
        if len(raw) != game.engine.STATE.itemsize:
            raise ValueError(f"{game.env_id}: the record has {len(raw)} bytes, a record has "
                             f"{game.engine.STATE.itemsize}")
        if returns.shape != (n,) or not np.isfinite(returns).all():
            raise ValueError(f"{game.env_id}: returns must be {n} finite numbers")
        record = np.frombuffer(raw, game.engine.STATE).copy()
        if int(record["num_players"][0]) != n:
            raise ValueError(f"{game.env_id}: the record is a {int(record['num_players'][0])}-player game; "
                             f"this game has {n} players")
        check_records(game, record)
        return record, returns


class _Table:
    """What every state of one configured game shares (class-level, never copied)."""

    def __init__(self, game, config):
        self.game = game
        self.config = config
        self.config_record = game.make_config(config)
        self.blank = new_states(game.engine.STATE)
        self.num_players = config["num_players"]
        self.max_cycles = config["max_cycles"] or 0
        self.mask = np.zeros(game.num_actions, np.int8)  # scratch
        self.actions = np.zeros(self.num_players, np.int64)  # scratch
        self.labels = _labels(game.layout)


# ---- states --------------------------------------------------------------------------------


class BridgeState(pyspiel.State):
    """One game record; ``table`` (a :class:`_Table`) is set on the per-configuration subclass."""

    table = None

    def __init__(self, game, seed):
        super().__init__(game)
        table = self.table
        self._record = new_states(table.game.engine.STATE)
        self._returns = np.zeros(table.num_players)
        kernels.reset_one(self._record, table.blank, table.config_record, np.uint64(seed))

    # ---- OpenSpiel's State API --------------------------------------------------------------

    def current_player(self):
        if self._over():
            return pyspiel.PlayerId.TERMINAL
        if self.table.game.simultaneous:
            return pyspiel.PlayerId.SIMULTANEOUS
        return int(self._record["current_player"][0])

    def _legal_actions(self, player):
        mask = self.table.mask
        kernels.mask_one(self._record, player, mask)
        return np.flatnonzero(mask).tolist()

    def _apply_action(self, action):
        table = self.table
        if table.game.simultaneous:
            raise IllegalActionError(f"{table.game.env_id}: every seat acts at once; use apply_actions")
        self._check_running()
        kernels.step_one(self._record, self._legal(int(self._record["current_player"][0]), action))
        self._returns += self._record["reward"][0, : table.num_players]

    def _apply_actions(self, actions):
        table = self.table
        if not table.game.simultaneous:
            raise IllegalActionError(f"{table.game.env_id}: seats take turns; use apply_action")
        self._check_running()
        if len(actions) != table.num_players:
            raise IllegalActionError(f"{table.game.env_id}: need one action for each of {table.num_players} "
                                     f"seats, got {len(actions)}")
        joint = table.actions
        for seat, action in enumerate(actions):
            joint[seat] = self._legal(seat, action)
        kernels.step_one(self._record, joint)
        self._returns += self._record["reward"][0, : table.num_players]

    def _action_to_string(self, player, action):
        return self.table.game.action_name(int(action), self.table.config)

    def is_terminal(self):
        return self._over()

    def returns(self):
        return self._returns.tolist()

    def rewards(self):
        return self._record["reward"][0, : self.table.num_players].tolist()

    def __str__(self):
        table = self.table
        return table.game.render.ansi(self._record[0], table.config)

    def resample_from_infostate(self, player, probability_sampler):
        """A copy in which what ``player`` cannot know is resampled by the engine's ``determinize``
        (hidden cards, and the generator: the future draws), so ``player``'s information state is
        unchanged. ``probability_sampler()`` (a uniform [0, 1) draw) seeds it."""
        seed = int(probability_sampler() * 2**53)
        state = self.clone()
        kernels.determinize_one(state._record, player, np.uint64(seed))
        return state

    def serialize(self):
        """The record's bytes (base64) and the returns so far; see ``BridgeGame.deserialize_state``."""
        record = base64.b64encode(self._record.tobytes()).decode("ascii")
        return f"record={record}\nreturns={','.join(repr(r) for r in self._returns.tolist())}"

    # ---- our additions --------------------------------------------------------------------

    @property
    def record(self):
        """A copy of the game record (a length-1 array, as ``env.get_state()`` gives)."""
        return self._record.copy()

    def observe(self, player, out):
        """Write ``player``'s observation vector into ``out`` (float32, the layout's size)."""
        if not 0 <= player < self.table.num_players:
            raise ValueError(f"player must be a seat 0..{self.table.num_players - 1}, got {player}")
        kernels.view_one(self._record, player, out, self.table.mask)

    def _over(self):
        record, max_cycles = self._record, self.table.max_cycles
        return bool(record["terminal"][0]) or (max_cycles > 0 and record["step_count"][0] >= max_cycles)

    def _check_running(self):
        if self._over():
            raise IllegalActionError(f"{self.table.game.env_id}: the game is over")

    def _legal(self, seat, action):
        """``action`` as an int if ``seat`` may take it now; IllegalActionError (naming it) otherwise."""
        table = self.table
        mask = table.mask
        kernels.mask_one(self._record, seat, mask)
        if not 0 <= action < table.game.num_actions or not mask[action]:
            legal = np.flatnonzero(mask).tolist()
            raise IllegalActionError(f"{table.game.env_id}: player {seat} cannot take action {action} now; "
                                     f"legal: {legal[:40]}{' ...' if len(legal) > 40 else ''}")
        return int(action)


# ---- observations --------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _labels(layout):
    """The name of every entry of the flat vector: ``block`` or ``block[i,j]``."""
    views = layout.views(np.arange(layout.size))
    labels = [""] * layout.size
    for name, view in views.items():
        for index in np.ndindex(view.shape):
            labels[int(view[index])] = name if view.size == 1 else f"{name}[{','.join(map(str, index))}]"
    return labels


def describe(vector, labels):
    """Every non-zero entry of ``vector`` as ``label`` (for 1) or ``label=value`` (9 digits: exact for float32)."""
    where = np.flatnonzero(vector)
    return " ".join(labels[i] if v == 1.0 else f"{labels[i]}={v:.9g}"
                    for i, v in zip(where.tolist(), vector[where].tolist()))


class BridgeObserver:
    """OpenSpiel's Python observer protocol over one seat's observation vector."""

    def __init__(self, layout, params):
        if params:
            raise ValueError(f"observer parameters are not supported, got {params}")
        self.tensor = np.zeros(layout.size, np.float32)
        self.dict = layout.views(self.tensor)
        self._labels = _labels(layout)

    def set_from(self, state, player):
        if player < 0:  # OpenSpiel asks for the tensor's shape with player -1
            self.tensor.fill(0.0)
            return
        state.observe(player, self.tensor)

    def string_from(self, state, player):
        state.observe(player, self.tensor)
        return f"player {player}: {describe(self.tensor, self._labels)}"
