"""Start-up time and memory: cold (empty numba cache) and warm import-to-first-finished-game per
env id, bytes per record, and the peak memory of a 64k-game VectorGame.

    python -m benchmarks.startup [--quick]

Each measurement runs in a fresh Python process. Cold runs point NUMBA_CACHE_DIR at an empty
folder, so every engine function and kernel the first game needs is compiled; the warm run
repeats the same process against the filled cache. Writes benchmarks/results/startup.md.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import envs

from .common import machine_line, write_result

FIRST_GAME = """
import time, json
start = time.perf_counter()
import numpy as np
import envs
from envs.testing.play import play_aec, play_parallel
imported = time.perf_counter()
env_id = {env_id!r}
game = envs.game_of(env_id)
env = envs.make_parallel(env_id) if game.simultaneous else envs.make(env_id)
env.reset(seed=0)
first_step = None
if game.simultaneous:
    obs = env.observe(env.agents[0])
    env.step({{a: int(np.flatnonzero(env.observe(a)["action_mask"])[0]) for a in env.agents}})
else:
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
first_step = time.perf_counter()
(play_parallel if game.simultaneous else play_aec)(env, 1)
finished = time.perf_counter()
from envs.core.vector import VectorGame
vg = VectorGame(env_id, 2, seed=0)
vg.reset()
vg.random_steps(10)
vector = time.perf_counter()
print(json.dumps({{"import": imported - start, "first_step": first_step - start, "first_game": finished - start,
                  "vector_ready": vector - start}}))
"""

MEMORY = """
import json, resource
import envs
from envs.core.vector import VectorGame
env_id = {env_id!r}
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
vg = VectorGame(env_id, {num_envs}, seed=0)
vg.reset()
vg.random_steps(20)
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({{"record_bytes": envs.game_of(env_id).engine.STATE.itemsize, "rss_before_mb": before / 1024,
                  "rss_after_mb": after / 1024}}))
"""


def run_script(script, cache_dir):
    environment = {**os.environ, "NUMBA_CACHE_DIR": cache_dir}
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=environment,
                            timeout=3600)
    if result.returncode != 0:
        raise RuntimeError(result.stderr[-2000:])
    return json.loads(result.stdout.strip().splitlines()[-1])


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="smaller VectorGame for the memory row (16k)")
    parser.add_argument("--env", action="append", help="only these env ids (repeatable)")
    args = parser.parse_args(argv)
    num_envs = 16384 if args.quick else 65536
    started = time.perf_counter()
    lines = ["# Start-up and memory", "", f"Machine: {machine_line()}. Command: "
             f"`python -m benchmarks.startup{' --quick' if args.quick else ''}`.", "",
             "Seconds from the start of a fresh process. Cold: empty numba cache (everything the first game "
             "needs is compiled); warm: the cache filled by the cold run.", "",
             "| env | cold: first step | cold: first game | cold: +VectorGame | warm: import | warm: first step "
             "| warm: first game | record bytes | peak RSS of " + f"{num_envs} games (MB) |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|"]
    for env_id in args.env or envs.ENV_IDS:
        print(f"measuring {env_id}", flush=True)
        with tempfile.TemporaryDirectory() as cache:
            script = FIRST_GAME.format(env_id=env_id)
            cold = run_script(script, cache)
            warm = run_script(script, cache)
            memory = run_script(MEMORY.format(env_id=env_id, num_envs=num_envs), cache)
        lines.append(f"| {env_id} | {cold['first_step']:.1f} | {cold['first_game']:.1f} | {cold['vector_ready']:.1f} "
                     f"| {warm['import']:.2f} | {warm['first_step']:.2f} | {warm['first_game']:.2f} "
                     f"| {memory['record_bytes']} | {memory['rss_after_mb']:.0f} |")
    lines += ["", f"Run took {time.perf_counter() - started:.0f} s."]
    path = write_result("startup", "\n".join(lines) + "\n")
    print(path.read_text())


if __name__ == "__main__":
    main()
