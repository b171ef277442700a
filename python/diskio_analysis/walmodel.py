# SPDX-License-Identifier: MIT
"""The WAL sync model: with PostgreSQL's WAL counters per phase (wal.csv),
phase time ≈ other + syncs × sync latency, so each phase's sync share can
be estimated from the measured latency of the mode wal_sync_method maps
to, and each other environment's phase time predicted from its latency
when only that latency changes (checkpoint-heavy phases: from the
checkpointer's data-file fsyncs)."""

from .inputs import WAL_SYNC_METHODS

# The checkpointer fsync()s data files whatever wal_sync_method says.
CHECKPOINT_SYNC_MODE = "fsync"


def latency_metric(env, mode):
    """The mean latency metric for a mode: the plain name, else the 8 KiB
    run (PostgreSQL's WAL block size) of a block-size sweep."""
    for name in (f"{mode}.mean_us", f"{mode}@8k.mean_us"):
        if name in env.metrics:
            return name
    return None


def wal_phase_estimate(env, phase, row, method, notes):
    mode, count_column, time_column = WAL_SYNC_METHODS[method]
    lat_name = latency_metric(env, mode)
    phase_s = env.phases[phase]
    count = row[count_column]
    estimate = {"phase_s": phase_s, "wal_write": row["wal_write"],
                "wal_sync": row["wal_sync"], "counted": count_column,
                "sync_count": count, "latency_metric": lat_name,
                "latency_us": None, "est_sync_s": None, "share": None,
                "pg_sync_time_s": row[time_column] / 1000.0,
                "pg_share": row[time_column] / 1000.0 / phase_s,
                "checkpoint_sync_time_s": None, "checkpoint_share": None,
                "checkpoint_sync_files": row.get("checkpoint_sync_files"),
                "basis": "wal_sync"}
    if lat_name:
        estimate["latency_us"] = env.metrics[lat_name].value
        estimate["est_sync_s"] = count * estimate["latency_us"] / 1e6
        estimate["share"] = estimate["est_sync_s"] / phase_s
    if count_column == "wal_sync" and count == 0 and row["wal_write"] > 0:
        notes.append(f"{env.name} {phase}: wal_sync is 0 but wal_write is "
                     f"{row['wal_write']:g}; if PostgreSQL uses open_datasync "
                     "or open_sync, pass --wal-sync-method")
    checkpoint_ms = row.get("checkpoint_sync_time_ms")
    if checkpoint_ms is not None:
        estimate["checkpoint_sync_time_s"] = checkpoint_ms / 1000.0
        estimate["checkpoint_share"] = checkpoint_ms / 1000.0 / phase_s
        # Compare with PostgreSQL's WAL sync time when it was tracked
        # (track_wal_io_timing), else with our own estimate.
        wal_ms = row[time_column] or (estimate["est_sync_s"] or 0) * 1000.0
        if checkpoint_ms > wal_ms:
            estimate["basis"] = "checkpoint_sync_time"
    return estimate


def wal_estimates(env, method, notes):
    if not env.wal:
        return None
    mode = WAL_SYNC_METHODS[method][0]
    if latency_metric(env, mode) is None:
        notes.append(f"{env.name}: wal.csv present but no {mode}.mean_us "
                     f"measured (wal_sync_method {method}); sync time not "
                     f"estimated: run diskio --mode {mode} there or pass "
                     "--wal-sync-method")
    return {phase: wal_phase_estimate(env, phase, row, method, notes)
            for phase, row in env.wal.items()}


def checkpoint_latency(baseline, env, method, notes):
    """Sync latencies (baseline, other, in us) for checkpoint-heavy phases:
    the checkpointer fsync()s data files; fall back to the WAL method's
    latency.  (None, None) when neither was measured in both."""
    for mode in (CHECKPOINT_SYNC_MODE, WAL_SYNC_METHODS[method][0]):
        base_name, other_name = latency_metric(baseline, mode), \
            latency_metric(env, mode)
        if base_name and other_name:
            if mode != CHECKPOINT_SYNC_MODE:
                notes.append(f"{env.name}: no fsync.mean_us in both "
                             f"environments; checkpoint predictions use "
                             f"{mode} latency")
            return baseline.metrics[base_name].value, env.metrics[other_name].value
    return None, None


