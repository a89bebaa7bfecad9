import argparse
import os
import time

import torch
import torch.distributed as dist

# The burn-in load on one GPU: bf16 GEMMs and an all-reduce, with most of the GPU's free memory
# held in blocks of random integers. Every result is checked against a reference, as gpu-burn
# does (wilicc/gpu-burn: 90% of the free memory, results compared), so a GPU that computes or
# stores wrong values without an error (silent data corruption) is caught:
# - the GEMM against its first result: cuBLAS gives bit-wise the same result for the same inputs
#   on the same GPU (cuBLAS documentation, "Results reproducibility");
# - each memory block against the int64 sum of its values, taken when it was written (any flipped
#   bit changes the sum); one block is rewritten at each check, so the memory is written as well
#   as read;
# - the all-reduce of ones against the world size, exact in float32.
# Each rank prints "PROBE burn_check GPU CHECKS GEMM_BAD MEMORY_BAD ALLREDUCE_BAD HELD_BYTES"
# with the counts since its last line; 40_burnin.sh sums them per GPU.
# Each rank also times its own GEMMs (CUDA events around them, not the all-reduce that paces every
# rank) and prints "PROBE burn_rate GPU GEMMS GEMM_SECONDS TFLOPS", totals so far: 40_burnin.sh
# compares every GPU's rate with its server's median (a straggler), as gpu-burn's per-GPU Gflop/s.
# Across servers (40_burnin.sh with MASTER_ADDR and NODE_RANK: one torchrun over every server), the
# all-reduce is the cross-server burn-in window: each rank times it and prints, every report,
# "PROBE burn_allreduce GPU NODES COUNT MIN_BUSBW MEDIAN_BUSBW" (GB/s, nccl-tests' bus bandwidth
# 2(n-1)/n x bytes / time) over the all-reduces since its last line.
GEMM_SIZE = 8192  # as probe.py's GEMM
GEMM_FLOP = 2 * GEMM_SIZE**3  # multiply-adds of one GEMM, x2
BLOCK_BYTES = 256 << 20  # memory is held, checked and rewritten in 256 MiB blocks
ALLREDUCE_ELEMENTS = 64 << 20  # 256 MiB of float32 per all-reduce
CHECK_EVERY_S = 60  # results compared with their references once a minute
REPORT_EVERY_S = 600  # a PROBE line per rank every 10 minutes, and at the end


