"""The seeds' learners on the largest graph of notebook 44 (a million nodes in the full profile), Sec. 3b.

OLLGC (one-vs-rest), SSLGC and MSG (gu2013, yang2016) run on a rank-``d`` spectral embedding, and the
embedding is what their cost at scale turns on: its block LOBPCG does O(n k²) dense work per iteration for
a block of k = d + guard vectors (``benchmarks/bench_spectral.py`` measures d = 100 at 10⁶ nodes). Here the
largest graph is embedded at ``d = D_MILLION`` = 10 by ``"lobpcg-chebyshev"`` to the library's tolerance,
and the three learners play (a) the first ``rounds`` rounds of the same seeded order as the push learners
and WTA of Sec. 3, for errors and costs side by side, and (b) one full pass over every node. The error of
always predicting the most frequent class of those rounds stands beside each row: on these graphs the
smallest eigenvectors localise on the sparse periphery (Sec. 2b), and Sec. 2c measures what keeping fewer
of them costs the learners at 10⁴ nodes, so a rank-10 embedding is a cheap one, not a good one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

import graphsel_lib as gs
from graphsel_lib.collection import tables
from graphsel_lib.course.prose import Reading
from graphsel_lib.papers import scaling_texts as texts
from graphsel_lib.papers.common import Result, table_field
from graphsel_lib.papers.scaling import (
    BIAS_B,
    RESIDUAL_FLOOR,
    SPECTRAL,
    Approximations,
    Embeddings,
    Generated,
    Scaling,
    embed,
    measure,
)

__all__ = ["D_MILLION", "LEARNERS", "Million", "checks", "million_nodes"]

D_MILLION = 10  #: eigenvectors of the embedding on the largest graph
LEARNERS = ("OLLGC", "SSLGC", "MSG")  #: the seeds' learners run there (their makers are scaling.SPECTRAL's)


@dataclass
class Million(Result):
    """Sec. 3b: the embedding of the largest graph (``embedding``) and the learners' passes (``passes``)."""

    embedding: (
        dict  #: seconds, iterations, peak MiB, max rel. residual, lambda_2, sigma_d of the d-rank solve
    )
    #: one row per learner and pass: the Sec. 3 rows of push and WTA at that size beside (``44_million_nodes``)
    passes: pd.DataFrame = table_field(
        "million_nodes",
        formats={"s per round": "%.3g", "s per round incl. embedding": "%.3g", "pass s": "%.3g",
                 "embedding s": "%.1f", "error": "%.4f", "labels share": "%.4f", "majority error": "%.4f"},
        required=True,
    )  # fmt: skip
    PREFIX = "44_"

    def report(self) -> str:
        e = self.embedding
        floor = RESIDUAL_FLOOR["lobpcg-chebyshev"]  # below it the digits depend on the machine
        residual = tables.below_tolerance([e["max rel. residual"]], [floor], "%.1e")[0]
        head = (f"embedding: n = {e['nodes']:,}, d = {e['d']}, {e['seconds']:.1f} s, {e['iterations']} iterations, "
                f"peak {e['peak MiB']:.0f} MiB, max rel. residual {residual}")  # fmt: skip
        cols = ["learner", "pass", "rounds", "error", "majority error", "labels share", "s per round",
                "s per round incl. embedding"]  # fmt: skip
        return head + "\n" + self.passes[cols].to_string(index=False)

    def reading(self) -> Reading:
        """Sec. 3b's reading: the rank-d embedding, the learners' cost and error beside push and WTA."""
        e, t = self.embedding, self.passes
        first, full = t[t["pass"] == "first rounds"], t[t["pass"] == "full pass"]
        spectral, beside = (
            first[first.kind == "spectral"],
            first[first.kind != "spectral"].set_index("learner"),
        )
        relax = beside.loc["Relaxation (push)"]
        floor = RESIDUAL_FLOOR["lobpcg-chebyshev"]
        r = texts.reading
        claims = dict(below_majority=bool((spectral["error"] < spectral["majority error"]).all()),
                      push_better=bool((relax.error < spectral["error"]).all()))  # fmt: skip
        return r(
            "million", claims, nodes=e["nodes"], d=e["d"], seconds=e["seconds"], iterations=e["iterations"],
            peak=e["peak MiB"], residual=tables.below_tolerance([e["max rel. residual"]], [floor], "%.1e")[0],
            rounds=int(spectral["rounds"].iloc[0]),
            costs=[r("million.cost", ms=1e3 * x["s per round"], name=x.learner) for _, x in spectral.iterrows()],
            beside_costs=[r("million.cost", ms=1e3 * x["s per round"], name=name) for name, x in beside.iterrows()],
            incl_ms=1e3 * spectral["s per round incl. embedding"].max(),
            errors=[r("million.error", error=x.error, name=x.learner) for _, x in spectral.iterrows()],
            beside_errors=[r("million.error", error=x.error, name=name) for name, x in beside.iterrows()],
            majority=spectral["majority error"].iloc[0],
            full_errors=[r("million.error", error=x.error, name=x.learner) for _, x in full.iterrows()],
            full_majority=full["majority error"].iloc[0],
        )  # fmt: skip


