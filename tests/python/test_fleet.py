# SPDX-License-Identifier: MIT
"""Description: diskio-fleet expands host lists as pdsh does and quotes every remote argument.

diskio-fleet's pure parts: pdsh's host-list syntax
expanded as pdsh does (ranges, zero padding, several brackets, commas in
and out of brackets, ^FILE, -x) with a clear UsageError for bad syntax;
the command line each engine runs, every diskio argument quoted so that
a hostile one runs nothing (checked by running the script with sh); each
host's output judged ok / failed / unreachable; the result written whole
into LAB/HOST/result.json; the summary and the exit status."""

import os
import shlex
import subprocess
import tempfile
import unittest

from diskio_analysis.errors import UsageError
from diskio_analysis.fleet import command
from diskio_analysis.fleet import collect, hostlist, transport
from diskio_analysis.fleet.transport import BEGIN, STATUS, HostOutput
from diskio_analysis.outdir import OutputDir

RESULT = ('{"schema": "diskio-result", "schema_version": 2, "label": "db1", '
          '"runs": []}')


def save(lab, outcome, force=False):
    """collect.save() into LAB/HOST, as diskio-fleet calls it."""
    with OutputDir.open(os.path.join(lab, outcome.host), create=True) as d:
        return collect.save(d, outcome, force)


class HostList(unittest.TestCase):
    def test_range(self):
        self.assertEqual(hostlist.expand("db[1-4]"),
                         ["db1", "db2", "db3", "db4"])

    def test_zero_padding_of_the_lower_bound(self):
        self.assertEqual(hostlist.expand("db[01-03]"), ["db01", "db02", "db03"])
        self.assertEqual(hostlist.expand("db[08-10]"), ["db08", "db09", "db10"])

    def test_several_brackets_last_varies_fastest(self):
        self.assertEqual(hostlist.expand("r[1-2]n[1-2]"),
                         ["r1n1", "r1n2", "r2n1", "r2n2"])

    def test_commas_inside_and_outside_brackets(self):
        self.assertEqual(hostlist.expand("db[1,3,5-6],web1,x"),
                         ["db1", "db3", "db5", "db6", "web1", "x"])

    def test_duplicates_dropped_first_place_kept(self):
        self.assertEqual(hostlist.expand("b,a,b,db[1-2],db1"),
                         ["b", "a", "db1", "db2"])

    def test_host_file(self):
        with tempfile.NamedTemporaryFile("w", suffix=".hosts",
                                         delete=False) as f:
            f.write("# the databases\ndb[1-2]\n\nweb1  # front\n")
        try:
            self.assertEqual(hostlist.expand(f"^{f.name},z"),
                             ["db1", "db2", "web1", "z"])
        finally:
            os.unlink(f.name)

    def test_missing_host_file(self):
        with self.assertRaisesRegex(UsageError, r"\^/nonexistent/h: cannot "
                                                r"read it"):
            hostlist.expand("^/nonexistent/h")

    def test_exclude(self):
        self.assertEqual(hostlist.select(["db[1-4]"], ["db[2-3]"]),
                         ["db1", "db4"])
        with self.assertRaisesRegex(UsageError, "no host left"):
            hostlist.select(["db1"], ["db1"])

    def test_bad_syntax(self):
        for text, message in (("db[1-4", "without its ']'"),
                              ("db1-4]", "without its '\\['"),
                              ("db[a-b]", "not a list of numbers"),
                              ("db[4-1]", "goes down"),
                              ("db[[1-2]]", "inside brackets"),
                              ("db1,,db2", "empty name"),
                              ("", "empty"),
                              ("db[1-100000]", "more than"),
                              ("-oProxyCommand=x", "not a host name"),
                              ("a/b", "not a host name")):
            with self.subTest(text=text):
                with self.assertRaisesRegex(UsageError, message):
                    hostlist.expand(text)


def run_script(script, diskio):
    """script run by sh with diskio standing for the remote diskio."""
    return subprocess.run(["sh", "-c", script], capture_output=True,
                          text=True, timeout=30)


