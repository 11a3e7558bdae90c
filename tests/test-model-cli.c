/*
 * test-model-cli.c
 *	The model's commands (harness/cmd/cmd-arch.c): exit status 0 for good
 *	requests, 2 for bad input with the legality reason, 1 for a plan that
 *	does not fit; the printed hex matches the model.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <cmocka.h>

#include "harness/cmd/cmd-list.h"

static char last_err[4096];	/* the last command's stderr */

/* Run a command with stdout captured into buf (stderr into last_err); returns its exit status. */
static int run(int (*fn)(int, char **), char *buf, size_t len, ...)
{
	char *argv[32];
	int argc = 0, rc, saved, saved_err;
	va_list ap;
	FILE *tmp = tmpfile(), *etmp = tmpfile();

	va_start(ap, len);
	while (argc < 31 && (argv[argc] = va_arg(ap, char *)) != NULL)
		argc++;
	va_end(ap);
	argv[argc] = NULL;
	fflush(stdout);
	fflush(stderr);
	saved = dup(1);
	saved_err = dup(2);
	dup2(fileno(tmp), 1);
	dup2(fileno(etmp), 2);	/* the commands' one-line errors are expected here */
	rc = fn(argc, argv);
	fflush(stdout);
	fflush(stderr);
	dup2(saved, 1);
	dup2(saved_err, 2);
	close(saved);
	close(saved_err);
	rewind(etmp);
	last_err[fread(last_err, 1, sizeof(last_err) - 1, etmp)] = '\0';
	fclose(etmp);
	rewind(tmp);
	buf[fread(buf, 1, len - 1, tmp)] = '\0';
	fclose(tmp);
	return rc;
}

static void test_encode_decode(void **state)
{
	static char out[65536];

	(void)state;
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "f16", "--a", "bf16",
			     "--b", "bf16", "--d", "f32", "--m", "128", "--n", "256", NULL), 0);
	assert_non_null(strstr(out, "idesc 0x08400490"));
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "i8", "--cta-group",
			     "2", "--m", "256", "--n", "48", NULL), 2);
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "nope", NULL), 2);
	/* per target (model/arch.c): kind::i8 exists on sm_100a and sm_110a, not on sm_103a */
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "i8", "--arch", "sm_100a",
			     NULL), 0);
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "i8", "--arch", "sm_110a",
			     NULL), 0);
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "i8", "--arch", "sm_103a",
			     NULL), 2);
	assert_non_null(strstr(last_err, "kind::i8 does not exist on sm_103a"));
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "i8", "--arch", "sm_90a",
			     NULL), 2);
	assert_non_null(strstr(last_err, "expected a tcgen05 target: sm_100a, sm_103a, sm_110a"));
	/* K = 96 (idesc bit 31): mxf4nvf4 on sm_103a only */
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "mxf4nvf4", "--k", "96",
			     "--arch", "sm_103a", NULL), 0);
	assert_non_null(strstr(out, "31     K96 (sm_103a)         1"));
	assert_non_null(strstr(out, "K = 96, FLOP per MMA = 3145728"));
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "mxf4nvf4", "--k", "96",
			     "--arch", "sm_100a", NULL), 2);
	assert_non_null(strstr(last_err, "not on sm_100a"));
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "mxf4nvf4", "--k", "64",
			     NULL), 2);
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "idesc", "--kind", "f16", "--m", "x", NULL), 2);
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "sdesc", "--start", "0x400", "--lbo", "16",
			     "--sbo", "1024", "--layout", "sw128", NULL), 0);
	assert_non_null(strstr(out, "sdesc 0x4000404000010040"));
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "sdesc", "--start", "0x400", "--lbo", "16",
			     "--sbo", "1024", "--layout", "sw128", "--hopper", NULL), 0);
	assert_non_null(strstr(out, "0x4000004000010040"));
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "sdesc", "--start", "0x408", NULL), 2);
	assert_int_equal(run(tcp_cmd_encode, out, sizeof(out), "encode", "sdesc", "--layout", "sw128-32b",
			     "--hopper", NULL), 2);
	assert_int_equal(run(tcp_cmd_decode, out, sizeof(out), "decode", "idesc", "0x08400490", "--kind", "f16",
			     NULL), 0);
	assert_non_null(strstr(out, "N = 256"));
	assert_int_equal(run(tcp_cmd_decode, out, sizeof(out), "decode", "idesc", "0x08400490", NULL), 2);
	assert_int_equal(run(tcp_cmd_decode, out, sizeof(out), "decode", "sdesc", "0x4000004000010040", NULL), 2);
	assert_int_equal(run(tcp_cmd_decode, out, sizeof(out), "decode", "sdesc", "0x4000004000010040", "--hopper",
			     NULL), 0);
}

static void test_layout_plan_k4(void **state)
{
	static char out[1 << 20];

	(void)state;
	assert_int_equal(run(tcp_cmd_layout, out, sizeof(out), "layout", "--cta-group", "2", "--m", "128", "--n",
			     "16", "--at", "10,11", NULL), 0);
	assert_non_null(strstr(out, "CTA 0 (even), lane 74, column 3"));
	assert_int_equal(run(tcp_cmd_layout, out, sizeof(out), "layout", "--cta-group", "2", "--m", "64", "--n",
			     "16", "--at", "1,1", NULL), 2);
	assert_int_equal(run(tcp_cmd_layout, out, sizeof(out), "layout", "--cta-group", "1", "--m", "64", "--n",
			     "8", "--all", NULL), 0);
	assert_non_null(strstr(out, "\n63,7,0,111,7\n"));
	assert_int_equal(run(tcp_cmd_tmem_plan, out, sizeof(out), "tmem_plan", "--m", "128", "--n", "256",
			     "--stages", "2", NULL), 0);
	assert_non_null(strstr(out, "512 of 512"));
	assert_int_equal(run(tcp_cmd_tmem_plan, out, sizeof(out), "tmem_plan", "--m", "128", "--n", "256",
			     "--stages", "3", NULL), 1);
	assert_int_equal(run(tcp_cmd_tmem_plan, out, sizeof(out), "tmem_plan", "--m", "96", "--n", "256", NULL), 2);
	assert_int_equal(run(tcp_cmd_tmem_plan, out, sizeof(out), "tmem_plan", "--all", "--csv", NULL), 0);
	assert_non_null(strstr(out, "128,256,1,2,512,512,1,1\n"));
	assert_non_null(strstr(out, "128,256,1,3,768,0,0,0\n"));
	assert_int_equal(run(tcp_cmd_k4, out, sizeof(out), "k4", "--csv", NULL), 0);
	assert_non_null(strstr(out, "sm_90,f16,16,8,4,4096,1024,1.00,"));
	assert_non_null(strstr(out, "sm_100,mxf4,64,8,16,32768,2048,2.00,"));
	assert_non_null(strstr(out, "\nsm_103,mxf4nvf4,96,8,24,49152,2048,2.00,\"estimate: "));	/* derived, not published */
	assert_int_equal(run(tcp_cmd_k4, out, sizeof(out), "k4", "--bogus", NULL), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_encode_decode),
		cmocka_unit_test(test_layout_plan_k4),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
