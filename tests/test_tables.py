"""tables: CSV + Markdown written atomically, byte-deterministic, read back."""

import numpy as np
import pandas as pd
import pytest

from graphsel_lib.collection.tables import below_tolerance, read_table, render_markdown, write_table


def _df():
    return pd.DataFrame(
        {
            "dataset": ["Cora", "PubMed", "Co|author"],
            "method": ["OLLGC", "SSLGC", "GPA"],
            "error": [0.21234567, 0.1, np.nan],
            "queried": [2485, 1234, 0],
            "ok": [True, False, True],
        }
    )


def test_files_land_in_graphsel_figures(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHSEL_FIGURES", str(tmp_path))
    paths = write_table(_df(), "table2")
    assert paths == [tmp_path / "table2.csv", tmp_path / "table2.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["table2.csv", "table2.md"]
    back = read_table("table2")
    assert list(back.columns) == ["dataset", "method", "error", "queried", "ok"]
    assert back["queried"].tolist() == [2485, 1234, 0]
    assert back["dataset"].tolist() == ["Cora", "PubMed", "Co|author"]
    assert back["error"].iloc[0] == pytest.approx(0.212346)
    assert np.isnan(back["error"].iloc[2])


def test_csv_and_markdown_content(tmp_path):
    csv, md = write_table(_df(), "t", float_format="%.3f", directory=tmp_path)
    assert csv.read_bytes() == (
        b"dataset,method,error,queried,ok\n"
        b"Cora,OLLGC,0.212,2485,True\n"
        b"PubMed,SSLGC,0.100,1234,False\n"
        b"Co|author,GPA,,0,True\n"
    )
    assert md.read_text(encoding="utf-8") == (
        "| dataset    | method | error | queried | ok    |\n"
        "| :--------- | :----- | ----: | ------: | :---- |\n"
        "| Cora       | OLLGC  | 0.212 |    2485 | True  |\n"
        "| PubMed     | SSLGC  | 0.100 |    1234 | False |\n"
        "| Co\\|author | GPA    |       |       0 | True  |\n"
    )


def test_deterministic_bytes(tmp_path):
    a = write_table(_df(), "t", directory=tmp_path / "a")
    b = write_table(_df().copy(), "t", directory=tmp_path / "b")
    for pa, pb in zip(a, b, strict=True):
        assert pa.read_bytes() == pb.read_bytes()
    assert b"\r" not in a[0].read_bytes() + a[1].read_bytes()


def test_formats_index_and_per_column(tmp_path):
    df = pd.DataFrame(
        {"error": [0.25, 1 / 3], "time": [1.23456, 10.0]}, index=pd.Index(["GPA", "MSG"], name="method")
    )
    csv, md = write_table(df, "t", float_format={"error": "{:.2f}"}, index=True, directory=tmp_path)
    assert csv.read_text() == "method,error,time\nGPA,0.25,1.23456\nMSG,0.33,10\n"
    assert md.read_text().splitlines()[0] == "| method | error |    time |"
    df.index.name = None
    assert (
        render_markdown(df, index=True, float_format=lambda x: f"{x:.1f}")
        .splitlines()[0]
        .startswith("| index |")
    )


def test_below_tolerance_writes_each_row_against_its_own_tolerance(tmp_path):
    """A residual under its row's tolerance is written ``< tol``: last bits below it cannot reach the table."""
    res = np.array([3.7e-14, 5.5e-14, 4.6e-08, 2.4e-01, np.nextafter(1e-7, 0)])
    tol = [1e-12, 1e-12, 1e-7, 1e-7, 1e-7]
    cells = below_tolerance(res, tol, "%.1e")
    assert cells == ["< 1e-12", "< 1e-12", "< 1e-07", "2.4e-01", "< 1e-07"]
    assert below_tolerance(res[:4] * (1 + 1e-9), tol[:4], "%.1e") == cells[:4]  # other last bits: same cells
    df = pd.DataFrame(
        {"solver": ["dense", "lobpcg"], "max rel. residual": below_tolerance([4e-14, 4.6e-8], [1e-12, 1e-7])}
    )
    csv, _ = write_table(df, "r", directory=tmp_path)
    assert csv.read_text() == "solver,max rel. residual\ndense,< 1e-12\nlobpcg,< 1e-07\n"
    with pytest.raises(ValueError, match="one tolerance per value"):
        below_tolerance([1.0, 2.0], [1e-7])
    with pytest.raises(ValueError, match="give each row its solver's"):
        below_tolerance([1.0], [float("nan")])


def test_unicode_and_newlines_in_markdown():
    df = pd.DataFrame({"method": ["BBQ-ε", "a\nb"], "error": ["0.21 ± 0.01", "x"]})
    lines = render_markdown(df).splitlines()
    assert lines[2] == "| BBQ-ε  | 0.21 ± 0.01 |"
    assert lines[3] == "| a<br>b | x           |"


def test_errors(tmp_path):
    with pytest.raises(TypeError, match="DataFrame"):
        write_table({"a": [1]}, "t", directory=tmp_path)
    for bad in ["sub/t", "../t", "t.csv", ""]:
        with pytest.raises(ValueError, match="name"):
            write_table(_df(), bad, directory=tmp_path)
    with pytest.raises(ValueError, match="unknown columns"):
        write_table(_df(), "t", float_format={"nope": "%.2f"}, directory=tmp_path)
    with pytest.raises(TypeError, match="float_format"):
        write_table(_df(), "t", float_format=3, directory=tmp_path)
    with pytest.raises(ValueError, match="unique"):
        write_table(pd.DataFrame([[1, 2]], columns=["a", "a"]), "t", directory=tmp_path)
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(FileNotFoundError, match="missing"):
        read_table("missing", directory=tmp_path)


def test_failed_write_keeps_previous_table(tmp_path):
    csv, md = write_table(_df(), "t", directory=tmp_path)
    old = csv.read_bytes(), md.read_bytes()

    def boom(x):
        raise RuntimeError("formatter failed")

    with pytest.raises(RuntimeError):
        write_table(_df(), "t", float_format=boom, directory=tmp_path)
    assert (csv.read_bytes(), md.read_bytes()) == old
    assert sorted(p.name for p in tmp_path.iterdir()) == ["t.csv", "t.md"]


def test_read_table_falls_back_to_runner_target(tmp_path, monkeypatch):
    write_table(_df(), "earlier", directory=tmp_path / "published")
    monkeypatch.setenv("GRAPHSEL_FIGURES", str(tmp_path / "staging"))
    monkeypatch.setenv("GRAPHSEL_FIGURES_TARGET", str(tmp_path / "published"))
    assert read_table("earlier")["method"].tolist() == ["OLLGC", "SSLGC", "GPA"]
    # a table freshly written by the running notebook wins
    write_table(_df().iloc[:1], "earlier")
    assert read_table("earlier")["method"].tolist() == ["OLLGC"]


def test_list_tables_searches_the_figures_and_target_folders(tmp_path, monkeypatch):
    from graphsel_lib.collection.tables import list_tables

    stage, target = tmp_path / "stage", tmp_path / "target"
    write_table(pd.DataFrame({"a": [1]}), "20_x_vs_published", directory=stage)
    write_table(pd.DataFrame({"a": [2]}), "30_y_vs_published", directory=target)
    write_table(pd.DataFrame({"a": [3]}), "30_y_vs_published", directory=stage)
    write_table(pd.DataFrame({"a": [4]}), "30_other", directory=target)
    monkeypatch.setenv("GRAPHSEL_FIGURES", str(stage))
    monkeypatch.setenv("GRAPHSEL_FIGURES_TARGET", str(target))
    assert list_tables("*_vs_published") == ["20_x_vs_published", "30_y_vs_published"]
    assert list_tables() == ["20_x_vs_published", "30_other", "30_y_vs_published"]
    assert list_tables(directory=target) == ["30_other", "30_y_vs_published"]


def test_write_csv_is_atomic_and_plain(tmp_path, monkeypatch):
    import pandas as pd

    from graphsel_lib.collection import tables

    path = tables.write_csv(pd.DataFrame({"node": ["a", "b"], "x": [1, 2]}), tmp_path / "out.csv")
    assert path.read_bytes() == b"node,x\na,1\nb,2\n"

    class Boom(pd.DataFrame):
        def to_csv(self, fh, **kw):
            fh.write("node,x\n")
            raise RuntimeError("interrupted")

    import pytest

    with pytest.raises(RuntimeError):
        tables.write_csv(Boom({"node": ["c"]}), path)
    assert path.read_bytes() == b"node,x\na,1\nb,2\n"  # the previous file, not half of the new one
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.csv"]
