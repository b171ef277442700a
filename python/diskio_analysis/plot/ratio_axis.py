# SPDX-License-Identifier: MIT
"""The layout of a chart of ratios on a logarithmic axis centred on 1
(diskio-compare's points, diskio-correlate's bars), each mark labelled
to its right: how wide the axis must be for every label to end inside
the plot, and where the key goes so that it covers no mark or label and
never sits under the x axis' label (a corner left free, else a band of
its own above the first row).  Sizes are estimated in pixels from the
chart's; gnuplot is never asked."""

import math

from .gnuplot import KEY_CHAR_PX, KEY_LINE_PX, key_corner

# A label's character, in pixels (sans 10 on pngcairo: 7 px, taken a
# little wide), and the room left and right of the plot besides the names
# on the y axis (tics, border, margins).
LABEL_CHAR_PX = KEY_CHAR_PX
FRAME_PX = 80.0
# A label longer than this share of the plot cannot be kept inside it by
# widening the axis; the axis stops widening there.
LABEL_SHARE_MAX = 0.8
# The chart's height besides the plot's: the title, the x axis' tics
# and label.
FRAME_HEIGHT_PX = 100.0


def plot_width(runs, width):
    """The plot's width in pixels: the chart's less the names of its rows
    (runs) at its left and the frame."""
    return max(width - FRAME_PX - LABEL_CHAR_PX * max(
        (len(run) for run in runs), default=0), 1.0)


def label_share(text, plot_px):
    """The share of the plot's width a point's label takes, from its
    point (one character on) to its end."""
    return min(LABEL_SHARE_MAX, (len(text) + 1) * LABEL_CHAR_PX / plot_px)


def label_limit(labelled, runs, width):
    """The least half-width (ratio, the axis being 1/limit..limit) at which
    every point's label, written from its interval's high end one
    character on, ends inside the plot: labelled is [(high, label)],
    runs the y axis' names (their width is the plot's left margin), width
    the chart's in pixels."""
    plot_px = plot_width(runs, width)
    half = 0.0      # log10 of the limit
    for high, text in labelled:
        # (log10(high) + half) / (2 half) + share <= 1
        half = max(half, math.log10(high) / (1.0 - 2.0 * label_share(text, plot_px)))
    return 10.0 ** half


def label_end(high, text, limit, plot_px):
    """Where a label written from high ends, on the axis 1/limit..limit."""
    return high * limit ** (2.0 * label_share(text, plot_px))


def key_place(drawn, titles, limit, runs, size):
    """Where the key goes, never under the x axis' label: (corner, rows,
    pixels).  In a corner of the plot that the marks, their extents and
    labels (drawn: [(y, low, high, label)]) and the line at 1 leave free,
    else in a band of its own above the first row (runs: the rows'
    names): that many more rows on the y axis, the chart that many
    pixels taller."""
    plot_px = plot_width(runs, size[0])
    lines = [[(low, y), (label_end(high, text, limit, plot_px) if text else high, y)]
             for y, low, high, text in drawn] + [[(1.0, 0.0), (1.0, float(len(runs)))]]
    area = (plot_px, max(size[1] - FRAME_HEIGHT_PX, 1.0))
    corner = key_corner(lines, True, False, titles, (1.0 / limit, limit),
                        (0.0, float(len(runs))), area)
    if corner != "below":
        return corner, 0.0, 0
    band_px = int(KEY_LINE_PX * len(titles) + 20)
    # the band's share of the taller plot is its rows' share of the axis
    rows = len(runs) * band_px / max(area[1], 1.0)
    return "top left", rows, band_px
