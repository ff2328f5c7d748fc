"""``python -m graphsel_lib.book``: the HTML book, :mod:`graphsel_lib.collection.book`."""

from graphsel_lib.collection.book import main

if __name__ == "__main__":
    raise SystemExit(main())
