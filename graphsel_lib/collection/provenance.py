"""Where every committed figure and table comes from: ``figures/PROVENANCE.json``.

When the runner (:mod:`graphsel_lib.collection.reproduce`) has executed a notebook and
published its files, it records for that notebook

* ``source``: a hash of the notebook's cells (type, tags and source text; not
  its metadata or outputs), so that editing a cell makes its figures stale;
* ``library``: a hash of every ``graphsel_lib/**/*.py`` file;
* ``profile``, ``seed`` (the injected one, or the notebook's own default) and
  ``blas_threads`` (the thread count the kernel's BLAS was pinned to);
* ``files``: each published file with the SHA-256 of its bytes;
* ``seconds``: the run's wall time (the course's *Time* lines use the chapters').

The manifest is deterministic (sorted keys, no dates): running the same
code twice writes the same manifest, except for the hashes of tables that hold
wall times and the ``seconds`` of each run.

:func:`check` compares the manifest with the working tree and reports, in
separate lists, what makes the committed figures untrustworthy (a notebook
edited since its figures were made, a file no notebook claims, a recorded file
missing or changed by hand, figures made with another profile or seed) and
what is only informational (figures made with another library hash).
"""

from __future__ import annotations

import ast
import contextlib
import dataclasses
import hashlib
import json
from pathlib import Path

from .._atomic import atomic_write

__all__ = [
    "MANIFEST",
    "Report",
    "check",
    "file_hash",
    "library_hash",
    "load",
    "notebook_hash",
    "notebook_seed",
    "record",
]

#: Name of the manifest inside a figures folder.
MANIFEST = "PROVENANCE.json"
_VERSION = 1


def file_hash(path) -> str:
    """SHA-256 of a file's bytes (hex)."""
    h = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def _cells(path):
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    for cell in nb.get("cells", []):
        src = cell.get("source", "")
        yield (
            cell.get("cell_type"),
            sorted(cell.get("metadata", {}).get("tags", [])),
            ("".join(src) if isinstance(src, list) else src),
        )


