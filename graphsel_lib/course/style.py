"""One plotting style and one ``savefig`` for every figure of the project.

The chapters' figures (:mod:`graphsel_lib.course.figures`) and the papers' figures draw with it;
notebooks reach it as ``graphsel_lib.collection.plotting``, which re-exports it.

Every figure of the project goes through :func:`savefig`, which writes
``<figures_dir()>/NAME.png`` and ``NAME.pdf`` (or ``.svg``) atomically (an
interrupted run never leaves a half-written file) and with date-free,
version-free metadata, so that re-running a notebook that computes the same
numbers changes no byte of the committed figures. Inside a notebook it then
shows the PNG it wrote, so the reader sees exactly the file in ``figures/``.

Every algorithm has one colour and one marker (:func:`algorithm_style`), so
that GPA, OLLGC, SSLGC, CMOG, MSG, BBQ, BBQ-eps, DGS, random sampling and the
relaxation learner look the same in every figure; :func:`style` applies fixed
figure and font sizes. Nothing here calls ``plt.show``: the code runs headless
(``MPLBACKEND=agg``) as well as inline in Jupyter.

Examples
--------
>>> s = algorithm_style("BBQ_eps")
>>> s == algorithm_style("BBQ-ε") == algorithm_style("bbq-eps (h=0.1)")
True
>>> sorted(s)
['color', 'linestyle', 'marker']
>>> canonical_name("random sampling")
'Random'
"""

from __future__ import annotations

import contextlib
import re
import zlib
from pathlib import Path

import matplotlib
import matplotlib.pyplot as plt
from cycler import cycler
from matplotlib.figure import Figure

from .._atomic import atomic_path
from ..paths import figures_dir
from .display import in_kernel

__all__ = [
    "ALGORITHM_STYLES",
    "FIGSIZES",
    "RC_PARAMS",
    "COLOR_CYCLE",
    "SAVE_FORMATS",
    "algorithm_style",
    "apply_style",
    "show",
    "canonical_name",
    "figure_path",
    "savefig",
    "style",
    "subplots",
]

#: Fixed figure sizes in inches: a single column, a full text width, a row of panels.
FIGSIZES = {
    "single": (3.4, 2.6),
    "square": (3.4, 3.4),
    "wide": (7.0, 2.8),
    "panel": (7.0, 5.0),
}

#: Colour-blind-safe cycle (Okabe & Ito) used for anything that is not an algorithm.
COLOR_CYCLE = ["#0072B2", "#E69F00", "#009E73", "#D55E00", "#CC79A7", "#56B4E9", "#F0E442", "#000000"]

#: Keep SVG ids (and hence bytes) stable across runs.
SVG_HASHSALT = "graphsel"

#: The one style of the project (applied by :func:`style` and :func:`apply_style`).
RC_PARAMS = {
    "figure.figsize": FIGSIZES["single"],
    "figure.dpi": 100,
    "figure.constrained_layout.use": True,
    "savefig.dpi": 200,
    "savefig.bbox": None,
    "savefig.facecolor": "white",
    "font.size": 9,
    "axes.titlesize": 9,
    "axes.labelsize": 9,
    "xtick.labelsize": 8,
    "ytick.labelsize": 8,
    "legend.fontsize": 7.5,
    "legend.frameon": False,
    "lines.linewidth": 1.4,
    "lines.markersize": 4.5,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.prop_cycle": cycler(color=COLOR_CYCLE),
    "image.cmap": "viridis",
    "svg.hashsalt": SVG_HASHSALT,
    "pdf.compression": 6,
}

