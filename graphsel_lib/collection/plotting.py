"""One plotting style and one ``savefig`` for every notebook (the only module importing matplotlib).

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
from .report import in_kernel

__all__ = [
    "ALGORITHM_STYLES",
    "FIGSIZES",
    "RC_PARAMS",
    "SAVE_FORMATS",
    "algorithm_style",
    "apply_style",
    "show",
    "canonical_name",
    "chapter_map",
    "datasets_overview",
    "math_label",
    "msg_h_sweep_figure",
    "msg_query_anatomy_figure",
    "msg_tradeoff_figure",
    "bbq_scaling_figure",
    "query_raster_figure",
    "query_ratio_figure",
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


def savefig(
    fig, name: str, *, formats=("png", "pdf"), directory=None, dpi=None, close=False, show=None
) -> list[Path]:
    """Write ``fig`` as ``NAME.png`` and ``NAME.pdf`` in :func:`~graphsel_lib.paths.figures_dir`.

    Each file is written to a temporary name and renamed when complete, so an
    interrupted or failed save leaves the previous file intact. The metadata
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
                fig.savefig(tmp, format=fmt, dpi=dpi, metadata=dict(SAVE_FORMATS[fmt]))
            written.append(path)
    if show is None:
        show = "png" in formats and in_kernel()
    if show:
        _show_png(paths[list(formats).index("png")], fig)
    if close or show:
        plt.close(fig)
    return written


#: Box colours of the chapter map, by difficulty.
DIFFICULTY_COLORS = {"Introductory": "#cfe8cf", "Intermediate": "#cfe0f5", "Advanced": "#f5d9cf"}


def chapter_map(boxes, arrows, *, ax=None):
    """Draw the course's chapter map from :func:`graphsel_lib.collection.course.chapter_map_layout`; returns the figure."""
    from matplotlib.patches import Patch

    if ax is None:
        rows = len({b[1] for b in boxes.values()})
        lines = max(b[2].count("\n") + 1 for b in boxes.values())  # the number line and the wrapped title
        fig, ax = subplots(size=(7.0, (0.16 * lines + 0.3) * rows + 0.6))
    fig = ax.figure
    texts = {}
    for no, (x, y, label, difficulty) in boxes.items():
        box = dict(boxstyle="round,pad=0.35", fc=DIFFICULTY_COLORS.get(difficulty, "0.92"), ec="0.4", lw=0.6)
        texts[no] = ax.text(x, y, label, ha="center", va="center", fontsize=7, bbox=box)
    for a, b in arrows:  # from the bottom of the prerequisite's box to the top of the chapter's
        ax.annotate("", xy=(0.5, 1.0), xycoords=texts[b], xytext=(0.5, 0.0), textcoords=texts[a],
                    arrowprops=dict(arrowstyle="-|>", color="0.35", lw=0.9, shrinkA=4, shrinkB=4))  # fmt: skip
    xs = [b[0] for b in boxes.values()]
    ys = [b[1] for b in boxes.values()]
    ax.set_xlim(min(xs) - 1.2, max(xs) + 1.2)
    ax.set_ylim(min(ys) - 0.6, max(ys) + 0.6)
    ax.axis("off")
    handles = [Patch(fc=c, ec="0.4", lw=0.6, label=k) for k, c in DIFFICULTY_COLORS.items()]
    ax.legend(handles=handles, loc="upper left", fontsize=7, title="difficulty", title_fontsize=7)
    return fig


def datasets_overview(graphs, degree_sets):
    """Degree CCDFs of ``degree_sets`` (a) and the class shares of every graph in ``graphs`` (b); the figure.

    One colour and one marker per graph in (a), all in the legend; one colour per
    class in (b), the graphs in the order of ``graphs`` (a dict name -> Graph).
    """
    import numpy as np

    colors = [c for c in COLOR_CYCLE if c != "#F0E442"] + ["#882255"]  # no pale yellow on white
    markers = ["o", "s", "^", "D", "v", "P", "X", "*"]
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 4.4), gridspec_kw={"width_ratios": [1, 1.15]})
    for i, name in enumerate(degree_sets):
        deg = np.diff(graphs[name].adjacency.indptr)  # number of neighbours
        k = np.unique(deg)
        ccdf = (deg[None, :] >= k[:, None]).mean(axis=1)
        ax1.loglog(k, ccdf, drawstyle="steps-post", color=colors[i % len(colors)], marker=markers[i % 8],
                   markevery=0.08, ms=4, mfc="none", label=name)  # fmt: skip
    ax1.set_xlabel("degree $k$ (number of neighbours)")
    ax1.set_ylabel(r"fraction of nodes with degree $\geq k$")
    ax1.set_title("(a) degree distribution")
    fig.legend(*ax1.get_legend_handles_labels(), loc="outside lower center", ncol=4)
    cmap = matplotlib.colormaps["tab10"]
    names = list(graphs)
    for i, name in enumerate(names):
        shares = np.bincount(graphs[name].labels) / graphs[name].n_nodes
        lefts = np.concatenate([[0.0], np.cumsum(shares)[:-1]])
        ax2.barh([i] * len(shares), shares, left=lefts, color=[cmap(c % 10) for c in range(len(shares))],
                 edgecolor="white", linewidth=0.5, height=0.75)  # fmt: skip
    labels = [
        f"{n} (K={graphs[n].n_classes})" if graphs[n].n_classes > 1 else f"{n} (no labels)" for n in names
    ]
    ax2.set_yticks(range(len(names)), labels)
    ax2.invert_yaxis()
    ax2.set_xlim(0, 1)
    ax2.set_xlabel("share of nodes (one colour per class)")
    ax2.set_ylabel("graph ($K$ = number of classes)")
    ax2.set_title("(b) class proportions")
    ax2.grid(False)
    return fig


# --------------------------------------------------------------------------- chapters 01 and 02
def bin_edges_between(values, width, *, margin=1e-6):
    """Histogram bin edges of the given ``width`` with no value within ``margin · width`` of an edge.

    The edges sit at ``(k + ½) · width``, so the multiples of ``width`` (0, and
    1 when ``1/width`` is an integer) fall in the middle of a bar; if a value
    still lies closer than ``margin · width`` to an edge, the grid is shifted by a
    further fraction of a bin (¼, ¾, ⅛, …) until none does. A value that
    rounding in the last bits can move (the ~300 copies of the eigenvalue 1 of
    Cora's normalized Laplacian) then cannot change which bar it is counted in.
    The edges cover every value; ``ValueError`` if no shift keeps the margin.
    """
    import numpy as np

    v = np.asarray(values, dtype=float).ravel()
    if not v.size or not np.all(np.isfinite(v)):
        raise ValueError("values must be a non-empty array of finite numbers")
    if not width > 0:
        raise ValueError(f"width must be positive, got {width!r}")
    for shift in (0.5, 0.25, 0.75, 0.125, 0.375, 0.625, 0.875):
        pos = v / width - shift  # position in bins, edges at the integers
        if np.min(np.abs(pos - np.round(pos))) >= margin:
            return (np.arange(np.floor(pos.min()), np.ceil(pos.max()) + 1) + shift) * width
    raise ValueError(f"no bin grid of width {width} keeps every value {margin} bins away from an edge")