class Commands(unittest.TestCase):
    def test_ssh_command_line(self):
        self.assertEqual(
            transport.ssh_command("db1", "CMD", "cfg", ["Port=2"], 30),
            ["ssh", "-n", "-F", "cfg", "-o", "BatchMode=yes", "-o",
             "ConnectTimeout=30", "-o", "Port=2", "--", "db1", "CMD"])

    def test_pdsh_command_line(self):
        self.assertEqual(
            transport.pdsh_command(["db1", "db2"], "CMD", 8, 60, "cfg"),
            ["pdsh", "-R", "exec", "-f", "8", "-u", "60", "-w", "db1,db2",
             "ssh", "-n", "-F", "cfg", "-o", "BatchMode=yes", "-o",
             "ConnectTimeout=60", "--", "%h", "CMD"])

    def test_clush_command_is_one_quoted_word(self):
        cmd = transport.clush_command(["db1"], "sh -c 'a b'", 4, None)
        self.assertEqual(cmd[:8], ["clush", "-R", "exec", "--nostdin",
                                   "-f", "4", "-w", "db1"])
        self.assertEqual(cmd[8], "--")
        self.assertEqual(shlex.split(cmd[9]),
                         ["ssh", "-n", "-o", "BatchMode=yes", "--", "%h",
                          "sh -c 'a b'"])

    def test_label_is_the_host_unless_given(self):
        self.assertEqual(command.host_args(["--count", "5"], "db1"),
                         ["--label", "db1", "--count", "5"])
        for given in (["-l", "x"], ["-lx"], ["--label", "x"], ["--label=x"]):
            self.assertEqual(command.host_args(given, "db1"), given)

    def test_output_refused(self):
        for args in (["-o", "x"], ["--output", "x"], ["--output=x"], ["-ox"]):
            with self.subTest(args=args):
                with self.assertRaisesRegex(UsageError, "leave --output out"):
                    command.parse_args(["-w", "db1", "--lab", "L", "--",
                                        *args])

    def test_percent_refused_for_the_engines(self):
        with self.assertRaisesRegex(UsageError, "contains '%'"):
            transport.check_engine_args(["--label", "50%"])

    def test_hostile_arguments_run_nothing(self):
        with tempfile.TemporaryDirectory() as tmp:
            fake = os.path.join(tmp, "diskio")
            with open(fake, "w") as f:
                # a diskio that records its arguments, one per line, and
                # writes a result where --output says
                f.write('#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; '
                        'done > "$ARGS_FILE"\nwhile [ $# -gt 1 ]; do '
                        '[ "$1" = --output ] && echo "{}" > "$2"; shift; '
                        'done\nexit 0\n')
            os.chmod(fake, 0o755)
            pwned = os.path.join(tmp, "pwned")
            hostile = [f"$(touch {pwned})", f"`touch {pwned}`",
                       f"x; touch {pwned}", "'", '"', "a b", "\n", "--x=$HOME"]
            args_file = os.path.join(tmp, "args")
            # the remote login shell runs the one word remote_command gives
            proc = subprocess.run(
                ["sh", "-c", transport.remote_command(fake, hostile)],
                capture_output=True, text=True, timeout=30,
                env={**os.environ, "ARGS_FILE": args_file, "TMPDIR": tmp})
            self.assertFalse(os.path.exists(pwned))
            with open(args_file) as f:
                got = f.read()
            self.assertEqual(got.split("\n")[:len(hostile) + 1][:3],
                             hostile[:3])
            self.assertIn("--x=$HOME\n--output\n", got)
            self.assertEqual(collect.parse_output(proc.stdout.splitlines()),
                             (0, "{}\n"))
            # the remote temporary directory is gone
            self.assertEqual(sorted(os.listdir(tmp)), ["args", "diskio"])

    def test_choose(self):
        self.assertEqual(transport.choose("auto", lambda n: n == "clush"),
                         "clush")
        self.assertEqual(transport.choose("auto", lambda n: n == "ssh"),
                         "ssh")
        with self.assertRaisesRegex(UsageError, "pdsh is not installed"):
            transport.choose("pdsh", lambda n: None)
        with self.assertRaisesRegex(UsageError, "none of pdsh"):
            transport.choose("auto", lambda n: None)

    def test_engine_output_split_per_host(self):
        outputs = {"db1": [], "db10": []}
        extra = []
        transport.split_prefixed(["db10: a", "db1: b", "db1:", "other"],
                                 ["db1", "db10"], outputs, extra)
        self.assertEqual(outputs, {"db1": ["b", ""], "db10": ["a"]})
        self.assertEqual(extra, ["other"])
        self.assertEqual(
            transport.engine_messages(
                ["pdsh@me: db2: ssh exited with exit code 255",
                 "clush: db1: exited with exit code 3"], ["db1", "db2"],
                "pdsh"),
            {"db2": ["ssh exited with exit code 255"]})


