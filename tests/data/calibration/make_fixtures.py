#!/usr/bin/env python3
"""Re-renders measured rows of tests/data/validation/nccl_allreduce/a100_8gpu.csv (vTrain,
see ../validation/README.md) in nccl-tests' text and -J JSON layouts (column widths and
number formatting as nccl-tests src/util.cu prints them), so the importers are tested on the
real formats with known values. Run from this directory; the outputs are committed."""
import csv, json

ROWS = []
with open('../validation/nccl_allreduce/a100_8gpu.csv') as f:
    rd = csv.reader(f); next(rd)
    for r in rd:
        size = int(r[0])
        if size & (size - 1) == 0:  # powers of two: 1 MiB .. 1 GiB
            ROWS.append((size, int(r[1]), r[2], float(r[3]) / 1000, float(r[4]), float(r[5]) / 1000, float(r[6])))

def fstr(value, width):
    power, val = 0, 1
    while value >= val:
        power += 1; val *= 10
    if power < width - 2: return '%*.2f' % (width, value)
    if power < width - 1: return '%*.1f' % (width, value)
    if power < width + 1: return '%*.0f' % (width, value)
    return '%*.1e' % (width, value)

def algbw(size, t_us): return size / (t_us * 1e3)

# nccl-tests prints busbw = algbw x 2(n-1)/n from the same time it prints (all_reduce, 8 ranks).
# The CSV's busbw differs from its own time by up to 0.04 % in about a fifth of its rows (beyond
# the printed digits: vTrain's table is not one nccl-tests output), so the logs carry the busbw
# nccl-tests would print for each measured time.
def busbw(size, t_us): return algbw(size, t_us) * 2 * 7 / 8

def rank_lines(new):
    out = []
    for r in range(8):
        bus = [0x07, 0x0f, 0x47, 0x4e, 0x87, 0x90, 0xb7, 0xbd][r]
        if new:
            out.append('#  Rank %2d Group %2d Pid %6d on %10s device %2d [%04x:%02x:%02x] %s' % (r, 0, 41230, 'dgx-a100-01', r, 0, bus, 0, 'NVIDIA A100-SXM4-80GB'))
        else:
            out.append('#  Rank %2d Pid %6d on %10s device %2d [0x%02x] %s' % (r, 41230, 'dgx-a100-01', r, bus, 'NVIDIA A100-SXM4-80GB'))
    return out

def text_new():
    L = ['# nccl-tests version 2.17.1 nccl-headers=22703 nccl-library=22703',
         '# Collective test starting: all_reduce_perf',
         '# nThread 1 nGpus 8 minBytes 1048576 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0 unalign: 0',
         '#', '# Using devices'] + rank_lines(True)
    L.append('dgx-a100-01:41230:41230 [0] NCCL INFO NCCL_ALGO set by environment to Ring')
    L.append('#')
    L.append('# %10s  %12s  %8s  %6s  %6s           out-of-place                       in-place          ' % ('', '', '', '', ''))
    L.append('# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s ' % ('size', 'count', 'type', 'redop', 'root', 'time', 'algbw', 'busbw', '#wrong', 'time', 'algbw', 'busbw', '#wrong'))
    L.append('# %10s  %12s  %8s  %6s  %6s  %7s  %6s  %6s  %6s  %7s  %6s  %6s  %6s ' % ('(B)', '(elements)', '', '', '', '(us)', '(GB/s)', '(GB/s)', '', '(us)', '(GB/s)', '(GB/s)', ''))
    bws = []
    for size, count, typ, t0, b0, t1, b1 in ROWS:
        line = '%12li  %12li  %8s  %6s  %6s' % (size, count, typ, 'sum', '%6i' % -1)
        line += '  %7s  %6s  %6s  %6g' % (fstr(t0, 7), fstr(algbw(size, t0), 6), fstr(busbw(size, t0), 6), 0)
        line += '  %7s  %6s  %6s  %6g' % (fstr(t1, 7), fstr(algbw(size, t1), 6), fstr(busbw(size, t1), 6), 0)
        L.append(line); bws += [busbw(size, t0), busbw(size, t1)]
    L.append('# %-20s : %d %s' % ('Out of bounds values', 0, 'OK'))
    L.append('# %-20s : %g %s' % ('Avg bus bandwidth', sum(bws) / len(bws), ''))
    L.append('#'); L.append('# Collective test concluded: all_reduce_perf'); L.append('#')
    return '\n'.join(L) + '\n'

