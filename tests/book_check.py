"""Open a built book in headless Chromium with no network and report what a reader would see wrong.

Used by ``tests/collection/test_book.py``, and by hand on a book you just built::

    python tests/book_check.py build/smoke/book                      # every page
    python tests/book_check.py build/smoke/book 'chapters/02_*'      # some pages (globs)

Every request that leaves 127.0.0.1 is blocked and reported. On every page it
checks that each formula was rendered by MathJax (no raw ``$...$`` or
``\\(...\\)`` left in the prose), that every image loaded, and that the console
shows no error. Chromium is Debian's ``chromium`` (or ``$GRAPHSEL_CHROMIUM``),
driven by playwright; no browser is downloaded.
"""

from __future__ import annotations

import fnmatch
import functools
import http.server
import os
import shutil
import sys
import threading
from pathlib import Path
from urllib.parse import urlparse

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]
# Text of the page outside code, scripts and rendered math: what a reader sees as prose.
_PROSE_JS = """() => {
  const root = (document.querySelector('article') || document.body).cloneNode(true);
  root.querySelectorAll('pre, code, script, style, mjx-container, .highlight').forEach(e => e.remove());
  return root.textContent;
}"""
_PAGE_JS = """() => ({
  math: document.querySelectorAll('span.math, div.math').length,
  rendered: document.querySelectorAll('span.math mjx-container, div.math mjx-container').length,
  mathErrors: document.querySelectorAll('mjx-merror, [data-mjx-error]').length,
  images: Array.from(document.images).map(i => [i.getAttribute('src'), i.complete && i.naturalWidth > 0]),
})"""
_RAW_MATH = ("$$", "\\(", "\\[", "\\frac", "\\mathbf", "\\sum", "\\le")
# A slide deck (reveal.js): ready, its slides counted, its formulas rendered.
_DECK_JS = """async () => {
  if (typeof Reveal === 'undefined') return {ready: false};
  if (!Reveal.isReady()) await new Promise(r => Reveal.on('ready', r));
  if (window.MathJax && MathJax.startup) await MathJax.startup.promise;
  const root = document.querySelector('.reveal .slides').cloneNode(true);
  root.querySelectorAll('pre, code, script, style, mjx-container, .highlight').forEach(e => e.remove());
  return {ready: true, slides: Reveal.getTotalSlides(),
          rendered: document.querySelectorAll('mjx-container').length,
          mathErrors: document.querySelectorAll('mjx-merror, [data-mjx-error]').length,
          prose: root.textContent};
}"""


def find_chromium() -> str | None:
    """Debian's chromium, or ``$GRAPHSEL_CHROMIUM``; ``None`` if there is none."""
    for candidate in (os.environ.get("GRAPHSEL_CHROMIUM"), shutil.which("chromium"), "/usr/bin/chromium"):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _page_problems(page, url: str, state: dict, prose: str) -> list[str]:
    out = []
    if state["rendered"] < state["math"]:
        out.append(f"{url}: {state['math'] - state['rendered']} of {state['math']} formulas not rendered")
    if state["mathErrors"]:
        out.append(f"{url}: {state['mathErrors']} MathJax error(s)")
    out += [f"{url}: image did not load: {src}" for src, ok in state["images"] if not ok]
    for marker in _RAW_MATH:
        if marker in prose:
            at = prose.index(marker)
            out.append(f"{url}: raw math {marker!r} in the text: ...{prose[max(0, at - 60) : at + 60]!r}")
    dollars = [i for i, ch in enumerate(prose) if ch == "$"]
    if len(dollars) >= 2:
        at = dollars[0]
        out.append(f"{url}: {len(dollars)} raw '$' in the text: ...{prose[max(0, at - 60) : at + 60]!r}")
    return out


