"""Notebook 42's figure, checks and reading of Tables 1 and 2 (gaertner2005 Sec. 6)."""

from __future__ import annotations

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib.collection import plotting, scorecard
from graphsel_lib.papers import gaertner2005_table1 as t1r

from .comparison import reading_assignments, table1_readings
from .published import FOUR, PUBLISHED_T1, PUBLISHED_T2, _pub_t1
from .tables import T1M, Homophily, Table1, Table2


def draw_tables(t1: Table1, t2: Table2, ev: Homophily):
    """Published and ours side by side per row (a dot plot; bars = ± one std over the folds): Table 1 (UCI)
    left, Table 2 (WebKB, with the majority-class and neighbour-vote errors) right."""
    C = plotting.COLOR_CYCLE
    fig, axes = plotting.subplots(1, 2, size=(7.5, 3.9), gridspec_kw={"width_ratios": [1.35, 1]})
    ax = axes[0]
    rows_t1 = [r for r in PUBLISHED_T1.itertuples() if r.ours and r.ours in set(t1.summary.dataset)]
    agree = t1r.agreement()
    series = (
        (T1M["knn"], "o", C[0], "ours: transd. GP, kNN graph", 0.30),
        (T1M["rbf"], "D", C[1], "ours: transd. GP, RBF kernel", 0.15),
        (T1M["ind"], "^", C[2], "ours: ind. GP, RBF kernel", -0.15),
    )
    for method, mk, col, label, dy in series:
        xs, ys, es = [], [], []
        for k, r in enumerate(rows_t1):
            row = t1.row(r.ours, method)
            if row is not None:
                xs.append(row.error), ys.append(k + dy), es.append(row.error_std)
        ax.errorbar(xs, ys, xerr=es, fmt=mk, color=col, ms=4, capsize=2, lw=0.9, label=label)
    ax.scatter([r.transd / 100 for r in rows_t1], np.arange(len(rows_t1)) + 0.0, marker="*", s=55, color="black",
               label="published transd. GP", zorder=3)  # fmt: skip
    ax.scatter([r.ind / 100 for r in rows_t1], np.arange(len(rows_t1)) - 0.30, marker="*", s=55, facecolor="white",
               edgecolor="black", label="published ind. GP", zorder=3)  # fmt: skip
    ax.set_yticks(np.arange(len(rows_t1)),
                  [r.row.replace(" (progn.)", "\n(progn.)") + ("" if agree.loc[r.row].all() else "\n(reading-dep.)")
                   for r in rows_t1], fontsize=7)  # fmt: skip
    ax.invert_yaxis()
    ax.set(xlabel="error (10-fold CV)", ylabel="Table 1 row", title="Table 1: UCI", xlim=(0, None))
    ax = axes[1]
    s2, e2 = t2.summary, ev.table
    unis = [u for u in t2.protocol.webkb if u in set(s2.university)]
    gp2 = s2[(s2.graph == "colinks") & (s2.method == "transductive GP")].set_index("university")
    evc = e2[e2.graph == "colinks"].set_index("university")
    yk = np.arange(len(unis))
    ax.errorbar(gp2.loc[unis, "error_matched"], yk - 0.15, xerr=gp2.loc[unis, "error_matched_std"], fmt="s",
                color=C[3], ms=4, capsize=2, lw=0.9, label="ours: transd. GP, co-links, matched")  # fmt: skip
    ax.scatter(evc.loc[unis, "majority error"], yk + 0.05, marker="|", s=90, color=C[4],
               label="ours: majority-class error")  # fmt: skip
    ax.scatter(evc.loc[unis, "neighbour-vote error"], yk + 0.2, marker="x", s=25, color=C[5],
               label="ours: vote of true neighbour labels")  # fmt: skip
    ax.scatter(
        [PUBLISHED_T2.loc[u, "error"] / 100 for u in unis],
        yk - 0.3,
        marker="*",
        s=55,
        color="black",
        zorder=3,
    )
    ax.set_yticks(yk, unis, fontsize=7)
    ax.invert_yaxis()
    ax.set(xlabel="error (inverse 10-fold CV)", ylabel="university (WebKB)", title="Table 2: WebKB (LINQS subset)",
           xlim=(0, 0.75))  # fmt: skip
    h0, l0 = axes[0].get_legend_handles_labels()
    h1, l1 = axes[1].get_legend_handles_labels()
    fig.legend(h0 + h1, l0 + l1, loc="outside lower center", ncol=3, fontsize=7)
    if t1.protocol.smoke:
        fig.suptitle("smoke profile: 2 folds, numbers meaningless", fontsize=8)
    return fig


