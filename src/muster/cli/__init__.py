"""The ``muster`` command line (typer)."""