class FakeRun:
    """subprocess.run's stand-in: records the command, gives back what
    the engine would have printed, or times out."""

    def __init__(self, stdout=b"", stderr=b"", status=0, timeout=False):
        self.stdout, self.stderr, self.status = stdout, stderr, status
        self.timeout, self.calls = timeout, []

    def __call__(self, cmd, **kwargs):
        self.calls.append(cmd)
        if self.timeout:
            raise subprocess.TimeoutExpired(cmd, kwargs.get("timeout"),
                                            b"", b"")
        return subprocess.CompletedProcess(cmd, self.status, self.stdout,
                                           self.stderr)


class Engines(unittest.TestCase):
    def test_pdsh_output_split_and_judged_per_host(self):
        out = "\n".join([f"db1: {BEGIN}", f"db10: {BEGIN}", f"db1: {RESULT}",
                         f"db10: {RESULT}", "db1: ", f"db1: {STATUS} 0",
                         "db10: ", f"db10: {STATUS} 3"]).encode()
        err = ("db10: diskio: /srv: no room\n"
               "pdsh@me: db10: ssh exited with exit code 3\n"
               "db2: ssh: connect to host db2 port 22: Connection refused\n"
               "pdsh@me: db2: ssh exited with exit code 255\n").encode()
        fake = FakeRun(out, err, 1)
        outputs = transport.run_engine("pdsh", ["db1", "db10", "db2"], "CMD",
                                       fanout=4, timeout=60, runner=fake)
        self.assertEqual(fake.calls[0][:3], ["pdsh", "-R", "exec"])
        states = {h: collect.judge(o) for h, o in outputs.items()}
        self.assertEqual(states["db1"].state, "ok")
        self.assertEqual(states["db10"].state, "failed")
        self.assertEqual(states["db10"].diskio_status, 3)
        # the host's own line, not the engine's word on the exit status
        self.assertEqual(states["db10"].reason,
                         "diskio exit status 3: diskio: /srv: no room")
        self.assertEqual(outputs["db10"].engine,
                         ["ssh exited with exit code 3"])
        self.assertEqual(states["db2"].state, "unreachable")
        self.assertEqual(states["db2"].reason,
                         "ssh: connect to host db2 port 22: Connection refused")

    def test_clush_shows_the_hosts_own_message(self):
        out = "\n".join([f"db1: {BEGIN}", "db1: ", f"db1: {STATUS} 3"]).encode()
        err = ("db1: diskio: target: the directory does not exist; create "
               "it first.\n"
               "clush: db1: exited with exit code 3\n").encode()
        outputs = transport.run_engine("clush", ["db1"], "CMD", fanout=4,
                                       timeout=None, runner=FakeRun(out, err, 1))
        o = collect.judge(outputs["db1"])
        self.assertEqual((o.state, o.reason),
                         ("failed", "diskio exit status 3: diskio: target: the "
                          "directory does not exist; create it first."))

    def test_an_engine_timeout_is_told_by_the_engine(self):
        err = ("db1: some table line\n"
               "pdsh@me: db1: command timeout\n").encode()
        outputs = transport.run_engine("pdsh", ["db1"], "CMD", fanout=4,
                                       timeout=5, runner=FakeRun(b"", err, 1))
        outputs["db1"].timed_out = True
        o = collect.judge(outputs["db1"])
        self.assertEqual((o.state, o.reason), ("unreachable", "command timeout"))

    def test_clush_remote_failure_before_diskio_is_not_unreachable(self):
        err = b"clush: db1: exited with exit code 125\n"
        outputs = transport.run_engine("clush", ["db1"], "CMD", fanout=4,
                                       timeout=None, runner=FakeRun(b"", err, 1))
        o = collect.judge(outputs["db1"])
        self.assertEqual(o.state, "failed")
        self.assertIn("temporary directory", o.reason)

    def test_ssh_timeout_is_unreachable(self):
        outputs = transport.run_ssh(["db1", "db2"], {"db1": "A", "db2": "B"},
                                    fanout=2, timeout=5,
                                    runner=FakeRun(timeout=True))
        for host in ("db1", "db2"):
            o = collect.judge(outputs[host])
            self.assertEqual(o.state, "unreachable")
            self.assertEqual(o.reason, "no answer within --timeout 5 s")

    def test_ssh_runs_each_host_its_own_command(self):
        fake = FakeRun(f"{BEGIN}\n{RESULT}\n{STATUS} 0\n".encode())
        outputs = transport.run_ssh(["db1", "db2"], {"db1": "A", "db2": "B"},
                                    config="cfg", fanout=1, timeout=9,
                                    runner=fake)
        self.assertEqual(sorted(c[-2:] for c in fake.calls),
                         [["db1", "A"], ["db2", "B"]])
        self.assertEqual(collect.judge(outputs["db2"]).state, "ok")


