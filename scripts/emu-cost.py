#!/usr/bin/env python3
"""emu-cost.py: the emulated time of the tcgen05 probes' points of a plan
(`tcprobe run --spec sweeps/default.sweep --dry-run --verbose --arch T`), per
probe, with the release build's iteration counts and with the emulation
build's (docs/emulation.md "Iteration rules").

Cost model (docs/emulation.md "Iteration rules"): one emulated instruction
runs synchronously in the issuing thread (MMA, cp) or in each calling thread
(ld/st); an f16 M=128 N=256 K=16 MMA costs MMA_MS, scaled by M N K (K of the
kind: tf32 8, f16 16, f8f6f4 / i8 / mxf8f6f4 32, mxf4 / mxf4nvf4 64, K96 96);
a tcgen05.cp CP_MS per 4 KiB written to TMEM; a tcgen05.ld / st LDST_MS per
32x32b.x32 (32 registers per thread) per warp, proportional to registers.
CTAs (pairs) of a grid=all point run in parallel, one per SM, so a launch
costs what one issuing CTA does.  A point: setup + its validation launch +
(warm-up + R timed + 1 counter pass) runs; R = 3 (--reps auto's floor) or
the cap under --reps auto with the noise never met (10, or fewer once the
timed runs pass the 1 s rep budget).
Usage: emu-cost.py PLAN [--mma-ms 1.0] [--md]
"""
import argparse, math, re, sys

K = {"f16": 16, "tf32": 8, "f8f6f4": 32, "i8": 32, "mxf8f6f4": 32, "mxf4": 64, "mxf4nvf4": 64}
PEAK_PER_K = 8192 / 16       # published peak FLOP/clk/SM of every kind / its K
CP_BYTES = {"128x256b": 4096, "4x256b": 128, "128x128b": 2048, "64x128b.02_13": 1024,
            "64x128b.01_23": 1024, "32x128b.warpx4": 512}
CP_MC = {"128x256b": 1, "4x256b": 1, "128x128b": 1, "64x128b.02_13": 2, "64x128b.01_23": 2,
         "32x128b.warpx4": 4}
LD_BASE = {"32x32b": 1, "16x64b": 1, "16x128b": 2, "16x256b": 4, "16x32bx2": 1}

# the emulation build's counts (probes/sm100/tc-aux.h TCP_AUX_EMU_*)
EMU = dict(lat_warmup=1, lat_samples=3, ii_reps=1, ii_depths=[1, 2, 4, 32], commit_warmup=1,
           commit_samples=3, cp_batches1=1, ldst_iters=2, ldred_iters=2, epi_batches=8,
           epi_alone=2)
REL = dict(lat_warmup=4, lat_samples=64, ii_reps=5, ii_depths=[1, 2, 4, 8, 16, 32, 64], commit_warmup=8,
           commit_samples=64, cp_batches1=None, ldst_iters=256, ldred_iters=256, epi_batches=None,
           epi_alone=64)


class Model:
    def __init__(s, mma_ms, cp_ms, ldst_ms, launch_ms, point_ms):
        s.mma_ms, s.cp_ms, s.ldst_ms, s.launch_ms, s.point_ms = mma_ms, cp_ms, ldst_ms, launch_ms, point_ms

    def mma(s, kind, m, n, k=None):
        return s.mma_ms * (m / 128) * (n / 256) * ((k or K[kind]) / 16)

    def cp(s, nbytes):
        return s.cp_ms * nbytes / 4096

    def ld(s, nreg):
        return s.ldst_ms * nreg / 32