#: One look per algorithm: ``ax.plot(x, y, **ALGORITHM_STYLES["MSG"], label="MSG")``.
ALGORITHM_STYLES = {
    # online learners on graphs (gu2013, herbster2006, yang2016)
    "GPA": {"color": "#1f77b4", "marker": "o", "linestyle": "-"},
    "OLLGC": {"color": "#ff7f0e", "marker": "s", "linestyle": "-"},
    "SSLGC": {"color": "#2ca02c", "marker": "^", "linestyle": "-"},
    "CMOG": {"color": "#d62728", "marker": "D", "linestyle": "-"},
    "MSG": {"color": "#9467bd", "marker": "v", "linestyle": "-"},
    "BBQ": {"color": "#8c564b", "marker": "<", "linestyle": "-"},
    "BBQ-eps": {"color": "#e377c2", "marker": ">", "linestyle": "-"},
    "DGS": {"color": "#17becf", "marker": "p", "linestyle": "-"},
    "Random": {"color": "#7f7f7f", "marker": "x", "linestyle": "--"},
    "relaxation": {"color": "#bcbd22", "marker": "*", "linestyle": "-"},
    "FastONL": {"color": "#000000", "marker": "h", "linestyle": "-."},
    "WTA": {"color": "#009E73", "marker": "P", "linestyle": "none"},  # Cesa-Bianchi et al. 2013 (chapter 13)
    # pool-based strategies (gs.active)
    "S2": {"color": "#D55E00", "marker": "o", "linestyle": "-"},
    "EER": {"color": "#0072B2", "marker": "s", "linestyle": "-"},
    # transductive methods (zhang2006, gaertner2005, gu2013 Eq. 2)
    "LLGC": {"color": "#393b79", "marker": "d", "linestyle": ":"},
    "HEM": {"color": "#637939", "marker": "o", "linestyle": ":"},
    "CMN": {"color": "#8c6d31", "marker": "s", "linestyle": ":"},
    "MinEnt": {"color": "#843c39", "marker": "^", "linestyle": ":"},
    "LOOHL": {"color": "#7b4173", "marker": "D", "linestyle": ":"},
    "TGP": {"color": "#3182bd", "marker": "P", "linestyle": ":"},
}

_ALIASES = {
    "bbqeps": "BBQ-eps",
    "bbqε": "BBQ-eps",
    "bbqepsilon": "BBQ-eps",
    "random": "Random",
    "randomsampling": "Random",
    "rand": "Random",
    "randompool": "Random",
    "relax": "relaxation",
    "relaxationlearner": "relaxation",
    "perceptron": "GPA",
    "graphperceptron": "GPA",
    "harmonic": "HEM",
    "transductivegp": "TGP",
    "gp": "TGP",
}
_FALLBACK_MARKERS = ["o", "s", "^", "D", "v", "<", ">", "p", "h", "*"]


def _key(name: str) -> str:
    return re.sub(r"[^0-9a-zε]", "", name.lower())


_LOOKUP = {_key(k): k for k in ALGORITHM_STYLES} | _ALIASES


def canonical_name(name: str) -> str | None:
    """The key of :data:`ALGORITHM_STYLES` that ``name`` refers to, or ``None``.

    Case, spaces, ``-`` and ``_`` are ignored, and anything after the first
    space or parenthesis is tried away (``"SSLGC (kappa=0.4)"`` is SSLGC).
    """
    if not isinstance(name, str):
        raise TypeError(f"algorithm name must be a str, got {type(name).__name__}")
    for candidate in (name, re.split(r"[\s(\[,:;=]", name.strip(), maxsplit=1)[0]):
        hit = _LOOKUP.get(_key(candidate))
        if hit is not None:
            return hit
    return None


