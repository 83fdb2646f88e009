#!/bin/bash
# --flamegraph: the SVG of the stacks of tests/progs/stacks.c (1 call
# through left, 6 through right) under a comm full of XML's special
# characters and a byte that is not UTF-8 is well-formed XML, and,
# rendered by headless Chromium (driven over WebDriver by
# tests/lib/webdriver.py):
#   - shows one section per stack map, headed "@: 7 samples";
#   - draws each frame with its name (cut with ".." where it does not
#     fit, the text never wider than its frame), its tooltip giving the
#     count and share, widths in proportion to the counts;
#   - puts the tooltip in the details line when the mouse is over it;
#   - zooms on a click: the frame and its callees fill the width, the
#     sibling branch hides, ancestors stay at full width, other
#     sections are untouched, cut names come out whole; Reset zoom
#     restores every frame;
#   - searches: the matching frames' share is shown in the heading.
# A screenshot of the zoomed graph is left in the test's directory.
# Without chromium and chromedriver the test skips, or fails when
# SONDE_REQUIRE_BPF=1 (CI installs them).
. "$SONDE_ROOT/tests/lib/trace.sh"
if ! command -v chromium > /dev/null || ! command -v chromedriver > /dev/null; then
	[[ ${SONDE_REQUIRE_BPF:-} == 1 ]] && die "chromium and chromedriver are not installed"
	echo "chromium and chromedriver are not installed"
	exit 77
fi

comm=$'fl<&"\'\xff'
TRIG_COMM=$comm trace stacks 1 6 -- "$SONDE" -q --flamegraph "$work/out.svg" -e '
BEGIN { printf("ready\n"); }
tracepoint:syscalls:sys_enter_getppid /pid == $1/ {
	@[ustack, comm] = count(); @k[ustack, kstack] = count(); @n = count(); }' @TRIG@
stderr_clean
[[ -s $work/out.svg ]] || die "no SVG written"
grep -q '^@n: 7$' "$work/out" || die "the text output is missing: $(cat "$work/out")"

PYTHONPATH=$SONDE_ROOT/tests/lib python3 - "$work/out.svg" "$work" <<'PY' || exit 1
import os, sys
import xml.etree.ElementTree as ET
from webdriver import Browser

svg, work = sys.argv[1:]
fails = []
def check(ok, what):
    if not ok:
        fails.append(what)

ET.parse(svg)   # raises if not well-formed

FRAMES = """return [].map.call(document.querySelectorAll('g.f'), function (g) {
    var r = g.querySelector('rect'), t = g.querySelector('text');
    return {graph: [].indexOf.call(document.querySelectorAll('g.graph'), g.parentNode),
            title: g.querySelector('title').textContent,
            text: t ? t.textContent : '', tw: t ? t.getComputedTextLength() : 0,
            x: +r.getAttribute('x'), w: +r.getAttribute('width'),
            y: +r.getAttribute('y'), cls: g.getAttribute('class'),
            shown: getComputedStyle(g).display !== 'none'}; });"""
# The element of frame NAME (its title up to " (") in section GRAPH;
# with NTH, the NTH such frame in document order.
FIND = """var gs = document.querySelectorAll('g.graph')[arguments[0]]
    .querySelectorAll('g.f'), n = arguments[2] || 0;
for (var i = 0; i < gs.length; i++) {
    var t = gs[i].querySelector('title').textContent;
    if (t.slice(0, t.lastIndexOf(' (')) === arguments[1] && n-- === 0)
        return gs[i];
}
return null;"""

def label(f):
    return f["title"][:f["title"].rindex(" (")]

def named(frames, graph, name):
    return [f for f in frames if f["graph"] == graph and label(f) == name]

def text_ok(frames, when):
    for f in frames:
        if not f["shown"]:
            continue
        full = label(f)
        fits = len(full) * 7.3 + 6 <= f["w"]
        if fits:
            check(f["text"] == full, "%s: %r shows %r" % (when, full, f["text"]))
        elif f["text"]:
            check(f["text"].endswith("..") and full.startswith(f["text"][:-2]),
                  "%s: %r cut to %r" % (when, full, f["text"]))
        check(f["tw"] <= f["w"], "%s: text of %r (%.1f px) wider than its frame (%.1f px)"
              % (when, full, f["tw"], f["w"]))

