# Every tests/cases/**/*.sit with `expect` lines is a test item (kb/pytest_plugin.py).
pytest_plugins = ["aslkb.pytest_plugin"]
