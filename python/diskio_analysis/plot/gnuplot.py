# SPDX-License-Identifier: MIT
"""gnuplot for diskio-plot: quoting, the settings and plot clauses every
chart shares, and one script for all charts, run once in the work
directory; each image is checked whole, copied into the output directory
(by its descriptor, unnamed or under a temporary name) and given its name
only when every image was.

Nothing read from an input is ever run.  gnuplot substitutes `command`
and expands @macros inside double-quoted strings, and takes a file name
that starts with '<' or an output that starts with '|' as a shell
command; so every string of a script is single-quoted (no substitution,
no expansion; a run of quotes is a double-quoted string of quotes alone,
joined on with '.'), shown() first (a newline cannot end the command), a
tic label has its '%' doubled (it is a format), and the only files a
script names are the work directory's own, named by this package: the
data tables and the images (never the user's --outdir)."""

import colorsys
import math
import os
import re
import shutil
import subprocess

from ..errors import InputError, ToolError
from ..outputs import OutputError
from ..textsafe import shown

EXIT_NO_GNUPLOT = 3
EXIT_GNUPLOT_FAILED = 4
CHART_SIZE = (1000, 600)


class GnuplotError(ToolError):
    """gnuplot missing (exit 3) or failed (exit 4)."""


def not_found(gnuplot):
    return GnuplotError(f"gnuplot not found ({gnuplot}); install it "
                        "(Debian: apt-get install gnuplot-nox) or set "
                        "GNUPLOT to its path", EXIT_NO_GNUPLOT)


def _single_quoted(text):
    """text as a gnuplot string expression of single-quoted strings,
    which gnuplot takes literally (no `command` substitution, no @macro,
    no backslash escape).  gnuplot reads '' in one as a quote only where
    no quote comes just before it (not at the start, not twice in a row),
    so each run of quotes is a double-quoted string of quotes alone,
    joined with '.': it's -> 'it'."'".'s'."""
    pieces = [f'"{part}"' if part.startswith("'") else f"'{part}'"
              for part in re.split(r"('+)", text) if part]
    return ".".join(pieces) or "''"


def gp_string(text):
    """A title, label or key entry: a single-quoted string of text as
    shown() shows it."""
    return _single_quoted(shown(text))


def gp_format(text):
    """A tic label, which gnuplot reads as a format: gp_string() with each
    '%' doubled, so that it is printed as it is."""
    return _single_quoted(shown(text).replace("%", "%%"))


# The names of the files a script reads and writes: the work directory's
# own, made by this package (charts.py, gnuplot_script()).  Never one that
# starts with '<' or '|' (a shell command to gnuplot) or holds a quote.
_OWN_FILE_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}", re.ASCII)


def gp_datafile(path):
    """A data table of the work directory as the script names it: its
    name alone (gnuplot runs in the work directory); ValueError for a
    name the package did not make."""
    name = os.path.basename(path)
    if not _OWN_FILE_NAME.fullmatch(name):
        raise ValueError(f"not a work directory file name: {name!r}")
    return _single_quoted(name)


# Where a chart's key goes: inside the plot, in the corner its data leave
# free, on a background of its own so that it reads over the grid and any
# line it covers ("below": under the x axis, for the bar charts; "above":
# between the title and the plot, clear of the x axis' label; "outside":
# right of the plot, for a key too tall for a corner).
KEY_PLACES = ("top left", "top right", "bottom left", "bottom right",
              "below", "above", "outside")
KEY_SETTINGS = {"below": "set key below center horizontal",
                "above": "set key above center horizontal",
                "outside": "set key outside right top vertical box"}


def common_settings(title, xlabel, ylabel, key="top right"):
    if key not in KEY_PLACES:
        raise ValueError(f"key place {key!r}")
    place = KEY_SETTINGS.get(key, f"set key inside {key} opaque box width 1")
    return "\n".join([
        f"set title {gp_string(title)}",
        f"set xlabel {gp_string(xlabel)}",
        f"set ylabel {gp_string(ylabel)}",
        "set grid",
        place,
        "set datafile separator tab"]) + "\n"


# The plot area in pixels of a default chart (CHART_SIZE less the labels
# and tics around it), and what a key's line takes in it: its height, a
# character's width (sans 10: 7 px measured on pngcairo's images, taken
# a little wide) and the sample line beside the text with its spacing.
PLOT_AREA = (880.0, 500.0)
KEY_LINE_PX, KEY_CHAR_PX, KEY_SAMPLE_PX = 15.5, 7.5, 80.0
# Points put on each segment between two data points, so that a line
# crossing a corner counts there too.
SEGMENT_SAMPLES = 8


