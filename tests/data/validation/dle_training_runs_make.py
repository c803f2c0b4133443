# Writes dle_training_runs.csv (python3 dle_training_runs_make.py dle_training_runs.csv): the rows
# transcribed from the DeepLearningExamples READMEs named in each note (README_dle_training.md).
import csv, sys
H = ("id,source,framework,model,accelerator,devices,devices_per_node,peak_tflops_half,peak_tflops_fp8,"
     "hbm_gbytes_per_s,memory_gib,link,intra_node_gbytes_per_s,inter_node_gbps,layers,hidden,heads,kv_heads,"
     "ffn_hidden,gated_mlp,vocab,seq_len,learned_positions,flash_attention,precision,tp,pp,dp,cp,schedule,"
     "virtual_stages,stage_layers,micro_batch,global_batch,zero,recompute,sequence_parallel,metric,value,note,"
     "fit,params,flops_per_sample,peak_tflops_tf32,peak_tflops_fp32,head_positions,torch_compile").split(",")
HW = {  # accelerator, per node, half, hbm, mem, link, intra, inter, tf32, fp32
 "dgxa100-80": ("A100-80GB", 8, 312, 2039, 80, "nvswitch", 300, 1600, 156, 19.5),
 "dgxa100-40": ("A100-40GB", 8, 312, 1555, 40, "nvswitch", 300, 1600, 156, 19.5),
 "dgx1-16": ("V100-16GB", 8, 125, 900, 16, "nvlink", 150, 400, "", 15.7),
 "dgx1-32": ("V100-32GB", 8, 125, 900, 32, "nvlink", 150, 400, "", 15.7),
 "dgx2-32": ("V100-32GB", 16, 125, 900, 32, "nvswitch", 150, 800, "", 15.7),
}
rows = []
def add(id_, source, fw, model, hw, devices, precision, mb, gb, value, note, fit=False,
        shape=None, head_tokens="", eager=False):
    acc, per, half, hbm, mem, link, intra, inter, tf32, fp32 = HW[hw]
    r = dict.fromkeys(H, "")
    r.update(id=id_, source=source, framework=fw, model=model, accelerator=acc, devices=devices,
             devices_per_node=min(per, devices), peak_tflops_half=half, hbm_gbytes_per_s=hbm,
             memory_gib=mem, link=link, intra_node_gbytes_per_s=intra, inter_node_gbps=inter,
             precision=precision, tp=1, pp=1, dp=devices, cp=1, schedule="1f1b", micro_batch=mb,
             global_batch=gb, zero=0, recompute="none", sequence_parallel="false",
             metric="samples_per_s", value=value, note=note, fit="true" if fit else "false",
             peak_tflops_tf32=tf32, peak_tflops_fp32=fp32, head_positions=head_tokens,
             torch_compile="false" if eager else "")
    if shape is None:  # ResNet-50 v1.5, the resnet50 preset (resources/presets/models.json)
        r.update(params=2.56e7, flops_per_sample=2.45e10)
    else:
        r.update(shape)
    rows.append(r)

