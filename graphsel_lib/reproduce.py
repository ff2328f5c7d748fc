"""``python -m graphsel_lib.reproduce``: the notebook runner, :mod:`graphsel_lib.collection.reproduce`."""

from graphsel_lib.collection.reproduce import main

if __name__ == "__main__":
    raise SystemExit(main())