def key_size(titles, area=PLOT_AREA):
    """The share of the plot's width and height a key of these entries
    takes inside it (area: the plot's in pixels)."""
    width = min(0.6, (KEY_SAMPLE_PX + KEY_CHAR_PX * max(
        (len(t) for t in titles), default=0)) / area[0])
    height = min(0.9, (KEY_LINE_PX * len(titles) + 10.0) / area[1])
    return width, height


def key_corner(series, log_x, log_y, titles, x_range=None, y_range=None,
               area=PLOT_AREA):
    """Where a line chart's key covers no data: the corner ("top right",
    "top left", "bottom right", "bottom left", in that order of
    preference) whose key-sized box no line of series ([[(x, y), ...],
    one list per line]) crosses, else "below" (under the plot).  titles:
    the key's entries (their number and length size the box); x_range,
    y_range: the axes' ranges as the chart sets them (data units), else
    the data's with a margin; area: the plot's in pixels."""
    def scale(value, log):
        if value is None or not math.isfinite(value) or (log and value <= 0):
            return None
        return math.log10(value) if log else value
    lines = []
    for points in series:
        line = [(scale(x, log_x), scale(y, log_y)) for x, y in points]
        lines.append([(u, v) for u, v in line if u is not None and v is not None])
    coords = [p for line in lines for p in line]
    if not coords:
        return "top right"
    us, vs = [u for u, _ in coords], [v for _, v in coords]
    u0, u1 = min(us), max(us)
    v0, v1 = min(vs), max(vs)
    # the axes reach a little beyond the data (log_axis: x1.4 each way)
    du = (u1 - u0) * 0.08 or 1.0
    dv = (v1 - v0) * 0.08 or 1.0
    u0, u1, v0, v1 = u0 - du, u1 + du, v0 - dv, v1 + dv
    if x_range:
        u0, u1 = (scale(v, log_x) for v in x_range)
    if y_range:
        v0, v1 = (scale(v, log_y) for v in y_range)
    width, height = key_size(titles, area)
    samples = []
    for line in lines:
        samples += line
        for (a, b), (c, d) in zip(line, line[1:]):
            samples += [(a + (c - a) * k / SEGMENT_SAMPLES,
                         b + (d - b) * k / SEGMENT_SAMPLES)
                        for k in range(1, SEGMENT_SAMPLES)]
    fractions = [((u - u0) / (u1 - u0), (v - v0) / (v1 - v0))
                 for u, v in samples]
    boxes = {"top right": (1 - width, 1, 1 - height, 1),
             "top left": (0, width, 1 - height, 1),
             "bottom right": (1 - width, 1, 0, height),
             "bottom left": (0, width, 0, height)}
    for corner, (x0, x1, y0, y1) in boxes.items():
        if not any(x0 <= x <= x1 and y0 <= y <= y1 for x, y in fractions):
            return corner
    return "below"


# Line styles that stay apart in monochrome: a dash type and a point type
# per series, besides the colour.
DASH_TYPES = 5
POINT_TYPES = (7, 5, 9, 11, 13, 4, 6, 8)
# Each filled point type's hollow twin (a disturbed point: drawn, not
# judged).
HOLLOW_POINT_TYPES = {7: 6, 5: 4, 9: 8, 11: 10, 13: 12}
# A colour per series, none twice in a chart: gnuplot's own eight first
# (the charts keep their look), four more, then hues a golden angle
# apart, alternately darker; grey is none of them (it marks what was not
# judged).
SERIES_COLOURS = ("#9400d3", "#009e73", "#56b4e9", "#e69f00", "#f0e442",
                  "#0072b2", "#e51e10", "#000000", "#a0522d", "#ff1493",
                  "#808000", "#00ced1")
NOT_JUDGED_COLOUR = "#a0a0a0"
GOLDEN_ANGLE = 0.38196601125    # of a turn: 1 - 1/phi


def series_colour(index):
    """The index-th series' colour, as '#rrggbb': SERIES_COLOURS, then
    hues a golden angle apart, alternately darker (no two alike among
    the first 600)."""
    if index < len(SERIES_COLOURS):
        return SERIES_COLOURS[index]
    k = index - len(SERIES_COLOURS)
    red, green, blue = colorsys.hsv_to_rgb(k * GOLDEN_ANGLE % 1.0, 0.8,
                                           0.85 if k % 2 else 0.6)
    return "#%02x%02x%02x" % (round(red * 255), round(green * 255),
                              round(blue * 255))


