"""What names a result in the results cache: the learner and the library code it runs.

:func:`learner_key` covers the learner (class, parameters, nested learners, code written outside the
library); :func:`library_code_hash` the library modules it runs and what they import, docstrings left
out, so that editing an update rule invalidates its results and a docstring does not.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..online import learner_description

if TYPE_CHECKING:
    import os
    from collections.abc import Iterable

__all__ = ["LIBRARY_ROOT", "learner_key", "library_code_hash"]

LIBRARY_ROOT = Path(__file__).parent.parent  # the graphsel_lib folder


def _module_file(name, root):
    rel = Path(*name.split(".")[1:])
    for path in (root / rel.with_suffix(".py"), root / rel / "__init__.py"):
        if path.is_file():
            return path
    return None


def _library_imports(name, tree, is_package, root):
    """The ``graphsel_lib`` modules that module ``name`` imports (at any depth of its code; packages only if needed)."""
    found = set()
    here = name.split(".") if is_package else name.split(".")[:-1]
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            module = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
            module = module if node.level else (node.module or "")
            if not module.startswith("graphsel_lib"):
                continue
            subs = {f"{module}.{a.name}" for a in node.names if _module_file(f"{module}.{a.name}", root)}
            path = _module_file(module, root)
            if path is not None and not (path.name == "__init__.py" and len(subs) == len(node.names)):
                found.add(module)  # names taken from the module itself (not only submodules of a package)
            found |= subs
        elif isinstance(node, ast.Import):
            found |= {
                a.name for a in node.names if a.name.startswith("graphsel_lib") and _module_file(a.name, root)
            }
    return found


def _without_docstrings(tree):
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body
            if (
                body
                and isinstance(body[0], ast.Expr)
                and isinstance(getattr(body[0], "value", None), ast.Constant)
            ):
                if isinstance(body[0].value.value, str):
                    node.body = body[1:] or [ast.Pass()]
    return tree


def library_code_hash(modules: Iterable[str], *, root: str | os.PathLike[str] = LIBRARY_ROOT) -> str:
    """SHA-256 of the code the results of a learner depend on: its modules and every library module they import.

    The modules (e.g. those :func:`learner_description` names, and
    ``graphsel_lib.online.protocol``) are followed through their imports inside
    ``graphsel_lib``, eager or lazy; each is hashed as its syntax tree without
    docstrings, so a comment or docstring edit keeps the cache and a change of an
    update rule, a compiled kernel or a helper they call does not.

    Parameters
    ----------
    modules : iterable of str
        Dotted module names, e.g. ``"graphsel_lib.online.cmog_msg"``. Names outside
        ``graphsel_lib``, or without a file under ``root``, are skipped.
    root : path, default LIBRARY_ROOT
        The ``graphsel_lib`` folder whose files are read (the installed
        library's by default). Each file is parsed once per version (its
        modification time and size).

    Returns
    -------
    str
        64 hexadecimal digits, from the names and docstring-free syntax trees
        of the modules found, in sorted order.

    Examples
    --------
    >>> h = library_code_hash({"graphsel_lib.online.protocol"})
    >>> len(h), h == library_code_hash(["graphsel_lib.online.protocol", "numpy"])
    (64, True)
    >>> library_code_hash(set()) == hashlib.sha256().hexdigest()  # no module: the digest of nothing
    True
    """
    seen, code, todo = set(), {}, sorted(modules)
    while todo:
        name = todo.pop()
        if name in seen or not name.startswith("graphsel_lib"):
            continue
        path = _module_file(name, root)
        if path is None:
            continue
        seen.add(name)
        stat = path.stat()
        imports, code[name] = _module_code(name, str(path), stat.st_mtime_ns, stat.st_size, str(root))
        todo += sorted(set(imports) - seen)
    h = hashlib.sha256()
    for name in sorted(seen):
        h.update(name.encode())
        h.update(code[name].encode())
    return h.hexdigest()


@functools.lru_cache(maxsize=512)
def _module_code(name, path, mtime_ns, size, root):
    """``(library modules it imports, its syntax tree without docstrings)`` of one file, read once per version."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    imports = tuple(sorted(_library_imports(name, tree, Path(path).name == "__init__.py", Path(root))))
    return imports, ast.dump(_without_docstrings(tree), include_attributes=False)


def _modules_of(description) -> set:
    """The ``graphsel_lib`` modules named in a :func:`learner_description` (classes along each learner's MRO)."""
    text = json.dumps(description)
    return set(re.findall(r'"(graphsel_lib(?:\.[A-Za-z0-9_]+)+)"', text))


def learner_key(learner: object) -> str:
    """SHA-256 naming what ``learner`` computes, for the results cache.

    It covers the learner's class (module and qualified name along its MRO),
    its ``__init__`` parameters read back as scikit-learn's ``get_params``
    (nested learners recursively; a factory parameter such as
    :class:`~graphsel_lib.online.OneVsRest`'s by the learner it built; arrays by
    digest) and, for classes and functions written outside ``graphsel_lib`` and
    installed packages, their code (methods, defaults, closures, the globals
    they read): a subclass or an edited notebook learner gets a key of its own,
    where ``repr`` may not tell them apart. The library's own code enters the
    cache key through :func:`library_code_hash` of the modules it runs.

    Parameters
    ----------
    learner : object
        The learner, as ``make_learner()`` returns it before any pass (what
        :func:`evaluate` keys the cache by).

    Returns
    -------
    str
        64 hexadecimal digits: the SHA-256 of the learner's canonical
        description (``graphsel_lib.online.learner_description``) as compact
        JSON: two learners of the same class and parameters get the same key.

    Examples
    --------
    >>> from graphsel_lib.online import MSG
    >>> key = learner_key(MSG(h=0.1))
    >>> len(key), key == learner_key(MSG(h=0.1)), key == learner_key(MSG(h=1.0))
    (64, True, False)
    """
    text = json.dumps(learner_description(learner), separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()
