"""Every name of the compiled engine's kernels, in one namespace (``vector.kernels``).

The kernels live in ``kernels_rules.py``. This module only gathers their names, so that
``from ...vector.kernels import X`` and ``kernels.X`` keep working.
"""

from __future__ import annotations

from . import kernels_rules

globals().update({k: v for k, v in vars(kernels_rules).items() if not k.startswith("__")})
