# sass-rules.awk: protocol and timed-window rules over one object's SASS for one
# arch (scripts/ci/check-sass.sh runs it on `cuobjdump --dump-sass | c++filt`).
#
# Output, one line each:
#   RULE <rule> <function>                    the rule applied to the function
#   FAIL <rule> <function>: <why>             ... and failed
#   SPAN <function> <start>-<end> <n> MMA, <m> UTC*   a timed span (listed so a new probe is seen)
#   WINDOW <function> <clock>-<first UTC*>    a window clean-window checked
#
# Rules (tcgen05-facts.md s.6, s.7; issues 16 and 17):
#   cluster-before-alloc  a function with a cta_group::2 alloc
#                         (UTCATOMSWS.2CTA.FIND_AND_SET) has a cluster barrier
#                         arrive (UCGABAR_ARV) and wait (UCGABAR_WAIT) before
#                         its first such alloc: the peer CTA is known to run
#                         (PTX tcgen05.alloc; DeepGEMM; CUTLASS sm100 GEMM).
#   multicast-commit      a function with a cta_group::2 MMA (UTC?MMA.2CTA)
#                         commits only with UTCBAR.2CTA.MULTICAST (and at least
#                         once), unless its name says it is the cast=local
#                         variant: a template argument "(tcp_cast_t)0".
#   early-relinquish      a function whose name carries "(tc_relinquish_t)0"
#                         relinquishes (UVIRTCOUNT.DEALLOC) before its hold loop
#                         (the first backward branch after the last alloc
#                         instruction that loops back past it).
#   no-div-in-issue       inside every timed span, between its first and last
#                         UTC?MMA: no MUFU, I2F, F2I, I2FP, F2IP or CALL (the
#                         integer-division / conversion sequences).
#   trap-after-fence      every BPT.TRAP (but ptxas's own stubs that return)
#                         has a MEMBAR.SC.SYS in the 8
#                         instructions before it: the status word in mapped
#                         host memory is visible before the kernel stops
#                         (probes/common/trap.cuh, defect 16.7).
#   ldst-all-offsets      in an ld or st kernel of tc_ldst (ldst_kernel<S, NUM,
#                         P, 1 or 2, T>, both launch bounds T), the timed loops
#                         are its depths in order, k = 1, 2, 4, 8 (the depth-0
#                         loop holds no access); in
#                         tc_ldred's ldred_time_kernel<NUM, OP> the timed loop
#                         holds groups of k = ldred_sets(NUM) loads:
#                         every loop body (a backward branch and its target)
#                         inside the w-th such window holds a multiple of k
#                         LDTM / STTM and at least k distinct TMEM operands, so
#                         no access of a depth-k group was deleted (ptxas
#                         removes a tcgen05.ld whose registers are never read).
#   clean-window          between every clock read that opens a timed window
#                         and the first UTC* instruction after it: no LDCU,
#                         ULDC, S2UR or R2UR (operands are loaded before the
#                         clock is read).
#   clean-span            inside every timed span, between its first and last
#                         UTC* instruction: no LDCU, ULDC or S2UR (a constant
#                         bank or special register re-read per batch, e.g. a
#                         barrier address or a loop bound, is work the span
#                         would time; operands live in registers).  The
#                         32-bit clock read that closes a window is not one.
#   open-64               a window opens at a 64-bit clock read and closes at
#                         32-bit ones (tc-mma.cuh tc_clock32), so a 32-bit
#                         read whose previous clock read is 32-bit too, with
#                         a UTC?MMA between them, is an opening read ptxas
#                         narrowed (its upper half unused): that window would
#                         go unchecked.  Windows opened on purpose by a
#                         32-bit read before any MMA (tc_mma_lat's latency
#                         from issue, which holds the operand setup as the
#                         published method does) have no MMA between.
#
# Timed spans, found mechanically: a window opens at a 64-bit clock read
# (`CS2R Rx, SR_CLOCKLO`; bounded waits read %globaltimer and spins the
# 32-bit clock, so they never look like one) when a UTC* instruction (not
# UTCATOMSWS) comes before the next clock read, EXIT, or branch back to or
# above the clock read (the loop around it closing: what follows is another
# region).  A wait inside the window does not close it.  Its span runs from there to the last UTCBAR (commit) before
# the first clock read that follows a UTCBAR; a window opening inside an
# earlier span is checked as a window but not listed as a new span.
# Address order stands in for execution order: the issue loops are
# straight-line bodies, and any instruction the compiler places between the
# two ends is counted whether or not a branch skips it.

