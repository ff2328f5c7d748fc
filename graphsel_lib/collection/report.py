"""Prose rendered from computed values, so that the text beside a number can never drift from it.

A notebook sentence that quotes a result is written in a code cell as an
f-string and shown with :func:`md`: in a notebook (and in the book) it appears
as formatted Markdown, in a plain interpreter as text. The book hides the input
of such cells (tag them ``remove-input``), so the reader sees prose whose
numbers were computed by the run that rendered it.

>>> md(f"error {0.1234:.3f}")
error 0.123

A paper's reading is data, a :class:`graphsel_lib.course.prose.Reading` (template,
values, claims), shown with ``md(reading.render())`` in a ``remove-input`` cell;
the claims it makes for every run are asserted in the paper's tests.
"""

from __future__ import annotations

from ..course.display import in_kernel

__all__ = ["in_kernel", "md"]


def md(text: str) -> None:
    """Show ``text`` as Markdown in a Jupyter kernel; print it elsewhere."""
    if not isinstance(text, str):
        raise TypeError(f"md() needs a str, got {type(text).__name__}")
    if in_kernel():
        from IPython.display import Markdown, display

        display(Markdown(text))
    else:
        print(text)
