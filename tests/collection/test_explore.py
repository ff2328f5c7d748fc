"""Explorers: headless they draw once at the defaults; in Jupyter they are ipywidgets.interact."""

import pytest

from graphsel_lib.collection import explore as ex


def test_headless_calls_once_at_the_defaults(monkeypatch):
    monkeypatch.setenv(ex.HEADLESS_ENV, "1")
    calls = []

    def show(mu=0.5, d=10):
        calls.append((mu, d))
        return "drawn"

    assert ex.explore(show, mu=(0.0, 1.0, 0.1), d=[10, 20]) == "drawn"
    assert calls == [(0.5, 10)]


def test_with_a_front_end_it_builds_widgets(monkeypatch):
    pytest.importorskip("ipywidgets")
    monkeypatch.setenv(ex.HEADLESS_ENV, "0")
    assert not ex.is_headless()
    calls = []

    def show(mu=0.5):
        calls.append(mu)

    w = ex.explore(show, mu=(0.0, 1.0, 0.1))
    assert w is not None and calls == [0.5]  # interact draws the start once, then on every move


def test_controls_must_be_parameters_with_defaults(monkeypatch):
    monkeypatch.setenv(ex.HEADLESS_ENV, "1")

    def show(mu, d=1):
        return mu

    with pytest.raises(TypeError, match="'nu' is not a parameter"):
        ex.explore(show, nu=(0, 1))
    with pytest.raises(TypeError, match="needs a default"):
        ex.explore(show, mu=(0, 1))
