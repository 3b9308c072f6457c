"""Corrupted records through ``set_state``: rejected cleanly, or accepted and playable to the end.

A *case* sets one element of a mid-game record (header or game field; the first, middle and last
element of an array) to a boundary or out-of-range value: -1, 0, 1, the seat count and the seat
count - 1, 100, the type's min and max, NaN and infinities for floats, and the engine's
``STATE_BOUNDS`` (low, high, one past each) where it has them. Each case goes through the env's
``set_state`` and a ``VectorGame``'s, and ends as one of

``rejected``  ``ValueError`` from both, each left byte-identical (record and everything the API shows);
``played``    accepted by both, then played to the end with random legal actions: ``check_records``
              passes after every step (observations within the layout's bounds, a legal action
              for the seat to act) and the VectorGame follows the env record for record;
``failed``    anything else: another exception, a half-applied rejection, a verdict the two APIs
              disagree on, a check failing during play;
``crashed``   the process died (segfault, abort) or hung.

Cases run in forked children of a worker process (``python -m tests.fuzz.runner <env_id>``), many
per child; a child that dies is replaced and its case rerun alone, so a crash is attributed to the
case that caused it and fails one case instead of the run. The worker prints one JSON line per
case; :func:`fuzz_game` runs one and collects them. Forking needs numba's fork-safe ``workqueue``
threading layer, which :func:`fuzz_game` selects for the worker.
"""

import argparse
import json
import os
import select
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass

import numpy as np

OUTCOMES = ("rejected", "played", "failed", "crashed")
CASE_TIMEOUT = 120.0  # seconds without a finished case before a child counts as hung
MAX_DECISIONS = 3000  # a played case stops here if the game has not ended (reported in its detail)


@dataclass(frozen=True)
class Case:
    field: str
    index: tuple  # () for a scalar field
    label: str  # "-1", "max", "high+1", ...
    value: float | int

    def describe(self):
        index = "[" + ", ".join(map(str, self.index)) + "]" if self.index else ""
        return f"{self.field}{index}={self.label}"


def make_cases(game, record, num_players):
    """Every case for ``record`` (a length-1 array): each field, each index class, each value,
    skipping values the field cannot hold and values it already has."""
    bounds = getattr(game.engine, "STATE_BOUNDS", {})
    cases = []
    for name in record.dtype.names:
        field_type = record.dtype.fields[name][0]
        element_type, shape = field_type.base, field_type.shape
        for index in _index_classes(shape):
            original = record[name][0][index] if shape else record[name][0]
            for label, value in _values(element_type, bounds.get(name), num_players):
                if not _same(original, value):
                    cases.append(Case(name, index, label, value))
    return cases


