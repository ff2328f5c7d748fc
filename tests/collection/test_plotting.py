"""plotting: one style, one savefig; same figure => same bytes; files land in $GRAPHSEL_FIGURES."""

import matplotlib

matplotlib.use("agg")

import matplotlib.image as mpimg  # noqa: E402
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from graphsel_lib.collection import plotting as facade  # noqa: E402
from graphsel_lib.course import style as plotting  # noqa: E402
from graphsel_lib.course.style import (  # noqa: E402
    ALGORITHM_STYLES,
    algorithm_style,
    canonical_name,
    savefig,
    style,
    subplots,
)

ALGORITHMS = ["GPA", "OLLGC", "SSLGC", "CMOG", "MSG", "BBQ", "BBQ-eps", "DGS", "Random", "relaxation"]


def _figure(seed=0):
    rng = np.random.default_rng(seed)
    fig, axes = subplots(1, 2, size="wide")
    for name in ALGORITHMS:
        axes[0].plot(np.cumsum(rng.random(50)), **algorithm_style(name), markevery=10, label=name)
    axes[0].legend(ncols=2)
    axes[0].set_title("cumulative errors, ε = 0.1 ± 0.01")
    axes[1].imshow(rng.random((20, 20)))
    axes[1].set_xlabel("node")
    return fig


@pytest.fixture(autouse=True)
def _close_figures_and_restore_style():
    with matplotlib.rc_context():
        yield
    plt.close("all")