def check_book(book_dir, pages=None, *, screenshot_dir=None, executable=None) -> dict:
    """Serve ``book_dir`` on 127.0.0.1 and read it in headless Chromium.

    ``pages``: globs of page paths relative to the book (default: the index and
    every chapter it links). Returns ``{"chapters", "problems", "blocked", "n_math"}``.
    """
    from playwright.sync_api import sync_playwright

    book_dir = Path(book_dir)
    executable = executable or find_chromium()
    if executable is None:
        raise RuntimeError("no Chromium: install Debian's chromium or set GRAPHSEL_CHROMIUM")
    srv = http.server.ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(_Quiet, directory=str(book_dir))
    )
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{srv.server_address[1]}"
    problems, blocked, n_math, decks = [], [], 0, []
    current = {"url": ""}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 900})

            def route(r):
                if urlparse(r.request.url).hostname == "127.0.0.1":
                    r.continue_()
                else:
                    blocked.append(r.request.url)
                    r.abort()

            def on_console(m):
                if m.type == "error":
                    problems.append(f"{current['url']}: console error: {m.text}")

            def on_response(r):
                if r.status >= 400:
                    problems.append(f"{current['url']}: HTTP {r.status}: {r.url}")

            def on_failed(r):
                # leaving a page aborts its late requests (the favicon): not a fault of the book; a missing
                # file shows as an HTTP error above, a connection refused or reset as any other failure
                if r.failure != "net::ERR_ABORTED":
                    problems.append(f"{current['url']}: request failed: {r.url} ({r.failure})")

            page.route("**/*", route)
            page.on("console", on_console)
            page.on("pageerror", lambda e: problems.append(f"{current['url']}: page error: {e}"))
            page.on("requestfailed", on_failed)
            page.on("response", on_response)

            current["url"] = "index.html"
            page.goto(f"{base}/index.html", wait_until="load")
            hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
            chapters = sorted(
                {h.split("#")[0] for h in hrefs if h.startswith("chapters/") and h.endswith(".html")}
            )
            if screenshot_dir is not None:
                page.screenshot(path=str(Path(screenshot_dir) / "book_index.png"))
            todo = ["index.html", *chapters]
            if pages:
                todo = [
                    u
                    for u in todo
                    if any(fnmatch.fnmatch(u, g) or fnmatch.fnmatch(u, g + ".html") for g in pages)
                ]
            for url in todo:
                current["url"] = url
                page.goto(f"{base}/{url}", wait_until="load")
                page.evaluate("() => window.MathJax && MathJax.startup ? MathJax.startup.promise : null")
                state = page.evaluate(_PAGE_JS)
                n_math += state["math"]
                problems += _page_problems(page, url, state, page.evaluate(_PROSE_JS))
                if screenshot_dir is not None and url == (chapters[:1] or [None])[0]:
                    page.screenshot(path=str(Path(screenshot_dir) / "book_chapter.png"))
            if "chapters/slides.html" in todo:  # the lecture slides linked from the slides page
                page.goto(f"{base}/chapters/slides.html", wait_until="load")
                hrefs = page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))")
                decks = sorted({h for h in hrefs if h.endswith(".slides.html")})
                for href in decks:
                    url = "chapters/" + href
                    current["url"] = url
                    page.goto(f"{base}/{url}", wait_until="load")
                    state = page.evaluate(_DECK_JS)
                    if not state["ready"] or state["slides"] < 3:
                        problems.append(f"{url}: the deck did not start ({state})")
                        continue
                    if state["mathErrors"]:
                        problems.append(f"{url}: {state['mathErrors']} MathJax error(s)")
                    for marker in _RAW_MATH:
                        if marker in state["prose"]:
                            at = state["prose"].index(marker)
                            problems.append(
                                f"{url}: raw math {marker!r}: ...{state['prose'][max(0, at - 60) : at + 60]!r}"
                            )
                    n_math += state["rendered"]
            browser.close()
    finally:
        srv.shutdown()
    return {
        "chapters": chapters,
        "problems": problems,
        "blocked": sorted(set(blocked)),
        "n_math": n_math,
        "decks": decks,
    }


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        print(__doc__)
        return 2
    result = check_book(argv[0], argv[1:] or None)
    for line in result["problems"]:
        print(line)
    for url in result["blocked"]:
        print(f"blocked request to {url}")
    print(
        f"{len(result['problems'])} problem(s), {len(result['blocked'])} blocked request(s), {result['n_math']} formulas, "
        f"{len(result['decks'])} slide decks"
    )
    return 1 if result["problems"] or result["blocked"] else 0


if __name__ == "__main__":
    sys.exit(main())
