# SPDX-License-Identifier: MIT
"""The WAL sync model: a phase's time is its other work plus, for each
kind of sync it made (walbases: WAL flushes on the commit path, the WAL
writer's, new segment files', the checkpoints'), count × the latency of
the diskio mode that sync is.  Each basis is estimated apart in each
environment; another environment's phase time is predicted as the
baseline's plus every basis' count × its latency difference.  The
background bases (WAL writer, checkpointer) are shown apart: they weigh
on the phase only as far as the phase waits for them.

Every prediction carries what it rests on (trust): the share of the
phase the model's bases account for, how the diskio estimate compares
with PostgreSQL's own time for the same syncs, whether the latencies had
repetitions to give an interval, and which bases were not measured."""

import math

from .. import noise
from ..inputs import WAL_SYNC_METHODS
from ..metrics import size_label
from ..modes import syncs
from .calibration import calibration, fmt_factor
from .walbases import BASES, phase_bases

# Beyond this factor between diskio's count × latency and PostgreSQL's own
# time for the same syncs, the two disagree.
PG_AGREEMENT = 1.25
# Below this (both times), the comparison says nothing: a sync on tmpfs
# takes a fraction of a microsecond, and PostgreSQL reports milliseconds.
MIN_CHECKED_S = 0.001


def latency_metric(env, mode, block_size=None):
    """The mean latency metric for a mode: the run at block_size when
    given and measured, the plain name, else the 8 KiB run (PostgreSQL's
    WAL block) of a block-size sweep."""
    names = [f"{mode}.mean_us", f"{mode}@8k.mean_us"]
    if block_size:
        names.insert(0, f"{mode}@{size_label(block_size)}.mean_us")
    return next((name for name in names if name in env.metrics), None)


def segment_size(env):
    return env.settings.wal_segment_size if env.settings else None


# ---- which diskio run stands for a basis ----
#
# A PostgreSQL commit is measured by diskio --pattern wal (its WAL page,
# rewritten while it fills, synced the wal_sync_method's way, several
# committers sharing one WAL); a checkpoint's file sync by --pattern
# checkpoint.  Where an environment has such runs, a basis takes the one
# that matches the cluster's wal_sync_method, the phase's committers
# (settings.json's phase_committers) and the pause between a committer's
# commits (the phase's time per commit less the WAL time a commit waits
# for: commit_pause_ns()), and the part
# PostgreSQL's counter counts: the sync part per wal_sync (fdatasync,
# fsync), the write part per wal_write (open_*, whose writes sync), the
# sync part per checkpoint file sync, the switch part per segment switch.
# Without them, the older stand-in: the mean op of the plain mode.


def commit_pause_ns(cycle_s, committers, flushes_per_commit, flush_s):
    """The pause between one committer's commits (ns): the transaction's
    own work, what --wal-gap stands for.  cycle_s is one committer's time
    from a commit's start to its next (elapsed x committers / commits),
    flush_s the WAL's time per flush (write and sync).

    A lone committer waits for its own flush only.  Several sharing the
    WAL also wait for the flush under way when they come, as PostgreSQL's
    WALWriteLock makes them: with the WAL busy flushing a share rho of the
    time (committers x flushes per commit x flush_s / cycle_s), a commit
    waits for about (1 + rho) flushes.  Counting one flush for them, as
    for a lone committer, took the wait for the other's flush for the
    transaction's work: from PostgreSQL's own 4-session commit probes on
    five filesystems it gave pauses of 180-810 us where the same
    transactions alone had 60-140 us; this gives 82-167 us.  Such pauses
    made diskio's committers share a flush far less (0.74-0.85 syncs per
    commit against PostgreSQL's 0.50)."""
    if cycle_s <= 0 or flush_s <= 0:
        return 0
    waited_flushes = 1.0
    if committers > 1:
        waited_flushes += min(1.0, committers * flushes_per_commit * flush_s / cycle_s)
    return max(0, int(round((cycle_s - waited_flushes * flush_s) * 1e9)))


