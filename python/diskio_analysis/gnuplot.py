# SPDX-License-Identifier: MIT
"""gnuplot for diskio-plot: quoting, the settings and plot clauses every
chart shares, and one script for all charts, run once; each image is
written under a temporary name and renamed into place only when gnuplot
succeeded."""

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


def plot_lines(series, style):
    """plot clause for [(datafile, using, title)]."""
    return "plot " + ", \\\n     ".join(
        f"{gp_string(path)} using {using} {style} title {gp_string(title)}"
        for path, using, title in series) + "\n"


def terminal(fmt):
    width, height = CHART_SIZE
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
        parts += ["reset", terminal(fmt), f"set output {gp_string(temp)}",
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
