"""Self-check quiz of chapter 10: the query rules BBQ, BBQ_eps and DGS."""

import numpy as np

from ...online import DGS, BBQEps, run
from ...theory import bbq_first_query
from ..quiz import Choice, Numeric, Quiz


def _bbq_eps_width_at_1(delta=0.1):
    """BBQ_eps's width z_1 as the library records it on round 1 (delta = 0.1)."""
    X = np.asfortranarray(np.eye(2)[:, [0, 1, 0]] * 0.5)
    trace = run(BBQEps(eps=0.3, delta=delta), X, np.array([0, 1, 0]), record=("bound",))
    return trace.records["bound"][0]


def _dgs_theta_at_1(norm_sq=0.05, delta=0.1):
    """DGS's width theta_1 on round 1 for one node with ||x||^2 = 0.05, gamma = 1 (the library's record)."""
    X = np.asfortranarray(np.sqrt(norm_sq) * np.eye(2)[:, [0, 1]])
    trace = run(DGS(delta=delta), X, np.array([0, 1]), record=("theta",))
    return trace.records["theta"][0]


def _bbq_first_round(kappa=0.5):
    """BBQ's first query on nodes of norm 1 - 1e-6, gamma = 1, kappa = 0.5."""
    return bbq_first_query((1 - 1e-6) ** 2, 1.0, kappa)[0]


