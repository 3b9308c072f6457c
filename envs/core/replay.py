"""Replays: one game as a small JSON file, played back to the identical record.

Every env keeps what it takes to play its game again: the seed of its last ``reset`` (or, for a
game continued from ``set_state``, that start record) and every action taken since. Because every
random draw comes from the record's own generator, the same actions from the same start reach
the same record, byte for byte. ::

    from envs.core import replay
    replay.save(env, "game.json")             # any env of ours, wrapped or not, at any point
    game = replay.load("game.json")
    env = replay.replay_env(game, step=12)    # a live env after the first 12 decisions
    for position in replay.positions(game):   # after the reset, then after each decision
        print(position.step, position.actions, position.env.unwrapped.get_state())

``python -m agents.replay game.json [--gif game.gif] [--step N]`` shows a replay as text or a GIF.

The file (JSON, one line per field)::

    {"format": "tabletop-marl replay", "version": 1,
     "env_id": "teufel_teufel_v0",
     "config": {...every option of the game, as validated...},
     "seed": 123,                        # or null with "start_state": base64 of the start record
     "actions": [3, 17, ...],            # a simultaneous game: one list per step, one action per seat
     "record_sha256": "..."}             # the record when saved: a replay checks it reaches it

An action the env refused is not recorded (it changed nothing). Under
``illegal_action="penalize"`` the offending action is recorded as given (``null`` when it was not
an integer), so the replay ends the game the same way.
"""

import base64
import hashlib
import json
import pathlib
from dataclasses import dataclass, field

import numpy as np

FORMAT = "tabletop-marl replay"
VERSION = 1


class ReplayError(ValueError):
    """A replay file that cannot be read, or whose actions do not fit its game."""


@dataclass
class Replay:
    """One game: where it started (``seed`` or ``start_state``) and the actions taken since."""

    env_id: str
    config: dict
    actions: list
    seed: int | None = None
    start_state: np.ndarray | None = None  # a length-1 record (games continued from set_state)
    record_sha256: str | None = None  # the record when the replay was made

    @property
    def decisions(self):
        return len(self.actions)


@dataclass
class Position:
    """The game after ``step`` decisions; ``actions`` led here (an int, or a list per seat)."""

    env: object
    step: int
    seat: int | None = None  # the seat that acted (turn-based games)
    actions: object = None
    names: list = field(default_factory=list)  # "player_k: action name" for each action taken


def table_of(env):
    """The env of ours under any PettingZoo wrappers or conversions of ``env``."""
    from .table import Table

    seen = env
    for _ in range(16):
        if isinstance(seen, Table):
            return seen
        inner = getattr(seen, "unwrapped", None)
        if inner is not None and inner is not seen:
            seen = inner
            continue
        inner = next((getattr(seen, name) for name in ("env", "aec_env", "par_env") if hasattr(seen, name)), None)
        if inner is None:
            break
        seen = inner
    raise TypeError(f"not a tabletop-marl env: {type(env).__name__}")


def replay_of(env):
    """The :class:`Replay` of the game ``env`` is playing (or has played)."""
    table = table_of(env)
    table._require_reset("a replay")
    start = table._replay_start
    record = table.get_state()
    return Replay(env_id=table.game.env_id, config=dict(table.config), actions=[_copy(a) for a in table._replay_actions],
                  seed=start if isinstance(start, int) else None,
                  start_state=None if isinstance(start, int) else start.copy(),
                  record_sha256=_digest(record))


def save(env_or_replay, path):
    """Write the replay of an env (or a :class:`Replay`) to ``path`` as JSON; returns the path."""
    replay = env_or_replay if isinstance(env_or_replay, Replay) else replay_of(env_or_replay)
    path = pathlib.Path(path)
    fields = [f" {json.dumps(key)}: {json.dumps(value, default=_plain)}" for key, value in to_json(replay).items()]
    path.write_text("{\n" + ",\n".join(fields) + "\n}\n")  # one line per field: small, and readable
    return path


def to_json(replay):
    """The replay as a JSON-ready dict (the file's content)."""
    start = None if replay.start_state is None else base64.b64encode(replay.start_state.tobytes()).decode("ascii")
    return {"format": FORMAT, "version": VERSION, "env_id": replay.env_id, "config": replay.config,
            "seed": replay.seed, "start_state": start, "actions": replay.actions,
            "record_sha256": replay.record_sha256}


def load(path):
    """The :class:`Replay` in the JSON file ``path``; :class:`ReplayError` saying what is wrong."""
    path = pathlib.Path(path)
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise ReplayError(f"{path}: not a readable replay file ({error})") from error
    return from_json(data, str(path))


