# SPDX-License-Identifier: MIT
"""Output: the number formats, the tables (rounds, medians, peak RSS,
targets) as text for the terminal and as Markdown, and the run's JSON and
Markdown files."""

import json

from .common import log


def fmt_ns(ns):
    if ns is None:
        return "—"
    if ns < 1000:
        return "%.0f ns" % ns
    if ns < 1e6:
        return "%.3g us" % (ns / 1e3) if ns < 1e5 else "%.0f us" % (ns / 1e3)
    return "%.3g ms" % (ns / 1e6)


def fmt_us(ns):
    return "—" if ns is None else "%.2f" % (ns / 1e3)


def fmt_rate(x):
    if x is None:
        return "—"
    if x >= 1e5:
        return "%.0f" % x
    return "%.1f" % x


def fmt_pct(x):
    return "—" if x is None else "%.1f%%" % (x * 100)


def fmt_target_value(tg):
    v = tg["value"]
    if v is None:
        return "—"
    if tg["unit"] == "ratio":
        return "%.3f" % v
    if tg["unit"] == "Ir":
        return "%.1f" % v
    if isinstance(v, (int, float)):
        return "%d" % v
    return str(v)


TOOL_LABEL = {
    "diskio": "diskio", "bare": "bare loop (timed)",
    "bare+pool": "bare loop (timed), diskio's data", "bare-untimed": "bare loop (untimed)",
    "bare@0": "bare loop, block 0 only",
    "fio": "fio", "sysbench": "sysbench fileio", "ioping": "ioping",
    "pg_test_fsync": "pg_test_fsync",
}


def peer_label(group, case, tool):
    if tool == "fio":
        if group == "qd":
            return "fio " + ("io_uring" if case.startswith("uring") else "libaio")
        if group == "read":
            return "fio psync " + ("direct=1" if case.startswith("direct") else
                                   "buffered, invalidate=1")
        if group == "crystal":
            return "fio libaio direct=1"
        return "fio psync"
    if tool == "pg_test_fsync":
        return "pg_test_fsync " + {"fsync": "fsync", "fdatasync": "fdatasync",
                                   "direct-dsync": "open_datasync",
                                   "osync+direct": "open_sync"}.get(case, case)
    return TOOL_LABEL.get(tool, tool)


HEAD = ["group", "case", "tool", "ops/s", "mean µs", "p50 µs", "spread", "rounds",
        "device I/O per op"]


def fmt_dev(r):
    """Device write requests and merges per op (qd rows), device reads per
    op and KiB per read (read rows), "" elsewhere."""
    if r.get("group") == "read" or (r.get("group") == "crystal" and
                                    r.get("case", "").endswith(" read")):
        reads, kib = r.get("dev_reads_per_op"), r.get("dev_kib_per_read")
        if reads is None:
            return ""
        return "%.3f reads (%s KiB each), %s MB/s" % (
            reads, "—" if kib is None else "%.0f" % kib,
            "—" if r.get("mb_per_s") is None else "%.1f" % r["mb_per_s"])
    w, m = r.get("dev_writes_per_op"), r.get("dev_merges_per_op")
    if w is None:
        return ""
    return "%.3f (%.3f merged)" % (w, m or 0.0)


def table_rows(summary):
    rows = []
    for r in summary:
        spr = (r["spread_ops"] if r["group"] in ("overhead", "qd", "read", "crystal") or
               r["case"].startswith("bare async") else r["spread_mean"])
        failed = " (%d failed)" % r["failed"] if r["failed"] else ""
        rows.append([r["group"], r["case"], peer_label(r["group"], r["case"], r["tool"]),
                     fmt_rate(r["ops_per_s"]), fmt_us(r["mean_ns"]), fmt_us(r["p50_ns"]),
                     fmt_pct(spr), "%d%s" % (r["n"], failed),
                     fmt_dev(r)])
    return rows


ROUND_HEAD = ["round", "started (UTC)", "s", "loadavg", "other busy", "steal", "used"]


def round_rows(rounds, used):
    return [[r["index"], r["started"], "%.0f" % r["wall_s"], "%.2f" % r["loadavg1"],
             fmt_pct(r["other_busy"]), fmt_pct(r["steal"]),
             "yes" if r["index"] in used else
             ("no (busy, abandoned)" if r.get("aborted") else "no (busy)")] for r in rounds]


TARGET_HEAD = ["target", "measured", "needed", "per round", "result"]


def target_rows(tgts, judged=True):
    return [[t["what"], fmt_target_value(t), t["need"],
             " ".join("%.3f" % x for x in t.get("per_round", [])) or "—",
             t["result"] if judged else "(smoke)"] for t in tgts]


MEMORY_HEAD = ["run", "peak RSS KiB"]


