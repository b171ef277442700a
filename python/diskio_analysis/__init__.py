# SPDX-License-Identifier: MIT
"""diskio_analysis: the analysis half of diskio.

One importable package behind the thin commands diskio-compare,
diskio-correlate, diskio-plot, diskio-pgphases and diskio-fleet (and
bench/compare-peers): a subpackage per command (compare, correlate, plot,
pgphases, fleet), each with its command.py, over the shared modules here:
the one reader of diskio's result JSON, the readers of the other input
formats, the noise statistics, the errors and the outputs.  The standard
library, and scipy for Student's t (imported only when a verdict needs
one: no command starts by importing scipy).

The name leaves ``diskio`` free for a future binding of libdiskio itself.
"""

import os as _os
from pkgutil import extend_path as _extend_path

# configure writes _version.py into the build tree.  In a build outside the
# source tree (make distcheck) the build tree's python/ directory is on
# sys.path beside the source tree's, so let the package span both; an
# installed or in-tree package has _version.py beside this file.
if not _os.path.exists(_os.path.join(_os.path.dirname(__file__), "_version.py")):
    __path__ = _extend_path(__path__, __name__)

try:
    from ._version import VERSION as __version__  # noqa: E402
except ModuleNotFoundError as _err:
    # A source tree that was never configured has no version to tell; the
    # one thing run there is bench/compare-peers, which builds its own
    # diskio.  An installed package always has _version.py.
    if _err.name != __name__ + "._version":
        raise
    __version__ = "unknown (unconfigured source tree)"

__all__ = ["__version__"]
