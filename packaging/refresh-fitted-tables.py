#!/usr/bin/env python3
"""Rewrites the committed fitted tables from what the validation tests print when the fixtures or
the model change: framework_factors.cpp (kFitted), prediction_interval_table.cpp and the three
serving_interval_table.cpp tables. Usage: packaging/refresh-fitted-tables.py [ROOT]; then rebuild
(sim_validation_tests, serving_tests) and run it again until it prints "changed: []"."""
import re, subprocess, sys, os
root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
b = os.path.join(root, 'build/ci/tests')
env = dict(os.environ, QT_QPA_PLATFORM='offscreen')
def run(binary, test):
    p = subprocess.run([os.path.join(b, binary), test, '-s'], capture_output=True, text=True, env=env)
    return p.stdout
changed = []
# 1 framework factors
out = run('sim/sim_validation_tests', '*leave-one-source-out error per source*')
m = re.search(r'fitted factor table \(paste into [^\n]*\):\n((?:    \{[^\n]*\},\n)+)', out)
if m:
    rows = [l.strip() for l in m.group(1).splitlines()]
    f = os.path.join(root, 'sim/src/engine/framework_factors.cpp')
    s = open(f).read()
    s2 = re.sub(r'(const FactorTable kFitted\{\{\n)(.*?)(\n\}\};)', lambda mm: mm.group(1) + '\n'.join('    ' + r for r in rows) + mm.group(3), s, flags=re.S)
    open(f, 'w').write(s2); changed.append(f)
for l in out.splitlines():
    if 'fitted Transformer' in l or 'fitted compute slowdown' in l: print(l)
# 2 prediction interval
out = run('sim/sim_validation_tests', 'the committed residual buckets are the fixtures*')
m = re.search(r'residual buckets \(measured/predicted step time[^\n]*\n((?:        \{[^\n]*\},\n)+)', out)
if m:
    f = os.path.join(root, 'sim/src/validation/prediction_interval_table.cpp')
    s = open(f).read()
    s2 = re.sub(r'(// family, generation, runs[^\n]*\n)((?:        \{[^\n]*\},\n)+)', lambda mm: mm.group(1) + m.group(1), s)
    if s2 != s: open(f, 'w').write(s2); changed.append(f)
# 3 serving
out = run('serving/serving_tests', 'the committed serving residual tables*')
f = os.path.join(root, 'sim/src/validation/serving_interval_table.cpp')
s = open(f).read(); s0 = s
for fig in ('throughput', 'ttft', 'step'):
    m = re.search(r'serving residual buckets, ' + fig + r' [^\n]*\n((?:        \{[^\n]*\},\n)*)', out)
    if not m: continue
    s = re.sub(r'(static const std::vector<ResidualBucket> ' + fig + r' = \{\n)((?:        \{[^\n]*\},\n)*)', lambda mm: mm.group(1) + m.group(1), s)
if s != s0: open(f, 'w').write(s); changed.append(f)
ff = [c for c in changed if 'framework_factors' in c]
if ff: subprocess.run(['clang-format', '-i'] + ff)
print('changed:', changed)