def memory_rows(mem):
    rows = []
    if not mem:
        return rows
    for k, v in mem.get("diskio", {}).items():
        label = {"version_only": "diskio --version", "1": "diskio --count 1"}.get(
            k, "diskio --count %s" % k)
        rows.append([label, v])
    for k, v in mem.get("fio", {}).items():
        n, _, lat = k.partition("+")
        rows.append(["fio psync %s ops%s" % (n, " + write_lat_log" if lat else ""), v])
    return rows


def text_table(head, rows):
    w = ([max(len(str(x)) for x in col) for col in zip(head, *rows)] if rows
         else [len(h) for h in head])
    out = ["  ".join(str(h).ljust(w[i]) for i, h in enumerate(head))]
    out.append("  ".join("-" * x for x in w))
    for r in rows:
        out.append("  ".join(str(c).ljust(w[i]) for i, c in enumerate(r)))
    return "\n".join(out)


def md_table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for r in rows:
        out.append("| " + " | ".join(str(c).replace("|", "\\|") for c in r) + " |")
    return "\n".join(out)


def record_sentence(r):
    return ("callgrind: %d calls of diskio_hist_record, %d instructions inclusive "
            "(%.5f per call on average; %.2f per further call, from a second run "
            "with twice the calls); functions it called: %s; call/jump targets in its "
            "machine code: %s." % (r["calls"], r["inclusive_ir"],
                                   r.get("ir_per_call_average", r["ir_per_call"]),
                                   r["ir_per_call"],
                                   ", ".join(c for c in r["callees"] if c) or "none",
                                   ", ".join(r["static_targets"] or []) or "none"))


def markdown(doc):
    m = doc["machine"]
    lines = [
        "## compare-peers result",
        "",
        "- date: %s" % doc["date"],
        "- machine: %s, %s, %d CPUs, %.1f GiB RAM, Linux %s" % (
            m["hostname"], m["cpu_model"], m["cpus"], m["memory_bytes"] / (1 << 30), m["kernel"]),
        "- --dir file system: %s on %s (%s)" % (doc["dir"]["fstype"], doc["dir"]["source"],
                                                doc["dir"]["options"]),
        "- tmpfs: %s" % ("private tmpfs, size=512m" if doc["tmpfs"] else "not used (not root)"),
        "- command: `%s`" % doc["command"],
        "- tools: " + "; ".join("%s %s" % (k, v["version"]) for k, v in doc["tools"].items()
                                if isinstance(v, dict) and v.get("available")),
        "- rounds used: %d of %d%s" % (len(doc["used_rounds"]), len(doc["rounds"]),
                                       " — NOISY: fewer than 2 quiet rounds, all rounds used"
                                       if doc["noisy"] else ""),
        "",
        "### Targets",
        "",
        md_table(TARGET_HEAD, target_rows(doc["targets"], not doc["options"]["smoke"])),
        "",
        "### Medians over the used rounds",
        "",
        "Spread: (max − min) ÷ median across rounds, of ops/s (overhead, qd) or of "
        "the mean (accuracy).",
        "",
        md_table(HEAD, table_rows(doc["summary"])),
        "",
    ]
    if doc.get("memory"):
        lines += ["### Peak RSS (KiB, wait4 ru_maxrss)", "",
                  md_table(MEMORY_HEAD, memory_rows(doc["memory"])), ""]
    if (doc.get("record") or {}).get("available"):
        lines += ["### Record path", "", record_sentence(doc["record"]), ""]
    lines += ["### Rounds", "",
              md_table(ROUND_HEAD, round_rows(doc["rounds"], doc["used_rounds"])), ""]
    if doc["notes"]:
        lines += ["### Notes", ""] + ["- " + n for n in doc["notes"]] + [""]
    return "\n".join(lines)


def print_tables(doc):
    """The rounds, the medians, the peak RSS and the targets, as text."""
    smoke = doc["options"]["smoke"]
    log("")
    log(text_table(ROUND_HEAD, round_rows(doc["rounds"], doc["used_rounds"])))
    log("")
    log(text_table(HEAD, table_rows(doc["summary"])))
    if doc["memory"]:
        log("")
        log(text_table(MEMORY_HEAD, memory_rows(doc["memory"])))
    log("")
    log(text_table(TARGET_HEAD, target_rows(doc["targets"], not smoke)))
    for n in doc["notes"]:
        log("note: " + n)


def write_files(doc, jpath, mpath):
    """The JSON and the Markdown of the run, where asked (None: not)."""
    if jpath:
        with open(jpath, "w") as f:
            json.dump(doc, f, indent=1)
            f.write("\n")
        log("wrote %s" % jpath)
    if mpath:
        with open(mpath, "w") as f:
            f.write(markdown(doc))
        log("wrote %s" % mpath)
