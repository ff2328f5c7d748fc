"""The compiled multiclass loop is open to a new rule: one jitted round function and one ``RULES`` entry.

The toy rule here (defined in this file only) queries when the gap between the two largest raw scores
is at most ``tau``, updates with the one-hot target on every query, records the gap and keeps a count of
its queries as extra state. Its compiled pass equals its Python rounds and a naive twin (``np.linalg.solve``
from scratch every round).
"""

import numba
import numpy as np
import pytest

from conftest import assert_same_trace, dense_embedding, random_connected_graph, smooth_labels
from graphsel_lib.online import multiclass_loop, run
from graphsel_lib.online.bbq_dgs import _OneHotRidge
from graphsel_lib.online.scores import top_two


@numba.njit
def toy_round(t, x, u, v, p, f, z, y, W, params, extra, rng, records):
    (tau,) = params
    (n_asked,) = extra
    (gap_rec,) = records
    f[:] = p
    i1 = multiclass_loop.first_max(f, -1)
    gap = f[i1] - f[multiclass_loop.first_max(f, i1)]
    multiclass_loop.record_round(gap_rec, t, gap)
    ask = gap <= tau
    if ask:
        n_asked[0] += 1
        multiclass_loop.set_target(z, f, y, False)
    return i1, ask, True


TOY_ENTRY = multiclass_loop.RuleEntry(
    toy_round, params={"tau": float}, state=("n_asked",), records={"gap": float}
)


class Toy(_OneHotRidge):
    """Query iff the top-two gap of ``p = Wᵀm`` is at most ``tau``; one-hot RLS step on every query."""

    def __init__(self, *, tau, gamma=1.0):
        self.tau, self.gamma = tau, gamma

    def reset(self, d, n_classes, rng):
        super().reset(d, n_classes, rng)
        self.n_asked = 0

    def compiled_rule(self, loop):
        return loop.multiclass_rule("toy", tau=self.tau)

    def compiled_state(self):
        return super().compiled_state()._replace(extra={"n_asked": np.array([self.n_asked])})

    def take_compiled_state(self, compiled):
        super().take_compiled_state(compiled)
        self.n_asked = int(compiled.extra["n_asked"][0])

    def wants_label(self, x, t, info):
        u, v = self.state.variance(x)
        i1, i2 = top_two(info["score"])
        info.update(u=u, v=v, gap=info["score"][i1] - info["score"][i2])
        if info["gap"] <= self.tau:
            self.n_asked += 1
            return True
        return False


class NaiveToy:
    """The toy rule solved from scratch every round: ``W = (γI + Σ x xᵀ)^{-1} Σ x e_yᵀ`` over the queried rounds."""

    multiclass = True

    def __init__(self, *, tau, gamma=1.0):
        self.tau, self.gamma = tau, gamma

    def reset(self, d, n_classes, rng):
        self.A, self.B, self.n_asked = self.gamma * np.eye(d), np.zeros((d, n_classes)), 0

    def predict(self, x):
        p = x @ np.linalg.solve(self.A, self.B)
        i1, i2 = top_two(list(p))
        return int(np.argmax(p)), {"score": p, "gap": p[i1] - p[i2]}

    def wants_label(self, x, t, info):
        ask = info["gap"] <= self.tau
        self.n_asked += ask
        return ask

    def update(self, x, y, label, info):
        self.A += np.outer(x, x)
        self.B[:, y] += x


@pytest.fixture(scope="module")
def problems():
    rng = np.random.default_rng(7)
    out = []
    for n, d, K in [(60, 15, 3), (90, 25, 4)]:
        M = dense_embedding(random_connected_graph(rng, n, p=0.1, weighted=True), d)
        out.append((M, smooth_labels(M, rng, K)))
    return out