def test_savefig_writes_into_graphsel_figures(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAPHSEL_FIGURES", str(tmp_path / "figs"))
    paths = savefig(_figure(), "test_fig")
    assert paths == [tmp_path / "figs" / "test_fig.png", tmp_path / "figs" / "test_fig.pdf"]
    assert sorted(p.name for p in (tmp_path / "figs").iterdir()) == ["test_fig.pdf", "test_fig.png"]
    img = mpimg.imread(paths[0])
    w, h = plotting.FIGSIZES["wide"]
    dpi = plotting.RC_PARAMS["savefig.dpi"]
    assert img.shape[:2] == (round(h * dpi), round(w * dpi))
    pdf = paths[1].read_bytes()
    assert pdf.startswith(b"%PDF") and pdf.rstrip().endswith(b"%%EOF")


@pytest.mark.parametrize("fmt", ["png", "pdf", "svg"])
def test_same_figure_same_bytes(tmp_path, fmt):
    a = savefig(_figure(), "fig", formats=(fmt,), directory=tmp_path / "a")[0]
    b = savefig(_figure(), "fig", formats=(fmt,), directory=tmp_path / "b")[0]
    assert a.read_bytes() == b.read_bytes()
    # and a different figure gives different bytes (the comparison is not vacuous)
    c = savefig(_figure(seed=1), "fig", formats=(fmt,), directory=tmp_path / "c")[0]
    assert c.read_bytes() != a.read_bytes()


def test_metadata_has_no_date_or_version(tmp_path):
    png, pdf, svg = savefig(_figure(), "fig", formats=("png", "pdf", "svg"), directory=tmp_path)
    version = matplotlib.__version__.encode()
    assert b"Software" not in png.read_bytes() and version not in png.read_bytes()
    for key in (b"CreationDate", b"ModDate", b"Producer", version):
        assert key not in pdf.read_bytes()
    assert b"<dc:date>" not in svg.read_bytes() and version not in svg.read_bytes()


def test_savefig_overwrites_and_leaves_no_temp(tmp_path):
    savefig(_figure(seed=1), "fig", directory=tmp_path)
    savefig(_figure(seed=2), "fig", directory=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fig.pdf", "fig.png"]


def test_savefig_bad_input_leaves_nothing(tmp_path):
    fig = _figure()
    for bad in ["sub/fig", "../fig", "fig.png", "", ".hidden", "a b"]:
        with pytest.raises(ValueError, match="name"):
            savefig(fig, bad, directory=tmp_path)
    with pytest.raises(ValueError, match="format"):
        savefig(fig, "fig", formats=("png", "tiff"), directory=tmp_path)
    with pytest.raises(TypeError, match="Figure"):
        savefig(fig.axes[0], "fig", directory=tmp_path)
    assert list(tmp_path.iterdir()) == []


def test_failing_draw_keeps_previous_file(tmp_path):
    (png,) = savefig(_figure(), "fig", formats=("png",), directory=tmp_path)
    old = png.read_bytes()
    fig = _figure(seed=3)
    fig.axes[0].set_title("$\\undefinedcommand$")  # mathtext error raised while drawing
    with pytest.raises(ValueError):
        savefig(fig, "fig", formats=("png",), directory=tmp_path)
    assert png.read_bytes() == old
    assert [p.name for p in tmp_path.iterdir()] == ["fig.png"]


def test_an_interrupt_that_matplotlibs_clean_up_masks_is_still_an_interrupt(tmp_path, monkeypatch):
    """Ctrl-C inside the PDF compressor makes matplotlib's ``finally`` raise ``zlib.error`` over it: still a
    KeyboardInterrupt for the caller, the previous file kept, no temporary file; other errors pass unchanged."""
    import zlib

    from matplotlib.figure import Figure

    (pdf,) = savefig(_figure(), "fig", formats=("pdf",), directory=tmp_path)
    old = pdf.read_bytes()

    def interrupted_then_broken(self, *args, **kwargs):
        try:
            raise KeyboardInterrupt
        finally:
            raise zlib.error("Error -2 while flushing: inconsistent stream state")

    monkeypatch.setattr(Figure, "savefig", interrupted_then_broken)
    with pytest.raises(KeyboardInterrupt) as info:
        savefig(_figure(seed=4), "fig", formats=("pdf",), directory=tmp_path)
    assert isinstance(info.value.__cause__, zlib.error)
    assert pdf.read_bytes() == old and sorted(p.name for p in tmp_path.iterdir()) == ["fig.pdf"]

    def broken(self, *args, **kwargs):
        raise zlib.error("a real error")

    monkeypatch.setattr(Figure, "savefig", broken)
    with pytest.raises(zlib.error, match="a real error"):
        savefig(_figure(seed=4), "fig", formats=("pdf",), directory=tmp_path)
    assert pdf.read_bytes() == old


def test_algorithm_styles_distinct_and_stable():
    styles = [algorithm_style(a) for a in ALGORITHMS]
    assert len({s["color"] for s in styles}) == len(ALGORITHMS)
    assert len({s["marker"] for s in styles}) == len(ALGORITHMS)
    assert algorithm_style("bbq_eps") == algorithm_style("BBQEps") == algorithm_style("BBQ-ε") == styles[6]
    assert algorithm_style("random sampling") == algorithm_style("Random")
    assert algorithm_style("SSLGC (kappa=0.4)") == algorithm_style("sslgc")
    assert canonical_name("unknown method") is None
    # unknown names are stable, and a returned dict is a copy
    assert algorithm_style("my method") == algorithm_style("my method")
    algorithm_style("GPA")["color"] = "red"
    assert ALGORITHM_STYLES["GPA"]["color"] != "red"
    pub = algorithm_style("MSG", published=True)
    assert pub["color"] == algorithm_style("MSG")["color"] and pub["linestyle"] == "--"
    with pytest.raises(TypeError):
        algorithm_style(3)


def test_style_context_restores_rcparams():
    matplotlib.rcdefaults()
    before = dict(matplotlib.rcParams)
    with style():
        assert matplotlib.rcParams["font.size"] == plotting.RC_PARAMS["font.size"]
        assert matplotlib.rcParams["svg.hashsalt"] == plotting.SVG_HASHSALT
    assert dict(matplotlib.rcParams) == before
    with pytest.raises(ValueError, match="size"):
        subplots(size="huge")
    fig, ax = subplots(size=(2, 1))
    assert tuple(fig.get_size_inches()) == (2, 1)
    ax.plot([0, 1], label="x")
    assert ax.legend().get_texts()[0].get_fontsize() == plotting.RC_PARAMS["legend.fontsize"]


def test_show_displays_a_png_and_closes_the_figure(monkeypatch):
    """``plotting.show`` is how an explorer draws: an inline PNG under any backend, no file written."""
    import IPython.display

    import graphsel_lib.course.style as P

    shown = []
    monkeypatch.setattr(IPython.display, "display", lambda obj: shown.append(obj))
    fig, ax = P.plt.subplots()
    ax.plot([0, 1], [1, 0])
    P.show(fig)
    assert len(shown) == 1 and shown[0].data[:8] == b"\x89PNG\r\n\x1a\n"
    assert not P.plt.fignum_exists(fig.number)
    with pytest.raises(TypeError, match="Figure"):
        P.show("not a figure")


def test_collection_plotting_is_the_course_style():
    """Notebooks and papers reach the one style as ``collection.plotting``: the same objects."""
    assert all(getattr(facade, name) is getattr(plotting, name) for name in facade.__all__)
    assert set(facade.__all__) <= set(plotting.__all__)
