"""The text a reader sees must not drift from the numbers the code computes.

* A number quoted in a markdown cell (a decimal like ``0.157`` or ``.157``, a
  percentage like ``36 %``, or a count written with thousands separators like
  ``2,485``) must also occur in the notebook's code: as a value the code asserts,
  or as a published constant it prints beside ours. A number typed into prose
  from an earlier run, which no code checks, is what drifts. References
  (``Sec. 3.1``, ``Eq. 8b``, ``Table 2``, a year) are not numbers of this kind.
  A reading is rendered from the run by the library (``md(result.reading_x().render())``, in a cell
  tagged ``remove-input``, so the book shows the text and not the call), never typed into Markdown:
  a time typed into Markdown would be another machine's, a number another run's.
* The project's own files never cite internal planning documents ("SPEC"):
  the reader has the repository and the papers, so the rule itself is stated.
"""

import json
import re

import pytest

from graphsel_lib.paths import project_root

ROOT = project_root()
NOTEBOOKS = sorted((ROOT / "notebooks").rglob("*.ipynb"))
NOTEBOOKS = [p for p in NOTEBOOKS if ".ipynb_checkpoints" not in p.parts]

_MATH = re.compile(r"\$\$.*?\$\$|\$[^$\n]*\$", re.S)
_CODE = re.compile(r"```.*?```|`[^`\n]*`", re.S)
_LINK = re.compile(r"\]\([^)]*\)")
# a reference, not a measured number: "Sec. 3.1", "Eq. (8b)", "Table 2", "§4.1", "Thm 3", "v1.2", "0.3.31" ...
_REFERENCE = re.compile(
    r"(?:Sec\.|Secs\.|Section|Eq\.|Eqs\.|Fig\.|Figs\.|Table|Tables|§|Thm|Theorem|Lemma|Cor\.|Corollary|"
    r"Alg\.|Algorithm|Definition|Def\.|Prop\.|Proposition|Appendix|p\.|pp\.|version|v)\s*\(?$"
)
_NUMBER = re.compile(r"(?<![\w.\\/^_{-])(\d*\.\d+|\d{1,3}(?:,\d{3})+|\d+(?=\s?%))(?![\w.]*\d)")


def _cells(path):
    with open(path, encoding="utf-8") as fh:
        nb = json.load(fh)
    for i, cell in enumerate(nb["cells"]):
        src = cell.get("source", "")
        yield i, cell["cell_type"], "".join(src) if isinstance(src, list) else src


def _variants(number: str) -> set[str]:
    """Ways code may write the same number: ``2,485`` as ``2485`` or ``2_485``; ``.157`` as ``0.157``."""
    plain = number.replace(",", "")
    out = {number, plain, number.replace(",", "_")}
    if plain.startswith("."):
        out.add("0" + plain)
    if plain.startswith("0."):
        out.add(plain[1:])
    if "." in plain:
        out.add(plain.rstrip("0").rstrip("."))
    return out


def quoted_numbers(markdown: str) -> list[str]:
    r"""Numbers in the prose of a markdown cell (math, code spans and link targets removed).

    >>> quoted_numbers("### 2.1 Cora\nerror .157 (Sec. 3.1, Table 2), 2,485 nodes, 36 % of $x_{0.5}$ and 1e-3")
    ['.157', '2,485', '36']
    """
    text = _LINK.sub("]", _CODE.sub(" ", _MATH.sub(" ", markdown)))
    out = []
    for m in _NUMBER.finditer(text):
        if _REFERENCE.search(text[max(0, m.start() - 14) : m.start()].rstrip()):
            continue
        line_start = text[text.rfind("\n", 0, m.start()) + 1 : m.start()]
        if re.fullmatch(r"\s*#+\s*", line_start):  # a section number in a heading
            continue
        out.append(m.group(1))
    return out


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_numbers_in_prose_are_checked_by_code(path):
    cells = list(_cells(path))
    code = "\n".join(src for _, kind, src in cells if kind == "code")
    code_numbers = set(re.findall(r"\d[\d_]*\.?\d*|\.\d+", code))
    missing = []
    for i, kind, src in cells:
        if kind != "markdown":
            continue
        for number in quoted_numbers(src):
            if not (_variants(number) & code_numbers) and not any(v in code for v in _variants(number)):
                missing.append(f"cell {i}: {number}")
    assert not missing, (
        f"{path.name}: numbers in markdown that no code cell computes, asserts or prints as published "
        "(render the sentence from the value with graphsel_lib.collection.report.md, or assert it just before):\n  "
        + "\n  ".join(missing)
    )


def _project_text_files():
    files = [
        ROOT / "README.md",
        ROOT / "data" / "README.md",
        ROOT / "environment.yml",
        ROOT / "pyproject.toml",
    ]
    files += sorted((ROOT / "graphsel_lib").rglob("*.py")) + sorted((ROOT / "benchmarks").glob("*.py"))
    return [p for p in files if p.is_file()]


def test_no_file_cites_the_internal_spec():
    pattern = re.compile(r"\bSPEC\b")
    hits = []
    for path in NOTEBOOKS:
        for i, _, src in _cells(path):
            if pattern.search(src):
                hits.append(f"{path.relative_to(ROOT)} cell {i}")
    for path in _project_text_files():
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{n}")
    assert not hits, "state the rule itself instead of citing SPEC:\n  " + "\n  ".join(hits)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_each_rendered_reading_shows_only_its_text(path):
    """A cell that renders a reading (``md(....render())``) is tagged ``remove-input``: the book shows the text."""
    with open(path, encoding="utf-8") as fh:
        cells = json.load(fh)["cells"]
    bad = []
    for i, cell in enumerate(cells):
        src = "".join(cell.get("source", ""))
        if cell["cell_type"] == "code" and re.fullmatch(r"md\(.*\.render\(\)\)", src.strip(), re.S):
            if "remove-input" not in cell.get("metadata", {}).get("tags", []):
                bad.append(f"cell {i}: not tagged remove-input")
    assert not bad, f"{path.name}: " + "; ".join(bad)