def _index_classes(shape):
    if not shape:
        return [()]
    size = int(np.prod(shape))
    flat = dict.fromkeys((0, size // 2, size - 1))  # first, middle, last; in order, no repeats
    return [tuple(int(i) for i in np.unravel_index(k, shape)) for k in flat]


def _values(element_type, bounds, num_players):
    if element_type.kind == "f":
        info = np.finfo(element_type)
        candidates = [("NaN", np.nan), ("inf", np.inf), ("-inf", -np.inf), ("-1", -1.0), ("0", 0.0),
                      ("1", 1.0), ("100", 100.0), ("max", float(info.max)), ("min", float(info.min))]
    else:
        info = np.iinfo(element_type)
        candidates = [("-1", -1), ("0", 0), ("1", 1), ("seats-1", num_players - 1), ("seats", num_players),
                      ("100", 100), ("min", int(info.min)), ("max", int(info.max))]
    if bounds is not None:
        low, high = bounds
        candidates += [("low-1", low - 1), ("low", low), ("high", high), ("high+1", high + 1)]
    chosen = {}
    for label, value in candidates:
        representable = element_type.kind == "f" or info.min <= value <= info.max
        if representable and not any(_same(value, v) for v in chosen.values()):
            chosen[label] = value
    return list(chosen.items())


def _same(a, b):
    return bool(a == b) or (_is_nan(a) and _is_nan(b))


def _is_nan(value):
    return isinstance(value, (float, np.floating)) and np.isnan(value)


# ---- one case ---------------------------------------------------------------------------


class CaseRunner:
    """One game's base record, env and VectorGame, and the cases over them (in the worker process)."""

    def __init__(self, env_id, num_players=None, seed=0):
        import envs
        from envs.core.vector import VectorGame

        self.game = envs.game_of(env_id)
        self.num_players = num_players or self.game.default_players
        make = envs.make_parallel if self.game.simultaneous else envs.make
        self.env = make(env_id, num_players=self.num_players)
        self.vector = VectorGame(self.game, 2, seed=seed, num_players=self.num_players)
        self.vector.reset()
        self.base = self._mid_game_record(seed)
        self.cases = make_cases(self.game, self.base, self.num_players)

    def _mid_game_record(self, seed):
        """The record halfway through a random game of ``seed``."""
        length = len(self._random_game(seed, stop=None))
        records = self._random_game(seed, stop=length // 2)
        return records[-1]

    def _random_game(self, seed, stop):
        env, rng = self.env, np.random.default_rng(seed)
        env.reset(seed=seed)
        records = [env.get_state()]
        while not self._over() and (stop is None or len(records) <= stop):
            env.step(self._random_actions(rng))
            records.append(env.get_state())
        return records

    def _over(self):
        env = self.env
        if self.game.simultaneous:
            return not env.agents
        return any(env.terminations.values()) or any(env.truncations.values())

    def _random_actions(self, rng):
        """Random legal actions for the env's seat(s) to act (a dict for a simultaneous game)."""
        env = self.env

        def pick(agent):
            legal = np.flatnonzero(env.observe(agent)["action_mask"])
            if legal.size == 0:
                raise AssertionError(f"{agent} is to act but has no legal action")
            return int(legal[rng.integers(legal.size)])

        if self.game.simultaneous:
            return {agent: pick(agent) for agent in env.agents}
        return pick(env.agent_selection)

    def warm_up(self):
        """Play the base record to the end through both APIs: every kernel a case needs is loaded."""
        outcome, detail = self._run(None, np.random.default_rng(0))
        if outcome != "played":
            raise RuntimeError(f"{self.game.env_id}: the uncorrupted record was {outcome}: {detail}")

    def run(self, number):
        """Outcome of case ``number``: a dict with the case, ``outcome`` and ``detail``."""
        case = self.cases[number]
        result = {"case": number, "what": case.describe()}
        try:
            outcome, detail = self._run(case, np.random.default_rng(number))
        except Exception as error:  # a failure of the fuzz harness itself is a failed case too
            outcome, detail = "failed", f"{type(error).__name__}: {error}"
        return {**result, "outcome": outcome, "detail": detail}

    def _run(self, case, rng):
        from envs.core import check_records

        self.env.set_state(self.base)
        self.vector.set_state(np.repeat(self.base, 2))
        record = self.base.copy()
        if case is not None and case.index:
            record[case.field][0][case.index] = case.value
        elif case is not None:
            record[case.field][0] = case.value
        env_verdict = _try_set_state(self.env.set_state, record, lambda: self._env_view())
        vector_verdict = _try_set_state(self.vector.set_state, np.repeat(record, 2), lambda: self._vector_view())
        if env_verdict[0] == "failed" or vector_verdict[0] == "failed":
            return "failed", env_verdict[1] if env_verdict[0] == "failed" else "VectorGame: " + vector_verdict[1]
        if env_verdict[0] != vector_verdict[0]:
            return "failed", (f"the env {env_verdict[0]} it ({env_verdict[1]}), the VectorGame {vector_verdict[0]} "
                              f"it ({vector_verdict[1]})")
        if env_verdict[0] == "rejected":
            return "rejected", env_verdict[1]
        return self._play(rng, check_records)

    def _env_view(self):
        env = self.env
        view = [env.get_state().tobytes(), list(env.agents)]
        if not self.game.simultaneous:
            view += [env.agent_selection, dict(env.rewards), dict(env.terminations), dict(env.truncations),
                     dict(env._cumulative_rewards)]
        return view

    def _vector_view(self):
        vg = self.vector
        return [vg.get_state().tobytes(), vg.obs.tobytes(), vg.action_mask.tobytes(), vg.current_player.tobytes()]

    def _play(self, rng, check_records):
        """Random legal play to the end; the VectorGame must follow the env record for record."""
        env, vg = self.env, self.vector
        decisions = 0
        while not self._over():
            if decisions == MAX_DECISIONS:
                return "played", f"stopped after {MAX_DECISIONS} decisions (the game had not ended)"
            actions = self._random_actions(rng)
            env.step(actions)
            decisions += 1
            record = env.get_state()
            check_records(self.game, record)
            joint = [actions[a] for a in env.possible_agents] if self.game.simultaneous else actions
            vg.step(np.array([joint, joint], np.int64))
            if vg.terminated[0] or vg.truncated[0]:
                continue  # the VectorGame has started its next episode
            if vg.get_state().tobytes() != np.repeat(record, 2).tobytes():
                return "failed", f"the VectorGame's record differs from the env's after {decisions} decisions"
        return "played", f"{decisions} decisions"


def _try_set_state(set_state, record, view):
    """("rejected", message) | ("accepted", "") | ("failed", what went wrong)."""
    before = view()
    try:
        set_state(record)
    except ValueError as error:
        if view() != before:
            return "failed", f"rejected ({error}) but changed the state"
        return "rejected", str(error)
    except Exception as error:
        return "failed", f"set_state raised {type(error).__name__}: {error}"
    return "accepted", ""


# ---- the worker: cases in forked children -------------------------------------------------


def serve(env_id, num_players=None, batch=200, emit=None):
    """Run every case of ``env_id``, ``batch`` per forked child; ``emit(dict)`` each result."""
    emit = emit or _print_json
    runner = CaseRunner(env_id, num_players)
    runner.warm_up()  # loads every kernel here, so the children need not
    emit({"env_id": env_id, "num_players": runner.num_players, "cases": len(runner.cases),
          "tables": has_tables(runner.game)})
    start = 0
    while start < len(runner.cases):
        numbers = list(range(start, min(start + batch, len(runner.cases))))
        results, death = _run_in_child(runner, numbers)
        for result in results:
            emit(result)
        if death is None:
            start = numbers[-1] + 1
            continue
        number = numbers[len(results)]
        alone, alone_death = _run_in_child(runner, [number])
        how = alone_death or death
        note = "" if alone_death else (f" (only after cases {numbers[0]}..{number - 1} ran in the same process: "
                                       f"one of them corrupted memory; alone it was {alone[0]['outcome']})")
        emit({"case": number, "what": runner.cases[number].describe(), "outcome": "crashed", "detail": how + note})
        start = number + 1


def has_tables(game):
    """Whether ``game``'s engine has its own record checks (STATE_BOUNDS and check_state)."""
    from envs.core.game import engine_function

    return engine_function(game.engine.STATE, "check_state") is not None and hasattr(game.engine, "STATE_BOUNDS")


def _print_json(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def _run_in_child(runner, numbers):
    """Run cases ``numbers`` in one forked child; (results of the cases it finished, None or how it died)."""
    sys.stdout.flush()
    sys.stderr.flush()
    read_end, write_end = os.pipe()
    with tempfile.TemporaryFile() as errors:
        pid = os.fork()
        if pid == 0:  # the child: results down the pipe, its stderr kept for the crash report
            os.close(read_end)
            os.dup2(errors.fileno(), 2)
            try:
                for number in numbers:
                    os.write(write_end, (json.dumps(runner.run(number)) + "\n").encode())
            finally:
                os._exit(0)
        os.close(write_end)
        results, death = _collect(pid, read_end, len(numbers))
        if death is not None:
            errors.seek(0)
            tail = errors.read().decode(errors="replace").strip().splitlines()[-3:]
            death += (": " + " | ".join(tail)) if tail else ""
        return results, death


def _collect(pid, read_end, expected):
    results, pending = [], b""
    with os.fdopen(read_end, "rb") as pipe:
        while len(results) < expected:
            ready, _, _ = select.select([pipe], [], [], CASE_TIMEOUT)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                return results, f"hung: no case finished within {CASE_TIMEOUT:.0f} s (killed)"
            chunk = os.read(pipe.fileno(), 1 << 16)
            if not chunk:
                break
            pending += chunk
            *lines, pending = pending.split(b"\n")
            results += [json.loads(line) for line in lines]
    _, status = os.waitpid(pid, 0)
    if len(results) == expected and status == 0:
        return results, None
    if os.WIFSIGNALED(status):
        return results, f"killed by {signal.Signals(os.WTERMSIG(status)).name}"
    return results, f"exited with status {os.WEXITSTATUS(status)}"


# ---- the caller's side ------------------------------------------------------------------


@dataclass
class Report:
    env_id: str
    num_players: int
    has_tables: bool
    results: list

    def count(self, outcome):
        return sum(r["outcome"] == outcome for r in self.results)

    def problems(self):
        return [r for r in self.results if r["outcome"] in ("failed", "crashed")]


def fuzz_game(env_id, num_players=None, batch=200, timeout=3600):
    """Fuzz ``env_id`` in a worker process; the :class:`Report` of every case."""
    command = [sys.executable, "-m", "tests.fuzz.runner", env_id, "--batch", str(batch)]
    if num_players is not None:
        command += ["--players", str(num_players)]
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    environment = {**os.environ, "NUMBA_THREADING_LAYER": "workqueue", "NUMBA_NUM_THREADS": "1",
                   "PYTHONPATH": os.pathsep.join(filter(None, [root, os.environ.get("PYTHONPATH")]))}
    done = subprocess.run(command, capture_output=True, text=True, env=environment, timeout=timeout, cwd=root)
    lines = [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        raise RuntimeError(f"the fuzz worker for {env_id} failed (status {done.returncode}): {done.stderr[-3000:]}")
    header, results = lines[0], lines[1:]
    if len(results) != header["cases"]:
        raise RuntimeError(f"the fuzz worker for {env_id} reported {len(results)} of {header['cases']} cases")
    return Report(env_id, header["num_players"], header["tables"], results)


def main(argv=None):
    parser = argparse.ArgumentParser(description="Fuzz one game's records (the worker of tests.fuzz.runner).")
    parser.add_argument("env_id")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--batch", type=int, default=200, help="cases per forked child")
    args = parser.parse_args(argv)
    from envs.testing.toy_games import register_toys

    register_toys()
    serve(args.env_id, args.players, args.batch)


if __name__ == "__main__":
    main()
