#!/usr/bin/env bash
# Documents rendered to PDF by an office suite, a genre unlike the TeX manuals of the other folders: pages
# printed from HTML (texinfo, DocBook and Sphinx single-page manuals) and Word documents, each PDF's outline
# made by LibreOffice from the source's own heading structure (<h1>-<h6>, Heading styles), so the outline is
# the author's structure. Writes two folders:
#   ../rendered/pdf        the set looked at while tuning (10 HTML manuals, the DOCX files of shared/corpus)
#   ../rendered-check/pdf  17 more HTML manuals and chapters, scored as a check only
# Needs LibreOffice (apt-get install libreoffice-writer-nogui) and the Debian packages that
# ../shared/corpus/fetch-more.sh, bench/fetch_dev2.sh and bench/fetch_heldout.sh unpack (run those first).
#   bench/fetch_rendered.sh [DEST_PARENT]       (default: the folder that holds the repository)
set -euo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
TOP=${1:-$(cd "$HERE/../.." && pwd)}
command -v soffice >/dev/null || { echo "fetch_rendered: soffice not found; apt-get install libreoffice-writer-nogui" >&2; exit 2; }
RENDER_SECONDS=${RENDER_SECONDS:-120}  # a page printed in more time than this is given up (and named)
X_DEV2="$TOP/dev2/.x"; X_DEV="$TOP/devcorpus/.x"; X_HELD="$TOP/heldout/.x"
for d in "$X_DEV2" "$X_DEV" "$X_HELD"; do
  [ -d "$d" ] || { echo "fetch_rendered: $d missing; run the fetch scripts named above first" >&2; exit 2; }
done
TUNE="dev2:usr/share/doc/bash/bashref.html dev2:usr/share/doc/sbcl/sbcl.html
dev2:usr/share/developers-reference/developers-reference.html dev2:usr/share/doc/debian-policy/fhs/fhs-3.0.html
devcorpus:usr/share/doc/texlive-doc/eplain/eplain.html dev2:usr/share/debian-reference/ch02.en.html
heldout:usr/share/doc/debmake-doc/html/ch05.en.html dev2:usr/share/doc/zsh-common/html/Options.html
devcorpus:usr/share/doc/texlive-doc/generic/polexpr/polexpr-ref.html devcorpus:usr/share/doc/texlive-doc/latex/tablor/tablor.html"
CHECK="dev2:usr/share/debian-reference/ch01.en.html dev2:usr/share/debian-reference/ch06.en.html
dev2:usr/share/debian-reference/ch07.en.html dev2:usr/share/debian-reference/ch09.en.html
dev2:usr/share/debian-reference/ch10.en.html dev2:usr/share/debian-reference/ch11.en.html
dev2:usr/share/debian-reference/ch12.en.html dev2:usr/share/doc/zsh-common/html/Parameters.html
dev2:usr/share/doc/zsh-common/html/Expansion.html dev2:usr/share/doc/zsh-common/html/Zsh-Line-Editor.html
dev2:usr/share/doc/zsh-common/html/Completion-System.html dev2:usr/share/doc/zsh-common/html/Shell-Builtin-Commands.html
dev2:usr/share/doc/debian-policy/policy.html/ch-controlfields.html dev2:usr/share/developers-reference/pkgs.html
dev2:usr/share/developers-reference/best-pkging-practices.html heldout:usr/share/doc/debmake-doc/html/ch08.en.html
dev2:usr/share/doc/bash/bash.html"
render() {  # render LIST DEST: copy each HTML file (named after its set) and print it to PDF with bookmarks
  local list=$1 dest=$2
  mkdir -p "$dest/html" "$dest/pdf"
  for item in $list; do
    local set=${item%%:*} path=${item#*:}
    cp "$TOP/$set/.x/$path" "$dest/html/${set}__$(basename "$path")"
  done
  for html in "$dest"/html/*.html; do  # one at a time: a page that waits on a remote resource is given up
    [ -s "$dest/pdf/$(basename "${html%.html}").pdf" ] && continue
    timeout "$RENDER_SECONDS" soffice --headless \
      --convert-to 'pdf:writer_web_pdf_Export:{"ExportBookmarks":{"type":"boolean","value":"true"}}' \
      --outdir "$dest/pdf" "$html" >/dev/null 2>&1 || { pkill -f soffice.bin || true; echo "gave up on $html" >&2; }
  done
  rm -f "$dest"/pdf/*.tmp
}
render "$TUNE" "$TOP/rendered"
soffice --headless --convert-to 'pdf:writer_pdf_Export:{"ExportBookmarks":{"type":"boolean","value":"true"}}' \
  --outdir "$TOP/rendered/pdf" "$HERE"/../../shared/corpus/docx/*.docx >/dev/null 2>&1
render "$CHECK" "$TOP/rendered-check"
echo "rendered: $(ls "$TOP/rendered/pdf" | wc -l) PDFs; rendered-check: $(ls "$TOP/rendered-check/pdf" | wc -l) PDFs"
