/*
 * exits.c
 *	The exit table (harness/store/exit.h) as text: a command's usage
 *	"exit:" line and docs/exit-codes.md's table (`tcprobe list
 *	--exit-codes`).
 */
#include <stdio.h>
#include <string.h>

#include "harness/cmd/options.h"
#include "harness/store/exit.h"

typedef struct {
	int code;
	const char *brief, *meaning, *cmds, *example;
} exit_row_t;

#define TCP_EXIT_ROW(code, name, brief, meaning, cmds, example) { code, brief, meaning, cmds, example },
static const exit_row_t rows[] = { TCP_EXITS(TCP_EXIT_ROW) };
#define NROWS ((int)(sizeof(rows) / sizeof(rows[0])))

/*
 *  what_for()
 *	What row r means for command cmd: the gloss of its item ("CMD: ..."),
 *	else the brief when the row is cmd's or "all"'s; NULL when cmd never
 *	returns it.  *n: the text's length.
 */
static const char *what_for(const exit_row_t *r, const char *cmd, int *n)
{
	int mine = 0;

	for (const char *p = r->cmds; *p;) {
		size_t item = strcspn(p, ";"), name = strcspn(p, ":;");
		if (name == strlen(cmd) && !strncmp(p, cmd, name)) {
			if (name == item) {
				mine = 1;
				break;
			}
			*n = (int)(item - name - 2);
			return p + name + 2;	/* after "CMD: " */
		}
		mine |= name == 3 && !strncmp(p, "all", 3);
		p += item + strspn(p + item, "; ");
	}
	*n = (int)strlen(r->brief);
	return mine ? r->brief : NULL;
}

void tcp_exit_usage(FILE *f, const char *cmd)
{
	char line[2048];
	size_t o = (size_t)snprintf(line, sizeof(line), "exit:");
	int n = 0;

	for (int i = 0; i < NROWS && o < sizeof(line); i++) {
		const char *w = cmd ? what_for(&rows[i], cmd, &n) : (n = (int)strlen(rows[i].brief), rows[i].brief);
		if (w)
			o += (size_t)snprintf(line + o, sizeof(line) - o, "%s %d%c%.*s", o > 5 ? "," : "", rows[i].code, TCP_NBSP,
					      n, w);
	}
	if (o < sizeof(line))
		snprintf(line + o, sizeof(line) - o, "; docs/exit-codes.md");
	tcp_text_wrap(f, line, 0, 6, 80);
	fputc('\n', f);
}

/* The commands column: "all", or the items' command names. */
static void commands_cell(FILE *f, const char *cmds)
{
	for (const char *p = cmds; *p;) {
		size_t item = strcspn(p, ";"), name = strcspn(p, ":;");
		fprintf(f, "%s%.*s", p == cmds ? "" : ", ", (int)name, p);
		if (name == 3 && !strncmp(p, "all", 3))
			return;
		p += item + strspn(p + item, "; ");
	}
}

int tcp_exit_markdown(FILE *f)
{
	fprintf(f, "| status | meaning | commands | example line (stderr) |\n|---|---|---|---|\n");
	for (int i = 0; i < NROWS; i++) {
		fprintf(f, "| %d | %s | ", rows[i].code, rows[i].meaning);
		commands_cell(f, rows[i].cmds);
		fprintf(f, " | %s%s|\n", rows[i].example, *rows[i].example ? " " : "");
	}
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
