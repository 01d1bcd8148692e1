#!/usr/bin/env python3
"""Writes scenarios/data/skew-left.csv: the skew example's left shuffle (100 map tasks x 100
reducers, bytes). Reducer 0 holds ~1 GB: map 0 contributes 100 MiB, every other map 10 MiB;
every other block is 1 MiB. Deterministic; re-run to regenerate."""
import os

MIB = 1 << 20
rows = []
for m in range(100):
    row = [100 * MIB if m == 0 else 10 * MIB] + [1 * MIB] * 99
    rows.append(",".join(str(v) for v in row))
out = os.path.join(os.path.dirname(__file__), "..", "scenarios", "data", "skew-left.csv")
with open(out, "w") as f:
    f.write("\n".join(rows) + "\n")