def algorithm_style(name: str, *, published: bool = False) -> dict:
    """Colour, marker and line style of an algorithm, the same in every figure.

    Parameters
    ----------
    name : str
        Algorithm name, e.g. ``"GPA"``, ``"OLLGC"``, ``"SSLGC"``, ``"CMOG"``,
        ``"MSG"``, ``"BBQ"``, ``"BBQ-eps"`` (also ``BBQ_eps``, ``BBQEps``, ``BBQ-ε``),
        ``"DGS"``, ``"Random"``, ``"relaxation"``; case-insensitive. Unknown
        names get a colour and marker derived from a checksum of the name, so
        they too are stable across runs.
    published : bool, default False
        Style for the number published in a paper, drawn beside ours: the
        same colour, a dashed line and an open marker.

    Returns
    -------
    dict
        ``{"color", "marker", "linestyle"}`` (plus ``markerfacecolor`` when
        ``published``), ready for ``ax.plot(x, y, **style, label=...)``.
    """
    key = canonical_name(name)
    if key is not None:
        out = dict(ALGORITHM_STYLES[key])
    else:
        h = zlib.crc32(name.encode("utf-8"))
        out = {
            "color": COLOR_CYCLE[h % len(COLOR_CYCLE)],
            "marker": _FALLBACK_MARKERS[(h // len(COLOR_CYCLE)) % len(_FALLBACK_MARKERS)],
            "linestyle": "-",
        }
    if published:
        out["linestyle"] = "--"
        out["markerfacecolor"] = "none"
    return out


@contextlib.contextmanager
def style(**overrides):
    """Context manager applying the project style (:data:`RC_PARAMS` plus ``overrides``).

    >>> with style():
    ...     fig, ax = plt.subplots()
    >>> tuple(fig.get_size_inches()) == FIGSIZES["single"]
    True
    >>> plt.close(fig)
    """
    with matplotlib.rc_context({**RC_PARAMS, **overrides}):
        yield


def apply_style(**overrides) -> None:
    """Apply the project style globally (for the rest of a notebook)."""
    matplotlib.rcParams.update({**RC_PARAMS, **overrides})


def subplots(nrows: int = 1, ncols: int = 1, *, size: str | tuple = "single", **kwargs):
    """``plt.subplots`` in the project style with a fixed figure size.

    ``size`` is a key of :data:`FIGSIZES` or a ``(width, height)`` in inches.
    It applies the style globally first (:func:`apply_style`), because some
    artists (legends, ticks added at draw time) read the style when they are
    created, after this call returns; use ``with style():`` around the whole
    figure code to keep the global settings untouched instead.
    """
    if isinstance(size, str):
        try:
            figsize = FIGSIZES[size]
        except KeyError:
            raise ValueError(f"unknown figure size {size!r}; choose one of {sorted(FIGSIZES)}") from None
    else:
        figsize = tuple(size)
    apply_style()
    return plt.subplots(nrows, ncols, figsize=figsize, **kwargs)


#: Metadata per format: no date, no software version, so equal figures give equal bytes.
SAVE_FORMATS = {
    "png": {"Software": None},
    "pdf": {"Creator": None, "Producer": None, "CreationDate": None, "ModDate": None},
    "svg": {"Creator": None, "Date": None},
}
_NAME_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+=-]*$")


def figure_path(name: str, fmt: str, *, directory=None) -> Path:
    """Where :func:`savefig` writes ``name`` in format ``fmt``."""
    if not isinstance(name, str) or not _NAME_RE.match(name) or ".." in name:
        raise ValueError(
            f"figure name must be a plain file name (letters, digits, _ . + = -), "
            f"without folder: got {name!r}"
        )
    if fmt not in SAVE_FORMATS:
        raise ValueError(f"unsupported figure format {fmt!r}; choose from {sorted(SAVE_FORMATS)}")
    if "." in name and name.rsplit(".", 1)[1].lower() in {*SAVE_FORMATS, "eps", "jpg", "jpeg", "csv", "md"}:
        raise ValueError(f"give the figure name without extension: {name!r}")
    return Path(figures_dir() if directory is None else directory) / f"{name}.{fmt}"


#: Screen resolution at which a notebook shows a saved PNG (a 7-inch figure is 700 px wide).
DISPLAY_DPI = 100


def _show_png(path_or_bytes, fig) -> None:
    from IPython.display import Image, display

    width = round(fig.get_figwidth() * DISPLAY_DPI)
    if isinstance(path_or_bytes, bytes):
        display(Image(data=path_or_bytes, width=width))
    else:
        display(Image(filename=str(path_or_bytes), width=width))


def show(fig) -> None:
    """Display ``fig`` inline as a PNG and close it, writing no file (explorers, throw-away views).

    Works with any backend, the pipeline's ``agg`` included (where
    ``plt.show()`` shows nothing), and inside an ipywidgets output: the
    drawing an explorer redraws on every move of a slider.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"show needs a matplotlib Figure, got {type(fig).__name__}")
    import io

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=RC_PARAMS["savefig.dpi"], metadata=dict(SAVE_FORMATS["png"]))
    plt.close(fig)
    _show_png(buf.getvalue(), fig)


def _interrupted(exc: BaseException) -> bool:
    """True if a ``KeyboardInterrupt`` is among the exceptions ``exc`` was raised while handling.

    matplotlib's PDF writer closes its stream in a ``finally``: a Ctrl-C that lands in its compressor
    leaves the stream inconsistent, and the clean-up raises ``zlib.error`` over the interrupt.
    """
    seen = set()
    while exc is not None and id(exc) not in seen:
        if isinstance(exc, KeyboardInterrupt):
            return True
        seen.add(id(exc))
        exc = exc.__context__
    return False


def savefig(
    fig, name: str, *, formats=("png", "pdf"), directory=None, dpi=None, close=False, show=None
) -> list[Path]:
    """Write ``fig`` as ``NAME.png`` and ``NAME.pdf`` in :func:`~graphsel_lib.paths.figures_dir`.

    Each file is written to a temporary name and renamed when complete, so an
    interrupted or failed save leaves the previous file intact; a Ctrl-C raises
    ``KeyboardInterrupt`` even where matplotlib's clean-up fails after it. The metadata
    holds no date and no version (PNG without ``Software``, PDF without
    ``CreationDate``/``ModDate``/``Producer``/``Creator``, SVG with a fixed hash
    salt and no ``Date``): saving the same figure twice gives identical bytes.

    Parameters
    ----------
    fig : matplotlib.figure.Figure
    name : str
        File name without extension or folder, e.g. ``"gu2013_fig1_cora"``.
    formats : sequence of {"png", "pdf", "svg"}, default ("png", "pdf")
    directory : path-like, optional
        Target folder; default ``$GRAPHSEL_FIGURES`` or ``<project>/figures``.
    dpi : float, optional
        Raster resolution (PNG); default ``RC_PARAMS["savefig.dpi"]``.
    close : bool, default False
        Close the figure after saving.
    show : bool, optional
        Display the written PNG in the notebook and close the figure (so that
        an inline backend does not draw it a second time). Default: inside a
        Jupyter kernel, when ``"png"`` is among ``formats``.

    Returns
    -------
    list of pathlib.Path
        The written files, in the order of ``formats``.

    Raises
    ------
    ValueError
        Bad ``name`` (folder, extension, odd characters) or unknown format.
    TypeError
        ``fig`` is not a matplotlib figure.
    """
    if not isinstance(fig, Figure):
        raise TypeError(f"savefig needs a matplotlib Figure, got {type(fig).__name__}")
    if isinstance(formats, str):
        formats = (formats,)
    if not formats:
        raise ValueError("formats must name at least one format")
    paths = [figure_path(name, fmt, directory=directory) for fmt in formats]
    dpi = RC_PARAMS["savefig.dpi"] if dpi is None else dpi
    written = []
    with matplotlib.rc_context({"svg.hashsalt": SVG_HASHSALT}):
        for fmt, path in zip(formats, paths, strict=True):
            with atomic_path(path) as tmp:
                try:
                    fig.savefig(tmp, format=fmt, dpi=dpi, metadata=dict(SAVE_FORMATS[fmt]))
                except Exception as exc:
                    if _interrupted(exc):  # Ctrl-C inside a writer whose own clean-up then failed
                        raise KeyboardInterrupt from exc
                    raise
            written.append(path)
    if show is None:
        show = "png" in formats and in_kernel()
    if show:
        _show_png(paths[list(formats).index("png")], fig)
    if close or show:
        plt.close(fig)
    return written