function flush(   u2, prev, mma_since, any, i, j, k, n, first, u1, last, m1, m2, nm, nu, stop, has2alloc, ainx, arv, wt, mma2, local, nbar, nmc, bad, loopt, rel, name) {
	n = ninsn
	name = fname
	if (n == 0)
		return
	# cluster-before-alloc
	ainx = -1
	for (i = 1; i <= n; i++)
		if (op[i] ~ /^UTCATOMSWS\..*2CTA.*FIND_AND_SET/ || op[i] ~ /^UTCATOMSWS\.2CTA\.FIND_AND_SET/) { ainx = i; break }
	if (ainx > 0) {
		print "RULE cluster-before-alloc " name
		arv = 0; wt = 0
		for (i = 1; i < ainx; i++) {
			if (op[i] ~ /^UCGABAR_ARV/) arv = 1
			if (op[i] ~ /^UCGABAR_WAIT/ && arv) wt = 1
		}
		if (!(arv && wt))
			printf "FAIL cluster-before-alloc %s: UTCATOMSWS.2CTA at %s without UCGABAR_ARV and UCGABAR_WAIT before it\n", name, addr[ainx]
	}
	# multicast-commit
	mma2 = 0
	for (i = 1; i <= n; i++)
		if (op[i] ~ /^UTC[HQIO]MMA.*\.2CTA/) { mma2 = i; break }
	local = index(name, "(tcp_cast_t)0") > 0
	if (mma2 && !local) {
		print "RULE multicast-commit " name
		nbar = 0; nmc = 0; bad = ""
		for (i = 1; i <= n; i++)
			if (op[i] ~ /^UTCBAR/) {
				nbar++
				if (op[i] ~ /^UTCBAR\.2CTA\.MULTICAST/) nmc++
				else if (bad == "") bad = addr[i] " " op[i]
			}
		if (nmc == 0)
			printf "FAIL multicast-commit %s: cta_group::2 MMA without a UTCBAR.2CTA.MULTICAST commit\n", name
		else if (bad != "")
			printf "FAIL multicast-commit %s: cta_group::2 MMA kernel commits with %s (not .MULTICAST)\n", name, bad
	}
	# early-relinquish
	if (index(name, "(tc_relinquish_t)0") > 0) {
		print "RULE early-relinquish " name
		last = 0
		for (i = 1; i <= n; i++)
			if (op[i] ~ /^UTCATOMSWS.*FIND_AND_SET/) last = i
		rel = 0
		for (i = 1; i <= n; i++)
			if (op[i] ~ /^UVIRTCOUNT\.DEALLOC/) { rel = i; break }
		loopt = 0
		for (i = last + 1; i <= n && last > 0; i++)
			if (op[i] ~ /^BRA/ && tgt[i] != "" && hex(tgt[i]) < hex(addr[i]) && hex(tgt[i]) > hex(addr[last])) { loopt = i; break }
		if (!last || !rel || !loopt)
			printf "FAIL early-relinquish %s: no alloc (%d), relinquish UVIRTCOUNT.DEALLOC (%d) or hold loop (%d) found\n", name, last, rel, loopt
		else if (hex(addr[rel]) >= hex(tgt[loopt]))
			printf "FAIL early-relinquish %s: relinquish at %s is not before the hold loop at %s\n", name, addr[rel], tgt[loopt]
	}
	# trap-after-fence: every trap is preceded, within 8 instructions, by the
	# system-scope fence that publishes the status word (probes/common/trap.cuh)
	for (i = 1; i <= n; i++) {
		if (op[i] !~ /^BPT\.TRAP/)
			continue
		k = 0
		for (j = i + 1; j <= n && j <= i + 3; j++)
			if (op[j] ~ /^RET/) k = 1
		if (k)
			continue	# ptxas's own trap stubs (BPT.TRAP; a move or two; RET.REL.NODEC), not ours
		print "RULE trap-after-fence " name
		k = 0
		for (j = i - 1; j >= 1 && j >= i - 8; j--)
			if (op[j] ~ /^MEMBAR\.SC\.SYS/) { k = 1; break }
		if (!k)
			printf "FAIL trap-after-fence %s: BPT.TRAP at %s without MEMBAR.SC.SYS in the 8 instructions before it\n", name, addr[i]
	}
	# ldst-all-offsets
	if (name ~ /ldst_kernel<[0-9]+, [0-9]+, [0-9]+, [12], [0-9]+>/)
		ldst_offsets(name, n, 0)
	if (name ~ /ldred_time_kernel<[0-9]+, [0-9]+>/) {
		num = name; sub(/^.*ldred_time_kernel</, "", num); sub(/,.*$/, "", num)
		ldst_offsets(name, n, ldred_sets(num + 0))
	}
	# open-64: two 32-bit clock reads with an MMA between and no 64-bit one
	prev = 0; mma_since = 0; any = 0
	for (i = 1; i <= n; i++) {
		if (op[i] ~ /^UTC[HQIO]MMA/) { mma_since = i; any = 1 }
		if (!isclock32(i) && !isclock(i))
			continue
		if (isclock32(i) && prev && isclock32(prev) && mma_since > prev)
			printf "FAIL open-64 %s: 32-bit clock read at %s follows the 32-bit one at %s with the MMA at %s between: an opening read narrowed to 32 bits\n", name, addr[i], addr[prev], addr[mma_since]
		prev = i
	}
	if (any && prev)
		print "RULE open-64 " name
	# timed windows and spans
	span_end = 0
	for (i = 1; i <= n; i++) {
		if (!isclock(i))
			continue
		first = 0
		for (j = i + 1; j <= n; j++) {
			if (isutc(j)) { first = j; break }
			if (isclock(j) || op[j] ~ /^(EXIT|RET)/) break
			if (op[j] ~ /^BRA/ && tgt[j] != "" && hex(tgt[j]) <= hex(addr[i])) break	# the loop around C closes
		}
		if (!first)
			continue
		print "RULE clean-window " name
		printf "WINDOW %s %s-%s\n", name, addr[i], addr[first]
		for (k = i + 1; k < first; k++)
			if (op[k] ~ /^(LDCU|ULDC|S2UR|R2UR)/)
				printf "FAIL clean-window %s: %s %s between the clock read at %s and %s at %s\n", name, addr[k], op[k], addr[i], op[first], addr[first]
		# the span: to the last UTCBAR before the first clock read after a UTCBAR
		u1 = 0; last = 0; stop = n + 1
		for (j = i + 1; j <= n; j++) {
			if (op[j] ~ /^UTCBAR/) { if (!u1) u1 = j; last = j }
			if (u1 && j > u1 && isclock(j)) { stop = j; break }
			if (op[j] ~ /^(EXIT|RET)/) { stop = j; break }
		}
		if (!u1 || i <= span_end)
			continue	# not closed by a commit, or inside the previous span
		span_end = last
		u1 = 0; u2 = 0
		for (j = i; j <= last; j++)
			if (isutc(j)) { if (!u1) u1 = j; u2 = j }
		print "RULE clean-span " name
		for (j = u1 + 1; j < u2; j++)
			if (op[j] ~ /^(LDCU|ULDC|S2UR)/ && !isclock32(j))
				printf "FAIL clean-span %s: %s %s between the span's UTC* at %s and %s\n", name, addr[j], op[j], addr[u1], addr[u2]
		m1 = 0; m2 = 0; nm = 0; nu = 0
		for (j = i; j <= last; j++) {
			if (op[j] ~ /^UTC[HQIO]MMA/) { if (!m1) m1 = j; m2 = j; nm++ }
			if (isutc(j)) nu++
		}
		printf "SPAN %s %s-%s %d MMA, %d UTC*\n", name, addr[i], addr[last], nm, nu
		if (nm > 0) {
			print "RULE no-div-in-issue " name
			for (j = m1 + 1; j < m2; j++)
				if (op[j] ~ /^(MUFU|I2F|F2I|I2FP|F2IP|CALL)/)
					printf "FAIL no-div-in-issue %s: %s %s between the MMAs at %s and %s (span %s-%s)\n", name, addr[j], op[j], addr[m1], addr[m2], addr[i], addr[last]
		}
	}
	ninsn = 0
}

