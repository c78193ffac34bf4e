"""The rule files (ASP), shipped as package data; see docs/design.md."""
