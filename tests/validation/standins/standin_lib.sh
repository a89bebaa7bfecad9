# Shared by the stand-in commands: the emulated server. Sourced, not run.
# STANDIN_PROFILE  h100 | rtx4090 | l20 | a800 | h20 | l40s   (the part; default h100)
# STANDIN_SCENARIO healthy | pcie_only | throttling | old_driver | inactive_link | missing_gpu
#                  | ib_down | nccl_socket | nccl_timeout (default healthy)
#                  | persistence_off (GPUs 1, 4, 7) | mig_enabled (GPU 2) | vbios_mixed (GPU 5)
#                  | serial_duplicate (GPU 7 has GPU 0's serial)
# STANDIN_GPUS     GPU count (default: 8, or 4 for rtx4090; missing_gpu drops one)
# STANDIN_STEP_USED_BYTES  device memory used by probe.py's step (default per profile)
# STANDIN_PCIE_NARROW_GPU, STANDIN_PCIE_WIDTH  that GPU's pcie.link.width.current (default x8) in
#                  an x16 link (pcie.link.width.max 16): a link trained narrow, idle and busy
# STANDIN_ECC_GPU, STANDIN_ECC_MODE  that GPU's ecc.mode.current (Enabled | Disabled), and its
#                  memory.total in that mode (MEM_ECC_ALT: HBM the same; GDDR 1/16 less with ECC on)
# STANDIN_NAME, STANDIN_POWER_LIMIT  the name and power.limit nvidia-smi prints (another part
#                  delivered: "NVIDIA GeForce RTX 4090 D" at 425 W on a 4090 plan)
# STANDIN_NVLINK_ERRORS  "GPU:LINK:CRC:REPLAY:RECOVERY ..." counts for nvidia-smi nvlink -e
# STANDIN_REMAP    "pending:GPU" or "failure:GPU" in nvidia-smi -q -d ROW_REMAPPER
# STANDIN_NET      roce: the compute ports' link layer is Ethernet (RoCE), NCCL says /RoCE
# shellcheck shell=bash disable=SC2034
PROFILE="${STANDIN_PROFILE:-h100}"
FABRIC_STATE=Completed
SCENARIO="${STANDIN_SCENARIO:-healthy}"
case "$PROFILE" in
  h100)
    NAME="NVIDIA H100 80GB HBM3"; MEM=81559; PLIM=700.00; PMAX=700.00; GEN=5; CC=9.0; ECC=Enabled
    LINKS=18; RATE=26.562; TOPO=NV18; P2P=OK; DRIVER=570.86.10; GPUS_DEFAULT=8; GEMM=792.4
    STEP_USED=45097156608; BUSBW=371.4; TRANSPORT="via NVLS"; POWER=640; CUDA=12.8; MEM_ECC_ALT=81559 ;;
  rtx4090)
    NAME="NVIDIA GeForce RTX 4090"; MEM=24564; PLIM=450.00; PMAX=600.00; GEN=4; CC=8.9; ECC="[N/A]"
    LINKS=0; RATE=0; TOPO=PHB; P2P=NS; DRIVER=550.54.15; GPUS_DEFAULT=4; GEMM=139.6
    STEP_USED=19327352832; BUSBW=18.7; TRANSPORT="via SHM/direct/direct"; POWER=420; CUDA=12.4
    MEM_ECC_ALT=23028 ;;
  l20)
    NAME="NVIDIA L20"; MEM=46068; PLIM=350.00; PMAX=350.00; GEN=4; CC=8.9; ECC=Enabled
    LINKS=0; RATE=0; TOPO=NODE; P2P=OK; DRIVER=535.161.08; GPUS_DEFAULT=8; GEMM=97.9
    STEP_USED=41875931136; BUSBW=22.6; TRANSPORT="via P2P/CUMEM"; POWER=240; CUDA=12.8
    MEM_ECC_ALT=49140 ;;
  # HGX A800: NV8 (8 links x 25 GB/s), no NVLS, fabric state N/A as on every Ampere HGX with the
  # fabric manager running (bottlerocket PR #3873).
  a800)
    NAME="NVIDIA A800-SXM4-80GB"; MEM=81920; PLIM=400.00; PMAX=400.00; GEN=4; CC=8.0; ECC=Enabled
    LINKS=8; RATE=25; TOPO=NV8; P2P=OK; DRIVER=535.161.08; GPUS_DEFAULT=8; GEMM=268.9
    STEP_USED=8589934592; BUSBW=192.6; TRANSPORT="via P2P/CUMEM"; POWER=340; CUDA=12.8
    MEM_ECC_ALT=81920; FABRIC_STATE="N/A" ;;
  # HGX H20 96 GB: NV18 like the H100 (public H20 topo -m outputs), 500 W.
  h20)
    NAME="NVIDIA H20"; MEM=97871; PLIM=500.00; PMAX=500.00; GEN=5; CC=9.0; ECC=Enabled
    LINKS=18; RATE=26.562; TOPO=NV18; P2P=OK; DRIVER=550.127.05; GPUS_DEFAULT=8; GEMM=118.2
    STEP_USED=8589934592; BUSBW=368.9; TRANSPORT="via NVLS"; POWER=420; CUDA=12.8
    MEM_ECC_ALT=97871 ;;
  # 4x L40S on PCIe Gen4 with peer-to-peer, GDDR6 with ECC on as shipped.
  l40s)
    NAME="NVIDIA L40S"; MEM=46068; PLIM=350.00; PMAX=350.00; GEN=4; CC=8.9; ECC=Enabled
    LINKS=0; RATE=0; TOPO=NODE; P2P=OK; DRIVER=550.54.15; GPUS_DEFAULT=4; GEMM=292.1
    STEP_USED=8589934592; BUSBW=22.9; TRANSPORT="via P2P/CUMEM"; POWER=290; CUDA=12.8
    MEM_ECC_ALT=49140 ;;
  *) echo "unknown STANDIN_PROFILE $PROFILE" >&2; exit 99 ;;
esac
NAME="${STANDIN_NAME:-$NAME}"
PLIM="${STANDIN_POWER_LIMIT:-$PLIM}"
GPUS="${STANDIN_GPUS:-$GPUS_DEFAULT}"
if [ "$SCENARIO" = missing_gpu ]; then GPUS=$((GPUS - 1)); fi
if [ "$SCENARIO" = old_driver ]; then DRIVER=535.104.05; fi
STEP_USED="${STANDIN_STEP_USED_BYTES:-$STEP_USED}"
if [ "$SCENARIO" = pcie_only ]; then TOPO=SYS; BUSBW=21.3; TRANSPORT="via SHM/direct/direct"; fi
if [ "$SCENARIO" = inactive_link ]; then BUSBW=331.9; fi
if [ "$SCENARIO" = throttling ]; then GEMM_SLOW_GPU=3; else GEMM_SLOW_GPU=-1; fi

bus_id() { printf '00000000:%02X:00.0' $((0x18 + 0x10 * $1)); }
# netdev_of K: the Ethernet device of mlx5_K (a RoCE port), as udev names ConnectX ports.
netdev_of() { if [ "$1" = 8 ]; then echo eno1np0; else echo "ens1${1}np0"; fi; }
