"""``python -m gammon`` runs the ``gammon`` command."""

import sys

from gammon.cli import main

sys.exit(main())
