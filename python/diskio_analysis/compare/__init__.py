# SPDX-License-Identifier: MIT
"""diskio-compare: diskio results of two or more environments, each run
matched with the baseline's and every metric's ratio judged against its
noise (the shared noise module's verdicts).  See diskio-compare(1).

- analysis: the environments (results named alike or sharing a label),
            the runs matched by what makes them comparable, each metric's
            judgement;
- advice:   what an inconclusive verdict asks for, in words, and the
            figures a table shows beside a verdict;
- render:   the comparison as text, markdown, CSV and JSON;
- command:  the options and main().
"""
