"""Atomic file writes: a temporary file in the target folder, then ``os.replace``.

An interrupted write (an exception, Ctrl-C) removes the temporary file and
leaves any previous version of the target untouched.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path

__all__ = ["atomic_path", "atomic_write"]


@contextlib.contextmanager
def atomic_path(path, *, suffix=None):
    """Yield a temporary path next to ``path``; rename it to ``path`` on success.

    Use it with writers that want a file name (``np.savez``, ``fig.savefig``).
    The temporary name is hidden (leading dot), contains ``.tmp`` and ends with
    ``suffix`` — by default the target's own suffix, so that writers that pick
    a format from the extension (or append one, like ``np.savez``) still do.
    """
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f".{path.name}.",
        suffix=".tmp" + (path.suffix if suffix is None else suffix),
        dir=path.parent,
    )
    os.close(fd)
    tmp = Path(tmp)
    umask = os.umask(0)
    os.umask(umask)
    os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a finished file gets the usual mode
    try:
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def atomic_write(path, mode="w", **open_kwargs):
    """Open a temporary file for writing; it replaces ``path`` only if the block succeeds."""
    if not any(c in mode for c in "wx"):
        raise ValueError(f"atomic_write needs a write mode, got {mode!r}")
    with atomic_path(path, suffix="") as tmp:
        with open(tmp, mode.replace("x", "w"), **open_kwargs) as fh:
            yield fh
