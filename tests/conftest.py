# Every tests/cases/**/*.sit with `expect` lines is a test item (kb/tools/pytest_plugin.py).
# The installed package registers the plugin itself (the `pytest11` entry point
# in pyproject.toml); only an install made before the entry point existed, or a
# run with PYTEST_DISABLE_PLUGIN_AUTOLOAD, needs it loaded here.
import os
from importlib.metadata import entry_points

if os.environ.get("PYTEST_DISABLE_PLUGIN_AUTOLOAD") or not any(
        ep.value == "aslkb.tools.pytest_plugin" for ep in entry_points(group="pytest11")):
    pytest_plugins = ["aslkb.tools.pytest_plugin"]

# Output is coloured where FORCE_COLOR says so, even into a pipe
# (kb/render/colour.py): the suite compares plain text, whatever shell it is run from.
os.environ.pop("FORCE_COLOR", None)
