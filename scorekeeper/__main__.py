"""`python -m scorekeeper` runs the same command line as `scorekeeper`."""

import sys

from scorekeeper.cli import main

sys.exit(main())
