#!/usr/bin/awk -f
# md2man.awk - docs/language.md as the man page sonde-language(7).
#
# usage: awk -v version=0.1.0 -f tools/md2man.awk docs/language.md
#
# Knows the Markdown the docs use: headings, paragraphs, fenced code,
# tables (each row becomes a tagged paragraph: first cell as the tag,
# the others joined by dashes), "- " and "1. " lists with indented
# continuation lines, `code`, **bold** and [links](...).  "make man"
# writes docs/sonde-language.7 with it; a test checks the two agree.

function esc(s) {
	gsub(/\\/, "\\e", s)
	return s
}

# inline markup of an already escaped line
function inline(s,    out, i, c, n) {
	# [text](#anchor) -> text; [text](url) -> text <url>
	while (match(s, /\[[^]]*\]\([^)]*\)/)) {
		c = substr(s, RSTART, RLENGTH)
		n = index(c, "](")
		t = substr(c, 2, n - 2)
		u = substr(c, n + 2, length(c) - n - 2)
		if (u ~ /^#/)
			t = t
		else
			t = t " <" u ">"
		s = substr(s, 1, RSTART - 1) t substr(s, RSTART + RLENGTH)
	}
	while (match(s, /\*\*[^*]+\*\*/))
		s = substr(s, 1, RSTART - 1) "\\fB" substr(s, RSTART + 2, RLENGTH - 4) "\\fR" substr(s, RSTART + RLENGTH)
	out = ""
	while ((i = index(s, "`")) > 0) {
		out = out substr(s, 1, i - 1)
		s = substr(s, i + 1)
		n = index(s, "`")
		if (n == 0) {
			out = out "`"
			break
		}
		c = substr(s, 1, n - 1)
		gsub(/-/, "\\-", c)
		out = out "\\fB" c "\\fR"
		s = substr(s, n + 1)
	}
	return out s
}

# a text line for the page: no leading dot or quote, which roff reads
# as a request
function line(s) {
	if (s ~ /^[.']/)
		s = "\\&" s
	print s
}

function cells(s, arr,    n, i) {
	sub(/^[ \t]*\|/, "", s)
	sub(/\|[ \t]*$/, "", s)
	gsub(/\\\|/, "\001", s)	# an escaped | inside a cell
	n = split(s, arr, "|")
	for (i = 1; i <= n; i++) {
		gsub(/\001/, "|", arr[i])
		gsub(/^[ \t]+|[ \t]+$/, "", arr[i])
	}
	return n
}

# the paragraph or list item gathered so far, as one line: links and
# code spans may cross the Markdown's line breaks
function flush() {
	if (para != "")
		line(inline(esc(para)))
	para = ""
}

function add(s) {
	sub(/^[ \t]+/, "", s)
	para = para (para != "" ? " " : "") s
}

BEGIN {
	code = 0
	first = 1
	print ".\\\" Generated from docs/language.md by tools/md2man.awk; do not edit."
	print ".TH SONDE-LANGUAGE 7 \"\" \"sonde " version "\" \"sonde manual\""
	print ".SH NAME"
	print "sonde-language \\- the language of sonde scripts (bpftrace's)"
}

code {
	if ($0 ~ /^```/) {
		print ".fi"
		print ".RE"
		code = 0
		next
	}
	line(esc($0))
	next
}

/^```/ {
	flush()
	print ".PP"
	print ".RS 4"
	print ".nf"
	code = 1
	next
}

/^# / {
	flush()
	if (first) {
		print ".SH DESCRIPTION"
		first = 0
		next
	}
}

/^## / {
	flush()
	print ".SH \"" toupper(esc(substr($0, 4))) "\""
	next
}

/^### / {
	flush()
	print ".SS \"" inline(esc(substr($0, 5))) "\""
	next
}

/^\|/ {
	flush()
	n = cells($0, c)
	if (c[1] ~ /^:?-+:?$/)
		next
	if (!intable) {		# the header row names the columns: dropped
		print ".PP"
		intable = 1
		next
	}
	print ".TP"
	line(inline(esc(c[1])))
	s = ""
	for (i = 2; i <= n; i++)
		if (c[i] != "")
			s = s (s != "" ? " \\(em " : "") c[i]
	line(inline(esc(s)))
	next
}

{ intable = 0 }

/^[ \t]*$/ {
	flush()
	print ".PP"
	next
}

/^- / {
	flush()
	print ".IP \\(bu 2"
	add(substr($0, 3))
	next
}

/^[0-9]+\. / {
	flush()
	n = index($0, " ")
	print ".IP " substr($0, 1, n - 1) " 4"
	add(substr($0, n + 1))
	next
}

{ add($0) }

END {
	flush()
	print ".SH SEE ALSO"
	print ".BR sonde (8),"
	print ".BR bpftrace (8)"
}
