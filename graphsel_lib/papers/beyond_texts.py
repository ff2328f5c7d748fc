r"""The readings of notebooks 34-35 (FastONL's relaxation learner), 40 (zhang2006) and 41 (the transductive peers).

Filled by :func:`graphsel_lib.course.prose.render`: one template per reading, and one per repeated item
(a graph). The fields are ``{value:fmt}``, lists ``{values*sep}``, and ``{claim?words if true|words if
false}``; ``$...$`` is math. The ``reading*`` methods of :mod:`graphsel_lib.papers.transductive_peers`,
:mod:`graphsel_lib.papers.fastonl` and :mod:`graphsel_lib.papers.zhang2006` compute the values and claims,
never the words.
"""

from __future__ import annotations

from graphsel_lib.course.prose import Reading, templated_reading

__all__ = ["TEMPLATES", "reading"]

TEMPLATES = {
    # ------------------------------------------------------------------ transductive peers (notebook 41)
    "peers.agreement": (
        r"Both mappings are exact: at a tight tolerance the iterative peers reproduce our direct solutions to "
        r"$10^{-6}$ or better (asserted). At networkx's default budget of 30 iterations they are not at the "
        r"fixed point: the predictions agree with it on {agree_harmonic:.1%} (harmonic) and {agree_llgc:.1%} "
        r"(LLGC) of the nodes. That is a property of the default, not a different estimator; the accuracy "
        r"table below uses networkx's default `max_iter=30` (what a user gets) and scikit-learn with "
        r"`max_iter={sk_max_iter}`, `tol={sk_tol:g}`."
    ),
    "peers.intro": (
        r"{has_pubmed?In the accuracy table the plain harmonic function reaches {h_mean:.3f} ± {h_std:.3f} on "
        r"PubMed (mean ± std over {n_splits} splits), against {cmn_mean:.3f} ± {cmn_std:.3f} with class mass "
        r"normalisation, and scikit-learn's `LabelPropagation` (the same estimator, iterated) {lp_mean:.3f}. "
        r"|*Smoke profile: PubMed is not in the accuracy table; the harmonic function alone is run on it "
        r"below.* }Below, per split: the error without and with CMN, the class proportions the harmonic "
        r"function predicts on $U$, the true proportions, and the mean harmonic score of each class over $U$."
    ),
    "peers.collapse": (
        r"PubMed has {n_nodes:,} nodes and mean degree {mean_degree:.2f}; a collapse onto one class would give "
        r"an error of {collapse_error:.2f} (one minus that class's share). Over {n_splits} splits the plain "
        r"harmonic function errs {e0_mean:.3f} ± {e0_std:.3f} (from {e0_min:.3f} to {e0_max:.3f}), with CMN "
        r"{e1_mean:.3f} ± {e1_std:.3f}. On {n_collapsed} of the {n_splits} splits one class takes more than "
        r"90 % of the plain predictions; CMN lowers the error on each of them by more than 0.1 and keeps every "
        r"predicted share below 90 % (asserted).{mixed? The gap between the top two entries of $\bar f$ is "
        r"{ratio_collapsed:.1f} times the median row deviation on the collapsed splits and {ratio_other:.1f} "
        r"times on the others: the collapse is a property of the **split**, set by where the 60 labelled nodes "
        r"fall, not of every draw.|}"
    ),
    "peers.truncated": (
        r"{has_pubmed?**The truncated iterations avoid it — by not converging.** In the accuracy table "
        r"networkx's `harmonic_function` at its default 30 iterations reaches {nx30:.3f} accuracy on PubMed, "
        r"while scikit-learn's `LabelPropagation`, run towards the fixed point, reaches {sk:.3f}, close to our "
        r"exact solution's {ours:.3f}; it stopped at its cap of {sk_max_iter:,} iterations without reaching "
        r"`tol={sk_tol:g}` on {n_capped} of {n_fits} PubMed fits. After 30 Jacobi sweeps from $F_U = 0$, "
        r"$F_U[i,k]$ is the probability that the walk from $i$ hits a class-$k$ label *within 30 steps*: only "
        r"the local evidence, no common far-field vector $\bar f$. Early stopping acts as a regulariser here; "
        r"it is not the harmonic function (§2: on Cora its predictions differ from the fixed point on "
        r"{disagree:.1%} of the nodes).|*Smoke profile: the networkx and scikit-learn runs on PubMed are in the "
        r"full profile only.*}"
    ),
    # ------------------------------------------------------------------ FastONL (notebook 34)
    "fastonl.push_vs_exact": (
        r"On Cora with $\beta$ = {beta_fraction:g}$\,n$ the push kernel errs {push_error:.4f} and the exact "
        r"kernel {exact_error:.4f} ({gap:.4f} apart, asserted below 0.02); a pass takes {push_s:.2f} s with the "
        r"push and {exact_s:.2f} s with the exact kernel, plus {build_s:.2f} s once for the dense inverse."
    ),
    "fastonl.vs_reference": r"{graphs* }",
    "fastonl.vs_reference.graph": (
        r"On {dataset} our relaxation learner errs {ours:.4f} ± {ours_std:.4f} against {published:.2f} for the "
        r"reference run ({difference:+.4f}: {reaches?it reaches it|it does not reach it})."
    ),
    "fastonl.compare": "{graphs*\n}",
    "fastonl.compare.graph": (
        r"* **{dataset}.** *Error:* relaxation {relax_error:.4f}, CMOG {cmog_error:.4f}, MSG {msg_error:.4f} "
        r"(tuned {msg_h}): the lowest is {relax_lowest?the relaxation learner|{cmog_lowest?CMOG|MSG}}. "
        r"*Labels:* MSG queries {msg_labels:.1f} % of the nodes at an error {msg_minus_relax:+.4f} from the "
        r"relaxation learner's (all labels); over the whole $h$ grid its best error is {best_error:.4f} (at "
        r"{best_labels:.1f} % of the labels), {no_h_reaches?so no $h$ reaches the relaxation learner's error: "
        r"MSG saves labels at a higher error, not at a comparable one. |within one standard deviation of the "
        r"relaxation learner's error. }*Time per pass:* push {relax_s:.2f} s ({relax_ms_per_round:.2f} ms per "
        r"round), MSG {msg_s:.3f} s, CMOG {cmog_s:.3f} s (after a one-off eigendecomposition, cached on disk)."
    ),
    # ------------------------------------------------------------------ selective relaxation (notebook 35)
    "fastonl.selective": (
        r"* **Does the margin rule reach the fully supervised error with a fraction of the labels?** "
        r"{reach*; }."
        "\n"
        r"* **Does the rule do the work?** At every label budget random queries are worse than margin queries "
        r"(asserted above): {work*; }. {gap_shrinks?The gap shrinks as both approach full supervision.|}"
        "\n"
        r"* **Against MSG.** {few_labels?With fewer than a quarter of the labels the selective relaxation "
        r"learner's best error is {vs_msg*; } (asserted lower in the full profile). |No margin budget below a "
        r"quarter of the labels in this profile. }The gap at equal labels is the gap of notebook 34: it comes "
        r"with the full-rank kernel, not with the query rule. MSG keeps the cheaper round: {times*; }. Smallest "
        r"budgets measured: {budgets*; }."
        "\n"
        r"* **Caveats.** Our rule is a heuristic transplanted from linear selective sampling: we prove no "
        r"mistake or label-complexity bound for it, and the relaxation's regret guarantee covers the rounds it "
        r"updates on, not the skipped ones. $b$ is not tuned here: the sweep *is* the result."
    ),
    "fastonl.selective.reach": (
        r"{dataset}: the fully supervised error is {full_error:.4f} ± {full_std:.4f}; the margin rule is "
        r"{reaches_full?within one standard deviation of it at {reach_labels:.1f} % of the labels "
        r"({reach_error:.4f})|never within one standard deviation of it (best {best_error:.4f})}"
        r"{near?, within 0.01 from {near_labels:.1f} % ({near_error:.4f}, {near_diff:+.4f})|}"
        r"{reaches_reference?; it reaches the reference run's ≈ {reference:.2f} from {ref_labels:.1f} % of "
        r"the labels (error {ref_error:.4f})|}"
    ),
    "fastonl.selective.work": (
        r"{dataset} by {gap_min:.4f} to {gap_max:.4f}{below_half? ({gap_below_half:.4f} below half of the "
        r"labels)|}, {gap_last:.4f} at the largest budget ({last_labels:.1f} %)"
    ),
    "fastonl.selective.vs_msg": (
        r"{dataset} {error:.4f} at {labels:.1f} % of the labels against MSG's best {msg_error:.4f} (at "
        r"{msg_labels:.1f} %)"
    ),
    "fastonl.selective.time": r"{dataset}: {msg_s:.3f} s per pass against {margin_s:.2f} s for the margin rule",
    "fastonl.selective.budget": (
        r"{dataset}: MSG {msg_labels:.1f} % of the labels at its smallest $h$, the margin rule "
        r"{margin_labels:.1f} % at its smallest $b$ ({msg_lower?MSG goes lower|the margin rule goes lower})"
    ),
    # ------------------------------------------------------------------ zhang2006 (notebook 40)
    "zhang2006.reading": (
        r"{smoke?*Smoke profile: one pair, one label count, one split; the words follow the numbers but mean "
        r"little.* |}**What this run shows** ({n_splits} split{many_splits?s} per cell, {n_cells} "
        r"cell{many_cells?s}; the tables above are the authority):"
        "\n\n"
        r"* **The prior on log σ {prior_lower?is essential at few labels|did not lower the error on every pair "
        r"at few labels in this run}.** With {lo_n} labels pure LOOHL (no prior) errs {prior_lower?{pure:.2f} "
        r"{many_pairs?across the pairs|on the pair}, regularised LOOHL at most {reg_max:.3f} (lower on every "
        r"pair)|{pure:.4f} {many_pairs?across the pairs|on the pair}, regularised LOOHL {reg:.4f} (lower on "
        r"{n_prior_lower}, equal on {n_prior_equal} and higher on {n_prior_higher} of the {n_pairs} "
        r"pair{many_pairs?s})}. With a handful of labelled points the leave-one-out loss {prior_lower?is|can be} "
        r"driven to zero by degenerate "
        r"bandwidths that cut unlabelled images off from every label (notebook 11; zhang2006 Fig. 1 shows such "
        r"graphs and names no margin by which the prior must win)."
        "\n"
        r"* **Mean error over the {n_cells} cells:** {means*, }. Regularised LOOHL is below HEM σ₀ in "
        r"{n_below} cells, above it in {n_above}, equal in {n_equal}; in {n_clear} of the {n_cells} cells the "
        r"difference exceeds the larger of the two standard deviations over the splits{not_significant?, so "
        r"with {n_splits} splits the ranking is not significant.|.}"
        "{bad_split?\n"
        r"* **The worst split.** On {bad_pair} with {bad_labels} labels the single bandwidth errs "
        r"{bad_worst:.3f} on its worst split (mean {bad_mean:.4f}), regularised LOOHL at most {bad_loohl:.3f}.|}"
        "\n"
        r"* **Cross-validation picks σ₀.** On {picked} of {n_cv} splits the leave-one-out loss over "
        r"c ∈ {{{c_grid:g*, }}} is smallest at c = 1, so HEM CV and HEM σ₀ differ by at most {same_cv:.4f} in "
        r"any cell. σ₀ = d₀/3 is {sigma0_best?the best c of the grid|not the best c} on every pair: averaged "
        r"over label counts and splits, HEM's test error at c = 1 is {at_sigma0*, }, at the best other c of "
        r"the grid {best_other:.3f*, }."
        "\n"
        r"* **No published comparison**: zhang2006's experiments are in the part of the paper our copy lacks."
    ),
    "zhang2006.reading.mean": r"{method} {error:.4f}",
    "zhang2006.reading.at_sigma0": r"{error:.3f} ({pair})",
}


def reading(key: str, claims: dict | None = None, **values) -> Reading:
    """The :class:`~graphsel_lib.course.prose.Reading` of template ``key`` with these ``values`` and ``claims``."""
    missing = "no reading {key!r} for notebooks 34, 35, 40 and 41"
    return templated_reading(TEMPLATES, key, claims, values, missing=missing, name="beyond")
