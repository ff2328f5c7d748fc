"""The source papers' reproductions: published numbers as data, protocols, headline readings, one function per item.

Content, not tooling and not algorithms: a module or package per paper (``yang2016``, ...)
builds on the algorithm packages and the collection's tooling, and neither of
those imports it. The notebooks 20–44 and 90 explain each protocol and result and
call these functions. ``scorecard_rows`` turns the tables the notebooks wrote
into the scorecard's rows, one builder per paper.
"""
