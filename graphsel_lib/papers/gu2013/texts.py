r"""The readings of gu2013 (notebooks 20-23) as templates, filled by :func:`graphsel_lib.course.prose.render`.

One template per reading, and one per repeated item (a graph, a method, a test). The fields are
``{value:fmt}``, lists ``{values*sep}``, and ``{claim?words if true|words if false}``; ``$...$`` is
math. Each result's ``reading_*`` method computes the values and claims, never the words.
"""

from __future__ import annotations

from graphsel_lib.course.prose import Reading, templated_reading

__all__ = ["TEMPLATES", "reading"]

TEMPLATES = {
    # ------------------------------------------------------------------ Table 2 (notebook 20)
    "table2.tolerance": (
        r"The **target configuration** is the one Sec. 5 finds on the published scale: the **mean binary "
        r"error with the bias feature**. Our tolerance on a mean error is an absolute difference of "
        r"{tol_cora} on Cora and PubMed, {std_ratio:.0f} times the published standard deviations over the "
        r"orders ({pub_std:.4f} on these three graphs), and {tol_coauthor} on Coauthor, a graph we rebuild "
        r"from the public DBLP four-area data (notebook 00), so that small differences from the authors' copy "
        r"do not count as a miss. The table gives every configuration anyway, each with its difference to the "
        r"published mean and the scorecard's verdict (reproduced, close, differs; a headline SSLGC run whose "
        r"label count misses the published by more than 25 % is a diagnostic, judged by its run at "
        r"the published budget); a miss carries its reason. IMDB is printed with its published numbers only "
        r"(not available); CiteSeer's rows are stand-ins: a replication on other data, no delta or z against "
        r"the paper's number."
    ),
    "table2.definition": (
        r"On Cora our multiclass error is {multi_ratio:.1f} times the published error of the same method "
        r"(with and without the bias). Read as a multiclass error, the published {pub_ollgc:.4f} of OLLGC "
        r"would mean a 7-way one-vs-rest argmax that is right {pub_right:.1%} of the time; the best multiclass "
        r"error of our tuned Cora runs is {best_multi:.4f} (right {best_multi_right:.1%} of the time). The "
        r"**{best_definition} error {best_bias?with|without} the bias** {lands?lands on|comes closest to} the "
        r"published numbers: mean |difference| {best_mean:.4f}, largest {best_max:.4f}, {best_within} of "
        r"{best_cells} cells within tolerance; the next closest configuration ({second_definition}, "
        r"bias={second_bias}) is off by {second_mean:.4f} on average."
    ),
    "table2.ttests": (
        r"In the target configuration OLLGC errs significantly less than GPA on "
        r"{ollgc_beats_gpa_somewhere?{ollgc_better*, }|no graph}, and SSLGC on "
        r"{sslgc_beats_gpa_somewhere?{sslgc_better*, }|no graph}"
        r"{some_not_better? (not: {not_better*; })|}. Between the two second-order learners, SSLGC errs "
        r"significantly less than OLLGC on {any_sslgc_less?{sslgc_less*, }|no graph}, significantly more on "
        r"{any_sslgc_more?{sslgc_more*, }|no graph}, and neither on {any_neither?{neither*, }|no graph}."
    ),
    "table2.ttests.not_better": r"{a} vs {b} on {dataset}, mean difference {diff:+.4f}, p = {p:.2g}",
    "table2.mu": (
        r"**What the $\mu$ sweep shows.** SSLGC's query count {count_falls_with_mu?falls at every step of "
        r"$\mu$ by a factor 10|does not fall at every step of $\mu$}, by {step:.0%} per step. Near its best "
        r"$\mu$ the error is flatter: the second-best $\mu$ of the grid errs {gap:.4f} more than the best "
        r"(over the datasets and the two learners). For SSLGC, going from the best to the second-best $\mu$ "
        r"changes the error by {switch_error:.4f} but the query count by {switch_count:.0%}, so the $\mu$ a "
        r"single held-out order picks matters for the count. The tuned (headline) SSLGC queries {tuned*; }."
        "\n\n"
        r"*Diagnostic, $\mu$ chosen on the evaluation orders to hit the published query count: not a "
        r"reproduction.* The $\mu$ whose count is nearest the paper's gives {matched*; }"
        r"{tuned_is_matched_somewhere? (on {same_mu*, } it is the tuned $\mu$ itself)|}. "
        r"{one_mu_meets_both?So at one $\mu$ of the grid both published numbers are met at once (count within "
        r"{q_close:.0%}, error within our tolerance): the query-count gaps of Sec. 4 are consistent with a "
        r"different choice of $\mu$, with no need for a different algorithm or query rule (this does not show "
        r"which $\mu$ the paper used). |No $\mu$ of the grid meets both published numbers at once on every "
        r"graph. }At these $\mu$ the count of nodes queried by *any* learner, $n_{\text{any}}$, is "
        r"{any_rel:+.0%} off the published count, the mean per binary learner $\bar n$ {match_rel:+.1%}: the "
        r'published "#queried" {published_count_is_mean?is $\bar n$.|is not clearly $\bar n$.}'
    ),
    "table2.mu.tuned": r"{tuned:.0f} against the paper's {paper:.0f} on {dataset} ({rel:+.1%}, $\mu$ = {mu:g})",
    "table2.mu.matched": r"{dataset}: $\mu$ = {mu:g}, count {rel:+.1%} and error {err:+.4f} from the paper's",
    "table2.efficiency": (
        r"With the tuned $\mu$ SSLGC meets the criterion on {meets_somewhere?{meets*, }|no graph}"
        r"{misses_somewhere?; it misses on {misses*; }|}."
        r"{diagnostic_meets? *Diagnostic (not a reproduction):* at a $\mu$ chosen on the evaluation orders it "
        r"would also meet it on {diagnostic*, }.|}"
    ),
    "table2.efficiency.miss": r"{dataset} (query ratio {ratio:.3f}, error {diff:+.4f} from OLLGC)",
    "table2.speed": (
        r"{measured?speed target: OLLGC one-vs-rest pass on PubMed, d=100: mean {mean:.3f} s, fastest "
        r"{fastest:.3f} s per order ({meets_target?meets|misses} the {target:g} s target on the mean; measured "
        r"at the load above)|speed target: not measured in this profile (PubMed at d = 100 only)}"
    ),
    "table2.times": (
        r"Ours against the paper, mean time per pass: {ratio_by*; }. From fastest to slowest, ours: "
        r"{order_ours*; }; the paper's: {order_paper*; }. Ratios to GPA, timed alone: {ratios*; }. "
        r"{sslgc_slower_than_ollgc?Our SSLGC is slower than our OLLGC on every graph: it computes its "
        r"confidence $r_t$ for every learner on every round, $O(Kd^2)$ (notebook 21), which costs more than "
        r"it saves by updating less.|Our SSLGC is not slower than our OLLGC on every graph.}"
    ),
    "table2.times.ratio": r"{method} {ratio:.2f} times the paper's",
    "table2.times.order": r"{dataset} {methods* < }",
    "table2.times.to_gpa": r"{dataset} {method}/GPA {ours:.1f} (paper {paper:.1f})",
    "table2.verdicts": (
        "{rows*\n}\n\ntarget configuration (mu tuned on the held-out order): {n_within} of {n_cmp} comparable "
        "error cells within our tolerance"
    ),
    "table2.verdicts.row": (
        r"{dataset:>9s} {method:>5s}: {comparable?ours {ours:.4f} vs paper {published:.4f} ({difference:+.4f}, "
        r"tolerance {tolerance}) -> {verdict}|{verdict}}"
    ),
    "table2.at_budget": (
        r"Set to the published budget on the held-out order, SSLGC errs within {bound:.3f} of the published "
        r"error on {several?all {n} graphs|its one graph}{all_reached?|, the budget not reached on {missed*, }}: {graphs*, * and }, at "
        r"$\kappa$ = {kappas:.2g*, * and }, asking for {counts:,.0f*, * and } labels per learner over the "
        r"evaluation orders (published {published_counts*, * and }). {moved*. }"
        r"{some_stay?{some_moved?; on|On} {stay*, * and } Table 2's run stays the headline and this one "
        r"{stay_reproduced?agrees with it (reproduced)|is judged *{stay_verdicts*, * and }*}.|.}"
    ),
    "table2.at_budget.graph": r"{ours:.4f} on {dataset} (published {published})",
    "table2.at_budget.moved": (
        r"On {dataset} the published budget costs {cost:.3f} in error: at $\kappa$ = {kappa:g} SSLGC asks for "
        r"{tuned_count:,.0f} labels and errs {tuned_error:.4f}. That is {extra:.1f} % {more?more|fewer} labels "
        r"than published, so on {dataset} this run at the published budget is SSLGC's headline error verdict, "
        r"*{verdict}* ({within_tol?within|more than} {tol} {within_tol?{close?but more than|and within} three "
        r"standard errors from|off} the published mean), and the run at $\kappa$ = {kappa:g} is the diagnostic "
        r"`error@tuned`"
    ),
    "table2.gpa_offsets": (
        r"GPA's multiclass error is higher with the bias on {bias_hurts_everywhere?every graph|"
        r"{bias_hurts_somewhere?{hurt*, }|no graph} (of {graphs*, })}. In the Cora pass the offsets differ "
        r"between the learners by {offset_spread:g} in the median round, while the part of a score that comes "
        r"from the graph features has a median size of {graph_size:.3f}: the offsets "
        r"{offsets_dominate?dominate|do not dominate} the argmax, which they change in {argmax_changed:.0%} of "
        r"the rounds. The argmax of the graph part alone would err {err_graph_part:.4f}, against {error:.4f} "
        r"with the offsets and {error_nobias:.4f} without the bias feature. The mean binary error only "
        r"compares each learner's own score with 0, and there the offset helps: {binary:.4f} with the bias "
        r"against {binary_nobias:.4f} without."
    ),
    # ------------------------------------------------------------------ Fig. 1 (notebook 21)
    "fig1": (
        r"**Reading.** {error_falls_with_d?The error falls at every step of $d$ for all three learners|The "
        r"error does not fall at every step of $d$ for {not_falling*, }}: from $d$ = {lo} to {mid} by "
        r"{drop_early_min:.4f} to {drop_early_max:.4f}{has_late?, from {mid} to {hi} by only "
        r"{drop_late_min:.4f} to {drop_late_max:.4f}|}. OLLGC and SSLGC err significantly less than GPA in "
        r"{n_better} of {n_tests} paired tests ({n_ranks} ranks × 2). Our errors span {e_min:.4f} to "
        r"{e_max:.4f}, {errors_in_published_axis?inside|not inside} the published axis ({axis_lo} to "
        r"{axis_hi}){has_d100?; at $d$ = 100 the differences to Table 2 are {d100*, } ({d100_within} of "
        r"{d100_n} within ±{tol})|}."
        "\n\n"
        r"The times differ in shape from the paper's. From $d$ = {lo} to {hi} the time of a pass is "
        r"multiplied by {growth*, }; SSLGC is the slowest learner at {sslgc_slowest_at_every_d?every $d$|"
        r"{n_slowest} of {n_ranks} ranks (not at $d$ = {not_slowest*, }, where a pass of any learner takes at "
        r"most {max_ms:.0f} ms)}. Here a GPA or OLLGC round costs $O(Kd)$ for the $K$ scores, plus $O(Kd^2)$ "
        r"only on the rounds where a learner updates; SSLGC must decide whether "
        r"$r_t = m_t^\top A_k^{-1} m_t > t^{-\kappa}$ for all $K$ learners on *every* round, $O(Kd^2)$ per "
        r"round done directly. From $d$ = 200 ours decides most of them by Woodbury's identity on learner $k$'s "
        r"own $m_k$ updates, $O(m_k d + m_k^2)$, and computes $A_k^{-1} m_t$ only for a learner that updates or "
        r"whose $r_t$ is too near the threshold to call: the same decisions bit for bit "
        r"(`graphsel_lib.online.query_certificate`; its speed-up in `benchmarks/bench_online.py`). In the paper's Table 2 (Cora, $d$ = 100) SSLGC "
        r"takes {paper_sslgc:.4f} s against OLLGC's {paper_ollgc:.4f} s (it updates less often), and OLLGC "
        r"costs {paper_ollgc_gpa:.1f} times its GPA already, which suggests that the paper's OLLGC also does "
        r"$O(d^2)$ work on every round; the paper does not describe its implementation, so we cannot say "
        r"more. Our times were measured with two passes at once on a shared machine (load average printed "
        r"above), so their spread mostly measures the other jobs{time_falls_somewhere?: in this run the mean "
        r"time even falls from one rank to the next in {n_down} of {n_steps} steps|}."
    ),
    "fig1.d100": r"{method} {difference:+.4f}",
    "fig1.growth": r"{growth:.3g} for {method}",
    # ------------------------------------------------------------------ Fig. 2 (notebook 22)
    "fig2.endpoints": (
        r"{pubmed_run?On PubMed the end points differ from Table 2 by {diffs*, } ({n_within} of {n} within "
        r"±{tol}); SSLGC's end count of queries is {q_ours:.0f} per learner against the paper's {q_paper:.0f} "
        r"({q_rel:+.1%}).|No published end point is run in this profile (PubMed is not in it).}"
    ),
    "fig2.endpoints.diff": r"{method} {difference:+.4f}",
    "fig2.axes": r"Error axes: {axes*; }. The paper's error axes: {paper_axes*, }.",
    "fig2.axes.ours": (
        r"{dataset} {lo:.3f} to {hi:.3f}, which holds every curve from round {from_round:.0f} ({share:.0%} "
        r"of the rounds) on; before that the cumulative error reaches {peak:.2f} and is cut off"
    ),
    "fig2.axes.paper": r"{name} {lo} to {hi}",
    "fig2": (
        r"**Reading.** {graphs* }{pubmed_run? On PubMed SSLGC ends {sslgc_below_ollgc_on_pubmed?below|above} "
        r"OLLGC, {as_in_paper?as in the paper|unlike the paper} ({paper_diff:+.4f} there).|}"
        "\n\n"
        r"The time curves are {time_curves_straight?close to straight lines|not straight lines}: at half the "
        r"rounds they have used {halves:.2f} of the final time (0.5 for a straight line, i.e. every round "
        r"costs about the same). They do not show the paper's ordering: its SSLGC takes {paper_ratio* and }, "
        r"ours {time_ratio* and }{sslgc_slower_everywhere?. Here SSLGC's query rule costs $O(Kd^2)$ on every "
        r"round (notebook 21), more than it saves by updating less|}. The absolute times depend on the load of "
        r"the shared machine at the time of the run (printed above)."
    ),
    "fig2.graph": (
        r"On {dataset} the cumulative error falls by {fall:.4f} between round {tenth} (a tenth of the rounds) "
        r"and the end; {below*; }. SSLGC asks for {q_first:.0%} of the labels in the first tenth of the rounds "
        r"and {q_last:.0%} in the last tenth (mean per learner), and ends {gap:.4f} {sslgc_below?below|above} "
        r"OLLGC's error."
    ),
    "fig2.graph.below": (
        r"{method} {stays_below?stays below GPA from round {round} on{visible? ({share:.0%} of the rounds)|}|"
        r"ends {level?level with|above} GPA ({diff:+.4f})}"
    ),
    "fig2.paper_ratio": r"{ratio:.2f} of its OLLGC's time on {dataset}",
    "fig2.our_ratio": r"{ratio:.2f} times our OLLGC's on {dataset}",
    # ------------------------------------------------------------------ Fig. 3 (notebook 23)
    "fig3": (
        r"**Reading.** {graphs* }"
        "\n\n"
        r"The paper's claim, SSLGC better than random sampling at every ratio, holds here on "
        r"{holds_somewhere?{holds*, }|no graph}{fails_somewhere? and not on {fails*, }|}."
        r"{stand_in_fails? {stand_in} is a different graph, so it says nothing about the paper's IMDB panel, "
        r"which we cannot check.|}"
        "\n\n"
        r"Shape: our query ratio saturates ({shape*; }), while the published ratio axes end at {axis_end}"
        r"{several_kappas_one_point?, so several $\kappa$ give the same point here|}. Both the saturation and "
        r"the smallest ratio depend on $\mu$ (notebook 20, Sec. 7: a larger $\mu$ queries less), which the "
        r"paper does not report per dataset."
    ),
    "fig3.graph": (
        r"On {dataset} SSLGC errs significantly less {better_at_every_kappa?than random sampling at every "
        r"$\kappa$, by {gain:.4f} (median {gain_median:.4f})|at {n_better} of {n} values of $\kappa$"
        r"{better_somewhere? ($\kappa$ = {better:g*, })|}{worse_somewhere?, significantly more at {worse*, }|}"
        r"{tie_somewhere?, with no significant difference at $\kappa$ = {tie:g*, }|}}. At the largest ratio "
        r"({last_ratio:.3f}{saturated?; random sampling is then GPA on almost every label|}) the gap is "
        r"{last_gap:+.4f}.{more_queries_hurt? SSLGC's lowest error, {best_error:.4f}, is reached at a ratio of "
        r"{best_ratio:.2f} ($\kappa$ = {best_kappa:g}); querying more makes it worse ({last_error:.4f} at the "
        r"largest ratio){imbalance_note?; gu2013 Sec. 6.5 gives class imbalance as the reason why SSLGC can "
        r"beat OLLGC on PubMed|}.|}"
    ),
    "fig3.graph.worse": r"$\kappa$ = {kappa:g} (ratio {ratio:.2f}, {gap:+.4f})",
    "fig3.shape": (
        r"{dataset}: {saturates?ratio ≥ 0.98 from $\kappa$ = {saturates_from:g}|ratio below 0.98 at every "
        r"$\kappa$}{below_paper_axis?, smallest ratio {ratio_min:.2f} (the paper's axis starts at {axis_start})|}"
    ),
}


def reading(key: str, claims: dict | None = None, **values) -> Reading:
    """The :class:`~graphsel_lib.course.prose.Reading` of template ``key`` with these ``values`` and ``claims``."""
    return templated_reading(
        TEMPLATES, key, claims, values, missing="no gu2013 reading {key!r}", name="gu2013"
    )
