"""Running a script both as plain Python (NUMBA_DISABLE_JIT=1) and compiled, in fresh processes:
numba reads the variable once, at import."""

import json
import os
import subprocess
import sys


def plain_and_compiled(script, timeout=600):
    """The JSON that ``script`` prints last, run with NUMBA_DISABLE_JIT=1 and then compiled:
    ``(plain, compiled)``."""
    results = []
    for disable in ("1", "0"):
        result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=timeout,
                                env={**os.environ, "NUMBA_DISABLE_JIT": disable})
        assert result.returncode == 0, result.stderr[-3000:]
        results.append(json.loads(result.stdout.strip().splitlines()[-1]))
    return tuple(results)
