# SPDX-License-Identifier: MIT
"""The remote command and the engines that run it.

Every host runs one POSIX sh script (remote_script): diskio writes its
result into a directory made by mktemp on the host, its table goes to
stderr, then the script prints a BEGIN line, the result file and a STATUS
line with diskio's exit status on stdout, and removes the file and its
directory on every way out.  So one session per host brings the result
back, whatever the engine, and a session that ends without a STATUS line
never reached diskio (unreachable host, timeout).

Every argument given for diskio is quoted with shlex.quote, and the
script itself again as the one argument of sh -c: the remote login shell
sees one quoted word and no argument can run a command of its own.

Engines: ssh (one ssh per host, in parallel up to the fan-out), pdsh -R
exec and clush -R exec, which run "ssh ... %h COMMAND" for every host with
their own fan-out and timeout, and prefix each output line with "HOST: ";
split_prefixed() gives each host its lines back."""

import re
import shlex
import shutil
import subprocess
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

from ..errors import UsageError

BEGIN = "diskio-fleet-begin"
STATUS = "diskio-fleet-status:"
PG_BEGIN = "diskio-fleet-pgphases-begin"
PG_STATUS = "diskio-fleet-pgphases-status:"
TRANSPORTS = ("auto", "pdsh", "clush", "ssh")
# the status of the script when the remote side cannot make its temporary
# directory (before diskio ran)
EXIT_NO_TEMP = 125


@dataclass
class HostOutput:
    """What one host's session gave back: its stdout and stderr lines (the
    host's own: diskio's, ssh's), the session's exit status (None when the
    engine does not say, or the session was killed at the timeout) and
    what pdsh or clush said about the session apart from its own lines
    ("ssh exited with exit code 3")."""
    host: str
    stdout: list = field(default_factory=list)
    stderr: list = field(default_factory=list)
    exit_status: int | None = None
    timed_out: bool = False
    # the session sent more than MAX_SESSION_BYTES and was cut off
    too_large: bool = False
    engine: list = field(default_factory=list)


# What one session may send back: a result (at most 256 MiB, as any input
# file) and diskio-pgphases' files in base64.  A host that sends more is
# cut off and failed, before it can exhaust this machine's memory.
MAX_SESSION_BYTES = 768 << 20


class TooLarge(Exception):
    """A session's output went past its limit: what came until then."""

    def __init__(self, cmd, stdout, stderr):
        super().__init__(cmd)
        self.stdout, self.stderr = stdout, stderr


