# SPDX-License-Identifier: MIT
"""The commands: argument parsing and main() of each, behind the entry
points of a few lines in scripts/."""
