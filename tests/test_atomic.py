"""Interrupted writes never leave a half-written file .

(a) an exception or KeyboardInterrupt inside ``atomic_write``/``atomic_path``
keeps the old file and leaves no temporary file; (b) a real process that keeps
writing a large figure and a large table is sent SIGINT at seeded random
moments: afterwards every target is absent or complete and valid, and no
temporary file remains.
"""

import os
import signal
import subprocess
import sys
import textwrap
import time

import numpy as np
import pytest

from graphsel_lib._atomic import atomic_path, atomic_write


def _leftovers(folder):
    return sorted(p.name for p in folder.iterdir() if ".tmp" in p.name)


@pytest.mark.parametrize("exc", [KeyboardInterrupt, RuntimeError])
def test_atomic_write_interrupted_keeps_old_file(tmp_path, exc):
    target = tmp_path / "table.csv"
    target.write_text("old,complete\n")
    with pytest.raises(exc):
        with atomic_write(target, "w") as fh:
            fh.write("new,half")
            raise exc()
    assert target.read_text() == "old,complete\n"
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("exc", [KeyboardInterrupt, RuntimeError])
def test_atomic_path_interrupted_keeps_old_file(tmp_path, exc):
    target = tmp_path / "fig.png"
    target.write_bytes(b"old")
    with pytest.raises(exc):
        with atomic_path(target) as tmp:
            assert tmp.parent == tmp_path and tmp.name.endswith(".png") and ".tmp" in tmp.name
            tmp.write_bytes(b"half")
            raise exc()
    assert target.read_bytes() == b"old"
    assert _leftovers(tmp_path) == []


def test_atomic_interrupted_without_old_file_leaves_nothing(tmp_path):
    with pytest.raises(KeyboardInterrupt):
        with atomic_write(tmp_path / "new.md", "w") as fh:
            fh.write("half")
            raise KeyboardInterrupt
    assert list(tmp_path.iterdir()) == []


def test_atomic_success_replaces(tmp_path):
    target = tmp_path / "t.md"
    target.write_text("old")
    with atomic_write(target, "w") as fh:
        fh.write("new")
    assert target.read_text() == "new"
    assert _leftovers(tmp_path) == []
    with pytest.raises(ValueError, match="write mode"):
        with atomic_write(target, "r"):
            pass


# A writer that loops over a large figure (PNG + PDF) and a large table. It writes one
# complete set first, then keeps rewriting; on SIGINT the KeyboardInterrupt unwinds
# through the atomic writers exactly as on Ctrl-C, the writer reports where it was
# and waits until the parent has checked the files, then resumes.
WRITER = textwrap.dedent(
    """
    import signal, sys, traceback
    signal.signal(signal.SIGINT, signal.default_int_handler)  # even if the parent ignores SIGINT
    import matplotlib
    matplotlib.use("agg")
    import numpy as np
    import pandas as pd
    from graphsel_lib.collection.plotting import savefig, subplots
    from graphsel_lib.collection.tables import write_table

    out, n = sys.argv[1], int(sys.argv[2])
    rng = np.random.default_rng(0)
    fig, ax = subplots(size="panel")
    ax.scatter(rng.random(n), rng.random(n), s=1, c=rng.random(n))
    df = pd.DataFrame(rng.random((n, 6)), columns=list("abcdef"))

    def write_all():
        savefig(fig, "big", directory=out)
        write_table(df, "big", directory=out)

    write_all()
    print("ready", flush=True)
    sys.stdin.readline()
    while True:
        try:
            while True:
                write_all()
        except KeyboardInterrupt:
            # was a temporary file open? (innermost library frame is inside an atomic block)
            ours = [f for f in traceback.extract_tb(sys.exc_info()[2]) if "graphsel_lib" in f.filename]
            inside = bool(ours) and (ours[-1].name in ("atomic_path", "atomic_write")
                                     or ours[-1].line.startswith(("fig.savefig(tmp", "fh.write(",
                                                                  "raise KeyboardInterrupt from")))
            print("interrupted", int(inside), flush=True)
        if not sys.stdin.readline():
            break
        print("resumed", flush=True)
    """
)
N_ROWS = 10_000


def _check_outputs(folder):
    import matplotlib

    matplotlib.use("agg")
    import matplotlib.image as mpimg

    from graphsel_lib.collection.tables import read_table

    assert _leftovers(folder) == []
    assert sorted(p.name for p in folder.iterdir()) == ["big.csv", "big.md", "big.pdf", "big.png"]
    assert mpimg.imread(folder / "big.png").ndim == 3
    data = (folder / "big.pdf").read_bytes()
    assert data.startswith(b"%PDF") and data.rstrip().endswith(b"%%EOF")
    assert read_table("big", directory=folder).shape == (N_ROWS, 6)
    lines = (folder / "big.md").read_text().splitlines()
    assert len(lines) == N_ROWS + 2 and all(line.startswith("| ") and line.endswith(" |") for line in lines)


def test_sigint_during_writes_leaves_valid_files(tmp_path):
    rng = np.random.default_rng(20260)
    env = dict(os.environ, MPLBACKEND="agg")
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(tmp_path), str(N_ROWS)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    inside = 0
    try:
        assert proc.stdout.readline().strip() == "ready", proc.stderr.read()
        _check_outputs(tmp_path)
        proc.stdin.write("go\n")
        proc.stdin.flush()
        for k in range(8):
            time.sleep(float(rng.uniform(0.05, 1.2)))  # a write cycle takes about 1 s
            proc.send_signal(signal.SIGINT)
            line = proc.stdout.readline().split()
            assert line[:1] == ["interrupted"], proc.stderr.read()
            inside += int(line[1])
            _check_outputs(tmp_path)  # the previous complete version survived
            if k == 7:
                proc.stdin.close()  # the writer exits
            else:
                proc.stdin.write("go\n")
                proc.stdin.flush()
                assert proc.stdout.readline().strip() == "resumed"
        assert proc.wait(timeout=30) == 0, proc.stderr.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    # most interrupts hit a write in progress (so the test is not vacuous)
    assert inside >= 4
