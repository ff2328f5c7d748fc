"""Interactive explorers: sliders in Jupyter, one static figure when run headless.

::

    def draw(mu=0.1, d=50):        # one figure for one setting
        fig, ax = gs.plotting.subplots()
        ...
        gs.plotting.show(fig)      # inline PNG: shown under any backend and inside the widget
    gs.explore.explore(draw, mu=(0.01, 10.0, 0.01), d=[10, 50, 100])

In a notebook opened in Jupyter, :func:`explore` is ``ipywidgets.interact``:
each control (an ``interact`` abbreviation: ``(min, max, step)`` for a
slider, a list for a drop-down, a bool for a check box, or a widget) redraws
the figure. Headless (the pipeline sets ``$GRAPHSEL_HEADLESS=1`` for every
kernel, and papermill has no front end to show widgets) or without ipywidgets
it calls ``fn`` once at its default arguments, so the executed notebook and the
book show that figure.
"""

from __future__ import annotations

import inspect

from ..course.display import HEADLESS_ENV, is_headless

__all__ = ["HEADLESS_ENV", "explore", "is_headless"]


def explore(fn, **controls):
    """Sliders for ``fn``'s keyword arguments in Jupyter; headless, ``fn()`` once at its defaults.

    Parameters
    ----------
    fn : callable
        Draws (or prints) one state. Every control must be a parameter of
        ``fn`` with a default: the default is the slider's start and the
        setting drawn headless.
    **controls
        ``name=abbreviation`` as for ``ipywidgets.interact``.

    Returns
    -------
    What ``fn`` returns headless; the ``interact`` object otherwise.

    Raises
    ------
    TypeError
        A control that is not a parameter of ``fn`` or has no default.
    """
    params = inspect.signature(fn).parameters
    for name in controls:
        if name not in params:
            raise TypeError(f"explore: {name!r} is not a parameter of {fn.__name__}()")
        if params[name].default is inspect.Parameter.empty:
            raise TypeError(
                f"explore: parameter {name!r} of {fn.__name__}() needs a default (the setting drawn headless)"
            )
    if is_headless():
        return fn()
    import ipywidgets

    return ipywidgets.interact(fn, **controls)
