"""``python -m muster``: the same command line as ``muster``."""

from muster.cli.main import app

if __name__ == "__main__":
    app(prog_name="muster")