def laplacian_spectra(lam_L, lam_N, name, *, width_L=2.5, width_N=0.025, spike_label=None):
    """Histograms of the eigenvalues of ``L = D − S`` (a) and of ``L̃ = I − D^{-1/2} S D^{-1/2}`` (b); the figure.

    Log counts; bin edges from :func:`bin_edges_between`, so no eigenvalue sits
    on an edge (the default widths put the integers of (a) and the eigenvalue 1
    of (b) inside a bar). ``spike_label`` annotates the bar of the eigenvalue 1
    in (b). Chapter 01 §3.
    """
    fig, (ax1, ax2) = subplots(1, 2, size="wide")
    ax1.hist(lam_L, bins=bin_edges_between(lam_L, width_L), color=COLOR_CYCLE[0])
    ax1.set_xlabel(r"eigenvalue of $L = D - S$")
    ax1.set_title(f"(a) combinatorial Laplacian, {name}")
    counts, _, _ = ax2.hist(lam_N, bins=bin_edges_between(lam_N, width_N), color=COLOR_CYCLE[1])
    ax2.set_xlim(-0.05, 2.05)
    ax2.set_xlabel(r"eigenvalue of $\tilde L = I - D^{-1/2} S D^{-1/2}$")
    ax2.set_title(f"(b) normalized Laplacian, {name}")
    if spike_label:
        ax2.annotate(spike_label, (1.0, counts.max()), xytext=(12, -4), textcoords="offset points", fontsize=8,
                     va="top", arrowprops=dict(arrowstyle="-", color="0.3", lw=0.6))  # fmt: skip
    for ax in (ax1, ax2):
        ax.set_yscale("log")
        ax.set_ylabel("count")
    return fig


#: Chapter 01's labelling colours: +1, -1 and a cut edge (Okabe & Ito).
LABELLING_COLORS = {"plus": "#E69F00", "minus": "#0072B2", "cut": "#D55E00", "kept": "0.6"}


def draw_labelling(ax, S, pos, f, *, node_size=150):
    """Draw a ±1 labelling ``f`` of the graph ``S`` at positions ``pos``: cut edges dashed, on ``ax``.

    Nodes are filled by their label (:data:`LABELLING_COLORS`), the edges whose
    ends differ (the cut, ``Φ(f)`` of chapter 01 §4) dashed and coloured, the
    others thin grey. :func:`labelling_handles` gives the matching legend.
    """
    import networkx as nx

    G = nx.from_scipy_sparse_array(S)
    cut = [(i, j) for i, j in G.edges if f[i] != f[j]]
    kept = [(i, j) for i, j in G.edges if f[i] == f[j]]
    nx.draw_networkx_edges(G, pos, edgelist=kept, ax=ax, edge_color=LABELLING_COLORS["kept"], width=1.2)
    nx.draw_networkx_edges(
        G, pos, edgelist=cut, ax=ax, edge_color=LABELLING_COLORS["cut"], width=2.2, style="--"
    )
    nx.draw_networkx_nodes(G, pos, ax=ax, node_size=node_size, edgecolors="black", linewidths=0.6,
                           node_color=[LABELLING_COLORS["plus" if v > 0 else "minus"] for v in f])  # fmt: skip
    ax.set_axis_off()
    ax.margins(0.08)


def labelling_handles(symbol="g"):
    """Legend handles of :func:`draw_labelling`: the two labels, a cut edge and an uncut one."""
    from matplotlib.lines import Line2D

    c = LABELLING_COLORS
    return [Line2D([], [], marker="o", ls="", color=c["plus"], mec="black", label=f"${symbol}_i = +1$"),
            Line2D([], [], marker="o", ls="", color=c["minus"], mec="black", label=f"${symbol}_i = -1$"),
            Line2D([], [], color=c["cut"], ls="--", lw=2, label="cut edge"),
            Line2D([], [], color=c["kept"], lw=1.2, label="uncut edge")]  # fmt: skip


def labelling_explorer(S, pos, f, cuts, *, graph, order, max_K):
    """Chapter 01's explorer: the labelling ``f`` with its cut (a), the cut size along each node order (b).

    ``cuts`` maps an order's name to :func:`graphsel_lib.graph.cut_sizes_along`;
    the current labelling (``+1`` on ``k`` nodes of ``order``) is circled, and the
    dotted line ``Φ = n / (4 max_t K_tt)`` marks where the perceptron's mistake
    bound ``4 Φ max_t K_tt`` reaches the ``n`` rounds of one pass.
    """
    import numpy as np
    from matplotlib.ticker import MaxNLocator

    from ..graph import cut_size

    n, k, phi = len(f), int(np.sum(f > 0)), cut_size(S, f)
    bound = 4 * phi * max_K
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 3.3), width_ratios=[1.25, 1])
    draw_labelling(ax1, S, pos, f, node_size=90 if n > 20 else 150)
    ax1.set_title(f"(a) {graph}: {k} of {n} nodes $+1$ ({order} order)")
    ax1.text(0.5, -0.02, f"$\\Phi = {phi:.0f}$,  $f^\\top L f = {4 * phi:.0f} = 4\\Phi$\n"
             f"bound $4\\Phi\\max_t K_{{tt}} = {bound:.1f}$, {'below' if bound < n else 'above'} $n = {n}$",
             transform=ax1.transAxes, ha="center", va="top", fontsize=8)  # fmt: skip
    for (name, c), colour, marker in zip(cuts.items(), COLOR_CYCLE, ("o", "s"), strict=False):
        ax2.plot(range(n + 1), c, color=colour, marker=marker, ms=2.5, lw=1.0, label=f"{name} order")
    ax2.plot([k], [phi], "o", ms=9, mfc="none", mec="black", label="this labelling")
    ax2.axhline(n / (4 * max_K), color="0.3", ls=":", lw=1.0, label=r"bound $= n$")
    ax2.set_xlabel("number of nodes labelled $+1$")
    ax2.set_ylabel(r"cut size $\Phi$")
    ax2.set_title("(b) cut size along each order")
    ax2.set_ylim(0, None)
    ax2.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax2.legend(fontsize=7)
    fig.legend(handles=labelling_handles("f"), loc="outside lower center", ncol=4, fontsize=7)
    return fig


