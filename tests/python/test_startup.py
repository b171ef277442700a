# SPDX-License-Identifier: MIT
"""Description: the analysis commands start without importing scipy, and a t quantile imports no scipy.stats.

Each command's module and its --help, and diskio-compare judging single
values (no interval, so no t quantile), run in a fresh interpreter with
neither scipy nor numpy imported: the tests and users spawn these
commands many times, and scipy.stats alone takes 0.3 to 0.6 s to import.
The first t quantile imports scipy.special (Student's t, the function
scipy.stats.t.ppf calls) and still not scipy.stats."""

import os
import subprocess
import sys
import unittest

from filelib import FIXTURES

COMMANDS = ("compare", "correlate", "plot", "pgphases", "fleet")


def heavy_modules(code):
    """Run code in a fresh interpreter (this one, this PYTHONPATH); the
    heavy modules it left imported, sorted (its output's last line)."""
    probe = code + """
import sys
print("imported:", *sorted(m for m in ("scipy", "scipy.stats", "scipy.special", "numpy")
                           if m in sys.modules))
"""
    out = subprocess.run([sys.executable, "-c", probe], check=True,
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         text=True, env=os.environ.copy()).stdout
    return out.splitlines()[-1].split()[1:]


class StartupTest(unittest.TestCase):
    def test_commands_import_no_scipy(self):
        for name in COMMANDS:
            with self.subTest(command=name):
                code = f"import diskio_analysis.{name}.command"
                self.assertEqual(heavy_modules(code), [])

    def test_help_imports_no_scipy(self):
        for name in COMMANDS:
            with self.subTest(command=name):
                code = f"""
from diskio_analysis.{name}.command import main
try:
    main(["--help"])
except SystemExit:
    pass
"""
                self.assertEqual(heavy_modules(code), [])

    def test_compare_of_single_values_imports_no_scipy(self):
        a, b = (os.path.join(FIXTURES, d, "result.json") for d in ("env-a", "env-b"))
        code = f"""
from diskio_analysis.compare.command import main
assert main([{a!r}, {b!r}]) == 0
"""
        self.assertEqual(heavy_modules(code), [])

    def test_t_quantile_imports_scipy_special_not_stats(self):
        code = """
from diskio_analysis import noise
assert abs(noise.t_quantile(0.975, 4) - 2.776) < 1e-3
"""
        modules = heavy_modules(code)
        self.assertIn("scipy.special", modules)
        self.assertNotIn("scipy.stats", modules)


if __name__ == "__main__":
    unittest.main()
