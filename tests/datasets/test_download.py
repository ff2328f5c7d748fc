"""Download path: a local HTTP server stands in for GitHub (no real network).

Every test hides the local data folders ($GRAPHSEL_DATA -> an empty folder,
../shared/data disabled) and points $GRAPHSEL_CACHE at a temporary folder, so
the only way to get the file is the download.
"""

import dataclasses
import functools
import hashlib
import http.server
import shutil
import socket
import threading

import pytest

import graphsel_lib as gs
from graphsel_lib import datasets, paths

RELPATH = "fastonl/political-blog.npz"  # polblogs: one small raw file
_LOCAL_DATA_DIRS = paths.local_data_dirs  # the real lookup, before any test hides it


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


class LocalServer:
    """``http.server`` on 127.0.0.1 in a daemon thread, serving one folder."""

    def __init__(self, folder):
        handler = functools.partial(_QuietHandler, directory=str(folder))
        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.timeout = 5
        self.thread = threading.Thread(
            target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )
        self.thread.start()
        self.running = True

    def url(self, name):
        host, port = self.httpd.server_address[:2]
        return f"http://{host}:{port}/{name}"

    def stop(self):
        if self.running:
            self.httpd.shutdown()
            self.httpd.server_close()
            self.thread.join(timeout=5)
            self.running = False


@pytest.fixture
def env(tmp_path, monkeypatch):
    empty = tmp_path / "local-data"
    empty.mkdir()
    cache = tmp_path / "cache"
    monkeypatch.setenv("GRAPHSEL_DATA", str(empty))
    monkeypatch.setenv("GRAPHSEL_CACHE", str(cache))
    monkeypatch.setattr(paths, "local_data_dirs", lambda: [empty])  # no ../shared/data
    monkeypatch.setattr(datasets.fetch, "DOWNLOAD_TIMEOUT", 5.0)
    datasets.clear_cache()
    yield {"cache": cache, "tmp": tmp_path}
    datasets.clear_cache()


@pytest.fixture
def source_bytes():
    """The genuine raw file, taken from ../shared/data before it is hidden."""
    for d in _LOCAL_DATA_DIRS():
        p = d / RELPATH
        if p.is_file():
            return p.read_bytes()
    pytest.skip(f"{RELPATH} not available locally")  # pragma: no cover


@pytest.fixture
def serve(env, monkeypatch):
    """serve(data) -> LocalServer whose URL the registry entry now points to."""
    servers = []

    def _serve(data):
        folder = env["tmp"] / f"www{len(servers)}"
        folder.mkdir()
        (folder / "political-blog.npz").write_bytes(data)
        srv = LocalServer(folder)
        servers.append(srv)
        rf = datasets.RAW_FILES[RELPATH]
        monkeypatch.setitem(
            datasets.RAW_FILES, RELPATH, dataclasses.replace(rf, url=srv.url("political-blog.npz"))
        )
        return srv

    yield _serve
    for srv in servers:
        srv.stop()


def _files_under(folder):
    return sorted(p for p in folder.rglob("*") if p.is_file()) if folder.exists() else []


def test_download_verify_cache_then_offline(env, serve, source_bytes):
    srv = serve(source_bytes)
    with pytest.raises(FileNotFoundError, match=RELPATH):
        gs.load_dataset("polblogs", download=False)  # nothing local yet

    g = gs.load_dataset("polblogs")
    cached = env["cache"] / "raw" / RELPATH
    assert cached.is_file()
    assert hashlib.sha256(cached.read_bytes()).hexdigest() == datasets.RAW_FILES[RELPATH].sha256
    assert _files_under(env["cache"]) == [cached], "temporary files left behind"
    assert (g.n_nodes, g.n_edges, g.n_classes) == (1222, 16714, 2)
    assert g.info["source"][RELPATH]["path"] == str(cached)

    srv.stop()  # from now on any network access would fail
    datasets.clear_cache()  # forget the memoised graph and checksum too
    g2 = gs.load_dataset("polblogs", download=False)
    assert (g2.adjacency != g.adjacency).nnz == 0
    g3 = gs.load_dataset("polblogs")  # download=True must not touch the network either
    assert g3.n_nodes == 1222


def test_corrupted_download_is_rejected_and_not_cached(env, serve, source_bytes):
    bad = bytearray(source_bytes)
    bad[len(bad) // 2] ^= 0xFF
    serve(bytes(bad))
    with pytest.raises(ValueError, match="checksum mismatch") as err:
        gs.load_dataset("polblogs")
    msg = str(err.value)
    assert RELPATH in msg and datasets.RAW_FILES[RELPATH].sha256 in msg
    assert hashlib.sha256(bytes(bad)).hexdigest() in msg
    assert _files_under(env["cache"]) == [], "a bad download must leave nothing in the cache"


def test_oversized_download_is_rejected(env, serve, source_bytes):
    serve(source_bytes + b"trailing garbage")
    with pytest.raises(ValueError, match="checksum mismatch"):
        gs.load_dataset("polblogs")
    assert _files_under(env["cache"]) == []


def test_download_into_data_home(env, serve, source_bytes):
    serve(source_bytes)
    home = env["tmp"] / "home"
    paths_ = datasets.fetch_dataset("polblogs", data_home=home)
    assert paths_[RELPATH] == home / RELPATH and (home / RELPATH).is_file()
    assert _files_under(env["cache"]) == []


def test_offline_error_names_file_and_url(env, monkeypatch):
    with socket.socket() as s:  # a port on which nobody listens
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    url = f"http://127.0.0.1:{port}/political-blog.npz"
    rf = datasets.RAW_FILES[RELPATH]
    monkeypatch.setitem(datasets.RAW_FILES, RELPATH, dataclasses.replace(rf, url=url))
    with pytest.raises(datasets.DownloadError) as err:
        gs.load_dataset("polblogs")
    assert RELPATH in str(err.value) and url in str(err.value)
    assert _files_under(env["cache"]) == []


def test_http_404_is_a_download_error(env, serve, source_bytes, monkeypatch):
    srv = serve(source_bytes)
    rf = datasets.RAW_FILES[RELPATH]
    monkeypatch.setitem(datasets.RAW_FILES, RELPATH, dataclasses.replace(rf, url=srv.url("missing.npz")))
    with pytest.raises(datasets.DownloadError, match="404"):
        gs.load_dataset("polblogs")
    assert _files_under(env["cache"]) == []


def test_corrupted_cache_file_is_reported(env, source_bytes):
    cached = env["cache"] / "raw" / RELPATH
    cached.parent.mkdir(parents=True)
    cached.write_bytes(source_bytes[:-1])
    with pytest.raises(ValueError, match="checksum mismatch"):
        gs.load_dataset("polblogs", download=False)
    shutil.rmtree(env["cache"])
