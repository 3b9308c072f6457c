"""Where numba keeps compiled engines: a folder per version of the package's source.

numba's own cache checks only the timestamp of the file a function is defined in, not of the
files it calls into: an engine recompiled against a changed ``envs/core/rng.py`` (or a generic
kernel against a changed engine) would silently load stale machine code. We key the whole cache
on a hash of every source file under ``envs/``, so any change starts a fresh cache and an
unchanged tree loads instantly. Folders unused for a week are pruned.
"""

import hashlib
import os
import pathlib
import shutil
import time

import numba

PACKAGE_DIR = pathlib.Path(__file__).resolve().parents[1]
STALE_AFTER_SECONDS = 7 * 24 * 3600


def source_hash():
    digest = hashlib.sha1()
    for path in sorted(PACKAGE_DIR.rglob("*.py")):
        digest.update(str(path.relative_to(PACKAGE_DIR)).encode())
        digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()[:16]


def configure_numba_cache():
    """Point numba's cache at ``<root>/<source hash>``; call before any engine is imported.

    The root is ``$NUMBA_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/tabletop-marl/numba``
    (``~/.cache/...``).
    """
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if user_dir:
        root = pathlib.Path(user_dir) / "tabletop-marl"
    else:
        cache_home = os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache"
        root = pathlib.Path(cache_home) / "tabletop-marl" / "numba"
    folder = root / source_hash()
    if not folder.exists():
        root.mkdir(parents=True, exist_ok=True)
        for old in root.iterdir():
            try:
                if time.time() - old.stat().st_mtime > STALE_AFTER_SECONDS:
                    shutil.rmtree(old, ignore_errors=True)
            except FileNotFoundError:  # another process pruned it first
                pass
        folder.mkdir(parents=True, exist_ok=True)
    else:
        folder.touch()
    numba.config.CACHE_DIR = str(folder)
    return folder
