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
    can leave it. A simultaneous game also has a turn-based form (:class:`TurnBasedState`) for
    OpenSpiel's sequential algorithms: OpenSpiel's own ``convert_to_turn_based`` cannot resample
    an information state, which ISMCTS needs.

Chance: sampled inside the engine
    The engines draw cards, dice and shuffles from the generator held in the record itself, so
    the game type declares ``SAMPLED_STOCHASTIC`` chance: there are no chance nodes
    (``is_chance_node()`` is never true, ``max_chance_outcomes()`` is 0) and a state's future
    randomness is part of the state (a clone draws the same cards). What applies: algorithms
    that sample trajectories or determinizations, which see the deal as sampled at
    ``new_initial_state()`` and the rest inside the transitions: ISMCTS (through
    :meth:`BridgeState.resample_from_infostate`), outcome- and external-sampling MCCFR, the RL
    agents on ``rl_environment`` (DQN, policy gradients, NFSP) and what builds on them (PSRO),
    ``evaluate_bots``. What does not: anything that needs explicit chance nodes or enumerates
    the tree, i.e. tabular CFR/CFR+, exact exploitability and best response, sequence-form LP,
    value iteration, ``get_all_states`` (they see one deal without its probability, and fail);
    the games are far too large for them anyway. A plain (perfect-information) MCTS bot would
    read hidden cards and the record's future draws; use ISMCTS.

Observation and information state
    Our observation vector (the game's :class:`envs.core.layout.Layout`) is by design a seat's
    information state: everything the seat knows and the rules let it remember (its hand, what
    it peeked at, public piles and tracks, beliefs over the cards it cannot see), not a raw
    per-step signal. So ``information_state_tensor(p)`` and ``observation_tensor(p)`` are both
    that vector, with the layout's blocks as the tensor's named pieces, and the strings spell it
    out (``"player 2: phase[3] cards[4,1]=0.25 ..."``, every non-zero entry, exact). It is not
    perfect recall in OpenSpiel's strict sense where a layout keeps a bounded memory (Secret
    Hitler shows the last 10 elections): histories a seat could tell apart may then share an
    information state, and tabular methods (MCCFR) see that abstraction. OpenSpiel returns
    tensors as Python lists; :meth:`BridgeState.observe` writes the vector into a numpy array,
    as does the observer of ``open_spiel.python.observation.make_observation(game)``.

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
    ``new_initial_state()`` from a fresh random seed; s in 0..2**31-1 (OpenSpiel's int
    parameters are 32-bit) deals every one as ``env.reset(seed=s)`` does. (OpenSpiel's C++ side
    builds a new initial state inside every ``Clone`` and deserialization, so a seed stream that
    advanced per call would not be reproducible; load one game per seed instead.)