def series_style(index, style=""):
    """Colour, dash type (lines) and point type (points) of the index-th
    series drawn with style."""
    words = style.split()
    points = any("points" in w for w in words)
    lines = not points or "linespoints" in words
    parts = [f"lc rgb '{series_colour(index)}'"]
    if lines:
        parts.append(f"dt {index % DASH_TYPES + 1}")
    if points and "pt" not in words:
        parts.append(f"pt {POINT_TYPES[index % len(POINT_TYPES)]}")
    return " ".join(parts)


def plot_lines(series, style):
    """plot clause for [(datafile, using, title)], each series in its own
    colour, dash type and point type."""
    return "plot " + ", \\\n     ".join(
        f"{gp_datafile(path)} using {using} {style} {series_style(i, style)} "
        f"title {gp_string(title)}"
        for i, (path, using, title) in enumerate(series)) + "\n"


def fmt_latency_us(value_us):
    """A latency tick label: 500 ns, 20 µs, 1.5 ms, 2 s."""
    for scale, unit in ((1e6, "s"), (1e3, "ms"), (1.0, "µs")):
        if value_us >= scale:
            return f"{value_us / scale:g} {unit}"
    return f"{value_us * 1000:g} ns"


def log_steps(low, high):
    """Values at 1-2-5 steps covering low..high (decades only when the
    range spans more than four decades)."""
    low, high = max(low, 1e-12), max(high, low * 1.0001, 1e-12)
    first, last = math.floor(math.log10(low)), math.ceil(math.log10(high))
    steps = (1,) if last - first > 4 else (1, 2, 5)
    values = [m * 10.0 ** e for e in range(first, last + 1) for m in steps]
    inside = [v for v in values if low / 1.0001 <= v <= high * 1.0001]
    return inside if len(inside) >= 2 else values


def latency_tics(axis, low_us, high_us):
    """'set Xtics (...)' for a log latency axis whose data are in µs,
    labelled in ns/µs/ms/s."""
    return log_axis(axis, low_us, high_us, fmt_latency_us)


# A log axis reaches this factor beyond its data each way.
LOG_AXIS_MARGIN = 1.4


def log_axis(axis, low, high, label):
    """A log axis over low..high (with a margin) and its ticks at 1-2-5
    steps, labelled by label(value)."""
    return (f"set {axis}range [{low / LOG_AXIS_MARGIN:.6g}:"
            f"{high * LOG_AXIS_MARGIN:.6g}]\n"
            f"set {axis}tics (" + ", ".join(
                f"{gp_format(label(v))} {v:.6g}"
                for v in log_steps(low, high)) + ")\n")


def size_tics(axis, sizes_kib):
    """'set Xtics (...)' at the block sizes run, labelled 4 KiB, 1 MiB,
    and a range that shows them all."""
    def label(kib):
        return f"{kib / 1024:g} MiB" if kib >= 1024 else f"{kib:g} KiB"
    sizes = sorted(set(sizes_kib))
    # a margin, so that the outermost sizes' ticks are inside the axis
    return (f"set {axis}range [{sizes[0] / 1.15:.6g}:{sizes[-1] * 1.15:.6g}]\n"
            f"set {axis}tics (" + ", ".join(
                f"{gp_format(label(k))} {k:.6g}" for k in sizes) + ")\n")


def terminal(fmt, size=None):
    width, height = size or CHART_SIZE
    if fmt == "png":
        return (f"set terminal pngcairo noenhanced size {width},{height} "
                "font 'sans,10'")
    return f"set terminal svg noenhanced size {width},{height} dynamic " \
           "font 'sans,10'"


def check_outputs(charts, outdir, force):
    """Refuse (without force) images that would replace files of outdir
    (an OutputDir; a symlink counts, dangling or not)."""
    existing = [c.filename for c in charts
                if outdir.lstat(c.filename) is not None]
    if existing and not force:
        raise InputError(outdir.name(existing[0]), None,
                         f"would overwrite {len(existing)} existing file(s) "
                         f"({', '.join(existing)})",
                         "remove them, pick another --outdir or pass --force")


def gnuplot_script(charts, fmt):
    """One script for all charts, each drawn into an image of the work
    directory (chart-N.FMT, named by its place in charts); returns the
    script and those names."""
    parts, images = [], []
    for index, chart in enumerate(charts):
        image = f"chart-{index}.{fmt}"
        images.append(image)
        parts += ["reset", terminal(fmt, chart.size),
                  f"set output {gp_datafile(image)}",
                  chart.commands, "unset output", ""]
    return "\n".join(parts), images


