"""Layer 7: the command line (main.py: the `aslkb` command; commands.py: the authors' subcommands)."""