Serialization
    ``state.serialize()`` is the record's bytes (base64) and the returns so far;
    ``game.deserialize_state(text)`` checks the record (``envs.core.check_records``: bounds and
    the engine's invariants) and names the first problem of a bad one; the state it builds has
    an empty ``history()`` (the record is the whole game state). It also accepts OpenSpiel's own
    state format for Python games (``pyspiel.State.serialize(state)``: the action history and
    the pickled record and returns, trusted as they are). OpenSpiel's game-and-state
    serialization (``pyspiel.serialize_game_and_state``, ``random_sim_test(serialize=True)``)
    does not work for any Python game with sampled chance: it stores the game's RNG state
    through ``Game::GetRNGState``, which pyspiel does not let a Python game implement.

Bots
    :class:`AgentBot` makes any of our agents an OpenSpiel bot (for ``evaluate_bots``);
    :class:`ISMCTSBot` is OpenSpiel's ISMCTS bot with the ``restart_at`` that ``evaluate_bots``
    calls; :class:`PlayoutEvaluator` gives OpenSpiel's MCTS-family bots random playouts that run
    inside numba.
"""

import base64
import functools
import json
import os

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts

from . import kernels
from .game import IllegalActionError
from .rng import RNG, seed_rng
from .state import new_states
from .validate import check_records

MIN_UTILITY, MAX_UTILITY = -1.0, 1.0
#: OpenSpiel needs a bound on the game length; for ``max_cycles=None`` this nominal one stands in
#: (the engines end every game by their rules).
UNBOUNDED_LENGTH = 1_000_000
SEED_PARAMETER = "seed"
NONE_INT = -1  # an int parameter's value for None
INT_PARAMETER = (-2**31, 2**31 - 1)  # OpenSpiel's int parameters are C++ ints
MAX_SEED = 2**63  # the deal's seeds drawn for seed=-1


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
    kinds = {**parameter_kinds(game), SEED_PARAMETER: int}
    unknown = sorted(set(config) - set(kinds))
    if unknown:
        raise ValueError(f"{game.env_id}: unknown OpenSpiel parameter(s) {unknown}; valid ones are "
                         f"{sorted(kinds)} (illegal actions always raise)")
    params = {name: _encode(kinds[name], value) for name, value in config.items()}
    low, high = INT_PARAMETER
    for name, value in params.items():
        if isinstance(value, int) and not isinstance(value, bool) and not low <= value <= high:
            raise ValueError(f"{game.env_id}: {name}={value} does not fit OpenSpiel's int parameters "
                             f"({low}..{high})")
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
    if isinstance(seed, bool) or not isinstance(seed, int) or not (seed == NONE_INT or 0 <= seed <= INT_PARAMETER[1]):
        raise ValueError(f"{game.env_id}: seed must be -1 (random) or an integer in [0, 2**31), got {seed!r}")
    kinds = parameter_kinds(game)
    unknown = sorted(set(params) - set(kinds))
    if unknown:
        raise ValueError(f"{game.env_id}: unknown OpenSpiel parameter(s) {unknown}; valid ones are "
                         f"{sorted([*kinds, SEED_PARAMETER])}")
    config = game.validate({name: _decode(kinds[name], value) for name, value in params.items()})
    return config, (None if seed == NONE_INT else seed)


def short_name(env_id, turn_based=False):
    """The OpenSpiel name of ``env_id``: ``tabletop_`` and the id without a ``_v0`` suffix
    (``_turn_based`` appended for the turn-based form of a simultaneous game)."""
    return "tabletop_" + env_id.removesuffix("_v0") + ("_turn_based" if turn_based else "")


def game_type(game, turn_based=False):
    """The ``pyspiel.GameType`` of ``game`` (of its turn-based form with ``turn_based``)."""
    Type = pyspiel.GameType
    simultaneous = game.simultaneous and not turn_based
    return Type(
        short_name=short_name(game.env_id, turn_based),
        long_name=(game.description or game.env_id) + (" (turn-based form)" if turn_based else ""),
        dynamics=Type.Dynamics.SIMULTANEOUS if simultaneous else Type.Dynamics.SEQUENTIAL,
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


def game_class(game, turn_based=False):
    """A ``pyspiel.Game`` subclass for ``game`` (an :class:`envs.core.Game`), or for the turn-based
    form of a simultaneous one; register it with ``pyspiel.register_game(cls.game_type, cls)``."""
    if turn_based and not game.simultaneous:
        raise ValueError(f"{game.env_id} is turn-based already; only simultaneous games have a turn-based form")
    name = "".join(part.title() for part in game.env_id.split("_")) + ("TurnBased" if turn_based else "") + "Game"
    state_class = TurnBasedState if turn_based else BridgeState
    return type(name, (BridgeGame,), {"description": game, "game_type": game_type(game, turn_based),
                                      "state_class": state_class})


class BridgeGame(pyspiel.Game):
    """One configured game; :func:`game_class` sets ``description``, ``game_type`` and ``state_class``."""

    description = None
    game_type = None
    state_class = None

    def __init__(self, params=None):
        game = self.description
        self.config, self.seed = _config_and_seed(game, params or {})
        players = self.config["num_players"]
        decisions_per_step = players if self.state_class is TurnBasedState else 1
        info = pyspiel.GameInfo(
            num_distinct_actions=game.num_actions,
            max_chance_outcomes=0,
            num_players=players,
            min_utility=MIN_UTILITY,
            max_utility=MAX_UTILITY,
            max_game_length=(self.config["max_cycles"] or UNBOUNDED_LENGTH) * decisions_per_step,
        )
        super().__init__(self.game_type, info, params or {})
        self._seeds = np.random.default_rng(int.from_bytes(os.urandom(8), "little"))
        # OpenSpiel's C++ Clone deep-copies a Python state's attributes: what the states of this
        # configuration share lives on their class, and each state's __dict__ holds only its own.
        self._states = type(f"{type(self).__name__}State", (self.state_class,), {"table": _Table(game, self.config)})

    def new_initial_state(self):
        seed = self.seed if self.seed is not None else int(self._seeds.integers(MAX_SEED))
        return self._states(self, seed)

    def make_py_observer(self, iig_obs_type=None, params=None):
        """Both observation types give the seat's observation vector (see the module docstring)."""
        return BridgeObserver(self.description.layout, params)

    def deserialize_state(self, text):
        """A state from :meth:`BridgeState.serialize` (checked; ValueError naming the problem) or
        from OpenSpiel's own format for Python states (``history=...``, trusted)."""
        if text.startswith("history="):
            return super().deserialize_state(text)
        lines = dict(line.partition("=")[::2] for line in text.strip().splitlines())
        state = self._states(self, 0)
        state._restore(lines)
        return state


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


# ---- states --------------------------------------------------------------------------------


def copy_record(array):
    """A copy of a record array in one memcpy (numpy copies structured arrays field by field)."""
    return array.view(np.uint8).copy().view(array.dtype)


class _RecordBox:
    """A state's record, boxed so that OpenSpiel's C++ Clone, which deep-copies a Python state's
    attributes, copies it with :func:`copy_record` (about 25 times faster than numpy's deepcopy)."""

    __slots__ = ("array",)

    def __init__(self, array):
        self.array = array

    def __deepcopy__(self, memo):
        return _RecordBox(copy_record(self.array))

    def __reduce__(self):
        return _RecordBox, (self.array,)


class BridgeState(pyspiel.State):
    """One game record. Its ``__dict__`` holds the record (boxed), the returns so far and
    ``_player`` (OpenSpiel's current player, read from the record after every change); ``table``
    (a :class:`_Table`) is set on the per-configuration subclass."""

    table = None

    def __init__(self, game, seed):
        super().__init__(game)
        table = self.table
        self._box = _RecordBox(new_states(table.game.engine.STATE))
        self._returns = np.zeros(table.num_players)
        kernels.reset_one(self._record, table.blank, table.config_record, np.uint64(seed))
        self._sync()

    @property
    def _record(self):
        return self._box.array

    # ---- OpenSpiel's State API ----------------------------------------------------------

    def current_player(self):
        return self._player

    def is_terminal(self):
        return self._player == pyspiel.PlayerId.TERMINAL

    def _legal_actions(self, player):
        mask = self.table.mask
        kernels.mask_one(self._record, player, mask)
        return mask.nonzero()[0].tolist()

    def _apply_action(self, action):
        table = self.table
        if table.game.simultaneous:
            raise IllegalActionError(f"{table.game.env_id}: every seat acts at once; use apply_actions")
        self._step(self._legal(self._seat_to_act(), action))

    def _apply_actions(self, actions):
        table = self.table
        if self._player != pyspiel.PlayerId.SIMULTANEOUS:
            why = "the game is over" if self.is_terminal() else "seats take turns; use apply_action"
            raise IllegalActionError(f"{table.game.env_id}: {why}")
        if len(actions) != table.num_players:
            raise IllegalActionError(f"{table.game.env_id}: need one action for each of {table.num_players} "
                                     f"seats, got {len(actions)}")
        joint = np.array([self._legal(seat, action) for seat, action in enumerate(actions)], np.int64)
        self._step(joint)

    def _action_to_string(self, player, action):
        return self.table.game.action_name(int(action), self.table.config)

    def returns(self):
        return self._returns.tolist()

    def rewards(self):
        return self._record["reward"][0, : self.table.num_players].tolist()

    def __str__(self):
        return self.table.game.render.ansi(self._record[0], self.table.config)

    def resample_from_infostate(self, player, probability_sampler):
        """A copy in which what ``player`` cannot know is resampled by the engine's ``determinize``
        (hidden cards, and the generator: the future draws), so ``player``'s information state is
        unchanged. ``probability_sampler()`` (a uniform [0, 1) draw) seeds it."""
        state = self.clone()
        kernels.determinize_one(state._record, player, np.uint64(_seed_from(probability_sampler)))
        return state

    def serialize(self):
        """The record's bytes (base64) and the returns so far; see ``BridgeGame.deserialize_state``."""
        return "\n".join(f"{key}={value}" for key, value in self._serial_fields().items())

    # ---- our additions ------------------------------------------------------------------

    @property
    def record(self):
        """A copy of the game record (a length-1 array, as ``env.get_state()`` gives)."""
        return copy_record(self._record)

    def observe(self, player, out):
        """Write ``player``'s observation vector into ``out`` (float32, the layout's size)."""
        if not 0 <= player < self.table.num_players:
            raise ValueError(f"player must be a seat 0..{self.table.num_players - 1}, got {player}")
        kernels.view_one(self._record, player, out, self.table.mask)

    def agent_view(self, player, needs_record=False):
        """What one of our agents sees as ``player``: (observation, action mask, info), as the
        PettingZoo envs give it (the record in ``info["record"]`` for search agents)."""
        table = self.table
        observation = np.empty(table.game.layout.size, np.float32)
        mask = np.empty(table.game.num_actions, np.int8)
        kernels.view_one(self._record, player, observation, mask)
        info = table.game.infos(self._record[0], table.config, player) if table.game.infos else {}
        if needs_record:
            info = {**info, "record": self.record}
        return observation, mask, info

    def playout(self, actor, rng, max_decisions):
        """Each seat's return after random legal play from here to the end (or ``max_decisions``
        more steps, or ``max_cycles``), played inside numba on a copy of the record. ``actor`` is
        an ``envs.core.rng.RNG`` record array (the stream of the random choices), ``rng`` a numpy
        Generator for any choice made in Python."""
        table = self.table
        record, extra = self._playout_start(rng)
        budget = max_decisions if not table.max_cycles else min(
            max_decisions, table.max_cycles - int(record["step_count"][0]))
        playout = kernels.random_playout_joint if table.game.simultaneous else kernels.random_playout
        gained = np.zeros(table.num_players, np.float32)
        if budget > 0 and not record["terminal"][0]:
            playout(record, actor, table.game.num_actions, budget, gained)
        return self._returns + extra + gained

    # ---- inner workings -------------------------------------------------------------------

    def _seat_to_act(self):
        if self._player < 0:
            raise IllegalActionError(f"{self.table.game.env_id}: the game is over")
        return self._player

    def _step(self, action):
        kernels.step_one(self._record, action)
        self._returns += self._record["reward"][0, : self.table.num_players]
        self._sync()

    def _playout_start(self, rng):
        """A copy of the record to play out from, and the rewards gained on the way to it."""
        return copy_record(self._record), 0.0

    def _over(self):
        record, max_cycles = self._record, self.table.max_cycles
        return bool(record["terminal"][0]) or (max_cycles > 0 and record["step_count"][0] >= max_cycles)

    def _sync(self):
        if self._over():
            self._player = pyspiel.PlayerId.TERMINAL
        elif self.table.game.simultaneous:
            self._player = pyspiel.PlayerId.SIMULTANEOUS
        else:
            self._player = int(self._record["current_player"][0])

    def _legal(self, seat, action):
        """``action`` as an int if ``seat`` may take it now; IllegalActionError (naming it) otherwise."""
        table = self.table
        mask = table.mask
        kernels.mask_one(self._record, seat, mask)
        if not 0 <= action < table.game.num_actions or not mask[action]:
            legal = mask.nonzero()[0].tolist()
            raise IllegalActionError(f"{table.game.env_id}: player {seat} cannot take action {action} now; "
                                     f"legal: {legal[:40]}{' ...' if len(legal) > 40 else ''}")
        return int(action)

    def _serial_fields(self):
        return {"record": base64.b64encode(self._record.tobytes()).decode("ascii"),
                "returns": ",".join(repr(r) for r in self._returns.tolist())}

    def _restore(self, lines):
        """Install the fields of a serialized state, each checked first."""
        game, n = self.table.game, self.table.num_players
        expected = set(self._serial_fields())
        if set(lines) != expected:
            raise ValueError(f"{game.env_id}: a serialized state has the lines {sorted(expected)}, got {sorted(lines)}")
        try:
            raw = base64.b64decode(lines["record"], validate=True)
            returns = np.array([float(r) for r in lines["returns"].split(",")])
        except ValueError as error:
            raise ValueError(f"{game.env_id}: unreadable serialized state ({error})") from None
        if len(raw) != game.engine.STATE.itemsize:
            raise ValueError(f"{game.env_id}: the record has {len(raw)} bytes; "
                             f"a record has {game.engine.STATE.itemsize}")
        if returns.shape != (n,) or not np.isfinite(returns).all():
            raise ValueError(f"{game.env_id}: returns must be {n} finite numbers")
        record = np.frombuffer(bytearray(raw), game.engine.STATE)
        if int(record["num_players"][0]) != n:
            raise ValueError(f"{game.env_id}: the record is a {int(record['num_players'][0])}-player game; "
                             f"this game has {n} players")
        check_records(game, record)
        self._box, self._returns = _RecordBox(record), returns
        self._sync()


class TurnBasedState(BridgeState):
    """A simultaneous game played seat after seat: within each step seat 0 chooses, then seat 1,
    ...; the joint action is applied once the last seat has chosen. A seat does not see the
    choices made before it in the same step (they are in no observation), so the information is
    that of the simultaneous game; ``resample_from_infostate(p)`` also redraws those hidden
    choices (uniformly among each seat's legal actions in the resampled record). Rewards arrive
    with the last seat's choice. The choices so far are ``_chosen`` (a tuple)."""

    def __init__(self, game, seed):
        self._chosen = ()
        super().__init__(game, seed)

    def _apply_action(self, action):
        seat = self._seat_to_act()
        chosen = self._chosen + (self._legal(seat, action),)
        if len(chosen) < self.table.num_players:
            self._chosen = chosen
            self._player = len(chosen)
        else:
            self._chosen = ()
            self._step(np.array(chosen, np.int64))

    def _apply_actions(self, actions):
        raise IllegalActionError(f"{self.table.game.env_id} (turn-based form): seats take turns; use apply_action")

    def rewards(self):
        if self._chosen:
            return [0.0] * self.table.num_players
        return super().rewards()

    def __str__(self):
        return f"{super().__str__()}\nchosen this step: {list(self._chosen)}"

    def resample_from_infostate(self, player, probability_sampler):
        state = super().resample_from_infostate(player, probability_sampler)
        mask = self.table.mask
        redrawn = list(state._chosen)
        for seat in range(len(redrawn)):
            if seat != player:
                kernels.mask_one(state._record, seat, mask)
                legal = mask.nonzero()[0]
                redrawn[seat] = int(legal[min(int(probability_sampler() * legal.size), legal.size - 1)])
        state._chosen = tuple(redrawn)
        return state

    def agent_view(self, player, needs_record=False):
        observation, mask, info = super().agent_view(player, needs_record)
        if needs_record:  # what agents.ismcts expects in a simultaneous game (as envs.core.play passes it)
            info["pending_actions"] = list(self._chosen)
        return observation, mask, info

    def _playout_start(self, rng):
        record = copy_record(self._record)
        if not self._chosen:
            return record, 0.0
        joint = np.zeros(self.table.num_players, np.int64)
        joint[: len(self._chosen)] = self._chosen
        mask = self.table.mask
        for seat in range(len(self._chosen), joint.size):  # the seats still to choose, at random
            kernels.mask_one(record, seat, mask)
            joint[seat] = rng.choice(mask.nonzero()[0])
        kernels.step_one(record, joint)
        return record, record["reward"][0, : joint.size].astype(np.float64)

    def _sync(self):
        super()._sync()
        if self._player == pyspiel.PlayerId.SIMULTANEOUS:
            self._player = len(self._chosen)

    def _serial_fields(self):
        return {**super()._serial_fields(), "chosen": ",".join(map(str, self._chosen))}

    def _restore(self, lines):
        chosen_text = lines.get("chosen", "")
        super()._restore(lines)
        try:
            chosen = tuple(int(a) for a in chosen_text.split(",") if a)
        except ValueError:
            raise ValueError(f"{self.table.game.env_id}: chosen must be integers, got {chosen_text!r}") from None
        if len(chosen) >= self.table.num_players or (chosen and self.is_terminal()):
            raise ValueError(f"{self.table.game.env_id}: chosen holds {len(chosen)} choices; at most "
                             f"{self.table.num_players - 1}, none once the game is over")
        self._chosen = ()
        self._sync()
        for action in chosen:
            self._apply_action(action)


def _seed_from(probability_sampler):
    # 53 random bits from a uniform [0, 1) draw
    return int(probability_sampler() * 2**53)


# ---- observations --------------------------------------------------------------------------


@functools.lru_cache(maxsize=None)
def _labels(layout):
    """The name of every entry of the flat vector (``block`` or ``block[i,j]``), and the same
    names followed by ``=``: two object arrays, for :func:`describe`."""
    views = layout.views(np.arange(layout.size))
    names = np.empty(layout.size, dtype=object)
    for name, view in views.items():
        for index in np.ndindex(view.shape):
            names[int(view[index])] = name if view.size == 1 else f"{name}[{','.join(map(str, index))}]"
    return names, names + "="


def describe(vector, labels):
    """Every non-zero entry of ``vector`` as ``label`` (for 1) or ``label=value`` (9 significant
    digits: exact for float32). ``labels`` is :func:`_labels`'s pair of arrays."""
    names, prefixes = labels
    where = vector.nonzero()[0]
    values = vector[where]
    distinct, which = np.unique(values, return_inverse=True)  # few distinct values: format each once
    texts = np.array([format(v, ".9g") for v in distinct.tolist()], dtype=object)
    pieces = prefixes[where] + texts[which]
    ones = values == 1.0
    pieces[ones] = names[where[ones]]
    return " ".join(pieces.tolist())


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


# ---- bots ----------------------------------------------------------------------------------


class AgentBot(pyspiel.Bot):
    """One of our agents (``agents.make_agent(...)``: random, heuristic, ISMCTS, a trained policy)
    as an OpenSpiel bot for ``player``, e.g. for ``evaluate_bots``. It sees what it sees in the
    PettingZoo envs: the seat's observation vector, mask and info (search agents also the record,
    which they only determinize)."""

    def __init__(self, agent, player):
        pyspiel.Bot.__init__(self)
        self.agent, self.player = agent, player
        self._ready = False

    def restart_at(self, state):
        game = state.get_game()
        self.agent.reset(self.player, game.description.env_id, game.config)
        self._ready = True

    def step(self, state):
        if not self._ready:
            self.restart_at(state)
        observation, mask, info = state.agent_view(self.player, getattr(self.agent, "needs_record", False))
        return int(self.agent.act(observation, mask, info))


class ISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTS bot (``open_spiel.python.algorithms.ismcts``) as it is, plus the
    ``restart_at`` that ``evaluate_bots`` calls (the search keeps nothing between moves)."""

    def restart_at(self, state):
        pass


class PlayoutEvaluator:
    """An evaluator for OpenSpiel's MCTS and ISMCTS bots that plays its random playouts inside
    numba (:meth:`BridgeState.playout`) instead of through the Python API, as OpenSpiel's
    ``RandomRolloutEvaluator`` does; priors are uniform. Same estimate, far cheaper."""

    def __init__(self, seed=None, max_decisions=100_000):
        self.rng = np.random.default_rng(seed)
        self.actor = np.zeros(1, RNG)
        seed_rng(self.actor[0], np.uint64(self.rng.integers(MAX_SEED)))
        self.max_decisions = max_decisions

    def evaluate(self, state):
        return state.playout(self.actor, self.rng, self.max_decisions)

    def prior(self, state):
        legal = state.legal_actions(state.current_player())
        return [(action, 1.0 / len(legal)) for action in legal]
