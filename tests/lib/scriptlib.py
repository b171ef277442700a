"""Shared helpers for the script tests (not a test itself)."""

import atexit
import importlib
import os
import selectors
import signal
import subprocess
import sys
import tempfile
import time
import traceback

HERE = os.path.dirname(os.path.abspath(__file__))
TOP_SRCDIR = os.environ.get("top_srcdir") or os.path.dirname(
    os.path.dirname(HERE))
# The commands are generated into the build tree (scripts/*.in + make).
TOP_BUILDDIR = os.environ.get("top_builddir") or TOP_SRCDIR
FIXTURES = os.path.join(TOP_SRCDIR, "tests", "scripts", "fixtures")
CORRELATE = os.path.join(TOP_BUILDDIR, "scripts", "diskio-correlate")
PLOT = os.path.join(TOP_BUILDDIR, "scripts", "diskio-plot")
EXIT_SKIP = 77

_failures = []


def run(script, *args, env=None):
    """Run a script with this Python; returns (status, stdout, stderr) as
    text.  An analysis command (scripts/diskio-NAME) runs in a child
    forked from this process (run_forked): a process of its own, without
    an interpreter's start and the imports each time."""
    if os.path.basename(script).startswith("diskio-"):
        status, out, err = run_forked(script, *args, env=env, timeout=60)
        return status, out.decode(), err.decode()
    proc = subprocess.run([sys.executable, script, *args], capture_output=True,
                          text=True, timeout=60,
                          env=None if env is None else {**os.environ, **env})
    return proc.returncode, proc.stdout, proc.stderr


def command_main(script):
    """The main() of the analysis command whose script is script
    (scripts/diskio-NAME runs diskio_analysis.NAME.command's)."""
    name = os.path.basename(script)
    if not name.startswith("diskio-"):
        raise ValueError(f"{script} is not an analysis command's script")
    module = f"diskio_analysis.{name[len('diskio-'):]}.command"
    return importlib.import_module(module).main


def _forked_command(script, main, args, cwd, env, fds):
    """In the child: the command as its script runs it, then _exit."""
    status = 1
    try:
        devnull = os.open(os.devnull, os.O_RDONLY)
        for fd, target in ((devnull, 0), (fds[0], 1), (fds[1], 2)):
            os.dup2(fd, target)
        for fd in (devnull, *fds):
            if fd > 2:
                os.close(fd)
        if cwd is not None:
            os.chdir(cwd)
        os.environ.update(env or {})
        tempfile.tempdir = None         # found again from TMPDIR
        sys.argv = [script, *args]
        # sys.exit(main()): None is 0
        status = main(list(args)) or 0
    except SystemExit as err:
        status = err.code if isinstance(err.code, int) else 1
    except BaseException:           # as the interpreter: a traceback, 1
        traceback.print_exc()
        status = 1
    try:
        atexit._run_exitfuncs()         # what the interpreter's exit runs
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:           # as the interpreter: 120
        status = 120
    os._exit(status & 0xff)


def run_forked(script, *args, cwd=None, env=None, timeout=600):
    """The analysis command script run on args, as run() runs it, but in a
    child forked from this process, where its modules are imported once
    for every run: a process of its own (its working directory cwd, this
    environment with env's variables added, stdin /dev/null, stdout and
    stderr pipes), whose status is what the script's sys.exit(main())
    makes of main's return, only without an interpreter's start and the
    imports (0.1 s or more a run).  Returns (status, stdout, stderr), the
    outputs as bytes; status is -N when signal N ended the child, None
    after timeout seconds (the child killed)."""
    main = command_main(script)
    sys.stdout.flush()
    sys.stderr.flush()
    out_r, out_w = os.pipe()
    err_r, err_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        _forked_command(script, main, args, cwd, env, (out_w, err_w, out_r, err_r))
    os.close(out_w)
    os.close(err_w)
    data = {out_r: [], err_r: []}
    deadline = time.monotonic() + timeout
    with selectors.DefaultSelector() as sel:
        for fd in data:
            sel.register(fd, selectors.EVENT_READ)
        while sel.get_map() and time.monotonic() < deadline:
            for key, _ in sel.select(max(0.0, deadline - time.monotonic())):
                chunk = os.read(key.fd, 65536)
                if chunk:
                    data[key.fd].append(chunk)
                else:
                    sel.unregister(key.fd)
        timed_out = bool(sel.get_map())
    if timed_out:
        os.kill(pid, signal.SIGKILL)
    os.close(out_r)
    os.close(err_r)
    _, wait_status = os.waitpid(pid, 0)
    status = None if timed_out else os.waitstatus_to_exitcode(wait_status)
    return status, b"".join(data[out_r]), b"".join(data[err_r])


def check(condition, what, detail=""):
    print(("ok   " if condition else "FAIL ") + what)
    if not condition:
        if detail:
            print("     " + str(detail).replace("\n", "\n     "))
        _failures.append(what)


def close(actual, expected, rel=1e-9):
    return actual is not None and abs(actual - expected) <= rel * max(
        1.0, abs(expected))


def finish():
    if _failures:
        print(f"{len(_failures)} check(s) failed")
        sys.exit(1)
    print("all checks passed")
    sys.exit(0)
