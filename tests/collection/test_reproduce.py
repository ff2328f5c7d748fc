"""The papermill runner on a throw-away project (tmp_path) with three tiny notebooks.

``01_good`` writes a figure and a table through the library helpers, ``02_bad``
raises in its second code cell, ``03_after`` only checks that the run goes on.
Each kernel start costs 2-3 s, so the executions are shared by module-scoped
fixtures.
"""

import csv
import json
import os
from pathlib import Path

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from graphsel_lib.collection import provenance, reproduce

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")

PARAMS = 'profile = "full"\nseed = 0\n'


def _notebook(*cells):
    code = [new_code_cell(PARAMS, metadata={"tags": ["parameters"]})]
    for c in cells:
        code.append(new_markdown_cell(c[1:]) if c.startswith("#") else new_code_cell(c))
    nb = new_notebook(cells=code)
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


GOOD = _notebook(
    "# A figure and a table",
    "import os\n"
    "import matplotlib\n"
    "import pandas as pd\n"
    "from graphsel_lib.collection.plotting import savefig, subplots\n"
    "from graphsel_lib.collection.tables import write_table\n"
    "assert matplotlib.get_backend().lower() == 'agg', matplotlib.get_backend()\n"
    "fig, ax = subplots()\n"
    "ax.plot([0, 1, 2], [seed, 1, 0])\n"
    "savefig(fig, 'good_fig')\n"
    "write_table(pd.DataFrame({'profile': [profile], 'seed': [seed]}), 'good_table')\n"
    "print('PARAMS', profile, seed, os.environ['GRAPHSEL_FIGURES'])",
    "import sys\nprint(sys.version)",
)
BAD = _notebook(
    "# the next cell fails",
    "y = 2\nraise ValueError('boom in the second code cell')",
    "print('never reached')",
)
AFTER = _notebook("print('after', profile)")


def _project(root):
    nbdir = root / "notebooks"
    nbdir.mkdir(parents=True)
    nbformat.write(GOOD, nbdir / "01_good.ipynb")
    nbformat.write(BAD, nbdir / "02_bad.ipynb")
    nbformat.write(AFTER, nbdir / "03_after.ipynb")
    (nbdir / "README.md").write_text("not a notebook\n")
    figures = root / "figures"
    figures.mkdir()
    # the last good run of 02_bad produced this figure: a failure must not touch it
    (figures / "bad_fig.png").write_bytes(b"last good bad_fig")
    (figures / "good_fig.png").write_bytes(b"stale good_fig")
    return root


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    root = _project(tmp_path_factory.mktemp("proj"))
    sources = {p.name: p.read_bytes() for p in (root / "notebooks").iterdir()}
    import contextlib
    import io

    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = reproduce.main(["--jobs", "1", "--root", str(root), "--profile", "full", "--seed", "7"])
    return root, code, out.getvalue(), err.getvalue(), sources


def test_failure_exit_code_and_report(full_run):
    root, code, out, err, _ = full_run
    assert code == 1
    text = out + err
    assert "02_bad: FAILED" in text
    # the 3rd cell of the source notebook, its 2nd code cell (the parameters cell is the 1st)
    assert "cell 3 (code cell 2)" in text
    assert "y = 2" in text  # first line of the failing cell
    assert "ValueError: boom in the second code cell" in text
    assert "01_good: ok" in text and "03_after: ok" in text  # run went on after the failure
    assert "[2/3]" in text
    assert "executed copy: " + str(root / "build" / "full" / "failed" / "02_bad.ipynb") in text
    summary = json.loads((root / "build" / "full" / "reproduce_summary.json").read_text())
    by_name = {r["name"]: r for r in summary["notebooks"]}
    assert [r["name"] for r in summary["notebooks"]] == ["01_good", "02_bad", "03_after"]
    assert by_name["02_bad"]["status"] == "failed"
    assert by_name["02_bad"]["failure"]["cell"] == 3
    assert by_name["02_bad"]["failure"]["code_cell"] == 2
    assert by_name["02_bad"]["failure"]["ename"] == "ValueError"
    timings = (root / "build" / "full" / "timings.csv").read_text().splitlines()
    assert timings[0] == "notebook,status,seconds"
    assert [line.split(",")[:2] for line in timings[1:]] == [
        ["01_good", "ok"],
        ["02_bad", "failed"],
        ["03_after", "ok"],
        ["total", ""],
    ]
    assert all(float(line.split(",")[2]) >= 0 for line in timings[1:])
    assert by_name["01_good"]["published"] == [
        "good_fig.pdf",
        "good_fig.png",
        "good_table.csv",
        "good_table.md",
    ]