def text_old():
    # nccl-tests 2.10-era layout: no root column, no test-name line.
    L = ['# nThread 1 nGpus 8 minBytes 1048576 maxBytes 1073741824 step: 2(factor) warmup iters: 5 iters: 20 agg iters: 1 validation: 1 graph: 0',
         '#', '# Using devices'] + rank_lines(False)
    L.append('#')
    L.append('#                                                              out-of-place                       in-place          ')
    L.append('#       size         count      type   redop     time   algbw   busbw #wrong     time   algbw   busbw #wrong')
    L.append('#        (B)    (elements)                       (us)  (GB/s)  (GB/s)            (us)  (GB/s)  (GB/s)       ')
    for size, count, typ, t0, b0, t1, b1 in ROWS:
        L.append('%12i  %12i  %8s  %6s  %7.2f  %6.2f  %6.2f  %6i  %7.2f  %6.2f  %6.2f  %6i' % (size, count, typ, 'sum', t0, algbw(size, t0), busbw(size, t0), 0, t1, algbw(size, t1), busbw(size, t1), 0))
    L.append('# Out of bounds values : 0 OK')
    L.append('# Avg bus bandwidth    : 150.123 ')
    L.append('#')
    return '\n'.join(L) + '\n'

def json_doc():
    res = []
    for size, count, typ, t0, b0, t1, b1 in ROWS:
        res.append({'size': size, 'count': count, 'type': typ, 'redop': 'sum', 'root': '    -1',
                    'out_of_place': {'time': t0, 'alg_bw': round(algbw(size, t0), 6), 'bus_bw': round(busbw(size, t0), 2), 'nwrong': 0.0},
                    'in_place': {'time': t1, 'alg_bw': round(algbw(size, t1), 6), 'bus_bw': round(busbw(size, t1), 2), 'nwrong': 0.0},
                    'actual_iterations': 20, 'experiment_name': ''})
    return {'version': 2, 'start_time': '2025-06-01 10:00:00', 'args': ['./build/all_reduce_perf', '-b', '1M', '-e', '1G', '-f', '2', '-g', '8', '-J', 'ar.json'],
            'env': ['NCCL_ALGO=Ring'], 'nccl_version': 22703,
            'config': {'nthreads': 1, 'ngpus': 8, 'minimum_bytes': 1048576, 'maximum_bytes': 1073741824, 'step_factor': 2,
                       'warmup_iters': 5, 'iterations': 20, 'aggregated_iterations': 1, 'validation': 1, 'graph': 0,
                       'blocking_collectives': 'false', 'per_iter_timing': 'false', 'parallel_init': 'false',
                       'devices': [{'rank': 0, 'group': 0, 'pid': 41230, 'hostname': 'dgx-a100-01', 'device': 0,
                                    'device_hex': '0000:07:00', 'device_info': 'NVIDIA A100-SXM4-80GB'}]},
            'results': res, 'out_of_bounds': {'count': 0, 'okay': 'true'},
            'average_bus_bandwidth': {'bandwidth': 150.123, 'okay': 'unchecked'}, 'errors': [], 'end_time': '2025-06-01 10:01:00'}

open('nccl_tests_allreduce_a100x8.txt', 'w').write(text_new())
open('nccl_tests_allreduce_a100x8_old.txt', 'w').write(text_old())
open('nccl_tests_allreduce_a100x8.json', 'w').write(json.dumps(json_doc(), separators=(',', ':')))