def kernel_bound_panels(panels, *, ncols=4):
    """Chapter 02's check of ``K_tt ≤ min(1/λ_2, ρ_t)`` and ``K_tt ≤ max_q r_eff(t, q)``: one panel per graph or family.

    ``panels`` is a list of ``(title, K_diag, bound, r_max)`` (``r_max`` may be
    ``None``). Every node is a point: ``K_tt`` against ``min(1/λ_2, ρ_t)`` (blue
    filled circles) and against ``max_q r_eff(t, q)`` (vermilion open triangles,
    drawn on top: where the two bounds coincide, as on a tree, a triangle rings
    its circle). Points on the dashed diagonal would meet the bound. Shared log
    axes; the figure.
    """
    import numpy as np
    from matplotlib.lines import Line2D

    values = np.concatenate([np.concatenate([a for a in p[1:] if a is not None]) for p in panels])
    lo, hi = values.min() / 1.5, values.max() * 1.5
    nrows = -(-len(panels) // ncols)
    fig, axes = subplots(nrows, ncols, size=(7.0, 1.65 * nrows + 0.75), sharex=True, sharey=True)
    axes = np.atleast_1d(axes).ravel()
    blue, red = "#0072B2", "#D55E00"
    for ax, (title, K_diag, bound, r_max) in zip(axes, panels, strict=False):
        ax.plot([lo, hi], [lo, hi], color="black", lw=0.8, ls="--")
        ax.scatter(bound, K_diag, s=7, marker="o", color=blue, alpha=0.6, lw=0, rasterized=True)
        if r_max is not None:
            ax.scatter(
                r_max, K_diag, s=9, marker="^", facecolor="none", edgecolor=red, lw=0.5, rasterized=True
            )
        ax.set_title(title, fontsize=8)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlim(lo, hi)
        ax.set_ylim(lo, hi)
        ax.tick_params(labelsize=7)
    for ax in axes[len(panels) :]:
        ax.set_axis_off()
    fig.supxlabel("bound on $K_{tt}$", fontsize=8)
    fig.supylabel(r"$K_{tt} = (L^+)_{tt}$", fontsize=8)
    handles = [Line2D([], [], marker="o", ls="", color=blue, label=r"$\min(1/\lambda_2,\ \rho_t)$"),
               Line2D([], [], marker="^", ls="", mfc="none", mec=red, label=r"$\max_q r_{\rm eff}(t, q)$"),
               Line2D([], [], color="black", lw=0.8, ls="--", label=r"$K_{tt}$ = bound")]  # fmt: skip
    fig.legend(handles=handles, loc="outside upper center", ncol=3, fontsize=8)
    return fig


# --------------------------------------------------------------------------- chapters 09 and 10: MSG and the query rules
_MATH_LABELS = [
    (re.compile(r"BBQ_eps"), r"BBQ$_\\varepsilon$"),
    (re.compile(r"\bkappa\s*=\s*([0-9.]+)"), r"$\\kappa$ = \1"),
    (re.compile(r"\beps\s*=\s*([0-9.]+)"), r"$\\varepsilon$ = \1"),
    (re.compile(r"\bh\s*=\s*1e-?0*(\d+)"), r"$h = 10^{-\1}$"),
    (re.compile(r"\bp\s*=\s*([0-9.]+)"), r"$p$ = \1"),
    (re.compile(r"Theta"), r"$\\Theta$"),
]


def math_label(name: str) -> str:
    """A learner's name as a figure shows it: symbols instead of parameter names.

    >>> math_label("BBQ, kappa=0.4")
    'BBQ, $\\\\kappa$ = 0.4'
    >>> math_label("BBQ_eps, eps=0.3")
    'BBQ$_\\\\varepsilon$, $\\\\varepsilon$ = 0.3'
    >>> math_label("MSG, h=1e-3")
    'MSG, $h = 10^{-3}$'
    """
    for pattern, repl in _MATH_LABELS:
        name = pattern.sub(repl, name)
    return name


def msg_h_sweep_figure(sweep, variants, published, n_nodes):
    """MSG's error and queries over ``h`` (notebook 09 §5): error vs ``h``, query ratio vs ``h``, error vs query ratio.

    Parameters
    ----------
    sweep : DataFrame
        Columns ``graph``, ``variant``, ``h``, ``error``, ``query ratio`` (one row per graph, variant and h).
    variants : sequence of two str
        The variants drawn, solid and dashed (filled and open markers).
    published : dict of str -> (float, float)
        yang2016 Table I: error and number of queries per graph (a star in (c)).
    n_nodes : dict of str -> int
        ``T`` per graph.
    """
    graphs = list(dict.fromkeys(sweep["graph"]))
    fig, axes = subplots(1, 3, size=(7.0, 3.4))
    ls = dict(zip(variants, ["-", "--"], strict=True))
    handles = []
    for i, name in enumerate(graphs):
        color, mk = COLOR_CYCLE[i], ["o", "s", "^", "D"][i % 4]
        for variant in variants:
            sub = sweep[(sweep["graph"] == name) & (sweep["variant"] == variant)]
            kw = dict(
                color=color, ls=ls[variant], marker=mk, ms=3.5, mfc=color if ls[variant] == "-" else "white"
            )
            axes[0].plot(sub["h"], sub["error"], **kw)
            axes[1].plot(sub["h"], sub["query ratio"], **kw)
            axes[2].plot(sub["query ratio"], sub["error"], **kw)
        pub_err, pub_q = published[name]
        axes[2].plot(pub_q / n_nodes[name], pub_err, marker="*", ms=10, color=color, ls="none",
                     markeredgecolor="black", markeredgewidth=0.5)  # fmt: skip
        handles += axes[0].plot([], [], color=color, marker=mk, ms=3.5, label=name)
    for variant in variants:
        handles += axes[0].plot([], [], color="grey", ls=ls[variant], marker="o", ms=3.5,
                                mfc="grey" if ls[variant] == "-" else "white", label=math_label(variant))  # fmt: skip
    handles += axes[0].plot([], [], marker="*", ms=8, ls="none", color="grey", markeredgecolor="black",
                            label="published (Table I)")  # fmt: skip
    for ax in axes[:2]:
        ax.set_xscale("log")
        ax.set_xlabel("$h$")
    axes[0].set(ylabel="cumulative error rate", title="(a) error vs $h$")
    axes[1].set(ylabel="query ratio", yscale="log", title="(b) queries vs $h$")
    axes[2].set(
        xlim=(0, 1), xlabel="query ratio", ylabel="cumulative error rate", title="(c) error vs query ratio"
    )
    fig.legend(handles=handles, loc="outside lower center", ncols=3, fontsize=7)
    return fig


def msg_query_anatomy_figure(trace, n_classes, *, title):
    """One MSG run (notebook 09 §5): (a) its query decisions in the plane ``(r_t, Δ_t)``; (b) the counts over ``t``.

    ``trace`` is a run of MSG recorded with ``("v", "margin", "aggressive")``; (a)
    draws the aggressive boundary ``Δ = Δ_agg(K, r)`` with ``K = n_classes``
    (margins below ``10^{-4}``, e.g. the 0 of the first round, are drawn at ``10^{-4}``).
    """
    import numpy as np

    v = trace.records["v"]
    r, delta, agg = v / (1 + v), trace.records["margin"], trace.records["aggressive"].astype(bool)
    rand_q = trace.queried & ~agg
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 3.5))
    kinds = [
        ("not queried", ~trace.queried, "#bbbbbb", "o"),
        ("queried at random", rand_q, COLOR_CYCLE[0], "s"),
        (r"aggressive ($\Theta_t<0$)", agg, COLOR_CYCLE[3], "^"),
    ]
    for label, mask, color, mk in kinds:
        ax1.scatter(r[mask], np.maximum(delta[mask], 1e-4), s=4, marker=mk, color=color, lw=0, alpha=0.7,
                    label=f"{label} ({mask.sum()})")  # fmt: skip
    grid = np.geomspace(1e-4, r.max(), 200)
    ax1.plot(grid, 2 * np.sqrt(1 + n_classes * grid / 2) - 2, color="black", lw=1,
             label=r"$\Delta = \Delta_{\rm agg}(K, r)$")  # fmt: skip
    ax1.set(
        xscale="log",
        yscale="log",
        xlabel=r"$r_t = v_t/(1+v_t)$",
        ylabel=r"margin $\Delta_t$ (clipped at $10^{-4}$)",
    )
    ax1.set_title(f"(a) {title}: query decisions")
    ax1.legend(fontsize=7, markerscale=2.5, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)
    t = np.arange(1, trace.n_rounds + 1)
    mk = dict(markevery=trace.n_rounds // 8, ms=3.5)
    msg = algorithm_style("MSG")
    ax2.plot(t, np.cumsum(agg), color=COLOR_CYCLE[3], marker="^", label="aggressive queries", **mk)
    ax2.plot(t, np.cumsum(rand_q), color=COLOR_CYCLE[0], marker="s", label="random queries", **mk)
    ax2.plot(
        t,
        np.cumsum(trace.mistakes),
        color=msg["color"],
        ls="--",
        marker=msg["marker"],
        label="mistakes",
        **mk,
    )
    ax2.plot(t, np.cumsum(trace.queried & trace.mistakes), color="black", ls=":", marker="o", mfc="white",
             label="queried mistakes", **mk)  # fmt: skip
    ax2.set(
        xlabel="round $t$",
        ylabel="count",
        title=f"(b) error {trace.error_rate:.3f}, {trace.n_queried} queries",
    )
    ax2.legend(fontsize=7, loc="upper center", bbox_to_anchor=(0.5, -0.22), ncols=2)
    return fig


def msg_tradeoff_figure(curve, h, trace, published, *, name, n_nodes, n_orders):
    """The explorer of notebook 09: error against query ratio over ``h`` (chosen ``h`` marked) and one run's queries.

    ``curve`` is a DataFrame indexed by ``h`` with columns ``error`` and
    ``query ratio`` (means over ``n_orders`` orders); ``trace`` a run at ``h``
    recorded with ``("aggressive",)``; ``published`` yang2016's (error, queries).
    """
    import numpy as np

    msg = algorithm_style("MSG")
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 3.2))
    ax1.plot(
        curve["query ratio"],
        curve["error"],
        color="0.6",
        marker="o",
        ms=3.5,
        lw=1,
        label="MSG, every h of the list",
    )
    for hh in (curve.index[0], curve.index[-1]):  # the two ends of the list
        ax1.annotate(f"h = {hh:g}", (curve.loc[hh, "query ratio"], curve.loc[hh, "error"]), fontsize=7,
                     color="0.4", textcoords="offset points", xytext=(-10, -12))  # fmt: skip
    ax1.plot(curve.loc[h, "query ratio"], curve.loc[h, "error"], ls="none", marker=msg["marker"], ms=9,
             color=msg["color"], label=f"h = {h:g}")  # fmt: skip
    pub_err, pub_q = published
    ax1.plot(
        pub_q / n_nodes, pub_err, ls="none", marker="*", ms=10, color="black", label="published (Table I)"
    )
    pad = 0.05  # a fixed window around the curve: the error's moves are drawn at their true size
    ax1.set_ylim(min(curve["error"].min(), pub_err) - pad, max(curve["error"].max(), pub_err) + pad)
    ax1.set(
        xlim=(0, 1),
        xlabel="query ratio",
        ylabel="cumulative error rate",
        title=f"(a) {name}, mean of {n_orders} orders",
    )
    ax1.legend(fontsize=7, loc="upper right")
    agg = trace.records["aggressive"].astype(bool)
    t = np.arange(1, trace.n_rounds + 1)
    ax2.plot(t, np.cumsum(trace.mistakes), color=msg["color"], ls="--", label="mistakes")
    ax2.plot(t, np.cumsum(agg), color=COLOR_CYCLE[3], label="aggressive queries")
    ax2.plot(t, np.cumsum(trace.queried & ~agg), color=COLOR_CYCLE[0], label="random queries")
    ax2.set(ylim=(0, trace.n_rounds), xlabel="round $t$", ylabel="count",
            title=f"(b) first order: error {trace.error_rate:.3f}, {trace.n_queried} queries")  # fmt: skip
    ax2.legend(fontsize=7, loc="upper left")
    return fig


