"""The companion: a camera over the table that follows mirror-themed games."""

import os as _os

# The companion's matrix products are small and many (template matching, the hint solver):
# a BLAS thread pool costs more to wake than it saves, and on a Pi it would fight the camera
# and perception threads for the four cores. Set before numpy is first imported.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_var, "1")

__version__ = "0.1.0"
