/*
 * columns.c
 *	The fixed columns of measurements.csv as data (columns.h), and as the
 *	markdown table docs/results.md holds.
 */
#include "harness/store/columns.h"

const tcp_column_t tcp_columns[TCP_NCOLS] = {
#define TCP_COL_ROW(name, type, version, doc) { #name, #type, version, doc },
	TCP_COLUMNS(TCP_COL_ROW)
#undef TCP_COL_ROW
};

int tcp_columns_markdown(FILE *f)
{
	fprintf(f, "| column | type | since | meaning |\n|---|---|---|---|\n");
	for (int i = 0; i < TCP_NCOLS; i++)
		fprintf(f, "| `%s` | %s | v%d | %s |\n", tcp_columns[i].name, tcp_columns[i].type,
			tcp_columns[i].version, tcp_columns[i].doc);
	return fflush(f) == 0 && !ferror(f) ? 0 : -1;
}
