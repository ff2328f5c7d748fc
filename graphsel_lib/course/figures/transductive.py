"""The figures of chapters 11 and 12: learned graphs, the harmonic function with CMN, the GP's Newton steps,
balancing and the collapse of ``q``."""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np

from ..._validation import renamed_parameter
from ..style import COLOR_CYCLE, RC_PARAMS, SAVE_FORMATS, algorithm_style, subplots
from .online import proxy_handles


def figure_pixels(fig, *, close=False):
    """The RGB pixels of ``fig`` as drawn at the saved resolution (uint8 array, rows x columns x 3).

    For checks that two drawings look the same: notebook 11 draws the graphs
    learned in a one-BLAS-thread run and compares the pixels. ``close=True``
    closes the figure afterwards (one drawn only to be compared).
    """
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=RC_PARAMS["savefig.dpi"], metadata=dict(SAVE_FORMATS["png"]))
    if close:
        plt.close(fig)
    return np.asarray(Image.open(buf).convert("RGB"))


def learned_graphs_figure(xy, y, panels, *, class_names, title):
    """Notebook 11's learned graphs: nodes at fixed 2-D positions, every walk edge at opacity = its weight.

    ``panels`` is a list of dicts with ``title``, ``i``, ``j``, ``w`` (the edges
    of :func:`graphsel_lib.course.walk_edge_weights`), ``labelled`` (node
    indices) and ``stranded`` (boolean mask over the nodes). The class is the
    marker, stranded nodes are vermilion, labelled nodes black stars. The edge
    opacity is continuous in the weight, so no threshold decides which edges
    appear. Returns the figure.
    """
    from matplotlib.collections import LineCollection

    y = np.asarray(y)
    fig, axes = subplots(1, len(panels), size=(7.5, 3.5), sharex=True, sharey=True, squeeze=False)
    markers = ("o", "^", "s", "D")
    for p in panels:
        if "labelled" not in p:
            raise KeyError(
                f"each panel needs the key 'labelled' (the labelled nodes; was 'labeled'), got {sorted(p)}"
            )
    for ax, p in zip(axes[0], panels, strict=True):
        rgba = np.zeros((len(p["w"]), 4))
        rgba[:, :3] = 0.2
        rgba[:, 3] = np.clip(p["w"], 0.0, 1.0)
        segments = np.stack([xy[p["i"]], xy[p["j"]]], axis=1)  # thousands of edges: a bitmap in the PDF
        ax.add_collection(LineCollection(segments, colors=rgba, linewidths=0.6, zorder=1, rasterized=True))
        unl = np.ones(len(y), bool)
        labelled = p["labelled"]
        unl[labelled] = False
        for k in np.unique(y):
            for flag, col in ((False, COLOR_CYCLE[0]), (True, COLOR_CYCLE[3])):
                sel = unl & (y == k) & (np.asarray(p["stranded"]) == flag)
                ax.scatter(*xy[sel].T, s=10, marker=markers[k % 4], color=col, linewidths=0, zorder=2)
        ax.scatter(*xy[labelled].T, s=70, marker="*", color="black", zorder=3)
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


@renamed_parameter("labeled", "labelled")
def harmonic_cmn_figure(xy, edges, y, labelled, F_plain, F_cmn, mean_acc, this_acc, per_class, *, class_name):
    """Notebook 11's explorer: harmonic (a) and harmonic + CMN (b) on a graph, and the mean accuracies (c).

    Nodes are coloured by their share ``F_i1 / (F_i0 + F_i1)`` of class 1's
    score, labelled nodes are black-edged stars, and unlabelled mistakes are
    ringed in red. ``mean_acc`` is a table indexed by labels per class with
    columns ``harmonic`` and ``CMN``; ``this_acc`` the two accuracies of the
    drawn labelled set, ringed at ``per_class`` in (c). Returns the figure.
    """
    from matplotlib.collections import LineCollection

    y = np.asarray(y)
    unl = np.setdiff1d(np.arange(len(y)), labelled)
    fig, axes = subplots(1, 3, size=(7.5, 3.0), gridspec_kw={"width_ratios": [1, 1, 0.8]})
    for ax, F, name in zip(axes[:2], (F_plain, F_cmn), ("(a) harmonic", "(b) harmonic + CMN"), strict=True):
        share = F[:, 1] / F.sum(1)
        wrong = F[unl].argmax(1) != y[unl]
        ax.add_collection(LineCollection(edges, colors="0.8", linewidths=0.5, zorder=1))
        sc = ax.scatter(*xy[unl].T, c=share[unl], cmap="coolwarm", vmin=0, vmax=1, s=30, zorder=2,
                        edgecolors=np.where(wrong, "red", "none"), linewidths=1.2)  # fmt: skip
        ax.scatter(*xy[labelled].T, c=share[labelled], cmap="coolwarm", vmin=0, vmax=1, s=110, marker="*",
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

    ``objective`` and ``grad_norm`` are the traces of a
    :func:`~graphsel_lib.transductive.transductive_gp_fit`; the objective gap to the last iterate is zero at the
    last step by construction, so that point is not drawn. ``per_draw`` holds
    one row per draw and one column per setting (grey lines), ``summary`` the
    mean ``accuracy`` per setting (the thick line); ``tick_labels`` name the
    settings. Returns the figure.
    """

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

    Left: per run and method (``runs`` of :func:`~graphsel_lib.course.q_collapse_runs`),
    the majority mass of ``q`` (filled circles) and the majority share of its
    argmax (open squares), one colour per labelled fraction; the collapse
    threshold and the largest true class as horizontal lines. Right: ``J``
    minimised over ``F`` at the plain GP, the best one-class ``q``, the hard-EM
    fixed point and the true labels, one line per run. At the true labels every
    node carries its own label whichever were labelled, so that value is the
    same for every run and all lines meet there (drawn once, in black). Returns the figure.
    """

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
