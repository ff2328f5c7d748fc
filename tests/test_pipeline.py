"""The smoke pipeline runs every real notebook headless and produces its figures."""

import json

import nbformat
import pytest

from graphsel_lib.paths import project_root

NOTEBOOKS = sorted((project_root() / "notebooks").glob("[0-9][0-9]_*.ipynb"))


@pytest.mark.slow
@pytest.mark.skipif(not NOTEBOOKS, reason="no notebooks yet")
def test_smoke_pipeline_runs_every_notebook(smoke_run):
    build, figures, status, before = smoke_run
    assert status == 0, "a notebook failed in the smoke profile (see the report above)"
    produced = {p.name for p in figures.iterdir()}
    for nb in NOTEBOOKS:
        prefix = nb.name[:2] + "_"
        assert any(name.startswith(prefix) and name.endswith(".png") for name in produced), (
            f"{nb.name} wrote no figure"
        )
        executed = nbformat.read(build / "smoke" / "notebooks" / nb.name, as_version=4)
        params = [c for c in executed.cells if "injected-parameters" in c.metadata.get("tags", [])]
        assert params and 'profile = "smoke"' in params[0].source
        # what the book shows: every figure the notebook wrote is displayed in its executed copy
        shown = sum("image/png" in o.get("data", {}) for c in executed.cells for o in c.get("outputs", []))
        written = sum(1 for name in produced if name.startswith(prefix) and name.endswith(".png"))
        assert shown >= written, f"{nb.name} wrote {written} figures but displays {shown}"
    # every worked solution ran (and so every one of its checks passed)
    for sol in sorted((project_root() / "notebooks" / "solutions").glob("[0-9][0-9]_*.ipynb")):
        assert (build / "smoke" / "notebooks" / sol.name).is_file(), f"solutions/{sol.name} did not run"
    # sources untouched, figures never written into the committed folder
    assert all(p.read_bytes() == before[p] for p in NOTEBOOKS)
    summary = json.loads((build / "smoke" / "reproduce_summary.json").read_text())
    assert summary
