# SPDX-License-Identifier: MIT
"""diskio-fleet: the same diskio command on many hosts through pdsh,
clush or ssh; each host's result into LAB/HOST/result.json, a line per
host saying what failed, then diskio-compare over the lab.  See
diskio-fleet(1)."""

import os
import shlex

from ..cli import new_parser, report, run_command, write_stdout
from ..compare.analysis import DEFAULT_METRICS, compare
from ..compare.render import RENDERERS
from ..errors import ToolError, UsageError
from ..fleet import collect, hostlist, transport
from ..noise import DEFAULT_MIN_CHANGE
from ..outputs import (OutputError, open_output_dir, open_output_subdir,
                       write_output_in)
from ..plainnumber import plain_number
from ..result import result_from_text
from ..textsafe import shown

PROG = "diskio-fleet"
EXIT_SOME_FAILED = 1
EXIT_LAB = 3
EXIT_INTERNAL = 4
OWN_OPTIONS = ("-o", "--output")


def split_argv(argv):
    """(the fleet's own arguments, diskio's): diskio's follow the first
    '--'."""
    if "--" in argv:
        at = argv.index("--")
        return argv[:at], argv[at + 1:]
    return argv, []


def has_option(args, short, long):
    """Whether diskio's args give the option (-l X, -lX, --label X,
    --label=X), before a '--' of their own."""
    for arg in args:
        if arg == "--":
            break
        if arg == short or arg == long or arg.startswith(long + "=") or \
                (arg.startswith(short) and not arg.startswith("--")):
            return True
    return False


def host_args(diskio_args, host):
    """diskio's args for one host: labelled with the host's name unless
    the user gave a label."""
    if has_option(diskio_args, "-l", "--label"):
        return list(diskio_args)
    return ["--label", host, *diskio_args]


def positive_int(text):
    value = plain_number(text, integer=True) or 0
    if value < 1:
        raise UsageError(f"--fanout '{text}': want a whole number >= 1")
    return value


def seconds(text):
    value = plain_number(text) or 0
    if not 0 < value < float("inf"):
        raise UsageError(f"--timeout '{text}': want seconds > 0")
    return value


def parse_args(argv):
    own, diskio_args = split_argv(argv)
    parser = new_parser(
        PROG,
        "Run the same diskio command on many hosts through pdsh, clush or "
        "ssh, collect each host's result into LAB/HOST/result.json and "
        "compare them.",
        "Usage: diskio-fleet -w HOSTS --lab DIR [OPTIONS] -- [DISKIO "
        "ARGS...]. Exit status: 0 every host ok, 1 a host failed or was "
        "unreachable (the others are collected), 2 usage error, 3 the lab "
        "cannot be written, 4 internal error. See diskio-fleet(1).")
    add_host_options(parser)
    add_transport_options(parser)
    add_run_options(parser)
    args = parser.parse_args(own)
    check_diskio_args(diskio_args)
    args.diskio_args = diskio_args
    args.pgphases_args = pgphases_args(args.pgphases)
    if args.ssh_config and not os.path.isfile(args.ssh_config):
        raise UsageError(f"-F {args.ssh_config}: no such file; give an "
                         "ssh_config file")
    args.host_list = hostlist.select(args.hosts, args.exclude)
    if args.baseline and args.baseline not in args.host_list:
        raise UsageError(f"--baseline {args.baseline}: not one of the "
                         "hosts")
    return args


def add_host_options(parser):
    """The hosts, and the lab their results go to."""
    parser.add_argument("-w", dest="hosts", action="append", metavar="HOSTS",
                        required=True,
                        help="hosts in pdsh's syntax: db1,db2, db[1-4], "
                             "db[01-10], r[1-2]n[1-3], ^FILE (repeatable)")
    parser.add_argument("-x", dest="exclude", action="append", default=[],
                        metavar="HOSTS", help="hosts to leave out (same "
                        "syntax, repeatable)")
    parser.add_argument("--lab", required=True, metavar="DIR",
                        help="where each host's result goes: "
                             "DIR/HOST/result.json (created)")


