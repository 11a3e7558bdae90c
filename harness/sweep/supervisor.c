/*
 * supervisor.c
 *	The parent side of a sweep, tcp_sweep_run(): the plan (from the spec,
 *	or the resumed run's plan.txt), the run configuration (config.h), the
 *	dry run, the signals; then the run's start (supervisor-start.c), the
 *	loop over the plan's points (supervisor-loop.c) and its end: the
 *	worker told to QUIT, provenance finished, the summary.  One forked
 *	worker per GPU (a sweep process drives one GPU: struct worker is per
 *	GPU so that one process could drive more).  This process never calls
 *	CUDA: only workers do.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness/sweep/protocol.h"
#include "harness/sweep/supervisor-int.h"

static void on_signal(int sig)
{
	sup_signal = sig;
}

/* The worker told to QUIT and reaped (killed when it cannot be told). */
static void stop_worker(struct sup *s)
{
	char cmd[8], why[256];
	if (s->w.pid <= 0)
		return;
	if (sup_worker_send(&s->w, cmd, tcp_msg_put_cmd(cmd, sizeof(cmd), TCP_CMD_QUIT)) == 0)
		sup_worker_reap(&s->w, why, sizeof(why));
	else
		sup_worker_kill(&s->w);
}

/* A finished run's last lines: the summary, the run directory, contention,
 * an emulated run's banner; stdout gets the directory for scripts. */
static int summary(struct sup *s, int rc)
{
	char ts[40], why[1024];
	sup_log(s, "done: %d points in %s", s->plan.n, sup_fmt_dur(sup_mono() - s->t_start, ts, sizeof(ts)));
	if (tcp_sweep_summary(s->dir, s->probes, s->nprobes, stderr) != 0)
		rc = TCP_EXIT_POINTS;
	fprintf(stderr, "results: %s\n", s->dir);
	/* the last line, where a reader of the sweep's output looks */
	if (s->busy.contended > 0)
		fprintf(stderr, "WARNING: %d of %d GPU points ran beside other work on the GPU (contended=1 in measurements.csv, why in log.txt)%s: their time-based numbers are not an idle GPU's\n",
			s->busy.contended, s->busy.points,
			s->resumed_contended ? "; so did points kept from before --resume" : "");
	else if (s->resumed_contended > 0)
		fprintf(stderr, "WARNING: %d points kept from before --resume ran beside other work on the GPU (contended=1 in measurements.csv): their time-based numbers are not an idle GPU's\n",
			s->resumed_contended);
	if (s->cfg.emu.target)
		fprintf(stderr, "%s\n", tcp_run_emulated_banner(s->cfg.emu.target->name, why, sizeof(why)));
	if (!isatty(STDOUT_FILENO)) {	/* for scripts: dir=$(tcprobe run ...) */
		printf("%s\n", s->dir);
		fflush(stdout);
	}
	return rc;
}

/* The end of a run that started: worker, measurements.csv, provenance,
 * the summary.  The exit status. */
static int finish(struct sup *s, tcp_prov_t *prov, int rc)
{
	char ts[40];
	stop_worker(s);
	if (s->rows && tcp_rows_close(s->rows) && rc == TCP_EXIT_OK) {
		sup_die("cannot finish %s/measurements.csv: %s", s->dir, strerror(errno));
		rc = TCP_EXIT_POINTS;
	}
	s->rows = NULL;
	tcp_prov_set(prov, rc == TCP_EXIT_INTERRUPTED ? "interrupted_utc" : "finished_utc",
		     tcp_prov_utc_now(ts, sizeof(ts)));
	if (s->need_gpu) {
		tcp_prov_setf(prov, s->o->resume_dir ? "resume_contended_points" : "contended_points", "%d of %d",
			      s->busy.contended, s->busy.points);
		if (s->cfg.energy_s > 0)
			tcp_prov_set(prov, "power_source", tcp_nvml_power_source_name(s->power_src));
	}
	sup_write_provenance(s, prov);
	if (rc == TCP_EXIT_OK)
		rc = summary(s, rc);
	else if (rc == TCP_EXIT_INTERRUPTED)
		sup_log(s, "interrupted: %d of %d points written", s->ndone, s->plan.n);
	return rc;
}