def phase_context(env, phase, row, method):
    """What picks the diskio runs of a phase: the wal_sync_method's mode,
    the phase's committers and the pause per commit of each (ns)."""
    committers = env.settings.committers(phase) if env.settings else 1
    mode, count_column, time_column = WAL_SYNC_METHODS[method]
    commits = row.get("xact_commit") or row.get(count_column) or 0
    gap_ns = 0
    flushes = min(row.get(count_column) or commits, commits)
    if commits and flushes:
        wal_ms = (row.get("wal_write_time_ms") or 0) + (row.get("wal_sync_time_ms") or 0)
        gap_ns = commit_pause_ns(env.phases[phase] * committers / commits, committers,
                                 flushes / commits, wal_ms / 1000.0 / flushes)
    return {"mode": mode, "committers": committers, "gap_ns": gap_ns}


def pick_run(env, pattern, mode, committers=1, gap_ns=0):
    """The env's --pattern run of mode nearest to committers, then to
    gap_ns (both on a log scale); None without one."""
    runs = [r for r in env.pattern_runs
            if r["pattern"] == pattern and r["mode"] == mode]
    if not runs:
        return None
    return min(runs, key=lambda r: (abs(math.log(r["jobs"] / committers)),
                                    abs(math.log((r["gap_ns"] + 1e4) / (gap_ns + 1e4)))))


def pattern_metric(env, name, entry, ctx):
    """The metric of the --pattern wal or checkpoint run that stands for
    a basis, or None."""
    if ctx is None:
        return None
    if name in ("wal_commit", "wal_background"):
        run = pick_run(env, "wal", entry["mode"], ctx["committers"], ctx["gap_ns"])
        part = "sync_mean_us" if syncs(entry["mode"]) else "write_mean_us"
    elif name == "segment_switch":
        run = pick_run(env, "wal", ctx["mode"], ctx["committers"], ctx["gap_ns"])
        part = "switch_mean_us"
    else:
        run = pick_run(env, "checkpoint", entry["mode"]) or \
            pick_run(env, "checkpoint", "fdatasync")
        part = "sync_mean_us"
    metric = f"{run['prefix']}.{part}" if run else None
    return metric if metric in env.metrics else None


def check_latency(env, entry):
    """The latency to hold against PostgreSQL's own time for a basis: the
    sync part of the diskio op where PostgreSQL times the sync alone
    (wal_sync_time, checkpoint_sync_time), else the whole op; a pattern
    run's part is that already."""
    if entry["pg_time_column"] in ("wal_write_time_ms", None) or \
            not entry["latency_metric"].endswith(".mean_us"):
        return entry["latency_us"]
    base = entry["latency_metric"][:-len("mean_us")]
    part = env.metrics.get(base + "sync_mean_us")
    return part.value if part else entry["latency_us"]


def estimate_basis(env, phase_s, name, entry, ctx=None):
    """Fill in one basis of one environment's phase: its latency, the
    time count × latency, its share of the phase, PostgreSQL's share and
    how diskio's estimate of that time agrees with it."""
    block = segment_size(env) if name == "segment_switch" else None
    lat_name = pattern_metric(env, name, entry, ctx) or \
        latency_metric(env, entry["mode"], block)
    entry.update(latency_metric=lat_name, latency_us=None, est_s=None,
                 share=None, share_source=None, pg_share=None,
                 pg_agreement=None)
    if lat_name:
        entry["latency_us"] = env.metrics[lat_name].value
    elif entry["not_measured"] is None:
        entry["not_measured"] = (f"no {entry['mode']}.mean_us measured in "
                                 f"{env.name}: run diskio --mode "
                                 f"{entry['mode']} there")
    if entry["count"] is not None and lat_name:
        entry["est_s"] = entry["count"] * entry["latency_us"] / 1e6
    if entry["pg_time_s"] is not None:
        entry["pg_share"] = entry["pg_time_s"] / phase_s
        if entry["est_s"] is not None:
            checked = entry["count"] * check_latency(env, entry) / 1e6
            if max(checked, entry["pg_time_s"]) >= MIN_CHECKED_S and \
                    min(checked, entry["pg_time_s"]) > 0:
                entry["pg_agreement"] = checked / entry["pg_time_s"]
    if entry["est_s"] is not None:
        entry["share"], entry["share_source"] = entry["est_s"] / phase_s, \
            "count x diskio latency"
    elif entry["pg_time_s"] is not None and entry["background"]:
        entry["share"], entry["share_source"] = entry["pg_share"], \
            "PostgreSQL's time"
    return entry


