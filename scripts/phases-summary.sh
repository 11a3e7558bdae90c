#!/usr/bin/env bash
#
# phases-summary.sh
#	Summarise a TCPROBE_PHASES file (harness/sweep/worker-phases.c writes it:
#	pid,point,probe,"axes",phase,ms,"note"): per phase, over the points that
#	have it, the median, mean and 90th percentile in ms.  The worker's own
#	start-up steps (point -1) come out as "start:<step>".  Used by
#	scripts/bench-harness.sh and scripts/device/speed.sh.
#
#	usage: scripts/phases-summary.sh LABEL PHASES_CSV
#	prints CSV rows (no header): LABEL,phase,points,median_ms,mean_ms,p90_ms,
#	in the order a point goes through them
set -uo pipefail
[ $# -eq 2 ] || { echo "phases-summary: usage: $0 LABEL PHASES_CSV" >&2; exit 2; }
[ -r "$2" ] || { echo "phases-summary: cannot read '$2'" >&2; exit 2; }
# axes never hold a comma, so fields 5 and 6 are the phase and ms
awk -F, 'NR > 1 { print ($2 < 0 ? "start:" $5 : $5) "," $6 }' "$2" | sort -t, -k1,1 -k2,2g |
	awk -F, -v label="$1" '
	function flush() {
		if (n == 0) return
		m = n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
		r = (ph in rank) ? rank[ph] : (ph ~ /^start:/ ? 0 : 99)
		printf "%02d,%s,%s,%d,%.3f,%.3f,%.3f\n", r, label, ph, n, m, s / n, v[int(0.9 * (n - 1)) + 1]
	}
	BEGIN {
		k = split("setup validate warmup timed timed_per_rep energy counters ctr_enable ctr_image " \
			  "ctr_image_init ctr_set_config ctr_start ctr_run ctr_stop ctr_decode ctr_evaluate " \
			  "ctr_disable teardown send point", order, " ")
		for (i = 1; i <= k; i++) rank[order[i]] = i
	}
	$1 != ph { flush(); ph = $1; n = 0; s = 0 }
	{ v[++n] = $2; s += $2 }
	END { flush() }' | sort -t, -k1,1n -s | cut -d, -f2-
