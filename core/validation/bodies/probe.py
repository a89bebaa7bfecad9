

def out(key, value):
    print(f"PROBE {key} {value}", flush=True)


def gemm_tflops(device, n, iters):
    a = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    b = torch.randn(n, n, device=device, dtype=torch.bfloat16)
    for _ in range(5):
        a @ b
    torch.cuda.synchronize(device)
    start = time.perf_counter()
    for _ in range(iters):
        a @ b
    torch.cuda.synchronize(device)
    seconds = time.perf_counter() - start
    del a, b
    return 2.0 * n**3 * iters / seconds / 1e12


class RMSNorm(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.weight = nn.Parameter(torch.ones(width))

    def forward(self, x):
        scale = torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + 1e-6)
        return (x.float() * scale).to(x.dtype) * self.weight


class Block(nn.Module):
    def __init__(self, p):
        super().__init__()
        h, d = p["hidden"], p["head_dim"]
        self.heads, self.kv_heads, self.head_dim = p["heads"], p["kv_heads"], d
        self.norm1, self.norm2 = RMSNorm(h), RMSNorm(h)
        self.q = nn.Linear(h, self.heads * d, bias=False)
        self.kv = nn.Linear(h, 2 * self.kv_heads * d, bias=False)
        self.o = nn.Linear(self.heads * d, h, bias=False)
        self.up = nn.Linear(h, 2 * p["ffn"], bias=False)
        self.down = nn.Linear(p["ffn"], h, bias=False)

    def forward(self, x):
        b, t, _ = x.shape
        y = self.norm1(x)
        q = self.q(y).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k, v = self.kv(y).view(b, t, 2, self.kv_heads, self.head_dim).unbind(2)
        k, v = k.transpose(1, 2), v.transpose(1, 2)
        if self.kv_heads != self.heads:
            k = k.repeat_interleave(self.heads // self.kv_heads, 1)
            v = v.repeat_interleave(self.heads // self.kv_heads, 1)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        x = x + self.o(y.transpose(1, 2).reshape(b, t, -1))
        gate, up = self.up(self.norm2(x)).chunk(2, dim=-1)
        return x + self.down(F.silu(gate) * up)


class Model(nn.Module):
    def __init__(self, p):
        super().__init__()
        self.checkpointing = p["activation_checkpointing"] and p["training"]
        self.embed = nn.Embedding(p["vocab"], p["hidden"])
        self.blocks = nn.ModuleList(Block(p) for _ in range(p["layers"]))
        self.norm = RMSNorm(p["hidden"])
        self.head = nn.Linear(p["hidden"], p["vocab"], bias=False)

    def forward(self, tokens):
        x = self.embed(tokens)
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False) if self.checkpointing else block(x)
        return self.head(self.norm(x))


def one_step(p):
    """One step of the planned model slice on GPU 0: bf16 weights and gradients, plus one
    buffer standing for the optimizer state and fp32 master weights this GPU holds."""
    torch.cuda.set_device(0)
    torch.cuda.empty_cache()
    torch.cuda.reset_peak_memory_stats()
    model = Model(p).to(device="cuda", dtype=torch.bfloat16)
    params = sum(t.numel() for t in model.parameters())
    out("step.parameters", params)
    out("step.layers", p["layers"])
    out("step.layers_planned", p["layers_planned"])
    state = None
    if p["training"]:
        state = torch.empty(int(params * p["state_bytes_per_param"]), dtype=torch.uint8, device="cuda")
    tokens = torch.randint(0, p["vocab"], (p["micro_batch"], p["sequence_length"]), device="cuda")
    seconds = 0.0
    for _ in range(2):
        torch.cuda.synchronize()
        start = time.perf_counter()
        if p["training"]:
            logits = model(tokens)
            loss = F.cross_entropy(logits.float().view(-1, logits.size(-1)), tokens.view(-1))
            del logits
            loss.backward()
            del loss
        else:
            with torch.no_grad():
                model(tokens)
        torch.cuda.synchronize()
        seconds = time.perf_counter() - start
    free, total = torch.cuda.mem_get_info()
    out("step.peak_reserved_bytes", torch.cuda.max_memory_reserved())
    out("step.device_used_bytes", total - free)
    out("step.seconds", f"{seconds:.4f}")
    out("step.tokens_per_second", f"{p['micro_batch'] * p['sequence_length'] / seconds:.1f}")
    del state


def main():
    out("torch_version", torch.__version__)
    out("cuda_version", torch.version.cuda)
    count = torch.cuda.device_count()
    out("device_count", count)
    for i in range(count):
        major, minor = torch.cuda.get_device_capability(i)
        out(f"gpu.{i}.capability", f"{major}.{minor}")
        tflops = gemm_tflops(torch.device("cuda", i), PLAN["gemm_n"], PLAN["gemm_iters"])
        out(f"gpu.{i}.gemm_tflops", f"{tflops:.1f}")
    try:
        one_step(PLAN)
        out("step.status", "ok")
    except torch.cuda.OutOfMemoryError:
        out("step.status", "oom")


if __name__ == "__main__":
    main()
