"""The figures of chapters 05-10: OLLGC and SSLGC on a graph, CMOG's Theorem 1, MSG and the query rules."""

from __future__ import annotations

import re

import numpy as np

from ..style import COLOR_CYCLE, algorithm_style, canonical_name, subplots

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
