# SPDX-License-Identifier: MIT
"""Description: the benchmark harness reads callgrind's counts of diskio_hist_record.

the benchmark harness reads diskio_hist_record's inclusive
instructions, calls and callees from callgrind's output (with its name
compression), and lists the call/jump targets in its disassembly."""

import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "bench"))

from peers.record import FORBIDDEN, jump_targets, parse_callgrind  # noqa: E402

# valgrind 3.19 callgrind output, trimmed: a name is given once with its
# number, "(682) diskio_hist_record", and later by the number alone.
CALLGRIND = """\
# callgrind format
version: 1
positions: line
events: Ir
summary: 603075

fl=(172) /tmp/src/histogram.h
fn=(682) diskio_hist_record
57 1000
+2 1000
-2 3000
fi=(163) /tmp/src/histogram.c
+13 992
fe=(172)
-12 8
cob=(3)
cfi=(164)
cfn=(644) malloc
calls=2 3516
* 40

fl=(1) /tmp/bench/record-cost.c
fn=(10) main
39 2
cfn=(682)
calls=1000 57
0 20012
+1 5
"""


class CallgrindTest(unittest.TestCase):
    def test_inclusive_is_self_plus_callees_and_calls_come_from_callers(self):
        incl, calls, callees, self_ir = parse_callgrind(CALLGRIND.splitlines(True),
                                                        "diskio_hist_record")
        self.assertEqual(self_ir, 1000 + 1000 + 3000 + 992 + 8)
        self.assertEqual(incl, self_ir + 40)
        self.assertEqual(calls, 1000)
        self.assertEqual(callees, ["malloc"])

    def test_cost_lines_after_a_call_belong_to_the_callee_only(self):
        # main's own "+1 5" after the call is not diskio_hist_record's
        incl, _, _, self_ir = parse_callgrind(CALLGRIND.splitlines(True), "main")
        self.assertEqual((self_ir, incl), (2 + 5, 2 + 5 + 20012))

    def test_ir_column_follows_the_positions_and_events_lines(self):
        text = CALLGRIND.replace("positions: line", "positions: instr line").replace(
            "events: Ir", "events: Dr Ir").replace("57 1000", "0x10 57 7 1000")
        _, _, _, self_ir = parse_callgrind(text.splitlines(True), "diskio_hist_record")
        self.assertEqual(self_ir, 1000)  # only the one line with both columns

    def test_function_never_called_has_no_calls(self):
        self.assertEqual(parse_callgrind(CALLGRIND.splitlines(True), "free")[1], 0)


OBJDUMP = """\
/usr/lib/libdiskio.so.0.1.0:     file format elf64-x86-64

Disassembly of section .text:

0000000000002a40 <diskio_hist_record>:
    2a40:	test   %rsi,%rsi
    2a43:	je     2a70 <diskio_hist_record+0x30>
    2a50:	add    %rax,(%rdi,%rdx,8)
    2a60:	jmp    2b00 <hist_overflow>
    2a68:	call   1030 <malloc@plt>
    2a6f:	ret
"""


class DisassemblyTest(unittest.TestCase):
    def test_targets_leave_out_jumps_inside_the_function(self):
        self.assertEqual(jump_targets(OBJDUMP), ["hist_overflow", "malloc@plt"])

    def test_forbidden_names(self):
        self.assertEqual([c for c in jump_targets(OBJDUMP) if FORBIDDEN.search(c)],
                         ["malloc@plt"])
        self.assertIsNone(FORBIDDEN.search("hist_overflow"))


if __name__ == "__main__":
    unittest.main()
