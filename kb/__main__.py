from aslkb.cli.start import entry

entry()
