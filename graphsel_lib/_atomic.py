"""Atomic file writes: a temporary file in the target folder, then ``os.replace``.

An interrupted write (an exception, Ctrl-C) removes the temporary file and
leaves any previous version of the target untouched.
"""

from __future__ import annotations

import contextlib
import os
import secrets
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
    end = ".tmp" + (path.suffix if suffix is None else suffix)
    tmp = None
    try:
        while True:
            # The name is bound before the file exists, so an interrupt at any point (even between creating the
            # file and the next line) finds it for the cleanup below; O_EXCL never reuses another writer's file.
            tmp = path.parent / f".{path.name}.{secrets.token_hex(8)}{end}"
            try:
                os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))  # the usual mode (umask)
                break
            except FileExistsError:
                tmp = None
        yield tmp
        with open(tmp, "rb+") as fh:
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        if tmp is not None:
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
