#!/bin/sh
# SPDX-License-Identifier: MIT
# Description: --pattern wal writes PostgreSQL's WAL as it is written, as the per-op trace shows.
#
# --pattern wal writes PostgreSQL's WAL as it is written,
# read back from the per-op trace: each commit's record follows the last
# (8-byte aligned, a page header skipped where a page begins), its flush
# begins at the page holding the durable end (the page filling is written
# again) and makes everything queued durable; every segment's worth of
# WAL is one segment switch, timed in the switch part (created or
# recycled), and the counters in the result agree with the trace.  With
# --jobs 4 the committers share one WAL: flushes follow one another
# without gaps or overlaps, none runs while another does, fewer syncs
# than commits, and every commit returns only after a flush that ended
# before it returned covered its record.  With --rate the committers
# share one schedule, none starting a commit before it is due.  No
# segment file is left behind.
. "${top_srcdir:-.}/tests/lib/cli.sh"

command -v "${PYTHON3:-python3}" >/dev/null 2>&1 || { echo "SKIP: python3 not found"; exit 77; }
mkdir "$t_scratch/dir"

t_expect_status 0 "one committer, 1000-byte commits, 64 KiB segments" -- "$DISKIO" \
    --pattern wal --mode fdatasync --count 500 --warmup 0 --wal-bytes 1000 \
    --wal-segment-size 64k --trace "$t_scratch/one.csv" --output "$t_scratch/one.json" \
    "$t_scratch/dir"
t_expect_empty_dir "$t_scratch/dir" "after one committer"
t_expect_status 0 "the same with recycled segments" -- "$DISKIO" \
    --pattern wal --mode fdatasync --count 500 --warmup 0 --wal-bytes 1000 \
    --wal-segment-size 64k --wal-recycle --trace "$t_scratch/rec.csv" \
    --output "$t_scratch/rec.json" "$t_scratch/dir"
t_expect_empty_dir "$t_scratch/dir" "after recycling"
t_expect_status 0 "odsync: the write syncs" -- "$DISKIO" \
    --pattern wal --mode odsync --count 200 --warmup 0 --output "$t_scratch/od.json" \
    "$t_scratch/dir"
t_expect_status 0 "four committers sharing one WAL" -- "$DISKIO" \
    --pattern wal --mode fdatasync --jobs 4 --count 300 --warmup 5 --wal-bytes 300 \
    --wal-segment-size 128k --trace "$t_scratch/four.csv" --output "$t_scratch/four.json" \
    "$t_scratch/dir"
t_expect_empty_dir "$t_scratch/dir" "after four committers"
t_expect_status 0 "two committers pausing 0.3 ms between commits" -- "$DISKIO" \
    --pattern wal --mode fdatasync --jobs 2 --count 100 --warmup 0 --wal-gap 0.3ms \
    --trace "$t_scratch/gap.csv" --output "$t_scratch/gap.json" "$t_scratch/dir"
t_expect_status 0 "two committers sharing a fixed rate" -- "$DISKIO" \
    --pattern wal --mode fdatasync --jobs 2 --count 100 --warmup 0 --rate 400 \
    --trace "$t_scratch/paced.csv" --output "$t_scratch/paced.json" "$t_scratch/dir"

"${PYTHON3:-python3}" - "$t_scratch" <<'EOF' || t_fail "the WAL's shape (above)"
import csv, json, os, sys
scratch = sys.argv[1]
PAGE = 8192
failures = []
def check(cond, what):
    print(("ok: " if cond else "FAIL: ") + what)
    if not cond:
        failures.append(what)

def load(name):
    with open(os.path.join(scratch, name + ".csv"), newline="") as f:
        rows = list(csv.DictReader(f))
    run = json.load(open(os.path.join(scratch, name + ".json")))["runs"][0]
    return [{k: int(v) for k, v in r.items()} for r in rows], run

def header(lsn, seg):
    return 40 if lsn % seg == 0 else 24