def run_bounded(cmd, *, stdin=None, capture_output=True, timeout=None,
                limit=MAX_SESSION_BYTES):
    """subprocess.run(cmd, capture_output=True) with stdout and stderr
    each kept to limit bytes: past it the process is killed, what is
    still written is read and dropped (so that nothing that holds the
    pipes blocks) and TooLarge raised; TimeoutExpired past timeout, as
    subprocess.run raises it.  (The command stays in this process's
    group: Ctrl-C reaches it as it reaches diskio-fleet.)"""
    proc = subprocess.Popen(cmd, stdin=stdin, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    kept = {proc.stdout: bytearray(), proc.stderr: bytearray()}
    over = threading.Event()

    def drain(pipe):
        buf = kept[pipe]
        while True:
            chunk = pipe.read1(1 << 16)
            if not chunk:
                return
            if over.is_set():
                continue
            if len(buf) + len(chunk) > limit:
                over.set()
                proc.kill()
                continue
            buf += chunk

    readers = [threading.Thread(target=drain, args=(pipe,), daemon=True)
               for pipe in kept]
    for reader in readers:
        reader.start()
    try:
        status = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()
        for reader in readers:
            reader.join()
        raise subprocess.TimeoutExpired(cmd, timeout, bytes(kept[proc.stdout]),
                                        bytes(kept[proc.stderr]))
    finally:
        if proc.poll() is None:     # interrupted: no session left behind
            proc.kill()
            proc.wait()
    for reader in readers:
        reader.join()
    proc.stdout.close()
    proc.stderr.close()
    if over.is_set():
        raise TooLarge(cmd, bytes(kept[proc.stdout]), bytes(kept[proc.stderr]))
    return subprocess.CompletedProcess(cmd, status, bytes(kept[proc.stdout]),
                                       bytes(kept[proc.stderr]))


def too_large_line():
    return (f"the session sent more than {MAX_SESSION_BYTES >> 20} MiB; "
            "cut off")


def remote_script(diskio, args, pgphases=None):
    """The sh script one host runs (see the module's docstring).
    pgphases: [PATH, ARGS...] of a diskio-pgphases to run after diskio,
    its output directory sent back as a base64 tar between PG_BEGIN and
    PG_STATUS."""
    words = " ".join(shlex.quote(a) for a in [diskio, *args])
    script = (
        'd=$(mktemp -d "${TMPDIR:-/tmp}/diskio-fleet.XXXXXX") && '
        f'[ -n "$d" ] && [ -d "$d" ] || exit {EXIT_NO_TEMP}\n'
        'clean() { rm -f "$d/result.json"; rm -rf "$d/pgphases"; '
        'rmdir "$d"; }\n'
        "trap clean EXIT\n"
        "trap 'exit 129' HUP\ntrap 'exit 130' INT\ntrap 'exit 143' TERM\n"
        f'{words} --output "$d/result.json" >&2\n'
        "s=$?\n"
        f"echo {BEGIN}\n"
        'cat "$d/result.json" 2>/dev/null\n'
        "echo\n"
        f'echo "{STATUS} $s"\n')
    if pgphases:
        pg_words = " ".join(shlex.quote(a) for a in pgphases)
        script += (
            f'{pg_words} --output "$d/pgphases" >&2\n'
            "p=$?\n"
            f"echo {PG_BEGIN}\n"
            'if [ -d "$d/pgphases" ]; then (cd "$d/pgphases" && tar cf - .) '
            "| base64; fi\n"
            f'echo "{PG_STATUS} $p"\n'
            '[ "$s" -ne 0 ] || s=$p\n')
    return script + "exit $s\n"


def remote_command(diskio, args, pgphases=None):
    """The one word the remote login shell runs: sh -c 'SCRIPT'."""
    return "sh -c " + shlex.quote(remote_script(diskio, args, pgphases))


def ssh_options(config=None, options=(), timeout=None):
    """The ssh options every engine passes: -F, BatchMode (never a
    password prompt), a connect timeout, then the user's -o options."""
    opts = []
    if config:
        opts += ["-F", config]
    opts += ["-o", "BatchMode=yes"]
    if timeout:
        opts += ["-o", f"ConnectTimeout={max(1, min(int(timeout), 60))}"]
    for opt in options:
        opts += ["-o", opt]
    return opts


def ssh_command(host, command, config=None, options=(), timeout=None):
    """ssh's command line for one host (stdin from /dev/null: -n)."""
    return ["ssh", "-n", *ssh_options(config, options, timeout), "--",
            host, command]


# pdsh's exec module and clush's exec worker put each host's name where
# the command line says %h: so one command line gives every host its own
# label, and ssh gets its options as separate arguments.
HOST_MARK = "%h"


def engine_ssh_command(command, config=None, options=(), timeout=None):
    """The per-host command pdsh -R exec and clush -R exec run locally:
    ssh to %h with the remote command."""
    return ["ssh", "-n", *ssh_options(config, options, timeout), "--",
            HOST_MARK, command]


def pdsh_command(hosts, command, fanout, timeout, config=None, options=()):
    return ["pdsh", "-R", "exec", "-f", str(fanout),
            *(["-u", str(int(timeout))] if timeout else []),
            "-w", ",".join(hosts),
            *engine_ssh_command(command, config, options, timeout)]


def clush_command(hosts, command, fanout, timeout, config=None,
                  options=()):
    """clush's exec worker joins its command words and gives them to a
    local shell: they go as one word, each of them quoted for that
    shell (%h survives shlex.quote)."""
    words = engine_ssh_command(command, config, options, timeout)
    return ["clush", "-R", "exec", "--nostdin", "-f", str(fanout),
            *(["-u", str(int(timeout))] if timeout else []),
            "-w", ",".join(hosts), "--",
            " ".join(shlex.quote(w) for w in words)]


def check_engine_args(words):
    """pdsh and clush replace every %h, %u, %n of the command line: a
    diskio argument or ssh option with a '%' of its own cannot pass
    through them unchanged."""
    for word in words:
        if "%" in word:
            raise UsageError(f"argument '{word}' contains '%', which pdsh "
                             "and clush replace (%h is the host): use "
                             "--transport ssh for it")


def choose(transport, which=shutil.which):
    """The engine to use: the one asked for (UsageError when it is not
    installed), or for auto the first of pdsh, clush, ssh installed."""
    if transport != "auto":
        if not which(transport):
            raise UsageError(f"--transport {transport}: {transport} is not "
                             "installed (not found on PATH); install it or "
                             "choose another --transport")
        return transport
    for name in ("pdsh", "clush", "ssh"):
        if which(name):
            return name
    raise UsageError("none of pdsh, clush or ssh is installed; install "
                     "openssh-client (and pdsh or clustershell for large "
                     "fleets)")


def split_prefixed(lines, hosts, outputs, extra=None):
    """Give each host its lines of a pdsh/clush stream ("HOST: text").
    The longest matching host name wins (db1 and db10); a line of no host
    goes to extra (the engine's own messages) when given."""
    by_length = sorted(hosts, key=len, reverse=True)
    for line in lines:
        for host in by_length:
            if line.startswith(host + ": ") or line == host + ":":
                outputs[host].append(line[len(host) + 2:])
                break
        else:
            if extra is not None:
                extra.append(line)


def engine_messages(lines, hosts, engine):
    """pdsh's and clush's own lines about a host ("pdsh@me: db2: ssh
    exited with exit code 255", "clush: db2: exited with exit code 3"):
    {host: [message, ...]}."""
    found = {}
    by_length = sorted(hosts, key=len, reverse=True)
    for line in lines:
        head, sep, rest = line.partition(": ")
        if not sep or not (head == engine or head.startswith(engine + "@")):
            continue
        for host in by_length:
            if rest.startswith(host + ": "):
                found.setdefault(host, []).append(rest[len(host) + 2:])
                break
    return found


def _decode(data):
    return data.decode("utf-8", "surrogateescape").splitlines()


def run_ssh(hosts, commands, *, config=None, options=(), fanout=16,
            timeout=None, runner=run_bounded):
    """One ssh per host running commands[host], at most fanout at once,
    each killed after timeout seconds; {host: HostOutput}."""
    def one(host):
        out = HostOutput(host)
        try:
            proc = runner(ssh_command(host, commands[host], config, options,
                                      timeout),
                          stdin=subprocess.DEVNULL, capture_output=True,
                          timeout=timeout)
        except subprocess.TimeoutExpired as err:
            out.timed_out = True
            out.stdout = _decode(err.stdout or b"")
            out.stderr = _decode(err.stderr or b"") + [
                f"no answer within --timeout {timeout:g} s"]
            return out
        except TooLarge as err:
            out.too_large = True
            out.stdout = _decode(err.stdout)
            out.stderr = _decode(err.stderr) + [too_large_line()]
            return out
        out.stdout, out.stderr = _decode(proc.stdout), _decode(proc.stderr)
        out.exit_status = proc.returncode
        return out

    with ThreadPoolExecutor(max_workers=max(1, min(fanout, len(hosts)))) \
            as pool:
        return dict(zip(hosts, pool.map(one, hosts)))


def run_engine(engine, hosts, command, *, config=None, options=(),
               fanout=16, timeout=None, runner=run_bounded):
    """pdsh or clush over every host in one process; {host: HostOutput}
    with each host's own lines, and the engine's messages about it apart
    (HostOutput.engine), so that a host's own last line is not hidden
    behind the engine's word on its exit status.  The whole run is bounded
    by one timeout per fan-out wave (the engine enforces the per-host
    one)."""
    build = pdsh_command if engine == "pdsh" else clush_command
    cmd = build(hosts, command, fanout, timeout, config, options)
    waves = -(-len(hosts) // max(1, fanout))
    limit = None if not timeout else timeout * waves + 30
    outputs = {h: HostOutput(h) for h in hosts}
    start = time.monotonic()
    too_large = False
    try:
        proc = runner(cmd, stdin=subprocess.DEVNULL, capture_output=True,
                      timeout=limit)
        stdout, stderr = proc.stdout, proc.stderr
    except subprocess.TimeoutExpired as err:
        stdout, stderr = err.stdout or b"", err.stderr or b""
        stderr += (f"{engine}: ran {time.monotonic() - start:.0f} s, "
                   "killed\n").encode()
    except TooLarge as err:
        # every host's session went through the one engine: each of
        # those that had not finished is failed
        stdout, stderr, too_large = err.stdout, err.stderr, True
    out_lines = {h: [] for h in hosts}
    err_lines = {h: [] for h in hosts}
    split_prefixed(_decode(stdout), hosts, out_lines)
    engine_lines = []
    split_prefixed(_decode(stderr), hosts, err_lines, engine_lines)
    messages = engine_messages(engine_lines, hosts, engine)
    for host in hosts:
        said = messages.get(host, [])
        outputs[host].stdout = out_lines[host]
        outputs[host].stderr = err_lines[host]
        outputs[host].engine = said
        outputs[host].exit_status = engine_exit_status(said)
        if any("timeout" in m or "timed out" in m for m in said):
            outputs[host].timed_out = True
        if too_large and not any(line.startswith(STATUS)
                                 for line in out_lines[host]):
            outputs[host].too_large = True
            outputs[host].stderr.append(too_large_line())
    return outputs


def engine_exit_status(messages):
    """The session's exit status from the engine's words about it ("ssh
    exited with exit code 255", "exited with exit code 3"): 0 when it
    says nothing, None when it says something else."""
    for message in messages:
        m = re.search(r"exited with exit code (\d+)", message)
        if m:
            return int(m.group(1))
    return None if messages else 0
