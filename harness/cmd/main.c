/*
 * main.c
 *	`tcprobe <command> [args]`: dispatch through the command table
 *	(harness/cmd/cmd-list.h); help is generated from the same table.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
#include "harness/cmd/options.h"
#include "harness/store/columns.h"
#include "probes/common/probe.h"

#ifndef TCP_GIT_COMMIT
#define TCP_GIT_COMMIT "unknown"
#endif

typedef struct {
	const char *name;
	const char *help;
	int (*fn)(int argc, char **argv);
} tcp_command_t;

#define TCP_CMD_ELEM(n, h) { #n, h, tcp_cmd_##n },
static const tcp_command_t commands[] = { TCP_COMMANDS(TCP_CMD_ELEM) };
#define NCOMMANDS ((int)(sizeof(commands) / sizeof(commands[0])))

/* Command names are C identifiers (tmem_plan); users type them with '-'
 * (tmem-plan): both spellings match, and help shows the '-' one. */
static int same_name(const char *ident, const char *typed)
{
	for (; *ident && *typed; ident++, typed++)
		if (*ident != *typed && !(*ident == '_' && *typed == '-'))
			return 0;
	return *ident == *typed;
}

static const char *shown(const char *ident, char *buf, size_t len)
{
	snprintf(buf, len, "%s", ident);
	for (char *c = buf; *c; c++)
		if (*c == '_')
			*c = '-';
	return buf;
}

/* The command table as --help's "commands:" section, into a malloc'd string (NULL: no memory). */
static char *command_list(void)
{
	char *buf = NULL, nb[32];
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return NULL;
	fprintf(f, "Tensor-core microbenchmarks: Hopper wgmma (sm_90a) and Blackwell tcgen05\n"
		   "(sm_100a).\n\ncommands:\n");
	for (int i = 0; i < NCOMMANDS; i++) {
		fprintf(f, "  %-10s ", shown(commands[i].name, nb, sizeof(nb)));
		tcp_text_wrap(f, commands[i].help, 13, 13, 80);
		fputc('\n', f);
	}
	fprintf(f, "\n  help [COMMAND]   this text, or a command's --help\n\n");
	fclose(f);
	return buf;
}

static const char *command_names(char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < NCOMMANDS; i++)
	{
		char nb[32];
		o += (size_t)snprintf(buf + o, o < len ? len - o : 0, "%s%s", i ? ", " : "",
				      shown(commands[i].name, nb, sizeof(nb)));
	}
	return buf;
}

static const tcp_command_t *find(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (same_name(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* `tcprobe --version`, `tcprobe --help`, or one line on a bad option. */
static int own_options(int argc, char **argv)
{
	char *about = command_list();
	int version = 0;
	tcp_opt_t opts[] = {
		{ .name = "--version", .kind = TCP_OPT_FLAG, .ival = &version,
		  .help = "build (git commit) and CSV schema version" },
	};
	tcp_cmd_spec_t cmd = { .usage = "usage: tcprobe <command> [options]   (tcprobe <command> --help for "
					"its options)\n", .about = about,
			       .opts = opts, .nopts = TCP_NOPTS(opts),
			       .args_what = "the command first (tcprobe <command> [options])" };
	int rc = tcp_opts_parse(&cmd, argc, argv, 1);

	free(about);
	if (rc != TCP_OPTS_OK)
		return rc;
	printf("tcprobe %s (CSV schema %d)\n", TCP_GIT_COMMIT, TCP_SCHEMA_VERSION);
	return 0;
}

int main(int argc, char **argv)
{
	char nb[512];
	if (argc < 2) {
		fprintf(stderr, "tcprobe: no command: got nothing, expected one of %s (tcprobe --help)\n",
			command_names(nb, sizeof(nb)));
		return 2;
	}
	const char *c = argv[1];
	if (!strcmp(c, "help") && argc == 2) {
		char *hv[] = { argv[0], "--help", NULL };
		return own_options(2, hv);
	}
	if (c[0] == '-')
		return own_options(argc, argv);
	if (!strcmp(c, "help")) {
		const tcp_command_t *t = find(argv[2]);
		if (!t) {
			fprintf(stderr, "tcprobe: help: unknown command: got '%s', expected one of %s\n",
				argv[2], command_names(nb, sizeof(nb)));
			return 2;
		}
		/* a slot before the command, as for a normal dispatch (argv + 1) */
		char *hv[] = { argv[0], argv[2], "--help", NULL };
		return t->fn(2, hv + 1);
	}
	const tcp_command_t *t = find(c);
	if (!t) {
		fprintf(stderr, "tcprobe: unknown command: got '%s', expected one of %s (tcprobe --help)\n",
			c, command_names(nb, sizeof(nb)));
		return 2;
	}
	return t->fn(argc - 1, argv + 1);
}
