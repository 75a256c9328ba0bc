# plot_ok STEM TEXT...: STEM.svg, STEM.pdf and STEM.png exist and are what their names say (the
# PNG and PDF signatures, an SVG document), and the SVG shows every TEXT (matplotlib keeps text
# as text: sim/tools/aries_plot.py) and the provenance footer.
plot_ok() {
  local stem=$1
  shift
  head -c 8 "$stem.png" | od -An -c | grep -q "P   N   G" || { echo "$stem.png is not a PNG"; return 1; }
  head -c 5 "$stem.pdf" | grep -q "%PDF-" || { echo "$stem.pdf is not a PDF"; return 1; }
  grep -q "<svg" "$stem.svg" || { echo "$stem.svg is not an SVG"; return 1; }
  grep -q "ARIES-sim [0-9.]* (commit" "$stem.svg" || { echo "$stem.svg has no provenance"; return 1; }
  local t
  for t in "$@"; do
    grep -qF "$t" "$stem.svg" || { echo "$stem.svg does not show '$t'"; return 1; }
  done
}
