"""``python -m webgrip``: the command line (see :mod:`webgrip.cli`)."""

import sys

from .cli import main

sys.exit(main())