P = "NVIDIA DLE PyTorch ResNet-50 v1.5"
pn = "pytorch-21.03; DeepLearningExamples PyTorch/Classification/ConvNets/resnet50v1.5/README.md (7bdfc81d; unchanged at 729963dd) Training performance"
add("rn50-pyt-a100-80-1-amp", P, "", "ResNet-50 v1.5", "dgxa100-80", 1, "fp16", 256, 256, 2470, pn + "; source of kGenericComputeFractionHalf", fit=True)
add("rn50-pyt-a100-80-8-amp", P, "", "ResNet-50 v1.5", "dgxa100-80", 8, "fp16", 256, 2048, 16621, pn)
add("rn50-pyt-a100-80-1-tf32", P, "", "ResNet-50 v1.5", "dgxa100-80", 1, "tf32", 256, 256, 938, pn + "; source of kGenericComputeFractionTf32", fit=True)
add("rn50-pyt-a100-80-8-tf32", P, "", "ResNet-50 v1.5", "dgxa100-80", 8, "tf32", 256, 2048, 7248, pn)
add("rn50-pyt-v100-16-1-amp", P, "", "ResNet-50 v1.5", "dgx1-16", 1, "fp16", 256, 256, 1200, pn + "; source of kGenericComputeFractionHalf", fit=True)
add("rn50-pyt-v100-16-8-amp", P, "", "ResNet-50 v1.5", "dgx1-16", 8, "fp16", 256, 2048, 8322, pn)
add("rn50-pyt-v100-16-1-fp32", P, "", "ResNet-50 v1.5", "dgx1-16", 1, "fp32", 112, 112, 367, pn + "; source of kGenericComputeFractionFp32", fit=True)
add("rn50-pyt-v100-16-8-fp32", P, "", "ResNet-50 v1.5", "dgx1-16", 8, "fp32", 112, 896, 2855, pn)
add("rn50-pyt-v100-32-1-amp", P, "", "ResNet-50 v1.5", "dgx1-32", 1, "fp16", 256, 256, 1156, pn)
add("rn50-pyt-v100-32-8-amp", P, "", "ResNet-50 v1.5", "dgx1-32", 8, "fp16", 256, 2048, 8056, pn)
add("rn50-pyt-v100-32-1-fp32", P, "", "ResNet-50 v1.5", "dgx1-32", 1, "fp32", 112, 112, 356, pn)
add("rn50-pyt-v100-32-8-fp32", P, "", "ResNet-50 v1.5", "dgx1-32", 8, "fp32", 112, 896, 2766, pn)

T = "NVIDIA DLE TensorFlow ResNet-50 v1.5"
tn = "20.06-tf1 + XLA, Horovod; DeepLearningExamples TensorFlow/Classification/ConvNets/resnet50v1.5/README.md (b2e7f4a2; unchanged at 729963dd) Training performance"
add("rn50-tf-a100-40-1-amp", T, "", "ResNet-50 v1.5", "dgxa100-40", 1, "fp16", 256, 256, 2375, tn)
add("rn50-tf-a100-40-8-amp", T, "", "ResNet-50 v1.5", "dgxa100-40", 8, "fp16", 256, 2048, 17400, tn)
add("rn50-tf-a100-40-1-tf32", T, "", "ResNet-50 v1.5", "dgxa100-40", 1, "tf32", 256, 256, 909, tn)
add("rn50-tf-a100-40-8-tf32", T, "", "ResNet-50 v1.5", "dgxa100-40", 8, "tf32", 256, 2048, 7000, tn)
add("rn50-tf-v100-16-1-amp", T, "", "ResNet-50 v1.5", "dgx1-16", 1, "fp16", 256, 256, 1270, tn)
add("rn50-tf-v100-16-8-amp", T, "", "ResNet-50 v1.5", "dgx1-16", 8, "fp16", 256, 2048, 9510, tn)
add("rn50-tf-v100-16-1-fp32", T, "", "ResNet-50 v1.5", "dgx1-16", 1, "fp32", 128, 128, 412, tn)
add("rn50-tf-v100-16-8-fp32", T, "", "ResNet-50 v1.5", "dgx1-16", 8, "fp32", 128, 1024, 3170, tn)
add("rn50-tf-dgx2-1-amp", T, "", "ResNet-50 v1.5", "dgx2-32", 1, "fp16", 256, 256, 1300, tn)
add("rn50-tf-dgx2-16-amp", T, "", "ResNet-50 v1.5", "dgx2-32", 16, "fp16", 256, 4096, 17250, tn)
add("rn50-tf-dgx2-1-fp32", T, "", "ResNet-50 v1.5", "dgx2-32", 1, "fp32", 128, 128, 432, tn)
add("rn50-tf-dgx2-16-fp32", T, "", "ResNet-50 v1.5", "dgx2-32", 16, "fp32", 128, 2048, 6500, tn)

M = "NVIDIA DLE MXNet ResNet-50 v1.5"
mn_a = "mxnet-22.10, DALI, Horovod; DeepLearningExamples MxNet/Classification/RN50v1.5/README.md (1bd98ac3; unchanged at 729963dd) Training performance, Total IPS"
mn_v = "mxnet-20.12, DALI, Horovod; DeepLearningExamples MxNet/Classification/RN50v1.5/README.md (8c42220b; unchanged at 729963dd) Training performance, Total IPS"
for n, amp, tf32 in [(1, 3410.52, 1055.78), (4, 13442.66, 4182.30), (8, 26673.72, 8247.44)]:
    add(f"rn50-mx-a100-80-{n}-amp", M, "", "ResNet-50 v1.5", "dgxa100-80", n, "fp16", 512, 512 * n, amp, mn_a)
    add(f"rn50-mx-a100-80-{n}-tf32", M, "", "ResNet-50 v1.5", "dgxa100-80", n, "tf32", 512, 512 * n, tf32, mn_a)
