"""Where numba keeps this project's compiled code, and a notice whenever it has to compile.

**Keyed on our sources.** numba's cache checks only the source of the file a function is defined
in, not the files it calls into: an engine recompiled against a changed ``envs/core/rng.py`` (or
a generic kernel against a changed engine) would silently load stale machine code. We key the
cache of our own functions on a hash of every source file under ``envs/`` (plus, for a function
defined in ``agents/``, ``training/``, ``benchmarks/`` or ``tests/``, that folder's sources), so
any change starts a fresh cache and an unchanged tree loads instantly. Folders unused for a week
are pruned.

**Only ours.** The place is chosen by a cache locator, numba's extension point for exactly this
(``numba.core.caching``: each ``@njit(cache=True)`` function, when it is defined, takes the first
locator class whose ``from_function`` accepts its file). Ours accepts only files of this project
and is tried before numba's own; every other package's functions keep numba's default place, and
``numba.config.CACHE_DIR`` is never changed. (If ``NUMBA_CACHE_LOCATOR_CLASSES`` is set, numba
uses that list instead and ours is not consulted.)

**Never silent.** ``python -m envs.warmup`` (run by ``make install``) compiles everything ahead of
time. A compile that still happens at run time (a cache miss: numba's ``numba:compile`` event
fires only after the cache had no entry) says so on stderr first, once per engine and process:
``compiling the teufel_teufel engine, once (cached for later runs), ~20 s``.

The cache root is ``$NUMBA_CACHE_DIR/tabletop-marl`` if that is set, else
``$XDG_CACHE_HOME/tabletop-marl/numba`` (``~/.cache/...``).
"""

import functools
import hashlib
import json
import os
import pathlib
import shutil
import sys
import time

import numba
from numba.core import caching, event

PACKAGE_DIR = pathlib.Path(__file__).resolve().parents[1]  # envs/
PROJECT_DIR = PACKAGE_DIR.parent
STALE_AFTER_SECONDS = 7 * 24 * 3600
# Folders whose jitted functions call into envs/: the installed packages always; the benchmarks
# and tests only in a source checkout (in site-packages a folder of that name is someone else's).
INSTALLED_PACKAGES = ("agents", "training")
CHECKOUT_FOLDERS = ("benchmarks", "tests")
COMPILE_TIMES_FILE = "compile_seconds.json"  # in the root: seconds per engine, measured by envs.warmup
#: Files under envs/ whose kernels call code that another folder registers at run time (the search's
#: playout strategies come from agents/heuristic): cached with that folder's functions, so that a
#: change there recompiles them.
CACHED_WITH = {"core/search.py": "agents"}

def cache_root():
    """Where our cache folders live (see the module docstring)."""
    user_dir = os.environ.get("NUMBA_CACHE_DIR")
    if user_dir:
        return pathlib.Path(user_dir) / "tabletop-marl"
    cache_home = os.environ.get("XDG_CACHE_HOME") or pathlib.Path.home() / ".cache"
    return pathlib.Path(cache_home) / "tabletop-marl" / "numba"


@functools.lru_cache(maxsize=None)
def _own_folders():
    names = INSTALLED_PACKAGES + (CHECKOUT_FOLDERS if (PROJECT_DIR / "pyproject.toml").is_file() else ())
    return {"envs": PACKAGE_DIR, **{name: PROJECT_DIR / name for name in names}}


def owner_of(py_file):
    """The project folder (``envs``, ``agents``, ...) a source file belongs to, or None if not ours."""
    try:
        path = pathlib.Path(py_file).resolve()
    except (OSError, ValueError):
        return None
    for name, folder in _own_folders().items():
        if path.is_relative_to(folder):
            return name
    return None


def cache_owner(py_file):
    """The project folder whose cache holds a source file's compiled functions: its own, or the one
    :data:`CACHED_WITH` names (None if the file is not ours)."""
    owner = owner_of(py_file)
    if owner == "envs":
        relative = pathlib.Path(py_file).resolve().relative_to(PACKAGE_DIR).as_posix()
        return CACHED_WITH.get(relative, owner)
    return owner