@pytest.mark.parametrize("tau", [0.01, 0.05])
def test_a_rule_added_by_one_function_and_one_entry_equals_its_naive_twin(problems, tau, monkeypatch):
    monkeypatch.setitem(multiclass_loop.RULES, "toy", TOY_ENTRY)
    calls = []
    compiled = multiclass_loop.multiclass_rounds
    monkeypatch.setattr(multiclass_loop, "multiclass_rounds", lambda *a: calls.append(a[4]) or compiled(*a))
    for i, (M, y) in enumerate(problems):
        fast, rounds, naive = Toy(tau=tau), Toy(tau=tau), NaiveToy(tau=tau)
        rounds.compiled_pass = lambda *args, **kwargs: None
        a = run(fast, M, y, seed=i, record=("gap",))
        assert calls and calls[-1] == len(y)  # played by the toy's compiled loop, to the last round
        b = run(rounds, M, y, seed=i, record=("gap",))
        c = run(naive, M, y, seed=i, record=("gap",))
        assert 0 < a.n_queried < len(y)
        for other in (b, c):
            assert_same_trace(a, other)
            np.testing.assert_allclose(a.records["gap"], other.records["gap"], rtol=1e-8, atol=1e-10)
        assert (
            fast.n_asked == rounds.n_asked == naive.n_asked == a.n_queried
        )  # the rule's own state came back
        assert fast.state.n_updates == a.n_queried
        np.testing.assert_allclose(fast.state.w, np.linalg.solve(naive.A, naive.B), rtol=1e-8, atol=1e-10)


def test_rules_and_their_state_are_checked_with_the_fix(monkeypatch):
    with pytest.raises(ValueError, match="no compiled multiclass rule 'toy'.*register it in RULES"):
        multiclass_loop.multiclass_rule("toy", tau=0.1)
    monkeypatch.setitem(multiclass_loop.RULES, "toy", TOY_ENTRY)
    with pytest.raises(TypeError, match=r"takes the parameters \['tau'\], got \['kappa'\]"):
        multiclass_loop.multiclass_rule("toy", kappa=0.1)
    rule = multiclass_loop.multiclass_rule("toy", tau=1)
    assert rule.params == (1.0,) and isinstance(
        rule.params[0], float
    )  # the declared type, whatever was passed
    state = multiclass_loop.MulticlassState(np.eye(2), np.zeros((2, 2)), np.zeros(1, dtype=np.int64), {})
    with pytest.raises(ValueError, match=r"needs the state arrays \['n_asked'\].*compiled_state"):
        multiclass_loop.play_multiclass(rule, state, None, np.eye(2), [0, 1], [0, 1], ())


def test_every_rule_gets_its_own_cached_loop():
    """One loop per rule, built once and kept on disk by numba (no jitted function in an argument or closure)."""
    loops = {name: multiclass_loop.rounds_for(name) for name in ("cmog", "msg", "bbq", "bbq_eps", "dgs")}
    assert len({id(loop) for loop in loops.values()}) == len(loops)
    for name, loop in loops.items():
        assert loop is multiclass_loop.rounds_for(name)
        assert (
            loop.py_func.__closure__ is None
            and loop.py_func.__globals__["_RULE"] is multiclass_loop.RULES[name].round
        )
        assert loop._cache._cache_path  # numba's on-disk cache (cache=True) is on


def test_downdate_then_matvec_is_the_two_kernels_one_after_the_other():
    """The fused sweep gives the downdated A and A x of rank_one_downdate then symmetric_matvec, bit for bit."""
    from graphsel_lib.online._kernels import downdate_then_matvec, rank_one_downdate, symmetric_matvec

    @numba.njit
    def fused(A, u, c, x, out):
        downdate_then_matvec(A, u, c, x, out)

    @numba.njit
    def separate(A, u, c, x, out):
        rank_one_downdate(A, u, c)
        symmetric_matvec(A, x, out)

    rng = np.random.default_rng(0)
    for d in (1, 5, 33, 200):
        B = rng.standard_normal((d, d))
        A = B @ B.T + np.eye(d)
        u, x, c = rng.standard_normal(d), rng.standard_normal(d), float(rng.random())
        A1, A2, o1, o2 = A.copy(), A.copy(), np.empty(d), np.empty(d)
        fused(A1, u, c, x, o1)
        separate(A2, u, c, x, o2)
        np.testing.assert_array_equal(A1, A2)
        np.testing.assert_array_equal(o1, o2)
