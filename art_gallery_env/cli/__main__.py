"""``python -m art_gallery_env.cli``: the ``art-gallery`` command."""

import sys

from art_gallery_env.cli import main

sys.exit(main())