for n, amp, fp32 in [(1, 1376, 384), (2, 2768, 763), (4, 5357, 1513), (8, 10723, 3005)]:
    add(f"rn50-mx-v100-16-{n}-amp", M, "", "ResNet-50 v1.5", "dgx1-16", n, "fp16", 192, 192 * n, amp, mn_v)
    add(f"rn50-mx-v100-16-{n}-fp32", M, "", "ResNet-50 v1.5", "dgx1-16", n, "fp32", 96, 96 * n, fp32, mn_v)
for n, amp, fp32 in [(1, 1492, 417), (2, 2935, 821), (4, 5726, 1623), (8, 11368, 3223), (16, 21484, 6338)]:
    add(f"rn50-mx-dgx2-{n}-amp", M, "", "ResNet-50 v1.5", "dgx2-32", n, "fp16", 256, 256 * n, amp, mn_v)
    add(f"rn50-mx-dgx2-{n}-fp32", M, "", "ResNet-50 v1.5", "dgx2-32", n, "fp32", 128, 128 * n, fp32, mn_v)

D = "NVIDIA DLE PaddlePaddle ResNet-50 v1.5"
dn = "PaddlePaddle NGC container (23.x), DALI, NHWC; DeepLearningExamples PaddlePaddle/Classification/RN50v1.5/README.md (fc9c09b0; unchanged at 729963dd) Training performance; batch 256 (train.py default)"
add("rn50-pd-a100-80-1-amp", D, "", "ResNet-50 v1.5", "dgxa100-80", 1, "fp16", 256, 256, 2897, dn)
add("rn50-pd-a100-80-8-amp", D, "", "ResNet-50 v1.5", "dgxa100-80", 8, "fp16", 256, 2048, 23874, dn)
add("rn50-pd-a100-80-1-tf32", D, "", "ResNet-50 v1.5", "dgxa100-80", 1, "tf32", 256, 256, 1024, dn)
add("rn50-pd-a100-80-8-tf32", D, "", "ResNet-50 v1.5", "dgxa100-80", 8, "tf32", 256, 2048, 8013, dn)

B = "NVIDIA DLE PyTorch BERT-large"
bn = "pytorch:21.11 NGC; DeepLearningExamples PyTorch/LanguageModeling/BERT/README.md (a9e2c1d5; unchanged at 729963dd)"
def bert(seq, vocab=30522):
    return dict(layers=24, hidden=1024, heads=16, kv_heads=16, ffn_hidden=4096, gated_mlp="false",
                vocab=vocab, seq_len=seq, learned_positions="true", flash_attention="false")
# Pre-training phase 1 (seq 128, 20 masked tokens) and phase 2 (seq 512, 80), single node.
for n in (1, 8):
    for seq, prec, mb, acc, v, masked in [(128, "tf32", 128, 8192, 317 if n == 1 else 2505, 20),
                                         (128, "fp16", 256, 8192, 580 if n == 1 else 4591, 20),
                                         ]:
        add(f"bert-pyt-a100-80-{n}-p{1 if seq == 128 else 2}-{prec}", B, "megatron-lm", "BERT-large",
            "dgxa100-80", n, prec, mb, acc * n, v,
            bn + "; Pre-training NVIDIA DGX A100 (8x A100 80GB); MLM head over the 20 masked positions only (dense_sequence_output; head_positions 20)", shape=bert(seq), head_tokens=masked)
# Multi-node scaling (same table's config; TF32 batch printed 126, the single-node 128 taken: 8192 / 126 is not whole).
mn_rows = [(1, 8192, 4553, 2486, 4096, 1648, 854), (2, 4096, 9191, 4979, 2048, 3291, 1684),
           (4, 2048, 18119, 9859, 1024, 6464, 3293), (8, 1024, 35774, 19815, 512, 13005, 6515),
           (16, 512, 70555, 38866, 256, 25570, 12131), (32, 256, 138294, 75706, 128, 49663, 21298)]