def estimate_phase(env, phase, row, method, ctx=None):
    phase_s = env.phases[phase]
    ctx = ctx or phase_context(env, phase, row, method)
    bases = {name: estimate_basis(env, phase_s, name, entry, ctx)
             for name, entry in phase_bases(row, method,
                                            env.settings).items()}

    def total(background):
        shares = [b["share"] for b in bases.values()
                  if b["background"] == background and b["share"] is not None]
        return sum(shares) if shares else None
    commit, background = total(False), total(True)
    wal = [bases[n]["share"] for n in ("wal_commit", "wal_background")
           if bases[n]["share"] is not None]
    return {"phase_s": phase_s, "bases": bases, "context": ctx,
            "complete": env.settings.complete if env.settings else None,
            "commit_path_share": commit, "background_share": background,
            "modelled_share": None if commit is None and background is None
            else (commit or 0.0) + (background or 0.0),
            # what diskio-plot's sync-share chart draws
            "share": sum(wal) if wal else None,
            "checkpoint_share": bases["checkpoint"]["share"]}


def wal_estimates(env, method, notes, contexts=None):
    """Each phase of env's wal.csv estimated; contexts ({phase: context},
    the baseline's) pick the same runs in every environment."""
    if not env.wal:
        return None
    mode = WAL_SYNC_METHODS[method][0]
    if latency_metric(env, mode) is None and \
            pick_run(env, "wal", mode) is None:
        notes.append(f"{env.name}: wal.csv present but no {mode}.mean_us "
                     f"measured (wal_sync_method {method}); sync time not "
                     f"estimated: run diskio --mode {mode} there or pass "
                     "--wal-sync-method")
    for phase, row in env.wal.items():
        if syncs(mode) and row["wal_sync"] == 0 \
                and row["wal_write"] > 0:
            notes.append(f"{env.name} {phase}: wal_sync is 0 but wal_write "
                         f"is {row['wal_write']:g}; if PostgreSQL uses "
                         "open_datasync or open_sync, pass --wal-sync-method")
    return {phase: estimate_phase(env, phase, row, method,
                                  (contexts or {}).get(phase))
            for phase, row in env.wal.items()}


def latency_interval(baseline, env, base_name, other_name):
    """The interval of the latency ratio other/baseline from the metrics'
    repetitions (None without repetitions on both sides), and why the
    latencies were disturbed (None when they were not)."""
    judgement = noise.judge(baseline.metrics[base_name].judged_samples(),
                            env.metrics[other_name].judged_samples(),
                            names=(baseline.name, env.name),
                            defaults={**baseline.defaults, **env.defaults})
    interval = None if judgement.low is None else (judgement.low, judgement.high)
    return interval, judgement.disturbed


