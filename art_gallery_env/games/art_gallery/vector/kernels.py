"""Every name of the compiled engine's kernels, in one namespace (``vector.kernels``).

The kernels live in the files :data:`.jit.KERNEL_MODULES` names, split by job: the rules
(``kernels_rules``), the score and the observation (``kernels_score``), the batched entry
points (``kernels_batch``), the heuristic's evaluations (``kernels_heuristic``) and choices
(``kernels_choice``), the searches (``kernels_search``); :mod:`.jit` caches them all under
one stamp. This module only gathers their names, so that ``from ...vector.kernels import
X`` and ``kernels.X`` keep working.
"""

from __future__ import annotations

from . import (
    kernels_batch,
    kernels_choice,
    kernels_heuristic,
    kernels_rules,
    kernels_score,
    kernels_search,
)

for _module in (
    kernels_rules,
    kernels_score,
    kernels_batch,
    kernels_heuristic,
    kernels_choice,
    kernels_search,
):
    globals().update({k: v for k, v in vars(_module).items() if not k.startswith("__")})
del _module
