"""python -m tilefit."""

from __future__ import annotations

import sys

from tilefit.cli import main

sys.exit(main())