def predict_basis(baseline, env, name, base, other):
    """The time one basis adds in env: count_base × (lat_other − lat_base)
    (the checkpoints without a file count: PostgreSQL's sync time ×
    (lat_other / lat_base − 1))."""
    block = segment_size(baseline) if name == "segment_switch" else None
    # the run the baseline's basis used, where the other environment has
    # it too; else the stand-in both have
    other_name = base["latency_metric"] if base["latency_metric"] in env.metrics \
        else latency_metric(env, base["mode"], block)
    if other_name != base["latency_metric"] and base["latency_metric"] and \
            other_name is not None:
        fallback = latency_metric(baseline, base["mode"], block)
        base = dict(base, latency_metric=fallback,
                    latency_us=baseline.metrics[fallback].value if fallback else None)
    result = {"count": base["count"], "estimated": base["estimated"],
              "background": base["background"],
              # the diskio metrics the latencies are (the disk ratios the
              # prediction rests on)
              "latency_metric": base["latency_metric"],
              "latency_metric_other": other_name,
              "latency_baseline_us": base["latency_us"],
              "latency_other_us": env.metrics[other_name].value
              if other_name else None,
              "delta_s": None, "delta_alt_s": None, "how": None,
              "latency_ratio_interval": None, "delta_range_s": None,
              "latency_disturbed": None,
              "not_measured": base["not_measured"]}
    lat_b, lat_o = result["latency_baseline_us"], result["latency_other_us"]
    if lat_b is None or lat_o is None:
        if result["not_measured"] is None or base["count"] is not None:
            result["not_measured"] = (f"no {base['mode']}.mean_us in both "
                                      f"{baseline.name} and {env.name}")
        return result
    interval, disturbed = latency_interval(baseline, env,
                                           base["latency_metric"], other_name)
    result["latency_disturbed"] = disturbed
    if base["count"] is not None:
        # Each sync pays the latency difference once.  (A checkpoint's fsync
        # of a data file flushes every dirty page of it, more than diskio's
        # one block: pg_check says how far count x latency falls short of
        # PostgreSQL's own time for them.)
        scale = base["count"] * lat_b / 1e6      # the baseline's time
        result["how"] = "count x latency difference"
        result["not_measured"] = None
        if other is not None and other["count"] is not None:
            result["delta_alt_s"] = (other["count"] * lat_o -
                                     base["count"] * lat_b) / 1e6
    elif name == "checkpoint" and base["pg_time_s"] is not None:
        scale = base["pg_time_s"]
        result["how"] = "PostgreSQL's sync time x (latency ratio - 1)"
        result["not_measured"] = None
    else:
        return result
    result["delta_s"] = scale * (lat_o / lat_b - 1.0)
    if interval:
        result["latency_ratio_interval"] = list(interval)
        result["delta_range_s"] = [scale * (r - 1.0) for r in interval]
    return result


def pg_check(estimates):
    """How diskio's count × latency compares with PostgreSQL's own time for
    the same syncs, in each environment ({name: estimate}) where both are
    large enough to compare: (text, {environment: worst factor})."""
    worst = {}
    for env_name, est in estimates.items():
        factors = {name: b["pg_agreement"] for name, b in est["bases"].items()
                   if b["pg_agreement"]}
        if factors:
            worst[env_name] = max(factors.items(),
                                  key=lambda item: abs(math.log(item[1])))
    if not worst:
        return ("not checked: PostgreSQL did not time these syncs, or too "
                f"little of them (under {MIN_CHECKED_S * 1000:g} ms)"), {}
    parts = []
    for env_name, (name, factor) in worst.items():
        verdict = "agrees" if max(factor, 1.0 / factor) <= PG_AGREEMENT \
            else "disagrees"
        parts.append(f"{fmt_factor(factor)}x in {env_name} ({name}, "
                     f"{verdict})")
    return ("diskio's count x latency against PostgreSQL's own time: "
            + ", ".join(parts)), {e: f for e, (_, f) in worst.items()}


