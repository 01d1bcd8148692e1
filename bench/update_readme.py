#!/usr/bin/env python3
"""Copies results/bench/README-table.md into README.md's Benchmarks section, between the markers.

Usage: update_readme.py README.md README-table.md
"""
import sys

BEGIN = "<!-- bench-table:begin (bench/run.sh rewrites this) -->"
END = "<!-- bench-table:end -->"

readme, table_path = sys.argv[1], sys.argv[2]
table = open(table_path).read().strip()
text = open(readme).read()
if BEGIN not in text or END not in text:
    sys.exit(f"update_readme.py: {readme} has no {BEGIN} ... {END} markers")
head, rest = text.split(BEGIN, 1)
tail = rest.split(END, 1)[1]
new = head + BEGIN + "\n" + table + "\n" + END + tail
tmp = readme + ".tmp"
with open(tmp, "w") as f:
    f.write(new)
import os
os.replace(tmp, readme)
