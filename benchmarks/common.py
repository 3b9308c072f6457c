"""Shared timing and reporting helpers for the benchmark scripts."""

import os
import pathlib
import platform
import statistics
import sys
import threading
import time

RESULTS = pathlib.Path(__file__).resolve().parent / "results"


def command_line(module, argv):
    """The command that ran ``module`` (e.g. ``"benchmarks.search"``) with ``argv`` (None: this
    process's own arguments), as a results page states it."""
    return " ".join(["python -m", module, *(argv if argv is not None else sys.argv[1:])])


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


class LoadSampler:
    """The machine's 1-minute load average, sampled every ``every`` seconds while the block runs.

    A speed or learning figure means little without the load it was measured under (the count
    includes the measuring process itself: 1.0 is one busy process, 2.0 fills this 2-core machine).
    """

    def __init__(self, every=15.0):
        self.every, self.samples = every, []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._sample, daemon=True)

    def _sample(self):
        while True:
            self.samples.append(os.getloadavg()[0])
            if self._stop.wait(self.every):
                return

    def __enter__(self):
        self._thread.start()
        return self

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()

    def summary(self):
        """``{"mean": m, "max": x}`` of the samples, rounded to 0.1."""
        return {"mean": round(statistics.fmean(self.samples), 1), "max": round(max(self.samples), 1)}


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