QUIZ = Quiz(
    10,
    "The query rules BBQ, BBQ$_\\varepsilon$ and DGS",
    [
        Choice(
            r"All three rules keep $A_{t-1} = \gamma I + \sum_{s\in\mathcal Q, s<t}x_sx_s^\top$. What does each of"
            r" them bound before it decides to skip a label?",
            (
                r"BBQ the variance-like term $r_t$, BBQ$_\varepsilon$ bias plus noise of $w^\top x_t$, DGS the sign"
                r" of the margin",
                r"All three bound the number of mistakes so far",
                r"BBQ the noise, BBQ$_\varepsilon$ the variance, DGS the bias",
                r"BBQ and DGS bound the margin, BBQ$_\varepsilon$ the number of queries",
            ),
            0,
            r"§1: one bias–noise decomposition of the RLS estimate; BBQ asks while $r_t > t^{-\kappa}$,"
            r" BBQ$_\varepsilon$ while the whole error bound exceeds $\varepsilon$, DGS while the clipped"
            r" top-two gap $\hat\Delta_t$ could still change sign ($\hat\Delta_t \le 2\theta_t$).",
            {
                1: "None of the rules looks at mistakes: they decide before the label is seen.",
                2: r"BBQ's $r_t = v_t/(1+v_t)$ is the variance-like part; the noise term enters BBQ$_\varepsilon$.",
                3: "BBQ compares r_t with a threshold, not a margin; no rule bounds its own number of queries.",
            },
        ),
        Numeric(
            r"BBQ$_\varepsilon$'s width is $z_t = \sqrt{2\ln(t(t+1)/(2\delta))}$. What is $z_1$ at"
            r" $\delta = 0.1$ (three decimals)?",
            float(np.sqrt(2 * np.log(10.0))),
            5e-4,
            r"$z_1^2 = 2\ln(1\cdot 2/0.2) = 2\ln 10$, so $z_1 = \sqrt{2\ln 10} \approx 2.146$; the library records"
            r" it as `bound`.",
            _bbq_eps_width_at_1,
        ),
        Choice(
            r"With that width, a noise term of scale $\|c_t\|$ exceeds $\|c_t\|z_t$ with probability at most"
            r" $4\delta/(t(t+1))$ in round $t$ (both sides). With what probability does BBQ$_\varepsilon$'s bound"
            r" hold for all $t$ at once?",
            (
                r"At least $1 - 4\delta$",
                r"At least $1 - \delta$",
                r"At least $1 - 2\delta$, on both sides",
                r"Nothing can be said for all $t$ at once",
            ),
            0,
            r"The union bound adds the failure probabilities, and $\sum_{t\ge1}4\delta/(t(t+1)) = 4\delta$"
            r" telescopes: $0.6$ at $\delta = 0.1$.",
            {
                1: r"That would need $\delta/(t(t+1))$ per round, i.e. the library's width at $\delta/4$"
                " (exercise 2).",
                2: r"$2\delta$ is the sum for one side only; the bound is two-sided.",
                3: "The union bound gives a guarantee for all rounds, because the per-round probabilities are summable.",
            },
        ),
        Numeric(
            r"DGS on round 1, $\gamma = 1$, $\delta = 0.1$, a node with $\|x_1\|^2 = 0.05$: what is"
            r" $\theta_1$ (three decimals)?",
            float(np.sqrt(0.05 * (1 + 36 * np.log(10.0)))),
            5e-4,
            r"$A_0 = I$, so $v_1 = 0.05$; $\Sigma_1 = 0$, so $\theta_1^2 = 0.05\,(1 + 36\ln 10) \approx 4.19$ and"
            r" $\theta_1 \approx 2.048$: $2\theta_1 > 2 \ge \hat\Delta_1$, the label is asked for whatever the scores.",
            _dgs_theta_at_1,
        ),
        Numeric(
            r"BBQ with $\gamma = 1$, $\kappa = 0.5$ on nodes of norm $1 - 10^{-6}$: on which round (counted from 1)"
            r" does its first query come?",
            5.0,
            0.5,
            r"Before the first query $A = I$ and $r_t = \|x\|^2/(1 + \|x\|^2)$, just below $\tfrac12$; the rule"
            r" $r_t > t^{-1/2}$ first holds for $t > 4$: round $\lfloor 2^{1/\kappa}\rfloor + 1 = 5$.",
            _bbq_first_round,
        ),
        Choice(
            r"With $a = A^{-1}x$ and $v = x^\top a$, what is $(A + xx^\top)^{-1}x$, the vector every rule of"
            r" the chapter needs with the current point included?",
            (r"$a/(1 + v)$", r"$a(1 + v)$", r"$a - v\,x$", r"$a/v$"),
            0,
            r"Sherman–Morrison: $(A + xx^\top)^{-1} = A^{-1} - aa^\top/(1+v)$, so $(A + xx^\top)^{-1}x = a - av/(1+v)"
            r" = a/(1+v)$. Hence $r_t = v_t/(1+v_t)$ and $\|A_t^{-1}x_t\| = \|a\|/(1+v_t)$: $O(d^2)$ per round.",
            {
                1: "Adding x x^T makes A larger, so its inverse applied to x shrinks, not grows.",
                2: r"Not even the units agree: $v$ is a number, $x$ and $a$ live in different scales of $A$.",
                3: r"That is $A^{-1}x/(x^\top A^{-1}x)$, which does not involve the update at all.",
            },
        ),
        Choice(
            r"Every feature is multiplied by $c = 2$ and $\gamma$ is kept. Which run of BBQ on the old features"
            r" makes the same decisions?",
            (
                r"The one with $\gamma/4$",
                r"The one with $4\gamma$",
                r"The one with $\gamma/2$",
                r"The same $\gamma$: BBQ is scale free",
            ),
            0,
            r"$v_t$ for $cx$ with $\gamma$ equals $v_t$ for $x$ with $\gamma/c^2$ (§3), round by round by induction.",
            {
                1: r"Larger features make $v_t$ larger, as a smaller $\gamma$ does, not a larger one.",
                2: r"$\gamma$ enters against $xx^\top$, which scales with $c^2$, not $c$.",
                3: r"The threshold $t^{-\kappa}$ is scale free, $r_t$ is not.",
            },
        ),
        Choice(
            r"On Cora, Coauthor and PubMed DGS asks for every label. What makes its skip condition"
            r" $\hat\Delta_t > 2\theta_t$ so hard to meet?",
            (
                r"$\hat\Delta_t \le 2$ always, while $\theta_t^2 = v_t(1 + 4\Sigma_t + 36\ln(t/\delta))$ has"
                r" $36\ln(t/\delta) \ge 83$: only nodes with $v_t$ of order $10^{-3}$ could be skipped",
                r"DGS skips only on mistakes, and it makes few",
                r"$\delta = 0.1$ is too large",
                r"The margin is not clipped, so it is always small",
            ),
            0,
            r"The clipped top-two margin is at most 2, so a skip needs $\theta_t < 1$, i.e."
            r" $v_t < 1/(1 + 4\Sigma_t + 36\ln(t/\delta))$; at $t = 1$ the log term alone is $36\ln 10 \approx 83$,"
            r" and $\Sigma_t$ grows to the hundreds (§4).",
            {
                1: "DGS decides before it sees the label; mistakes do not enter the rule.",
                2: r"A larger $\delta$ makes $\ln(t/\delta)$ smaller, so it would skip more, not less.",
                3: r"The scores are clipped to $[-1, 1]$, so the margin lies in $[0, 2]$; clipping is what bounds it.",
            },
        ),
    ],
)