def check_tables(t1: Table1, t2: Table2, ev: Homophily, vs: pd.DataFrame) -> str:
    """Notebook 42 Sec. 6 (asserted): co-links heterophilous; the tail bound binds in no Table 1 fit, so the
    transductive and inductive RBF GP have equal errors; (full) WebKB far above the paper."""
    colinks = ev.table[ev.table.graph == "colinks"]
    assert (colinks["edge homophily"] < 0.6).all()
    b = t1.tail
    assert not b.binds.any(), "the tail-bound constraint binds in Table 1: update the text"
    same = t1.errors.dropna(subset=[T1M["ind"]])
    assert (same[T1M["rbf"]] == same[T1M["ind"]]).all()
    if not t1.protocol.smoke:
        w = vs[vs.setting.str.startswith("Table 2")]
        assert (w.verdict == "stand-in").all() and w.difference.isna().all()  # other data: no difference
        assert (w.ours - w.published > 0.2).all(), (
            "WebKB: ours is close to the paper after all: update the text"
        )
    return (
        f"co-link homophily: {colinks['edge homophily'].min():.3f}-{colinks['edge homophily'].max():.3f}; "
        f"neighbour-vote error {colinks['neighbour-vote error'].min():.3f}-"
        f"{colinks['neighbour-vote error'].max():.3f}\n"
        f"tail-bound constraint binds in {int(b.binds.sum())} of {len(b)} Table 1 transductive fits\n"
        + t1.errors.to_string(float_format=lambda x: f"{x:.4f}")
    )


def _rng(v, fmt=".3f"):
    v = np.asarray(list(v), float)
    v = v[np.isfinite(v)]
    if v.size == 0:
        return "—"
    return f"{v.min():{fmt}}" if np.isclose(v.min(), v.max()) else f"{v.min():{fmt}}–{v.max():{fmt}}"


def _short(d):
    return d.replace("uci-", "").replace("webkb-", "")


