"""Self-check quizzes: a few questions that close each chapter, with feedback.

A quiz is data: :class:`Choice` (multiple choice, one right option) and :class:`Numeric`
(a number within a tolerance) questions, each with the reason the answer is right and, for a
wrong option, why it is wrong. A numeric answer names the library computation it comes from
(``library``, a function without arguments): :meth:`Quiz.verify` recomputes it and fails if the
answer key and the library disagree, so a quiz can never teach a wrong number.

In JupyterLab :meth:`Quiz.show` gives each question its own widgets (options or a number box, a
*Check* button, the feedback). Headless (the pipeline, the book) it verifies the numeric answers
and shows the questions as Markdown, each answer folded under a *Show the answer* line.

The quizzes themselves live in :mod:`graphsel_lib.course.quizzes`, one module per chapter;
:func:`for_chapter` finds them.
"""

from __future__ import annotations

import html
import importlib
import math
from collections.abc import Callable
from dataclasses import dataclass, field

from .display import in_kernel, is_headless

__all__ = ["Choice", "Numeric", "Quiz", "for_chapter"]


@dataclass(frozen=True)
class Choice:
    """A multiple-choice question: ``options[answer]`` is right; ``why`` says why, ``feedback[i]`` why option i is not."""

    question: str
    options: tuple
    answer: int
    why: str
    feedback: dict = field(default_factory=dict)

    def __post_init__(self):
        if len(self.options) < 2:
            raise ValueError(f"a choice needs at least two options: {self.question[:60]!r}")
        if not 0 <= self.answer < len(self.options):
            raise ValueError(f"answer {self.answer} is not an option index (0..{len(self.options) - 1})")
        if self.answer in self.feedback:
            raise ValueError("feedback is for the wrong options; the right one is explained by `why`")
        if bad := [i for i in self.feedback if not 0 <= i < len(self.options)]:
            raise ValueError(f"feedback for options {bad} that do not exist")

    def grade(self, choice: int) -> tuple[bool, str]:
        """``(right, feedback)`` for the option index ``choice``."""
        if choice == self.answer:
            return True, self.why
        return False, self.feedback.get(choice, "Not this one. Re-read the section and try again.")


@dataclass(frozen=True)
class Numeric:
    """A question with a number for answer, right within ``tol``; ``library()`` computes it with graphsel_lib."""

    question: str
    answer: float
    tol: float
    why: str
    library: Callable | None = None

    def __post_init__(self):
        if not (math.isfinite(self.answer) and self.tol > 0):
            raise ValueError(
                f"a numeric answer needs a finite value and a positive tolerance: {self.question[:60]!r}"
            )

    def grade(self, value: float) -> tuple[bool, str]:
        """``(right, feedback)`` for the number ``value``."""
        if value is not None and math.isfinite(value) and abs(value - self.answer) <= self.tol:
            return True, self.why
        return False, f"Not quite (the answer is within {self.tol:g} of a number you can compute). Try again."

    def library_value(self) -> float | None:
        """The answer as the library computes it now (None if the question names no computation)."""
        return None if self.library is None else float(self.library())


class Quiz:
    """The self-check quiz of one chapter."""

    def __init__(self, chapter: int, title: str, questions):
        self.chapter = int(chapter)
        self.title = title
        self.questions = list(questions)
        if len(self.questions) < 5:
            raise ValueError(
                f"chapter {chapter:02d}: a quiz has at least 5 questions, got {len(self.questions)}"
            )

    def verify(self) -> list:
        """Recompute every numeric answer with the library; raise if one leaves its tolerance.

        Returns ``[(question number, answer key, library value)]`` for the numeric questions.
        """
        out = []
        for k, q in enumerate(self.questions, start=1):
            if isinstance(q, Numeric) and q.library is not None:
                value = q.library_value()
                if not abs(value - q.answer) <= q.tol:
                    raise AssertionError(
                        f"quiz {self.chapter:02d}, question {k}: the answer key says {q.answer}, "
                        f"the library computes {value} (tolerance {q.tol:g})"
                    )
                out.append((k, q.answer, value))
        return out

    def markdown(self) -> str:
        """The quiz as Markdown, each answer and its reason folded under *Show the answer*."""
        parts = [
            f"**Self-check quiz, chapter {self.chapter:02d}: {self.title}.** "
            "Answer each question before you unfold it."
        ]
        for k, q in enumerate(self.questions, start=1):
            parts.append(f"**Q{k}.** {q.question}")
            if isinstance(q, Choice):
                parts.append("\n".join(f"{'abcdefgh'[i]}. {opt}" for i, opt in enumerate(q.options)))
                key = f"({'abcdefgh'[q.answer]}) {q.options[q.answer]}"
                wrong = "".join(
                    f"\n\n*Why not ({'abcdefgh'[i]}):* {text}" for i, text in sorted(q.feedback.items())
                )
            else:
                key, wrong = f"{q.answer:g} (within {q.tol:g})", ""
            parts.append(
                f"<details><summary>Show the answer</summary>\n\n**Answer:** {key}. {q.why}{wrong}\n\n</details>"
            )
        return "\n\n".join(parts)

    def show(self):
        """Widgets in JupyterLab; headless, the Markdown of :meth:`markdown`. Verifies the numeric answers first."""
        self.verify()
        if is_headless() or not in_kernel():
            text = self.markdown()
            if in_kernel():
                from IPython.display import Markdown, display

                display(Markdown(text))
            else:
                print(text)
            return None
        return self._widgets()

    def _widgets(self):
        import ipywidgets as w
        from IPython.display import display

        boxes = [w.HTMLMath(f"<b>Self-check quiz, chapter {self.chapter:02d}: {html.escape(self.title)}</b>")]
        for k, q in enumerate(self.questions, start=1):
            label = w.HTMLMath(f"<b>Q{k}.</b> {q.question}")
            out = w.HTMLMath("")
            if isinstance(q, Choice):
                field_ = w.RadioButtons(
                    options=[(o, i) for i, o in enumerate(q.options)],
                    value=None,
                    layout=w.Layout(width="auto"),
                )
            else:
                field_ = w.FloatText(value=None, description="answer:")
            button = w.Button(description="Check")

            def on_click(_, q=q, field_=field_, out=out):
                right, text = q.grade(field_.value)
                out.value = f"{'Right.' if right else 'Not yet.'} {text}"

            button.on_click(on_click)
            boxes.append(w.VBox([label, field_, button, out]))
        box = w.VBox(boxes)
        display(box)
        return box


def for_chapter(chapter: int) -> Quiz:
    """The quiz of chapter ``chapter`` (the module ``graphsel_lib.course.quizzes.qNN``)."""
    try:
        module = importlib.import_module(f"{__package__}.quizzes.q{int(chapter):02d}")
    except ModuleNotFoundError as exc:
        raise LookupError(
            f"chapter {int(chapter):02d} has no quiz (graphsel_lib/course/quizzes/q{int(chapter):02d}.py)"
        ) from exc
    return module.QUIZ
