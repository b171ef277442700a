# SPDX-License-Identifier: MIT
"""gnuplot for diskio-plot: quoting, the settings and plot clauses every
chart shares, and one script for all charts, run once; each image is
written under a temporary name and renamed into place only when gnuplot
succeeded."""

import math
import os
import re
import shutil
import subprocess

from .errors import InputError, ToolError

EXIT_NO_GNUPLOT = 3
EXIT_GNUPLOT_FAILED = 4
CHART_SIZE = (1000, 600)


class GnuplotError(ToolError):
    """gnuplot missing (exit 3) or failed (exit 4)."""


def not_found(gnuplot):
    return GnuplotError(f"gnuplot not found ({gnuplot}); install it "
                        "(Debian: apt-get install gnuplot-nox) or set "
                        "GNUPLOT to its path", EXIT_NO_GNUPLOT)


def gp_string(text):
    """A gnuplot double-quoted string; control characters become octal
    escapes, so that a newline in a name cannot end the command."""
    escaped = str(text).replace("\\", "\\\\").replace('"', '\\"')
    return '"' + re.sub(r"[\x00-\x1f\x7f]",
                        lambda m: f"\\{ord(m.group()):03o}", escaped) + '"'


def common_settings(title, xlabel, ylabel):
    return "\n".join([
        f"set title {gp_string(title)}",
        f"set xlabel {gp_string(xlabel)}",
        f"set ylabel {gp_string(ylabel)}",
        "set grid",
        "set key outside right top",
        "set datafile separator '\\t'"]) + "\n"


# Line styles that stay apart in monochrome: a dash type and a point type
# per series, besides the colour.
DASH_TYPES = 5
POINT_TYPES = (7, 5, 9, 11, 13, 4, 6, 8)


def series_style(index, style=""):
    """Colour, dash type (lines) and point type (points) of the index-th
    series drawn with style."""
    words = style.split()
    points = any("points" in w for w in words)
    lines = not points or "linespoints" in words
    parts = [f"lc {index % 8 + 1}"]
    if lines:
        parts.append(f"dt {index % DASH_TYPES + 1}")
    if points and "pt" not in words:
        parts.append(f"pt {POINT_TYPES[index % len(POINT_TYPES)]}")
    return " ".join(parts)


def plot_lines(series, style):
    """plot clause for [(datafile, using, title)], each series in its own
    colour, dash type and point type."""
    return "plot " + ", \\\n     ".join(
        f"{gp_string(path)} using {using} {style} {series_style(i, style)} "
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


def log_axis(axis, low, high, label):
    """A log axis over low..high (with a margin) and its ticks at 1-2-5
    steps, labelled by label(value)."""
    return (f"set {axis}range [{low / 1.4:.6g}:{high * 1.4:.6g}]\n"
            f"set {axis}tics (" + ", ".join(
                f"{gp_string(label(v))} {v:.6g}"
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
                f"{gp_string(label(k))} {k:.6g}" for k in sizes) + ")\n")


def terminal(fmt, size=None):
    width, height = size or CHART_SIZE
    if fmt == "png":
        return (f"set terminal pngcairo noenhanced size {width},{height} "
                "font 'sans,10'")
    return f"set terminal svg noenhanced size {width},{height} dynamic " \
           "font 'sans,10'"


def check_outputs(charts, outdir, force):
    if not os.path.isdir(outdir):
        raise InputError(outdir, None, "output directory does not exist",
                         "create it or give another --outdir")
    existing = [c.filename for c in charts
                if os.path.exists(os.path.join(outdir, c.filename))]
    if existing and not force:
        raise InputError(os.path.join(outdir, existing[0]), None,
                         f"would overwrite {len(existing)} existing file(s) "
                         f"({', '.join(existing)})",
                         "remove them, pick another --outdir or pass --force")


def gnuplot_script(charts, fmt, outdir):
    """One script for all charts; each goes to a temporary name that is
    renamed into place only when gnuplot succeeded."""
    parts, temps = [], []
    for chart in charts:
        temp = os.path.join(outdir, f".{chart.filename}.tmp{os.getpid()}")
        temps.append((temp, os.path.join(outdir, chart.filename)))
        parts += ["reset", terminal(fmt, chart.size),
                  f"set output {gp_string(temp)}",
                  chart.commands, "unset output", ""]
    return "\n".join(parts), temps


def run_gnuplot(gnuplot, script_path):
    try:
        proc = subprocess.run([gnuplot, script_path], capture_output=True,
                              text=True, timeout=120)
    except FileNotFoundError:
        raise not_found(gnuplot)
    except subprocess.TimeoutExpired:
        raise GnuplotError("gnuplot did not finish within 120 s",
                           EXIT_GNUPLOT_FAILED)
    if proc.returncode != 0:
        detail = proc.stderr.strip().splitlines()[-6:]
        raise GnuplotError(f"gnuplot failed (status {proc.returncode}): "
                           + " | ".join(detail)
                           + "; rerun with --keep-temp to inspect "
                           + os.path.basename(script_path),
                           EXIT_GNUPLOT_FAILED)


def commit(temp, final, force):
    """Give the finished image its name.  Without force, never replace a
    file that appeared since check_outputs() looked: link() fails when the
    name exists, where a rename would replace it (a filesystem without hard
    links gets an O_EXCL copy, which refuses an existing name too)."""
    if force:
        os.replace(temp, final)
        return
    try:
        os.link(temp, final)
    except FileExistsError:
        raise appeared(final)
    except OSError:
        with open(temp, "rb") as src:
            try:
                with open(final, "xb") as dst:
                    shutil.copyfileobj(src, dst)
            except FileExistsError:
                raise appeared(final)
    os.unlink(temp)


def appeared(final):
    return InputError(final, None, "appeared while the charts were drawn; "
                      "left as it is", "remove it, pick another --outdir or "
                      "pass --force")


def render(charts, fmt, outdir, workdir, force=False):
    """Draw charts into outdir as fmt images (gnuplot script in workdir);
    returns the images' paths."""
    gnuplot = os.environ.get("GNUPLOT", "gnuplot")
    if shutil.which(gnuplot) is None:
        raise not_found(gnuplot)
    script, temps = gnuplot_script(charts, fmt, outdir)
    script_path = os.path.join(workdir, "diskio-plot.gp")
    with open(script_path, "w", encoding="utf-8") as out:
        out.write(script)
    try:
        run_gnuplot(gnuplot, script_path)
        for temp, final in temps:
            if not os.path.exists(temp):
                raise GnuplotError(f"gnuplot wrote no {final}",
                                   EXIT_GNUPLOT_FAILED)
        for temp, final in temps:
            commit(temp, final, force)
    finally:
        for temp, _ in temps:
            if os.path.exists(temp):
                os.unlink(temp)
    return [final for _, final in temps]
