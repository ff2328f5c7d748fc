"""Figure provenance: the manifest the runner writes, and ``reproduce --stale`` that reads it.

A throw-away project with two tiny notebooks is run once (kernel starts cost a
few seconds each); each test then edits a copy of it and asks ``--stale``.
"""

import json
import re
import shutil

import nbformat
import pytest
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from graphsel_lib.collection import provenance, reproduce
from graphsel_lib.paths import project_root

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def _notebook(body, seed=0):
    nb = new_notebook(
        cells=[
            new_markdown_cell("# title"),
            new_code_cell(f'profile = "full"\nseed = {seed}\n', metadata={"tags": ["parameters"]}),
            new_code_cell(body),
        ]
    )
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    return nb


FIG = (
    "import pandas as pd\n"
    "from graphsel_lib.collection.plotting import savefig, subplots\n"
    "from graphsel_lib.collection.tables import write_table\n"
    "fig, ax = subplots()\n"
    "ax.plot([0, 1], [seed, 1])\n"
    "savefig(fig, 'a_fig')\n"
    "write_table(pd.DataFrame({'seed': [seed]}), 'a_table')\n"
)
TABLE_ONLY = "import pandas as pd\nfrom graphsel_lib.collection.tables import write_table\nwrite_table(pd.DataFrame({'x': [1]}), 'b_table')\n"


@pytest.fixture(scope="module")
def ran(tmp_path_factory):
    root = tmp_path_factory.mktemp("prov")
    (root / "notebooks").mkdir()
    nbformat.write(_notebook(FIG), root / "notebooks" / "01_a.ipynb")
    nbformat.write(_notebook(TABLE_ONLY), root / "notebooks" / "02_b.ipynb")
    assert reproduce.main(["--jobs", "1", "--root", str(root)]) == 0
    return root


@pytest.fixture
def project(ran, tmp_path):
    root = tmp_path / "p"
    shutil.copytree(ran / "notebooks", root / "notebooks")
    shutil.copytree(ran / "figures", root / "figures")
    return root


def _stale(root, capsys, *extra):
    code = reproduce.main(["--root", str(root), "--stale", *extra])
    return code, capsys.readouterr().out


def test_manifest_records_every_published_file(ran):
    data = json.loads((ran / "figures" / provenance.MANIFEST).read_text())
    a = data["notebooks"]["01_a"]
    assert sorted(a["files"]) == ["a_fig.pdf", "a_fig.png", "a_table.csv", "a_table.md"]
    for name, digest in a["files"].items():
        assert provenance.file_hash(ran / "figures" / name) == digest
    assert a["source"] == provenance.notebook_hash(ran / "notebooks" / "01_a.ipynb")
    assert a["library"] == provenance.library_hash()
    assert (a["profile"], a["seed"], a["blas_threads"]) == (
        "full",
        0,
        reproduce.default_threads(1),
    )  # one job: every core
    assert sorted(data["notebooks"]["02_b"]["files"]) == ["b_table.csv", "b_table.md"]


def _without_seconds(raw: bytes) -> bytes:
    """The manifest's bytes with each run's wall time (``seconds``, never the same twice) blanked."""
    return re.sub(rb'"seconds": [0-9.]+', b'"seconds": _', raw)


def test_manifest_is_byte_deterministic(ran, tmp_path):
    """Same code, same run: the same manifest bytes but for the run times (no dates, no paths)."""
    before = (ran / "figures" / provenance.MANIFEST).read_bytes()
    root = tmp_path / "again"
    shutil.copytree(ran / "notebooks", root / "notebooks")
    assert reproduce.main(["--jobs", "1", "--root", str(root), "--only", "02"]) == 0
    shutil.copy(ran / "figures" / provenance.MANIFEST, root / "figures" / provenance.MANIFEST)
    assert reproduce.main(["--jobs", "1", "--root", str(root), "--only", "02"]) == 0
    after = (root / "figures" / provenance.MANIFEST).read_bytes()
    assert _without_seconds(after) == _without_seconds(before)
    assert b'"seconds": ' in after, "each run records its wall time (the course's study times use it)"
    assert b"/tmp" not in before and str(tmp_path).encode() not in before


def test_fresh_run_is_not_stale(project, capsys):
    code, out = _stale(project, capsys)
    assert code == 0, out
    assert "every committed figure and table was made by the current notebooks" in out