for nodes, acc1, amp1, tf1, acc2, amp2, tf2 in mn_rows:
    if nodes == 1: continue  # the single-node rows above
    g = 8 * nodes
    note = bn + "; Pre-training NVIDIA DGX A100 (8x A100 80GB) Multi-node Scaling; MLM head over the 20 masked positions only"
    add(f"bert-pyt-a100-80-{g}-p1-fp16", B, "megatron-lm", "BERT-large", "dgxa100-80", g, "fp16", 256, acc1 * g, amp1, note, shape=bert(128), head_tokens=20)
    add(f"bert-pyt-a100-80-{g}-p1-tf32", B, "megatron-lm", "BERT-large", "dgxa100-80", g, "tf32", 128, acc1 * g, tf1, note, shape=bert(128), head_tokens=20)
# SQuAD v1.1 fine-tuning, sequence 384 (run_squad.sh), span head: 2 outputs per token, no
# vocabulary head (head_positions 0).
for n, tf32, amp in [(1, 61.5, 110.5), (8, 469.8, 846.7)]:
    note = bn + "; Fine-tuning NVIDIA DGX A100 (8x A100 80GB), SQuAD v1.1, sequence 384"
    add(f"bert-pyt-a100-80-{n}-squad-tf32", B, "megatron-lm", "BERT-large", "dgxa100-80", n, "tf32", 32, 32 * n, tf32, note, shape=bert(384), head_tokens=0, eager=True)
    add(f"bert-pyt-a100-80-{n}-squad-fp16", B, "megatron-lm", "BERT-large", "dgxa100-80", n, "fp16", 32, 32 * n, amp, note, shape=bert(384), head_tokens=0, eager=True)
vn = bn + "; Pre-training NVIDIA DGX-1 With 32G (accumulated batch 4096 per GPU); MLM head over the 20 masked positions only"
for n, fp32_1, amp_1, fp32_2, amp_2 in [(1, 50, 224, 19, 75), (8, 387, 1746, 149.6, 586)]:
    # The single-GPU FP32 row is the one kBestGemmFractionSimtFp32 is fitted on.
    add(f"bert-pyt-v100-32-{n}-p1-fp32", B, "megatron-lm", "BERT-large", "dgx1-32", n, "fp32", 32, 4096 * n, fp32_1,
        vn + ("; source of kBestGemmFractionSimtFp32" if n == 1 else ""), fit=n == 1, shape=bert(128), head_tokens=20)
    add(f"bert-pyt-v100-32-{n}-p1-fp16", B, "megatron-lm", "BERT-large", "dgx1-32", n, "fp16", 64, 4096 * n, amp_1, vn, shape=bert(128), head_tokens=20)
for n, fp32, amp in [(1, 12, 52), (8, 85.5, 382)]:
    note = bn + "; Fine-tuning NVIDIA DGX-1 With 32G, SQuAD v1.1, sequence 384"
    add(f"bert-pyt-v100-32-{n}-squad-fp32", B, "megatron-lm", "BERT-large", "dgx1-32", n, "fp32", 8, 8 * n, fp32, note, shape=bert(384), head_tokens=0, eager=True)
    add(f"bert-pyt-v100-32-{n}-squad-fp16", B, "megatron-lm", "BERT-large", "dgx1-32", n, "fp16", 16, 16 * n, amp, note, shape=bert(384), head_tokens=0, eager=True)

