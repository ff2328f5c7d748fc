"""Prose rendered from computed values, so that the text beside a number can never drift from it.

A notebook sentence that quotes a result is written in a code cell as an
f-string and shown with :func:`md`: in a notebook (and in the book) it appears
as formatted Markdown, in a plain interpreter as text. The book hides the input
of such cells (tag them ``remove-input``), so the reader sees prose whose
numbers were computed by the run that rendered it.

>>> md(f"error {0.1234:.3f}")
error 0.123

A paper's reading is data, a :class:`graphsel_lib.course.prose.Reading` (template,
values, claims), shown with ``md(reading.render())`` in a ``remove-input`` cell.
A reading still written as Markdown (readable in JupyterLab before anything runs) is
guarded instead by :func:`check_reading` in a visible cell just before it: the
library renders the same sentence from this run's tables, and every number of
it must be the one the Markdown quotes, in the same order.
"""

from __future__ import annotations

import re

from ..course.display import in_kernel

__all__ = ["check_reading", "in_kernel", "md", "reading_numbers"]

#: A number as written, with its sign when one stands right before it ("-0.0016", "+47.5", "2,485", ".157").
_TOKEN = re.compile(r"(?:(?<![\w.])[-+\u2212])?(?:\d[\d,]*(?:\.\d+)?|\.\d+)")


def md(text: str) -> None:
    """Show ``text`` as Markdown in a Jupyter kernel; print it elsewhere."""
    if not isinstance(text, str):
        raise TypeError(f"md() needs a str, got {type(text).__name__}")
    if in_kernel():
        from IPython.display import Markdown, display

        display(Markdown(text))
    else:
        print(text)


def reading_numbers(text: str) -> list[str]:
    """Every number written in ``text``, in order, as written with its sign (``2,485``, ``-0.0016``, ``+47.5``).

    >>> reading_numbers("SSLGC queries 2,250 (+47.5%) at mu = 0.1, error -0.0016, in 3 of 4 cells.")
    ['2,250', '+47.5', '0.1', '-0.0016', '3', '4']
    """
    return [t.rstrip(",") for t in _TOKEN.findall(text)]


def check_reading(rendered: str, *numbers: str) -> None:
    """Assert that ``rendered`` (a reading the library renders from this run) writes exactly ``numbers``, in order.

    The Markdown cell after the check is that reading as rendered by the run that wrote the notebook; the
    check fails, naming the first difference, as soon as a re-run would write another number.

    >>> check_reading("errs 0.0808 (published 0.0832)", "0.0808", "0.0832")
    >>> check_reading("errs 0.0810 (published 0.0832)", "0.0808", "0.0832")
    Traceback (most recent call last):
    ...
    AssertionError: the reading below quotes 0.0808 as its number 1, this run renders 0.0810 (in: 'errs 0.0810 (published 0.0832)')
    """
    found = reading_numbers(rendered)
    for k, (want, got) in enumerate(zip(numbers, found, strict=False), start=1):
        if want != got:
            raise AssertionError(
                f"the reading below quotes {want} as its number {k}, this run renders {got} (in: {rendered[:200]!r})"
            )
    if len(found) != len(numbers):
        raise AssertionError(
            f"the reading below quotes {len(numbers)} numbers, this run renders {len(found)}: {found[len(numbers) :] or numbers[len(found) :]}"
        )