def test_figures_published_and_failed_ones_untouched(full_run):
    root, *_ = full_run
    figures = root / "figures"
    assert (figures / "good_fig.png").read_bytes().startswith(b"\x89PNG")
    assert (figures / "good_fig.pdf").read_bytes().startswith(b"%PDF")
    assert (figures / "good_table.csv").read_text() == "profile,seed\nfull,7\n"
    assert (figures / "bad_fig.png").read_bytes() == b"last good bad_fig"
    assert sorted(p.name for p in figures.iterdir()) == [
        "PROVENANCE.json",
        "bad_fig.png",
        "good_fig.pdf",
        "good_fig.png",
        "good_table.csv",
        "good_table.md",
    ]
    # staging of the good notebook is cleaned up, the failed one's kept for inspection
    staging = root / "build" / "full" / "staging"
    assert not (staging / "01_good").exists()
    assert (staging / "02_bad").is_dir()


def test_executed_copies_and_parameters(full_run):
    root, _, _, _, sources = full_run
    executed = root / "build" / "full" / "notebooks"
    # only complete runs there; the failed notebook's part-executed copy is set aside
    assert sorted(p.name for p in executed.iterdir()) == ["01_good.ipynb", "03_after.ipynb"]
    assert (root / "build" / "full" / "failed" / "02_bad.ipynb").is_file()
    nb = nbformat.read(executed / "01_good.ipynb", as_version=4)
    injected = [c for c in nb.cells if "injected-parameters" in c.metadata.get("tags", [])]
    assert len(injected) == 1
    assert 'profile = "full"' in injected[0].source and "seed = 7" in injected[0].source
    printed = "".join(o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.outputs)
    assert "PARAMS full 7" in printed
    assert str(root / "build" / "full" / "staging" / "01_good") in printed  # kernel got GRAPHSEL_FIGURES
    # sources untouched: still no outputs
    assert {p.name: p.read_bytes() for p in (root / "notebooks").iterdir()} == sources
    # the runner restored its own environment
    assert "GRAPHSEL_FIGURES_TARGET" not in os.environ


def test_smoke_never_writes_full_figures(full_run, capsys):
    root, *_ = full_run
    figures = root / "figures"
    before = {p.name: p.read_bytes() for p in figures.iterdir()}
    code = reproduce.main(["--jobs", "1", "--root", str(root), "--profile", "smoke", "--only", "good"])
    assert code == 0
    assert {p.name: p.read_bytes() for p in figures.iterdir()} == before
    smoke = root / "build" / "smoke"
    assert (smoke / "figures" / "good_fig.png").is_file()
    # profile injected, notebook's own seed kept when --seed is not given
    assert (smoke / "figures" / "good_table.csv").read_text() == "profile,seed\nsmoke,0\n"
    assert (smoke / "notebooks" / "01_good.ipynb").is_file()
    # smoke output aimed at the published folder is refused
    assert (
        reproduce.main(["--root", str(root), "--profile", "smoke", "--figures-dir", str(figures), "--list"])
        == 2
    )
    assert "must not write" in capsys.readouterr().err


def test_fail_fast_parallel(tmp_path, capsys):
    root = _project(tmp_path)
    code = reproduce.main(
        [
            "--root",
            str(root),
            "--only",
            "0[23]_*",
            "--fail-fast",
            "--jobs",
            "2",
            "--figures-dir",
            str(tmp_path / "out"),
        ]
    )
    assert code == 1
    out = capsys.readouterr().out
    assert "02_bad: FAILED" in out
    assert "01_good" not in out  # filtered out by the glob


