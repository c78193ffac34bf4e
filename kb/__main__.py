from aslkb.cli.main import entry

entry()