def predict_phase(baseline, env, phase, base_est, other_est,
                  envs_incomplete):
    phase_base = baseline.phases[phase]
    bases = {name: predict_basis(baseline, env, name, base_est["bases"][name],
                                 (other_est or {}).get("bases", {}).get(name))
             for name in BASES}
    used = {n: b for n, b in bases.items() if b["delta_s"] is not None}
    prediction = {"baseline_s": phase_base, "actual_s": env.phases[phase],
                  "actual_ratio": env.phases[phase] / phase_base,
                  "bases": bases, "predicted_s": None,
                  "predicted_ratio": None, "predicted_commit_path_s": None,
                  "predicted_commit_path_ratio": None,
                  "background_delta_s": None, "predicted_alt_s": None,
                  "dominant_basis": None, "trust": None}
    if used:
        commit = sum(b["delta_s"] for b in used.values() if not b["background"])
        background = sum(b["delta_s"] for b in used.values() if b["background"])
        prediction.update(
            predicted_s=phase_base + commit + background,
            predicted_ratio=(phase_base + commit + background) / phase_base,
            predicted_commit_path_s=phase_base + commit,
            predicted_commit_path_ratio=(phase_base + commit) / phase_base,
            background_delta_s=background,
            dominant_basis=max(used, key=lambda n: abs(used[n]["delta_s"])))
        if any(b["delta_alt_s"] is not None for b in used.values()):
            prediction["predicted_alt_s"] = phase_base + sum(
                b["delta_s"] if b["delta_alt_s"] is None else b["delta_alt_s"]
                for b in used.values())
    prediction["trust"] = trust(prediction, {baseline.name: base_est,
                                             env.name: other_est},
                                used, envs_incomplete)
    prediction["trust"].update(sync_check(used, base_est, other_est,
                                          prediction["actual_s"] - phase_base))
    prediction["trust"]["cpu_delta_s"] = cpu_change(baseline, env, phase)
    # a single run flagged disturbed (diskio-pgphases' interference.csv);
    # with rounds, phase_noise says it as the phase's verdict does
    prediction["trust"]["phase_disturbed"] = "; ".join(
        f"{e.name}: {why[0]}" for e in (baseline, env)
        for why in [phase_disturbed(e, phase)] if why) or None
    phase_noise(prediction, baseline.phase_rounds.get(phase),
                env.phase_rounds.get(phase), (baseline.name, env.name))
    disturbed = [b["latency_disturbed"] for b in used.values()
                 if b["latency_disturbed"]]
    prediction["trust"]["disturbed"] = disturbed[0] if disturbed else None
    return prediction


def judge_prediction(prediction, bound):
    """The measured time against the predicted one: {"verdict": "within"
    where the prediction is within bound of the measured time (the
    report's min_change: a difference it would call a change is off, as
    bench/real-envs judges its phases by its --bound), "off" beyond it,
    "inconclusive" where the measurement cannot tell (the phase was
    disturbed, its rounds spread more than bound, or the measured ratio
    lies inside the predicted range from the latencies' repetitions but
    beyond bound: their noise cannot tell); None without a prediction;
    "error":
    prediction / measurement - 1; "measured_spread": how far the 95%
    interval of the measured ratio reaches from it (with rounds);
    "verdict_cause": why it is inconclusive, "disturbed", "spread" or
    "range", and "verdict_note" in words}.  A phase of one run on each
    side is judged as it is (the noise notes say it has no spread)."""
    result = {"verdict": None, "error": None, "measured_spread": None,
              "verdict_cause": None, "verdict_note": None}
    if prediction["predicted_s"] is None:
        return result
    error = prediction["predicted_s"] / prediction["actual_s"] - 1.0
    trust, ratio = prediction["trust"], prediction["actual_ratio"]
    measured, rng = trust["measured_ratio_interval"], trust["predicted_ratio_range"]
    if measured:
        result["measured_spread"] = max(measured[1] / ratio - 1.0,
                                        1.0 - measured[0] / ratio)
    causes = {
        "disturbed": (trust.get("phase_disturbed"),
                      "the phase's measurement was disturbed (--details says "
                      "how)"),
        "spread": ((result["measured_spread"] or 0.0) > bound,
                   f"the phase's rounds spread more than the ±{bound:.0%} a "
                   "prediction is judged by"),
        "range": (abs(error) > bound and rng and rng[0] <= ratio <= rng[1],
                  "the measured ratio lies in the predicted range, which the "
                  f"latencies' noise makes wider than ±{bound:.0%}")}
    cause = next((name for name, (found, _) in causes.items() if found), None)
    result.update(error=error, verdict_cause=cause,
                  verdict_note=causes[cause][1] if cause else None,
                  verdict="inconclusive" if cause else
                  "within" if abs(error) <= bound else "off")
    return result


