"""What a game is to the shared machinery: its engine functions, its options, its description.

An engine module (``envs/<game>/engine.py``) holds the rules as numba functions over one record
(see ``docs/DESIGN.md``) and ends with :func:`register_engine`, which lets the generic kernels
below call it. A game's ``env.py`` describes the game with a :class:`Game`; the adapters
(:mod:`envs.core.aec`, :mod:`envs.core.parallel`) and :class:`envs.core.vector.VectorGame` are
built from that description alone, so nothing here knows any game's rules.

Engine contract (all ``@njit(cache=True)``; ``seat`` and ``action`` are ints)::

    reset(state, config, seed)     set up a new game; copy what the rules need from config
    legal_mask(state, seat, mask)  set mask[a] = 1 for each action ``seat`` may take now
                                   (mask arrives zeroed; a seat not to act leaves it all zero)
    step(state, action)            apply current_player's action (turn-based games), or
    step(state, actions)           apply one action per seat (simultaneous games); set
                                   state.reward for every seat, terminal and current_player
    observe(state, seat, out)      write what ``seat`` may know into ``out`` (zeroed, float32)
    determinize(state, seat, seed) resample everything ``seat`` cannot know, consistently with
                                   what it knows, and reseed the generator (for search agents);
                                   the result must depend only on what ``seat`` knows and on
                                   ``seed`` (hidden items put in a fixed order before they are
                                   dealt), so a search never reads where hidden things truly lie
    check_state(state) -> int      0 if the record is a game the rules can reach (every count
                                   consistent with its array, every card/tile/token accounted for
                                   exactly once, the phase and current_player fit together),
                                   else a code k >= 1 whose text is ``STATE_PROBLEMS[k]``; it may
                                   assume the field ranges of ``STATE_BOUNDS`` already hold and
                                   must itself never index out of bounds
    playout_value(state, values)   each seat's estimated return from here to the end of the game,
                                   on the reward scale (``values`` arrives zeroed, float32[seats]);
                                   search agents use it to cut playouts short

Besides the functions an engine module defines two tables for :func:`check_records`:
``STATE_BOUNDS`` (every game field -> inclusive ``(low, high)`` of each element) and
``STATE_PROBLEMS`` (a tuple of texts, index 0 unused, one per code of ``check_state``).

The adapters check legality before calling ``step``: an engine may assume a legal action.
"""

import numbers
import warnings
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, Callable

import numpy as np
from numba import types
from numba.extending import overload

ENGINE_FUNCTIONS = ("reset", "legal_mask", "step", "observe", "determinize", "check_state", "playout_value")
OPTIONAL_FUNCTIONS = ("determinize", "check_state", "playout_value")
ILLEGAL_ACTION_MODES = ("raise", "penalize")
RENDER_MODES = ("human", "ansi", "rgb_array")


class DtypeRegistry:
    """Values kept per record dtype: what the generic kernels resolve at compile time from the
    record they are given (an engine's functions, a playout strategy). Entries are found by dtype
    equality, so a dtype rebuilt by a module reload finds the entry of the one it equals."""

    def __init__(self):
        self._entries = []  # (dtype, value)

    def get(self, dtype):
        """The value registered for ``dtype`` (None if there is none)."""
        for registered, value in self._entries:
            if registered == dtype:
                return value
        return None

    def put(self, dtype, value):
        """Register ``value`` for ``dtype``, replacing any value an equal dtype had."""
        self._entries = [(registered, old) for registered, old in self._entries if registered != dtype]
        self._entries.append((dtype, value))


_ENGINES = DtypeRegistry()  # {function name: numba function} per state dtype


class IllegalActionError(ValueError):
    """An action that is out of range, of the wrong type, or not legal in this state."""


def register_engine(state_dtype, **functions):
    """Make an engine's functions callable from the generic kernels for records of ``state_dtype``."""
    missing = [name for name in ENGINE_FUNCTIONS if name not in functions and name not in OPTIONAL_FUNCTIONS]
    if missing:
        raise ValueError(f"engine for {state_dtype} lacks {missing}")
    unknown = sorted(set(functions) - set(ENGINE_FUNCTIONS))
    if unknown:
        raise ValueError(f"engine for {state_dtype}: unknown function name(s) {unknown}; "
                         f"valid names are {list(ENGINE_FUNCTIONS)}")
    registered = _ENGINES.get(state_dtype)
    if registered is not None:
        _warn_if_another_file(state_dtype, registered, functions)
    _ENGINES.put(state_dtype, functions)


def _source_file(function):
    python = getattr(function, "py_func", function)  # a numba dispatcher keeps the Python function
    code = getattr(python, "__code__", None)
    return code.co_filename if code is not None else None


