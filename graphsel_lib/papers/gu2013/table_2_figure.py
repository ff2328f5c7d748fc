"""Table 2 as a figure: the errors of every configuration, SSLGC's query ratio and the times, against the paper's."""

from __future__ import annotations

import numpy as np

from graphsel_lib.collection import plotting
from graphsel_lib.papers.common import STAND_IN, _published_markers

from .paper_numbers import METHODS, PAPER_NAME, PUBLISHED
from .table_2 import Table2

_CONFIG_STYLE = {
    (True, "binary"): ("o", "binary, bias"),
    (False, "binary"): ("s", "binary, no bias"),
    (True, "multiclass"): ("^", "multiclass, bias"),
    (False, "multiclass"): ("v", "multiclass, no bias"),
}


def draw_table2(res: Table2):
    """Table 2 as a figure: errors of every configuration, SSLGC's query ratio, and the times (log scale).

    Top row: the error per dataset for the four configurations (marker = configuration, filled = bias) with
    the published mean as a black bar; bottom left: SSLGC's query ratio, both counts, with the published
    ratio; bottom right: time per pass, ours (headline configuration) and the paper's (open markers).
    """
    from matplotlib.lines import Line2D

    graphs = res.graphs
    published_by = {(r.dataset, r.method): r for r in PUBLISHED.itertuples()}
    names = list(graphs)
    fig, ax0 = plotting.subplots(size=(7.0, 5.9))
    ax0.remove()
    sf_top, sf_bottom = fig.subfigures(2, 1, height_ratios=[1.15, 1.0])
    top = sf_top.subplots(1, max(len(names), 2), squeeze=False)[0]
    ax_q, ax_t = sf_bottom.subplots(1, 2)
    for ax in top[len(names) :]:
        ax.set_visible(False)
    for j, name in enumerate(names):
        ax = top[j]
        for i, method in enumerate(METHODS):
            color = plotting.algorithm_style(method)["color"]
            for c, (cfg, (marker, _)) in enumerate(_CONFIG_STYLE.items()):
                s = res.ours(name, cfg[0], cfg[1], method)
                ax.errorbar(
                    i + (c - 1.5) * 0.17,
                    s.error_mean,
                    yerr=s.error_std,
                    marker=marker,
                    color=color,
                    markerfacecolor=color if cfg[0] else "white",
                    linestyle="none",
                    capsize=1.5,
                )
            p = published_by.get((PAPER_NAME[name], method)) if name != STAND_IN else None
            if p is not None:
                ax.hlines(p.error, i - 0.4, i + 0.4, color="black", linewidth=1.6)
        ax.set_xticks(range(len(METHODS)), METHODS, fontsize=6.5)
        ax.set_xlim(-0.6, len(METHODS) - 0.4)
        ax.set_title(f"{name}" + ("\n(IMDB stand-in)" if name == STAND_IN else ""))
        ax.set_xlabel("method", fontsize=7.5)
        ax.set_ylabel("error rate", fontsize=7.5)
        ax.tick_params(axis="y", labelsize=7)
    handles = [
        Line2D(
            [],
            [],
            marker=m,
            color="0.3",
            linestyle="none",
            label=lab,
            markerfacecolor="0.3" if cfg[0] else "white",
        )
        for cfg, (m, lab) in _CONFIG_STYLE.items()
    ]
    handles.append(Line2D([], [], color="black", linewidth=1.6, label="gu2013 Table 2"))
    sf_top.legend(handles=handles, loc="outside upper center", ncol=5)

    x = np.arange(len(names))
    for k, (col, lab) in enumerate(
        [("binary_n_queried_mean", "ours: mean per learner"), ("n_queried_mean", "ours: any learner")]
    ):
        vals = [res.target(n, "SSLGC")[col] / graphs[n].n_nodes for n in names]
        ax_q.bar(
            x + (k - 1) * 0.27,
            vals,
            width=0.27,
            color=plotting.algorithm_style("SSLGC")["color"],
            alpha=1.0 if k == 0 else 0.45,
            label=lab,
        )
    pub_ratio = [
        published_by[(PAPER_NAME[n], "SSLGC")].queried / graphs[n].n_nodes if n != STAND_IN else np.nan
        for n in names
    ]
    ax_q.bar(x + 0.27, pub_ratio, width=0.27, color="black", label="gu2013")
    ax_q.set_xticks(x, names)
    ax_q.set_xlabel("dataset")
    ax_q.set_ylim(0, 1.35)
    ax_q.set_yticks(np.linspace(0, 1, 6))
    ax_q.set_ylabel("SSLGC queried / n")
    ax_q.legend(loc="upper center", ncol=2, fontsize=6.5)

    for i, method in enumerate(METHODS):
        st = plotting.algorithm_style(method)
        xs = x + (i - 1) * 0.2
        ours = [res.target(n, method).time_mean for n in names]
        ax_t.plot(xs, ours, marker=st["marker"], color=st["color"], linestyle="none")
        paper = [published_by[(PAPER_NAME[n], method)].time if n != STAND_IN else np.nan for n in names]
        _published_markers(ax_t, xs, paper, st["marker"], st["color"], markersize=7)
    ax_t.set_yscale("log")
    fastest = min(res.target(n, m).time_mean for n in names for m in METHODS)
    ax_t.set_ylim(min(4e-3, fastest / 2), 200)  # every point visible, however fast a pass of ours
    ax_t.set_xticks(x, names)
    ax_t.set_xlim(-0.5, len(names) - 0.5)
    ax_t.set_xlabel("dataset")
    ax_t.set_ylabel("time per pass (s)")
    time_handles = [
        Line2D(
            [],
            [],
            marker=plotting.algorithm_style(m)["marker"],
            color=plotting.algorithm_style(m)["color"],
            linestyle="none",
            label=m,
        )
        for m in METHODS
    ] + [
        Line2D([], [], marker="o", color="0.3", linestyle="none", label="ours"),
        Line2D(
            [],
            [],
            marker="o",
            color="0.3",
            markerfacecolor="none",
            markersize=7,
            linestyle="none",
            label="gu2013",
        ),
    ]
    ax_t.legend(handles=time_handles, loc="upper center", ncol=3, fontsize=6.5)
    return fig