def bbq_scaling_figure(streams, table, published, n_nodes, *, name, kappa, scalings):
    """BBQ and the scale of ``x`` (notebook 10 §3): (a) ``r_t`` against ``t^{−κ}`` on one stream; (b) query ratio vs κ.

    Parameters
    ----------
    streams : dict of (str, str) -> (ndarray, ndarray)
        ``(graph, scaling) -> (r_t, t^{−κ})`` of the runs at ``kappa``; (a) draws ``name``'s.
    table : DataFrame
        Columns ``graph``, ``scaling``, ``kappa``, ``query ratio``.
    published : dict of str -> float
        yang2016 Table I's number of BBQ queries per graph (horizontal lines in (b)).
    n_nodes : dict of str -> int
    name : str
    kappa : float
    scalings : dict of str -> str
        The scalings of ``table`` in drawing order, each with its label (first two drawn in (a)).
    """
    import numpy as np

    graphs = list(dict.fromkeys(table["graph"]))
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 3.6))
    t = np.arange(1, n_nodes[name] + 1)
    shown = list(scalings)[:2]
    for i, mk, sname in ((1, "s", shown[1]), (0, "o", shown[0])):
        ax1.plot(t, streams[(name, sname)][0], mk, ms=1.2, color=COLOR_CYCLE[i], alpha=0.4,
                 label=f"$r_t$, {scalings[sname]}")  # fmt: skip
    ax1.plot(
        t, t**-kappa, color="black", ls="--", lw=0.9, label=rf"threshold $t^{{-{kappa:g}}}$ (queried above)"
    )
    ax1.axhline(0.5, color="grey", lw=0.8, label=r"1/2: cap of $r_t$ if $\|x\| \leq 1$")
    r_min = min(streams[(name, s)][0][streams[(name, s)][0] > 0].min() for s in shown)
    ax1.set(xscale="log", yscale="log", ylim=(max(1e-4, 0.5 * r_min), 1.5), xlabel="round $t$",
            ylabel=r"$r_t = v_t/(1+v_t)$", title=rf"(a) {name}, BBQ at $\kappa$ = {kappa:g}")  # fmt: skip
    ax1.legend(fontsize=7, markerscale=6, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    for i, sname in enumerate(scalings):
        for j, gname in enumerate(graphs):
            sub = table[(table["graph"] == gname) & (table["scaling"] == sname)]
            ax2.plot(sub["kappa"], sub["query ratio"], color=COLOR_CYCLE[i], ls=["-", "--"][j % 2],
                     marker=["o", "s"][j % 2], ms=3, mfc=["white", COLOR_CYCLE[i]][j % 2],
                     label=f"{gname}, {scalings[sname]}")  # fmt: skip
    for j, gname in enumerate(graphs):
        pub = published[gname] / n_nodes[gname]
        ax2.axhline(pub, color="black", ls=["-", "--"][j % 2], lw=0.7)
        ax2.text(0.02, pub * (1.07 if j == 0 else 0.74), f"published BBQ, {gname}", fontsize=7,
                 transform=ax2.get_yaxis_transform())  # fmt: skip
    ax2.set(
        yscale="log",
        xlabel=r"$\kappa$",
        ylabel="query ratio",
        title=r"(b) BBQ query ratio vs $\kappa$ and scale",
    )
    ax2.legend(fontsize=7, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.2))
    return fig


def query_raster_figure(stream, *, title):
    """The rounds each learner queries along one stream (notebook 10 §5), with its mistakes on a strip below.

    ``stream`` maps a learner's name (shown through :func:`math_label`) to
    its :class:`~graphsel_lib.online.Trace` on the stream.
    """
    import numpy as np
    from matplotlib.lines import Line2D

    names = list(stream)
    fig, ax = subplots(size=(7.0, 3.4))
    for i, m in enumerate(names):
        tr = stream[m]
        color = algorithm_style(m)["color"]
        ax.eventplot(np.flatnonzero(tr.queried) + 1, lineoffsets=i - 0.12, linelengths=0.55, linewidths=0.3,
                     colors=color)  # fmt: skip
        ax.eventplot(np.flatnonzero(tr.mistakes) + 1, lineoffsets=i + 0.3, linelengths=0.22, linewidths=0.4,
                     colors="black")  # fmt: skip
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels([f"{math_label(m)}\n{stream[m].n_queried} q., err {stream[m].error_rate:.3f}" for m in names],
                       fontsize=7)  # fmt: skip
    ax.set(xlim=(0, stream[names[0]].n_rounds + 1), ylim=(-0.6, len(names) - 0.4))
    ax.invert_yaxis()
    ax.grid(False)
    ax.set(xlabel="round $t$", title=title)
    handles = [Line2D([], [], color="0.45", lw=2, label="label queried (colour of the learner)"),
               Line2D([], [], color="black", lw=1, label="mistake (strip below each learner)")]  # fmt: skip
    ax.legend(handles=handles, fontsize=7, ncols=2, loc="upper center", bbox_to_anchor=(0.5, -0.18))
    return fig


def query_ratio_figure(curves, graphs, n_nodes, *, n_orders, light=()):
    """The running query ratio ``#Q(t)/t`` of each learner, one panel per graph (notebook 10 §5).

    ``curves`` maps ``(graph, learner)`` to the mean ratio over the orders;
    learners in ``light`` are drawn in a lighter shade, dotted, with open
    markers (a second setting of the same algorithm). DGS is drawn wide and
    pale under the others, so a curve lying on it (at 1) stays visible.
    """
    import numpy as np

    fig, axes = subplots(1, len(graphs), size=(7.0, 3.4), squeeze=False)
    for ax, name in zip(axes[0], graphs, strict=True):
        t = np.arange(1, n_nodes[name] + 1)
        every = np.unique(np.geomspace(1, len(t), 8).astype(int) - 1).tolist()
        for (gname, m), curve in curves.items():
            if gname != name:
                continue
            st = algorithm_style(m)
            kw = dict(color=st["color"], ls=st["linestyle"], marker=st["marker"], ms=3.5, markevery=every)
            if m in light:
                kw.update(color="#c49c94", ls=":", mfc="white")
            if canonical_name(m) == "DGS":
                kw.update(lw=3.5, alpha=0.45, zorder=1)
            ax.plot(t, curve, label=math_label(m) if ax is axes[0][0] else None, **kw)
        ax.set(xscale="log", ylim=(0, 1.05), xlabel="round $t$", ylabel="query ratio so far, #Q(t) / t",
               title=f"{name} (mean of {n_orders} orders)")  # fmt: skip
    fig.legend(loc="outside lower center", ncols=3, fontsize=7)
    return fig


