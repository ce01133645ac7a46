"""``python -m knapsack_audit.golden``: see :func:`knapsack_audit.golden.cli.main`."""

import sys

from knapsack_audit.golden.cli import main

sys.exit(main(sys.argv[1:]))
