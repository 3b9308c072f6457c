"""`make bench`: every benchmark script, then the README's benchmark table from their results.

    python -m benchmarks.run_all [--quick]
"""

import argparse
import json
import pathlib

from . import hotpaths, profile, startup, throughput
from .common import RESULTS, fmt_rate

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"
START, END = "<!-- benchmark table: start -->", "<!-- benchmark table: end -->"


def readme_table():
    rows = json.loads((RESULTS / "throughput.json").read_text())
    rate = {(env, path): r for env, path, r in rows if r is not None}
    games = sorted({env for env, _, _ in rows if "(" in env})
    lines = ["| env | AEC loop | engine alone (numba) | best VectorGame |", "|---|---:|---:|---:|"]
    for env in games:
        best = max([r for (e, p), r in rate.items() if e == env and p.startswith("vec-nb")], default=None)
        lines.append(f"| {env} | {fmt_rate(rate.get((env, 'aec')))} | {fmt_rate(rate.get((env, 'engine')))} "
                     f"| {fmt_rate(best)} |")
    peers = [(env, path, r) for env, path, r in rows if "(" not in env and r is not None]
    lines += ["", "| peer, same run | path | decisions/s |", "|---|---|---:|"]
    lines += [f"| {env} | {path} | {fmt_rate(r)} |" for env, path, r in peers]
    return "\n".join(lines)


def update_readme():
    text = README.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"README.md lacks the markers {START} ... {END}")
    head, rest = text.split(START, 1)
    _, tail = rest.split(END, 1)
    README.write_text(f"{head}{START}\n{readme_table()}\n{END}{tail}")


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    flag = ["--quick"] if args.quick else []
    throughput.main(flag)
    hotpaths.main(flag)
    profile.main([])
    startup.main(flag)
    update_readme()
    print(f"updated the benchmark table in {README}")


if __name__ == "__main__":
    main()