def million_nodes(
    gen: Generated, emb: Embeddings, scl: Scaling, seed: int = 0, d: int = D_MILLION
) -> Million:
    """Embed the largest graph of the sweep at rank ``d`` and play OLLGC, SSLGC and MSG on it (Sec. 3b).

    Asserted: the embedding's relative residuals are below 1e-6. The majority-class error of the rounds played
    is a column, not an assertion (a rank-10 embedding of a graph whose eigenvectors localise may not beat it).
    """
    p = emb.protocol
    n = max(p.sizes)
    g = gen.graphs[n]
    N, y = g.n_nodes, g.labels
    e, r = embed(g, d, "lobpcg-chebyshev", seed)
    assert r["max rel. residual"] < 1e-6, r
    M = gs.add_bias(e.M, BIAS_B)
    embedding = {"nodes": N, "d": d, **r}
    del e
    rows = []
    for kind, R in (("first rounds", min(p.rounds, N)), ("full pass", N)):
        majority = _majority_error(y, R, seed)
        for name in LEARNERS:
            m = measure(SPECTRAL[name], M, y, R, p.mem_rounds, seed)
            rows.append({"learner": name, "kind": "spectral", "pass": kind, "n": n, "nodes": N, "d": d,
                         "rounds": R, "error": m["error"], "majority error": majority,
                         "labels share": m["labels"] / R, "pass s": m["pass s"], "s per round": m["s per round"],
                         "embedding s": r["seconds"], "s per round incl. embedding": (m["pass s"] + r["seconds"]) / R,
                         "embedding iterations": r["iterations"]})  # fmt: skip
    beside = scl.results[(scl.results.n == n) & (scl.results.kind != "spectral")]
    for _, b in beside.iterrows():  # push and WTA at the same size, from Sec. 3 (no embedding)
        rows.append({"learner": b.learner, "kind": b.kind, "pass": "first rounds", "n": n, "nodes": N, "d": np.nan,
                     "rounds": int(b.rounds), "error": b.error, "majority error": _majority_error(y, int(b.rounds), seed),
                     "labels share": b["labels share"], "pass s": b["pass s"], "s per round": b["s per round"],
                     "embedding s": np.nan, "s per round incl. embedding": b["s per round"]})  # fmt: skip
    return Million(embedding, pd.DataFrame(rows))


def _majority_error(y, R: int, seed: int) -> float:
    """Error of always predicting the most frequent class among the first ``R`` nodes of ``run``'s order."""
    order = np.random.default_rng(seed).permutation(len(y))[:R]  # run()'s default order for this seed
    counts = np.bincount(np.asarray(y)[order])
    return float(1.0 - counts.max() / R)


def checks(emb: Embeddings, approx: Approximations, scl: Scaling, mil: Million) -> pd.DataFrame:
    """Notebook 44's checks, by kind (asserted): identities of the protocol, and the claims its text makes on every run.

    Identities: the embedded sizes are those up to ``spectral_max``; the fewer-pairs rows of Sec. 2c are the
    exact subspace (truncated, no solve); Sec. 3b's push and WTA rows are Sec. 3's; its passes play
    ``min(rounds, n)`` and ``n`` rounds; the compiled and the Python round loops of OLLGC make the same
    mistakes (Sec. 3). Claim (every seed and profile): Sec. 3b's rank-10 learners err more than the relaxation
    learner (its text: "not a good one"). No number of the default run is quoted by the text, so none is checked.
    """
    p, t, res = emb.protocol, mil.passes, scl.results
    fewer = approx.table[approx.table.embedding.str.startswith("d'")]
    first = t[t["pass"] == "first rounds"]
    at_n = res[(res.n == max(p.sizes)) & (res.kind != "spectral")].set_index("learner")
    beside = first[first.kind != "spectral"].set_index("learner")
    py, cp = res[res.learner == "OLLGC, Python rounds"], res[res.learner == "OLLGC"]
    relax = at_n.loc["Relaxation (push)", "error"]
    rows = [
        ("identity", "embedded: the sizes up to spectral_max",
         emb.spectral_sizes == [n for n in p.sizes if n <= p.spectral_max]),
        ("identity", "Sec. 2c fewer pairs: the exact subspace, no solve",
         bool((fewer["sin angle to exact"] < 1e-6).all() and fewer["solver s"].isna().all())),
        ("identity", "Sec. 3b: push and WTA rows are Sec. 3's",
         bool(np.array_equal(beside.loc[at_n.index, ["error", "s per round"]].to_numpy(),
                             at_n[["error", "s per round"]].to_numpy()))),
        ("identity", "Sec. 3b: rounds min(rounds, n) and n",
         set(t.loc[t["pass"] == "full pass", "rounds"]) == {mil.embedding["nodes"]}
         and set(first["rounds"]) == {min(p.rounds, mil.embedding["nodes"])}),
        ("identity", "Sec. 3: compiled and Python OLLGC rounds make the same mistakes",
         bool(np.array_equal(py["error"].to_numpy(), cp["error"].to_numpy()))),
        ("claim", "Sec. 3b: rank-10 learners err more than the relaxation learner",
         bool((first.loc[first.kind == "spectral", "error"] > relax).all())),
    ]  # fmt: skip
    out = pd.DataFrame(rows, columns=["kind", "check", "holds"])
    assert out["holds"].all(), out[~out["holds"]].to_string(index=False)
    return out