def predict_phase(baseline, env, phase, base_est, other_est, ckpt_latency):
    mode_metric = base_est["latency_metric"]
    other_name = latency_metric(env, mode_metric.split(".")[0].split("@")[0]) \
        if mode_metric else None
    phase_base = baseline.phases[phase]
    prediction = {"basis": base_est["basis"], "baseline_s": phase_base,
                  "actual_s": env.phases[phase],
                  "actual_ratio": env.phases[phase] / phase_base,
                  "latency_baseline_us": base_est["latency_us"],
                  "latency_other_us": None,
                  "predicted_wal_s": None, "predicted_wal_alt_s": None,
                  "predicted_checkpoint_s": None,
                  "checkpoint_basis": None,
                  "checkpoint_latency_ratio": None,
                  "predicted_s": None, "predicted_ratio": None}
    if other_name and base_est["latency_us"] is not None:
        lat_other = env.metrics[other_name].value
        prediction["latency_other_us"] = lat_other
        prediction["predicted_wal_s"] = phase_base + base_est["sync_count"] * \
            (lat_other - base_est["latency_us"]) / 1e6
        if other_est is not None:
            prediction["predicted_wal_alt_s"] = phase_base + \
                (other_est["sync_count"] * lat_other -
                 base_est["sync_count"] * base_est["latency_us"]) / 1e6
    lat_base, lat_other = ckpt_latency
    if lat_base is not None and base_est["checkpoint_sync_time_s"] is not None:
        prediction["checkpoint_latency_ratio"] = lat_other / lat_base
        files = base_est["checkpoint_sync_files"]
        if files is not None:
            # counted like WAL flushes: each file sync pays the difference
            prediction["checkpoint_basis"] = "checkpoint_sync_files"
            prediction["predicted_checkpoint_s"] = phase_base + \
                files * (lat_other - lat_base) / 1e6
        else:
            # no count (PostgreSQL reports none): scale the sync time
            prediction["checkpoint_basis"] = "checkpoint_sync_time_ratio"
            prediction["predicted_checkpoint_s"] = phase_base + \
                base_est["checkpoint_sync_time_s"] * (lat_other / lat_base - 1.0)
    chosen = prediction["predicted_checkpoint_s"] \
        if prediction["basis"] == "checkpoint_sync_time" \
        else prediction["predicted_wal_s"]
    if chosen is not None:
        prediction["predicted_s"] = chosen
        prediction["predicted_ratio"] = chosen / phase_base
    return prediction


def wal_model(baseline, envs, method, notes):
    per_env = {env.name: wal_estimates(env, method, notes) for env in envs}
    if not any(per_env.values()):
        return None
    mode = WAL_SYNC_METHODS[method][0]
    model = {"sync_method": method, "latency_mode": mode,
             "counted": WAL_SYNC_METHODS[method][1],
             "pg_time_column": WAL_SYNC_METHODS[method][2],
             "checkpoint_latency_mode": CHECKPOINT_SYNC_MODE,
             "formula": "predicted_other = phase_base + sync_count_base × "
                        "(lat_other − lat_base); alt uses the other "
                        "environment's own sync count: phase_base + "
                        "count_other × lat_other − count_base × lat_base; "
                        "checkpoint basis: phase_base + "
                        "checkpoint_sync_files_base × (lat_other − lat_base) "
                        "when wal.csv counts the synced files, else "
                        "phase_base + checkpoint_sync_time_base × "
                        "(lat_other/lat_base − 1)",
             "environments": {name: {"phases": est}
                              for name, est in per_env.items() if est},
             "predictions": []}
    base_est = per_env[baseline.name]
    if not base_est:
        notes.append(f"baseline {baseline.name} has no wal.csv; no phase "
                     "predictions")
        return model
    for env in envs:
        if env is baseline:
            continue
        ckpt_latency = checkpoint_latency(baseline, env, method, notes)
        other_est = per_env[env.name] or {}
        model["predictions"].append({
            "environment": env.name, "baseline": baseline.name,
            "phases": {phase: predict_phase(baseline, env, phase, est,
                                            other_est.get(phase), ckpt_latency)
                       for phase, est in base_est.items()}})
    return model