def test_fail_fast_skips_the_rest(tmp_path, capsys):
    root = _project(tmp_path)
    code = reproduce.main(
        ["--jobs", "1", "--root", str(root), "--only", "bad", "--only", "after", "--fail-fast"]
    )
    assert code == 1
    out = capsys.readouterr().out
    assert "02_bad: FAILED" in out
    assert "03_after: running" not in out
    summary = json.loads((root / "build" / "full" / "reproduce_summary.json").read_text())
    assert [(r["name"], r["status"]) for r in summary["notebooks"]] == [
        ("02_bad", "failed"),
        ("03_after", "skipped"),
    ]


def test_list_and_selection(tmp_path, capsys):
    root = _project(tmp_path)
    assert reproduce.main(["--root", str(root), "--list"]) == 0
    assert capsys.readouterr().out.split() == [
        "[1/3]",
        "01_good.ipynb",
        "[2/3]",
        "02_bad.ipynb",
        "[3/3]",
        "03_after.ipynb",
    ]
    assert reproduce.main(["--root", str(root), "--list", "--only", "*after*"]) == 0
    assert "03_after.ipynb" in capsys.readouterr().out
    assert reproduce.main(["--root", str(root), "--list", "--only", "nothing-like-this"]) == 2
    assert not (root / "build").exists()


@pytest.mark.parametrize(
    "name, pattern, expected",
    [
        ("05_ollgc.ipynb", "ollgc", True),
        ("05_ollgc.ipynb", "OLLGC", True),
        ("05_ollgc.ipynb", "0[0-4]_*", False),
        ("05_ollgc.ipynb", "05_*", True),
        ("05_ollgc.ipynb", "05_ollgc", True),
        ("05_ollgc.ipynb", "sslgc", False),
        ("00_overview.ipynb", "00", True),
        ("40_zhang2006.ipynb", "00", False),  # a number selects by number, not as a substring
        ("04_llgc.ipynb", "4", True),
        ("40_zhang2006.ipynb", "4", False),
        ("42_gaertner.ipynb", "42", True),
    ],
)
def test_matches(name, pattern, expected):
    assert reproduce.matches(name, pattern) is expected


def test_book_flag_renders_after_the_run(full_run, monkeypatch, tmp_path):
    """``--book`` runs the pipeline, then renders the book of that profile; failures still exit 1."""
    from graphsel_lib.collection import book

    root, *_ = full_run
    calls = []
    monkeypatch.setattr(book, "build", lambda profile, **kw: calls.append((profile, kw)) or 0)
    build = tmp_path / "b"
    code = reproduce.main(
        [
            "--jobs",
            "1",
            "--root",
            str(root),
            "--profile",
            "smoke",
            "--only",
            "01",
            "--book",
            "--build-dir",
            str(build),
        ]
    )
    assert code == 0
    assert calls == [
        (
            "smoke",
            {
                "root": root.resolve(),
                "build_dir": build.resolve(),
                "figures_dir": build.resolve() / "smoke" / "figures",
            },
        )
    ]
    calls.clear()
    code = reproduce.main(
        [
            "--jobs",
            "1",
            "--root",
            str(root),
            "--profile",
            "smoke",
            "--only",
            "02",
            "--book",
            "--build-dir",
            str(build),
        ]
    )
    assert code == 1 and len(calls) == 1  # the book shows the failure; the exit status still reports it


def _table(folder, name, text):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.csv").write_text(text)