# --------------------------------------------------------------------------- notebooks 05 and 06 (OLLGC, SSLGC)
def proxy_handles(entries, *, color="0.35"):
    """Legend handles for a style that no single artist carries: one per ``(label, style)`` of ``entries``.

    Where colour and marker encode two different things (colour the graph,
    marker the bias; notebooks 05 and 06), each gets its own legend entries.
    ``style`` holds ``Line2D`` keywords: a ``color`` alone gives a filled
    circle of that colour, a ``marker`` alone a grey marker, a ``linestyle``
    (``ls``) a grey line. Pass the result as ``fig.legend(handles=...)``.

    >>> [h.get_label() for h in proxy_handles([("Cora", {"color": "C0"}), ("bias", {"marker": "s"})])]
    ['Cora', 'bias']
    """
    from matplotlib.lines import Line2D

    out = []
    for label, st in entries:
        st = dict(st)
        if "ls" in st:
            st["linestyle"] = st.pop("ls")
        if "linestyle" not in st:
            st.setdefault("marker", "o")
            st["linestyle"] = ""
        st.setdefault("color", color)
        out.append(Line2D([], [], label=label, **st))
    return out


def node_score_map(ax, xy, edges, scores, labels, *, class_names, mistakes=(), cmap="RdBu_r"):
    """Draw a graph with each node coloured by a score, its class as the marker and its mistakes ringed.

    The left panel of notebook 05's explorer: ``scores`` (e.g. ``w_Tᵀ m_t``)
    on a diverging colour map symmetric around 0, so the colour's side is the
    sign the weights predict; class ``−1`` as circles and ``+1`` as squares
    (``labels`` in ``{−1, +1}``, ``class_names`` in that order), ``mistakes``
    (node indices) ringed. ``xy`` holds the node positions (n, 2) and ``edges``
    the pairs of end points. Returns the scatter of the last class, for a colour bar.
    """
    import numpy as np
    from matplotlib.collections import LineCollection

    scores, labels = np.asarray(scores, dtype=float), np.asarray(labels)
    ax.add_collection(LineCollection(edges, colors="0.8", lw=0.6, zorder=0))
    lim = max(float(np.abs(scores).max()), 1e-12)
    for cls, marker, name in zip((-1, 1), ("o", "s"), class_names, strict=True):
        sel = labels == cls
        sc = ax.scatter(xy[sel, 0], xy[sel, 1], c=scores[sel], cmap=cmap, vmin=-lim, vmax=lim, marker=marker,
                        s=55, edgecolors="black", linewidths=0.5, label=f"{name} ({'+1' if cls > 0 else '−1'})")  # fmt: skip
    wrong = np.asarray(mistakes, dtype=int)
    ax.scatter(xy[wrong, 0], xy[wrong, 1], s=170, facecolors="none", edgecolors=COLOR_CYCLE[4], linewidths=1.4,
               label="mistake in the pass")  # fmt: skip
    ax.set_axis_off()
    return sc


def theorem1_terms_figure(hs, hinge, quad, unc, *, mistakes, T, title):
    """yang2016's Theorem 1 for one run as a function of ``h`` (notebook 08 §5); returns the figure.

    The bound is ``hinge + (h/2)·quad + unc/h`` with ``hinge = Σ_t 𝓛_t(cU_0)``
    (constant in ``h``), ``quad = tr(UᵀA_𝒰U)`` for ``U = cU_0`` and
    ``unc = Σ_t r_t``; each term, their sum, the run's mistakes and the trivial
    bound ``T`` are drawn on log–log axes, every line in the legend.
    """
    import numpy as np

    hs = np.asarray(hs, dtype=float)
    fig, ax = subplots(size=(5.4, 2.8))
    mk = dict(markevery=20, ms=3.5)
    ax.plot(hs, np.full_like(hs, hinge), label=r"hinge $\sum_t \mathcal{L}_t(cU_0)$", color=COLOR_CYCLE[0],
            marker="o", **mk)  # fmt: skip
    ax.plot(hs, 0.5 * hs * quad, label=r"$\frac{h}{2}\mathrm{tr}(U^\top A_{\mathcal{U}} U)$", color=COLOR_CYCLE[1],
            marker="s", **mk)  # fmt: skip
    ax.plot(hs, unc / hs, label=r"$\frac{1}{h}\sum_t r_t$", color=COLOR_CYCLE[2], marker="^", **mk)
    ax.plot(hs, hinge + 0.5 * hs * quad + unc / hs, color="black", label="bound (sum)", marker="D", **mk)
    ax.axhline(mistakes, color=algorithm_style("CMOG")["color"], ls="--", label=f"CMOG mistakes ({mistakes})")
    ax.axhline(T, color="grey", ls=":", label=f"$T$ = {T}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(mistakes / 20, 20 * mistakes)
    ax.set_xlabel("$h$ (analysis parameter)")
    ax.set_ylabel("count")
    ax.set_title(title, fontsize=8.5)
    ax.legend(fontsize=7.5, loc="center left", bbox_to_anchor=(1.0, 0.5))
    return fig


def cumulative_error_panels(panels, styles, *, published=None, titles=None, n_markers=9):
    """Cumulative error rate against the round on a log axis, one panel per entry of ``panels``; the figure.

    ``panels`` maps a panel name to ``{label: cumulative mistakes after each
    round}``; ``styles`` maps each label to ``color``, ``ls``, ``marker`` and
    optionally ``lw``, ``zorder`` and ``offset``: the ``n_markers`` markers sit
    at log-spaced rounds, shifted by the factor ``offset``, so that a curve
    drawn on top of another keeps its own markers visible. ``published`` maps a
    panel to ``(value, label)``, drawn as a dashed black line. The legend of
    the first panel lists every curve.
    """
    import numpy as np

    fig, axes = subplots(1, len(panels), size="wide", squeeze=False)
    for ax, (panel, curves) in zip(axes[0], panels.items(), strict=True):
        for label, cum in curves.items():
            st = dict(styles[label])
            T = len(cum)
            t = np.arange(1, T + 1)
            start = st.pop("offset", 1.0)
            every = np.unique(np.geomspace(start, T, n_markers).astype(int) - 1).tolist()
            ax.plot(t, np.asarray(cum) / t, ms=3.5, markevery=every, label=label, **st)
        if published and panel in published:
            value, label = published[panel]
            ax.axhline(value, color="black", ls="--", lw=0.8, label=label)
        ax.set_xscale("log")
        ax.set_ylim(0, 1)
        ax.set_xlabel("round $t$")
        ax.set_ylabel("cumulative error rate")
        ax.set_title(titles[panel] if titles else str(panel), fontsize=8.5)
    axes[0][0].legend(fontsize=7)
    return fig


def figure_pixels(fig, *, close=False):
    """The RGB pixels of ``fig`` as drawn at the saved resolution (uint8 array, rows x columns x 3).

    For checks that two drawings look the same: notebook 11 draws the graphs
    learned in a one-BLAS-thread run and compares the pixels. ``close=True``
    closes the figure afterwards (one drawn only to be compared).
    """
    import io

    import numpy as np
    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=RC_PARAMS["savefig.dpi"], metadata=dict(SAVE_FORMATS["png"]))
    if close:
        plt.close(fig)
    return np.asarray(Image.open(buf).convert("RGB"))


