"""The query programs and catalog, shipped as package data; see docs/design.md."""