def test_compare_lists_every_differing_cell_and_keeps_times_apart(tmp_path, capsys):
    from graphsel_lib.collection import compare

    old, new = tmp_path / "committed", tmp_path / "fresh"
    run = "44_scaling_online_learning"  # declared time column: pass s
    _table(old, run, "graph,error,pass s\npolblogs,0.3879,0.12\ncora,0.2000,0.30\n")
    _table(new, run, "graph,error,pass s\npolblogs,0.4694,0.15\ncora,0.2000,0.31\n")
    _table(old, "20_gu2013_times", "dataset,ours / paper\nCora,0.06\n")
    _table(new, "20_gu2013_times", "dataset,ours / paper\nCora,0.07\n")
    _table(old, "90_scorecard", "item,quantity,ours,verdict\na,time,1.5,close\nb,error,0.2,reproduced\n")
    _table(new, "90_scorecard", "item,quantity,ours,verdict\na,time,2.5,differs\nb,error,0.2,reproduced\n")
    _table(old, "only_committed", "a\n1\n")
    diffs = {d.table: d for d in compare.compare_tables(new, old)}
    assert diffs[run].cells == [("graph=polblogs", "error", "0.3879", "0.4694")]
    assert len(diffs[run].time_cells) == 2
    assert not diffs["20_gu2013_times"].fails and not diffs["90_scorecard"].fails  # a time column, time rows
    assert diffs["only_committed"].problem == "not in the fresh run"
    status = reproduce.main(["--root", str(tmp_path), "--figures-dir", str(old), "--compare", str(new)])
    out = capsys.readouterr().out
    assert status == 1 and "[graph=polblogs] error: 0.3879 committed, 0.4694 fresh" in out
    assert f"{run}: 2 cell(s) in pass s" in out and "only_committed: not in the fresh run" in out
    (old / "only_committed.csv").unlink()
    _table(new, run, "graph,error,pass s\npolblogs,0.3879,0.15\ncora,0.2000,0.31\n")
    assert reproduce.main(["--root", str(tmp_path), "--figures-dir", str(old), "--compare", str(new)]) == 0
    assert "every table equals the committed one outside time cells" in capsys.readouterr().out
    assert reproduce.main(["--root", str(tmp_path), "--compare", str(tmp_path / "nowhere")]) == 2


@pytest.mark.parametrize(
    "table, header, row, edited",
    [
        ("06_sslgc_label_complexity", "graph,paper_R2_holds", "cora,1", "cora,0"),
        ("09_msg_theorems", "graph,4 s.e.", "cora,4.423", "cora,9.9"),
        ("20_gu2013_sslgc_query_match", "dataset,mu matching the paper's #queried", "cora,1", "cora,10"),
        ("10_bbq_scaling", "graph,scaling,error", "cora,raw,0.48", "cora,unit,0.48"),
        ("20_gu2013_times", "dataset,time paper (s)", "Cora,0.1273", "Cora,0.2"),  # a published time
    ],
)
def test_compare_time_columns_are_declared_not_guessed_from_words(tmp_path, table, header, row, edited):
    """Columns whose names held a time word (s, time, scaling) were taken for times: an edit there passed."""
    from graphsel_lib.collection import compare

    _table(tmp_path / "old", table, f"{header}\n{row}\n")
    _table(tmp_path / "new", table, f"{header}\n{edited}\n")
    (diff,) = compare.compare_tables(tmp_path / "new", tmp_path / "old")
    assert diff.fails and len(diff.cells) == 1 and not diff.time_cells


@pytest.mark.parametrize(
    "fresh, what",
    [
        ("a,b\n1,2\n3\n", "(no cell)"),  # a row cut short
        ("a,b\n1,2\n3,4,5\n", "past the header"),  # a row made longer
        ("a,b\n1,2\n", "2 rows committed, 1 fresh"),  # a missing row
        ("a,b\n1,2\n3,4\n5,6\n", "2 rows committed, 3 fresh"),  # an extra row
        ("a,b,c\n1,2,0\n3,4,0\n", "other columns"),  # an extra column
        ("a\n1\n3\n", "other columns"),  # a missing column
    ],
)
def test_compare_sees_whole_rows(tmp_path, capsys, fresh, what):
    """A truncated or extended row compared equal: zip() stopped at the shorter one."""
    _table(tmp_path / "old", "01_x", "a,b\n1,2\n3,4\n")
    _table(tmp_path / "new", "01_x", fresh)
    args = [
        "--root",
        str(tmp_path),
        "--figures-dir",
        str(tmp_path / "old"),
        "--compare",
        str(tmp_path / "new"),
    ]
    assert reproduce.main(args) == 1
    assert what in capsys.readouterr().out


def test_compare_of_a_table_that_is_not_utf8_is_an_error_naming_it(tmp_path, capsys):
    """A Latin-1 CSV gave --compare a UnicodeDecodeError traceback."""
    _table(tmp_path / "old", "01_x", "name,error\ncafé,1\n")
    (tmp_path / "new").mkdir()
    (tmp_path / "new" / "01_x.csv").write_bytes("name,error\ncafé,1\n".encode("latin-1"))
    args = [
        "--root",
        str(tmp_path),
        "--figures-dir",
        str(tmp_path / "old"),
        "--compare",
        str(tmp_path / "new"),
    ]
    assert reproduce.main(args) == 2
    err = capsys.readouterr().err
    assert "01_x.csv' is not UTF-8 text" in err and "at byte 14" in err and "Traceback" not in err


