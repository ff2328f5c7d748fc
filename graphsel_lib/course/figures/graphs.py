"""The figures of chapters 00-04: the chapter map, the data sets, Laplacian spectra, labellings, the kernel bound,
the perceptron's bounds on runs and LLGC's spectral filter."""

from __future__ import annotations

import matplotlib
import numpy as np

from ..style import COLOR_CYCLE, algorithm_style, subplots

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
    from matplotlib.ticker import MaxNLocator

    from ...graph import cut_size

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
