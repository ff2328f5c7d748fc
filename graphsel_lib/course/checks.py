"""The three kinds of checks in a chapter, kept apart so that any seed runs.

A chapter checks what it says, and what it says is of three kinds:

1. **Identities and theorems** hold for every graph, seed and profile: a plain ``assert``
   (``assert np.allclose(M.T @ M, Kp)``, "the bound holds on every run").
2. **Claims the prose makes for every run** ("Var <= r_t everywhere", "SSLGC queries
   fewer labels than OLLGC makes updates"): :meth:`ChapterChecks.claim`, asserted for every
   seed, with the tolerance the claim itself allows. A failure names the claim and the run.
3. **Numbers quoted from the default run** (the text says "in the default run: 0.764"):
   :meth:`ChapterChecks.quoted`, asserted only in the default run (``seed = 0``,
   ``profile = "full"``). Any other run prints its own value beside the quoted one, so a reader
   who changes the seed sees where the text's numbers come from and what the seed moves.

>>> check = ChapterChecks(profile="full", seed=0)
>>> check.default_run
True
>>> check.quoted("accuracy at d = 100", 0.764, 0.764)
>>> check.claim(0.67 <= 1, "Var <= r_t everywhere")
>>> ChapterChecks(profile="smoke", seed=3).quoted("accuracy at d = 100", 0.7, 0.764)
[seed 3, smoke] accuracy at d = 100: 0.7 (the text quotes the default run: 0.764)
>>> ChapterChecks(profile="full", seed=0).quoted("accuracy at d = 100", 0.7, 0.764)
Traceback (most recent call last):
...
AssertionError: the text quotes 0.764 for accuracy at d = 100 in the default run (seed 0, full profile); this run gives 0.7
"""

from __future__ import annotations

import numbers

import numpy as np

__all__ = ["DEFAULT_PROFILE", "DEFAULT_SEED", "ChapterChecks", "ClaimFailed"]

DEFAULT_SEED = 0
DEFAULT_PROFILE = "full"


class ClaimFailed(AssertionError):
    """A claim the text makes for every run fails in this run."""


def _plain(value):
    """Arrays, Series, tuples and NumPy scalars as plain Python values, so they compare and print as written."""
    if hasattr(value, "tolist"):  # a NumPy array or scalar, a pandas Series or Index
        return _plain(value.tolist())
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {_plain(k): _plain(v) for k, v in value.items()}
    return value


def _matches(value, expected, tol):
    if tol is None:
        return value == expected
    try:
        v = np.asarray(value, dtype=float)
        e = np.asarray(expected, dtype=float)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"a tolerance needs numbers, got {value!r} and {expected!r}") from exc
    return v.shape == e.shape and bool(np.all(np.abs(v - e) <= tol))


class ChapterChecks:
    """The claims and quoted numbers of one chapter run (``profile``, ``seed``: the parameters cell's).

    Parameters
    ----------
    profile : {"smoke", "full"}
        The notebook's profile; only ``"full"`` can be the default run.
    seed : int
        The notebook's seed; only :data:`DEFAULT_SEED` (0) can be the default run.

    Raises
    ------
    ValueError
        An unknown ``profile``.
    TypeError
        A ``seed`` that is not an integer (booleans included).
    """

    def __init__(self, *, profile: str, seed: int):
        if profile not in ("smoke", "full"):
            raise ValueError(f"profile must be 'smoke' or 'full', got {profile!r}")
        if isinstance(seed, bool) or not isinstance(seed, numbers.Integral):
            raise TypeError(f"seed must be an integer, got {seed!r}")
        self.profile = profile
        self.seed = int(seed)

    @property
    def default_run(self) -> bool:
        """Whether this is the run the text quotes: ``seed = 0`` in the full profile."""
        return self.seed == DEFAULT_SEED and self.profile == DEFAULT_PROFILE

    def __repr__(self):
        return f"ChapterChecks(profile={self.profile!r}, seed={self.seed})"

    def claim(self, condition, statement: str) -> None:
        """Assert ``condition``: a claim the text makes for every run (``statement`` says which)."""
        if not bool(np.all(condition)):
            raise ClaimFailed(
                f"the text claims for every run that {statement}; it fails with seed {self.seed} "
                f"in the {self.profile} profile"
            )

    def quoted(self, what: str, value, expected, *, tol: float | None = None) -> None:
        """The default run must give ``expected`` for ``what`` (``tol``: largest absolute difference).

        Without ``tol`` the two must be equal (round first, as the text does). In any other run
        nothing is asserted: one line shows this run's value beside the quoted one.
        """
        value, expected = _plain(value), _plain(expected)
        if self.default_run:
            if not _matches(value, expected, tol):
                raise AssertionError(
                    f"the text quotes {expected!r} for {what} in the default run (seed {DEFAULT_SEED}, "
                    f"{DEFAULT_PROFILE} profile); this run gives {value!r}"
                )
            return
        print(
            f"[seed {self.seed}, {self.profile}] {what}: {value!r} (the text quotes the default run: {expected!r})"
        )