def probe_doc():
    """A clusterplan.probe/1 document for parser tests. NCCL rows are the measured a100_8gpu rows
    above; GEMM, membw, PCIe and P2P figures are ILLUSTRATIVE (plausible A100 values, not a
    measurement) because no GPU was available when the fixture was written."""
    gemm = []
    for prec, peak in (('fp32', 19.5), ('tf32', 156.0), ('fp16', 312.0), ('bf16', 312.0)):
        for (m, n, k), eff in (((1024, 1024, 1024), 0.45), ((4096, 4096, 4096), 0.80), ((8192, 8192, 8192), 0.87),
                               ((2048, 12288, 4096), 0.83)):
            flops = 2.0 * m * n * k
            tflops = round(peak * eff, 3)
            gemm.append({'precision': prec, 'm': m, 'n': n, 'k': k, 'flops': flops, 'time_s': flops / (tflops * 1e12),
                         'tflops': tflops, 'algorithms_tried': 8, 'iterations': 20})
    nccl = []
    for size, count, typ, t0, b0, t1, b1 in ROWS:
        nccl.append({'collective': 'all_reduce', 'bytes': size, 'count': count, 'type': typ, 'time_us': t0,
                     'algbw_gbytes_per_s': round(algbw(size, t0), 4), 'busbw_gbytes_per_s': b0, 'correct': True})
    gpus = [{'index': i, 'name': 'NVIDIA A100-SXM4-80GB', 'uuid': 'GPU-0000000%d' % i, 'compute_capability': '8.0',
             'sm_count': 108, 'sm_clock_mhz': 1410, 'memory_clock_mhz': 1593, 'memory_bus_bits': 5120,
             'memory_bytes': 85899345920, 'pci_bus_id': '0000:%02x:00.0' % b, 'numa_node': i // 4}
            for i, b in enumerate([0x07, 0x0f, 0x47, 0x4e, 0x87, 0x90, 0xb7, 0xbd])]
    return {'schema': 'clusterplan.probe/1',
            'tool': {'name': 'clusterplan-probe', 'version': '0.1.0'},
            'command': 'all', 'started_at': '2026-11-20T10:00:00Z', 'finished_at': '2026-11-20T10:04:12Z',
            'host': {'hostname': 'dgx-a100-01', 'kernel': '6.1.0-27-amd64', 'glibc': '2.36'},
            'versions': {'driver': '580.65.06', 'cuda_driver': '13.0', 'cuda_runtime': '13.0', 'nccl': '2.27.3', 'cublaslt': '130000'},
            'launch': {'rank': 0, 'world_size': 1, 'local_rank': 0, 'launcher': 'single'},
            'gpus': gpus, 'p2p_access': [[i != j for j in range(8)] for i in range(8)], 'nics': [],
            'gemm': {'unit': 'TFLOP/s', 'flops_convention': '2*m*n*k', 'results': gemm, 'skipped': [{'precision': 'fp8', 'reason': 'compute capability 8.0 has no FP8 tensor cores'}]},
            'membw': {'unit': 'GB/s', 'byte_convention': 'bytes read + bytes written', 'results': [
                {'device': 0, 'kernel': 'copy', 'bytes': 2 * 2**30, 'time_s': 2 * 2**30 / 1.62e12, 'gbytes_per_s': 1620.0},
                {'device': 0, 'kernel': 'triad', 'bytes': 3 * 2**30, 'time_s': 3 * 2**30 / 1.65e12, 'gbytes_per_s': 1650.0}]},
            'pcie': {'unit': 'GB/s', 'results': [
                {'device': 0, 'direction': 'h2d', 'bytes': 2**30, 'time_s': 2**30 / 24.5e9, 'gbytes_per_s': 24.5},
                {'device': 0, 'direction': 'd2h', 'bytes': 2**30, 'time_s': 2**30 / 25.1e9, 'gbytes_per_s': 25.1}]},
            'p2p': {'unit': 'GB/s', 'results': [
                {'src': 0, 'dst': 1, 'mode': 'unidirectional', 'bytes': 2**30, 'time_s': 2**30 / 260e9, 'gbytes_per_s': 260.0},
                {'src': 0, 'dst': 1, 'mode': 'bidirectional', 'bytes': 2**31, 'time_s': 2**31 / 480e9, 'gbytes_per_s': 480.0}]},
            'nccl': {'ranks': 8, 'nodes': 1, 'hosts': ['dgx-a100-01'], 'algo': '', 'proto': '', 'type': 'float',
                     'convention': 'nccl-tests: algbw = bytes/time, busbw = algbw * factor', 'results': nccl},
            'errors': []}

doc = probe_doc()
open('probe_a100x8_example.json', 'w').write(json.dumps(doc, indent=1) + '\n')
bad = probe_doc(); bad['nccl']['results'][2]['time_us'] = -5
open('malformed_probe_negative_time.json', 'w').write(json.dumps(bad, indent=1) + '\n')
bad = probe_doc(); bad['schema'] = 'clusterplan.probe/9'
open('malformed_probe_schema.json', 'w').write(json.dumps(bad, indent=1) + '\n')
# A run whose NCCL section failed: status, per-section outcome and errors as the probe writes
# them; the GEMM/membw rows that did run are kept.
failed = probe_doc()
failed['nccl']['results'] = []
failed['status'] = 'partial'
failed['sections'] = [{'name': 'info', 'status': 'ok', 'errors': []},
                      {'name': 'nccl', 'status': 'failed',
                       'errors': ['communicator initialisation did not complete within 300 s: a peer is '
                                  'missing or cannot reach NCCL_COMM_ID=node-a:29517']},
                      {'name': 'gemm', 'status': 'ok', 'errors': []}]
failed['errors'] = ['nccl: ' + failed['sections'][1]['errors'][0]]
open('probe_failed_nccl.json', 'w').write(json.dumps(failed, indent=1) + '\n')
# Two p4d hosts whose NCCL fell back to TCP sockets (no EFA), DMI naming the instance type.
sock = probe_doc()
sock['host'].update({'sys_vendor': 'Amazon EC2', 'product_name': 'p4d.24xlarge', 'instance_type': 'p4d.24xlarge'})
sock['nccl'].update({'ranks': 16, 'nodes': 2, 'processes': 2, 'gpus_per_process': 8,
                     'transport': {'kind': 'socket', 'network': 'Socket', 'provider': ''}})
sock['status'] = 'ok'
sock['sections'] = [{'name': 'info', 'status': 'ok', 'errors': []}, {'name': 'nccl', 'status': 'ok', 'errors': []}]
open('probe_p4d_2node_socket.json', 'w').write(json.dumps(sock, indent=1) + '\n')

# Broken variants of the text log, one defect each.
good = text_new()
lines = good.split('\n')
def variant(name, fn):
    open(name, 'w').write('\n'.join(fn(list(lines))))
def truncate_row(L):
    i = next(i for i, l in enumerate(L) if l.lstrip().startswith('134217728'))
    L[i] = L[i][:L[i].index('115.51') + 6]; return L
def bad_number(L):
    i = next(i for i, l in enumerate(L) if l.lstrip().startswith('268435456'))
    L[i] = L[i].replace('  2162.30 ', ' 2162.3x ', 1); return L
def wrong_elements(L):
    i = next(i for i, l in enumerate(L) if l.lstrip().startswith('536870912'))
    L[i] = L[i].replace('224.15       0', '224.15      17', 1); return L
variant('malformed_truncated_row.txt', truncate_row)
variant('malformed_bad_number.txt', bad_number)
variant('malformed_wrong_elements.txt', wrong_elements)
variant('malformed_no_header.txt', lambda L: [l for l in L if not l.startswith('#       size')])
variant('unnamed_collective.txt', lambda L: [l for l in L if 'Collective test' not in l])
d = json_doc(); d['results'][3]['out_of_place']['time'] = 'fast'
open('malformed_json_field.json', 'w').write(json.dumps(d))
open('malformed_json_truncated.json', 'w').write(json.dumps(json_doc(), separators=(',', ':'))[:500])
