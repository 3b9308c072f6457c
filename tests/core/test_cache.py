"""The numba cache: ours keyed on our sources, everyone else's left where numba puts it, and a
notice before any compile at run time."""

import os
import pathlib
import re
import subprocess
import sys
import textwrap

import numba
import pytest

import envs
from envs.core import cache, kernels
from envs.warmup import main as warmup_main

PROJECT = pathlib.Path(envs.__file__).resolve().parents[1]

FOREIGN_MODULE = """
from numba import njit

@njit(cache=True)
def plus_one(x):
    return x + 1
"""


def _run(code, tmp_path, **environment):
    """Run ``code`` in a fresh interpreter from the project root; returns (stdout, stderr)."""
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{PROJECT}", **environment}
    result = subprocess.run([sys.executable, "-c", textwrap.dedent(code)], cwd=PROJECT, env=env,
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return result.stdout, result.stderr


def test_importing_envs_leaves_numbas_cache_dir_alone(tmp_path):
    code = """
        import numba
        before = numba.config.CACHE_DIR
        import envs
        print(repr(before), repr(numba.config.CACHE_DIR))
    """
    out, _ = _run(code, tmp_path)
    assert out.split() == ["''", "''"]
    out, _ = _run(code, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "theirs"))
    assert out.split() == [repr(str(tmp_path / "theirs"))] * 2


@pytest.mark.parametrize("user_cache_dir", [False, True])
def test_a_function_outside_the_project_caches_where_numba_would_put_it(tmp_path, user_cache_dir):
    (tmp_path / "foreign.py").write_text(FOREIGN_MODULE)
    environment = {"NUMBA_CACHE_DIR": str(tmp_path / "theirs")} if user_cache_dir else {}
    code = """
        {imports}
        import foreign
        assert foreign.plus_one(1) == 2
        print(foreign.plus_one._cache.cache_path)
    """
    alone, _ = _run(code.format(imports=""), tmp_path, **environment)
    with_envs, _ = _run(code.format(imports="import envs"), tmp_path, **environment)
    assert with_envs == alone
    where = pathlib.Path(alone.strip())
    assert where.is_relative_to(tmp_path / "theirs" if user_cache_dir else tmp_path / "__pycache__")
    assert list(where.glob("foreign.plus_one-*.nbi"))  # it was cached there


def test_our_functions_cache_in_the_folder_of_our_source_hash():
    envs_folder = cache.cache_folder()
    assert envs_folder.name == cache.source_hash()
    assert pathlib.Path(kernels.step_one._cache.cache_path).parent == envs_folder
    from tests.core import test_rng  # a jitted function of the tests, which call into envs/

    jitted = next(value for value in vars(test_rng).values()
                  if isinstance(value, numba.core.dispatcher.Dispatcher) and value.__module__ == test_rng.__name__)
    assert pathlib.Path(jitted._cache.cache_path).parent.name == f"tests-{cache.source_hash('tests')}"


def test_who_owns_a_source_file():
    assert cache.owner_of(kernels.__file__) == "envs"
    assert cache.owner_of(PROJECT / "agents" / "ismcts.py") == "agents"
    assert cache.owner_of(PROJECT / "tests" / "core" / "test_rng.py") == "tests"
    assert cache.owner_of(numba.__file__) is None
    assert cache.owner_of("<ipython-input-1>") is None


def test_a_compile_at_run_time_says_so_once_per_engine(tmp_path):
    (tmp_path / "foreign.py").write_text(FOREIGN_MODULE)
    code = """
        import numpy as np
        import envs, foreign
        from envs.core import kernels
        from envs.testing.toy_games import RACE_STATE, register_toys
        register_toys()
        records = np.zeros(2, RACE_STATE)
        codes = np.zeros(2, np.int64)
        kernels.check_batch(records, codes)
        kernels.check_batch(records, codes)
        foreign.plus_one(1)
    """
    cold = _run(code, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "cold"))[1]
    notices = [line for line in cold.splitlines() if "compiling" in line]
    assert notices == ["tabletop-marl: compiling the envs.testing.toy_games engine, once (cached for later "
                       "runs), up to a minute [python -m envs.warmup compiles everything ahead]"]
    warm = _run(code, tmp_path, NUMBA_CACHE_DIR=str(tmp_path / "cold"))[1]
    assert "compiling" not in warm


@pytest.mark.parametrize("argv, error", [(["no_such_game_v0"], "unknown env id"), (["--jobs", "0"], "--jobs")])
def test_warmup_refuses_bad_arguments_before_any_work(capsys, argv, error):
    with pytest.raises(SystemExit):
        warmup_main(argv)
    assert error in capsys.readouterr().err


def test_warmup_runs_every_stage_on_a_toy_game(capsys, monkeypatch):
    from envs.testing.toy_games import register_toys

    register_toys()
    recorded = {}
    monkeypatch.setattr(cache, "record_compile_seconds", recorded.__setitem__)  # keep the user's file
    warmup_main(["race_v0", "tally_v0", "--jobs", "1"])  # one process: the toys are registered in this one
    lines = capsys.readouterr().out.splitlines()
    assert "envs, vector, agents, training" in lines[0]
    assert [line.split()[0] for line in lines[1:3]] == ["race_v0", "tally_v0"]
    assert all(re.search(r"(compiled \d+ functions, +\d+\.\d s \(\d+ s CPU\)|cached, +\d+\.\d s)$", line) for line in lines[1:3])
    assert lines[-1].startswith("done in")
    assert cache.NOTICE.enabled  # back on for the rest of the process
