r"""The readings of notebook 44 (scaling online learning) as templates, filled by :func:`graphsel_lib.course.prose.render`.

One template per reading, and one per repeated item (a learner, a size, a solver). The fields are
``{value:fmt}``, lists ``{values*sep}``, and ``{claim?words if true|words if false}``; ``$...$`` is math.
The ``reading*`` methods of :mod:`graphsel_lib.papers.scaling` compute the values and claims, never the words.
"""

from __future__ import annotations

from graphsel_lib.course.prose import Reading, templated_reading

__all__ = ["TEMPLATES", "reading"]

TEMPLATES = {
    # ------------------------------------------------------------------ Sec. 2: the embedding
    "embedding": (
        r"**Reading.** The learners' embeddings at rank {d}: "
        r"{rows*; * and }.{not_embedded? None is computed at {missing:,*, * or } nodes: section 3b embeds the "
        r"largest graph at rank 10 instead.|} The solvers side by side and their time against n are measured "
        r"by `benchmarks/bench_spectral.py` (its docstring gives the command for this graph)."
    ),
    "embedding.row": (
        r"at n = {nodes:,} {solver} took {seconds:.1f} s ({has_iterations?{iterations} iterations, |}traced "
        r"peak {peak:,.0f} MiB, largest relative residual {residual}{has_check?; check of missed eigenvalues: "
        r"{check}|})"
    ),
    # ------------------------------------------------------------------ Sec. 2c: approximate embeddings
    "approximate": (
        r"**Reading.** {tols*; }."
        "\n\n"
        r"{fine?Here an embedding whose largest relative residual is at most {loose:.0e} moved neither "
        r"learner's error by more than 0.005.|No looser tolerance kept both errors within 0.005 of the exact "
        r"ones.} Fewer pairs (the first d' of the exact embedding, no solve): {fewer*; }."
        "\n\n"
        r"The relaxation learner, which needs no embedding, errs {relax_error:.4f} on the same pass, against "
        r"{best_spectral:.4f} for the better spectral learner on the exact embedding. {localised:.0%} of the "
        r"{d} eigenvectors live on five nodes or fewer and their span holds {captured:.0%} of the class "
        r"structure (section 2b){nodes_not_blocks?: on this heavy-tailed graph the smallest eigenpairs of "
        r"$L = D - S$ describe its low-degree nodes more than its blocks.|.}"
    ),
    "approximate.tol": (
        r"tol {tol}: residual {residual:.0e}, {share:.0%} of the exact solver's time, error change "
        r"{ollgc:+.4f} (OLLGC) and {msg:+.4f} (MSG)"
    ),
    "approximate.fewer": r"{embedding} changes the errors by {ollgc:+.4f} (OLLGC) and {msg:+.4f} (MSG)",
    # ------------------------------------------------------------------ Sec. 3: seconds per round
    "trend": (
        r"{flat?flat (slope {slope:.2f}, below {limit} in absolute value)|{grows?growing like "
        r"*n*<sup>{slope:.2f}</sup>|falling (slope {slope:.2f})}}"
    ),
    "scaling": (
        r"{graph_learners*"
        "\n"
        r"}"
        "\n"
        r"{spectral*"
        "\n"
        r"}"
        "\n"
        r"* **The compiled round loop**: played round by round from Python, one-vs-rest OLLGC takes "
        r"{compiled*, }, with the same error at every size.{has_real?"
        "\n"
        r"* **Epinions** ({nodes:,} nodes, {edges:,} edges): {learner} costs {ms:.3f} ms per round over "
        r"{rounds:,} rounds (traced peak {peak:,.0f} MiB), against {near_ms:.3f} ms on the generated graph of "
        r"{near_nodes:,} nodes.|}"
    ),
    "scaling.graph_learner": (
        r"* **{name}**: {first_ms:.3f} ms per round at n = {first_n:,}, {last_ms:.3f} ms at n = {last_n:,} "
        r"(×{ratio:.2f}); over the {points} largest sizes the cost per round is {trend}, its traced peak "
        r"memory grows with slope {memory_slope:.2f} (to {peak:,.0f} MiB: the per-node arrays of the "
        r"{push?learner and of the push).|learner: its spanning tree and line).}"
    ),
    "scaling.spectral": (
        r"* **{name}** (d = {d} + bias): {last_ms:.3f} ms per round at n = {last_n:,}, {trend} over {points} "
        r"sizes; with the embedding spread over its {rounds:,} rounds, {incl_ms:.2f} ms per round (slope "
        r"{incl_slope:.2f})."
    ),
    "scaling.compiled": r"{ratio:.1f} times the compiled loop's time per round (n = {n:,})",
    # ------------------------------------------------------------------ Sec. 3b: the largest graph
    "million": (
        r"**Reading.** On the largest graph ({nodes:,} nodes) the rank-{d} embedding took {seconds:.1f} s "
        r"({iterations} iterations, traced peak {peak:,.0f} MiB, largest relative residual {residual}). Over the "
        r"first {rounds:,} rounds a round costs {costs*, * and }; the learners that need no embedding pay "
        r"{beside_costs*, * and }. With the embedding spread over those rounds a spectral round costs up to "
        r"{incl_ms:.2f} ms. The spectral learners err {errors*, * and } over those rounds, against "
        r"{beside_errors*, * and } for the learners without an embedding; always predicting the most frequent "
        r"class errs {majority:.4f}. {below_majority?Each spectral learner errs less than that|Not every "
        r"spectral learner errs less than that}, and {push_better?each errs more than the relaxation learner|"
        r"not each errs more than the relaxation learner}. Over a full pass of every node they err "
        r"{full_errors*, * and } (majority class {full_majority:.4f})."
    ),
    "million.cost": r"{ms:.3g} ms ({name})",
    "million.error": r"{error:.4f} ({name})",
    # ------------------------------------------------------------------ Sec. 5: what the numbers say
    "summary": (
        r"{smoke?*Smoke profile: graphs of a few thousand nodes and a few hundred rounds; the sentences follow "
        r"the numbers of this run, which say little about scale.*"
        "\n\n"
        r"|}## 5. What the numbers say"
        "\n\n"
        r"* **{push_flat?The push learners scale with the rounds, not the graph.|The push learners' cost per "
        r"round.}** From n = {push_from:,} to {push_to:,} it goes {push_ratios* and }; over the largest sizes "
        r"it is {push_trends*; }. At n = {push_top:,} a round costs {push_costs* and }; the graph took "
        r"{gen_s:.3g} s to generate (generator slope {gen_slope:.2f} over its {gen_top} largest sizes) and the "
        r"learner {setup_s:.3g} s to set up."
        "\n"
        r"* **Labels.** Margin sampling asks for {label_shares*, } of the labels of the rounds played; its "
        r"error minus the fully supervised relaxation learner's is {error_gaps:+.4f*, } at the same sizes."
        "\n"
        r"* **{cheap?The spectral learners are cheap per round and dear before the first.|The spectral "
        r"learners.}** At n = {spec_n:,} a round costs {spec_costs*, } (the push learners at that size: "
        r"{push_at_ms:.3f} ms or more), but the embedding took {embedding_s:.1f} s, {embedding_share:.0%} or "
        r"more of what they cost over {spec_rounds:,} rounds. {not_embedded?No rank-{d} embedding was computed "
        r"at {missing:,*, * or } nodes; section 3b plays OLLGC, SSLGC and MSG on a rank-10 embedding of the "
        r"largest graph.|Every size was embedded.}"
        "\n"
        r"* **Error.** The relaxation learner errs {relax_errors*, }; at n = {spec_n:,} the spectral learners "
        r"err {spec_errors*, } (section 2b says why their features are weak on this graph). Where n exceeds "
        r"the rounds played the error is that of a prefix that reveals a shrinking share of the labels, so the "
        r"error column compares learners at one size, not one size with another."
        "\n"
        r"* **Beyond one machine.** {dask?{orders} orders of MSG on n = {dask_n:,}: the same table from local "
        r"processes ({t_local:.2f} s) and from a {workers}-worker Dask cluster ({t_remote:.2f} s after a "
        r"{t_cluster:.2f} s start), asserted identical but for the times{slower?; on passes this short the "
        r"cluster's scheduling and data transfer cost more than the work itself.|.}|Skipped: dask.distributed "
        r"is not installed here.}"
    ),
    "summary.ratio": r"×{ratio:.2f} ({name})",
    "summary.trend": r"for {name} {trend}",
    "summary.push_cost": r"{ms:.2f} ms ({name})",
    "summary.spectral_cost": r"{ms:.3f} ms ({name})",
    "summary.share": r"{share:.0%} (n = {nodes:,})",
    "summary.error": r"{error:.4f} at n = {nodes:,} ({seen:.1%} of the nodes seen)",
    "summary.spectral_error": r"{error:.4f} ({name})",
}


def reading(key: str, claims: dict | None = None, **values) -> Reading:
    """The :class:`~graphsel_lib.course.prose.Reading` of template ``key`` with these ``values`` and ``claims``."""
    return templated_reading(
        TEMPLATES, key, claims, values, missing="no notebook 44 reading {key!r}", name="scaling"
    )
