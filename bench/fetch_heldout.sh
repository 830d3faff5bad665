#!/usr/bin/env bash
# A held-out structure set nobody tuned on: PDF manuals with author outlines from Debian documentation
# packages that ../shared/corpus/fetch-more.sh does not use, picked by the same rule (20-500 pages, at least
# 20 outline entries, depth at least 2; one language of each translated manual). Score it with
# bench/structure_eval.py and read only the aggregate figures, so it stays unseen (bench/README.md).
#   bench/fetch_heldout.sh [DEST]        (default: ../heldout next to the repository; needs apt-get, ~45 MB)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${1:-$HERE/../../heldout}
PY=${PYTHON:-$HERE/../.venv/bin/python}
mkdir -p "$DEST/.debs" "$DEST/.x" "$DEST/pdf"
cd "$DEST/.debs"
pkgs="texlive-humanities-doc debmake-doc gutenprint-doc 4ti2-doc fasta3-doc euslisp-doc gri-pdf-doc expeyes-doc-en"
need=0; for p in $pkgs; do ls "${p}"_*.deb >/dev/null 2>&1 || need=1; done
if [ $need = 1 ]; then apt-get update -qq >/dev/null 2>&1 || true; apt-get download $pkgs >/dev/null 2>&1; fi
for f in *.deb; do dpkg -x "$f" "$DEST/.x"; done
"$PY" - "$DEST" <<'PY'
import gzip, os, sys
import pymupdf
dest = sys.argv[1]
skip_languages = (".ja.pdf", ".ru.pdf", ".zh-cn.pdf", ".zh-tw.pdf")  # translations of a manual already taken
picked = 0
for dirpath, _, files in sorted(os.walk(os.path.join(dest, ".x"))):
    for f in sorted(files):
        if not f.endswith((".pdf", ".pdf.gz")) or f.endswith(skip_languages):
            continue
        path = os.path.join(dirpath, f)
        data = gzip.open(path).read() if f.endswith(".gz") else open(path, "rb").read()
        try:
            doc = pymupdf.open(stream=data, filetype="pdf")
        except Exception:
            continue
        toc = doc.get_toc()
        if 20 <= doc.page_count <= 500 and len(toc) >= 20 and max(t[0] for t in toc) >= 2:
            with open(os.path.join(dest, "pdf", "debian__" + f.removesuffix(".gz")), "wb") as out:
                out.write(data)
            picked += 1
print(f"{picked} PDFs in {dest}/pdf")
PY
