r"""The readings of gaertner2005 (notebooks 42 and 43) as templates, filled by :func:`graphsel_lib.course.prose.render`.

One template per reading, and one per repeated item (a data set, a cell, a method). The fields are
``{value:fmt}``, lists ``{values*sep}``, and ``{claim?words if true|words if false}``; ``$...$`` is math
(it holds no field: ``$\epsilon$ = {eps:g}``). The ``reading*`` functions of
:mod:`graphsel_lib.papers.gaertner2005` compute the values and claims, never the words.
"""

from __future__ import annotations

from graphsel_lib.course.prose import Reading, templated_reading

__all__ = ["TEMPLATES", "reading"]

TEMPLATES = {
    # ------------------------------------------------------------------ Table 1 as published (notebook 42)
    "published_t1": (
        "| row (paper) | #inst / #attr | S3VM-MIP | {readings* | } | our dataset |\n"
        "|{rule*|}|\n"
        "{rows*\n}\n\n{arguments*\n}"
    ),
    "published_t1.row": (
        r"| {row} | {inst} / {attr} | {has_s3vm?{s3vm}|—} | {cells* | } | {noted?{note}|`{ours}`} |"
    ),
    "published_t1.cell": (r"{ind_agrees?{ind}|*{ind}*} / {transd_agrees?**{transd}**|***{transd}***}"),
    "published_t1.argument": r"* **{name}**{headline? (headline)|}: {why}.",
    # ------------------------------------------------------------------ Sec. 6 (notebook 42)
    "transduction": (
        r"**What the constraint did.** At the tail-bound interval it binds in {tail_binds} of {fits} fits, and "
        r"the transductive GP {same?returns the inductive GP's errors on every set|differs from the inductive "
        r"GP on some set}. At $r^\pm = \hat p_{train} \pm$ {tight_eps:g} it binds in {tight_binds} of {fits} "
        r"fits and changes {changed} of {test_points} test predictions; {moves}. Median relative reduction "
        r"{median:.0%} (mean {mean:.0%}){published?; the paper's readable rows give {pub_lo:.0%} to "
        r"{pub_hi:.0%}|}. Where it binds, the constraint moves test points across the decision boundary toward "
        r"the class shares of the training folds; it does not use the labels of the test points. But it is not "
        r"information from the unlabelled points alone: the folds are stratified, so the class shares of a test "
        r"fold are within {gap:.3f} of those of its training folds (largest gap per set), and an interval of "
        r"half-width {tight_eps:g} around them tells the GP close to the true class counts of the test fold, "
        r"which the inductive GP does not use. The paper's interval is not given; ours is chosen to bind, not "
        r"tuned, so these reductions show what the constraint can do, not what the paper measured."
        "\n"
    ),
    "moves": (
        r"the error falls on {n_down} of {n_sets} sets{any_down? ({down*, })|}, is unchanged on {n_flat}"
        r"{any_flat? ({flat*, })|}{any_up? and rises on {up*, }|}"
    ),
    "moves.fall": r"{dataset} {before:.3f} → {after:.3f}{relative? ({reduction:.0%})|}",
    # ------------------------------------------------------------------ Sec. 7 (notebook 42)
    "tables": (
        "## 7. Reading\n\n"
        r"{smoke?*Smoke profile: two folds of two UCI sets and Cornell only; the words follow the numbers but "
        "mean little.*\n\n|}"
        "(Every number below is this run's; the tables above are the authority.)\n\n"
        r"* **Table 1, transd. GP column.** With the RBF kernel our transductive GP is {rbf}; with our k-NN "
        r"graph kernel it is {knn}. The words are the scorecard's: *differs* beyond {tolerance:g}, *close* within "
        r"it but more than {z_limit:g} standard errors apart (both spreads), *reproduced* otherwise. The "
        'paper\'s "cancer" row (no data) has the verdict *not available*. These comparisons use the '
        r"{headline} reading of the extraction; the next item counts what the other readings change."
        "\n{assignments}\n"
        r"{pima?  Pima errs {pima_errors:.3f} with every method and kernel against the published "
        "{pima_published:.3f} (transd. GP, {headline} reading).\n|}"
        r"* **Table 1, ind. GP column.** The inductive GP (RBF, `balance=False`) is {ind}."
        "\n"
        r"* **Ind. vs transd. GP.** The paper's transductive GP is {gain_lo:.1f}–{gain_hi:.1f} points better "
        r"than its inductive GP in each of its {n_published} rows ({headline} reading). With the tail-bound "
        r"interval ($\epsilon$ = {tail_eps:.2f} when nine of ten folds are labelled) the balance constraint "
        'binds in {tail_binds} of our {tail_fits} Table 1 fits, so our "transductive" GP gives the inductive '
        r"GP's errors there (asserted in §6; §4 checks the identity). Only a binding constraint separates them: "
        r"with $\epsilon$ = {tight_eps:g} (binds in {tight_binds} of {tight_fits} fits) {moves}. The paper does "
        r"not give its interval; if its gain came from the constraint, the interval was much tighter than the "
        r"tail bound (§6 measures it)."
        "\n"
        r"* **Baselines, same folds, k-NN graph.** Harmonic + CMN is within {cmn_gap:.3f} of the GP on every "
        r"set (lower on {cmn_lower?{cmn_better*, }|none}); untuned LLGC ($\mu = 1$) is the worst of the three "
        r"on {llgc_worst} of {n_knn} sets.{tictactoe? On tic-tac-toe LLGC errs {ttt_llgc:.3f}, the "
        r"majority-class rate {ttt_majority:.3f}.|} The kernel matters more than the method: the RBF GP beats "
        r"the k-NN-graph GP on {rbf_beats} of the {n_rbf} sets where both run."
        "\n"
        r"* **Table 2.** On the LINQS WebKB subset our co-link errors with proportion matching are "
        r"{gp_matched:.2f} (argmax {gp_argmax:.2f}) against the published {pub_lo:.0f}–{pub_hi:.0f} %; LLGC "
        r"and harmonic + CMN on the same splits give {others:.2f}, and plain hyperlinks {links:.2f}. §3 shows "
        r"why no graph method comes near the published numbers on these graphs: co-link homophily is "
        r"{colink_homophily:.2f}, plain-link homophily {link_homophily:.2f}; the majority class alone errs "
        r"{majority:.2f}, and even the vote of *all true* neighbour labels errs {vote_colinks:.2f} on co-links "
        r"({vote_links:.2f} on links). The paper's crawl kept every page ({pages_lo:,}–{pages_hi:,} per "
        r"university, 7 classes): a different data set, so each row is a stand-in (a replication on other "
        r"data, no difference taken against the paper's number) and Table 2 is not tested here."
        r"{matching_hurts? Proportion matching makes our GP worse on {hurt*, }: the class fractions of one "
        r"labelled fold are themselves noisy.|}"
    ),
    "tables.verdicts": (
        r"{compared?reproduced on {n_reproduced}, close on {n_close}, differs on {n_differs} of the {n} compared "
        r"rows (differences {diff_lo:+.3f} to {diff_hi:+.3f}){any_differs?; differs on {differs*, }|}|no "
        r"compared row in this run}"
    ),
    "tables.verdicts.differs": r"{dataset} ({ours:.3f} vs {published:.3f}, {worse?worse|better})",
    "tables.cmn_better": r"{dataset} ({cmn:.3f} vs {gp:.3f})",
    "tables.hurt": r"{university} ({matched:.2f} vs {argmax:.2f})",
    "assignments": (
        r"* **Table 1 readings.** {compared?Of our {n_cells} compared cells (both GP columns, headline "
        r"methods), {n_settled} get one verdict under all {n_readings} readings ({counts*, }) and {n_dependent} "
        r"{one_dependent?is|are} reading-dependent{any_dependent? ({dependent*, })|}; a reading-dependent cell "
        r"gets no verdict of its own in the scorecard (`42_gaertner2005_table1_readings`).|No compared cell in "
        r"this run.}"
    ),
    "assignments.count": r"{count} {verdict}",
    # ------------------------------------------------------------------ Sec. 3 (notebook 43)
    "scaling": (
        r"{smoke?*Smoke profile: balls of a few thousand nodes and one repeat; the words follow the numbers but "
        "the published claim is checked in the full profile only.*\n\n|}"
        "## 3. Reading\n\n"
        r"**What the paper reports.** gaertner2005 gives no timings: Sec. 2 argues $O(m)$ per CG step and "
        r'"overall time costs in the order of $O(m\log m)$ to $O(m^2)$ worst case", and Sec. 6 ran Epinions '
        r"({pub_people:,} people, {pub_edges:,} directed trust edges in their copy; ours has {n_nodes:,} nodes "
        r'and {n_edges:,} undirected edges) only to show that "the algorithm can be run on very large graph '
        r'datasets" (it got {pub_top} % of the top reviewers right; we have no such labels). The Discussion '
        r'points to "sparse $O(m^{1.3})$ solvers for graphs" as future work. So the comparable number is the '
        r"exponent."
        "\n\n**What we measure** (tables above; the claims marked asserted are checked in the full profile):\n\n"
        r"* On the whole graph ({largest:,} nodes) one fit takes {at_largest*, } on 2 shared cores. Fitted over "
        r"all {n_sizes} balls the slopes are {slopes*, }; over the {top_n} largest balls {top_slopes:.2f*, }. "
        r"{below_two?Every slope is below 2 (asserted): the paper's claim holds.|Not every slope is below 2 in "
        r"this run (the full profile asserts it): the paper's claim does not hold here.}"
        "\n"
        r"* The GP on the structured (Voronoi) labels has slope {s_gp:.2f} over all sizes and {s_gp_top:.2f} "
        r"over the largest, {in_range?inside the paper's range|outside the paper's range of 1 to 2}. Its time "
        r"per CG iteration grows with slope {per_cg:.2f} ({per_cg_linear?asserted between 0.8 and 1.3: one CG "
        r"step is about linear in $m$|outside 0.8 to 1.3 in this run, where the full profile asserts it}), and "
        r"the iteration counts grow from {newton_first} to {newton_last} Newton steps and from {cg_first} to "
        r"{cg_last} CG iterations (×{cg_growth:.1f}) while the graph grows ×{growth:.0f}{in_range?: Newton–CG "
        r"with a sparse $K^{-1}$ behaves as the paper's argument says.|.}"
        "\n"
        r"* **The labelling matters.** On iid random labels the GP needs {newton_iid} Newton steps on the whole "
        r"graph {iid_fewer_newton?instead of {newton_last}|against {newton_last} on the structured labels (not "
        r"fewer in this run)}, its slope is {s_iid:.2f} instead of {s_gp:.2f} ({iid_lower?asserted "
        r"lower|not lower in this run, where the full profile asserts it}), and it is {iid_faster?{speed:.1f}× "
        r"faster|not faster ({speed:.1f}× its time)} on the whole graph.{iid_fewer_newton? Our reading, not "
        r"checked further: random labels are nearly uninformative, so the optimum stays near $t = 0$ where the "
        r"objective is close to quadratic and Newton converges in a few steps, while labels that agree with the "
        r"graph make the posterior confident over large regions and the softmax curvature varied. A scaling claim "
        r"measured on random labels would flatter the method.|}"
        "\n"
        r"* LLGC and harmonic + CMN are one sparse SPD solve each. Their slopes over all sizes are "
        r"{solve_slopes:.2f*, }; from {size0:,} to {size1:,} nodes their time goes {first_steps* and }"
        r"{overhead? (fixed overhead dominates the left end)|}. Over the {top_n} largest balls their slopes are "
        r"{solve_top:.2f* and }{below_one*}."
        "\n"
        r"* Time is not a function of the edges alone. The balls of a social network grow denser before they "
        r"grow wider{smoke?| (the 15,000-node ball already holds {edge_share:.0%} of the edges, asserted above one "
        r"half)}, so the outer balls add many low-degree nodes and few edges, yet the time keeps rising: "
        r"{edges_steeper?every slope against the edges is steeper than against the nodes (asserted; right "
        r"panel)|not every slope against the edges is steeper than against the nodes in this run (the full "
        r"profile asserts it; right panel)}. The per-node work (vectors of length $m$ with $K$ columns, "
        r"preconditioner set-up) counts as much as the sparse products. Accordingly the sparse citation "
        r"graphs {smoke?|({deg_lo:.1f}–{deg_hi:.1f} edges per node against {deg_epinions:.1f} for the whole of "
        r"Epinions) }sit near the Epinions lines against nodes and far to their left against edges."
        "\n"
        r"* Timings on a shared machine are noisy; the tables record the run that wrote the figure."
    ),
    "scaling.at_largest": r"{seconds:.2f} s ({method})",
    "scaling.slope": r"{slope:.2f} ({method})",
    "scaling.step": r"{before:.3f} → {after:.3f} s",
    "scaling.below_one": (
        r"; {method} stays below 1 there too, where the nodes grow ×{grow_n:.1f} {edges_slower?but the edges "
        r"only|and the edges} ×{grow_e:.1f}"
    ),
    "assignments.dependent": r"{row} {column}: {verdicts* / }",
}


def reading(key: str, claims: dict | None = None, **values) -> Reading:
    """The :class:`~graphsel_lib.course.prose.Reading` of template ``key`` with these ``values`` and ``claims``."""
    return templated_reading(
        TEMPLATES, key, claims, values, missing="no gaertner2005 reading {key!r}", name="gaertner2005"
    )
