"""Shared timing and reporting helpers for the benchmark scripts."""

import os
import pathlib
import platform
import statistics
import time

RESULTS = pathlib.Path(__file__).resolve().parent / "results"


def median_rate(run, repeats, warmup=1):
    """Median of ``repeats`` timed calls of ``run() -> units done`` (after ``warmup`` untimed ones)."""
    for _ in range(warmup):
        run()
    rates = []
    for _ in range(repeats):
        start = time.perf_counter()
        units = run()
        rates.append(units / (time.perf_counter() - start))
    return statistics.median(rates)


def machine_line():
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def write_result(name, text):
    RESULTS.mkdir(parents=True, exist_ok=True)
    path = RESULTS / f"{name}.md"
    path.write_text(text)
    return path


def fmt_rate(rate):
    if rate is None:
        return "n/a"
    if rate >= 1e6:
        return f"{rate / 1e6:.2f} M"
    if rate >= 1e3:
        return f"{rate / 1e3:.1f} k"
    return f"{rate:.0f}"