def ldst_depth0(shape, num, pack, wg):
    """tc_ldst's inflight=0 depth (probes/sm100/tc-aux.h tcp_aux_ldst_threads,
    _kmax, _depth): the sets the kernel holds, fewer where the warpgroups'
    spans do not fit side by side in 512 columns."""
    nreg = LD_BASE[shape] * num
    threads = 256 if nreg > 64 or (nreg >= 32 and wg <= 2) else 512
    if threads <= 256:
        k = max(1, min(8, 128 // nreg))
    else:
        k = 1 if nreg >= 32 else 2 if nreg == 8 else min(8, 64 // nreg)
    # columns of one access (model/tmem.h tcp_ld_footprint): 16x32bx2 adds its second half
    cols = {"32x32b": 1, "16x64b": 2, "16x128b": 4, "16x256b": 8, "16x32bx2": 1}[shape] * num
    fp = cols * (2 if pack else 1) * (2 if shape == "16x32bx2" else 1)
    while k > 1 and wg * k * fp > 512:
        k //= 2
    return k


def tput_iters_release(kind, m, n, cg, k, commit_every):
    ideal = 2.0 * m * n * k / (PEAK_PER_K * k * cg)
    it = max(2048, math.ceil(1048576.0 / ideal))
    it = min(it, 131072)
    unit = commit_every if commit_every > 2 else 2
    return (it + unit - 1) // unit * unit


def tput_iters_emu(commit_every):
    return max(4, 2 * commit_every)


def point_cost(md, probe, ax, c):
    """(validate ms, run ms, counts dict) of one point under counts c."""
    i = lambda k, d=0: int(ax.get(k, d))
    if probe in ("tc_mma_lat", "tc_mma_ii", "tc_mma_tput", "tc_mma_k96", "tc_layout"):
        if probe == "tc_layout":
            lay = ax["layout"]
            m = {"m128": 128, "m64a0": 64, "m64a16": 64, "cg2m256": 256, "cg2m128": 128}[lay]
            u = md.mma("f16", m, i("N"))
            n = 2 if i("mask") else 1
            return n * u, n * u, dict(mmas=n)
        kind = ax["kind"]
        kk = 96 if probe == "tc_mma_k96" else K[kind]
        m, n = i("M"), i("N")
        u = md.mma(kind, m, n, kk)
        v = u
        mode = ax.get("mode", "lat" if probe == "tc_mma_lat" else "tput")
        if probe == "tc_mma_lat" or (probe == "tc_mma_k96" and mode == "lat"):
            nm = c["lat_warmup"] + c["lat_samples"]
            return v, nm * u, dict(mmas=nm, commits=nm, phases=nm)
        if probe == "tc_mma_ii":
            nm = c["ii_reps"] * sum(c["ii_depths"])
            ph = c["ii_reps"] * len(c["ii_depths"])
            return v, nm * u, dict(mmas=nm, commits=ph, phases=ph)
        ce = i("commit_every")
        if c is EMU:
            it = tput_iters_emu(ce)
        else:
            it = tput_iters_release(kind, m, n, i("cta_group"), kk, ce)
        return v, it * u, dict(mmas=it, commits=1 + (it // ce if ce else 0))
    if probe == "tc_commit":
        ns = c["commit_warmup"] + c["commit_samples"]
        cg = i("cta_group")
        op = {"empty": 0.0, "cp": md.cp(4096), "mma": md.mma("f16", 128 * cg, 64)}[ax["form"]]
        return 0.0, ns * op, dict(ops=ns if ax["form"] != "empty" else 0, commits=ns, phases=ns)
    if probe == "tc_cp":
        b = CP_BYTES[ax["shape"]] * CP_MC[ax["shape"]]
        b1 = c["cp_batches1"]
        if b1 is None:
            n2 = -(-(1 << 20) // CP_BYTES[ax["shape"]])
            b2 = -(-n2 // 32)
            b2 += b2 & 1
            b1 = b2 // 2
        ncp = 4 * 32 * b1
        val = md.cp(b) if ax["fmt"] == "plain" and ax["cta_group"] == "1" and ax["shape"] in ("128x256b", "128x128b") else 0
        return val, ncp * md.cp(b), dict(cps=ncp, commits=3, phases=3)
    if probe == "tc_ldst":
        nreg = LD_BASE[ax["shape"]] * i("num")
        depth = i("inflight") or ldst_depth0(ax["shape"], i("num"), i("pack"), i("warpgroups"))
        ks = [k for k in (1, 2, 4, 8) if k <= depth]
        acc = c["ldst_iters"] * sum(ks)
        lat = 2 if ax["op"] == "ld" else 0
        val = 512 * md.ld(1) + md.ld(nreg)
        return val, (acc + lat) * md.ld(nreg), dict(accesses=acc + lat)
    if probe == "tc_ldred":
        nreg = i("num")
        acc = c["ldred_iters"] + 2
        return 512 * md.ld(1) + md.ld(nreg), acc * md.ld(nreg), dict(accesses=acc)
    if probe == "tc_epilogue":
        kind, n, k = ax["kind"], i("N"), i("k", 4)
        nb = c["epi_batches"] or 4096 // k
        u = md.mma(kind, 128, n)
        nm = nb * k + 1
        t = nm * u
        if ax["drain"] == "cp":
            t += 2 * nb * md.cp(4096)
        elif ax["drain"] in ("ld", "st"):
            t += c["epi_alone"] * (n // 64) * 2 * md.ld(32)
        return u, t, dict(mmas=nm, batches=nb, phases=nb // 2)
    if probe == "tc_alloc":
        return 0.0, 0.0, {}
    raise KeyError(probe)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("plan")
    ap.add_argument("--mma-ms", type=float, default=1.0)
    ap.add_argument("--cp-ms", type=float, default=0.020)
    ap.add_argument("--ldst-ms", type=float, default=0.010)
    ap.add_argument("--launch-ms", type=float, default=0.2)
    ap.add_argument("--point-ms", type=float, default=10.0)
    ap.add_argument("--warmup", type=int, default=2)
    ap.add_argument("--counters", type=int, default=1)
    a = ap.parse_args()
    md = Model(a.mma_ms, a.cp_ms, a.ldst_ms, a.launch_ms, a.point_ms)
    per = {}
    for line in open(a.plan):
        f = line.rstrip("\n").split("\t")
        if len(f) < 3 or not f[0].isdigit() or not f[1].startswith("tc_"):
            continue
        if len(f) > 6 and f[6].startswith(("SKIPPED", "UNSUPPORTED")):
            continue
        probe = f[1]
        ax = dict(kv.split("=", 1) for kv in f[2].split(";"))
        row = per.setdefault(probe, dict(points=0, rel=0.0, emu3=0.0, emu10=0.0, emu_run=0.0))
        row["points"] += 1
        for name, c in (("rel", REL), ("emu", EMU)):
            v, r, _ = point_cost(md, probe, ax, c)
            v += md.launch_ms if v or probe not in ("tc_alloc", "tc_commit") else 0
            r += md.launch_ms
            if name == "rel":
                row["rel"] += md.point_ms + v + (a.warmup + 3 + a.counters) * r
            else:
                rmax = min(10, max(3, math.ceil(1000.0 / r)))
                row["emu3"] += md.point_ms + v + (a.warmup + 3 + a.counters) * r
                row["emu10"] += md.point_ms + v + (a.warmup + rmax + a.counters) * r
                row["emu_run"] = max(row["emu_run"], r)
    tot = dict(points=0, rel=0.0, emu3=0.0, emu10=0.0)
    print("| probe | points | release R=3 (s) | emulation R=3 (s) | emulation R<=10 (s) | slowest run (ms) |")
    print("|---|---:|---:|---:|---:|---:|")
    for p in sorted(per):
        r = per[p]
        print("| %s | %d | %.0f | %.1f | %.1f | %.1f |" % (p, r["points"], r["rel"] / 1e3, r["emu3"] / 1e3,
                                                         r["emu10"] / 1e3, r["emu_run"]))
        for k in tot:
            tot[k] += r[k]
    print("| total | %d | %.0f | %.1f | %.1f | |" % (tot["points"], tot["rel"] / 1e3, tot["emu3"] / 1e3,
                                                   tot["emu10"] / 1e3))


if __name__ == "__main__":
    main()
