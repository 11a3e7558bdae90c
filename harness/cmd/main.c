/*
 * main.c
 *	`tcprobe <command> [args]`: dispatch through the command table
 *	(harness/cmd/cmd-list.h); help is generated from the same table.
 */
#include <stdio.h>
#include <string.h>

#include "harness/cmd/cmd-list.h"
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

static void usage(FILE *f)
{
	fprintf(f, "usage: tcprobe <command> [options]   (tcprobe <command> --help for its options)\n"
		   "Tensor-core microbenchmarks: Hopper wgmma (sm_90a) and Blackwell tcgen05 (sm_100a).\n"
		   "\ncommands:\n");
	char nb[32];
	for (int i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-10s %s\n", shown(commands[i].name, nb, sizeof(nb)), commands[i].help);
	fprintf(f, "\n  help [COMMAND]   this text, or a command's --help\n"
		   "  --version        build (git commit) and CSV schema version\n"
		   "exit: 0 ok, 1 a result to act on, 2 bad input; see each command's --help\n");
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

int main(int argc, char **argv)
{
	char nb[512];
	if (argc < 2) {
		fprintf(stderr, "tcprobe: no command: got nothing, expected one of %s (tcprobe --help)\n",
			command_names(nb, sizeof(nb)));
		return 2;
	}
	const char *c = argv[1];
	if (!strcmp(c, "--help") || !strcmp(c, "-h") || (!strcmp(c, "help") && argc == 2)) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(c, "--version")) {
		printf("tcprobe %s (CSV schema %d)\n", TCP_GIT_COMMIT, TCP_SCHEMA_VERSION);
		return 0;
	}
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