def test_compare_of_a_folder_named_like_a_table_is_an_error_naming_it(tmp_path, capsys):
    """A folder fresh/NAME.csv gave an IsADirectoryError traceback."""
    _table(tmp_path / "old", "01_x", "a\n1\n")
    (tmp_path / "new" / "01_x.csv").mkdir(parents=True)
    args = [
        "--root",
        str(tmp_path),
        "--figures-dir",
        str(tmp_path / "old"),
        "--compare",
        str(tmp_path / "new"),
    ]
    assert reproduce.main(args) == 2
    assert "01_x.csv cannot be read as a table (Is a directory)" in capsys.readouterr().err


def test_every_committed_column_that_reads_like_a_time_is_declared():
    """The explicit list cannot silently miss a time column: each candidate is declared a time or not."""
    from graphsel_lib.collection import time_columns as tc

    figures = Path(reproduce.__file__).resolve().parents[2] / "figures"
    headers = {}
    for path in sorted(figures.glob("*.csv")):
        with open(path, newline="", encoding="utf-8") as fh:
            headers[path.stem] = next(csv.reader(fh), [])
    undeclared = [
        (name, col)
        for name, header in headers.items()
        for col in header
        if tc.looks_like_time(col)
        and col not in tc.TIME_COLUMNS.get(name, ())
        and col not in tc.NOT_TIMES.get(name, ())
    ]
    assert not undeclared, f"declare these in graphsel_lib/collection/time_columns.py: {undeclared}"
    for listing in (tc.TIME_COLUMNS, tc.NOT_TIMES):  # no declaration of a table or column that is gone
        for name, cols in listing.items():
            assert name in headers and set(cols) <= set(headers[name]), (name, set(cols) - set(headers[name]))
        assert not set(tc.TIME_COLUMNS.get(name, ())) & set(tc.NOT_TIMES.get(name, ()))
    for name, (col, _) in tc.TIME_ROWS.items():
        assert col in headers[name]


def test_compare_of_the_committed_figures_with_themselves_and_an_edited_copy(tmp_path, capsys):
    """Clean against themselves; an edit of a non-time cell of a table with time columns fails."""
    import shutil

    figures = Path(reproduce.__file__).resolve().parents[2] / "figures"
    copy = tmp_path / "fresh"
    copy.mkdir()
    for path in figures.glob("*.csv"):
        shutil.copy(path, copy / path.name)
    args = ["--root", str(tmp_path), "--figures-dir", str(figures), "--compare", str(copy)]
    assert reproduce.main(args) == 0
    table = copy / "20_gu2013_times.csv"
    text = table.read_text(encoding="utf-8").splitlines()
    cells = next(csv.reader([text[1]]))
    header = next(csv.reader([text[0]]))
    cells[header.index("time ours (s)")] = "99"  # a time: listed apart, passes
    table.write_text("\n".join([text[0], ",".join(cells), *text[2:]]) + "\n", encoding="utf-8")
    assert reproduce.main(args) == 0
    assert "20_gu2013_times: 1 cell(s) in time ours (s)" in capsys.readouterr().out
    cells[header.index("time paper (s)")] = "99"  # a published time: not a time cell
    table.write_text("\n".join([text[0], ",".join(cells), *text[2:]]) + "\n", encoding="utf-8")
    assert reproduce.main(args) == 1
    out = capsys.readouterr().out
    assert "20_gu2013_times: 1 cell(s) differ" in out and "time paper (s): " in out


def test_stale_refuses_to_check_nothing(tmp_path, capsys):
    """No project, or a pattern that matches no notebook: a usage error, never 'every figure is current'."""
    assert reproduce.main(["--root", str(tmp_path / "nowhere"), "--stale"]) == 2
    assert "is not a folder" in capsys.readouterr().err
    assert reproduce.main(["--stale", "--only", "zzz"]) == 2
    err = capsys.readouterr().err
    assert "no notebooks" in err and "zzz" in err