def from_json(data, where="replay"):
    """A :class:`Replay` from the dict :func:`to_json` makes, every field checked."""
    import envs  # the registry imports the games; envs.core must not import it at load time

    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ReplayError(f"{where}: not a {FORMAT} file")
    if data.get("version") != VERSION:
        raise ReplayError(f"{where}: replay version {data.get('version')!r}; this code reads version {VERSION}")
    try:
        game = envs.game_of(data.get("env_id"))
        config = game.validate(dict(data.get("config") or {}))
    except ValueError as error:
        raise ReplayError(f"{where}: {error}") from error
    seed, start = data.get("seed"), data.get("start_state")
    if (seed is None) == (start is None):
        raise ReplayError(f"{where}: give either a seed or a start_state")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64):
        raise ReplayError(f"{where}: seed must be an integer in [0, 2**64), got {seed!r}")
    start_state = None if start is None else _decode_record(start, game, where)
    actions = data.get("actions")
    if not isinstance(actions, list) or not all(_is_action(a, game) for a in actions):
        shape = "lists of actions (one per seat)" if game.simultaneous else "actions"
        raise ReplayError(f"{where}: actions must be a list of {shape}: integers, or null for a forfeited move")
    digest = data.get("record_sha256")
    if digest is not None and not isinstance(digest, str):
        raise ReplayError(f"{where}: record_sha256 must be a string")
    return Replay(env_id=game.env_id, config=config, actions=actions, seed=seed, start_state=start_state,
                  record_sha256=digest)


def positions(replay, render_mode=None, upto=None):
    """Play ``replay`` back: a :class:`Position` after the start and after each decision (up to
    ``upto`` decisions). The env is the same object throughout (PettingZoo's AEC env for
    turn-based games, the Parallel env for simultaneous ones). Having played every action it
    checks that the game reached the record the replay was saved from."""
    import envs

    game = envs.game_of(replay.env_id)
    steps = replay.decisions if upto is None else upto
    if isinstance(steps, bool) or not isinstance(steps, int) or not 0 <= steps <= replay.decisions:
        raise ReplayError(f"step must be an integer from 0 to {replay.decisions}, got {upto!r}")
    make = envs.make_parallel if game.simultaneous else envs.make
    env = make(replay.env_id, render_mode=render_mode, **replay.config)
    if replay.start_state is None:
        env.reset(seed=replay.seed)
    else:
        env.set_state(replay.start_state)
    yield Position(env, 0)
    table = table_of(env)
    for step in range(steps):
        action = replay.actions[step]
        try:
            if game.simultaneous:
                yield _play_joint(env, table, step, action)
            else:
                yield _play_turn(env, table, step, action)
        except ValueError as error:
            raise ReplayError(f"decision {step + 1} of the replay does not fit the game: {error}") from error
    if steps == replay.decisions and replay.record_sha256 is not None and _digest(table.get_state()) != replay.record_sha256:
        raise ReplayError(f"the replay did not reach the record it was saved from (were the rules of "
                          f"{replay.env_id} changed since?)")


def replay_env(replay, step=None, render_mode=None):
    """A live env after the first ``step`` decisions of ``replay`` (default: all of them)."""
    position = None
    for position in positions(replay, render_mode=render_mode, upto=step):
        pass
    return position.env


def _play_turn(env, table, step, action):
    if table._terminal[0] or table._truncated():
        raise ValueError("the game is already over")
    seat = int(table._current[0])
    name = _describe(table, seat, action)
    env.step(action)
    return Position(env, step + 1, seat=seat, actions=action, names=[name])


def _play_joint(env, table, step, joint):
    if not env.agents:
        raise ValueError("the game is already over")
    if len(joint) != len(env.agents):
        raise ValueError(f"{len(joint)} actions for {len(env.agents)} seats")
    names = [_describe(table, table.agent_name_mapping[agent], a) for agent, a in zip(env.agents, joint)]
    env.step(dict(zip(env.agents, joint)))
    return Position(env, step + 1, actions=joint, names=names)


def _describe(table, seat, action):
    who = table.possible_agents[seat]
    if action is None or not 0 <= action < table.game.num_actions:
        return f"{who}: illegal action {action!r}"
    return f"{who}: {table.action_to_str(action)}"


def _decode_record(text, game, where):
    try:
        raw = base64.b64decode(text, validate=True)
        record = np.frombuffer(raw, dtype=game.engine.STATE).copy()
    except (TypeError, ValueError) as error:
        raise ReplayError(f"{where}: start_state is not a {game.env_id} record ({error})") from error
    if record.shape != (1,):
        raise ReplayError(f"{where}: start_state holds {record.shape[0]} records, expected one")
    return record


def _is_action(action, game):
    if game.simultaneous:
        return isinstance(action, list) and all(_is_single(a) for a in action)
    return _is_single(action)


def _is_single(action):
    return action is None or (isinstance(action, int) and not isinstance(action, bool))


def _digest(record):
    return hashlib.sha256(np.ascontiguousarray(record).tobytes()).hexdigest()


def _copy(action):
    return list(action) if isinstance(action, list) else action


def _plain(value):
    """JSON for the numpy scalars and tuples a config may hold."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, (tuple, set)):
        return list(value)
    raise TypeError(f"cannot write {type(value).__name__} {value!r} into a replay")