def learned_graphs_figure(xy, y, panels, *, class_names, title):
    """Notebook 11's learned graphs: nodes at fixed 2-D positions, every walk edge at opacity = its weight.

    ``panels`` is a list of dicts with ``title``, ``i``, ``j``, ``w`` (the edges
    of :func:`graphsel_lib.transductive.walk_edge_weights`), ``labeled`` (node
    indices) and ``stranded`` (boolean mask over the nodes). The class is the
    marker, stranded nodes are vermilion, labelled nodes black stars. The edge
    opacity is continuous in the weight, so no threshold decides which edges
    appear. Returns the figure.
    """
    import numpy as np
    from matplotlib.collections import LineCollection

    y = np.asarray(y)
    fig, axes = subplots(1, len(panels), size=(7.5, 3.5), sharex=True, sharey=True, squeeze=False)
    markers = ("o", "^", "s", "D")
    for ax, p in zip(axes[0], panels, strict=True):
        rgba = np.zeros((len(p["w"]), 4))
        rgba[:, :3] = 0.2
        rgba[:, 3] = np.clip(p["w"], 0.0, 1.0)
        segments = np.stack([xy[p["i"]], xy[p["j"]]], axis=1)  # thousands of edges: a bitmap in the PDF
        ax.add_collection(LineCollection(segments, colors=rgba, linewidths=0.6, zorder=1, rasterized=True))
        unl = np.ones(len(y), bool)
        unl[p["labeled"]] = False
        for k in np.unique(y):
            for flag, col in ((False, COLOR_CYCLE[0]), (True, COLOR_CYCLE[3])):
                sel = unl & (y == k) & (np.asarray(p["stranded"]) == flag)
                ax.scatter(*xy[sel].T, s=10, marker=markers[k % 4], color=col, linewidths=0, zorder=2)
        ax.scatter(*xy[p["labeled"]].T, s=70, marker="*", color="black", zorder=3)
        ax.set_title(p["title"], fontsize=8)
        ax.set_xlabel("1st principal component", fontsize=8)
    axes[0][0].set_ylabel("2nd principal component", fontsize=8)
    names = list(enumerate(class_names))
    entries = [(name, {"marker": markers[k % 4], "color": COLOR_CYCLE[0]}) for k, name in names]
    entries += [(f"{name}, stranded ($\\mathrm{{reach}}_i < 1/2$)", {"marker": markers[k % 4], "color": COLOR_CYCLE[3]})
                for k, name in names]  # fmt: skip
    entries += [("labelled", {"marker": "*", "color": "black", "ms": 9})]
    for w in (1, 0.3, 0.1):
        entries.append((f"edge weight {w:g}", {"ls": "-", "color": "0.2", "alpha": w, "lw": 1.2}))
    fig.legend(handles=proxy_handles(entries), loc="outside lower center", ncol=4, fontsize=7, frameon=False)
    fig.suptitle(title, fontsize=9)
    return fig


def harmonic_cmn_figure(xy, edges, y, labeled, F_plain, F_cmn, mean_acc, this_acc, per_class, *, class_name):
    """Notebook 11's explorer: harmonic (a) and harmonic + CMN (b) on a graph, and the mean accuracies (c).

    Nodes are coloured by their share ``F_i1 / (F_i0 + F_i1)`` of class 1's
    score, labelled nodes are black-edged stars, and unlabelled mistakes are
    ringed in red. ``mean_acc`` is a table indexed by labels per class with
    columns ``harmonic`` and ``CMN``; ``this_acc`` the two accuracies of the
    drawn labelled set, ringed at ``per_class`` in (c). Returns the figure.
    """
    import numpy as np
    from matplotlib.collections import LineCollection

    y = np.asarray(y)
    unl = np.setdiff1d(np.arange(len(y)), labeled)
    fig, axes = subplots(1, 3, size=(7.5, 3.0), gridspec_kw={"width_ratios": [1, 1, 0.8]})
    for ax, F, name in zip(axes[:2], (F_plain, F_cmn), ("(a) harmonic", "(b) harmonic + CMN"), strict=True):
        share = F[:, 1] / F.sum(1)
        wrong = F[unl].argmax(1) != y[unl]
        ax.add_collection(LineCollection(edges, colors="0.8", linewidths=0.5, zorder=1))
        sc = ax.scatter(*xy[unl].T, c=share[unl], cmap="coolwarm", vmin=0, vmax=1, s=30, zorder=2,
                        edgecolors=np.where(wrong, "red", "none"), linewidths=1.2)  # fmt: skip
        ax.scatter(*xy[labeled].T, c=share[labeled], cmap="coolwarm", vmin=0, vmax=1, s=110, marker="*",
                   edgecolors="black", linewidths=0.6, zorder=3)  # fmt: skip
        ax.set_title(f"{name}: accuracy {np.mean(~wrong):.3f}", fontsize=8)
        ax.set_xticks([])
        ax.set_yticks([])
        ax.grid(False)
    cb = fig.colorbar(sc, ax=axes[:2], fraction=0.03, pad=0.02)
    cb.set_label(f"share of '{class_name}'", fontsize=7)
    cb.ax.tick_params(labelsize=7)
    ax = axes[2]
    for (col, mk, color), acc in zip((("harmonic", "o", COLOR_CYCLE[0]), ("CMN", "s", COLOR_CYCLE[1])), this_acc,
                                     strict=True):  # fmt: skip
        ax.plot(mean_acc.index, mean_acc[col], marker=mk, ms=3.5, color=color, label=f"{col}, mean of draws")
        ring = dict(ls="none", marker=mk, ms=9, mfc="none", color=color)
        ax.plot(per_class, acc, **ring, label=f"{col}, this draw")
    ax.set_xlabel("labels per class", fontsize=8)
    ax.set_ylabel("accuracy (unlabelled)", fontsize=8)
    ax.set_title("(c) accuracy", fontsize=8)
    ax.set_ylim(0.4, 1.02)
    ax.legend(fontsize=7, loc="lower right")
    return fig


def gp_newton_and_balance_figure(objective, grad_norm, per_draw, summary, *, tick_labels):
    """Notebook 12's Newton–CG convergence on Cora (left) and accuracy under the balance settings (right).

    ``objective`` and ``grad_norm`` are the traces of ``transductive_gp(...,
    return_info=True)``; the objective gap to the last iterate is zero at the
    last step by construction, so that point is not drawn. ``per_draw`` holds
    one row per draw and one column per setting (grey lines), ``summary`` the
    mean ``accuracy`` per setting (the thick line); ``tick_labels`` name the
    settings. Returns the figure.
    """
    import numpy as np

    fig, (ax, ax2) = subplots(1, 2, size=(7.5, 3.4))
    k = np.arange(len(objective))
    ax.semilogy(k[:-1], objective[:-1] - objective[-1], marker="o", color=COLOR_CYCLE[0],
                label=r"$\varphi(F_k) - \varphi(F_{\rm final})$")  # fmt: skip
    ax.semilogy(k, grad_norm, marker="s", color=COLOR_CYCLE[1], label=r"$\max|\nabla\varphi(F_k)|$")
    ax.set(xlabel="Newton step $k$", ylabel="objective gap, gradient norm", title="Newton–CG on Cora")
    ax.legend(fontsize=7.5, loc="lower left")
    x = np.arange(per_draw.shape[1])
    for d, (_, row) in enumerate(per_draw.iterrows()):
        label = "one draw" if d == 0 else None
        ax2.plot(x, row.to_numpy(), color="0.7", lw=0.8, marker=".", ms=4, label=label)
    ax2.plot(x, summary["accuracy"], color=algorithm_style("TGP")["color"], marker="D", lw=1.8,
             label=f"mean of {len(per_draw)} draws")  # fmt: skip
    ax2.set_xticks(x, tick_labels, fontsize=7.5)
    ax2.set(xlabel="balance setting", ylabel="accuracy (unlabelled nodes)", title="balance constraint, Cora")
    ax2.legend(fontsize=7.5, loc="lower left")
    return fig


