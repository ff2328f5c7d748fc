"""The experiment protocol of gu2013 Sec. 6.3 and yang2016 Sec. V.

* ``n_orders`` (20) random node orders drawn from one seed, plus a separate
  held-out *tuning* order drawn from an independent stream of the same seed;
* hyper-parameters chosen on the tuning order over the paper's grid, a tie
  (scores within a relative ``TIE_RTOL`` = 1e-9, i.e. equal but for rounding)
  going to the first setting in grid order (:func:`pick_best`; grids list the
  smallest value first), and the margin that decided reported;
* a selective sampler run at a given label budget has its query parameter
  set on the same held-out order (:func:`tune_to_budget`, bisection);
* mean ± std over the orders, paired t-test between methods (95 %);
* orders run in parallel with joblib (local processes by default; a Dask
  cluster through joblib's ``"dask"`` backend when a ``distributed.Client`` is
  active and ``backend="dask"``): the same numbers either way, because every
  order carries its own seed;
* finished configurations are cached on disk (``paths.cache_dir()/results``),
  keyed by :func:`learner_key` (the learner's class, its ``__init__``
  parameters, nested learners, and the code of any learner class written
  outside the library, e.g. in a notebook), the data, the orders and
  :func:`library_code_hash` of the library code the learner runs (its modules and
  what they import, docstrings left out: editing an update rule invalidates its
  results, a docstring or another learner does not), so re-running a notebook
  does not redo them. On request (``keep_curves``, :func:`evaluate_curves`) the per-round
  arrays of the passes are kept beside the rows, so that a figure of the curves
  of passes another notebook ran reads them instead of replaying them. Cached rows keep the
  wall times measured when they were computed, and a checksum of the rows:
  a cache file whose rows were edited is refused with a warning and
  recomputed. A cache folder that cannot be written gives a warning, not an error.

The modules: ``orders`` (the seeded node orders), ``evaluation`` (one learner on every order, in
parallel and cached: :func:`evaluate`, and with the per-round arrays :func:`evaluate_curves`), ``sweeps`` (:func:`sweep`: a grid of settings over graphs and
orders, one tidy row per run), ``tuning`` (:func:`tune`, :func:`tune_to_budget`, :func:`pick_best`),
``comparison`` (:func:`summarize`, :func:`paired_ttest`), ``cache_key`` (what names a result in the
cache: :func:`learner_key`, :func:`library_code_hash`) and ``results_files`` (the cache's files).
"""

from .cache_key import learner_key, library_code_hash
from .comparison import mean_std, paired_ttest, summarize
from .evaluation import CURVES, METRICS, evaluate, evaluate_curves
from .orders import order_seeds, random_orders, tuning_order
from .sweeps import sweep
from .tuning import TIE_RTOL, Budget, Pick, pick_best, tune, tune_to_budget, tuning_note

__all__ = [
    "random_orders",
    "tuning_order",
    "order_seeds",
    "evaluate",
    "evaluate_curves",
    "sweep",
    "tune",
    "pick_best",
    "tuning_note",
    "tune_to_budget",
    "Budget",
    "Pick",
    "TIE_RTOL",
    "learner_key",
    "library_code_hash",
    "summarize",
    "paired_ttest",
    "mean_std",
    "METRICS",
    "CURVES",
]