def sync_check(used, base_est, other_est, measured_delta_s):
    """The commit path's syncs held against PostgreSQL's own timing of the
    same syncs in both environments (wal_sync_time in each one's wal.csv):
    the change the model predicts for the bases PostgreSQL timed on both
    sides, the change PostgreSQL measured for them, and the rest of the
    phase's measured change (everything else, the syncs PostgreSQL does not
    time included: segment switches).  A phase whose syncs were predicted
    but whose time was not moved elsewhere (other work, a writeback the
    syncs no longer absorb): the model's part and the rest are then told
    apart.  None for each where no commit-path basis was timed on both."""
    result = {"syncs_predicted_delta_s": None, "syncs_postgres_delta_s": None,
              "rest_delta_s": None}
    if other_est is None:
        return result
    predicted, postgres = [], []
    for name, b in used.items():
        base_s = base_est["bases"][name]["pg_time_s"]
        other_s = other_est["bases"].get(name, {}).get("pg_time_s")
        if b["background"] or base_s is None or other_s is None:
            continue
        predicted.append(b["delta_s"])
        postgres.append(other_s - base_s)
    if not postgres:
        return result
    result["syncs_predicted_delta_s"] = sum(predicted)
    result["syncs_postgres_delta_s"] = sum(postgres)
    result["rest_delta_s"] = measured_delta_s - sum(postgres)
    return result


def cpu_change(baseline, env, phase):
    """How much more CPU time (s) the database's processes and its client
    spent in the phase in env than in the baseline (diskio-pgphases'
    interference.csv, medians over the rounds), or None where either did
    not record it.  Beside the rest of the phase (sync_check): a rest that
    grew with the CPU time is work that got dearer, one that grew without
    it is waiting the model does not hold (I/O other than the syncs, a
    lock, the scheduler)."""
    base, other = baseline.phase_cpu_s(phase), env.phase_cpu_s(phase)
    return None if base is None or other is None else other - base


def phase_disturbed(env, phase):
    """The reasons the single run of a phase was disturbed, or ()."""
    rounds = env.phase_disturbed.get(phase) or []
    return rounds[0] if len(rounds) == 1 else ()


def phase_noise(prediction, base_rounds, other_rounds,
                names=("baseline", "other")):
    """With rounds of the phase on both sides: the measured ratio's
    interval, the predicted range widened by the phase's own spread,
    "inconclusive" where the rounds disagree more than the predicted
    change, and why the phase's measurement was disturbed (too few
    undisturbed rounds on a side, as noise.judge says)."""
    trust = prediction["trust"]
    trust["measured_ratio_interval"] = None
    trust["inconclusive"] = None
    if not (base_rounds and other_rounds and len(base_rounds) > 1
            and len(other_rounds) > 1):
        return
    j = noise.judge(base_rounds, other_rounds, names=names)
    trust["phase_disturbed"] = j.disturbed
    low, high = j.low / j.ratio, j.high / j.ratio
    trust["measured_ratio_interval"] = [j.low, j.high]
    predicted = prediction["predicted_ratio"]
    if predicted is None:
        return
    rng = trust["predicted_ratio_range"] or [predicted, predicted]
    trust["predicted_ratio_range"] = [rng[0] * low, rng[1] * high]
    spread = max(high - 1.0, 1.0 - low)
    if abs(predicted - 1.0) < spread:
        trust["inconclusive"] = (
            f"the phase's rounds disagree by ±{spread:.0%}, more than the "
            f"predicted change {predicted - 1.0:+.0%}")