def add_transport_options(parser):
    """How the hosts are reached: the engine, ssh's settings, how many
    at once and for how long."""
    parser.add_argument("--transport", choices=transport.TRANSPORTS,
                        default="auto",
                        help="engine: pdsh, clush or ssh; auto takes the "
                             "first of them installed (default: auto)")
    parser.add_argument("-F", dest="ssh_config", metavar="FILE",
                        help="ssh_config file for every connection "
                             "(ssh -F)")
    parser.add_argument("--ssh-option", action="append", default=[],
                        metavar="OPT", help="an ssh -o option, e.g. "
                        "Port=2222 (repeatable)")
    parser.add_argument("--fanout", type=positive_int, default=16,
                        metavar="N", help="hosts run at once (default 16)")
    parser.add_argument("--timeout", type=seconds, default=3600,
                        metavar="SEC", help="a host that has not finished "
                        "after SEC seconds is given up (default 3600)")


def add_run_options(parser):
    """What runs on each host, and what is done with the results."""
    parser.add_argument("--diskio", default="diskio", metavar="PATH",
                        help="diskio's path on the hosts (default: diskio "
                             "on their PATH)")
    parser.add_argument("--pgphases", metavar="ARGS",
                        help="after diskio, run diskio-pgphases ARGS on "
                             "each host (one string, split as the shell "
                             "does; --output is chosen by diskio-fleet) and "
                             "bring its files into LAB/HOST")
    parser.add_argument("--diskio-pgphases", default="diskio-pgphases",
                        metavar="PATH", help="diskio-pgphases' path on the "
                        "hosts (default: on their PATH)")
    parser.add_argument("--baseline", metavar="HOST",
                        help="host the comparison is against (default: "
                             "the first host collected)")
    parser.add_argument("--force", action="store_true",
                        help="replace results already in the lab")


def check_diskio_args(diskio_args):
    """Refuse a diskio argument that chooses where the result goes
    (UsageError): diskio-fleet chooses it."""
    for arg in diskio_args:
        if arg == "--":
            break
        if arg in OWN_OPTIONS or arg.startswith("--output=") or \
                (arg.startswith("-o") and not arg.startswith("--")):
            raise UsageError(f"diskio argument {arg}: diskio-fleet chooses "
                             "where each host writes its result; leave "
                             "--output out (results go to --lab)")


def pgphases_args(pgphases):
    """--pgphases ARGS split as the shell does (None without it);
    UsageError for a string that does not split, is empty or chooses
    the output."""
    if pgphases is None:
        return None
    try:
        split = shlex.split(pgphases)
    except ValueError as err:
        raise UsageError(f"--pgphases '{pgphases}': {err}")
    if not split or any(a in OWN_OPTIONS or a.startswith("--output=")
                        for a in split):
        raise UsageError(f"--pgphases '{pgphases}': give "
                         "diskio-pgphases' DIRECTORY and options, "
                         "without --output (diskio-fleet chooses it)")
    return split


def prepare_lab(lab, hosts, force):
    """The lab directory, created and held open (an OutputDir: every file
    goes in by its descriptor); refused before anything runs when it is
    reached through a link another user could have planted, or when a
    host's result is already there (without --force)."""
    lab_dir = open_output_dir(lab, "--lab", EXIT_LAB)
    try:
        for host in hosts:
            host_dir = open_output_subdir(lab_dir, host, "--lab", EXIT_LAB,
                                          create=False)
            if host_dir is None:
                continue
            with host_dir:
                for name in collect.OWN_NAMES:
                    if host_dir.lstat(name) is not None and not force:
                        raise OutputError(host_dir.name(name), "exists",
                                          "choose another --lab or pass "
                                          "--force to replace it", EXIT_LAB)
    except BaseException:
        lab_dir.close()
        raise
    return lab_dir


