"""The shipped example situations, installed as package data so that the
playground's gallery (kb/web/app.py) reads them wherever aslkb is installed."""
