"""The optional Python modules of the scripts: a missing one is a usage error that names it
and how to get it (exit status 2), never a traceback."""

import importlib
import os
import sys

# How each optional module is installed.
HOW = {
    "gnubg": "run scripts/gnubg-install.sh and use its .venv-gnubg/bin/python",
}


def require(name):
    """The module `name`, imported; exits with status 2 and a one-line message without it."""
    try:
        return importlib.import_module(name)
    except ImportError as error:
        script = os.path.basename(sys.argv[0]) or "python"
        how = HOW.get(name, f"pip install {name}")
        sys.stderr.write(f"{script}: needs the Python module {name} ({error}): {how}\n")
        sys.exit(2)