def notebook_hash(path) -> str:
    """Hash of a notebook's cells: type, tags and source (metadata and outputs ignored)."""
    payload = json.dumps(list(_cells(path)), ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def notebook_seed(path):
    """The ``seed`` assigned in the notebook's ``parameters`` cell (a literal), or ``None``."""
    for _, tags, source in _cells(path):
        if "parameters" not in tags:
            continue
        try:
            tree = ast.parse(source)
        except SyntaxError:
            return None
        for node in tree.body:
            if isinstance(node, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "seed" for t in node.targets
            ):
                with contextlib.suppress(ValueError):
                    return ast.literal_eval(node.value)
        return None
    return None


def library_hash(package_dir=None) -> str:
    """Hash of every ``*.py`` file of the library (relative path and bytes, in path order)."""
    root = Path(package_dir) if package_dir is not None else Path(__file__).resolve().parent.parent
    h = hashlib.sha256()
    for p in sorted(root.rglob("*.py")):
        if "__pycache__" in p.parts:
            continue
        h.update(p.relative_to(root).as_posix().encode("utf-8") + b"\0")
        h.update(p.read_bytes() + b"\0")
    return h.hexdigest()


def load(figures_dir) -> dict:
    """The manifest of ``figures_dir`` (an empty one if there is none)."""
    path = Path(figures_dir) / MANIFEST
    if not path.is_file():
        return {"version": _VERSION, "notebooks": {}}
    fix = "restore it (git checkout -- figures/PROVENANCE.json) or delete it and re-run the notebooks"
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ValueError(f"{path} is damaged, not a JSON provenance manifest ({exc}); {fix}") from None
    if not isinstance(data, dict) or not isinstance(data.get("notebooks"), dict):
        raise ValueError(f"{path} is not a provenance manifest (no 'notebooks' mapping); {fix}")
    bad = [
        k
        for k, v in data["notebooks"].items()
        if not isinstance(v, dict) or not isinstance(v.get("files"), dict)
    ]
    if bad:
        raise ValueError(f"{path}: the entries of {bad[:3]} are damaged (no 'files' mapping); {fix}")
    return data


@contextlib.contextmanager
def _locked(figures_dir):
    """Serialise read-modify-write of the manifest between processes (POSIX advisory lock)."""
    figures_dir = Path(figures_dir)
    figures_dir.mkdir(parents=True, exist_ok=True)
    lock = figures_dir.parent / f".{figures_dir.name}.provenance.lock"
    with open(lock, "a") as fh:
        try:
            import fcntl

            fcntl.flock(fh, fcntl.LOCK_EX)
        except ImportError:  # pragma: no cover - Windows: no lock, the runner is sequential there
            pass
        yield


def record(
    figures_dir, notebook, files, *, profile, seed, blas_threads=None, library=None, seconds=None
) -> dict:
    """Record that ``notebook`` (a path) just wrote ``files`` (names relative to ``figures_dir``).

    ``seconds``, the run's wall time, is kept for the course's time estimates (a chapter's *Time* line).

    Replaces the notebook's previous entry and returns the names that entry
    listed but this run did not write (the caller decides whether to delete
    them). The manifest is written atomically.
    """
    figures_dir, notebook = Path(figures_dir), Path(notebook)
    entry = {
        "source": notebook_hash(notebook),
        "library": library or library_hash(),
        "profile": profile,
        "seed": notebook_seed(notebook) if seed is None else seed,
        "blas_threads": blas_threads,
        "files": {name: file_hash(figures_dir / name) for name in sorted(files)},
    }
    if seconds is not None:
        entry["seconds"] = round(float(seconds), 1)
    with _locked(figures_dir):
        data = load(figures_dir)
        old = data["notebooks"].get(notebook.stem, {}).get("files", {})
        data["version"] = _VERSION
        data["notebooks"][notebook.stem] = entry
        data["notebooks"] = dict(sorted(data["notebooks"].items()))
        with atomic_write(figures_dir / MANIFEST, "w", encoding="utf-8", newline="\n") as fh:
            json.dump(data, fh, indent=1, sort_keys=True, ensure_ascii=False)
            fh.write("\n")
    return sorted(set(old) - set(entry["files"]))


@dataclasses.dataclass
class Report:
    """What :func:`check` found; ``stale`` is non-empty exactly when the figures cannot be trusted."""

    stale: list = dataclasses.field(default_factory=list)  # (notebook, reason)
    files: list = dataclasses.field(default_factory=list)  # (file, reason)
    other_library: list = dataclasses.field(default_factory=list)  # notebooks
    library: str = ""

    @property
    def ok(self) -> bool:
        return not self.stale and not self.files

    def lines(self) -> list[str]:
        out = []
        if self.stale:
            out.append(f"{len(self.stale)} notebook(s) whose committed figures are not what the code makes:")
            out += [f"  {nb}: {why}" for nb, why in self.stale]
        if self.files:
            out.append(f"{len(self.files)} file(s) in the figures folder that no recorded run made:")
            out += [f"  {name}: {why}" for name, why in self.files]
        if self.other_library:
            out.append(
                f"{len(self.other_library)} notebook(s) made with another library version "
                f"(graphsel_lib changed since; re-run them to refresh): " + ", ".join(self.other_library)
            )
        if self.ok:
            out.insert(0, "every committed figure and table was made by the current notebooks")
        return out


def check(notebooks, figures_dir, *, profile="full", library=None) -> Report:
    """Compare the manifest of ``figures_dir`` with the notebooks (paths) and the files on disk."""
    figures_dir = Path(figures_dir)
    data = load(figures_dir)
    recorded = data["notebooks"]
    lib = library or library_hash()
    report = Report(library=lib)
    by_stem = {Path(nb).stem: Path(nb) for nb in notebooks}
    for stem, nb in by_stem.items():
        entry = recorded.get(stem)
        if entry is None:
            report.stale.append((stem, "no recorded run: run it to make its figures"))
            continue
        reasons = []
        if entry.get("source") != notebook_hash(nb):
            reasons.append("the notebook changed since its figures were made")
        if entry.get("profile") != profile:
            reasons.append(f"made with profile {entry.get('profile')!r}, not {profile!r}")
        default_seed = notebook_seed(nb)
        if default_seed is not None and entry.get("seed") != default_seed:
            reasons.append(f"made with seed {entry.get('seed')!r}, the notebook's seed is {default_seed!r}")
        if reasons:
            report.stale.append((stem, "; ".join(reasons)))
        if entry.get("library") != lib:
            report.other_library.append(stem)
    for stem in sorted(set(recorded) - set(by_stem)):
        report.stale.append((stem, "recorded, but there is no such notebook any more"))
    for stem, entry in recorded.items():
        for name, digest in entry.get("files", {}).items():
            path = figures_dir / name
            if not path.is_file():
                report.files.append((name, f"recorded for {stem} but missing"))
            elif file_hash(path) != digest:
                report.files.append((name, f"changed since {stem} wrote it"))
    on_disk = {
        p.relative_to(figures_dir).as_posix()
        for p in figures_dir.rglob("*")
        if p.is_file() and p.name != MANIFEST and not p.name.startswith(".")
    }
    for name in sorted(on_disk - {n for e in recorded.values() for n in e.get("files", {})}):
        report.files.append((name, "not recorded for any notebook (left over, or written by hand)"))
    report.stale.sort()
    report.files.sort()
    report.other_library.sort()
    return report
