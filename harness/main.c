/* placeholder entry point: the harness issue replaces it with the real CLI */
#include <stdio.h>

#include "probes/common/probe.h"

int main(void)
{
	for (int i = 0; i < tcp_nprobes; i++)
		printf("%s\t%s\t%s\n", tcp_probes[i]->name, tcp_arch_name(tcp_probes[i]->arch),
		       tcp_probes[i]->help);
	return 0;
}