def q_collapse_figure(runs, bounds, methods, tick_labels, *, rates, collapse, largest_class):
    """Notebook 12 §5b: how much of ``U`` goes to one class (left), and the bound ``J`` at four ``q`` (right).

    Left: per run and method (``runs`` of :func:`~graphsel_lib.transductive.q_collapse_runs`),
    the majority mass of ``q`` (filled circles) and the majority share of its
    argmax (open squares), one colour per labelled fraction; the collapse
    threshold and the largest true class as horizontal lines. Right: ``J``
    minimised over ``F`` at the plain GP, the best one-class ``q``, the hard-EM
    fixed point and the true labels, one line per run. At the true labels every
    node carries its own label whichever were labelled, so that value is the
    same for every run and all lines meet there (drawn once, in black). Returns the figure.
    """
    import numpy as np

    fig, (ax, ax2) = subplots(1, 2, size=(7.5, 3.6))
    for k_r, rate in enumerate(rates):
        sub = runs[runs["labelled"] == rate]
        x = np.array([methods.index(m) for m in sub["method"]]) + (k_r - 0.5) * 0.25
        c = COLOR_CYCLE[k_r]
        label = f"{rate:.0%} labelled: mass of $q$"
        ax.scatter(x, sub["majority mass"], color=c, marker="o", s=16, label=label)
        ax.scatter(x, sub["majority share"], facecolor="none", edgecolor=c, marker="s", s=16,
                   label=f"{rate:.0%} labelled: share of argmax")  # fmt: skip
    ax.axhline(collapse, color="k", ls="--", lw=1, label=f"collapse threshold {collapse:.0%}")
    ax.axhline(largest_class, color="0.5", ls=":", lw=1, label="largest true class")
    ax.set_xticks(np.arange(len(methods)), tick_labels, fontsize=7)
    ax.set(ylim=(0, 1.35), yticks=np.arange(0, 1.01, 0.2), ylabel="majority-class fraction on $V_U$",
           title="how much of $V_U$ goes to one class")  # fmt: skip
    ax.legend(fontsize=7, loc="upper center", ncol=2)
    cols = ["plain GP (free q)", "best one-class q", "hard-EM fixed point"]
    for _, row in bounds.iterrows():
        k_r = list(rates).index(row["labelled"])
        ax2.plot(np.arange(4), row[[*cols, "true labels"]].to_numpy(float), color=COLOR_CYCLE[k_r], marker="o",
                 lw=0.9, label=f"{row['labelled']:.0%} labelled" if row["draw"] == 0 else None)  # fmt: skip
    ax2.plot([3], [bounds["true labels"].iloc[0]], ls="none", marker="D", ms=7, color="black", zorder=3,
             label="true labels: one value for all runs")  # fmt: skip
    ax2.set_yscale("log")
    ax2.set_xticks(np.arange(4), ["min over\nall $q$\n(plain GP)", "best\none-class\n$q$", "hard-EM\nfixed point",
                                  "true\nlabels"], fontsize=7)  # fmt: skip
    ax2.set(ylabel=r"bound $J(F, q)$, minimised over $F$", title="the bound ranks one-hot $q$'s")
    ax2.legend(fontsize=7, loc="lower right")
    return fig


# --------------------------------------------------------------------------- chapters 03 and 04
#: How chapters 03 and 04 name their graphs in figures (the registry names are code names).
GRAPH_LABELS = {"digits-3-8": 'digits "3 vs 8"', "cora": "Cora", "coauthor": "Coauthor", "polblogs": "polblogs",
                "karate": "karate"}  # fmt: skip


def graph_label(name: str) -> str:
    """A dataset's name as a figure shows it: ``graph_label("digits-3-8") == 'digits "3 vs 8"'``."""
    return GRAPH_LABELS.get(name, name)


def perceptron_bound_figure(runs):
    """GPA's mistakes against the perceptron bounds (chapter 03 §2): (a) mistakes vs bound, (b) error vs class share.

    ``runs`` holds the rows of :func:`graphsel_lib.course.perceptron_bound_runs`
    with a ``graph`` column (bias ``b = 1``). One colour and marker per graph;
    filled markers without the bias, open ones with it. Returns the figure.
    """
    colors = {"karate": COLOR_CYCLE[0], "digits-3-8": COLOR_CYCLE[1], "polblogs": COLOR_CYCLE[2],
              "cora": COLOR_CYCLE[4]}  # fmt: skip
    markers = {"karate": "s", "digits-3-8": "^", "polblogs": "D", "cora": "o"}
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 3.6))
    for i, (name, grp) in enumerate(runs.groupby("graph", sort=False)):
        c, m = colors.get(name, COLOR_CYCLE[(i + 5) % 8]), markers.get(name, "v")
        filled = dict(marker=m, s=14, color=c, alpha=0.6, lw=0)
        hollow = dict(marker=m, s=14, facecolor="none", edgecolor=c, lw=0.7)
        ax1.scatter(grp["4 Phi max K_tt"], grp["mistakes"], **filled, label=f"{graph_label(name)}, no bias")
        ax1.scatter(
            grp["bias bound"],
            grp["mistakes (bias b=1)"],
            **hollow,
            label=f"{graph_label(name)}, bias $b = 1$",
        )
        ax2.scatter(grp["share"], grp["mistakes"] / grp["n"], **filled)
        ax2.scatter(grp["share"], grp["mistakes (bias b=1)"] / grp["n"], **hollow)
    ax1.plot([1, 1e6], [1, 1e6], color="black", lw=0.8, ls="--", label="mistakes = bound")
    ax1.set(xscale="log", yscale="log", xlim=(10, 1e6), ylim=(1, 1e4))
    ax1.set_xlabel(
        r"bound: $4\Phi(y)\max_t K_{tt}$ (filled), $(4\Phi + \bar y^2)(\max_t K_{tt} + 1)$ (open)", fontsize=8
    )
    ax1.set_ylabel("GPA mistakes in one pass")
    ax1.set_title("(a) mistakes vs bound, exact kernel")
    ax2.set_xlabel("share of the positive class")
    ax2.set_ylabel(r"mistakes / $n$")
    ax2.set_title("(b) the same runs: error vs class share")
    ax2.set_ylim(0, None)
    fig.legend(*ax1.get_legend_handles_labels(), loc="outside lower center", ncol=3, fontsize=7)
    return fig


