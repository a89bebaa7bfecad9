import argparse
import os
import time

import torch
import torch.distributed as dist


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, required=True)
    args = parser.parse_args()
    dist.init_process_group("nccl")
    rank = dist.get_rank()
    torch.cuda.set_device(int(os.environ.get("LOCAL_RANK", "0")))
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    buf = torch.ones(64 << 20, device="cuda", dtype=torch.float32)  # 256 MiB per all-reduce
    end = time.time() + args.seconds
    iterations, last = 0, time.time()
    while time.time() < end:
        for _ in range(16):
            a @ b
        dist.all_reduce(buf)
        buf.fill_(1.0)
        iterations += 1
        if rank == 0 and time.time() - last > 600:
            torch.cuda.synchronize()
            print(f"PROBE burn_iterations {iterations}", flush=True)
            last = time.time()
    torch.cuda.synchronize()
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