def test_edited_notebook_is_stale(project, capsys):
    path = project / "notebooks" / "01_a.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[2].source += "\nprint('an edit')\n"
    nbformat.write(nb, path)
    code, out = _stale(project, capsys)
    assert code == 1
    assert "01_a: the notebook changed since its figures were made" in out
    assert "02_b" not in out
    # a selection judges only the selected notebooks
    assert _stale(project, capsys, "--only", "02")[0] == 0


def test_outputs_and_metadata_do_not_count_as_edits(project, capsys):
    path = project / "notebooks" / "01_a.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.metadata["language_info"] = {"name": "python", "version": "3.99"}
    nb.cells[2].execution_count = 5
    nbformat.write(nb, path)
    assert _stale(project, capsys)[0] == 0


def test_changed_missing_and_unrecorded_files(project, capsys):
    figures = project / "figures"
    (figures / "a_table.csv").write_text("seed\n99\n")  # edited by hand
    (figures / "b_table.md").unlink()
    (figures / "old_figure.png").write_bytes(b"left over")
    code, out = _stale(project, capsys)
    assert code == 1
    assert "a_table.csv: changed since 01_a wrote it" in out
    assert "b_table.md: recorded for 02_b but missing" in out
    assert "old_figure.png: not recorded for any notebook" in out


def test_new_notebook_and_removed_notebook(project, capsys):
    shutil.copy(project / "notebooks" / "02_b.ipynb", project / "notebooks" / "03_c.ipynb")
    (project / "notebooks" / "01_a.ipynb").unlink()
    code, out = _stale(project, capsys)
    assert code == 1
    assert "03_c: no recorded run" in out
    assert "01_a: recorded, but there is no such notebook any more" in out


def test_other_seed_or_profile_is_stale(project, capsys):
    manifest = project / "figures" / provenance.MANIFEST
    data = json.loads(manifest.read_text())
    data["notebooks"]["01_a"]["seed"] = 3
    data["notebooks"]["02_b"]["profile"] = "smoke"
    manifest.write_text(json.dumps(data))
    code, out = _stale(project, capsys)
    assert code == 1
    assert "01_a: made with seed 3, the notebook's seed is 0" in out
    assert "02_b: made with profile 'smoke', not 'full'" in out


def test_other_library_is_reported_but_not_stale(project, capsys, monkeypatch):
    monkeypatch.setattr(provenance, "library_hash", lambda package_dir=None: "0" * 64)
    code, out = _stale(project, capsys)
    assert code == 0
    assert "2 notebook(s) made with another library version" in out and "01_a, 02_b" in out


def test_rerun_removes_files_the_notebook_no_longer_writes(project, capsys):
    path = project / "notebooks" / "01_a.ipynb"
    nb = nbformat.read(path, as_version=4)
    nb.cells[2].source = nb.cells[2].source.replace(
        "write_table(pd.DataFrame({'seed': [seed]}), 'a_table')\n", ""
    )
    nbformat.write(nb, path)
    assert reproduce.main(["--jobs", "1", "--root", str(project), "--only", "01"]) == 0
    out = capsys.readouterr().out
    assert "removed a_table.csv" in out
    assert not (project / "figures" / "a_table.csv").exists()
    assert _stale(project, capsys)[0] == 0


def test_notebook_hash_and_seed(tmp_path):
    p = tmp_path / "x.ipynb"
    nbformat.write(_notebook("x = 1", seed=42), p)
    h = provenance.notebook_hash(p)
    assert provenance.notebook_seed(p) == 42
    nb = nbformat.read(p, as_version=4)
    nb.cells[2].metadata["tags"] = ["remove-input"]  # a tag changes what the book shows: it counts
    nbformat.write(nb, p)
    assert provenance.notebook_hash(p) != h


def test_committed_figures_are_what_the_notebooks_make(capsys):
    """The guard: every file in figures/ was made by the committed notebooks (CI fails otherwise)."""
    root = project_root()
    code = reproduce.main(["--root", str(root), "--stale"])
    out = capsys.readouterr().out
    assert code == 0, "stale committed figures; re-run these notebooks (full profile):\n" + out


@pytest.mark.parametrize(
    "damage", [b"{not json", b"\xff\xfe\x00garbage", b'{"notebooks": {"01_a": 3}}', b'{"notebooks": []}']
)
def test_a_damaged_manifest_says_so_and_how_to_mend_it(tmp_path, damage):
    """It raised a raw JSONDecodeError, UnicodeDecodeError or AttributeError."""
    (tmp_path / provenance.MANIFEST).write_bytes(damage)
    with pytest.raises(ValueError, match="git checkout -- figures/PROVENANCE.json"):
        provenance.load(tmp_path)
