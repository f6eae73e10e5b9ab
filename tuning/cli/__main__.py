"""``python -m tuning.cli``: the ``holdem-lab`` command line."""

from __future__ import annotations

import sys

from tuning.cli.main import main

sys.exit(main())