def run_gnuplot(gnuplot, workdir, script_name):
    """gnuplot on the script, in the work directory; GnuplotError (exit 4)
    when it fails, with the last lines it said."""
    try:
        proc = subprocess.run([gnuplot, script_name], cwd=workdir,
                              stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=120)
    except FileNotFoundError:
        raise not_found(gnuplot)
    except subprocess.TimeoutExpired:
        raise GnuplotError("gnuplot did not finish within 120 s",
                           EXIT_GNUPLOT_FAILED)
    if proc.returncode != 0:
        said = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise GnuplotError(f"gnuplot failed (status {proc.returncode}): "
                           + " | ".join(said[-6:])
                           + "; rerun with --keep-temp to inspect "
                           + script_name, EXIT_GNUPLOT_FAILED)


# How each format's file ends when gnuplot finished writing it: a PNG
# with its IEND chunk (its type and CRC), an SVG with its closing tag.
IMAGE_ENDS = {"png": (b"IEND\xaeB`\x82",), "svg": (b"</svg>",)}


def check_image(path, fmt):
    """GnuplotError (exit 4) unless path is a whole image: gnuplot exits
    0 when the disk under it fills, leaving an empty or cut-short file."""
    try:
        with open(path, "rb") as image:
            size = os.fstat(image.fileno()).st_size
            image.seek(max(0, size - 64))
            tail = image.read().rstrip()
    except FileNotFoundError:
        size, tail = None, b""
    if size is None or size == 0 or not tail.endswith(IMAGE_ENDS[fmt]):
        what = ("wrote no" if size is None else
                "wrote an empty" if size == 0 else "wrote a cut-short")
        raise GnuplotError(f"gnuplot {what} image {os.path.basename(path)} "
                           f"in {os.path.dirname(path)} (a full disk?); "
                           "nothing was put in the output directory",
                           EXIT_GNUPLOT_FAILED)


def stage(image, outdir, name):
    """A copy of the work directory's image in outdir (an OutputDir),
    written by its descriptor as every output is (outdir.py: unnamed, or
    under a temporary name of its own, mode 0666 less the umask, as
    gnuplot would make it), whole and synced, not yet named; OutputError
    (exit 1) when it cannot be (a full disk: nothing is left)."""
    try:
        with open(image, "rb") as src:
            return outdir.stage(src, 0o666, name)
    except OSError as err:
        raise cannot_write(outdir.name(name), err)


def cannot_write(final, err):
    return OutputError(final, f"cannot write: {err.strerror or err}",
                       "check the free space and permissions of --outdir; "
                       "no image was put there")


def commit(staged, name, force):
    """Give the finished image its name in its directory.  Without force,
    never replace a file that appeared since check_outputs() looked:
    linkat() fails when the name exists, where a rename would replace it
    (a filesystem without hard links gets an O_EXCL copy, which refuses
    an existing name too); with force the name is replaced, never
    written through."""
    final = staged.dir.name(name)
    try:
        if force:
            staged.replace(name)
        else:
            staged.link(name)
    except FileExistsError:
        raise appeared(final)
    except OSError as err:
        raise cannot_write(final, err)


def appeared(final):
    return InputError(final, None, "appeared while the charts were drawn; "
                      "left as it is", "remove it, pick another --outdir or "
                      "pass --force")


SCRIPT_NAME = "diskio-plot.gp"


def render(charts, fmt, outdir, workdir, force=False):
    """Draw charts into outdir (an OutputDir) as fmt images (gnuplot
    script, data and images in workdir); returns the images' paths.
    Every image is checked whole and copied into outdir, by its
    descriptor, before the first is given its name."""
    gnuplot = os.environ.get("GNUPLOT", "gnuplot")
    found = shutil.which(gnuplot)
    if found is None:
        raise not_found(gnuplot)
    # gnuplot runs in the work directory: a relative GNUPLOT is made whole
    gnuplot = os.path.abspath(found) if os.sep in found else found
    script, images = gnuplot_script(charts, fmt)
    with open(os.path.join(workdir, SCRIPT_NAME), "w",
              encoding="utf-8") as out:
        out.write(script)
    run_gnuplot(gnuplot, workdir, SCRIPT_NAME)
    for image in images:
        check_image(os.path.join(workdir, image), fmt)
    staged = []
    try:
        for image, chart in zip(images, charts):
            staged.append(stage(os.path.join(workdir, image), outdir,
                                chart.filename))
        for done, chart in zip(staged, charts):
            commit(done, chart.filename, force)
    finally:
        for done in staged:
            done.close()
    return [outdir.name(chart.filename) for chart in charts]