def hold_memory(fraction, seed):
    """Blocks of random int32 filling `fraction` of the free memory, and the sum of each."""
    free, _ = torch.cuda.mem_get_info()
    count = int(free * fraction) // BLOCK_BYTES
    gen = torch.Generator(device="cuda")
    gen.manual_seed(seed)
    blocks, sums = [], []
    for _ in range(count):
        b = torch.randint(-(2**31), 2**31 - 1, (BLOCK_BYTES // 4,), dtype=torch.int32,
                          device="cuda", generator=gen)
        blocks.append(b)
        sums.append(int(b.sum(dtype=torch.int64).item()))
    return blocks, sums, gen


def check(state, world):
    """Compares every result with its reference; returns the mismatches (gemm, memory, all-reduce)."""
    torch.cuda.synchronize()
    gemm_bad = 0 if torch.equal(state["c"], state["ref"]) else 1
    memory_bad = sum(1 for b, s in zip(state["blocks"], state["sums"])
                     if int(b.sum(dtype=torch.int64).item()) != s)
    allreduce_bad = 0 if bool(torch.all(state["buf"] == world).item()) else 1
    if state["blocks"]:  # rewrite one block, so the memory is written as well as read
        i = state["checks"] % len(state["blocks"])
        state["blocks"][i].random_(-(2**31), 2**31 - 1, generator=state["gen"])
        state["sums"][i] = int(state["blocks"][i].sum(dtype=torch.int64).item())
    state["checks"] += 1
    return gemm_bad, memory_bad, allreduce_bad


def report(rank, counts, held_bytes):
    print(f"PROBE burn_check {rank} {counts[0]} {counts[1]} {counts[2]} {counts[3]} {held_bytes}",
          flush=True)
    return [0, 0, 0, 0]


def report_rate(rank, rate):
    gemms, seconds = rate
    tflops = gemms * GEMM_FLOP / seconds / 1e12 if seconds > 0 else 0.0
    print(f"PROBE burn_rate {rank} {gemms} {seconds:.3f} {tflops:.1f}", flush=True)


def report_allreduce(rank, nodes, busbw):
    if busbw:
        ordered = sorted(busbw)
        print(f"PROBE burn_allreduce {rank} {nodes} {len(ordered)} {ordered[0]:.1f} "
              f"{ordered[(len(ordered) - 1) // 2]:.1f}", flush=True)
    return []


def timed_allreduce(buf, world, busbw, events):
    """One all-reduce of buf, its bus bandwidth (GB/s) appended to busbw."""
    events[0].record()
    dist.all_reduce(buf)
    events[1].record()
    events[1].synchronize()
    seconds = events[0].elapsed_time(events[1]) / 1000
    if seconds > 0 and world > 1:
        busbw.append(2 * (world - 1) / world * buf.numel() * buf.element_size() / seconds / 1e9)


def timed_gemms(a, b, out, rate, events):
    """16 GEMMs, their time on the GPU added to rate = [gemms, seconds]."""
    events[0].record()
    for _ in range(16):
        torch.matmul(a, b, out=out)
    events[1].record()
    events[1].synchronize()
    rate[0] += 16
    rate[1] += events[0].elapsed_time(events[1]) / 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, required=True)
    parser.add_argument("--memory-fraction", type=float, default=0.9,
                        help="share of each GPU's free memory to hold and check")
    args = parser.parse_args()
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    nodes = world // int(os.environ.get("LOCAL_WORLD_SIZE", str(world)))
    gpu = int(os.environ.get("LOCAL_RANK", "0"))  # this server's GPU: what the PROBE lines name
    torch.cuda.set_device(gpu)
    gen = torch.Generator(device="cuda")
    gen.manual_seed(1234 + rank)
    a = torch.randn(GEMM_SIZE, GEMM_SIZE, device="cuda", dtype=torch.bfloat16, generator=gen)
    b = torch.randn(GEMM_SIZE, GEMM_SIZE, device="cuda", dtype=torch.bfloat16, generator=gen)
    ref = a @ b
    state = {"c": torch.empty_like(ref), "ref": ref, "checks": 0,
             "buf": torch.ones(ALLREDUCE_ELEMENTS, device="cuda", dtype=torch.float32)}
    # NCCL and cuBLAS take their buffers at their first call: before the memory is held.
    dist.all_reduce(state["buf"])
    torch.cuda.synchronize()
    state["blocks"], state["sums"], state["gen"] = hold_memory(args.memory_fraction, 99 + rank)
    held_bytes = len(state["blocks"]) * BLOCK_BYTES
    counts = report(gpu, [0, 0, 0, 0], held_bytes)
    end = time.time() + args.seconds
    last_check = last_report = time.time()
    rate, busbw = [0, 0.0], []
    events = (torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True))
    while time.time() < end:
        timed_gemms(a, b, state["c"], rate, events)
        state["buf"].fill_(1.0)
        timed_allreduce(state["buf"], world, busbw, events)
        if time.time() - last_check >= CHECK_EVERY_S:
            bad = check(state, world)
            counts = [counts[0] + 1, counts[1] + bad[0], counts[2] + bad[1], counts[3] + bad[2]]
            last_check = time.time()
        if time.time() - last_report >= REPORT_EVERY_S:
            counts = report(gpu, counts, held_bytes)
            report_rate(gpu, rate)
            busbw = report_allreduce(gpu, nodes, busbw)
            last_report = time.time()
    bad = check(state, world)
    counts = [counts[0] + 1, counts[1] + bad[0], counts[2] + bad[1], counts[3] + bad[2]]
    report(gpu, counts, held_bytes)
    report_rate(gpu, rate)
    report_allreduce(gpu, nodes, busbw)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
