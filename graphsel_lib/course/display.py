"""Where a chapter runs: in a Jupyter kernel or not, with someone to move a widget or headless.

The pipeline sets ``$GRAPHSEL_HEADLESS=1`` for every kernel it starts (papermill has no front end
to show a widget); explorers then draw one static figure and quizzes print their questions with
the answers folded.
"""

from __future__ import annotations

import os

__all__ = ["HEADLESS_ENV", "in_kernel", "is_headless"]

HEADLESS_ENV = "GRAPHSEL_HEADLESS"


def in_kernel() -> bool:
    """Whether we run inside a Jupyter kernel (papermill, JupyterLab), not a plain interpreter."""
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    shell = get_ipython()
    return shell is not None and getattr(shell, "kernel", None) is not None


def is_headless() -> bool:
    """True when no one can move a slider: ``$GRAPHSEL_HEADLESS`` is set (not "0") or ipywidgets is missing."""
    if os.environ.get(HEADLESS_ENV, "0") not in ("", "0"):
        return True
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return True
    return False
