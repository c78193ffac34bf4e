"""aslkb: a declarative rules knowledge base for ASL and Squad Leader."""

__version__ = "0.1.0"