def _warn_if_another_file(state_dtype, registered, functions):
    """Re-registering an engine from the same file (a module reload) is harmless. From another
    file (a copy of an engine kept for comparison) it silently redirects every generic kernel of
    this process, and numba caches those kernels under this project's key: later processes may
    then load code that calls into the copy (seen as a ModuleNotFoundError)."""
    before, after = _source_file(registered["step"]), _source_file(functions["step"])
    if before != after:
        warnings.warn(f"engine for {state_dtype} registered again from {after} (first from {before}): "
                      "the generic kernels now call the new functions, and the numba cache may keep "
                      "kernels compiled against them; register each record type from one file",
                      RuntimeWarning, stacklevel=3)


def engine_function(dtype, name):
    """The engine function ``name`` registered for records of ``dtype`` (None if there is none)."""
    functions = _ENGINES.get(dtype)
    return None if functions is None else functions.get(name)


# The generic entry points. In numba each resolves at compile time (by the record's dtype) to the
# registered engine's function, so the kernels that call them are compiled and cached once per
# game; as plain Python (NUMBA_DISABLE_JIT=1) they look the function up and call it.
def game_reset(state, config, seed):
    engine_function(state.dtype, "reset")(state, config, seed)


def game_legal_mask(state, seat, mask):
    engine_function(state.dtype, "legal_mask")(state, seat, mask)


def game_step(state, action):
    engine_function(state.dtype, "step")(state, action)


def game_observe(state, seat, out):
    engine_function(state.dtype, "observe")(state, seat, out)


def game_determinize(state, seat, seed):
    engine_function(state.dtype, "determinize")(state, seat, seed)


def game_check_state(state):
    return engine_function(state.dtype, "check_state")(state)


def game_playout_value(state, values):
    fn = engine_function(state.dtype, "playout_value")
    if fn is not None:
        fn(state, values)


def game_has_playout_value(state):
    """Whether the engine estimates playouts (a constant once compiled; see game_playout_value)."""
    return engine_function(state.dtype, "playout_value") is not None


def _resolve(state_type, name):
    if not isinstance(state_type, types.Record):
        return None
    fn = engine_function(state_type.dtype, name)
    if fn is None:
        raise TypeError(f"no engine function {name!r} registered for records {state_type}")
    return fn


@overload(game_reset)
def _game_reset(state, config, seed):
    fn = _resolve(state, "reset")
    if fn is not None:
        return lambda state, config, seed: fn(state, config, seed)


@overload(game_legal_mask)
def _game_legal_mask(state, seat, mask):
    fn = _resolve(state, "legal_mask")
    if fn is not None:
        return lambda state, seat, mask: fn(state, seat, mask)


@overload(game_step)
def _game_step(state, action):
    fn = _resolve(state, "step")
    if fn is not None:
        return lambda state, action: fn(state, action)


@overload(game_observe)
def _game_observe(state, seat, out):
    fn = _resolve(state, "observe")
    if fn is not None:
        return lambda state, seat, out: fn(state, seat, out)


@overload(game_determinize)
def _game_determinize(state, seat, seed):
    fn = _resolve(state, "determinize")
    if fn is not None:
        return lambda state, seat, seed: fn(state, seat, seed)


@overload(game_check_state)
def _game_check_state(state):
    fn = _resolve(state, "check_state")
    if fn is not None:
        return lambda state: fn(state)


# playout_value is optional: for an engine without one the entry point compiles to nothing and
# game_has_playout_value to the constant False, so one search kernel compiles for every engine.
@overload(game_playout_value)
def _game_playout_value(state, values):
    if isinstance(state, types.Record):
        fn = engine_function(state.dtype, "playout_value")
        if fn is None:
            return lambda state, values: None
        return lambda state, values: fn(state, values)


@overload(game_has_playout_value)
def _game_has_playout_value(state):
    if isinstance(state, types.Record):
        has = engine_function(state.dtype, "playout_value") is not None
        return lambda state: has


def registered_game(env_id):
    """The :class:`Game` registered as ``env_id`` (see :mod:`envs`)."""
    from envs import game_of  # the registry imports the games; envs.core must not import it at load time

    return game_of(env_id)