def test_stale_with_a_damaged_manifest_is_an_error_not_a_traceback(tmp_path, capsys):
    root = tmp_path / "p"
    (root / "notebooks").mkdir(parents=True)
    (root / "figures").mkdir()
    nb = new_notebook(cells=[new_code_cell('profile = "full"\nseed = 0')])
    nbformat.write(nb, root / "notebooks" / "01_a.ipynb")
    (root / "figures" / "PROVENANCE.json").write_text("{not json")
    assert reproduce.main(["--root", str(root), "--stale"]) == 2
    assert "is damaged" in capsys.readouterr().err


def test_parallel_runs_start_a_solution_after_its_chapter(tmp_path):
    """A solutions notebook may read its chapter's tables: with --jobs 2 it used to start beside the chapter."""
    nbdir = tmp_path / "notebooks"
    (nbdir / "solutions").mkdir(parents=True)
    chapter = _notebook(
        "import time\nimport pandas as pd\nfrom graphsel_lib.collection.tables import write_table\n"
        "time.sleep(3)\nwrite_table(pd.DataFrame({'x': [1]}), '05_table')"
    )
    solution = _notebook(
        "from graphsel_lib.collection.tables import read_table\nassert read_table('05_table').x.tolist() == [1]"
    )
    nbformat.write(chapter, nbdir / "05_chapter.ipynb")
    nbformat.write(solution, nbdir / "solutions" / "05_solutions.ipynb")
    nbformat.write(AFTER, nbdir / "06_other.ipynb")
    (tmp_path / "figures").mkdir()
    assert (
        reproduce.main(["--root", str(tmp_path), "--jobs", "2", "--figures-dir", str(tmp_path / "out")]) == 0
    )


def _fake_papermill(monkeypatch, failures):
    """papermill.execute_notebook that raises each of ``failures`` once, then writes an empty executed copy."""
    import papermill

    calls = []

    def execute_notebook(source, target, **kwargs):
        calls.append(source)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        nbformat.write(new_notebook(cells=[]), target)

    monkeypatch.setattr(papermill, "execute_notebook", execute_notebook)
    return calls


def _config(tmp_path):
    return reproduce.RunConfig("smoke", tmp_path, tmp_path / "figures", tmp_path / "build")


def test_a_kernel_that_dies_while_starting_is_started_again(tmp_path, monkeypatch):
    """Parallel kernels sometimes pick the same port (a race in jupyter_client): the notebook is run again."""
    calls = _fake_papermill(monkeypatch, [RuntimeError("Kernel died before replying to kernel_info")])
    res = reproduce.run_notebook(tmp_path / "01_a.ipynb", _config(tmp_path))
    assert res.status == "ok" and len(calls) == 2


def test_a_failing_notebook_is_not_run_again(tmp_path, monkeypatch):
    calls = _fake_papermill(monkeypatch, [ValueError("a cell failed")])
    res = reproduce.run_notebook(tmp_path / "01_a.ipynb", _config(tmp_path))
    assert res.status == "failed" and len(calls) == 1


def test_a_kernel_that_never_starts_fails_after_the_last_attempt(tmp_path, monkeypatch):
    died = RuntimeError("Kernel died before replying to kernel_info")
    calls = _fake_papermill(monkeypatch, [died] * reproduce.KERNEL_START_ATTEMPTS)
    res = reproduce.run_notebook(tmp_path / "01_a.ipynb", _config(tmp_path))
    assert res.status == "failed" and len(calls) == reproduce.KERNEL_START_ATTEMPTS


def test_default_jobs_use_every_core_and_divide_the_threads(monkeypatch):
    """No --jobs: one notebook per core, each kernel on cores // jobs BLAS and numba threads (never more in all)."""
    monkeypatch.setattr(reproduce, "available_cores", lambda: 4)
    args = reproduce._parser().parse_args([])
    assert args.jobs is None and args.blas_threads is None
    assert reproduce._config(args).blas_threads == 1  # four jobs on four cores: one thread each
    args = reproduce._parser().parse_args(["--jobs", "1"])
    assert reproduce._config(args).blas_threads == 4
    args = reproduce._parser().parse_args(["--jobs", "2"])
    assert reproduce._config(args).blas_threads == 2
    args = reproduce._parser().parse_args(["--jobs", "3", "--blas-threads", "0"])
    assert reproduce._config(args).blas_threads is None  # 0: the machine's default
    cfg = reproduce._config(reproduce._parser().parse_args(["--jobs", "4"]))
    env = reproduce._kernel_env(cfg, Path("staging"))
    assert {env[k] for k in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "NUMBA_NUM_THREADS")} == {"1"}
    assert (
        env[reproduce.WORKERS_ENV] == "1"
    )  # and one process per notebook for its sweeps (papers.common.N_JOBS)
    cfg = reproduce._config(reproduce._parser().parse_args(["--jobs", "1", "--blas-threads", "1"]))
    assert (
        reproduce._kernel_env(cfg, Path("staging"))[reproduce.WORKERS_ENV] == "4"
    )  # one notebook: every core