@functools.lru_cache(maxsize=None)
def source_hash(*folders):
    """A hash of every ``.py`` file under ``envs/`` and the given project folders, and numba's version."""
    digest = hashlib.sha1()
    for name in ("envs", *folders):
        folder = _own_folders()[name]
        for path in sorted(folder.rglob("*.py")):
            digest.update(str(path.relative_to(PROJECT_DIR)).encode())
            digest.update(path.read_bytes())
    digest.update(numba.__version__.encode())
    return digest.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def cache_folder(owner="envs"):
    """The folder holding the compiled functions of project folder ``owner`` for the current sources."""
    root = cache_root()
    if owner == "envs":
        folder = root / source_hash()
    else:
        folder = root / f"{owner}-{source_hash(owner)}"
    if folder.exists():
        folder.touch()  # in use: not stale
        return folder
    root.mkdir(parents=True, exist_ok=True)
    for old in root.iterdir():
        try:
            if old.is_dir() and time.time() - old.stat().st_mtime > STALE_AFTER_SECONDS:
                shutil.rmtree(old, ignore_errors=True)
        except FileNotFoundError:  # another process pruned it first
            pass
    folder.mkdir(parents=True, exist_ok=True)
    return folder


class ProjectCacheLocator(caching._SourceFileBackedLocatorMixin, caching._CacheLocator):
    """Caches a function of this project in :func:`cache_folder` of its folder; declines all others."""

    def __init__(self, py_func, py_file):
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        folder = cache_folder(cache_owner(py_file))
        self._cache_path = str(folder / self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self):
        return self._cache_path

    @classmethod
    def from_function(cls, py_func, py_file):
        if owner_of(py_file) is None:
            return None
        return super().from_function(py_func, py_file)


def _locator_classes():
    """numba's list of locator classes (the class was renamed ``CacheImpl`` in numba 0.61)."""
    impl = getattr(caching, "CacheImpl", None) or caching._CacheImpl
    return impl._locator_classes


# ---- saying so when a compile happens at run time ---------------------------------------------


def engine_of(dispatcher, args):
    """What a compile of ``dispatcher`` for ``args`` builds, for people: "the <game> engine" or
    "<module> kernels" (None if the function is not ours)."""
    py_func = getattr(dispatcher, "py_func", None)
    if py_func is None or owner_of(py_func.__code__.co_filename) is None:
        return None
    from .game import engine_function  # game imports numba extensions: only when needed

    for arg in args:
        record = arg if isinstance(arg, numba.types.Record) else getattr(arg, "dtype", None)  # or an array of them
        if isinstance(record, numba.types.Record):
            step = engine_function(record.dtype, "step")
            if step is not None:
                return engine_label(step.py_func.__module__)
    return f"{py_func.__module__} kernels"


def engine_label(module):
    """"the <game> engine" for ``envs.<game>.engine``, "the <module> engine" for any other module."""
    parts = module.split(".")
    if len(parts) == 3 and parts[0] == "envs" and parts[2] == "engine":
        return f"the {parts[1]} engine"
    return f"the {module} engine"


class CompileNotice(event.Listener):
    """Writes one line to stderr before the first run-time compile of each engine in a process."""

    def __init__(self, stream=None):
        self.stream = stream
        self.announced = set()
        self.enabled = True

    def on_start(self, event):
        if not self.enabled:
            return
        data = event.data
        what = engine_of(data["dispatcher"], data["args"])
        if what is None or what in self.announced:
            return
        self.announced.add(what)
        seconds = recorded_compile_seconds().get(what)
        estimate = f"~{seconds:.0f} s" if seconds else "up to a minute"
        stream = self.stream or sys.stderr
        print(f"tabletop-marl: compiling {what}, once (cached for later runs), {estimate} "
              f"[python -m envs.warmup compiles everything ahead]", file=stream, flush=True)

    def on_end(self, event):
        pass


def recorded_compile_seconds():
    """Seconds each engine took to compile at the last ``envs.warmup`` (empty if never measured)."""
    try:
        return json.loads((cache_root() / COMPILE_TIMES_FILE).read_text())
    except (OSError, ValueError):
        return {}


def record_compile_seconds(what, seconds):
    path = cache_root() / COMPILE_TIMES_FILE
    times = recorded_compile_seconds()
    times[what] = round(seconds, 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(times, indent=1, sort_keys=True))


NOTICE = CompileNotice()


def configure_numba_cache():
    """Install our cache locator and the compile notice; call before any of our functions is defined
    (``import envs`` does). Idempotent. Returns the cache folder of ``envs/``."""
    locators = _locator_classes()
    if ProjectCacheLocator not in locators:
        locators.insert(0, ProjectCacheLocator)
        event.register("numba:compile", NOTICE)
    return cache_folder()
