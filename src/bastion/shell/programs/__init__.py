"""The knowledge base: every program the classifier knows, one table per family.

``registry`` joins the tables (``PROGRAMS``, ``lookup``); ``spec`` is the shape of an entry.
This ``__init__`` imports nothing, so no module of the package is in a cycle through it.
"""