@dataclass(frozen=True)
class Option:
    """A game option: its default, the values allowed, and what it does.

    ``choices`` lists every allowed value; for a range give ``check`` instead, a function that
    returns an error message for a bad value (or None) and ``describe`` for the error text.
    ``observation``: the option changes what a seat observes (not the rules nor the rewards), so a
    policy trained with it must be evaluated with it too (training keeps such options everywhere,
    where shaping options are for training only: :meth:`Game.observation_options`).
    """

    default: Any
    doc: str
    choices: tuple | None = None
    check: Callable[[Any], str | None] | None = None
    observation: bool = False

    def validate(self, name, value):
        if self.choices is not None and not any(_same_value(value, c) for c in self.choices):
            raise ValueError(f"{name}={value!r} is not valid; choose one of {list(self.choices)}")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ValueError(f"{name}={value!r} is not valid: {problem}")
        return value


def _same_value(a, b):
    # `1 == True == 1.0` in Python; an option that takes True/False must not take 1/0, and one
    # that takes 5 must not take 5.0 (it would reach the engine as a float).
    if _kind(a) is not _kind(b):
        return False
    try:
        return bool(a == b)
    except (TypeError, ValueError):
        return False


def _kind(value):
    if isinstance(value, (bool, np.bool_)):
        return bool
    for kind in (numbers.Integral, numbers.Real, str):
        if isinstance(value, kind):
            return kind
    return type(value)


def int_range(low, high):
    """An Option check for an integer in [low, high]."""

    def check(value):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
            return f"expected an integer from {low} to {high}"
        if not low <= value <= high:
            return f"expected an integer from {low} to {high}"
        return None

    return check


def _check_max_cycles(value):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 1:
        return "expected None or a positive integer"
    return None


@dataclass
class Game:
    """Everything the adapters need to know about one game.

    ``options`` are the game's own; every game also takes ``num_players`` (one of
    ``player_counts``), ``max_cycles`` (truncate after that many decisions, None for never),
    ``illegal_action`` ("raise" or "penalize") and, for the envs, ``render_mode``.
    ``render`` is a module with ``ansi(state, config, viewer=None) -> str`` and
    ``rgb(state, config) -> uint8 array (H, W, 3)``. ``action_name(action, config)`` names actions.
    ``infos(state, config, seat)`` may add game facts to each seat's info dict.
    ``role_of(record, seat)`` names the seat's role (or team) in games that have them, so
    evaluations can report win rates per role; ``fair_share(num_players)`` is a seat's win rate
    when every seat plays alike (default ``1 / num_players``; team games set their own).
    """

    env_id: str
    engine: ModuleType
    player_counts: tuple
    default_players: int
    layout: Any
    num_actions: int
    action_name: Callable[[int, dict], str]
    render: Any
    options: dict = field(default_factory=dict)
    simultaneous: bool = False
    default_max_cycles: int | None = 10_000
    infos: Callable | None = None
    role_of: Callable | None = None
    fair_share: Callable[[int], float] | None = None
    description: str = ""

    # A Game holds modules and functions: copies of an env or a VectorGame share it, and a pickle
    # names it by its env id (unpickling looks the id up in the registry).
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        return registered_game, (self.env_id,)

    def __post_init__(self):
        if engine_function(self.engine.STATE, "step") is None:
            raise ValueError(f"{self.env_id}: engine.py must call register_engine(STATE, ...)")
        from .validate import check_bounds_complete  # validate imports kernels, which import this module

        check_bounds_complete(self.engine)

    def common_options(self):
        return {
            "num_players": Option(self.default_players, "number of seats", choices=tuple(self.player_counts)),
            "max_cycles": Option(self.default_max_cycles, "truncate after this many decisions (None: never)",
                                 check=_check_max_cycles),
            "illegal_action": Option("raise", "raise IllegalActionError, or end the game with -1 for the offender",
                                     choices=ILLEGAL_ACTION_MODES),
        }

    def all_options(self):
        return {**self.common_options(), **self.options}

    def validate(self, config):
        """The full configuration (defaults filled in) or ValueError naming the valid values."""
        known = self.all_options()
        unknown = sorted(set(config) - set(known))
        if unknown:
            raise ValueError(f"{self.env_id}: unknown option(s) {unknown}; valid options are {sorted(known)}")
        full = {name: option.default for name, option in known.items()}
        for name, value in config.items():
            full[name] = known[name].validate(name, value)
        check = getattr(self.engine, "check_config", None)
        if check is not None:
            check(full)
        return full

    def observation_options(self, config):
        """The options of ``config`` that change what a seat observes (``Option.observation``)."""
        known = self.all_options()
        return {name: value for name, value in config.items() if name in known and known[name].observation}

    def make_config(self, config):
        """The engine's config record (a length-1 array) for a validated configuration."""
        record = self.engine.make_config(config)
        if record.shape != (1,) or record.dtype != self.engine.CONFIG:
            raise TypeError(f"{self.env_id}: make_config must return a length-1 CONFIG array")
        return record
