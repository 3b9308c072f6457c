"""RLlib env-step throughput with 1 and 2 env runners on this machine.

    python -m benchmarks.rllib_scaling [--env teufel_teufel_v0] [--iterations 3]

For each runner count: a local Ray instance, PPO as training.rllib_train builds it, a warm-up
iteration, then the env steps sampled per second of wall time over the timed iterations
(sampling and learning both count: that is what a run gets). Writes
benchmarks/results/rllib_scaling.md.
"""

import argparse
import time

from .common import machine_line, write_result


def measure(env_id, runners, iterations, batch_size):
    import ray

    from training import rllib_train

    args = rllib_train.parse_args([env_id, "--num-env-runners", str(runners), "--batch-size", str(batch_size),
                                   "--hidden", "64"])
    ray.init(num_cpus=runners + 2, include_dashboard=False, log_to_driver=False)
    try:
        algo = rllib_train.build_config(args).build_algo()
        algo.train()  # warm-up: compilation, actor start-up
        before = algo.train()["num_env_steps_sampled_lifetime"]
        start = time.perf_counter()
        for _ in range(iterations):
            after = algo.train()["num_env_steps_sampled_lifetime"]
        rate = (after - before) / (time.perf_counter() - start)
        algo.stop()
    finally:
        ray.shutdown()
    return rate


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--env", default="teufel_teufel_v0")
    parser.add_argument("--iterations", type=int, default=3)
    parser.add_argument("--batch-size", type=int, default=4000)
    args = parser.parse_args(argv)
    rates = {n: measure(args.env, n, args.iterations, args.batch_size) for n in (1, 2)}
    lines = ["# RLlib: env steps per second by env runners", "",
             f"Machine: {machine_line()}. Command: `python -m benchmarks.rllib_scaling --env {args.env}`.", "",
             "| env runners | env steps/s (sampling + learning) | vs 1 runner |", "|---:|---:|---:|"]
    for n, rate in rates.items():
        lines.append(f"| {n} | {rate:,.0f} | {rate / rates[1]:.2f}x |")
    gain = rates[2] / rates[1]
    lines += ["", f"A second runner gives {gain:.2f}x here. The learner and every runner share this machine's "
              f"cores, so runners beyond the core count cannot add throughput; on a cluster each runner brings "
              f"its own cores."]
    path = write_result("rllib_scaling", "\n".join(lines) + "\n")
    print(path.read_text())


if __name__ == "__main__":
    main()