# The depth windows of an ld/st kernel, in order: between two consecutive
# clock reads, a loop (backward branch into the window) holding LDTM/STTM.
# Register sets of probe-tc-ldred.cu's ldred_sets(): 4 at x2/x4, 2 at x8/x16, 1 at x32.
function ldred_sets(num) { return num <= 4 ? 4 : num <= 16 ? 2 : 1 }

# fixedk > 0: every timed loop holds groups of fixedk (tc_ldred); 0: the
# w-th loop window is depth 2^(w-1) (tc_ldst).
function ldst_offsets(name, n, fixedk,   i, c, nc, w, k, j, t, m, cnt, nd, key, seen, a1, a2, loops, any) {
	nc = 0
	for (i = 1; i <= n; i++)
		if (isclock(i))
			cl[++nc] = i
	w = 0
	any = 0
	for (c = 1; c < nc; c++) {
		a1 = hex(addr[cl[c]]); a2 = hex(addr[cl[c + 1]])
		loops = 0
		for (j = cl[c] + 1; j < cl[c + 1]; j++)
			if (op[j] ~ /^BRA/ && tgt[j] != "" && hex(tgt[j]) > a1 && hex(tgt[j]) < hex(addr[j]))
				loops++
		cnt = 0
		for (j = cl[c] + 1; j < cl[c + 1]; j++)
			if (op[j] ~ /^(LDTM|STTM)/) cnt++
		if (!loops || !cnt)
			continue
		w++
		k = fixedk > 0 ? fixedk : 2 ^ (w - 1)
		if (!any) { print "RULE ldst-all-offsets " name; any = 1 }
		for (j = cl[c] + 1; j < cl[c + 1]; j++) {
			if (!(op[j] ~ /^BRA/ && tgt[j] != "" && hex(tgt[j]) > a1 && hex(tgt[j]) < hex(addr[j])))
				continue
			t = hex(tgt[j]); cnt = 0; nd = 0
			split("", seen)
			for (m = cl[c] + 1; m < j; m++) {
				if (hex(addr[m]) < t || op[m] !~ /^(LDTM|STTM)/)
					continue
				cnt++
				key = arg[m]
				sub(/^.*tmem\[/, "", key); sub(/\].*$/, "", key)
				if (!(key in seen)) { seen[key] = 1; nd++ }
			}
			if (cnt && (cnt % k || nd < k))
				printf "FAIL ldst-all-offsets %s: depth %d loop %s-%s holds %d TMEM accesses at %d distinct addresses (expected a multiple of %d at %d or more: accesses deleted)\n", name, k, tgt[j], addr[j], cnt, nd, k, k
		}
	}
}

