# drawing-commit.sed (sed -E -f): blanks the commit of the tcprobe that drew a report or
# a plot, the one part of a drawn file that differs between two trees drawing the same
# data: "drawn by tcprobe C" (the plots' footers and SVG metadata), "by `tcprobe
# report` (tcprobe C" (the report's opening paragraph), each C with its " (dirty)" or
# " (git_dirty not recorded)", and summary.json's "report" object.  The commit that
# measured the run ("measured by tcprobe V C") stays.  scripts/reports.sh --check and
# tests/identity-check.sh compare files through it.
s/(drawn by tcprobe|by `tcprobe report` \(tcprobe) [0-9a-z?]+( \((dirty|git_dirty not recorded)\))?/\1 COMMIT/g
/^\t"report": \{/,/^\t\}/s/("git_commit"|"git_dirty"): .*/\1: COMMIT/
