r"""A reading as data: a template, the values it quotes and its named claims, and the one renderer.

A result's reading is a :class:`Reading`: the template (text with named fields,
kept with the paper's other templates), the values it quotes and the claims
(named booleans) that choose its words. :func:`render` fills the template:

* ``{name}`` or ``{name:fmt}``: a value, through ``format(value, fmt)``; a
  :class:`Span` prints ``lo to hi`` (or ``lo–hi``; once when both print the same); a
  :class:`Reading` renders itself;
* ``{name*sep}`` or ``{name:fmt*sep*last}``: a list, each item as above, joined
  with ``sep`` (and ``last`` before the last item);
* ``{claim?text if true|text if false}``: the branch the claim chooses (either
  may be empty, and may hold fields of its own);
* ``$...$`` is math and copied as it is (its braces are not fields);
* ``{{`` and ``}}`` are a literal brace, as in :meth:`str.format` (in pairs inside a claim's branch).

>>> r = Reading("SSLGC errs {err:.4f}, {below?below|above} GPA on {graphs*, * and }.",
...             dict(err=0.0756, graphs=["cora", "pubmed", "coauthor"]), dict(below=True))
>>> r.render()
'SSLGC errs 0.0756, below GPA on cora, pubmed and coauthor.'
>>> render("from {d:.2f} ($n_{\\text{any}}$)", dict(d=Span(0.1, 0.25)), {})
'from 0.10 to 0.25 ($n_{\\text{any}}$)'
>>> render("c in {{{grid:g*, }}}", dict(grid=[0.5, 1.0]), {})
'c in {0.5, 1}'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

__all__ = ["Reading", "Span", "render", "templated_reading"]

_CLAIM = re.compile(r"(\w+)\?(.*)", re.S)
_VALUE = re.compile(r"(\w+)(?::([^*]*))?(?:\*([^*]*)(?:\*(.*))?)?", re.S)


@dataclass(frozen=True)
class Span:
    """A range quoted as ``lo to hi`` (``sep`` between them) in the field's format, or one value when both
    print the same."""

    lo: float
    hi: float
    sep: str = " to "  #: ``"–"`` for a compact range (``0.42–0.59``)

    def __format__(self, fmt: str) -> str:
        a, b = format(self.lo, fmt), format(self.hi, fmt)
        return a if a == b else f"{a}{self.sep}{b}"


@dataclass(frozen=True)
class Reading:
    """A reading: ``template`` filled with ``values``, its word choices made by the boolean ``claims``."""

    template: str
    values: Mapping[str, Any] = field(default_factory=dict)
    claims: Mapping[str, bool] = field(default_factory=dict)
    name: str = "reading"  #: where the template comes from, for the error messages

    def render(self) -> str:
        return render(self.template, self.values, self.claims, self.name)

    def __format__(self, fmt: str) -> str:
        return self.render()

    def __str__(self) -> str:
        return self.render()

    def _repr_markdown_(self) -> str:
        return self.render()


def _fields(template: str):
    """Split ``template`` into literal text and ``{...}`` field bodies: ``(is_field, text)`` pairs (``{{``, ``}}``: a brace)."""
    out, i, n, start = [], 0, len(template), 0
    while i < n:
        c = template[i]
        if c == "$":
            j = template.find("$", i + 1)
            i = n if j < 0 else j + 1
        elif template.startswith(("{{", "}}"), i):  # a literal brace
            out.append((False, template[start:i] + c))
            i = start = i + 2
        elif c == "{":
            out.append((False, template[start:i]))
            depth, j = 1, i + 1
            while j < n and depth:
                if template[j] == "$":
                    j = template.find("$", j + 1)
                    if j < 0:
                        break
                depth += {"{": 1, "}": -1}.get(template[j], 0)
                j += 1
            if depth:
                raise ValueError(f"unclosed '{{' at character {i} of {template[i : i + 40]!r}")
            out.append((True, template[i + 1 : j - 1]))
            i = start = j
        elif c == "}":
            raise ValueError(f"a '}}' with no '{{' at character {i} of {template[max(i - 40, 0) : i + 1]!r}")
        else:
            i += 1
    out.append((False, template[start:]))
    return out


def _split_branches(body: str) -> tuple[str, str]:
    """``true|false`` split at the ``|`` outside nested fields and math (no ``|``: the false branch is empty)."""
    depth, math = 0, False
    for k, c in enumerate(body):
        if c == "$":
            math = not math
        elif not math and c in "{}":
            depth += 1 if c == "{" else -1
        elif c == "|" and not depth and not math:
            return body[:k], body[k + 1 :]
    return body, ""


def _item(v, fmt: str) -> str:
    return v.render() if isinstance(v, Reading) else format(v, fmt)


def templated_reading(
    templates: Mapping[str, str], key: str, claims, values, *, missing: str, name: str
) -> Reading:
    """The :class:`Reading` of ``templates[key]`` with ``values`` and ``claims``, named ``name key``.

    An unknown ``key`` is a ``KeyError`` that starts with ``missing`` (filled with ``key``) and lists the templates.

    >>> templated_reading({"a": "x {v}"}, "a", None, {"v": 1}, missing="no reading {key!r}", name="p").render()
    'x 1'
    """
    if key not in templates:
        raise KeyError(f"{missing.format(key=key)}; the templates are: {', '.join(templates)}")
    return Reading(templates[key], values, dict(claims or {}), name=f"{name} {key}")


def render(
    template: str, values: Mapping[str, Any], claims: Mapping[str, bool], name: str = "reading"
) -> str:
    """``template`` with its fields filled from ``values`` and its claim switches set by ``claims``.

    >>> render("{ok?holds|fails} on {n} graph{many?s}", dict(n=3), dict(ok=False, many=True))
    'fails on 3 graphs'
    >>> render("{missing:.2f}", {}, {}, "t2.tolerance")
    Traceback (most recent call last):
    ...
    KeyError: "t2.tolerance quotes {missing} but has no value 'missing' (values: none): pass missing=..."
    """
    out = []
    for is_field, text in _fields(template):
        if not is_field:
            out.append(text)
            continue
        if m := _CLAIM.fullmatch(text):
            key = m.group(1)
            if key not in claims:
                raise KeyError(f"{name} switches on {{{key}?...}} but has no claim {key!r} "
                               f"(claims: {', '.join(claims) or 'none'}): pass {key}=True/False in its claims")  # fmt: skip
            if not isinstance(claims[key], (bool, np.bool_)):
                raise TypeError(f"{name}: claim {key!r} must be a bool, got {claims[key]!r}")
            yes, no = _split_branches(m.group(2))
            out.append(render(yes if claims[key] else no, values, claims, name))
            continue
        m = _VALUE.fullmatch(text)
        if m is None:
            raise ValueError(f"{name}: {{{text}}} is neither {{name:fmt*sep}} nor {{claim?yes|no}}")
        key, fmt, sep, last = m.group(1), m.group(2) or "", m.group(3), m.group(4)
        if key not in values:
            raise KeyError(f"{name} quotes {{{key}}} but has no value {key!r} "
                           f"(values: {', '.join(values) or 'none'}): pass {key}=...")  # fmt: skip
        v = values[key]
        if sep is None:
            out.append(_item(v, fmt))
            continue
        items = [_item(x, fmt) for x in v]
        if last is not None and len(items) > 1:
            items = [sep.join(items[:-1]) + last + items[-1]]
        out.append(sep.join(items))
    return "".join(out)
