"""Checksummed raw data files: local lookup, verified download, in-process memo.

A raw file ``<subdir>/<filename>`` is looked up, in this order, in

1. ``$GRAPHSEL_DATA/<subdir>/<filename>``,
2. ``../shared/data/<subdir>/<filename>`` beside the project root
   (both from :func:`graphsel_lib.paths.local_data_dirs`),
3. the download cache ``<cache>/<subdir>/<filename>`` with
   ``<cache> = data_home`` if given, else ``paths.cache_dir() / "raw"``.

The first file found must match its SHA-256 (a mismatch raises ``ValueError``;
a later location never silently replaces a bad earlier one). A file found
nowhere is downloaded with :mod:`urllib`, verified while it streams, and only
then renamed into the cache (an interrupted or corrupted download leaves
nothing behind).
"""

from __future__ import annotations

import hashlib
import http.client
import logging
import os
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from .. import paths
from .._atomic import atomic_path

__all__ = ["DownloadError", "RawFile", "get_raw_file", "sha256_file"]

log = logging.getLogger(__name__)

DOWNLOAD_TIMEOUT = 60.0  # seconds, per network operation (connect, each read)
_CHUNK = 1 << 20


class DownloadError(OSError):
    """A raw file could not be downloaded (offline, HTTP error, timeout)."""


@dataclass(frozen=True)
class RawFile:
    """One raw data file: where it comes from and what its bytes must hash to.

    Attributes
    ----------
    subdir, filename : str
        Local layout ``<subdir>/<filename>`` (as in ``../shared/data``).
    sha256 : str
        Hex SHA-256 of the exact bytes (from ``MANIFEST.md``).
    size : int
        Size in bytes.
    url : str
        Download URL (raw GitHub file at ``commit``).
    repo, commit, repo_path : str
        Source repository, commit (40 hex digits where known, else the
        abbreviated commit recorded in the manifest) and path inside it.
    """

    subdir: str
    filename: str
    sha256: str
    size: int
    url: str
    repo: str = ""
    commit: str = ""
    repo_path: str = ""

    @property
    def relpath(self) -> str:
        """``"<subdir>/<filename>"``, the file's key in :data:`~graphsel_lib.datasets.RAW_FILES`."""
        return f"{self.subdir}/{self.filename}"


_VERIFIED: dict[tuple, str] = {}  # (resolved path, size, mtime_ns) -> sha256 hex


def sha256_file(path: str | os.PathLike[str]) -> str:
    """Hex SHA-256 of a file, read in 1 MiB chunks.

    Parameters
    ----------
    path : str or path

    Returns
    -------
    str
        64 hexadecimal digits.

    Raises
    ------
    OSError
        The file cannot be read (``FileNotFoundError`` if it does not exist).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> f = pathlib.Path(tempfile.mkdtemp()) / "empty"
    >>> _ = f.write_bytes(b"")
    >>> sha256_file(f)[:16]
    'e3b0c44298fc1c14'
    """
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        while chunk := fh.read(_CHUNK):
            h.update(chunk)
    return h.hexdigest()


def stat_key(path: Path):
    st = path.stat()
    return (str(path.resolve()), st.st_size, st.st_mtime_ns)


def _verify(path: Path, rf: RawFile):
    """Raise ``ValueError`` unless ``path`` hashes to ``rf.sha256`` (memoised)."""
    key = stat_key(path)
    digest = _VERIFIED.get(key)
    if digest is None:
        digest = sha256_file(path)
    if digest != rf.sha256:
        _VERIFIED.pop(key, None)
        raise ValueError(
            f"checksum mismatch for data file {rf.relpath!r} at {path}: "
            f"expected sha256 {rf.sha256} ({rf.size} bytes), got {digest} ({key[1]} bytes). "
            "The file is corrupted or a different version: delete or replace it "
            f"(the original is at {rf.url})."
        )
    _VERIFIED[key] = digest


def _cache_root(data_home=None) -> Path:
    return Path(data_home) if data_home is not None else paths.cache_dir() / "raw"


def _search_paths(rf: RawFile, data_home=None) -> list[Path]:
    dirs = [Path(d) for d in paths.local_data_dirs()]
    dirs.append(_cache_root(data_home))
    return [d / rf.subdir / rf.filename for d in dirs]


def get_raw_file(
    rf: RawFile, *, data_home: str | os.PathLike[str] | None = None, download: bool = True
) -> Path:
    """The verified local path of ``rf``: the first of the places of the module docstring, or a download.

    Parameters
    ----------
    rf : RawFile
    data_home : str or path, optional
        The download cache, instead of ``paths.cache_dir() / "raw"``.
    download : bool, default True
        Download a file found nowhere; otherwise raise ``FileNotFoundError``.

    Returns
    -------
    pathlib.Path

    Raises
    ------
    ValueError
        The first file found (or the download) does not match ``rf.sha256``.
    FileNotFoundError
        Found nowhere and ``download=False``.
    DownloadError
        The download failed (offline, HTTP error, timeout).
    """
    places = _search_paths(rf, data_home)
    for p in places:
        if p.is_file():
            _verify(p, rf)
            return p
    if not download:
        where = "\n  ".join(str(p) for p in places)
        raise FileNotFoundError(
            f"data file {rf.relpath!r} not found; searched:\n  {where}\n"
            f"Pass download=True, or put the file there (source: {rf.url}; "
            "set $GRAPHSEL_DATA to a folder holding <subdir>/<file>)."
        )
    dest = places[-1]
    _download(rf, dest)
    _verify(dest, rf)
    return dest


def _download(rf: RawFile, dest: Path):
    """Stream ``rf.url`` into ``dest`` atomically, verifying size and SHA-256 first."""
    log.info("downloading %s from %s", rf.relpath, rf.url)
    req = urllib.request.Request(rf.url, headers={"User-Agent": "graphsel (python urllib)"})
    try:
        with (
            urllib.request.urlopen(req, timeout=DOWNLOAD_TIMEOUT) as resp,
            atomic_path(dest, suffix="") as tmp,
        ):
            h = hashlib.sha256()
            n = 0
            with open(tmp, "wb") as fh:
                while chunk := resp.read(_CHUNK):
                    n += len(chunk)
                    if n > rf.size:
                        break  # larger than expected: cannot be the right file
                    h.update(chunk)
                    fh.write(chunk)
            digest = h.hexdigest()
            if n != rf.size or digest != rf.sha256:
                got = f"more than {rf.size}" if n > rf.size else str(n)
                # raising inside atomic_path removes the temporary file: nothing is cached
                raise ValueError(
                    f"checksum mismatch for downloaded data file {rf.relpath!r} from {rf.url}: "
                    f"expected sha256 {rf.sha256} ({rf.size} bytes), got "
                    f"{digest if n <= rf.size else '(not computed)'} ({got} bytes). Nothing was cached."
                )
    except (
        urllib.error.URLError,
        http.client.HTTPException,
        socket.timeout,
        TimeoutError,
        ConnectionError,
    ) as exc:
        raise DownloadError(
            f"could not download data file {rf.relpath!r} from {rf.url}: {exc}. "
            "Are you offline? Put the file at "
            f"$GRAPHSEL_DATA/{rf.relpath} (or in {dest.parent}) to use it without network."
        ) from exc