with Browser(work) as b:
    b.open("file://" + svg)
    heads = b.js("return [].map.call(document.querySelectorAll('.sec'), function (t) { return t.textContent; });")
    check(heads == ["@: 7 samples", "@k: 7 samples"], "section headings: %r" % heads)
    before = b.js(FRAMES)
    comm = 'fl<&"\'\\xff'
    want = {"all": (7, "100.00"), comm: (7, "100.00"), "main": (7, "100.00"),
            "outer": (7, "100.00"), "left": (1, "14.29"), "right": (6, "85.71")}
    for name, (n, pct) in want.items():
        f = named(before, 0, name)
        check(len(f) == 1 and f[0]["title"] == "%s (%d samples, %s%%)" % (name, n, pct),
              "frame %r: %r" % (name, f))
    check(sorted(f["title"] for f in named(before, 0, "leaf")) ==
          ["leaf (1 samples, 14.29%)", "leaf (6 samples, 85.71%)"], "the two leaf frames")
    root = named(before, 0, "all")[0]
    left, right = named(before, 0, "left")[0], named(before, 0, "right")[0]
    check(abs(left["w"] / root["w"] - 1 / 7) < 0.001 and abs(right["w"] / root["w"] - 6 / 7) < 0.001,
          "widths not in proportion: left %.2f, right %.2f of %.2f" % (left["w"], right["w"], root["w"]))
    check(left["y"] < named(before, 0, "outer")[0]["y"], "callees are not above their callers")
    text_ok(before, "before zoom")
    check(any(f["text"].endswith("..") for f in before if f["graph"] == 1),
          "no name is cut in the narrow branch of @k")

    b.hover(b.js(FIND, 0, "right"))
    details = b.js("return document.getElementById('details').textContent;")
    check(details == "right (6 samples, 85.71%)", "details line on hover: %r" % details)

    b.click(b.js(FIND, 1, "left"))    # @k: the narrow branch
    b.click(b.js(FIND, 0, "left"))
    after = b.js(FRAMES)
    b.screenshot(os.path.join(work, "zoomed.png"))
    for name in ("left", "outer", "main", "all"):
        f = named(after, 0, name)[0]
        check(f["shown"] and abs(f["x"] - root["x"]) < 0.01 and abs(f["w"] - root["w"]) < 0.01,
              "%s after the zoom: %r" % (name, f))
    check(" anc" in named(after, 0, "outer")[0]["cls"], "outer is not marked as an ancestor")
    leafs = [f for f in named(after, 0, "leaf") if f["shown"]]
    check(len(leafs) == 1 and abs(leafs[0]["w"] - root["w"]) < 0.01,
          "the callee of left after the zoom: %r" % leafs)
    check(not named(after, 0, "right")[0]["shown"], "right, the sibling, is still shown")
    k_after = [f for f in after if f["graph"] == 1 and f["shown"]]
    check(all(abs(f["w"] - root["w"]) < 0.01 for f in k_after), "@k's left branch did not fill the width")
    check(not any(f["text"].endswith("..") for f in k_after), "names still cut after the zoom")
    text_ok(after, "after zoom")
    check(b.js("return getComputedStyle(document.getElementById('reset')).display;") != "none",
          "no Reset zoom control")

    b.click(b.js("return document.getElementById('reset');"))
    reset = b.js(FRAMES)
    check([(f["x"], f["w"], f["shown"], f["text"]) for f in reset] ==
          [(f["x"], f["w"], f["shown"], f["text"]) for f in before], "Reset zoom did not restore the frames")

    b.click(b.js("return document.getElementById('search');"))
    b.answer_prompt("^righ")
    m = b.js("return document.querySelector('.m').textContent;")
    check(m == " (matched 85.71%)", "search: %r" % m)
    fill = b.js("return getComputedStyle(arguments[0].querySelector('rect')).fill;", b.js(FIND, 0, "right"))
    check(fill == "rgb(230, 0, 230)", "search: right is painted %s" % fill)

for f in fails:
    print(f)
sys.exit(1 if fails else 0)
PY
[[ -s $work/zoomed.png ]] || die "no screenshot"
exit 0
