#!/usr/bin/env bash
# A second structure-development set ("dev2"): PDF manuals with author outlines from Debian documentation
# packages that neither ../shared/corpus/fetch-more.sh nor bench/fetch_heldout.sh uses, picked by the same rule
# (20-500 pages, at least 20 outline entries, depth at least 2; one language and one paper format of each
# translated manual; at most 15 from any one package so no single style dominates). Toolchains: texinfo (R,
# bash, SBCL, zsh, Octave, LilyPond), Sphinx (Debian policy, developers' reference, Why3), DocBook/dblatex
# (Debian reference, AMC), Doxygen (SISCone), plain TeX (PARI) and LaTeX package manuals. Listed by name so the
# set is reproducible; the rule is checked again below. Score it with bench/structure_eval.py (bench/README.md).
#   bench/fetch_dev2.sh [DEST]        (default: ../dev2 next to the repository; needs apt-get, ~140 MB)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
DEST=${1:-$HERE/../../dev2}
PY=${PYTHON:-$HERE/../.venv/bin/python}
mkdir -p "$DEST/.debs" "$DEST/.x" "$DEST/pdf"
cd "$DEST/.debs"
pkgs="r-doc-pdf bash-doc sbcl-doc zsh-doc octave-doc lilypond-doc-pdf debian-policy developers-reference
why3-doc-pdf live-manual-pdf debian-reference-en auto-multiple-choice-doc-pdf siscone-doc-pdf glpk-doc gnuplot-doc
gprolog-doc pari-doc texlive-latex-recommended-doc"
need=0; for p in $pkgs; do ls "${p}"_*.deb >/dev/null 2>&1 || need=1; done
if [ $need = 1 ]; then apt-get update -qq >/dev/null 2>&1 || true; apt-get download $pkgs >/dev/null 2>&1; fi
for f in *.deb; do dpkg -x "$f" "$DEST/.x"; done
"$PY" - "$DEST" <<'PY'
import gzip, os, sys
import pymupdf
dest = sys.argv[1]
names = """doc/r-doc-pdf/manual/R-FAQ.pdf doc/r-doc-pdf/manual/R-admin.pdf doc/r-doc-pdf/manual/R-data.pdf
doc/r-doc-pdf/manual/R-exts.pdf doc/r-doc-pdf/manual/R-intro.pdf doc/r-doc-pdf/manual/R-ints.pdf
doc/r-doc-pdf/manual/R-lang.pdf doc/bash-doc/bashref.pdf doc/sbcl/sbcl.pdf.gz doc/sbcl/sbcl-internals.pdf.gz
doc/zsh-common/zsh.pdf doc/octave/liboctave.pdf lilypond/html/Documentation/contributor.pdf
lilypond/html/Documentation/essay.pdf lilypond/html/Documentation/extending.pdf
lilypond/html/Documentation/learning.pdf lilypond/html/Documentation/usage.pdf lilypond/html/Documentation/web.pdf
doc/debian-policy/policy.pdf.gz developers-reference/developers-reference.pdf doc/why3-doc-pdf/manual.pdf
doc/live-manual/pdf/live-manual.portrait.en.a4.pdf.gz debian-reference/debian-reference.en.pdf
doc/auto-multiple-choice/auto-multiple-choice.en.pdf doc/auto-multiple-choice/latex/automultiplechoice.pdf
doc/siscone-doc-pdf/pdf/refman.pdf.gz doc/glpk-doc/glpk.pdf doc/glpk-doc/gmpl.pdf doc/glpk-doc/graphs.pdf
doc/gnuplot/gnuplot.pdf doc/gprolog-doc/gprolog.pdf pari/doc/libpari.pdf
latex/beamer/beameruserguide.pdf latex/caption/caption.pdf latex/fontspec/fontspec.pdf generic/hologo/hologo.pdf
latex/fancyvrb/fancyvrb-doc.pdf latex/filehook/filehook.pdf latex/lineno/lineno.pdf latex/listings/listings.pdf
latex/mathtools/mathtools.pdf latex/microtype/microtype.pdf latex/pdfmanagement-testphase/hyperref-generic.pdf
latex/polyglossia/polyglossia.pdf latex/subfig/subfig.pdf latex/unicode-math/unicode-math.pdf
latex/xcolor/xcolor.pdf""".split()
root = os.path.join(dest, ".x", "usr", "share")
found = {}
for dirpath, _, files in sorted(os.walk(root)):
    for f in sorted(files):
        rel = os.path.relpath(os.path.join(dirpath, f), root)
        for n in names:
            if rel.endswith(n):
                found.setdefault(n, os.path.join(dirpath, f))
picked = 0
for n in names:
    src = found.get(n)
    if not src:
        print("missing", n, file=sys.stderr); continue
    data = gzip.open(src).read() if src.endswith(".gz") else open(src, "rb").read()
    doc = pymupdf.open(stream=data, filetype="pdf")
    toc = doc.get_toc()
    if not (20 <= doc.page_count <= 500 and len(toc) >= 20 and max(t[0] for t in toc) >= 2):
        print("outside the picking rule", n, file=sys.stderr); continue
    stem = os.path.basename(n).removesuffix(".gz")
    if stem in ("manual.pdf", "refman.pdf"):  # generic names: prefix the package folder
        stem = n.split("/")[1].split("-")[0] + "-" + stem
    with open(os.path.join(dest, "pdf", "debian__" + stem), "wb") as out:
        out.write(data)
    picked += 1
print(f"{picked} PDFs in {dest}/pdf")
PY