def header_bytes(start, end, seg):
    """The page headers a record from start to end passes over."""
    return sum(header(page * PAGE, seg)
               for page in range(start // PAGE + 1, (end - 1) // PAGE + 1))

def one_committer(name, recycle):
    rows, run = load(name)
    seg = 65536
    wal = run["wal"]
    check(len(rows) == 500 == wal["commits"], f"{name}: 500 commits traced")
    check(rows[0]["record_lsn"] == seg + 40,
          f"{name}: the WAL begins after the first segment's long page header")
    prev = None
    rewrites = switches = pages = 0
    for r in rows:
        size = r["record_end_lsn"] - r["record_lsn"]
        if size != 1000 + header_bytes(r["record_lsn"], r["record_end_lsn"], seg):
            check(False, f"{name}: op {r['op']}: record of {size} bytes")
            return
        end = prev["record_end_lsn"] if prev else seg
        if r["record_lsn"] != end + (header(end, seg) if end % PAGE == 0 else 0):
            check(False, f"{name}: op {r['op']}: record does not follow the last")
            return
        # one committer: every commit flushes exactly its own record
        if (r["flush_from_lsn"], r["flush_to_lsn"]) != (end, r["record_end_lsn"]):
            check(False, f"{name}: op {r['op']}: flush {r['flush_from_lsn']}-"
                  f"{r['flush_to_lsn']} is not its record")
            return
        first = r["flush_from_lsn"] // PAGE
        last = (r["flush_to_lsn"] - 1) // PAGE
        pages += last - first + 1
        if prev is not None and first == (prev["flush_to_lsn"] - 1) // PAGE:
            rewrites += 1
        new_segment = prev is None or \
            (r["flush_to_lsn"] - 1) // seg != (prev["flush_to_lsn"] - 1) // seg
        if (r["switch_ns"] > 0) != (new_segment and prev is not None):
            check(False, f"{name}: op {r['op']}: switch_ns {r['switch_ns']} where a "
                  f"segment switch is {'' if new_segment else 'not '}due")
            return
        switches += r["switch_ns"] > 0
        prev = r
    check(True, f"{name}: records follow each other, page headers skipped")
    # offsets: a flush writes from the page holding the last durable
    # byte, at that page's offset in its segment
    # (8 records of 1000 bytes fit after the 40-byte header; the 9th
    # crosses into the second page, written from the first)
    offsets = [(r["flush_from_lsn"] - r["flush_from_lsn"] % PAGE) % seg for r in rows]
    check(offsets[:10] == [0] * 9 + [PAGE],
          f"{name}: the first page is written 9 times, then the next ({offsets[:10]})")
    check(rewrites == wal["page_rewrites"] and rewrites >= 400,
          f"{name}: page rewrites: {rewrites} in the trace, {wal['page_rewrites']} counted")
    check(pages == wal["pages"], f"{name}: {pages} pages written, {wal['pages']} counted")
    expect = (rows[-1]["record_end_lsn"] - 1) // seg - (rows[0]["record_lsn"]) // seg
    check(switches == wal["segment_switches"] == expect == run["latency"]["switch"]["count"],
          f"{name}: {switches} segment switches traced, {wal['segment_switches']} counted, "
          f"{expect} due, {run['latency']['switch']['count']} timed")
    check(wal["recycle"] is recycle, f"{name}: recycle {recycle}")
    check(wal["syncs"] == wal["writes"] == 500 + switches and
          run["latency"]["sync"]["count"] == wal["syncs"],
          f"{name}: one sync per commit and one per finished segment ({wal['syncs']})")
    check(wal["syncs_per_commit"] > 1.0 and wal["flushes_per_commit"] == 1.0,
          f"{name}: {wal['syncs_per_commit']:.3f} syncs per commit")
    return run

one = one_committer("one", False)
rec = one_committer("rec", True)

od = json.load(open(os.path.join(scratch, "od.json")))["runs"][0]
check(od["wal"]["syncs"] == 0 and od["latency"]["sync"]["count"] == 0 and
      od["wal"]["writes"] == 200 and od["wal"]["syncs_per_commit"] == 1.0,
      "odsync: no sync calls, one synced write per commit")
check(od["parameters"]["open_flags"] == "O_WRONLY|O_DSYNC", "odsync: opened O_DSYNC")

rows, run = load("four")
wal = run["wal"]
check(len(rows) == 1200 == wal["commits"] == run["ops"], "four: 4 x 300 commits traced")
check(sorted({r["job"] for r in rows}) == [0, 1, 2, 3], "four: every committer traced")
flushes = sorted((r for r in rows if r["flush_to_lsn"]), key=lambda r: r["flush_from_lsn"])
check(len(flushes) == wal["flushes"] <= wal["commits"],
      f"four: {len(flushes)} flushes traced, {wal['flushes']} counted, for "
      f"{wal['commits']} commits")
check(wal["syncs_per_commit"] <= 1.0, f"four: {wal['syncs_per_commit']:.3f} syncs per commit")
gaps = [(a, b) for a, b in zip(flushes, flushes[1:])
        if b["flush_from_lsn"] != a["flush_to_lsn"]]
check(not gaps, f"four: each flush begins where the last ended ({len(gaps)} do not)")
# a flush runs from its committer's write to its sync; the next one
# starts after it ended (one flusher at a time, in WAL order)
check(all(r["flush_to_lsn"] >= r["record_end_lsn"] for r in flushes),
      "four: a flush covers its own committer's record")
uncovered = []
for r in rows:
    cover = next((f for f in flushes if f["flush_to_lsn"] >= r["record_end_lsn"]), None)
    if cover is None or cover["start_ns"] > r["start_ns"] + r["latency_ns"]:
        uncovered.append(r)
check(not uncovered, f"four: every commit covered by a flush begun before it returned "
      f"({len(uncovered)} not)")
check(run["per_job"] and all(j["ops"] == 300 for j in run["per_job"]),
      "four: each committer made its 300 commits")

# --wal-gap: a committer's next commit starts no sooner than the pause
# after its last one ended (the pause is never cut short by a wake-up,
# and it is not inside any latency)
rows, run = load("gap")
check(run["wal"]["gap_ns"] == 300000, "gap: the pause is in the result")
short = []
for job in (0, 1):
    mine = [r for r in rows if r["job"] == job]
    short += [b for a, b in zip(mine, mine[1:])
              if b["start_ns"] < a["start_ns"] + a["latency_ns"] + 300000]
check(len(rows) == 200 and not short,
      f"gap: every commit starts 0.3 ms or more after its committer's last ended "
      f"({len(short)} sooner)")

# --rate with committers: they take the commits due in turn (committer j
# the j-th, j+2-th, ... of a schedule of 2.5 ms), none starts before it
# is due, and each is timed from when it was due (the service times
# beside)
rows, run = load("paced")
early = []
for job in (0, 1):
    mine = sorted((r for r in rows if r["job"] == job), key=lambda r: r["op"])
    early += [r for k, r in enumerate(mine) if r["start_ns"] < (job + 2 * k) * 2500000]
check(len(rows) == 200 and not early,
      f"paced: every commit starts at or after its due time ({len(early)} sooner)")
check(run["rate"]["requested_ops_per_s"] == 400 and
      run["latency"]["service"]["count"] == run["ops"] == 200,
      "paced: the rate and the service times are the run's")
sys.exit(1 if failures else 0)
EOF

t_expect_status 2 "--pattern wal refuses mode direct" -- "$DISKIO" --pattern wal --mode direct \
    "$t_scratch/dir"
grep -q "wal_sync_method" "$t_scratch/stderr" && t_ok "the message names wal_sync_method" ||
    t_fail "message: $(cat "$t_scratch/stderr")"
t_expect_status 2 "--wal-bytes without --pattern wal" -- "$DISKIO" --wal-bytes 200 \
    "$t_scratch/dir"
t_expect_status 2 "a segment of less than two pages" -- "$DISKIO" --pattern wal --mode fsync \
    --wal-segment-size 8k "$t_scratch/dir"
touch "$t_scratch/user-file"
t_expect_status 2 "--pattern wal beside a user's file" -- "$DISKIO" --pattern wal --mode fsync \
    --force "$t_scratch/user-file"
t_done
