#!/usr/bin/env python3
"""Packs the trial set that build.sh/build.py write (/tmp/dtrial/set) into
detect/testdata/trial-eval.txt.gz, the form TestEvaluationTrial reads:
one page a line, NAME LANG VARIANT SCENARIO SOURCE HTML (tab-separated; in
HTML, backslash and newline escaped as \\\\ and \\n). A boilerplate page
stores its template only: the paragraph inside <article> is the first <p>
of the paragraph page of the same name, written as {{P}}. The pages of
manpages-da's grub-probe(8) (da-065) are left out: they are Dutch."""
import gzip, os, re, sys

SET = sys.argv[1] if len(sys.argv) > 1 else "/tmp/dtrial/set"
OUT = sys.argv[2] if len(sys.argv) > 2 else "detect/testdata/trial-eval.txt.gz"
SKIP = {"para/da-065.html", "boiler/da-065.html"}
rows = [l.rstrip("\n").split("\t") for l in open(os.path.join(SET, "manifest.tsv"), encoding="utf-8")][1:]
lines = []
for name, lang, variant, scen, src, _ in rows:
    if name in SKIP:
        continue
    page = open(os.path.join(SET, name), encoding="utf-8").read()
    if scen == "boiler":
        para = open(os.path.join(SET, "para", os.path.basename(name)), encoding="utf-8").read()
        first = re.search(r"<p>.*?</p>", para, re.S).group(0)
        assert first in page, name
        page = page.replace(first, "{{P}}", 1)
    assert "\t" not in page
    lines.append("\t".join([name, lang, variant, scen, src, page.replace("\\", "\\\\").replace("\n", "\\n")]))
with open(OUT, "wb") as f:
    f.write(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), 9, mtime=0))
print(f"{OUT}: {len(lines)} pages")