def session(stdout, stderr=(), status=0, timed_out=False):
    out = HostOutput("db1", list(stdout), list(stderr), status)
    out.timed_out = timed_out
    return out


class Judge(unittest.TestCase):
    def test_ok(self):
        o = collect.judge(session([BEGIN, RESULT, "", f"{STATUS} 0"]))
        self.assertEqual((o.state, o.diskio_status), ("ok", 0))
        self.assertEqual(o.result_text, RESULT + "\n")

    def test_diskio_failure_names_status_and_last_line(self):
        o = collect.judge(session([BEGIN, "", f"{STATUS} 3"],
                                  ["diskio: /x: cannot create", ""], 3))
        self.assertEqual(o.state, "failed")
        self.assertEqual(o.reason,
                         "diskio exit status 3: diskio: /x: cannot create")

    def test_partial_result_kept(self):
        o = collect.judge(session([BEGIN, RESULT, f"{STATUS} 1"], ["x"], 1))
        self.assertEqual((o.state, o.result_text), ("failed", RESULT + "\n"))

    def test_unreachable(self):
        o = collect.judge(session([], ["ssh: connect to host 127.0.0.1 "
                                       "port 22203: Connection refused"],
                                  255))
        self.assertEqual(o.state, "unreachable")
        self.assertIn("Connection refused", o.reason)
        self.assertEqual(collect.judge(session([], [], None, True)).state,
                         "unreachable")

    def test_no_temporary_on_the_host(self):
        o = collect.judge(session([], ["mktemp: failed"], 125))
        self.assertEqual(o.state, "failed")
        self.assertIn("temporary directory", o.reason)

    def test_damaged_result(self):
        o = collect.judge(session([BEGIN, '{"trunc', f"{STATUS} 0"]))
        self.assertEqual(o.state, "failed")

    def test_a_reply_that_is_not_a_diskio_result_fails_the_host(self):
        """What a host sends back is read as any result file is: a JSON
        that is no result object, bytes that are not UTF-8, a nesting no
        result has, a result the schema refuses: the host failed, with
        the reason, never ok."""
        deep = "[" * 100000 + "]" * 100000
        for reply, why in (
                ("[1,2,3]", "a list, not a diskio result object"),
                ('"x"', "a string, not a diskio result object"),
                ('{"schema": "other"}', "an object, not a diskio result"),
                ('{"schema": "diskio-result", "label": "db1\udcff"}',
                 "not UTF-8 text"),
                (deep, "JSON nested too deeply"),
                ('{"schema": "diskio-result", "schema_version": 2}',
                 "runs: missing, expected a list"),
                ('{"schema": "diskio-result", "schema_version": 9, '
                 '"runs": []}', "unknown diskio result schema_version 9")):
            with self.subTest(reply=reply[:40]):
                o = collect.judge(session([BEGIN, reply, f"{STATUS} 0"]))
                self.assertEqual(o.state, "failed")
                self.assertIsNone(o.result_text)
                self.assertIn("the result came back damaged", o.reason)
                self.assertIn(why, o.reason)

    def test_a_status_line_takes_ascii_digits_only(self):
        for status in ("\uff10", "0_0", "-1", "256", ""):
            with self.subTest(status=status):
                o = collect.judge(session([BEGIN, RESULT,
                                           f"{STATUS} {status}"]))
                self.assertNotEqual(o.state, "ok")

    def test_a_session_that_sends_too_much_is_cut_off_and_failed(self):
        def too_much(cmd, **kwargs):
            raise transport.TooLarge(cmd, f"{BEGIN}\n{{".encode(), b"")
        outputs = transport.run_ssh(["db1"], {"db1": "A"}, fanout=1,
                                    timeout=9, runner=too_much)
        o = collect.judge(outputs["db1"])
        self.assertEqual(o.state, "failed")
        self.assertIn("cut off", o.reason)

    def test_run_bounded_kills_a_session_past_its_limit(self):
        with self.assertRaises(transport.TooLarge) as ctx:
            transport.run_bounded(["sh", "-c", "head -c 1000000 /dev/zero; "
                                   "echo late >&2"], limit=100000)
        self.assertLessEqual(len(ctx.exception.stdout), 100000)
        done = transport.run_bounded(["sh", "-c", "echo a; echo b >&2; "
                                      "exit 3"])
        self.assertEqual((done.returncode, done.stdout, done.stderr),
                         (3, b"a\n", b"b\n"))