def reading_tables(t1: Table1, t2: Table2, ev: Homophily, vs: pd.DataFrame) -> str:
    """Notebook 42 Sec. 7: the reading of Tables 1 and 2, rendered from this run's tables."""
    p = t1.protocol
    tight = p.tight
    cmp1 = vs[vs.setting.str.startswith("Table 1") & (vs.verdict != "not available")]
    out = ["(Every number below is this run's; the tables above are the authority.)", ""]
    if p.smoke:
        out.insert(0, "*Smoke profile: two folds of two UCI sets and Cornell only; the words follow the numbers "
                      "but mean little.*\n")  # fmt: skip

    def verdicts(method):
        c = cmp1[cmp1.method == method]
        if c.empty:
            return "no compared row in this run"
        counts = c.verdict.value_counts()
        text = (", ".join(f"{w} on {int(counts.get(w, 0))}" for w in ("reproduced", "close", "differs"))
                + f" of the {len(c)} compared rows (differences {c.difference.min():+.3f} to "
                f"{c.difference.max():+.3f})")  # fmt: skip
        bad = c[c.verdict == "differs"]
        if len(bad):
            text += "; differs on " + ", ".join(
                f"{_short(r.dataset)} ({r.ours:.3f} vs {r.published:.3f}, {'worse' if r.difference > 0 else 'better'})"
                for r in bad.itertuples())  # fmt: skip
        return text

    s1 = t1.summary
    out.append(f"* **Table 1, transd. GP column.** With the RBF kernel our transductive GP is {verdicts(T1M['rbf'])}; "
               f"with our k-NN graph kernel it is {verdicts(T1M['knn'])}. The words are the scorecard's: "
               f"*differs* beyond {t1r.TOLERANCE:g}, *close* within it but more than {scorecard.Z_LIMIT:g} standard errors "
               "apart (both "
               "spreads), *reproduced* otherwise. The paper's \"cancer\" row "
               f"(no data) has the verdict *not available*. These comparisons use the {t1r.HEADLINE} reading of the "
               "extraction; the next item counts what the other readings change.")  # fmt: skip
    out.append(reading_assignments(table1_readings(t1)))
    if "uci-pima" in set(s1.dataset):
        pima = s1[(s1.dataset == "uci-pima")]
        out.append(f"  Pima errs {_rng(pima.error)} with every method and kernel against the published "
                   f"{_pub_t1()['uci-pima'][1][0] / 100:.3f} (transd. GP, {t1r.HEADLINE} reading).")  # fmt: skip
    out.append(
        f"* **Table 1, ind. GP column.** The inductive GP (RBF, `balance=False`) is {verdicts(T1M['ind'])}."
    )
    gain = PUBLISHED_T1.ind - PUBLISHED_T1.transd
    b_tail, b_tight = t1.tail, t1.bind[t1.bind.method == tight]
    piv1 = t1.errors
    has_tight = piv1.dropna(subset=[tight]) if tight in piv1 else piv1.iloc[:0]
    down = [d for d in has_tight.index if has_tight.loc[d, tight] < has_tight.loc[d, T1M["ind"]] - 1e-12]
    flat = [
        d for d in has_tight.index if abs(has_tight.loc[d, tight] - has_tight.loc[d, T1M["ind"]]) <= 1e-12
    ]
    up = [d for d in has_tight.index if d not in down and d not in flat]
    out.append(
        f"* **Ind. vs transd. GP.** The paper's transductive GP is {gain.min():.1f}–{gain.max():.1f} points better "
        f"than its inductive GP in each of its {len(gain)} rows ({t1r.HEADLINE} reading). With the tail-bound interval ($\\epsilon$ = "
        f"{_rng(b_tail.eps, '.2f')} when nine of ten folds are labelled) the balance constraint binds in "
        f"{int(b_tail.binds.sum())} of our {len(b_tail)} Table 1 fits, so our \"transductive\" GP gives the inductive "
        f"GP's errors there (asserted in §6; §4 checks the identity). Only a binding constraint separates them: with "
        f"$\\epsilon = {p.tight_eps:g}$ (binds in {int(b_tight.binds.sum())} of {len(b_tight)} fits) the error falls "
        f"on {len(down)} of {len(has_tight)} sets ("
        + ", ".join(f"{_short(d)} {has_tight.loc[d, T1M['ind']]:.3f} → {has_tight.loc[d, tight]:.3f}" for d in down)
        + f"), is unchanged on {len(flat)}" + (f" ({', '.join(_short(d) for d in flat)})" if flat else "")
        + (f" and rises on {', '.join(_short(d) for d in up)}" if up else "")
        + ". The paper does not give its interval; if its gain came from the constraint, the interval was much "
        "tighter than the tail bound (§6 measures it)."
    )  # fmt: skip
    both = piv1.dropna(subset=[T1M["knn"]])
    cmn_gap = both["harmonic + CMN"] - both[T1M["knn"]]
    cmn_better = cmn_gap[cmn_gap < 0]
    worst = both[[T1M["knn"], "LLGC (mu=1)", "harmonic + CMN"]].idxmax(axis=1)
    rbf_both = piv1.dropna(subset=[T1M["rbf"]]) if T1M["rbf"] in piv1 else piv1.iloc[:0]
    line = (f"* **Baselines, same folds, k-NN graph.** Harmonic + CMN is within {cmn_gap.abs().max():.3f} of the GP "
            "on every set (lower on "
            + (", ".join(f"{_short(d)} ({both.loc[d, 'harmonic + CMN']:.3f} vs {both.loc[d, T1M['knn']]:.3f})"
                         for d in cmn_better.index) or "none")
            + f"); untuned LLGC ($\\mu = 1$) is the worst of the three on {int((worst == 'LLGC (mu=1)').sum())} "
            f"of {len(both)} sets.")  # fmt: skip
    if "uci-tictactoe" in both.index:
        ytt = gs.load_dataset("uci-tictactoe").labels
        line += (f" On tic-tac-toe LLGC errs {both.loc['uci-tictactoe', 'LLGC (mu=1)']:.3f}, the majority-class rate "
                 f"{1 - np.bincount(ytt).max() / ytt.size:.3f}.")  # fmt: skip
    line += (f" The kernel matters more than the method: the RBF GP beats the k-NN-graph GP on "
             f"{int((rbf_both[T1M['rbf']] < rbf_both[T1M['knn']]).sum())} of the {len(rbf_both)} sets where both "
             "run.")  # fmt: skip
    out.append(line)
    s2, e2 = t2.summary, ev.table
    co = s2[s2.graph == "colinks"]
    gp_co = co[co.method == "transductive GP"].set_index("university")
    others = co[co.method != "transductive GP"]
    lk = s2[s2.graph == "links"]
    evc, evl = e2[e2.graph == "colinks"], e2[e2.graph == "links"]
    worse_m = gp_co[gp_co.error_matched > gp_co.error_argmax + 1e-12]
    four = PUBLISHED_T2.loc[list(FOUR)]
    out.append(
        f"* **Table 2.** On the LINQS WebKB subset our co-link errors with proportion matching are "
        f"{_rng(gp_co.error_matched, '.2f')} (argmax {_rng(gp_co.error_argmax, '.2f')}) against the published "
        f"{four.error.min():.0f}–{four.error.max():.0f} %; LLGC and harmonic + CMN on the same splits "
        f"give {_rng(others.error_matched, '.2f')}, and plain hyperlinks {_rng(lk.error_matched, '.2f')}. §3 shows "
        f"why no graph method comes near the published numbers on these graphs: co-link homophily is "
        f"{_rng(evc['edge homophily'], '.2f')}, plain-link homophily {_rng(evl['edge homophily'], '.2f')}; the "
        f"majority class alone errs {_rng(evc['majority error'], '.2f')}, and even the vote of *all true* neighbour "
        f"labels errs {_rng(evc['neighbour-vote error'], '.2f')} on co-links ({_rng(evl['neighbour-vote error'], '.2f')} "
        f"on links). The paper's crawl kept every page ({four.pages.min():,}–{four.pages.max():,} per university, "
        "7 classes): a different data set, so each row is a stand-in (a replication on other data, no difference "
        "taken against the paper's number) and Table 2 is not tested here."
        + (" Proportion matching makes our GP worse on " + ", ".join(
            f"{u.capitalize()} ({r.error_matched:.2f} vs {r.error_argmax:.2f})" for u, r in worse_m.iterrows())
           + ": the class fractions of one labelled fold are themselves noisy." if len(worse_m) else "")
    )  # fmt: skip
    return "## 7. Reading\n\n" + "\n".join(out)