def bias_experiment_figure(bias_runs, share, *, d="100"):
    """The bias feature on one-vs-rest learners (chapter 03 §4): binary error, multiclass error, per-class error.

    ``bias_runs`` holds the rows of :func:`graphsel_lib.course.bias_feature_runs`;
    the rank ``d`` is shown. (a) and (b): the mean over the orders against
    ``b > 0`` (solid, one learner each) beside the value without the bias
    (dotted); (c): the class-``k``-vs-rest error against the class share
    ``π_k`` (``share``) without the bias (filled) and with ``b = 1`` (open),
    beside the trivial rule "always rest" (error ``π_k``, dashed). Returns the figure.
    """
    import numpy as np

    sub = bias_runs[bias_runs.d == str(d)]
    b_pos = sorted(b for b in sub.b.unique() if b > 0)
    n_classes = len(share)
    fig, axes = subplots(1, 3, size=(7.0, 3.4))
    cols = ["mean binary error", "multiclass error"]
    for learner, grp in sub.groupby("learner", sort=False):
        st = algorithm_style(learner)
        mean = grp.groupby("b")[cols].mean()
        for ax, col in zip(axes[:2], cols, strict=True):
            ax.plot(b_pos, mean.loc[b_pos, col], **st, label=f"{learner} with bias $b$ (a, b)")
            ax.axhline(
                mean.loc[0.0, col], color=st["color"], ls=":", lw=1.0, label=f"{learner} without bias (a, b)"
            )
        per_class = grp.groupby("b")[[f"class {c} error" for c in range(n_classes)]].mean()
        for b, fill in ((0.0, st["color"]), (1.0, "none")):
            axes[2].plot(share, per_class.loc[b].to_numpy(), ls="none", marker=st["marker"], color=st["color"],
                         mfc=fill, label=f"{learner}, " + ("no bias (c)" if b == 0 else "$b = 1$ (c)"))  # fmt: skip
    for ax, col, letter in zip(axes[:2], cols, "ab", strict=True):
        ax.set_xscale("log")
        ax.set_xlabel(r"bias $b$ (kernel $L_d^+ + b\,\mathbb{1}\mathbb{1}^\top$)", fontsize=8)
        ax.set_ylabel(col)
        ax.set_title(f"({letter}) {col}")
        ax.set_ylim(0, None)
    xs = np.linspace(0, max(share) * 1.05, 50)
    axes[2].plot(xs, xs, color="0.5", lw=0.8, ls="--", label="always 'rest' (c)")
    axes[2].set(xlim=(0, None), ylim=(0, None))
    axes[2].set_xlabel(r"class share $\pi_k$")
    axes[2].set_ylabel(r"class-$k$-vs-rest error")
    axes[2].set_title("(c) per class")
    fig.suptitle(f"Cora, $d$ = {d}, one-vs-rest, mean over the orders", fontsize=9)
    handles, labels = [], []
    for ax in (axes[0], axes[2]):
        h, lab = ax.get_legend_handles_labels()
        handles, labels = handles + h, labels + lab
    fig.legend(handles, labels, loc="outside lower center", ncol=3, fontsize=7)
    return fig


def noisy_bound_figure(noisy, rates, *, n_orders):
    """GPA with flipped labels against the slides' noisy-label bound (chapter 03 §5), one panel per graph.

    ``noisy`` holds the rows of :func:`graphsel_lib.course.noisy_label_runs` with
    a ``graph`` column. Per rate: the mistakes of every run (dots, spread
    sideways by order) and their mean, the slides' bound with the measured
    ``|𝓜 ∩ 𝓜_u|`` (open squares) and its mean, the a-priori bound, the leading
    term ``2|𝓜 ∩ 𝓜_u|`` and the ``n`` rounds of one pass. Returns the figure.
    """
    import numpy as np

    graphs = list(dict.fromkeys(noisy["graph"]))
    fig, axes = subplots(1, len(graphs), size=(7.0, 3.7))
    axes = np.atleast_1d(axes)
    c_m, c_b, c_2 = COLOR_CYCLE[0], COLOR_CYCLE[3], COLOR_CYCLE[2]
    for ax, name, letter in zip(axes, graphs, "abcdefgh", strict=False):
        grp = noisy[noisy.graph == name]
        x = 100 * grp["rate"].to_numpy()
        jitter = 0.8 * (
            grp["order"].to_numpy() / max(n_orders - 1, 1) - 0.5
        )  # spread the runs (percentage points)
        mean = grp.groupby("rate").mean(numeric_only=True)
        xm = 100 * mean.index.to_numpy()
        ax.scatter(x + jitter, grp["mistakes"], s=9, color=c_m, alpha=0.5, lw=0)
        ax.plot(
            xm,
            mean["mistakes"],
            color=c_m,
            marker="o",
            label=r"GPA mistakes $|\mathcal{M}|$ (dots: runs; line: mean)",
        )
        ax.scatter(x + jitter, grp["slides"], s=12, facecolor="none", edgecolor=c_b, lw=0.6)
        ax.plot(xm, mean["slides"], color=c_b, marker="s", mfc="none",
                label=r"slides' bound with $|\mathcal{M}\cap\mathcal{M}_u|$ (runs, mean)")  # fmt: skip
        ax.plot(
            xm,
            mean["a priori"],
            color=c_b,
            ls="--",
            lw=1.0,
            label=r"a priori: $|\mathcal{M}_u|$ = flipped labels",
        )
        ax.plot(xm, 2 * mean["M cap M_u"], color=c_2, ls=":", marker="^", ms=3.5,
                label=r"leading term $2|\mathcal{M}\cap\mathcal{M}_u|$ (mean)")  # fmt: skip
        n = int(grp["n"].iloc[0])
        ax.axhline(n, color="0.4", lw=0.8, ls="-.", label="$n$: rounds of one pass")
        ax.set_xticks(100 * np.asarray(rates))
        ax.set_xlabel("labels flipped (% of the nodes)")
        ax.set_ylabel("mistakes in one pass")
        fbar = grp["fbar"].iloc[0]
        ax.set_title(rf"({letter}) {graph_label(name)}: $n$ = {n}, $\Phi$ = {grp['Phi'].iloc[0]:.0f}, "
                     rf"$\bar f = {fbar:.3f}$")  # fmt: skip
        ax.set_ylim(0, None)
    fig.suptitle("GPA with flipped labels (exact kernel) against the slides' noisy-label bound", fontsize=9)
    fig.legend(*axes[0].get_legend_handles_labels(), loc="outside lower center", ncol=2, fontsize=7)
    return fig


def llgc_filter_figure(emb, low_rank, mus, *, graph, label_rate):
    """LLGC as a spectral filter (chapter 04 §4): (a) ``1/(1 + µσ_i)`` per eigen-index, (b) accuracy vs rank ``d``.

    ``emb`` has all ``n − 1`` pairs (index 0 in (a) is the constant, ``λ_1 = 0``,
    passed unfiltered); ``low_rank`` holds the columns ``mu, d, accuracy rank d,
    accuracy exact LLGC`` (the exact LLGC dotted in its ``µ``'s colour). Returns the figure.
    """
    import numpy as np
    from matplotlib.lines import Line2D

    marker_list = ["o", "s", "^", "D", "v", "P", "X"]
    fig, (ax1, ax2) = subplots(1, 2, size=(7.0, 3.4))
    sig = np.concatenate([[0.0], emb.eigenvalues])
    idx = np.arange(len(sig))
    marks = list(
        np.unique(np.round(np.logspace(0, np.log10(len(sig) - 1), 8)).astype(int))
    )  # log-spaced markers
    for i, mu in enumerate(mus):
        c, m = COLOR_CYCLE[i % 8], marker_list[i % len(marker_list)]
        ax1.plot(
            idx, 1 / (1 + mu * sig), color=c, marker=m, ms=3.5, markevery=marks, label=rf"$\mu$ = {mu:g}"
        )
        sub = low_rank[low_rank.mu == mu]
        ax2.plot(sub["d"], sub["accuracy rank d"], marker=m, ms=3.5, color=c)
        ax2.axhline(sub["accuracy exact LLGC"].iloc[0], color=c, ls=":", lw=0.8)
    ax1.set_xscale("symlog", linthresh=1)
    ax1.set_xlabel(r"eigen-index $i$ ($i = 0$: the constant, $\lambda_1 = 0$)")
    ax1.set_ylabel(r"filter $1/(1 + \mu\sigma_i)$")
    ax1.set_title(f"(a) LLGC as a spectral filter, {graph_label(graph)}")
    ax2.set_xscale("log")
    ax2.set_xlabel("rank $d$ of the kernel $L_d^+$")
    ax2.set_ylabel("accuracy on unlabelled nodes")
    ax2.set_title(f"(b) rank $d$ vs exact LLGC (dotted), {label_rate:.0%} labelled")
    handles, labels = ax1.get_legend_handles_labels()
    handles.append(Line2D([], [], color="0.4", ls=":", lw=0.8))
    labels.append("exact LLGC, same colour (b)")
    fig.legend(handles, labels, loc="outside lower center", ncol=6, fontsize=7)
    return fig