def pg_archive(files):
    """The lines the remote script prints for a pgphases directory."""
    import base64
    import io
    import tarfile
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    text = base64.encodebytes(buf.getvalue()).decode()
    return text.splitlines()


class PgPhases(unittest.TestCase):
    def lines(self, files, status=0):
        return [BEGIN, RESULT, f"{STATUS} 0", transport.PG_BEGIN,
                *pg_archive(files), f"{transport.PG_STATUS} {status}"]

    def test_files_come_back_beside_the_result(self):
        files = {"./q_time.csv": b"task,s\n", "./wal.csv": b"w\n",
                 "./settings.json": b"{}\n", "./sub/x": b"no",
                 "../evil": b"no", "./result.json": b"no"}
        o = collect.judge(session(self.lines(files)), pgphases=True)
        self.assertEqual(o.state, "ok")
        with tempfile.TemporaryDirectory() as lab:
            save(lab, o)
            self.assertEqual(sorted(os.listdir(os.path.join(lab, "db1"))),
                             ["q_time.csv", "result.json", "settings.json",
                              "wal.csv"])
            with open(os.path.join(lab, "db1", "result.json")) as f:
                self.assertEqual(f.read(), RESULT + "\n")
            self.assertFalse(os.path.exists(os.path.join(lab, "evil")))

    def test_pgphases_failure_fails_the_host(self):
        o = collect.judge(session(self.lines({}, 3), ["pg: no server"]),
                          pgphases=True)
        self.assertEqual(o.state, "failed")
        self.assertEqual(o.reason,
                         "diskio-pgphases exit status 3: pg: no server")

    def test_remote_script_runs_pgphases_after_diskio(self):
        script = transport.remote_script("/bin/diskio", ["t"],
                                         ["/bin/pgp", "/srv x"])
        self.assertIn("""/bin/pgp '/srv x' --output "$d/pgphases" >&2""",
                      script)
        self.assertLess(script.index("/bin/diskio"), script.index("/bin/pgp"))

    def test_pgphases_output_refused(self):
        with self.assertRaisesRegex(UsageError, "without --output"):
            command.parse_args(["-w", "db1", "--lab", "L", "--pgphases",
                                "/srv -o x"])