# torch_compile false (eager pointwise kernels, transformer_work.cpp): run_squad.py never scripts
# the model, and run_pretraining.py scripts it with NVFuser only from a9e2c1d5 (pytorch:21.11), so
# the SQuAD rows and every 20.06 row run BERT's pointwise ops one kernel each.
# pytorch:20.06-py3 tables (README.md at 78ec6802, the last version before a9e2c1d5 replaced
# them): fixed-length sequences (no LDDL binning), MLM head over every position, apex AMP O2 and
# apex DDP with the all-reduce after accumulation. Global batch 65536 (phase 1) / 32768 (phase 2)
# at every GPU count; micro-batch = per-GPU batch / accumulation steps.
O = "NVIDIA DLE PyTorch BERT-large (20.06)"
on = "pytorch:20.06-py3 NGC; DeepLearningExamples PyTorch/LanguageModeling/BERT/README.md at 78ec6802 (tables replaced at a9e2c1d5)"
def bert_2006(hw, label, lo, hi, lo_name, p1, p2, squad, lo_mb, unused, squad_mb):
    # p1 / p2 / squad: [(gpus, throughput lo precision, throughput hi precision)]
    for phase, seq, rows_, gb, mbs in [(1, 128, p1, (65232 if lo == "tf32" else 65536, 65536), lo_mb[0:2]),
                                        (2, 512, p2, (32768, 32768), lo_mb[2:4])]:
        for n, vlo, vhi in rows_:
            add(f"bert-pyt2006-{label}-{n}-p{phase}-{lo}", O, "megatron-lm", "BERT-large", hw, n, lo, mbs[0], gb[0], vlo, on + f"; {table_name[label]}", shape=bert(seq), eager=True)
            add(f"bert-pyt2006-{label}-{n}-p{phase}-fp16", O, "megatron-lm", "BERT-large", hw, n, "fp16", mbs[1], gb[1], vhi, on + f"; {table_name[label]}", shape=bert(seq), eager=True)
    for n, vlo, vhi in squad:
        add(f"bert-pyt2006-{label}-{n}-squad-{lo}", O, "megatron-lm", "BERT-large", hw, n, lo, squad_mb[0], squad_mb[0] * n, vlo, on + f"; Fine-tuning {table_name[label]}, SQuAD, sequence 384", shape=bert(384), head_tokens=0, eager=True)
        add(f"bert-pyt2006-{label}-{n}-squad-fp16", O, "megatron-lm", "BERT-large", hw, n, "fp16", squad_mb[1], squad_mb[1] * n, vhi, on + f"; Fine-tuning {table_name[label]}, SQuAD, sequence 384", shape=bert(384), head_tokens=0, eager=True)
table_name = {"a100-40": "Pre-training NVIDIA DGX A100 (8x A100 40GB)", "dgx2": "Pre-training NVIDIA DGX-2 With 32G",
              "v100-32": "Pre-training NVIDIA DGX-1 With 32G", "v100-16": "Pre-training NVIDIA DGX-1 With 16G"}
# micro-batches: (phase-1 lo, phase-1 fp16, phase-2 lo, phase-2 fp16)
bert_2006("dgxa100-40", "a100-40", "tf32", "fp16", "TF32",
          [(1, 234, 415), (4, 910, 1618), (8, 1777, 3231)], [(1, 41, 78), (4, 159, 308), (8, 318, 620)],
          [(1, 44, 116), (4, 165, 441), (8, 324, 861)], (54, 64, 8, 16), None, (16, 32))
bert_2006("dgx2-32", "dgx2", "fp32", "fp16", "FP32",
          [(1, 42, 173), (4, 166, 669), (8, 330, 1324), (16, 658, 2557)],
          [(1, 10, 36), (4, 37, 137), (8, 75, 273), (16, 150, 551)],
          [(1, 12, 53), (4, 47, 188), (8, 92, 369), (16, 178, 700)], (8, 16, 2, 4), None, (8, 10))
bert_2006("dgx1-32", "v100-32", "fp32", "fp16", "FP32",
          [(1, 40, 158), (4, 157, 625), (8, 317, 1203)], [(1, 9, 33), (4, 35, 130), (8, 72, 262)],
          [(1, 12, 49), (4, 42, 178), (8, 67, 351)], (8, 16, 2, 4), None, (8, 10))
bert_2006("dgx1-16", "v100-16", "fp32", "fp16", "FP32",
          [(1, 40, 164), (4, 155, 615), (8, 313, 1236)], [(1, 9, 34), (4, 35, 131), (8, 71, 263)],
          [(1, 9, 50), (4, 32, 183), (8, 61, 359)], (8, 16, 2, 4), None, (4, 10))

w = csv.DictWriter(open(sys.argv[1], "w", newline=""), fieldnames=H, lineterminator="\n")
w.writeheader()
for r in rows:
    w.writerow(r)
print(len(rows), "rows")