def test_sweep_workers_come_from_the_runner(monkeypatch):
    """papers.common.N_JOBS is the runner's GRAPHSEL_WORKERS (cores // jobs); 2 by hand; nonsense is refused."""
    from graphsel_lib.papers import common

    assert common.WORKERS_ENV == reproduce.WORKERS_ENV
    monkeypatch.delenv(common.WORKERS_ENV, raising=False)
    assert common._workers() == 2
    monkeypatch.setenv(common.WORKERS_ENV, "3")
    assert common._workers() == 3
    for bad in ("0", "-1", "two"):
        monkeypatch.setenv(common.WORKERS_ENV, bad)
        with pytest.raises(ValueError, match="GRAPHSEL_WORKERS must be a positive integer"):
            common._workers()


def test_parallel_runs_start_the_longest_notebook_first(tmp_path):
    """The previous run's seconds (in the provenance) order the start: the long notebook does not start last."""
    nbdir = tmp_path / "notebooks"
    nbdir.mkdir()
    stamp = "import time, pathlib\npathlib.Path({!r}).write_text(str(time.time()))"
    for name in ("01_short", "02_short", "03_long"):
        nbformat.write(_notebook(stamp.format(str(tmp_path / f"{name}.t"))), nbdir / f"{name}.ipynb")
    out = tmp_path / "out"
    out.mkdir()
    seconds = {"01_short": 1.0, "02_short": 2.0, "03_long": 100.0}
    manifest = {"version": 1, "notebooks": {n: {"files": {}, "seconds": s} for n, s in seconds.items()}}
    (out / provenance.MANIFEST).write_text(json.dumps(manifest))
    assert reproduce.main(["--root", str(tmp_path), "--jobs", "2", "--figures-dir", str(out)]) == 0
    started = {n: float((tmp_path / f"{n}.t").read_text()) for n in ("01_short", "02_short", "03_long")}
    assert started["03_long"] < started["01_short"]  # 01 waits for a free worker: 03 and 02 go first


def test_a_fresh_figures_folder_is_scheduled_by_the_committed_times(tmp_path):
    """A folder with no provenance (``--figures-dir build/mine``) takes the committed figures' times, same profile."""
    nbdir, committed, fresh = tmp_path / "notebooks", tmp_path / "figures", tmp_path / "mine"
    for folder in (nbdir, committed, fresh):
        folder.mkdir()
    entries = {"01_short": (1.0, "full"), "02_long": (100.0, "full"), "03_smoke_only": (50.0, "smoke")}
    manifest = {
        "version": 1,
        "notebooks": {n: {"files": {}, "seconds": s, "profile": p} for n, (s, p) in entries.items()},
    }
    (committed / provenance.MANIFEST).write_text(json.dumps(manifest))
    cfg = reproduce._config(
        reproduce._parser().parse_args(["--root", str(tmp_path), "--figures-dir", str(fresh)])
    )
    assert reproduce.previous_seconds(cfg) == {
        "01_short": 1.0,
        "02_long": 100.0,
    }  # the smoke time is not a full one
    names = [Path(f"{n}.ipynb") for n in ("01_short", "02_long", "03_smoke_only")]
    assert [p.stem for p in reproduce.longest_first(names, reproduce.previous_seconds(cfg))] == [
        "03_smoke_only", "02_long", "01_short"]  # fmt: skip
    own = {"version": 1, "notebooks": {"01_short": {"files": {}, "seconds": 500.0, "profile": "full"}}}
    (fresh / provenance.MANIFEST).write_text(json.dumps(own))
    assert reproduce.previous_seconds(cfg)["01_short"] == 500.0  # the folder's own last run wins
