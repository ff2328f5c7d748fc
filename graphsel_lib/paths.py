"""Where things live: project root, figures, data and caches.

Every location can be overridden by an environment variable so that a user,
the test-suite and the pipeline runner can redirect output without touching
code:

``GRAPHSEL_FIGURES``
    folder for figures and tables (the runner points the smoke profile at a
    build folder so that it can never overwrite the committed ``figures/``).
``GRAPHSEL_FIGURES_TARGET``
    set by the runner while a notebook's output is staged: the real figures
    folder, where a summary notebook reads the tables earlier notebooks wrote.
``GRAPHSEL_DATA``
    a local folder holding the raw dataset files (checked before anything else).
``GRAPHSEL_CACHE``
    user cache for downloaded raw files and spectral embeddings
    (default ``$XDG_CACHE_HOME/graphsel`` or ``~/.cache/graphsel``).
"""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["project_root", "figures_dir", "cache_dir", "local_data_dirs", "build_dir"]


def project_root() -> Path:
    """The checkout that holds ``pyproject.toml`` (editable install), else the cwd."""
    here = Path(__file__).resolve().parent.parent
    if (here / "pyproject.toml").is_file() and (here / "graphsel_lib").is_dir():
        return here
    return Path.cwd()


def figures_dir() -> Path:
    """Folder that figures and tables are written to (``$GRAPHSEL_FIGURES`` or ``figures/``)."""
    env = os.environ.get("GRAPHSEL_FIGURES")
    return Path(env) if env else project_root() / "figures"


def build_dir() -> Path:
    """Ignored folder for executed notebooks and smoke-profile output."""
    return project_root() / "build"


def cache_dir() -> Path:
    """User cache for downloads and spectral embeddings (``$GRAPHSEL_CACHE``)."""
    env = os.environ.get("GRAPHSEL_CACHE")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "graphsel"


def local_data_dirs() -> list[Path]:
    """Local raw-data folders in lookup order: ``$GRAPHSEL_DATA``, then ``../shared/data``."""
    dirs = []
    env = os.environ.get("GRAPHSEL_DATA")
    if env:
        dirs.append(Path(env))
    shared = project_root().parent / "shared" / "data"
    if shared.is_dir():
        dirs.append(shared)
    return dirs