class Lab(unittest.TestCase):
    def test_written_whole_never_over_an_existing_one(self):
        with tempfile.TemporaryDirectory() as lab:
            o = save(lab, collect.judge(
                session([BEGIN, RESULT, f"{STATUS} 0"])))
            path = os.path.join(lab, "db1", "result.json")
            self.assertEqual(o.path, path)
            with open(path) as f:
                self.assertEqual(f.read(), RESULT + "\n")
            self.assertEqual(os.listdir(os.path.join(lab, "db1")),
                             ["result.json"])
            again = save(lab, collect.judge(
                session([BEGIN, RESULT.replace("db1", "other"),
                         f"{STATUS} 0"])))
            self.assertEqual(again.state, "failed")
            self.assertIn("exists", again.reason)
            with open(path) as f:
                self.assertEqual(f.read(), RESULT + "\n")
            with self.assertRaisesRegex(Exception, "exists"):
                command.prepare_lab(lab, ["db1"], force=False)
            os.mkdir(os.path.join(lab, "db2"))
            with open(os.path.join(lab, "db2", "diskio.log"), "w") as f:
                f.write("the user's\n")
            with self.assertRaisesRegex(Exception, "db2/diskio.log: exists"):
                command.prepare_lab(lab, ["db2"], force=False)

    def test_summary_and_status(self):
        outcomes = [collect.Outcome("db1", "ok", 0, RESULT, "L/db1/result.json"),
                    collect.Outcome("db22", "failed", 3, reason="diskio exit "
                                    "status 3: no room"),
                    collect.Outcome("db3", "unreachable",
                                    reason="Connection refused")]
        text = collect.summary(outcomes)
        self.assertEqual(text.splitlines(), [
            "  db1   ok         L/db1/result.json",
            "  db22  failed     diskio exit status 3: no room",
            "  db3   unreachable Connection refused",
            "1 ok, 1 failed, 1 unreachable of 3 hosts"])
        self.assertEqual(collect.exit_status(outcomes), 1)
        self.assertEqual(collect.exit_status(outcomes[:1]), 0)

    def test_remote_text_is_shown_not_relayed_raw(self):
        """A host's last stderr line and its name reach the summary as
        shown(): no escape sequence, newline or bidi control of theirs
        acts on the terminal."""
        line = "diskio: \x1b]0;owned\x07\x1b[2J\u202edone\r\nx"
        o = collect.judge(session([BEGIN, "", f"{STATUS} 3"], [line], 3))
        text = collect.summary([o])
        self.assertIn("diskio: \\x1b]0;owned\\x07\\x1b[2J\\xe2\\x80\\xaedone"
                      "\\x0d\\x0ax", text)
        self.assertEqual([c for c in text if not c.isprintable()],
                         ["\n", "\n"])

    def test_pgphases_files_of_other_names_are_left_out(self):
        o = collect.judge(session([BEGIN, RESULT, f"{STATUS} 0",
                                   transport.PG_BEGIN,
                                   *pg_archive({"q_time.csv": b"x",
                                                "x`touch s`.csv": b"y",
                                                "<a": b"z"}),
                                   f"{transport.PG_STATUS} 0"]), True)
        with tempfile.TemporaryDirectory() as lab:
            save(lab, o)
            self.assertEqual(sorted(os.listdir(os.path.join(lab, "db1"))),
                             ["q_time.csv", "result.json"])
        self.assertEqual(sorted(o.left_out), ["<a", "x`touch s`.csv"])
        self.assertIn("2 diskio-pgphases file(s) left out",
                      collect.summary([o]))


class Usage(unittest.TestCase):
    def test_statuses(self):
        self.assertEqual(command.main(["--lab", "x", "--", "a"]), 2)
        self.assertEqual(command.main(["-w", "db[1-", "--lab", "x"]), 2)
        self.assertEqual(command.main(["-w", "db1", "--lab", "x",
                                       "--fanout", "0"]), 2)


if __name__ == "__main__":
    unittest.main()
