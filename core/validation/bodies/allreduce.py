import argparse
import os
import time

import torch
import torch.distributed as dist


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--max-bytes", type=int, default=1 << 32)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    size = 1 << 20
    while size <= args.max_bytes:
        x = torch.ones(size // 4, dtype=torch.float32, device="cuda")
        iters = 20 if size <= (1 << 28) else 5
        for _ in range(3):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        dist.barrier()
        start = time.perf_counter()
        for _ in range(iters):
            dist.all_reduce(x)
        torch.cuda.synchronize()
        seconds = (time.perf_counter() - start) / iters
        algbw = size / seconds / 1e9
        busbw = algbw * 2 * (world - 1) / world
        if rank == 0:
            print(f"PROBE allreduce {size} {algbw:.2f} {busbw:.2f}", flush=True)
        del x
        size *= 4
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