static void free_state(struct sup *s, tcp_prov_t *prov)
{
	if (s->w.pid > 0)
		sup_worker_kill(&s->w);
	if (s->rows)
		tcp_rows_close(s->rows);
	if (s->log)
		fclose(s->log);
	free(s->w.lb.buf);
	free(s->axcols);
	tcp_meta_set_free(s->meta);
	free(s->done);
	free(s->pst);
	free(s->plast);
	sup_batch_drop(s);
	free(s->pend);
	free(s->pend_idx);
	tcp_block_free(&s->w.block);
	free(s->gprov);
	free(prov);
}

/*
 *  sweep()
 *	everything after the plan exists: worker, directory, the point loop
 */
static int sweep(struct sup *s)
{
	tcp_prov_t *prov = calloc(1, sizeof(*prov));
	int rc = sup_start_state(s, prov);
	if (rc == TCP_EXIT_OK && (rc = sup_start(s, prov)) == TCP_EXIT_OK)
		rc = finish(s, prov, sup_run_plan(s));
	free_state(s, prov);
	return rc;
}

/* The plan and the configuration: a new run's from the spec and the command
 * line, a resumed one's from its plan.txt.  0, or the exit status (said). */
static int plan_and_config(struct sup *s)
{
	const tcp_sweep_opts_t *o = s->o;
	char err[2048];
	int rc;
	if (o->resume_dir) {
		if ((rc = sup_resume_plan(s)))
			return rc;
		rc = tcp_config_resume(&s->cfg, o, &s->plan, err, sizeof(err));
	} else {
		if (!o->spec || o->spec->n == 0) {
			sup_die("run: nothing to run: got no --probe or --spec, expected at least one (tcprobe run --help)");
			return TCP_EXIT_USAGE;
		}
		if (tcp_plan_build(&s->plan, o->spec, o->reps, o->warmup, o->timeout, err, sizeof(err))) {
			sup_die("%s", err);
			return TCP_EXIT_USAGE;
		}
		rc = tcp_config_new(&s->cfg, o, &s->plan, err, sizeof(err));
	}
	if (rc) {
		sup_die("%s", err);
		tcp_plan_free(&s->plan);
		return TCP_EXIT_USAGE;
	}
	return 0;
}

/* --dry-run: the plan for the target asked (the emulation build plans for
 * its emulated target as the release build's --arch does); no worker, no
 * CUDA, no files. */
static int dry_run(struct sup *s)
{
	tcp_plan_target(&s->plan, s->cfg.emu.target ? s->cfg.emu.target : s->o->arch);
	s->plan.emulated = s->cfg.emu.target != NULL;
	tcp_plan_print(&s->plan, stdout, s->o->verbose);
	fflush(stdout);
	tcp_plan_free(&s->plan);
	return TCP_EXIT_OK;
}

int tcp_sweep_run(const tcp_probe_t *const *probes, int nprobes, const tcp_sweep_opts_t *o)
{
	struct sup s;
	int rc;
	memset(&s, 0, sizeof(s));
	s.probes = probes;
	s.nprobes = nprobes;
	s.o = o;
	if ((rc = plan_and_config(&s)))
		return rc;
	if (o->dry_run)
		return dry_run(&s);

	struct sigaction sa, old_int, old_term, old_pipe, old_xfsz;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: poll() returns EINTR */
	sigemptyset(&sa.sa_mask);
	sup_signal = 0;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sa.sa_handler = SIG_IGN;	/* a dead worker's pipe gives EPIPE, not death */
	sigaction(SIGPIPE, &sa, &old_pipe);
	sigaction(SIGXFSZ, &sa, &old_xfsz);	/* over RLIMIT_FSIZE: EFBIG (exit 7), not death */

	rc = sweep(&s);

	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGPIPE, &old_pipe, NULL);
	sigaction(SIGXFSZ, &old_xfsz, NULL);
	tcp_plan_free(&s.plan);
	return rc;
}