def trust(prediction, estimates, used, envs_incomplete):
    """What the prediction rests on, in facts a reader can weigh; estimates
    are the baseline's and the other environment's ({name: estimate},
    the other's None without a wal.csv)."""
    base_est, other_est = list(estimates.values())
    text, factors = pg_check({n: e for n, e in estimates.items() if e})
    ranges = [b["delta_range_s"] for b in used.values()]
    predicted_range = None
    if used and all(ranges):
        base_s = prediction["baseline_s"]
        predicted_range = [(base_s + sum(r[0] for r in ranges)) / base_s,
                           (base_s + sum(r[1] for r in ranges)) / base_s]
    result = {"modelled_share": base_est["modelled_share"],
              "modelled_share_other": other_est["modelled_share"]
              if other_est else None,
              "background_share": base_est["background_share"],
              "pg_check": text, "pg_agreement": factors,
              "latency_noise": ("interval from the diskio repetitions"
                                " (and the phase's rounds, where it has "
                                "them)" if predicted_range else
                                "no repetitions of the diskio latencies: "
                                "their run-to-run noise is unknown"),
              "predicted_ratio_range": predicted_range,
              "not_measured": {n: b["not_measured"]
                               for n, b in prediction["bases"].items()
                               if b["delta_s"] is None},
              "estimated_counts": [n for n, b in used.items()
                                   if b["estimated"]],
              "incomplete_runs": envs_incomplete,
              "residual_s": None}
    if prediction["predicted_s"] is not None:
        result["residual_s"] = prediction["actual_s"] - prediction["predicted_s"]
    result["implausible"] = implausible(prediction, result)
    return result


def implausible(prediction, trust):
    """Why the model cannot be right about this phase, or None: its syncs
    would take longer than the whole phase (PostgreSQL paid less per sync
    than diskio measured: group commit, a warm cache, another file, or
    diskio measured a busier moment), or it predicts no time at all."""
    reasons = []
    for key, where in (("modelled_share", "the baseline's"),
                       ("modelled_share_other", "the other's")):
        share = trust[key]
        if share is not None and share > 1.0:
            reasons.append(f"count x diskio latency is {share:.0%} of "
                           f"{where} phase")
    if prediction["predicted_s"] is not None and prediction["predicted_s"] <= 0:
        reasons.append("it predicts no time left for the phase")
    if not reasons:
        return None
    return ("; ".join(reasons) + ": PostgreSQL's syncs cost less than "
            "diskio's (group commit, a cache, other files, or a busier "
            "moment when diskio ran)")


def wal_model(baseline, envs, method, notes,
              min_change=noise.DEFAULT_MIN_CHANGE):
    base_ctx = None
    if baseline.wal:
        base_ctx = {phase: phase_context(baseline, phase, row, method)
                    for phase, row in baseline.wal.items()}
    per_env = {env.name: wal_estimates(env, method, notes, base_ctx)
               for env in envs}
    if not any(per_env.values()):
        return None
    model = {"sync_method": method, "bases": list(BASES),
             # a prediction farther than this from the measured time is off
             "verdict_bound": min_change,
             "formula": "predicted = phase_base + sum over bases of "
                        "count_base x (lat_other - lat_base); checkpoints "
                        "without a file count: checkpoint_sync_time_base x "
                        "(lat_other / lat_base - 1); commit path = the same "
                        "without the background bases (wal_background, "
                        "checkpoint); alt = with each environment's own "
                        "counts where it has them",
             "environments": {name: {"phases": est}
                              for name, est in per_env.items() if est},
             "calibration": {env.name: calibration(env, per_env[env.name], method)
                             for env in envs if per_env[env.name]},
             "predictions": []}
    base_est = per_env[baseline.name]
    if not base_est:
        notes.append(f"baseline {baseline.name} has no wal.csv; no phase "
                     "predictions")
        return model
    for env in envs:
        if env is baseline:
            continue
        incomplete = [e.name for e in (baseline, env)
                      if e.settings and not e.settings.complete]
        other_est = per_env[env.name] or {}
        phases = {phase: predict_phase(baseline, env, phase, est,
                                       other_est.get(phase), incomplete)
                  for phase, est in base_est.items()}
        for prediction in phases.values():
            prediction.update(judge_prediction(prediction, min_change))
        model["predictions"].append({
            "environment": env.name, "baseline": baseline.name,
            "phases": phases})
    return model