function isclock(i) { return op[i] == "CS2R" && arg[i] ~ /SR_CLOCKLO/ }
function isclock32(i) { return (op[i] == "CS2R.32" || op[i] == "S2R" || op[i] == "S2UR") && arg[i] ~ /SR_CLOCKLO/ }
function isutc(i) { return op[i] ~ /^UTC/ && op[i] !~ /^UTCATOMSWS/ }
function hex(s,   v, c, k) {
	v = 0
	s = tolower(s)
	sub(/^0x/, "", s)
	for (k = 1; k <= length(s); k++) {
		c = index("0123456789abcdef", substr(s, k, 1))
		if (c == 0) break
		v = v * 16 + c - 1
	}
	return v
}

/Function : / {
	flush()
	fname = $0
	sub(/.*Function : /, "", fname)
	gsub(/[ \t]+$/, "", fname)
	next
}
/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]/ {
	line = $0
	sub(/\/\* 0x[0-9a-f]+ \*\/.*$/, "", line)	# encoding comment
	a = line
	sub(/^[ \t]*\/\*/, "", a)
	sub(/\*\/.*$/, "", a)
	rest = line
	sub(/^[ \t]*\/\*[0-9a-f]+\*\/[ \t]*/, "", rest)
	sub(/^@!?U?P[0-9T][ \t]+/, "", rest)
	o = rest
	sub(/[ \t;].*$/, "", o)
	if (o == "")
		next
	ninsn++
	addr[ninsn] = "0x" a
	op[ninsn] = o
	arg[ninsn] = substr(rest, length(o) + 1)
	t = ""
	if (o ~ /^BRA/ && match(rest, /0x[0-9a-f]+/))
		t = substr(rest, RSTART, RLENGTH)
	tgt[ninsn] = t
}
END { flush() }