def run_hosts(args, engine):
    """{host: HostOutput} of every host, through the engine."""
    common = dict(config=args.ssh_config, options=args.ssh_option,
                  fanout=args.fanout, timeout=args.timeout)
    pgphases = None if args.pgphases_args is None else \
        [args.diskio_pgphases, *args.pgphases_args]
    if engine == "ssh":
        commands = {h: transport.remote_command(
            args.diskio, host_args(args.diskio_args, h), pgphases)
            for h in args.host_list}
        return transport.run_ssh(args.host_list, commands, **common)
    # one command line for every host: the engine puts each host's name
    # where it says %h
    transport.check_engine_args([args.diskio, *args.diskio_args,
                                 *(args.ssh_option or []),
                                 args.ssh_config or "", *(pgphases or [])])
    command = transport.remote_command(
        args.diskio, host_args(args.diskio_args, transport.HOST_MARK),
        pgphases)
    return transport.run_engine(engine, args.host_list, command, **common)


def save_logs(host_dirs, outputs, force):
    """Each host's stderr (diskio's table and messages, ssh's) and what
    pdsh or clush said about its session into LAB/HOST/diskio.log
    (host_dirs: {host: OutputDir}), for the failure the summary names in
    one line."""
    for host, out in outputs.items():
        lines = out.stderr + out.engine
        if not lines:
            continue
        try:
            write_output_in(host_dirs[host], "diskio.log",
                            "\n".join(lines) + "\n", option="--lab",
                            force=force)
        except OutputError as err:
            report(PROG, f"{host}: {err}")


def comparison(outcomes, baseline):
    """diskio-compare's text over the collected results, or a line saying
    why there is none."""
    collected = [o for o in outcomes if o.path and o.state == collect.OK]
    if len(collected) < 2:
        return (f"no comparison: {len(collected)} host result collected, "
                "diskio-compare needs two\n")
    if baseline and baseline not in [o.host for o in collected]:
        return f"no comparison: baseline {baseline} gave no result\n"
    # from the text that was written, never read back through the lab
    results = [result_from_text(o.path, o.result_text) for o in collected]
    base_label = None
    if baseline:
        base_label = results[[o.host for o in collected].index(baseline)] \
            .label or baseline
    return RENDERERS["text"](compare(results, DEFAULT_METRICS, base_label,
                                     DEFAULT_MIN_CHANGE))


def collect_all(lab, args, outputs):
    """Each host's outcome, its files saved in its directory of lab (an
    OutputDir), and its log."""
    outcomes, host_dirs = [], {}
    pgphases = args.pgphases_args is not None
    try:
        for host in args.host_list:
            host_dirs[host] = open_output_subdir(lab, host, "--lab", EXIT_LAB)
            outcome = collect.judge(outputs[host], pgphases=pgphases)
            outcomes.append(collect.save(host_dirs[host], outcome,
                                         args.force))
        save_logs(host_dirs, outputs, args.force)
    finally:
        for host_dir in host_dirs.values():
            host_dir.close()
    return outcomes


def run(argv):
    args = parse_args(argv)
    engine = transport.choose(args.transport)
    with prepare_lab(args.lab, args.host_list, args.force) as lab:
        report(PROG, f"running diskio on {len(args.host_list)} host(s) "
                     f"through {engine}")
        outputs = run_hosts(args, engine)
        outcomes = collect_all(lab, args, outputs)
    text = "per host:\n" + collect.summary(outcomes)
    try:
        text += "\n" + comparison(outcomes, args.baseline)
    except ToolError as err:
        # e.g. one --label given for every host: one environment; the
        # results are in the lab all the same, the status is the hosts'
        text += f"\nno comparison: {shown(str(err))}\n"
    write_stdout(text)
    status = collect.exit_status(outcomes)
    if status:
        raise ToolError("not every host gave its result (see above and "
                        f"{args.lab}/HOST/diskio.log)", status)


def main(argv=None):
    return run_command(PROG, run, argv, internal_status=EXIT_INTERNAL)
