"""Screenshot of the notebook-01 explorer in a real JupyterLab, driven by Debian's chromium.

Start JupyterLab without the pipeline's headless switch, figures sent elsewhere, the app exposed::

    cd notebooks && env -u GRAPHSEL_HEADLESS -u MPLBACKEND GRAPHSEL_FIGURES=/tmp/figs \
        jupyter lab --no-browser --port 8899 --ServerApp.token='' --LabApp.expose_app_in_browser=True

then ``python docs/screenshots/explorer_screenshot.py out.png``: it runs every cell, moves the
``share`` slider four steps left and photographs the explorer cell (crop to taste).
"""

import sys
import time

from playwright.sync_api import sync_playwright

URL = "http://127.0.0.1:8899/lab/tree/01_graph_laplacian.ipynb"
with sync_playwright() as p:
    b = p.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
    page = b.new_page(viewport={"width": 1400, "height": 1000})
    page.goto(URL)
    page.wait_for_function("window.jupyterapp !== undefined", timeout=60000)
    page.wait_for_selector(".jp-Notebook", timeout=60000)
    time.sleep(5)
    page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(".widget-slider", timeout=240000)
    time.sleep(8)
    slider = page.locator(
        ".widget-slider .noUi-handle, .widget-slider .slider .ui-slider-handle, .widget-slider [role=slider]"
    ).first
    slider.scroll_into_view_if_needed()
    slider.click()
    for _ in range(4):
        page.keyboard.press("ArrowLeft")
        time.sleep(1.5)
    time.sleep(4)
    box = page.locator(".jp-Cell", has=page.locator(".widget-slider")).first
    box.scroll_into_view_if_needed()
    box.screenshot(path=sys.argv[1])
    print("shot", sys.argv[1])
    b.close()
